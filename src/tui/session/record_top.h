/* SPDX-License-Identifier: MIT */
/*
 * record_top.h - the record screen's live top: which threads waited longest
 * Runnable and which ran most over the last sample interval, from the
 * kernel's per-thread schedstat counters (/proc/PID/task/TID/schedstat: ns
 * on CPU, ns waiting on a run queue, times run). No curses.
 *
 * It reads /proc, not the trace, so it costs the capture nothing. The
 * record screen uses it only when the recorder does not decode the streamed
 * pages itself (fts_record_opts.live_top off, or the trace-cmd backend);
 * otherwise the recorder's own top (fts_record_health's top) is shown.
 * Scanning is proportional to the number of threads; the screen samples it
 * every few seconds and it can be switched off.
 */
#ifndef FTS_TUI_LIVE_TOP_H
#define FTS_TUI_LIVE_TOP_H

#include <stdint.h>

struct fts_top_sample {
	int tid;
	uint64_t run_ns, wait_ns, slices;   /* cumulative, as the kernel counts them */
};

struct fts_top_row {
	int tid;
	char comm[64];         /* untrusted bytes: escape before showing */
	double run_frac;       /* CPU time / interval (1 = one CPU busy) */
	double wait_frac;      /* run-queue wait / interval */
	double wait_per_run_ms; /* average wait before each run in the interval */
};

struct fts_live_top {
	char root[256];        /* "/proc" (tests pass their own tree) */
	struct fts_top_sample *prev;
	int nprev;
	double t_prev;         /* seconds, caller's clock */
	double interval_s;     /* between the last two samples */
	int threads;           /* threads seen in the last sample */
	/* results of the last interval, worst first */
	struct fts_top_row wait[8], run[8];
	int nwait, nrun;
	struct fts_top_row worst_latency; /* the highest wait_per_run_ms (tid 0 when none) */
};

/**
 * fts_top_init - an empty top over the /proc tree at @root
 * @t: the top
 * @root: "/proc", or a test tree with the same layout
 */
void fts_top_init(struct fts_live_top *t, const char *root);

/**
 * fts_top_sample - read every thread's counters and rank the interval since the last call
 * @t: the top
 * @now_s: the caller's clock in seconds (monotonic)
 *
 * The first call only records a baseline (nwait = nrun = 0). Threads that
 * appeared since the last call count from zero; threads that ended are dropped.
 *
 * Returns 0, or a negative errno when @t->root cannot be read (-ENOENT: no
 * schedstat on this kernel).
 */
int fts_top_sample(struct fts_live_top *t, double now_s);

/**
 * fts_top_free - release @t's arrays
 * @t: the top; safe twice
 */
void fts_top_free(struct fts_live_top *t);

#endif
