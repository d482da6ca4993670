// SPDX-License-Identifier: MIT
/*
 * tracecmd.c - the trace-cmd backend: run `trace-cmd record` as the
 * reference does (-C mono_raw, -b, -M cpumask, -e per event), stop it with
 * SIGINT, wait for its merge, then put back every global tracing file it
 * changed (instead of the reference's `trace-cmd reset`, which resets
 * whatever else was tracing too).
 *
 * trace-cmd is started with posix_spawn, never fork: the library runs in
 * threaded callers (a Python host), where a forked child may only call
 * async-signal-safe functions, and the API promises it never forks. Its
 * environment is none of the caller's (the library reads no environment):
 * the usual root PATH and LC_ALL=C, so its one-line reason is in English.
 *
 * A killed ftscope must not leave trace-cmd recording with global tracing
 * on: the saved global state sits in /run/ftscope/tracecmd-<pid>.state with
 * the owner's and the child's identity (pid, start time, boot id); the next
 * run (any backend) sends SIGINT to the child of an owner that is gone (it
 * then writes its file and exits, as on a stop; up to 5 s are waited for),
 * and once both are gone restores the state and removes the scratch
 * directory. (The fork-era PR_SET_PDEATHSIG is not
 * possible with posix_spawn, and was wrong in a library anyway: it fires
 * when the thread that started the child exits, not the process.)
 * trace-cmd writes into a private scratch directory beside the output (it
 * would follow a symlink at the output path); only the finished file is
 * renamed over the output.
 */
#include "core/record/record_local.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <tracefs.h>
#include <unistd.h>

#define STATE_DIR "/run/ftscope"
/* where trace-cmd is looked for without fts_record_opts.exec_path, and its PATH */
#define DEFAULT_EXEC_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

static const char *const global_files[] = {
	"current_tracer", "trace_clock", "buffer_size_kb", "tracing_cpumask", "set_event",
	"events/enable", "tracing_on",
};
#define NGLOBAL ((int)REC_ARRAY_SIZE(global_files))

struct rec_tracecmd {
	pid_t child;
	char *val[NGLOBAL];           /* the global files before trace-cmd ran */
	char scratch[PATH_MAX];       /* private directory trace-cmd writes into */
	int sfd;                      /* it, held open: written, emptied and published only through it */
	char state[PATH_MAX];         /* the repair file, "" when none */
	char output[PATH_MAX];
};

/* ---- the global tracing state ---------------------------------------------- */

/* The value to write back: trace_clock lists all clocks with the current one in []. */
static char *writable(const char *file, char *v)
{
	if (v && !strcmp(file, "trace_clock")) {
		char *a = strchr(v, '['), *b = a ? strchr(a, ']') : NULL;
		if (a && b) {
			memmove(v, a + 1, (size_t)(b - a - 1));
			v[b - a - 1] = '\0';
		}
	}
	return v;
}

static void snapshot(char **val)
{
	for (int i = 0; i < NGLOBAL; i++)
		val[i] = writable(global_files[i], tracefs_instance_file_read(NULL, global_files[i], NULL));
}

static void restore(char *const *val)
{
	for (int i = 0; i < NGLOBAL; i++) {
		char *now = writable(global_files[i], tracefs_instance_file_read(NULL, global_files[i], NULL));
		const char *f = global_files[i];

		if (val[i] && now && strcmp(now, val[i])) {
			if (!strcmp(f, "set_event")) {
				/* Clear, then re-enable what was on, one event per write. */
				char *save = NULL, *copy = strdup(val[i]);
				tracefs_instance_file_clear(NULL, f);
				for (char *ev = copy ? strtok_r(copy, "\n", &save) : NULL; ev;
				     ev = strtok_r(NULL, "\n", &save))
					tracefs_instance_file_append(NULL, f, ev);
				free(copy);
			} else if (!strcmp(f, "events/enable")) {
				if (val[i][0] == '0')
					tracefs_instance_file_write(NULL, f, "0");
			} else if (strcmp(val[i], "X\n")) {
				tracefs_instance_file_write(NULL, f, val[i]);
			}
		}
		free(now);
	}
}

static void free_vals(char **val)
{
	for (int i = 0; i < NGLOBAL; i++) {
		free(val[i]);
		val[i] = NULL;
	}
}

/* ---- who owns a state file ------------------------------------------------- */

/* Start time of @pid in clock ticks since boot (field 22 of /proc/pid/stat), or 0. */
static unsigned long long start_time(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')'))) {
		/* After "comm)": state is field 3; the start time is field 22. */
		p++;
		for (int field = 3; p && field < 22; field++)
			p = strchr(p + 1, ' ');
		if (p)
			t = strtoull(p + 1, NULL, 10);
	}
	fclose(f);
	return t;
}

static void boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	buf[0] = '\0';
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

/* A zombie: exited, not yet reaped by whoever inherited it. */
static int zombie(pid_t pid)
{
	char path[64], buf[512], *p;
	int z = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
		z = p[1] == ' ' && p[2] == 'Z';
	fclose(f);
	return z;
}

/* Alive when a process with that pid and start time runs in this boot. */
static int alive(pid_t pid, unsigned long long st, const char *boot)
{
	char now[64];

	boot_id(now, sizeof(now));
	if (strcmp(now, boot))
		return 0;
	return pid > 0 && start_time(pid) == st && !zombie(pid);
}

/*
 * The orphan trace-cmd of a killed owner: SIGINT, as a stop sends, then up
 * to 5 s to write its file and exit. 1 when it is gone.
 */
static int stop_orphan(pid_t pid, unsigned long long st, const char *boot)
{
	kill(pid, SIGINT);
	for (int i = 0; i < 50 && alive(pid, st, boot); i++)
		nanosleep(&(struct timespec){ 0, 100000000L }, NULL);
	return !alive(pid, st, boot);
}

/* ---- the repair file -------------------------------------------------------- */

static int put_blob(FILE *f, const char *v)
{
	size_t n = v ? strlen(v) : 0;

	return fprintf(f, "%zu\n", n) < 0 || fwrite(v ? v : "", 1, n, f) != n || fputc('\n', f) == EOF;
}

/* Write the saved state and who owns it; best effort (-errno on failure). */
static int save_state(struct rec_tracecmd *t)
{
	char boot[64];
	FILE *f;
	int fd, bad;

	if (mkdir(STATE_DIR, 0700) < 0 && errno != EEXIST)
		return -errno;
	snprintf(t->state, sizeof(t->state), STATE_DIR "/tracecmd-%d.state", (int)getpid());
	fd = open(t->state, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		t->state[0] = '\0';
		return -errno;
	}
	boot_id(boot, sizeof(boot));
	bad = fprintf(f, "%d %llu %s %d %llu\n", (int)getpid(), start_time(getpid()), boot,
		      (int)t->child, t->child > 0 ? start_time(t->child) : 0ULL) < 0;
	bad |= put_blob(f, t->scratch);
	for (int i = 0; i < NGLOBAL; i++)
		bad |= put_blob(f, t->val[i]);
	if (fclose(f) || bad) {
		unlink(t->state);
		t->state[0] = '\0';
		return -EIO;
	}
	return 0;
}

static char *get_blob(FILE *f)
{
	size_t n;
	char *v;

	if (fscanf(f, "%zu", &n) != 1 || fgetc(f) != '\n' || n > (1u << 20))
		return NULL;
	v = malloc(n + 1);
	if (v && (fread(v, 1, n, f) != n || fgetc(f) != '\n')) {
		free(v);
		return NULL;
	}
	if (v)
		v[n] = '\0';
	return v;
}

/* A scratch directory of root's (ours) that nobody else can enter: not a symlink or one put in its place. */
static int ours(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() && !(st.st_mode & 077);
}

/*
 * Empty the scratch directory open as @sfd (closed here), then remove its
 * name @dir if that still is the directory: the user who owns the parent may
 * have swapped the name for a symlink to any directory, whose files must
 * not be what gets removed.
 */
static void remove_scratch_fd(int sfd, const char *dir)
{
	int fd = dup(sfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct stat a, b;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		close(sfd);
		return;
	}
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			(void)unlinkat(sfd, e->d_name, 0);
	closedir(d);
	if (fstat(sfd, &a) == 0 && lstat(dir, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		(void)rmdir(dir);
	close(sfd);
}

static void remove_scratch(const char *dir)
{
	int sfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (sfd < 0)
		return;
	if (!ours(sfd)) {
		close(sfd);
		return;
	}
	remove_scratch_fd(sfd, dir);
}

static void repair_one(const char *path)
{
	char boot[64] = "", *val[NGLOBAL] = { 0 }, *scratch = NULL;
	unsigned long long st, cst;
	int pid, cpid, ok;
	FILE *f = fopen(path, "re");

	if (!f)
		return;
	ok = fscanf(f, "%d %llu %63s %d %llu", &pid, &st, boot, &cpid, &cst) == 5 && fgetc(f) == '\n';
	if (ok && alive(pid, st, boot)) {
		fclose(f);
		return;   /* its owner runs: not ours to touch */
	}
	if (ok && alive(cpid, cst, boot) && !stop_orphan(cpid, cst, boot)) {
		fclose(f);
		return;   /* still merging its files: a later run restores the state */
	}
	if (ok)
		scratch = get_blob(f);
	for (int i = 0; ok && i < NGLOBAL; i++)
		ok = (val[i] = get_blob(f)) != NULL;
	fclose(f);
	if (ok) {
		restore(val);
		if (scratch && !strncmp(strrchr(scratch, '/') ? strrchr(scratch, '/') + 1 : scratch,
					".ftscope-tc.", 12))
			remove_scratch(scratch);
	}
	free(scratch);
	free_vals(val);
	(void)unlink(path);
}

void rec_tracecmd_repair(void)
{
	DIR *d = opendir(STATE_DIR);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[PATH_MAX];

		if (strncmp(e->d_name, "tracecmd-", 9))
			continue;
		snprintf(path, sizeof(path), STATE_DIR "/%s", e->d_name);
		repair_one(path);
	}
	closedir(d);
}

/* ---- the child --------------------------------------------------------------- */

struct argv_buf {
	const char *argv[2 * 32 + 16];
	char bsize[32];
	char mask[FTS_CPUSET_MAX / 4 + FTS_CPUSET_MAX / 32 + 2];
	char evs[32][96];
	char out[PATH_MAX + 16];
};

static void build_argv(struct argv_buf *a, const struct fts_record_opts *o, const struct fts_cpuset *set,
		       const struct rec_events *ev, int sfd)
{
	int argc = 0;

	a->argv[argc++] = "trace-cmd";
	a->argv[argc++] = "record";
	a->argv[argc++] = "-C";
	a->argv[argc++] = "mono_raw";
	snprintf(a->bsize, sizeof(a->bsize), "%u", o->bf_size_kb);
	a->argv[argc++] = "-b";
	a->argv[argc++] = a->bsize;
	if (o->cpus && *o->cpus) {
		fts_cpuset_hexmask(set, a->mask, sizeof(a->mask));
		a->argv[argc++] = "-M";
		a->argv[argc++] = a->mask;
	}
	for (int i = 0; i < ev->count && i < 32; i++) {
		const char *slash = strchr(ev->names[i], '/');

		snprintf(a->evs[i], sizeof(a->evs[i]), "%.*s:%s", (int)(slash - ev->names[i]),
			 ev->names[i], slash + 1);
		a->argv[argc++] = "-e";
		a->argv[argc++] = a->evs[i];
	}
	/* through our descriptor of the scratch directory (we outlive trace-cmd), never its name */
	snprintf(a->out, sizeof(a->out), "/proc/%d/fd/%d/trace.dat", (int)getpid(), sfd);
	a->argv[argc++] = "-o";
	a->argv[argc++] = a->out;
	a->argv[argc] = NULL;
}

int rec_tracecmd_find(const char *exec_path, char *out, size_t len)
{
	char *copy, *save = NULL;
	int rc = -ENOENT;

	if (!exec_path || !*exec_path)
		exec_path = DEFAULT_EXEC_PATH;
	copy = strdup(exec_path);
	if (!copy)
		return -ENOMEM;
	for (char *d = strtok_r(copy, ":", &save); d && rc; d = strtok_r(NULL, ":", &save)) {
		struct stat st;

		if ((size_t)snprintf(out, len, "%s/trace-cmd", d) < len && !stat(out, &st) &&
		    S_ISREG(st.st_mode) && !access(out, X_OK))
			rc = 0;
	}
	free(copy);
	if (rc && len)
		out[0] = '\0';
	return rc;
}

/*
 * Starts @prog with stdin and stdout on /dev/null and stderr on @logfd, in
 * its own process group (the terminal's Ctrl+C reaches ftscope, which stops
 * it), with no signal blocked (library threads block them all); 0 or an errno.
 */
static int spawn(const char *prog, const struct argv_buf *a, int logfd, pid_t *pid)
{
	static char *const env[] = { (char *)"PATH=" DEFAULT_EXEC_PATH, (char *)"LC_ALL=C", NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none;
	int rc;

	posix_spawn_file_actions_init(&fa);
	/* the log first: it may sit on 0 or 1 when the caller closed those */
	posix_spawn_file_actions_adddup2(&fa, logfd, 2);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawnattr_init(&at);
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
	rc = posix_spawn(pid, prog, &fa, &at, (char *const *)a->argv, env);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
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

/* trace-cmd fails within a moment when it cannot record here. */
static int await_startup(struct rec_tracecmd *t, int logfd, struct fts_err *err)
{
	int status;

	for (int i = 0; i < 15; i++) {
		if (waitpid(t->child, &status, WNOHANG) == t->child) {
			char why[256];

			t->child = -1;
			child_reason(logfd, why, sizeof(why));
			return fts_err_set(err, -EIO, "trace-cmd cannot record here: %s", why);
		}
		nanosleep(&(struct timespec){ 0, 100000000L }, NULL);
	}
	return 0;
}

static void free_tc(struct rec_tracecmd *t)
{
	if (t->sfd >= 0)
		remove_scratch_fd(t->sfd, t->scratch);
	if (t->state[0])
		(void)unlink(t->state);
	free_vals(t->val);
	free(t);
}

int rec_tracecmd_start(const struct fts_record_opts *o, const char *output, const struct fts_cpuset *set,
		       const struct rec_events *ev, struct rec_tracecmd **out, struct fts_err *err)
{
	struct rec_tracecmd *t = calloc(1, sizeof(*t));
	char prog[PATH_MAX];
	struct argv_buf a;
	const char *slash = strrchr(output, '/');
	int logfd, rc;

	*out = NULL;
	if (!t)
		return fts_err_set(err, -ENOMEM, "out of memory");
	t->child = -1;
	t->sfd = -1;
	snprintf(t->output, sizeof(t->output), "%s", output);
	snprintf(t->scratch, sizeof(t->scratch), "%.*s.ftscope-tc.XXXXXX",
		 slash ? (int)(slash - output + 1) : 0, output);
	if (!mkdtemp(t->scratch)) {
		rc = -errno;
		t->scratch[0] = '\0';
		free_tc(t);
		return fts_err_set(err, rc, "cannot create a scratch directory beside %s: %s", output,
				   strerror(-rc));
	}
	t->sfd = open(t->scratch, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (t->sfd < 0 || !ours(t->sfd)) {
		if (t->sfd >= 0)
			close(t->sfd);
		t->sfd = -1;
		free_tc(t);
		return fts_err_set(err, -EEXIST, "the scratch directory beside %s was replaced as it was made", output);
	}
	logfd = openat(t->sfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (logfd < 0) {
		rc = -errno;
		free_tc(t);
		return fts_err_set(err, rc, "cannot create a log file beside %s", output);
	}
	if (rec_tracecmd_find(o->exec_path, prog, sizeof(prog))) {
		close(logfd);
		free_tc(t);
		return fts_err_set(err, -ENOENT, "trace-cmd cannot record here: it is not installed "
				   "(not found in %s)", o->exec_path && *o->exec_path ? o->exec_path : DEFAULT_EXEC_PATH);
	}
	build_argv(&a, o, set, ev, t->sfd);
	snapshot(t->val);
	rc = spawn(prog, &a, logfd, &t->child);
	if (rc) {
		t->child = -1;
		restore(t->val);
		close(logfd);
		free_tc(t);
		return fts_err_set(err, -rc, "cannot start trace-cmd: %s", strerror(rc));
	}
	/* Best effort: without it a killed ftscope's state is repaired by hand. */
	(void)save_state(t);
	rc = await_startup(t, logfd, err);
	close(logfd);
	if (rc) {
		restore(t->val);
		free_tc(t);
		return rc;
	}
	*out = t;
	return 0;
}

/* Move the finished file over the output; rename replaces a symlink, never follows it. */
static int publish(struct rec_tracecmd *t, struct fts_err *err)
{
	struct stat sb;

	if (lstat(t->output, &sb) == 0 && !S_ISREG(sb.st_mode))
		return fts_err_set(err, -EEXIST, "%s: is no longer a regular file; the capture is not written",
				   t->output);
	if (renameat(t->sfd, "trace.dat", AT_FDCWD, t->output) < 0)
		return fts_err_set(err, -errno, "cannot move the trace-cmd capture to %s: %s", t->output,
				   strerror(errno));
	return 0;
}

int rec_tracecmd_stop(struct rec_tracecmd *t, struct fts_err *err)
{
	int status = 0, rc = 0;

	if (t->child > 0) {
		kill(t->child, SIGINT);
		/* The reference waits up to 60 s for trace-cmd to merge its per-CPU files. */
		for (int i = 0; i < 600; i++) {
			if (waitpid(t->child, &status, WNOHANG) == t->child)
				break;
			nanosleep(&(struct timespec){ 0, 100000000L }, NULL);
			if (i == 599) {
				kill(t->child, SIGKILL);
				waitpid(t->child, &status, 0);
				rc = fts_err_set(err, -ETIMEDOUT, "trace-cmd did not finish within 60 s");
			}
		}
		if (!rc && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
			rc = fts_err_set(err, -EIO, "trace-cmd record failed (status %d)", status);
		t->child = -1;
	}
	restore(t->val);
	if (!rc)
		rc = publish(t, err);
	free_tc(t);
	return rc;
}
