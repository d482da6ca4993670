// SPDX-License-Identifier: MIT
/*
 * view_draw.c - (store, viewport, selection) -> cells.
 *
 * Screen, top to bottom: title bar; overview strip of the whole capture
 * (per-CPU busy fraction, viewport marked); time axis (ticks, cursor,
 * marker, profiling window); the lanes (pinned, CPU, task; a label column
 * then one cell per time bucket); the details pane; the status line.
 *
 * A bucket is one fts_store_bucket call, O(log n), so a frame costs
 * rows x columns x log n whatever the zoom; the lane rows are asked for
 * before they are drawn, on two cores, and kept while the viewport stays
 * (view_rows.c). Marks never hide: a lost event
 * always shows '!', an irq under a task underlines its cell and shows '^'
 * on idle, a brief task on an idle CPU shows a thin bar, and a task lane
 * shows the state that covered most of the bucket, with a Runnable wait or a
 * D inside it still marked (see task_cell).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/fmt.h"
#include "core/internal.h"
#include "tui/widgets/keys.h"
#include "tui/preview/view_impl.h"

void view_fmt_dur(const struct fts_view *v, uint64_t ns, char *buf, size_t n)
{
	fts_fmt_ns(ns, FTS_DUR_SPACED, v->theme.utf8, buf, n);
}

/* A time as seconds since the capture's first item, to the nanosecond. */
void view_fmt_rel(const struct fts_view *v, uint64_t t, char *buf, size_t n)
{
	uint64_t d = t >= v->t_begin ? t - v->t_begin : v->t_begin - t;

	snprintf(buf, n, "%s%" PRIu64 ".%09" PRIu64 "s", t >= v->t_begin ? "+" : "-",
		 d / 1000000000, d % 1000000000);
}

/* ---- title, overview, axis ---- */

/*
 * The key bar after the file: as many hints as fit, the most useful first
 * (x only when something was lost, e only where the caller binds it), shown
 * in a fixed order. The file matters more than the hints.
 */
void view_cursor_mark(const struct fts_view *v, uint32_t *ch, struct fts_style *st)
{
	struct fts_style cs = view_style(v, FTS_R_CURSOR);

	/* keep the glyph, show the cursor as its own colour (reverse in mono) */
	st->fg = cs.fg;
	st->bg = cs.bg;
	st->attr |= cs.attr;
	if (*ch == ' ')
		*ch = v->theme.utf8 ? 0x2502 : '|';
}

static void draw_title(struct fts_view *v)
{
	struct fts_grid *g = &v->grid;
	struct fts_style st = view_style(v, FTS_R_TITLE);
	const struct fts_loss *l = fts_store_loss(v->store);
	int loss = fts_loss_any(l) || fts_loss_nodata_ns(l) != 0;
	/* display order; prio: lower goes in first */
	const struct { const char *text; int on, prio; } hints[] = {
		{ "?:help", 1, 0 },     { "/:search", 1, 4 }, { "s:summary", 1, 5 },
		{ "x:next loss", loss, 1 }, { "b:NPU gaps", fts_store_ncards(v->store) > 0, 1 },
		{ "e:export", v->export_key, 3 }, { "q:quit", 1, 2 },
	};
	int n = (int)(sizeof(hints) / sizeof(hints[0])), take[8] = { 0 }, x, room, hw = 0;
	char hint[128];
	size_t o = 0;

	fts_grid_fill(g, 0, 0, g->w, ' ', st);
	x = fts_grid_text(g, 0, 0, g->w, " ftscope preview  ", st);
	room = g->w - x - fts_text_width(v->title, v->theme.utf8) - 1;
	for (int p = 0; p <= 5; p++) {
		for (int i = 0; i < n; i++) {
			int w = (int)strlen(hints[i].text) + 2;

			if (hints[i].on && hints[i].prio == p && hw + w <= room) {
				take[i] = 1;
				hw += w;
			}
		}
	}
	hint[0] = 0;
	for (int i = 0; i < n; i++) {
		if (take[i])
			o += (size_t)snprintf(hint + o, sizeof(hint) - o, " %s ", hints[i].text);
	}
	hw = (int)strlen(hint);
	fts_grid_text(g, x, 0, g->w - x - hw, v->title, st);
	if (hw)
		fts_grid_text(g, g->w - hw, 0, hw, hint, st);
}

/*
 * The holes of a row of @w buckets from @t0 (@npc each) per column, when any
 * bucket has one; NULL when none has (or out of memory: the caller measures
 * per bucket then).
 */
static const uint64_t *row_holes(struct fts_view *v, uint32_t lane, uint64_t t0, uint64_t npc,
				 const struct fts_bucket *b, int w)
{
	int any = 0;

	for (int c = 0; c < w && !any; c++)
		any = (b[c].flags & FTS_BK_NODATA) != 0;
	if (!any)
		return NULL;
	if (v->rowh_n != w) {
		uint64_t *h = realloc(v->rowh, (size_t)w * sizeof(*h));

		if (!h)
			return NULL;
		v->rowh = h;
		v->rowh_n = w;
	}
	return view_nodata_row(v, lane, t0, npc, w, v->rowh) ? NULL : v->rowh;
}

/*
 * Busy fraction of every CPU over whole-capture buckets, computed once per
 * width. Time in a hole after lost events is unknown: it is left out of both
 * the busy time and the time it is a fraction of, and a column that is
 * mostly unknown is marked as such instead of being drawn idle.
 */
static void overview_compute(struct fts_view *v)
{
	int w = v->lay.time_w;
	uint64_t span = v->t_end - v->t_begin;
	uint64_t npc = span / (uint64_t)w + (span % (uint64_t)w != 0), right;
	uint32_t ncpu = 0;
	const uint64_t *holes;
	double *o, *known;
	uint8_t *nd;

	if (v->overview && v->overview_w == w)
		return;
	if (v->rowb_n != w) {
		struct fts_bucket *nb = realloc(v->rowb, (size_t)w * sizeof(*nb));

		if (nb) {
			v->rowb = nb;
			v->rowb_n = w;
		}
	}
	o = calloc((size_t)w, sizeof(*o));
	known = calloc((size_t)w, sizeof(*known));
	nd = calloc((size_t)w, 1);
	if (!o || !known || !nd) {
		free(o);
		free(known);
		free(nd);
		return;
	}
	for (uint32_t l = 0; l < v->nlanes; l++) {
		int row;

		if (fts_store_lane(v->store, l)->group != FTS_GROUP_CPU)
			continue;
		if (view_stop(v)) { /* cut short: not kept, the next frame computes it again */
			free(o);
			free(known);
			free(nd);
			return;
		}
		ncpu++;
		right = view_add(v->t_begin, view_mul((uint64_t)w, npc));
		row = v->rowb_n == w && fts_store_buckets(v->store, l, v->t_begin, right, (uint32_t)w, v->rowb) == 0;
		holes = row ? row_holes(v, l, v->t_begin, npc, v->rowb, w) : NULL;
		for (int c = 0; c < w; c++) {
			struct fts_bucket b;
			uint64_t a = view_add(v->t_begin, view_mul((uint64_t)c, npc)), hole = 0;

			if (row)
				b = v->rowb[c];
			else
				fts_store_bucket(v->store, l, a, view_add(a, npc), &b);
			if (b.flags & FTS_BK_NODATA)
				hole = holes ? holes[c] : view_nodata_ns(v, l, a, view_add(a, npc));
			if (hole > npc)
				hole = npc;
			o[c] += (double)b.busy_ns;
			known[c] += (double)(npc - hole);
		}
	}
	for (int c = 0; c < w && ncpu; c++) {
		/* unknown on more than half of the CPUs' time: say so */
		nd[c] = known[c] * 2 < (double)npc * ncpu;
		o[c] = known[c] > 0 ? o[c] / known[c] : 0;
	}
	free(known);
	free(v->overview);
	free(v->overview_nd);
	v->overview = o;
	v->overview_nd = nd;
	v->overview_w = w;
	v->overview_npc = npc;
}

static void draw_overview(struct fts_view *v)
{
	struct fts_grid *g = &v->grid;
	int y = v->lay.overview_y, x0 = v->lay.time_x;
	uint64_t vend = view_t_right(v);

	fts_grid_text(g, 0, y, v->lay.label_w, "busy (all)", view_style(v, FTS_R_DIM));
	fts_grid_put(g, v->lay.label_w, y, view_glyph(v, FTS_G_VLINE), view_style(v, FTS_R_DIM));
	overview_compute(v);
	if (!v->overview)
		return;
	for (int c = 0; c < v->lay.time_w; c++) {
		uint64_t a = view_add(v->t_begin, view_mul((uint64_t)c, v->overview_npc));
		uint64_t b = view_add(a, v->overview_npc);
		int in_view = a < vend && b > v->t0;
		struct fts_style st = view_style(v, in_view ? FTS_R_VIEWPORT : FTS_R_OVERVIEW);
		uint32_t ch = fts_theme_level(&v->theme, v->overview[c]);

		if (v->overview_nd[c]) {
			ch = view_glyph(v, FTS_G_NODATA);
			if (!in_view)
				st = view_style(v, FTS_R_NODATA);
		}
		/* the viewport must show even over idle: a blank cell becomes a floor mark */
		if (in_view && ch == ' ')
			ch = v->theme.utf8 ? 0x2581 : '_';
		fts_grid_put(g, x0 + c, y, ch, st);
	}
}

/* A 1/2/5 x 10^k step of at least @min ns; 10^19 (the largest that fits) past that. */
static uint64_t nice_step(uint64_t min)
{
	uint64_t s = 1;

	for (; s < 10000000000000000000ull; s *= 10) {
		if (s >= min)
			return s;
		if (2 * s >= min)
			return 2 * s;
		if (5 * s >= min)
			return 5 * s;
	}
	return s;
}

static uint64_t p10(int k)
{
	uint64_t r = 1;

	while (k-- > 0)
		r *= 10;
	return r;
}

static int decimals_for(uint64_t step)
{
	int d = 9;

	while (d > 0 && step % 10 == 0) {
		step /= 10;
		d--;
	}
	return d;
}

static void draw_axis(struct fts_view *v)
{
	struct fts_grid *g = &v->grid;
	int y = v->lay.axis_y, x0 = v->lay.time_x, w = v->lay.time_w;
	uint64_t step = nice_step(view_mul(v->npc, 12)), first, end = view_t_right(v);
	int dec = decimals_for(step), next_free = 0;
	char buf[64];

	view_fmt_dur(v, v->npc, buf, sizeof(buf));
	fts_grid_printf(g, 0, y, v->lay.label_w, view_style(v, FTS_R_AXIS), "%s/col", buf);
	fts_grid_put(g, v->lay.label_w, y, view_glyph(v, FTS_G_VLINE), view_style(v, FTS_R_DIM));
	for (int c = 0; c < w; c++) {
		uint64_t a = view_col_t(v, (uint64_t)c), b = view_add(a, v->npc);
		int in_win = v->info->has_window && a < v->info->win_end && b > v->info->win_begin;

		fts_grid_put(g, x0 + c, y, view_glyph(v, in_win ? FTS_G_WINDOW : FTS_G_HLINE),
			     view_style(v, in_win ? FTS_R_WINDOW : FTS_R_AXIS));
	}
	/* ticks at multiples of step from the capture start */
	first = v->t0 <= v->t_begin ? v->t_begin :
		view_add(v->t_begin, view_mul(view_add(v->t0 - v->t_begin, step - 1) / step, step));
	/* t stops at UINT64_MAX at the latest: the loop ends even where a sum would wrap */
	for (uint64_t t = first; t < end; t = view_add(t, step)) {
		int c = view_col_of(v, t);
		uint64_t d = t - v->t_begin;
		int n;

		if (dec)
			n = snprintf(buf, sizeof(buf), "%" PRIu64 ".%0*" PRIu64 "s", d / 1000000000, dec,
				     (d % 1000000000) / p10(9 - dec));
		else
			n = snprintf(buf, sizeof(buf), "%" PRIu64 "s", d / 1000000000);
		if (c < next_free)
			continue;
		fts_grid_put(g, x0 + c, y, view_glyph(v, FTS_G_TICK), view_style(v, FTS_R_AXIS));
		if (c + 1 + n <= w)
			fts_grid_text(g, x0 + c + 1, y, n, buf, view_style(v, FTS_R_AXIS));
		next_free = c + n + 2;
	}
	if (v->has_marker && v->marker >= v->t0 && v->marker < end)
		fts_grid_put(g, x0 + view_col_of(v, v->marker), y, view_glyph(v, FTS_G_MARKER),
			     view_style(v, FTS_R_MARKER));
	if (v->cursor >= v->t0 && v->cursor < end)
		fts_grid_put(g, x0 + view_col_of(v, v->cursor), y, view_glyph(v, FTS_G_CURSOR),
			     view_style(v, FTS_R_CURSOR));
}

/* ---- lanes ---- */

/* The glyph of a task in CPU lanes: the first letter or digit of its name, stable and readable. */
static uint32_t task_letter(const struct fts_view *v, uint32_t name)
{
	for (const char *p = fts_store_str(v->store, name); *p && *p != ':'; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))
			return (unsigned char)*p;
	}
	return '*'; /* not '?': that is no data */
}

/*
 * A hole after lost events (@hole ns of the bucket) covers half of it, or most
 * of what is not busy: nothing is known there, and the cell says so rather
 * than show idle or a state that was only carried across.
 */
static int mostly_nodata(const struct fts_view *v, const struct fts_bucket *b, uint64_t hole)
{
	uint64_t busy = b->busy_ns < v->npc ? b->busy_ns : v->npc;

	return hole && (view_mul(hole, 2) >= v->npc ||
			(b->top == FTS_STR_NONE && view_mul(hole, 2) >= v->npc - busy));
}

static void cpu_cell(const struct fts_view *v, const struct fts_bucket *b, uint64_t hole,
		     uint32_t sel_task, uint32_t *ch, struct fts_style *st)
{
	*ch = ' ';
	*st = view_style(v, FTS_R_IDLE);
	if (b->flags & FTS_BK_LOST) {
		*ch = view_glyph(v, FTS_G_LOST);
		*st = view_style(v, FTS_R_LOST);
	} else if (mostly_nodata(v, b, hole)) {
		*ch = view_glyph(v, FTS_G_NODATA);
		*st = view_style(v, FTS_R_NODATA);
	} else if (b->top != FTS_STR_NONE) {
		*ch = task_letter(v, b->top);
		*st = fts_theme_task(&v->theme, b->top);
		if (b->flags & (FTS_BK_IRQ | FTS_BK_SOFTIRQ))
			st->attr |= FTS_A_UNDERLINE;
		if (b->top == sel_task)
			st->attr |= FTS_A_REVERSE | FTS_A_BOLD;
	} else if (b->flags & (FTS_BK_IRQ | FTS_BK_SOFTIRQ)) {
		*ch = view_glyph(v, FTS_G_IRQ);
		*st = view_style(v, FTS_R_IRQ);
	} else if (b->flags & FTS_BK_ANY) {
		*ch = view_glyph(v, FTS_G_BRIEF);
		*st = view_style(v, FTS_R_DIM);
	}
}

/*
 * A task-lane cell: the glyph of the state that covered most of the bucket,
 * so a zoomed-out lane keeps its proportions, except that what must never be
 * hidden still shows: any uninterruptible sleep is a D, and a Runnable wait
 * inside a mostly running or mostly sleeping bucket turns it into the
 * "with a wait" glyph of that state (▓, ░).
 */
static void task_cell(const struct fts_view *v, const struct fts_bucket *b, uint64_t hole,
		      int selected, uint32_t *ch, struct fts_style *st)
{
	int waited = (b->flags & FTS_BK_RUNNABLE) != 0;
	enum fts_glyph g;
	enum fts_role r;

	*ch = ' ';
	*st = view_style(v, FTS_R_IDLE);
	if (mostly_nodata(v, b, hole)) {
		g = FTS_G_NODATA;
		r = FTS_R_NODATA;
	} else if (b->flags & FTS_BK_BLOCKED) {
		g = FTS_G_BLOCKED;
		r = FTS_R_BLOCKED;
	} else if (b->top == FTS_ITEM_RUNNABLE) {
		g = FTS_G_RUNNABLE;
		r = FTS_R_RUNNABLE;
	} else if (b->top == FTS_ITEM_RUNNING) {
		g = waited ? FTS_G_RUNNING_WAIT : FTS_G_RUNNING;
		r = FTS_R_RUNNING;
	} else if (b->top == FTS_ITEM_SLEEPING || (b->flags & FTS_BK_SLEEPING)) {
		g = waited ? FTS_G_SLEEPING_WAIT : FTS_G_SLEEPING;
		r = FTS_R_SLEEPING;
	} else if (waited) {
		g = FTS_G_RUNNABLE;
		r = FTS_R_RUNNABLE;
	} else if (b->flags & FTS_BK_RUNNING) {
		g = FTS_G_RUNNING;
		r = FTS_R_RUNNING;
	} else {
		return;
	}
	*ch = view_glyph(v, g);
	*st = view_style(v, r);
	if (selected)
		st->attr |= FTS_A_BOLD;
}

/*
 * "comm:pid" in @maxw columns: when too long, the comm is cut, never the
 * pid, which is what tells two threads of the same name apart.
 */
static void task_label(struct fts_view *v, int x, int y, int maxw, const char *tid,
		       struct fts_style st)
{
	const char *colon = strrchr(tid, ':');
	char comm[256];
	int pw;

	if (!colon || fts_text_width(tid, v->theme.utf8) <= maxw ||
	    (pw = fts_text_width(colon, v->theme.utf8)) >= maxw - 2 ||
	    (size_t)(colon - tid) >= sizeof(comm)) {
		fts_grid_text(&v->grid, x, y, maxw, tid, st);
		return;
	}
	memcpy(comm, tid, (size_t)(colon - tid));
	comm[colon - tid] = 0;
	x += fts_grid_text(&v->grid, x, y, maxw - pw, comm, st);
	fts_grid_text(&v->grid, x, y, pw, colon, st);
}

static void lane_label(struct fts_view *v, int y, uint32_t lane)
{
	const struct fts_store_lane *sl = fts_store_lane(v->store, lane);
	enum fts_role r = lane == v->sel ? FTS_R_LABEL_SEL : v->match[lane] ? FTS_R_MATCH : FTS_R_LABEL;
	struct fts_style st = view_style(v, r);
	int w = v->lay.label_w, x = 0;

	fts_grid_fill(&v->grid, 0, y, w, ' ', st);
	/* a mark that survives without colour: > selected, * pinned, + matches the search */
	/* D: one of the profiler's host (dispatch) threads */
	x += fts_grid_text(&v->grid, x, y, w - x, lane == v->sel ? ">" : v->pinned[lane] ? "*" :
			   v->match[lane] ? "+" : fts_store_dispatch_tid(v->store, lane) >= 0 ? "D" : " ", st);
	if (sl->group == FTS_GROUP_CPU && view_cpu_loss(v, sl->cpu)) {
		char buf[96];
		int n;

		view_loss_label(v, sl->cpu, w - x - fts_text_width(fts_store_str(v->store, sl->tid), 0) - 1,
				buf, sizeof(buf));
		n = (int)strlen(buf);
		x += fts_grid_text(&v->grid, x, y, w - x - n, fts_store_str(v->store, sl->tid), st);
		fts_grid_text(&v->grid, x, y, w - x, buf, view_style(v, lane == v->sel ? r : FTS_R_LOST));
	} else {
		task_label(v, x, y, w - x, fts_store_str(v->store, sl->tid), st);
	}
	fts_grid_put(&v->grid, w, y, view_glyph(v, FTS_G_VLINE), view_style(v, FTS_R_DIM));
}

/* FTS_TEST_BUSY_MS's heavy step: spin (not sleep: a busy process), polling as real work does. */
static void test_busy(struct fts_view *v)
{
	uint64_t end = fts__clock_mono_ms() + v->test_busy_ms;

	while (v->test_busy_ms && fts__clock_mono_ms() < end && !view_stop(v))
		;
}

static void lane_row(struct fts_view *v, int y, uint32_t lane, uint32_t sel_task)
{
	const struct fts_store_lane *sl = fts_store_lane(v->store, lane);
	int cpu = sl->group == FTS_GROUP_CPU, ccol = -1;

	lane_label(v, y, lane);
	v->row_lane[y] = lane;
	if (lane == v->sel && v->cursor >= v->t0)
		ccol = view_col_of(v, v->cursor);
	if (sl->group == FTS_GROUP_NPU) {
		view_npu_cells(v, y, lane, ccol);
		return;
	}
	/* the whole row in one walk of the store's summary; cell by cell if that fails */
	const struct fts_bucket *row = view_rows_get(v, lane);
	const uint64_t *holes = row ? row_holes(v, lane, v->t0, v->npc, row, v->lay.time_w) : NULL;

	for (int c = 0; c < v->lay.time_w; c++) {
		uint64_t a = view_col_t(v, (uint64_t)c), e = view_add(a, v->npc);
		struct fts_bucket b = { 0, FTS_STR_NONE, 0, 0, 0 };
		struct fts_style st;
		uint64_t hole = 0;
		uint32_t ch;

		if (e > v->t_begin && a < v->t_end) {
			if (row)
				b = row[c];
			else
				fts_store_bucket(v->store, lane, a, e, &b);
		}
		/* holes are rare: measure one only where the bucket says there is one */
		if (b.flags & FTS_BK_NODATA)
			hole = holes ? holes[c] : view_nodata_ns(v, lane, a, e);
		if (cpu)
			cpu_cell(v, &b, hole, sel_task, &ch, &st);
		else
			task_cell(v, &b, hole, lane == v->sel, &ch, &st);
		if (c == ccol)
			view_cursor_mark(v, &ch, &st);
		fts_grid_put(&v->grid, v->lay.time_x + c, y, ch, st);
	}
}

struct seg {
	const char *text;
	enum fts_role role;
	int glyph;      /* >= 0: draw this fts_glyph before the text */
};

/* A legend entry left out (no data, on a capture without holes). */
#define SEG_SKIP (-2)

static int draw_segs(struct fts_view *v, int x, int y, const struct seg *s, int n)
{
	for (int i = 0; i < n && x < v->grid.w; i++) {
		if (s[i].glyph == SEG_SKIP)
			continue;
		if (s[i].glyph >= 0)
			fts_grid_put(&v->grid, x++, y, view_glyph(v, (enum fts_glyph)s[i].glyph), view_style(v, s[i].role));
		x += fts_grid_text(&v->grid, x, y, v->grid.w - x, s[i].text,
				   s[i].glyph >= 0 ? view_style(v, FTS_R_DIM) : view_style(v, s[i].role));
	}
	return x;
}

static void header_row(struct fts_view *v, int y, int64_t kind)
{
	/* "no data" joins the legends where it can appear: after lost events */
	int has_holes = fts_loss_nodata_ns(fts_store_loss(v->store)) != 0;
	char title[96];
	uint32_t n = 0;

	if (kind == DISP_NPU) {
		view_npu_header(v, y);
		return;
	}
	if (kind <= DISP_HCCL) {
		view_npu_hccl_row(v, y, kind);
		return;
	}
	for (uint32_t l = 0; l < v->nlanes; l++)
		n += fts_store_lane(v->store, l)->group == (kind == DISP_CPU ? FTS_GROUP_CPU : FTS_GROUP_TASK);
	if (kind == DISP_PINNED) {
		snprintf(title, sizeof(title), "Pinned (%u)  ", v->npins);
		fts_grid_text(&v->grid, 0, y, v->grid.w, title, view_style(v, FTS_R_HEADER));
	} else if (kind == DISP_CPU) {
		struct seg s[] = {
			{ title, FTS_R_HEADER, -1 },
			{ "a-z task (first letter)  ", FTS_R_DIM, -1 },
			{ " irq  ", FTS_R_IRQ, FTS_G_IRQ },
			{ " lost  ", FTS_R_LOST, FTS_G_LOST },
			{ " no data  ", FTS_R_NODATA, has_holes ? FTS_G_NODATA : SEG_SKIP },
			{ " brief task  ", FTS_R_DIM, FTS_G_BRIEF },
			{ "underline: irq inside", FTS_R_DIM, -1 },
		};

		snprintf(title, sizeof(title), "CPU Scheduling (%u)  ", n);
		draw_segs(v, 0, y, s, 7);
	} else {
		struct seg s[] = {
			{ title, FTS_R_HEADER, -1 },
			{ " run ", FTS_R_RUNNING, FTS_G_RUNNING },
			{ " run+wait ", FTS_R_RUNNING, FTS_G_RUNNING_WAIT },
			{ " runnable ", FTS_R_RUNNABLE, FTS_G_RUNNABLE },
			{ " no data ", FTS_R_NODATA, has_holes ? FTS_G_NODATA : SEG_SKIP },
			{ " sleep+wait ", FTS_R_SLEEPING, FTS_G_SLEEPING_WAIT },
			{ " sleep ", FTS_R_SLEEPING, FTS_G_SLEEPING },
			{ " D-state", FTS_R_BLOCKED, FTS_G_BLOCKED },
		};
		char shown[48] = "";

		if (v->filter)
			snprintf(shown, sizeof(shown), ", %u shown", v->nmatch);
		snprintf(title, sizeof(title), "Process Scheduling (%u%s, by %s)  ", n, shown,
			 view_sort_name(v->sort));
		draw_segs(v, 0, y, s, 7);
	}
}

void view_draw_lanes(struct fts_view *v)
{
	int y = v->lay.lanes_y, end = v->lay.lanes_y + v->lay.lanes_h;
	uint32_t sel_task = view_selected_task(v);

	view_rows_prepare(v);
	for (uint32_t i = 0; i < v->npinned_disp && y < end && !view_stop(v); i++, y++) {
		if (v->disp[i] < 0)
			header_row(v, y, v->disp[i]);
		else
			lane_row(v, y, (uint32_t)v->disp[i], sel_task);
	}
	for (uint32_t i = v->top; i < v->ndisp && y < end; i++, y++) {
		test_busy(v);
		if (view_stop(v))
			break;
		if (v->disp[i] < 0)
			header_row(v, y, v->disp[i]);
		else
			lane_row(v, y, (uint32_t)v->disp[i], sel_task);
	}
}

void view_draw_top(struct fts_view *v)
{
	draw_title(v);
	draw_overview(v);
	draw_axis(v);
}

const struct fts_grid *fts_view_draw(struct fts_view *v)
{
	view_work_begin(v);
	fts_grid_clear(&v->grid, view_style(v, FTS_R_NORMAL));
	for (int y = 0; y < v->grid.h; y++)
		v->row_lane[y] = -1;
	view_layout(v, &v->lay);
	if (v->help) {
		view_draw_help(v);
		return &v->grid;
	}
	if (v->summary) {
		view_draw_summary(v);
		return &v->grid;
	}
	if (v->gaps) {
		view_draw_gaps(v);
		return &v->grid;
	}
	view_draw_top(v);
	view_draw_lanes(v);
	view_draw_details(v);
	view_draw_status(v);
	return &v->grid;
}

const struct fts_grid *fts_view_grid(const struct fts_view *v)
{
	return &v->grid;
}
