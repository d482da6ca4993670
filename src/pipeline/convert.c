/*
 * convert.c - the whole conversion: reader -> model -> sink, with the time
 * and pid maps. The CLI and outside programs call this one function.
 */
#include "ftscope/ftscope.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ftscope/pidmap.h"
#include "export/sinks.h"

/* Stop the clock pre-scan after this many events: the anchor comes first. */
#define CLOCK_SCAN_EVENTS 200000

struct scan_ctx {
	uint64_t n;
};

static int scan_emit(void *ctx, const struct fts_event *ev)
{
	struct scan_ctx *s = ctx;

	(void)ev;
	return ++s->n >= CLOCK_SCAN_EVENTS ? 1 : 0;
}

/*
 * ftscope's recorder stores a (realtime, mono_raw) pair at the start of the
 * trace; find it before converting so every item is placed on the epoch.
 */
static void scan_clock(const char *path, struct fts_clock_pair *cp)
{
	struct scan_ctx s = { 0 };
	struct fts_read_opts ro = { .emit = scan_emit, .emit_ctx = &s, .probed = 1 };
	struct fts_read_stats st;

	memset(&st, 0, sizeof(st));
	if (fts_read_any(path, &ro, &st, NULL) >= 0 && st.clock.valid)
		*cp = st.clock;
}

static int model_emit(void *ctx, const struct fts_event *ev)
{
	return fts_model_event(ctx, ev);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int check_window(const struct fts_model_stats *ms, const char *path, struct fts_err *err)
{
	const char *where;

	if (ms->events_in == 0)
		return 0;
	if (ms->before_window + ms->after_window < ms->events_in)
		return 0;
	where = ms->after_window == ms->events_in ? "entirely after it" :
		ms->before_window == ms->events_in ? "entirely before it" : "around it, with none inside";
	return fts_err_set(err, -ERANGE,
			   "%s: no event falls inside the profiling window (the trace is %s); check that both were recorded on this host at the same time, or leave out --profiling_data",
			   path, where);
}

int fts_convert(const struct fts_convert_opts *opts, struct fts_convert_result *res,
		struct fts_err *err)
{
	struct fts_convert_result local;
	struct fts_pidmap *pm = NULL;
	struct fts_sink *sink = NULL;
	struct fts_model *model = NULL;
	struct fts_model_opts mo;
	struct fts_read_opts ro;
	double t0 = now_s();
	int rc;

	if (!res)
		res = &local;
	memset(res, 0, sizeof(*res));
	rc = fts_input_detect(opts->input, &res->input_format, err);
	if (!rc && res->input_format == FTS_FMT_DAT)
		rc = fts_read_dat_probe(opts->input, err); /* forks: before the sink's thread */
	if (rc)
		return rc;
	if (opts->pid_mapping) {
		rc = fts_pidmap_load(opts->pid_mapping, &pm, err);
		if (rc)
			return rc;
		res->pidmap_entries = fts_pidmap_entries(pm);
		res->pidmap_mapped = fts_pidmap_size(pm);
	}
	if (opts->profiling_data) {
		rc = fts_timemap_from_profiling(opts->profiling_data, &res->time, err);
		if (rc)
			goto out;
	} else {
		struct fts_clock_pair cp = { 0 };

		scan_clock(opts->input, &cp);
		fts_timemap_from_clock(&res->time, &cp);
	}

	rc = opts->format == FTS_OUT_JSON ? fts_json_sink_create(opts->output, &sink, err) :
					    fts_sqlite_sink_create(opts->output, &sink, err);
	if (rc)
		goto out;
	mo.tm = &res->time;
	mo.pm = pm;
	mo.cs_rows = opts->cs_rows;
	rc = fts_model_create(&mo, sink, &model, err);
	if (rc)
		goto out;

	memset(&ro, 0, sizeof(ro));
	ro.emit = model_emit;
	ro.emit_ctx = model;
	ro.progress = opts->progress;
	ro.progress_ctx = opts->progress_ctx;
	ro.probed = 1;
	rc = fts_read_any(opts->input, &ro, &res->read, err);
	if (rc > 0 || fts_model_error(model)->code) {
		/* the model (its sink) failed, not the reader */
		rc = fts_model_error(model)->code ? fts_model_error(model)->code : -EIO;
		fts_err_set(err, rc, "%s", fts_model_error(model)->msg);
	}
	if (rc)
		goto out;
	if (res->read.events == 0) {
		rc = fts_err_set(err, -ENODATA,
				 "%s: no scheduler or irq events found (%llu lines, %llu not understood%s%s); is this an ftrace capture with sched/irq events?",
				 opts->input, (unsigned long long)res->read.lines,
				 (unsigned long long)res->read.skipped,
				 res->read.first_bad[0] ? ", first: " : "", res->read.first_bad);
		goto out;
	}
	rc = fts_model_finish(model);
	if (rc) {
		fts_err_set(err, rc, "%s", fts_model_error(model)->msg);
		goto out;
	}
	res->model = *fts_model_stats(model);
	rc = check_window(&res->model, opts->input, err);
	if (rc)
		goto out;
	rc = sink->finish(sink, 1, err);
out:
	if (model)
		res->model = *fts_model_stats(model);
	if (sink) {
		if (rc)
			sink->finish(sink, 0, NULL);
		sink->destroy(sink);
	}
	fts_model_free(model);
	fts_pidmap_free(pm);
	res->seconds = now_s() - t0;
	return rc;
}
