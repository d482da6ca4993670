// SPDX-License-Identifier: MIT
/*
 * health.c - the recorder's sampler: a thread that reads the instance's
 * per-CPU counters on its own tick, so rates cover a fixed period whoever
 * polls, and snapshots are pure copies. It also ends the capture at its
 * deadline: it runs at the readers' priority, so a starved caller does not
 * stretch a 3 s recording.
 *
 * arrived = read events + entries + overrun (the kernel's "read events"
 * counts what readers consumed); loss = overrun + commit overrun + dropped.
 *
 * It also watches why loss happens. A SIGSTOP (or a debugger) stops every
 * thread of the process and no handler runs; the sampler sees it afterwards
 * as a period that lasted far longer than it asked for, without having waited
 * for a CPU that long (its own run-queue wait, /proc/self/task/TID/schedstat):
 * the rest is time stopped, and the loss of that period is attributed to it.
 * The readers' run-queue wait says when the machine, not the buffer, is
 * the cause.
 */
#include "core/record/record_local.h"
#include "core/internal.h"
#include "core/internal.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

struct rec_health {
	struct rec_instance *in;
	struct rec_stream *st;
	int n;
	uint64_t cap;                 /* ring buffer bytes per CPU */
	uint64_t t0_ns, deadline_ns, end_ns;
	long period_ns;
	struct rec_cpu_stats *base;   /* counters when the capture began */
	/*
	 * Sampler-only state: the sample is built in @next with no lock held
	 * (two /proc or tracefs reads per CPU, ~400 at 192 CPUs) and only
	 * copied into @cur under @lock, the lock snapshots (the UI) take.
	 */
	struct fts_record_cpu_health *next;
	uint64_t *wait_ns;            /* each reader's run-queue wait at the last sample */
	uint64_t *wait_now;           /* ... and now (per reader, read once per sample) */
	uint64_t self_wait_ns;        /* the sampler's own, at the last sample */
	int nreaders;
	int self_tid;
	int nice;
	pthread_mutex_t lock;         /* guards everything below */
	struct fts_record_cpu_health *cur;
	double stopped_s;
	uint64_t lost_stopped;
	double wait_worst_ms;
	uint64_t sample, sample_ns;
	double period_s;              /* what the rates of @cur cover */
	pthread_t thread;
	int started, quit;
	pthread_cond_t wake;
	pthread_mutex_t end_lock;     /* ending is done once, by whoever comes first */
};

static uint64_t delta(uint64_t now, uint64_t base)
{
	return now >= base ? now - base : 0;
}

/* A thread's run-queue wait so far (schedstat's 2nd field), 0 when unknown. */
static uint64_t runq_wait_ns(int tid)
{
	char path[64], buf[128];
	unsigned long long run = 0, wait = 0;
	FILE *f;

	if (tid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f) || sscanf(buf, "%llu %llu", &run, &wait) != 2)
		wait = 0;
	fclose(f);
	return wait;
}

/*
 * Time the whole process was stopped during a period of @dt_ns: what is left
 * of it after the period asked for, the sampler's own run-queue wait and a
 * second of slack (a busy machine is slow, not stopped).
 */
static uint64_t stopped_ns(uint64_t dt_ns, uint64_t period_ns, uint64_t self_wait_ns)
{
	uint64_t explained = period_ns + self_wait_ns + 1000000000u;

	return dt_ns > explained ? dt_ns - period_ns - self_wait_ns : 0;
}

/* One CPU's arrival rate in bytes/s: events that arrived, at the size read ones took. */
static double arrival_bytes_per_s(const struct fts_record_cpu_health *ch, uint64_t read_events,
				  uint64_t new_events, double dt)
{
	double per_event;

	if (dt <= 0 || !read_events)
		return 0;
	per_event = (double)ch->bytes_written / (double)read_events;
	return per_event * (double)new_events / dt;
}

/*
 * Read every CPU's counters into @hs->next with no lock held, then publish
 * them to @hs->cur under the lock; @watch: the sampler's own tick, where a
 * long period means a stop. Only one thread samples at a time (the sampler,
 * or rec_health_final after it stopped), so @next, @wait_ns and the fields
 * it alone writes need no lock to read.
 */
static void take_sample(struct rec_health *hs, int watch)
{
	uint64_t now = fts__clock_mono_ns();
	uint64_t last_ns = hs->sample_ns;
	uint64_t dt_ns = last_ns && now > last_ns ? now - last_ns : 0;
	double dt = (double)dt_ns / 1e9;
	uint64_t self_wait = runq_wait_ns(hs->self_tid);
	uint64_t stopped = watch && hs->sample ? stopped_ns(dt_ns, (uint64_t)hs->period_ns,
						   delta(self_wait, hs->self_wait_ns)) : 0;
	double worst = 0;
	uint64_t lost_stopped = 0;

	hs->self_wait_ns = self_wait;
	memcpy(hs->next, hs->cur, (size_t)hs->n * sizeof(*hs->next));
	for (int k = 0; k < hs->nreaders; k++)
		hs->wait_now[k] = runq_wait_ns(rec_stream_reader_tid(hs->st, k));
	for (int i = 0; i < hs->n; i++) {
		struct fts_record_cpu_health *ch = &hs->next[i];
		const struct rec_cpu_stats *b = &hs->base[i];
		struct rec_cpu_stats s;
		uint64_t prev_events = ch->events, prev_lost = ch->lost;
		int k = rec_stream_reader_of(hs->st, i);

		ch->cpu = rec_stream_cpu(hs->st, i);
		ch->bytes_written = rec_stream_bytes(hs->st, i);
		/* The wait of a period that included a stop is the stop's, not the machine's. */
		ch->reader_wait_ms = stopped ? 0 : (double)delta(hs->wait_now[k], hs->wait_ns[k]) / 1e6;
		ch->reader_wait_total_ms += ch->reader_wait_ms;
		if (ch->reader_wait_ms > worst)
			worst = ch->reader_wait_ms;
		if (rec_instance_stats(hs->in, ch->cpu, &s, NULL))
			continue;
		ch->events = delta(s.read + s.entries + s.overrun, b->read + b->entries + b->overrun);
		ch->overrun = delta(s.overrun, b->overrun);
		ch->commit_overrun = delta(s.commit_overrun, b->commit_overrun);
		ch->dropped = delta(s.dropped, b->dropped);
		ch->lost = ch->overrun + ch->commit_overrun + ch->dropped;
		ch->fill = hs->cap ? (double)s.bytes / (double)hs->cap : 0;
		if (ch->fill > 1)
			ch->fill = 1;
		ch->events_per_s = dt > 0 ? (double)delta(ch->events, prev_events) / dt : 0;
		ch->lost_delta = delta(ch->lost, prev_lost);
		if (stopped) {
			ch->lost_stopped += ch->lost_delta;
			lost_stopped += ch->lost_delta;
		}
		/* A stop's period is no rate: the kernel kept writing, nobody read. */
		if (!stopped) {
			ch->bytes_per_s = arrival_bytes_per_s(ch, delta(s.read, b->read),
							      delta(ch->events, prev_events), dt);
			if (ch->bytes_per_s > ch->peak_bytes_per_s)
				ch->peak_bytes_per_s = ch->bytes_per_s;
		}
	}
	memcpy(hs->wait_ns, hs->wait_now, (size_t)hs->nreaders * sizeof(*hs->wait_ns));
	pthread_mutex_lock(&hs->lock);
	memcpy(hs->cur, hs->next, (size_t)hs->n * sizeof(*hs->cur));
	hs->stopped_s += (double)stopped / 1e9;
	hs->lost_stopped += lost_stopped;
	if (worst > hs->wait_worst_ms)
		hs->wait_worst_ms = worst;
	hs->period_s = dt;
	hs->sample_ns = now;
	hs->sample++;
	pthread_mutex_unlock(&hs->lock);
}

static void *sampler_main(void *arg)
{
	struct rec_health *hs = arg;

	/* The readers' nice too (a start without the right to SCHED_FIFO runs at it). */
	(void)setpriority(PRIO_PROCESS, (id_t)gettid(), hs->nice);
	pthread_mutex_lock(&hs->lock);
	hs->self_tid = (int)gettid();
	hs->self_wait_ns = runq_wait_ns(hs->self_tid);
	pthread_mutex_unlock(&hs->lock);
	pthread_setname_np(pthread_self(), "fts-sampler");
	pthread_mutex_lock(&hs->lock);
	while (!hs->quit) {
		uint64_t next = hs->sample_ns + (uint64_t)hs->period_ns;
		struct timespec until;
		int ended = hs->end_ns != 0;

		if (hs->deadline_ns && !ended && hs->deadline_ns < next)
			next = hs->deadline_ns;
		until.tv_sec = (time_t)(next / 1000000000u);
		until.tv_nsec = (long)(next % 1000000000u);
		/* CLOCK_MONOTONIC condvar (set in rec_health_start). */
		if (pthread_cond_timedwait(&hs->wake, &hs->lock, &until) != ETIMEDOUT || hs->quit)
			continue;
		if (hs->deadline_ns && !hs->end_ns && fts__clock_mono_ns() >= hs->deadline_ns) {
			pthread_mutex_unlock(&hs->lock);
			rec_health_end(hs);
			pthread_mutex_lock(&hs->lock);
		}
		if (fts__clock_mono_ns() >= hs->sample_ns + (uint64_t)hs->period_ns) {
			pthread_mutex_unlock(&hs->lock);
			take_sample(hs, 1);
			pthread_mutex_lock(&hs->lock);
		}
	}
	pthread_mutex_unlock(&hs->lock);
	return NULL;
}

int rec_health_start(struct rec_instance *in, struct rec_stream *st, unsigned bf_kb,
		     uint64_t t0_ns, uint64_t deadline_ns, long period_ns, int nice,
		     struct rec_health **out, struct fts_err *err)
{
	struct rec_health *hs = calloc(1, sizeof(*hs));
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	pthread_attr_t ta;
	int rc;

	*out = NULL;
	if (!hs)
		return fts_err_set(err, -ENOMEM, "out of memory");
	hs->in = in;
	hs->st = st;
	hs->n = rec_stream_count(st);
	hs->cap = (uint64_t)bf_kb * 1024u;
	hs->t0_ns = t0_ns;
	hs->deadline_ns = deadline_ns;
	hs->period_ns = period_ns;
	hs->nice = nice;
	hs->base = calloc((size_t)hs->n, sizeof(*hs->base));
	hs->nreaders = rec_stream_readers(st);
	hs->wait_ns = calloc((size_t)hs->nreaders + 1, sizeof(*hs->wait_ns));
	hs->wait_now = calloc((size_t)hs->nreaders + 1, sizeof(*hs->wait_now));
	hs->cur = calloc((size_t)hs->n + 1, sizeof(*hs->cur));
	hs->next = calloc((size_t)hs->n + 1, sizeof(*hs->next));
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(&hs->lock, &ma);
	pthread_mutex_init(&hs->end_lock, &ma);
	pthread_mutexattr_destroy(&ma);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&hs->wake, &ca);
	pthread_condattr_destroy(&ca);
	if (!hs->base || !hs->cur || !hs->next || !hs->wait_ns || !hs->wait_now) {
		rec_health_free(hs);
		return fts_err_set(err, -ENOMEM, "out of memory");
	}
	for (int i = 0; i < hs->n; i++) {
		hs->cur[i].cpu = rec_stream_cpu(st, i);
		(void)rec_instance_stats(in, hs->cur[i].cpu, &hs->base[i], NULL);
	}
	hs->sample_ns = t0_ns;
	/*
	 * SCHED_FIFO where allowed: at nice -10 the fair scheduler still let 80
	 * runnable hackbench tasks per CPU delay the deadline's wakeup by 1-2 s
	 * (`--record_time 3` recorded 4.8 s). Its work is a few reads a second;
	 * the locks it shares inherit its priority, so a preempted holder cannot
	 * stall it.
	 */
	pthread_attr_init(&ta);
	rc = fts__thread_start_fifo(&hs->thread, &ta, sampler_main, hs);
	pthread_attr_destroy(&ta);
	if (rc) {
		rec_health_free(hs);
		return fts_err_set(err, rc, "cannot start the sampler thread: %s", strerror(-rc));
	}
	hs->started = 1;
	*out = hs;
	return 0;
}

int rec_health_snapshot(struct rec_health *hs, struct fts_record_health *h)
{
	uint64_t now = fts__clock_mono_ns();

	h->cpu = calloc((size_t)(hs->n ? hs->n : 1), sizeof(*h->cpu));
	if (!h->cpu)
		return -ENOMEM;
	pthread_mutex_lock(&hs->lock);
	memcpy(h->cpu, hs->cur, (size_t)hs->n * sizeof(*h->cpu));
	h->ncpus = hs->n;
	h->sample = hs->sample;
	h->period_s = hs->period_s;
	if (hs->end_ns)
		now = hs->end_ns;
	h->done = hs->end_ns != 0 && hs->deadline_ns != 0;
	h->stopped_s = hs->stopped_s;
	h->lost_stopped = hs->lost_stopped;
	h->reader_wait_worst_ms = hs->wait_worst_ms;
	h->reader_nice = hs->nice;
	pthread_mutex_unlock(&hs->lock);
	h->elapsed_s = (double)(now - hs->t0_ns) / 1e9;
	h->counters = 1;
	for (int i = 0; i < h->ncpus; i++) {
		const struct fts_record_cpu_health *c = &h->cpu[i];

		h->events += c->events;
		h->events_per_s += c->events_per_s;
		h->bytes_written += c->bytes_written;
		h->lost += c->lost;
		h->lost_delta += c->lost_delta;
		if (c->reader_wait_ms > h->reader_wait_ms)
			h->reader_wait_ms = c->reader_wait_ms;
		if (c->reader_wait_total_ms > h->reader_wait_total_ms)
			h->reader_wait_total_ms = c->reader_wait_total_ms;
	}
	return 0;
}

uint64_t rec_health_lost(struct rec_health *hs, uint64_t *sample)
{
	uint64_t lost = 0;

	pthread_mutex_lock(&hs->lock);
	for (int i = 0; i < hs->n; i++)
		lost += hs->cur[i].lost;
	if (sample)
		*sample = hs->sample;
	pthread_mutex_unlock(&hs->lock);
	return lost;
}

uint64_t rec_health_end(struct rec_health *hs)
{
	uint64_t end;

	pthread_mutex_lock(&hs->end_lock);
	pthread_mutex_lock(&hs->lock);
	end = hs->end_ns;
	pthread_mutex_unlock(&hs->lock);
	if (!end) {
		/* At most 200 ms for the closing marker: the deadline is the capture's length. */
		(void)rec_instance_clock_marker(hs->in, rec_stream_cpu(hs->st, 0), NULL, NULL, 200);
		(void)rec_instance_tracing(hs->in, 0, NULL);
		end = fts__clock_mono_ns();
		pthread_mutex_lock(&hs->lock);
		hs->end_ns = end;
		pthread_mutex_unlock(&hs->lock);
	}
	pthread_mutex_unlock(&hs->end_lock);
	return end;
}

static void stop_thread(struct rec_health *hs)
{
	if (!hs->started)
		return;
	pthread_mutex_lock(&hs->lock);
	hs->quit = 1;
	pthread_cond_signal(&hs->wake);
	pthread_mutex_unlock(&hs->lock);
	pthread_join(hs->thread, NULL);
	hs->started = 0;
}

void rec_health_final(struct rec_health *hs)
{
	stop_thread(hs);
	take_sample(hs, 0);
}

void rec_health_free(struct rec_health *hs)
{
	if (!hs)
		return;
	stop_thread(hs);
	free(hs->base);
	free(hs->cur);
	free(hs->next);
	free(hs->wait_ns);
	free(hs->wait_now);
	pthread_cond_destroy(&hs->wake);
	pthread_mutex_destroy(&hs->lock);
	pthread_mutex_destroy(&hs->end_lock);
	free(hs);
}
