// SPDX-License-Identifier: MIT
/*
 * frame.c - what every session screen shares: the screen table, the title
 * and status lines, section rules, the status message and the help overlay,
 * composed into the session's grid. Pure: the loop blits the result.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tui/session/session.h"

static const struct fts_screen_ops *const screens[FTS_SCR__COUNT] = {
	[FTS_SCR_HOME] = &fts_screen_home,
	[FTS_SCR_SETUP] = &fts_screen_setup,
	[FTS_SCR_RECORD] = &fts_screen_record,
	[FTS_SCR_EXPORT] = &fts_screen_export,
};

void fts_session_say(struct fts_session *s, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->msg, sizeof(s->msg), fmt, ap);
	va_end(ap);
	s->msg_err = err;
}

void fts_draw_section(struct fts_session *s, struct fts_grid *g, int x, int y, int w, const char *name)
{
	struct fts_style hs = fts_theme_style(&s->theme, FTS_R_HEADER);

	fts_grid_fill(g, x, y, w, fts_theme_glyph(&s->theme, FTS_G_HLINE), fts_theme_style(&s->theme, FTS_R_DIM));
	fts_grid_printf(g, x + 1, y, w - 2, hs, " %s ", name);
}

int fts_session_frame(struct fts_session *s, struct fts_grid *g, const char *title, const char *keys)
{
	struct fts_style ts = fts_theme_style(&s->theme, FTS_R_TITLE);
	struct fts_style st = fts_theme_style(&s->theme, FTS_R_STATUS);
	const char *right = "?:help";
	int rw = (int)strlen(right);

	fts_grid_clear(g, fts_theme_style(&s->theme, FTS_R_NORMAL));
	fts_grid_fill(g, 0, 0, g->w, ' ', ts);
	fts_grid_printf(g, 0, 0, g->w - rw - 1, ts, " ftscope %s %s", s->theme.utf8 ? "\u00b7" : "-", title);
	fts_grid_text(g, g->w - rw - 1, 0, rw, right, ts);
	fts_grid_fill(g, 0, g->h - 1, g->w, ' ', st);
	fts_grid_printf(g, 0, g->h - 1, g->w, st, " %s", keys);
	return 1;
}

/* The help overlay: the screen's keys, then the ones every screen has. */
static void draw_help(struct fts_session *s, struct fts_grid *g, const struct fts_screen_ops *op)
{
	static const char *const common[] = { "?", "this help (any key closes it)",
					      "Ctrl+L", "repaint the terminal", NULL };
	struct fts_style box = fts_theme_style(&s->theme, FTS_R_DETAILS);
	struct fts_style hs = fts_theme_style(&s->theme, FTS_R_HEADER);
	int n = 0, w = g->w > 72 ? 68 : g->w - 4, h, x0, y0, y;

	for (int i = 0; op->help && op->help[i]; i += 2)
		n++;
	h = n + 6;
	if (h > g->h - 2)
		h = g->h - 2;
	x0 = (g->w - w) / 2;
	y0 = (g->h - h) / 2;
	for (y = y0; y < y0 + h; y++)
		fts_grid_fill(g, x0, y, w, ' ', box);
	fts_grid_printf(g, x0 + 2, y0, w - 4, hs, "Keys: %s", op->title);
	y = y0 + 1;
	for (int i = 0; op->help && op->help[i] && y < y0 + h - 3; i += 2, y++) {
		fts_grid_text(g, x0 + 2, y, 10, op->help[i], hs);
		fts_grid_text(g, x0 + 13, y, w - 15, op->help[i + 1], box);
	}
	y++;
	for (int i = 0; common[i] && y < y0 + h; i += 2, y++) {
		fts_grid_text(g, x0 + 2, y, 10, common[i], hs);
		fts_grid_text(g, x0 + 13, y, w - 15, common[i + 1], box);
	}
}

/*
 * The status message on the row above the keys; one too long for it takes
 * the command-line row too (split at a space), so an error is read whole.
 */
static void draw_message(struct fts_session *s, struct fts_grid *g)
{
	struct fts_style ms = fts_theme_style(&s->theme, s->msg_err ? FTS_R_ERROR : FTS_R_NORMAL);
	size_t len = strlen(s->msg), cut;
	char first[512];

	if (g->h < 4 || !s->msg[0])
		return;
	if (fts_text_width(s->msg, g->utf8) <= g->w - 2) {
		fts_grid_text(g, 1, g->h - 2, g->w - 1, s->msg, ms);
		return;
	}
	cut = (size_t)(g->w - 2) < len ? (size_t)(g->w - 2) : len;
	while (cut > 0 && s->msg[cut] != ' ')
		cut--;
	if (!cut)
		cut = (size_t)(g->w - 2) < len ? (size_t)(g->w - 2) : len;
	snprintf(first, sizeof(first), "%.*s", (int)cut, s->msg);
	fts_grid_fill(g, 0, g->h - 3, g->w, ' ', fts_theme_style(&s->theme, FTS_R_NORMAL));
	fts_grid_text(g, 1, g->h - 3, g->w - 1, first, ms);
	fts_grid_text(g, 1, g->h - 2, g->w - 1, s->msg + cut + (s->msg[cut] == ' '), ms);
}

void fts_session_compose(struct fts_session *s, struct fts_grid *g)
{
	const struct fts_screen_ops *op = fts_session_screen(s->cur);

	s->cmdline[0] = 0;
	op->draw(s, g);
	/* after the screen: its draw is what sets the equivalent command line */
	if (g->h >= 4 && s->cmdline[0]) {
		struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
		int x = fts_grid_text(g, 0, g->h - 3, g->w, " $ ", dim);

		fts_grid_text(g, x, g->h - 3, g->w - x, s->cmdline, dim);
	}
	draw_message(s, g);
	if (s->help)
		draw_help(s, g, op);
}

const struct fts_screen_ops *fts_session_screen(enum fts_scr scr)
{
	return screens[scr];
}
