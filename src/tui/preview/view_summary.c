// SPDX-License-Identifier: MIT
/*
 * view_summary.c - the per-task summary table (`s`): the numbers of
 * `ftscope stats`, from the same statistics collector, fed from the store
 * when the table is first opened (fts_store_stats: one implementation, two
 * views; nothing per task is held for it while loading). Sortable by any
 * column; Enter jumps to the task's lane.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <ftscope/stats.h>

#include "tui/widgets/keys.h"
#include "app/fmt.h"
#include "tui/preview/view_impl.h"

struct col {
	enum fts_task_col col;
	const char *head;
	int dur;     /* a duration (else a count) */
};

static const struct col cols[] = {
	{ FTS_TCOL_TASK, "task", 0 },
	{ FTS_TCOL_RUNNING, "running", 1 },
	{ FTS_TCOL_RUNNABLE, "runnable", 1 },
	{ FTS_TCOL_SLEEPING, "sleep S", 1 },
	{ FTS_TCOL_BLOCKED, "sleep D", 1 },
	{ FTS_TCOL_SWITCHES, "switches", 0 },
	{ FTS_TCOL_INVOLUNTARY, "invol.", 0 },
	{ FTS_TCOL_MIGRATIONS, "migr.", 0 },
	{ FTS_TCOL_IRQ_COUNT, "irqs", 0 },
	{ FTS_TCOL_SOFTIRQ_COUNT, "softirqs", 0 },
	{ FTS_TCOL_WAKE_P50, "wake p50", 1 },
	{ FTS_TCOL_WAKE_P99, "wake p99", 1 },
	{ FTS_TCOL_WAKE_MAX, "wake max", 1 },
};

#define NCOLS (int)(sizeof(cols) / sizeof(cols[0]))
#define NUM_W 9

/* @s right-aligned in a NUM_W cell by display width ("µs" is one column, two bytes). */
static void rjust(struct fts_grid *g, int x, int y, const char *s, struct fts_style st)
{
	int pad = NUM_W - fts_text_width(s, g->utf8);

	if (pad < 1)
		pad = 1;
	fts_grid_fill(g, x, y, pad, ' ', st);
	fts_grid_text(g, x + pad, y, NUM_W - pad, s, st);
}

void view_summary_sort(struct fts_view *v)
{
	if (v->stats)
		fts_stats_sort_tasks(v->stats, cols[v->sum_col].col, v->sum_desc);
}

static int summary_stop(void *ctx)
{
	return view_stop(ctx);
}

void view_summary_open(struct fts_view *v)
{
	struct fts_err err = { 0 };
	int rc;

	v->summary = 1;
	if (v->stats || v->stats_why[0])
		return;
	rc = fts_store_stats(v->store, summary_stop, v, &v->own_stats, &err);
	if (rc == -ECANCELED) {
		/* asked to stop: nothing is kept, the next s tries again */
		v->summary = 0;
		view_message(v, "summary cancelled");
		return;
	}
	if (rc) {
		snprintf(v->stats_why, sizeof(v->stats_why), "%.95s",
			 err.msg[0] ? err.msg : "they could not be computed");
		return;
	}
	fts_view_set_stats(v, v->own_stats);
}

/* The first numeric column shown, so that the sort column is on screen. */
static int first_col(const struct fts_view *v, int fit)
{
	int c = 1;

	if (v->sum_col > 0 && v->sum_col >= 1 + fit)
		c = v->sum_col - fit + 1;
	return c;
}

void view_draw_summary(struct fts_view *v)
{
	struct fts_grid *g = &v->grid;
	size_t n = v->stats ? fts_stats_ntasks(v->stats) : 0;
	int task_w = g->w / 4 > 16 ? g->w / 4 : 16, fit, c0, y = 2, rows = g->h - 4;

	fts_grid_fill(g, 0, 0, g->w, ' ', view_style(v, FTS_R_TITLE));
	fts_grid_printf(g, 0, 0, g->w, view_style(v, FTS_R_TITLE),
			" per-task summary, %zu tasks, by %s (%s)  (Left/Right: sort column, r: reverse, Enter: go to lane, q: back)",
			n, cols[v->sum_col].head,
			v->sum_col == 0 ? (v->sum_desc ? "Z-A" : "A-Z") :
			v->sum_desc ? "largest first" : "smallest first");
	if (!v->stats) {
		fts_grid_printf(g, 1, 2, g->w - 1, view_style(v, FTS_R_ERROR), "no statistics: %s",
				v->stats_why[0] ? v->stats_why : "none were computed");
		return;
	}
	if (task_w > 28)
		task_w = 28;
	fit = (g->w - task_w) / NUM_W;
	if (fit < 1)
		fit = 1;
	c0 = first_col(v, fit);
	/* header */
	fts_grid_text(g, 0, 1, task_w, " task", view_style(v, v->sum_col == 0 ? FTS_R_LABEL_SEL : FTS_R_HEADER));
	for (int i = 0; i < fit && c0 + i < NCOLS; i++) {
		int c = c0 + i;

		rjust(g, task_w + i * NUM_W, 1, cols[c].head,
		      view_style(v, c == v->sum_col ? FTS_R_LABEL_SEL : FTS_R_HEADER));
	}
	if (rows < 1)
		return;
	for (size_t r = v->sum_top; r < n && y < 2 + rows; r++, y++) {
		const struct fts_task_stats *t = fts_stats_task(v->stats, r);
		struct fts_style st = view_style(v, r == v->sum_sel ? FTS_R_LABEL_SEL : FTS_R_NORMAL);

		fts_grid_fill(g, 0, y, g->w, ' ', st);
		fts_grid_text(g, 0, y, 1, r == v->sum_sel ? ">" : " ", st);
		fts_grid_text(g, 1, y, task_w - 2, t->tid, st);
		for (int i = 0; i < fit && c0 + i < NCOLS; i++) {
			uint64_t val = fts_task_col_value(t, cols[c0 + i].col);
			char cell[32];

			if (cols[c0 + i].dur)
				fts_fmt_ns(val, FTS_DUR_CELL, v->theme.utf8, cell, sizeof(cell));
			else
				snprintf(cell, sizeof(cell), "%" PRIu64, val);
			rjust(g, task_w + i * NUM_W, y, cell, st);
		}
	}
	if (n) {
		const struct fts_task_stats *t = fts_stats_task(v->stats, v->sum_sel);

		fts_grid_fill(g, 0, g->h - 2, g->w, ' ', view_style(v, FTS_R_DETAILS));
		fts_grid_printf(g, 1, g->h - 2, g->w - 1, view_style(v, FTS_R_DETAILS),
				"%s: top preempter %s, top irq %s, %" PRIu64 " wakeups", t->tid,
				t->top_preempter[0] ? t->top_preempter : "-", t->top_irq[0] ? t->top_irq : "-",
				t->wakeups);
	}
	fts_grid_fill(g, 0, g->h - 1, g->w, ' ', view_style(v, FTS_R_STATUS));
	fts_grid_printf(g, 0, g->h - 1, g->w, view_style(v, FTS_R_STATUS),
			"same numbers as 'ftscope stats'; columns %d-%d of %d", c0 + 1, c0 + fit < NCOLS ? c0 + fit : NCOLS, NCOLS);
}

/* Enter: select the row's task lane and leave the table. */
static void jump(struct fts_view *v)
{
	const struct fts_task_stats *t;

	if (!v->stats || !fts_stats_ntasks(v->stats))
		return;
	t = fts_stats_task(v->stats, v->sum_sel);
	for (uint32_t l = 0; l < v->nlanes; l++) {
		const struct fts_store_lane *sl = fts_store_lane(v->store, l);

		if (sl->group == FTS_GROUP_TASK && !strcmp(fts_store_str(v->store, sl->tid), t->tid)) {
			if (view_disp_index(v, l) < 0) {
				v->filter = 0;
				view_lanes_rebuild(v);
			}
			v->sel = l;
			v->summary = 0;
			return;
		}
	}
	view_message(v, "no lane for this task");
	v->summary = 0;
}

void view_summary_keep_visible(struct fts_view *v)
{
	size_t n = v->stats ? fts_stats_ntasks(v->stats) : 0;
	int rows = v->grid.h - 4;

	if (v->sum_sel >= n)
		v->sum_sel = n ? n - 1 : 0;
	if (rows < 1)
		return;
	if (v->sum_sel < v->sum_top)
		v->sum_top = v->sum_sel;
	else if (v->sum_sel >= v->sum_top + (size_t)rows)
		v->sum_top = v->sum_sel - (size_t)rows + 1;
}

unsigned view_summary_key(struct fts_view *v, int key)
{
	enum fts_action a = fts_key_action(key);
	size_t n = v->stats ? fts_stats_ntasks(v->stats) : 0;

	if (key == 'r') {
		v->sum_desc = !v->sum_desc;
		view_summary_sort(v);
		return FTS_RX_REDRAW;
	}
	switch (a) {
	case FTS_ACT_QUIT:
	case FTS_ACT_SUMMARY:
		v->summary = 0;
		break;
	case FTS_ACT_LEFT:
	case FTS_ACT_RIGHT:
		v->sum_col = (v->sum_col + (a == FTS_ACT_LEFT ? NCOLS - 1 : 1)) % NCOLS;
		v->sum_desc = v->sum_col != 0; /* numbers largest first, names A-Z */
		view_summary_sort(v);
		break;
	case FTS_ACT_UP: if (v->sum_sel) v->sum_sel--; break;
	case FTS_ACT_DOWN: if (v->sum_sel + 1 < n) v->sum_sel++; break;
	case FTS_ACT_PGUP: v->sum_sel = v->sum_sel > 10 ? v->sum_sel - 10 : 0; break;
	case FTS_ACT_PGDN: v->sum_sel = v->sum_sel + 10 < n ? v->sum_sel + 10 : (n ? n - 1 : 0); break;
	case FTS_ACT_START: v->sum_sel = 0; break;
	case FTS_ACT_END: v->sum_sel = n ? n - 1 : 0; break;
	case FTS_ACT_DETAILS: jump(v); break;
	case FTS_ACT_HELP: v->help = 1; v->help_top = 0; break; /* q comes back here */
	default: return 0;
	}
	view_summary_keep_visible(v);
	return FTS_RX_REDRAW;
}
