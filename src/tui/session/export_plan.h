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

#include <time.h>

#include <ftscope/pipeline.h>
#include <ftscope/timemap.h>

/*
 * What the export screen shows of the profiling's time map (struct
 * fts_timemap is the library's, opaque): copied out through its accessors, so
 * a plan stays a plain value the export job can copy.
 */
struct fts_export_card {
	char dir[512];            /* the card's directory */
	int64_t start_mono;       /* its window on the trace clock, ns */
	int64_t end_mono;
	int64_t offset;           /* its trace clock -> epoch offset */
};

struct fts_export_cards {
	int ncards;               /* listed in @cards */
	int cards_total;          /* every card found */
	uint64_t lo, hi;          /* the union window, trace clock */
	int64_t offset_min, offset_spread, start_spread, end_spread;
	struct fts_export_card cards[FTS_TIMEMAP_MAX_CARDS];
};

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
	struct fts_export_cards tm; /* cards, when prof_ok */
	/* the profiling's export type (fts_profiling_kind): known, the format that joins it, why */
	int kind_known;
	int kind_json;
	char kind_note[300];
	/*
	 * The capture's time range on its own clock (CLOCK_MONOTONIC_RAW ns),
	 * the clock the profiling window is applied on; set by the caller
	 * (0, 0: unknown). With the recorder's clock pair, @cap_epoch is 1 and
	 * @cap_off turns it into Unix-epoch ns (out = ts + off).
	 */
	uint64_t cap_lo, cap_hi;
	int cap_epoch;
	int64_t cap_off;
};

/**
 * fts_export_check - fill the plan's notes and cards from its fields
 * @p: the plan
 *
 * The name and path rules are src/app's (insight.h), shared with convert.
 */
void fts_export_check(struct fts_export_plan *p);

/**
 * fts_export_prefer_format - preselect the format that joins the profiling
 * @p: the plan, checked (fts_export_check)
 *
 * Text-only profiling: JSON (older Insight refuses an ftrace DB next to it);
 * DB or both: DB; unknown: the format is left as it is.
 *
 * Returns 1 when the format should change (the caller switches it, the
 * output's extension following), else 0.
 */
int fts_export_prefer_format(const struct fts_export_plan *p);

/**
 * fts_export_set_range - the capture's range from a run without profiling data
 * @p: the plan
 * @r: the run's result (its item span and the time map it used)
 *
 * Spans placed on the wall clock by the recorder's clock pair are taken back
 * to the trace clock, where the profiling window applies.
 */
void fts_export_set_range(struct fts_export_plan *p, const struct fts_pipeline_result *r);

/**
 * fts_export_card_range - card @i's window on the trace clock (as the export applies it)
 * @p: the plan (prof_ok)
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
 * fts_export_window_note - the capture against the profiling window, in words
 * @p: the plan (prof_ok, the range known)
 * @buf: output: "all of the capture is inside...", "N% ...", "the capture
 *       ends 3.2 s before the profiling window starts...", with "recorded on
 *       another boot or host" when the recorder's and the profiling's clock
 *       pairs disagree by more than the capture's length (or 1 s)
 * @len: its size
 * @bad: filled with 1 when nothing would be kept, else 0
 *
 * On the same clock as the bars (fts_export_card_range) and the export's
 * own window check, so the three agree.
 *
 * Returns @buf.
 */
const char *fts_export_window_note(const struct fts_export_plan *p, char *buf, size_t len, int *bad);

/**
 * fts_export_cards_text - the profiling directory's cards for a person
 * @p: the plan (prof_ok)
 * @buf: output: "1 device card (device_0) and the host's window" ...
 * @len: its size
 *
 * A `host` directory holds the host's collection window, not a card.
 *
 * Returns @buf.
 */
const char *fts_export_cards_text(const struct fts_export_plan *p, char *buf, size_t len);

/**
 * fts_export_pidmap_fits - whether a pid mapping was written with a capture
 * @cap_mtime: the capture file's modification time
 * @map_mtime: the mapping's
 *
 * The recorder rewrites pid_mapping.json while it records and once at the
 * stop, before it assembles the capture file: the map's last write falls
 * shortly before the capture's (at most 10 min, the longest assembly
 * allowed for) or within a minute after it.
 *
 * Returns 1 or 0.
 */
int fts_export_pidmap_fits(time_t cap_mtime, time_t map_mtime);

/**
 * fts_export_progress_text - an export's progress in two lines
 * @p: the latest report
 * @stage_s: seconds since the stage began, now
 * @since_s: seconds since the report, now (the ETA counts down by it)
 * @total_s: seconds since the export began, now
 * @input_bytes: the input's size (the read total when the report has none)
 * @line1: filled: "read 12 MiB of 62 MiB, 4.0 MiB/s, ETA 3.1 s; 4.2 s so far"
 * @line2: filled: "534.2k events read, 547.6k items written"
 * @len: the size of each
 * @frac: filled with the fraction done, 0..1 (finishing: 1)
 */
void fts_export_progress_text(const struct fts_progress *p, double stage_s, double since_s, double total_s,
			      uint64_t input_bytes, char *line1, char *line2, size_t len, double *frac);

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
 * fts_export_refusal - why a DB or JSON is not exported again, one line
 * @db: 1 for an ftrace DB, 0 for a Chrome JSON
 *
 * Its times and pids were fixed when it was written: no profiling window
 * or pid map applies to it (`ftscope convert -i` copies it, links and all).
 *
 * Returns a static string.
 */
const char *fts_export_refusal(int db);

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
