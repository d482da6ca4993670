// SPDX-License-Identifier: MIT
/*
 * session.c - the interactive session's loop: one current screen, its draw
 * when something changed, its tick on a timer for live data, its key
 * handler for input; the previewer runs on the same terminal in between.
 *
 * The session struct lives on fts_session_run's stack; the only process-wide
 * state is the terminal's (term.c). A terminating signal (SIGHUP from a
 * dropped SSH session, SIGTERM, Ctrl+C) lets every screen make itself safe
 * (the record screen saves the capture and restores tracing), restores the
 * terminal, then re-raises.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "keys.h"
#include "session.h"
#include "term.h"
#include "tui.h"

static const struct fts_screen_ops *const screens[FTS_SCR__COUNT] = {
	[FTS_SCR_HOME] = &fts_screen_home,
	[FTS_SCR_SETUP] = &fts_screen_setup,
	[FTS_SCR_RECORD] = &fts_screen_record,
	[FTS_SCR_EXPORT] = &fts_screen_export,
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

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

static void draw(struct fts_session *s, int clear)
{
	int w, h;
	const struct fts_screen_ops *op = screens[s->cur];

	fts_term_size(&w, &h);
	if ((s->grid.w != w || s->grid.h != h) && fts_grid_resize(&s->grid, w, h, s->theme.utf8))
		return;
	s->cmdline[0] = 0;
	op->draw(s, &s->grid);
	/* after the screen: its draw is what sets the equivalent command line */
	if (s->grid.h >= 4 && s->cmdline[0]) {
		struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
		int x = fts_grid_text(&s->grid, 0, s->grid.h - 3, s->grid.w, " $ ", dim);

		fts_grid_text(&s->grid, x, s->grid.h - 3, s->grid.w - x, s->cmdline, dim);
	}
	draw_message(s, &s->grid);
	if (s->help)
		draw_help(s, &s->grid, op);
	fts_term_blit(&s->grid, clear);
}

int fts_session_pump(struct fts_session *s, int *keys, int max, int *sig)
{
	struct fts_term_mouse m;
	int n = 0, k;

	*sig = fts_term_pending_signal();
	if (*sig)
		return 0;
	if (s->grid.cells)
		draw(s, 0);
	while (n < max && (k = fts_term_read(0, &m)) != FTS_TERM_NONE) {
		if (k == FTS_TERM_SIGNAL) {
			*sig = fts_term_pending_signal();
			break;
		}
		if (k >= 0)
			keys[n++] = k;
	}
	return n;
}

int fts_session_preview(struct fts_session *s, const char *path, const char *profiling,
			const char *pid_mapping)
{
	struct fts_preview_args a = { .path = path, .profiling_data = profiling, .pid_mapping = pid_mapping };
	char msg[512];
	int rc = fts_tui_preview_here(&a, s->colors, 'e', msg, sizeof(msg));

	if (rc == 1)
		fts_session_say(s, 1, "cannot open it: %s", msg);
	return rc;
}

static void signal_all(struct fts_session *s, int sig)
{
	for (int i = 0; i < FTS_SCR__COUNT; i++) {
		if (screens[i]->on_signal)
			screens[i]->on_signal(s, sig);
	}
}

/* What the loop does with a screen's flags besides drawing. */
static unsigned follow(struct fts_session *s, unsigned r, int *sig)
{
	if (r & FTS_SR_GOTO) {
		s->cur = s->next;
		s->help = 0;
		if (screens[s->cur]->enter)
			screens[s->cur]->enter(s);
		r |= FTS_SR_REDRAW | FTS_SR_CLEAR;
	}
	if (r & FTS_SR_PREVIEW) {
		int rc = fts_session_preview(s, s->preview_path, NULL,
					     s->preview_pidmap[0] ? s->preview_pidmap : NULL);

		s->preview_pidmap[0] = 0;

		if (rc < 0) {
			*sig = -rc;
		} else if (rc == 2) {
			snprintf(s->export_input, sizeof(s->export_input), "%s", s->preview_path);
			s->cur = FTS_SCR_EXPORT;
			s->help = 0;
			fts_screen_export.enter(s);
		} else if (rc == 0 && s->cur == FTS_SCR_RECORD) {
			/* back from a fresh capture's preview: home lists it */
			s->cur = FTS_SCR_HOME;
			fts_screen_home.enter(s);
		}
		r |= FTS_SR_REDRAW | FTS_SR_CLEAR;
	}
	return r;
}

int fts_session_run(enum fts_scr start, const struct fts_record_opts *preset)
{
	struct fts_session s;
	unsigned r = FTS_SR_REDRAW;
	uint64_t next_tick = 0;
	int sig = 0, colors = 0;

	if (!fts_term_usable()) {
		fprintf(stderr, "ftscope: not an interactive terminal (or TERM=dumb); run 'ftscope help' for the commands\n");
		return 2;
	}
	memset(&s, 0, sizeof(s));
	s.preset = preset;
	s.theme.utf8 = fts_locale_utf8();
	if (fts_term_open(&colors)) {
		fprintf(stderr, "ftscope: cannot open the terminal\n");
		return 2;
	}
	/* a dropped SSH session turns terminal writes into EIO/EPIPE, not a kill */
	signal(SIGPIPE, SIG_IGN);
	s.colors = colors;
	fts_theme_init(&s.theme, s.theme.utf8, colors, fts_no_color());
	s.cur = start;
	if (screens[s.cur]->enter)
		screens[s.cur]->enter(&s);
	for (;;) {
		const struct fts_screen_ops *op;
		struct fts_term_mouse m;
		uint64_t t;
		int k, wait;

		/* a hang-up during a stop: save is done, open nothing on a dead terminal */
		if ((sig = fts_term_pending_signal()))
			break;
		r = follow(&s, r, &sig);
		if (sig || (r & FTS_SR_QUIT))
			break;
		op = screens[s.cur];
		if (r & FTS_SR_REDRAW)
			draw(&s, (r & FTS_SR_CLEAR) != 0);
		r = 0;
		t = now_ms();
		wait = 1000;
		if (op->tick) {
			if (!next_tick || next_tick < t)
				next_tick = t;
			wait = (int)(next_tick - t);
		}
		k = fts_term_read(wait, &m);
		if (k == FTS_TERM_SIGNAL) {
			sig = fts_term_pending_signal();
			break;
		}
		if (k == FTS_TERM_RESIZE) {
			r |= FTS_SR_REDRAW | FTS_SR_CLEAR;
		} else if (k == FTS_KEY_CTRL('l')) {
			r |= FTS_SR_REDRAW | FTS_SR_CLEAR;
		} else if (k >= 0 && s.help) {
			s.help = 0;
			r |= FTS_SR_REDRAW;
		} else if (k == '?') {
			s.help = 1;
			r |= FTS_SR_REDRAW;
		} else if (k >= 0) {
			r |= op->key(&s, k);
		}
		if (op->tick && now_ms() >= next_tick) {
			r |= op->tick(&s);
			next_tick = now_ms() + (uint64_t)op->tick_ms;
		}
	}
	/* every screen makes itself safe: a recording is saved, tracing restored */
	signal_all(&s, sig);
	fts_grid_free(&s.grid);
	if (sig)
		fts_term_reraise(sig);
	fts_term_close();
	return 0;
}
