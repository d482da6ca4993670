/* SPDX-License-Identifier: MIT */
/*
 * tui.h - the TUI's front doors, the only header the CLI includes: the
 * interactive session (at home, at the setup screen, or at the preview of one
 * file: one loop, loop/session_loop.c) and `--print`, which renders one
 * preview screen as text without a terminal (preview/print.c).
 */
#ifndef FTS_TUI_TUI_H
#define FTS_TUI_TUI_H

#include <stdio.h>

#include <ftscope/pipeline.h>
#include <ftscope/record.h>


struct fts_preview_args {
	const char *path;            /* the capture or DB */
	const char *profiling_data;  /* NULL: none */
	const char *pid_mapping;     /* NULL: none */
	int print_w, print_h;        /* --print WxH; 0: interactive */
	const char *keys;            /* --keys, NULL: none */
	int color;                   /* --color */
	int timing;                  /* --timing: per-frame times to stderr */
	int no_cache;                /* --no-cache: neither read nor write the store cache */
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
 * The session's loop, entered at its preview screen: q quits.
 *
 * Returns the exit status: 0 on quit (also a load cancelled with q), 1 when
 * the input cannot be loaded, 2 when stdin/stdout is not a terminal, TERM
 * is dumb or terminfo does not know it.
 */
int fts_tui_preview(const struct fts_preview_args *a);

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

#endif
