// SPDX-License-Identifier: MIT
/*
 * flight_ctl.c - the flight recorder's files in the output directory (see
 * flight_ctl.h), shared by `record --flight` and the TUI's session. The pid
 * file carries the process's start time so a pid reused by another program
 * is not taken for the recorder; every file is opened without following
 * symlinks or blocking (a FIFO), regular files only, and written by temp +
 * rename.
 *
 * The pid file is the recorder's claim and its proof of life: made 0600 by
 * root with O_EXCL or taken over under an exclusive flock (so of two
 * recorders started together exactly one runs), and held open until the
 * end. `ftscope snapshot` signals only a process that holds it open (its
 * /proc/PID/fd links): a file anyone wrote naming any process (a plain
 * `record`, a `preview`) is refused, as is one not owned by the caller or
 * root, or writable by others. A socket would prove the same but needs a
 * listener in every front (the TUI's loop too); the open file is the
 * kernel's own record, and it dies with the process.
 */
#include "app/flight_ctl.h"
#include "core/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

void fts_flight_dir(const char *output, char *buf, size_t len)
{
	const char *slash = strrchr(output, '/');

	if (!slash)
		snprintf(buf, len, ".");
	else
		snprintf(buf, len, "%.*s", slash == output ? 1 : (int)(slash - output), output);
}

int fts_flight_stem_ok(const char *output)
{
	const char *base = strrchr(output, '/') ? strrchr(output, '/') + 1 : output;
	size_t l = strlen(base);

	if (l >= 4 && !strcmp(base + l - 4, ".dat"))
		l -= 4;
	return l > 0 && !(l == 1 && base[0] == '.');
}

/* Field 22 of /proc/PID/stat (after the comm, which may hold spaces and ')'). */
static unsigned long long start_time(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = strrchr(buf, ')');
	if (!p)
		return 0;
	/* after ") ": state is field 3; start time is field 22 */
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		t = strtoull(p + 1, NULL, 10);
	return t;
}

/*
 * Read the small regular file @name in @dfd: never blocking (a FIFO named
 * so would hang open() or read()), never through a symlink, and only when
 * @st (filled) says it is a regular file. Bytes read, or a negative errno.
 */
static int read_small_at(int dfd, const char *name, char *buf, size_t len, struct stat *st)
{
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	ssize_t n;

	if (fd < 0)
		return -errno;
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
		close(fd);
		return -EINVAL;
	}
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return (int)n;
}

static int read_small(const char *path, char *buf, size_t len)
{
	struct stat st;

	return read_small_at(AT_FDCWD, path, buf, len, &st);
}

/* Our own file in @dfd, written by temp + rename (O_EXCL: no FIFO or file of someone else's is opened). */
static int write_atomic_at(int dfd, const char *name, const char *text)
{
	char tmp[NAME_MAX + 1];
	size_t l = strlen(text);
	int fd, rc = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), ".%s.tmp%d", name, (int)getpid()) >= sizeof(tmp))
		return -ENAMETOOLONG;
	(void)unlinkat(dfd, tmp, 0);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	if (write(fd, text, l) != (ssize_t)l)
		rc = -(errno ? errno : EIO);
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (!rc && renameat(dfd, tmp, dfd, name) < 0)
		rc = -errno;
	if (rc)
		unlinkat(dfd, tmp, 0);
	return rc;
}

/* 1 when process @pid holds the file @dev/@ino open (one of its /proc/PID/fd links), 0 when not. */
static int holds_open(pid_t pid, dev_t dev, ino_t ino)
{
	char path[64], link[384];
	struct dirent *e;
	struct stat st;
	int found = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "%s/%s", path, e->d_name);
		found = stat(link, &st) == 0 && st.st_dev == dev && st.st_ino == ino;
	}
	closedir(d);
	return found;
}

/* A pid file to believe: ours (or root's), and nobody else may have written it. */
static int trusted(const struct stat *st)
{
	return (st->st_uid == geteuid() || st->st_uid == 0) && !(st->st_mode & 022);
}

int fts_flight_pid_check(const char *dir, pid_t *pid, char *why, size_t len)
{
	char path[PATH_MAX], buf[128], comm[64];
	long long p = 0;
	unsigned long long t = 0;
	struct stat st;
	int n;

	*pid = 0;
	snprintf(path, sizeof(path), "%s/%s", dir, FTS_FLIGHT_PIDFILE);
	n = read_small_at(AT_FDCWD, path, buf, sizeof(buf), &st);
	if (n == -ENOENT) {
		snprintf(why, len, "no flight recorder runs here (no %s/%s)", dir, FTS_FLIGHT_PIDFILE);
		return 0;
	}
	if (n == -EINVAL || n == -ELOOP) {
		snprintf(why, len, "%s is not a regular file; not a flight recorder's pid file", path);
		return -1;
	}
	if (n < 0) {
		snprintf(why, len, "cannot read %s: %s", path, strerror(-n));
		return -1;
	}
	if (!trusted(&st)) {
		snprintf(why, len, "%s is not trusted: it belongs to uid %u%s (a recorder's is root's, mode 0600)",
			 path, (unsigned)st.st_uid, st.st_mode & 022 ? " and others may write it" : "");
		return -1;
	}
	if (sscanf(buf, "%lld %llu", &p, &t) != 2 || p <= 0 || p > INT_MAX) {
		snprintf(why, len, "%s is not a flight recorder's pid file (\"PID STARTTIME\")", path);
		return -1;
	}
	if (start_time((pid_t)p) != t || t == 0) {
		snprintf(why, len, "%s is stale: process %lld %s (a recorder that was killed left it)", path, p,
			 start_time((pid_t)p) ? "is another program now" : "no longer runs");
		return -1;
	}
	snprintf(buf, sizeof(buf), "/proc/%lld/comm", p);
	if (read_small(buf, comm, sizeof(comm)) <= 0 || strncmp(comm, "ftscope", 7)) {
		snprintf(why, len, "%s is stale: process %lld is not ftscope", path, p);
		return -1;
	}
	/* the proof: a flight recorder holds its pid file open for as long as it runs */
	if (!holds_open((pid_t)p, st.st_dev, st.st_ino)) {
		snprintf(why, len, "%s names process %lld, which does not hold it open: not a flight recorder "
			 "(a stale or forged pid file)", path, p);
		return -1;
	}
	*pid = (pid_t)p;
	why[0] = 0;
	return 1;
}

/*
 * One try at the pid file in @dfd: 1 claimed (*@fd holds it, locked), 0 try
 * again (it changed under us), -1 refused (why in @why).
 */
static int claim_once(int dfd, const char *dir, int *fd, char *why, size_t len)
{
	struct stat st, now;
	char text[64];

	*fd = openat(dfd, FTS_FLIGHT_PIDFILE, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (*fd < 0 && errno == EEXIST)
		*fd = openat(dfd, FTS_FLIGHT_PIDFILE, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (*fd < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(why, len, "cannot open %s/%s: %s", dir, FTS_FLIGHT_PIDFILE,
			 errno == ELOOP ? "it is a symbolic link; remove it" : strerror(errno));
		return -1;
	}
	if (fstat(*fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, len, "%s/%s is not a regular file; remove it", dir, FTS_FLIGHT_PIDFILE);
		goto refused;
	}
	if (!trusted(&st)) {
		/* someone else's file: not a recorder's, whatever lock it has; ours replaces it */
		(void)unlinkat(dfd, FTS_FLIGHT_PIDFILE, 0);
		close(*fd);
		return 0;
	}
	/* exclusive: of two recorders started together exactly one gets the lock */
	if (flock(*fd, LOCK_EX | LOCK_NB) < 0) {
		ssize_t n = pread(*fd, text, sizeof(text) - 1, 0);

		text[n > 0 ? n : 0] = 0;
		snprintf(why, len, "a flight recorder (pid %d) already records into %s; stop it or choose "
			 "another directory", atoi(text), dir);
		goto refused;
	}
	/* locked; still the file the name leads to (a release unlinks it before unlocking) */
	if (fstatat(dfd, FTS_FLIGHT_PIDFILE, &now, AT_SYMLINK_NOFOLLOW) < 0 || now.st_dev != st.st_dev ||
	    now.st_ino != st.st_ino) {
		close(*fd);
		return 0;
	}
	snprintf(text, sizeof(text), "%d %llu\n", (int)getpid(), start_time(getpid()));
	if (ftruncate(*fd, 0) < 0 || pwrite(*fd, text, strlen(text), 0) != (ssize_t)strlen(text) ||
	    fchmod(*fd, 0600) < 0) {
		snprintf(why, len, "cannot write %s/%s: %s", dir, FTS_FLIGHT_PIDFILE, strerror(errno));
		goto refused;
	}
	return 1;
refused:
	close(*fd);
	*fd = -1;
	return -1;
}

int fts_flight_pid_claim(struct fts_flight_claim *c, const char *dir, char *why, size_t len)
{
	int dfd, fd = -1, rc = 0;

	if (c->held) {
		snprintf(why, len, "this recording already holds a pid file; not claiming %s", dir);
		return -1;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		snprintf(why, len, "cannot open %s: %s", dir, strerror(errno));
		return -1;
	}
	for (int tries = 0; tries < 16 && !rc; tries++)
		rc = claim_once(dfd, dir, &fd, why, len);
	if (rc != 1) {
		if (!rc)
			snprintf(why, len, "%s/%s keeps changing; not claimed", dir, FTS_FLIGHT_PIDFILE);
		close(dfd);
		return -1;
	}
	*c = (struct fts_flight_claim){ 1, fd, dfd };
	return 0;
}

void fts_flight_pid_release(struct fts_flight_claim *c)
{
	struct stat a, b;

	if (!c->held)
		return;
	/* unlinked while still locked: a claimer that opened it sees the name gone and tries again */
	if (fstat(c->fd, &a) == 0 && fstatat(c->dfd, FTS_FLIGHT_PIDFILE, &b, AT_SYMLINK_NOFOLLOW) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		unlinkat(c->dfd, FTS_FLIGHT_PIDFILE, 0);
	close(c->fd);
	close(c->dfd);
	*c = (struct fts_flight_claim){ 0, -1, -1 };
}

/* "last_s=S": seconds as the CLI's --last bounds them (0..1e7); anything else is 0, every kept segment. */
static double request_seconds(const char *v)
{
	char *end;
	double d = strtod(v, &end);

	if (end == v || !isfinite(d) || d < 0)
		return 0;
	return d > 1e7 ? 1e7 : d;
}

/* The lowest asker pid among the request files in @dfd, or -1. */
static long long lowest_request(int dfd)
{
	size_t pl = strlen(FTS_FLIGHT_REQUEST);
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	long long best = -1;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((e = readdir(d))) {
		long long p;

		if (strncmp(e->d_name, FTS_FLIGHT_REQUEST, pl) || !fts__all_digits(e->d_name + pl) ||
		    strlen(e->d_name + pl) > 10)
			continue;
		p = strtoll(e->d_name + pl, NULL, 10);
		if (p <= 0 || p > INT_MAX)
			continue;
		if (best < 0 || p < best)
			best = p;
	}
	closedir(d);
	return best;
}

/*
 * Request @name in @dfd read into @reason/@last_s; 0, or -1 when it is not a
 * regular file of root's or ours (never opened blocking: a FIFO would hang
 * the recorder). Removed either way.
 */
static int read_request(int dfd, const char *name, char *reason, size_t len, double *last_s)
{
	char buf[1024], *nl;
	struct stat st;
	int rc = -1;

	*last_s = 0;
	reason[0] = 0;
	if (read_small_at(dfd, name, buf, sizeof(buf), &st) >= 0 && (st.st_uid == geteuid() || st.st_uid == 0)) {
		nl = strchr(buf, '\n');
		if (nl && !strncmp(buf, "last_s=", 7)) {
			*last_s = request_seconds(buf + 7);
			snprintf(reason, len, "%s", nl + 1);
		} else {
			snprintf(reason, len, "%s", buf);
		}
		rc = 0;
	}
	unlinkat(dfd, name, 0);
	return rc;
}

int fts_flight_take_request(const struct fts_flight_claim *c, pid_t *asker, char *reason, size_t len,
			    double *last_s)
{
	char name[64];
	long long best;
	int dfd = c->held ? c->dfd : -1, got = 0;

	if (dfd < 0)
		return 0;
	for (int tries = 0; !got && tries < 64 && (best = lowest_request(dfd)) >= 0; tries++) {
		snprintf(name, sizeof(name), "%s%lld", FTS_FLIGHT_REQUEST, best);
		*asker = (pid_t)best;
		got = read_request(dfd, name, reason, len, last_s) == 0;
	}
	return got;
}

void fts_flight_answer(const struct fts_flight_claim *c, pid_t asker, const char *text)
{
	char name[64];

	if (!c->held)
		return;
	snprintf(name, sizeof(name), "%s%d", FTS_FLIGHT_DONE, (int)asker);
	(void)write_atomic_at(c->dfd, name, text);
}
