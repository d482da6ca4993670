// SPDX-License-Identifier: MIT
/*
 * view_panes.c - the panes around the lanes: details of the item under the
 * cursor, the status line (or the search prompt) and the help screen.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tui/widgets/keys.h"
#include "tui/preview/view_impl.h"

#define MAX_LINES 40
#define LINE_LEN 512

static const char *kind_name(enum fts_item_kind k)
{
	static const char *const n[FTS_ITEM__COUNT] = {
		[FTS_ITEM_RUN] = "run", [FTS_ITEM_SWITCH] = "switch", [FTS_ITEM_IRQ] = "irq",
		[FTS_ITEM_SOFTIRQ] = "softirq", [FTS_ITEM_LOST] = "lost events",
		[FTS_ITEM_RUNNING] = "Running", [FTS_ITEM_RUNNABLE] = "Runnable",
		[FTS_ITEM_SLEEPING] = "Sleeping (S)", [FTS_ITEM_BLOCKED] = "Sleeping (D, uninterruptible)",
		[FTS_ITEM_MARKER] = "marker", [FTS_ITEM_NODATA] = "no data (events lost)",
	};

	return (unsigned)k < FTS_ITEM__COUNT && n[k] ? n[k] : "?";
}

/* The run slice before or after item @idx on a CPU lane, as "name (dur)". */
static void neighbour(const struct fts_view *v, uint64_t idx, int dir, char *buf, size_t n)
{
	struct fts_store_item it;
	int64_t j = fts_store_step(v->store, v->sel, idx, dir, FTS_KIND_BIT(FTS_ITEM_RUN));
	char d[32];

	if (j < 0 || fts_store_item(v->store, v->sel, (uint64_t)j, &it)) {
		snprintf(buf, n, "-");
		return;
	}
	view_fmt_dur(v, it.dur, d, sizeof(d));
	snprintf(buf, n, "%s (%s)", fts_store_str(v->store, it.name), d);
}

/*
 * Build the details as lines of raw text (task names included; the grid
 * writer escapes them). Returns the number of lines.
 */
static int details_lines(const struct fts_view *v, char lines[][LINE_LEN], int max)
{
	const struct fts_store_lane *sl = fts_store_lane(v->store, v->sel);
	struct fts_store_item it;
	int64_t idx = view_item_at_cursor(v, &it);
	char start[48], dur[32], args_buf[2048], cpu[24] = "";
	struct fts_arg args[FTS_ITEM_MAX_ARGS];
	int n = 0, nargs;

	if (sl->group == FTS_GROUP_TASK) {
		char host[96] = "";

		if (sl->host_pid >= 0 && sl->host_pid != sl->pid)
			snprintf(host, sizeof(host), "  host pid %d", sl->host_pid);
		int32_t dtid = fts_store_dispatch_tid(v->store, v->sel);

		if (dtid >= 0)
			snprintf(host + strlen(host), sizeof(host) - strlen(host), "  dispatch (profiler tid %d)", dtid);
		snprintf(lines[n++], LINE_LEN, "task %s  pid %d%s", fts_store_str(v->store, sl->tid),
			 sl->pid, host);
	} else if (sl->group == FTS_GROUP_NPU) {
		snprintf(lines[n++], LINE_LEN, "%s  %" PRIu64 " device tasks (the profiler's trace_view.json or DB)",
			 fts_store_str(v->store, sl->tid), sl->nitems);
	} else {
		const struct fts_loss_cpu *c = view_cpu_loss(v, sl->cpu);
		char lost[128] = "none", more[64] = "";

		if (c) {
			char d[24] = "";

			fts_loss_cpu_text(c, lost, sizeof(lost));
			if (c->nodata_ns)
				view_fmt_dur(v, c->nodata_ns, d, sizeof(d));
			snprintf(more, sizeof(more), " (%" PRIu64 " drop%s%s%s)", sl->lost_marks,
				 sl->lost_marks == 1 ? "" : "s", d[0] ? ", no data for " : "", d);
		}
		snprintf(lines[n++], LINE_LEN, "%s  %" PRIu64 " items  lost %s%s",
			 fts_store_str(v->store, sl->tid), sl->nitems, lost, more);
	}
	if (idx < 0) {
		snprintf(lines[n++], LINE_LEN, "no items on this lane");
		return n;
	}
	view_fmt_rel(v, it.ts, start, sizeof(start));
	view_fmt_dur(v, it.dur, dur, sizeof(dur));
	/* run slices are named after their task; other items after their kind */
	if (sl->group != FTS_GROUP_NPU) /* a device task runs on no CPU */
		snprintf(cpu, sizeof(cpu), "  CPU %d", it.cpu);
	snprintf(lines[n++], LINE_LEN, "%s%s%s%s%s  start %s  dur %s",
		 (v->cursor >= it.ts && v->cursor < view_add(it.ts, it.dur ? it.dur : 1)) ? "" : "nearest: ",
		 sl->group == FTS_GROUP_NPU ? "kernel" : kind_name(it.kind), it.kind == FTS_ITEM_RUN ? " " : "",
		 it.kind == FTS_ITEM_RUN ? fts_store_str(v->store, it.name) : "", cpu, start, dur);
	if (n < max && view_loss_details(v, v->sel, (uint64_t)idx, &it, lines[n], LINE_LEN))
		n++;
	if (it.kind == FTS_ITEM_RUN && n < max) {
		char before[200], after[200];

		neighbour(v, (uint64_t)idx, -1, before, sizeof(before));
		neighbour(v, (uint64_t)idx, 1, after, sizeof(after));
		snprintf(lines[n++], LINE_LEN, "before: %s  after: %s", before, after);
	}
	nargs = fts_store_args(v->store, v->sel, (uint64_t)idx, args, FTS_ITEM_MAX_ARGS, args_buf,
			       sizeof(args_buf));
	if (nargs > 0 && !v->details_big && n < max) {
		size_t o = 0;

		o += (size_t)snprintf(lines[n], LINE_LEN, "args:");
		for (int i = 0; i < nargs && o < LINE_LEN; i++)
			o += (size_t)snprintf(lines[n] + o, LINE_LEN - o, " %s=%s", args[i].key, args[i].val);
		n++;
	}
	for (int i = 0; v->details_big && i < nargs && n < max; i++)
		snprintf(lines[n++], LINE_LEN, "  %-18s %s", args[i].key, args[i].val);
	return n;
}

void view_draw_details(struct fts_view *v)
{
	char lines[MAX_LINES][LINE_LEN];
	struct fts_grid *g = &v->grid;
	int y = v->lay.details_y, h = v->lay.details_h, n;
	struct fts_style st = view_style(v, FTS_R_DETAILS);
	uint32_t hl = fts_theme_glyph(&v->theme, FTS_G_HLINE);

	if (h <= 0)
		return;
	fts_grid_fill(g, 0, y, g->w, hl, view_style(v, v->focus_details ? FTS_R_HEADER : FTS_R_DIM));
	fts_grid_text(g, 2, y, g->w - 4,
		      v->focus_details ? " Details (Tab: back to lanes, j/k scroll) " :
		      v->details_big ? " Details (Enter: smaller) " : " Details (Enter: more) ",
		      view_style(v, FTS_R_HEADER));
	n = details_lines(v, lines, MAX_LINES);
	if (v->details_top >= (uint32_t)n)
		v->details_top = n ? (uint32_t)n - 1 : 0;
	for (int i = 1; i < h; i++) {
		int li = (int)v->details_top + i - 1;

		fts_grid_fill(g, 0, y + i, g->w, ' ', st);
		if (li < n)
			fts_grid_text(g, 1, y + i, g->w - 1, lines[li], st);
	}
}

/* Append " | @seg" to @line when it fits in @w columns (segments come in priority order). */
static void add_seg(const struct fts_view *v, char *line, size_t n, int w, const char *seg)
{
	size_t len = strlen(line);

	if (!seg[0] || len + strlen(seg) + 3 >= n)
		return;
	snprintf(line + len, n - len, "%s%s", len ? " | " : "", seg);
	if (fts_text_width(line, v->theme.utf8) > w)
		line[len] = 0;
}

void view_draw_status(struct fts_view *v)
{
	struct fts_grid *g = &v->grid;
	int y = v->lay.status_y, x = 0;
	struct fts_style st = view_style(v, FTS_R_STATUS);
	char span[32], zoom[32], cur[48], lost[160], win[128] = "", mark[64] = "", view[96];
	char events[48], line[1024] = "";
	const char *file = strrchr(v->title, '/') ? strrchr(v->title, '/') + 1 : v->title;

	fts_grid_fill(g, 0, y, g->w, ' ', st);
	if (v->searching) {
		x = fts_grid_text(g, 0, y, g->w, "/", st);
		x += fts_grid_text(g, x, y, g->w - x - 30, v->edit, st);
		fts_grid_put(g, x++, y, '_', view_style(v, FTS_R_CURSOR));
		fts_grid_text(g, x + 2, y, g->w - x - 2, "Enter: jump  Esc: cancel", view_style(v, FTS_R_DIM));
		return;
	}
	if (v->message[0]) {
		x = fts_grid_text(g, 0, y, g->w, v->message, view_style(v, FTS_R_HEADER));
		x += fts_grid_text(g, x, y, g->w - x, "  ", st);
	}
	view_fmt_dur(v, v->t_end - v->t_begin, span, sizeof(span));
	{
		/* what is on screen of the capture: never more than all of it */
		uint64_t a = v->t0 > v->t_begin ? v->t0 : v->t_begin;
		uint64_t b = view_t_right(v);

		if (b > v->t_end)
			b = v->t_end;
		view_fmt_dur(v, b > a ? b - a : 0, zoom, sizeof(zoom));
	}
	snprintf(view, sizeof(view), "view %s of %s", zoom, span);
	view_fmt_rel(v, v->cursor, cur + 7, sizeof(cur) - 7);
	memcpy(cur, "cursor ", 7);
	/* loss comes right after the file name and must show: shortened rather than left out */
	view_loss_status(v, g->w - x - fts_text_width(file, v->theme.utf8) - 3, lost, sizeof(lost));
	snprintf(events, sizeof(events), "%" PRIu64 " events", v->info->events);
	if (v->info->has_window) {
		char a[48], b[48];

		view_fmt_rel(v, v->info->win_begin, a, sizeof(a));
		view_fmt_rel(v, v->info->win_end, b, sizeof(b));
		snprintf(win, sizeof(win), "window %s..%s", a, b);
	}
	if (v->has_marker) {
		char d[32];
		uint64_t dt = v->cursor > v->marker ? v->cursor - v->marker : v->marker - v->cursor;

		view_fmt_dur(v, dt, d, sizeof(d));
		snprintf(mark, sizeof(mark), "marker%s%s", v->cursor >= v->marker ? " +" : " -", d);
	}
	/* what matters most first; what does not fit is left out whole, not cut */
	add_seg(v, line, sizeof(line), g->w - x, file);
	add_seg(v, line, sizeof(line), g->w - x, lost);
	add_seg(v, line, sizeof(line), g->w - x, mark);
	add_seg(v, line, sizeof(line), g->w - x, view);
	add_seg(v, line, sizeof(line), g->w - x, cur);
	add_seg(v, line, sizeof(line), g->w - x, win);
	add_seg(v, line, sizeof(line), g->w - x, events);
	fts_grid_text(g, x, y, g->w - x, line, st);
}

/* The help's text lines, before wrapping: a key column (may be "") and its text. */
struct help_row {
	char keys[32];
	const char *text;
	enum fts_role role;
};

static const char *const legend[] = {
	"CPU lanes: each column is a time bucket; the letter is the task that ran most of it (its first letter, in its own colour); '!' lost events; '?' no data (a hole after lost events: nothing is known there, it counts as neither idle nor busy); '^' irq/softirq on an idle CPU; underlined: an irq inside the bucket; a thin bar: a short task on an idle CPU. A CPU label's !N is the events that CPU lost (N+ or 'at least': some drops had no size).",
	"Task lanes: the state that covered most of the bucket (running, runnable, sleeping); a wait for a CPU inside a mostly running/sleeping bucket shows as run+wait/sleep+wait, any uninterruptible sleep as D, and a hole after lost events as '?', so nothing short is hidden.",
	"Details: the item under the cursor; on a '!' or '?' how many events were lost there and on that CPU in all, and how long the hole is.",
	"Search (/): n and N go to the next and previous matching task, wrapping at the ends as less does; f shows only the matches.",
	"Mouse: click selects a lane and moves the cursor; wheel zooms; drag pans.",
	"Top strip: busy fraction of all CPUs over the whole capture, holes left out ('?' where most of a column is unknown); the viewport is marked.",
	"Axis: seconds since the capture's first event; cursor, M marker, = profiling window.",
};

/* Every key of the view (from its key table) and of the summary, then the legend. */
static int help_rows(const struct fts_view *v, struct help_row *r, int max)
{
	int n = 0;

	for (size_t i = 0; i < fts_view_keys.n && n < max; i++, n++) {
		fts_bind_keys(&fts_view_keys, i, r[n].keys, sizeof(r[n].keys));
		r[n].text = fts_view_keys.b[i].help;
		r[n].role = FTS_R_NORMAL;
	}
	if (v->export_key && n < max) {
		snprintf(r[n].keys, sizeof(r[n].keys), "e");
		r[n].text = "export this capture for MindStudio Insight";
		r[n++].role = FTS_R_NORMAL;
	}
	if (n + 2 <= max) {
		snprintf(r[n].keys, sizeof(r[n].keys), "in summary (s)");
		r[n].text = "Left/Right: sort by another column; r: reverse; Enter: go to the task's lane; j/k, PgUp/PgDn, g/G: move; q or s: back to the lanes";
		r[n++].role = FTS_R_NORMAL;
		r[n].keys[0] = 0;
		r[n].text = "";
		r[n++].role = FTS_R_DIM;
	}
	for (size_t i = 0; i < sizeof(legend) / sizeof(legend[0]) && n < max; i++, n++) {
		r[n].keys[0] = 0;
		r[n].text = legend[i];
		r[n].role = FTS_R_DIM;
	}
	return n;
}

/*
 * The next line of @text that fits @w columns: its byte length, breaking at
 * the last space (or mid-word when a word is longer); *@next is where the
 * following line starts. The help's texts are ASCII.
 */
static size_t wrap_line(const char *text, int w, const char **next)
{
	size_t len = strlen(text), cut;

	if (w < 1)
		w = 1;
	if (len <= (size_t)w) {
		*next = text + len;
		return len;
	}
	cut = (size_t)w;
	while (cut > 0 && text[cut] != ' ')
		cut--;
	if (cut == 0)
		cut = (size_t)w;
	*next = text + cut;
	while (**next == ' ')
		(*next)++;
	return cut;
}

/* Lines the help takes at width @w (keys in a column of @kw), drawing those from @top when @draw. */
static int help_layout(struct fts_view *v, int kw, int top, int draw)
{
	struct help_row rows[FTS_ACT__COUNT + 16];
	struct fts_grid *g = &v->grid;
	int n = help_rows(v, rows, (int)(sizeof(rows) / sizeof(rows[0]))), line = 0;
	int tx = kw + 2, y;

	for (int i = 0; i < n; i++) {
		const char *p = rows[i].text, *next;
		int first = 1, x0 = rows[i].keys[0] ? tx : 1, w = g->w - x0 - 1;

		do {
			char buf[LINE_LEN];
			size_t len = wrap_line(p, w, &next);

			if (len >= sizeof(buf))
				len = sizeof(buf) - 1;
			memcpy(buf, p, len);
			buf[len] = 0;
			y = 1 + line - top;
			if (draw && y >= 1 && y < g->h) {
				if (first && rows[i].keys[0])
					fts_grid_text(g, 1, y, kw, rows[i].keys, view_style(v, FTS_R_HEADER));
				fts_grid_text(g, x0, y, g->w - x0, buf, view_style(v, rows[i].role));
			}
			line++;
			first = 0;
			p = next;
		} while (*p);
	}
	return line;
}

void view_draw_help(struct fts_view *v)
{
	struct fts_grid *g = &v->grid;
	struct fts_style t = view_style(v, FTS_R_TITLE);
	int kw = g->w >= 60 ? 16 : 10, lines = help_layout(v, kw, 0, 0), rows = g->h - 1;
	char title[128];

	/* scroll over real lines only: the last line stops at the bottom row */
	if (rows < 1)
		rows = 1;
	if ((int)v->help_top > (lines > rows ? lines - rows : 0))
		v->help_top = (uint32_t)(lines > rows ? lines - rows : 0);
	fts_grid_fill(g, 0, 0, g->w, ' ', t);
	snprintf(title, sizeof(title), " ftscope preview - keys   q: close%s   lines %d-%d of %d",
		 lines > rows ? "  j/k PgUp/PgDn: scroll" : "", (int)v->help_top + 1,
		 (int)v->help_top + (lines < rows ? lines : rows), lines);
	fts_grid_text(g, 0, 0, g->w, title, t);
	help_layout(v, kw, (int)v->help_top, 1);
}
