// SPDX-License-Identifier: MIT
/*
 * top.c - the optional "live top": a low-priority thread that reads the
 * pages the readers have already streamed to disk (page cache, pread) and
 * hands them to top_engine.c, which decodes them with the trace.dat reader's
 * decoder and counts them with the sched model and fts_stats, as `ftscope
 * stats` would: each task's Runnable (waiting) time, its CPU time and the
 * worst wakeup-to-run latency over the last TOP_WINDOW seconds of trace time.
 * It only reads what the capture has written, so it can neither slow nor
 * lose the capture; when it falls behind it skips pages (counted) instead of
 * catching up.
 *
 * It also keeps to a CPU budget (TOP_CPU_SHARE of one core): from its
 * measured cost per byte it decodes at most what the budget pays for in a
 * tick, the same newest share of each CPU's new pages, and skips the rest.
 * At a few hundred thousand events a second that is all of them; at millions
 * a sample. The model is told of every skip (lost events: nothing carried
 * across it), and the times shown are the sampled spans' scaled by the share
 * decoded over the window (fts_record_top.skipped_share): estimates, said so.
 * With trigger rules (flight.c) nothing is sampled and nothing skipped, even
 * far behind (a trigger must see every event: behind, it reads more per tick
 * until it has caught up), and the thread runs at nice 0, not 19, so that
 * under load it keeps up and a trigger fires within a bounded delay
 * (bench/trigger_delay.sh measures it).
 *
 * A flight recording swaps the stream files under the readers (flight.c):
 * the top reads its own duplicate of each CPU's file, and at a rotation
 * (rec_top_rotated, before the old files are assembled and punched) reads
 * the old one to its end and moves to the new one. Offsets are per file;
 * @base is what the earlier files held, so the readers' running byte count
 * minus @base bounds what the current file holds.
 */
#include "core/record/record_local.h"
#include "ftscope/event.h"
#include "core/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <traceevent/event-parse.h>
#include <unistd.h>

#define TOP_WINDOW 5                  /* seconds (one fts_stats per second) */
#define TOP_TICK_NS 500000000L
#define TOP_MAX_BEHIND (8u << 20)     /* bytes per CPU decoded at most per tick */
#define TOP_READ_PAGES 64             /* pages per preadv: one syscall per 4 KB page cost ~a third of the top */
#define TOP_CPU_SHARE 0.03            /* of one core: the budget of a displayed top (docs/record.md) */
#define TOP_COST_SEED 5e-9            /* s per byte before a measure (~0.25 s per Mev of ~48 bytes) */
#define TOP_COST_MIN_BYTES (256u << 10) /* a tick's measure counts from this many bytes decoded */
#define TOP_TICKS_WINDOW (TOP_WINDOW * (1000000000L / TOP_TICK_NS))

struct rec_top {
	struct rec_stream *st;
	int page_size, n;
	uint64_t *off;                /* per CPU: bytes of the current file handed to the engine */
	uint64_t *base;               /* per CPU: bytes of the files before the current one */
	int *fd;                      /* per CPU: the current stream file (a duplicate, ours) */
	pthread_mutex_t io;           /* the files and the engine: the top thread vs a rotation */
	double extra_s;               /* CPU time spent reading in a rotation (the flight thread's) */
	struct rec_trig_hit hit;      /* triggers fired and not taken yet (under @lock) */
	struct tep_handle *tep;
	struct rec_top_engine *eng;

	pthread_t thread;
	int started, quit;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct fts_record_top pub;    /* the latest published figures (under @lock) */
	double cost_s;                /* the thread's CPU time at its last tick */
	uint64_t skipped;             /* bytes not decoded */
	uint64_t *avail;              /* per CPU: this tick's whole pages available */
	int sample;                   /* the budget applies (no trigger rules) */
	atomic_int for_triggers;      /* trigger rules are set: run at nice 0 */
	double cost_per_byte;         /* s of CPU per byte handed over (smoothed) */
	uint64_t took[TOP_TICKS_WINDOW], came[TOP_TICKS_WINDOW]; /* bytes decoded / new, last ticks */
	int tick_no;
};

/* ---- reading the streams ------------------------------------------------------- */

/*
 * The new whole pages of stream @i into the engine; the ones too far behind
 * are skipped. Read straight into the engine's page buffers (preadv), not
 * into one buffer and copied from there.
 */
static void read_cpu(struct rec_top *t, int i, uint64_t avail, uint64_t keep)
{
	uint64_t psz = (uint64_t)t->page_size;
	int fd = t->fd[i];

	if (t->sample)
		keep = keep < TOP_MAX_BEHIND ? keep : TOP_MAX_BEHIND;
	if (avail > t->off[i] + keep) {
		uint64_t to = (avail - keep) / psz * psz;

		if (to > t->off[i]) {
			t->skipped += to - t->off[i];
			t->off[i] = to;
			rec_top_engine_gap(t->eng, i);
		}
	}
	while (t->off[i] + psz <= avail) {
		uint64_t want = (avail - t->off[i]) / psz;
		struct iovec iov[TOP_READ_PAGES];
		int n = 0, full, stop;
		ssize_t got;

		want = want < TOP_READ_PAGES ? want : TOP_READ_PAGES;
		for (; n < (int)want; n++) {
			iov[n].iov_base = rec_top_engine_page_buf(t->eng, i);
			iov[n].iov_len = (size_t)psz;
			if (!iov[n].iov_base)
				break;
		}
		got = n ? preadv(fd, iov, n, (off_t)t->off[i]) : -1;
		full = got > 0 ? (int)((uint64_t)got / psz) : 0;
		stop = full < n || !n;
		for (int k = 0; k < n; k++) {
			if (k >= full || stop > 1)
				rec_top_engine_page_unused(t->eng, i, iov[k].iov_base);
			else if (rec_top_engine_page_add(t->eng, i, iov[k].iov_base))
				stop = 2;   /* no memory: the rest go back unread */
			else
				t->off[i] += psz;
		}
		if (stop)
			return;
	}
}

/* What the current file of CPU @i holds for sure, in whole pages. */
static uint64_t live_avail(struct rec_top *t, int i)
{
	uint64_t psz = (uint64_t)t->page_size, b = rec_stream_bytes(t->st, i);

	/* the count lags the writes (it is added after each), never leads them */
	return b > t->base[i] ? (b - t->base[i]) / psz * psz : 0;
}

/* ---- publishing ------------------------------------------------------------------- */

/* The bytes decoded over the bytes that came, over the last window of ticks. */
static double window_sampled(const struct rec_top *t)
{
	uint64_t took = 0, came = 0;

	for (int k = 0; k < TOP_TICKS_WINDOW; k++) {
		took += t->took[k];
		came += t->came[k];
	}
	return came && took < came ? (double)took / (double)came : 1.0;
}

static double scaled(double v, double k, double most)
{
	return v * k < most ? v * k : most;
}

/* Times from the sampled share @got of the pages: scaled up, at most the window. */
static void estimate(struct fts_record_top *p, double got)
{
	double k = got > 0 ? 1 / got : 1;

	if (got >= 1.0)
		return;
	p->skipped_share = 1 - got;
	for (int i = 0; i < p->nrunnable; i++)
		p->runnable[i].runnable_s = scaled(p->runnable[i].runnable_s, k, p->window_s);
	for (int i = 0; i < p->ncpu; i++)
		p->cpu[i].cpu_s = scaled(p->cpu[i].cpu_s, k, p->window_s);
}

static void publish(struct rec_top *t, double cost)
{
	struct fts_record_top p = { 0 };
	uint64_t records, late, corrupt;

	p.enabled = 1;
	(void)rec_top_engine_figures(t->eng, &p);   /* out of memory: no ranking this tick */
	estimate(&p, window_sampled(t));
	rec_top_engine_counts(t->eng, &records, &late, &corrupt);
	pthread_mutex_lock(&t->lock);
	p.events = records;
	p.skipped_bytes = t->skipped;
	p.cpu_cost_s = cost + t->extra_s;
	t->cost_s = cost;
	t->pub = p;
	pthread_mutex_unlock(&t->lock);
}

static double thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* In the top thread the cost is its CPU time; in the caller's (finish) the last one stays. */
static void take_hit(struct rec_top *t)
{
	struct rec_trig_hit h;

	if (!rec_top_engine_take_hit(t->eng, &h))
		return;
	pthread_mutex_lock(&t->lock);
	if (t->hit.count)
		t->hit.count += h.count;
	else
		t->hit = h;
	pthread_mutex_unlock(&t->lock);
}

/*
 * The share of each CPU's new bytes this tick may decode: what TOP_CPU_SHARE
 * of a tick pays for at the measured cost, over what came (1: all).
 */
static double budget_share(const struct rec_top *t, uint64_t came)
{
	double can = TOP_CPU_SHARE * (double)TOP_TICK_NS / 1e9 / t->cost_per_byte;

	return !t->sample || (double)came <= can ? 1.0 : can / (double)came;
}

static void tick(struct rec_top *t, int final)
{
	uint64_t psz = (uint64_t)t->page_size, came = 0, before = 0, took = 0, skipped;
	double c0 = thread_cpu_s(), share;
	int slot = t->tick_no++ % TOP_TICKS_WINDOW;

	pthread_mutex_lock(&t->io);
	skipped = t->skipped;
	for (int i = 0; i < t->n; i++) {
		t->avail[i] = live_avail(t, i);
		came += t->avail[i] > t->off[i] ? t->avail[i] - t->off[i] : 0;
		before += t->off[i];
	}
	share = budget_share(t, came);
	for (int i = 0; i < t->n; i++) {
		uint64_t fresh = t->avail[i] > t->off[i] ? t->avail[i] - t->off[i] : 0;

		/* whole pages, at least one: a sample still sees every CPU */
		read_cpu(t, i, t->avail[i], share >= 1.0 ? fresh : ((uint64_t)(share * (double)fresh) / psz + 1) * psz);
	}
	/* what the engine was handed: the bytes the offsets moved, less those skipped */
	for (int i = 0; i < t->n; i++)
		took += t->off[i];
	took -= before + (t->skipped - skipped);
	(void)rec_top_engine_tick(t->eng, final);   /* a failed engine keeps its last figures */
	if (took >= TOP_COST_MIN_BYTES) {
		double c = (thread_cpu_s() - c0) / (double)took;

		t->cost_per_byte = 0.7 * t->cost_per_byte + 0.3 * c;
	}
	t->took[slot] = took;
	t->came[slot] = came;
	take_hit(t);
	publish(t, t->started ? thread_cpu_s() : t->cost_s);
	pthread_mutex_unlock(&t->io);
}

void rec_top_rotated(struct rec_top *t)
{
	double before = thread_cpu_s();

	pthread_mutex_lock(&t->io);
	for (int i = 0; i < t->n; i++) {
		uint64_t psz = (uint64_t)t->page_size;
		struct stat sb;
		int nfd;

		/* the swap was under the reader's page lock: the old file is whole */
		if (t->fd[i] >= 0 && fstat(t->fd[i], &sb) == 0) {
			read_cpu(t, i, (uint64_t)sb.st_size / psz * psz, TOP_MAX_BEHIND);
			t->base[i] += (uint64_t)sb.st_size;
		}
		nfd = fcntl(rec_stream_fd(t->st, i), F_DUPFD_CLOEXEC, 0);
		if (t->fd[i] >= 0)
			close(t->fd[i]);
		t->fd[i] = nfd;   /* -1 (no fd left): this CPU reads nothing more */
		t->off[i] = 0;
	}
	pthread_mutex_unlock(&t->io);
	pthread_mutex_lock(&t->lock);
	t->extra_s += thread_cpu_s() - before;
	pthread_mutex_unlock(&t->lock);
}

void rec_top_triggers(struct rec_top *t, const struct rec_trig_rule *rules, int n, int figures)
{
	pthread_mutex_lock(&t->io);
	rec_top_engine_triggers(t->eng, rules, n, figures);
	t->sample = n == 0;
	pthread_mutex_unlock(&t->io);
	atomic_store(&t->for_triggers, n > 0);
}

int rec_top_take_hit(struct rec_top *t, struct rec_trig_hit *out)
{
	int any;

	pthread_mutex_lock(&t->lock);
	any = t->hit.count > 0;
	if (any)
		*out = t->hit;
	memset(&t->hit, 0, sizeof(t->hit));
	pthread_mutex_unlock(&t->lock);
	return any;
}

static void *top_main(void *arg)
{
	struct rec_top *t = arg;

	/* The capture comes first: this thread only gets what is left over. */
	(void)setpriority(PRIO_PROCESS, (id_t)gettid(), 19);
	int nice = 19;

	pthread_setname_np(pthread_self(), "fts-top");
	pthread_mutex_lock(&t->lock);
	while (!t->quit) {
		struct timespec until;
		uint64_t next = fts__clock_mono_ns() + TOP_TICK_NS;

		/* for triggers it must keep up (set once rec_top_triggers ran; @sample is under @io) */
		if (nice == 19 && atomic_load(&t->for_triggers)) {
			nice = 0;
			(void)setpriority(PRIO_PROCESS, (id_t)gettid(), nice);
		}

		until.tv_sec = (time_t)(next / 1000000000u);
		until.tv_nsec = (long)(next % 1000000000u);
		if (pthread_cond_timedwait(&t->wake, &t->lock, &until) != ETIMEDOUT || t->quit)
			continue;
		pthread_mutex_unlock(&t->lock);
		tick(t, 0);
		pthread_mutex_lock(&t->lock);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

/* ---- setup ----------------------------------------------------------------------------- */

static char *read_small(const char *path, size_t *n)
{
	FILE *f = fopen(path, "re");
	char *buf = f ? malloc(65536) : NULL;

	*n = buf ? fread(buf, 1, 65535, f) : 0;
	if (f)
		fclose(f);
	return buf;
}

/*
 * The page header layout and the formats of the table's events (event.h):
 * tracefs_local_events_system() would also load kallsyms and printk
 * formats, a fixed cost far above the decoding.
 */
static struct tep_handle *load_formats(const char *tracing_dir)
{
#define TOP_EV(kind, group, sys, name, ...) sys "/" name,
	static const char *const names[] = { FTS_EVENT_TABLE(TOP_EV) };
#undef TOP_EV
	struct tep_handle *tep = tep_alloc();
	char path[4096 + 64], *buf;
	int ok = 0;
	size_t n;

	if (!tep)
		return NULL;
	snprintf(path, sizeof(path), "%s/events/header_page", tracing_dir);
	buf = read_small(path, &n);
	if (!n || tep_parse_header_page(tep, buf, (unsigned long)n, (int)sizeof(long)))
		ok = -1;
	free(buf);
	for (size_t i = 0; !ok && i < REC_ARRAY_SIZE(names); i++) {
		const char *slash = strchr(names[i], '/');
		char sys[32];

		snprintf(sys, sizeof(sys), "%.*s", (int)(slash - names[i]), names[i]);
		snprintf(path, sizeof(path), "%s/events/%s/format", tracing_dir, names[i]);
		buf = read_small(path, &n);
		/* an event this kernel lacks is simply not decoded */
		if (n)
			(void)tep_parse_event(tep, buf, n, sys);
		free(buf);
	}
	if (ok || !tep_find_event_by_name(tep, "sched", "sched_switch")) {
		tep_free(tep);
		return NULL;
	}
	return tep;
}

int rec_top_start(const char *tracing_dir, struct rec_stream *st, int page_size, struct rec_top **out,
		  struct fts_err *err)
{
	struct rec_top *t = calloc(1, sizeof(*t));
	pthread_condattr_t ca;
	int *cpus, rc;

	*out = NULL;
	if (!t)
		return fts_err_set(err, -ENOMEM, "out of memory");
	t->st = st;
	t->n = rec_stream_count(st);
	t->page_size = page_size;
	pthread_mutex_init(&t->lock, NULL);
	pthread_mutex_init(&t->io, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&t->wake, &ca);
	pthread_condattr_destroy(&ca);
	t->sample = 1;
	t->cost_per_byte = TOP_COST_SEED;
	t->off = calloc((size_t)t->n, sizeof(*t->off));
	t->avail = calloc((size_t)t->n, sizeof(*t->avail));
	t->base = calloc((size_t)t->n, sizeof(*t->base));
	t->fd = calloc((size_t)t->n, sizeof(*t->fd));
	for (int i = 0; t->fd && i < t->n; i++)
		t->fd[i] = -1;
	cpus = calloc((size_t)t->n, sizeof(*cpus));
	t->tep = load_formats(tracing_dir);
	if (!t->off || !t->avail || !t->base || !t->fd || !cpus || !t->tep) {
		free(cpus);
		rec_top_free(t);
		return fts_err_set(err, -ENOMEM,
				   "cannot set up the live top (the sched formats and page header of %s)",
				   tracing_dir);
	}
	for (int i = 0; i < t->n; i++) {
		cpus[i] = rec_stream_cpu(st, i);
		t->fd[i] = fcntl(rec_stream_fd(st, i), F_DUPFD_CLOEXEC, 0);
		if (t->fd[i] < 0) {
			free(cpus);
			rec_top_free(t);
			return fts_err_set(err, -errno, "cannot set up the live top: %s", strerror(errno));
		}
	}
	rc = rec_top_engine_new(t->tep, t->n, cpus, page_size, TOP_WINDOW, &t->eng, err);
	free(cpus);
	if (rc) {
		rec_top_free(t);
		return rc;
	}
	/*
	 * Set before the thread runs: its tick reads it (TSan saw the write after
	 * pthread_create race with the thread's first tick, tui_session_flow).
	 */
	t->started = 1;
	rc = fts__thread_start(&t->thread, NULL, top_main, t);
	if (rc) {
		t->started = 0;
		rec_top_free(t);
		return fts_err_set(err, rc, "cannot start the live top thread: %s", strerror(-rc));
	}
	*out = t;
	return 0;
}

void rec_top_snapshot(struct rec_top *t, struct fts_record_top *out)
{
	pthread_mutex_lock(&t->lock);
	*out = t->pub;
	pthread_mutex_unlock(&t->lock);
	out->enabled = 1;
}

static void stop_thread(struct rec_top *t)
{
	if (!t->started)
		return;
	pthread_mutex_lock(&t->lock);
	t->quit = 1;
	pthread_cond_signal(&t->wake);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->thread, NULL);
	t->started = 0;
}

void rec_top_finish(struct rec_top *t, struct fts_record_top *out)
{
	double before;

	stop_thread(t);
	/* The last pages, in the caller's thread (bounded per CPU); its cost counts too. */
	before = thread_cpu_s();
	tick(t, 1);
	pthread_mutex_lock(&t->lock);
	t->pub.cpu_cost_s = t->cost_s + t->extra_s + thread_cpu_s() - before;
	pthread_mutex_unlock(&t->lock);
	rec_top_snapshot(t, out);
}

void rec_top_free(struct rec_top *t)
{
	if (!t)
		return;
	stop_thread(t);
	rec_top_engine_free(t->eng);
	if (t->tep)
		tep_free(t->tep);
	for (int i = 0; t->fd && i < t->n; i++)
		if (t->fd[i] >= 0)
			close(t->fd[i]);
	free(t->fd);
	free(t->base);
	free(t->off);
	free(t->avail);
	pthread_cond_destroy(&t->wake);
	pthread_mutex_destroy(&t->lock);
	pthread_mutex_destroy(&t->io);
	free(t);
}
