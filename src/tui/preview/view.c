// SPDX-License-Identifier: MIT
/*
 * view.c - the lane view's state machine: creation, layout, keys and mouse.
 *
 * Handlers only change state and return FTS_RX_* flags; nothing here
 * draws (view_draw.c does, from the state).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "tui/widgets/keys.h"
#include "tui/preview/view_impl.h"

/* Kinds [ and ] step through, per lane group (markers and switches are not items to visit). */
#define CPU_KINDS (FTS_KIND_BIT(FTS_ITEM_RUN) | FTS_KIND_BIT(FTS_ITEM_IRQ) | \
		   FTS_KIND_BIT(FTS_ITEM_SOFTIRQ) | FTS_KIND_BIT(FTS_ITEM_LOST) | \
		   FTS_KIND_BIT(FTS_ITEM_NODATA))
#define TASK_KINDS (FTS_KIND_BIT(FTS_ITEM_RUNNING) | FTS_KIND_BIT(FTS_ITEM_RUNNABLE) | \
		    FTS_KIND_BIT(FTS_ITEM_SLEEPING) | FTS_KIND_BIT(FTS_ITEM_BLOCKED) | \
		    FTS_KIND_BIT(FTS_ITEM_NODATA))

void view_message(struct fts_view *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->message, sizeof(v->message), fmt, ap);
	va_end(ap);
}

void view_work_begin(struct fts_view *v)
{
	v->stop = 0;
	v->poll_ms = fts__clock_mono_ms();
}

int view_stop(struct fts_view *v)
{
	uint64_t now;

	if (v->stop || !v->poll)
		return v->stop;
	now = fts__clock_mono_ms();
	if (now - v->poll_ms < VIEW_POLL_MS)
		return 0;
	v->poll_ms = now;
	v->stop = v->poll(v->poll_ctx) != 0;
	return v->stop;
}

static void layout_for(int w, int h, int details_big, struct view_layout *l)
{
	l->label_w = w / 4;
	if (l->label_w < 12)
		l->label_w = 12;
	if (l->label_w > 28)
		l->label_w = 28;
	if (l->label_w > w / 2)
		l->label_w = w / 2;
	l->time_x = l->label_w + 1;
	l->time_w = w - l->time_x;
	if (l->time_w < 1) {
		l->time_w = 1;
		l->time_x = w - 1;
	}
	l->overview_y = 1;
	l->axis_y = 2;
	l->lanes_y = 3;
	l->status_y = h - 1;
	if (h < 12)
		l->details_h = 0;
	else if (details_big)
		l->details_h = h / 3 > 7 ? h / 3 : 7;
	else
		l->details_h = 4;
	l->details_y = l->status_y - l->details_h;
	l->lanes_h = l->details_y - l->lanes_y;
	if (l->lanes_h < 0)
		l->lanes_h = 0;
}

void view_layout(const struct fts_view *v, struct view_layout *l)
{
	layout_for(v->grid.w, v->grid.h, v->details_big, l);
}

int view_lane_rows(const struct fts_view *v)
{
	struct view_layout l;

	layout_for(v->grid.w, v->grid.h, 0, &l);
	return l.lanes_h;
}

static uint64_t fit_npc(const struct fts_view *v, uint64_t span)
{
	uint64_t w = (uint64_t)v->lay.time_w;

	return span / w + (span % w != 0) + (span == 0);
}

/* Zooming out stops at the whole capture. */
static uint64_t max_npc(const struct fts_view *v)
{
	return fit_npc(v, v->t_end - v->t_begin);
}

/*
 * The viewport stays inside the capture: it never starts before the first
 * event nor ends after the last (a view wider than the capture starts at it).
 */
static void clamp_t0(struct fts_view *v)
{
	uint64_t width = view_mul((uint64_t)v->lay.time_w, v->npc);

	if (v->t0 < v->t_begin || width >= v->t_end - v->t_begin)
		v->t0 = v->t_begin;
	else if (v->t0 > v->t_end - width)
		v->t0 = v->t_end - width;
}

/* Keep the cursor inside the capture and on screen, panning as little as possible. */
void view_keep_cursor_visible(struct fts_view *v)
{
	uint64_t w = (uint64_t)v->lay.time_w;

	if (v->cursor < v->t_begin)
		v->cursor = v->t_begin;
	if (v->cursor >= v->t_end)
		v->cursor = v->t_end - 1;
	if (v->cursor < v->t0)
		v->t0 = v->cursor - (v->cursor - v->t_begin) % v->npc;
	else if ((v->cursor - v->t0) / v->npc >= w)
		v->t0 = view_sub(v->cursor, view_mul(w - 1, v->npc));
	clamp_t0(v);
}

#define keep_cursor_visible view_keep_cursor_visible

/* The viewport shows all of the capture (what a resize keeps). */
static int view_is_whole(const struct fts_view *v)
{
	return v->npc && v->t0 <= v->t_begin && view_t_right(v) >= v->t_end;
}

static int cursor_col(const struct fts_view *v)
{
	return view_col_of(v, v->cursor);
}

/* Zoom to @npc keeping the cursor's column (and so its time) fixed. */
static void zoom_to(struct fts_view *v, uint64_t npc)
{
	int col = cursor_col(v);

	if (npc < 1)
		npc = 1;
	if (npc >= max_npc(v)) {
		if (npc > max_npc(v))
			view_message(v, "the whole capture is shown: zoom out stops here");
		npc = max_npc(v);
	}
	v->npc = npc;
	v->t0 = view_sub(v->cursor, view_mul((uint64_t)col, npc));
	keep_cursor_visible(v);
}

static void show_range(struct fts_view *v, uint64_t a, uint64_t b)
{
	v->npc = fit_npc(v, b > a ? b - a : 1);
	v->t0 = a;
	v->cursor = a;
	keep_cursor_visible(v);
}

void view_show_range(struct fts_view *v, uint64_t a, uint64_t b)
{
	show_range(v, a, b);
}

int fts_view_resize(struct fts_view *v, int w, int h)
{
	int rc, whole = !v->npc || view_is_whole(v);

	if (w < 1)
		w = 1;
	if (h < 1)
		h = 1;
	rc = fts_grid_resize(&v->grid, w, h, v->theme.utf8);
	if (rc)
		return rc;
	free(v->row_lane);
	v->row_lane = calloc((size_t)h, sizeof(*v->row_lane));
	if (!v->row_lane)
		return -ENOMEM;
	view_layout(v, &v->lay);
	view_lanes_rebuild(v); /* the NPU group's share of the rows changed */
	view_summary_keep_visible(v);
	view_gaps_keep_visible(v);
	if (whole) {
		/* a whole view stays whole at any size; the cursor keeps its time */
		uint64_t cur = v->cursor;

		show_range(v, v->t_begin, v->t_end);
		if (v->npc && cur > v->t_begin) {
			v->cursor = cur;
			keep_cursor_visible(v);
		}
	} else {
		zoom_to(v, v->npc); /* same scale; the cursor's time stays on screen */
	}
	return 0;
}

int fts_view_create(const struct fts_store *store, const struct fts_view_opts *o, int w, int h,
		    struct fts_view **out)
{
	struct fts_view *v = calloc(1, sizeof(*v));
	int rc;

	*out = NULL;
	if (!v)
		return -ENOMEM;
	v->store = store;
	v->info = fts_store_info(store);
	v->nlanes = fts_store_nlanes(store);
	/* what lies past VIEW_T_MAX (a crafted file's) is out of reach, not a wrap */
	v->t_begin = v->info->t_begin < VIEW_T_MAX ? v->info->t_begin : VIEW_T_MAX - 1;
	v->t_end = v->info->t_end < VIEW_T_MAX ? v->info->t_end : VIEW_T_MAX;
	if (v->t_end <= v->t_begin)
		v->t_end = v->t_begin + 1;
	fts_theme_init(&v->theme, o->utf8, o->colors, o->no_color);
	v->title = strdup(o->title ? o->title : "");
	if (!v->title) {
		free(v);
		return -ENOMEM;
	}
	v->export_key = o->export_key;
	v->poll = o->poll;
	v->poll_ctx = o->poll_ctx;
	v->test_busy_ms = o->test_busy_ms;
	view_work_begin(v);
	rc = view_lanes_init(v);
	if (!rc)
		rc = fts_view_resize(v, w, h);
	if (rc) {
		fts_view_free(v);
		return rc;
	}
	*out = v;
	return 0;
}

void fts_view_free(struct fts_view *v)
{
	if (!v)
		return;
	view_lanes_free(v);
	view_gaps_free(v);
	fts_stats_free(v->own_stats);
	fts_grid_free(&v->grid);
	free(v->row_lane);
	view_rows_free(v);
	free(v->rowb);
	free(v->rowh);
	free(v->overview);
	free(v->overview_nd);
	free(v->title);
	free(v);
}

/* The selected lane's index in disp, or the first lane's. */
static uint32_t sel_index(const struct fts_view *v)
{
	int64_t i = view_disp_index(v, v->sel);

	return i < 0 ? 0 : (uint32_t)i;
}

/* Rows of the scrolled block that fit below the pinned block. */
static uint32_t scroll_rows(const struct fts_view *v)
{
	int n = v->lay.lanes_h - (int)v->npinned_disp;

	return n > 0 ? (uint32_t)n : 0;
}

static void keep_sel_visible(struct fts_view *v)
{
	uint32_t i = sel_index(v), rows = scroll_rows(v);

	if (i < v->npinned_disp || rows == 0)
		return;
	if (i < v->top)
		v->top = i;
	else if (i >= v->top + rows)
		v->top = i - rows + 1;
	/* a group header right above the first shown lane comes along */
	if (v->top > v->npinned_disp && v->disp[v->top - 1] < 0 && i < v->top + rows - 1)
		v->top--;
}

static void move_sel(struct fts_view *v, int delta)
{
	int64_t i = sel_index(v);
	int dir = delta < 0 ? -1 : 1;
	int steps = delta < 0 ? -delta : delta;

	while (steps > 0) {
		int64_t j = i + dir;

		while (j >= 0 && j < (int64_t)v->ndisp && v->disp[j] < 0)
			j += dir;
		if (j < 0 || j >= (int64_t)v->ndisp)
			break;
		i = j;
		steps--;
	}
	if (v->disp[i] >= 0)
		v->sel = (uint32_t)v->disp[i];
	keep_sel_visible(v);
}

static uint32_t lane_kinds(const struct fts_view *v, uint32_t lane)
{
	return fts_store_lane(v->store, lane)->group != FTS_GROUP_TASK ? CPU_KINDS : TASK_KINDS;
}

int64_t view_item_at_cursor(const struct fts_view *v, struct fts_store_item *it)
{
	int64_t idx;

	/* a '!' under the cursor is what the user points at, not the run it sits in */
	if (fts_store_lane(v->store, v->sel)->group == FTS_GROUP_CPU &&
	    (idx = view_lost_in_column(v, v->sel, it)) >= 0)
		return idx;
	idx = fts_store_find(v->store, v->sel, v->cursor, lane_kinds(v, v->sel));

	if (idx < 0 || fts_store_item(v->store, v->sel, (uint64_t)idx, it))
		return -1;
	return idx;
}

/* The task the user is looking at: the selected task lane, or who runs under the cursor. */
uint32_t view_selected_task(const struct fts_view *v)
{
	const struct fts_store_lane *sl = fts_store_lane(v->store, v->sel);
	struct fts_store_item it;

	if (sl->group == FTS_GROUP_TASK)
		return sl->tid;
	if (view_item_at_cursor(v, &it) >= 0 && it.kind == FTS_ITEM_RUN &&
	    v->cursor >= it.ts && v->cursor < view_add(it.ts, it.dur ? it.dur : 1))
		return it.name;
	return FTS_STR_NONE;
}

static void go_item(struct fts_view *v, int dir)
{
	struct fts_store_item it;
	int64_t idx = view_item_at_cursor(v, &it);
	uint32_t kinds = lane_kinds(v, v->sel);

	if (idx < 0) {
		view_message(v, "this lane has no items");
		return;
	}
	if (!((dir > 0 && it.ts > v->cursor) || (dir < 0 && it.ts < v->cursor)))
		idx = fts_store_step(v->store, v->sel, (uint64_t)idx, dir, kinds);
	if (idx < 0 || fts_store_item(v->store, v->sel, (uint64_t)idx, &it)) {
		view_message(v, dir > 0 ? "last item of the lane" : "first item of the lane");
		return;
	}
	v->cursor = it.ts;
	keep_cursor_visible(v);
}

/*
 * n / N: the selected task's next or previous run. On a CPU lane the task is
 * the one under the cursor and its runs are looked up on its own task lane
 * (O(1) steps there instead of a walk over every other task's slices).
 */
static void go_run(struct fts_view *v, int dir)
{
	uint32_t task = view_selected_task(v), kinds = FTS_KIND_BIT(FTS_ITEM_RUNNING);
	int64_t lane = task == FTS_STR_NONE ? -1 : view_task_lane(v, task), idx;
	struct fts_store_item it;

	if (lane < 0) {
		view_message(v, "no task selected: put the cursor on a run or select a task lane");
		return;
	}
	idx = fts_store_find(v->store, (uint32_t)lane, v->cursor, kinds);
	while (idx >= 0 && !fts_store_item(v->store, (uint32_t)lane, (uint64_t)idx, &it)) {
		if (dir > 0 ? it.ts > v->cursor : it.ts < v->cursor) {
			v->cursor = it.ts;
			keep_cursor_visible(v);
			return;
		}
		idx = fts_store_step(v->store, (uint32_t)lane, (uint64_t)idx, dir, kinds);
	}
	view_message(v, dir > 0 ? "no later run of this task" : "no earlier run of this task");
}

/* Pan by @cols columns, the cursor moving along; the view never leaves the capture. */
static void pan(struct fts_view *v, int64_t cols)
{
	uint64_t d = view_mul((uint64_t)(cols < 0 ? -cols : cols), v->npc), t0 = v->t0;

	if (cols < 0)
		v->t0 = v->t0 > view_add(v->t_begin, d) ? v->t0 - d : v->t_begin;
	else
		v->t0 = view_add(v->t0, d) < v->t_end ? v->t0 + d : v->t_end;
	clamp_t0(v);
	if (v->t0 == t0) {
		view_message(v, cols < 0 ? "at the start of the capture" : "at the end of the capture");
		return;
	}
	if (v->t0 < t0)
		v->cursor = view_sub(v->cursor, t0 - v->t0);
	else
		v->cursor = view_add(v->cursor, v->t0 - t0);
	keep_cursor_visible(v);
}

static unsigned search_key(struct fts_view *v, int key)
{
	if (key == FTS_KEY_ENTER) {
		v->searching = 0;
		v->edit[v->edit_len] = 0;
		view_search_apply(v, v->edit);
		keep_sel_visible(v); /* the match may be far down, or an NPU lane just unfolded */
	} else if (key == FTS_KEY_ESC) {
		v->searching = 0;
	} else if (key == FTS_KEY_BACKSPACE || key == FTS_KEY_CTRL('h')) {
		if (v->edit_len)
			v->edit[--v->edit_len] = 0;
	} else if (key == FTS_KEY_CTRL('u')) {
		v->edit_len = 0;
		v->edit[0] = 0;
	} else if (key >= 0x20 && key < 0x7f && v->edit_len + 1 < sizeof(v->edit)) {
		v->edit[v->edit_len++] = (char)key;
		v->edit[v->edit_len] = 0;
	}
	return FTS_RX_REDRAW;
}

static unsigned overlay_key(struct fts_view *v, int key, uint32_t *top)
{
	enum fts_action a = fts_key_action(key);

	if (a == FTS_ACT_QUIT || a == FTS_ACT_HELP) {
		v->help = 0; /* back to what was under it: the lanes or the summary */
	} else if (a == FTS_ACT_DOWN) {
		(*top)++;
	} else if (a == FTS_ACT_UP && *top) {
		(*top)--;
	} else if (a == FTS_ACT_PGDN) {
		*top += 10;
	} else if (a == FTS_ACT_PGUP) {
		*top = *top > 10 ? *top - 10 : 0;
	} else if (a == FTS_ACT_START) {
		*top = 0;
	} else if (a == FTS_ACT_END) {
		*top = UINT32_MAX / 2; /* the draw stops it at the last screenful */
	}
	return FTS_RX_REDRAW;
}

static unsigned details_key(struct fts_view *v, enum fts_action a)
{
	if (a == FTS_ACT_DOWN)
		v->details_top++;
	else if (a == FTS_ACT_UP && v->details_top)
		v->details_top--;
	else if (a == FTS_ACT_PANE || a == FTS_ACT_QUIT)
		v->focus_details = 0;
	else
		return 0;
	return FTS_RX_REDRAW;
}

/* Moves of the cursor, the selection and the viewport; returns 0 when @a is none of them. */
static int move_action(struct fts_view *v, enum fts_action a)
{
	uint32_t page = v->lay.lanes_h > 3 ? (uint32_t)v->lay.lanes_h - 2 : 1;

	switch (a) {
	case FTS_ACT_LEFT:
		v->cursor = v->cursor >= view_add(v->t_begin, v->npc) ? v->cursor - v->npc : v->t_begin;
		if (v->cursor < v->t0)
			v->t0 = view_sub(v->t0, v->npc);
		keep_cursor_visible(v);
		break;
	case FTS_ACT_RIGHT:
		if (view_add(v->cursor, v->npc) < v->t_end)
			v->cursor += v->npc;
		keep_cursor_visible(v);
		break;
	case FTS_ACT_UP: move_sel(v, -1); break;
	case FTS_ACT_DOWN: move_sel(v, 1); break;
	case FTS_ACT_PGUP: move_sel(v, -(int)page); break;
	case FTS_ACT_PGDN: move_sel(v, (int)page); break;
	case FTS_ACT_PAN_LEFT: pan(v, -(v->lay.time_w / 2)); break;
	case FTS_ACT_PAN_RIGHT: pan(v, v->lay.time_w / 2); break;
	case FTS_ACT_ZOOM_IN: zoom_to(v, v->npc / 2); break;
	case FTS_ACT_ZOOM_OUT: zoom_to(v, view_mul(v->npc, 2)); break;
	case FTS_ACT_ZOOM_FIT: show_range(v, v->t_begin, v->t_end); break;
	case FTS_ACT_START: v->cursor = v->t_begin; v->t0 = v->t_begin; keep_cursor_visible(v); break;
	case FTS_ACT_END:
		v->cursor = v->t_end - 1;
		keep_cursor_visible(v);
		break;
	case FTS_ACT_WINDOW:
		if (!v->info->has_window)
			view_message(v, "no profiling window: open a trace with the profiling data directory");
		else
			show_range(v, v->info->win_begin, v->info->win_end);
		break;
	case FTS_ACT_PREV_ITEM: go_item(v, -1); break;
	case FTS_ACT_NEXT_ITEM: go_item(v, 1); break;
	case FTS_ACT_NEXT_RUN: go_run(v, 1); break;
	case FTS_ACT_PREV_RUN: go_run(v, -1); break;
	case FTS_ACT_NEXT_LOSS: view_go_loss(v, 1); break;
	case FTS_ACT_PREV_LOSS: view_go_loss(v, -1); break;
	case FTS_ACT_NEXT_MATCH: view_search_next(v, 1); break;
	case FTS_ACT_PREV_MATCH: view_search_next(v, -1); break;
	default: return 0;
	}
	return 1;
}

static void filter_action(struct fts_view *v)
{
	if (!v->query[0]) {
		view_message(v, "nothing to filter by: search first (/)");
		return;
	}
	v->filter = !v->filter;
	view_lanes_rebuild(v);
	keep_sel_visible(v);
	view_message(v, v->filter ? "showing only task lanes matching '%s'" : "filter off%s",
		     v->filter ? v->query : "");
}

static unsigned action(struct fts_view *v, enum fts_action a)
{
	if (move_action(v, a))
		return FTS_RX_REDRAW;
	switch (a) {
	case FTS_ACT_QUIT:
		if (!v->details_big)
			return FTS_RX_QUIT;
		v->details_big = 0;
		view_layout(v, &v->lay);
		break;
	case FTS_ACT_HELP: v->help = 1; v->help_top = 0; break;
	case FTS_ACT_PANE:
		v->focus_details = !v->focus_details && v->lay.details_h > 0;
		break;
	case FTS_ACT_DETAILS:
		v->details_big = !v->details_big;
		v->details_top = 0;
		view_layout(v, &v->lay);
		keep_sel_visible(v);
		break;
	case FTS_ACT_SEARCH:
		v->searching = 1;
		v->edit[0] = 0;
		v->edit_len = 0;
		break;
	case FTS_ACT_FILTER: filter_action(v); break;
	case FTS_ACT_PIN:
		view_toggle_pin(v);
		keep_sel_visible(v);
		break;
	case FTS_ACT_SORT: view_next_sort(v); keep_sel_visible(v); break;
	case FTS_ACT_MARK:
		if (v->has_marker && v->marker == v->cursor) {
			v->has_marker = 0;
			view_message(v, "marker cleared");
		} else {
			v->has_marker = 1;
			v->marker = v->cursor;
		}
		break;
	case FTS_ACT_SUMMARY: view_summary_open(v); break;
	case FTS_ACT_GAPS: view_gaps_open(v); break;
	case FTS_ACT_FOLD: view_npu_toggle_fold(v); keep_sel_visible(v); break;
	case FTS_ACT_REDRAW: return FTS_RX_REDRAW | FTS_RX_CLEAR;
	default: return 0;
	}
	return FTS_RX_REDRAW;
}

unsigned fts_view_key(struct fts_view *v, int key)
{
	enum fts_action a;
	unsigned r;

	v->message[0] = 0;
	view_work_begin(v);
	if (v->searching)
		return search_key(v, key);
	if (v->help)
		return overlay_key(v, key, &v->help_top);
	if (v->summary) {
		r = view_summary_key(v, key);
		keep_sel_visible(v); /* Enter may have picked a lane far down */
		return r;
	}
	if (v->gaps) {
		r = view_gaps_key(v, key);
		keep_sel_visible(v); /* Enter moved the view to a gap */
		return r;
	}
	a = fts_key_action(key);
	if (v->focus_details && (r = details_key(v, a)))
		return r;
	r = action(v, a);
	keep_sel_visible(v);
	return r;
}

unsigned fts_view_mouse(struct fts_view *v, enum fts_mouse ev, int x, int y)
{
	int64_t lane = fts_view_lane_at_row(v, y);
	int col = x - v->lay.time_x;

	if (v->help || v->summary || v->searching || v->gaps)
		return 0;
	view_work_begin(v);
	switch (ev) {
	case FTS_MOUSE_CLICK:
		if (lane >= 0)
			v->sel = (uint32_t)lane;
		if (col >= 0 && col < v->lay.time_w) {
			v->cursor = view_col_t(v, (uint64_t)col);
			keep_cursor_visible(v);
			v->dragging = 1;
			v->drag_x = x;
			v->drag_t0 = v->t0;
		}
		return FTS_RX_REDRAW;
	case FTS_MOUSE_DRAG:
		if (!v->dragging)
			return 0;
		{
			int64_t dx = v->drag_x - x;
			uint64_t d = view_mul((uint64_t)(dx < 0 ? -dx : dx), v->npc);

			v->t0 = dx < 0 ? view_sub(v->drag_t0, d) : view_add(v->drag_t0, d);
			if (v->t0 >= v->t_end)
				v->t0 = v->t_end - 1;
			if (v->cursor < v->t0)
				v->cursor = v->t0;
			else if ((v->cursor - v->t0) / v->npc >= (uint64_t)v->lay.time_w)
				v->cursor = view_col_t(v, (uint64_t)(v->lay.time_w - 1));
			keep_cursor_visible(v);
		}
		return FTS_RX_REDRAW;
	case FTS_MOUSE_RELEASE:
		v->dragging = 0;
		return 0;
	case FTS_MOUSE_WHEEL_UP:
	case FTS_MOUSE_WHEEL_DOWN:
		if (col >= 0 && col < v->lay.time_w) {
			v->cursor = view_col_t(v, (uint64_t)col);
			keep_cursor_visible(v);
		}
		zoom_to(v, ev == FTS_MOUSE_WHEEL_UP ? v->npc / 2 : view_mul(v->npc, 2));
		return FTS_RX_REDRAW;
	}
	return 0;
}

void fts_view_set_stats(struct fts_view *v, struct fts_stats *st)
{
	v->stats = st;
	v->sum_col = 2; /* runnable: the triage question first */
	v->sum_desc = 1;
	view_summary_sort(v);
}

void fts_view_state(const struct fts_view *v, struct fts_view_state *st)
{
	st->t0 = v->t0;
	st->ns_per_col = v->npc;
	st->cursor = v->cursor;
	st->has_marker = v->has_marker;
	st->marker = v->marker;
	st->lane = v->sel;
	st->time_x = v->lay.time_x;
	st->time_w = v->lay.time_w;
	st->lanes_y = v->lay.lanes_y;
	st->lanes_h = v->lay.lanes_h;
	st->help = v->help;
	st->searching = v->searching;
	st->summary = v->summary;
	st->gaps = v->gaps;
	st->details_big = v->details_big;
	st->filter = v->filter;
	st->focus_details = v->focus_details;
	st->matches = v->nmatch;
	st->message = v->message;
}

int64_t fts_view_lane_at_row(const struct fts_view *v, int y)
{
	if (y < 0 || y >= v->grid.h || !v->row_lane)
		return -1;
	return v->row_lane[y];
}
