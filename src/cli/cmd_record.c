// SPDX-License-Identifier: MIT
/*
 * cmd_record.c - `ftscope record`: the reference recorder's flags over the
 * recorder API, a compact live status, and stopping on --record_time,
 * Ctrl+C, SIGTERM and SIGHUP. During the stop a second Ctrl+C skips the
 * drain and a third cuts the file short (still valid). Ctrl+Z (SIGTSTP) is
 * ignored while recording: a stopped recorder stops reading while the kernel
 * keeps writing, so the buffers overflow; a SIGSTOP, which cannot be
 * ignored, is found by the recorder's sampler and its loss attributed to it.
 *
 * parse_args -> start -> status_loop -> finish_and_report.
 */
#include "cli/commands.h"
#include "app/fmt.h"
#include "app/msg.h"
#include "app/process.h"
#include "app/env.h"
#include "cli/opts.h"
#include "cli/record_loss.h"
#include "app/flight_ctl.h"
#include "app/flight_segment.h"
#include "app/term_safe.h"
#ifdef FTS_HAVE_TUI
#include "tui/tui.h"
#endif
#include <ftscope/error.h>
#include <ftscope/event.h>
#include <ftscope/record.h>
#include "core/internal.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t g_stop_signal;
static volatile sig_atomic_t g_stop_count;
static volatile sig_atomic_t g_hangup;
static volatile sig_atomic_t g_tstp;      /* Ctrl+Z arrived while recording */
static volatile sig_atomic_t g_cont;      /* continued after a stop */
static volatile sig_atomic_t g_usr1;      /* a snapshot asked (flight recording) */

static void on_usr1(int sig)
{
	(void)sig;
	g_usr1 = 1;
}

static void on_tstp(int sig)
{
	(void)sig;
	g_tstp = 1;
}

static void on_cont(int sig)
{
	(void)sig;
	g_cont = 1;
}

static void on_signal(int sig)
{
	g_stop_signal = sig;
	g_stop_count++;
	if (sig == SIGHUP)
		g_hangup = 1;
}

enum { O_CPU = 1, O_OUTPUT, O_TIME, O_BF, O_BACKEND, O_SCHED, O_IRQ, O_FUTEX, O_NSPID,
       O_PIDMAP, O_QUIET, O_TOP, O_TUI, O_HELP, O_EVENTS, O_READER_NICE, O_FLIGHT, O_SEGMENT,
       O_KEEP, O_TRIGGER, O_POST, O_TRIGGER_CAP };

static const struct fts_opt_spec record_opts[] = {
	{ "cpu", 0, 1, O_CPU },
	{ "output", 'o', 1, O_OUTPUT },
	{ "record_time", 't', 1, O_TIME },
	{ "bf_size", 0, 1, O_BF },
	{ "backend", 0, 1, O_BACKEND },
	{ "sched", 0, 1, O_SCHED },
	{ "irq", 0, 1, O_IRQ },
	{ "futex", 0, 1, O_FUTEX },
	{ "events", 0, 1, O_EVENTS },
	{ "reader_nice", 0, 1, O_READER_NICE },
	{ "NSpid", 0, 0, O_NSPID },
	{ "nspid", 0, 0, O_NSPID },
	{ "pid_mapping", 0, 1, O_PIDMAP },
	{ "quiet", 'q', 0, O_QUIET },
	{ "live_top", 0, 0, O_TOP },
	{ "tui", 0, 0, O_TUI },
	{ "flight", 0, 0, O_FLIGHT },
	{ "segment", 0, 1, O_SEGMENT },
	{ "keep", 0, 1, O_KEEP },
	{ "trigger", 0, 1, O_TRIGGER },
	{ "post_trigger", 0, 1, O_POST },
	{ "trigger_cap", 0, 1, O_TRIGGER_CAP },
	{ "help", 'h', 0, O_HELP },
	{ NULL, 0, 0, 0 },
};

/* What the command line asked for beyond the library's options. */
struct record_args {
	struct fts_record_opts o;
	long long record_time;
	int quiet;
	int tui;
	int groups;                   /* --sched/--irq/--futex given */
	int events;                   /* --events given */
	struct fts_events_choice ev;
	char exclude[1024];
	struct sigaction old_tstp;    /* SIGTSTP's disposition before recording */
	int flight;                   /* --flight */
	int time_given;               /* --record_time given */
	const char *segment;          /* --segment as given */
	char flight_dir[PATH_MAX];    /* the output's directory: pid file, requests, snapshots */
	struct fts_flight_claim claim;/* its pid file, held while recording */
	char triggers[1024];          /* the --trigger rules, ';' between them ("lost" among them) */
	int cap_given;                /* --trigger_cap */
	double post_s;                /* --post_trigger */
	int post_given;
	char txtbuf[4096];
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ftscope record [options]\n"
		"Record scheduler and interrupt events through a private tracefs instance.\n\n"
		"  --cpu LIST          CPUs to record: 0,1,4 or 0-3,8 (default: all online)\n"
		"  -o, --output FILE   trace.dat (default) or a .txt name for kernel text\n"
		"  -t, --record_time SECS  stop after SECS seconds; <= 0 records until Ctrl+C\n"
		"                      (default 30)\n"
		"  --bf_size KB        per-CPU ring buffer in KB (default 40960)\n"
		"  --backend NAME      auto (default: native, trace-cmd only when native is unavailable),\n"
		"                      tracefs (alias debugfs), trace-cmd\n"
		"  --sched 0|1         scheduler events (default 1)\n"
		"  --irq 0|1           hard and soft irq events (default 1)\n"
		"  --futex 0|1         futex syscall events, when the kernel has them (default 0)\n"
		"  --events LIST       events instead of --sched/--irq/--futex, left to right: a group\n"
		"                      (sched, irq, futex) adds its events, system:event adds one,\n"
		"                      -system:event (or -event, -group) removes; e.g.\n"
		"                      sched,irq,-sched:sched_stat_runtime\n"
		"  --reader_nice N     nice of the threads that read the ring buffers, -20..-1\n"
		"                      (default -10); lower when they wait for a CPU and lose events\n"
		"  --NSpid             also write the host pid -> container pid mapping\n"
		"  --pid_mapping FILE  where it goes (default pid_mapping.json beside the output)\n"
		"  -q, --quiet         no live status, only warnings and the summary\n"
		"  --live_top          also show the tasks waiting and running most, and the worst\n"
		"                      wakeup latency, over the last 5 s (decoded from the capture)\n"
		"  --tui               the interactive setup screen, pre-filled with these options\n"
		"  --flight            flight recorder: record until stopped into trace.dat segments\n"
		"                      <stem>.NNNNNN.dat, keeping the newest --keep; SIGUSR1 or\n"
		"                      'ftscope snapshot' keeps them in a snapshot-<time>-<reason>/\n"
		"  --segment LEN       a segment's length (30s, 2m) or size (64M, 1G) (default 30s)\n"
		"  --keep N            segments kept, older ones deleted (default 4)\n"
		"  --trigger lost      with --flight: a snapshot by itself when events are lost\n"
		"                      (at most one per keep x segment, 10 s at least)\n"
		"  --trigger RULE      ... or when RULE holds: 'runnable>5ms[:comm=GLOB|:pid=N]'\n"
		"                      (a task waits Runnable longer), 'wakeup>2ms[:...]' (a\n"
		"                      wakeup latency over it); repeatable; decoded live\n"
		"  --post_trigger S    seconds recorded after the trigger before the snapshot\n"
		"                      (default 2)\n"
		"  --trigger_cap N[,SIZE]  trigger snapshots kept on disk, the oldest removed\n"
		"                      first: at most N, and at most SIZE in all (64M, 2G)\n"
		"                      (default 10,4G)\n"
		"  --list-events [LIST...]  print the tracefs events (system/event, one a line)\n"
		"                      that --events LIST would record (a group name is a LIST;\n"
		"                      default: sched irq, what a default recording enables) and\n"
		"                      exit; nothing is recorded\n"
		"  -h, --help          this text ('man ftscope-record' for more)\n\n"
		"Stops on --record_time, Ctrl+C, SIGTERM or SIGHUP and saves a complete file;\n"
		"Ctrl+Z is ignored while recording (a stopped recorder loses events).\n"
		"While stopping, Ctrl+C again skips draining; a third cuts the file short (still valid).\n"
		"Exit status: 0 saved, 1 error, 2 bad arguments, 3 saved but cut short by a disk error,\n"
		"or saved elsewhere than asked (the output's directory was removed or renamed).\n");
}

/* One escaped line "ftscope record: ..." on stderr, through the one message path. */
#define say(...) fts_msg_err("record", __VA_ARGS__)

static int parse_bool(const char *name, const char *v, int *out)
{
	if (!strcmp(v, "0") || !strcmp(v, "1")) {
		*out = v[0] - '0';
		return 0;
	}
	say("--%s takes 0 or 1, not '%s'", name, v);
	return -1;
}

static int parse_backend(const char *v, struct record_args *a, int *debugfs)
{
	if (!strcmp(v, "auto"))
		a->o.backend = FTS_BACKEND_AUTO;
	else if (!strcmp(v, "tracefs"))
		a->o.backend = FTS_BACKEND_TRACEFS;
	else if (!strcmp(v, "debugfs")) {
		a->o.backend = FTS_BACKEND_TRACEFS;
		*debugfs = 1;
	} else if (!strcmp(v, "trace-cmd") || !strcmp(v, "trace_cmd"))
		a->o.backend = FTS_BACKEND_TRACE_CMD;
	else {
		say("--backend is auto, tracefs, debugfs or trace-cmd");
		return -1;
	}
	return 0;
}

/* Replace ".dat" by ".txt" for the text-only debugfs habit. */
static const char *rewrite_txt(const char *out, char *buf, size_t len)
{
	size_t n = strlen(out);

	if (n >= 4 && !strcmp(out + n - 4, ".dat")) {
		snprintf(buf, len, "%.*s.txt", (int)(n - 4), out);
		say("warning: the debugfs backend writes text; output renamed to %s", buf);
		return buf;
	}
	return out;
}

/* A numeric option's value, range-checked. Returns 0, or -1 after saying what is wrong. */
static int parse_number(int id, const char *arg, struct record_args *a)
{
	long long v;

	switch (id) {
	case O_TIME:
		a->time_given = 1;
		if (fts_parse_int(arg, &a->record_time) || a->record_time > 1000000000LL)
			return say("--record_time takes whole seconds, not '%s'", arg), -1;
		return 0;
	case O_BF:
		if (fts_parse_int(arg, &v) || v <= 0 || v > (1 << 22))
			return say("--bf_size takes KB per CPU (1..4194304), not '%s'", arg), -1;
		a->o.bf_size_kb = (unsigned)v;
		return 0;
	case O_READER_NICE:
		if (fts_parse_int(arg, &v) || v < -20 || v > -1)
			return say("--reader_nice takes -20..-1 (lower gives the readers more CPU), not '%s'", arg), -1;
		a->o.reader_nice = (int)v;
		return 0;
	case O_POST:
		if (fts_parse_seconds(arg, 3600, &a->post_s))
			return say("--post_trigger takes seconds (0 to 3600), not '%s'", arg), -1;
		a->post_given = 1;
		return 0;
	case O_KEEP:
		if (fts_parse_int(arg, &v) || v < 1 || v > FTS_FLIGHT_KEEP_MAX)
			return say("--keep takes a number of segments (1..100000), not '%s'", arg), -1;
		a->o.flight_keep = (int)v;
		return 0;
	}
	return 0;
}

/* --trigger_cap N[,SIZE]: "10" or "10,4G" (the size as --segment takes one). 0 or -1. */
static int parse_trigger_cap(const char *v, struct fts_record_opts *o)
{
	const char *comma = strchr(v, ',');
	char n[24];
	long long k;
	double s;
	uint64_t b = 0;

	if ((size_t)(comma ? comma - v : (ptrdiff_t)strlen(v)) >= sizeof(n))
		return -1;
	snprintf(n, sizeof(n), "%.*s", comma ? (int)(comma - v) : (int)strlen(v), v);
	if (fts_parse_int(n, &k) || k < 1 || k > FTS_FLIGHT_KEEP_MAX)
		return -1;
	if (comma && (fts_flight_parse_segment(comma + 1, &s, &b) || !b))
		return -1;
	o->flight_trigger_keep = (int)k;
	o->flight_trigger_bytes = b;
	return 0;
}

/*
 * One --trigger ("lost" or a scheduling rule), appended to the list the
 * library evaluates. Returns 0, or -1 after saying why not.
 */
static int parse_trigger(const char *arg, struct record_args *a)
{
	char why[256];
	size_t tl = strlen(a->triggers);

	if (fts_record_trigger_check(arg, why, sizeof(why)))
		return say("--trigger takes lost, runnable>5ms[:comm=GLOB|:pid=N] or wakeup>2ms[:...]: %s", why), -1;
	if (tl + strlen(arg) + 2 > sizeof(a->triggers))
		return say("too many --trigger (their text exceeds %zu bytes)", sizeof(a->triggers) - 1), -1;
	snprintf(a->triggers + tl, sizeof(a->triggers) - tl, "%s%s", tl ? ";" : "", arg);
	a->o.flight_triggers = a->triggers;
	return 0;
}

/* One option with its value into @a. Returns 0, or -1 after saying what is wrong. */
static int parse_option(int id, const char *arg, struct record_args *a, int *debugfs)
{
	char msg[512];

	switch (id) {
	case O_CPU: a->o.cpus = arg; break;
	case O_OUTPUT: a->o.output = arg; break;
	case O_TIME: case O_BF: case O_READER_NICE: case O_POST: case O_KEEP:
		return parse_number(id, arg, a);
	case O_BACKEND:
		return parse_backend(arg, a, debugfs);
	case O_EVENTS:
		if (fts_parse_events(arg, &a->ev, msg, sizeof(msg)))
			return say("--events: %s", msg), -1;
		a->events = 1;
		break;
	case O_SCHED: case O_IRQ: case O_FUTEX:
		a->groups = 1;
		return parse_bool(id == O_SCHED ? "sched" : id == O_IRQ ? "irq" : "futex", arg,
				  id == O_SCHED ? &a->o.sched : id == O_IRQ ? &a->o.irq : &a->o.futex);
	case O_NSPID: a->o.nspid = 1; break;
	case O_PIDMAP: a->o.pid_mapping = arg; break;
	case O_QUIET: a->quiet = 1; break;
	case O_TOP: a->o.live_top = 1; break;
	case O_TUI: a->tui = 1; break;
	case O_FLIGHT: a->flight = 1; break;
	case O_SEGMENT:
		a->segment = arg;
		if (fts_flight_parse_segment(arg, &a->o.flight_segment_s, &a->o.flight_segment_bytes))
			return say("--segment takes a length (30s, 2m, 1h) or a size (64M, 1G), not '%s'", arg), -1;
		break;
	case O_TRIGGER:
		return parse_trigger(arg, a);
	case O_TRIGGER_CAP:
		if (parse_trigger_cap(arg, &a->o))
			return say("--trigger_cap takes a number of snapshots (1..100000) and optionally a size "
				   "after a comma (10,4G), not '%s'", arg), -1;
		a->cap_given = 1;
		break;
	}
	return 0;
}

/* What the options say together (empty names, --events with the groups). Returns 0 or -1 (said). */
static int check_args(struct record_args *a)
{
	if (a->o.output && !*a->o.output)
		return say("--output is empty; give a file name"), -1;
	if (a->o.pid_mapping && !*a->o.pid_mapping)
		return say("--pid_mapping is empty; give a file name"), -1;
	if (a->events && a->groups)
		return say("--events replaces --sched, --irq and --futex; give one or the other"), -1;
	if (a->events && fts_events_apply(&a->ev, &a->o.sched, &a->o.irq, &a->o.futex, a->exclude,
					  sizeof(a->exclude)))
		return say("--events selects no events"), -1;
	if (a->events && a->exclude[0])
		a->o.exclude = a->exclude;
	if (!a->flight && (a->segment || a->o.flight_keep || a->triggers[0] || a->post_given || a->cap_given))
		return say("--segment, --keep, --trigger, --post_trigger and --trigger_cap belong to --flight"), -1;
	return 0;
}

/* --flight's options checked and their defaults filled. Returns 0 or -1 (said). */
static int settle_flight(struct record_args *a)
{
	if (a->tui && a->post_given)
		return say("--post_trigger is not in the setup screen (it records 2 s after a trigger); leave it out with --tui"), -1;
	if (a->tui && a->cap_given)
		return say("--trigger_cap is not in the setup screen (it keeps 10 trigger snapshots, 4 GiB); leave it "
			   "out with --tui"), -1;
	if (!a->segment)
		a->o.flight_segment_s = 30;
	if ((a->post_given || a->cap_given) && !a->triggers[0])
		return say("--post_trigger and --trigger_cap belong to --trigger"), -1;
	if (!a->post_given)
		a->post_s = 2;
	a->o.flight_post_trigger_s = a->post_s;
	/* a flight recorder runs until stopped unless a time is given */
	if (!a->time_given)
		a->record_time = 0;
	if (!fts_flight_stem_ok(a->o.output ? a->o.output : "trace.dat"))
		return say("--flight needs a name before .dat in --output (segments are NAME.NNNNNN.dat)"), -1;
	fts_flight_dir(a->o.output ? a->o.output : "trace.dat", a->flight_dir, sizeof(a->flight_dir));
	return 0;
}

/* Returns 0 to go on, or the exit status (0 after --help, 2 on bad arguments). */
static int parse_args(int argc, char **argv, struct record_args *a, int *exit_now)
{
	struct fts_opts p;
	int id, debugfs = 0;

	*exit_now = 0;
	fts_record_opts_init(&a->o);
	fts_front_env_record(&a->o);
	fts_front_output_owner(&a->o.owner);
	a->record_time = 30;
	fts_opts_init(&p, "record", argc, argv);
	while ((id = fts_opts_next(&p, record_opts)) != -1) {
		if (id == O_HELP) {
			usage(stdout);
			*exit_now = 1;
			return 0;
		}
		if (id == -2 || parse_option(id, p.arg, a, &debugfs)) {
			*exit_now = 1;
			return 2;
		}
	}
	if (check_args(a) || (a->flight && settle_flight(a))) {
		*exit_now = 1;
		return 2;
	}
	if (debugfs)
		a->o.output = a->o.output ? rewrite_txt(a->o.output, a->txtbuf, sizeof(a->txtbuf)) : "trace.txt";
	if (a->record_time > 0)
		a->o.duration_s = (double)a->record_time;
	return 0;
}

/* @old_tstp: SIGTSTP's disposition before, put back by restore_tstp. */
static void install_signals(struct sigaction *old_tstp)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_tstp;
	sigaction(SIGTSTP, &sa, old_tstp);
	sa.sa_handler = on_cont;
	sigaction(SIGCONT, &sa, NULL);
	/* A dropped SSH session turns terminal writes into EPIPE/EIO, not a kill. */
	signal(SIGPIPE, SIG_IGN);
}

/* Capture over, stopping: Ctrl+Z does what it did before (the kernel no longer writes). */
static void restore_tstp(const struct sigaction *old_tstp)
{
	sigaction(SIGTSTP, old_tstp, NULL);
}

/* An event --events named one by one that this kernel lacks; NULL when all are there. */
static const char *missing_named(const struct record_args *a, const struct fts_record_caps *caps)
{
	if (!a->events || !caps->root || !caps->tracefs_mounted)
		return NULL;   /* unknown here; fts_record_start says what it finds */
	for (int i = 0; fts_events_name(i); i++) {
		if (!(a->ev.named >> i & 1))
			continue;
		for (int k = 0; k < caps->nevents; k++)
			if (!strcmp(caps->events[k].name, fts_events_name(i)) && !caps->events[k].available)
				return fts_events_name(i);
	}
	return NULL;
}

/* Validate before starting: a bad CPU list is a usage error (2), not a failure (1). */
static int start(struct record_args *a, struct fts_recorder **r)
{
	struct fts_record_caps caps;
	struct fts_err err = { 0 };
	struct fts_record_health h;
	int rc = fts_record_probe(&a->o, &caps, &err);
	const char *missing = rc ? NULL : missing_named(a, &caps);

	fts_record_caps_release(&caps);
	if (rc) {
		say("%s", err.msg);
		return rc == -EINVAL ? 2 : 1;
	}
	if (missing) {
		say("--events: this kernel has no event %s (it is not in %s/available_events); leave it out",
		    missing, caps.tracing_dir);
		return 2;
	}
	if (a->flight) {
		char why[512];

		if (fts_flight_pid_claim(&a->claim, a->flight_dir, why, sizeof(why))) {
			say("%s", why);
			return 1;
		}
	}
	install_signals(&a->old_tstp);
	if (a->flight) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_usr1;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGUSR1, &sa, NULL);
	}
	rc = fts_record_start(&a->o, r, &err);
	if (rc) {
		if (a->flight)
			fts_flight_pid_release(&a->claim);
		say("%s%s", err.msg, fts_opts_output_hint(rc, err.msg, a->o.output));
		return 1;
	}
	fts_record_health(*r, &h);
	if (h.fallback[0])
		say("the native backend is unavailable here (%s); recording with trace-cmd", h.fallback);
	if (h.skipped_events[0])
		say("warning: this kernel lacks %s; recording without them", h.skipped_events);
	fprintf(stderr, "recording %d CPUs with %s into ", h.ncpus, h.backend);
	fts_fputs_safe(stderr, a->o.output ? a->o.output : "trace.dat");
	if (a->flight) {
		char seg[FTS_FMT_LEN];

		/* the parsed length or size: "--segment 1" is one second, said with its unit */
		if (a->o.flight_segment_bytes)
			fts_fmt_bytes((double)a->o.flight_segment_bytes, seg, sizeof(seg));
		else
			fts_fmt_duration(a->o.flight_segment_s, seg, sizeof(seg));
		fprintf(stderr, " as a flight recorder (segments of %s, keeping %d; SIGUSR1 or 'ftscope snapshot' "
			"keeps them)%s\n", seg, a->o.flight_keep ? a->o.flight_keep : 4,
			a->record_time > 0 ? "" : " until Ctrl+C");
	}
	if (a->flight && a->record_time > 0)
		fprintf(stderr, "  for %lld s\n", a->record_time);
	else if (a->flight)
		;
	else if (a->record_time > 0)
		fprintf(stderr, " for %lld s (Ctrl+C stops early)\n", a->record_time);
	else
		fprintf(stderr, " until Ctrl+C\n");
	fts_record_health_release(&h);
	return 0;
}

/* One CPU's loss in the loss model's words ("0" only when nothing was lost). */
static const char *cpu_lost(const struct fts_loss *l, const struct fts_record_health *h, int i,
			    char *buf, size_t n)
{
	int cpu = h->cpu[i].cpu;

	if (!h->counters)
		return "?";
	if (cpu < l->ncpu)
		return fts_loss_cpu_text(&l->cpu[cpu], buf, n);
	return "0";
}

static void show_cpu_lines(const struct fts_record_health *h, const struct fts_loss *l, int tty)
{
	char a[FTS_FMT_LEN], b[FTS_FMT_LEN], c[FTS_FMT_LEN], d[96];
	const char *cr = tty ? "\r" : "", *el = tty ? "\033[K" : "";

	if (h->ncpus <= 16) {
		for (int i = 0; i < h->ncpus; i++) {
			const struct fts_record_cpu_health *ch = &h->cpu[i];
			fprintf(stderr, "%s  cpu%-3d %10s %9s ev  %10s  fill %3.0f%%  lost %s%s\n", cr, ch->cpu,
				fts_fmt_rate(ch->events_per_s, a, sizeof(a)),
				fts_fmt_count((double)ch->events, b, sizeof(b)),
				fts_fmt_bytes((double)ch->bytes_written, c, sizeof(c)), ch->fill * 100,
				cpu_lost(l, h, i, d, sizeof(d)), el);
		}
		return;
	}
	/* Many CPUs: the three worst. */
	{
		int worst[3], n = fts_record_worst_cpus(h, worst, 3);

		fprintf(stderr, "%s  worst:", cr);
		for (int k = 0; k < n; k++)
			fprintf(stderr, " cpu%d fill %.0f%% lost %s;", h->cpu[worst[k]].cpu,
				h->cpu[worst[k]].fill * 100, cpu_lost(l, h, worst[k], d, sizeof(d)));
		fprintf(stderr, "%s\n", el);
	}
}

/* "comm(pid) value" with the task name escaped (it is the kernel's, attacker-controlled). */
static void show_task(const char *comm, int pid, const char *value)
{
	fputc(' ', stderr);
	fts_fputs_safe(stderr, comm);
	fprintf(stderr, "(%d) %s", pid, value);
}

/*
 * Three lines: most Runnable, most CPU, worst wakeup latency. @tty: each line
 * clears what an earlier, longer one left (the live block is redrawn in place).
 */
static void show_top(const struct fts_record_top *t, int tty)
{
	const char *el = tty ? "\033[K" : "";
	char v[FTS_FMT_LEN];

	fprintf(stderr, "%s  top runnable:", tty ? "\r" : "");
	for (int i = 0; i < t->nrunnable && i < 3; i++) {
		snprintf(v, sizeof(v), "%.2fs", t->runnable[i].runnable_s);
		show_task(t->runnable[i].comm, t->runnable[i].pid, v);
	}
	fprintf(stderr, "%s\n  top cpu:     ", el);
	for (int i = 0; i < t->ncpu && i < 3; i++) {
		snprintf(v, sizeof(v), "%.2fs", t->cpu[i].cpu_s);
		show_task(t->cpu[i].comm, t->cpu[i].pid, v);
	}
	fprintf(stderr, "%s\n  worst wakeup:", el);
	if (t->worst_pid) {
		snprintf(v, sizeof(v), "%.2f ms", t->worst_wakeup_ms);
		show_task(t->worst_comm, t->worst_pid, v);
	}
	if (t->skipped_share > 0)
		fprintf(stderr, "  (sampled %.0f%% of the pages: estimates)", 100 * (1 - t->skipped_share));
	fprintf(stderr, "%s\n", el);
}

/*
 * The status block; on a terminal every line is cleared as it is drawn and
 * the cursor goes back to the block's first line, so the next block (or a
 * warning, after clearing) replaces it.
 */
static void show_status(const struct fts_record_health *h, int tty, int flight)
{
	char a[FTS_FMT_LEN], b[FTS_FMT_LEN], c[FTS_FMT_LEN], d[256];
	struct fts_loss l;

	fts_loss_init(&l);
	(void)fts_record_health_loss(h, &l);
	/* No autowrap while drawing: a line longer than the terminal (a long task
	 * name in the top) would take two rows and the block would drift down. */
	if (tty)
		fputs("\033[?7l", stderr);
	show_cpu_lines(h, &l, tty);
	if (h->top.enabled)
		show_top(&h->top, tty);
	fprintf(stderr, "%s %6.1fs  %s  %s events  %s written  lost %s%s\n", tty ? "\r" : "",
		h->elapsed_s, fts_fmt_rate(h->events_per_s, a, sizeof(a)),
		fts_fmt_count((double)h->events, b, sizeof(b)),
		fts_fmt_bytes((double)h->bytes_written, c, sizeof(c)),
		h->counters ? fts_loss_text(&l, 0, d, sizeof(d)) : "unknown (trace-cmd)", tty ? "\033[K" : "");
	if (flight)
		fprintf(stderr, "%s  flight: %d segments kept, %s on disk%s\n", tty ? "\r" : "", h->flight_segments,
			fts_fmt_bytes((double)h->flight_disk_bytes, a, sizeof(a)), tty ? "\033[K" : "");
	if (tty && h->ncpus)
		fprintf(stderr, "\033[%dA", (h->ncpus <= 16 ? h->ncpus : 1) + 1 + (h->top.enabled ? 3 : 0) + flight);
	if (tty)
		fputs("\033[?7h", stderr);
	fts_loss_free(&l);
}

/*
 * Whether stderr's terminal is ours to draw on: not when this process is not
 * in its foreground process group (`record --flight &`), where the live
 * block would be painted over the shell and whatever runs in it.
 */
static int draws_on_tty(void)
{
	pid_t fg;

	if (!isatty(2))
		return 0;
	fg = tcgetpgrp(2);
	return fg < 0 || fg == getpgrp();
}

/* What the status loop remembers between samples. */
struct live {
	int term;                     /* stderr is a terminal and not --quiet */
	int tty;                      /* ... and we are in its foreground: the block is drawn */
	struct fts_rec_warn warn;
	int said_tstp;
	uint64_t last_sample;
	int moved;                    /* output_moved said so far */
	int flight;                   /* a flight recording: one more status line */
	char trigger_note[1024];      /* the triggers' last note said */
	char disk_note[512];          /* the short disk's last note said */
};

/*
 * A flight note (a trigger's snapshot, room made on a short disk) said once
 * when it is new (@seen: the last one said); printable ASCII, the library
 * made it so.
 */
static void say_note(const struct live *lv, const char *note, char *seen, size_t len)
{
	if (!note[0] || !strcmp(note, seen))
		return;
	if (!g_hangup) {
		if (lv->tty)
			fprintf(stderr, "\r\033[J");
		say("%s", note);
	}
	snprintf(seen, len, "%s", note);
}

/*
 * Loss since the last line, at most one line every FTS_REC_WARN_EVERY_MS (a
 * stop is said at once). On a terminal the status block is cleared first and
 * redrawn after, so a warning never lands inside it.
 */
static void show_loss(struct live *lv, const struct fts_record_health *h, int quiet)
{
	char line[1024];

	if (fts_rec_warn_line(&lv->warn, h, fts__clock_mono_ms(), line, sizeof(line)) != 1)
		return;
	if (lv->tty)
		fprintf(stderr, "\r\033[J");
	say("%s", line);
	if (lv->tty && !quiet)
		show_status(h, 1, lv->flight);
}

/* Ctrl+Z, once: why it did nothing. */
static void show_tstp(struct live *lv, const struct fts_record_health *h, int quiet)
{
	if (!g_tstp || lv->said_tstp)
		return;
	lv->said_tstp = 1;
	if (lv->tty)
		fprintf(stderr, "\r\033[J");
	say("Ctrl+Z is ignored while recording (a stopped recorder loses events); Ctrl+C stops and saves");
	if (lv->tty && !quiet)
		show_status(h, 1, lv->flight);
}

/*
 * The output's directory removed or renamed: said at once (as a full disk
 * is), and again whenever it changes; the native recorder goes on.
 */
static void show_moved(struct live *lv, const struct fts_record_health *h, int quiet)
{
	if (h->output_moved == lv->moved || !h->output_note[0])
		return;
	lv->moved = h->output_moved;
	if (lv->tty)
		fprintf(stderr, "\r\033[J");
	say("warning: %s%s", h->output_note, h->failed ? "" : "; recording goes on");
	if (lv->tty && !quiet)
		show_status(h, 1, lv->flight);
}

/*
 * SIGUSR1: one snapshot per pending `ftscope snapshot` request (each
 * answered in its done file), or one with the reason "signal" when it came
 * from elsewhere (kill -USR1). The recording goes on meanwhile.
 */
static void take_snapshots(struct fts_recorder *r, const struct record_args *a, struct live *lv)
{
	char reason[512], dir[PATH_MAX], answer[PATH_MAX + 16];
	struct fts_err err = { 0 };
	double last_s;
	pid_t asker;
	int any = 0;

	for (;;) {
		int req = fts_flight_take_request(&a->claim, &asker, reason, sizeof(reason), &last_s);
		int rc;

		if (!req && any)
			break;
		if (!req) {
			snprintf(reason, sizeof(reason), "signal");
			last_s = 0;
		}
		any = 1;
		rc = fts_record_snapshot(r, reason, last_s, dir, sizeof(dir), &err);
		if (lv->tty)
			fprintf(stderr, "\r\033[J");
		if (rc)
			say("snapshot failed: %s; recording goes on", err.msg);
		else if (!g_hangup)
			say("snapshot: %s", dir);
		if (req) {
			snprintf(answer, sizeof(answer), "%s%s\n", rc ? "error: " : "", rc ? err.msg : dir);
			fts_flight_answer(&a->claim, asker, answer);
		}
		if (!req)
			break;
	}
}

/*
 * Until a signal, the recorder's own deadline or a failure: loss as it is
 * sampled (rate-limited), the status every 0.5 s on a terminal and every
 * 5 s otherwise (logs, pipes, nohup).
 */
static void status_loop(struct fts_recorder *r, const struct record_args *a)
{
	struct live lv = { .term = isatty(2) && !a->quiet, .flight = a->flight };
	uint64_t next_status = fts__clock_mono_ms();

	lv.warn.bf_kb = a->o.bf_size_kb ? a->o.bf_size_kb : 40960;
	while (!g_stop_signal) {
		struct fts_record_health h;
		int stop;

		nanosleep(&(struct timespec){ 0, 100000000L }, NULL);
		/* sent to the background (or back): no block there, warnings as plain lines */
		lv.tty = lv.term && draws_on_tty();
		if (g_usr1) {
			g_usr1 = 0;
			take_snapshots(r, a, &lv);
		}
		if (fts_record_health(r, &h))
			continue;
		if (!g_hangup) {
			show_tstp(&lv, &h, a->quiet);
			show_moved(&lv, &h, a->quiet);
			if (h.sample != lv.last_sample)
				show_loss(&lv, &h, a->quiet);
		}
		lv.last_sample = h.sample;
		/* each trigger snapshot (or failure) once; its directory makes the note new */
		say_note(&lv, h.flight_trigger_note, lv.trigger_note, sizeof(lv.trigger_note));
		say_note(&lv, h.flight_disk_note, lv.disk_note, sizeof(lv.disk_note));
		/* Continued after a stop: the terminal may have been used meanwhile; redraw now. */
		if (g_cont) {
			g_cont = 0;
			next_status = 0;
		}
		if (!g_hangup && !a->quiet && (lv.tty || !lv.term) && fts__clock_mono_ms() >= next_status) {
			show_status(&h, lv.tty, lv.flight);
			next_status = fts__clock_mono_ms() + (lv.tty ? 500 : 5000);
		}
		stop = h.done || h.failed;
		if (h.failed && !g_hangup) {
			if (lv.tty)
				fprintf(stderr, "\033[J");
			say("%s; stopping and saving what was recorded", h.failure);
		}
		fts_record_health_release(&h);
		if (stop)
			break;
	}
	fts_rec_warn_free(&lv.warn);
	if (lv.tty && !g_hangup)
		fprintf(stderr, "\r\033[J");
}

/* Stopping: a snapshot asked now would find no segment to close; answer so at once. */
static void refuse_requests(const struct record_args *a)
{
	char reason[64];
	double last_s;
	pid_t asker;

	while (fts_flight_take_request(&a->claim, &asker, reason, sizeof(reason), &last_s))
		fts_flight_answer(&a->claim, asker, "error: the flight recorder is stopping; no snapshot taken\n");
}

/* Not a terminal: the last figures too, so a log ends with them. */
static void final_status(struct fts_recorder *r, const struct record_args *a)
{
	struct fts_record_health h;

	if (a->quiet || g_hangup || isatty(2) || fts_record_health(r, &h))
		return;
	show_status(&h, 0, a->flight);
	fts_record_health_release(&h);
}

/* Progress while stopping: each further Ctrl+C escalates; a line on a terminal. */
struct stop_view {
	int tty;
	int count_at_stop;
	enum fts_record_stop_mode said;
	long delay_ms;                /* test hook: a slow stop, to send Ctrl+C during it */
	enum fts_record_stage stage;  /* the stage @stage_ms belongs to */
	uint64_t stage_ms;            /* when it began */
	uint64_t start_ms;            /* when the stop began */
};

static enum fts_record_stop_mode on_progress(const struct fts_record_progress *p, void *arg)
{
	static const char *const stage[] = { "draining", "assembling", "rendering text" };
	struct stop_view *v = arg;
	int extra = (int)g_stop_count - v->count_at_stop;
	enum fts_record_stop_mode m = extra <= 0 ? FTS_STOP_DRAIN : extra == 1 ? FTS_STOP_FAST : FTS_STOP_CUT;

	if (v->delay_ms)
		nanosleep(&(struct timespec){ v->delay_ms / 1000, v->delay_ms % 1000 * 1000000L }, NULL);
	if (g_hangup)
		return m;
	if (m > v->said) {
		fprintf(stderr, "%sftscope record: %s\n", v->tty ? "\r\033[K" : "",
			m == FTS_STOP_FAST ? "skipping the rest of the drain (Ctrl+C again cuts the file short)"
					   : "cutting the file short here; it stays valid");
		v->said = m;
	}
	if (v->tty) {
		char a[FTS_FMT_LEN], b[FTS_FMT_LEN], t[FTS_FMT_LEN], e[FTS_FMT_LEN];
		uint64_t now = fts__clock_mono_ms();

		if (p->stage != v->stage || !v->stage_ms) {
			v->stage = p->stage;
			v->stage_ms = now;
		}
		/* the time since the stop began always moves, whatever the stage knows */
		fts_fmt_duration((double)(now - v->start_ms) / 1000, t, sizeof(t));
		if (p->stage == FTS_REC_STAGE_RENDER)
			fprintf(stderr, "\r\033[K  %s: %s events  %s", stage[p->stage],
				fts_fmt_count((double)p->done, a, sizeof(a)), t);
		else if (p->total)
			fprintf(stderr, "\r\033[K  %s: %s of %s  %s  ETA %s", stage[p->stage],
				fts_fmt_bytes((double)p->done, a, sizeof(a)),
				fts_fmt_bytes((double)p->total, b, sizeof(b)), t,
				fts_fmt_eta((double)p->done, (double)p->total, (double)(now - v->stage_ms) / 1000,
					    e, sizeof(e)));
		else
			fprintf(stderr, "\r\033[K  %s: %s  %s", stage[p->stage],
				fts_fmt_bytes((double)p->done, a, sizeof(a)), t);
	}
	return m;
}

static void show_summary(const struct fts_record_summary *s, unsigned bf)
{
	char a[FTS_FMT_LEN], b[FTS_FMT_LEN], lost[256], one[96], advice[768];
	const struct fts_record_health *h = &s->health;
	struct fts_loss l;

	fts_loss_init(&l);
	(void)fts_record_health_loss(h, &l);
	fprintf(stderr, "recorded %.1f s, %s events, lost %s, ", s->duration_s,
		fts_fmt_count((double)h->events, a, sizeof(a)),
		h->counters ? fts_loss_text(&l, 0, lost, sizeof(lost)) : "unknown");
	fts_fputs_safe(stderr, s->output);
	fprintf(stderr, " (%s)\n", fts_fmt_bytes((double)s->file_size, b, sizeof(b)));
	/* The same counters the trace.dat stores (CPUSTAT), taken after tracing stopped. */
	for (int i = 0; h->cpu && i < h->ncpus; i++)
		fprintf(stderr, "  cpu%-3d %10llu events  lost %-10s %s streamed\n", h->cpu[i].cpu,
			(unsigned long long)h->cpu[i].events, cpu_lost(&l, h, i, one, sizeof(one)),
			fts_fmt_bytes((double)h->cpu[i].bytes_written, a, sizeof(a)));
	if (!h->counters)
		fprintf(stderr, "  (trace-cmd keeps no live counters: loss is not known here; "
			"trace-cmd report --stat shows it)\n");
	if (h->reader_wait_total_ms >= 1)
		fprintf(stderr, "  the readers waited for a CPU up to %.2f s in one 0.5 s period, %.1f s in all "
			"(nice %d)\n", h->reader_wait_worst_ms / 1000, h->reader_wait_total_ms / 1000,
			h->reader_nice);
	if (fts_loss_any(&l))
		fprintf(stderr, "warning: lost %s; %s\n", fts_loss_text(&l, 3, lost, sizeof(lost)),
			fts_rec_advice(h, bf, h->reader_wait_worst_ms, advice, sizeof(advice)));
	fts_loss_free(&l);
	if (s->pid_mapping[0]) {
		fprintf(stderr, "pid mapping: ");
		fts_fputs_safe(stderr, s->pid_mapping);
		fputc('\n', stderr);
	}
	if (h->top.enabled)
		show_top(&h->top, 0);
	if (h->top.enabled)
		fprintf(stderr, "live top: decoded %llu events with %.3f s of CPU (%.2f%% of one core)%s\n",
			(unsigned long long)h->top.events, h->top.cpu_cost_s,
			s->duration_s > 0 ? 100 * h->top.cpu_cost_s / s->duration_s : 0,
			h->top.skipped_bytes ? "; it skipped pages to stay within budget" : "");
	if (h->top.enabled && h->top.skipped_share > 0)
		fprintf(stderr, "  (it decoded %.0f%% of the last window's pages: its times are estimates, scaled up "
			"from those)\n", 100 * (1 - h->top.skipped_share));
	if (s->cut)
		say("the file was cut short on request; it holds what was copied until then");
}

static int finish_and_report(struct fts_recorder *r, struct record_args *a)
{
	struct stop_view v = { draws_on_tty() && !a->quiet, (int)g_stop_count, FTS_STOP_DRAIN, 0,
			       FTS_REC_STAGE_DRAIN, 0, fts__clock_mono_ms() };
	struct fts_record_summary sum;
	struct fts_err err = { 0 };
	unsigned bf = a->o.bf_size_kb ? a->o.bf_size_kb : 40960;
	const char *d = getenv("FTSCOPE_TEST_STOP_DELAY_MS");
	char d2[FTS_FMT_LEN];
	int rc;

	/* Test hook (docs/record.md): every progress step sleeps, so a test can signal mid-stop. */
	if (d && atol(d) > 0 && atol(d) < 10000)
		v.delay_ms = atol(d);

	if (g_stop_signal && !g_hangup)
		say("%s, stopping (Ctrl+C again to skip draining)",
		    g_stop_signal == SIGINT ? "interrupted" : "terminated");
	/* A second Ctrl+C before the stop began already means "skip the drain". */
	if (g_stop_count >= 2)
		v.count_at_stop = 1;
	rc = fts_record_stop_progress(r, FTS_STOP_DRAIN, on_progress, &v, &sum, &err);
	if (v.tty && !g_hangup)
		fprintf(stderr, "\r\033[K");
	if (!g_hangup) {
		if (rc) {
			say("%s%s", err.msg, fts_opts_output_hint(rc, err.msg, a->o.output));
		} else {
			show_summary(&sum, bf);
			if (sum.truncated)
				say("the capture was cut short (%s); the file holds what was recorded until then",
				    sum.failure);
			if (sum.health.output_moved)
				say("saved elsewhere than asked: %s", sum.health.output_note);
		}
	}
	fts_record_summary_release(&sum);
	if (a->flight) {
		if (!g_hangup && !rc)
			fprintf(stderr, "flight: %d segments kept (%s) beside the output\n",
				sum.health.flight_segments,
				fts_fmt_bytes((double)sum.health.flight_disk_bytes, d2, sizeof(d2)));
		if (!g_hangup && !rc && a->triggers[0])
			fprintf(stderr, "flight: the triggers took %d snapshots (%llu waits over a "
				"threshold, the rest within a ring of the one before)\n", sum.health.flight_triggered,
				(unsigned long long)sum.health.flight_trigger_hits);
		if (!g_hangup && (sum.health.flight_removed_early || sum.health.flight_segments_lost ||
				  sum.health.flight_writes_refused))
			fprintf(stderr, "flight: the disk was short: %u segments or trigger snapshots removed early, "
				"%u segments and %llu pages not written (their events are lost)\n",
				sum.health.flight_removed_early, sum.health.flight_segments_lost,
				(unsigned long long)sum.health.flight_writes_refused);
		fts_flight_pid_release(&a->claim);
	}
	return rc ? 1 : (sum.truncated || sum.health.output_moved ? 3 : 0);
}

/*
 * The event table's "system/event" names chosen by @specs, each an --events
 * list (a group name is one): their union, in table order; none: sched, irq.
 */
static int list_events(int nspecs, char **specs)
{
	struct fts_events_choice all = { 0, 0 };
	char msg[512];

	for (int i = 0; i < nspecs; i++) {
		struct fts_events_choice c;

		if (fts_parse_events(specs[i], &c, msg, sizeof(msg))) {
			say("--list-events: %s", msg);
			return 2;
		}
		all.chosen |= c.chosen;
	}
	if (!nspecs && fts_parse_events("sched,irq", &all, msg, sizeof(msg)))
		return 1;
	for (int i = 0; fts_events_name(i); i++)
		if (all.chosen >> i & 1)
			printf("%s\n", fts_events_name(i));
	return fflush(stdout) ? 1 : 0;
}

int fts_cmd_record(int argc, char **argv)
{
	struct record_args a;
	struct fts_recorder *r = NULL;
	int exit_now, rc;

	if (argc >= 2 && (!strcmp(argv[1], "--list-events") || !strcmp(argv[1], "--list_events")))
		return list_events(argc - 2, argv + 2);
	memset(&a, 0, sizeof(a));
	rc = parse_args(argc, argv, &a, &exit_now);
	if (exit_now)
		return rc;
	if (a.tui) {
#ifdef FTS_HAVE_TUI
		/* an explicit --record_time 0 means until stopped, as on the command line */
		a.o.duration_s = a.record_time > 0 ? (double)a.record_time : 0;
		return fts_tui_record_setup(&a.o);
#else
		say("--tui needs the TUI, which this build left out (built without ncursesw)");
		return 2;
#endif
	}
	if ((rc = start(&a, &r)))
		return rc;
	/* The status and the stop must not starve behind a loaded machine. Best effort. */
	(void)setpriority(PRIO_PROCESS, 0, -10);
	status_loop(r, &a);
	if (a.flight)
		refuse_requests(&a);
	restore_tstp(&a.old_tstp);
	final_status(r, &a);
	return finish_and_report(r, &a);
}
