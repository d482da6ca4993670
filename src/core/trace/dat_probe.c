// SPDX-License-Identifier: MIT
/*
 * dat_probe.c - open a trace.dat with libtracecmd in a freshly exec'd
 * process, so a corrupt header that crashes the library (its event-format
 * parser, its instance handling) is reported instead of taking the caller
 * down.
 *
 * A fork() of a possibly threaded caller is not safe (the child inherits
 * locks held by other threads), so the probe execs the running program
 * again (/proc/self/exe) with FTSCOPE_DAT_PROBE set. The constructor below
 * runs in that new image before its main(): it opens the file, writes one
 * byte to the inherited pipe and exits. Any program linked with this
 * library answers the probe; one that is not (a Python interpreter that
 * loads the library later) never writes the byte, and the probe then
 * reports "not available" rather than a verdict. Data pages are not read
 * here: read_dat.c checks them itself (dat_pages.c).
 */
#include "ftscope/reader.h"
#include "core/trace/dat_pages.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#define PROBE_ENV "FTSCOPE_DAT_PROBE"
#define PROBE_FD 3                /* the pipe's write end in the helper */
#define PROBE_CPU_S 30            /* CPU seconds: a library looping on a corrupt header */

extern char **environ;

static void probe_child(void) __attribute__((constructor));

/* In the helper: open, touch every buffer instance, report, exit. */
static void probe_child(void)
{
	const char *path = getenv(PROBE_ENV);
	struct tracecmd_input *h;
	int n;

	if (!path)
		return;
	/*
	 * CPU time, not wall time: on a loaded host (or under a sanitizer) an
	 * honest open can take longer than any wall-clock bound, a loop cannot
	 * outlast this one. SIGXCPU ends the helper.
	 */
	setrlimit(RLIMIT_CPU, &(struct rlimit){ PROBE_CPU_S, PROBE_CPU_S + 1 });
	tep_set_loglevel(TEP_LOG_NONE);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!h)
		_exit(1);
	n = tracecmd_buffer_instances(h);
	for (int i = 0; i < n; i++) {
		struct tracecmd_input *b = tracecmd_buffer_instance_handle(h, i);

		if (!b)
			_exit(1);
		tracecmd_close(b);
	}
	tracecmd_close(h);
	if (write(PROBE_FD, "k", 1) != 1)
		_exit(1);
	_exit(0);
}

/* The environment plus PROBE_ENV=@path; NULL when out of memory. */
static char **probe_env(const char *path)
{
	size_t n = 0, k = 0;
	char **env;

	while (environ && environ[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (strncmp(environ[i], PROBE_ENV "=", sizeof(PROBE_ENV)) != 0)
			env[k++] = environ[i];
	}
	if (asprintf(&env[k], "%s=%s", PROBE_ENV, path) < 0) {
		free(env);
		return NULL;
	}
	return env;
}

/* Starts the helper with the pipe's write end @wfd as PROBE_FD. */
static int probe_spawn(const char *path, int wfd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none;
	char *argv[] = { (char *)"ftscope-dat-probe", NULL };
	char **env = probe_env(path);
	int rc;

	if (!env)
		return ENOMEM;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, wfd, PROBE_FD);
	/* library threads block signals: the helper must not inherit that mask */
	posix_spawnattr_init(&at);
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
	rc = posix_spawn(pid, "/proc/self/exe", &fa, &at, argv, env);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	for (size_t i = 0; env[i]; i++) {
		if (strncmp(env[i], PROBE_ENV "=", sizeof(PROBE_ENV)) == 0)
			free(env[i]);
	}
	free(env);
	return rc;
}

/* Waits for the verdict byte; 1 when it came. The helper has its own CPU limit. */
static int probe_read(int rfd)
{
	char b;
	ssize_t n;

	do
		n = read(rfd, &b, 1);
	while (n < 0 && errno == EINTR);
	return n == 1;
}

int fts_dat_probe_open(const char *path, struct fts_err *err)
{
	int p[2], status, answered, rc;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return 0; /* no probe possible: go on without it */
	rc = probe_spawn(path, p[1], &pid);
	close(p[1]);
	if (rc) {
		close(p[0]);
		return 0;
	}
	answered = probe_read(p[0]);   /* EOF when the helper exits or dies */
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return 0;
	}
	if (WIFSIGNALED(status))
		return fts_err_set(err, -EIO,
				   "%s: trace.dat is corrupt (the trace-cmd library %s reading its headers); re-extract the trace",
				   path, WTERMSIG(status) == SIGXCPU || WTERMSIG(status) == SIGKILL ?
				   "looped" : "crashed");
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		return fts_err_set(err, -EIO,
				   "%s: cannot parse trace.dat (truncated or corrupt?); re-extract the trace",
				   path);
	(void)answered; /* exit 0 without the byte: a program without the probe */
	return 0;
}
