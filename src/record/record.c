/*
 * record.c - the native capture: set up a private tracefs instance, stream
 * every recorded CPU's raw pages to disk while recording, and at stop drain,
 * remove the instance and write the output.
 */
#include "ftscope/error.h"
#include "util/cpuset.h"
#include "record/pidscan.h"
#include "util/outfile.h"
#include "util/tempfile.h"
#include "record/record_local.h"
#include "record/tracedat_write.h"

#include <dirent.h>
#include <sched.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <tracefs.h>
#include <unistd.h>

#define RESERVE_BYTES (16u << 20)
#define POLL_NS 10000000L /* a 256 KB buffer drained every 10 ms keeps up with hackbench */

uint64_t fts_rec_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int64_t ts_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

void fts_rec_clock_pair(int64_t *realtime_ns, int64_t *mono_raw_ns)
{
	int64_t best = -1;

	for (int i = 0; i < 3; i++) {
		struct timespec a, b, c;
		int64_t gap;

		clock_gettime(CLOCK_MONOTONIC_RAW, &a);
		clock_gettime(CLOCK_REALTIME, &b);
		clock_gettime(CLOCK_MONOTONIC_RAW, &c);
		gap = ts_ns(&c) - ts_ns(&a);
		if (best < 0 || gap < best) {
			best = gap;
			*realtime_ns = ts_ns(&b);
			*mono_raw_ns = ts_ns(&a) + gap / 2;
		}
	}
}

void fts_rec_fail(struct fts_recorder *r, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&r->lock);
	if (!atomic_load(&r->failed)) {
		va_start(ap, fmt);
		vsnprintf(r->failure, sizeof(r->failure), fmt, ap);
		va_end(ap);
		atomic_store(&r->failed, 1);
	}
	pthread_mutex_unlock(&r->lock);
	atomic_store(&r->stop, 1);
}

void fts_record_opts_init(struct fts_record_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->bf_size_kb = 40960;
	o->backend = FTS_BACKEND_AUTO;
	o->sched = 1;
	o->irq = 1;
}

int fts_rec_event_list(const struct fts_record_opts *o, const char **out, int max)
{
	static const char *const sched[] = {
		"sched/sched_switch", "sched/sched_wakeup", "sched/sched_waking",
		"sched/sched_wakeup_new", "sched/sched_migrate_task", "sched/sched_stat_runtime",
		"sched/sched_process_fork", "sched/sched_process_exec", "sched/sched_process_exit",
	};
	static const char *const irq[] = {
		"irq/irq_handler_entry", "irq/irq_handler_exit", "irq/softirq_raise",
		"irq/softirq_entry", "irq/softirq_exit",
	};
	static const char *const futex[] = {
		"syscalls/sys_enter_futex", "syscalls/sys_exit_futex",
	};
	int n = 0;

#define ADD(arr) for (size_t i = 0; i < sizeof(arr) / sizeof(arr[0]) && n < max; i++) out[n++] = arr[i]
	if (o->sched)
		ADD(sched);
	if (o->irq)
		ADD(irq);
	if (o->futex)
		ADD(futex);
#undef ADD
	return n;
}

/* Write @val to the instance file @name; tracefs wants no trailing junk. */
static int inst_write(struct fts_recorder *r, const char *name, const char *val, struct fts_err *err)
{
	if (tracefs_instance_file_write(r->inst, name, val) < 0)
		return fts_err_set(err, errno ? -errno : -EIO, "cannot write '%s' to %s/instances/%s/%s: %s",
				   val, r->tracing_dir, r->inst_name, name, strerror(errno ? errno : EIO));
	return 0;
}

/* Remove the instance, retrying while a forked child still holds a tracefs fd. */
static int destroy_instance(struct tracefs_instance *inst)
{
	int rc = -1;

	for (int i = 0; i < 50 && rc; i++) {
		rc = tracefs_instance_destroy(inst);
		if (rc && errno != EBUSY)
			break;
		if (rc)
			usleep(100000);
	}
	tracefs_instance_free(inst);
	return rc;
}

/* Owner pid of an "ftscope-<pid>[-<n>]" instance, or 0. */
static int owner_of(const char *name)
{
	char *end;
	long pid;

	if (strncmp(name, "ftscope-", 8))
		return 0;
	pid = strtol(name + 8, &end, 10);
	if (end == name + 8 || (*end && *end != '-') || pid <= 0)
		return 0;
	return (int)pid;
}

/* Instances left by a killed run would keep their buffers forever. */
static void remove_stale(const char *tracing_dir)
{
	/* No regex: libtracefs 1.6 leaks the compiled one. */
	char **list = tracefs_instances(NULL);

	for (int i = 0; list && list[i]; i++) {
		int pid = owner_of(list[i]);
		struct tracefs_instance *inst;

		if (!pid || kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		inst = tracefs_instance_alloc(tracing_dir, list[i]);
		if (inst)
			destroy_instance(inst);
	}
	tracefs_list_free(list);
}

static int create_instance(struct fts_recorder *r, struct fts_err *err)
{
	for (int n = 0; n < 100; n++) {
		if (n == 0)
			snprintf(r->inst_name, sizeof(r->inst_name), "ftscope-%d", (int)getpid());
		else
			snprintf(r->inst_name, sizeof(r->inst_name), "ftscope-%d-%d", (int)getpid(), n);
		if (tracefs_instance_exists(r->inst_name))
			continue;
		r->inst = tracefs_instance_create(r->inst_name);
		if (r->inst && tracefs_instance_is_new(r->inst))
			return 0;
		if (r->inst) {
			/* Lost a race with another recorder in this process. */
			tracefs_instance_free(r->inst);
			r->inst = NULL;
			continue;
		}
		return fts_err_set(err, errno ? -errno : -EIO,
				   "cannot create tracefs instance %s/instances/%s: %s",
				   r->tracing_dir, r->inst_name, strerror(errno ? errno : EIO));
	}
	return fts_err_set(err, -EEXIST, "too many ftscope instances for pid %d", (int)getpid());
}

static uint64_t stat_field(const char *text, const char *key)
{
	const char *p = text;
	size_t k = strlen(key);

	while (p && *p) {
		if (!strncmp(p, key, k) && p[k] == ':')
			return strtoull(p + k + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

int fts_rec_read_stats(struct fts_recorder *r, int cpu, struct fts_cpu_stats *s, char **text)
{
	char name[64];
	char *t;

	memset(s, 0, sizeof(*s));
	snprintf(name, sizeof(name), "per_cpu/cpu%d/stats", cpu);
	t = tracefs_instance_file_read(r->inst, name, NULL);
	if (!t)
		return -errno;
	s->entries = stat_field(t, "entries");
	s->overrun = stat_field(t, "overrun");
	s->commit_overrun = stat_field(t, "commit overrun");
	s->bytes = stat_field(t, "bytes");
	s->dropped = stat_field(t, "dropped events");
	s->read = stat_field(t, "read events");
	s->valid = 1;
	if (text)
		*text = t;
	else
		free(t);
	return 0;
}

/* The sub-buffer size trace_pipe_raw hands out (4.x-6.7 kernels: the page size). */
static int subbuf_size(struct fts_recorder *r)
{
	long long kb = 0;

	if (tracefs_instance_file_read_number(r->inst, "buffer_subbuf_size_kb", &kb) == 0 && kb > 0)
		return (int)(kb * 1024);
	return (int)sysconf(_SC_PAGESIZE);
}

static void *reader_main(void *arg)
{
	struct rec_cpu *c = arg;
	struct fts_recorder *r = c->r;

	/*
	 * On a saturated CPU a normal-priority reader can wait longer than a
	 * small ring buffer lasts; a higher (still fair-class) priority keeps it
	 * draining without starving the workload. Best effort.
	 */
	(void)setpriority(PRIO_PROCESS, (id_t)gettid(), -10);
	while (!atomic_load(&r->stop)) {
		int n = tracefs_cpu_write(c->tcpu, c->fd, true);

		if (n > 0) {
			atomic_fetch_add(&c->bytes, (uint64_t)n);
			if (r->reader_delay_ns)
				nanosleep(&(struct timespec){ r->reader_delay_ns / 1000000000L,
							     r->reader_delay_ns % 1000000000L }, NULL);
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR && errno != 0) {
			int e = errno;
			fts_rec_fail(r, "%s while streaming CPU %d to %s (%s)",
				     e == ENOSPC || e == EDQUOT ? "disk full" : "write error",
				     c->cpu, r->output, strerror(e));
			break;
		}
		nanosleep(&(struct timespec){ 0, r->poll_ns }, NULL);
	}
	return NULL;
}

static int open_readers(struct fts_recorder *r, const struct fts_cpuset *set, struct fts_err *err)
{
	int i = 0;

	r->nrec = fts_cpuset_count(set);
	r->cpus = calloc((size_t)r->nrec, sizeof(*r->cpus));
	r->health_buf = calloc((size_t)r->nrec, sizeof(*r->health_buf));
	if (!r->cpus || !r->health_buf)
		return fts_err_set(err, -ENOMEM, "out of memory");
	for (int cpu = fts_cpuset_next(set, 0); cpu >= 0; cpu = fts_cpuset_next(set, cpu + 1), i++) {
		struct rec_cpu *c = &r->cpus[i];
		char name[64];
		int fd;

		c->cpu = cpu;
		c->r = r;
		c->fd = -1;
		c->rawfd = -1;
		r->max_cpu = cpu;
		snprintf(name, sizeof(name), "per_cpu/cpu%d/trace_pipe_raw", cpu);
		/* O_CLOEXEC: a forked child holding this fd would make rmdir fail with EBUSY. */
		fd = tracefs_instance_file_open(r->inst, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			return fts_err_set(err, -errno, "cannot open %s of instance %s: %s", name,
					   r->inst_name, strerror(errno));
		c->rawfd = fd;
		c->tcpu = tracefs_cpu_alloc_fd(fd, r->page_size, true);
		if (!c->tcpu)
			return fts_err_set(err, -ENOMEM, "cannot set up the CPU %d reader", cpu);
		c->fd = fts_rec_tempfile(r->output);
		if (c->fd < 0)
			return fts_err_set(err, c->fd, "cannot create a stream file beside %s: %s",
					   r->output, strerror(-c->fd));
	}
	return 0;
}

static int start_threads(struct fts_recorder *r, struct fts_err *err)
{
	sigset_t all, old;
	int rc = 0;

	/* Signals belong to the caller's main thread, never to a reader. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (int i = 0; i < r->nrec && !rc; i++) {
		rc = -pthread_create(&r->cpus[i].thread, NULL, reader_main, &r->cpus[i]);
		if (!rc)
			r->cpus[i].started = 1;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc)
		return fts_err_set(err, rc, "cannot start reader threads: %s", strerror(-rc));
	return 0;
}

struct marker_job {
	struct fts_recorder *r;
	int which;
};

static void *marker_main(void *arg)
{
	struct marker_job *j = arg;
	struct fts_recorder *r = j->r;
	char line[160];

	fts_rec_clock_pair(&r->clock_rt[j->which], &r->clock_raw[j->which]);
	snprintf(line, sizeof(line), "ftscope_clock realtime_ns=%lld mono_raw_ns=%lld\n",
		 (long long)r->clock_rt[j->which], (long long)r->clock_raw[j->which]);
	(void)tracefs_instance_file_write(r->inst, "trace_marker", line);
	return NULL;
}

/*
 * A marker written on a CPU outside the instance's cpumask is dropped, so
 * write it from a short-lived thread pinned to a recorded CPU (the caller's
 * own affinity is left alone).
 */
static void write_clock_marker(struct fts_recorder *r, int which)
{
	struct marker_job j = { r, which };
	pthread_attr_t attr;
	pthread_t t;
	cpu_set_t set;
	sigset_t all, old;

	CPU_ZERO(&set);
	CPU_SET(r->cpus[0].cpu, &set);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&t, &attr, marker_main, &j) == 0)
		pthread_join(t, NULL);
	else
		marker_main(&j);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
}

static int setup_instance(struct fts_recorder *r, const struct fts_cpuset *set, struct fts_err *err)
{
	const char *want[32];
	int nwant = fts_rec_event_list(&r->o, want, 32);
	char mask[FTS_CPUSET_MAX / 4 + FTS_CPUSET_MAX / 32 + 2];
	char num[32];
	int rc, n = 0;

	rc = inst_write(r, "tracing_on", "0", err);
	if (!rc && (rc = inst_write(r, "trace_clock", "mono_raw", err)))
		fts_err_set(err, rc, "this kernel has no mono_raw trace clock (needed to align with profiling)");
	snprintf(num, sizeof(num), "%u", r->o.bf_size_kb);
	if (!rc)
		rc = inst_write(r, "buffer_size_kb", num, err);
	fts_cpuset_hexmask(set, mask, sizeof(mask));
	if (!rc)
		rc = inst_write(r, "tracing_cpumask", mask, err);
	if (rc)
		return rc;
	r->clock_text = tracefs_instance_file_read(r->inst, "trace_clock", NULL);
	r->events = calloc((size_t)nwant + 1, sizeof(*r->events));
	if (!r->events)
		return fts_err_set(err, -ENOMEM, "out of memory");
	for (int i = 0; i < nwant; i++) {
		char sys[64], file[160];
		const char *ev = strchr(want[i], '/') + 1;

		snprintf(sys, sizeof(sys), "%.*s", (int)(ev - 1 - want[i]), want[i]);
		if (!tracefs_event_file_exists(r->inst, sys, ev, "enable")) {
			size_t l = strlen(r->skipped);
			snprintf(r->skipped + l, sizeof(r->skipped) - l, "%s%s:%s", l ? "," : "", sys, ev);
			continue;
		}
		snprintf(file, sizeof(file), "events/%s/enable", want[i]);
		if ((rc = inst_write(r, file, "1", err)))
			return rc;
		r->events[n] = strdup(want[i]);
		if (!r->events[n++])
			return fts_err_set(err, -ENOMEM, "out of memory");
	}
	if (!n)
		return fts_err_set(err, -EINVAL, "none of the requested events exist on this kernel (%s)",
				   r->skipped);
	return 0;
}

/* Where the output and the mapping go; the reference's defaults. */
static int resolve_paths(struct fts_recorder *r, struct fts_err *err)
{
	const char *out = r->o.output && *r->o.output ? r->o.output : "trace.dat";
	size_t n = strlen(out);

	if (n >= sizeof(r->output))
		return fts_err_set(err, -ENAMETOOLONG, "output path too long");
	strcpy(r->output, out);
	r->text = n >= 4 && !strcmp(out + n - 4, ".txt");
	if (r->o.pid_mapping && *r->o.pid_mapping) {
		snprintf(r->pid_mapping, sizeof(r->pid_mapping), "%s", r->o.pid_mapping);
	} else {
		const char *slash = strrchr(out, '/');
		if (slash)
			snprintf(r->pid_mapping, sizeof(r->pid_mapping), "%.*s/pid_mapping.json",
				 (int)(slash - out), out);
		else
			snprintf(r->pid_mapping, sizeof(r->pid_mapping), "pid_mapping.json");
	}
	return 0;
}

static void free_recorder(struct fts_recorder *r)
{
	for (int i = 0; r->cpus && i < r->nrec; i++) {
		if (r->cpus[i].tcpu)
			tracefs_cpu_free_fd(r->cpus[i].tcpu);
		if (r->cpus[i].rawfd >= 0)
			close(r->cpus[i].rawfd);
		if (r->cpus[i].fd >= 0)
			close(r->cpus[i].fd);
		free(r->cpus[i].final_stats);
	}
	free(r->cpus);
	free(r->health_buf);
	for (int i = 0; r->events && r->events[i]; i++)
		free(r->events[i]);
	free(r->events);
	free(r->clock_text);
	if (r->reserve_fd >= 0)
		close(r->reserve_fd);
	if (r->inst)
		destroy_instance(r->inst);
	free(r->saved_global);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

static void join_readers(struct fts_recorder *r)
{
	atomic_store(&r->stop, 1);
	for (int i = 0; i < r->nrec; i++) {
		if (r->cpus[i].started)
			pthread_join(r->cpus[i].thread, NULL);
		r->cpus[i].started = 0;
	}
}

static int start_native(struct fts_recorder *r, struct fts_err *err)
{
	struct fts_cpuset set, online;
	const char *dir = tracefs_tracing_dir();
	int rc;

	if (!dir)
		return fts_err_set(err, -ENODEV,
				   "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
	snprintf(r->tracing_dir, sizeof(r->tracing_dir), "%s", dir);
	if (access(r->tracing_dir, W_OK) != 0 || geteuid() != 0)
		return fts_err_set(err, -EPERM, "recording needs root (cannot write %s)", r->tracing_dir);
	if ((rc = fts_cpuset_online(&online, err)))
		return rc;
	if (r->o.cpus && *r->o.cpus) {
		if ((rc = fts_cpuset_parse(r->o.cpus, &set, err)))
			return rc;
		if ((rc = fts_cpuset_check_online(&set, &online, err)))
			return rc;
	} else {
		set = online;
	}
	{
		/* Test hook (documented in docs-record.md): make loss reproducible. */
		const char *d = getenv("FTSCOPE_TEST_READER_DELAY_MS");
		if (d && atol(d) > 0 && atol(d) < 10000)
			r->reader_delay_ns = atol(d) * 1000000L;
	}
	remove_stale(r->tracing_dir);
	if ((rc = create_instance(r, err)))
		return rc;
	if ((rc = setup_instance(r, &set, err)))
		return rc;
	r->page_size = subbuf_size(r);
	/* Small buffers fill in tens of ms under load: poll them more often. */
	r->poll_ns = r->o.bf_size_kb < 2048 ? POLL_NS / 2 : POLL_NS;
	if ((rc = open_readers(r, &set, err)))
		return rc;
	/* Space held back so a full disk still leaves room to assemble the file. */
	r->reserve_fd = fts_rec_tempfile(r->output);
	if (r->reserve_fd >= 0 && fallocate(r->reserve_fd, 0, 0, RESERVE_BYTES) < 0) {
		close(r->reserve_fd);
		r->reserve_fd = -1;
	}
	for (int i = 0; i < r->nrec; i++)
		fts_rec_read_stats(r, r->cpus[i].cpu, &r->cpus[i].base, NULL);
	if ((rc = start_threads(r, err)))
		return rc;
	r->t0_ns = r->prev_ns = fts_rec_now_ns();
	if ((rc = inst_write(r, "tracing_on", "1", err)))
		return rc;
	write_clock_marker(r, 0);
	return 0;
}

int fts_record_start(const struct fts_record_opts *o, struct fts_recorder **out, struct fts_err *err)
{
	struct fts_recorder *r;
	int rc;

	*out = NULL;
	if (!o)
		return fts_err_set(err, -EINVAL, "no options");
	if (o->bf_size_kb > (1u << 22))
		return fts_err_set(err, -EINVAL, "--bf_size %u KB is too large (max 4194304)", o->bf_size_kb);
	if (!o->sched && !o->irq && !o->futex)
		return fts_err_set(err, -EINVAL, "no events selected (--sched, --irq and --futex are all 0)");
	r = calloc(1, sizeof(*r));
	if (!r)
		return fts_err_set(err, -ENOMEM, "out of memory");
	r->o = *o;
	if (!r->o.bf_size_kb)
		r->o.bf_size_kb = 40960;
	r->reserve_fd = -1;
	r->child = -1;
	pthread_mutex_init(&r->lock, NULL);
	rc = resolve_paths(r, err);
	/* The caller's strings are not ours to keep; paths were copied. */
	r->o.cpus = r->o.output = r->o.pid_mapping = NULL;
	if (!rc) {
		r->o.cpus = o->cpus;
		if (o->backend == FTS_BACKEND_TRACE_CMD) {
			r->backend = "trace-cmd";
			rc = fts_rec_tracecmd_start(r, err);
		} else {
			r->backend = "tracefs";
			rc = start_native(r, err);
		}
		r->o.cpus = NULL;
	}
	if (!rc && o->nspid)
		rc = fts_pidmapper_start(r->pid_mapping, o->pidmap_interval_s, &r->mapper, err);
	if (rc) {
		join_readers(r);
		if (r->child > 0)
			fts_rec_tracecmd_stop(r, NULL);
		free_recorder(r);
		return rc;
	}
	*out = r;
	return 0;
}

/* Cut each stream to whole pages: a failed write may leave a partial one. */
static uint64_t whole_pages(struct rec_cpu *c, int page)
{
	struct stat st;
	uint64_t size;

	if (fstat(c->fd, &st) < 0)
		return 0;
	size = (uint64_t)st.st_size / (uint64_t)page * (uint64_t)page;
	if ((uint64_t)st.st_size != size)
		(void)ftruncate(c->fd, (off_t)size);
	return size;
}

/* saved_cmdlines plus every live thread, so readers can name most pids. */
static char *gather_cmdlines(struct fts_recorder *r)
{
	char path[PATH_MAX + 32], *saved, *procs = NULL, *all;
	struct fts_pidscan *t = fts_pidscan_new();
	size_t n;

	snprintf(path, sizeof(path), "%s/saved_cmdlines", r->tracing_dir);
	{
		FILE *f = fopen(path, "re");
		size_t cap = 1 << 16;

		saved = malloc(cap);
		n = 0;
		if (f && saved) {
			size_t k;
			while ((k = fread(saved + n, 1, cap - n - 1, f)) > 0) {
				char *ns;
				n += k;
				if (cap - n > 1)
					continue;
				ns = realloc(saved, cap * 2);
				if (!ns)
					break;
				saved = ns;
				cap *= 2;
			}
		}
		if (f)
			fclose(f);
		if (saved)
			saved[n] = '\0';
	}
	if (t && fts_pidscan_scan(t, "/proc", NULL) >= 0)
		fts_pidscan_cmdlines(t, &procs);
	fts_pidscan_free(t);
	all = malloc(n + (procs ? strlen(procs) : 0) + 1);
	if (all)
		sprintf(all, "%s%s", saved ? saved : "", procs ? procs : "");
	free(saved);
	free(procs);
	return all;
}

static int write_output(struct fts_recorder *r, struct fts_err *err)
{
	struct fts_dat_cpu *dc = calloc((size_t)r->max_cpu + 1, sizeof(*dc));
	struct fts_dat_meta m = { 0 };
	struct fts_outfile f, dat;
	char *cmdlines = gather_cmdlines(r);
	int rc;

	if (!dc || !cmdlines) {
		free(dc);
		free(cmdlines);
		return fts_err_set(err, -ENOMEM, "out of memory");
	}
	for (int c = 0; c <= r->max_cpu; c++)
		dc[c].fd = -1;
	for (int i = 0; i < r->nrec; i++) {
		struct rec_cpu *c = &r->cpus[i];
		dc[c->cpu].fd = c->fd;
		dc[c->cpu].size = whole_pages(c, r->page_size);
		dc[c->cpu].stats = c->final_stats;
	}
	m.tracing_dir = r->tracing_dir;
	m.events = (const char *const *)r->events;
	m.cmdlines = cmdlines;
	m.clock = r->clock_text;
	m.page_size = r->page_size;
	m.punch = 1;
	/* Give the space held back to the assembly (it matters when the disk filled up). */
	if (r->reserve_fd >= 0) {
		close(r->reserve_fd);
		r->reserve_fd = -1;
	}
	if (!r->text) {
		rc = fts_outfile_begin(&f, r->output, err);
		if (!rc) {
			rc = fts_tracedat_write(f.fd, &m, dc, r->max_cpu + 1, err);
			if (rc)
				fts_outfile_abort(&f);
			else
				rc = fts_outfile_commit(&f, NULL, err);
		}
	} else {
		char clock_line[160];

		snprintf(clock_line, sizeof(clock_line),
			 "# ftscope_clock realtime_ns=%lld mono_raw_ns=%lld\n",
			 (long long)r->clock_rt[0], (long long)r->clock_raw[0]);
		rc = fts_outfile_begin(&dat, r->output, err);
		if (!rc) {
			rc = fts_tracedat_write(dat.fd, &m, dc, r->max_cpu + 1, err);
			if (!rc) {
				rc = fts_outfile_begin(&f, r->output, err);
				if (!rc) {
					rc = fts_rec_render_text(dat.tmp, f.fd, clock_line, err);
					if (rc)
						fts_outfile_abort(&f);
					else
						rc = fts_outfile_commit(&f, NULL, err);
				}
			}
			fts_outfile_abort(&dat);
		}
	}
	free(dc);
	free(cmdlines);
	return rc;
}

static void final_health(struct fts_recorder *r, struct fts_record_summary *sum)
{
	struct stat st;

	if (!sum)
		return;
	fts_record_health(r, &sum->health);
	sum->duration_s = (double)(fts_rec_now_ns() - r->t0_ns) / 1e9;
	snprintf(sum->output, sizeof(sum->output), "%s", r->output);
	if (r->o.nspid)
		snprintf(sum->pid_mapping, sizeof(sum->pid_mapping), "%s", r->pid_mapping);
	sum->file_size = stat(r->output, &st) == 0 ? (uint64_t)st.st_size : 0;
	sum->truncated = atomic_load(&r->failed);
}

void fts_record_summary_release(struct fts_record_summary *sum)
{
	if (!sum)
		return;
	free(sum->cpu);
	sum->cpu = NULL;
	sum->health.cpu = NULL;
}

int fts_record_stop(struct fts_recorder *r, enum fts_record_stop_mode mode,
		    struct fts_record_summary *sum, struct fts_err *err)
{
	int rc = 0, rc2;

	if (!r)
		return fts_err_set(err, -EINVAL, "no recorder");
	if (sum)
		memset(sum, 0, sizeof(*sum));
	if (r->child > 0 || !r->inst) {
		rc = fts_rec_tracecmd_stop(r, err);
	} else {
		double dur;

		write_clock_marker(r, 1);
		(void)tracefs_trace_off(r->inst);
		join_readers(r);
		dur = (double)(fts_rec_now_ns() - r->t0_ns) / 1e9;
		if (mode == FTS_STOP_DRAIN && !atomic_load(&r->failed)) {
			for (int i = 0; i < r->nrec; i++) {
				struct rec_cpu *c = &r->cpus[i];
				int n;

				while ((n = tracefs_cpu_flush_write(c->tcpu, c->fd)) > 0)
					atomic_fetch_add(&c->bytes, (uint64_t)n);
			}
		}
		for (int i = 0; i < r->nrec; i++) {
			struct fts_cpu_stats s;
			fts_rec_read_stats(r, r->cpus[i].cpu, &s, &r->cpus[i].final_stats);
		}
		if (sum) {
			fts_record_health(r, &sum->health);
			sum->duration_s = dur;
		}
		for (int i = 0; i < r->nrec; i++) {
			tracefs_cpu_free_fd(r->cpus[i].tcpu);
			r->cpus[i].tcpu = NULL;
			close(r->cpus[i].rawfd);
			r->cpus[i].rawfd = -1;
		}
		/* Remove the instance before the (possibly long) assembly. */
		if (destroy_instance(r->inst) < 0)
			rc = fts_err_set(err, -EBUSY, "could not remove tracefs instance %s: %s (remove it with rmdir)",
					 r->inst_name, strerror(errno));
		r->inst = NULL;
		rc2 = write_output(r, rc ? NULL : err);
		if (!rc)
			rc = rc2;
	}
	if (r->mapper) {
		rc2 = fts_pidmapper_stop(r->mapper, rc ? NULL : err);
		r->mapper = NULL;
		if (!rc)
			rc = rc2;
	}
	if (sum) {
		double dur = sum->duration_s;
		struct fts_record_health h = sum->health;

		final_health(r, sum);
		if (h.ncpus) {
			sum->health = h;
			sum->duration_s = dur;
		}
		snprintf(sum->failure, sizeof(sum->failure), "%s", r->failure);
		/* health.cpu points into r, which is about to go: keep a copy. */
		sum->cpu = calloc((size_t)(sum->health.ncpus ? sum->health.ncpus : 1), sizeof(*sum->cpu));
		if (sum->cpu && sum->health.cpu)
			memcpy(sum->cpu, sum->health.cpu, (size_t)sum->health.ncpus * sizeof(*sum->cpu));
		sum->health.cpu = sum->cpu;
	}
	free_recorder(r);
	return rc;
}
