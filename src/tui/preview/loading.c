// SPDX-License-Identifier: MIT
/*
 * loading.c - the loading screen: stage, a bar, done/total with the unit,
 * rate and ETA, and how to stop. Drawn into a grid like every other screen.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front/fmt.h"
#include "tui/preview/loading.h"

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

void fts_progress_draw(struct fts_grid *g, const struct fts_theme *t, const char *path,
		       const struct fts_progress *p)
{
	struct fts_style st = fts_theme_style(t, FTS_R_NORMAL), bar = fts_theme_style(t, FTS_R_RUNNING);
	int y = g->h / 2 - 2, bw = g->w - 4, fill = 0;
	double frac = p->total ? (double)p->done / (double)p->total : 0, rate;
	char done[40], total[40], rs[40], eta[48] = "";

	if (y < 0)
		y = 0;
	fts_grid_clear(g, st);
	fts_grid_fill(g, 0, 0, g->w, ' ', fts_theme_style(t, FTS_R_TITLE));
	fts_grid_text(g, 0, 0, g->w, " ftscope preview - loading", fts_theme_style(t, FTS_R_TITLE));
	fts_grid_text(g, 2, y, g->w - 2, path, st);
	fts_grid_printf(g, 2, y + 1, g->w - 2, fts_theme_style(t, FTS_R_DIM), "stage: %s  %" PRIu64 " events, %" PRIu64 " items",
			fts_stage_name(p->stage), p->events, p->items);
	if (frac > 1)
		frac = 1;
	if (bw > 0) {
		fill = (int)(frac * bw);
		fts_grid_fill(g, 2, y + 2, bw, t->utf8 ? 0x2591 : '.', fts_theme_style(t, FTS_R_DIM));
		fts_grid_fill(g, 2, y + 2, fill, t->utf8 ? 0x2588 : '#', bar);
	}
	amount(done, sizeof(done), (double)p->done, p->unit);
	amount(total, sizeof(total), (double)p->total, p->unit);
	rate = p->elapsed_s > 0 ? (double)p->done / p->elapsed_s : 0;
	amount(rs, sizeof(rs), rate, p->unit);
	if (rate > 0 && p->total > p->done) {
		char d[FTS_FMT_LEN];

		snprintf(eta, sizeof(eta), "  ETA %s",
			 fts_fmt_duration((double)(p->total - p->done) / rate, d, sizeof(d)));
	}
	if (p->total)
		fts_grid_printf(g, 2, y + 3, g->w - 2, st, "%3.0f%%  %s of %s  %s/s%s", frac * 100, done,
				total, rs, eta);
	else
		fts_grid_printf(g, 2, y + 3, g->w - 2, st, "%s  %s/s", done, rs);
	fts_grid_text(g, 2, y + 5, g->w - 2, "q or Ctrl+C: stop loading and quit",
		      fts_theme_style(t, FTS_R_DIM));
}
