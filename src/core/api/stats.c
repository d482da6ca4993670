/* SPDX-License-Identifier: MIT */
/*
 * The statistics handle (fts_st): ftscope stats's tables (stats.h, fed by
 * one pipeline run) as the library's one stats JSON (stats_json.c).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/api/api_local.h"
#include "ftscope/api.h"
#include "ftscope/pipeline.h"
#include "ftscope/stats.h"

struct st_opts {
	char *input, *profiling_data, *pid_mapping, *cpus, *sort, *probe_helper;
	unsigned int top;
};

struct fts_st {
	struct st_opts o, defaults;
	struct fts_err err;
};

#define OPT(field) offsetof(struct st_opts, field)
static const struct api_key KEYS[] = {
	{ "input", API_STR, OPT(input), 0 },
	{ "profiling_data", API_STR, OPT(profiling_data), 0 },
	{ "pid_mapping", API_STR, OPT(pid_mapping), 0 },
	{ "cpus", API_STR, OPT(cpus), 0 },
	{ "sort", API_STR, OPT(sort), 0 },
	{ "probe_helper", API_STR, OPT(probe_helper), 0 },
	{ "top", API_UINT, OPT(top), 1u << 30 },
};
#define NKEYS (sizeof(KEYS) / sizeof(KEYS[0]))

struct fts_st *fts_st_new(void)
{
	return calloc(1, sizeof(struct fts_st));
}

int fts_st_set(struct fts_st *h, const char *key, const char *value)
{
	enum fts_task_col col;
	int rc;

	api_ok(&h->err);
	if (!strcmp(key, "sort") && !api_empty(value) && fts_task_col_parse(value, &col))
		return api_bad_value(&h->err, "stats", key, value, -EINVAL);
	rc = api_set(&h->o, &h->defaults, KEYS, NKEYS, key, value, &h->err, "stats");
	if (rc == -ENOENT)
		rc = api_bad_value(&h->err, "stats", key, NULL, -EINVAL);
	return rc;
}

static int is_text(enum fts_task_col c)
{
	return c == FTS_TCOL_TASK || c == FTS_TCOL_TOP_IRQ || c == FTS_TCOL_PREEMPTER;
}

/* The rows @h asks for (sorted, the first "top"), in the library's one stats JSON. */
static char *tables_json(struct fts_st *h, struct fts_stats *st)
{
	enum fts_task_col col = FTS_TCOL_RUNNABLE;
	const struct fts_task_stats **rows;
	char *json;
	size_t n;

	if (h->o.sort)
		fts_task_col_parse(h->o.sort, &col);  /* checked when set */
	fts_stats_sort_tasks(st, col, !is_text(col));
	n = fts_stats_ntasks(st);
	if (h->o.top && h->o.top < n)
		n = h->o.top;
	rows = malloc((n ? n : 1) * sizeof(*rows));
	if (!rows)
		return NULL;
	for (size_t i = 0; i < n; i++)
		rows[i] = fts_stats_task(st, i);
	json = fts_stats_json(st, rows, n);
	free(rows);
	return json;
}

int fts_st_run(struct fts_st *h, char **json)
{
	struct fts_pipeline_opts po = { 0 };
	struct fts_stats_opts so = { 0 };
	struct fts_err err = { 0 };
	struct fts_stats *st = NULL;
	struct fts_sink *sink;
	int rc;

	*json = NULL;
	api_ok(&h->err);
	if (!h->o.input)
		return fts_err_set(&h->err, -EINVAL, "stats: no input given (set \"input\")");
	so.cpu_list = h->o.cpus;
	rc = fts_stats_create(&so, &st, &err);
	if (rc) {
		h->err = err;
		return rc;
	}
	po.input = h->o.input;
	po.profiling_data = h->o.profiling_data;
	po.pid_mapping = h->o.pid_mapping;
	po.probe_helper = h->o.probe_helper;
	po.cs_rows = 0;  /* markers carry no numbers */
	sink = fts_stats_sink(st);
	rc = fts_pipeline_run(&po, &sink, 1, NULL, &err);
	if (rc)
		h->err = err;
	else if (!(*json = tables_json(h, st)))
		rc = fts_err_set(&h->err, -ENOMEM, "out of memory writing the statistics");
	fts_stats_free(st);
	return rc;
}

const char *fts_st_error(const struct fts_st *h)
{
	return h->err.msg;
}

void fts_st_free(struct fts_st *h)
{
	if (!h)
		return;
	api_free_strs(&h->o, KEYS, NKEYS);
	free(h);
}
