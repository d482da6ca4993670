// SPDX-License-Identifier: MIT
/*
 * cmd_snapshot.c - `ftscope snapshot`: ask the flight recorder that records
 * into a directory to keep its segments. It finds the recorder by the pid
 * file there (checked against /proc: a stale one is refused with why),
 * leaves the reason in a request file named after its own pid, sends
 * SIGUSR1 and waits for the answer file with the snapshot's path.
 */
#include "cli/commands.h"
#include "cli/opts.h"
#include "app/flight_ctl.h"
#include "app/flight_segment.h"
#include "app/msg.h"
#include "app/term_safe.h"
#include "core/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define WAIT_MS 120000   /* the recorder closes and assembles a segment first: seconds on a slow disk */

enum { S_REASON = 1, S_DIR, S_LAST, S_HELP };

static const struct fts_opt_spec snapshot_opts[] = {
	{ "reason", 'r', 1, S_REASON },
	{ "dir", 'd', 1, S_DIR },
	{ "last", 0, 1, S_LAST },
	{ "help", 'h', 0, S_HELP },
	{ NULL, 0, 0, 0 },
};

#define say(...) fts_msg_err("snapshot", __VA_ARGS__)

static void usage(void)
{
	printf("usage: ftscope snapshot [--reason TEXT] [--dir DIR] [--last S]\n"
	       "Ask the flight recorder ('ftscope record --flight') that records into DIR to keep\n"
	       "its segments in DIR/snapshot-<UTC time>-<reason>/; recording goes on.\n\n"
	       "  -r, --reason TEXT     why (default manual); kept in the manifest, and made safe\n"
	       "                        for the directory's name\n"
	       "  -d, --dir DIR         the recorder's output directory (default .)\n"
	       "  --last S              only the segments that end in the last S seconds\n"
	       "                        (default: all kept)\n"
	       "  -h, --help            this text ('man ftscope-snapshot' for more)\n\n"
	       "Exit status: 0 taken (its path on stdout), 1 no recorder, a stale pid file or\n"
	       "the snapshot failed, 2 bad arguments.\n");
}

/*
 * The answer to our request in @dfd, waited for; 0 with its text, -1 on
 * timeout, -2 when @pid exited. Only a regular file is read, without
 * blocking: a FIFO put there must not hang us.
 */
static int wait_answer(int dfd, pid_t pid, char *buf, size_t len)
{
	char name[64];
	uint64_t until = fts__clock_mono_ms() + WAIT_MS;

	snprintf(name, sizeof(name), "%s%d", FTS_FLIGHT_DONE, (int)getpid());
	while (fts__clock_mono_ms() < until) {
		int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
		struct stat st;

		if (fd >= 0) {
			ssize_t n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, buf, len - 1) : -1;

			close(fd);
			unlinkat(dfd, name, 0);
			buf[n > 0 ? n : 0] = 0;
			if (n > 0 && buf[n - 1] == '\n')
				buf[n - 1] = 0;
			if (n < 0)
				snprintf(buf, len, "error: the answer %s is not a regular file", name);
			return 0;
		}
		/* a recorder stopping (or killed) never answers: say so at once */
		if (kill(pid, 0) < 0 && errno == ESRCH)
			return -2;
		nanosleep(&(struct timespec){ 0, 50000000L }, NULL);
	}
	return -1;
}

/* The request: temp + rename in @dfd, so the recorder never reads half of it; O_EXCL, no FIFO opened. */
static int write_request(int dfd, const char *dir, const char *name, double last_s, const char *reason)
{
	char tmp[96];
	FILE *f;
	int fd;

	snprintf(tmp, sizeof(tmp), ".%s.tmp", name);
	(void)unlinkat(dfd, tmp, 0);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		say("cannot write %s/%s: %s", dir, tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fprintf(f, "last_s=%g\n%s", last_s, reason);
	if (fclose(f) || renameat(dfd, tmp, dfd, name)) {
		say("cannot write %s/%s: %s", dir, name, strerror(errno));
		unlinkat(dfd, tmp, 0);
		return -1;
	}
	return 0;
}

int fts_cmd_snapshot(int argc, char **argv)
{
	const char *reason = "manual", *dir = ".";
	char why[PATH_MAX + 256], name[64], answer[PATH_MAX + 300];
	double last_s = 0;
	struct fts_opts p;
	pid_t pid;
	int id, dfd, rc;

	fts_opts_init(&p, "snapshot", argc, argv);
	while ((id = fts_opts_next(&p, snapshot_opts)) != -1) {
		switch (id) {
		case -2: return 2;
		case S_REASON: reason = p.arg; break;
		case S_DIR: dir = p.arg; break;
		case S_LAST:
			if (fts_parse_seconds(p.arg, 1e7, &last_s)) {
				say("--last takes seconds (0 to 1e7), not '%s'", p.arg);
				return 2;
			}
			break;
		case S_HELP: usage(); return 0;
		}
	}
	if (strlen(reason) > 400) {
		say("--reason is too long (400 bytes at most)");
		return 2;
	}
	if (fts_flight_pid_check(dir, &pid, why, sizeof(why)) != 1) {
		say("%s", why);
		return 1;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		say("cannot open %s: %s", dir, strerror(errno));
		return 1;
	}
	/* The request first, then the signal (to a process proven a flight recorder above). */
	snprintf(name, sizeof(name), "%s%d", FTS_FLIGHT_REQUEST, (int)getpid());
	if (write_request(dfd, dir, name, last_s, reason)) {
		close(dfd);
		return 1;
	}
	if (kill(pid, SIGUSR1) < 0) {
		say("cannot signal the flight recorder (pid %d): %s", (int)pid, strerror(errno));
		unlinkat(dfd, name, 0);
		close(dfd);
		return 1;
	}
	rc = wait_answer(dfd, pid, answer, sizeof(answer));
	if (rc) {
		if (rc == -2)
			say("the flight recorder (pid %d) exited before taking the snapshot", (int)pid);
		else
			say("the flight recorder (pid %d) did not answer within %d s", (int)pid, WAIT_MS / 1000);
		unlinkat(dfd, name, 0);
		close(dfd);
		return 1;
	}
	close(dfd);
	if (!strncmp(answer, "error: ", 7)) {
		say("%s", answer + 7);
		return 1;
	}
	fts_fputs_safe(stdout, answer);
	fputc('\n', stdout);
	return fflush(stdout) ? 1 : 0;
}
