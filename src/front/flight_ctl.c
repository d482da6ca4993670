// SPDX-License-Identifier: MIT
/*
 * flight_ctl.c - the flight recorder's files in the output directory (see
 * flight_ctl.h), shared by `record --flight` and the TUI's session. The pid
 * file carries the process's start time so a pid reused by another program
 * is not taken for the recorder; every file is opened without following
 * symlinks and written by temp + rename.
 */
#include "front/flight_ctl.h"
#include "kit/kit.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void fts_flight_dir(const char *output, char *buf, size_t len)
{
	const char *slash = strrchr(output, '/');

	if (!slash)
		snprintf(buf, len, ".");
	else
		snprintf(buf, len, "%.*s", slash == output ? 1 : (int)(slash - output), output);
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

static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return (int)n;
}

static int write_atomic(const char *path, const char *text)
{
	char tmp[PATH_MAX];
	size_t l = strlen(text);
	int fd, rc = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, (int)getpid()) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	if (write(fd, text, l) != (ssize_t)l)
		rc = -(errno ? errno : EIO);
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path) < 0)
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

int fts_flight_pid_check(const char *dir, pid_t *pid, char *why, size_t len)
{
	char path[PATH_MAX], buf[128], comm[64];
	long long p = 0;
	unsigned long long t = 0;
	int n;

	*pid = 0;
	snprintf(path, sizeof(path), "%s/%s", dir, FTS_FLIGHT_PIDFILE);
	n = read_small(path, buf, sizeof(buf));
	if (n == -ENOENT) {
		snprintf(why, len, "no flight recorder runs here (no %s/%s)", dir, FTS_FLIGHT_PIDFILE);
		return 0;
	}
	if (n < 0) {
		snprintf(why, len, "cannot read %s: %s", path, strerror(-n));
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
	*pid = (pid_t)p;
	why[0] = 0;
	return 1;
}

int fts_flight_pid_claim(const char *dir, char *why, size_t len)
{
	char path[PATH_MAX], text[64];
	pid_t other;
	int rc = fts_flight_pid_check(dir, &other, why, len);

	if (rc == 1 && other != getpid()) {
		snprintf(why, len, "a flight recorder (pid %d) already records into %s; stop it or choose "
			 "another directory", (int)other, dir);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, FTS_FLIGHT_PIDFILE);
	snprintf(text, sizeof(text), "%d %llu\n", (int)getpid(), start_time(getpid()));
	rc = write_atomic(path, text);
	if (rc) {
		snprintf(why, len, "cannot write %s: %s", path, strerror(-rc));
		return -1;
	}
	return 0;
}

void fts_flight_pid_release(const char *dir)
{
	char why[256];
	pid_t pid;

	if (fts_flight_pid_check(dir, &pid, why, sizeof(why)) == 1 && pid == getpid()) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%s", dir, FTS_FLIGHT_PIDFILE);
		unlink(path);
	}
}

int fts_flight_take_request(const char *dir, pid_t *asker, char *reason, size_t len, double *last_s)
{
	size_t pl = strlen(FTS_FLIGHT_REQUEST);
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX], buf[1024], *nl;
	long long best = -1;

	if (!d)
		return 0;
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
	if (best < 0)
		return 0;
	snprintf(path, sizeof(path), "%s/%s%lld", dir, FTS_FLIGHT_REQUEST, best);
	*asker = (pid_t)best;
	*last_s = 0;
	reason[0] = 0;
	if (read_small(path, buf, sizeof(buf)) >= 0) {
		nl = strchr(buf, '\n');
		if (nl && !strncmp(buf, "last_s=", 7)) {
			*last_s = atof(buf + 7);
			snprintf(reason, len, "%s", nl + 1);
		} else {
			snprintf(reason, len, "%s", buf);
		}
	}
	unlink(path);
	return 1;
}

void fts_flight_answer(const char *dir, pid_t asker, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s%d", dir, FTS_FLIGHT_DONE, (int)asker);
	(void)write_atomic(path, text);
}
