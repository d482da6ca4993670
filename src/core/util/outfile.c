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
#include "kit/kit.h"

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

/*
 * Removes temp files of @base in @dir whose writers are gone (their flock
 * is free). Best effort: anything odd is left alone.
 */
static void remove_stale(const char *dir, const char *base)
{
	char prefix[512];
	struct dirent *de;
	time_t now = time(NULL);
	size_t plen;
	DIR *d;
	int dfd;

	if ((size_t)snprintf(prefix, sizeof(prefix), ".%s.tmp-", base) >= sizeof(prefix))
		return;
	plen = strlen(prefix);
	d = opendir(dir);
	if (!d)
		return;
	dfd = dirfd(d);
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

static int check_target(const char *target, struct fts_err *err)
{
	struct stat sb;

	if (lstat(target, &sb) == 0) {
		if (S_ISLNK(sb.st_mode))
			return fts_err_set(err, -ELOOP,
					   "%s: is a symbolic link; refusing to write through it (remove it or write elsewhere)",
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

int fts_outfile_begin(struct fts_outfile *o, const char *target, const struct fts_owner *owner,
		      struct fts_err *err)
{
	char dir[4096];
	const char *base;
	struct timespec ts;
	sigset_t all, old;
	int rc;

	o->fd = -1;
	o->tmp[0] = '\0';
	o->slot = -1;
	o->owner = owner ? *owner : (struct fts_owner){ 0 };
	o->cancelled = NULL;
	o->cancel_ctx = NULL;
	atomic_init(&o->wb_from, 0);
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
	remove_stale(dir, base);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	sigfillset(&all);
	for (int tries = 0; tries < 16; tries++) {
		int n = snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.tmp-%d-%lx", dir, base,
				 (int)getpid(), (unsigned long)(ts.tv_nsec + tries * 7919));

		if (n < 0 || (size_t)n >= sizeof(o->tmp)) {
			o->tmp[0] = '\0';
			return fts_err_set(err, -ENAMETOOLONG, "%s: path too long", target);
		}
		/*
		 * No signal between the file's creation and its registration:
		 * a handler's fts_remove_partial_outputs would miss it (seen
		 * when a SIGHUP came as the file appeared).
		 */
		pthread_sigmask(SIG_BLOCK, &all, &old);
		o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
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
	o->tmp[0] = '\0';
	return fts_err_set(err, rc, "%s: cannot create output in %s: %s", target, dir, strerror(-rc));
}

/*
 * The rename lives in the directory: until the directory itself is synced a
 * power cut can bring back the old file (or none) although the data was
 * fsynced. File systems that cannot fsync a directory say EINVAL, and a
 * directory we may write but not read (a drop box) cannot be opened to sync:
 * nothing to do in either case.
 */
static int sync_dir(const char *target)
{
	const char *slash = strrchr(target, '/');
	char dir[4096];
	int fd, rc = 0;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == target)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - target), target);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
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
	rc = check_target(o->target, err);
	if (!rc && o->cancelled && o->cancelled(o->cancel_ctx))
		rc = fts_err_set(err, -ECANCELED, "cancelled");
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
	partial_drop(o->slot, o->tmp);
	o->slot = -1;
	o->tmp[0] = '\0';
	rc = sync_dir(o->target);
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
		unlink(o->tmp);
		partial_drop(o->slot, o->tmp);
		o->tmp[0] = '\0';
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
