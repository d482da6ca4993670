/* SPDX-License-Identifier: MIT */
/*
 * theme.h - every colour and glyph the TUI draws, in one table.
 *
 * A theme is chosen once from the terminal: UTF-8 or ASCII glyphs and
 * borders (LANG=C), and 256, 8 or no colours (NO_COLOR, monochrome
 * terminals). Nothing else in the TUI names a colour or a glyph.
 */
#ifndef FTS_TUI_THEME_H
#define FTS_TUI_THEME_H

#include <stdint.h>

#include "tui/widgets/grid.h"

enum fts_role {
	FTS_R_NORMAL,
	FTS_R_TITLE,      /* top bar */
	FTS_R_STATUS,     /* bottom status line */
	FTS_R_AXIS,       /* time axis */
	FTS_R_HEADER,     /* lane group headers and legends */
	FTS_R_LABEL,      /* lane labels */
	FTS_R_LABEL_SEL,  /* the selected lane's label */
	FTS_R_MATCH,      /* labels matching the search */
	FTS_R_IDLE,       /* an idle CPU bucket */
	FTS_R_IRQ,
	FTS_R_LOST,
	FTS_R_RUNNING,
	FTS_R_RUNNABLE,
	FTS_R_SLEEPING,
	FTS_R_BLOCKED,
	FTS_R_OVERVIEW,
	FTS_R_VIEWPORT,   /* the viewport on the overview strip */
	FTS_R_WINDOW,     /* the profiling window on the axis */
	FTS_R_CURSOR,
	FTS_R_MARKER,
	FTS_R_DETAILS,
	FTS_R_DIM,        /* secondary text */
	FTS_R_ERROR,
	FTS_R_NODATA,     /* no data: a hole after lost events, neither idle nor busy */
	FTS_R__COUNT
};

enum fts_glyph {
	FTS_G_RUNNING,
	FTS_G_RUNNING_WAIT,  /* mostly running, with a Runnable wait inside */
	FTS_G_RUNNABLE,
	FTS_G_SLEEPING,
	FTS_G_SLEEPING_WAIT, /* mostly sleeping, with a Runnable wait inside */
	FTS_G_BLOCKED,
	FTS_G_IRQ,        /* irq/softirq in an otherwise idle CPU bucket */
	FTS_G_LOST,
	FTS_G_BRIEF,      /* a short task inside an idle CPU bucket */
	FTS_G_HLINE,
	FTS_G_VLINE,
	FTS_G_CURSOR,     /* on the axis */
	FTS_G_MARKER,     /* on the axis */
	FTS_G_TICK,
	FTS_G_WINDOW,     /* profiling window on the axis */
	FTS_G_NODATA,     /* no data (a hole after lost events), CPU and task lanes */
	FTS_G__COUNT
};

struct fts_theme {
	int utf8;         /* UTF-8 glyphs and borders */
	int colors;       /* 0, 8 or 256 */
};

/**
 * fts_theme_init - choose glyphs and colours
 * @t: filled
 * @utf8: the terminal shows UTF-8
 * @colors: colours the terminal has (0 when unknown)
 * @no_color: NO_COLOR is set (non-empty): monochrome whatever @colors says
 */
void fts_theme_init(struct fts_theme *t, int utf8, int colors, int no_color);

/**
 * fts_theme_style - the style of @role
 * @t: the theme
 * @role: what is drawn
 *
 * Returns the style.
 */
struct fts_style fts_theme_style(const struct fts_theme *t, enum fts_role role);

/**
 * fts_theme_glyph - the code point drawn for @g
 * @t: the theme
 * @g: which glyph
 *
 * Returns a one-column code point (ASCII when the theme is not UTF-8).
 */
uint32_t fts_theme_glyph(const struct fts_theme *t, enum fts_glyph g);

/**
 * fts_theme_task - the stable style of a task's CPU-lane cells
 * @t: the theme
 * @key: a stable number of the task (its interned name id)
 *
 * Returns a coloured background (monochrome: the plain style).
 */
struct fts_style fts_theme_task(const struct fts_theme *t, uint32_t key);

/**
 * fts_theme_level - a one-column glyph for a fraction in [0, 1] (overview strip)
 * @t: the theme
 * @frac: busy fraction
 *
 * Returns a code point: blank for 0, ▁..█ (or .:-=+*#) above.
 */
uint32_t fts_theme_level(const struct fts_theme *t, double frac);

#endif
