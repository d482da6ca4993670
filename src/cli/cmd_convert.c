// SPDX-License-Identifier: MIT
/* cmd_convert.c - `ftscope convert`: a trace -> ftrace_data.db or Chrome JSON. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli/commands.h"
#include "core/internal.h"
#include "app/fmt.h"
#include "app/msg.h"
#include "cli/opts.h"
#include "app/insight.h"
#include "app/inputs.h"
#include "app/process.h"
#include "app/sigcleanup.h"
#include "app/term_safe.h"
#include <ftscope/cleanup.h>
#include <ftscope/ftscope.h>

enum { O_INPUT, O_OUTPUT, O_FORMAT, O_PROFILING, O_PIDMAP, O_NO_CS_ROWS, O_WITH_SUMMARY, O_QUIET, O_HELP };

static const struct fts_opt_spec spec[] = {
	{ "input", 'i', 1, O_INPUT },
	{ "output", 'o', 1, O_OUTPUT },
	{ "format", 'f', 1, O_FORMAT },
	{ "profiling_data", 'p', 1, O_PROFILING },
	{ "pid_mapping", 'm', 1, O_PIDMAP },
	{ "no_cs_rows", 0, 0, O_NO_CS_ROWS },
	{ "with_summary", 0, 0, O_WITH_SUMMARY },
	{ "quiet", 'q', 0, O_QUIET },
	{ "help", 'h', 0, O_HELP },
	{ NULL, 0, 0, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: ftscope convert [--input FILE] [--output FILE] [--format db|json]\n"
"                       [--profiling_data DIR] [--pid_mapping FILE]\n"
"\n"
"Convert an ftrace capture (trace.dat v6/v7, tracefs text, or trace-cmd report\n"
"text; the format is read from the file's content) into MindStudio Insight's\n"
"ftrace DB or Chrome-trace JSON.\n"
"\n"
"  -i, --input FILE           trace to convert (default: trace.dat; if it is\n"
"                             missing, trace.txt; if both exist, the newer)\n"
"  -o, --output FILE          output (default: ftrace_data.db, or ftrace_data.json\n"
"                             with --format json); Insight imports a DB only\n"
"                             when named ftrace_data.db or ftrace_data<digits>.db\n"
"                             (ftrace_data2.db); never the input itself\n"
"  -f, --format db|json       output format (default: from the --output suffix,\n"
"                             else db); the suffix must match (.db / .json)\n"
"  -p, --profiling_data DIR   Ascend profiling output (*_ascend_pt, or a parent\n"
"                             holding several cards): align times with it and\n"
"                             keep only its time window (PROF_* start_info/\n"
"                             end_info, else profiler_info_<rank>.json); says\n"
"                             which format joins it in Insight\n"
"  -m, --pid_mapping FILE     pid_mapping.json from 'ftscope record --NSpid' or\n"
"                             'ftscope pidmap': show container pids\n"
"      --no_cs_rows           do not add the zero-length per-task marker that\n"
"                             makes Insight show context-switch counts (the\n"
"                             default adds it: switches show on cpu -1 rows)\n"
"      --with_summary         DB only: write Insight's Ftrace Task Summary\n"
"                             tables ourselves, with context switches per CPU\n"
"                             and no marker rows; relies on Insight's internal\n"
"                             behaviour (man ftscope-convert)\n"
"  -q, --quiet                no progress line and no summary\n"
"  -h, --help                 this text\n"
"\n"
"Multi-word flags may be spelled with '_' or '-' (--profiling-data).\n"
"Exit status: 0 written, 1 failed (no output left), 2 bad arguments.\n");
}

/*
 * Insight's import refuses paths holding control characters or any of
 * " ' % < > | & $ ; ` \ (contract section 1.5): say so now, not after the
 * user has copied the file to their workstation.
 */
static void check_insight_path(const char *output)
{
	char abs[4096];

	if (fts_insight_path_ok(output, abs, sizeof(abs)))
		return;
	fts_msg_err("convert", "note: MindStudio Insight refuses paths containing control characters or any of %s; import will fail from '%s'",
		    FTS_INSIGHT_BAD_CHARS, abs);
}

/* Without --input: the shared rule, and say which was taken when it is not obvious. */
/* No input named: trace.dat or trace.txt here; NULL (said why) when only segments are. */
static const char *default_input(void)
{
	enum fts_input_pick why;
	const char *pick = fts_default_input(&why);
	struct stat st;
	char segs[600];
	int n;

	/* a flight recorder's output directory holds segments, not trace.dat */
	if (why == FTS_PICK_DAT && stat(pick, &st) && (n = fts_input_segments(".", segs, sizeof(segs)))) {
		fts_msg_err("convert", "no trace.dat here, but %d flight-recorder segments (%s): convert them as one trace with -i . (or -i a snapshot-* directory, or -i one segment)",
			    n, segs);
		return NULL;
	}
	if (why == FTS_PICK_NEWER_DAT || why == FTS_PICK_NEWER_TXT)
		fts_msg_err("convert", "both trace.dat and trace.txt exist; converting the newer, %s (use --input to choose)",
			pick);
	else if (why == FTS_PICK_TXT_ONLY)
		fts_msg_err("convert", "trace.dat not found; converting trace.txt");
	return pick;
}

/*
 * SIGINT and SIGTERM cancel through the progress callback, so the library
 * removes its own output and returns -ECANCELED; the command then dies by
 * the signal as before. Signal handlers can only talk through statics.
 * @polled: the run is in a stage that calls on_progress again soon (not
 * while the sink finishes: a signal there takes the old way at once).
 */
static volatile sig_atomic_t stop_sig, polled;

static void on_stop_signal(int sig)
{
	struct sigaction dfl;

	if (polled && !stop_sig) {
		stop_sig = sig;
		return;
	}
	/* nobody will look at the flag (or a second signal): the old way */
	fts_remove_partial_outputs();
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(sig, &dfl, NULL);
	raise(sig);
}

/* After fts_front_cleanup_on_signals; a signal ignored at start stays ignored. */
static void cancel_on_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM };

	fts_front_catch(sigs, sizeof(sigs) / sizeof(sigs[0]), on_stop_signal, SA_NODEFER);
}

/* Cancelled by a signal: say so, then die by it (the exit status shells expect). */
static void die_by(int sig)
{
	struct sigaction dfl;

	fts_msg_err("convert", "interrupted by %s; nothing was written",
		    sig == SIGINT ? "SIGINT" : "SIGTERM");
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(sig, &dfl, NULL);
	raise(sig);
}

/*
 * The progress line. The readers report every so many lines or events, which
 * on a slow stage can be seconds apart (2.3 s on a 47 MB text): a ticker
 * thread redraws the last report every 250 ms with the time moved on, so the
 * line never stands still. Both draw under @lock.
 */
struct progress {
	int on;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct fts_progress last;  /* the last report (its unit is a static string) */
	int have;
	uint64_t last_ms;          /* when it came */
	int quit;
	pthread_t ticker;
	int ticking;
};

/* The line for report @p at @el seconds: the stage and the time, then what the stage knows. */
static void draw(const struct fts_progress *p, double el)
{
	char buf[160], t[FTS_FMT_LEN], d[FTS_FMT_LEN], tot[FTS_FMT_LEN], r[FTS_FMT_LEN], n[FTS_FMT_LEN],
	     e[FTS_FMT_LEN];

	fts_fmt_duration(el, t, sizeof(t));
	if (p->stage == FTS_STAGE_READ && p->total && p->unit && !strcmp(p->unit, "bytes")) {
		snprintf(buf, sizeof(buf), "%-6s %s of %s  %s  %s events  %s  ETA %s",
			 fts_stage_name(p->stage), fts_fmt_bytes((double)p->done, d, sizeof(d)),
			 fts_fmt_bytes((double)p->total, tot, sizeof(tot)), t,
			 fts_fmt_count((double)p->events, n, sizeof(n)),
			 fts_fmt_rate(el > 0 ? (double)p->events / el : 0, r, sizeof(r)),
			 fts_fmt_eta((double)p->done, (double)p->total, el, e, sizeof(e)));
	} else if (p->items) {
		snprintf(buf, sizeof(buf), "%-6s %s items  %s", fts_stage_name(p->stage),
			 fts_fmt_count((double)p->items, d, sizeof(d)), t);
	} else {
		snprintf(buf, sizeof(buf), "%-6s %s", fts_stage_name(p->stage), t);
	}
	fprintf(stderr, "\r  %-76s", buf);
}

static void *tick_main(void *arg)
{
	struct progress *pr = arg;

	pthread_mutex_lock(&pr->lock);
	while (!pr->quit) {
		struct timespec until;

		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += 250000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&pr->wake, &pr->lock, &until);
		if (!pr->quit && pr->have)
			draw(&pr->last, pr->last.elapsed_s +
					(double)(fts__clock_mono_ms() - pr->last_ms) / 1000);
	}
	pthread_mutex_unlock(&pr->lock);
	return NULL;
}

/* Start the ticker (best effort: without it the line moves at each report). */
static void progress_start(struct progress *pr)
{
	pthread_condattr_t ca;

	pthread_mutex_init(&pr->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&pr->wake, &ca);
	pthread_condattr_destroy(&ca);
	pr->ticking = pr->on && fts__thread_start(&pr->ticker, NULL, tick_main, pr) == 0;
}

/* Stop the ticker and clear the line. */
static void progress_end(struct progress *pr)
{
	if (pr->ticking) {
		pthread_mutex_lock(&pr->lock);
		pr->quit = 1;
		pthread_cond_signal(&pr->wake);
		pthread_mutex_unlock(&pr->lock);
		pthread_join(pr->ticker, NULL);
		pr->ticking = 0;
	}
	if (pr->on)
		fprintf(stderr, "\r%78s\r", "");
	pthread_cond_destroy(&pr->wake);
	pthread_mutex_destroy(&pr->lock);
}

/* The pipeline's report: cancel on a signal, else remember and draw it. */
static int on_progress(void *ctx, const struct fts_progress *p)
{
	struct progress *pr = ctx;

	/* first: a signal from here on either sees polled == 0 or is seen below */
	polled = p->stage < FTS_STAGE_FINISH;
	if (stop_sig)
		return 1;
	if (!pr->on)
		return 0;
	pthread_mutex_lock(&pr->lock);
	pr->last = *p;
	pr->have = 1;
	pr->last_ms = fts__clock_mono_ms();
	draw(p, p->elapsed_s);
	pthread_mutex_unlock(&pr->lock);
	return 0;
}

/* One summary line; paths and skipped text may hold any byte. */
static void line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void line(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fts_vfprintf_safe(stdout, fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* What was read: a trace's events by type, or the rows of a DB/JSON read back. */
static void print_input(const struct fts_convert_opts *o, const struct fts_pipeline_result *r)
{
	const struct fts_read_stats *rd = fts_pipeline_result_read(r);
	enum fts_pipeline_input kind = fts_pipeline_result_input(r);
	struct stat sb;

	if (kind != FTS_PIPE_TRACE) {
		line("input     %s (%s, read back, %.1f MB)", o->input,
		     kind == FTS_PIPE_DB ? "ftrace DB" : "Chrome JSON",
		     stat(o->input, &sb) ? 0.0 : (double)sb.st_size / 1e6);
		line("read      %llu rows; times and pids as stored (no time or pid map applies)",
		     (unsigned long long)fts_pipeline_result_rows(r));
		return;
	}
	line("input     %s (%s, %.1f MB)", o->input, fts_input_format_name(fts_pipeline_result_format(r)),
	       (double)rd->bytes_total / 1e6);
	printf("events    %llu:", (unsigned long long)rd->events);
	for (int t = 0; t < FTS_EV__COUNT; t++) {
		if (rd->by_type[t])
			printf(" %s %llu", fts_ev_type_name((enum fts_ev_type)t),
			       (unsigned long long)rd->by_type[t]);
	}
	putchar('\n');
	if (rd->other_events)
		line("          %llu events of other kinds ignored", (unsigned long long)rd->other_events);
	if (rd->skipped)
		line("          %llu lines not understood and skipped (first, line %llu: %s)",
		       (unsigned long long)rd->skipped, (unsigned long long)rd->first_bad_line,
		       rd->first_bad);
}

/* One card and where its clocks came from (profiler_info's end is CLOCK_MONOTONIC). */
static void print_card(const struct fts_card *c)
{
	char d[32];

	if (c->source != FTS_CARD_PROFILER_INFO) {
		line("          card %s (start_info/end_info)", c->dir);
		return;
	}
	if (c->exact && c->fit == FTS_CLOCK_FIT_SLOPE)
		line("          card %s (%s; its CLOCK_MONOTONIC end converted by the capture's start and stop clock samples, fitted: MONOTONIC - MONOTONIC_RAW = %+.3f ms, drifting %+.2f ppm; expected error about %s)",
		     c->dir, c->file, (double)c->mono_minus_raw / 1e6, c->slope_ppm,
		     fts_fmt_ns((uint64_t)c->error_ns, FTS_DUR_SPACED, 0, d, sizeof(d)));
	else if (c->exact && c->fit == FTS_CLOCK_FIT_OFFSET)
		line("          card %s (%s; its CLOCK_MONOTONIC end converted by the capture's start clock sample only, offset MONOTONIC - MONOTONIC_RAW = %+.3f ms; may be off by about %s, the drift at %d ppm since the start)",
		     c->dir, c->file, (double)c->mono_minus_raw / 1e6,
		     fts_fmt_ns((uint64_t)c->error_ns, FTS_DUR_SPACED, 0, d, sizeof(d)), FTS_CLOCK_DRIFT_PPM);
	else if (c->exact)
		line("          card %s (%s; its CLOCK_MONOTONIC end converted by the capture's clock pair: MONOTONIC - MONOTONIC_RAW = %+.3f ms)",
		     c->dir, c->file, (double)c->mono_minus_raw / 1e6);
	else
		line("          card %s (%s, no PROF_* start_info/end_info; no clock pair in the capture: its CLOCK_MONOTONIC end and offset may be off by about %s, the MONOTONIC/MONOTONIC_RAW drift at 50 ppm of the uptime; record with ftscope record for an exact conversion)",
		     c->dir, c->file, fts_fmt_ns((uint64_t)c->error_ns, FTS_DUR_SPACED, 0, d, sizeof(d)));
}

/* The profiling cards the time map used, and where they disagree. */
static void print_cards(const struct fts_timemap *tm)
{
	int64_t total = fts_timemap_stat(tm, FTS_TM_CARDS_TOTAL);
	int64_t listed = fts_timemap_stat(tm, FTS_TM_CARDS_LISTED);
	int64_t start_spread = fts_timemap_stat(tm, FTS_TM_START_SPREAD);
	int64_t end_spread = fts_timemap_stat(tm, FTS_TM_END_SPREAD);
	uint64_t lo = 0, hi = 0;

	fts_timemap_window(tm, &lo, &hi);
	line("time      aligned with %lld profiling card%s, window %.6f s", (long long)total,
	     total == 1 ? "" : "s", (double)(hi - lo) / 1e9);
	for (int i = 0; i < listed; i++)
		print_card(fts_timemap_card(tm, i));
	if (total > listed)
		line("          ... and %lld more card%s (all used for the window)",
		     (long long)(total - listed), total - listed == 1 ? "" : "s");
	if (fts_timemap_stat(tm, FTS_TM_OFFSET_SPREAD) > FTS_TIMEMAP_OFFSET_TOLERANCE_NS)
		line("warning   the cards' clock offsets differ by %.3f ms; times follow the earliest card",
		     (double)fts_timemap_stat(tm, FTS_TM_OFFSET_SPREAD) / 1e6);
	if (start_spread > FTS_TIMEMAP_WINDOW_TOLERANCE_NS || end_spread > FTS_TIMEMAP_WINDOW_TOLERANCE_NS)
		line("warning   the cards' windows differ: starts %.3f s apart, ends %.3f s apart (more than %.0f s: one run?); the window is their union",
		     (double)start_spread / 1e9, (double)end_spread / 1e9,
		     (double)FTS_TIMEMAP_WINDOW_TOLERANCE_NS / 1e9);
	if (fts_timemap_stat(tm, FTS_TM_CARDS_SKIPPED))
		line("warning   %lld start_info without an end_info beside it ignored (profiling still running or killed?)",
		     (long long)fts_timemap_stat(tm, FTS_TM_CARDS_SKIPPED));
}

static void print_time(const struct fts_pipeline_result *r)
{
	const struct fts_timemap *tm = fts_pipeline_result_time(r);
	const struct fts_model_stats *m = fts_pipeline_result_model(r);

	if (fts_pipeline_result_input(r) != FTS_PIPE_TRACE)
		return;
	switch (fts_timemap_base(tm)) {
	case FTS_TIME_PROFILING:
		print_cards(tm);
		line("          %llu events before the window, %llu after it (not shown)",
		       (unsigned long long)m->before_window, (unsigned long long)m->after_window);
		break;
	case FTS_TIME_CLOCK_PAIR:
		line("time      placed on the wall clock by the recorder's clock pair (no profiling data)");
		break;
	default:
		line("time      raw CLOCK_MONOTONIC_RAW ns (no profiling data, no recorder clock pair)");
		break;
	}
}

/* The lanes and items written, by kind (a read-back input counts them as it replays). */
static void print_written(const struct fts_pipeline_result *r)
{
	const struct fts_model_stats *m = fts_pipeline_result_model(r);
	uint64_t cpu_items = m->cpu_slices + m->switch_markers + m->irq_slices + m->softirq_slices +
			     m->lost_markers;
	uint64_t task_items = m->task_running + m->task_runnable + m->task_sleeping + m->cs_markers;

	line("written   CPU Scheduling: %u lanes, %llu items (%llu run slices, %llu sched_switch, %llu irq, %llu softirq, %llu lost-event markers)",
	       m->cpu_lanes, (unsigned long long)cpu_items, (unsigned long long)m->cpu_slices,
	       (unsigned long long)m->switch_markers, (unsigned long long)m->irq_slices,
	       (unsigned long long)m->softirq_slices, (unsigned long long)m->lost_markers);
	line("          Process Scheduling: %u lanes, %llu items (%llu Running, %llu Runnable, %llu Sleeping)",
	       m->task_lanes, (unsigned long long)task_items, (unsigned long long)m->task_running,
	       (unsigned long long)m->task_runnable, (unsigned long long)m->task_sleeping);
	if (fts_pipeline_result_input(r) == FTS_PIPE_TRACE)
		line("          %llu tasks seen on %d CPUs, %llu migrations (Runnable slices carry migrated_from)",
		     (unsigned long long)m->tasks_seen, fts_pipeline_result_read(r)->cpus,
		     (unsigned long long)m->migrations);
	else
		line("          %llu items in all", (unsigned long long)fts_pipeline_result_items(r, NULL, NULL));
}

/* Options the read-back input made moot, said rather than ignored. */
static void print_moot(const struct fts_convert_opts *o, const struct fts_pipeline_result *r)
{
	uint64_t cs_markers = fts_pipeline_result_model(r)->cs_markers;

	if (fts_pipeline_result_input(r) == FTS_PIPE_TRACE || !cs_markers || (o->cs_rows && !o->with_summary))
		return;
	line("note      %s does not remove what the input already holds: its %llu context-switch marker rows were copied (cpu -1 rows in Insight's summary)",
	     o->with_summary ? "--with_summary" : "--no_cs_rows", (unsigned long long)cs_markers);
}

/*
 * Which format joins the profiling in Insight (fts_profiling_kind): older
 * versions refuse an ftrace DB next to text-only profiling.
 */
static void print_profiling_kind(const struct fts_convert_opts *o)
{
	struct fts_profiling_kind k;
	const char *why;
	int json;

	if (!o->profiling_data || fts_profiling_kind(o->profiling_data, &k, NULL) || !k.cards)
		return;
	json = fts_profiling_format(&k, &why);
	line("profiling %s export type (%d *_ascend_pt director%s: %d text-only, %d with DB, %d unknown; from %s): %s joins it: %s",
	     k.kind == (FTS_PROF_TEXT | FTS_PROF_DB) ? "text and DB" : k.kind == FTS_PROF_DB ? "DB" :
	     k.kind == FTS_PROF_TEXT ? "text" : "unknown",
	     k.cards, k.cards == 1 ? "y" : "ies", k.text_only, k.db, k.unknown,
	     k.how[0] ? k.how : "nothing", json ? "--format json" : "--format db", why);
	if (json && o->format == FTS_OUT_DB)
		line("warning   an ftrace DB next to text-only profiling: older MindStudio Insight refuses it (\"File Conflict\"); convert with --format json if it does");
}

static void print_summary(const struct fts_convert_opts *o, const struct fts_pipeline_result *r)
{
	const struct fts_model_stats *m = fts_pipeline_result_model(r);
	const struct fts_loss_summary *loss = fts_pipeline_result_loss(r);
	uint32_t mapped, entries = fts_pipeline_result_pidmap(r, &mapped);
	char nodata[32];

	print_input(o, r);
	print_time(r);
	print_profiling_kind(o);
	if (o->pid_mapping)
		line("pids      %u of %u mapping entries map to container pids", mapped, entries);
	print_written(r);
	print_moot(o, r);
	if (m->cpu_out_of_range)
		line("warning   %llu event%s on a CPU numbered below 0 or from %d on: dropped",
		     (unsigned long long)m->cpu_out_of_range, m->cpu_out_of_range == 1 ? "" : "s",
		     FTS_MODEL_CPU_MAX);
	if (m->irq_unmatched_exit || m->irq_unmatched_entry || m->irq_too_long)
		line("irq       %llu exits without entry, %llu entries without exit, %llu longer than 1 s: dropped",
		       (unsigned long long)m->irq_unmatched_exit,
		       (unsigned long long)m->irq_unmatched_entry, (unsigned long long)m->irq_too_long);
	if (fts_pipeline_result_read(r)->overwritten)
		line("warning   the ring buffer overwrote %llu older events before this text was copied (the capture keeps only its newest part); record with ftscope record, which streams to disk",
		       (unsigned long long)fts_pipeline_result_read(r)->overwritten);
	if (loss->any) {
		line("warning   the kernel lost %s in this capture (%llu drop point%s, marked 'lost events' on the CPU lanes)",
		     loss->text, (unsigned long long)loss->drops, loss->drops == 1 ? "" : "s");
		if (loss->nodata_ns)
			line("          nothing is known for %s of CPU time after those drops: drawn as 'no data', left out of the statistics",
			     fts_fmt_ns(loss->nodata_ns, FTS_DUR_SPACED, 0, nodata, sizeof(nodata)));
		if (m->lost_wakeups)
			line("          %llu sleeper%s ran again with %s wakeup in a drop: 'no data' over the drop, then Runnable",
			     (unsigned long long)m->lost_wakeups, m->lost_wakeups == 1 ? "" : "s",
			     m->lost_wakeups == 1 ? "its" : "their");
		line("          record with a larger --bf_size or fewer CPUs/events");
	}
	line("output    %s (%s) in %.2f s", o->output, o->format == FTS_OUT_JSON ? "json" : "db",
	       fts_pipeline_result_seconds(r));
}

/*
 * The options into @o, then the checks a usage error fails (exit 2) before
 * anything is read. Returns -1 to go on, else the exit code (0 for --help).
 */
static int parse_convert_args(int argc, char **argv, struct fts_convert_opts *o, int *quiet)
{
	struct fts_err err = { 0 };
	const char *format = NULL;
	struct fts_opts op;
	int id;

	fts_opts_init(&op, "convert", argc, argv);
	while ((id = fts_opts_next(&op, spec)) != -1) {
		switch (id) {
		case O_INPUT: o->input = op.arg; break;
		case O_OUTPUT: o->output = op.arg; break;
		case O_FORMAT: format = op.arg; break;
		case O_PROFILING: o->profiling_data = op.arg; break;
		case O_PIDMAP: o->pid_mapping = op.arg; break;
		case O_NO_CS_ROWS: o->cs_rows = 0; break;
		case O_WITH_SUMMARY: o->with_summary = 1; break;
		case O_QUIET: *quiet = 1; break;
		case O_HELP: usage(stdout); return 0;
		default: return 2;
		}
	}
	switch (fts_output_choose(format, o->output, &o->format, &o->output)) {
	case FTS_OUT_BAD_FORMAT:
		fts_msg_err("convert", "--format must be db or json, not '%s'", format);
		return 2;
	case FTS_OUT_SUFFIX_MISMATCH:
		format = o->format == FTS_OUT_JSON ? "json" : "db";
		fts_msg_err("convert", "--output '%s' must end in .%s for --format %s",
			o->output, format, format);
		return 2;
	case FTS_OUT_OK:
		break;
	}
	if (o->with_summary && o->format != FTS_OUT_DB) {
		fts_msg_err("convert", "--with-summary writes tables into a DB: it cannot be used with --format json");
		return 2;
	}
	if (o->format == FTS_OUT_DB && !fts_insight_db_name_ok(o->output) && !*quiet)
		fts_msg_err("convert", "note: MindStudio Insight only recognises DBs named " FTS_INSIGHT_DB_RULE "; '%s' will not import as ftrace",
			fts_base_name(o->output));
	if (!*quiet)
		check_insight_path(o->output);
	if (!o->input && !(o->input = default_input()))
		return 2;
	if (fts_convert_check(o, &err)) {
		fts_msg_err("convert", "%s", err.msg);
		return 2;
	}
	return -1;
}

/* The conversion itself, with progress and signals, and its summary. Returns the exit code. */
static int run_convert(struct fts_convert_opts *o, int quiet, struct fts_pipeline_result *res)
{
	struct fts_err err = { 0 };
	struct progress prog = { 0 };
	char segs[600];
	int n = fts_input_segments(o->input, segs, sizeof(segs)), rc;

	if (n && !quiet)
		fts_msg_err("convert", "note: reading %d segments of %s as one trace, in time order: %s", n,
			    o->input, segs);
	fts_front_cleanup_on_signals();   /* a signal leaves no temp output behind */
	cancel_on_signals();              /* SIGINT/SIGTERM: through the progress callback */
	prog.on = !quiet && isatty(STDERR_FILENO);
	o->progress = on_progress;
	o->progress_ctx = &prog;
	progress_start(&prog);
	o->probe_helper = fts_front_probe_helper();
	fts_front_output_owner(&o->owner);
	polled = 1;
	rc = fts_convert(o, res, &err);
	polled = 0;
	progress_end(&prog);
	/* no output after a signal: die by it; a run that completed first stands */
	if (rc && stop_sig)
		die_by(stop_sig);
	if (rc) {
		fts_msg_err("convert", "%s%s", err.msg, fts_opts_output_hint(rc, err.msg, o->output));
		return 1;
	}
	if (!quiet)
		print_summary(o, res);
	return 0;
}

int fts_cmd_convert(int argc, char **argv)
{
	struct fts_convert_opts o = { .cs_rows = 1 };
	struct fts_pipeline_result *res;
	int quiet = 0, rc = parse_convert_args(argc, argv, &o, &quiet);

	if (rc >= 0)
		return rc;
	res = fts_pipeline_result_new();
	if (!res) {
		fts_msg_err("convert", "out of memory");
		return 1;
	}
	rc = run_convert(&o, quiet, res);
	fts_pipeline_result_free(res);
	return rc;
}
