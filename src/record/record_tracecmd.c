/*
 * record_tracecmd.c - the trace-cmd backend: run `trace-cmd record` as the
 * reference does (-C mono_raw, -b, -M cpumask, -e per event), stop it with
 * SIGINT, wait for its merge, then put back every global tracing file it
 * changed (instead of the reference's `trace-cmd reset`, which resets
 * whatever else was tracing too).
 */
#include "ftscope/error.h"
#include "util/cpuset.h"
#include "util/tempfile.h"
#include "record/record_local.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <tracefs.h>
#include <unistd.h>

static const char *const global_files[] = {
	"current_tracer", "trace_clock", "buffer_size_kb", "tracing_cpumask", "set_event",
	"events/enable", "tracing_on", NULL,
};
#define NGLOBAL 7

struct saved_global {
	char *val[NGLOBAL];
};

/* The value to write back: trace_clock lists all clocks with the current one in []. */
static char *writable(const char *file, char *v)
{
	if (!v)
		return NULL;
	if (!strcmp(file, "trace_clock")) {
		char *a = strchr(v, '['), *b = a ? strchr(a, ']') : NULL;
		if (a && b) {
			memmove(v, a + 1, (size_t)(b - a - 1));
			v[b - a - 1] = '\0';
		}
	}
	return v;
}

static void snapshot(struct saved_global *s)
{
	for (int i = 0; global_files[i]; i++)
		s->val[i] = writable(global_files[i], tracefs_instance_file_read(NULL, global_files[i], NULL));
}

static void restore(struct saved_global *s)
{
	for (int i = 0; global_files[i]; i++) {
		char *now = writable(global_files[i], tracefs_instance_file_read(NULL, global_files[i], NULL));
		const char *f = global_files[i];

		if (s->val[i] && now && strcmp(now, s->val[i])) {
			if (!strcmp(f, "set_event")) {
				/* Clear, then re-enable what was on, one event per write. */
				char *save = NULL, *copy = strdup(s->val[i]);
				tracefs_instance_file_clear(NULL, f);
				for (char *ev = copy ? strtok_r(copy, "\n", &save) : NULL; ev;
				     ev = strtok_r(NULL, "\n", &save))
					tracefs_instance_file_append(NULL, f, ev);
				free(copy);
			} else if (!strcmp(f, "events/enable")) {
				if (s->val[i][0] == '0')
					tracefs_instance_file_write(NULL, f, "0");
			} else if (strcmp(s->val[i], "X\n")) {
				tracefs_instance_file_write(NULL, f, s->val[i]);
			}
		}
		free(now);
	}
}

static void free_saved(struct saved_global *s)
{
	for (int i = 0; i < NGLOBAL; i++)
		free(s->val[i]);
}

/* The most telling line trace-cmd printed ("Can't enable ftrace", ...). */
static void child_reason(int fd, char *out, size_t len)
{
	char buf[4096], *line, *save = NULL;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	snprintf(out, len, "it exited at once");
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		while (*line == ' ' || *line == '\t')
			line++;
		if (!*line)
			continue;
		snprintf(out, len, "%s", line);
		if (strstr(line, "Can't") || strstr(line, "rror"))
			break;
	}
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

int fts_rec_tracecmd_start(struct fts_recorder *r, struct fts_err *err)
{
	const char *want[32];
	int nwant = fts_rec_event_list(&r->o, want, 32);
	const char *argv[2 * 32 + 16];
	char bsize[32], mask[FTS_CPUSET_MAX / 4 + FTS_CPUSET_MAX / 32 + 2], evs[32][96];
	struct saved_global *s;
	int argc = 0, logfd, status;

	if (geteuid() != 0)
		return fts_err_set(err, -EPERM, "recording needs root");
	if (r->text)
		return fts_err_set(err, -EINVAL, "the trace-cmd backend writes trace.dat only; use a .dat --output");
	argv[argc++] = "trace-cmd";
	argv[argc++] = "record";
	argv[argc++] = "-C";
	argv[argc++] = "mono_raw";
	snprintf(bsize, sizeof(bsize), "%u", r->o.bf_size_kb);
	argv[argc++] = "-b";
	argv[argc++] = bsize;
	if (r->o.cpus && *r->o.cpus) {
		struct fts_cpuset set, online;
		int rc = fts_cpuset_parse(r->o.cpus, &set, err);

		if (!rc)
			rc = fts_cpuset_online(&online, err);
		if (!rc)
			rc = fts_cpuset_check_online(&set, &online, err);
		if (rc)
			return rc;
		fts_cpuset_hexmask(&set, mask, sizeof(mask));
		argv[argc++] = "-M";
		argv[argc++] = mask;
	}
	for (int i = 0; i < nwant; i++) {
		const char *slash = strchr(want[i], '/');
		char sys[64];

		snprintf(sys, sizeof(sys), "%.*s", (int)(slash - want[i]), want[i]);
		if (!tracefs_event_file_exists(NULL, sys, slash + 1, "enable")) {
			size_t l = strlen(r->skipped);
			snprintf(r->skipped + l, sizeof(r->skipped) - l, "%s%s:%s", l ? "," : "", sys, slash + 1);
			continue;
		}
		snprintf(evs[i], sizeof(evs[i]), "%s:%s", sys, slash + 1);
		argv[argc++] = "-e";
		argv[argc++] = evs[i];
	}
	argv[argc++] = "-o";
	argv[argc++] = r->output;
	argv[argc] = NULL;

	logfd = fts_rec_tempfile(r->output);
	if (logfd < 0)
		return fts_err_set(err, logfd, "cannot create a log file beside %s", r->output);
	s = calloc(1, sizeof(*s));
	if (!s) {
		close(logfd);
		return fts_err_set(err, -ENOMEM, "out of memory");
	}
	snapshot(s);
	r->saved_global = s;
	r->t0_ns = r->prev_ns = fts_rec_now_ns();
	r->child = fork();
	if (r->child == 0) {
		int devnull = open("/dev/null", O_RDWR);
		/* Own process group: the terminal's Ctrl+C reaches us, and we stop it. */
		setpgid(0, 0);
		dup2(devnull, 0);
		dup2(devnull, 1);
		dup2(logfd, 2);
		execvp("trace-cmd", (char *const *)argv);
		dprintf(2, "cannot run trace-cmd: %s\n", strerror(errno));
		_exit(127);
	}
	if (r->child < 0) {
		int e = errno;
		close(logfd);
		return fts_err_set(err, -e, "cannot start trace-cmd: %s", strerror(e));
	}
	/* trace-cmd fails within a moment when it cannot record here. */
	for (int i = 0; i < 15; i++) {
		if (waitpid(r->child, &status, WNOHANG) == r->child) {
			char why[256];

			r->child = -1;
			child_reason(logfd, why, sizeof(why));
			close(logfd);
			restore(s);
			free_saved(s);
			free(s);
			r->saved_global = NULL;
			return fts_err_set(err, -EIO, "trace-cmd cannot record here: %s", why);
		}
		nanosleep(&(struct timespec){ 0, 100000000L }, NULL);
	}
	close(logfd);
	return 0;
}

int fts_rec_tracecmd_stop(struct fts_recorder *r, struct fts_err *err)
{
	int status = 0, rc = 0;

	if (r->child > 0) {
		kill(r->child, SIGINT);
		/* The reference waits up to 60 s for trace-cmd to merge its per-CPU files. */
		for (int i = 0; i < 600; i++) {
			if (waitpid(r->child, &status, WNOHANG) == r->child)
				break;
			nanosleep(&(struct timespec){ 0, 100000000L }, NULL);
			if (i == 599) {
				kill(r->child, SIGKILL);
				waitpid(r->child, &status, 0);
				rc = fts_err_set(err, -ETIMEDOUT, "trace-cmd did not finish within 60 s");
			}
		}
		if (!rc && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
			rc = fts_err_set(err, -EIO, "trace-cmd record failed (status %d)", status);
		r->child = -1;
	}
	if (r->saved_global) {
		restore(r->saved_global);
		free_saved(r->saved_global);
	}
	return rc;
}
