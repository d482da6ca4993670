// SPDX-License-Identifier: MIT
/*
 * Unit tests for the Host Bound analysis (hostbound.h): a hand-made card
 * whose gaps fall on known stretches of the stats fixture
 * (tests/data/stats/irq_excerpt.txt; its per-task states are derived by hand
 * in test_stats.c; times below are us after 597.12 s, output ns = us * 1000),
 * run through the real pipeline and sched model into the sink:
 *
 *   gap          dispatch (flow that ended it)   what the trace says then
 *   1000-1010    memfd:sealed-91:3591 (1200)     before its first event: unknown 10
 *   1044-1618    bash:14349 (1618)               Runnable, preempted on CPU 1
 *                                                (574): memfd:sealed-91:3591 switched
 *                                                in and ran 34, then bash:14356 540
 *   1620-1740    bash:14356 (1740)               Sleeping in D: blocked 120
 *   1745-1760    bash:14349 (1760)               Running, softirq 1740-1751 hit it:
 *                                                irq 6, running 9
 *   2000-2060    no flow after it: the Python    14349 Running, 14356 Runnable
 *                threads 14349 and 14356 share   (wakeup): running 30, waiting 30
 *                                                (behind 14349 on CPU 1)
 * plus the gaps computed from the streams when there is no Free lane.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ftscope/hostbound.h"
#include "ftscope/pipeline.h"
#include "core/util/strtab.h"

#define FIXTURE FTS_TEST_DATA "/stats/irq_excerpt.txt"
#define T0 597120000000ull
#define US(x) (T0 + (uint64_t)(x) * 1000)

static struct fts_npu_free free_lane[] = {
	{ US(1000), 10000 }, { US(1044), 574000 }, { US(1620), 120000 },
	{ US(1745), 15000 }, { US(2000), 60000 },
};
static struct fts_npu_flow flows[] = {
	{ US(1190), US(1200), 3591, 0 }, { US(1610), US(1618), 14349, 0 },
	{ US(1730), US(1740), 14356, 0 }, { US(1755), US(1760), 14349, 1 },
};
static struct fts_npu_thread threads[] = {
	{ 14349, 14349, "Thread 14349" }, { 14349, 14356, "Thread 14356" },
};
static struct fts_npu_busy busy[] = {
	{ US(990), 10000, 2, 0 }, { US(1010), 34000, 2, 0 },
};

static struct fts_npu_trace card(void)
{
	struct fts_npu_trace t = { 0 };

	t.busy = busy;
	t.nbusy = 2;
	t.free = free_lane;
	t.nfree = 5;
	t.flows = flows;
	t.nflows = 4;
	t.threads = threads;
	t.nthreads = 2;
	t.python_pid = 14349;
	t.nstreams = 1;
	return t;
}

static struct fts_hostbound *run(const struct fts_npu_trace *t, uint64_t thr)
{
	struct fts_pipeline_opts po = { .input = FIXTURE };
	struct fts_hb_opts ho = { .threshold_ns = thr };
	struct fts_err err = { 0 };
	struct fts_hostbound *hb;
	struct fts_sink *sinks[1];

	assert_int_equal(fts_hostbound_create(t, &ho, &hb, &err), 0);
	sinks[0] = fts_hostbound_sink(hb);
	if (fts_pipeline_run(&po, sinks, 1, NULL, &err))
		fail_msg("pipeline: %s", err.msg);
	return hb;
}

static const struct fts_hb_gap *gap_at(const struct fts_hostbound *hb, uint64_t ts)
{
	size_t n;
	const struct fts_hb_gap *g = fts_hostbound_gaps(hb, &n);

	for (size_t i = 0; i < n; i++) {
		if (g[i].ts == ts)
			return &g[i];
	}
	fail_msg("no gap at %llu", (unsigned long long)ts);
	return NULL;
}

#define NEAR(a, b) assert_true((a) > (double)(b) - 0.5 && (a) < (double)(b) + 0.5)

static void test_verdicts(void **state)
{
	struct fts_npu_trace t = card();
	struct fts_hostbound *hb = run(&t, 1000);
	const struct fts_hb_gap *g;
	const struct fts_hb_blame *b;
	double tot[FTS_HB__COUNT];
	size_t n;

	(void)state;
	assert_int_equal(fts_hostbound_gaps_from_free(hb), 1);
	fts_hostbound_gaps(hb, &n);
	assert_int_equal(n, 5);
	/* worst (longest) first */
	assert_int_equal(fts_hostbound_gaps(hb, &n)[0].ts, US(1044));

	g = gap_at(hb, US(1000));
	assert_int_equal(g->tid, 3591);
	assert_int_equal(g->verdict, FTS_HB_UNKNOWN);
	NEAR(g->ns[FTS_HB_UNKNOWN], 10000);

	g = gap_at(hb, US(1044));
	assert_int_equal(g->tid, 14349);
	assert_string_equal(fts_hostbound_str(hb, g->thread), "bash:14349");
	assert_int_equal(g->verdict, FTS_HB_PREEMPTED);
	NEAR(g->ns[FTS_HB_PREEMPTED], 574000);
	/* who held the CPU, not who switched in first */
	assert_string_equal(fts_hostbound_str(hb, g->preempter), "bash:14356");
	assert_int_equal(g->preempter_cpu, 1);
	NEAR(g->preempter_ns, 540000);
	assert_string_equal(fts_hostbound_str(hb, g->culprits[0].task), "bash:14356");
	NEAR(g->culprits[0].ns, 540000);
	assert_string_equal(fts_hostbound_str(hb, g->culprits[1].task), "memfd:sealed-91:3591");
	NEAR(g->culprits[1].ns, 34000);
	assert_int_equal(g->culprits[2].task, FTS_HB_NONE);
	assert_int_equal(g->cause, FTS_HB_PREEMPTED);
	assert_string_equal(fts_hostbound_str(hb, g->line),
			    "dispatch thread bash:14349 preempted 574 us behind bash:14356 on CPU 1 (540 us)");

	g = gap_at(hb, US(1620));
	assert_int_equal(g->tid, 14356);
	assert_int_equal(g->verdict, FTS_HB_BLOCKED);
	NEAR(g->ns[FTS_HB_BLOCKED], 120000);

	g = gap_at(hb, US(1745));
	assert_int_equal(g->verdict, FTS_HB_RUNNING);
	NEAR(g->ns[FTS_HB_IRQ], 6000);
	NEAR(g->ns[FTS_HB_RUNNING], 9000);
	NEAR(g->ns[FTS_HB_UNKNOWN], 0);

	g = gap_at(hb, US(2000));
	assert_int_equal(g->tid, -1);
	NEAR(g->ns[FTS_HB_RUNNING], 30000);
	NEAR(g->ns[FTS_HB_WAITING], 30000);
	NEAR(g->ns[FTS_HB_UNKNOWN], 0);
	/* the waiting half: the CPU its wakeups targeted, all of it */
	assert_int_equal(g->wait_cpu, 1);
	NEAR(g->wait_cpu_ns, 30000);
	assert_int_equal(gap_at(hb, US(1044))->wait_cpu, -1);   /* preempted, never woken: none */

	assert_int_equal(fts_hostbound_totals(hb, tot), 779000);
	NEAR(tot[FTS_HB_PREEMPTED], 574000);
	NEAR(tot[FTS_HB_BLOCKED], 120000);
	NEAR(tot[FTS_HB_SLEEPING], 0);
	b = fts_hostbound_blame(hb, &n);
	assert_int_equal(n, 3);
	assert_string_equal(fts_hostbound_str(hb, b[0].task), "bash:14356");
	assert_int_equal(b[0].cpu, 1);
	assert_int_equal(b[0].gaps, 1);
	NEAR(b[0].ns, 540000);
	assert_string_equal(fts_hostbound_str(hb, b[1].task), "memfd:sealed-91:3591");
	NEAR(b[1].ns, 34000);
	/* the waiting half of the shared gap: behind 14349 on CPU 1, weighted 1/2 */
	assert_string_equal(fts_hostbound_str(hb, b[2].task), "bash:14349");
	NEAR(b[2].ns, 30000);
	fts_hostbound_free(hb);
}

/*
 * The op the dispatch thread was in: the one overlapping the gap most, the
 * innermost on a tie; another thread's ops and a shared gap name none.
 */
static void test_ops(void **state)
{
	struct fts_npu_trace t = card();
	struct fts_strtab names;
	struct fts_npu_op ops[6];
	struct fts_hostbound *hb;
	uint32_t lin, mm, add, cp, mm2, other;

	(void)state;
	fts_strtab_init(&names);
	lin = fts_strtab_intern(&names, "aten::linear", 12);
	mm = fts_strtab_intern(&names, "aten::matmul", 12);
	add = fts_strtab_intern(&names, "aten::add", 9);
	cp = fts_strtab_intern(&names, "aten::copy_", 11);
	mm2 = fts_strtab_intern(&names, "aten::mm", 8);
	other = fts_strtab_intern(&names, "other_thread_op", 15);
	/* sorted by tid, then ts */
	ops[0] = (struct fts_npu_op){ US(900), 3000000, 99, other };
	ops[1] = (struct fts_npu_op){ US(1000), 700000, 14349, lin };
	ops[2] = (struct fts_npu_op){ US(1040), 660000, 14349, mm };
	ops[3] = (struct fts_npu_op){ US(1100), 10000, 14349, add };
	ops[4] = (struct fts_npu_op){ US(1600), 50000, 14356, cp };
	ops[5] = (struct fts_npu_op){ US(1660), 80000, 14356, mm2 };
	t.ops = ops;
	t.nops = 6;
	t.priv = &names;
	hb = run(&t, 1000);
	/* linear and matmul both cover the whole gap: matmul, inside it */
	assert_string_equal(fts_hostbound_str(hb, gap_at(hb, US(1044))->op), "aten::matmul");
	/* copy_ overlaps 30 us of it, mm 80 us */
	assert_string_equal(fts_hostbound_str(hb, gap_at(hb, US(1620))->op), "aten::mm");
	assert_int_equal(gap_at(hb, US(1000))->op, FTS_HB_NONE);
	assert_int_equal(gap_at(hb, US(2000))->op, FTS_HB_NONE);
	fts_hostbound_free(hb);
	fts_strtab_free(&names);
}

/* The default threshold (50 us) keeps only the three long gaps. */
static void test_threshold(void **state)
{
	struct fts_npu_trace t = card();
	struct fts_hostbound *hb = run(&t, 0);
	size_t n;

	(void)state;
	fts_hostbound_gaps(hb, &n);
	assert_int_equal(n, 3);
	fts_hostbound_free(hb);
}

/* Without a Free lane: where no stream is busy (overlapping streams merged). */
static void test_gaps_from_streams(void **state)
{
	struct fts_npu_busy b[] = {
		{ US(1000), 10000, 2, 0 }, { US(1005), 25000, 3, 0 },   /* busy to 1030 */
		{ US(1100), 5000, 2, 0 },                               /* gap 1030-1100 */
		{ US(1110), 1000, 2, 0 },                               /* gap 1105-1110 */
	};
	struct fts_npu_trace t = { 0 };
	struct fts_hb_opts ho = { .threshold_ns = 5000, .offset_ns = -1000 };
	struct fts_err err = { 0 };
	struct fts_hostbound *hb;
	const struct fts_hb_gap *g;
	size_t n;

	(void)state;
	t.busy = b;
	t.nbusy = 4;
	t.python_pid = -1;
	assert_int_equal(fts_hostbound_create(&t, &ho, &hb, &err), 0);
	assert_int_equal(fts_hostbound_finish(hb, &err), 0);
	assert_int_equal(fts_hostbound_gaps_from_free(hb), 0);
	g = fts_hostbound_gaps(hb, &n);
	assert_int_equal(n, 2);
	assert_int_equal(g[0].ts, US(1030) - 1000);   /* the offset moves them onto the items' time */
	assert_int_equal(g[0].dur, 70000);
	assert_int_equal(g[1].ts, US(1105) - 1000);
	assert_int_equal(g[1].dur, 5000);
	/* no flow, no Python thread: nothing known */
	assert_int_equal(g[0].verdict, FTS_HB_UNKNOWN);
	NEAR(g[0].ns[FTS_HB_UNKNOWN], 70000);
	fts_hostbound_free(hb);
}

/* CSV and JSON: a header and a row per gap; hostile names escaped. */
static void test_write(void **state)
{
	struct fts_npu_trace t = card();
	struct fts_hostbound *hb = run(&t, 1000);
	char *buf = NULL;
	size_t len = 0, lines = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(fts_hostbound_write(hb, f, 0, 0, "rank0", 1), 0);
	fclose(f);
	for (size_t i = 0; i < len; i++)
		lines += buf[i] == '\n';
	assert_int_equal(lines, 6);
	assert_non_null(strstr(buf, ",preempted,"));
	assert_non_null(strstr(buf, "bash:14356,1,540000"));
	assert_int_equal(strncmp(buf, "card,start_ns,", 14), 0);
	assert_non_null(strstr(buf, "\nrank0,597121044000,574000,14349,bash:14349,preempted,"));
	free(buf);
	/* a later card: no header; a name a spreadsheet or a terminal would act on, defused */
	f = open_memstream(&buf, &len);
	assert_int_equal(fts_hostbound_write(hb, f, 0, 1, "=x\x1b[31m", 0), 0);
	fclose(f);
	assert_string_equal(buf, "\"'=x\\x1b[31m\",597121044000,574000,14349,bash:14349,preempted,"
			    "0,574000,0,0,0,0,0,bash:14356,1,540000,,-1,0,"   /* no op, no wait known */
			    "preempted,14349,bash:14349,dispatch,0,,0,0,0,574000,0,0,0,0,0,"
			    "bash:14356,1,540000,0,memfd:sealed-91:3591,1,34000,0,,-1,0,0,"
			    "14349,bash:14349,dispatch,0,preempted,574000,,bash:14356,1,540000,"  /* one part, three empty */
			    "-1,,,0,,0,,,-1,0,-1,,,0,,0,,,-1,0,-1,,,0,,0,,,-1,0,"
			    "\"dispatch thread bash:14349 preempted 574 us behind bash:14356 on CPU 1 (540 us)\"\n");
	free(buf);
	f = open_memstream(&buf, &len);
	assert_int_equal(fts_hostbound_write(hb, f, 1, 2, "=rank\x1b" "0", 0), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\"idle_ns\": 779000"));
	assert_non_null(strstr(buf, "{\"card\": \"=rank\\u001b0\", "));
	assert_non_null(strstr(buf, "\"gap_source\": \"free\""));
	assert_non_null(strstr(buf, "\"top_preempter\": \"bash:14356\""));
	assert_non_null(strstr(buf, "\"op\": null, \"wait_cpu\": -1, \"wait_cpu_ns\": 0,"));
	assert_non_null(strstr(buf, "\"culprits\": [{\"task\": \"bash:14356\", \"cpu\": 1, \"ns\": 540000, \"ours\": false}, "));
	assert_non_null(strstr(buf, "\"cause_role\": \"dispatch\", \"cause_depth\": 0"));
	assert_non_null(strstr(buf, "\"outside_ns\": 0"));
	free(buf);
	fts_hostbound_free(hb);
}


/* ---- a card fed by hand: the wake-up chain, culprits by occupancy, roles, names ---- */

#define K(us) ((uint64_t)(us) * 1000)   /* the hand-made card counts in us */

static void lane(struct fts_sink *s, uint32_t id, enum fts_lane_group grp, int32_t cpu, const char *tid)
{
	struct fts_lane l = { id, grp, cpu, tid };
	struct fts_err err = { 0 };

	assert_int_equal(s->lane(s, &l, &err), 0);
}

/* An item; @kv: key, value pairs, NULL-terminated. */
static void item(struct fts_sink *s, uint32_t ln, enum fts_item_kind kind, uint64_t a, uint64_t b,
		 const char *name, ...)
{
	struct fts_item it = { .lane = ln, .kind = kind, .ts = a, .dur = b - a, .name = name };
	struct fts_err err = { 0 };
	const char *k;
	va_list ap;

	va_start(ap, name);
	while ((k = va_arg(ap, const char *)) && it.nargs < FTS_ITEM_MAX_ARGS) {
		it.args[it.nargs].key = k;
		it.args[it.nargs++].val = va_arg(ap, const char *);
	}
	va_end(ap);
	assert_int_equal(s->item(s, &it, &err), 0);
}

/*
 * Gap 1000-2000 (then 2500-2600, after the capture's last event at 2100).
 * The dispatch thread 200 (a HostToDevice flow; it was "python:200", then
 * renamed itself "npu_disp") sleeps on an empty queue until the main thread
 * 100 (the async_npu flow of the same device task) wakes it at 1800; the
 * main thread ran aten::add from 1100, was preempted on CPU 0 from 1200 to
 * 1700, while hog:300 ran there 400 us and ftscope's reader 100 us.
 */
static struct fts_hostbound *chain_card(struct fts_npu_trace *t, int reversed, struct fts_strtab *names)
{
	static struct fts_npu_free fr[] = { { K(1000), K(1000) }, { K(2500), K(100) } };
	static struct fts_npu_thread th[] = { { 100, 100, "Thread 100" }, { 100, 200, "Thread 200" } };
	static struct fts_npu_busy bz[] = { { K(2000), K(500), 2, 0 } };
	static struct fts_npu_flow fl[2];
	static struct fts_npu_op op[1];
	struct fts_npu_flow launch = { K(1900), K(2000), 200, 0 }, queued = { K(1100), K(2000), 100, 1 };
	struct fts_hb_opts ho = { .threshold_ns = 1 };
	struct fts_hostbound *hb;
	struct fts_err err = { 0 };
	struct fts_sink *s;

	memset(t, 0, sizeof(*t));
	fl[0] = reversed ? queued : launch;
	fl[1] = reversed ? launch : queued;
	op[0] = (struct fts_npu_op){ K(1100), K(700), 100, fts_strtab_intern(names, "aten::add", 9) };
	*t = (struct fts_npu_trace){ .busy = bz, .nbusy = 1, .free = fr, .nfree = 2, .flows = fl, .nflows = 2,
				     .threads = th, .nthreads = 2, .python_pid = 100, .nstreams = 1,
				     .ops = op, .nops = 1, .priv = names };
	assert_int_equal(fts_hostbound_create(t, &ho, &hb, &err), 0);
	s = fts_hostbound_sink(hb);
	lane(s, 0, FTS_GROUP_CPU, 0, "CPU 000");
	lane(s, 1, FTS_GROUP_CPU, 1, "CPU 001");
	lane(s, 2, FTS_GROUP_TASK, 0, "python:100");
	lane(s, 3, FTS_GROUP_TASK, 0, "python:200");
	lane(s, 4, FTS_GROUP_TASK, 0, "npu_disp:200");
	item(s, 3, FTS_ITEM_RUNNING, K(100), K(400), "Running", NULL);
	item(s, 4, FTS_ITEM_RUNNING, K(1850), K(2100), "Running", NULL);
	item(s, 4, FTS_ITEM_RUNNABLE, K(1800), K(1850), "Runnable", "reason", "wakeup", "waker", "python:100",
	     "cpu", "1", NULL);
	item(s, 4, FTS_ITEM_SLEEPING, K(400), K(1800), "Sleeping", "state", "S", NULL);
	item(s, 2, FTS_ITEM_RUNNING, K(900), K(1200), "Running", NULL);
	item(s, 2, FTS_ITEM_RUNNABLE, K(1200), K(1700), "Runnable", "reason", "preempted", "cpu", "0",
	     "preempted_by", "fts-read0:400", NULL);
	item(s, 2, FTS_ITEM_RUNNING, K(1700), K(2000), "Running", NULL);
	/* the first to switch in held the CPU least */
	item(s, 0, FTS_ITEM_RUN, K(1500), K(1600), "fts-read0:400", NULL);
	item(s, 0, FTS_ITEM_RUN, K(1200), K(1500), "hog:300", NULL);
	item(s, 0, FTS_ITEM_RUN, K(1600), K(1700), "hog:300", NULL);
	item(s, 0, FTS_ITEM_RUN, K(1700), K(2000), "python:100", NULL);
	assert_int_equal(fts_hostbound_finish(hb, &err), 0);
	return hb;
}

static void test_chain(void **state)
{
	struct fts_strtab names;
	struct fts_npu_trace t;
	struct fts_hostbound *hb;
	const struct fts_hb_gap *g;
	const struct fts_hb_blame *b;
	double tot[FTS_HB__COUNT], queued, out;
	size_t n;

	(void)state;
	fts_strtab_init(&names);
	hb = chain_card(&t, 0, &names);
	g = gap_at(hb, K(1000));
	assert_int_equal(g->tid, 200);
	/* named by its comm during the gap, not its creator's */
	assert_string_equal(fts_hostbound_str(hb, g->thread), "npu_disp:200");
	/* its own state: it slept */
	assert_int_equal(g->verdict, FTS_HB_SLEEPING);
	NEAR(g->ns[FTS_HB_SLEEPING], K(800));
	/* the cause: the main thread it waited for was preempted */
	assert_int_equal(g->cause, FTS_HB_PREEMPTED);
	NEAR(g->cause_ns[FTS_HB_PREEMPTED], K(500));
	NEAR(g->cause_ns[FTS_HB_RUNNING], K(450));
	NEAR(g->cause_ns[FTS_HB_WAITING], K(50));
	NEAR(g->cause_ns[FTS_HB_SLEEPING], 0);
	NEAR(g->queued_ns, K(800));
	assert_int_equal(g->cause_tid, 100);
	assert_int_equal(g->cause_role, FTS_HB_ROLE_MAIN);
	assert_int_equal(g->cause_depth, 1);
	assert_string_equal(fts_hostbound_str(hb, g->cause_op), "aten::add");
	assert_string_equal(fts_hostbound_str(hb, g->culprits[0].task), "hog:300");
	assert_int_equal(g->culprits[0].cpu, 0);
	NEAR(g->culprits[0].ns, K(400));
	assert_int_equal(g->culprits[0].ours, 0);
	assert_string_equal(fts_hostbound_str(hb, g->culprits[1].task), "fts-read0:400");
	assert_int_equal(g->culprits[1].ours, 1);
	NEAR(g->culprits[1].ns, K(100));
	assert_string_equal(fts_hostbound_str(hb, g->line),
			    "dispatch idle: no work queued (800 us); main thread python:100 preempted 500 us "
			    "behind hog:300 on CPU 0 (400 us) in aten::add; running 300 us in aten::add");
	/* the pieces: main preempted, main running, the dispatch thread itself running after its wakeup */
	assert_int_equal(g->parts[0].tid, 100);
	assert_int_equal(g->parts[0].cat, FTS_HB_PREEMPTED);
	assert_int_equal(g->parts[0].depth, 1);
	NEAR(g->parts[0].ns, K(500));
	assert_string_equal(fts_hostbound_str(hb, g->parts[0].culprit), "hog:300");
	NEAR(g->parts[0].culprit_ns, K(400));
	assert_int_equal(g->parts[1].culprit, FTS_HB_NONE);   /* running: none */
	assert_int_equal(g->parts[1].cat, FTS_HB_RUNNING);
	NEAR(g->parts[1].ns, K(300));
	assert_int_equal(g->parts[2].tid, 200);
	assert_int_equal(g->parts[2].depth, 0);
	assert_string_equal(fts_hostbound_str(hb, g->parts[2].thread), "npu_disp:200");
	NEAR(g->parts[2].ns, K(150));
	assert_int_equal(g->parts[3].cat, FTS_HB_WAITING);
	NEAR(g->parts[3].ns, K(50));
	NEAR(g->outside_ns, 0);
	/* after the capture: unknown, and said so */
	g = gap_at(hb, K(2500));
	assert_int_equal(g->cause, FTS_HB_UNKNOWN);
	NEAR(g->outside_ns, K(100));
	assert_string_equal(fts_hostbound_str(hb, g->line), "unknown: 100 us outside the capture");
	assert_int_equal(fts_hostbound_cause_totals(hb, tot, &queued, &out), K(1100));
	NEAR(out, K(100));
	NEAR(queued, K(800));
	b = fts_hostbound_blame(hb, &n);
	assert_int_equal(n, 2);
	assert_string_equal(fts_hostbound_str(hb, b[0].task), "hog:300");
	assert_int_equal(b[1].ours, 1);
	fts_hostbound_free(hb);
	fts_strtab_free(&names);
}

/* The launch flow decides the dispatch thread, whatever the order of equal device times; the roles' list. */
static void test_roles(void **state)
{
	struct fts_strtab names;
	struct fts_npu_trace t;

	(void)state;
	for (int rev = 0; rev < 2; rev++) {
		const struct fts_hb_thread *th;
		struct fts_hostbound *hb;
		size_t n;

		fts_strtab_init(&names);
		hb = chain_card(&t, rev, &names);
		assert_int_equal(gap_at(hb, K(1000))->tid, 200);
		assert_int_equal(gap_at(hb, K(1000))->cause, FTS_HB_PREEMPTED);
		assert_string_equal(fts_hostbound_str(hb, gap_at(hb, K(1000))->culprits[0].task), "hog:300");
		/* dispatch first; named as last traced ("npu_disp", not its first lane's "python") */
		th = fts_hostbound_threads(hb, &n);
		assert_int_equal(n, 2);
		assert_int_equal(th[0].tid, 200);
		assert_int_equal(th[0].role, FTS_HB_ROLE_DISPATCH);
		assert_string_equal(fts_hostbound_str(hb, th[0].name), "npu_disp:200");
		assert_int_equal(th[1].role, FTS_HB_ROLE_MAIN);
		assert_string_equal(fts_hostbound_str(hb, th[1].name), "python:100");
		fts_hostbound_free(hb);
		fts_strtab_free(&names);
	}
}

/* A card with one gap, 1000-2000 (a task at 2000), with @fl and @th: its hostbound, whose sink is @s. */
static struct fts_hostbound *one_gap(struct fts_npu_trace *t, struct fts_npu_flow *fl, size_t nfl,
				     struct fts_npu_thread *th, size_t nth, struct fts_sink **s)
{
	static struct fts_npu_free fr[] = { { K(1000), K(1000) } };
	static struct fts_npu_busy bz[] = { { K(2000), K(500), 2, 0 } };
	struct fts_hb_opts ho = { .threshold_ns = 1 };
	struct fts_err err = { 0 };
	struct fts_hostbound *hb;

	*t = (struct fts_npu_trace){ .busy = bz, .nbusy = 1, .free = fr, .nfree = 1, .flows = fl, .nflows = nfl,
				     .threads = th, .nthreads = nth, .python_pid = 100, .nstreams = 1 };
	assert_int_equal(fts_hostbound_create(t, &ho, &hb, &err), 0);
	*s = fts_hostbound_sink(hb);
	return hb;
}

/* A gap the capture lost most of is unknown, said so, no cause guessed (no culprit). */
static void test_lost(void **state)
{
	static struct fts_npu_thread th[] = { { 100, 200, "Thread 200" } };
	static struct fts_npu_flow fl[] = { { K(1900), K(2000), 200, 0 } };
	struct fts_npu_trace t;
	struct fts_err err = { 0 };
	const struct fts_hb_gap *g;
	struct fts_sink *s;
	struct fts_hostbound *hb = one_gap(&t, fl, 1, th, 1, &s);

	(void)state;
	lane(s, 0, FTS_GROUP_CPU, 0, "CPU 000");
	lane(s, 1, FTS_GROUP_TASK, 0, "npu_disp:200");
	item(s, 1, FTS_ITEM_RUNNING, K(900), K(1100), "Running", NULL);
	item(s, 1, FTS_ITEM_NODATA, K(1100), K(1900), "no data", "cpu", "0", NULL);
	item(s, 1, FTS_ITEM_RUNNABLE, K(1900), K(2100), "Runnable", "reason", "preempted", "cpu", "0", NULL);
	item(s, 0, FTS_ITEM_RUN, K(1900), K(2100), "hog:300", NULL);
	assert_int_equal(fts_hostbound_finish(hb, &err), 0);
	g = gap_at(hb, K(1000));
	assert_int_equal(g->cause, FTS_HB_UNKNOWN);
	NEAR(g->cause_ns[FTS_HB_UNKNOWN], K(800));
	NEAR(g->cause_ns[FTS_HB_PREEMPTED], K(100));
	assert_string_equal(fts_hostbound_str(hb, g->line), "unknown: 800 us in lost events (the capture dropped them)");
	fts_hostbound_free(hb);
}

/*
 * Softirq work the kernel deferred to ksoftirqd is the CPU taken by
 * interrupts: the dispatch thread waited 1000-1900 on CPU 1, which
 * ksoftirqd/1 held 1000-1800 running NET_RX (700) and TIMER (50), then a hog
 * 1800-1900, a NET_RX softirq taking 1820-1850 of it; the thread ran
 * 1900-2100, eth0's irq hitting it 1950-1960.
 */
static void test_softirqd(void **state)
{
	static struct fts_npu_thread th[] = { { 100, 200, "Thread 200" } };
	static struct fts_npu_flow fl[] = { { K(1990), K(2000), 200, 0 } };
	const struct fts_hb_advice *adv;
	struct fts_npu_trace t;
	struct fts_err err = { 0 };
	const struct fts_hb_gap *g;
	struct fts_sink *s;
	struct fts_hostbound *hb = one_gap(&t, fl, 1, th, 1, &s);
	size_t n, i;

	(void)state;
	lane(s, 0, FTS_GROUP_CPU, 1, "CPU 001");
	lane(s, 1, FTS_GROUP_TASK, 0, "npu_disp:200");
	item(s, 1, FTS_ITEM_RUNNABLE, K(1000), K(1900), "Runnable", "reason", "wakeup", "cpu", "1", NULL);
	item(s, 1, FTS_ITEM_RUNNING, K(1900), K(2100), "Running", NULL);
	item(s, 0, FTS_ITEM_RUN, K(990), K(1800), "ksoftirqd/1:24", NULL);
	item(s, 0, FTS_ITEM_SOFTIRQ, K(1000), K(1700), "softirq", "vec", "3", "action", "NET_RX", "task",
	     "ksoftirqd/1:24", NULL);
	item(s, 0, FTS_ITEM_SOFTIRQ, K(1700), K(1750), "softirq", "vec", "1", "action", "TIMER", "task",
	     "ksoftirqd/1:24", NULL);
	item(s, 0, FTS_ITEM_RUN, K(1800), K(1900), "hog:300", NULL);
	item(s, 0, FTS_ITEM_SOFTIRQ, K(1820), K(1850), "softirq", "vec", "3", "action", "NET_RX", "task", "hog:300",
	     NULL);
	item(s, 0, FTS_ITEM_RUN, K(1900), K(2100), "npu_disp:200", NULL);
	item(s, 0, FTS_ITEM_IRQ, K(1950), K(1960), "irq", "irq", "24", "name", "eth0", "task", "npu_disp:200", NULL);
	assert_int_equal(fts_hostbound_finish(hb, &err), 0);
	g = gap_at(hb, K(1000));
	/* its own state: waiting (the states, as the trace has them) */
	NEAR(g->ns[FTS_HB_WAITING], K(900));
	NEAR(g->ns[FTS_HB_IRQ], K(10));
	/* the causes: the CPU was in softirq work 800 + 30, a hog held it 70 */
	assert_int_equal(g->cause, FTS_HB_IRQ);
	NEAR(g->cause_ns[FTS_HB_IRQ], K(840));
	NEAR(g->cause_ns[FTS_HB_WAITING], K(70));
	NEAR(g->cause_ns[FTS_HB_RUNNING], K(90));
	assert_int_equal(g->parts[0].cat, FTS_HB_IRQ);
	assert_string_equal(fts_hostbound_str(hb, g->parts[0].culprit), "softirq NET_RX in ksoftirqd/1:24");
	NEAR(g->parts[0].culprit_ns, K(800));
	assert_int_equal(g->parts[0].culprit_cpu, 1);
	/* the gap's culprits are of its waiting: the hog, for the time no softirq took from it */
	assert_string_equal(fts_hostbound_str(hb, g->culprits[0].task), "hog:300");
	NEAR(g->culprits[0].ns, K(70));
	assert_int_equal(g->culprits[1].task, FTS_HB_NONE);
	assert_string_equal(fts_hostbound_str(hb, g->line),
			    "dispatch thread npu_disp:200 irq 840 us from softirq NET_RX in ksoftirqd/1:24 on CPU 1 "
			    "(800 us)");
	/* the advice names the vector and the CPU, and where the RPS masks are */
	adv = fts_hostbound_advice(hb, &n);
	for (i = 0; i < n && adv[i].kind != FTS_HB_ADV_IRQ; i++)
		;
	assert_true(i < n);
	assert_non_null(strstr(fts_hostbound_str(hb, adv[i].text), "softirq NET_RX took CPU 1 from the host threads "
								   "for 0.7 ms"));
	assert_string_equal(fts_hostbound_str(hb, adv[i].command), "grep -H . /sys/class/net/*/queues/rx-*/rps_cpus");
	fts_hostbound_free(hb);
}

/*
 * Until the work of the launch that ended the gap was queued (its async_npu
 * flow starts at 1600 on the main thread 100), the dispatch thread had
 * nothing to launch: its wait for CPU 1 behind a hog (a timer woke it)
 * before then is not the cause; the main thread, preempted on CPU 0 until
 * 1550, is; from 1600 its own wait is (250).
 */
static void test_queued_at(void **state)
{
	static struct fts_npu_thread th[] = { { 100, 100, "Thread 100" }, { 100, 200, "Thread 200" } };
	static struct fts_npu_flow fl[] = { { K(1600), K(2000), 100, 1 }, { K(1900), K(2000), 200, 0 } };
	struct fts_npu_trace t;
	struct fts_err err = { 0 };
	const struct fts_hb_gap *g;
	struct fts_sink *s;
	struct fts_hostbound *hb = one_gap(&t, fl, 2, th, 2, &s);

	(void)state;
	lane(s, 0, FTS_GROUP_CPU, 0, "CPU 000");
	lane(s, 1, FTS_GROUP_CPU, 1, "CPU 001");
	lane(s, 2, FTS_GROUP_TASK, 0, "python:100");
	lane(s, 3, FTS_GROUP_TASK, 0, "npu_disp:200");
	item(s, 3, FTS_ITEM_RUNNABLE, K(900), K(1850), "Runnable", "reason", "wakeup", "waker", "<idle>",
	     "cpu", "1", NULL);
	item(s, 3, FTS_ITEM_RUNNING, K(1850), K(2100), "Running", NULL);
	item(s, 2, FTS_ITEM_RUNNABLE, K(900), K(1550), "Runnable", "reason", "preempted", "cpu", "0", NULL);
	item(s, 2, FTS_ITEM_RUNNING, K(1550), K(2100), "Running", NULL);
	item(s, 0, FTS_ITEM_RUN, K(900), K(1550), "hog:300", NULL);
	item(s, 1, FTS_ITEM_RUN, K(900), K(1850), "hog:301", NULL);
	assert_int_equal(fts_hostbound_finish(hb, &err), 0);
	g = gap_at(hb, K(1000));
	/* its own state: it waited */
	NEAR(g->ns[FTS_HB_WAITING], K(850));
	/* the causes: before 1600 the main thread's (preempted 550, running 50), then its own wait 250 */
	assert_int_equal(g->cause, FTS_HB_PREEMPTED);
	NEAR(g->cause_ns[FTS_HB_PREEMPTED], K(550));
	NEAR(g->cause_ns[FTS_HB_WAITING], K(250));
	NEAR(g->queued_ns, K(600));
	assert_int_equal(g->cause_tid, 100);
	assert_int_equal(g->cause_depth, 1);
	assert_string_equal(fts_hostbound_str(hb, g->line),
			    "dispatch idle: no work queued (600 us); main thread python:100 preempted 550 us "
			    "behind hog:300 on CPU 0 (550 us); dispatch thread npu_disp:200 waiting 250 us behind hog:301 "
			    "on CPU 1 (250 us)");
	fts_hostbound_free(hb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_gaps_from_streams),
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_roles),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_softirqd),
		cmocka_unit_test(test_queued_at),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
