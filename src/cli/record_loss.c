// SPDX-License-Identifier: MIT
/*
 * record_loss.c - `ftscope record`'s loss lines. The live status used to
 * print one "LOST ..." line per CPU per sample (more than 20 in 6 s under
 * hackbench); now a line says what was lost since the previous one, once
 * every FTS_REC_WARN_EVERY_MS, in the loss model's words.
 */
#include "cli/record_loss.h"

#include <ftscope/loss.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A reader that waited this long for a CPU in one sampling period is a cause, not noise. */
#define WAIT_CAUSE_MS 200.0
/* An event worth naming when the buffer is too small: a quarter of all. */
#define DOMINANT_SHARE 0.25

static int ensure(struct fts_rec_warn *w, int n)
{
	if (w->ncpu == n)
		return 0;
	fts_rec_warn_free(w);
	w->overrun = calloc((size_t)n + 1, sizeof(uint64_t));
	w->commit = calloc((size_t)n + 1, sizeof(uint64_t));
	w->dropped = calloc((size_t)n + 1, sizeof(uint64_t));
	w->stopped = calloc((size_t)n + 1, sizeof(uint64_t));
	if (!w->overrun || !w->commit || !w->dropped || !w->stopped) {
		fts_rec_warn_free(w);
		return -1;
	}
	w->ncpu = n;
	return 0;
}

static uint64_t since(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;
}

char *fts_rec_advice(const struct fts_record_health *h, unsigned bf_kb, double wait_ms, char *buf,
		     size_t n)
{
	uint64_t stopped = 0;
	size_t at = 0;

	buf[0] = '\0';
	if (!h->lost)
		return buf;
	stopped = h->lost_stopped;
	if (stopped && h->stopped_s > 0)
		at += (size_t)snprintf(buf + at, n - at, "%s%llu of them while ftscope was stopped for %.1f s "
				       "(SIGSTOP or a debugger): keep it running while recording", at ? "; " : "", (unsigned long long)stopped, h->stopped_s);
	if (h->lost <= stopped || at >= n)
		return buf;
	if (wait_ms >= WAIT_CAUSE_MS) {
		int nice = h->reader_nice - 5 < -20 ? -20 : h->reader_nice - 5;

		if (nice < h->reader_nice)
			at += (size_t)snprintf(buf + at, n - at, "%sthe readers waited up to %.1f s for a CPU "
					       "(overloaded: try --reader_nice %d or fewer CPUs)", at ? "; " : "",
					       wait_ms / 1000, nice);
		else
			at += (size_t)snprintf(buf + at, n - at, "%sthe readers waited up to %.1f s for a CPU "
					       "even at nice %d (overloaded: record fewer CPUs)", at ? "; " : "",
					       wait_ms / 1000, h->reader_nice);
		if (at >= n)
			return buf;
	}
	at += (size_t)snprintf(buf + at, n - at, "%sbuffer too small: try --bf_size %u (KB per CPU, now %u) "
			       "or fewer CPUs/events", at ? "; " : "", fts_record_advice_kb(h, bf_kb), bf_kb);
	/* Only the live top decodes events, so only it knows which one dominates. */
	if (at < n && h->top.enabled && h->top.dominant[0] && h->top.dominant_share >= DOMINANT_SHARE)
		snprintf(buf + at, n - at, " (%s is %.0f%% of the events: --events with -%s leaves it out)",
			 h->top.dominant, h->top.dominant_share * 100, h->top.dominant);
	return buf;
}

int fts_rec_warn_line(struct fts_rec_warn *w, const struct fts_record_health *h, uint64_t now_ms,
		      char *buf, size_t n)
{
	struct fts_loss delta;
	struct fts_record_health part;
	char lost[256], advice[512];
	int new_stop = h->stopped_s > w->stopped_s, any = 0, rc = 1;

	if (!h->counters || !h->ncpus)
		return 0;
	if (ensure(w, h->ncpus))
		return -1;
	if (h->reader_wait_ms > w->wait_ms)
		w->wait_ms = h->reader_wait_ms;
	for (int i = 0; i < h->ncpus; i++)
		any |= h->cpu[i].overrun > w->overrun[i] || h->cpu[i].commit_overrun > w->commit[i] ||
		       h->cpu[i].dropped > w->dropped[i];
	if (!any || (w->last_ms && now_ms < w->last_ms + FTS_REC_WARN_EVERY_MS && !new_stop))
		return 0;
	/* The period's loss, as its own small health, so model and advice see only it. */
	fts_loss_init(&delta);
	part = *h;
	part.cpu = calloc((size_t)h->ncpus, sizeof(*part.cpu));
	if (!part.cpu)
		return -1;
	part.lost = part.lost_stopped = 0;
	part.stopped_s = h->stopped_s - w->stopped_s;
	for (int i = 0; i < h->ncpus && rc == 1; i++) {
		const struct fts_record_cpu_health *c = &h->cpu[i];
		struct fts_record_cpu_health *p = &part.cpu[i];

		*p = *c;
		p->overrun = since(c->overrun, w->overrun[i]);
		p->commit_overrun = since(c->commit_overrun, w->commit[i]);
		p->dropped = since(c->dropped, w->dropped[i]);
		p->lost = p->overrun + p->commit_overrun + p->dropped;
		p->lost_stopped = since(c->lost_stopped, w->stopped[i]);
		part.lost += p->lost;
		part.lost_stopped += p->lost_stopped;
		w->overrun[i] = c->overrun;
		w->commit[i] = c->commit_overrun;
		w->dropped[i] = c->dropped;
		w->stopped[i] = c->lost_stopped;
	}
	if (fts_record_health_loss(&part, &delta))
		rc = -1;
	if (rc == 1) {
		fts_loss_text(&delta, 3, lost, sizeof(lost));
		fts_rec_advice(&part, w->bf_kb, w->wait_ms, advice, sizeof(advice));
		if (w->last_ms)
			snprintf(buf, n, "lost %s in the last %.1f s; %s", lost,
				 (double)(now_ms - w->last_ms) / 1000, advice);
		else
			snprintf(buf, n, "lost %s; %s", lost, advice);
		w->last_ms = now_ms;
		w->stopped_s = h->stopped_s;
		w->wait_ms = 0;
		w->lines++;
	}
	fts_loss_free(&delta);
	free(part.cpu);
	return rc;
}

void fts_rec_warn_free(struct fts_rec_warn *w)
{
	free(w->overrun);
	free(w->commit);
	free(w->dropped);
	free(w->stopped);
	w->overrun = w->commit = w->dropped = w->stopped = NULL;
	w->ncpu = 0;
}
