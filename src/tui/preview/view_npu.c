// SPDX-License-Identifier: MIT
/*
 * view_npu.c - the NPU group of the lane view: a card's device streams and
 * the profiler's "Free" lane (FTS_GROUP_NPU lanes of the store), drawn as
 * busy intervals that carry the kernel's name where the zoom leaves room for
 * it, and the group's header. The lanes are the store's, so zoom, pan,
 * find and details need nothing of their own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/preview/view_impl.h"

/* A stretch of columns as wide as this names its kernel; narrower, a glyph. */
#define NAME_MIN_COLS 4

static int is_free_lane(const struct fts_view *v, uint32_t lane)
{
	const char *tid = fts_store_str(v->store, fts_store_lane(v->store, lane)->tid);
	size_t n = strlen(tid);

	return n >= 5 && !strcmp(tid + n - 5, " Free");
}

void view_npu_cells(struct fts_view *v, int y, uint32_t lane, int ccol)
{
	int w = v->lay.time_w, free_lane = is_free_lane(v, lane);
	struct fts_bucket *b = calloc((size_t)(w > 0 ? w : 1), sizeof(*b));
	struct fts_style idle = view_style(v, FTS_R_IDLE);

	if (!b || w <= 0 || fts_store_buckets(v->store, lane, v->t0, view_t_right(v), (uint32_t)w, b)) {
		free(b);
		return;
	}
	for (int c = 0; c < w;) {
		uint32_t top = b[c].top;
		int e = c + 1;

		if (top == FTS_STR_NONE) {
			uint32_t ch = b[c].flags & FTS_BK_ANY ? view_glyph(v, FTS_G_BRIEF) : ' ';

			fts_grid_put(&v->grid, v->lay.time_x + c, y, ch,
				     ch == ' ' ? idle : view_style(v, FTS_R_DIM));
			c++;
			continue;
		}
		/* the columns one kernel (or one Free interval) covers most of */
		while (e < w && b[e].top == top)
			e++;
		struct fts_style st = free_lane ? view_style(v, FTS_R_SLEEPING) : fts_theme_task(&v->theme, top);
		uint32_t fill = view_glyph(v, free_lane ? FTS_G_SLEEPING : FTS_G_RUNNING);

		for (int k = c; k < e; k++)
			fts_grid_put(&v->grid, v->lay.time_x + k, y, fill, st);
		if (e - c >= NAME_MIN_COLS && !free_lane) {
			/* zoomed in: the kernel's name on its own stretch, one blank column each side */
			st.attr |= FTS_A_REVERSE;
			fts_grid_fill(&v->grid, v->lay.time_x + c, y, e - c, ' ', st);
			fts_grid_text(&v->grid, v->lay.time_x + c + 1, y, e - c - 2,
				      fts_store_str(v->store, top), st);
		}
		c = e;
	}
	if (ccol >= 0 && ccol < w) {
		const struct fts_cell *cell = fts_grid_at(&v->grid, v->lay.time_x + ccol, y);
		uint32_t ch = cell ? cell->ch : ' ';
		struct fts_style st = cell ? cell->st : view_style(v, FTS_R_CURSOR);

		view_cursor_mark(v, &ch, &st);
		fts_grid_put(&v->grid, v->lay.time_x + ccol, y, ch, st);
	}
	free(b);
}

void view_npu_header(struct fts_view *v, int y)
{
	uint32_t n = 0;
	size_t cards = fts_store_ncards(v->store);
	char title[96];
	int x;

	for (uint32_t l = 0; l < v->nlanes; l++)
		n += fts_store_lane(v->store, l)->group == FTS_GROUP_NPU;
	snprintf(title, sizeof(title), "NPU (%zu card%s, %u lanes)  ", cards, cards == 1 ? "" : "s", n);
	x = fts_grid_text(&v->grid, 0, y, v->grid.w, title, view_style(v, FTS_R_HEADER));
	x += fts_grid_text(&v->grid, x, y, v->grid.w - x, "kernel (name when zoomed in)  ",
			   view_style(v, FTS_R_DIM));
	fts_grid_put(&v->grid, x++, y, view_glyph(v, FTS_G_SLEEPING), view_style(v, FTS_R_SLEEPING));
	x += fts_grid_text(&v->grid, x, y, v->grid.w - x, " Free (device idle)  ", view_style(v, FTS_R_DIM));
	fts_grid_text(&v->grid, x, y, v->grid.w - x, "b: gaps panel", view_style(v, FTS_R_DIM));
}
