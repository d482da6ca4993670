/* SPDX-License-Identifier: MIT */
/*
 * ftscope.h - the public C API of libftscope, in one include.
 *
 * Conversion to a file (this file), the open pipeline behind it with
 * caller-chosen sinks (pipeline.h), the statistics sink (stats.h), the
 * preview lane store (preview.h) and recording (record.h). Every call
 * returns 0 or a negative errno-style code and fills a struct fts_err
 * message; the library never prints or exits.
 */
#ifndef FTS_FTSCOPE_H
#define FTS_FTSCOPE_H

#include <stdint.h>

#include "cleanup.h"
#include "error.h"
#include "event.h"
#include "lane.h"
#include "log.h"
#include "loss.h"
#include "output.h"
#include "pidmap.h"
#include "reader.h"
#include "sched_model.h"
#include "timemap.h"
#include "profkind.h"

#include "pipeline.h"
#include "preview.h"
#include "record.h"
#include "stats.h"
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

enum fts_out_format {
	FTS_OUT_DB,    /* MindStudio Insight ftrace DB (ftrace_data.db) */
	FTS_OUT_JSON,  /* Chrome-trace JSON */
};

struct fts_convert_opts {
	const char *input;           /* trace.dat or text; format detected from content */
	const char *output;          /* written atomically, never through a symlink */
	enum fts_out_format format;
	const char *profiling_data;  /* NULL: no alignment window */
	const char *pid_mapping;     /* NULL: host pids */
	int cs_rows;                 /* see struct fts_model_opts */
	fts_stage_fn progress;       /* may be NULL; non-zero return cancels */
	void *progress_ctx;
	/*
	 * DB only: also write Insight's Ftrace Task Summary tables with
	 * per-CPU context switches (fts_sqlite_sink_create_summary); cs_rows
	 * is then ignored (no marker rows).
	 */
	int with_summary;
	/* The trace.dat probe's helper (see fts_read_dat_probe); NULL: none. */
	const char *probe_helper;
	/* Who gets @output (all zero: the writer keeps it). */
	struct fts_owner owner;
};

/**
 * fts_convert - read a trace, run the sched model and write one DB or JSON file
 * @opts: input, output, format, maps; @opts->input may also be an ftrace DB or
 *        our JSON, which is read back and rewritten (see fts_pipeline_run);
 *        what fts_convert_check refuses is refused first
 * @res: from fts_pipeline_result_new, or NULL; filled as by fts_pipeline_run
 *       (counters and the item span for a summary), also on error
 * @err: filled on error
 *
 * A thin wrapper over fts_pipeline_run with one SQLite or JSON sink, so it
 * reports the same stages and cancels the same way: a non-zero return from
 * @opts->progress stops the run. On error or cancel nothing is left at
 * @opts->output (an existing file is untouched).
 *
 * Returns 0, -ECANCELED when progress asked to stop, or a negative errno.
 */
FTS_API int fts_convert(const struct fts_convert_opts *opts, struct fts_pipeline_result *res,
		struct fts_err *err);

/**
 * fts_convert_check - what fts_convert refuses before it reads anything
 * @opts: as for fts_convert
 * @err: filled when refused
 *
 * Refused: an output that is the input or the pid mapping file (the same
 * file by device and inode, whatever the path's spelling, a hard link or a
 * symlinked directory), the summary tables with JSON, and profiling data or
 * a pid mapping with a DB or JSON input (its times and pids were fixed when
 * it was written). fts_convert calls it first; a front end calls it to tell
 * a bad choice from a failed run.
 *
 * Returns 0, -EEXIST (output is an input) or -EINVAL.
 */
FTS_API int fts_convert_check(const struct fts_convert_opts *opts, struct fts_err *err);

#ifdef __cplusplus
}
#endif

#endif
