// SPDX-License-Identifier: MIT
/*
 * record.c - a capture in progress, refreshed from the recorder's
 * health snapshots (it samples on its own thread; this screen only reads):
 * per CPU events/s with a sparkline of the last minute, events, bytes
 * streamed, ring-buffer fill, overrun / commit overrun / dropped with
 * deltas; totals, elapsed and remaining time, disk room. A CPU that loses
 * events turns red and the message says what to change.
 *
 * s (or q twice) stops and saves with a progress screen; pressing it again
 * while stopping skips the drain, a third time cuts the file short (still
 * valid), as Ctrl+C does in `ftscope record`. SIGHUP/SIGTERM/Ctrl+C save a
 * complete file through on_signal before the session re-raises. The saved
 * capture then opens in the preview.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>

#include "front/fmt.h"
#include "kit/kit.h"
#include "tui/kit/keys.h"
#include "tui/session/record_top.h"
#include "tui/session/session.h"
#include "tui/session/setup_model.h"

#define SPARK_N 60   /* one-second samples: the last minute */

struct cpu_hist {
	double rate[SPARK_N];   /* events/s, ring */
	int n, head;
	uint64_t events_at;     /* events at the last whole second */
};

struct fts_record_state {
	struct fts_recorder *r;
	char start_err[512];
	struct fts_record_health h;    /* the latest snapshot (owns h.cpu) */
	int have_h;
	struct cpu_hist *hist;
	int nhist;
	double hist_t;                 /* elapsed at the last history sample */
	double write_rate;             /* bytes/s, over the last second */
	uint64_t bytes_at;
	uint64_t lost_seen;            /* lost in the last snapshot we showed */
	int confirm_quit;
	/* stopping */
	int stopping;
	struct fts_record_progress prog;
	int stop_presses;
	enum fts_record_stop_mode mode;
	char output[4096];
	/* the live top */
	struct fts_live_top top;
	int top_off;                   /* switched off with t */
	char top_err[128];
	double top_next;
};

#define TOP_PERIOD_S 2.0
#define TOP_ROWS 5

static const char *const help[] = {
	"s", "stop and save, then open the capture in the preview",
	"q", "stop and save, after a confirmation",
	"s (again)", "while stopping: skip draining; a third time cuts the file short (valid)",
	"Ctrl+C", "stop and save (as SIGTERM and SIGHUP: the file is complete)",
	"t", "hide or show the live top (tasks waiting most / running most)",
	NULL,
};

static void free_state(struct fts_session *s)
{
	struct fts_record_state *st = s->rec;

	if (!st)
		return;
	fts_record_health_release(&st->h);
	fts_top_free(&st->top);
	free(st->hist);
	free(st);
	s->rec = NULL;
}

static void enter(struct fts_session *s)
{
	struct fts_record_state *st;
	struct fts_err err = { 0 };

	free_state(s);
	st = s->rec = calloc(1, sizeof(*st));
	if (!st) {
		fts_session_say(s, 1, "out of memory");
		return;
	}
	snprintf(st->output, sizeof(st->output), "%s", s->rec_opts.output ? s->rec_opts.output : "trace.dat");
	fts_top_init(&st->top, "/proc");
	s->msg[0] = 0;
	if (fts_record_start(&s->rec_opts, &st->r, &err)) {
		snprintf(st->start_err, sizeof(st->start_err), "%s", err.msg[0] ? err.msg : "cannot start");
		st->r = NULL;
		return;
	}
	if (fts_record_health(st->r, &st->h) == 0) {
		st->have_h = 1;
		if (st->h.fallback[0])
			fts_session_say(s, 0, "the native backend is unavailable (%s); recording with trace-cmd", st->h.fallback);
		else if (st->h.skipped_events[0])
			fts_session_say(s, 0, "this kernel lacks %s; recording without them", st->h.skipped_events);
	}
}

/* One history sample per whole second of elapsed time. */
static void add_history(struct fts_record_state *st)
{
	const struct fts_record_health *h = &st->h;
	double dt = h->elapsed_s - st->hist_t;

	if (!st->hist && h->ncpus) {
		st->hist = calloc((size_t)h->ncpus, sizeof(*st->hist));
		st->nhist = st->hist ? h->ncpus : 0;
	}
	if (dt < 1.0)
		return;
	for (int i = 0; i < st->nhist && i < h->ncpus; i++) {
		struct cpu_hist *c = &st->hist[i];

		c->rate[c->head] = (double)(h->cpu[i].events - c->events_at) / dt;
		c->head = (c->head + 1) % SPARK_N;
		if (c->n < SPARK_N)
			c->n++;
		c->events_at = h->cpu[i].events;
	}
	st->write_rate = (double)(h->bytes_written - st->bytes_at) / dt;
	st->bytes_at = h->bytes_written;
	st->hist_t = h->elapsed_s;
}

static double hist_max(const struct fts_record_state *st)
{
	double m = 0;

	for (int i = 0; i < st->nhist; i++)
		for (int k = 0; k < st->hist[i].n; k++)
			if (st->hist[i].rate[k] > m)
				m = st->hist[i].rate[k];
	return m;
}

static void draw_spark(struct fts_session *s, struct fts_grid *g, int x, int y, int w,
		       const struct cpu_hist *c, double max, struct fts_style st)
{
	int n = c->n < w ? c->n : w;

	for (int k = 0; k < n; k++) {
		int idx = (c->head - n + k + SPARK_N) % SPARK_N;
		double f = max > 0 ? c->rate[idx] / max : 0;

		fts_grid_put(g, x + (w - n) + k, y, fts_theme_level(&s->theme, f > 0 && f < 0.13 ? 0.13 : f), st);
	}
}

static void draw_stopping(struct fts_session *s, struct fts_grid *g, int y)
{
	struct fts_record_state *st = s->rec;
	static const char *const stage[] = { "draining the ring buffers", "assembling the trace.dat",
					     "rendering kernel text" };
	char a[FTS_FMT_LEN], b[FTS_FMT_LEN];
	int bw = g->w - 4;
	double f = st->prog.total ? (double)st->prog.done / (double)st->prog.total : 0;

	fts_draw_section(s, g, 0, y++, g->w, "Stopping");
	fts_grid_printf(g, 2, y++, g->w - 2, fts_theme_style(&s->theme, FTS_R_NORMAL), "%s: %s%s%s",
			stage[st->prog.stage < 3 ? st->prog.stage : 0],
			st->prog.stage == FTS_REC_STAGE_RENDER ? fts_fmt_count((double)st->prog.done, a, sizeof(a))
							   : fts_fmt_bytes((double)st->prog.done, a, sizeof(a)),
			st->prog.total ? " of " : "",
			st->prog.total ? fts_fmt_bytes((double)st->prog.total, b, sizeof(b)) : "");
	if (bw > 0) {
		fts_grid_fill(g, 2, y, bw, s->theme.utf8 ? 0x2591 : '.', fts_theme_style(&s->theme, FTS_R_DIM));
		fts_grid_fill(g, 2, y, (int)(f > 1 ? bw : f * bw), s->theme.utf8 ? 0x2588 : '#',
			      fts_theme_style(&s->theme, FTS_R_RUNNING));
	}
	y++;
	fts_grid_text(g, 2, y, g->w - 2,
		      st->mode == FTS_STOP_DRAIN ? "Tracing is off and restored. s again skips the rest of the drain."
		      : st->mode == FTS_STOP_FAST ? "Skipping the drain. s again cuts the file short (it stays valid)."
						  : "Cutting the file short here; it stays valid.",
		      fts_theme_style(&s->theme, FTS_R_DIM));
}

/* One column of the live top: @rows worst first, by wait or by CPU time. */
static void draw_top_col(struct fts_session *s, struct fts_grid *g, int x, int y, int w, const char *title,
			 const struct fts_top_row *rows, int n, int by_wait)
{
	struct fts_style nrm = fts_theme_style(&s->theme, FTS_R_NORMAL);
	struct fts_style hs = fts_theme_style(&s->theme, FTS_R_HEADER);

	int lw = w - 18;

	fts_grid_text(g, x, y, lw, title, hs);
	fts_grid_text(g, x + lw + 1, y++, 17, !by_wait ? "  cpu" : n && rows[0].wait_per_run_ms >= 0 ? " wait  per run" : " wait", hs);
	for (int i = 0; i < n && i < TOP_ROWS; i++, y++) {
		char label[96];

		snprintf(label, sizeof(label), "%s:%d", rows[i].comm, rows[i].tid);
		fts_grid_text(g, x, y, lw, label, by_wait && rows[i].wait_frac >= 0.2 ?
			      fts_theme_style(&s->theme, FTS_R_RUNNABLE) : nrm);
		if (by_wait && rows[i].wait_per_run_ms >= 0)
			fts_grid_printf(g, x + lw + 1, y, 17, nrm, "%4.0f%% %6.2fms", rows[i].wait_frac * 100,
					rows[i].wait_per_run_ms);
		else if (by_wait)
			fts_grid_printf(g, x + lw + 1, y, 17, nrm, "%4.0f%%", rows[i].wait_frac * 100);
		else
			fts_grid_printf(g, x + lw + 1, y, 17, nrm, "%4.0f%%", rows[i].run_frac * 100);
	}
}

/* The recorder's live top as rows: @n tasks, seconds over @window_s. */
static int from_recorder(const struct fts_record_top_task *tk, int n, double window_s, int by_wait,
			 struct fts_top_row *rows)
{
	int k = 0;

	for (int i = 0; i < n && k < TOP_ROWS; i++, k++) {
		memset(&rows[k], 0, sizeof(rows[k]));
		rows[k].tid = tk[i].pid;
		snprintf(rows[k].comm, sizeof(rows[k].comm), "%.15s", tk[i].comm);
		rows[k].wait_frac = window_s > 0 ? tk[i].runnable_s / window_s : 0;
		rows[k].run_frac = window_s > 0 ? tk[i].cpu_s / window_s : 0;
		rows[k].wait_per_run_ms = -1; /* the recorder gives the worst wakeup instead */
		(void)by_wait;
	}
	return k;
}

/*
 * The recorder's live top (decoded from the streamed pages): the tasks that
 * waited Runnable most and ran most over its window, the worst wakeup latency.
 */
static void draw_rec_top(struct fts_session *s, struct fts_grid *g, int y0, int maxy)
{
	struct fts_record_state *st = s->rec;
	const struct fts_record_top *t = &st->h.top;
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	int half = (g->w - 3) / 2 < 50 ? (g->w - 3) / 2 : 50;
	struct fts_top_row wait[TOP_ROWS], run[TOP_ROWS];
	int nw = from_recorder(t->runnable, t->nrunnable, t->window_s, 1, wait);
	int nr = from_recorder(t->cpu, t->ncpu, t->window_s, 0, run);
	char hdr[200], a[FTS_FMT_LEN];

	snprintf(hdr, sizeof(hdr), "Live top: last %.0f s of trace, %s events decoded%s (t: hide)", t->window_s,
		 fts_fmt_count((double)t->events, a, sizeof(a)), t->skipped_bytes ? ", some pages skipped" : "");
	fts_draw_section(s, g, 0, y0, g->w, hdr);
	if (!nw && !nr) {
		fts_grid_text(g, 2, y0 + 1, g->w - 2, "decoding...", dim);
		return;
	}
	draw_top_col(s, g, 1, y0 + 1, half, "Waiting Runnable", wait, nw, 1);
	draw_top_col(s, g, 2 + half, y0 + 1, half, "On CPU", run, nr, 0);
	if (t->worst_pid && y0 + TOP_ROWS + 2 <= maxy)
		fts_grid_printf(g, 1, y0 + TOP_ROWS + 2, g->w - 1, dim,
				"worst wakeup latency: %.2f ms (%.15s:%d); decoder CPU %.2f s so far",
				t->worst_wakeup_ms, t->worst_comm, t->worst_pid, t->cpu_cost_s);
}

/*
 * The live top: from the recorder when it decodes pages (opts.live_top),
 * else from per-thread schedstat: threads that waited Runnable most and ran
 * most over the last interval, the worst average wait before a run.
 * Rows @y0..@maxy.
 */
static void draw_top(struct fts_session *s, struct fts_grid *g, int y0, int maxy)
{
	struct fts_record_state *st = s->rec;
	const struct fts_live_top *t = &st->top;
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	int half = (g->w - 3) / 2 < 50 ? (g->w - 3) / 2 : 50;
	char hdr[160];

	if (st->top_off) {
		fts_draw_section(s, g, 0, y0, g->w, "Live top: hidden (t shows it)");
		return;
	}
	if (st->h.top.enabled) {
		draw_rec_top(s, g, y0, maxy);
		return;
	}
	snprintf(hdr, sizeof(hdr), "Live top (/proc schedstat): last %.0f s, %d threads (t: hide)",
		 t->interval_s > 0 ? t->interval_s : TOP_PERIOD_S, t->threads);
	fts_draw_section(s, g, 0, y0, g->w, hdr);
	if (st->top_err[0]) {
		fts_grid_text(g, 2, y0 + 1, g->w - 2, st->top_err, dim);
		return;
	}
	if (!t->interval_s) {
		fts_grid_text(g, 2, y0 + 1, g->w - 2, "measuring...", dim);
		return;
	}
	draw_top_col(s, g, 1, y0 + 1, half, "Waiting Runnable", t->wait, t->nwait, 1);
	draw_top_col(s, g, 2 + half, y0 + 1, half, "On CPU", t->run, t->nrun, 0);
	if (t->worst_latency.tid && y0 + TOP_ROWS + 2 <= maxy)
		fts_grid_printf(g, 1, y0 + TOP_ROWS + 2, g->w - 1, dim, "worst average wait before a run: %.2f ms (%s:%d)",
				t->worst_latency.wait_per_run_ms, t->worst_latency.comm, t->worst_latency.tid);
}

static void draw(struct fts_session *s, struct fts_grid *g)
{
	struct fts_record_state *st = s->rec;
	const struct fts_record_health *h;
	struct fts_style nrm = fts_theme_style(&s->theme, FTS_R_NORMAL);
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	struct fts_style hs = fts_theme_style(&s->theme, FTS_R_HEADER);
	struct fts_style red = fts_theme_style(&s->theme, FTS_R_ERROR);
	char a[FTS_FMT_LEN], b[FTS_FMT_LEN], c[FTS_FMT_LEN];
	int y = fts_session_frame(s, g, "recording", st && st->stopping ? "s skip drain  (stopping...)" :
				  "s stop and save  q stop (asks)  t live top  ? help");
	int maxy = g->h - 4, spark_w, rows, order[4096], n, x, top_h, show_top;
	struct statvfs vfs;
	double max;
	char dir[4096];

	if (s->rec_opts.output)
		snprintf(s->cmdline, sizeof(s->cmdline), "%s", s->setup_cmdline);
	if (!st)
		return;
	if (st->start_err[0]) {
		fts_grid_text(g, 1, y + 1, g->w - 1, "Could not start recording:", red);
		fts_grid_text(g, 3, y + 2, g->w - 3, st->start_err, red);
		fts_grid_text(g, 1, y + 4, g->w - 1, "q goes back to the setup.", dim);
		return;
	}
	if (!st->have_h)
		return;
	h = &st->h;
	/* headline: elapsed / remaining, output, disk */
	if (s->rec_opts.duration_s > 0)
		x = fts_grid_printf(g, 1, y, g->w - 1, hs, "%s %s / %s (%s left)", s->theme.utf8 ? "\u25cf REC" : "* REC",
				    fts_fmt_duration(h->elapsed_s, a, sizeof(a)),
				    fts_fmt_duration(s->rec_opts.duration_s, b, sizeof(b)),
				    fts_fmt_duration(fmax(0, s->rec_opts.duration_s - h->elapsed_s), c, sizeof(c)));
	else
		x = fts_grid_printf(g, 1, y, g->w - 1, hs, "%s %s (until stopped)", s->theme.utf8 ? "\u25cf REC" : "* REC",
				    fts_fmt_duration(h->elapsed_s, a, sizeof(a)));
	fts_grid_style(g, 1, y, 5, 0, fts_theme_style(&s->theme, FTS_R_LOST).fg, -2);
	x += 3;
	x += fts_grid_text(g, 1 + x, y, g->w - 1 - x, st->output, nrm);
	if (g->w >= 100)
		fts_grid_printf(g, g->w - 16, y, 16, dim, "  via %s", h->backend ? h->backend : "?");
	y++;
	x = fts_grid_printf(g, 1, y, g->w - 1, nrm, "Events %s, %s in total; lost ",
			    fts_fmt_rate(h->events_per_s, a, sizeof(a)), fts_fmt_count((double)h->events, b, sizeof(b)));
	if (h->counters)
		fts_grid_printf(g, 1 + x, y, g->w - 1 - x, h->lost ? red : nrm, "%llu%s", (unsigned long long)h->lost,
				h->lost_delta ? " (rising)" : "");
	else
		fts_grid_text(g, 1 + x, y, g->w - 1 - x, "? (trace-cmd keeps no live counters)", dim);
	y++;
	/* the disk the output is on: room, and how long it lasts at this rate */
	snprintf(dir, sizeof(dir), "%s", st->output);
	{
		char *sl = strrchr(dir, '/');

		if (sl)
			*sl = 0;
		else
			snprintf(dir, sizeof(dir), ".");
	}
	x = fts_grid_printf(g, 1, y, g->w - 1, nrm, "Output %s at %s/s",
			    fts_fmt_bytes((double)h->bytes_written, a, sizeof(a)), fts_fmt_bytes(st->write_rate, b, sizeof(b)));
	if (statvfs(dir, &vfs) == 0) {
		double avail = (double)vfs.f_bavail * (double)vfs.f_frsize;

		if (st->write_rate > 0)
			fts_grid_printf(g, 1 + x, y, g->w - 1 - x, dim, "; disk %s free, full in %s", fts_fmt_bytes(avail, a, sizeof(a)),
					fts_fmt_duration(avail / st->write_rate, b, sizeof(b)));
		else
			fts_grid_printf(g, 1 + x, y, g->w - 1 - x, dim, "; disk %s free", fts_fmt_bytes(avail, a, sizeof(a)));
	}
	y++;
	if (st->stopping) {
		draw_stopping(s, g, y + 1);
		return;
	}
	/* the CPU table */
	spark_w = g->w - 66;
	if (spark_w > SPARK_N)
		spark_w = SPARK_N;
	if (spark_w < 8)
		spark_w = 0;
	fts_draw_section(s, g, 0, y++, g->w, "CPUs");
	/* the live top keeps its rows while the table still shows a few CPUs */
	top_h = st->top_off ? 1 : TOP_ROWS + 3;
	show_top = maxy - y - top_h >= (h->ncpus + 1 < 4 ? h->ncpus + 1 : 4);
	rows = maxy - y - (show_top ? top_h : 0);
	if (rows < 1)
		rows = 1;
	n = h->ncpus < (int)(sizeof(order) / sizeof(order[0])) ? h->ncpus : (int)(sizeof(order) / sizeof(order[0]));
	if (n > rows) {
		n = fts_record_worst_cpus(h, order, rows - 1 > 0 ? rows - 1 : 1);
	} else {
		for (int i = 0; i < n; i++)
			order[i] = i;
	}
	x = fts_grid_printf(g, 1, y, g->w - 1, hs, "%-6s %9s ", "CPU", "events/s");
	if (spark_w)
		x += fts_grid_printf(g, 1 + x, y, spark_w + 1, hs, "%-*s ", spark_w, spark_w >= 10 ? "last min" : "");
	fts_grid_printf(g, 1 + x, y, g->w - 1 - x, hs, "%7s %9s %-10s %4s %s", "events", "written", "buffer", "fill",
			"ovr/cmt/drop");
	y++;
	max = hist_max(st);
	for (int k = 0; k < n && y <= maxy; k++, y++) {
		const struct fts_record_cpu_health *cp = &h->cpu[order[k]];
		struct fts_style rs = cp->lost ? red : nrm;
		int bw = 10, fill = (int)(cp->fill * bw + 0.5);

		x = fts_grid_printf(g, 1, y, g->w - 1, rs, "cpu%-3d %9s ", cp->cpu, fts_fmt_rate(cp->events_per_s, a, sizeof(a)));
		if (spark_w && order[k] < st->nhist)
			draw_spark(s, g, 1 + x, y, spark_w, &st->hist[order[k]], max,
				   fts_theme_style(&s->theme, FTS_R_RUNNING));
		x += spark_w ? spark_w + 1 : 0;
		x += fts_grid_printf(g, 1 + x, y, g->w - 1 - x, rs, "%7s %9s ", fts_fmt_count((double)cp->events, a, sizeof(a)),
				     fts_fmt_bytes((double)cp->bytes_written, b, sizeof(b)));
		fts_grid_fill(g, 1 + x, y, bw, s->theme.utf8 ? 0x2591 : '.', dim);
		fts_grid_fill(g, 1 + x, y, fill > bw ? bw : fill, s->theme.utf8 ? 0x2588 : '#',
			      cp->fill >= 0.8 ? red : fts_theme_style(&s->theme, FTS_R_RUNNING));
		x += bw + 1;
		x += fts_grid_printf(g, 1 + x, y, g->w - 1 - x, rs, "%3.0f%% ", cp->fill * 100);
		if (h->counters)
			fts_grid_printf(g, 1 + x, y, g->w - 1 - x, rs, "%llu/%llu/%llu%s", (unsigned long long)cp->overrun,
					(unsigned long long)cp->commit_overrun, (unsigned long long)cp->dropped,
					cp->lost_delta ? " +" : "");
		if (cp->lost_delta)
			fts_grid_printf(g, 1 + x + 12, y, g->w - 13 - x, red, " (+%llu)", (unsigned long long)cp->lost_delta);
	}
	if (h->ncpus > n && y <= maxy)
		fts_grid_printf(g, 1, y++, g->w - 1, dim, "%d more CPUs, all healthy ones (worst shown first)", h->ncpus - n);
	if (show_top)
		draw_top(s, g, maxy - top_h + 1, maxy);
}

/* Called by fts_record_stop_progress: keep the screen alive, escalate on keys. */
static enum fts_record_stop_mode on_progress(const struct fts_record_progress *p, void *arg)
{
	struct fts_session *s = arg;
	struct fts_record_state *st = s->rec;
	int keys[16], sig, n;

	st->prog = *p;
	n = s->pump(s, keys, 16, &sig);
	for (int i = 0; i < n; i++) {
		if (keys[i] == 's' || keys[i] == 'q' || keys[i] == FTS_KEY_ESC)
			st->stop_presses++;
	}
	(void)sig; /* a signal's stop goes on draining: the file must be complete */
	if (st->stop_presses == 1 && st->mode < FTS_STOP_FAST)
		st->mode = FTS_STOP_FAST;
	else if (st->stop_presses >= 2)
		st->mode = FTS_STOP_CUT;
	return st->mode;
}

/* Stop, save and say what was saved; returns the flags to open the preview. */
static unsigned stop_and_save(struct fts_session *s)
{
	struct fts_record_state *st = s->rec;
	struct fts_record_summary sum;
	struct fts_err err = { 0 };
	char a[FTS_FMT_LEN], b[FTS_FMT_LEN];
	int rc;

	if (!st->r)
		return 0;
	st->stopping = 1;
	st->mode = FTS_STOP_DRAIN;
	memset(&sum, 0, sizeof(sum));
	rc = fts_record_stop_progress(st->r, FTS_STOP_DRAIN, on_progress, s, &sum, &err);
	st->r = NULL;
	st->stopping = 0;
	if (rc) {
		fts_session_say(s, 1, "saving failed: %s", err.msg);
		fts_record_summary_release(&sum);
		return FTS_SR_REDRAW;
	}
	snprintf(s->last_capture, sizeof(s->last_capture), "%s", sum.output);
	fts_session_say(s, sum.health.lost || sum.truncated, "saved %s: %.1f s, %s events, %llu lost, %s%s%s", sum.output,
			sum.duration_s, fts_fmt_count((double)sum.health.events, a, sizeof(a)),
			(unsigned long long)sum.health.lost, fts_fmt_bytes((double)sum.file_size, b, sizeof(b)),
			sum.truncated ? "; cut short: " : sum.cut ? "; cut short on request" : "",
			sum.truncated ? sum.failure : "");
	snprintf(s->preview_path, sizeof(s->preview_path), "%s", sum.output);
	/* recorded with container pids: show them */
	snprintf(s->preview_pidmap, sizeof(s->preview_pidmap), "%s", sum.pid_mapping);
	fts_record_summary_release(&sum);
	return FTS_SR_PREVIEW | FTS_SR_REDRAW;
}

static unsigned tick(struct fts_session *s)
{
	struct fts_record_state *st = s->rec;
	struct fts_record_health h;
	unsigned r = 0;

	if (!st || !st->r)
		return 0;
	if (!st->top_off && !st->h.top.enabled && !st->top_err[0] && fts__clock_mono_s() >= st->top_next) {
		int rc = fts_top_sample(&st->top, fts__clock_mono_s());

		if (rc)
			snprintf(st->top_err, sizeof(st->top_err), "not available: /proc has no schedstat (%s)", strerror(-rc));
		st->top_next = fts__clock_mono_s() + TOP_PERIOD_S;
		r = FTS_SR_REDRAW;
	}
	if (fts_record_health(st->r, &h))
		return r;
	if (st->have_h && h.sample == st->h.sample) {
		fts_record_health_release(&h);
		return r;
	}
	fts_record_health_release(&st->h);
	st->h = h;
	st->have_h = 1;
	add_history(st);
	if (h.lost > st->lost_seen) {
		int worst;

		fts_record_worst_cpus(&h, &worst, 1);
		fts_session_say(s, 1, "LOST %llu events (cpu%d worst): raise the buffer (now %u KB per CPU) or record fewer CPUs/events",
				(unsigned long long)h.lost, h.ncpus ? h.cpu[worst].cpu : -1,
				s->rec_opts.bf_size_kb ? s->rec_opts.bf_size_kb : 40960);
		st->lost_seen = h.lost;
	}
	r |= FTS_SR_REDRAW;
	if (h.failed) {
		fts_session_say(s, 1, "%s; stopping and saving what was recorded", h.failure);
		return r | stop_and_save(s);
	}
	if (h.done)
		return r | stop_and_save(s);
	return r;
}

static unsigned key(struct fts_session *s, int k)
{
	struct fts_record_state *st = s->rec;

	if (!st || !st->r) {
		if (k == 'q' || k == FTS_KEY_ESC) {
			s->next = FTS_SCR_SETUP;
			return FTS_SR_GOTO;
		}
		return 0;
	}
	if (k == 's' || (k == 'q' && st->confirm_quit)) {
		st->confirm_quit = 0;
		return stop_and_save(s);
	}
	if (k == 't') {
		st->top_off = !st->top_off;
		st->top_next = 0;
		fts_top_free(&st->top);
		fts_top_init(&st->top, "/proc");
		return FTS_SR_REDRAW;
	}
	if (k == 'q' || k == FTS_KEY_ESC) {
		st->confirm_quit = 1;
		fts_session_say(s, 0, "stop recording and save? q or s: yes; any other key: keep recording");
		return FTS_SR_REDRAW;
	}
	if (st->confirm_quit) {
		st->confirm_quit = 0;
		fts_session_say(s, 0, "still recording");
		return FTS_SR_REDRAW;
	}
	return 0;
}

/* The session ends (a signal, or quit): never leave a capture running. */
static void on_signal(struct fts_session *s, int sig)
{
	struct fts_record_state *st = s->rec;

	(void)sig;
	if (st && st->r) {
		struct fts_err err = { 0 };

		st->stopping = 1;
		fts_record_stop_progress(st->r, FTS_STOP_DRAIN, on_progress, s, NULL, &err);
		st->r = NULL;
	}
	free_state(s);
}

const struct fts_screen_ops fts_screen_record = {
	.title = "recording",
	.enter = enter,
	.draw = draw,
	.key = key,
	.tick = tick,
	.tick_ms = 250,
	.help = help,
	.on_signal = on_signal,
};
