/* SPDX-License-Identifier: MIT */
/*
 * view_impl.h - the lane view's state, shared by view.c (keys, navigation),
 * view_lanes.c (lane order: pins, filter, sort) and view_draw.c (rendering).
 *
 * Time is output nanoseconds. The viewport is (t0, npc): column c of the
 * time area covers [t0 + c*npc, t0 + (c+1)*npc). The cursor is a time, so
 * zooming keeps it fixed. Lanes are shown in `order` (pinned lanes first,
 * then CPU lanes, then task lanes sorted and filtered); `disp` interleaves
 * group headers with them and is what rows map to.
 */
#ifndef FTS_TUI_VIEW_IMPL_H
#define FTS_TUI_VIEW_IMPL_H

#include <stdint.h>

#include <ftscope/stats.h>

#include "tui/widgets/grid.h"
#include "tui/widgets/theme.h"
#include "tui/preview/view.h"

/* the first is the default: the busiest tasks on top */
enum view_sort { SORT_RUNNING, SORT_RUNNABLE, SORT_NAME, SORT_PID, SORT__COUNT };

/* A display row: a group header (lane < 0: -1 pinned, -2 CPU, -3 tasks) or a lane. */
#define DISP_PINNED (-1)
#define DISP_CPU (-2)
#define DISP_TASK (-3)
#define DISP_NPU (-4)
/* DISP_HCCL - card: that card's folded HCCL lanes drawn as one row (view_npu.c), not a lane */
#define DISP_HCCL (-16)

struct view_layout {
	int label_w;            /* lane label column */
	int time_x, time_w;     /* time area */
	int overview_y, axis_y;
	int lanes_y, lanes_h;   /* all lane rows, pinned included */
	int details_y, details_h;
	int status_y;
};

struct fts_view {
	const struct fts_store *store;
	const struct fts_store_info *info;
	struct fts_theme theme;
	struct fts_grid grid;
	char *title;
	uint32_t nlanes;
	uint64_t t_begin, t_end;      /* capture span, t_end > t_begin */

	uint64_t t0, npc;             /* viewport */
	uint64_t cursor;
	int has_marker;
	uint64_t marker;

	/* lanes */
	uint8_t *pinned;              /* per lane */
	uint32_t *pin_order;          /* pinned lanes, oldest pin first */
	uint32_t npins;
	uint8_t *match;               /* per lane: matches the search */
	uint32_t nmatch;
	int filter;
	enum view_sort sort;
	uint64_t *run_ns, *wait_ns;   /* per lane, for sorting; NULL until needed */
	int walked;                   /* wait_ns is filled */
	uint32_t *by_tid;             /* task lanes sorted by interned tid (lazy) */
	uint32_t nby_tid;
	int64_t *disp;                /* display rows: lane id or DISP_* header */
	uint32_t ndisp, npinned_disp; /* rows in disp; of which the pinned block */
	uint32_t sel;                 /* selected lane id */
	uint32_t top;                 /* first scrolled row (index into disp, >= npinned_disp) */

	int export_key;               /* the session binds e to export (help and title say so) */
	int whole;                    /* the view shows the whole capture: kept whole on resize */

	/* modes */
	int help, summary, searching, details_big, focus_details;
	uint32_t help_top, details_top;
	char query[128];
	char edit[128];
	size_t edit_len;
	char message[160];

	/*
	 * the per-task summary: borrowed (fts_view_set_stats) or made from the
	 * store when first opened (view_summary_open) and then owned
	 */
	struct fts_stats *stats;
	struct fts_stats *own_stats;  /* what to free; NULL: none made */
	char stats_why[96];           /* why none could be made ("" until tried) */
	int sum_col, sum_desc;        /* sort column (index into view_summary.c's table) */
	size_t sum_sel, sum_top;

	/*
	 * the NPU group's fold (view_npu.c): a card's HCCL lanes, then its
	 * quietest streams, kept off the screen when the group would take more
	 * than its share of the lane rows, so the dispatch threads stay in view
	 */
	int npu_unfold;               /* z: every NPU lane shown */
	uint8_t *npu_hidden;          /* per lane: folded by the last rebuild */
	uint64_t *npu_busy;           /* per lane: busy ns over the capture (lazy) */
	uint32_t npu_nstream_fold, npu_nhccl_fold; /* what the last rebuild folded */
	int npu_hccl_rows;            /* folded HCCL lanes shown as a row a card (DISP_HCCL) */
	int npu_foldable;             /* the group is over its share (z folds it) */

	/* the Host Bound gaps panel (view_gaps.c): every card's gaps, worst first */
	int gaps;
	struct view_gap *gapv;        /* NULL until first opened */
	size_t ngaps, gap_sel, gap_top;
	/* Tab in it: the per-step table (view_steps.c) */
	int gap_steps;
	struct view_step *stepv;      /* NULL until first shown */
	size_t nsteps, step_sel, step_top;

	/* mouse drag */
	int dragging, drag_x;
	uint64_t drag_t0;

	/* long work asks the caller whether to stop (view_stop) */
	int (*poll)(void *ctx);
	void *poll_ctx;
	uint64_t poll_ms;             /* when it was last asked */
	int stop;                     /* it said stop: the rest of this frame is skipped */
	unsigned test_busy_ms;

	/* per frame */
	struct view_layout lay;
	int64_t *row_lane;            /* grid row -> lane, -1 */
	struct view_row *rows;        /* the visible lanes' buckets, kept (view_rows.c) */
	int nrows;
	struct fts_bucket *rowb;      /* one row of buckets, time_w long */
	int rowb_n;
	uint64_t *rowh;               /* one row's "no data" ns per column (view_nodata_row) */
	int rowh_n;
	double *overview;             /* per time column busy fraction of the whole capture */
	uint8_t *overview_nd;         /* per time column: mostly no data (holes after lost events) */
	int overview_w;
	uint64_t overview_npc;
};

/* view_rows.c */
struct view_row;
/* Ask the store for every visible lane's row of buckets not kept from an earlier frame. */
void view_rows_prepare(struct fts_view *v);
/* @lane's row for the current viewport (time_w buckets), or NULL: ask cell by cell. */
const struct fts_bucket *view_rows_get(struct fts_view *v, uint32_t lane);
/* Forget every kept row. */
void view_rows_free(struct fts_view *v);

/* view_lanes.c */
int view_lanes_init(struct fts_view *v);
void view_lanes_free(struct fts_view *v);
int view_lanes_rebuild(struct fts_view *v);
int64_t view_disp_index(const struct fts_view *v, uint32_t lane);
int64_t view_task_lane(struct fts_view *v, uint32_t tid);
void view_search_apply(struct fts_view *v, const char *q);
/* n / N: select the next / previous task lane matching the search, wrapping as less does. */
void view_search_next(struct fts_view *v, int dir);
void view_toggle_pin(struct fts_view *v);
void view_next_sort(struct fts_view *v);
const char *view_sort_name(enum view_sort s);

/* view_npu.c: the NPU group's rows and header */
void view_npu_cells(struct fts_view *v, int y, uint32_t lane, int ccol);
void view_npu_header(struct fts_view *v, int y);
/*
 * Append the NPU group (its header and the lanes not folded, not pinned) to
 * v->disp at @n; returns the new count. Decides the fold (view_npu.c).
 */
uint32_t view_npu_disp(struct fts_view *v, uint32_t n);
/* The row of card DISP_HCCL - @kind's folded HCCL lanes at @y. */
void view_npu_hccl_row(struct fts_view *v, int y, int64_t kind);
/* A search matched a folded NPU lane: unfold the group; returns 1 when it did. */
int view_npu_reveal(struct fts_view *v);
/* z: fold / unfold the NPU group. */
void view_npu_toggle_fold(struct fts_view *v);

/* view_gaps.c: the gaps panel (b) */
struct view_gap;
void view_gaps_open(struct fts_view *v);
unsigned view_gaps_key(struct fts_view *v, int key);
void view_draw_gaps(struct fts_view *v);
void view_gaps_free(struct fts_view *v);
/* Clamp the panel's selection and scroll to the list and the screen (keys, resize). */
void view_gaps_keep_visible(struct fts_view *v);
/* "preempted 60.7%  sleeping 39.3%": the largest @max categories of @ns, as shares of @whole. */
void view_gaps_cats(const double *ns, double whole, int max, char *buf, size_t n);

/* view_steps.c: the gaps panel's per-step table (Tab) */
struct view_step;
void view_steps_toggle(struct fts_view *v);
unsigned view_steps_key(struct fts_view *v, enum fts_action a);
void view_draw_steps(struct fts_view *v);
void view_steps_free(struct fts_view *v);
void view_steps_keep_visible(struct fts_view *v);

/* view_summary.c */
unsigned view_summary_key(struct fts_view *v, int key);
/* Clamp the summary's selection and scroll to the table and the screen (keys, resize). */
void view_summary_keep_visible(struct fts_view *v);
void view_summary_sort(struct fts_view *v);
/*
 * s: show the summary, its statistics made from the store the first time
 * when none were set (a pass over the items; cancelled by the poll).
 */
void view_summary_open(struct fts_view *v);

/* view_loss.c: loss through the one model (ftscope/loss.h) */
/* The model's entry of @cpu when it lost anything or has a hole, else NULL. */
const struct fts_loss_cpu *view_cpu_loss(const struct fts_view *v, int cpu);
/* " !1719" for a CPU label: the model's words when they fit in @room columns, else short. */
void view_loss_label(const struct fts_view *v, int cpu, int room, char *buf, size_t n);
/* "lost 2877 events (CPU 0: 1719, ...)" or "lost none" for the status line, shorter to fit @room. */
void view_loss_status(const struct fts_view *v, int room, char *buf, size_t n);
/* Time of [@a, @b) covered by "no data" on @lane. */
uint64_t view_nodata_ns(const struct fts_view *v, uint32_t lane, uint64_t a, uint64_t b);
/*
 * The same for every column of a row ([t0 + c*npc, +npc), c < @w) into
 * @hole, in one walk of the lane's holes (per column, a pile of crafted holes
 * made each frame cost holes x columns). Returns 0 or -1 (out of memory).
 */
int view_nodata_row(const struct fts_view *v, uint32_t lane, uint64_t t0, uint64_t npc, int w,
		    uint64_t *hole);
/* The lost-events marker inside the cursor's column on @lane (what its '!' shows), or -1. */
int64_t view_lost_in_column(const struct fts_view *v, uint32_t lane, struct fts_store_item *it);
/* One details line for a lost marker or a hole into @line; 0 when @it is neither. */
int view_loss_details(const struct fts_view *v, uint32_t lane, uint64_t idx,
		      const struct fts_store_item *it, char *line, size_t n);
/* x / X: select the CPU lane of the next / previous loss and put the cursor on it. */
void view_go_loss(struct fts_view *v, int dir);

/* view.c */
/*
 * In long loops: nonzero when the caller asked to stop (see fts_view_opts.poll);
 * asks it at most every VIEW_POLL_MS. view_work_begin starts a unit of work.
 */
#define VIEW_POLL_MS 50
int view_stop(struct fts_view *v);
void view_work_begin(struct fts_view *v);
void view_keep_cursor_visible(struct fts_view *v);
/* Show [@a, @b) across the time area, the cursor at @a. */
void view_show_range(struct fts_view *v, uint64_t a, uint64_t b);
void view_layout(const struct fts_view *v, struct view_layout *l);
/* The lane rows of the usual layout (details small) at the current size. */
int view_lane_rows(const struct fts_view *v);
void view_message(struct fts_view *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
uint32_t view_selected_task(const struct fts_view *v);
int64_t view_item_at_cursor(const struct fts_view *v, struct fts_store_item *it);

/* view_draw.c (lanes, axis) and view_panes.c (details, status, help, summary) */
void view_draw_lanes(struct fts_view *v);
void view_draw_details(struct fts_view *v);
void view_draw_help(struct fts_view *v);
void view_draw_status(struct fts_view *v);
void view_draw_summary(struct fts_view *v);
void view_draw_top(struct fts_view *v);
void view_fmt_dur(const struct fts_view *v, uint64_t ns, char *buf, size_t n);
void view_fmt_rel(const struct fts_view *v, uint64_t t, char *buf, size_t n);

/*
 * Time arithmetic saturates: a crafted capture may span nearly all of 2^64
 * ns, and a sum that wraps turns a bounded loop into an endless one (issue
 * 21: the axis, zoom, pan). Every time computed from the viewport goes
 * through these.
 */
static inline uint64_t view_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static inline uint64_t view_sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static inline uint64_t view_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* The start of time column @c (saturated). */
static inline uint64_t view_col_t(const struct fts_view *v, uint64_t c)
{
	return view_add(v->t0, view_mul(c, v->npc));
}

/* The end of the viewport: the start of the column after the last. */
static inline uint64_t view_t_right(const struct fts_view *v)
{
	return view_col_t(v, (uint64_t)v->lay.time_w);
}

/* The column of @t (>= t0), capped to the time area's width (never wraps an int). */
static inline int view_col_of(const struct fts_view *v, uint64_t t)
{
	uint64_t c = t > v->t0 ? (t - v->t0) / v->npc : 0;

	return c < (uint64_t)v->lay.time_w ? (int)c : v->lay.time_w;
}

/*
 * A capture ends at most this far below 2^64: a viewport one screen wider
 * than the capture then never wraps, whatever the terminal's width.
 */
#define VIEW_T_MAX (UINT64_MAX - (1ull << 32))

/* The theme's style for role @r and glyph @g: the view's drawing shorthands. */
static inline struct fts_style view_style(const struct fts_view *v, enum fts_role r)
{
	return fts_theme_style(&v->theme, r);
}

static inline uint32_t view_glyph(const struct fts_view *v, enum fts_glyph g)
{
	return fts_theme_glyph(&v->theme, g);
}

/* view_cursor_mark - glyph @ch in style @st shown as the time cursor's cell (its colour, a bar on a blank). */
void view_cursor_mark(const struct fts_view *v, uint32_t *ch, struct fts_style *st);

#endif
