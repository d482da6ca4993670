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
 *   1044-1618    bash:14349 (1618)               Runnable, preempted by
 *                                                memfd:sealed-91:3591 on CPU 1: 574
 *   1620-1740    bash:14356 (1740)               Sleeping in D: blocked 120
 *   1745-1760    bash:14349 (1760)               Running, softirq 1740-1751 hit it:
 *                                                irq 6, running 9
 *   2000-2060    no flow after it: the Python    14349 Running, 14356 Runnable
 *                threads 14349 and 14356 share   (wakeup): running 30, waiting 30
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
	assert_string_equal(fts_hostbound_str(hb, g->preempter), "memfd:sealed-91:3591");
	assert_int_equal(g->preempter_cpu, 1);
	NEAR(g->preempter_ns, 574000);

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
	assert_int_equal(n, 1);
	assert_string_equal(fts_hostbound_str(hb, b[0].task), "memfd:sealed-91:3591");
	assert_int_equal(b[0].cpu, 1);
	assert_int_equal(b[0].gaps, 1);
	NEAR(b[0].ns, 574000);
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
	assert_non_null(strstr(buf, "memfd:sealed-91:3591,1,574000"));
	assert_int_equal(strncmp(buf, "card,start_ns,", 14), 0);
	assert_non_null(strstr(buf, "\nrank0,597121044000,574000,14349,bash:14349,preempted,"));
	free(buf);
	/* a later card: no header; a name a spreadsheet or a terminal would act on, defused */
	f = open_memstream(&buf, &len);
	assert_int_equal(fts_hostbound_write(hb, f, 0, 1, "=x\x1b[31m", 0), 0);
	fclose(f);
	assert_string_equal(buf, "\"'=x\\x1b[31m\",597121044000,574000,14349,bash:14349,preempted,"
			    "0,574000,0,0,0,0,0,memfd:sealed-91:3591,1,574000,,-1,0\n"); /* no op, no wait known */
	free(buf);
	f = open_memstream(&buf, &len);
	assert_int_equal(fts_hostbound_write(hb, f, 1, 2, "=rank\x1b" "0", 0), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\"idle_ns\": 779000"));
	assert_non_null(strstr(buf, "{\"card\": \"=rank\\u001b0\", "));
	assert_non_null(strstr(buf, "\"gap_source\": \"free\""));
	assert_non_null(strstr(buf, "\"top_preempter\": \"memfd:sealed-91:3591\""));
	assert_non_null(strstr(buf, "\"op\": null, \"wait_cpu\": -1, \"wait_cpu_ns\": 0}"));
	free(buf);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
