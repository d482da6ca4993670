// SPDX-License-Identifier: MIT
/*
 * view_npu.c - the NPU group of the lane view: a card's device streams and
 * the profiler's "Free" lane (FTS_GROUP_NPU lanes of the store), drawn as
 * busy intervals that carry the kernel's name where the zoom leaves room for
 * it, and the group's header. The lanes are the store's, so zoom, pan,
 * find and details need nothing of their own.
 *
 * The group folds: a real card has 8-16 streams and as many HCCL planes,
 * which drawn above the CPU lanes would push the dispatch threads (the
 * lanes the gaps are explained by) off a small terminal. Past its share of
 * the lane rows (NPU_SHARE, at least the busiest stream and the Free lane of
 * each card) the group keeps, per priority, each card's Free lane and
 * busiest stream, then the other streams busiest first, then the HCCL
 * lanes; the rest is folded and counted in the header until z unfolds it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/preview/view_impl.h"

/* A stretch of columns as wide as this names its kernel; narrower, a glyph. */
#define NAME_MIN_COLS 4

/* The NPU group's share of the lane rows, header excluded: a third. */
#define NPU_SHARE 3

/* What an NPU lane is, from the name the store gave it ("NPU<card> stream <id>" ...). */
enum npu_kind { NK_STREAM, NK_FREE, NK_HCCL };

static enum npu_kind lane_kind(const char *tid, size_t *card)
{
	size_t n = strlen(tid);

	*card = strncmp(tid, "NPU", 3) ? 0 : strtoul(tid + 3, NULL, 10);
	if (n >= 5 && !strcmp(tid + n - 5, " Free"))
		return NK_FREE;
	return strstr(tid, " HCCL ") ? NK_HCCL : NK_STREAM;
}

static int is_free_lane(const struct fts_view *v, uint32_t lane)
{
	const char *tid = fts_store_str(v->store, fts_store_lane(v->store, lane)->tid);
	size_t n = strlen(tid);

	return n >= 5 && !strcmp(tid + n - 5, " Free");
}

/*
 * A row of @w buckets of NPU work at @y: a stretch one kernel (or one Free
 * interval) covers most of is filled in its colour and, zoomed in, named.
 */
static void draw_buckets(struct fts_view *v, int y, const struct fts_bucket *b, int w, int free_lane)
{
	struct fts_style idle = view_style(v, FTS_R_IDLE);

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
}

void view_npu_cells(struct fts_view *v, int y, uint32_t lane, int ccol)
{
	int w = v->lay.time_w, free_lane = is_free_lane(v, lane);
	struct fts_bucket *b = calloc((size_t)(w > 0 ? w : 1), sizeof(*b));

	if (!b || w <= 0 || fts_store_buckets(v->store, lane, v->t0, view_t_right(v), (uint32_t)w, b)) {
		free(b);
		return;
	}
	draw_buckets(v, y, b, w, free_lane);
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
	char title[128];
	int x;

	for (uint32_t l = 0; l < v->nlanes; l++)
		n += fts_store_lane(v->store, l)->group == FTS_GROUP_NPU;
	if (v->npu_nstream_fold + v->npu_nhccl_fold)
		snprintf(title, sizeof(title), "NPU (%zu card%s, %u of %u lanes; folded %u stream%s, %u HCCL; z unfolds)  ",
			 cards, cards == 1 ? "" : "s", n - v->npu_nstream_fold - v->npu_nhccl_fold, n,
			 v->npu_nstream_fold, v->npu_nstream_fold == 1 ? "" : "s", v->npu_nhccl_fold);
	else if (v->npu_foldable)
		snprintf(title, sizeof(title), "NPU (%zu card%s, %u lanes; z folds)  ", cards, cards == 1 ? "" : "s", n);
	else
		snprintf(title, sizeof(title), "NPU (%zu card%s, %u lanes)  ", cards, cards == 1 ? "" : "s", n);
	x = fts_grid_text(&v->grid, 0, y, v->grid.w, title, view_style(v, FTS_R_HEADER));
	x += fts_grid_text(&v->grid, x, y, v->grid.w - x, "kernel (name when zoomed in)  ",
			   view_style(v, FTS_R_DIM));
	fts_grid_put(&v->grid, x++, y, view_glyph(v, FTS_G_SLEEPING), view_style(v, FTS_R_SLEEPING));
	x += fts_grid_text(&v->grid, x, y, v->grid.w - x, " Free (device idle)  ", view_style(v, FTS_R_DIM));
	fts_grid_text(&v->grid, x, y, v->grid.w - x, "b: gaps panel", view_style(v, FTS_R_DIM));
}

/* Busy ns per NPU lane over the whole capture, once: one bucket each, O(log n). */
static int npu_busy(struct fts_view *v)
{
	if (v->npu_busy)
		return 0;
	v->npu_busy = calloc(v->nlanes ? v->nlanes : 1, sizeof(*v->npu_busy));
	if (!v->npu_busy)
		return -1;
	for (uint32_t l = 0; l < v->nlanes; l++) {
		struct fts_bucket b;

		if (fts_store_lane(v->store, l)->group != FTS_GROUP_NPU)
			continue;
		fts_store_bucket(v->store, l, v->t_begin, view_add(v->t_end, 1), &b);
		v->npu_busy[l] = b.busy_ns ? b.busy_ns : b.top_ns;
	}
	return 0;
}

struct npu_rank {
	uint32_t lane;
	int cls;        /* 0: kept always; 1: another stream; 2: HCCL */
	uint64_t busy;
};

static int cmp_rank(const void *pa, const void *pb)
{
	const struct npu_rank *a = pa, *b = pb;

	if (a->cls != b->cls)
		return a->cls - b->cls;
	if (a->busy != b->busy)
		return a->busy < b->busy ? 1 : -1;
	return a->lane < b->lane ? -1 : a->lane > b->lane;
}

/*
 * Rank the @n shown NPU lanes @r by what the fold keeps first and fold what
 * does not fit in @budget rows: each card's Free lane and busiest stream
 * always stay; the HCCL lanes go first, into a row a card (DISP_HCCL) when
 * those rows fit beside the kept lanes, else out of sight; then the other
 * streams, quietest first. Marks v->npu_hidden and counts what was folded.
 */
static void fold_lanes(struct fts_view *v, struct npu_rank *r, uint32_t n, uint32_t budget)
{
	size_t ncards = fts_store_ncards(v->store) + 1, card;
	uint32_t *best = malloc(ncards * sizeof(*best)), nmin = 0, nunion = 0, keep;
	uint8_t *comm = calloc(ncards, 1);

	if (!best || !comm || npu_busy(v)) {
		free(best);
		free(comm);
		return; /* out of memory: everything shown, as unfolded */
	}
	for (size_t c = 0; c < ncards; c++)
		best[c] = UINT32_MAX;
	for (uint32_t i = 0; i < n; i++) {
		enum npu_kind k = lane_kind(fts_store_str(v->store, fts_store_lane(v->store, r[i].lane)->tid), &card);

		card = card < ncards - 1 ? card : ncards - 1;
		r[i].busy = v->npu_busy[r[i].lane];
		r[i].cls = k == NK_FREE ? 0 : k == NK_HCCL ? 2 : 1;
		nunion += k == NK_HCCL && !comm[card];
		comm[card] |= k == NK_HCCL;
		if (k == NK_STREAM && (best[card] == UINT32_MAX || r[i].busy > r[best[card]].busy))
			best[card] = i;
	}
	for (size_t c = 0; c < ncards; c++) {
		if (best[c] != UINT32_MAX)
			r[best[c]].cls = 0;
	}
	free(best);
	free(comm);
	qsort(r, n, sizeof(*r), cmp_rank);
	while (nmin < n && !r[nmin].cls)
		nmin++;
	/* the rows a card's HCCL lanes fold into, when they fit beside the lanes always kept */
	v->npu_hccl_rows = nunion && nmin + nunion <= budget;
	keep = budget > nmin + (v->npu_hccl_rows ? nunion : 0) ? budget - nmin - (v->npu_hccl_rows ? nunion : 0) : 0;
	for (uint32_t i = nmin; i < n; i++) {
		if (r[i].cls == 1 && keep) {
			keep--;
			continue;
		}
		v->npu_hidden[r[i].lane] = 1;
		if (r[i].cls == 2)
			v->npu_nhccl_fold++;
		else
			v->npu_nstream_fold++;
	}
}

uint32_t view_npu_disp(struct fts_view *v, uint32_t n)
{
	int rows = view_lane_rows(v);
	uint32_t shown = 0, budget = rows > 0 ? (uint32_t)rows / NPU_SHARE : UINT32_MAX, has_npu = 0;
	struct npu_rank *r;

	memset(v->npu_hidden, 0, v->nlanes ? v->nlanes : 1);
	v->npu_nstream_fold = v->npu_nhccl_fold = 0;
	v->npu_foldable = v->npu_hccl_rows = 0;
	for (uint32_t l = 0; l < v->nlanes; l++)
		shown += fts_store_lane(v->store, l)->group == FTS_GROUP_NPU && !v->pinned[l];
	if (shown > budget) {
		v->npu_foldable = 1;
		r = v->npu_unfold ? NULL : malloc(shown * sizeof(*r));
		if (r) {
			uint32_t k = 0;

			for (uint32_t l = 0; l < v->nlanes; l++) {
				if (fts_store_lane(v->store, l)->group == FTS_GROUP_NPU && !v->pinned[l])
					r[k++] = (struct npu_rank){ .lane = l };
			}
			fold_lanes(v, r, k, budget);
			free(r);
		}
	}
	for (uint32_t l = 0; l < v->nlanes; l++) {
		int64_t row = l;
		size_t card;

		if (fts_store_lane(v->store, l)->group != FTS_GROUP_NPU || v->pinned[l])
			continue;
		if (v->npu_hidden[l]) {
			/* a card's HCCL lanes are side by side: their row where the first was */
			if (!v->npu_hccl_rows ||
			    lane_kind(fts_store_str(v->store, fts_store_lane(v->store, l)->tid), &card) != NK_HCCL)
				continue;
			row = DISP_HCCL - (int64_t)(card < 4096 ? card : 4096);
			if (n && v->disp[n - 1] == row)
				continue;
		}
		if (!has_npu++)
			v->disp[n++] = DISP_NPU;
		v->disp[n++] = row;
	}
	return n;
}

/* The folded HCCL lanes of @card, each a row of @w buckets merged into @u: 0 or -1. */
static int hccl_union(struct fts_view *v, size_t card, int w, struct fts_bucket *u, uint32_t *nlanes)
{
	struct fts_bucket *b = calloc((size_t)w, sizeof(*b));
	size_t c;

	if (!b)
		return -1;
	for (int k = 0; k < w; k++)
		u[k] = (struct fts_bucket){ 0, FTS_STR_NONE, 0, 0, 0 };
	for (uint32_t l = 0; l < v->nlanes; l++) {
		if (!v->npu_hidden[l] || fts_store_lane(v->store, l)->group != FTS_GROUP_NPU ||
		    lane_kind(fts_store_str(v->store, fts_store_lane(v->store, l)->tid), &c) != NK_HCCL ||
		    c != card)
			continue;
		(*nlanes)++;
		if (fts_store_buckets(v->store, l, v->t0, view_t_right(v), (uint32_t)w, b))
			continue;
		for (int k = 0; k < w; k++) {
			/* a column is communication when any plane has some; the colour the first's */
			if (u[k].top == FTS_STR_NONE && b[k].top != FTS_STR_NONE)
				u[k].top = b[k].top;
			u[k].flags |= b[k].flags;
		}
	}
	free(b);
	return 0;
}

void view_npu_hccl_row(struct fts_view *v, int y, int64_t kind)
{
	size_t card = (size_t)(DISP_HCCL - kind);
	int w = v->lay.time_w;
	struct fts_bucket *u = calloc((size_t)(w > 0 ? w : 1), sizeof(*u));
	struct fts_style st = view_style(v, FTS_R_LABEL);
	uint32_t n = 0;
	char label[64];

	if (!u || w <= 0 || hccl_union(v, card, w, u, &n)) {
		free(u);
		return;
	}
	snprintf(label, sizeof(label), " NPU%zu HCCL, %u folded", card, n);
	fts_grid_fill(&v->grid, 0, y, v->lay.label_w, ' ', st);
	fts_grid_text(&v->grid, 0, y, v->lay.label_w, label, st);
	fts_grid_put(&v->grid, v->lay.label_w, y, view_glyph(v, FTS_G_VLINE), view_style(v, FTS_R_DIM));
	draw_buckets(v, y, u, w, 0);
	free(u);
}

int view_npu_reveal(struct fts_view *v)
{
	for (uint32_t l = 0; l < v->nlanes; l++) {
		if (v->npu_hidden[l] && v->match[l]) {
			v->npu_unfold = 1;
			return 1;
		}
	}
	return 0;
}

void view_npu_toggle_fold(struct fts_view *v)
{
	if (!fts_store_ncards(v->store)) {
		view_message(v, "no NPU lanes to fold (--profiling_data)");
		return;
	}
	if (!v->npu_foldable) {
		view_message(v, "the NPU lanes fit: nothing to fold");
		return;
	}
	v->npu_unfold = !v->npu_unfold;
	view_lanes_rebuild(v);
	/* the group's top in view; unfolded, its first lane selected: what z was pressed for */
	v->top = v->npinned_disp;
	if (v->npu_unfold && v->npu_foldable) {
		for (uint32_t i = v->npinned_disp; i < v->ndisp; i++) {
			if (v->disp[i] >= 0) {
				v->sel = (uint32_t)v->disp[i];
				break;
			}
		}
	}
	if (v->npu_unfold)
		view_message(v, "every NPU lane shown (z folds)");
	else
		view_message(v, "NPU lanes folded: %u stream%s, %u HCCL (z unfolds)", v->npu_nstream_fold,
			     v->npu_nstream_fold == 1 ? "" : "s", v->npu_nhccl_fold);
}
