/* SPDX-License-Identifier: MIT */
/*
 * The conversion handle (fts_conv): fts_convert's options behind key/value
 * setters, the CLI's output defaults and suffix rule, a cancel flag another
 * thread may raise, and the result as a JSON summary.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/api/api_local.h"
#include "core/pipeline/result_impl.h"
#include "ftscope/api.h"
#include "ftscope/ftscope.h"

struct conv_opts {
	char *input, *output, *profiling_data, *pid_mapping, *probe_helper;
	int cs_rows, with_summary;
	struct fts_owner owner;
};

struct fts_conv {
	struct conv_opts o, defaults;
	int format;                 /* -1: from the output's suffix, else enum fts_out_format */
	atomic_int cancel;
	struct fts_err err;
};

#define OPT(field) offsetof(struct conv_opts, field)
static const struct api_key KEYS[] = {
	{ "input", API_STR, OPT(input), 0 },
	{ "output", API_STR, OPT(output), 0 },
	{ "profiling_data", API_STR, OPT(profiling_data), 0 },
	{ "pid_mapping", API_STR, OPT(pid_mapping), 0 },
	{ "probe_helper", API_STR, OPT(probe_helper), 0 },
	{ "cs_rows", API_BOOL, OPT(cs_rows), 0 },
	{ "with_summary", API_BOOL, OPT(with_summary), 0 },
	{ "owner", API_OWNER, OPT(owner), 0 },
};
#define NKEYS (sizeof(KEYS) / sizeof(KEYS[0]))

struct fts_conv *fts_conv_new(void)
{
	struct fts_conv *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->o.cs_rows = 1;
	h->defaults = h->o;
	h->format = -1;
	atomic_init(&h->cancel, 0);
	return h;
}

int fts_conv_set(struct fts_conv *h, const char *key, const char *value)
{
	int rc;

	api_ok(&h->err);
	if (!strcmp(key, "format")) {
		if (api_empty(value))
			h->format = -1;
		else if (!strcmp(value, "db"))
			h->format = FTS_OUT_DB;
		else if (!strcmp(value, "json"))
			h->format = FTS_OUT_JSON;
		else
			return api_bad_value(&h->err, "convert", key, value, -EINVAL);
		return 0;
	}
	rc = api_set(&h->o, &h->defaults, KEYS, NKEYS, key, value, &h->err, "convert");
	if (rc == -ENOENT)
		rc = api_bad_value(&h->err, "convert", key, NULL, -EINVAL);
	return rc;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* The CLI's rules: format from the output's suffix, else db; the suffix must match it. */
static int resolve_output(struct fts_conv *h, enum fts_out_format *fmt, const char **out)
{
	static const char *const suffix[] = { [FTS_OUT_DB] = ".db", [FTS_OUT_JSON] = ".json" };

	*out = h->o.output;
	if (h->format >= 0)
		*fmt = (enum fts_out_format)h->format;
	else
		*fmt = *out && ends_with(*out, ".json") ? FTS_OUT_JSON : FTS_OUT_DB;
	if (!*out)
		*out = *fmt == FTS_OUT_JSON ? "ftrace_data.json" : "ftrace_data.db";
	if (!ends_with(*out, suffix[*fmt]))
		return fts_err_set(&h->err, -EINVAL, "output %s: format %s needs a name ending in %s",
				   *out, *fmt == FTS_OUT_JSON ? "json" : "db", suffix[*fmt]);
	if (*fmt == FTS_OUT_JSON && h->o.with_summary)
		return fts_err_set(&h->err, -EINVAL, "with_summary applies to the db format only");
	return 0;
}

static int on_progress(void *ctx, const struct fts_progress *p)
{
	struct fts_conv *h = ctx;

	(void)p;
	return atomic_load(&h->cancel);
}

static char *summary_json(const struct fts_conv *h, const char *output, enum fts_out_format fmt,
			  const struct fts_pipeline_result *r)
{
	struct api_jw w = { 0 };

	api_jw_open(&w, '{');
	api_jw_kstr(&w, "input", h->o.input);
	api_jw_kstr(&w, "input_format", fts_input_format_name(r->input_format));
	api_jw_kstr(&w, "output", output);
	api_jw_kstr(&w, "format", fmt == FTS_OUT_JSON ? "json" : "db");
	api_jw_knum(&w, "seconds", r->seconds);
	api_jw_ku64(&w, "events", r->read.events);
	api_jw_ku64(&w, "skipped", r->read.skipped);
	api_jw_ku64(&w, "items", r->items);
	api_jw_ku64(&w, "cpu_lanes", r->model.cpu_lanes);
	api_jw_ku64(&w, "task_lanes", r->model.task_lanes);
	api_jw_ku64(&w, "tasks", r->model.tasks_seen);
	api_jw_ku64(&w, "cpu_slices", r->model.cpu_slices);
	api_jw_ku64(&w, "irq_slices", r->model.irq_slices);
	api_jw_ku64(&w, "softirq_slices", r->model.softirq_slices);
	api_jw_ku64(&w, "switch_markers", r->model.switch_markers);
	api_jw_ku64(&w, "wakeup_links", r->model.wakeup_links);
	api_jw_ku64(&w, "before_window", r->model.before_window);
	api_jw_ku64(&w, "after_window", r->model.after_window);
	api_jw_ku64(&w, "irq_unmatched_exit", r->model.irq_unmatched_exit);
	api_jw_ku64(&w, "lost_markers", r->model.lost_markers);
	api_jw_kbool(&w, "lost_any", r->loss.any);
	api_jw_ku64(&w, "lost_events", r->loss.total);
	api_jw_kbool(&w, "lost_exact", r->loss.exact);
	api_jw_kstr(&w, "lost_text", r->loss.any ? r->loss.text : "none");
	api_jw_ku64(&w, "no_data_ns", r->loss.nodata_ns);
	api_jw_ku64(&w, "overwritten", r->read.overwritten);
	api_jw_kbool(&w, "aligned", r->time.cards_total > 0);
	api_jw_ki64(&w, "cards", r->time.cards_total);
	api_jw_ku64(&w, "pidmap_entries", r->pidmap_entries);
	api_jw_ku64(&w, "pidmap_mapped", r->pidmap_mapped);
	api_jw_close(&w, '}');
	return api_jw_take(&w);
}

int fts_conv_run(struct fts_conv *h, char **summary)
{
	struct fts_convert_opts co = { 0 };
	struct fts_pipeline_result *res;
	struct fts_err err = { 0 };
	int rc;

	if (summary)
		*summary = NULL;
	api_ok(&h->err);
	atomic_store(&h->cancel, 0);
	if (!h->o.input)
		return fts_err_set(&h->err, -EINVAL, "convert: no input given (set \"input\")");
	co.input = h->o.input;
	rc = resolve_output(h, &co.format, &co.output);
	if (rc)
		return rc;
	co.profiling_data = h->o.profiling_data;
	co.pid_mapping = h->o.pid_mapping;
	co.cs_rows = h->o.cs_rows;
	co.with_summary = h->o.with_summary;
	co.probe_helper = h->o.probe_helper;
	co.owner = h->o.owner;
	co.progress = on_progress;
	co.progress_ctx = h;
	res = calloc(1, sizeof(*res));  /* its time map is large for a thread's stack */
	if (!res)
		return fts_err_set(&h->err, -ENOMEM, "out of memory starting the conversion");
	rc = fts_convert(&co, res, &err);
	if (rc == -ECANCELED)
		fts_err_set(&h->err, rc, "convert %s: cancelled; nothing was written", co.input);
	else if (rc)
		h->err = err;
	else if (summary && !(*summary = summary_json(h, co.output, co.format, res)))
		rc = fts_err_set(&h->err, -ENOMEM, "out of memory writing the conversion's summary");
	free(res);
	return rc;
}

void fts_conv_cancel(struct fts_conv *h)
{
	atomic_store(&h->cancel, 1);
}

const char *fts_conv_error(const struct fts_conv *h)
{
	return h->err.msg;
}

void fts_conv_free(struct fts_conv *h)
{
	if (!h)
		return;
	api_free_strs(&h->o, KEYS, NKEYS);
	free(h);
}
