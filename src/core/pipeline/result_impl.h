/* SPDX-License-Identifier: MIT */
/*
 * result_impl.h - a pipeline result's layout, private to the library (and
 * the tests of its internals). Callers of the public API hold a struct
 * fts_pipeline_result by pointer only and read it through pipeline.h's
 * accessors, so this layout may change in any release.
 */
#ifndef FTS_RESULT_IMPL_H
#define FTS_RESULT_IMPL_H

#include "ftscope/pipeline.h"
#include "core/model/timemap_impl.h"

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

#endif
