// SPDX-License-Identifier: MIT
/*
 * view_gaps.c - the Host Bound panel (`b`): every card's NPU idle gaps,
 * worst first, with the cause `ftscope hostbound` gives (the store ran the
 * same analysis while loading: one implementation, two views). Enter zooms
 * the lanes to the gap with a margin each side and selects its dispatch
 * thread's lane; Tab shows the per-step table (view_steps.c); q or Esc goes
 * back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ftscope/hostbound.h>

#include "tui/widgets/keys.h"
#include "tui/preview/view_impl.h"

struct view_gap {
	const struct fts_hostbound *hb;
	const struct fts_hb_gap *g;
	size_t card;
};

/* Rows above the list (title, totals, column heads) and below it (details, status). */
#define TOP_ROWS 3
#define BOTTOM_ROWS 3

static int cmp_gap(const void *pa, const void *pb)
{
	const struct view_gap *a = pa, *b = pb;

	if (a->g->dur != b->g->dur)
		return a->g->dur > b->g->dur ? -1 : 1;
	if (a->g->ts != b->g->ts)
		return a->g->ts < b->g->ts ? -1 : 1;
	return a->card < b->card ? -1 : a->card > b->card;
}

/* Every card's gaps in one list, worst first; 0 or -1 (out of memory). */
static int collect(struct fts_view *v)
{
	size_t cards = fts_store_ncards(v->store), n = 0, k = 0;

	for (size_t c = 0; c < cards; c++) {
		size_t ng;

		fts_hostbound_gaps(fts_store_card(v->store, c, NULL), &ng);
		n += ng;
	}
	v->gapv = calloc(n ? n : 1, sizeof(*v->gapv));
	if (!v->gapv)
		return -1;
	for (size_t c = 0; c < cards; c++) {
		const struct fts_hostbound *hb = fts_store_card(v->store, c, NULL);
		size_t ng;
		const struct fts_hb_gap *g = fts_hostbound_gaps(hb, &ng);

		for (size_t i = 0; i < ng; i++)
			v->gapv[k++] = (struct view_gap){ hb, &g[i], c };
	}
	v->ngaps = k;
	qsort(v->gapv, v->ngaps, sizeof(*v->gapv), cmp_gap);
	return 0;
}

void view_gaps_open(struct fts_view *v)
{
	if (!fts_store_ncards(v->store)) {
		view_message(v, "no NPU gaps: open the capture with --profiling_data DIR (the profiler's output, with trace_view.json)");
		return;
	}
	if (!v->gapv && collect(v)) {
		view_message(v, "out of memory");
		return;
	}
	v->gaps = 1;
}

void view_gaps_free(struct fts_view *v)
{
	free(v->gapv);
	v->gapv = NULL;
	v->ngaps = 0;
	view_steps_free(v);
}

void view_gaps_cats(const double *ns, double whole, int max, char *buf, size_t n)
{
	int used[FTS_HB__COUNT] = { 0 };
	size_t o = 0;

	buf[0] = 0;
	for (int k = 0; k < max && o < n; k++) {
		int best = -1;

		for (int c = 0; c < FTS_HB__COUNT; c++) {
			if (!used[c] && ns[c] > 0 && (best < 0 || ns[c] > ns[best]))
				best = c;
		}
		if (best < 0)
			break;
		used[best] = 1;
		o += (size_t)snprintf(buf + o, n - o, "%s%s %.1f%%", o ? "  " : "",
				      fts_hostbound_cat_name((enum fts_hb_cat)best),
				      whole > 0 ? 100.0 * ns[best] / whole : 0.0);
	}
}

static int list_rows(const struct fts_view *v)
{
	int rows = v->grid.h - TOP_ROWS - BOTTOM_ROWS;

	return rows > 0 ? rows : 0;
}

void view_gaps_keep_visible(struct fts_view *v)
{
	size_t rows = (size_t)list_rows(v);

	view_steps_keep_visible(v);
	if (v->gap_sel >= v->ngaps)
		v->gap_sel = v->ngaps ? v->ngaps - 1 : 0;
	if (v->gap_sel < v->gap_top)
		v->gap_top = v->gap_sel;
	else if (rows && v->gap_sel >= v->gap_top + rows)
		v->gap_top = v->gap_sel - rows + 1;
}

/* One gap as a row: start, idle, cause and its time, the verdict in one line. */
static void gap_row(struct fts_view *v, int y, size_t i, struct fts_style st)
{
	const struct view_gap *vg = &v->gapv[i];
	const struct fts_hb_gap *g = vg->g;
	char start[48], idle[32], its[32];
	int x;

	view_fmt_rel(v, g->ts, start, sizeof(start));
	view_fmt_dur(v, g->dur, idle, sizeof(idle));
	view_fmt_dur(v, (uint64_t)(g->cause_ns[g->cause] + 0.5), its, sizeof(its));
	fts_grid_fill(&v->grid, 0, y, v->grid.w, ' ', st);
	x = fts_grid_printf(&v->grid, 0, y, v->grid.w, st, "%s%4zu NPU%-2zu %-13s %9s  %-9s %9s  ",
			    i == v->gap_sel ? ">" : " ", i + 1, vg->card, start, idle,
			    fts_hostbound_cat_name(g->cause), its);
	/* names are the capture's (untrusted): through fts_grid_text, escaped */
	fts_grid_text(&v->grid, x, y, v->grid.w - x, fts_hostbound_str(vg->hb, g->line), st);
}

void view_draw_gaps(struct fts_view *v)
{
	struct fts_grid *g = &v->grid;
	struct fts_style title = view_style(v, FTS_R_TITLE), head = view_style(v, FTS_R_HEADER);
	double tot[FTS_HB__COUNT] = { 0 }, idle = 0;
	char idle_s[32], cats[160];
	int y = TOP_ROWS, rows = list_rows(v);

	if (v->gap_steps) {
		view_draw_steps(v);
		return;
	}
	for (size_t i = 0; i < v->ngaps; i++) {
		idle += (double)v->gapv[i].g->dur;
		for (int c = 0; c < FTS_HB__COUNT; c++)
			tot[c] += v->gapv[i].g->cause_ns[c];
	}
	view_fmt_dur(v, (uint64_t)idle, idle_s, sizeof(idle_s));
	fts_grid_fill(g, 0, 0, g->w, ' ', title);
	fts_grid_printf(g, 0, 0, g->w, title,
			" NPU idle gaps (Host Bound), %zu, worst first: %s idle  (Enter: go to the gap, Tab: per step, q/Esc: back)",
			v->ngaps, idle_s);
	view_gaps_cats(tot, idle, 4, cats, sizeof(cats));
	fts_grid_printf(g, 0, 1, g->w, view_style(v, FTS_R_NORMAL), " causes: %s",
			v->ngaps ? cats : "-");
	fts_grid_fill(g, 0, 2, g->w, ' ', head);
	fts_grid_text(g, 0, 2, g->w, "     # card start              idle  cause      its time  why",
		      head);
	if (!v->ngaps)
		fts_grid_text(g, 1, y, g->w - 1, "no NPU idle interval of 50 us or more", view_style(v, FTS_R_DIM));
	for (size_t i = v->gap_top; i < v->ngaps && y < TOP_ROWS + rows; i++, y++)
		gap_row(v, y, i, view_style(v, i == v->gap_sel ? FTS_R_LABEL_SEL : FTS_R_NORMAL));
	if (v->ngaps && g->h >= TOP_ROWS + BOTTOM_ROWS) {
		const struct view_gap *vg = &v->gapv[v->gap_sel];
		struct fts_style ds = view_style(v, FTS_R_DETAILS);

		view_gaps_cats(vg->g->cause_ns, (double)vg->g->dur, FTS_HB__COUNT, cats, sizeof(cats));
		fts_grid_fill(g, 0, g->h - 3, g->w, ' ', ds);
		fts_grid_fill(g, 0, g->h - 2, g->w, ' ', ds);
		fts_grid_printf(g, 1, g->h - 3, g->w - 1, ds, "gap %zu: %s", v->gap_sel + 1, cats);
		view_gaps_cats(vg->g->ns, (double)vg->g->dur, 3, cats, sizeof(cats));
		fts_grid_printf(g, 1, g->h - 2, g->w - 1, ds,
				"dispatch thread's own state: %s  (the same analysis as 'ftscope hostbound', threshold 50 us)",
				cats);
	}
	fts_grid_fill(g, 0, g->h - 1, g->w, ' ', view_style(v, FTS_R_STATUS));
	fts_grid_printf(g, 0, g->h - 1, g->w, view_style(v, FTS_R_STATUS), "gap %zu of %zu",
			v->ngaps ? v->gap_sel + 1 : 0, v->ngaps);
}

/* Enter: the lanes zoomed to the gap, a quarter of it as margin each side, its dispatch thread selected. */
static void jump(struct fts_view *v)
{
	const struct view_gap *vg;
	uint64_t m;

	if (!v->ngaps)
		return;
	vg = &v->gapv[v->gap_sel];
	m = vg->g->dur / 4 ? vg->g->dur / 4 : 1;
	view_show_range(v, view_sub(vg->g->ts, m), view_add(view_add(vg->g->ts, vg->g->dur), m));
	v->cursor = vg->g->ts;
	view_keep_cursor_visible(v);
	for (uint32_t l = 0; vg->g->tid >= 0 && l < v->nlanes; l++) {
		if (fts_store_dispatch_tid(v->store, l) == vg->g->tid) {
			if (view_disp_index(v, l) < 0) {
				v->filter = 0;
				view_lanes_rebuild(v);
			}
			v->sel = l;
			break;
		}
	}
	v->gaps = 0;
	view_message(v, "gap %zu of %zu: NPU%zu idle, the dispatch thread %s; cause: %s", v->gap_sel + 1, v->ngaps,
		     vg->card, fts_hostbound_cat_name(vg->g->verdict), fts_hostbound_cat_name(vg->g->cause));
}

unsigned view_gaps_key(struct fts_view *v, int key)
{
	enum fts_action a = fts_key_action(key);
	size_t page = list_rows(v) > 1 ? (size_t)list_rows(v) - 1 : 1;

	if (a == FTS_ACT_PANE) {
		view_steps_toggle(v);
		view_steps_keep_visible(v);
		return FTS_RX_REDRAW;
	}
	if (v->gap_steps && a != FTS_ACT_QUIT && a != FTS_ACT_GAPS && a != FTS_ACT_HELP)
		return view_steps_key(v, a);
	switch (a) {
	case FTS_ACT_QUIT:
	case FTS_ACT_GAPS:
		v->gaps = 0;
		break;
	case FTS_ACT_UP: if (v->gap_sel) v->gap_sel--; break;
	case FTS_ACT_DOWN: if (v->gap_sel + 1 < v->ngaps) v->gap_sel++; break;
	case FTS_ACT_PGUP: v->gap_sel = v->gap_sel > page ? v->gap_sel - page : 0; break;
	case FTS_ACT_PGDN: v->gap_sel += page; break;
	case FTS_ACT_START: v->gap_sel = 0; break;
	case FTS_ACT_END: v->gap_sel = v->ngaps ? v->ngaps - 1 : 0; break;
	case FTS_ACT_DETAILS: jump(v); break;
	case FTS_ACT_HELP: v->help = 1; v->help_top = 0; break;
	default: return 0;
	}
	view_gaps_keep_visible(v);
	return FTS_RX_REDRAW;
}
