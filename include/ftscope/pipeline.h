/* SPDX-License-Identifier: MIT */
/*
 * pipeline.h - read -> time map -> pid map -> sched model -> the caller's sinks.
 *
 * One pass over a trace (trace.dat or text) feeding any set of sinks (SQLite,
 * JSON, the preview store, statistics, a caller's own), with staged progress
 * that can cancel. fts_convert (ftscope.h) is a thin wrapper that makes one
 * SQLite or JSON sink and calls fts_pipeline_run: the same progress callback
 * (fts_stage_fn) and the same result (struct fts_pipeline_result).
 */
#ifndef FTS_PIPELINE_H
#define FTS_PIPELINE_H

#include <stdint.h>

#include "error.h"
#include "event.h"
#include "lane.h"
#include "loss.h"
#include "output.h"
#include "reader.h"
#include "sched_model.h"
#include "timemap.h"
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The stages a run goes through, in order; a run may skip some. */
enum fts_stage {
	FTS_STAGE_PROBE,   /* format detection, trace.dat sanity probe */
	FTS_STAGE_CLOCK,   /* pre-scan for the recorder's clock anchor */
	FTS_STAGE_READ,    /* reading and modelling events (the long one) */
	FTS_STAGE_FINISH,  /* sinks finishing: SQLite commit and indexes, renames */
	FTS_STAGE_INDEX,   /* preview store: sorting and building its summary */
	FTS_STAGE__COUNT
};

/* A progress report. Units: bytes while reading a trace, rows for a DB. */
struct fts_progress {
	enum fts_stage stage;
	uint64_t done;          /* in @unit; 0 when unknown */
	uint64_t total;         /* in @unit; 0 when unknown */
	const char *unit;       /* "bytes", "rows", "items" */
	uint64_t events;        /* events read so far */
	uint64_t items;         /* lane items produced so far */
	double elapsed_s;       /* since the run started */
};

/*
 * The progress callback of fts_pipeline_run, fts_convert and fts_store_open.
 * Called from the running thread a few times a second (and once at each stage
 * change). A non-zero return cancels the run: it returns -ECANCELED and leaves
 * no output behind.
 */
typedef int (*fts_stage_fn)(void *ctx, const struct fts_progress *p);

/**
 * fts_stage_name - a stage's short name
 * @stage: the stage
 *
 * Returns "probe", "clock", "read", "finish", "index", or "?".
 */
FTS_API const char *fts_stage_name(enum fts_stage stage);

struct fts_pipeline_opts {
	const char *input;           /* trace.dat or text; format detected from content */
	const char *profiling_data;  /* NULL: no alignment window */
	const char *pid_mapping;     /* NULL: host pids */
	int cs_rows;                 /* see struct fts_model_opts */
	fts_stage_fn progress;       /* may be NULL */
	void *progress_ctx;
	/*
	 * The caller already ran fts_read_dat_probe on @input (it runs the trace
	 * library in a helper program), so the run does not probe again.
	 */
	int probed;
	/* The trace.dat probe's helper (see fts_read_dat_probe); NULL: none. */
	const char *probe_helper;
};

/* What the pipeline found at its input. */
enum fts_pipeline_input {
	FTS_PIPE_TRACE,    /* trace.dat or text: read, mapped and modelled */
	FTS_PIPE_DB,       /* an ftrace DB (ours or the reference's): read back */
	FTS_PIPE_JSON,     /* our Chrome JSON: read back */
};

/**
 * fts_pipeline_detect - classify @path by content as a trace, a DB or a JSON
 * @path: the input
 * @kind: filled
 * @err: filled on error (missing, unreadable, empty, or none of these)
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_pipeline_detect(const char *path, enum fts_pipeline_input *kind, struct fts_err *err);

/**
 * fts_sink_tee - one sink forwarding every lane and item to each of @sinks in order
 * @sinks: the outputs, borrowed (the tee's destroy leaves them alone)
 * @n: how many, >= 1
 * @out: the tee, destroyed with its destroy()
 * @err: filled on error
 *
 * Its finish() finishes every output; after the first failure the rest are
 * finished with ok=0, so they leave nothing behind.
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_sink_tee(struct fts_sink *const *sinks, int n, struct fts_sink **out,
		 struct fts_err *err);

/**
 * fts_sqlite_sink_create - a sink writing Insight's ftrace DB to @path
 * @path: the DB; written through a temporary file in the same directory,
 *        renamed into place at finish(ok=1), never through a symlink
 * @owner: who gets the DB (set on the temporary file before the rename);
 *         NULL: the writer keeps it
 * @out: the sink, destroyed with its destroy()
 * @err: filled on error
 *
 * For callers that run fts_pipeline_run themselves (to cancel, or to tee).
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_sqlite_sink_create(const char *path, const struct fts_owner *owner, struct fts_sink **out,
			   struct fts_err *err);

/**
 * fts_sqlite_sink_create_summary - fts_sqlite_sink_create, plus MindStudio
 * Insight's Ftrace Task Summary tables precomputed at finish
 * @path: the DB, as for fts_sqlite_sink_create
 * @owner: as for fts_sqlite_sink_create
 * @out: the sink, destroyed with its destroy()
 * @err: filled on error
 *
 * At finish(ok=1) it also writes trace_task_summary and trace_irq_detail the
 * way Insight's server computes them from the same DB, except that context
 * switches are counted per CPU, and marks the server's four ftrace
 * statistics units FINISH in status_info so it shows these numbers instead
 * of computing its own. This relies on the server's internal behaviour
 * (insight-import-contract.md 6.4 C). Run the pipeline with cs_rows = 0:
 * the cpu -1 marker rows are not needed and would show as extra rows.
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_sqlite_sink_create_summary(const char *path, const struct fts_owner *owner,
				   struct fts_sink **out, struct fts_err *err);

/**
 * fts_json_sink_create - a sink writing Chrome-trace JSON to @path
 * @path: the file; written through a temporary file renamed into place at finish(ok=1)
 * @owner: as for fts_sqlite_sink_create
 * @out: the sink, destroyed with its destroy()
 * @err: filled on error
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_json_sink_create(const char *path, const struct fts_owner *owner, struct fts_sink **out,
			 struct fts_err *err);

struct fts_pipeline_result {
	enum fts_input_format input_format;
	struct fts_read_stats read;
	struct fts_model_stats model;
	struct fts_timemap time;
	uint32_t pidmap_entries;     /* entries in the pid mapping file */
	uint32_t pidmap_mapped;      /* of which map to another pid */
	double seconds;
	/*
	 * what @opts->input turned out to be; read back: no read counters, and
	 * of the model counters only the lanes and items by kind
	 */
	enum fts_pipeline_input input_kind;
	uint64_t rows;               /* DB/JSON: rows read back */
	uint64_t items;              /* lane items handed to the sinks */
	/*
	 * The span of those items, in output ns: the earliest start and the
	 * latest end (ts + dur). Both 0 when @items is 0.
	 */
	uint64_t span_lo;
	uint64_t span_hi;
	/* what the items say was lost (the one loss model, loss.h), any input kind */
	struct fts_loss_summary loss;
};

/**
 * fts_pipeline_run - convert one trace into lane items for every sink in @sinks
 * @opts: input and the maps to apply
 * @sinks: @nsinks sinks, each fed every lane and item (through a tee when more than one)
 * @nsinks: 0 or more; with 0 (@sinks may be NULL) the run only fills @res,
 *          e.g. for the item span
 * @res: may be NULL; filled with counters and the item span, also on error
 * @err: filled on error
 *
 * @opts->input may also be an ftrace DB (ours or the reference converter's) or
 * our Chrome JSON: their lanes and items are read back and replayed into the
 * sinks (the time and pid maps do not apply; kinds are inferred from names).
 *
 * On success every sink's finish(ok=1) has run; on error or cancel every sink's
 * finish(ok=0) has run, so no sink leaves output. The caller destroys the sinks.
 *
 * Returns 0, -ECANCELED when progress asked to stop, or a negative errno.
 */
FTS_API int fts_pipeline_run(const struct fts_pipeline_opts *opts, struct fts_sink *const *sinks,
		     int nsinks, struct fts_pipeline_result *res, struct fts_err *err);

#ifdef __cplusplus
}
#endif

#endif
