// SPDX-License-Identifier: MIT
/*
 * instance.c - the recorder's private tracefs instance and what both
 * backends share: the tracefs mount, the CPU list check, the event selection
 * with its "kernel lacks it" list, per-CPU stats, and the sweep of instances
 * left by killed recorders.
 *
 * Liveness: an instance is live while some process holds one of its files
 * open, because the kernel then refuses to remove it (EBUSY). Each recorder
 * opens its instance's tracing_on right after creating it and keeps it open
 * until it removes the instance, so a sweep needs no pid at all: that holds
 * across pid namespaces (a container cannot see the host's pids) and pid
 * reuse (a recycled pid does not keep a dead owner's instance alive).
 *
 * Between mkdir and that open an instance is held by nobody, so a sweep
 * would take it for a dead recorder's (it did: two recorders started
 * together, one removed the other's instance 2 ms after its mkdir). Creating
 * and sweeping therefore both hold an flock on tracefs's instances/
 * directory: the kernel's own lock on the one directory every recorder of
 * this kernel shares (containers too), released when its holder dies.
 */
#include "core/record/record_local.h"
#include "core/trace/dat_pages.h"
#include "ftscope/event.h"
#include "core/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <tracefs.h>
#include <unistd.h>

struct rec_instance {
	struct tracefs_instance *inst;
	char name[64];
	char dir[4096];               /* the tracefs mount */
	int hold_fd;                  /* keeps the instance live for sweeps */
	char *clock_text;
	int subbuf;
};

int rec_tracing_dir(char *dir, size_t len, struct fts_err *err)
{
	const char *d;

	/*
	 * Root first: for another user libtracefs cannot even see a mounted
	 * tracefs when its directory is 0700, and "not mounted" would be a lie.
	 */
	if (geteuid() != 0)
		return fts_err_set(err, -EPERM, "recording needs root (tracefs)");
	/* libtracefs mounts tracefs (or debugfs) when it is not mounted yet. */
	d = tracefs_tracing_dir();
	if (!d)
		return fts_err_set(err, -ENODEV,
				   "tracefs is not mounted and cannot be mounted (mount -t tracefs nodev /sys/kernel/tracing)");
	snprintf(dir, len, "%s", d);
	if (access(dir, W_OK) != 0)
		return fts_err_set(err, -EPERM, "recording needs root (cannot write %s)", dir);
	return 0;
}

int rec_cpus_resolve(const char *list, struct fts_cpuset *set, struct fts_err *err)
{
	struct fts_cpuset online;
	int rc = fts_cpuset_online(&online, err);

	if (rc)
		return rc;
	if (!list || !*list) {
		*set = online;
		return 0;
	}
	rc = fts_cpuset_parse(list, set, err);
	if (!rc)
		rc = fts_cpuset_check_online(set, &online, err);
	return rc;
}

#define REC_EV(kind, group, sys, name, ...) { #group, sys "/" name },
static const struct { const char *group, *event; } rec_event_table[] = { FTS_EVENT_TABLE(REC_EV) };
#undef REC_EV

/* Whether the comma list @list names @event ("sys/event"; "sys:event" is accepted too). */
static int listed(const char *list, const char *event)
{
	size_t n = strlen(event);

	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ',');
		size_t l = end ? (size_t)(end - p) : strlen(p), i = 0;

		while (l == n && i < n && (p[i] == event[i] || (p[i] == ':' && event[i] == '/')))
			i++;
		if (l == n && i == n)
			return 1;
		p = end ? end + 1 : NULL;
	}
	return 0;
}

int rec_events_check_exclude(const char *exclude, struct fts_err *err)
{
	for (const char *p = exclude; p && *p;) {
		const char *end = strchr(p, ',');
		int l = end ? (int)(end - p) : (int)strlen(p);
		char one[128];
		int known = 0;

		snprintf(one, sizeof(one), "%.*s", l, p);
		for (size_t i = 0; i < REC_ARRAY_SIZE(rec_event_table) && l > 0 && l < (int)sizeof(one); i++)
			known |= listed(one, rec_event_table[i].event);
		if (!known)
			return fts_err_set(err, -EINVAL,
					   "cannot leave out '%.*s': not an event ftscope records "
					   "(one of its sched, irq or futex events, as system/event)",
					   l > 100 ? 100 : l, p);
		p = end ? end + 1 : NULL;
	}
	return 0;
}

int rec_events_wanted(const struct fts_record_opts *o, const char **out, int max)
{
	int n = 0;

	/* the option that enables each group is named after it (event.h) */
	for (size_t i = 0; i < REC_ARRAY_SIZE(rec_event_table) && n < max; i++) {
		const char *g = rec_event_table[i].group;

		if (((o->sched && !strcmp(g, "sched")) || (o->irq && !strcmp(g, "irq")) ||
		     (o->futex && !strcmp(g, "futex"))) && !listed(o->exclude, rec_event_table[i].event))
			out[n++] = rec_event_table[i].event;
	}
	return n;
}

int rec_events_select(const struct fts_record_opts *o, const char *tracing_dir,
		      struct rec_events *ev, struct fts_err *err)
{
	const char *want[32];
	int nwant = rec_events_wanted(o, want, 32);

	memset(ev, 0, sizeof(*ev));
	ev->names = calloc((size_t)nwant + 1, sizeof(*ev->names));
	if (!ev->names)
		return fts_err_set(err, -ENOMEM, "out of memory");
	for (int i = 0; i < nwant; i++) {
		char path[4096 + 128];
		const char *slash = strchr(want[i], '/');

		snprintf(path, sizeof(path), "%s/events/%s/enable", tracing_dir, want[i]);
		if (access(path, F_OK) != 0) {
			size_t l = strlen(ev->missing);
			snprintf(ev->missing + l, sizeof(ev->missing) - l, "%s%.*s:%s", l ? "," : "",
				 (int)(slash - want[i]), want[i], slash + 1);
			continue;
		}
		ev->names[ev->count] = strdup(want[i]);
		if (!ev->names[ev->count++]) {
			rec_events_free(ev);
			return fts_err_set(err, -ENOMEM, "out of memory");
		}
	}
	if (!ev->count) {
		int rc = nwant ? fts_err_set(err, -EINVAL, "none of the requested events exist on this kernel (%s)",
					     ev->missing)
			       : fts_err_set(err, -EINVAL, "no events left to record: every event of the chosen "
					     "groups is left out");
		rec_events_free(ev);
		return rc;
	}
	return 0;
}

void rec_events_free(struct rec_events *ev)
{
	for (int i = 0; ev->names && ev->names[i]; i++)
		free(ev->names[i]);
	free(ev->names);
	ev->names = NULL;
	ev->count = 0;
}

/* Remove @inst; our own removal retries while a just-closed fd is released. */
static int destroy_retry(struct tracefs_instance *inst, int tries)
{
	int rc = -1;

	for (int i = 0; i < tries && rc; i++) {
		rc = tracefs_instance_destroy(inst);
		/*
		 * Ours, already removed: once our hold is closed another
		 * recorder's sweep may win the race between our EBUSY retries
		 * (the kernel says ENODEV when the name went between lookup and
		 * removal, ENOENT after).
		 */
		if (rc && (errno == ENOENT || errno == ENODEV) && tries > 1)
			return 0;
		if (rc && errno != EBUSY)
			break;
		if (rc && i + 1 < tries)
			usleep(100000);
	}
	return rc;
}

/*
 * The lock on @tracing_dir/instances that creating (mkdir to hold) and
 * sweeping take; -1 when it cannot be had (the caller goes on without it: a
 * kernel whose tracefs refuses flock is no worse off than before).
 */
static int instances_lock(const char *tracing_dir)
{
	char path[4096 + 16];
	int fd;

	snprintf(path, sizeof(path), "%s/instances", tracing_dir);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

static void instances_unlock(int fd)
{
	if (fd >= 0)
		close(fd);  /* releases the flock */
}

void rec_instance_sweep(const char *tracing_dir)
{
	int lock = instances_lock(tracing_dir);
	/* No regex: libtracefs 1.6 leaks the compiled one. */
	char **list = tracefs_instances(NULL);

	for (int i = 0; list && list[i]; i++) {
		struct tracefs_instance *inst;

		if (strncmp(list[i], "ftscope-", 8))
			continue;
		/* One try: EBUSY means its owner holds it open, i.e. it is live. */
		inst = tracefs_instance_alloc(tracing_dir, list[i]);
		if (inst) {
			(void)destroy_retry(inst, 1);
			tracefs_instance_free(inst);
		}
	}
	tracefs_list_free(list);
	instances_unlock(lock);
}

static int inst_write(struct rec_instance *in, const char *name, const char *val, struct fts_err *err)
{
	if (tracefs_instance_file_write(in->inst, name, val) < 0) {
		int e = errno ? errno : EIO;
		return fts_err_set(err, -e, "cannot write '%s' to %s/instances/%s/%s: %s", val, in->dir,
				   in->name, name, strerror(e));
	}
	return 0;
}

/* Errors of mkdir in instances/ that mean "no private instances on this machine". */
static int mkdir_unavailable(int e)
{
	return e == ENOENT || e == EACCES || e == EPERM || e == EROFS || e == ENODEV || e == ENOTSUP;
}

/* Test hook (docs/record.md): a slow start, mkdir to hold, to widen the window a sweep once hit. */
static void setup_delay(void)
{
	long ms = fts__test_long(FTS__TEST_SETUP_DELAY_MS);

	if (ms > 0 && ms < 10000)
		nanosleep(&(struct timespec){ ms / 1000, ms % 1000 * 1000000L }, NULL);
}

/* Under the instances lock: a free name, mkdir, and the hold. */
static int make_locked(struct rec_instance *in, int *unavailable, struct fts_err *err)
{
	for (int n = 0; n < 100; n++) {
		if (n == 0)
			snprintf(in->name, sizeof(in->name), "ftscope-%d", (int)getpid());
		else
			snprintf(in->name, sizeof(in->name), "ftscope-%d-%d", (int)getpid(), n);
		if (tracefs_instance_exists(in->name))
			continue;
		in->inst = tracefs_instance_create(in->name);
		if (!in->inst) {
			int e = errno ? errno : EIO;

			*unavailable = mkdir_unavailable(e);
			return fts_err_set(err, -e, "cannot create tracefs instance %s/instances/%s: %s",
					   in->dir, in->name, strerror(e));
		}
		if (tracefs_instance_is_new(in->inst)) {
			setup_delay();
			in->hold_fd = tracefs_instance_file_open(in->inst, "tracing_on", O_RDONLY | O_CLOEXEC);
			/*
			 * An ftscope without the lock (an older one) may still
			 * sweep it before the hold, or while the open takes it (the
			 * open can succeed on an instance being torn down: its
			 * first write then fails with ENOENT): check it is still
			 * there and writable, else another name.
			 */
			if (in->hold_fd >= 0 && tracefs_instance_exists(in->name) &&
			    tracefs_instance_file_write(in->inst, "tracing_on", "0") >= 0)
				return 0;
			if (in->hold_fd >= 0)
				close(in->hold_fd);
			in->hold_fd = -1;
		}
		tracefs_instance_free(in->inst);
		in->inst = NULL;
	}
	return fts_err_set(err, -EEXIST, "too many ftscope instances for pid %d", (int)getpid());
}

/* Make a new instance with a free name and hold it open before any sweep can look. */
static int make_instance(struct rec_instance *in, int *unavailable, struct fts_err *err)
{
	int lock = instances_lock(in->dir);
	int rc = make_locked(in, unavailable, err);

	instances_unlock(lock);
	return rc;
}

/*
 * The kernel's page, as its header_page describes it (data offset + size),
 * not sysconf(_SC_PAGESIZE): this process's page size need not be the
 * kernel's (under qemu-user -p 65536, say), and pages cut at the wrong size
 * make a trace.dat no reader can read.
 */
static int header_subbuf(struct rec_instance *in, struct fts_err *err)
{
	struct dat_header_page hp;
	int n = 0, bad;
	char *text = tracefs_instance_file_read(in->inst, "events/header_page", &n);

	bad = !text || n <= 0 || fts_dat_header_page_parse(text, (size_t)n, &hp);
	free(text);
	if (bad)
		return fts_err_set(err, -ENOTSUP,
				   "cannot read this kernel's ring-buffer page layout (%s/instances/%s/events/header_page)",
				   in->dir, in->name);
	in->subbuf = hp.subbuf_size;
	return 0;
}

static int setup(struct rec_instance *in, const struct fts_cpuset *set, unsigned bf_kb,
		 const struct rec_events *ev, int *unavailable, struct fts_err *err)
{
	char mask[FTS_CPUSET_MAX / 4 + FTS_CPUSET_MAX / 32 + 2], num[32];
	long long kb = 0;
	int rc;

	if ((rc = inst_write(in, "tracing_on", "0", err)))
		return rc;
	if (inst_write(in, "trace_clock", "mono_raw", err)) {
		*unavailable = 1;
		return fts_err_set(err, -ENOTSUP,
				   "this kernel has no mono_raw trace clock (needed to align with profiling)");
	}
	snprintf(num, sizeof(num), "%u", bf_kb);
	if ((rc = inst_write(in, "buffer_size_kb", num, err)))
		return rc;
	fts_cpuset_hexmask(set, mask, sizeof(mask));
	if ((rc = inst_write(in, "tracing_cpumask", mask, err)))
		return rc;
	in->clock_text = tracefs_instance_file_read(in->inst, "trace_clock", NULL);
	for (int i = 0; i < ev->count; i++) {
		char file[160];

		snprintf(file, sizeof(file), "events/%s/enable", ev->names[i]);
		if ((rc = inst_write(in, file, "1", err)))
			return rc;
	}
	/* 4.x-6.7 kernels hand out whole pages; later ones say so in a file. */
	if (tracefs_instance_file_read_number(in->inst, "buffer_subbuf_size_kb", &kb) == 0 && kb > 0)
		in->subbuf = (int)(kb * 1024);
	else
		return header_subbuf(in, err);
	return 0;
}

int rec_instance_create(const char *tracing_dir, const struct fts_cpuset *set, unsigned bf_kb,
			const struct rec_events *ev, struct rec_instance **out, int *unavailable,
			struct fts_err *err)
{
	struct rec_instance *in = calloc(1, sizeof(*in));
	int rc;

	*out = NULL;
	*unavailable = 0;
	if (!in)
		return fts_err_set(err, -ENOMEM, "out of memory");
	in->hold_fd = -1;
	snprintf(in->dir, sizeof(in->dir), "%s", tracing_dir);
	rc = make_instance(in, unavailable, err);
	if (!rc)
		rc = setup(in, set, bf_kb, ev, unavailable, err);
	if (rc) {
		rec_instance_destroy(in, NULL);
		return rc;
	}
	*out = in;
	return 0;
}

const char *rec_instance_clock(const struct rec_instance *in)
{
	return in->clock_text;
}

int rec_instance_subbuf(const struct rec_instance *in)
{
	return in->subbuf;
}

int rec_instance_open_raw(struct rec_instance *in, int cpu, struct fts_err *err)
{
	char name[64];
	int fd;

	snprintf(name, sizeof(name), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	/* O_CLOEXEC: a forked child holding this fd would make rmdir fail with EBUSY. */
	fd = tracefs_instance_file_open(in->inst, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return fts_err_set(err, -errno, "cannot open %s of instance %s: %s", name, in->name,
				   strerror(errno));
	return fd;
}

int rec_instance_tracing(struct rec_instance *in, int on, struct fts_err *err)
{
	return inst_write(in, "tracing_on", on ? "1" : "0", err);
}

struct marker_job {
	struct rec_instance *in;
	struct rec_clock c;
};

static void *marker_main(void *arg)
{
	struct marker_job *j = arg;
	char line[200];

	rec_clock_sample(&j->c);
	rec_clock_format(line, sizeof(line) - 1, "ftscope_clock", &j->c);
	strcat(line, "\n");
	(void)tracefs_instance_file_write(j->in->inst, "trace_marker", line);
	return NULL;
}

/*
 * A marker written on a CPU outside the instance's cpumask is dropped, so
 * write it from a short-lived thread pinned to a recorded CPU (the caller's
 * own affinity is left alone).
 */
int rec_instance_clock_marker(struct rec_instance *in, int cpu, int64_t *rt, int64_t *raw,
			      long max_wait_ms)
{
	struct rec_clock c = { 0 };
	int gave_up = rec_instance_clock_sample_marker(in, cpu, &c, max_wait_ms);

	if (rt)
		*rt = c.rt;
	if (raw)
		*raw = c.raw;
	return gave_up;
}

int rec_instance_clock_sample_marker(struct rec_instance *in, int cpu, struct rec_clock *out,
				     long max_wait_ms)
{
	struct marker_job j = { .in = in };
	pthread_attr_t attr;
	pthread_t t;
	cpu_set_t set;
	int gave_up = 0;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	/* SCHED_FIFO for its one write: behind a CPU hog at load 50+ a normal
	 * thread waited past the deadline and the closing marker was lost */
	if (fts__thread_start_fifo(&t, &attr, marker_main, &j) == 0) {
		struct timespec until;

		/*
		 * The pinned thread may wait behind a saturated CPU for seconds; a
		 * capture's end must not wait with it (a 3 s recording ran 5-20 s).
		 */
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += max_wait_ms / 1000;
		until.tv_nsec += max_wait_ms % 1000 * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		if (max_wait_ms > 0 && pthread_timedjoin_np(t, NULL, &until) == ETIMEDOUT) {
			(void)rec_instance_tracing(in, 0, NULL);
			gave_up = 1;
			pthread_join(t, NULL);
		} else if (max_wait_ms <= 0) {
			pthread_join(t, NULL);
		}
	} else {
		marker_main(&j);
	}
	pthread_attr_destroy(&attr);
	if (out)
		*out = j.c;
	return gave_up;
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

int rec_instance_stats(struct rec_instance *in, int cpu, struct rec_cpu_stats *s, char **text)
{
	char name[64];
	char *t;

	/* libtracefs 1.6 has no tracefs_instance_get_stat (1.8 does): parse the file. */
	memset(s, 0, sizeof(*s));
	snprintf(name, sizeof(name), "per_cpu/cpu%d/stats", cpu);
	t = tracefs_instance_file_read(in->inst, name, NULL);
	if (!t)
		return errno ? -errno : -EIO;
	s->entries = stat_field(t, "entries");
	s->overrun = stat_field(t, "overrun");
	s->commit_overrun = stat_field(t, "commit overrun");
	s->bytes = stat_field(t, "bytes");
	s->dropped = stat_field(t, "dropped events");
	s->read = stat_field(t, "read events");
	if (text)
		*text = t;
	else
		free(t);
	return 0;
}

int rec_instance_destroy(struct rec_instance *in, struct fts_err *err)
{
	int rc = 0;

	if (!in)
		return 0;
	if (in->hold_fd >= 0)
		close(in->hold_fd);
	if (in->inst) {
		if (destroy_retry(in->inst, 50) < 0) {
			int e = errno;
			rc = fts_err_set(err, -EBUSY, "could not remove tracefs instance %s: %s (remove it with rmdir)",
					 in->name, strerror(e));
		}
		tracefs_instance_free(in->inst);
	}
	free(in->clock_text);
	free(in);
	return rc;
}
