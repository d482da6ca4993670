#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int check_target(const char *target, struct fts_err *err)
{
	struct stat sb;

	if (lstat(target, &sb) == 0) {
		if (S_ISLNK(sb.st_mode))
			return fts_err_set(err, -ELOOP,
					   "%s: is a symbolic link; refusing to write through it (remove it or choose another --output)",
					   target);
		if (S_ISDIR(sb.st_mode))
			return fts_err_set(err, -EISDIR, "%s: is a directory; give a file name", target);
		if (!S_ISREG(sb.st_mode))
			return fts_err_set(err, -EINVAL, "%s: exists and is not a regular file", target);
	} else if (errno != ENOENT) {
		return fts_err_set(err, -errno, "%s: %s", target, strerror(errno));
	}
	return 0;
}

int fts_outfile_begin(struct fts_outfile *o, const char *target, struct fts_err *err)
{
	char dir[4096];
	const char *base;
	struct timespec ts;
	int rc;

	o->fd = -1;
	o->tmp[0] = '\0';
	if (!target[0] || strlen(target) >= sizeof(o->target) - 64)
		return fts_err_set(err, -ENAMETOOLONG, "output path is empty or too long");
	snprintf(o->target, sizeof(o->target), "%s", target);
	rc = check_target(target, err);
	if (rc)
		return rc;
	base = strrchr(target, '/');
	if (base) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(base - target), target);
		if (!dir[0])
			snprintf(dir, sizeof(dir), "/");
		base++;
	} else {
		snprintf(dir, sizeof(dir), ".");
		base = target;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	for (int tries = 0; tries < 16; tries++) {
		int n = snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.tmp-%d-%lx", dir, base,
				 (int)getpid(), (unsigned long)(ts.tv_nsec + tries * 7919));

		if (n < 0 || (size_t)n >= sizeof(o->tmp)) {
			o->tmp[0] = '\0';
			return fts_err_set(err, -ENAMETOOLONG, "%s: path too long", target);
		}
		o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (o->fd >= 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	rc = -errno;
	o->tmp[0] = '\0';
	return fts_err_set(err, rc, "%s: cannot create output in %s: %s", target, dir, strerror(-rc));
}

/*
 * Run through sudo, root's outputs go to the user who asked for them:
 * MindStudio Insight refuses files owned by someone else (contract 1.5) and
 * must be able to write the DB. Best effort: the data matters more.
 */
static void give_to_sudo_user(int fd)
{
	const char *u = getenv("SUDO_UID"), *g = getenv("SUDO_GID");
	char *end;
	unsigned long uid, gid;

	if (geteuid() != 0 || !u || !g || !*u || !*g)
		return;
	uid = strtoul(u, &end, 10);
	if (*end)
		return;
	gid = strtoul(g, &end, 10);
	if (*end || uid == 0)
		return;
	if (fchown(fd, (uid_t)uid, (gid_t)gid) != 0)
		return;
}

int fts_outfile_commit(struct fts_outfile *o, const char *const *sidecars, struct fts_err *err)
{
	char side[4096 + 16];
	int rc;

	if (o->fd >= 0) {
		give_to_sudo_user(o->fd);
		if (fsync(o->fd) && errno != EINVAL) {
			rc = -errno;
			fts_outfile_abort(o);
			return fts_err_set(err, rc, "%s: write failed: %s", o->target, strerror(-rc));
		}
		if (close(o->fd)) {
			rc = -errno;
			o->fd = -1;
			fts_outfile_abort(o);
			return fts_err_set(err, rc, "%s: write failed: %s", o->target, strerror(-rc));
		}
		o->fd = -1;
	}
	/* the target may have turned into a symlink since begin: check again */
	rc = check_target(o->target, err);
	if (rc) {
		fts_outfile_abort(o);
		return rc;
	}
	for (; sidecars && *sidecars; sidecars++) {
		if ((size_t)snprintf(side, sizeof(side), "%s%s", o->target, *sidecars) >= sizeof(side))
			continue;
		if (unlink(side) && errno != ENOENT) {
			rc = -errno;
			fts_outfile_abort(o);
			return fts_err_set(err, rc, "%s: cannot remove stale %s: %s", o->target, side,
					   strerror(-rc));
		}
	}
	if (rename(o->tmp, o->target)) {
		rc = -errno;
		fts_outfile_abort(o);
		return fts_err_set(err, rc, "%s: cannot move output into place: %s", o->target,
				   strerror(-rc));
	}
	o->tmp[0] = '\0';
	return 0;
}

void fts_outfile_abort(struct fts_outfile *o)
{
	if (o->fd >= 0) {
		close(o->fd);
		o->fd = -1;
	}
	if (o->tmp[0]) {
		unlink(o->tmp);
		o->tmp[0] = '\0';
	}
}
