/* SPDX-License-Identifier: MIT */
/*
 * export_job.h - the export screen's slow work in one worker thread the
 * screen polls on its tick: the capture's time range (a pipeline run with
 * no sink; the result's item span), or the export itself, through
 * fts_convert like `ftscope convert`, so both write the same file from the
 * same plan. Cancel goes through the progress callback: a cancelled export
 * leaves no file behind (and keeps an older one).
 */
#ifndef FTS_TUI_EXPORT_JOB_H
#define FTS_TUI_EXPORT_JOB_H

#include <ftscope/pipeline.h>

#include "tui/session/export_plan.h"

enum fts_export_job_kind {
	FTS_JOB_RANGE,    /* the capture's time span, for the profiling bars */
	FTS_JOB_EXPORT,   /* fts_convert to the plan's output */
};

struct fts_export_job;

/* Seconds, now: since the job started, since its stage began, since the last report. */
struct fts_export_clock {
	double total_s, stage_s, since_s;
};

/**
 * fts_export_job_start - start a worker thread (every signal blocked)
 * @kind: what to do
 * @plan: input, output, format, maps, --with_summary; copied
 * @probe_helper: the trace.dat probe's helper (fts_front_probe_helper(); NULL: none)
 * @out: the job, released with fts_export_job_free
 *
 * Returns 0 or a negative errno (no memory, no thread).
 */
int fts_export_job_start(enum fts_export_job_kind kind, const struct fts_export_plan *plan,
			 const char *probe_helper, struct fts_export_job **out);

/**
 * fts_export_job_kind - what @j does
 * @j: the job
 *
 * Returns its kind.
 */
enum fts_export_job_kind fts_export_job_kind(const struct fts_export_job *j);

/**
 * fts_export_job_progress - the latest progress report (zeroes before the first)
 * @j: the job
 * @p: filled
 * @t: filled with the clocks, now (may be NULL)
 *
 * The clocks move between the library's reports, so a stage it reports
 * rarely (a loaded machine) or once (the DB's commit) still shows time
 * passing.
 */
void fts_export_job_progress(const struct fts_export_job *j, struct fts_progress *p,
			     struct fts_export_clock *t);

/**
 * fts_export_job_cancel - ask the job to stop at its next progress report
 * @j: the job
 */
void fts_export_job_cancel(struct fts_export_job *j);

/**
 * fts_export_job_done - whether the worker has finished (never blocks)
 * @j: the job
 *
 * Returns 1 or 0.
 */
int fts_export_job_done(const struct fts_export_job *j);

/**
 * fts_export_job_result - wait for the worker, then its outcome
 * @j: the job
 * @res: set to the run's result (counters, time map, item span, loss), which
 *       the caller then owns (fts_pipeline_result_free); NULL after the
 *       first call. May be NULL: the job frees it.
 * @err: filled with its error message; may be NULL
 *
 * Returns 0, -ECANCELED, or the run's negative errno.
 */
int fts_export_job_result(struct fts_export_job *j, struct fts_pipeline_result **res,
			  struct fts_err *err);

/**
 * fts_export_job_free - cancel the job if it still runs, wait for it, release it
 * @j: the job; NULL is fine
 */
void fts_export_job_free(struct fts_export_job *j);

#endif
