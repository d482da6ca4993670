/* SPDX-License-Identifier: MIT */
/*
 * session.h - the interactive session's screens as a small state machine
 * (ncdu's and htop's shape): home -> setup -> record -> preview -> export.
 *
 * Each screen has one draw (state -> grid), one key handler and an optional
 * tick for live data; handlers return FTS_SR_* flags instead of drawing. The
 * loop in session.c samples ticks on a timer and blits only when a screen
 * says it is dirty. Work that takes long (probe, stop, export) runs in small
 * steps from the tick or in a worker thread, so no screen blocks.
 */
#ifndef FTS_TUI_SESSION_H
#define FTS_TUI_SESSION_H

#include <stdint.h>

#include <ftscope/record.h>

#include "tui/kit/grid.h"
#include "tui/kit/theme.h"

#define FTS_SR_REDRAW  0x01u   /* draw again */
#define FTS_SR_QUIT    0x02u   /* leave the session (exit 0) */
#define FTS_SR_GOTO    0x04u   /* switch to s->next */
#define FTS_SR_PREVIEW 0x08u   /* open s->preview_path in the previewer, then come back */
#define FTS_SR_CLEAR   0x10u   /* repaint the whole terminal */

enum fts_scr {
	FTS_SCR_HOME,
	FTS_SCR_SETUP,
	FTS_SCR_RECORD,
	FTS_SCR_EXPORT,
	FTS_SCR__COUNT
};

struct fts_session;

struct fts_screen_ops {
	const char *title;
	void (*enter)(struct fts_session *s);             /* made current (may be NULL) */
	void (*draw)(struct fts_session *s, struct fts_grid *g);
	unsigned (*key)(struct fts_session *s, int key);  /* keys.h codes */
	unsigned (*tick)(struct fts_session *s);          /* live data; NULL: none */
	int tick_ms;                                      /* how often tick runs */
	/* the help overlay: "key", "what it does" pairs, NULL-terminated */
	const char *const *help;
	/*
	 * The session ends: @sig is the terminating signal (0 on quit). Make
	 * things safe (a running capture is saved) and free the state (may be NULL).
	 */
	void (*on_signal)(struct fts_session *s, int sig);
};

struct fts_home_state;
struct fts_setup_state;
struct fts_record_state;
struct fts_export_state;

struct fts_session {
	struct fts_theme theme;
	struct fts_grid grid;            /* the loop draws every screen into it */
	int colors;
	enum fts_scr cur, next;
	int help;                        /* the help overlay is up */
	char msg[512];                   /* the status message (untrusted bytes allowed) */
	int msg_err;                     /* show it as an error */
	char cmdline[8192];              /* the equivalent command line of the current screen */
	char setup_cmdline[8192];        /* the record command the setup screen started */
	/* what record --tui passed, for the setup screen */
	const struct fts_record_opts *preset;
	/* between screens */
	char preview_path[4096];         /* FTS_SR_PREVIEW: what to open */
	char preview_pidmap[4096];       /* and its pid mapping ("" none), for one preview */
	char export_input[4096];         /* the capture the export screen starts with */
	char last_capture[4096];         /* the last recording saved */
	struct fts_record_opts rec_opts; /* what setup hands to record; strings below */
	char rec_cpus[1024];
	char rec_output[4096];
	struct fts_home_state *home;
	struct fts_setup_state *setup;
	struct fts_record_state *rec;
	struct fts_export_state *exp;
	/* set by the loop: see fts_session_pump */
	int (*pump)(struct fts_session *s, int *keys, int max, int *sig);
};

/* the screens (screen_*.c) */
extern const struct fts_screen_ops fts_screen_home, fts_screen_setup, fts_screen_record,
	fts_screen_export;

/**
 * fts_session_run - the interactive session on this terminal
 * @start: the first screen (home, or setup for record --tui)
 * @preset: record options for the setup screen, or NULL
 *
 * Returns the exit status (0 on quit; 2 when this is no terminal); a
 * terminating signal restores the terminal and the tracing state, then
 * re-raises.
 */
int fts_session_run(enum fts_scr start, const struct fts_record_opts *preset);

/**
 * fts_session_say - set the status message
 * @s: the session
 * @err: non-zero: an error (shown in the error colour)
 * @fmt: printf format
 */
void fts_session_say(struct fts_session *s, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * fts_session_frame - the title bar, the command-line row and the status line
 * @s: the session
 * @g: the grid
 * @title: the screen's name
 * @keys: the screen's main keys for the bottom line
 *
 * Returns the first free row; the last free row is g->h - 4.
 */
int fts_session_frame(struct fts_session *s, struct fts_grid *g, const char *title, const char *keys);

/*
 * s->pump(s, keys, max, sig) - keep the terminal alive during work done in the
 * loop's thread (the recorder's stop): redraw @s's screen and read pending
 * keys into @keys (at most @max); *@sig is set to a pending terminating
 * signal, else 0. Returns the number of keys read. A hook the loop installs,
 * so the screens need no terminal.
 */

/**
 * fts_session_screen - the ops of screen @scr
 * @scr: the screen
 *
 * Returns the screen's ops.
 */
const struct fts_screen_ops *fts_session_screen(enum fts_scr scr);

/**
 * fts_session_compose - draw the current screen, its command line, the
 * status message and the help overlay into @g
 * @s: the session
 * @g: the grid, already the terminal's size
 */
void fts_session_compose(struct fts_session *s, struct fts_grid *g);

/**
 * fts_session_preview - run the previewer on the open terminal
 * @s: the session
 * @path: the file
 * @profiling: NULL or a profiling directory
 * @pid_mapping: NULL or a pid mapping file
 *
 * Returns 0 when the user left it, 1 after a load error (in s->msg), 2 when
 * the user asked to export it, or -signal.
 */
int fts_session_preview(struct fts_session *s, const char *path, const char *profiling,
			const char *pid_mapping);

/**
 * fts_draw_section - a section header line "── name ───" at (@x, @y)
 * @s: the session
 * @g: the grid
 * @x: column
 * @y: row
 * @w: width
 * @name: the section name
 */
void fts_draw_section(struct fts_session *s, struct fts_grid *g, int x, int y, int w, const char *name);

#endif
