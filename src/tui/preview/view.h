/* SPDX-License-Identifier: MIT */
/*
 * view.h - the lane viewer as a pure function of (store, viewport, selection).
 *
 * No curses here: the view keeps its state, answers keys and mouse events
 * with action flags (as htop's panels do) and draws into an fts_grid, which
 * the terminal layer blits and `--print` writes as text.
 */
#ifndef FTS_TUI_VIEW_H
#define FTS_TUI_VIEW_H

#include <ftscope/preview.h>

#include "tui/widgets/bind.h"
#include "tui/widgets/grid.h"
#include "tui/widgets/keys.h"

struct fts_view_opts {
	const char *title;      /* shown in the top bar (the file), untrusted */
	int utf8;               /* glyphs and borders in UTF-8 */
	int colors;             /* 0, 8 or 256 */
	int no_color;           /* NO_COLOR is set */
	int export_key;         /* the caller binds e to export: help and title list it */
	/*
	 * Long work (a frame, a sort, a search over every lane) asks this every
	 * VIEW_POLL_MS or so whether to stop: nonzero (a quit key, a terminating
	 * signal, a hung-up terminal) cuts the frame short, so the caller's loop
	 * gets to act on it. NULL: never asked (--print).
	 */
	int (*poll)(void *ctx);
	void *poll_ctx;
	unsigned test_busy_ms;  /* tests only: each lane row spins this long, polling */
};

struct fts_view;

/**
 * fts_view_create - a view of @store sized @w x @h
 * @store: the lanes, borrowed (must outlive the view)
 * @o: title and terminal capabilities
 * @w: columns
 * @h: rows
 * @out: the view
 *
 * Returns 0 or a negative errno.
 */
int fts_view_create(const struct fts_store *store, const struct fts_view_opts *o, int w, int h,
		    struct fts_view **out);

/**
 * fts_view_free - release @v (NULL is fine)
 * @v: the view
 */
void fts_view_free(struct fts_view *v);

/**
 * fts_view_resize - a new terminal size
 * @v: the view
 * @w: columns
 * @h: rows
 *
 * Returns 0 or -ENOMEM (the old size is kept).
 */
int fts_view_resize(struct fts_view *v, int w, int h);

/**
 * fts_view_key - handle one key (keys.h codes)
 * @v: the view
 * @key: the key
 *
 * Returns FTS_RX_* reactions.
 */
unsigned fts_view_key(struct fts_view *v, int key);

/**
 * fts_view_mouse - handle one mouse event
 * @v: the view
 * @ev: what happened
 * @x: column
 * @y: row
 *
 * Returns FTS_RX_* reactions.
 */
unsigned fts_view_mouse(struct fts_view *v, enum fts_mouse ev, int x, int y);

/**
 * fts_view_draw - render the current state into the view's grid
 * @v: the view
 *
 * Returns the grid, valid until the next resize or free.
 */
const struct fts_grid *fts_view_draw(struct fts_view *v);

/**
 * fts_view_grid - the last frame fts_view_draw rendered
 * @v: the view
 *
 * Returns the grid, valid until the next resize or free.
 */
const struct fts_grid *fts_view_grid(const struct fts_view *v);

struct fts_stats;

/**
 * fts_view_set_stats - the statistics behind the per-task summary (`s`)
 * @v: the view
 * @st: finished statistics of the same capture, borrowed (outlives the view); NULL: none
 */
void fts_view_set_stats(struct fts_view *v, struct fts_stats *st);

/* What tests and the summary need to see of the state. */
struct fts_view_state {
	uint64_t t0, ns_per_col;   /* viewport: column c covers [t0 + c*npc, t0 + (c+1)*npc) */
	uint64_t cursor;           /* cursor time */
	int has_marker;
	uint64_t marker;
	uint32_t lane;             /* selected lane */
	int time_x, time_w;        /* the time area's first column and width */
	int lanes_y, lanes_h;      /* the lane area's first row and height */
	int help, searching, summary, details_big, filter, focus_details;
	int gaps;                  /* the NPU gaps panel (b) is open */
	uint32_t matches;          /* task lanes matching the search */
	const char *message;       /* the last transient message, "" when none */
};

/**
 * fts_view_state - a snapshot of @v's state
 * @v: the view
 * @st: filled
 */
void fts_view_state(const struct fts_view *v, struct fts_view_state *st);

/**
 * fts_view_lane_at_row - the lane drawn on grid row @y
 * @v: the view (after fts_view_draw)
 * @y: row
 *
 * Returns the lane, or -1 when the row holds no lane.
 */
int64_t fts_view_lane_at_row(const struct fts_view *v, int y);

#endif
