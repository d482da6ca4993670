/* SPDX-License-Identifier: MIT */
/*
 * session.h - the interactive session's screens as a small state machine
 * (ncdu's pstate): home -> setup -> record -> preview -> export, one loop
 * (loop/session_loop.c) for all of them, `ftscope preview FILE` included.
 *
 * Each screen has one draw (state -> grid, changing nothing), one key
 * handler, and an optional tick for live data; handlers return FTS_RX_*
 * reactions instead of drawing. Keys are written once, in the screen's
 * binding table, which also makes its help overlay and its bottom line. Work
 * that takes long (the recorder's stop, a preview's load, an export) runs
 * in a worker thread the tick polls, so the loop is the only reader of the
 * terminal. What the screens read from the machine (the recorder, /proc,
 * the disk) goes through struct fts_machine, so tests can draw every screen
 * without a terminal or root.
 */
#ifndef FTS_TUI_SESSION_H
#define FTS_TUI_SESSION_H

#include <stdint.h>

#include <ftscope/record.h>

#include "tui/widgets/bind.h"
#include "tui/widgets/grid.h"
#include "tui/widgets/keys.h"
#include "tui/widgets/theme.h"


enum fts_scr {
	FTS_SCR_HOME,
	FTS_SCR_SETUP,
	FTS_SCR_RECORD,
	FTS_SCR_EXPORT,
	FTS_SCR_PREVIEW,
	FTS_SCR_SAVED,      /* after a recording: its summary, then preview, record again or discard */
	FTS_SCR__COUNT
};

struct fts_session;

struct fts_screen_ops {
	const char *title;
	void (*enter)(struct fts_session *s);             /* made current (may be NULL) */
	void (*layout)(struct fts_session *s);            /* s->w, s->h changed: clamp scrolls (may be NULL) */
	void (*draw)(const struct fts_session *s, struct fts_grid *g);
	unsigned (*key)(struct fts_session *s, int key);  /* keys.h codes */
	unsigned (*mouse)(struct fts_session *s, enum fts_mouse ev, int x, int y); /* may be NULL */
	unsigned (*tick)(struct fts_session *s);          /* live data and workers; NULL: none */
	int tick_ms;                                      /* how often tick runs */
	const struct fts_bindings *keys;                  /* help overlay and bottom line */
	/* the keys of the screen's current mode, for the help (may be NULL: @keys) */
	const struct fts_bindings *(*keys_now)(const struct fts_session *s);
	int full;                                         /* draws the whole screen, handles ? and Ctrl+L itself */
	/*
	 * The session ends: @sig is the terminating signal (0 on quit). Make
	 * things safe (a running capture is saved) and free the state (may be
	 * NULL). Returns 1 while work goes on (the loop keeps drawing and
	 * calling), 0 once done.
	 */
	int (*leave)(struct fts_session *s, int sig);
};

struct fts_recorder;

/* What the screens read from the machine; fts_machine_real is the real one. */
struct fts_machine {
	int (*probe)(const struct fts_record_opts *o, struct fts_record_caps *caps, struct fts_err *err);
	int (*rec_start)(const struct fts_record_opts *o, struct fts_recorder **out, struct fts_err *err);
	int (*rec_health)(struct fts_recorder *r, struct fts_record_health *h);
	int (*rec_stop)(struct fts_recorder *r, enum fts_record_stop_mode mode, fts_record_progress_fn fn,
			void *arg, struct fts_record_summary *sum, struct fts_err *err);
	int (*disk_free)(const char *dir, double *bytes);  /* room for an unprivileged writer */
	int (*rec_snapshot)(struct fts_recorder *r, const char *reason, double last_s, char *dir, size_t len,
			    struct fts_err *err);                /* a flight recording's snapshot; NULL: none */
	const char *proc_stat, *proc_meminfo, *proc_root;  /* "/proc/stat", "/proc/meminfo", "/proc" */
	const char *home_dir;                              /* the directory home lists: "." */
	const char *cwd;                                   /* shown as the current directory; NULL: getcwd() */
	const char *probe_helper;  /* the trace.dat probe's helper (FTS_FRONT_PROBE_HELPER); NULL: none */
};

extern const struct fts_machine fts_machine_real;

struct fts_home_state;
struct fts_setup_state;
struct fts_record_state;
struct fts_export_state;
struct fts_preview_state;
struct fts_saved_state;

struct fts_session {
	struct fts_theme theme;
	struct fts_grid grid;            /* the loop draws every screen into it */
	int w, h;                        /* the terminal's size (the grid's, after a draw) */
	int colors;
	const struct fts_machine *mach;
	enum fts_scr cur, next;
	enum fts_scr back;               /* where the preview returns */
	int preview_only;                /* `ftscope preview FILE`: leaving the preview quits */
	int exit_code;                   /* what the session returns */
	char exit_msg[512];              /* printed after the terminal is restored ("" none) */
	int help;                        /* the help overlay is up */
	int help_top;                    /* its first line shown, when it is longer than the screen */
	char msg[512];                   /* the status message (untrusted bytes allowed) */
	int msg_carry;                   /* said on the way out: the next screen's enter keeps @msg */
	int msg_err;                     /* show it as an error */
	char setup_cmdline[8192];        /* the record command the setup screen started */
	/* what record --tui passed, for the setup screen */
	const struct fts_record_opts *preset;
	/* between screens */
	char preview_path[4096];         /* FTS_RX_PREVIEW: what to open */
	char preview_pidmap[4096];       /* and its pid mapping ("" none), for one preview */
	char preview_profiling[4096];    /* and its profiling directory ("" none) */
	int no_cache;                    /* preview --no-cache: no store cache this run */
	char export_input[4096];         /* the capture the export screen starts with */
	char last_capture[4096];         /* the last recording saved */
	struct fts_record_opts rec_opts; /* what setup hands to record; strings below */
	char rec_cpus[1024];
	char rec_output[4096];
	char rec_triggers[512];          /* the flight recorder's triggers, "lost" too ("" none) */
	double rec_snap_last_s;          /* s keeps the last this many seconds (0: all kept) */
	unsigned setup_raise_kb;         /* the saved screen asks the setup for this buffer (0: none) */
	unsigned suspends;               /* times the loop was stopped by Ctrl+Z and continued */
	struct fts_home_state *home;
	struct fts_setup_state *setup;
	struct fts_record_state *rec;
	struct fts_export_state *exp;
	struct fts_preview_state *pv;
	struct fts_saved_state *saved;
	/* the loop's "stop now?" for long work in a screen (fts_view_opts.poll); NULL: none */
	int (*poll)(void *ctx);
	void *poll_ctx;
	unsigned test_busy_ms;           /* FTS_TEST_BUSY_MS (tests): the preview's heavy step */
};

/* the screens (session/home.c, setup.c, record.c, export.c, preview.c) */
extern const struct fts_screen_ops fts_screen_home, fts_screen_setup, fts_screen_record,
	fts_screen_export, fts_screen_preview, fts_screen_saved;

/**
 * fts_machine_cwd - the current directory as the screens show it
 * @m: the machine
 * @buf: output ("." when unknown)
 * @len: its size
 *
 * Returns @buf.
 */
const char *fts_machine_cwd(const struct fts_machine *m, char *buf, size_t len);

/**
 * fts_session_init - a session at screen @start, not yet entered
 * @s: filled
 * @start: the first screen
 * @m: the machine (fts_machine_real, or a test's)
 * @utf8: UTF-8 glyphs
 * @colors: 0, 8 or 256
 * @no_color: NO_COLOR is set
 */
void fts_session_init(struct fts_session *s, enum fts_scr start, const struct fts_machine *m, int utf8,
		      int colors, int no_color);

/**
 * fts_session_resize - a new terminal size: the screen clamps its scrolls
 * @s: the session
 * @w: columns
 * @h: rows
 */
void fts_session_resize(struct fts_session *s, int w, int h);

/**
 * fts_session_follow - switch screens as reactions @r ask
 * @s: the session
 * @r: what a handler returned
 *
 * Returns @r without the switch requests, with what the switch needs added
 * (redraw, clear).
 */
unsigned fts_session_follow(struct fts_session *s, unsigned r);

/*
 * fts_session_help_key - key @k while the help overlay is up: j/k, the arrows
 * and PgUp/PgDn scroll it when it is longer than the screen; any other key
 * closes it. Returns FTS_RX_REDRAW.
 */
unsigned fts_session_help_key(struct fts_session *s, int k);

/**
 * fts_session_leave - every screen makes itself safe and frees its state
 * @s: the session
 * @sig: the terminating signal, 0 on quit
 *
 * Returns 1 while a screen is still busy (a recording being saved): call
 * again after drawing and ticking; 0 when all are done.
 */
int fts_session_leave(struct fts_session *s, int sig);

/**
 * fts_record_running - whether a capture is being recorded (not yet stopping)
 * @s: the session
 *
 * Returns 1 or 0.
 */
int fts_record_running(const struct fts_session *s);

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
 * @keys: the bottom line (fts_bind_bar of the screen's table, or a mode's own)
 *
 * Returns the first free row; the last free row is g->h - 4.
 */
int fts_session_frame(const struct fts_session *s, struct fts_grid *g, const char *title, const char *keys);

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
void fts_session_compose(const struct fts_session *s, struct fts_grid *g);

/**
 * fts_session_cmdline - show the screen's equivalent command line
 * @s: the session
 * @g: the grid
 * @cmd: the command (shell-quoted by the caller)
 *
 * On the row above the status message; a long message takes it over.
 */
void fts_session_cmdline(const struct fts_session *s, struct fts_grid *g, const char *cmd);

/**
 * fts_draw_section - a section header line "── name ───" at (@x, @y)
 * @s: the session
 * @g: the grid
 * @x: column
 * @y: row
 * @w: width
 * @name: the section name
 */
void fts_draw_section(const struct fts_session *s, struct fts_grid *g, int x, int y, int w, const char *name);

#endif
