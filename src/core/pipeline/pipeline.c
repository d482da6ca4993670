// SPDX-License-Identifier: MIT
/*
 * pipeline.c - one pass: detect -> probe -> clock pre-scan -> time map ->
 * pid map -> read -> sched model -> the caller's sinks (through a tee), with
 * staged progress that can cancel. The input's head is classified once
 * (detect.c) and the reader for that format is called directly, not through
 * fts_read_any, which would read the head again. DB and JSON inputs skip the
 * model: their rows are replayed (replay.c).
 */
#include "ftscope/pipeline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ftscope/pidmap.h"
#include "core/pipeline/pipeline_local.h"
#include "core/pipeline/segments.h"
#include "core/trace/dat_pages.h"

const char *fts_stage_name(enum fts_stage stage)
{
	static const char *const names[] = { "probe", "clock", "read", "finish", "index" };

	return (unsigned)stage < FTS_STAGE__COUNT ? names[stage] : "?";
}

int fts_pipe_report(struct fts_pipe *p, enum fts_stage stage, uint64_t done, uint64_t total,
		    const char *unit)
{
	struct fts_progress pr;

	if (p->cancelled)
		return 1;
	if (!p->progress)
		return 0;
	memset(&pr, 0, sizeof(pr));
	pr.stage = stage;
	pr.done = done;
	pr.total = total;
	pr.unit = unit;
	pr.events = p->events;
	pr.items = p->count.items;
	pr.elapsed_s = fts__clock_mono_s() - p->t0;
	if (p->progress(p->progress_ctx, &pr))
		p->cancelled = 1;
	return p->cancelled;
}

/* The counting front of the sink chain: progress shows items as they pass. */
static int count_lane(struct fts_sink *s, const struct fts_lane *lane, struct fts_err *err)
{
	struct fts_pipe_count *c = (struct fts_pipe_count *)s;

	if (lane->id >= c->nlane_cpu) {
		uint32_t n = lane->id + 64;
		int32_t *m = realloc(c->lane_cpu, n * sizeof(*m));

		if (!m)
			return fts_err_set(err, -ENOMEM, "out of memory (lanes)");
		for (uint32_t i = c->nlane_cpu; i < n; i++)
			m[i] = -1;
		c->lane_cpu = m;
		c->nlane_cpu = n;
	}
	c->lane_cpu[lane->id] = lane->group == FTS_GROUP_CPU ? lane->sort_index : -1;
	return c->next->lane(c->next, lane, err);
}

static int count_item(struct fts_sink *s, const struct fts_item *it, struct fts_err *err)
{
	struct fts_pipe_count *c = (struct fts_pipe_count *)s;

	if (!c->items || it->ts < c->span_lo)
		c->span_lo = it->ts;
	if (!c->items || it->ts + it->dur > c->span_hi)
		c->span_hi = it->ts + it->dur;
	c->items++;
	if ((it->kind == FTS_ITEM_LOST || it->kind == FTS_ITEM_NODATA) && it->lane < c->nlane_cpu &&
	    c->lane_cpu[it->lane] >= 0 && fts_loss_add_item(&c->loss, c->lane_cpu[it->lane], it))
		return fts_err_set(err, -ENOMEM, "out of memory (loss)");
	return c->next->item(c->next, it, err);
}

/* Links pass through when the next sink takes them (the model checks for flow != NULL). */
static int count_flow(struct fts_sink *s, const struct fts_flow *f, struct fts_err *err)
{
	struct fts_pipe_count *c = (struct fts_pipe_count *)s;

	return c->next->flow ? c->next->flow(c->next, f, err) : 0;
}

static int count_finish(struct fts_sink *s, int ok, struct fts_err *err)
{
	struct fts_pipe_count *c = (struct fts_pipe_count *)s;

	return c->next->finish(c->next, ok, err);
}

static void count_destroy(struct fts_sink *s)
{
	(void)s;
}

/* Behind the counter when the caller gave no sink: the run only fills its result. */
static int none_lane(struct fts_sink *s, const struct fts_lane *lane, struct fts_err *err)
{
	(void)s;
	(void)lane;
	(void)err;
	return 0;
}

static int none_item(struct fts_sink *s, const struct fts_item *it, struct fts_err *err)
{
	(void)s;
	(void)it;
	(void)err;
	return 0;
}

static int none_finish(struct fts_sink *s, int ok, struct fts_err *err)
{
	(void)s;
	(void)ok;
	(void)err;
	return 0;
}

/* The reader for a trace whose format the run's detection already found. */
static int read_trace(enum fts_input_format fmt, const char *path, const struct fts_read_opts *ro,
		      struct fts_read_stats *st, struct fts_err *err)
{
	if (fts__segments_is_dir(path)) {
		char **segs;
		int n = fts__segments_list(path, &segs, err), rc;

		if (n < 0)
			return n;
		rc = fts_read_dats((const char *const *)segs, n, path, ro, st, err);
		fts__segments_free(segs, n);
		return rc;
	}
	return fmt == FTS_FMT_DAT ? fts_read_dat(path, ro, st, err) : fts_read_text(path, ro, st, err);
}

static int read_trace_dat(const char *path, const struct fts_read_opts *ro, struct fts_read_stats *st,
			  struct fts_err *err)
{
	return read_trace(FTS_FMT_DAT, path, ro, st, err);
}

static int read_trace_text(const char *path, const struct fts_read_opts *ro, struct fts_read_stats *st,
			   struct fts_err *err)
{
	return read_trace(FTS_FMT_TEXT, path, ro, st, err);
}

/*
 * The trace.dat probe of the input: of each segment for a directory of them.
 * A single file's helper also scans it for the clock samples (clock_scan.h),
 * kept in @p for load_maps.
 */
static int probe_input(struct fts_pipe *p, const char *path, const char *helper, struct fts_err *err)
{
	char **segs;
	int n, rc = 0;

	if (!fts__segments_is_dir(path))
		return fts_dat_probe_scan(path, helper, p->opts->profiling_data != NULL, &p->probe_scan,
					  &p->probe_scanned, err);
	n = fts__segments_list(path, &segs, err);
	if (n < 0)
		return n;
	for (int i = 0; i < n && (!rc || rc == FTS_PROBE_UNISOLATED); i++)
		rc = fts_read_dat_probe(segs[i], helper, err);
	fts__segments_free(segs, n);
	return rc;
}

/*
 * The capture's clock pair, before converting, so every item is placed on
 * the epoch: the probe helper's scan when it ran one, else a scan here
 * (clock_scan.h). With @need_stop, a capture with a MONOTONIC start sample
 * but no stop one among the first events is read to its end: a trace.dat
 * keeps the stop sample in its closing marker (a text output in its header).
 */
static void scan_clock(struct fts_pipe *p, enum fts_input_format fmt, const char *path,
		       struct fts_clock_pair *cp, int need_stop)
{
	fts_clock_read_fn read = fmt == FTS_FMT_DAT ? read_trace_dat : read_trace_text;
	struct fts_clock_scan s;

	if (p->probe_scanned)
		s = p->probe_scan;
	else if (fts_clock_scan(read, path, need_stop, &s))
		return;
	if (!s.clock.valid)
		return;
	if (need_stop && s.partial)
		fts_clock_read_all(read, path, &s.clock);
	*cp = s.clock;
}

static int model_emit(void *ctx, const struct fts_event *ev)
{
	struct fts_pipe *p = ctx;

	if (p->cancelled)
		return 1;
	/* a sink's failure stops the read (positive), its message kept for later */
	return fts_model_event(p->model, ev, &p->model_err) ? 1 : 0;
}

static void read_progress(void *ctx, const struct fts_read_stats *st)
{
	struct fts_pipe *p = ctx;

	p->events = st->events;
	fts_pipe_report(p, FTS_STAGE_READ, st->bytes_done, st->bytes_total, "bytes");
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
			   "%s: no event falls inside the profiling window (the trace is %s); check that both were recorded on this host at the same time, or convert without the profiling data",
			   path, where);
}

static int cancelled(struct fts_err *err)
{
	return fts_err_set(err, -ECANCELED, "cancelled");
}

/* A sink's question during finish (fts_sink.cancelled): a progress report, whose answer it is. */
static int finish_cancelled(void *ctx)
{
	return fts_pipe_report(ctx, FTS_STAGE_FINISH, 0, 0, "items");
}

/* The maps: pid mapping file, then the profiling window or the recorder's clock pair. */
static int load_maps(struct fts_pipe *p, struct fts_pidmap **pm, struct fts_err *err)
{
	const struct fts_pipeline_opts *o = p->opts;
	struct fts_pipeline_result *res = p->res;
	int rc;

	if (o->pid_mapping) {
		rc = fts_pidmap_load(o->pid_mapping, pm, err);
		if (rc)
			return rc;
		res->pidmap_entries = fts_pidmap_entries(*pm);
		res->pidmap_mapped = fts_pidmap_size(*pm);
	}
	if (o->profiling_data) {
		struct fts_clock_pair cp = { 0 };

		rc = fts_timemap_from_profiling(o->profiling_data, &res->time, err);
		if (rc || !res->time.profiler_info_cards)
			return rc;
		/* profiler_info's end is CLOCK_MONOTONIC: the capture's samples convert it */
		scan_clock(p, res->input_format, o->input, &cp, 1);
		return cp.valid ? fts_timemap_from_profiling_cp(o->profiling_data, &cp, &res->time, err) : 0;
	}
	if (fts_pipe_report(p, FTS_STAGE_CLOCK, 0, 0, "events"))
		return cancelled(err);
	{
		struct fts_clock_pair cp = { 0 };

		scan_clock(p, res->input_format, o->input, &cp, 0);
		fts_timemap_from_clock(&res->time, &cp);
	}
	return 0;
}

/* read -> model -> sinks; the model's own error wins over the reader's stop code. */
static int read_and_model(struct fts_pipe *p, struct fts_err *err)
{
	const struct fts_pipeline_opts *o = p->opts;
	struct fts_pipeline_result *res = p->res;
	struct fts_read_opts ro;
	int rc;

	memset(&ro, 0, sizeof(ro));
	ro.emit = model_emit;
	ro.emit_ctx = p;
	ro.progress = read_progress;
	ro.progress_ctx = p;
	ro.probed = 1;
	if (fts_pipe_report(p, FTS_STAGE_READ, 0, 0, "bytes"))
		return cancelled(err);
	/* text: the parser on a core of its own, beside the model (read_beside.c) */
	if (res->input_format == FTS_FMT_TEXT && !fts__segments_is_dir(o->input))
		rc = fts_pipe_read_beside(fts_read_text, o->input, &ro, &res->read, err);
	else
		rc = read_trace(res->input_format, o->input, &ro, &res->read, err);
	if (p->cancelled)
		return cancelled(err);
	if (rc > 0 || p->model_err.code) {
		/* the model (its sink) failed, not the reader */
		rc = p->model_err.code ? p->model_err.code : -EIO;
		return fts_err_set(err, rc, "%s", p->model_err.msg);
	}
	if (rc)
		return rc;
	if (res->read.events == 0)
		return fts_err_set(err, -ENODATA,
				   "%s: no scheduler or irq events found (%llu lines, %llu not understood%s%s); is this an ftrace capture with sched/irq events?",
				   o->input, (unsigned long long)res->read.lines,
				   (unsigned long long)res->read.skipped,
				   res->read.first_bad[0] ? ", first: " : "", res->read.first_bad);
	rc = fts_model_finish(p->model, err);
	if (rc)
		return rc;
	res->model = *fts_model_stats(p->model);
	return check_window(&res->model, o->input, err);
}

static int run_trace(struct fts_pipe *p, struct fts_err *err)
{
	const struct fts_pipeline_opts *o = p->opts;
	struct fts_pidmap *pm = NULL;
	struct fts_model_opts mo;
	int rc = 0;

	/* the format comes from the run's detection: the head is not read again */
	if (p->res->input_format == FTS_FMT_DAT && !o->probed)
		rc = probe_input(p, o->input, o->probe_helper, err);
	if (rc == FTS_PROBE_UNISOLATED)
		rc = 0;
	if (!rc)
		rc = load_maps(p, &pm, err);
	if (rc)
		goto out;
	memset(&mo, 0, sizeof(mo));
	mo.tm = &p->res->time;
	mo.pm = pm;
	mo.cs_rows = o->cs_rows;
	rc = fts_model_create(&mo, &p->count.base, &p->model, err);
	if (!rc)
		rc = read_and_model(p, err);
	if (p->model)
		p->res->model = *fts_model_stats(p->model);
out:
	fts_model_free(p->model);
	p->model = NULL;
	fts_pidmap_free(pm);
	return rc;
}

int fts_pipeline_run(const struct fts_pipeline_opts *opts, struct fts_sink *const *sinks,
		     int nsinks, struct fts_pipeline_result *res, struct fts_err *err)
{
	struct fts_pipeline_result local;
	struct fts_sink none = { .lane = none_lane, .item = none_item, .finish = none_finish,
				 .destroy = count_destroy };
	struct fts_sink *tee = NULL;
	struct fts_pipe p;
	int rc;

	if (!res)
		res = &local;
	memset(res, 0, sizeof(*res));
	memset(&p, 0, sizeof(p));
	p.opts = opts;
	p.res = res;
	p.t0 = fts__clock_mono_s();
	p.progress = opts->progress;
	p.progress_ctx = opts->progress_ctx;
	if (!opts->input || nsinks < 0 || (nsinks && !sinks))
		return fts_err_set(err, -EINVAL, "internal error: no input or no sink");
	rc = nsinks > 1 ? fts_sink_tee(sinks, nsinks, &tee, err) : 0;
	if (rc)
		goto fail;
	p.count.base.lane = count_lane;
	p.count.base.item = count_item;
	p.count.base.finish = count_finish;
	p.count.base.destroy = count_destroy;
	p.count.next = tee ? tee : nsinks ? sinks[0] : &none;
	p.count.base.flow = p.count.next->flow ? count_flow : NULL;

	if (fts_pipe_report(&p, FTS_STAGE_PROBE, 0, 0, "bytes")) {
		rc = cancelled(err);
		goto fail;
	}
	rc = fts_pipe_detect(opts->input, &res->input_kind, &res->input_format, err);
	if (!rc)
		rc = res->input_kind == FTS_PIPE_TRACE ? run_trace(&p, err) : fts_pipe_replay(&p, err);
	if (!rc && fts_pipe_report(&p, FTS_STAGE_FINISH, 0, 0, "items"))
		rc = cancelled(err);
	res->items = p.count.items;
	res->span_lo = p.count.span_lo;
	res->span_hi = p.count.span_hi;
	fts_loss_summarize(&p.count.loss, &res->loss);
	fts_loss_free(&p.count.loss);
	free(p.count.lane_cpu);
	if (rc)
		goto fail;
	/* a cancel while the sinks finish still discards: they ask before publishing */
	for (int i = 0; i < nsinks; i++) {
		sinks[i]->cancelled = finish_cancelled;
		sinks[i]->cancel_ctx = &p;
	}
	rc = p.count.next->finish(p.count.next, 1, err);
	if (tee)
		tee->destroy(tee);
	res->seconds = fts__clock_mono_s() - p.t0;
	return rc;
fail:
	/* every sink discards: a failed or cancelled run leaves no output */
	for (int i = 0; i < nsinks; i++)
		if (sinks && sinks[i])
			sinks[i]->finish(sinks[i], 0, NULL);
	if (tee)
		tee->destroy(tee);
	res->seconds = fts__clock_mono_s() - p.t0;
	return rc;
}
