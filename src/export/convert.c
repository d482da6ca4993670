// SPDX-License-Identifier: MIT
/*
 * convert.c - fts_convert: one SQLite or JSON sink behind fts_pipeline_run,
 * for the CLI, the TUI's export and outside programs that want a file, not
 * sinks. Options, progress, cancel and result are the pipeline's own.
 *
 * The input is not looked at here: the pipeline's detection classifies it
 * and probes a trace.dat, and a failure there (or a cancel) finishes the
 * sink with ok=0, which removes its temporary file, so nothing is left.
 */
#include "ftscope/ftscope.h"
#include "ftscope/pipeline.h"

#include <errno.h>
#include <string.h>

static int make_sink(const struct fts_convert_opts *opts, struct fts_sink **sink,
		     struct fts_err *err)
{
	if (opts->format == FTS_OUT_JSON)
		return fts_json_sink_create(opts->output, &opts->owner, sink, err);
	if (opts->with_summary)
		return fts_sqlite_sink_create_summary(opts->output, &opts->owner, sink, err);
	return fts_sqlite_sink_create(opts->output, &opts->owner, sink, err);
}

int fts_convert(const struct fts_convert_opts *opts, struct fts_pipeline_result *res,
		struct fts_err *err)
{
	struct fts_pipeline_opts po;
	struct fts_sink *sink = NULL;
	int rc;

	if (res)
		memset(res, 0, sizeof(*res));
	if (opts->with_summary && opts->format != FTS_OUT_DB)
		return fts_err_set(err, -EINVAL,
				   "the task summary tables can only be written into a DB, not JSON");
	memset(&po, 0, sizeof(po));
	po.input = opts->input;
	po.profiling_data = opts->profiling_data;
	po.pid_mapping = opts->pid_mapping;
	po.cs_rows = opts->with_summary ? 0 : opts->cs_rows;
	po.progress = opts->progress;
	po.progress_ctx = opts->progress_ctx;
	po.probe_helper = opts->probe_helper;
	rc = make_sink(opts, &sink, err);
	if (rc)
		return rc;
	rc = fts_pipeline_run(&po, &sink, 1, res, err);
	sink->destroy(sink);
	return rc;
}
