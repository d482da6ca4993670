// SPDX-License-Identifier: MIT
/*
 * dat_probe.c - open a trace.dat's headers with libtracecmd in a helper
 * process, so a corrupt header that crashes or hangs the library (its
 * event-format parser, its instance handling) is reported instead of taking
 * the caller down.
 *
 * The helper is a program the caller names (fts_read_opts.probe_helper; the
 * ftscope binary's hidden "__probe-dat" subcommand). The library never runs
 * itself: a fork() of a possibly threaded caller is not safe, and re-running
 * /proc/self/exe would start whatever program links the library. The helper
 * is run as "HELPER __probe-dat /dev/fd/4" with an almost empty environment,
 * /dev/null on stdin, stdout and stderr, the file (opened here once, without
 * blocking, and checked to be a regular file) on fd 4 and the answer pipe on
 * fd 3, and calls fts_read_dat_probe_answer, which writes one byte after a
 * clean open.
 *
 * It fails closed: a helper that cannot be started, dies, exits non-zero,
 * or exits without the byte is an error, never a pass. With no helper the
 * caller learns it (FTS_PROBE_UNISOLATED) and only the page checks ran.
 * Data pages are not read here: read_dat.c checks them itself (dat_pages.c).
 */
#include "ftscope/reader.h"
#include "core/trace/dat_layout.h"
#include "core/trace/dat_pages.h"
#include "core/trace/clock_scan.h"
#include "core/util/file_util.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef FTS_NO_TRACECMD
#include "core/trace/dat_own.h"   /* the static build's own reader */
#else
#include <trace-cmd/trace-cmd.h>
#endif

#define PROBE_FD 3                 /* the pipe's write end in the helper */
#define PROBE_IN_FD 4              /* the file, opened and checked by the caller */
#define PROBE_IN_PATH "/dev/fd/4"  /* what the helper is given: the descriptor, not the name */
/*
 * A looping helper is stopped by its own CPU limit (the front end sets it);
 * this wall-clock bound only catches one that blocks without using CPU.
 */
#define PROBE_WAIT_MS (10 * 60 * 1000)

/* The helper's argument asking for the clock scan too: "clock", or "clock-stop" (need_stop). */
#define PROBE_SCAN_ARG "clock"
#define PROBE_SCAN_STOP_ARG "clock-stop"

int fts_read_dat_probe_answer_scan(const char *path, const char *mode)
{
	struct fts_clock_scan ans;

	/*
	 * The scan opens the file as the plain answer does (libtracecmd, then
	 * each buffer instance: fts_read_dat's open) and reads its first events
	 * here in the sandbox; the caller then need not parse the headers once
	 * more for it. A scan that fails without crashing (a data error the
	 * caller's own read will report) falls back to the plain answer.
	 */
	if (mode && (!strcmp(mode, PROBE_SCAN_ARG) || !strcmp(mode, PROBE_SCAN_STOP_ARG)) &&
	    !fts_clock_scan(fts_read_dat, path, !strcmp(mode, PROBE_SCAN_STOP_ARG), &ans))
		return write(PROBE_FD, "k", 1) == 1 && write(PROBE_FD, &ans, sizeof(ans)) == sizeof(ans) ? 0 : 1;
	return fts_read_dat_probe_answer(path);
}

int fts_read_dat_probe_answer(const char *path)
{
	struct tracecmd_input *h;
	int n;

	/*
	 * The caller hands the file it checked over as a descriptor: opening the
	 * name again would block on a FIFO swapped in there since (issue 21).
	 */
	if (!strcmp(path, PROBE_IN_PATH))
		h = tracecmd_open_fd(PROBE_IN_FD, TRACECMD_FL_LOAD_NO_PLUGINS |
					       TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	else
		h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!h)
		return 1;
	n = tracecmd_buffer_instances(h);
	for (int i = 0; i < n; i++) {
		struct tracecmd_input *b = tracecmd_buffer_instance_handle(h, i);

		if (!b) {
			tracecmd_close(h);
			return 1;
		}
		tracecmd_close(b);
	}
	tracecmd_close(h);
	return write(PROBE_FD, "k", 1) == 1 ? 0 : 1;
}

/*
 * Whether this process is a helper: its own command line holds
 * "FTS_PROBE_HELPER_ARG /dev/fd/4" (after an interpreter and a script, too).
 * A helper that is not the answering program (a caller naming a binary that
 * does not know FTS_PROBE_HELPER_ARG and probes again) must not start
 * helpers in turn, or a chain of them runs until the machine is out of
 * processes. The command line, not a variable: the library reads no
 * environment.
 */
static int running_as_helper(void)
{
	char buf[16384];
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	const char *end = buf + (n > 0 ? n : 0);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	for (const char *a = buf; a < end; a += strlen(a) + 1) {
		const char *next = a + strlen(a) + 1;

		if (!strcmp(a, FTS_PROBE_HELPER_ARG) && next < end && !strcmp(next, PROBE_IN_PATH))
			return 1;
	}
	return 0;
}

/* The trace libraries (and the others the ftscope helper links) as this process loaded them. */
static const char *const HELPER_LIBS[] = {
	"libtracecmd.", "libtracefs.", "libtraceevent.", "libftscope.", "libzstd.", "libsqlite3.", "libcjson.",
};

struct lib_dirs {
	char *buf;                 /* "LD_LIBRARY_PATH=dir:dir" */
	size_t len, room;
};

/* Whether @dir (@n bytes) is already in @d's list. */
static int lib_dir_known(const struct lib_dirs *d, const char *dir, size_t n)
{
	const char *p = strchr(d->buf, '=') + 1;

	while (*p) {
		size_t l = strcspn(p, ":");

		if (l == n && !memcmp(p, dir, n))
			return 1;
		p += l + (p[l] == ':');
	}
	return 0;
}

static int add_lib_dir(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct lib_dirs *d = arg;
	const char *name = info->dlpi_name, *slash = name ? strrchr(name, '/') : NULL;
	size_t n;
	int ours = 0;

	(void)size;
	if (!slash || slash == name)
		return 0;
	for (size_t i = 0; i < sizeof(HELPER_LIBS) / sizeof(HELPER_LIBS[0]); i++)
		ours |= !strncmp(slash + 1, HELPER_LIBS[i], strlen(HELPER_LIBS[i]));
	n = (size_t)(slash - name);
	if (!ours || lib_dir_known(d, name, n) || d->len + n + 2 > d->room)
		return 0;
	if (d->buf[d->len - 1] != '=')
		d->buf[d->len++] = ':';
	memcpy(d->buf + d->len, name, n);
	d->len += n;
	d->buf[d->len] = '\0';
	return 0;
}

/*
 * The helper's environment: nothing of the caller's (a root caller's
 * environment is not the helper's business, and the library reads none),
 * only LD_LIBRARY_PATH naming the directories this process loaded the trace
 * libraries from, which the same binary may need to find them again.
 */
static char **probe_env(void)
{
	char **env = calloc(2, sizeof(*env));
	struct lib_dirs d = { .room = 8192 };

	if (!env || !(d.buf = malloc(d.room))) {
		free(env);
		return NULL;
	}
	d.len = (size_t)snprintf(d.buf, d.room, "LD_LIBRARY_PATH=");
	dl_iterate_phdr(add_lib_dir, &d);
	if (d.buf[d.len - 1] == '=')
		free(d.buf);   /* none loaded from a path: an empty environment */
	else
		env[0] = d.buf;
	return env;
}

/*
 * Starts @helper with the pipe's write end @wfd as PROBE_FD and the file @in
 * as PROBE_IN_FD (both above them, so no dup2 overwrites the other's source
 * and each clears close-on-exec); 0 or an errno.
 */
static int probe_spawn(const char *helper, int in, int wfd, const char *mode, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none;
	char *argv[] = { (char *)helper, (char *)FTS_PROBE_HELPER_ARG, (char *)PROBE_IN_PATH,
			 (char *)mode, NULL };
	char **env = probe_env();
	int rc;

	if (!env)
		return ENOMEM;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, wfd, PROBE_FD);
	posix_spawn_file_actions_adddup2(&fa, in, PROBE_IN_FD);
	/* library threads block signals: the helper must not inherit that mask */
	posix_spawnattr_init(&at);
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
	rc = posix_spawn(pid, helper, &fa, &at, argv, env);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	for (int i = 0; env[i]; i++)
		free(env[i]);
	free(env);
	return rc;
}

/* Reads up to @n bytes of the helper's answer into @buf: how many came before EOF, -1 on timeout. */
static ssize_t probe_read(int rfd, void *buf, size_t n)
{
	struct pollfd pfd = { .fd = rfd, .events = POLLIN };
	size_t got = 0;

	while (got < n) {
		ssize_t k;
		int r;

		do
			r = poll(&pfd, 1, PROBE_WAIT_MS);
		while (r < 0 && errno == EINTR);
		if (r == 0)
			return -1;
		do
			k = read(rfd, (char *)buf + got, n - got);
		while (k < 0 && errno == EINTR);
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

/* The helper's verdict from how it ended and whether it answered. */
static int probe_verdict(const char *path, int status, int answered, struct fts_err *err)
{
	if (WIFSIGNALED(status))
		return fts_err_set(err, -EIO,
				   "%s: trace.dat is corrupt (the trace-cmd library %s reading its headers); re-extract the trace",
				   path, WTERMSIG(status) == SIGXCPU || WTERMSIG(status) == SIGKILL ?
				   "looped" : "crashed");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return fts_err_set(err, -EIO,
				   "%s: cannot parse trace.dat (truncated or corrupt?); re-extract the trace",
				   path);
	if (answered != 1)
		return fts_err_set(err, -EIO,
				   "%s: the trace.dat probe helper exited without an answer (not an ftscope helper?); the file was not opened",
				   path);
	return 0;
}

/*
 * Compressed data is read here with libzstd, its pages checked as they are
 * decompressed; without libzstd it would go to libtracecmd unchecked (and
 * through a cache that never frees), so it is refused instead.
 */
static int check_codec(const char *path, int fd, const struct stat *sb, struct fts_err *err)
{
	if (fts_dat_codec_missing(fd, (uint64_t)sb->st_size))
		return fts_err_set(err, -ENOTSUP,
				   "%s: trace.dat is zstd-compressed and ftscope was built without zstd (libzstd); rebuild with libzstd-dev installed, or convert on a machine that has it",
				   path);
	return 0;
}

/*
 * @fd moved above the helper's fixed descriptors: the spawn's dup2s onto 3
 * and 4 then never overwrite a source still to be copied. Closes @fd.
 */
static int above_fixed(int fd)
{
	int moved;

	if (fd < 0 || fd > PROBE_IN_FD)
		return fd;
	moved = fcntl(fd, F_DUPFD_CLOEXEC, PROBE_IN_FD + 1);
	close(fd);
	return moved;
}

/* The file, opened once without blocking and checked, above the fixed descriptors. */
static int open_input(const char *path, struct stat *sb, struct fts_err *err)
{
	int fd = fts_open_regular(path, 0, sb, err);

	if (fd < 0)
		return fd;
	fd = above_fixed(fd);
	return fd >= 0 ? fd : fts_err_set(err, -errno, "%s: cannot open: %s", path, strerror(errno));
}

int fts_dat_probe_open(const char *path, const char *helper, struct fts_err *err)
{
	return fts_dat_probe_open_scan(path, helper, -1, NULL, NULL, err);
}

int fts_dat_probe_open_scan(const char *path, const char *helper, int need_stop,
			    struct fts_clock_scan *scan, int *scanned, struct fts_err *err)
{
	unsigned char ans[1 + sizeof(struct fts_clock_scan)]; /* the verdict byte, then the scan */
	const char *mode = need_stop < 0 ? NULL : need_stop ? PROBE_SCAN_STOP_ARG : PROBE_SCAN_ARG;
	int p[2], status, answered, rc, in;
	ssize_t got;
	struct stat sb;
	pid_t pid;

	if (scanned)
		*scanned = 0;

	in = open_input(path, &sb, err);
	if (in < 0)
		return in;
	rc = check_codec(path, in, &sb, err);
	if (!rc && !helper)
		rc = FTS_PROBE_UNISOLATED;
	else if (!rc && running_as_helper())
		rc = fts_err_set(err, -ELOOP, "%s: the trace.dat probe helper %s did not answer as one "
				 "(it probed again instead)", path, helper);
	else if (!rc && pipe2(p, O_CLOEXEC) < 0)
		rc = fts_err_set(err, -errno, "%s: cannot start the trace.dat probe helper: %s",
				 path, strerror(errno));
	else if (!rc && (p[1] = above_fixed(p[1])) < 0) {
		rc = fts_err_set(err, -errno, "%s: cannot start the trace.dat probe helper: %s",
				 path, strerror(errno));
		close(p[0]);
	}
	if (rc) {
		close(in);
		return rc;
	}
	rc = probe_spawn(helper, in, p[1], mode, &pid);
	close(in);
	close(p[1]);
	if (rc) {
		close(p[0]);
		return fts_err_set(err, -rc, "%s: cannot start the trace.dat probe helper %s: %s; the file was not opened",
				   path, helper, strerror(rc));
	}
	/* the verdict byte, then the scan when asked for and made; EOF when the helper exits or dies */
	got = probe_read(p[0], ans, mode ? sizeof(ans) : 1);
	answered = got < 0 ? -1 : got >= 1;
	close(p[0]);
	if (answered < 0)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return fts_err_set(err, -errno, "%s: lost the trace.dat probe helper: %s",
					   path, strerror(errno));
	}
	/* an older ftscope's helper knows no scan and says so (status 2, no answer): ask it plainly */
	if (mode && answered != 1 && WIFEXITED(status) && WEXITSTATUS(status) == 2)
		return fts_dat_probe_open_scan(path, helper, -1, scan, scanned, err);
	rc = probe_verdict(path, status, answered, err);
	if (!rc && mode && got == (ssize_t)sizeof(ans) && scan && scanned) {
		memcpy(scan, ans + 1, sizeof(*scan));
		*scanned = 1;
	}
	return rc;
}
