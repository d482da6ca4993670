// SPDX-License-Identifier: MIT
/*
 * place.c - where an output goes, watched while recording. The streams are
 * unlinked files that keep working whatever happens to their directory; only
 * the final file needs one. So the recorder holds the output's directory
 * open (O_PATH) and checks, each time it is asked, that the directory's
 * path still leads there:
 *
 *   renamed or moved (the held directory still has a name): the capture is
 *     saved into it, at its new path (/proc/self/fd/N names it);
 *   removed: a new directory ftscope-saved-XXXXXX is made at once in the
 *     nearest existing ancestor of the old one (else /var/tmp, else /tmp), so
 *     the user is told where before the end, and the capture goes there.
 *
 * The file is then written relative to the held (or made) directory's
 * descriptor (rec_place_dirfd), never through its path, which the user who
 * owns the parent may have swapped for a symlink by then.
 *
 * A place whose directory is another place's (the pid mapping beside the
 * output) follows that one, so both land in the same directory.
 */
#include "core/record/record_local.h"
#include "core/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define POLL_NS 200000000u   /* at most one check per 200 ms, whoever asks */

enum place_state { PLACE_SAME = 0, PLACE_MOVED, PLACE_REMOVED };

struct rec_place {
	struct rec_place *follow;     /* the place whose directory this one shares, or NULL */
	int dfd;                      /* the directory, O_PATH */
	int rescue_fd;                /* the directory made when it was removed, or -1 */
	dev_t dev;
	ino_t ino;
	char given[PATH_MAX];         /* the path as the caller gave it */
	char dir[PATH_MAX];           /* its directory, absolute, as it was at start */
	char base[NAME_MAX + 1];
	struct fts_owner owner;
	pthread_mutex_t lock;         /* guards what follows */
	enum place_state state;
	int generation;               /* changes every time the place does */
	char now[PATH_MAX];           /* the directory it will be saved in, when not SAME */
	uint64_t polled_ns;
};

int rec_place_open(const char *path, const struct fts_owner *owner, struct rec_place *near,
		   struct rec_place **out, struct fts_err *err)
{
	struct rec_place *p = calloc(1, sizeof(*p));
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	struct stat st;

	*out = NULL;
	if (!p)
		return fts_err_set(err, -ENOMEM, "out of memory");
	snprintf(dir, sizeof(dir), "%.*s", !slash ? 1 : slash == path ? 1 : (int)(slash - path), !slash ? "." : path);
	snprintf(p->given, sizeof(p->given), "%s", path);
	snprintf(p->base, sizeof(p->base), "%s", slash ? slash + 1 : path);
	if (owner)
		p->owner = *owner;
	pthread_mutex_init(&p->lock, NULL);
	p->rescue_fd = -1;
	p->dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (p->dfd < 0 || fstat(p->dfd, &st) < 0 || !realpath(dir, p->dir)) {
		int e = errno;

		rec_place_free(p);
		return fts_err_set(err, -e, "%s: cannot hold its directory: %s", path, strerror(e));
	}
	p->dev = st.st_dev;
	p->ino = st.st_ino;
	if (near && near->dev == p->dev && near->ino == p->ino)
		p->follow = near;
	*out = p;
	return 0;
}

/* The held directory's name now, "" when it has none (removed). */
static void held_name(const struct rec_place *p, char *buf, size_t len)
{
	char link[64];
	struct stat st;
	ssize_t n;
	const char *del = " (deleted)";
	size_t dl = strlen(del);

	buf[0] = 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", p->dfd);
	n = readlink(link, buf, len - 1);
	if (n <= 0) {
		buf[0] = 0;
		return;
	}
	buf[n] = 0;
	/* nlink is 0 after rmdir on most file systems; btrfs keeps 1, the link says it */
	if ((fstat(p->dfd, &st) == 0 && st.st_nlink == 0) || buf[0] != '/' ||
	    ((size_t)n >= dl && !strcmp(buf + n - dl, del)))
		buf[0] = 0;
}

/*
 * Open the directory mkdtemp just made at @path, and only it: a name swapped
 * meanwhile (for a symlink, or another directory) is refused, as it would be
 * root's directory being handed to the user. -1 when it is not ours.
 */
static int hold_made_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 07777) != 0700 || st.st_nlink != 2) {
		close(fd);
		return -1;
	}
	return fd;
}

/* A new directory for a capture whose directory was removed: near where it was, else /var/tmp, /tmp. */
static int make_rescue(struct rec_place *p)
{
	char at[PATH_MAX], tmpl[PATH_MAX + 32];
	int fd = -1;

	snprintf(at, sizeof(at), "%s", p->dir);
	for (;;) {
		char *slash = strrchr(at, '/');
		struct stat st;

		if (!slash)
			break;
		if (slash == at)
			slash[1] = 0;   /* "/" itself is tried last */
		else
			*slash = 0;
		snprintf(tmpl, sizeof(tmpl), "%s/ftscope-saved-XXXXXX", strcmp(at, "/") ? at : "");
		if (stat(at, &st) == 0 && S_ISDIR(st.st_mode) && mkdtemp(tmpl) && (fd = hold_made_dir(tmpl)) >= 0)
			goto made;
		if (!strcmp(at, "/"))
			break;
	}
	snprintf(tmpl, sizeof(tmpl), "/var/tmp/ftscope-saved-XXXXXX");
	if (!mkdtemp(tmpl) || (fd = hold_made_dir(tmpl)) < 0) {
		snprintf(tmpl, sizeof(tmpl), "/tmp/ftscope-saved-XXXXXX");
		if (!mkdtemp(tmpl) || (fd = hold_made_dir(tmpl)) < 0)
			return errno ? -errno : -EPERM;
	}
made:
	/* like a directory the user made: readable, and theirs when run through sudo (on the fd, never the name) */
	(void)fchmod(fd, 0755);
	if (p->owner.set && fchown(fd, (uid_t)p->owner.uid, (gid_t)p->owner.gid) < 0) {
		/* root keeps it; the file inside is still handed over at commit */
	}
	if (strlen(tmpl) >= sizeof(p->now)) {
		close(fd);
		return -ENAMETOOLONG;
	}
	memcpy(p->now, tmpl, strlen(tmpl) + 1);
	p->rescue_fd = fd;
	return 0;
}

/* Look again (lock held): same, moved or removed. */
static void check(struct rec_place *p)
{
	char name[PATH_MAX];
	struct stat st;

	if (p->state == PLACE_REMOVED)
		return;   /* its directory is chosen; a second move of it is the user's */
	held_name(p, name, sizeof(name));
	if (!name[0]) {
		if (make_rescue(p) == 0) {
			p->state = PLACE_REMOVED;
			p->generation++;
		}
		return;
	}
	if (stat(p->dir, &st) == 0 && st.st_dev == p->dev && st.st_ino == p->ino) {
		if (p->state != PLACE_SAME)
			p->generation++;   /* moved back */
		p->state = PLACE_SAME;
		return;
	}
	if (p->state != PLACE_MOVED || strcmp(p->now, name)) {
		snprintf(p->now, sizeof(p->now), "%s", name);
		p->state = PLACE_MOVED;
		p->generation++;
	}
}

int rec_place_poll(struct rec_place *p, int force)
{
	uint64_t now = fts__clock_mono_ns();
	int gen;

	if (p->follow) {
		(void)rec_place_poll(p->follow, force);
		return 0;   /* its changes are the followed place's, counted there */
	}
	pthread_mutex_lock(&p->lock);
	if (force || !p->polled_ns || now - p->polled_ns >= POLL_NS) {
		p->polled_ns = now;
		check(p);
	}
	gen = p->generation;
	pthread_mutex_unlock(&p->lock);
	return gen;
}

int rec_place_target(struct rec_place *p, char *buf, size_t len)
{
	struct rec_place *d = p->follow ? p->follow : p;
	int n, moved;

	pthread_mutex_lock(&d->lock);
	moved = d->state != PLACE_SAME;
	if (moved)
		n = snprintf(buf, len, "%s/%s", strcmp(d->now, "/") ? d->now : "", p->base);
	else
		n = snprintf(buf, len, "%s", p->given);
	pthread_mutex_unlock(&d->lock);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : moved;
}

int rec_place_dirfd(struct rec_place *p)
{
	struct rec_place *d = p->follow ? p->follow : p;
	int fd;

	pthread_mutex_lock(&d->lock);
	fd = d->state == PLACE_REMOVED ? d->rescue_fd : d->dfd;
	pthread_mutex_unlock(&d->lock);
	return fd;
}

const char *rec_place_base(const struct rec_place *p)
{
	return p->base;
}

void rec_place_note(struct rec_place *p, char *buf, size_t len)
{
	struct rec_place *d = p->follow ? p->follow : p;
	char target[PATH_MAX];

	buf[0] = 0;
	if (rec_place_target(p, target, sizeof(target)) <= 0)
		return;
	if (p->follow) {
		snprintf(buf, len, "%s goes beside it", p->base);
		return;
	}
	pthread_mutex_lock(&d->lock);
	if (d->state == PLACE_REMOVED)
		snprintf(buf, len, "the directory %.1000s was removed while recording; %s goes to %.1500s",
			 d->dir, p->base, target);
	else
		snprintf(buf, len, "the directory %.1000s was renamed or moved to %.1000s while recording; "
			 "%s goes to %.1500s", d->dir, d->now, p->base, target);
	pthread_mutex_unlock(&d->lock);
}

void rec_place_free(struct rec_place *p)
{
	if (!p)
		return;
	if (p->dfd >= 0)
		close(p->dfd);
	if (p->rescue_fd >= 0)
		close(p->rescue_fd);
	pthread_mutex_destroy(&p->lock);
	free(p);
}
