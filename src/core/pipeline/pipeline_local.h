/* SPDX-License-Identifier: MIT */
/* pipeline_local.h - state shared by the pipeline's files (src/core/pipeline only). */
#ifndef FTS_PIPELINE_LOCAL_H
#define FTS_PIPELINE_LOCAL_H

#include "core/pipeline/result_impl.h"
#include "core/trace/clock_scan.h"
#include "core/internal.h"

/* Sits in front of the caller's sinks and counts items for progress. */
struct fts_pipe_count {
	struct fts_sink base;
	struct fts_sink *next;
	uint64_t items;
	uint64_t span_lo, span_hi;  /* of the items counted (struct fts_pipeline_result) */
	int32_t *lane_cpu;          /* lane id -> CPU for CPU lanes, -1 for others */
	uint32_t nlane_cpu;
	struct fts_loss loss;       /* from the loss items that pass (loss.h) */
};

struct fts_pipe {
	const struct fts_pipeline_opts *opts;
	struct fts_pipeline_result *res;
	struct fts_pipe_count count;
	struct fts_model *model;
	struct fts_err model_err;   /* the model's (its sink's) failure during the read */
	fts_stage_fn progress;
	void *progress_ctx;
	double t0;
	uint64_t events;
	int cancelled;
	struct fts_clock_scan probe_scan; /* the probe helper's clock scan of a trace.dat */
	int probe_scanned;                /* ... when it ran one */
};


/*
 * fts_pipe_report - tell the caller where the run is; returns non-zero (and
 * remembers it) when the caller asked to stop.
 */
int fts_pipe_report(struct fts_pipe *p, enum fts_stage stage, uint64_t done, uint64_t total,
		    const char *unit);

/*
 * fts_pipe_detect - fts_pipeline_detect, also giving a trace's format, so the
 * run reads the input's head once to classify it (detect.c).
 */
int fts_pipe_detect(const char *path, enum fts_pipeline_input *kind, enum fts_input_format *fmt,
		    struct fts_err *err);

/* A trace reader's signature (fts_read_text). */
typedef int (*fts_pipe_read_fn)(const char *path, const struct fts_read_opts *ro,
				struct fts_read_stats *st, struct fts_err *err);

/*
 * fts_pipe_read_beside - @read on a thread of its own; @ro's emit and progress
 * are called on this thread, in the reader's order (read_beside.c). Returns
 * as @read would, @st and @err filled as it fills them.
 */
int fts_pipe_read_beside(fts_pipe_read_fn read, const char *path, const struct fts_read_opts *ro,
			 struct fts_read_stats *st, struct fts_err *err);

/* fts_pipe_replay - a DB or JSON input read back into p->count (replay.c). */
int fts_pipe_replay(struct fts_pipe *p, struct fts_err *err);

#endif
