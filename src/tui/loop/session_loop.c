// SPDX-License-Identifier: MIT
/*
 * session_loop.c - the one input loop (ncdu's input_handle): the current
 * screen's draw when something changed, its tick on a timer for live data
 * and workers, its key and mouse handlers for input. `ftscope`, `ftscope
 * record --tui` and `ftscope preview FILE` all run here; only the first
 * screen differs.
 *
 * The session struct lives on session()'s stack; the only process-wide
 * state is the terminal's (term.c). Signals arrive as loop events: a resize
 * redraws, Ctrl+Z suspends (during a recording only when pressed twice,
 * since the kernel keeps filling the ring buffers while the readers are
 * stopped), SIGCONT repaints, and a terminating signal (SIGHUP from a
 * dropped SSH session, SIGTERM, Ctrl+C) lets every screen make itself safe
 * (the record screen saves the capture, with its progress on screen),
 * restores the terminal, then re-raises.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/term_safe.h"
#include "core/internal.h"
#include "tui/widgets/keys.h"
#include "tui/widgets/locale.h"
#include "tui/session/session.h"
#include "tui/term/term.h"
#include "tui/tui.h"

/* Ctrl+Z during a recording suspends only when pressed again within this. */
#define SUSPEND_CONFIRM_MS 5000

/*
 * Input read while a screen works (its poll), kept for the loop in order.
 * A quit key or a terminating signal (a hung-up terminal's SIGHUP too) tells
 * the work to stop: the loop then quits or leaves on the signal, however
 * long the work would have run (issue 21: a spinning preview ignored q,
 * Ctrl+C, SIGTERM and SIGHUP and outlived its terminal).
 */
#define QUEUED_MAX 64
struct queued {
	int key[QUEUED_MAX];
	int head, n;
};

static void queue_push(struct queued *q, int k)
{
	if (q->n < QUEUED_MAX)
		q->key[(q->head + q->n++) % QUEUED_MAX] = k;
}

static int queue_pop(struct queued *q)
{
	int k = q->key[q->head];

	q->head = (q->head + 1) % QUEUED_MAX;
	q->n--;
	return k;
}

static int work_poll(void *ctx)
{
	struct queued *q = ctx;
	struct fts_term_mouse m;

	for (int i = 0; i < QUEUED_MAX; i++) {
		int k = fts_term_read(0, &m);

		if (k == FTS_TERM_NONE)
			return 0;
		if (k == FTS_TERM_SIGNAL)
			return 1;
		if (k == FTS_TERM_MOUSE)
			continue; /* a position from before the work: dropped */
		queue_push(q, k);
		if (k == 'q' || k == FTS_KEY_CTRL('c'))
			return 1;
	}
	return 0;
}

static void draw(struct fts_session *s, int clear)
{
	int w, h;

	fts_term_size(&w, &h);
	if ((s->grid.w != w || s->grid.h != h) && fts_grid_resize(&s->grid, w, h, s->theme.utf8))
		return;
	fts_session_compose(s, &s->grid);
	fts_term_blit(&s->grid, clear);
}

static void resized(struct fts_session *s)
{
	int w, h;

	fts_term_size(&w, &h);
	fts_session_resize(s, w, h);
}

/* Ctrl+Z: suspend, but warn first while the kernel would go on filling the buffers. */
static unsigned suspend(struct fts_session *s, uint64_t *warned_ms)
{
	uint64_t now = fts__clock_mono_ms();

	if (fts_record_running(s) && (!*warned_ms || now - *warned_ms > SUSPEND_CONFIRM_MS)) {
		*warned_ms = now;
		fts_session_say(s, 1, "Ctrl+Z again within 5 s suspends: while stopped, the kernel keeps "
			       "filling the ring buffers and events get lost");
		return FTS_RX_REDRAW;
	}
	*warned_ms = 0;
	fts_term_suspend();
	/* the recorder measures the stop; the record screen says it was Ctrl+Z */
	s->suspends++;
	return FTS_RX_REDRAW | FTS_RX_CLEAR; /* the SIGCONT event repaints too */
}

/* One event to the current screen; returns its reactions. */
static unsigned dispatch(struct fts_session *s, int k, const struct fts_term_mouse *m, uint64_t *warned_ms)
{
	const struct fts_screen_ops *op = fts_session_screen(s->cur);

	switch (k) {
	case FTS_TERM_NONE:
		return 0;
	case FTS_TERM_RESIZE:
	case FTS_TERM_RESUME:
		resized(s);
		return FTS_RX_REDRAW | FTS_RX_CLEAR;
	case FTS_TERM_SUSPEND:
		return suspend(s, warned_ms);
	case FTS_TERM_MOUSE:
		return op->mouse ? op->mouse(s, m->ev, m->x, m->y) : 0;
	default:
		break;
	}
	if (k < 0)
		return 0;
	if (op->full)
		return op->key(s, k);
	if (k == FTS_KEY_CTRL('l'))
		return FTS_RX_REDRAW | FTS_RX_CLEAR;
	if (s->help)
		return fts_session_help_key(s, k);
	if (k == '?') {
		s->help = 1;
		s->help_top = 0;
		return FTS_RX_REDRAW;
	}
	return op->key(s, k);
}

/* The tick of the current screen when it is due; the wait until the next one. */
static unsigned tick(struct fts_session *s, uint64_t *next_tick, int *wait)
{
	const struct fts_screen_ops *op = fts_session_screen(s->cur);
	uint64_t t = fts__clock_mono_ms();
	unsigned r = 0;

	*wait = 1000;
	if (!op->tick)
		return 0;
	if (t >= *next_tick) {
		r = op->tick(s);
		*next_tick = fts__clock_mono_ms() + (uint64_t)op->tick_ms;
		t = fts__clock_mono_ms();
	}
	*wait = *next_tick > t ? (int)(*next_tick - t) : 0;
	return r;
}

/* Returns the terminating signal that ended the loop, or 0 on quit. */
static int run(struct fts_session *s)
{
	unsigned r = FTS_RX_REDRAW;
	uint64_t next_tick = 0, warned_ms = 0;
	struct queued *q = s->poll_ctx;

	for (;;) {
		struct fts_term_mouse m;
		int k, wait;

		unsigned t;

		r = fts_session_follow(s, r);
		if (r & FTS_RX_QUIT)
			return 0;
		t = tick(s, &next_tick, &wait);
		r |= t;
		if (t & (FTS_RX_GOTO | FTS_RX_PREVIEW | FTS_RX_QUIT)) {
			next_tick = 0; /* the next screen ticks at once */
			continue;
		}
		/* a signal read while a screen worked ends the session now */
		if (fts_term_pending_signal())
			return fts_term_pending_signal();
		if (r & FTS_RX_REDRAW)
			draw(s, (r & FTS_RX_CLEAR) != 0);
		r = 0;
		k = q->n ? queue_pop(q) : fts_term_read(wait, &m);
		if (k == FTS_TERM_SIGNAL)
			return fts_term_pending_signal();
		r = dispatch(s, k, &m, &warned_ms);
	}
}

/*
 * The session ends: every screen makes itself safe. A recording being saved
 * keeps its screen up (s escalates, as while stopping); on a hang-up the
 * terminal is gone, so nothing is drawn or read.
 */
static void leave(struct fts_session *s, int sig)
{
	while (fts_session_leave(s, sig)) {
		const struct fts_screen_ops *op = fts_session_screen(s->cur);
		struct fts_term_mouse m;
		int k;

		if (sig == SIGHUP) {
			nanosleep(&(struct timespec){ .tv_nsec = 50000000 }, NULL);
			continue;
		}
		if (op->tick)
			op->tick(s);
		draw(s, 0);
		k = fts_term_read(100, &m);
		if (k >= 0)
			op->key(s, k);
	}
}

static int session(enum fts_scr start, const struct fts_record_opts *preset, const char *prog,
		   const char *hint, const struct fts_preview_args *a)
{
	struct fts_session s;
	struct queued queued = { .n = 0 };
	const char *busy = getenv("FTS_TEST_BUSY_MS");
	char why[300];
	int sig, colors = 0, utf8 = fts_locale_utf8();

	if (fts_term_open(&colors, why, sizeof(why))) {
		fprintf(stderr, "%s: ", prog);
		fts_fputs_safe(stderr, why);
		fprintf(stderr, "; %s\n", hint);
		return 2;
	}
	/* a dropped SSH session turns terminal writes into EIO/EPIPE, not a kill */
	signal(SIGPIPE, SIG_IGN);
	fts_session_init(&s, start, &fts_machine_real, utf8, colors, fts_no_color());
	s.preset = preset;
	s.poll = work_poll;
	s.poll_ctx = &queued;
	s.test_busy_ms = busy ? (unsigned)strtoul(busy, NULL, 10) : 0;
	if (a) {
		s.preview_only = 1;
		snprintf(s.preview_path, sizeof(s.preview_path), "%s", a->path);
		snprintf(s.preview_pidmap, sizeof(s.preview_pidmap), "%s", a->pid_mapping ? a->pid_mapping : "");
		s.no_cache = a->no_cache;
		snprintf(s.preview_profiling, sizeof(s.preview_profiling), "%s",
			 a->profiling_data ? a->profiling_data : "");
	}
	resized(&s);
	if (fts_session_screen(s.cur)->enter)
		fts_session_screen(s.cur)->enter(&s);
	sig = run(&s);
	leave(&s, sig);
	fts_grid_free(&s.grid);
	if (sig)
		fts_term_reraise(sig);
	fts_term_close();
	if (s.exit_msg[0]) {
		fprintf(stderr, "%s: ", prog);
		fts_fputs_safe(stderr, s.exit_msg);
		fputc('\n', stderr);
	}
	return s.exit_code;
}

int fts_tui_session(void)
{
	return session(FTS_SCR_HOME, NULL, "ftscope", "run 'ftscope help' for the commands", NULL);
}

int fts_tui_record_setup(const struct fts_record_opts *o)
{
	return session(FTS_SCR_SETUP, o, "ftscope", "run 'ftscope help' for the commands", NULL);
}

int fts_tui_preview(const struct fts_preview_args *a)
{
	return session(FTS_SCR_PREVIEW, NULL, "ftscope preview", "use --print WxH to render a screen as text", a);
}
