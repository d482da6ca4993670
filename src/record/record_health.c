/*
 * record_health.c - live per-CPU figures from the instance's per_cpu stats.
 * arrived = read events + entries + overrun (the kernel's "read events" counts
 * what readers consumed); loss = overrun + commit overrun + dropped events.
 */
#include "ftscope/error.h"
#include "record/record_local.h"

#include <stdio.h>
#include <string.h>

int fts_record_health(struct fts_recorder *r, struct fts_record_health *h)
{
	uint64_t now = fts_rec_now_ns();
	double dt = (double)(now - r->prev_ns) / 1e9;

	memset(h, 0, sizeof(*h));
	h->backend = r->backend;
	h->skipped_events = r->skipped;
	h->elapsed_s = (double)(now - r->t0_ns) / 1e9;
	h->ncpus = r->nrec;
	h->cpu = r->health_buf;
	for (int i = 0; i < r->nrec && r->inst; i++) {
		struct rec_cpu *c = &r->cpus[i];
		struct fts_record_cpu_health *ch = &r->health_buf[i];
		struct fts_cpu_stats s;

		if (fts_rec_read_stats(r, c->cpu, &s, NULL) == 0) {
			uint64_t events = s.read + s.entries + s.overrun;
			uint64_t base = c->base.read + c->base.entries + c->base.overrun;
			uint64_t cap = (uint64_t)r->o.bf_size_kb * 1024u;

			ch->cpu = c->cpu;
			ch->events = events >= base ? events - base : 0;
			ch->overrun = s.overrun - c->base.overrun;
			ch->commit_overrun = s.commit_overrun - c->base.commit_overrun;
			ch->dropped = s.dropped - c->base.dropped;
			ch->lost = ch->overrun + ch->commit_overrun + ch->dropped;
			ch->fill = cap ? (double)s.bytes / (double)cap : 0;
			if (ch->fill > 1)
				ch->fill = 1;
			ch->events_per_s = dt > 0 ? (double)(ch->events - c->prev_events) / dt : 0;
			ch->lost_delta = ch->lost - c->prev_lost;
			c->prev_events = ch->events;
			c->prev_lost = ch->lost;
		}
		ch->cpu = c->cpu;
		ch->bytes_written = atomic_load(&c->bytes);
		h->events += ch->events;
		h->events_per_s += ch->events_per_s;
		h->bytes_written += ch->bytes_written;
		h->lost += ch->lost;
		h->lost_delta += ch->lost_delta;
	}
	if (r->child > 0)
		h->ncpus = 0;
	r->prev_ns = now;
	h->failed = atomic_load(&r->failed);
	if (h->failed) {
		pthread_mutex_lock(&r->lock);
		snprintf(h->failure, sizeof(h->failure), "%s", r->failure);
		pthread_mutex_unlock(&r->lock);
	}
	return 0;
}
