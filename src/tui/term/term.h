/* SPDX-License-Identifier: MIT */
/*
 * term.h - the thin ncursesw layer: open and restore the terminal, blit a
 * grid, and deliver keys, mouse and signals as one stream of loop events.
 *
 * Signals go through a self-pipe (tmux's proc.c): the handlers only write
 * the signal's number into a pipe, and fts_term_read polls the terminal and
 * the pipe together, so a signal wakes the loop at once instead of after a
 * read timeout. SIGWINCH, SIGTSTP, SIGCONT and the terminating signals
 * (SIGTERM, SIGHUP, SIGINT, SIGQUIT) all arrive that way; crash signals
 * restore the terminal in the handler and re-raise.
 */
#ifndef FTS_TUI_TERM_H
#define FTS_TUI_TERM_H

#include <stddef.h>

#include "tui/widgets/grid.h"
#include "tui/widgets/keys.h"

/* fts_term_read results besides key codes */
#define FTS_TERM_NONE    (-1)  /* timeout, nothing read */
#define FTS_TERM_RESIZE  (-2)  /* SIGWINCH: curses knows the new size */
#define FTS_TERM_MOUSE   (-3)  /* see the mouse fields */
#define FTS_TERM_SIGNAL  (-4)  /* a terminating signal: fts_term_pending_signal */
#define FTS_TERM_SUSPEND (-5)  /* Ctrl+Z (SIGTSTP): the loop decides, fts_term_suspend */
#define FTS_TERM_RESUME  (-6)  /* SIGCONT: the modes are set again; repaint everything */

struct fts_term_mouse {
	enum fts_mouse ev;
	int x, y;
};

/**
 * fts_term_open - enter curses mode and install the signal handlers
 * @colors: filled with the colours to use (0, 8 or 256)
 * @why: filled with a one-line reason on failure (the TERM name is escaped)
 * @whylen: its size
 *
 * Uses newterm(), so an unknown TERM is an error returned here, not an exit
 * inside curses.
 *
 * Returns 0, or -ENOTTY (no terminal, TERM unset or dumb), -ENOENT (terminfo
 * does not know TERM) or another negative errno.
 */
int fts_term_open(int *colors, char *why, size_t whylen);

/**
 * fts_term_close - leave curses mode and give the signals back (idempotent)
 */
void fts_term_close(void);

/**
 * fts_term_size - the terminal's size
 * @w: columns
 * @h: rows
 */
void fts_term_size(int *w, int *h);

/**
 * fts_term_blit - show @g
 * @g: the grid, the terminal's size
 * @clear: repaint everything (after Ctrl+L, a resume)
 */
void fts_term_blit(const struct fts_grid *g, int clear);

/**
 * fts_term_read - the next event, waiting at most @timeout_ms
 * @timeout_ms: 0: do not wait
 * @m: filled for FTS_TERM_MOUSE
 *
 * Returns a keys.h code or FTS_TERM_*.
 */
int fts_term_read(int timeout_ms, struct fts_term_mouse *m);

/**
 * fts_term_suspend - leave curses mode and stop the process (Ctrl+Z)
 *
 * Returns after the shell continues it (fg); the SIGCONT that did so
 * arrives next as FTS_TERM_RESUME, which sets the modes again.
 */
void fts_term_suspend(void);

/**
 * fts_term_pending_signal - the terminating signal received, or 0
 *
 * Returns the signal number.
 */
int fts_term_pending_signal(void);

/**
 * fts_term_reraise - restore the terminal, then die of @sig as if unhandled
 * @sig: the signal
 */
void fts_term_reraise(int sig) __attribute__((noreturn));

#endif
