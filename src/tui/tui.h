/* SPDX-License-Identifier: MIT */
/*
 * tui.h - the preview's two front doors, called by `ftscope preview`:
 * an interactive ncursesw session (tui_main.c) and `--print`, which renders
 * one screen as text without a terminal (print.c).
 */
#ifndef FTS_TUI_TUI_H
#define FTS_TUI_TUI_H

#include <stdio.h>

#include <ftscope/pipeline.h>
#include <ftscope/record.h>

#include "tui/kit/grid.h"
#include "tui/kit/theme.h"

struct fts_preview_args {
	const char *path;            /* the capture or DB */
	const char *profiling_data;  /* NULL: none */
	const char *pid_mapping;     /* NULL: none */
	int print_w, print_h;        /* --print WxH; 0: interactive */
	const char *keys;            /* --keys, NULL: none */
	int color;                   /* --color */
	int timing;                  /* --timing: per-frame times to stderr */
};

/**
 * fts_tui_print - load, replay the keys, write one screen to @out
 * @a: arguments (print_w, print_h set)
 * @out: where the screen goes
 * @errf: where the one error line (and --timing figures) go
 *
 * Returns the exit status: 0, 1 when the input cannot be loaded, 2 for bad keys.
 */
int fts_tui_print(const struct fts_preview_args *a, FILE *out, FILE *errf);

/**
 * fts_tui_preview - the interactive previewer on this terminal
 * @a: arguments
 *
 * Returns the exit status: 0 on quit, 1 when the input cannot be loaded,
 * 2 when stdin/stdout is not a terminal or TERM=dumb.
 */
int fts_tui_preview(const struct fts_preview_args *a);

/**
 * fts_tui_preview_here - the previewer on a terminal the caller already opened
 * @a: arguments (path, profiling_data, pid_mapping)
 * @colors: what fts_term_open reported
 * @exit_key: a key that leaves the view with 2 (the session's export), 0: none
 * @msg: filled with the load error
 * @msglen: its size
 *
 * The terminal stays open (the interactive session goes on after it).
 *
 * Returns 0 when the user quit, 1 when the input cannot be loaded, 2 after
 * @exit_key, or -signal when a terminating signal arrived.
 */
int fts_tui_preview_here(const struct fts_preview_args *a, int colors, int exit_key, char *msg,
			 size_t msglen);

/**
 * fts_tui_session - the interactive session on this terminal, at home
 *
 * Returns the exit status (0 on quit; 2 when this is no terminal); a
 * terminating signal restores the terminal and the tracing state, then
 * re-raises.
 */
int fts_tui_session(void);

/**
 * fts_tui_record_setup - the interactive session at its setup screen
 * @o: the record options `ftscope record --tui` parsed
 *
 * Returns as fts_tui_session().
 */
int fts_tui_record_setup(const struct fts_record_opts *o);

/**
 * fts_progress_draw - the loading screen into @g
 * @g: the grid (any size)
 * @t: the theme
 * @path: the file being loaded (untrusted)
 * @p: the latest progress report
 */
void fts_progress_draw(struct fts_grid *g, const struct fts_theme *t, const char *path,
		       const struct fts_progress *p);

/**
 * fts_locale_utf8 - set the locale from the environment and say whether it is UTF-8
 *
 * Returns 1 for UTF-8, else 0 (ASCII glyphs and borders).
 */
int fts_locale_utf8(void);

/**
 * fts_no_color - whether NO_COLOR asks for monochrome (set and not empty)
 *
 * Returns 1 or 0.
 */
int fts_no_color(void);

#endif
