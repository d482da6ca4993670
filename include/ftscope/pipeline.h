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

/*
 * What a run found: opaque, made by fts_pipeline_result_new and filled by
 * fts_pipeline_run or fts_convert (also on error). It was a caller-allocated
 * struct of 42 KB that grew with every release; behind accessors it can grow
 * without breaking programs built against an older library. The structs
 * the accessors return by pointer are the result's: valid until it is
 * freed or filled again; read them through the pointer and never copy one
 * by value, since they may grow at their end.
 */
struct fts_pipeline_result;

/**
 * fts_pipeline_result_new - an empty result (every count 0)
 *
 * Returns the result, freed with fts_pipeline_result_free, or NULL (out of memory).
 */
FTS_API struct fts_pipeline_result *fts_pipeline_result_new(void);

/**
 * fts_pipeline_result_free - free a result from fts_pipeline_result_new
 * @res: the result; NULL does nothing
 */
FTS_API void fts_pipeline_result_free(struct fts_pipeline_result *res);

/**
 * fts_pipeline_result_input - what the run's input turned out to be
 * @res: the result
 *
 * Read back (a DB or JSON): no read counters, and of the model counters
 * only the lanes and items by kind.
 *
 * Returns FTS_PIPE_TRACE, FTS_PIPE_DB or FTS_PIPE_JSON.
 */
FTS_API enum fts_pipeline_input fts_pipeline_result_input(const struct fts_pipeline_result *res);

/**
 * fts_pipeline_result_format - a trace input's format (trace.dat or text)
 * @res: the result
 *
 * Returns the format the reader detected.
 */
FTS_API enum fts_input_format fts_pipeline_result_format(const struct fts_pipeline_result *res);

/**
 * fts_pipeline_result_read - the reader's counters (a trace input)
 * @res: the result
 *
 * Returns them; the result's (see struct fts_pipeline_result).
 */
FTS_API const struct fts_read_stats *fts_pipeline_result_read(const struct fts_pipeline_result *res);

/**
 * fts_pipeline_result_model - the sched model's counters
 * @res: the result
 *
 * Returns them; the result's (see struct fts_pipeline_result).
 */
FTS_API const struct fts_model_stats *fts_pipeline_result_model(const struct fts_pipeline_result *res);

/**
 * fts_pipeline_result_time - the time map the run applied
 * @res: the result
 *
 * Returns it (read with timemap.h's accessors); the result's.
 */
FTS_API const struct fts_timemap *fts_pipeline_result_time(const struct fts_pipeline_result *res);

/**
 * fts_pipeline_result_loss - what the items say was lost (the one loss model, loss.h), any input kind
 * @res: the result
 *
 * Returns it; the result's (see struct fts_pipeline_result).
 */
FTS_API const struct fts_loss_summary *fts_pipeline_result_loss(const struct fts_pipeline_result *res);

/**
 * fts_pipeline_result_items - lane items handed to the sinks
 * @res: the result
 * @lo: set to the items' span in output ns, the earliest start (0 without items); may be NULL
 * @hi: set to the latest end, ts + dur (0 without items); may be NULL
 *
 * Returns the number of items.
 */
FTS_API uint64_t fts_pipeline_result_items(const struct fts_pipeline_result *res, uint64_t *lo,
					   uint64_t *hi);

/**
 * fts_pipeline_result_rows - a DB or JSON input's rows read back
 * @res: the result
 *
 * Returns the count (0 for a trace).
 */
FTS_API uint64_t fts_pipeline_result_rows(const struct fts_pipeline_result *res);

/**
 * fts_pipeline_result_pidmap - the pid mapping file's entries
 * @res: the result
 * @mapped: set to how many of them map to another pid; may be NULL
 *
 * Returns the number of entries (0 without a mapping).
 */
FTS_API uint32_t fts_pipeline_result_pidmap(const struct fts_pipeline_result *res, uint32_t *mapped);

/**
 * fts_pipeline_result_seconds - how long the run took
 * @res: the result
 *
 * Returns the wall-clock seconds.
 */
FTS_API double fts_pipeline_result_seconds(const struct fts_pipeline_result *res);

/**
 * fts_pipeline_run - convert one trace into lane items for every sink in @sinks
 * @opts: input and the maps to apply
 * @sinks: @nsinks sinks, each fed every lane and item (through a tee when more than one)
 * @nsinks: 0 or more; with 0 (@sinks may be NULL) the run only fills @res,
 *          e.g. for the item span
 * @res: from fts_pipeline_result_new, or NULL; filled with counters and the
 *       item span, also on error
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
