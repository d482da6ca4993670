// SPDX-License-Identifier: MIT
/* result.c - a pipeline result's lifetime and accessors (pipeline.h); pipeline.c fills it. */
#include <stdlib.h>

#include "core/pipeline/result_impl.h"

struct fts_pipeline_result *fts_pipeline_result_new(void)
{
	return calloc(1, sizeof(struct fts_pipeline_result));
}

void fts_pipeline_result_free(struct fts_pipeline_result *res)
{
	free(res);
}

enum fts_pipeline_input fts_pipeline_result_input(const struct fts_pipeline_result *res)
{
	return res->input_kind;
}

enum fts_input_format fts_pipeline_result_format(const struct fts_pipeline_result *res)
{
	return res->input_format;
}

const struct fts_read_stats *fts_pipeline_result_read(const struct fts_pipeline_result *res)
{
	return &res->read;
}

const struct fts_model_stats *fts_pipeline_result_model(const struct fts_pipeline_result *res)
{
	return &res->model;
}

const struct fts_timemap *fts_pipeline_result_time(const struct fts_pipeline_result *res)
{
	return &res->time;
}

const struct fts_loss_summary *fts_pipeline_result_loss(const struct fts_pipeline_result *res)
{
	return &res->loss;
}

uint64_t fts_pipeline_result_items(const struct fts_pipeline_result *res, uint64_t *lo, uint64_t *hi)
{
	if (lo)
		*lo = res->span_lo;
	if (hi)
		*hi = res->span_hi;
	return res->items;
}

uint64_t fts_pipeline_result_rows(const struct fts_pipeline_result *res)
{
	return res->rows;
}

uint32_t fts_pipeline_result_pidmap(const struct fts_pipeline_result *res, uint32_t *mapped)
{
	if (mapped)
		*mapped = res->pidmap_mapped;
	return res->pidmap_entries;
}

double fts_pipeline_result_seconds(const struct fts_pipeline_result *res)
{
	return res->seconds;
}
