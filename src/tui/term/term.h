/* SPDX-License-Identifier: MIT */
/*
 * term.h - the thin ncursesw layer: open and restore the terminal, blit a
 * grid, read keys and mouse as keys.h codes, and restore the terminal on
 * every way out (quit, error, SIGTERM/SIGHUP/SIGINT, crash signals).
 */
#ifndef FTS_TUI_TERM_H
#define FTS_TUI_TERM_H

#include "tui/kit/grid.h"
#include "tui/kit/keys.h"

/* fts_term_read results besides key codes */
#define FTS_TERM_NONE   (-1)   /* timeout, nothing read */
#define FTS_TERM_RESIZE (-2)
#define FTS_TERM_MOUSE  (-3)   /* see the mouse fields */
#define FTS_TERM_SIGNAL (-4)   /* a terminating signal arrived: restore and re-raise */

struct fts_term_mouse {
	enum fts_mouse ev;
	int x, y;
};

/**
 * fts_term_usable - whether stdin and stdout are a terminal and TERM is not dumb
 *
 * Returns 1 or 0.
 */
int fts_term_usable(void);

/**
 * fts_term_open - enter curses mode and install the restoring signal handlers
 * @colors: filled with the colours to use (0, 8 or 256)
 *
 * Returns 0 or -ENOTTY.
 */
int fts_term_open(int *colors);

/**
 * fts_term_close - leave curses mode (idempotent)
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
 * @clear: repaint everything (after Ctrl+L)
 */
void fts_term_blit(const struct fts_grid *g, int clear);

/**
 * fts_term_read - the next key, waiting at most @timeout_ms
 * @timeout_ms: 0: do not wait
 * @m: filled for FTS_TERM_MOUSE
 *
 * Returns a keys.h code or FTS_TERM_*.
 */
int fts_term_read(int timeout_ms, struct fts_term_mouse *m);

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
