// SPDX-License-Identifier: MIT
/*
 * loading.c - the loading screen: the file and what it will cost (estimated
 * from its size and kind before anything is read), the stage, a bar,
 * done/total with the unit, rate, elapsed time and ETA, and how to stop.
 * Drawn into a grid like every other screen.
 *
 * Progress must move from the first second: readers report every so many
 * events (a trace.dat reader's first report can come seconds in), so until
 * a report says how far the read is, the bar follows the elapsed time
 * against the estimated load time, marked as an estimate, and the elapsed
 * time ticks on every redraw.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front/fmt.h"
#include "tui/preview/loading.h"

void fts_load_view_init(struct fts_load_view *lv, const char *path, double now)
{
	memset(lv, 0, sizeof(*lv));
	lv->path = path;
	lv->started = now;
	lv->has_estimate = fts_store_estimate(path, &lv->est, NULL) == 0;
}

static const char *source_name(const struct fts_store_estimate *e)
{
	switch (e->source) {
	case FTS_SRC_TRACE_DAT: return e->compressed ? "trace.dat (compressed)" : "trace.dat";
	case FTS_SRC_TRACE_TEXT: return "ftrace text";
	case FTS_SRC_DB: return "ftrace DB";
	case FTS_SRC_JSON: return "Chrome JSON";
	}
	return "?";
}

char *fts_load_estimate_text(const struct fts_load_view *lv, char *buf, size_t n)
{
	char size[FTS_FMT_LEN], items[FTS_FMT_LEN], mem[FTS_FMT_LEN], secs[FTS_FMT_LEN];
	const struct fts_store_estimate *e = &lv->est;

	buf[0] = 0;
	if (!lv->has_estimate)
		return buf;
	snprintf(buf, n, "%s, %s: about %s items, %s of memory, %s to load%s", source_name(e),
		 fts_fmt_bytes((double)e->input_bytes, size, sizeof(size)),
		 fts_fmt_count((double)e->items, items, sizeof(items)),
		 fts_fmt_bytes((double)e->bytes, mem, sizeof(mem)),
		 fts_fmt_duration(e->seconds < 0.1 ? 0.1 : e->seconds, secs, sizeof(secs)),
		 e->compressed ? " (rough: compressed)" : "");
	return buf;
}

/* "12.3 MiB" or "1.2M rows": the units every other screen shows (front/fmt.c) */
static void amount(char *buf, size_t n, double v, const char *unit)
{
	char num[FTS_FMT_LEN];

	if (unit && !strcmp(unit, "bytes"))
		fts_fmt_bytes(v, buf, n);
	else
		snprintf(buf, n, "%s%s%s", fts_fmt_count(v, num, sizeof(num)), unit ? " " : "",
			 unit ? unit : "");
}

/* The line under the bar when a report says how far: percent, amounts, rate, ETA (a time). */
static void measured_line(char *buf, size_t n, const struct fts_progress *p, double elapsed)
{
	double frac = (double)p->done / (double)p->total, rate = elapsed > 0 ? (double)p->done / elapsed : 0;
	char done[40], total[40], rs[40], eta[48] = "";

	amount(done, sizeof(done), (double)p->done, p->unit);
	amount(total, sizeof(total), (double)p->total, p->unit);
	amount(rs, sizeof(rs), rate, p->unit);
	if (rate > 0 && p->total > p->done) {
		char d[FTS_FMT_LEN];

		snprintf(eta, sizeof(eta), "  ETA %s",
			 fts_fmt_eta((double)p->done, (double)p->total, elapsed, d, sizeof(d)));
	}
	snprintf(buf, n, "%3.0f%%  %s of %s  %s/s%s", (frac > 1 ? 1 : frac) * 100, done, total, rs, eta);
}

void fts_progress_draw(struct fts_grid *g, const struct fts_theme *t, const struct fts_load_view *lv,
		       const struct fts_progress *p, double now)
{
	struct fts_style st = fts_theme_style(t, FTS_R_NORMAL), dim = fts_theme_style(t, FTS_R_DIM);
	struct fts_style bar = fts_theme_style(t, FTS_R_RUNNING);
	int y = g->h / 2 - 3, bw = g->w - 4, known = p->total > 0 && p->done > 0;
	double elapsed = now > lv->started ? now - lv->started : 0, frac = 0;
	char line[256], el[FTS_FMT_LEN], counts[96] = "";

	if (y < 1)
		y = 1;
	fts_grid_clear(g, st);
	fts_grid_fill(g, 0, 0, g->w, ' ', fts_theme_style(t, FTS_R_TITLE));
	fts_grid_text(g, 0, 0, g->w, " ftscope preview - loading", fts_theme_style(t, FTS_R_TITLE));
	fts_grid_text(g, 2, y, g->w - 2, lv->path, st);
	fts_grid_text(g, 2, y + 1, g->w - 2, fts_load_estimate_text(lv, line, sizeof(line)), dim);
	if (p->events || p->items) {
		char ev[FTS_FMT_LEN], it[FTS_FMT_LEN];

		snprintf(counts, sizeof(counts), "  %s events, %s items",
			 fts_fmt_count((double)p->events, ev, sizeof(ev)),
			 fts_fmt_count((double)p->items, it, sizeof(it)));
	}
	fts_grid_printf(g, 2, y + 2, g->w - 2, st, "stage: %s%s  elapsed %s", fts_stage_name(p->stage),
			counts, fts_fmt_duration(elapsed, el, sizeof(el)));
	if (known) {
		frac = (double)p->done / (double)p->total;
		measured_line(line, sizeof(line), p, p->elapsed_s > 0 ? p->elapsed_s : elapsed);
	} else if (lv->has_estimate && lv->est.seconds > 0) {
		char left[FTS_FMT_LEN], tot[FTS_FMT_LEN];
		double rest = lv->est.seconds - elapsed;

		/* no report yet says how far: the clock against the estimated time, said so */
		frac = elapsed / lv->est.seconds;
		if (frac > 0.95)
			frac = 0.95;
		snprintf(line, sizeof(line), "~%2.0f%% (estimated: %s of about %s)  ETA %s%s", frac * 100,
			 fts_fmt_duration(elapsed, el, sizeof(el)),
			 fts_fmt_duration(lv->est.seconds, tot, sizeof(tot)),
			 rest > 0 ? "about " : "", rest > 0 ? fts_fmt_duration(rest, left, sizeof(left)) :
			 "any moment (longer than estimated)");
		bar = dim;
	} else {
		snprintf(line, sizeof(line), "reading, %s so far", fts_fmt_duration(elapsed, el, sizeof(el)));
	}
	if (frac > 1)
		frac = 1;
	if (bw > 0) {
		fts_grid_fill(g, 2, y + 3, bw, t->utf8 ? 0x2591 : '.', fts_theme_style(t, FTS_R_DIM));
		fts_grid_fill(g, 2, y + 3, (int)(frac * bw), t->utf8 ? 0x2588 : '#', bar);
	}
	fts_grid_text(g, 2, y + 4, g->w - 2, line, st);
	fts_grid_text(g, 2, y + 6, g->w - 2, "q or Ctrl+C: stop loading and quit", dim);
}
