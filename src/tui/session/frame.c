// SPDX-License-Identifier: MIT
/*
 * frame.c - what every session screen shares: the screen table, the title
 * and bottom lines, section rules, the command line, the status message and
 * the help overlay (made from the screen's key table), composed into the
 * session's grid. Pure: the loop blits the result.
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
	[FTS_SCR_PREVIEW] = &fts_screen_preview,
	[FTS_SCR_SAVED] = &fts_screen_saved,
};

void fts_session_say(struct fts_session *s, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->msg, sizeof(s->msg), fmt, ap);
	va_end(ap);
	s->msg_err = err;
}

void fts_draw_section(const struct fts_session *s, struct fts_grid *g, int x, int y, int w, const char *name)
{
	struct fts_style hs = fts_theme_style(&s->theme, FTS_R_HEADER);

	fts_grid_fill(g, x, y, w, fts_theme_glyph(&s->theme, FTS_G_HLINE), fts_theme_style(&s->theme, FTS_R_DIM));
	fts_grid_printf(g, x + 1, y, w - 2, hs, " %s ", name);
}

int fts_session_frame(const struct fts_session *s, struct fts_grid *g, const char *title, const char *keys)
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

/* The help's entries: the screen's key table, a blank, then the keys every screen has. */
static const char *const common_keys[] = { "?", "this help (j/k scroll a long one; other keys close it)", "Ctrl+L", "repaint the terminal", NULL };

/* Columns of @p's first @n bytes (UTF-8: continuation bytes take none). */
static int cols(const char *p, size_t n)
{
	int c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)p[i] & 0xc0) != 0x80;
	return c;
}

/* The bytes of @text's first row in @w columns, broken at a space when one fits; *@next the rest. */
static size_t wrap_row(const char *text, int w, const char **next)
{
	size_t n = 0, fit = 0;

	while (text[n] && cols(text, n + 1) <= w) {
		n++;
		while (((unsigned char)text[n] & 0xc0) == 0x80)
			n++;
		if (!text[n] || text[n] == ' ')
			fit = n;
	}
	if (!text[n])
		fit = n;
	if (!fit)
		fit = n ? n : 1;  /* a word longer than the row: cut it */
	*next = text + fit;
	while (**next == ' ')
		(*next)++;
	return fit;
}

/*
 * The help's lines in a box @w wide: each entry's keys, then its words wrapped
 * under one another. Lines @top.. go to rows @y0.. (@rows of them) when @g is
 * given. Returns how many lines there are.
 */
static int help_layout(const struct fts_session *s, struct fts_grid *g, const struct fts_bindings *t, int x0,
		       int w, int top, int y0, int rows)
{
	int n = t ? (int)t->n : 0, line = 0, tw = w - 17 > 8 ? w - 17 : 8;

	for (int i = 0; i < n + 1 + 2; i++) {
		char keys[64];
		const char *k, *what;

		if (i == n) {
			line++; /* between the screen's keys and the common ones */
			continue;
		}
		k = i < n ? fts_bind_keys(t, (size_t)i, keys, sizeof(keys)) : common_keys[(i - n - 1) * 2];
		what = i < n ? t->b[i].help : common_keys[(i - n - 1) * 2 + 1];
		for (int first = 1; first || *what; first = 0, line++) {
			char buf[512];
			const char *next;
			size_t len = wrap_row(what, tw, &next);
			int y = y0 + line - top;

			if (len >= sizeof(buf))
				len = sizeof(buf) - 1;
			memcpy(buf, what, len);
			buf[len] = 0;
			if (g && y >= y0 && y < y0 + rows) {
				if (first)
					fts_grid_text(g, x0 + 2, y, 12, k, fts_theme_style(&s->theme, FTS_R_HEADER));
				fts_grid_text(g, x0 + 15, y, w - 17, buf, fts_theme_style(&s->theme, FTS_R_DETAILS));
			}
			what = next;
		}
	}
	return line;
}

static const struct fts_bindings *help_keys(const struct fts_session *s, const struct fts_screen_ops *op)
{
	return op->keys_now ? op->keys_now(s) : op->keys;
}

/* The box: @w columns wide; its text rows (between the title row and the bottom row) for @lines. */
static int help_width(int gw)
{
	return gw > 76 ? 72 : gw - 4;
}

static int help_rows(int gh, int lines)
{
	int h = lines + 2;

	if (h > gh - 2)
		h = gh - 2;
	return h - 2 > 1 ? h - 2 : 1;
}

/*
 * The help overlay: the screen's key table, then the keys every screen has,
 * wrapped to the box; longer than the screen, it scrolls (j/k, PgUp/PgDn),
 * and its bottom row says which lines show, as the preview's help does.
 */
static void draw_help(const struct fts_session *s, struct fts_grid *g, const struct fts_screen_ops *op)
{
	const struct fts_bindings *t = help_keys(s, op);
	struct fts_style box = fts_theme_style(&s->theme, FTS_R_DETAILS);
	int w = help_width(g->w), lines = help_layout(s, NULL, t, 0, w, 0, 0, 0);
	int rows = help_rows(g->h, lines), top = s->help_top, x0, y0;

	if (top > lines - rows)
		top = lines - rows > 0 ? lines - rows : 0;
	x0 = (g->w - w) / 2;
	y0 = (g->h - rows - 2) / 2;
	for (int y = y0; y < y0 + rows + 2; y++)
		fts_grid_fill(g, x0, y, w, ' ', box);
	fts_grid_printf(g, x0 + 2, y0, w - 4, fts_theme_style(&s->theme, FTS_R_HEADER), "Keys: %s", op->title);
	help_layout(s, g, t, x0, w, top, y0 + 1, rows);
	if (lines > rows)
		fts_grid_printf(g, x0 + 2, y0 + rows + 1, w - 4, fts_theme_style(&s->theme, FTS_R_DIM),
				"lines %d-%d of %d; j/k PgUp/PgDn scroll, any other key closes", top + 1, top + rows, lines);
}

unsigned fts_session_help_key(struct fts_session *s, int k)
{
	const struct fts_screen_ops *op = fts_session_screen(s->cur);
	int lines = help_layout(s, NULL, help_keys(s, op), 0, help_width(s->w), 0, 0, 0);
	int rows = help_rows(s->h, lines), top = s->help_top;

	if (lines <= rows) {
		s->help = 0;
		return FTS_RX_REDRAW;
	}
	if (k == 'j' || k == FTS_KEY_DOWN)
		top++;
	else if (k == 'k' || k == FTS_KEY_UP)
		top--;
	else if (k == FTS_KEY_PGDN || k == ' ')
		top += rows;
	else if (k == FTS_KEY_PGUP)
		top -= rows;
	else
		s->help = 0;
	if (top > lines - rows)
		top = lines - rows;
	s->help_top = top > 0 ? top : 0;
	return FTS_RX_REDRAW;
}

/*
 * The status message on the row above the keys; one too long for it takes
 * the command-line row too (split at a space), so an error is read whole.
 */
static void draw_message(const struct fts_session *s, struct fts_grid *g)
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

void fts_session_cmdline(const struct fts_session *s, struct fts_grid *g, const char *cmd)
{
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	int x;

	if (g->h < 4 || !cmd[0])
		return;
	x = fts_grid_text(g, 0, g->h - 3, g->w, " $ ", dim);
	fts_grid_text(g, x, g->h - 3, g->w - x, cmd, dim);
}

void fts_session_compose(const struct fts_session *s, struct fts_grid *g)
{
	const struct fts_screen_ops *op = fts_session_screen(s->cur);

	op->draw(s, g);
	if (op->full)
		return;
	draw_message(s, g);
	if (s->help)
		draw_help(s, g, op);
}

void fts_session_init(struct fts_session *s, enum fts_scr start, const struct fts_machine *m, int utf8,
		      int colors, int no_color)
{
	memset(s, 0, sizeof(*s));
	s->mach = m;
	s->cur = start;
	s->back = FTS_SCR_HOME;
	s->colors = colors;
	fts_theme_init(&s->theme, utf8, colors, no_color);
}

void fts_session_resize(struct fts_session *s, int w, int h)
{
	const struct fts_screen_ops *op = fts_session_screen(s->cur);

	s->w = w;
	s->h = h;
	if (op->layout)
		op->layout(s);
}

/* Make @scr current and enter it. */
static void go(struct fts_session *s, enum fts_scr scr)
{
	const struct fts_screen_ops *op = fts_session_screen(scr);

	s->cur = scr;
	s->help = 0;
	s->help_top = 0;
	if (op->enter && s->msg_carry) {
		/* why the last screen was left (a preview that could not load): enter clears its own */
		char msg[sizeof(s->msg)];
		int err = s->msg_err;

		memcpy(msg, s->msg, sizeof(msg));
		op->enter(s);
		memcpy(s->msg, msg, sizeof(msg));
		s->msg_err = err;
	} else if (op->enter) {
		op->enter(s);
	}
	s->msg_carry = 0;
	if (op->layout)
		op->layout(s);
}

unsigned fts_session_follow(struct fts_session *s, unsigned r)
{
	if (r & FTS_RX_GOTO) {
		go(s, s->next);
		r |= FTS_RX_REDRAW | FTS_RX_CLEAR;
	}
	if (r & FTS_RX_PREVIEW) {
		/* a fresh capture's preview goes back home, which lists it */
		s->back = s->cur == FTS_SCR_RECORD || s->cur == FTS_SCR_SAVED ? FTS_SCR_HOME : s->cur;
		go(s, FTS_SCR_PREVIEW);
		r |= FTS_RX_REDRAW | FTS_RX_CLEAR;
	}
	return r & ~(unsigned)(FTS_RX_GOTO | FTS_RX_PREVIEW);
}

int fts_session_leave(struct fts_session *s, int sig)
{
	int busy = 0;

	for (int i = 0; i < FTS_SCR__COUNT; i++) {
		const struct fts_screen_ops *op = fts_session_screen((enum fts_scr)i);

		if (op->leave && op->leave(s, sig))
			busy = 1;
	}
	return busy;
}

const struct fts_screen_ops *fts_session_screen(enum fts_scr scr)
{
	return screens[scr];
}
