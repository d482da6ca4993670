/* SPDX-License-Identifier: MIT */
/*
 * export_plan.h - the export screen's checks, without curses: Insight's name
 * and path rules, the profiling directory's cards and how the capture's time
 * range overlaps each card's window (the bars on one time axis), the
 * --with_summary toggle, and the equivalent `ftscope convert` command line.
 */
#ifndef FTS_TUI_EXPORT_PLAN_H
#define FTS_TUI_EXPORT_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include <ftscope/timemap.h>

struct fts_export_plan {
	char input[4096];
	char output[4096];
	int json;                 /* 0: ftrace DB, 1: Chrome JSON */
	char profiling[4096];     /* "" none */
	char pid_mapping[4096];   /* "" none */
	int with_summary;         /* --with_summary asked for; DB only (fts_export_with_summary) */
	/* filled by fts_export_check */
	char output_note[512];    /* Insight would not import it, and why; "" when fine */
	int output_bad;           /* the output cannot be written as given (wrong extension) */
	int prof_ok;              /* the profiling directory holds at least one card */
	char prof_note[512];      /* why not, or "" */
	struct fts_timemap tm;    /* cards, when prof_ok */
	/* the capture's time range, set by the caller (0, 0: unknown) */
	uint64_t cap_lo, cap_hi;
};

/**
 * fts_export_check - fill the plan's notes and cards from its fields
 * @p: the plan
 *
 * The name and path rules are src/front's (insight.h), shared with convert.
 */
void fts_export_check(struct fts_export_plan *p);

/**
 * fts_export_epoch - whether capture times are Unix-epoch ns (else raw mono ns)
 * @t: a capture time
 *
 * Captures with the recorder's clock pair are placed on the epoch; older
 * ones stay in CLOCK_MONOTONIC_RAW, which is far below 2001 in epoch ns.
 *
 * Returns 1 or 0.
 */
int fts_export_epoch(uint64_t t);

/**
 * fts_export_card_range - card @i's window in the capture's time base
 * @p: the plan (prof_ok, cap_lo set)
 * @i: card index
 * @lo: start
 * @hi: end
 */
void fts_export_card_range(const struct fts_export_plan *p, int i, int64_t *lo, int64_t *hi);

/**
 * fts_export_overlap - the fraction of the capture inside the cards' union window
 * @p: the plan
 *
 * Returns 0..1, or -1 when the capture range or the cards are unknown.
 */
double fts_export_overlap(const struct fts_export_plan *p);

/**
 * fts_export_bar - the columns [@x0, @x1) a range takes on an axis of @width columns
 * @lo: range start
 * @hi: range end
 * @axis_lo: axis start
 * @axis_hi: axis end (> axis_lo)
 * @width: columns
 * @x0: first column
 * @x1: one past the last; at least one column when the range is inside the axis
 */
void fts_export_bar(int64_t lo, int64_t hi, int64_t axis_lo, int64_t axis_hi, int width, int *x0,
		    int *x1);

/**
 * fts_export_toggle_summary - switch --with_summary (Insight's Ftrace Task
 * Summary tables written by us) on or off
 * @p: the plan
 *
 * DB only: with the JSON format the toggle stays off.
 *
 * Returns 1 when it changed, 0 when the format does not allow it.
 */
int fts_export_toggle_summary(struct fts_export_plan *p);

/**
 * fts_export_with_summary - whether the export writes the summary tables
 * @p: the plan
 *
 * Returns 1 when asked for and the format is DB, else 0.
 */
int fts_export_with_summary(const struct fts_export_plan *p);

/**
 * fts_export_cmdline - the equivalent `ftscope convert` command line
 * @p: the plan
 * @buf: output (paths shell-quoted)
 * @len: its size
 *
 * Returns @buf.
 */
const char *fts_export_cmdline(const struct fts_export_plan *p, char *buf, size_t len);

#endif
