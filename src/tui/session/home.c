// SPDX-License-Identifier: MIT
/*
 * home.c - the first screen: the captures and DBs in the current
 * directory (newest first) and the actions on them: record, open in the
 * preview, export. Whether this machine can record is probed on entry and
 * said up front, so a non-root user learns it before choosing anything.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "front/fmt.h"
#include "tui/session/home_model.h"
#include "tui/kit/keys.h"
#include "tui/session/session.h"
#include "tui/session/setup_model.h"

struct fts_home_state {
	struct fts_home_list list;
	int sel, top;
	char cwd[4096];
	char scan_err[600];
	struct fts_record_caps caps;
	int probed;
	char caps_err[600];
};

enum act { A_RECORD = 1, A_OPEN, A_EXPORT, A_RESCAN, A_QUIT, A_DOWN, A_UP, A_PGDN, A_PGUP, A_FIRST, A_LAST };

static const struct fts_bind bind[] = {
	{ A_RECORD, { 'r' }, "record", "record: set up a new capture (CPUs, events, buffer)" },
	{ A_OPEN, { FTS_KEY_ENTER, 'o' }, "open", "open the selected file in the preview" },
	{ A_EXPORT, { 'e' }, "export", "export the selected file (ftrace_data.db or JSON)" },
	{ A_RESCAN, { 'R' }, "rescan", "list the directory again" },
	{ A_QUIT, { 'q', FTS_KEY_ESC }, "quit", "quit" },
	{ A_DOWN, { FTS_KEY_DOWN, 'j' }, NULL, "select the next file" },
	{ A_UP, { FTS_KEY_UP, 'k' }, NULL, "select the previous file" },
	{ A_PGDN, { FTS_KEY_PGDN }, NULL, "a page down" },
	{ A_PGUP, { FTS_KEY_PGUP }, NULL, "a page up" },
	{ A_FIRST, { FTS_KEY_HOME, 'g' }, NULL, "the newest file" },
	{ A_LAST, { FTS_KEY_END, 'G' }, NULL, "the oldest file" },
};

static const struct fts_bindings keys = FTS_BINDINGS(bind);

/*
 * The list's layout for a screen @gh rows high: the first row of files, and
 * how many fit. The actions go at the bottom while the list leaves room.
 */
#define LIST_Y 6
static int list_bottom(int gh)
{
	int bottom = gh - 4;

	return bottom - 4 >= 12 ? bottom - 6 : bottom;
}

static int list_rows(int gh)
{
	int rows = list_bottom(gh) - LIST_Y + 1;

	return rows < 1 ? 1 : rows;
}

/* Keep the selection inside the list and on screen. */
static void keep_visible(struct fts_session *s)
{
	struct fts_home_state *h = s->home;
	int rows = list_rows(s->h);

	if (!h)
		return;
	if (h->sel >= h->list.n)
		h->sel = h->list.n - 1;
	if (h->sel < 0)
		h->sel = 0;
	if (h->sel < h->top)
		h->top = h->sel;
	if (h->sel >= h->top + rows)
		h->top = h->sel - rows + 1;
	if (h->top < 0)
		h->top = 0;
}

/* Entry @i's path: the listed directory's name before it, unless that is ".". */
static const char *entry_path(const struct fts_session *s, int i, char *buf, size_t len)
{
	const char *dir = s->mach->home_dir;

	if (!strcmp(dir, "."))
		snprintf(buf, len, "%s", s->home->list.e[i].name);
	else
		snprintf(buf, len, "%s/%s", dir, s->home->list.e[i].name);
	return buf;
}

static void scan(struct fts_session *s)
{
	struct fts_home_state *h = s->home;
	struct fts_err err = { 0 };

	fts_home_list_free(&h->list);
	h->scan_err[0] = 0;
	if (strcmp(s->mach->home_dir, "."))
		snprintf(h->cwd, sizeof(h->cwd), "%s", s->mach->home_dir);
	else
		fts_machine_cwd(s->mach, h->cwd, sizeof(h->cwd));
	if (fts_home_scan(s->mach->home_dir, 500, &h->list, &err))
		snprintf(h->scan_err, sizeof(h->scan_err), "%s", err.msg);
	/* after a recording, select the new capture */
	for (int i = 0; s->last_capture[0] && i < h->list.n; i++) {
		const char *b = strrchr(s->last_capture, '/');

		if (!strcmp(h->list.e[i].name, b ? b + 1 : s->last_capture))
			h->sel = i;
	}
	keep_visible(s);
}

static void enter(struct fts_session *s)
{
	struct fts_err err = { 0 };

	if (!s->home) {
		s->home = calloc(1, sizeof(*s->home));
		if (!s->home)
			return;
	}
	if (!s->home->probed) {
		if (s->mach->probe(NULL, &s->home->caps, &err))
			snprintf(s->home->caps_err, sizeof(s->home->caps_err), "%s", err.msg);
		s->home->probed = 1;
	}
	scan(s);
}

/* Whether recording can start here, and why not. */
static int can_record(const struct fts_home_state *h, const char **why)
{
	if (h->caps_err[0]) {
		*why = h->caps_err;
		return 0;
	}
	if (!h->caps.root) {
		*why = "recording needs root (tracefs is root-only): run ftscope as root, e.g. sudo ftscope";
		return 0;
	}
	if (!h->caps.native_ok && !h->caps.trace_cmd) {
		*why = h->caps.problem[0] ? h->caps.problem : "tracefs is not usable here";
		return 0;
	}
	*why = "";
	return 1;
}

static void draw_caps(const struct fts_session *s, struct fts_grid *g, int y)
{
	const struct fts_home_state *h = s->home;
	const char *why;
	struct fts_style ok = fts_theme_style(&s->theme, FTS_R_NORMAL);

	if (!can_record(h, &why)) {
		int x = fts_grid_text(g, 1, y, g->w - 1, "Recording: unavailable - ",
				      fts_theme_style(&s->theme, FTS_R_ERROR));

		fts_grid_text(g, 1 + x, y, g->w - 1 - x, why, fts_theme_style(&s->theme, FTS_R_ERROR));
		return;
	}
	if (h->caps.native_ok)
		fts_grid_printf(g, 1, y, g->w - 1, ok, "Recording: ready (%d CPUs, %d NUMA node%s, tracefs %s)",
				h->caps.ncpus, h->caps.nnodes, h->caps.nnodes == 1 ? "" : "s",
				h->caps.tracing_dir[0] ? h->caps.tracing_dir : "mounted on start");
	else
		fts_grid_printf(g, 1, y, g->w - 1, ok, "Recording: with trace-cmd (%s)", h->caps.problem);
}

static void draw_actions(const struct fts_session *s, struct fts_grid *g, int y)
{
	static const char *const actions[] = {
		"r", "record a new capture (CPUs, events, buffer) with live per-CPU health",
		"Enter", "open the selected file in the preview (CPU and task lanes)",
		"e", "export it for MindStudio Insight (ftrace_data.db) or Perfetto (JSON)",
		"?", "help on the keys of each screen",
	};

	fts_draw_section(s, g, 0, y++, g->w, "Actions");
	for (int i = 0; i < 8; i += 2, y++) {
		fts_grid_text(g, 2, y, 7, actions[i], fts_theme_style(&s->theme, FTS_R_HEADER));
		fts_grid_text(g, 9, y, g->w - 9, actions[i + 1], fts_theme_style(&s->theme, FTS_R_NORMAL));
	}
}

static void draw_entry(const struct fts_session *s, struct fts_grid *g, int y, int i)
{
	const struct fts_home_entry *e = &s->home->list.e[i];
	struct fts_style rs = fts_theme_style(&s->theme, i == s->home->sel ? FTS_R_LABEL_SEL : FTS_R_NORMAL);
	char size[FTS_FMT_LEN], when[32];
	struct tm tm;
	int x;

	localtime_r(&e->mtime, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
	fts_grid_fill(g, 0, y, g->w, ' ', rs);
	x = fts_grid_printf(g, 2, y, g->w - 2, rs, "%-9s %10s  %-16s  ", fts_home_kind_name(e->kind),
			    fts_fmt_bytes((double)e->size, size, sizeof(size)), when);
	x += 2;
	x += fts_grid_text(g, x, y, g->w - 40 > 10 ? g->w - x : 10, e->name, rs);
	if (e->kind == FTS_HOME_DB && !e->insight_name)
		fts_grid_text(g, x + 1, y, g->w - x - 1, "(name Insight ignores)",
			      fts_theme_style(&s->theme, FTS_R_DIM));
}

static void draw(const struct fts_session *s, struct fts_grid *g)
{
	const struct fts_home_state *h = s->home;
	struct fts_style st = fts_theme_style(&s->theme, FTS_R_NORMAL);
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	char bar[256], q[4200], path[4400], cmd[4500];
	int y = fts_session_frame(s, g, "home", fts_bind_bar(&keys, bar, sizeof(bar)));
	int bottom = list_bottom(g->h);

	if (!h) {
		fts_grid_text(g, 1, y, g->w - 1, "out of memory", fts_theme_style(&s->theme, FTS_R_ERROR));
		return;
	}
	draw_caps(s, g, y++);
	fts_grid_printf(g, 1, y++, g->w - 1, dim, "Directory: %s", h->cwd);
	y++;
	if (bottom != g->h - 4)
		draw_actions(s, g, g->h - 8);
	fts_draw_section(s, g, 0, y++, g->w, "Captures and DBs here");
	if (h->scan_err[0]) {
		fts_grid_text(g, 1, y, g->w - 1, h->scan_err, fts_theme_style(&s->theme, FTS_R_ERROR));
		return;
	}
	if (!h->list.n) {
		fts_grid_text(g, 2, y++, g->w - 2, "No trace.dat, trace text, ftrace_data*.db or JSON here.", st);
		fts_grid_text(g, 2, y++, g->w - 2, "Press r to record one, or start ftscope in the directory that holds them.", dim);
		return;
	}
	fts_grid_printf(g, 2, y++, g->w - 2, fts_theme_style(&s->theme, FTS_R_HEADER), "%-9s %10s  %-16s  %s",
			"kind", "size", "modified", "name");
	for (int i = h->top; i < h->list.n && y <= bottom; i++, y++)
		draw_entry(s, g, y, i);
	snprintf(cmd, sizeof(cmd), "ftscope preview %s",
		 fts_shell_quote(entry_path(s, h->sel, path, sizeof(path)), q, sizeof(q)));
	fts_session_cmdline(s, g, cmd);
}

/* r, Enter, e: the actions on the selected file. */
static unsigned act_on(struct fts_session *s, int a)
{
	struct fts_home_state *h = s->home;
	const char *why;

	if (a == A_RECORD) {
		if (!can_record(h, &why)) {
			fts_session_say(s, 1, "cannot record: %s", why);
			return FTS_RX_REDRAW;
		}
		s->next = FTS_SCR_SETUP;
		return FTS_RX_GOTO;
	}
	if (!h->list.n) {
		fts_session_say(s, 1, "nothing to %s here; press r to record", a == A_OPEN ? "open" : "export");
		return FTS_RX_REDRAW;
	}
	if (a == A_OPEN) {
		entry_path(s, h->sel, s->preview_path, sizeof(s->preview_path));
		return FTS_RX_PREVIEW | FTS_RX_REDRAW;
	}
	entry_path(s, h->sel, s->export_input, sizeof(s->export_input));
	s->next = FTS_SCR_EXPORT;
	return FTS_RX_GOTO;
}

static unsigned key(struct fts_session *s, int k)
{
	struct fts_home_state *h = s->home;
	int a = fts_bind_action(&keys, k), page = list_rows(s->h);

	if (!h)
		return a == A_QUIT ? FTS_RX_QUIT : 0;
	s->msg[0] = 0;
	switch (a) {
	case A_QUIT: return FTS_RX_QUIT;
	case A_DOWN: h->sel++; break;
	case A_UP: h->sel--; break;
	case A_PGDN: h->sel += page; break;
	case A_PGUP: h->sel -= page; break;
	case A_FIRST: h->sel = 0; break;
	case A_LAST: h->sel = h->list.n - 1; break;
	case A_RESCAN:
		scan(s);
		fts_session_say(s, 0, "%d file%s listed", h->list.n, h->list.n == 1 ? "" : "s");
		break;
	case A_RECORD: case A_OPEN: case A_EXPORT:
		return act_on(s, a);
	default:
		return 0;
	}
	keep_visible(s);
	return FTS_RX_REDRAW;
}

static int leave(struct fts_session *s, int sig)
{
	(void)sig;
	if (s->home) {
		fts_home_list_free(&s->home->list);
		fts_record_caps_release(&s->home->caps);
		free(s->home);
		s->home = NULL;
	}
	return 0;
}

const struct fts_screen_ops fts_screen_home = {
	.title = "home",
	.enter = enter,
	.layout = keep_visible,
	.draw = draw,
	.key = key,
	.keys = &keys,
	.leave = leave,
};
