// SPDX-License-Identifier: MIT
/*
 * home.c - the first screen: the captures and DBs in a directory (newest
 * first, after the directories to go to) and the actions on them: record,
 * open in the preview, export. Whether this machine can record is probed on
 * entry and said up front, so a non-root user learns it before choosing
 * anything.
 *
 * The directory starts as the machine's (the working directory) and changes
 * with Enter on a directory, Backspace (the parent) or d (a typed path, Tab
 * completes). The list is read again when the directory changes on disk (a
 * capture written meanwhile shows up); the selection stays on the same name.
 * Clicks select, a second click on the selected row opens it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/env.h"
#include "app/fmt.h"
#include "core/internal.h"
#include "tui/widgets/keys.h"
#include "tui/widgets/line_edit.h"
#include "tui/session/export_plan.h"
#include "tui/session/home_model.h"
#include "tui/session/session.h"
#include "tui/session/setup_model.h"

/* A second click on the same row within this opens it (a double click). */
#define DOUBLE_CLICK_MS 600

struct fts_home_state {
	struct fts_home_list list;
	int sel, top;
	char dir[4096];          /* the listed directory, as fts_home_join keeps it */
	char cwd[4096];          /* shown: absolute */
	char scan_err[600];
	struct timespec dir_mtime; /* of @dir at the last scan: a change rescans */
	struct fts_record_caps caps;
	int probed;
	char caps_err[600];
	int confirm_quit;        /* Esc pressed: the next key decides */
	struct fts_line_edit ed; /* d: the directory prompt */
	uint64_t click_ms;       /* the last click, for a double click */
	int click_row;
	char seen_capture[4096]; /* the session's last capture, once selected */
};

enum act { A_RECORD = 1, A_OPEN, A_EXPORT, A_CD, A_UPDIR, A_RESCAN, A_QUIT, A_ESC, A_DOWN, A_UP, A_PGDN,
	   A_PGUP, A_FIRST, A_LAST };

static const struct fts_bind bind[] = {
	{ A_RECORD, { 'r' }, "record", "record: set up a new capture (CPUs, events, buffer)" },
	{ A_OPEN, { FTS_KEY_ENTER, 'o' }, "open", "open the file in the preview, or go into the directory" },
	{ A_EXPORT, { 'e' }, "export", "export the selected trace (ftrace_data.db or JSON)" },
	{ A_CD, { 'd' }, "dir", "type a directory to list (Tab completes)" },
	{ A_UPDIR, { FTS_KEY_BACKSPACE, FTS_KEY_LEFT }, NULL, "the parent directory" },
	{ A_RESCAN, { 'R' }, NULL, "list the directory again" },
	{ A_QUIT, { 'q' }, "quit", "quit" },
	{ A_ESC, { FTS_KEY_ESC }, NULL, "quit, after asking" },
	{ A_DOWN, { FTS_KEY_DOWN, 'j' }, NULL, "select the next entry" },
	{ A_UP, { FTS_KEY_UP, 'k' }, NULL, "select the previous entry" },
	{ A_PGDN, { FTS_KEY_PGDN }, NULL, "a page down" },
	{ A_PGUP, { FTS_KEY_PGUP }, NULL, "a page up" },
	{ A_FIRST, { FTS_KEY_HOME, 'g' }, NULL, "the first entry" },
	{ A_LAST, { FTS_KEY_END, 'G' }, NULL, "the last entry (the oldest file)" },
};

static const struct fts_bindings keys = FTS_BINDINGS(bind);

/*
 * The list's layout for a screen @gh rows high: the first row of entries,
 * and how many fit. The actions go at the bottom while the list leaves room.
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

/* Entry @i's path: the listed directory joined with its name. */
static const char *entry_path(const struct fts_session *s, int i, char *buf, size_t len)
{
	return fts_home_join(s->home->dir, s->home->list.e[i].name, buf, len);
}

static struct timespec dir_mtime(const char *dir)
{
	struct stat st;

	if (stat(dir, &st))
		return (struct timespec){ 0 };
	return st.st_mtim;
}

/* List the directory again; the selection stays on @keep (a name) when it is still there. */
static void scan_keep(struct fts_session *s, const char *keep)
{
	struct fts_home_state *h = s->home;
	struct fts_err err = { 0 };
	char cwd[4096];
	int i;

	fts_home_list_free(&h->list);
	h->scan_err[0] = 0;
	if (h->dir[0] == '/') {
		snprintf(h->cwd, sizeof(h->cwd), "%s", h->dir);
	} else {
		fts_machine_cwd(s->mach, cwd, sizeof(cwd));
		fts_home_join(cwd, h->dir, h->cwd, sizeof(h->cwd));
	}
	h->dir_mtime = dir_mtime(h->dir);
	if (fts_home_scan_all(h->dir, 500, &h->list, &err))
		snprintf(h->scan_err, sizeof(h->scan_err), "%s", err.msg);
	i = keep && keep[0] ? fts_home_find(&h->list, keep) : -1;
	if (i >= 0)
		h->sel = i;
	keep_visible(s);
}

/* The selected entry's name, for keeping the selection ("" none). */
static void selected_name(const struct fts_home_state *h, char *buf, size_t len)
{
	snprintf(buf, len, "%s", h->sel >= 0 && h->sel < h->list.n ? h->list.e[h->sel].name : "");
}

static void scan(struct fts_session *s)
{
	char keep[256];

	selected_name(s->home, keep, sizeof(keep));
	scan_keep(s, keep);
}

/* Go to @dir (already joined); the first file is selected, or @keep. */
static void go_to(struct fts_session *s, const char *dir, const char *keep)
{
	struct fts_home_state *h = s->home;
	struct stat st;

	if (stat(dir, &st)) {
		fts_session_say(s, 1, "cannot list %s: %s", dir, strerror(errno));
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		fts_session_say(s, 1, "%s is not a directory", dir);
		return;
	}
	snprintf(h->dir, sizeof(h->dir), "%s", dir);
	h->sel = h->top = 0;
	scan_keep(s, keep);
	if (!keep)
		h->sel = h->list.ndirs < h->list.n ? h->list.ndirs : 0;
	keep_visible(s);
}

static void enter(struct fts_session *s)
{
	struct fts_err err = { 0 };
	const char *b;

	if (!s->home) {
		s->home = calloc(1, sizeof(*s->home));
		if (!s->home)
			return;
		snprintf(s->home->dir, sizeof(s->home->dir), "%s", s->mach->home_dir);
		s->home->sel = -1;
	}
	if (!s->home->probed) {
		struct fts_record_opts po;

		/* the defaults, with where trace-cmd is looked for (this program's PATH) */
		fts_record_opts_init(&po);
		fts_front_env_record(&po);
		if (s->mach->probe(&po, &s->home->caps, &err))
			snprintf(s->home->caps_err, sizeof(s->home->caps_err), "%s", err.msg);
		s->home->probed = 1;
	}
	/* after a recording, select the new capture (once); else the same entry as before */
	b = strrchr(s->last_capture, '/');
	if (s->last_capture[0] && strcmp(s->last_capture, s->home->seen_capture)) {
		snprintf(s->home->seen_capture, sizeof(s->home->seen_capture), "%s", s->last_capture);
		scan_keep(s, b ? b + 1 : s->last_capture);
	} else if (s->home->sel < 0) {
		scan_keep(s, NULL);
		s->home->sel = s->home->list.ndirs < s->home->list.n ? s->home->list.ndirs : 0;
		keep_visible(s);
	} else {
		scan(s);
	}
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
		"Enter", "open the selected file in the preview, or go into the directory",
		"e", "export it for MindStudio Insight (ftrace_data.db) or Perfetto (JSON)",
		"d", "list another directory (Backspace: the parent; ? all keys)",
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
	char size[FTS_FMT_LEN], when[32], name[300];
	struct tm tm;
	int x;

	fts_grid_fill(g, 0, y, g->w, ' ', rs);
	if (e->kind == FTS_HOME_DIR) {
		snprintf(name, sizeof(name), "%s/", e->name);
		x = fts_grid_printf(g, 2, y, g->w - 2, rs, "%-9s %10s  %-16s  ", e->snapshot ? "snapshot" : "dir", "",
				    strcmp(e->name, "..") ? e->snapshot ? "(one capture)" : "" : "(parent)");
		fts_grid_text(g, 2 + x, y, g->w - 2 - x, name, rs);
		return;
	}
	localtime_r(&e->mtime, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
	x = fts_grid_printf(g, 2, y, g->w - 2, rs, "%-9s %10s  %-16s  ", fts_home_kind_name(e->kind),
			    fts_fmt_bytes((double)e->size, size, sizeof(size)), when);
	x += 2;
	x += fts_grid_text(g, x, y, g->w - 40 > 10 ? g->w - x : 10, e->name, rs);
	if (e->kind == FTS_HOME_DB && !e->insight_name)
		fts_grid_text(g, x + 1, y, g->w - x - 1, "(name Insight ignores)",
			      fts_theme_style(&s->theme, FTS_R_DIM));
}

/* The directory row: the path, or the prompt typing one. */
static void draw_dir(const struct fts_session *s, struct fts_grid *g, int y)
{
	const struct fts_home_state *h = s->home;
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	struct fts_style sel = fts_theme_style(&s->theme, FTS_R_LABEL_SEL);
	int x;

	if (!h->ed.active) {
		fts_grid_printf(g, 1, y, g->w - 1, dim, "Directory: %s", h->cwd);
		return;
	}
	x = fts_grid_text(g, 1, y, g->w - 1, "Go to directory: ", fts_theme_style(&s->theme, FTS_R_HEADER));
	x += fts_grid_text(g, 1 + x, y, g->w - 2 - x, h->ed.buf, sel);
	fts_grid_put(g, 1 + x, y, '_', sel);
	if (h->ed.hint[0])
		fts_grid_text(g, 18, y + 1, g->w - 18, h->ed.hint, dim);
}

static void draw(const struct fts_session *s, struct fts_grid *g)
{
	const struct fts_home_state *h = s->home;
	struct fts_style st = fts_theme_style(&s->theme, FTS_R_NORMAL);
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	char bar[256], q[4200], path[4400], cmd[4500], title[128];
	const char *kb = h && h->ed.active ? "Enter go  Tab complete  Esc cancel" :
			 h && h->confirm_quit ? "y quit  any other key: stay" : fts_bind_bar(&keys, bar, sizeof(bar));
	int y = fts_session_frame(s, g, "home", kb);
	int bottom = list_bottom(g->h), files;

	if (!h) {
		fts_grid_text(g, 1, y, g->w - 1, "out of memory", fts_theme_style(&s->theme, FTS_R_ERROR));
		return;
	}
	draw_caps(s, g, y++);
	draw_dir(s, g, y++);
	y++;
	if (bottom != g->h - 4)
		draw_actions(s, g, g->h - 8);
	files = h->list.n - h->list.ndirs;
	if (h->list.n)
		snprintf(title, sizeof(title), "Captures and DBs here: %d file%s%s  %d/%d", files, files == 1 ? "" : "s",
			 h->list.unexamined ? " (more not examined)" : "", h->sel + 1, h->list.n);
	else
		snprintf(title, sizeof(title), "Captures and DBs here");
	fts_draw_section(s, g, 0, y++, g->w, title);
	if (h->scan_err[0]) {
		fts_grid_text(g, 1, y, g->w - 1, h->scan_err, fts_theme_style(&s->theme, FTS_R_ERROR));
		return;
	}
	fts_grid_printf(g, 2, y++, g->w - 2, fts_theme_style(&s->theme, FTS_R_HEADER), "%-9s %10s  %-16s  %s",
			"kind", "size", "modified", "name");
	for (int i = h->top; i < h->list.n && y <= bottom; i++, y++)
		draw_entry(s, g, y, i);
	if (!files && y + 1 <= bottom) {
		fts_grid_text(g, 2, y++, g->w - 2, "No trace.dat, trace text, ftrace DB or JSON here.", st);
		fts_grid_text(g, 2, y++, g->w - 2, "Press r to record one, or d to list another directory.", dim);
	}
	if (h->list.n && (h->list.e[h->sel].kind != FTS_HOME_DIR || h->list.e[h->sel].snapshot)) {
		snprintf(cmd, sizeof(cmd), "ftscope preview %s",
			 fts_shell_quote(entry_path(s, h->sel, path, sizeof(path)), q, sizeof(q)));
		fts_session_cmdline(s, g, cmd);
	}
}

/* Enter on a directory: go there, keeping the one we came from selected after "..". */
static void open_dir(struct fts_session *s, const struct fts_home_entry *e)
{
	struct fts_home_state *h = s->home;
	char dir[4096], from[256];
	const char *b;

	fts_home_join(h->dir, e->name, dir, sizeof(dir));
	if (!strcmp(e->name, "..")) {
		b = strrchr(h->cwd, '/');
		snprintf(from, sizeof(from), "%s", b && b[1] ? b + 1 : "");
		go_to(s, dir, from[0] ? from : NULL);
	} else {
		go_to(s, dir, NULL);
	}
}

/* r, Enter, e: the actions on the selected entry. */
static unsigned act_on(struct fts_session *s, int a)
{
	struct fts_home_state *h = s->home;
	const struct fts_home_entry *e;
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
	e = &h->list.e[h->sel];
	/* a flight snapshot is its segments read as one trace: it opens and exports as a capture */
	if (e->kind == FTS_HOME_DIR && !e->snapshot) {
		if (a == A_OPEN)
			open_dir(s, e);
		else
			fts_session_say(s, 1, "select a capture to export (a directory opens with Enter)");
		return FTS_RX_REDRAW;
	}
	if (a == A_OPEN) {
		entry_path(s, h->sel, s->preview_path, sizeof(s->preview_path));
		return FTS_RX_PREVIEW | FTS_RX_REDRAW;
	}
	/* a DB or JSON is not offered for export: it would lose its flows (export.c) */
	if (e->kind == FTS_HOME_DB || e->kind == FTS_HOME_JSON) {
		fts_session_say(s, 1, "%s", fts_export_refusal(e->kind == FTS_HOME_DB));
		return FTS_RX_REDRAW;
	}
	entry_path(s, h->sel, s->export_input, sizeof(s->export_input));
	s->next = FTS_SCR_EXPORT;
	return FTS_RX_GOTO;
}

/* d: the directory prompt, Tab completing. */
static unsigned prompt_key(struct fts_session *s, int k)
{
	struct fts_home_state *h = s->home;
	char dir[4096];

	switch (fts_edit_key(&h->ed, k)) {
	case FTS_EDIT_DONE:
		if (h->ed.buf[0])
			go_to(s, fts_home_join(h->ed.buf[0] == '/' ? "/" : h->dir, h->ed.buf, dir, sizeof(dir)), NULL);
		break;
	case FTS_EDIT_CANCEL:
		s->msg[0] = 0;
		break;
	default:
		break;
	}
	return FTS_RX_REDRAW;
}

static unsigned key(struct fts_session *s, int k)
{
	struct fts_home_state *h = s->home;
	int a = fts_bind_action(&keys, k), page = list_rows(s->h);

	if (!h)
		return a == A_QUIT || a == A_ESC ? FTS_RX_QUIT : 0;
	if (h->ed.active)
		return prompt_key(s, k);
	s->msg[0] = 0;
	if (h->confirm_quit) {
		h->confirm_quit = 0;
		return k == 'y' || k == 'Y' || k == FTS_KEY_ESC || k == 'q' ? FTS_RX_QUIT : FTS_RX_REDRAW;
	}
	switch (a) {
	case A_QUIT: return FTS_RX_QUIT;
	case A_ESC:
		h->confirm_quit = 1;
		fts_session_say(s, 0, "Quit ftscope? y (or Esc again) quits, any other key stays");
		return FTS_RX_REDRAW;
	case A_DOWN: h->sel++; break;
	case A_UP: h->sel--; break;
	case A_PGDN: h->sel += page; break;
	case A_PGUP: h->sel -= page; break;
	case A_FIRST: h->sel = 0; break;
	case A_LAST: h->sel = h->list.n - 1; break;
	case A_RESCAN:
		scan(s);
		fts_session_say(s, 0, "%d file%s listed", h->list.n - h->list.ndirs,
				h->list.n - h->list.ndirs == 1 ? "" : "s");
		break;
	case A_CD:
		fts_edit_begin(&h->ed, 0, strcmp(h->dir, ".") ? h->dir : "");
		fts_edit_complete_with(&h->ed, fts_edit_complete_dir);
		return FTS_RX_REDRAW;
	case A_UPDIR:
		open_dir(s, &(struct fts_home_entry){ .name = "..", .kind = FTS_HOME_DIR });
		break;
	case A_RECORD: case A_OPEN: case A_EXPORT:
		return act_on(s, a);
	default:
		return 0;
	}
	keep_visible(s);
	return FTS_RX_REDRAW;
}

/* A click selects a row; a second click on the selected row within DOUBLE_CLICK_MS opens it. */
static unsigned mouse(struct fts_session *s, enum fts_mouse ev, int x, int y)
{
	struct fts_home_state *h = s->home;
	uint64_t now = fts__clock_mono_ms();
	int i;

	(void)x;
	if (!h || h->ed.active || h->confirm_quit)
		return 0;
	if (ev == FTS_MOUSE_WHEEL_UP || ev == FTS_MOUSE_WHEEL_DOWN) {
		h->sel += ev == FTS_MOUSE_WHEEL_DOWN ? 3 : -3;
		keep_visible(s);
		return FTS_RX_REDRAW;
	}
	if (ev != FTS_MOUSE_CLICK || y < LIST_Y || y > list_bottom(s->h))
		return 0;
	i = h->top + (y - LIST_Y);
	if (i >= h->list.n)
		return 0;
	s->msg[0] = 0;
	if (i == h->sel && i == h->click_row && now - h->click_ms <= DOUBLE_CLICK_MS) {
		h->click_ms = 0;
		return act_on(s, A_OPEN);
	}
	h->sel = i;
	h->click_row = i;
	h->click_ms = now;
	keep_visible(s);
	return FTS_RX_REDRAW;
}

/* A capture written meanwhile (the directory changed): list again, same selection. */
static unsigned tick(struct fts_session *s)
{
	struct fts_home_state *h = s->home;
	struct timespec m;

	if (!h || h->ed.active)
		return 0;
	m = dir_mtime(h->dir);
	if (m.tv_sec == h->dir_mtime.tv_sec && m.tv_nsec == h->dir_mtime.tv_nsec)
		return 0;
	scan(s);
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
	.mouse = mouse,
	.tick = tick,
	.tick_ms = 2000,
	.keys = &keys,
	.leave = leave,
};
