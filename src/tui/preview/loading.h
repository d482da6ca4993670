/* SPDX-License-Identifier: MIT */
/* loading.h - the previewer's loading screen, drawn into a grid. */
#ifndef FTS_TUI_LOADING_H
#define FTS_TUI_LOADING_H

#include <ftscope/pipeline.h>
#include <ftscope/preview.h>

#include "tui/widgets/grid.h"
#include "tui/widgets/theme.h"

/* What the loading screen knows besides the progress reports: the file, its cost, the start. */
struct fts_load_view {
	const char *path;                 /* borrowed, untrusted */
	int has_estimate;                 /* @est is filled (the file could be classified) */
	struct fts_store_estimate est;
	double started;                   /* monotonic seconds when the load began */
	const struct fts_sketch_snap *snap; /* the overview so far (fts_sketch_read); NULL: none */
};

/**
 * fts_load_view_init - the loading screen's facts about @path, before loading it
 * @lv: filled
 * @path: the input, borrowed (must outlive @lv)
 * @now: monotonic seconds (fts__clock_mono_s) when the load starts
 */
void fts_load_view_init(struct fts_load_view *lv, const char *path, double now);

/**
 * fts_load_estimate_text - "trace.dat, 53.8 MiB: about 1.3M items, about 110 MiB of
 * memory, about 1.4 s to load" into @buf ("" without an estimate)
 * @lv: the facts
 * @buf: output
 * @n: its size
 *
 * Returns @buf.
 */
char *fts_load_estimate_text(const struct fts_load_view *lv, char *buf, size_t n);

/**
 * fts_progress_draw - the loading screen into @g
 * @g: the grid (any size)
 * @t: the theme
 * @lv: the file, its estimated cost and when loading began
 * @p: the latest progress report (all zero before the first)
 * @now: monotonic seconds: the elapsed time moves even between reports
 *
 * With @lv->snap holding CPU lanes and a grid tall enough, the progress moves
 * to the top and the overview so far fills the rest: one row per CPU, its
 * busy share per column, refined on every redraw as loading goes on.
 */
void fts_progress_draw(struct fts_grid *g, const struct fts_theme *t, const struct fts_load_view *lv,
		       const struct fts_progress *p, double now);

#endif
