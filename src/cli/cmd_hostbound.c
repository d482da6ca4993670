// SPDX-License-Identifier: MIT
/*
 * cmd_hostbound.c - `ftscope hostbound CAPTURE -p PROFILING_DIR`: why was the
 * NPU idle. Reads every card's trace_view.json or profiler DB (npu.h), runs
 * the capture once through the pipeline into one Host Bound sink per card
 * (hostbound.h), and prints per card the totals, who preempted the dispatch
 * threads, the worst gaps, the idle time per step and the advice.
 * The whole report is made in memory first, so a failure leaves no partial
 * output (on stdout or in --output).
 */
#include "cli/commands.h"
#include "cli/hostbound_cards.h"
#include "cli/opts.h"
#include "app/fmt.h"
#include "app/msg.h"
#include "app/process.h"
#include "app/term_safe.h"
#include <ftscope/hostbound.h>
#include <ftscope/npu.h>
#include <ftscope/pipeline.h>
#include <ftscope/timemap.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { O_PROFILING, O_PIDMAP, O_THRESHOLD, O_FORMAT, O_OUTPUT, O_TOP, O_STEPS, O_HELP };

static const struct fts_opt_spec spec[] = {
	{ "profiling_data", 'p', 1, O_PROFILING },
	{ "pid_mapping", 'm', 1, O_PIDMAP },
	{ "threshold", 't', 1, O_THRESHOLD },
	{ "format", 'f', 1, O_FORMAT },
	{ "output", 'o', 1, O_OUTPUT },
	{ "top", 'n', 1, O_TOP },
	{ "steps", 's', 0, O_STEPS },
	{ "help", 'h', 0, O_HELP },
	{ NULL, 0, 0, 0 },
};

struct hb_args {
	const char *input, *profiling, *pidmap, *format, *output;
	long long threshold_us, top;
	int top_set;             /* -n given: else 10 for text, every gap for CSV/JSON */
	int steps;               /* CSV: the per-step table instead of the gaps */
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: ftscope hostbound CAPTURE -p PROFILING_DIR [-m PID_MAPPING] [-t US]\n"
"                         [-f text|csv|json] [-o FILE] [-n N] [-s]\n"
"\n"
"Why was the NPU idle: every device idle interval of each card (the Ascend\n"
"profiler's \"Free\" intervals, or where no stream is busy) blamed on what the\n"
"host threads that launch its work did meanwhile, from the capture's\n"
"scheduler events: running, preempted or waiting for a CPU (behind the tasks\n"
"that held it), sleeping, blocked (D), hit by irq/softirq, or unknown (no\n"
"trace coverage). Where the dispatch thread slept until the main thread woke\n"
"it (no work queued), the main thread's state counts instead. Then the idle\n"
"time per training step, and advice with the capture's numbers.\n"
"\n"
"  -p, --profiling_data DIR   the profiling directory: a rank's *_ascend_pt, or\n"
"                             the directory holding the ranks (one report per\n"
"                             card); its ASCEND_PROFILER_OUTPUT/trace_view.json\n"
"                             or ascend_pytorch_profiler_<rank>.db (the DB\n"
"                             export type), and start_info/end_info (to align\n"
"                             the clocks)\n"
"  -m, --pid_mapping FILE     pid_mapping.json (the profiler sees container pids)\n"
"  -t, --threshold US         gaps shorter than US microseconds are left out\n"
"                             (default 50)\n"
"  -f, --format text|csv|json (default text)\n"
"  -o, --output FILE          write there (whole, or not at all) instead of stdout\n"
"  -n, --top N                the N worst gaps (default: 10 in text, all in\n"
"                             CSV/JSON; 0: all)\n"
"  -s, --steps                CSV: one row per training step instead of per gap\n"
"  -h, --help                 this text ('man ftscope-hostbound' for more)\n"
"\n"
"Dispatch thread of a gap: the host thread of the launch that ended it (its\n"
"HostToDevice flow, else its async_npu flow); without one, the profiler's\n"
"Python threads share it evenly.\n"
"\nExit status: 0 printed, 1 failed (one line on stderr, no output), 2 bad arguments.\n");
}

/* Returns 0, -1 (help printed: exit 0) or 2. */
static int parse_args(int argc, char **argv, struct hb_args *a)
{
	struct fts_opts op;
	int id, rc = fts_opts_take_input(&argc, &argv, &a->input, spec, usage,
					 "ftscope hostbound: which capture? usage: ftscope hostbound CAPTURE -p PROFILING_DIR (--help)");

	if (rc)
		return rc;
	a->format = "text";
	a->threshold_us = 50;
	a->top = 10;
	fts_opts_init(&op, "hostbound", argc, argv);
	while ((id = fts_opts_next(&op, spec)) != -1) {
		switch (id) {
		case O_PROFILING: a->profiling = op.arg; break;
		case O_PIDMAP: a->pidmap = op.arg; break;
		case O_FORMAT: a->format = op.arg; break;
		case O_OUTPUT: a->output = op.arg; break;
		case O_THRESHOLD:
			if (fts_parse_int(op.arg, &a->threshold_us) || a->threshold_us < 1 ||
			    a->threshold_us > 3600000000LL) {
				fprintf(stderr, "ftscope hostbound: --threshold wants whole microseconds, 1 or more\n");
				return 2;
			}
			break;
		case O_TOP:
			if (fts_parse_int(op.arg, &a->top) || a->top < 0) {
				fprintf(stderr, "ftscope hostbound: --top wants a count >= 0\n");
				return 2;
			}
			a->top_set = 1;
			break;
		case O_STEPS: a->steps = 1; break;
		case O_HELP: usage(stdout); return -1;
		default: return 2;
		}
	}
	if (strcmp(a->format, "text") && strcmp(a->format, "csv") && strcmp(a->format, "json")) {
		fprintf(stderr, "ftscope hostbound: --format must be text, csv or json\n");
		return 2;
	}
	if (a->steps && strcmp(a->format, "csv")) {
		fprintf(stderr, "ftscope hostbound: --steps is for -f csv (text and JSON always hold the steps)\n");
		return 2;
	}
	if (!a->profiling) {
		fprintf(stderr, "ftscope hostbound: --profiling_data DIR is needed (the card's *_ascend_pt directory)\n");
		return 2;
	}
	if (!a->top_set && strcmp(a->format, "text"))
		a->top = 0;
	return 0;
}

static int fail(const char *what, const struct fts_err *err)
{
	fts_msg_err("hostbound", "%s%s", what ? what : "", err ? err->msg : "");
	return 1;
}

static const char *ms(double ns, char *buf, size_t len)
{
	return fts_fmt_ns((uint64_t)(ns + 0.5), FTS_DUR_SPACED, 0, buf, len);
}

static double pct(double part, uint64_t whole)
{
	return whole ? 100.0 * part / (double)whole : 0;
}

/* The culprits of the totals line: the three tasks that held the CPUs waited for most. */
static void text_blame(FILE *f, const struct fts_hostbound *hb)
{
	size_t nb;
	const struct fts_hb_blame *b = fts_hostbound_blame(hb, &nb);
	char t[32];

	for (size_t i = 0; i < nb && i < 3; i++) {
		fputs(i ? "; " : "   behind ", f);
		fts_fputs_safe(f, fts_hostbound_str(hb, b[i].task));
		if (b[i].ours)
			fputs(" (ftscope's own)", f);
		if (b[i].cpu >= 0)
			fprintf(f, " on CPU %d", b[i].cpu);
		fprintf(f, " %s", ms(b[i].ns, t, sizeof(t)));
	}
	if (nb > 3)
		fprintf(f, "; %zu more", nb - 3);
}

/* @tot's categories, largest first, into @order. */
static void by_size(const double *tot, int order[FTS_HB__COUNT])
{
	for (int c = 0; c < FTS_HB__COUNT; c++)
		order[c] = c;
	for (int i = 1; i < FTS_HB__COUNT; i++) {
		for (int j = i; j > 0 && tot[order[j]] > tot[order[j - 1]]; j--) {
			int x = order[j];

			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	}
}

/* The idle time by cause, then the dispatch threads' own state in one line. */
static void text_totals(FILE *f, const struct fts_hostbound *hb, size_t n, const struct hb_args *a)
{
	double tot[FTS_HB__COUNT], queued, out;
	uint64_t idle = fts_hostbound_cause_totals(hb, tot, &queued, &out);
	char b1[32];
	int order[FTS_HB__COUNT];

	fprintf(f, "\nof %s NPU idle over %zu gaps >= %lld us, the causes (the wake-up chain followed):\n",
		ms((double)idle, b1, sizeof(b1)), n, a->threshold_us);
	by_size(tot, order);
	for (int i = 0; i < FTS_HB__COUNT; i++) {
		int c = order[i];

		if (tot[c] <= 0)
			continue;
		fprintf(f, "  %-10s %12s %5.1f%%", fts_hostbound_cat_name((enum fts_hb_cat)c),
			ms(tot[c], b1, sizeof(b1)), pct(tot[c], idle));
		if (c == FTS_HB_PREEMPTED || (c == FTS_HB_WAITING && tot[FTS_HB_PREEMPTED] <= 0))
			text_blame(f, hb);
		fputc('\n', f);
	}
	if (queued > 0)
		fprintf(f, "  (%s, %.1f%%: the dispatch threads slept on an empty queue; counted as what the thread that\n"
			"   queued the work was doing)\n", ms(queued, b1, sizeof(b1)), pct(queued, idle));
	if (out > 0)
		fprintf(f, "  warning: %s (%.1f%%) of the idle time lies outside the capture (before it started or after\n"
			"   it ended): unknown; record over the whole profiled time\n", ms(out, b1, sizeof(b1)), pct(out, idle));
	idle = fts_hostbound_totals(hb, tot);
	by_size(tot, order);
	fputs("  the dispatch threads' own state:", f);
	for (int i = 0, k = 0; i < FTS_HB__COUNT; i++) {
		if (tot[order[i]] > 0)
			fprintf(f, "%s %s %.1f%%", k++ ? "," : "", fts_hostbound_cat_name((enum fts_hb_cat)order[i]),
				pct(tot[order[i]], idle));
	}
	fputc('\n', f);
}

/* The idle time per training step; the slowest marked. */
static void text_steps(FILE *f, const struct fts_hostbound *hb)
{
	size_t n;
	const struct fts_hb_step *st = fts_hostbound_steps(hb, &n);
	char b1[32], b2[32], b3[32];

	if (!n)
		return;
	fprintf(f, "\nper step (* the slowest):\n  %-10s %10s %10s %6s  %-10s %s\n", "step", "time", "NPU idle",
		"gaps", "cause", "top culprit");
	for (size_t i = 0; i < n; i++) {
		if (st[i].number != FTS_HB_NONE)
			fprintf(f, "%c %-10u %10s", st[i].slowest ? '*' : ' ', st[i].number,
				ms((double)st[i].dur, b1, sizeof(b1)));
		else
			fprintf(f, "  %-10s %10s", "(outside)", "");
		fprintf(f, " %10s %6u  %-10s ", ms(st[i].idle_ns, b2, sizeof(b2)), st[i].gaps,
			st[i].idle_ns > 0 ? fts_hostbound_cat_name(st[i].cause) : "-");
		if (st[i].culprit != FTS_HB_NONE) {
			fts_fputs_safe(f, fts_hostbound_str(hb, st[i].culprit));
			if (st[i].culprit_cpu >= 0)
				fprintf(f, " on CPU %d", st[i].culprit_cpu);
			fprintf(f, " %s", ms(st[i].culprit_ns, b3, sizeof(b3)));
		} else {
			fputc('-', f);
		}
		fputc('\n', f);
	}
}

/* What to do about the dominant causes, with a command each where there is one. */
static void text_advice(FILE *f, const struct fts_hostbound *hb)
{
	size_t n;
	const struct fts_hb_advice *ad = fts_hostbound_advice(hb, &n);

	if (!n)
		return;
	fputs("\nadvice:\n", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "  [%s] ", fts_hostbound_cat_name(ad[i].cause));
		fts_fputs_safe(f, fts_hostbound_str(hb, ad[i].text));
		fputc('\n', f);
		if (ad[i].command != FTS_HB_NONE) {
			fputs("      ", f);
			fts_fputs_safe(f, fts_hostbound_str(hb, ad[i].command));
			fputc('\n', f);
		}
	}
}

/* "  dispatch thread npu_dispatch:12, main thread python:10": the roles, named as last traced. */
static void text_threads(FILE *f, const struct fts_hostbound *hb)
{
	size_t n, k = 0;
	const struct fts_hb_thread *t = fts_hostbound_threads(hb, &n);

	for (size_t i = 0; i < n && k < 4; i++) {
		if (t[i].role == FTS_HB_ROLE_OTHER)
			continue;
		fprintf(f, "%s%s thread ", k++ ? ", " : "  ", fts_hostbound_role_name(t[i].role));
		fts_fputs_safe(f, fts_hostbound_str(hb, t[i].name));
	}
	if (k)
		fputc('\n', f);
}

static void text_report(FILE *f, const struct fts_hostbound *hb, const struct fts_npu_trace *npu,
			const char *tv, const struct hb_args *a, const struct fts_pipeline_result *res)
{
	size_t n;
	const struct fts_hb_gap *g = fts_hostbound_gaps(hb, &n);
	uint64_t t0 = UINT64_MAX;
	const struct fts_timemap *tm = fts_pipeline_result_time(res);
	int64_t from_info = fts_timemap_stat(tm, FTS_TM_CARDS_PROFILER_INFO);
	char b1[32];

	fputs("card: ", f);
	fts_fputs_safe(f, tv);
	fprintf(f, "\n  %u stream(s), %zu device tasks, %zu launch flows, %zu Python threads; "
		"gaps from %s\n", npu->nstreams, npu->nbusy, npu->nflows, npu->nthreads,
		fts_hostbound_gaps_from_free(hb) ? "the profiler's Free lane" : "the streams (no Free lane)");
	text_threads(f, hb);
	fprintf(f, "  time alignment: %s\n",
		fts_timemap_base(tm) != FTS_TIME_PROFILING ?
		"the capture's clock pair (realtime): may be off by the clocks' drift" :
		!from_info ? "the profiling's start_info/end_info" :
		from_info < fts_timemap_stat(tm, FTS_TM_CARDS_TOTAL) ?
		"the profiling's start_info/end_info, and profiler_info_<rank>.json where no PROF_* pair is" :
		"the profiling's profiler_info_<rank>.json (no PROF_* start_info/end_info; see convert's summary for the clock error)");
	if (!n) {
		fprintf(f, "\nno NPU idle interval of %lld us or more\n", a->threshold_us);
		return;
	}
	text_totals(f, hb, n, a);
	for (size_t i = 0; i < n; i++)
		t0 = g[i].ts < t0 ? g[i].ts : t0;
	fprintf(f, "\nworst gaps (%zu of %zu; start from the first gap):\n", a->top && (size_t)a->top < n ? (size_t)a->top : n, n);
	fprintf(f, "  %-14s %10s  %s\n", "start", "idle", "why");
	for (size_t i = 0; i < n && (!a->top || i < (size_t)a->top); i++) {
		fprintf(f, "  +%-13.6f %10s  ", (double)(g[i].ts - t0) / 1e9, ms((double)g[i].dur, b1, sizeof(b1)));
		fts_fputs_safe(f, fts_hostbound_str(hb, g[i].line));
		fputc('\n', f);
	}
	text_steps(f, hb);
	text_advice(f, hb);
}

/* @len bytes into @path through a temporary file beside it, renamed over it when whole. */
static int write_file(const char *path, const char *data, size_t len)
{
	struct fts_owner owner;
	struct stat sb;
	char *tmp = NULL;
	int fd, rc = 0;

	if (!lstat(path, &sb) && !S_ISREG(sb.st_mode)) {
		fputs("ftscope hostbound: ", stderr);
		fts_fputs_safe(stderr, path);
		fputs(": not a regular file (a symlink or a directory); choose another --output\n", stderr);
		return 1;
	}
	if (asprintf(&tmp, "%s.tmpXXXXXX", path) < 0)
		return fail("out of memory", NULL);
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = -errno;
	} else {
		fts_front_output_owner(&owner);
		for (size_t off = 0; off < len && !rc;) {
			ssize_t w = write(fd, data + off, len - off);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				rc = w < 0 ? -errno : -EIO;
			else
				off += (size_t)w;
		}
		if (!rc && owner.set && fchown(fd, owner.uid, owner.gid))
			rc = -errno;
		if (!rc && fchmod(fd, 0644))
			rc = -errno;
		if (!rc && fsync(fd))
			rc = -errno;
		if (close(fd) && !rc)
			rc = -errno;
		if (!rc && rename(tmp, path))
			rc = -errno;
		if (rc)
			unlink(tmp);
	}
	if (rc) {
		fputs("ftscope hostbound: ", stderr);
		fts_fputs_safe(stderr, path);
		fprintf(stderr, ": cannot write: %s (choose another --output)\n", strerror(-rc));
	}
	free(tmp);
	return rc ? 1 : 0;
}

/*
 * The usual cause of a card with nothing known: container tids matched
 * against host pids; and idle time the capture did not cover.
 */
static void warn_unknown(const struct fts_hb_card *c, size_t n, const struct hb_args *a)
{
	for (size_t i = 0; i < n; i++) {
		double tot[FTS_HB__COUNT], queued, out;
		uint64_t idle = fts_hostbound_cause_totals(c[i].hb, tot, &queued, &out);

		if (out > 0)
			fts_msg_warn("hostbound", "%s: %.1f%% of the NPU idle time lies outside the capture (before it started or after it ended): unknown",
				     c[i].name, pct(out, idle));
		idle = fts_hostbound_totals(c[i].hb, tot);

		if (idle && tot[FTS_HB_UNKNOWN] >= 0.99 * (double)idle)
			fts_msg_warn("hostbound", "%s: the capture says nothing of the dispatch threads during the gaps (all unknown): %s",
				     c[i].name, a->pidmap ? "is it from this host, over the profiled time?"
				     : "if the job ran in a container, give its --pid_mapping (the profiler records container tids)");
	}
}

static void render(FILE *f, const struct fts_hb_card *c, size_t n, const struct hb_args *a,
		   const struct fts_pipeline_result *res)
{
	int json = !strcmp(a->format, "json");

	if (!strcmp(a->format, "text")) {
		for (size_t i = 0; i < n; i++) {
			if (i)
				fputc('\n', f);
			text_report(f, c[i].hb, c[i].npu, c[i].path, a, res);
		}
		return;
	}
	if (json)
		fputs("{\"cards\": [\n", f);
	for (size_t i = 0; i < n; i++) {
		if (json && i)
			fputs(",\n", f);
		if (a->steps)
			fts_hostbound_write_steps(c[i].hb, f, c[i].name, i == 0);
		else
			fts_hostbound_write(c[i].hb, f, json, (size_t)a->top, c[i].name, i == 0);
	}
	if (json)
		fputs("\n]}\n", f);
}

static int run(const struct hb_args *a)
{
	struct fts_pipeline_opts po = { 0 };
	struct fts_pipeline_result *res = NULL;
	struct fts_err err = { 0 };
	struct fts_timemap *tm = NULL;
	struct fts_hb_cards cs;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc = fts_hb_cards_load(&cs, a->profiling, (uint64_t)a->threshold_us * 1000, a->pidmap != NULL,
				   "hostbound");

	if (rc)
		goto out;
	res = fts_pipeline_result_new();
	tm = fts_timemap_new();
	if (!res || !tm) {
		rc = fail("out of memory", NULL);
		goto out;
	}
	po.input = a->input;
	po.pid_mapping = a->pidmap;
	po.probe_helper = fts_front_probe_helper();
	/* start_info/end_info align the capture; without them, the recorder's clock pair */
	if (!fts_timemap_from_profiling(a->profiling, tm, &err))
		po.profiling_data = a->profiling;
	else
		fts_msg_warn("hostbound", "no usable start_info/end_info or profiler_info (%s): aligning by the capture's clock pair",
			     err.msg);
	rc = fts_pipeline_run(&po, cs.sinks, (int)cs.n, res, &err);
	if (!rc && fts_timemap_base(fts_pipeline_result_time(res)) == FTS_TIME_RAW)
		rc = fts_err_set(&err, -EINVAL,
				 "%s: no clock pair in the capture and no start_info/end_info in the profiling: its times cannot be put next to the profiler's",
				 a->input);
	if (rc) {
		rc = fail(NULL, &err);
		goto out;
	}
	warn_unknown(cs.c, cs.n, a);
	f = open_memstream(&buf, &len);
	if (!f) {
		rc = fail("out of memory", NULL);
		goto out;
	}
	render(f, cs.c, cs.n, a, res);
	if (fclose(f) || !buf) {
		rc = fail("out of memory", NULL);
		goto out;
	}
	if (a->output)
		rc = write_file(a->output, buf, len);
	else if (fwrite(buf, 1, len, stdout) != len || fflush(stdout))
		rc = fail("writing the report failed", NULL);
out:
	fts_hb_cards_free(&cs);
	fts_pipeline_result_free(res);
	fts_timemap_free(tm);
	free(buf);
	return rc;
}

int fts_cmd_hostbound(int argc, char **argv)
{
	struct hb_args a = { 0 };
	int rc = parse_args(argc, argv, &a);

	if (rc)
		return rc < 0 ? 0 : rc;
	return run(&a);
}
