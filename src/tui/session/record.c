// SPDX-License-Identifier: MIT
/*
 * record.c - a capture in progress, refreshed from the recorder's
 * health snapshots (it samples on its own thread; this screen only reads):
 * per CPU events/s with a sparkline of the last minute, events, bytes
 * streamed, ring-buffer fill, the events it lost (the kernel's counters
 * through the one loss model, loss.h, so the figures and the worst-CPU
 * order are the ones the saved file and its preview show) and the newly
 * lost; totals, elapsed and remaining time, disk room. A CPU that loses
 * events turns red and the message says what to change, with a buffer size.
 *
 * s (or q twice) stops and saves with a progress screen; pressing it again
 * while stopping skips the drain, a third time cuts the file short (still
 * valid), as Ctrl+C does in `ftscope record`. The stop runs in a worker
 * thread the tick polls (the mode it reads is an atomic the keys raise), so
 * the loop stays the only reader of the terminal. SIGHUP/SIGTERM/Ctrl+C save
 * a complete file through leave() before the session re-raises. The saved
 * capture then shows its summary (saved.c): preview, record again with a
 * bigger buffer, or discard.
 *
 * A flight recording (setup's Mode) shows its ring of segments, and s takes
 * a snapshot of them (fts_record_snapshot, reason "key") while recording
 * goes on; S stops and saves there, and the segments stay beside the output.
 *
 * The recorder, /proc and the disk are read through s->mach, and only on
 * the tick (and s's snapshot, on the key): draw reads the state and nothing else.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/flight_ctl.h"
#include "app/fmt.h"
#include "core/internal.h"
#include "tui/widgets/keys.h"
#include "tui/session/record_top.h"
#include "tui/session/saved.h"
#include "tui/session/session.h"
#include "tui/session/setup_model.h"

#define SPARK_N 60   /* one-second samples: the last minute */

struct cpu_hist {
	double rate[SPARK_N];   /* events/s, ring */
	int n, head;
	uint64_t events_at;     /* events at the last whole second */
};

/* The stop, in a worker: fts_record_stop_progress with the mode the keys raise. */
struct stop_job {
	pthread_t th;
	int started;
	struct fts_recorder *r;
	const struct fts_machine *mach;
	atomic_int mode;               /* enum fts_record_stop_mode */
	atomic_int finished;
	pthread_mutex_t mu;            /* guards prog */
	struct fts_record_progress prog;
	int rc;
	struct fts_record_summary sum;
	struct fts_err err;
};

struct fts_record_state {
	struct fts_recorder *r;        /* NULL once the stop has it */
	char start_err[512];
	struct fts_record_health h;    /* the latest snapshot (owns h.cpu) */
	struct fts_loss loss;          /* its loss in the one model (empty without live counters) */
	int have_h;
	struct cpu_hist *hist;
	int nhist;
	double hist_t;                 /* elapsed at the last history sample */
	double write_rate;             /* bytes/s, over the last second */
	uint64_t bytes_at;
	uint64_t lost_seen;            /* lost in the last snapshot we showed */
	int moved_seen;                /* output_moved said so far */
	unsigned suspends_seen;        /* s->suspends when the capture started */
	uint64_t stopped_seen;         /* h.lost_stopped when the last loss was said */
	int confirm_quit;
	/* stopping */
	int stopping;
	struct stop_job stop;
	int stop_presses;
	char output[4096];
	char outdir[4096];
	int disk_ok;                   /* disk_free is known */
	double disk_free;              /* bytes, sampled on the tick */
	/* the live top */
	struct fts_live_top top;
	int top_off;                   /* switched off with t */
	int cpu_scroll;                /* rows of the CPU table scrolled past, worst first (PgDn/PgUp) */
	int cpu_page;                  /* CPU rows the last frame showed: what PgDn moves by */
	char top_err[128];
	double top_next;
	/* a flight recording */
	int flight;                    /* the options set a segment: s snapshots, S stops */
	int snaps;                     /* snapshots taken */
	char snap_dir[4096];           /* the last one's path ("" none) */
	int pid_claimed;               /* ftscope-flight.pid in outdir is ours: `ftscope snapshot` reaches us */
	struct fts_flight_claim claim;  /* that pid file, held */
	struct sigaction old_usr1;     /* SIGUSR1's disposition before (ignored while we hold the pid file) */
	char trig_note[1024];          /* the triggers' last note said */
	char disk_note[512];           /* the short disk's last note said */
};

#define TOP_PERIOD_S 2.0
#define TOP_ROWS 5
#define TOP_ROWS_MAX 8      /* what both tops keep (FTS_RECORD_TOP_N, record_top.h) */
_Static_assert(TOP_ROWS_MAX <= FTS_RECORD_TOP_N, "the recorder keeps fewer top tasks");
_Static_assert(TOP_ROWS_MAX <= sizeof(((struct fts_live_top *)0)->wait) / sizeof(struct fts_top_row),
	       "the /proc top keeps fewer tasks");

enum act { A_STOP = 1, A_QUIT, A_TOP, A_INFO, A_SNAP, A_CPU_DN, A_CPU_UP };

/* The keys both captures share, and the signals (listed for the help: the loop gets them as events, never as keys). */
#define BIND_RUNNING \
	{ A_QUIT, { 'q', FTS_KEY_ESC }, "stop (asks)", "stop and save, after a confirmation" }, \
	{ A_TOP, { 't' }, "live top", "hide or show the live top (tasks waiting most / running most)" }, \
	{ A_CPU_DN, { FTS_KEY_PGDN, FTS_KEY_DOWN }, NULL, "when not all CPUs fit: the next CPUs of the table (worst first)" }, \
	{ A_CPU_UP, { FTS_KEY_PGUP, FTS_KEY_UP }, NULL, "when not all CPUs fit: back towards the worst CPUs" }, \
	{ A_INFO, { FTS_KEY_CTRL('c') }, NULL, "stop and save (as SIGTERM and SIGHUP: the file is complete)" }, \
	{ A_INFO, { FTS_KEY_CTRL('z') }, NULL, "suspend, when pressed twice: the kernel keeps filling the buffers" }

static const struct fts_bind bind[] = {
	{ A_STOP, { 's' }, "stop and save", "stop and save, then open the capture in the preview; "
	  "while stopping: skip draining, a third time cuts the file short (valid)" },
	BIND_RUNNING,
};

static const struct fts_bindings keys = FTS_BINDINGS(bind);

/* A flight recording: s keeps the ring in a snapshot, the stop moves to S. */
static const struct fts_bind bind_flight[] = {
	{ A_SNAP, { 's' }, "snapshot", "snapshot: keep the segments now in snapshot-<time>-key/ beside the output; "
	  "recording goes on" },
	{ A_STOP, { 'S' }, "stop and save", "stop and save (the segments stay beside the output); while stopping: "
	  "skip draining, a third time cuts the last segment short (valid)" },
	BIND_RUNNING,
};

static const struct fts_bindings keys_flight = FTS_BINDINGS(bind_flight);

/* The bottom line when the capture could not start: nothing records, only going back works. */
static const struct fts_bind bind_failed[] = {
	{ A_QUIT, { 'q', FTS_KEY_ESC }, "back to the setup", "back to the setup" },
};

static const struct fts_bindings keys_failed = FTS_BINDINGS(bind_failed);

/* The keys of the capture as it runs: a flight recording has its own. */
static const struct fts_bindings *keys_now(const struct fts_session *s)
{
	return s->rec && s->rec->flight && !s->rec->start_err[0] ? &keys_flight : &keys;
}

/*
 * SIGUSR1 came: the one thing a handler may do is note it (a signal handler
 * reaches no session); the tick takes the snapshot (serve_requests).
 */
static volatile sig_atomic_t usr1_seen;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_seen = 1;
}

/*
 * The pid file `ftscope snapshot` finds a flight recorder by, as `record
 * --flight` writes it. SIGUSR1 is then what `record --flight` makes of it:
 * the tick serves the request files it announces, or, with none (a plain
 * `kill -USR1`), takes a snapshot with the reason "signal".
 */
static void claim_pid(struct fts_session *s)
{
	struct fts_record_state *st = s->rec;
	struct sigaction sa = { 0 };
	char why[600];

	if (fts_flight_pid_claim(&st->claim, st->outdir, why, sizeof(why))) {
		fts_session_say(s, 1, "%s; ftscope snapshot cannot reach this recording (s still takes one)", why);
		return;
	}
	usr1_seen = 0;
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, &st->old_usr1);
	st->pid_claimed = 1;
}

/* Stopping: pending requests are refused, the pid file goes, SIGUSR1 as it was. */
static void release_pid(struct fts_record_state *st)
{
	char reason[64];
	double last_s;
	pid_t asker;

	if (!st->pid_claimed)
		return;
	while (fts_flight_take_request(&st->claim, &asker, reason, sizeof(reason), &last_s))
		fts_flight_answer(&st->claim, asker, "error: the flight recorder is stopping; no snapshot taken\n");
	fts_flight_pid_release(&st->claim);
	sigaction(SIGUSR1, &st->old_usr1, NULL);
	st->pid_claimed = 0;
}

static void free_state(struct fts_session *s)
{
	struct fts_record_state *st = s->rec;

	if (!st)
		return;
	release_pid(st);
	fts_record_health_release(&st->h);
	fts_loss_free(&st->loss);
	fts_record_summary_release(&st->stop.sum);
	pthread_mutex_destroy(&st->stop.mu);
	fts_top_free(&st->top);
	free(st->hist);
	free(st);
	s->rec = NULL;
}

static void enter(struct fts_session *s)
{
	struct fts_record_state *st;
	struct fts_err err = { 0 };

	if (s->rec && (s->rec->r || s->rec->stopping))
		return; /* never drop a running capture */
	free_state(s);
	st = s->rec = calloc(1, sizeof(*st));
	if (!st) {
		fts_session_say(s, 1, "out of memory");
		return;
	}
	pthread_mutex_init(&st->stop.mu, NULL);
	st->suspends_seen = s->suspends; /* only a stop during this capture counts */
	snprintf(st->output, sizeof(st->output), "%s", s->rec_opts.output ? s->rec_opts.output : "trace.dat");
	snprintf(st->outdir, sizeof(st->outdir), "%s", st->output);
	if (strrchr(st->outdir, '/'))
		*strrchr(st->outdir, '/') = 0;
	else
		snprintf(st->outdir, sizeof(st->outdir), ".");
	fts_top_init(&st->top, s->mach->proc_root);
	st->flight = s->rec_opts.flight_segment_s > 0 || s->rec_opts.flight_segment_bytes > 0;
	s->msg[0] = 0;
	if (s->mach->rec_start(&s->rec_opts, &st->r, &err)) {
		snprintf(st->start_err, sizeof(st->start_err), "%s", err.msg[0] ? err.msg : "cannot start");
		st->r = NULL;
		return;
	}
	st->disk_ok = s->mach->disk_free(st->outdir, &st->disk_free) == 0;
	if (st->flight && s->mach->rec_snapshot == fts_record_snapshot)   /* a real recorder, not a test's */
		claim_pid(s);
	if (s->mach->rec_health(st->r, &st->h) == 0) {
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

static void draw_spark(const struct fts_session *s, struct fts_grid *g, int x, int y, int w,
		       const struct cpu_hist *c, double max, struct fts_style st)
{
	int n = c->n < w ? c->n : w;

	for (int k = 0; k < n; k++) {
		int idx = (c->head - n + k + SPARK_N) % SPARK_N;
		double f = max > 0 ? c->rate[idx] / max : 0;

		fts_grid_put(g, x + (w - n) + k, y, fts_theme_level(&s->theme, f > 0 && f < 0.13 ? 0.13 : f), st);
	}
}

/* Where the stop worker is: copied under its lock (draw changes nothing else). */
static struct fts_record_progress stop_progress(const struct fts_record_state *st)
{
	struct fts_record_progress p;
	pthread_mutex_t *mu = (pthread_mutex_t *)&st->stop.mu;

	pthread_mutex_lock(mu);
	p = st->stop.prog;
	pthread_mutex_unlock(mu);
	return p;
}

static void draw_stopping(const struct fts_session *s, struct fts_grid *g, int y)
{
	const struct fts_record_state *st = s->rec;
	struct fts_record_progress p = stop_progress(st);
	static const char *const stage[] = { "draining the ring buffers", "assembling the trace.dat",
					     "rendering kernel text" };
	int mode = atomic_load(&st->stop.mode), bw = g->w - 4;
	char a[FTS_FMT_LEN], b[FTS_FMT_LEN];
	double f = p.total ? (double)p.done / (double)p.total : 0;

	fts_draw_section(s, g, 0, y++, g->w, "Stopping");
	fts_grid_printf(g, 2, y++, g->w - 2, fts_theme_style(&s->theme, FTS_R_NORMAL), "%s: %s%s%s",
			stage[p.stage < 3 ? p.stage : 0],
			p.stage == FTS_REC_STAGE_RENDER ? fts_fmt_count((double)p.done, a, sizeof(a))
						    : fts_fmt_bytes((double)p.done, a, sizeof(a)),
			p.total ? " of " : "", p.total ? fts_fmt_bytes((double)p.total, b, sizeof(b)) : "");
	if (bw > 0) {
		fts_grid_fill(g, 2, y, bw, s->theme.utf8 ? 0x2591 : '.', fts_theme_style(&s->theme, FTS_R_DIM));
		fts_grid_fill(g, 2, y, (int)(f > 1 ? bw : f * bw), s->theme.utf8 ? 0x2588 : '#',
			      fts_theme_style(&s->theme, FTS_R_RUNNING));
	}
	y++;
	fts_grid_text(g, 2, y, g->w - 2,
		      mode == FTS_STOP_DRAIN ? "Tracing is off and restored. s again skips the rest of the drain."
		      : mode == FTS_STOP_FAST ? "Skipping the drain. s again cuts the file short (it stays valid)."
					      : "Cutting the file short here; it stays valid.",
		      fts_theme_style(&s->theme, FTS_R_DIM));
}

/* One column of the live top: @rows worst first, by wait or by CPU time. */
static void draw_top_col(const struct fts_session *s, struct fts_grid *g, int x, int y, int w, const char *title,
			 const struct fts_top_row *rows, int n, int nrows, int by_wait)
{
	struct fts_style nrm = fts_theme_style(&s->theme, FTS_R_NORMAL);
	struct fts_style hs = fts_theme_style(&s->theme, FTS_R_HEADER);

	int lw = w - 18;

	fts_grid_text(g, x, y, lw, title, hs);
	fts_grid_text(g, x + lw + 1, y++, 17, !by_wait ? "  cpu" : n && rows[0].wait_per_run_ms >= 0 ? " wait  per run" : " wait", hs);
	for (int i = 0; i < n && i < nrows; i++, y++) {
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

	for (int i = 0; i < n && k < TOP_ROWS_MAX; i++, k++) {
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
static void draw_rec_top(const struct fts_session *s, struct fts_grid *g, int y0, int maxy, int nrows)
{
	const struct fts_record_state *st = s->rec;
	const struct fts_record_top *t = &st->h.top;
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	int half = (g->w - 3) / 2 < 50 ? (g->w - 3) / 2 : 50;
	struct fts_top_row wait[TOP_ROWS_MAX], run[TOP_ROWS_MAX];
	int nw = from_recorder(t->runnable, t->nrunnable, t->window_s, 1, wait);
	int nr = from_recorder(t->cpu, t->ncpu, t->window_s, 0, run);
	char hdr[200], a[FTS_FMT_LEN];

	char skip[64] = "";

	if (t->skipped_share > 0)
		snprintf(skip, sizeof(skip), ", sampled %.0f%% of pages: times estimated",
			 100 * (1 - t->skipped_share));
	else if (t->skipped_bytes)
		snprintf(skip, sizeof(skip), ", some pages skipped");
	snprintf(hdr, sizeof(hdr), "Live top: last %.0f s of trace, %s events decoded%s (t: hide)", t->window_s,
		 fts_fmt_count((double)t->events, a, sizeof(a)), skip);
	fts_draw_section(s, g, 0, y0, g->w, hdr);
	if (!nw && !nr) {
		fts_grid_text(g, 2, y0 + 1, g->w - 2, "decoding...", dim);
		return;
	}
	draw_top_col(s, g, 1, y0 + 1, half, "Waiting Runnable", wait, nw, nrows, 1);
	draw_top_col(s, g, 2 + half, y0 + 1, half, "On CPU", run, nr, nrows, 0);
	if (t->worst_pid && y0 + nrows + 2 <= maxy)
		fts_grid_printf(g, 1, y0 + nrows + 2, g->w - 1, dim,
				"worst wakeup latency: %.2f ms (%.15s:%d); decoder CPU %.2f s so far",
				t->worst_wakeup_ms, t->worst_comm, t->worst_pid, t->cpu_cost_s);
}

/*
 * The live top: from the recorder when it decodes pages (opts.live_top),
 * else from per-thread schedstat: threads that waited Runnable most and ran
 * most over the last interval, the worst average wait before a run.
 * Rows @y0..@maxy, @nrows tasks per column.
 */
static void draw_top(const struct fts_session *s, struct fts_grid *g, int y0, int maxy, int nrows)
{
	const struct fts_record_state *st = s->rec;
	const struct fts_live_top *t = &st->top;
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	int half = (g->w - 3) / 2 < 50 ? (g->w - 3) / 2 : 50;
	char hdr[160];

	if (st->top_off) {
		fts_draw_section(s, g, 0, y0, g->w, "Live top: hidden (t shows it)");
		return;
	}
	if (st->h.top.enabled) {
		draw_rec_top(s, g, y0, maxy, nrows);
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
	draw_top_col(s, g, 1, y0 + 1, half, "Waiting Runnable", t->wait, t->nwait, nrows, 1);
	draw_top_col(s, g, 2 + half, y0 + 1, half, "On CPU", t->run, t->nrun, nrows, 0);
	if (t->worst_latency.tid && y0 + nrows + 2 <= maxy)
		fts_grid_printf(g, 1, y0 + nrows + 2, g->w - 1, dim, "worst average wait before a run: %.2f ms (%s:%d)",
				t->worst_latency.wait_per_run_ms, t->worst_latency.comm, t->worst_latency.tid);
}

/* Elapsed and remaining time, the output, the backend. */
static void draw_headline(const struct fts_session *s, struct fts_grid *g, int y)
{
	const struct fts_record_state *st = s->rec;
	const struct fts_record_health *h = &st->h;
	struct fts_style hs = fts_theme_style(&s->theme, FTS_R_HEADER);
	const char *rec = s->theme.utf8 ? "\u25cf REC" : "* REC";
	char a[FTS_FMT_LEN], b[FTS_FMT_LEN], c[FTS_FMT_LEN];
	double dur = (double)s->rec_opts.duration_s;
	int x;

	if (dur > 0)
		x = fts_grid_printf(g, 1, y, g->w - 1, hs, "%s %s / %s (%s left)", rec,
				    fts_fmt_duration(h->elapsed_s, a, sizeof(a)), fts_fmt_duration(dur, b, sizeof(b)),
				    fts_fmt_duration(fmax(0, dur - h->elapsed_s), c, sizeof(c)));
	else
		x = fts_grid_printf(g, 1, y, g->w - 1, hs, "%s %s (until stopped)", rec,
				    fts_fmt_duration(h->elapsed_s, a, sizeof(a)));
	fts_grid_style(g, 1, y, 5, 0, fts_theme_style(&s->theme, FTS_R_LOST).fg, -2);
	x += 3;
	x += fts_grid_text(g, 1 + x, y, g->w - 1 - x, st->output, fts_theme_style(&s->theme, FTS_R_NORMAL));
	if (g->w >= 100)
		fts_grid_printf(g, g->w - 16, y, 16, fts_theme_style(&s->theme, FTS_R_DIM), "  via %s",
				h->backend ? h->backend : "?");
}

/*
 * A flight recording whose ring (keep x segment: exact for a size, at the
 * current rate for a length) grows no further than the free disk: it never
 * fills the disk at this rate, so "full in" would be false. Snapshots keep
 * segments the ring deletes, but only when taken.
 */
static int ring_fits(const struct fts_session *s)
{
	const struct fts_record_state *st = s->rec;
	const struct fts_record_opts *o = &s->rec_opts;
	int keep = o->flight_keep > 0 ? o->flight_keep : 4;
	double ring;

	if (o->flight_segment_bytes)
		ring = (double)o->flight_segment_bytes * keep;
	else if (o->flight_segment_s > 0)
		ring = st->write_rate * o->flight_segment_s * keep;
	else
		return 0;
	return ring - (double)st->h.flight_disk_bytes < st->disk_free;
}

/* Events and losses; what was written and the disk's room at this rate (or the ring's). */
static void draw_totals(const struct fts_session *s, struct fts_grid *g, int y)
{
	const struct fts_record_state *st = s->rec;
	const struct fts_record_health *h = &st->h;
	struct fts_style nrm = fts_theme_style(&s->theme, FTS_R_NORMAL);
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	char a[FTS_FMT_LEN], b[FTS_FMT_LEN];
	int x;

	x = fts_grid_printf(g, 1, y, g->w - 1, nrm, "Events %s, %s in total; lost ",
			    fts_fmt_rate(h->events_per_s, a, sizeof(a)), fts_fmt_count((double)h->events, b, sizeof(b)));
	if (h->counters) {
		char lt[400];
		const char *rising = h->lost_delta ? " (rising)" : "";
		int ncpu = 3;

		/* as many worst CPUs as fit */
		do
			fts_loss_text(&st->loss, ncpu, lt, sizeof(lt));
		while (ncpu-- > 0 && fts_text_width(lt, 0) + (int)strlen(rising) > g->w - 2 - x);
		fts_grid_printf(g, 1 + x, y, g->w - 1 - x, fts_loss_any(&st->loss) ? fts_theme_style(&s->theme, FTS_R_ERROR) : nrm,
				"%s%s", lt, rising);
	} else {
		fts_grid_text(g, 1 + x, y, g->w - 1 - x, "? (trace-cmd keeps no live counters)", dim);
	}
	y++;
	x = fts_grid_printf(g, 1, y, g->w - 1, nrm, "Output %s at %s/s",
			    fts_fmt_bytes((double)h->bytes_written, a, sizeof(a)), fts_fmt_bytes(st->write_rate, b, sizeof(b)));
	if (st->disk_ok && st->write_rate > 0 && ring_fits(s))
		fts_grid_printf(g, 1 + x, y, g->w - 1 - x, dim, "; disk %s free, the ring fits in it",
				fts_fmt_bytes(st->disk_free, a, sizeof(a)));
	else if (st->disk_ok && st->write_rate > 0 && (s->rec_opts.flight_segment_s > 0 ||
							s->rec_opts.flight_segment_bytes))
		/* a flight recording keeps room free rather than fill the disk (docs/record.md) */
		fts_grid_printf(g, 1 + x, y, g->w - 1 - x, dim, "; disk %s free, the ring trimmed to fit",
				fts_fmt_bytes(st->disk_free, a, sizeof(a)));
	else if (st->disk_ok && st->write_rate > 0)
		fts_grid_printf(g, 1 + x, y, g->w - 1 - x, dim, "; disk %s free, full in %s",
				fts_fmt_bytes(st->disk_free, a, sizeof(a)),
				fts_fmt_duration(st->disk_free / st->write_rate, b, sizeof(b)));
	else if (st->disk_ok)
		fts_grid_printf(g, 1 + x, y, g->w - 1 - x, dim, "; disk %s free", fts_fmt_bytes(st->disk_free, a, sizeof(a)));
}

/*
 * A flight recording's ring: segments kept against keep, the disk they take
 * against keep x segment (for a time segment, at the current write rate),
 * and the last snapshot's name.
 */
static void draw_ring(const struct fts_session *s, struct fts_grid *g, int y)
{
	const struct fts_record_state *st = s->rec;
	const struct fts_record_health *h = &st->h;
	const struct fts_record_opts *o = &s->rec_opts;
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	int keep = o->flight_keep > 0 ? o->flight_keep : 4, x, room;
	char a[FTS_FMT_LEN], b[FTS_FMT_LEN], seg[FTS_FMT_LEN], full[128] = "";
	const char *slash, *name;

	if (o->flight_segment_bytes)
		fts_fmt_bytes((double)o->flight_segment_bytes, seg, sizeof(seg));
	else
		fts_fmt_duration(o->flight_segment_s, seg, sizeof(seg));
	x = fts_grid_printf(g, 1, y, g->w - 1, fts_theme_style(&s->theme, FTS_R_NORMAL),
			    "Ring %d of %d segments of %s, %s on disk", h->flight_segments, keep, seg,
			    fts_fmt_bytes((double)h->flight_disk_bytes, a, sizeof(a)));
	/* against keep x segment: exact for a size, at the current rate for a length */
	if (o->flight_segment_bytes)
		snprintf(full, sizeof(full), " of %s", fts_fmt_bytes((double)o->flight_segment_bytes * keep, b, sizeof(b)));
	else if (st->write_rate > 0)
		snprintf(full, sizeof(full), " of ~%s", fts_fmt_bytes(st->write_rate * o->flight_segment_s * keep, b,
								       sizeof(b)));
	room = g->w - 1 - x;
	if (full[0] && (int)strlen(full) <= room) { /* a figure is shown whole or not at all */
		x += fts_grid_text(g, 1 + x, y, room, full, dim);
		room = g->w - 1 - x;
		if ((int)strlen(" (keep x segment)") <= room)
			x += fts_grid_text(g, 1 + x, y, room, " (keep x segment)", dim);
	}
	if (!st->snap_dir[0])
		return;
	slash = strrchr(st->snap_dir, '/');
	name = slash ? slash + 1 : st->snap_dir;
	room = g->w - 1 - x;
	/* the name whole, or only in the status line (it said it when taken) */
	if (fts_text_width(name, s->theme.utf8) + 17 <= room) {
		x += fts_grid_text(g, 1 + x, y, room, "; last snapshot ", dim);
		fts_grid_text(g, 1 + x, y, g->w - 1 - x, name, dim);
	}
}

/* The table's fixed columns after the sparkline; a value never shifts the next one. */
#define COL_EVENTS 7
#define COL_WRITTEN 10   /* "1008.0 KiB" */
#define COL_LOST 9
#define COL_NEW 8
#define BAR_W 10
/* The columns without the sparkline: the first 14, then events to new. */
#define TABLE_W (1 + 14 + COL_EVENTS + 1 + COL_WRITTEN + 1 + BAR_W + 1 + 5 + COL_LOST + 1 + COL_NEW)

/* CPU @cpu's entry of the loss model, or NULL when it lost nothing known. */
static const struct fts_loss_cpu *loss_of(const struct fts_record_state *st, int cpu)
{
	return cpu >= 0 && cpu < st->loss.ncpu ? &st->loss.cpu[cpu] : NULL;
}

/* One CPU's row: rate, sparkline, events, bytes, buffer fill, events lost (the loss model) and new. */
static void draw_cpu_row(const struct fts_session *s, struct fts_grid *g, int y, int i, int spark_w, double max)
{
	const struct fts_record_state *st = s->rec;
	const struct fts_record_cpu_health *cp = &st->h.cpu[i];
	const struct fts_loss_cpu *lc = loss_of(st, cp->cpu);
	struct fts_style red = fts_theme_style(&s->theme, FTS_R_ERROR);
	int lost = lc && fts_loss_cpu_any(lc);
	struct fts_style rs = lost ? red : fts_theme_style(&s->theme, FTS_R_NORMAL);
	char a[FTS_FMT_LEN], b[FTS_FMT_LEN], lt[160];
	int fill = (int)(cp->fill * BAR_W + 0.5), x;

	x = fts_grid_printf(g, 1, y, g->w - 1, rs, "cpu%-3d %9s ", cp->cpu, fts_fmt_rate(cp->events_per_s, a, sizeof(a)));
	if (spark_w && i < st->nhist)
		draw_spark(s, g, 1 + x, y, spark_w, &st->hist[i], max, fts_theme_style(&s->theme, FTS_R_RUNNING));
	x += spark_w ? spark_w + 1 : 0;
	fts_grid_printf(g, 1 + x, y, g->w - 1 - x, rs, "%*s %*s ", COL_EVENTS, fts_fmt_count((double)cp->events, a, sizeof(a)),
			COL_WRITTEN, fts_fmt_bytes((double)cp->bytes_written, b, sizeof(b)));
	x += COL_EVENTS + 1 + COL_WRITTEN + 1;
	fts_grid_fill(g, 1 + x, y, BAR_W, s->theme.utf8 ? 0x2591 : '.', fts_theme_style(&s->theme, FTS_R_DIM));
	fts_grid_fill(g, 1 + x, y, fill > BAR_W ? BAR_W : fill, s->theme.utf8 ? 0x2588 : '#',
		      cp->fill >= 0.8 ? red : fts_theme_style(&s->theme, FTS_R_RUNNING));
	x += BAR_W + 1;
	fts_grid_printf(g, 1 + x, y, 5, rs, "%3.0f%% ", cp->fill * 100);
	x += 5;
	if (!st->h.counters)
		return;
	if (lc)
		fts_loss_cpu_text(lc, lt, sizeof(lt));
	else
		snprintf(lt, sizeof(lt), "0");
	fts_grid_printf(g, 1 + x, y, COL_LOST, rs, "%*s", COL_LOST, lt);
	x += COL_LOST + 1;
	if (cp->lost_delta)
		fts_grid_printf(g, 1 + x, y, g->w - 1 - x, red, "+%llu", (unsigned long long)cp->lost_delta);
}

/*
 * The CPUs in table order: those that lost events as fts_loss_worst orders
 * them (the order every loss report uses), then the fullest buffers. Fills
 * @idx with up to @max indices into h->cpu; returns how many.
 */
static int table_order(const struct fts_record_state *st, int *idx, int max)
{
	const struct fts_record_health *h = &st->h;
	int worst[256], nw = fts_loss_worst(&st->loss, worst, 256), n = 0;

	for (int k = 0; k < nw && n < max; k++)
		for (int i = 0; i < h->ncpus; i++)
			if (h->cpu[i].cpu == worst[k]) {
				idx[n++] = i;
				break;
			}
	for (int i = 0; i < h->ncpus; i++) {
		const struct fts_loss_cpu *lc = loss_of(st, h->cpu[i].cpu);
		int at = n;

		if (lc && fts_loss_cpu_any(lc))
			continue; /* placed above (or left out, worst first, when more lost than fit) */
		while (at > nw && h->cpu[idx[at - 1]].fill < h->cpu[i].fill) { /* fuller first, stable */
			if (at < max)
				idx[at] = idx[at - 1];
			at--;
		}
		if (at < max) {
			idx[at] = i;
			if (n < max)
				n++;
		}
	}
	return n;
}

/*
 * The line under a table that does not show every CPU: which rows of the
 * worst-first order are shown, how many CPUs out of sight lost events (never
 * "all healthy" when some did), and the keys. Whole phrases are dropped to fit
 * @w columns, so no number is ever cut.
 */
static void table_footer(const struct fts_record_state *st, const int *order, int all, int first, int shown,
			 int w, char *buf, size_t len)
{
	const struct fts_record_health *h = &st->h;
	int lossy = 0, n;
	uint64_t lost = 0;
	char tail[96];
	const char *ks;

	for (int k = 0; k < all; k++) {
		const struct fts_record_cpu_health *c = &h->cpu[order[k]];

		if ((k < first || k >= first + shown) && c->lost) {
			lossy++;
			lost += c->lost;
		}
	}
	if (lossy)
		snprintf(tail, sizeof(tail), "; %d not shown lost %llu events", lossy, (unsigned long long)lost);
	else
		snprintf(tail, sizeof(tail), "; those not shown lost nothing");
	ks = first > 0 && first + shown < all ? "PgUp/PgDn" : first > 0 ? "PgUp" : "PgDn";
	n = snprintf(buf, len, "CPUs %d-%d of %d, worst first%s (%s)", first + 1, first + shown, all, tail, ks);
	if (n > w)
		n = snprintf(buf, len, "%d-%d of %d CPUs%s", first + 1, first + shown, all, tail);
	if (n > w)
		n = snprintf(buf, len, "%d-%d of %d CPUs (%s)", first + 1, first + shown, all, ks);
	if (n > w)
		snprintf(buf, len, "%d of %d", shown, all);
}

/* How many tasks the live top shown has in its longer column, at most TOP_ROWS_MAX. */
static int top_tasks(const struct fts_record_state *st)
{
	int n = st->h.top.enabled ? (st->h.top.nrunnable > st->h.top.ncpu ? st->h.top.nrunnable : st->h.top.ncpu)
				   : (st->top.nwait > st->top.nrun ? st->top.nwait : st->top.nrun);

	return n < TOP_ROWS_MAX ? n : TOP_ROWS_MAX;
}

/* The CPU table, worst first when not all fit, and the live top below it. */
static void draw_cpus(const struct fts_session *s, struct fts_grid *g, int y, int maxy)
{
	const struct fts_record_state *st = s->rec;
	const struct fts_record_health *h = &st->h;
	struct fts_style hs = fts_theme_style(&s->theme, FTS_R_HEADER);
	int spark_w = g->w - TABLE_W - 1, rows, order[4096], n, x, top_h, top_n = TOP_ROWS, show_top, legend, first,
	    shown, all;

	if (spark_w > SPARK_N)
		spark_w = SPARK_N;
	if (spark_w < 8)
		spark_w = 0;
	fts_draw_section(s, g, 0, y++, g->w, "CPUs");
	/* the live top keeps its rows while the table still shows a few CPUs */
	top_h = st->top_off ? 1 : TOP_ROWS + 3;
	legend = h->counters ? 1 : 0;
	show_top = maxy - y - top_h - legend >= (h->ncpus + 1 < 4 ? h->ncpus + 1 : 4);
	rows = maxy - y - (show_top ? top_h : 0) - legend;
	if (rows < 1)
		rows = 1;
	n = h->ncpus < (int)(sizeof(order) / sizeof(order[0])) ? h->ncpus : (int)(sizeof(order) / sizeof(order[0]));
	/* rows the table leaves blank go to the top, up to the tasks it has */
	if (show_top && !st->top_off && n < rows) {
		int have = top_tasks(st), extra = rows - n < have - TOP_ROWS ? rows - n : have - TOP_ROWS;

		if (extra > 0) {
			top_n += extra;
			top_h += extra;
			rows -= extra;
		}
	}
	first = 0;
	if (n > rows) { /* not all fit: worst first, rows - 1 of them from the scroll position on */
		all = table_order(st, order, n);
		shown = rows - 1 > 0 ? rows - 1 : 1;
		first = st->cpu_scroll < all - shown ? st->cpu_scroll : all - shown;
		if (first < 0)
			first = 0;
		s->rec->cpu_page = shown;   /* the frame's page size, for the keys (the state is not const) */
	} else {
		for (int i = 0; i < n; i++)
			order[i] = i;
		all = shown = n;
	}
	x = fts_grid_printf(g, 1, y, g->w - 1, hs, "%-6s %9s ", "CPU", "events/s");
	if (spark_w)
		x += fts_grid_printf(g, 1 + x, y, spark_w + 1, hs, "%-*s ", spark_w, spark_w >= 10 ? "last min" : "");
	fts_grid_printf(g, 1 + x, y, g->w - 1 - x, hs, "%*s %*s %-*s %4s %*s %s", COL_EVENTS, "events", COL_WRITTEN,
			"written", BAR_W, "buffer", "fill", COL_LOST, h->counters ? "lost" : "", h->counters ? "new" : "");
	y++;
	for (int k = first; k < first + shown && k < all && y <= maxy; k++, y++)
		draw_cpu_row(s, g, y, order[k], spark_w, hist_max(st));
	if (all > shown && y <= maxy) {
		char line[256];

		table_footer(st, order, all, first, shown, g->w - 2, line, sizeof(line));
		fts_grid_text(g, 1, y++, g->w - 1, line, fts_theme_style(&s->theme, FTS_R_DIM));
	}
	if (legend && y <= maxy)
		fts_grid_text(g, 1, y++, g->w - 1, "lost: kernel count (overrun+commit+dropped), as saved; "
			      "new: since last sample", fts_theme_style(&s->theme, FTS_R_DIM));
	if (show_top)
		draw_top(s, g, maxy - top_h + 1, maxy, top_n);
}

static void draw(const struct fts_session *s, struct fts_grid *g)
{
	const struct fts_record_state *st = s->rec;
	struct fts_style red = fts_theme_style(&s->theme, FTS_R_ERROR);
	char bar[256];
	int y = fts_session_frame(s, g, "recording", st && st->stopping ? "s skip drain  (stopping...)" :
				  fts_bind_bar(st && st->start_err[0] ? &keys_failed : keys_now(s), bar, sizeof(bar)));

	if (s->rec_opts.output)
		fts_session_cmdline(s, g, s->setup_cmdline);
	if (!st)
		return;
	if (st->start_err[0]) {
		fts_grid_text(g, 1, y + 1, g->w - 1, "Could not start recording:", red);
		fts_grid_text(g, 3, y + 2, g->w - 3, st->start_err, red);
		fts_grid_text(g, 1, y + 4, g->w - 1, "Nothing was recorded. q goes back to the setup.",
			      fts_theme_style(&s->theme, FTS_R_DIM));
		return;
	}
	if (!st->have_h)
		return;
	draw_headline(s, g, y++);
	draw_totals(s, g, y);
	y += 2;
	if (st->flight)
		draw_ring(s, g, y++);
	if (st->stopping)
		draw_stopping(s, g, y + 1);
	else
		draw_cpus(s, g, y, g->h - 4);
}

/* The worker's progress callback: note where the stop is, answer the mode the keys chose. */
static enum fts_record_stop_mode on_progress(const struct fts_record_progress *p, void *arg)
{
	struct stop_job *j = arg;

	pthread_mutex_lock(&j->mu);
	j->prog = *p;
	pthread_mutex_unlock(&j->mu);
	return (enum fts_record_stop_mode)atomic_load(&j->mode);
}

static void *stop_main(void *arg)
{
	struct stop_job *j = arg;

	j->rc = j->mach->rec_stop(j->r, FTS_STOP_DRAIN, on_progress, j, &j->sum, &j->err);
	atomic_store(&j->finished, 1);
	return NULL;
}

/* Hand the recorder to the stop worker; without a thread, stop here. */
static void stop_start(struct fts_session *s)
{
	struct fts_record_state *st = s->rec;
	struct stop_job *j = &st->stop;

	st->stopping = 1;
	st->stop_presses = 0;
	release_pid(st);
	j->r = st->r;
	j->mach = s->mach;
	st->r = NULL;
	atomic_store(&j->mode, FTS_STOP_DRAIN);
	atomic_store(&j->finished, 0);
	memset(&j->sum, 0, sizeof(j->sum));
	if (fts__thread_start(&j->th, NULL, stop_main, j) == 0) {
		j->started = 1;
		return;
	}
	stop_main(j);
}

/* s again while stopping: skip the drain, then cut the file short. */
static void escalate(struct fts_record_state *st)
{
	st->stop_presses++;
	atomic_store(&st->stop.mode, st->stop_presses == 1 ? FTS_STOP_FAST : FTS_STOP_CUT);
}

/* A flight recording stopped: where its segments stay (as `record --flight` says). */
static void say_segments(struct fts_session *s, const struct fts_record_summary *sum)
{
	const struct fts_record_state *st = s->rec;
	const char *out = s->rec_opts.output ? s->rec_opts.output : "trace.dat", *base = strrchr(out, '/');
	size_t n = strlen(base ? base + 1 : out);
	const struct fts_record_health *h = &sum->health;
	char a[FTS_FMT_LEN], short_disk[40] = "";

	base = base ? base + 1 : out;
	if (n > 4 && !strcmp(base + n - 4, ".dat"))
		n -= 4;
	if (h->flight_removed_early || h->flight_segments_lost || h->flight_writes_refused)
		snprintf(short_disk, sizeof(short_disk), "; the disk was short (above)");
	fts_session_say(s, 0, "flight: %d segments kept (%s) as %.*s.NNNNNN.dat in %s; snapshots: %d%s",
			h->flight_segments, fts_fmt_bytes((double)h->flight_disk_bytes, a, sizeof(a)),
			(int)n, base, st->outdir, st->snaps + h->flight_triggered, short_disk);
}

/* The stop finished: its summary screen (saved.c) takes the figures; a failure stays here. */
static unsigned stop_done(struct fts_session *s)
{
	struct fts_record_state *st = s->rec;
	struct fts_record_summary *sum = &st->stop.sum;

	if (st->stop.started)
		pthread_join(st->stop.th, NULL);
	st->stop.started = 0;
	st->stopping = 0;
	if (st->stop.rc) {
		fts_session_say(s, 1, "saving failed: %s", st->stop.err.msg);
		fts_record_summary_release(sum);
		return FTS_RX_REDRAW;
	}
	snprintf(s->last_capture, sizeof(s->last_capture), "%s", sum->output);
	s->msg[0] = 0;
	fts_saved_take(s, sum, s->rec_opts.bf_size_kb ? s->rec_opts.bf_size_kb : 40960);
	if (sum->health.output_moved)
		fts_session_say(s, 1, "saved elsewhere than asked: %s", sum->health.output_note);
	else if (st->flight)
		say_segments(s, sum);
	if (st->flight)
		fts_saved_flight(s, st->outdir, sum->health.flight_disk_bytes, sum->duration_s);
	fts_record_summary_release(sum);
	s->next = FTS_SCR_SAVED;
	return FTS_RX_GOTO | FTS_RX_REDRAW;
}

/* The /proc top, every TOP_PERIOD_S, when the recorder does not decode its own. */
static unsigned sample_top(struct fts_record_state *st)
{
	int rc;

	if (st->top_off || st->h.top.enabled || st->top_err[0] || fts__clock_mono_s() < st->top_next)
		return 0;
	rc = fts_top_sample(&st->top, fts__clock_mono_s());
	if (rc)
		snprintf(st->top_err, sizeof(st->top_err), "not available: /proc has no schedstat (%s)", strerror(-rc));
	st->top_next = fts__clock_mono_s() + TOP_PERIOD_S;
	return FTS_RX_REDRAW;
}

/*
 * Events were lost: how many (the loss model's words, worst CPUs first) and
 * the buffer that would hold FTS_BUFFER_STALL_S of the fastest CPU's peak
 * rate (the figure `ftscope record` advises too).
 */
static void say_loss(struct fts_session *s)
{
	const struct fts_record_state *st = s->rec;
	const struct fts_record_health *h = &st->h;
	unsigned cur = s->rec_opts.bf_size_kb ? s->rec_opts.bf_size_kb : 40960;
	double rate = 0;
	int busiest = -1;
	char lt[400], r[FTS_FMT_LEN];

	for (int i = 0; i < h->ncpus && h->elapsed_s > 0; i++) {
		double b = (double)h->cpu[i].bytes_written / h->elapsed_s;

		if (b > rate) {
			rate = b;
			busiest = h->cpu[i].cpu;
		}
	}
	fts_loss_text(&st->loss, 2, lt, sizeof(lt));
	if (h->lost_stopped > st->stopped_seen) /* the recorder measured it: stopped readers, not the buffer */
		fts_session_say(s, 1, "LOST %s while ftscope was stopped%s for %.1f s: the kernel kept writing, "
				"nothing read it", lt, s->suspends != st->suspends_seen ? " by Ctrl+Z" : "",
				h->stopped_s);
	else if (busiest >= 0)
		fts_session_say(s, 1, "LOST %s: raise the buffer to >= %u KB per CPU (now %u; CPU %d writes %s/s) "
				"or record fewer CPUs/events", lt, fts_record_advice_kb(h, cur),
				cur, busiest,
				fts_fmt_bytes(rate, r, sizeof(r)));
	else
		fts_session_say(s, 1, "LOST %s: raise the buffer (now %u KB per CPU) or record fewer CPUs/events", lt, cur);
}

/* A snapshot was kept in @dir: remembered for the ring row and said ("@before" "snapshot NAME@after kept in ..."). */
static void snapped(struct fts_session *s, const char *dir, const char *before, const char *after)
{
	struct fts_record_state *st = s->rec;
	const char *slash = strrchr(dir, '/');

	snprintf(st->snap_dir, sizeof(st->snap_dir), "%s", dir);
	st->snaps++;
	fts_session_say(s, 0, "%ssnapshot %s%s kept in %s; recording goes on", before, slash ? slash + 1 : dir, after,
			st->outdir);
}

/* A flight note (a trigger's snapshot, room made on a short disk) said once, when new (@seen: the last said). */
static void say_note(struct fts_session *s, const char *note, char *seen, size_t len)
{
	if (!note[0] || !strcmp(note, seen))
		return;
	snprintf(seen, len, "%s", note);
	fts_session_say(s, 0, "%s; recording goes on", note);
}

/* A new health snapshot: history, losses, the end of a timed capture. */
static unsigned new_health(struct fts_session *s, struct fts_record_health *h)
{
	struct fts_record_state *st = s->rec;

	fts_record_health_release(&st->h);
	st->h = *h;
	st->have_h = 1;
	if (fts_record_health_loss(h, &st->loss))
		fts_loss_free(&st->loss);
	add_history(st);
	if (h->lost > st->lost_seen) {
		say_loss(s);
		st->lost_seen = h->lost;
		st->stopped_seen = h->lost_stopped;
	}
	/* the output's directory removed or renamed: said at once, the capture goes on */
	if (h->output_moved != st->moved_seen && h->output_note[0] && !h->failed)
		fts_session_say(s, 1, "%s; recording goes on", h->output_note);
	st->moved_seen = h->output_moved;
	/* a trigger's snapshot (or its failure), once: its directory makes each note new */
	say_note(s, h->flight_trigger_note, st->trig_note, sizeof(st->trig_note));
	say_note(s, h->flight_disk_note, st->disk_note, sizeof(st->disk_note));
	if (h->failed)
		fts_session_say(s, 1, "%s; stopping and saving what was recorded", h->failure);
	if (h->failed || h->done)
		stop_start(s);
	return FTS_RX_REDRAW;
}

static unsigned serve_requests(struct fts_session *s);

static unsigned tick(struct fts_session *s)
{
	struct fts_record_state *st = s->rec;
	struct fts_record_health h;
	unsigned r;

	if (st && st->stopping)
		return atomic_load(&st->stop.finished) ? stop_done(s) : FTS_RX_REDRAW;
	if (!st || !st->r)
		return 0;
	r = sample_top(st);
	if (st->pid_claimed)
		r |= serve_requests(s);
	st->disk_ok = s->mach->disk_free(st->outdir, &st->disk_free) == 0;
	if (s->mach->rec_health(st->r, &h))
		return r;
	if (st->have_h && h.sample == st->h.sample) {
		fts_record_health_release(&h);
		return r;
	}
	return r | new_health(s, &h);
}

/* s in a flight recording: keep the ring now; the capture goes on either way. */
static void snapshot(struct fts_session *s)
{
	struct fts_record_state *st = s->rec;
	struct fts_err err = { 0 };
	char dir[4096];
	int rc = s->mach->rec_snapshot ? s->mach->rec_snapshot(st->r, "key", s->rec_snap_last_s, dir, sizeof(dir),
							       &err) : -ENOSYS;

	if (rc) {
		fts_session_say(s, 1, "snapshot failed: %s; recording goes on",
				err.msg[0] ? err.msg : strerror(-rc));
		return;
	}
	snapped(s, dir, "", "");
}

/*
 * SIGUSR1 came: `ftscope snapshot` asked (a request file beside the output,
 * then the signal): one snapshot each, answered; no request: a plain `kill
 * -USR1`, one snapshot with the reason "signal", as `record --flight` does.
 * Only on the signal, so a request read before its signal arrives is never
 * taken for a plain one.
 */
static unsigned serve_requests(struct fts_session *s)
{
	struct fts_record_state *st = s->rec;
	char reason[512], dir[4096], answer[4200];
	struct fts_err err = { 0 };
	unsigned r = 0;
	double last_s;
	pid_t asker;
	int any = 0;

	if (!usr1_seen)
		return 0;
	usr1_seen = 0;
	while (st->r && fts_flight_take_request(&st->claim, &asker, reason, sizeof(reason), &last_s)) {
		any = 1;
		int rc = s->mach->rec_snapshot(st->r, reason[0] ? reason : "request", last_s, dir, sizeof(dir), &err);

		snprintf(answer, sizeof(answer), "%s%s\n", rc ? "error: " : "", rc ? err.msg : dir);
		fts_flight_answer(&st->claim, asker, answer);
		r = FTS_RX_REDRAW;
		if (rc) {
			fts_session_say(s, 1, "snapshot asked by ftscope snapshot failed: %s; recording goes on", err.msg);
			continue;
		}
		snapped(s, dir, "", " (asked by ftscope snapshot)");
	}
	if (!any && st->r) {
		if (s->mach->rec_snapshot(st->r, "signal", 0, dir, sizeof(dir), &err))
			fts_session_say(s, 1, "snapshot on SIGUSR1 failed: %s; recording goes on", err.msg);
		else
			snapped(s, dir, "", " (on SIGUSR1)");
		r = FTS_RX_REDRAW;
	}
	return r;
}

static unsigned key(struct fts_session *s, int k)
{
	struct fts_record_state *st = s->rec;
	int a = fts_bind_action(keys_now(s), k);

	if (st && st->stopping) {
		if (a == A_STOP || a == A_QUIT || a == A_SNAP)
			escalate(st);
		return FTS_RX_REDRAW;
	}
	if (!st || !st->r) {
		if (a != A_QUIT)
			return 0;
		s->next = FTS_SCR_SETUP;
		return FTS_RX_GOTO;
	}
	if (a == A_STOP || (a == A_QUIT && st->confirm_quit)) {
		st->confirm_quit = 0;
		stop_start(s);
		return FTS_RX_REDRAW;
	}
	if (a == A_SNAP) {
		st->confirm_quit = 0;
		snapshot(s);
		return FTS_RX_REDRAW;
	}
	if (a == A_CPU_DN || a == A_CPU_UP) {
		/* a page is the rows the table can show; drawing clamps it to the last page */
		int page = st->cpu_page > 0 ? st->cpu_page : 1, most = st->h.ncpus;

		st->cpu_scroll += a == A_CPU_DN ? page : -page;
		if (st->cpu_scroll > most)
			st->cpu_scroll = most;
		if (st->cpu_scroll < 0)
			st->cpu_scroll = 0;
		return FTS_RX_REDRAW;
	}
	if (a == A_TOP) {
		st->top_off = !st->top_off;
		st->top_next = 0;
		fts_top_free(&st->top);
		fts_top_init(&st->top, s->mach->proc_root);
		return FTS_RX_REDRAW;
	}
	if (a == A_QUIT) {
		st->confirm_quit = 1;
		fts_session_say(s, 0, "stop recording and save? q or %s: yes; any other key: keep recording",
				st->flight ? "S" : "s");
		return FTS_RX_REDRAW;
	}
	if (st->confirm_quit) {
		st->confirm_quit = 0;
		fts_session_say(s, 0, "still recording");
		return FTS_RX_REDRAW;
	}
	return 0;
}

int fts_record_running(const struct fts_session *s)
{
	return s->rec && s->rec->r;
}

/* The session ends (a signal, or quit): never leave a capture running; a stop under way finishes. */
static int leave(struct fts_session *s, int sig)
{
	struct fts_record_state *st = s->rec;

	(void)sig; /* a signal's stop drains: the file must be complete */
	if (!st)
		return 0;
	if (st->r)
		stop_start(s);
	if (st->stopping && !atomic_load(&st->stop.finished))
		return 1;
	if (st->stopping)
		stop_done(s);
	free_state(s);
	return 0;
}

const struct fts_screen_ops fts_screen_record = {
	.title = "recording",
	.enter = enter,
	.draw = draw,
	.key = key,
	.tick = tick,
	.tick_ms = 250,
	.keys = &keys,
	.keys_now = keys_now,
	.leave = leave,
};
