// SPDX-License-Identifier: MIT
/*
 * convert.c - fts_convert: one SQLite or JSON sink behind fts_pipeline_run,
 * for the CLI, the TUI's export and outside programs that want a file, not
 * sinks. Options, progress, cancel and result are the pipeline's own.
 *
 * The input is only looked at for fts_convert_check (is the output one of
 * the inputs; do the maps apply to it): the pipeline's detection classifies
 * it and probes a trace.dat, and a failure there (or a cancel) finishes the
 * sink with ok=0, which removes its temporary file, so nothing is left.
 */
#include "ftscope/ftscope.h"
#include "ftscope/pipeline.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "core/readback/readback.h"
#include "core/pipeline/result_impl.h"

/*
 * A DB converted into a DB keeps every table: its task summary tables, when
 * it has them, are written again from the same slices (as --with_summary
 * would), rather than dropped for Insight to recompute its own way.
 */
static int summary_wanted(const struct fts_convert_opts *opts)
{
	enum fts_pipeline_input kind;
	struct fts_err derr = { 0 };

	if (opts->with_summary)
		return 1;
	return opts->format == FTS_OUT_DB && !fts_pipeline_detect(opts->input, &kind, &derr) &&
	       kind == FTS_PIPE_DB && fts_db_has_summary(opts->input);
}

static int make_sink(const struct fts_convert_opts *opts, struct fts_sink **sink,
		     struct fts_err *err)
{
	if (opts->format == FTS_OUT_JSON)
		return fts_json_sink_create(opts->output, &opts->owner, sink, err);
	if (summary_wanted(opts))
		return fts_sqlite_sink_create_summary(opts->output, &opts->owner, sink, err);
	return fts_sqlite_sink_create(opts->output, &opts->owner, sink, err);
}

/*
 * The same file by device and inode: the sinks write a temporary file and
 * rename it over @out, so an output that is an input (by another spelling,
 * a hard link or a symlinked directory) would replace it.
 */
static int same_file(const char *in, const char *out)
{
	struct stat a, b;

	return in && out && stat(in, &a) == 0 && stat(out, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

int fts_convert_check(const struct fts_convert_opts *opts, struct fts_err *err)
{
	enum fts_pipeline_input kind;
	struct fts_err derr = { 0 };

	if (!opts->input || !opts->output)
		return fts_err_set(err, -EINVAL, "no input or no output given");
	if (opts->with_summary && opts->format != FTS_OUT_DB)
		return fts_err_set(err, -EINVAL,
				   "the task summary tables can only be written into a DB, not JSON");
	if (same_file(opts->input, opts->output))
		return fts_err_set(err, -EEXIST,
				   "the output %s is the input %s (the same file): converting would replace it; choose another output",
				   opts->output, opts->input);
	if (same_file(opts->pid_mapping, opts->output))
		return fts_err_set(err, -EEXIST,
				   "the output %s is the pid mapping %s (the same file): converting would replace it; choose another output",
				   opts->output, opts->pid_mapping);
	if (!opts->profiling_data && !opts->pid_mapping)
		return 0;
	/* an input that cannot be classified fails in the run, with that reason */
	if (fts_pipeline_detect(opts->input, &kind, &derr) || kind == FTS_PIPE_TRACE)
		return 0;
	return fts_err_set(err, -EINVAL,
			   "%s is %s: its times and pids were fixed when it was written, so %s cannot apply; convert the original trace with %s",
			   opts->input, kind == FTS_PIPE_DB ? "an ftrace DB" : "a Chrome JSON",
			   opts->profiling_data && opts->pid_mapping ? "profiling data and a pid mapping" :
			   opts->profiling_data ? "profiling data" : "a pid mapping",
			   opts->profiling_data && opts->pid_mapping ? "them" : "it");
}

int fts_convert(const struct fts_convert_opts *opts, struct fts_pipeline_result *res,
		struct fts_err *err)
{
	struct fts_pipeline_opts po;
	struct fts_sink *sink = NULL;
	int rc;

	if (res)
		memset(res, 0, sizeof(*res));
	rc = fts_convert_check(opts, err);
	if (rc)
		return rc;
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
