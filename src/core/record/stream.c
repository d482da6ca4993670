// SPDX-License-Identifier: MIT
/*
 * stream.c - a few reader threads splice whole ring-buffer pages from the
 * per-CPU trace_pipe_raw files into one unlinked stream file per CPU beside
 * the output. The streams are the capture; assemble.c turns them into the
 * output at stop.
 *
 * Why a pool and not a thread per CPU: at 192 CPUs a thread per CPU is 192
 * threads waking 100 times a second each, mostly to find nothing. A reader
 * here owns every K-th CPU: it drains each of them a bounded batch at a time
 * (one busy CPU cannot starve the rest of its share), and when none had a
 * page it sleeps in poll() on their fds, so the kernel wakes it early when a
 * buffer passes the instance's buffer_percent, and the timeout keeps the
 * streams (and what the live top and the status see) at most one period old.
 * The period grows with the buffer (poll_period_ns): what saves a busy CPU
 * from loss is the buffer_percent wakeup, so the timeout only bounds the age
 * of a slow CPU's data, and a big buffer lets an idle reader sleep longer.
 */
#include "core/record/record_local.h"
#include "core/internal.h"
#include "core/util/tempfile.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <tracefs.h>
#include <unistd.h>

#define POLL_NS_PER_4MB 10000000L  /* the period: 10 ms per 4 MB of per-CPU buffer, */
#define POLL_NS_MIN 5000000L       /* at least 5 ms (a 256 KB buffer fills in tens of ms), */
#define POLL_NS_MAX 100000000L     /* at most 100 ms (the status and the top tick at 2-4 Hz) */
#define BATCH 16          /* writes from one CPU before its reader looks at the next */
#define FULL_HOLD_NS 250000000L  /* a full disk: how long a CPU's reader waits before it tries again */
#define CPUS_PER_READER 16 /* the default pool: one reader per 16 recorded CPUs */
#define MAX_READERS 64

struct rec_stream_cpu {
	struct rec_stream *s;
	int cpu;
	int reader;                   /* index of the reader that owns it */
	struct tracefs_cpu *tcpu;
	int rawfd;                    /* trace_pipe_raw; tracefs_cpu_free_fd leaves it open */
	int fd;                       /* unlinked stream file; swapped by rec_stream_rotate */
	pthread_mutex_t fd_lock;      /* held around each page write, so a rotation falls between pages */
	_Atomic uint64_t bytes;
	uint64_t hold_until;          /* a full disk: not drained before then (mono ns; its reader's) */
};

struct rec_reader {
	struct rec_stream *s;
	int k;                        /* owns the CPU indexes k, k + nreaders, ... */
	atomic_int tid;               /* the reader's thread id, 0 until it runs */
	pthread_t thread;
	int started;
};

struct rec_stream {
	int n;
	struct rec_stream_cpu *c;
	int nreaders;
	struct rec_reader *r;
	long poll_ns;
	long delay_ns;                /* test hook: a deliberately slow reader */
	int nice;                     /* the readers' nice */
	char output[4096];            /* named in messages */
	atomic_int stop;
	int go_on_full;               /* a full disk holds the reader instead of ending it (flight) */
	int page;                     /* the sub-buffer size: the streams hold whole ones */
	_Atomic uint64_t full_writes; /* writes a full disk refused (a page each, lost) */
	atomic_int full_seen;         /* one since rec_stream_full_seen last looked */
	atomic_int failed;
	pthread_mutex_t lock;
	char failure[256];
};

static void fail(struct rec_stream *s, int e, int cpu)
{
	pthread_mutex_lock(&s->lock);
	if (!atomic_load(&s->failed)) {
		snprintf(s->failure, sizeof(s->failure), "%s while streaming CPU %d to %.150s (%s)",
			 e == ENOSPC || e == EDQUOT ? "disk full" : "write error", cpu, s->output,
			 strerror(e));
		atomic_store(&s->failed, 1);
	}
	pthread_mutex_unlock(&s->lock);
	atomic_store(&s->stop, 1);
}

/*
 * A write the disk refused, in a flight recording: the page that was being
 * written is gone (libtracefs has consumed it), and a part of it may be in
 * the file: cut back to the last whole page, so what comes after the hold
 * stays page-aligned. The reader leaves this CPU for FULL_HOLD_NS: the kernel
 * keeps its newest pages meanwhile and counts what it overwrites as lost,
 * while the flight thread makes room (flight.c).
 */
static void hold_on_full(struct rec_stream *s, struct rec_stream_cpu *c)
{
	off_t at;

	pthread_mutex_lock(&c->fd_lock);
	at = lseek(c->fd, 0, SEEK_CUR);
	if (at > 0 && s->page > 0 && at % s->page) {
		at -= at % s->page;
		if (ftruncate(c->fd, at) == 0)
			(void)lseek(c->fd, at, SEEK_SET);
	}
	pthread_mutex_unlock(&c->fd_lock);
	atomic_fetch_add(&s->full_writes, 1);
	atomic_store(&s->full_seen, 1);
	c->hold_until = fts__clock_mono_ns() + FULL_HOLD_NS;
}

/* Up to BATCH writes from CPU index @i: 1 when a page came, 0 when none, -1 on a failure. */
static int drain_some(struct rec_stream *s, struct rec_stream_cpu *c)
{
	int got = 0;

	if (c->hold_until) {
		if (fts__clock_mono_ns() < c->hold_until)
			return 0;
		c->hold_until = 0;
	}
	for (int b = 0; b < BATCH && !atomic_load(&s->stop); b++) {
		int n;

		pthread_mutex_lock(&c->fd_lock);
		n = tracefs_cpu_write(c->tcpu, c->fd, true);
		pthread_mutex_unlock(&c->fd_lock);
		if (n > 0) {
			atomic_fetch_add(&c->bytes, (uint64_t)n);
			got = 1;
			if (s->delay_ns)
				nanosleep(&(struct timespec){ s->delay_ns / 1000000000L,
							     s->delay_ns % 1000000000L }, NULL);
			continue;
		}
		if (n < 0 && (errno == ENOSPC || errno == EDQUOT) && s->go_on_full) {
			hold_on_full(s, c);
			break;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR && errno != 0) {
			fail(s, errno, c->cpu);
			return -1;
		}
		break;
	}
	return got;
}

static void *reader_main(void *arg)
{
	struct rec_reader *r = arg;
	struct rec_stream *s = r->s;
	struct pollfd *pfd;
	int m = 0, woke_empty = 0;

	/*
	 * On a saturated CPU a normal-priority reader can wait longer than a
	 * small ring buffer lasts; a higher (still fair-class) priority keeps it
	 * draining without starving the workload. Best effort.
	 */
	atomic_store(&r->tid, (int)gettid());
	(void)setpriority(PRIO_PROCESS, (id_t)gettid(), s->nice);
	{
		char name[16];
		snprintf(name, sizeof(name), "fts-read%d", r->k);
		pthread_setname_np(pthread_self(), name);
	}
	pfd = calloc((size_t)(s->n / s->nreaders + 1), sizeof(*pfd));
	for (int i = r->k; pfd && i < s->n; i += s->nreaders)
		pfd[m++] = (struct pollfd){ .fd = s->c[i].rawfd, .events = POLLIN };
	while (!atomic_load(&s->stop)) {
		int got = 0;

		for (int i = r->k; i < s->n && got >= 0; i += s->nreaders) {
			int g = drain_some(s, &s->c[i]);

			got = g < 0 ? -1 : got | g;
		}
		if (got < 0)
			break;
		if (got) {
			woke_empty = 0;
			continue;
		}
		/*
		 * Nothing anywhere: wait for a buffer to pass the watermark or the
		 * period to end. A poll that said "ready" and then gave nothing is
		 * not trusted the next time (a plain sleep), so it cannot spin.
		 */
		if (pfd && !woke_empty) {
			woke_empty = poll(pfd, (nfds_t)m, (int)(s->poll_ns / 1000000L)) > 0;
		} else {
			woke_empty = 0;
			nanosleep(&(struct timespec){ 0, s->poll_ns }, NULL);
		}
	}
	free(pfd);
	return NULL;
}

/* The readers' poll timeout for a per-CPU buffer of @kb KB. */
static long poll_period_ns(unsigned int kb)
{
	long ns = (long)((uint64_t)POLL_NS_PER_4MB * kb / 4096);

	return ns < POLL_NS_MIN ? POLL_NS_MIN : ns > POLL_NS_MAX ? POLL_NS_MAX : ns;
}

/* The pool size: @want (fts_record_opts.readers, docs/record.md) or one reader per CPUS_PER_READER CPUs. */
static int pool_size(int ncpus, int want)
{
	int k = (ncpus + CPUS_PER_READER - 1) / CPUS_PER_READER;

	if (want > 0)
		k = want;
	if (k > ncpus)
		k = ncpus;
	if (k > MAX_READERS)
		k = MAX_READERS;
	return k < 1 ? 1 : k;
}

int rec_stream_open(struct rec_instance *in, const struct fts_cpuset *set, const char *output,
		    unsigned int bf_size_kb, int readers, struct rec_stream **out, struct fts_err *err)
{
	struct rec_stream *s = calloc(1, sizeof(*s));
	long delay_ms = fts__test_long(FTS__TEST_READER_DELAY_MS);
	int i = 0, rc = 0;

	*out = NULL;
	if (!s)
		return fts_err_set(err, -ENOMEM, "out of memory");
	pthread_mutex_init(&s->lock, NULL);
	snprintf(s->output, sizeof(s->output), "%s", output);
	s->poll_ns = poll_period_ns(bf_size_kb);
	s->page = rec_instance_subbuf(in);
	s->nice = REC_READER_NICE;
	/* Test hook (docs/record.md): make loss reproducible. */
	s->delay_ns = delay_ms * 1000000L;
	s->n = fts_cpuset_count(set);
	s->nreaders = pool_size(s->n, readers);
	s->c = calloc((size_t)s->n, sizeof(*s->c));
	s->r = calloc((size_t)s->nreaders, sizeof(*s->r));
	if (!s->c || !s->r) {
		free(s->c);
		free(s->r);
		free(s);
		return fts_err_set(err, -ENOMEM, "out of memory");
	}
	for (int k = 0; k < s->nreaders; k++) {
		s->r[k].s = s;
		s->r[k].k = k;
	}
	for (int i2 = 0; i2 < s->n; i2++) {
		s->c[i2].fd = s->c[i2].rawfd = -1;
		pthread_mutex_init(&s->c[i2].fd_lock, NULL);
	}
	for (int cpu = fts_cpuset_next(set, 0); cpu >= 0 && !rc; cpu = fts_cpuset_next(set, cpu + 1), i++) {
		struct rec_stream_cpu *c = &s->c[i];

		c->s = s;
		c->cpu = cpu;
		c->reader = i % s->nreaders;
		rc = c->rawfd = rec_instance_open_raw(in, cpu, err);
		if (rc < 0)
			break;
		rc = 0;
		c->tcpu = tracefs_cpu_alloc_fd(c->rawfd, rec_instance_subbuf(in), true);
		if (!c->tcpu) {
			rc = fts_err_set(err, -ENOMEM, "cannot set up the CPU %d reader", cpu);
			break;
		}
		c->fd = fts_rec_tempfile(output);
		if (c->fd < 0)
			rc = fts_err_set(err, c->fd, "cannot create a stream file beside %s: %s", output,
					 strerror(-c->fd));
	}
	if (rc) {
		rec_stream_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

void rec_stream_set_nice(struct rec_stream *s, int nice)
{
	s->nice = nice;
}

void rec_stream_go_on_full(struct rec_stream *s)
{
	s->go_on_full = 1;
}

int rec_stream_full_seen(struct rec_stream *s)
{
	return atomic_exchange(&s->full_seen, 0);
}

uint64_t rec_stream_refused(struct rec_stream *s)
{
	return atomic_load(&s->full_writes);
}

int rec_stream_tid(const struct rec_stream *s, int i)
{
	return rec_stream_reader_tid(s, s->c[i].reader);
}

int rec_stream_readers(const struct rec_stream *s)
{
	return s->nreaders;
}

int rec_stream_reader_of(const struct rec_stream *s, int i)
{
	return s->c[i].reader;
}

int rec_stream_reader_tid(const struct rec_stream *s, int k)
{
	return atomic_load(&((struct rec_stream *)s)->r[k].tid);
}

int rec_stream_start(struct rec_stream *s, struct fts_err *err)
{
	int rc = 0;

	for (int k = 0; k < s->nreaders && !rc; k++) {
		rc = fts__thread_start(&s->r[k].thread, NULL, reader_main, &s->r[k]);
		if (!rc)
			s->r[k].started = 1;
	}
	if (rc)
		return fts_err_set(err, rc, "cannot start reader threads: %s", strerror(-rc));
	return 0;
}

void rec_stream_halt(struct rec_stream *s)
{
	atomic_store(&s->stop, 1);
	for (int k = 0; k < s->nreaders; k++) {
		if (s->r[k].started)
			pthread_join(s->r[k].thread, NULL);
		s->r[k].started = 0;
	}
}

void rec_stream_drain(struct rec_stream *s, int i, int (*keep_going)(void *arg, uint64_t bytes),
		      void *arg)
{
	struct rec_stream_cpu *c = &s->c[i];
	int n;

	if (!c->tcpu || atomic_load(&s->failed))
		return;
	while ((!keep_going || keep_going(arg, atomic_load(&c->bytes))) &&
	       (n = tracefs_cpu_flush_write(c->tcpu, c->fd)) > 0)
		atomic_fetch_add(&c->bytes, (uint64_t)n);
}

void rec_stream_close_raw(struct rec_stream *s)
{
	for (int i = 0; i < s->n; i++) {
		if (s->c[i].tcpu)
			tracefs_cpu_free_fd(s->c[i].tcpu);
		s->c[i].tcpu = NULL;
		if (s->c[i].rawfd >= 0)
			close(s->c[i].rawfd);
		s->c[i].rawfd = -1;
	}
}

int rec_stream_count(const struct rec_stream *s)
{
	return s->n;
}

int rec_stream_cpu(const struct rec_stream *s, int i)
{
	return s->c[i].cpu;
}

uint64_t rec_stream_bytes(const struct rec_stream *s, int i)
{
	return atomic_load(&((struct rec_stream *)s)->c[i].bytes);
}

int rec_stream_fd(const struct rec_stream *s, int i)
{
	return s->c[i].fd;
}

int rec_stream_rotate(struct rec_stream *s, const int *fds, int *old)
{
	/*
	 * trace_pipe_raw hands out whole sub-buffers and the reader writes each
	 * one under fd_lock: swapping the file under that lock puts every page
	 * in exactly one of the two files, in order, with nothing left between.
	 */
	for (int i = 0; i < s->n; i++) {
		struct rec_stream_cpu *c = &s->c[i];

		pthread_mutex_lock(&c->fd_lock);
		old[i] = c->fd;
		c->fd = fds[i];
		pthread_mutex_unlock(&c->fd_lock);
	}
	return 0;
}

int rec_stream_failed(struct rec_stream *s, char *buf, size_t len)
{
	if (!atomic_load(&s->failed))
		return 0;
	if (buf && len) {
		pthread_mutex_lock(&s->lock);
		snprintf(buf, len, "%s", s->failure);
		pthread_mutex_unlock(&s->lock);
	}
	return 1;
}

void rec_stream_free(struct rec_stream *s)
{
	if (!s)
		return;
	rec_stream_halt(s);
	rec_stream_close_raw(s);
	for (int i = 0; i < s->n; i++)
		if (s->c[i].fd >= 0)
			close(s->c[i].fd);
	for (int i = 0; i < s->n; i++)
		pthread_mutex_destroy(&s->c[i].fd_lock);
	free(s->c);
	free(s->r);
	pthread_mutex_destroy(&s->lock);
	free(s);
}
