// SPDX-License-Identifier: MIT
/*
 * session_loop.c - the interactive session's loop: one current screen, its draw
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

#include "kit/kit.h"
#include "tui/kit/keys.h"
#include "tui/session/session.h"
#include "tui/term/term.h"
#include "tui/tui.h"

static void draw(struct fts_session *s, int clear)
{
	int w, h;

	fts_term_size(&w, &h);
	if ((s->grid.w != w || s->grid.h != h) && fts_grid_resize(&s->grid, w, h, s->theme.utf8))
		return;
	fts_session_compose(s, &s->grid);
	fts_term_blit(&s->grid, clear);
}

static int pump(struct fts_session *s, int *keys, int max, int *sig)
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
		if (fts_session_screen(i)->on_signal)
			fts_session_screen(i)->on_signal(s, sig);
	}
}

/* What the loop does with a screen's flags besides drawing. */
static unsigned follow(struct fts_session *s, unsigned r, int *sig)
{
	if (r & FTS_SR_GOTO) {
		s->cur = s->next;
		s->help = 0;
		if (fts_session_screen(s->cur)->enter)
			fts_session_screen(s->cur)->enter(s);
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
	s.pump = pump;
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
	if (fts_session_screen(s.cur)->enter)
		fts_session_screen(s.cur)->enter(&s);
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
		op = fts_session_screen(s.cur);
		if (r & FTS_SR_REDRAW)
			draw(&s, (r & FTS_SR_CLEAR) != 0);
		r = 0;
		t = fts__clock_mono_ms();
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
		if (op->tick && fts__clock_mono_ms() >= next_tick) {
			r |= op->tick(&s);
			next_tick = fts__clock_mono_ms() + (uint64_t)op->tick_ms;
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

int fts_tui_session(void)
{
	return fts_session_run(FTS_SCR_HOME, NULL);
}

int fts_tui_record_setup(const struct fts_record_opts *o)
{
	return fts_session_run(FTS_SCR_SETUP, o);
}
