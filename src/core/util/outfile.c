// SPDX-License-Identifier: MIT
/*
 * outfile.c - atomic outputs (see outfile.h).
 *
 * A temp file is named ".<target name>.tmp-<pid>-<hex>" beside its target,
 * and its writer holds an flock on it from creation to rename. The lock, not
 * the pid, says whether the writer lives: it is released when the process
 * dies however it dies, and it means the same thing across pid namespaces
 * (a container sees the host's file but not its pid) and after pid reuse.
 * So a new output removes every sibling temp file whose lock it can take.
 *
 * The registry below (fts_remove_partial_outputs) is the library's one
 * piece of global mutable state: a signal handler has no context to be
 * given. Slots are claimed with atomics and hold fixed buffers, so the
 * handler only reads flags and calls unlink().
 */
#include "ftscope/cleanup.h"
#include "core/util/outfile.h"
#include "core/util/file_util.h"
#include "core/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define OUTFILE_SLOTS 16
#define STALE_MIN_AGE_S 2   /* a live writer locks its file within microseconds */

static struct {
	int used;               /* 0 free, 1 being filled, 2 live (atomic) */
	char path[4096];
} g_partial[OUTFILE_SLOTS];

/* Registers @path for removal on a signal; the slot index, or -1 when full. */
static int partial_add(const char *path)
{
	for (int i = 0; i < OUTFILE_SLOTS; i++) {
		int expect = 0;

		if (__atomic_compare_exchange_n(&g_partial[i].used, &expect, 1, 0,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			snprintf(g_partial[i].path, sizeof(g_partial[i].path), "%s", path);
			__atomic_store_n(&g_partial[i].used, 2, __ATOMIC_RELEASE);
			return i;
		}
	}
	return -1;
}

/* Frees @slot if it still holds @path (an outfile never begun has no slot). */
static void partial_drop(int slot, const char *path)
{
	if (slot >= 0 && slot < OUTFILE_SLOTS &&
	    __atomic_load_n(&g_partial[slot].used, __ATOMIC_ACQUIRE) == 2 &&
	    strcmp(g_partial[slot].path, path) == 0)
		__atomic_store_n(&g_partial[slot].used, 0, __ATOMIC_RELEASE);
}

void fts_remove_partial_outputs(void)
{
	int saved = errno;

	for (int i = 0; i < OUTFILE_SLOTS; i++) {
		if (__atomic_load_n(&g_partial[i].used, __ATOMIC_ACQUIRE) == 2)
			unlink(g_partial[i].path);
	}
	errno = saved;
}

/* @o's target and temp file as named to the *at calls (relative to o->dfd). */
static const char *rel_target(const struct fts_outfile *o)
{
	return o->dfd == AT_FDCWD ? o->target : o->name;
}

static const char *rel_tmp(const struct fts_outfile *o)
{
	return o->dfd == AT_FDCWD ? o->tmp : o->tmpname;
}

/*
 * Removes temp files of @base in the directory open as @dfd (closed here)
 * whose writers are gone (their flock is free). Best effort: anything odd
 * is left alone.
 */
static void remove_stale(int dfd, const char *base)
{
	char prefix[512];
	struct dirent *de;
	time_t now = time(NULL);
	size_t plen;
	DIR *d;

	if (dfd < 0)
		return;
	if ((size_t)snprintf(prefix, sizeof(prefix), ".%s.tmp-", base) >= sizeof(prefix) ||
	    !(d = fdopendir(dfd))) {
		close(dfd);
		return;
	}
	plen = strlen(prefix);
	while ((de = readdir(d))) {
		struct stat sb;
		int fd;

		if (strncmp(de->d_name, prefix, plen) != 0)
			continue;
		fd = openat(dfd, de->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    now - sb.st_ctime >= STALE_MIN_AGE_S && flock(fd, LOCK_EX | LOCK_NB) == 0)
			unlinkat(dfd, de->d_name, 0);
		close(fd);
	}
	closedir(d);
}

/* @rel in @dfd, named @shown in messages: absent, or a regular file. */
static int check_target(int dfd, const char *rel, const char *shown, struct fts_err *err)
{
	struct stat sb;

	if (fstatat(dfd, rel, &sb, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISLNK(sb.st_mode))
			return fts_err_set(err, -ELOOP,
					   "%s: is a symbolic link; refusing to write through it (remove it or write elsewhere)",
					   shown);
		if (S_ISDIR(sb.st_mode))
			return fts_err_set(err, -EISDIR, "%s: is a directory; give a file name", shown);
		if (!S_ISREG(sb.st_mode))
			return fts_err_set(err, -EINVAL, "%s: exists and is not a regular file", shown);
	} else if (errno != ENOENT) {
		return fts_err_set(err, -errno, "%s: %s", shown, strerror(errno));
	}
	return 0;
}

static void init_outfile(struct fts_outfile *o, const struct fts_owner *owner)
{
	o->fd = -1;
	o->dfd = AT_FDCWD;
	o->tmp[0] = o->name[0] = o->tmpname[0] = '\0';
	o->slot = -1;
	o->owner = owner ? *owner : (struct fts_owner){ 0 };
	o->cancelled = NULL;
	o->cancel_ctx = NULL;
	atomic_init(&o->wb_from, 0);
}

/*
 * Create (and lock) the temp file, named after @base, in @dir (a path, or
 * "" in at mode, where o->tmp becomes /proc/self/fd/<dfd>/<name>: the
 * path the signal cleanup can unlink, through the held directory).
 */
static int create_tmp(struct fts_outfile *o, const char *dir, const char *base, struct fts_err *err)
{
	struct timespec ts;
	sigset_t all, old;
	int rc = 0;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	sigfillset(&all);
	for (int tries = 0; tries < 16; tries++) {
		unsigned long r = (unsigned long)(ts.tv_nsec + tries * 7919);
		int n;

		if (o->dfd == AT_FDCWD) {
			n = snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.tmp-%d-%lx", dir, base, (int)getpid(), r);
		} else {
			n = snprintf(o->tmpname, sizeof(o->tmpname), ".%s.tmp-%d-%lx", base, (int)getpid(), r);
			if (n >= 0 && (size_t)n < sizeof(o->tmpname))
				n = snprintf(o->tmp, sizeof(o->tmp), "/proc/self/fd/%d/%s", o->dfd, o->tmpname);
		}
		if (n < 0 || (size_t)n >= sizeof(o->tmp)) {
			o->tmp[0] = '\0';
			return fts_err_set(err, -ENAMETOOLONG, "%s: path too long", o->target);
		}
		/*
		 * No signal between the file's creation and its registration:
		 * a handler's fts_remove_partial_outputs would miss it (seen
		 * when a SIGHUP came as the file appeared).
		 */
		pthread_sigmask(SIG_BLOCK, &all, &old);
		o->fd = openat(o->dfd, rel_tmp(o), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		rc = o->fd < 0 ? -errno : 0;
		if (o->fd >= 0) {
			/*
			 * The lock marks the writer alive (top comment); kept until
			 * rename. Where the file system has no flock, a cleaner
			 * cannot take it either, so nothing is removed under us.
			 */
			(void)flock(o->fd, LOCK_EX | LOCK_NB);
			o->slot = partial_add(o->tmp);
		}
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (o->fd >= 0)
			return 0;
		if (rc != -EEXIST)
			break;
	}
	o->tmp[0] = o->tmpname[0] = '\0';
	return fts_err_set(err, rc, "%s: cannot create output in %s: %s", o->target, dir[0] ? dir : "its directory",
			   strerror(-rc));
}

int fts_outfile_begin(struct fts_outfile *o, const char *target, const struct fts_owner *owner,
		      struct fts_err *err)
{
	char dir[4096];
	const char *base;
	int rc;

	init_outfile(o, owner);
	if (!target[0] || strlen(target) >= sizeof(o->target) - 64)
		return fts_err_set(err, -ENAMETOOLONG, "output path is empty or too long");
	snprintf(o->target, sizeof(o->target), "%s", target);
	rc = check_target(AT_FDCWD, target, target, err);
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
	remove_stale(open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), base);
	return create_tmp(o, dir, base, err);
}

int fts_outfile_begin_at(struct fts_outfile *o, int dfd, const char *name, const char *shown,
			 const struct fts_owner *owner, struct fts_err *err)
{
	int rc;

	init_outfile(o, owner);
	snprintf(o->target, sizeof(o->target), "%s", shown && shown[0] ? shown : name);
	if (dfd < 0 || !name[0] || strchr(name, '/') || strlen(name) >= sizeof(o->name) - 64 ||
	    !strcmp(name, ".") || !strcmp(name, ".."))
		return fts_err_set(err, -EINVAL, "%s: not a file name in its directory", o->target);
	o->dfd = dfd;
	snprintf(o->name, sizeof(o->name), "%s", name);
	rc = check_target(dfd, name, o->target, err);
	if (rc)
		return rc;
	remove_stale(openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), name);
	return create_tmp(o, "", name, err);
}

/*
 * The rename lives in the directory: until the directory itself is synced a
 * power cut can bring back the old file (or none) although the data was
 * fsynced. File systems that cannot fsync a directory say EINVAL, and a
 * directory we may write but not read (a drop box) cannot be opened to sync:
 * nothing to do in either case.
 */
static int sync_dir(const struct fts_outfile *o)
{
	const char *target = o->target, *slash = strrchr(target, '/');
	char dir[4096];
	int fd, rc = 0;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == target)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - target), target);
	fd = o->dfd == AT_FDCWD ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
				: openat(o->dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == EACCES ? 0 : -errno;
	if (fsync(fd) && errno != EINVAL)
		rc = -errno;
	close(fd);
	return rc;
}

void fts_outfile_wrote(struct fts_outfile *o, uint64_t end)
{
	if (o->fd >= 0)
		fts_writeback_start(o->fd, &o->wb_from, end);
}

int fts_outfile_commit(struct fts_outfile *o, const char *const *sidecars, struct fts_err *err)
{
	char side[4096 + 16];
	int rc;

	if (o->fd >= 0) {
		/* on the open file, before the rename: no path to swap under us */
		if (o->owner.set && fchown(o->fd, (uid_t)o->owner.uid, (gid_t)o->owner.gid)) {
			rc = -errno;
			fts_outfile_abort(o);
			return fts_err_set(err, rc, "%s: cannot give the output to %u:%u: %s", o->target,
					   o->owner.uid, o->owner.gid, strerror(-rc));
		}
		if (fsync(o->fd) && errno != EINVAL) {
			rc = -errno;
			fts_outfile_abort(o);
			return fts_err_set(err, rc, "%s: write failed: %s", o->target, strerror(-rc));
		}
	}
	/* the target may have turned into a symlink since begin: check again */
	rc = check_target(o->dfd, rel_target(o), o->target, err);
	if (!rc && o->cancelled && o->cancelled(o->cancel_ctx))
		rc = fts_err_set(err, -ECANCELED, "cancelled");
	if (rc) {
		fts_outfile_abort(o);
		return rc;
	}
	for (; sidecars && *sidecars; sidecars++) {
		if ((size_t)snprintf(side, sizeof(side), "%s%s", rel_target(o), *sidecars) >= sizeof(side))
			continue;
		if (unlinkat(o->dfd, side, 0) && errno != ENOENT) {
			rc = -errno;
			fts_outfile_abort(o);
			return fts_err_set(err, rc, "%s: cannot remove stale %s: %s", o->target, side,
					   strerror(-rc));
		}
	}
	if (renameat(o->dfd, rel_tmp(o), o->dfd, rel_target(o))) {
		rc = -errno;
		fts_outfile_abort(o);
		return fts_err_set(err, rc, "%s: cannot move output into place: %s", o->target,
				   strerror(-rc));
	}
	partial_drop(o->slot, o->tmp);
	o->slot = -1;
	o->tmp[0] = o->tmpname[0] = '\0';
	rc = sync_dir(o);
	if (rc) {
		/* published but maybe not durable: say so, the file stays */
		if (o->fd >= 0)
			close(o->fd);
		o->fd = -1;
		return fts_err_set(err, rc, "%s: written, but its directory could not be synced: %s",
				   o->target, strerror(-rc));
	}
	if (o->fd >= 0) {
		/* written and fsynced through other descriptors too; the data is safe */
		rc = close(o->fd) ? -errno : 0;
		o->fd = -1;
		if (rc)
			return fts_err_set(err, rc, "%s: write failed: %s", o->target, strerror(-rc));
	}
	return 0;
}

void fts_outfile_abort(struct fts_outfile *o)
{
	/* unlink before close: the lock keeps a cleaner from racing us */
	if (o->tmp[0]) {
		unlinkat(o->dfd, rel_tmp(o), 0);
		partial_drop(o->slot, o->tmp);
		o->tmp[0] = o->tmpname[0] = '\0';
	}
	o->slot = -1;
	if (o->fd >= 0) {
		close(o->fd);
		o->fd = -1;
	}
}

int fts__outfile_put(const char *target, const void *buf, size_t n, const struct fts_owner *owner,
		     struct fts_err *err)
{
	struct fts_outfile o = { 0 };
	const char *p = buf;
	int rc = fts_outfile_begin(&o, target, owner, err);

	while (!rc && n) {
		ssize_t w = write(o.fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			rc = w < 0 ? -errno : -EIO;
			fts_outfile_abort(&o);
			return fts_err_set(err, rc, "%s: write failed: %s", target, strerror(-rc));
		}
		p += w;
		n -= (size_t)w;
	}
	return rc ? rc : fts_outfile_commit(&o, NULL, err);
}
