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

#include "app/fmt.h"
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

/* "12.3 MiB" or "1.2M rows": the units every other screen shows (app/fmt.c) */
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

/* The overview needs this many rows under the progress block to be worth drawing. */
#define OV_MIN_ROWS 3
#define OV_LABEL 9   /* "CPU 0191 " */

static int overview_usable(const struct fts_grid *g, const struct fts_sketch_snap *k)
{
	return k && k->ncpu > 0 && k->bin_ns > 0 && k->t_end > k->t_begin &&
	       g->h >= 10 + OV_MIN_ROWS && g->w >= OV_LABEL + 10;
}

/* Run time over [@ta, @tb) of row @r, from the bins it overlaps, as a share of the time. */
static double busy_share(const struct fts_sketch_snap *k, uint32_t r, double ta, double tb)
{
	double b0 = (ta - (double)k->bin_begin) / (double)k->bin_ns;
	double b1 = (tb - (double)k->bin_begin) / (double)k->bin_ns;
	uint64_t lo, hi, sum = 0;

	/* clamped as doubles first: a hostile time axis must not cast out of range */
	b0 = b0 < 0 ? 0 : b0 > FTS_SKETCH_BINS ? FTS_SKETCH_BINS : b0;
	b1 = b1 < 0 ? 0 : b1 > FTS_SKETCH_BINS ? FTS_SKETCH_BINS : b1;
	lo = (uint64_t)b0;
	hi = b1 > (double)lo + 1 ? (uint64_t)b1 : lo + 1; /* at least the bin under the column */
	if (hi > FTS_SKETCH_BINS)
		hi = FTS_SKETCH_BINS;
	if (lo >= hi)
		return 0;
	for (uint64_t b = lo; b < hi; b++)
		sum += k->busy[r][b];
	return (double)sum / ((double)(hi - lo) * (double)k->bin_ns);
}

static int by_cpu(const void *a, const void *b, const void *ctx)
{
	const struct fts_sketch_snap *k = ctx;
	int32_t x = k->cpu[*(const uint32_t *)a], y = k->cpu[*(const uint32_t *)b];

	return x < y ? -1 : x > y;
}

/* Insertion sort of the rows by CPU: few rows, no qsort_r portability question. */
static void rows_by_cpu(const struct fts_sketch_snap *k, uint32_t *ord)
{
	for (uint32_t i = 0; i < k->ncpu; i++) {
		uint32_t v = i, j = i;

		for (; j > 0 && by_cpu(&ord[j - 1], &v, k) > 0; j--)
			ord[j] = ord[j - 1];
		ord[j] = v;
	}
}

/*
 * The overview so far from row @y0 down: a heading with the time it spans,
 * then CPUs in order, each column shaded by its busy share (eighths of a
 * block in UTF-8, a ramp of ASCII otherwise). Only numbers are drawn: no
 * task name reaches the screen here.
 */
static void overview_draw(struct fts_grid *g, const struct fts_theme *t, const struct fts_sketch_snap *k,
			  int y0)
{
	static const char ramp[] = " .:-=+*#%@";
	struct fts_style st = fts_theme_style(t, FTS_R_NORMAL), dim = fts_theme_style(t, FTS_R_DIM);
	struct fts_style run = fts_theme_style(t, FTS_R_RUNNING);
	int cols = g->w - OV_LABEL - 1, rows = g->h - y0 - 1;
	double span = (double)(k->t_end - k->t_begin);
	char d[FTS_FMT_LEN], n[FTS_FMT_LEN];
	uint32_t ord[FTS_SKETCH_LANES], shown;

	fts_grid_printf(g, 0, y0, g->w, st, "Overview so far: %s of capture, %s items; CPU busy share "
			"per column (refined as loading goes on)",
			fts_fmt_duration(span / 1e9, d, sizeof(d)), fts_fmt_count((double)k->items, n, sizeof(n)));
	rows_by_cpu(k, ord);
	shown = k->ncpu < (uint32_t)rows ? k->ncpu : (uint32_t)rows;
	if (shown < k->ncpu_lanes && shown > 0)
		shown--; /* room for the line that says how many more */
	for (uint32_t i = 0; i < shown; i++) {
		int y = y0 + 1 + (int)i;

		fts_grid_printf(g, 0, y, OV_LABEL, dim, "CPU %-4d", k->cpu[ord[i]]);
		for (int c = 0; c < cols; c++) {
			double ta = (double)k->t_begin + span * c / cols, tb = (double)k->t_begin + span * (c + 1) / cols;
			double f = busy_share(k, ord[i], ta, tb);
			int lvl;

			if (f <= 0)
				continue;
			if (t->utf8) {
				lvl = (int)(f * 8 + 0.5);
				fts_grid_put(g, OV_LABEL + c, y, lvl < 1 ? 0x2581 : 0x2580 + (uint32_t)(lvl > 8 ? 8 : lvl),
					     run);
			} else {
				lvl = (int)(f * 9 + 0.5);
				fts_grid_put(g, OV_LABEL + c, y, (uint32_t)ramp[lvl < 1 ? 1 : lvl > 9 ? 9 : lvl], run);
			}
		}
	}
	if (shown < k->ncpu_lanes || k->ntask_lanes)
		fts_grid_printf(g, 0, y0 + 1 + (int)shown, g->w, dim, "%s%u CPU lanes, %u task lanes so far",
				shown < k->ncpu_lanes ? "... " : "", k->ncpu_lanes, k->ntask_lanes);
}

void fts_progress_draw(struct fts_grid *g, const struct fts_theme *t, const struct fts_load_view *lv,
		       const struct fts_progress *p, double now)
{
	struct fts_style st = fts_theme_style(t, FTS_R_NORMAL), dim = fts_theme_style(t, FTS_R_DIM);
	struct fts_style bar = fts_theme_style(t, FTS_R_RUNNING);
	int ov = overview_usable(g, lv->snap);
	int y = ov ? 2 : g->h / 2 - 3, bw = g->w - 4, known = p->total > 0 && p->done > 0;
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
	if (ov)
		overview_draw(g, t, lv->snap, y + 8);
}
