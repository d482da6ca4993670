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

static const char *const help[] = {
	"r", "record: set up a new capture (CPUs, events, buffer)",
	"Enter o", "open the selected file in the preview",
	"e", "export the selected file (ftrace_data.db or JSON)",
	"Up Down", "select (also j k, PgUp PgDn, Home End)",
	"R", "list the directory again",
	"q", "quit",
	NULL,
};

static void scan(struct fts_session *s)
{
	struct fts_home_state *h = s->home;
	struct fts_err err = { 0 };

	fts_home_list_free(&h->list);
	h->scan_err[0] = 0;
	if (!getcwd(h->cwd, sizeof(h->cwd)))
		snprintf(h->cwd, sizeof(h->cwd), ".");
	if (fts_home_scan(".", 500, &h->list, &err))
		snprintf(h->scan_err, sizeof(h->scan_err), "%s", err.msg);
	if (h->sel >= h->list.n)
		h->sel = h->list.n ? h->list.n - 1 : 0;
	/* after a recording, select the new capture */
	for (int i = 0; s->last_capture[0] && i < h->list.n; i++) {
		const char *b = strrchr(s->last_capture, '/');

		if (!strcmp(h->list.e[i].name, b ? b + 1 : s->last_capture))
			h->sel = i;
	}
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
		if (fts_record_probe(NULL, &s->home->caps, &err))
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

static void draw_caps(struct fts_session *s, struct fts_grid *g, int y)
{
	struct fts_home_state *h = s->home;
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

static void draw(struct fts_session *s, struct fts_grid *g)
{
	struct fts_home_state *h = s->home;
	struct fts_style hs = fts_theme_style(&s->theme, FTS_R_HEADER);
	struct fts_style st = fts_theme_style(&s->theme, FTS_R_NORMAL);
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	int y = fts_session_frame(s, g, "home", "r record  Enter open  e export  R rescan  ? help  q quit");
	int bottom = g->h - 4, rows, namew = g->w - 40;
	char q[4200];
	static const char *const actions[] = {
		"r", "record a new capture (CPUs, events, buffer) with live per-CPU health",
		"Enter", "open the selected file in the preview (CPU and task lanes)",
		"e", "export it for MindStudio Insight (ftrace_data.db) or Perfetto (JSON)",
		"?", "help on the keys of each screen",
	};

	if (!h) {
		fts_grid_text(g, 1, y, g->w - 1, "out of memory", fts_theme_style(&s->theme, FTS_R_ERROR));
		return;
	}
	draw_caps(s, g, y++);
	fts_grid_printf(g, 1, y++, g->w - 1, dim, "Directory: %s", h->cwd);
	y++;
	/* the actions, at the bottom while the list leaves room for them */
	if (bottom - y >= 12) {
		int ay = bottom - 4;

		fts_draw_section(s, g, 0, ay++, g->w, "Actions");
		for (int i = 0; i < 8; i += 2, ay++) {
			fts_grid_text(g, 2, ay, 7, actions[i], hs);
			fts_grid_text(g, 9, ay, g->w - 9, actions[i + 1], st);
		}
		bottom -= 6;
	}
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
	fts_grid_printf(g, 2, y++, g->w - 2, hs, "%-9s %10s  %-16s  %s", "kind", "size", "modified", "name");
	rows = bottom - y + 1;
	if (rows < 1)
		rows = 1;
	if (h->sel < h->top)
		h->top = h->sel;
	if (h->sel >= h->top + rows)
		h->top = h->sel - rows + 1;
	for (int i = h->top; i < h->list.n && y <= bottom; i++, y++) {
		const struct fts_home_entry *e = &h->list.e[i];
		struct fts_style rs = i == h->sel ? fts_theme_style(&s->theme, FTS_R_LABEL_SEL) : st;
		char size[FTS_FMT_LEN], when[32];
		struct tm tm;
		int x;

		localtime_r(&e->mtime, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
		fts_grid_fill(g, 0, y, g->w, ' ', rs);
		x = fts_grid_printf(g, 2, y, g->w - 2, rs, "%-9s %10s  %-16s  ", fts_home_kind_name(e->kind),
				    fts_fmt_bytes((double)e->size, size, sizeof(size)), when);
		x += 2;
		x += fts_grid_text(g, x, y, namew > 10 ? g->w - x : 10, e->name, rs);
		if (e->kind == FTS_HOME_DB && !e->insight_name)
			fts_grid_text(g, x + 1, y, g->w - x - 1, "(name Insight ignores)", dim);
	}
	if (h->list.n)
		snprintf(s->cmdline, sizeof(s->cmdline), "ftscope preview %s",
			 fts_shell_quote(h->list.e[h->sel].name, q, sizeof(q)));
}

static unsigned key(struct fts_session *s, int k)
{
	struct fts_home_state *h = s->home;
	const char *why;
	int page = s->grid.h > 12 ? s->grid.h - 12 : 1;

	if (!h)
		return k == 'q' ? FTS_SR_QUIT : 0;
	s->msg[0] = 0;
	switch (k) {
	case 'q': case FTS_KEY_ESC:
		return FTS_SR_QUIT;
	case 'j': case FTS_KEY_DOWN: h->sel++; break;
	case 'k': case FTS_KEY_UP: h->sel--; break;
	case FTS_KEY_PGDN: h->sel += page; break;
	case FTS_KEY_PGUP: h->sel -= page; break;
	case FTS_KEY_HOME: case 'g': h->sel = 0; break;
	case FTS_KEY_END: case 'G': h->sel = h->list.n - 1; break;
	case 'R':
		scan(s);
		fts_session_say(s, 0, "%d file%s listed", h->list.n, h->list.n == 1 ? "" : "s");
		break;
	case 'r':
		if (!can_record(h, &why)) {
			fts_session_say(s, 1, "cannot record: %s", why);
			break;
		}
		s->next = FTS_SCR_SETUP;
		return FTS_SR_GOTO;
	case FTS_KEY_ENTER: case 'o':
		if (!h->list.n) {
			fts_session_say(s, 1, "nothing to open here; press r to record");
			break;
		}
		snprintf(s->preview_path, sizeof(s->preview_path), "%s", h->list.e[h->sel].name);
		return FTS_SR_PREVIEW | FTS_SR_REDRAW;
	case 'e':
		if (!h->list.n) {
			fts_session_say(s, 1, "nothing to export here; press r to record");
			break;
		}
		snprintf(s->export_input, sizeof(s->export_input), "%s", h->list.e[h->sel].name);
		s->next = FTS_SCR_EXPORT;
		return FTS_SR_GOTO;
	default:
		return 0;
	}
	if (h->sel >= h->list.n)
		h->sel = h->list.n - 1;
	if (h->sel < 0)
		h->sel = 0;
	return FTS_SR_REDRAW;
}

static void on_signal(struct fts_session *s, int sig)
{
	(void)sig;
	if (s->home) {
		fts_home_list_free(&s->home->list);
		fts_record_caps_release(&s->home->caps);
		free(s->home);
		s->home = NULL;
	}
}

const struct fts_screen_ops fts_screen_home = {
	.title = "home",
	.enter = enter,
	.draw = draw,
	.key = key,
	.help = help,
	.on_signal = on_signal,
};
