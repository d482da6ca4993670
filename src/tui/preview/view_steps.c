// SPDX-License-Identifier: MIT
/*
 * view_steps.c - the gaps panel's per-step table (Tab in the panel): every
 * card's training steps in time order with the step time, the NPU idle time
 * in it, its gaps, the largest cause and the top culprit, as `ftscope
 * hostbound` prints them (fts_hostbound_steps: one analysis, two views). The
 * slowest step is marked `*` and drawn in the error colour. Enter zooms the
 * lanes to the step; Tab goes back to the gaps, q or Esc to the lanes.
 */
#include <stdio.h>
#include <stdlib.h>

#include <ftscope/hostbound.h>

#include "tui/widgets/keys.h"
#include "tui/preview/view_impl.h"

struct view_step {
	const struct fts_hostbound *hb;
	const struct fts_hb_step *st;
	size_t card;
};

#define TOP_ROWS 3
#define BOTTOM_ROWS 2

/* Every card's steps, card by card in time order; 0 or -1 (out of memory). */
static int collect(struct fts_view *v)
{
	size_t cards = fts_store_ncards(v->store), n = 0, k = 0;

	for (size_t c = 0; c < cards; c++) {
		size_t ns;

		fts_hostbound_steps(fts_store_card(v->store, c, NULL), &ns);
		n += ns;
	}
	v->stepv = calloc(n ? n : 1, sizeof(*v->stepv));
	if (!v->stepv)
		return -1;
	for (size_t c = 0; c < cards; c++) {
		const struct fts_hostbound *hb = fts_store_card(v->store, c, NULL);
		size_t ns;
		const struct fts_hb_step *st = fts_hostbound_steps(hb, &ns);

		for (size_t i = 0; i < ns; i++)
			v->stepv[k++] = (struct view_step){ hb, &st[i], c };
	}
	v->nsteps = k;
	return 0;
}

/* Tab in the gaps panel: the steps, or back to the gaps. */
void view_steps_toggle(struct fts_view *v)
{
	if (!v->gap_steps && !v->stepv && collect(v)) {
		view_message(v, "out of memory");
		return;
	}
	v->gap_steps = !v->gap_steps;
}

void view_steps_free(struct fts_view *v)
{
	free(v->stepv);
	v->stepv = NULL;
	v->nsteps = 0;
	v->gap_steps = 0;
}

static int list_rows(const struct fts_view *v)
{
	int rows = v->grid.h - TOP_ROWS - BOTTOM_ROWS;

	return rows > 0 ? rows : 0;
}

void view_steps_keep_visible(struct fts_view *v)
{
	size_t rows = (size_t)list_rows(v);

	if (v->step_sel >= v->nsteps)
		v->step_sel = v->nsteps ? v->nsteps - 1 : 0;
	if (v->step_sel < v->step_top)
		v->step_top = v->step_sel;
	else if (rows && v->step_sel >= v->step_top + rows)
		v->step_top = v->step_sel - rows + 1;
}

/* One step as a row: number, card, step time, NPU idle, gaps, cause, top culprit. */
static void step_row(struct fts_view *v, int y, size_t i, struct fts_style st)
{
	const struct view_step *vs = &v->stepv[i];
	const struct fts_hb_step *s = vs->st;
	char num[16], dur[32], idle[32], share[16], cul[32];
	int x;

	/* the idle time outside every step has no step time, nor a share of one */
	snprintf(num, sizeof(num), s->number != FTS_HB_NONE ? "%u" : "(outside)", s->number);
	dur[0] = 0;
	snprintf(share, sizeof(share), "-");
	if (s->number != FTS_HB_NONE && s->dur) {
		view_fmt_dur(v, s->dur, dur, sizeof(dur));
		snprintf(share, sizeof(share), "%.1f%%", 100.0 * s->idle_ns / (double)s->dur);
	}
	view_fmt_dur(v, (uint64_t)(s->idle_ns + 0.5), idle, sizeof(idle));
	fts_grid_fill(&v->grid, 0, y, v->grid.w, ' ', st);
	x = fts_grid_printf(&v->grid, 0, y, v->grid.w, st, "%s%c%-9s NPU%-2zu %9s %9s %6s %5u  %-9s  ",
			    i == v->step_sel ? ">" : " ", s->slowest ? '*' : ' ', num, vs->card, dur, idle, share,
			    s->gaps, s->idle_ns > 0 ? fts_hostbound_cat_name(s->cause) : "-");
	if (s->culprit == FTS_HB_NONE) {
		fts_grid_text(&v->grid, x, y, v->grid.w - x, "-", st);
		return;
	}
	/* names are the capture's (untrusted): through fts_grid_text, escaped */
	x += fts_grid_text(&v->grid, x, y, v->grid.w - x, fts_hostbound_str(vs->hb, s->culprit), st);
	view_fmt_dur(v, (uint64_t)(s->culprit_ns + 0.5), cul, sizeof(cul));
	if (s->culprit_cpu >= 0)
		fts_grid_printf(&v->grid, x, y, v->grid.w - x, st, " on CPU %d %s", s->culprit_cpu, cul);
	else
		fts_grid_printf(&v->grid, x, y, v->grid.w - x, st, " %s", cul);
}

/* The selected step's idle time by cause, below the list. */
static void details(struct fts_view *v)
{
	struct fts_grid *g = &v->grid;
	const struct fts_hb_step *s = v->stepv[v->step_sel].st;
	struct fts_style ds = view_style(v, FTS_R_DETAILS);
	char cats[160];

	view_gaps_cats(s->cause_ns, s->idle_ns, FTS_HB__COUNT, cats, sizeof(cats));
	fts_grid_fill(g, 0, g->h - 2, g->w, ' ', ds);
	if (s->number != FTS_HB_NONE)
		fts_grid_printf(g, 1, g->h - 2, g->w - 1, ds, "step %u%s: NPU idle by cause: %s", s->number,
				s->slowest ? " (the slowest)" : "", s->idle_ns > 0 ? cats : "none");
	else
		fts_grid_printf(g, 1, g->h - 2, g->w - 1, ds, "idle outside every step, by cause: %s",
				s->idle_ns > 0 ? cats : "none");
}

void view_draw_steps(struct fts_view *v)
{
	struct fts_grid *g = &v->grid;
	struct fts_style title = view_style(v, FTS_R_TITLE), head = view_style(v, FTS_R_HEADER);
	int y = TOP_ROWS, rows = list_rows(v);
	double idle = 0;
	char idle_s[32];

	for (size_t i = 0; i < v->nsteps; i++)
		idle += v->stepv[i].st->idle_ns;
	view_fmt_dur(v, (uint64_t)(idle + 0.5), idle_s, sizeof(idle_s));
	fts_grid_fill(g, 0, 0, g->w, ' ', title);
	fts_grid_printf(g, 0, 0, g->w, title,
			" NPU idle per training step (Host Bound): %s idle  (Tab: the gaps, Enter: go to the step, q/Esc: back)",
			idle_s);
	fts_grid_printf(g, 0, 1, g->w, view_style(v, FTS_R_NORMAL), " %s",
			v->nsteps ? "* the slowest step; idle % of the step time" :
			"no training steps in the profile (ProfilerStep#<n> slices, STEP_TIME)");
	fts_grid_fill(g, 0, 2, g->w, ' ', head);
	fts_grid_text(g, 0, 2, g->w, "  step      card      time  NPU idle  idle%  gaps  cause      top culprit", head);
	for (size_t i = v->step_top; i < v->nsteps && y < TOP_ROWS + rows; i++, y++) {
		enum fts_role r = i == v->step_sel ? FTS_R_LABEL_SEL : v->stepv[i].st->slowest ? FTS_R_ERROR : FTS_R_NORMAL;

		step_row(v, y, i, view_style(v, r));
	}
	if (v->nsteps && g->h >= TOP_ROWS + BOTTOM_ROWS)
		details(v);
	fts_grid_fill(g, 0, g->h - 1, g->w, ' ', view_style(v, FTS_R_STATUS));
	fts_grid_printf(g, 0, g->h - 1, g->w, view_style(v, FTS_R_STATUS), "step %zu of %zu",
			v->nsteps ? v->step_sel + 1 : 0, v->nsteps);
}

/* Enter: the lanes zoomed to the step, a twentieth of it as margin each side. */
static void jump(struct fts_view *v)
{
	const struct fts_hb_step *s;
	char idle[32];
	uint64_t m;

	if (!v->nsteps)
		return;
	s = v->stepv[v->step_sel].st;
	if (s->number == FTS_HB_NONE || !s->dur) {
		view_message(v, "idle outside every step: no step to go to");
		return;
	}
	m = s->dur / 20 ? s->dur / 20 : 1;
	view_show_range(v, view_sub(s->ts, m), view_add(view_add(s->ts, s->dur), m));
	v->cursor = s->ts;
	view_keep_cursor_visible(v);
	v->gaps = 0;
	view_fmt_dur(v, (uint64_t)(s->idle_ns + 0.5), idle, sizeof(idle));
	view_message(v, "step %u on NPU%zu: %s of NPU idle%s%s", s->number, v->stepv[v->step_sel].card, idle,
		     s->idle_ns > 0 ? ", mostly " : "", s->idle_ns > 0 ? fts_hostbound_cat_name(s->cause) : "");
}

unsigned view_steps_key(struct fts_view *v, enum fts_action a)
{
	size_t page = list_rows(v) > 1 ? (size_t)list_rows(v) - 1 : 1;

	switch (a) {
	case FTS_ACT_UP: if (v->step_sel) v->step_sel--; break;
	case FTS_ACT_DOWN: if (v->step_sel + 1 < v->nsteps) v->step_sel++; break;
	case FTS_ACT_PGUP: v->step_sel = v->step_sel > page ? v->step_sel - page : 0; break;
	case FTS_ACT_PGDN: v->step_sel += page; break;
	case FTS_ACT_START: v->step_sel = 0; break;
	case FTS_ACT_END: v->step_sel = v->nsteps ? v->nsteps - 1 : 0; break;
	case FTS_ACT_DETAILS: jump(v); break;
	default: return 0;
	}
	view_steps_keep_visible(v);
	return FTS_RX_REDRAW;
}
