// SPDX-License-Identifier: MIT
/*
 * convert.c - fts_convert: one SQLite or JSON sink behind fts_pipeline_run.
 * Kept for the CLI and outside programs that want a file, not sinks.
 */
#include "ftscope/ftscope.h"
#include "ftscope/pipeline.h"

#include <errno.h>
#include <string.h>

#include "export/sink/sinks.h"

struct legacy_progress {
	fts_progress_fn fn;
	void *ctx;
};

/* The old progress callback sees read counters; it cannot cancel. */
static int to_legacy(void *ctx, const struct fts_progress *p)
{
	struct legacy_progress *lp = ctx;
	struct fts_read_stats st;

	if (p->stage != FTS_STAGE_READ)
		return 0;
	memset(&st, 0, sizeof(st));
	st.bytes_done = p->done;
	st.bytes_total = p->total;
	st.events = p->events;
	lp->fn(lp->ctx, &st);
	return 0;
}

int fts_convert(const struct fts_convert_opts *opts, struct fts_convert_result *res,
		struct fts_err *err)
{
	struct legacy_progress lp = { opts->progress, opts->progress_ctx };
	struct fts_pipeline_opts po;
	struct fts_pipeline_result pr;
	enum fts_pipeline_input kind;
	struct fts_sink *sink = NULL;
	int rc;

	memset(&po, 0, sizeof(po));
	po.input = opts->input;
	po.profiling_data = opts->profiling_data;
	po.pid_mapping = opts->pid_mapping;
	po.cs_rows = opts->with_summary ? 0 : opts->cs_rows;
	po.progress = opts->progress ? to_legacy : NULL;
	po.progress_ctx = &lp;
	po.probe_helper = opts->probe_helper;
	if (res)
		memset(res, 0, sizeof(*res));
	if (opts->with_summary && opts->format != FTS_OUT_DB)
		return fts_err_set(err, -EINVAL,
				   "the task summary tables can only be written into a DB, not JSON");
	/* probe once, before the sinks exist, so a corrupt file leaves nothing behind */
	rc = fts_pipeline_detect(opts->input, &kind, err);
	if (!rc && kind == FTS_PIPE_TRACE) {
		enum fts_input_format fmt = FTS_FMT_UNKNOWN;

		rc = fts_input_detect(opts->input, &fmt, err);
		if (!rc && fmt == FTS_FMT_DAT)
			rc = fts_read_dat_probe(opts->input, opts->probe_helper, err);
		if (rc == FTS_PROBE_UNISOLATED)
			rc = 0;
		po.probed = 1;
	}
	if (!rc)
		rc = opts->format == FTS_OUT_JSON ?
			fts_json_sink_create(opts->output, &opts->owner, &sink, err) :
		     opts->with_summary ?
			fts_sqlite_sink_create_summary(opts->output, &opts->owner, &sink, err) :
			fts_sqlite_sink_create(opts->output, &opts->owner, &sink, err);
	if (rc)
		return rc;
	rc = fts_pipeline_run(&po, &sink, 1, &pr, err);
	sink->destroy(sink);
	if (res) {
		res->input_format = pr.input_format;
		res->read = pr.read;
		res->model = pr.model;
		res->time = pr.time;
		res->pidmap_entries = pr.pidmap_entries;
		res->pidmap_mapped = pr.pidmap_mapped;
		res->seconds = pr.seconds;
	}
	return rc;
}
