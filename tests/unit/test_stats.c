// SPDX-License-Identifier: MIT
/*
 * Unit tests for the statistics sink (stats.h) on a small real capture whose
 * every number is derived by hand below, plus the window, the CPU filter,
 * sorting, the DB read back, and the latency percentiles.
 *
 * The fixture, tests/data/stats/irq_excerpt.txt, is tests/data/irq/irq.txt cut
 * to [597.121016, 597.122075) s: 25 events on 2 CPUs (times below in us after
 * 597.12; output ns = the text's us * 1000, no profiling data):
 *
 *   CPU 0: 1016 wakeup kdamond.0:77 (by <idle>)   1040 switch idle -> kdamond.0
 *          1975 runtime  1980 switch kdamond.0 (I) -> idle
 *          2006 switch idle -> bash:14357
 *   CPU 1: 1035 (first event: bash:14349 runs) fork 14356  1038 runtime
 *          1041 wakeup_new bash:14356 (by bash:14349)
 *          1044 switch bash:14349 (R) -> memfd:sealed-91:3591   1075 runtime
 *          1078 switch memfd:sealed-91 (S) -> bash:14356       1615 runtime
 *          1618 switch bash:14356 (D) -> bash:14349
 *          1733-1738 irq 36 virtio1-req.0   1740-1751 softirq BLOCK
 *          1743 waking bash:14356 (by bash:14349)  1746 wakeup (already runnable)
 *          1979 fork 14357  1984 wakeup_new bash:14357 (target CPU 0)
 *          2071 runtime  2074 switch bash:14349 (S) -> bash:14356   (the last event)
 *
 * Per task (us):
 *   kdamond.0:77     Runnable 1016-1040 (24, wakeup), Running 1040-1980 (940),
 *                    Sleeping (I) 1980-2074 (94); 1 switch, voluntary
 *   bash:14349       Running 1035-1044 (9), Runnable 1044-1618 (574, preempted by
 *                    memfd:sealed-91:3591), Running 1618-2074 (456): 465 running;
 *                    2 switches (R: involuntary; S); irq 5 us, softirq BLOCK 11 us
 *                    (top irq: BLOCK, the longer); its Sleeping from 2074 lasts 0
 *   memfd:sealed-91:3591  Running 1044-1078 (34), Sleeping (S) 1078-2074 (996); 1 switch
 *   bash:14356       Runnable 1041-1078 (37, new), Running 1078-1618 (540),
 *                    Sleeping D 1618-1743 (125: blocked), Runnable 1743-2074 (331,
 *                    wakeup); 1 switch (D, voluntary); wakeups 37 and 331: p50 37
 *                    (rank ceil(0.5*2) = 1), p99 331 (rank 2), max 331
 *   bash:14357       Runnable 1984-2006 (22, new), Running 2006-2074 (68); no switch
 * Every lifetime (first start to last end) is the sum of its states.
 * Per CPU: 0 busy 940 + 68 = 1008, 3 switches; 1 busy 9 + 34 + 540 + 456 = 1039,
 * 4 switches, 1 irq (5), 1 softirq (11). Wall = 1016 .. 2074 = 1058.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "ftscope/ftscope.h"
#include "ftscope/pipeline.h"
#include "ftscope/stats.h"
#include "core/model/latency_hist.h"
#include "core/model/stats_lean.h"

#define FIXTURE FTS_TEST_DATA "/stats/irq_excerpt.txt"
#define T0 597120000000ull /* 597.12 s in ns: the times above are us after it */
#define US(x) (T0 + (uint64_t)(x) * 1000)

static struct fts_stats *run(const char *input, const struct fts_stats_opts *so)
{
	struct fts_pipeline_opts po = { .input = input };
	struct fts_err err = { 0 };
	struct fts_stats *st;
	struct fts_sink *sinks[1];

	assert_int_equal(fts_stats_create(so, &st, &err), 0);
	sinks[0] = fts_stats_sink(st);
	if (fts_pipeline_run(&po, sinks, 1, NULL, &err))
		fail_msg("pipeline: %s", err.msg);
	return st;
}

static const struct fts_task_stats *task(const struct fts_stats *st, const char *tid)
{
	for (size_t i = 0; i < fts_stats_ntasks(st); i++) {
		if (!strcmp(fts_stats_task(st, i)->tid, tid))
			return fts_stats_task(st, i);
	}
	return NULL;
}

static void expect_times(const struct fts_task_stats *t, uint64_t run, uint64_t wait,
			 uint64_t sleep, uint64_t d)
{
	assert_non_null(t);
	assert_int_equal(t->running_ns, run * 1000);
	assert_int_equal(t->runnable_ns, wait * 1000);
	assert_int_equal(t->sleeping_ns, sleep * 1000);
	assert_int_equal(t->blocked_ns, d * 1000);
	/* nothing unknown in this excerpt: the states fill the lifetime */
	assert_int_equal(t->last_ns - t->first_ns, (run + wait + sleep + d) * 1000);
}

static void test_hand_checked(void **state)
{
	struct fts_stats *st = run(FIXTURE, NULL);
	const struct fts_task_stats *t;
	const struct fts_cpu_stats *c;

	(void)state;
	assert_int_equal(fts_stats_ntasks(st), 5);

	t = task(st, "kdamond.0:77");
	expect_times(t, 940, 24, 94, 0);
	assert_string_equal(t->comm, "kdamond.0");
	assert_int_equal(t->pid, 77);
	assert_int_equal(t->switches, 1);
	assert_int_equal(t->involuntary, 0);
	assert_int_equal(t->wakeups, 1);
	assert_int_equal(t->wake_p50_ns, 24000);
	assert_int_equal(t->wake_max_ns, 24000);
	assert_int_equal(t->first_ns, US(1016));
	assert_int_equal(t->last_ns, US(2074));

	t = task(st, "bash:14349");
	expect_times(t, 465, 574, 0, 0);
	assert_int_equal(t->switches, 2);
	assert_int_equal(t->involuntary, 1);
	assert_int_equal(t->migrations, 0);
	assert_int_equal(t->irq_count, 1);
	assert_int_equal(t->irq_ns, 5000);
	assert_int_equal(t->softirq_count, 1);
	assert_int_equal(t->softirq_ns, 11000);
	assert_string_equal(t->top_irq, "BLOCK");
	assert_int_equal(t->top_irq_ns, 11000);
	assert_int_equal(t->wakeups, 0);
	assert_string_equal(t->top_preempter, "memfd:sealed-91:3591");
	assert_int_equal(t->top_preempter_count, 1);
	assert_int_equal(t->top_preempter_ns, 574000);

	t = task(st, "memfd:sealed-91:3591");
	expect_times(t, 34, 0, 996, 0);
	assert_string_equal(t->comm, "memfd:sealed-91");
	assert_int_equal(t->pid, 3591);
	assert_int_equal(t->switches, 1);
	assert_string_equal(t->top_preempter, "");
	assert_string_equal(t->top_irq, "");

	t = task(st, "bash:14356");
	expect_times(t, 540, 37 + 331, 0, 125);
	assert_int_equal(t->switches, 1);
	assert_int_equal(t->involuntary, 0);
	assert_int_equal(t->wakeups, 2);
	assert_int_equal(t->wake_p50_ns, 37000);
	assert_int_equal(t->wake_p99_ns, 331000);
	assert_int_equal(t->wake_max_ns, 331000);

	t = task(st, "bash:14357");
	expect_times(t, 68, 22, 0, 0);
	assert_int_equal(t->switches, 0);
	assert_int_equal(t->wakeups, 1);
	assert_int_equal(t->wake_p99_ns, 22000);

	assert_int_equal(fts_stats_ncpus(st), 2);
	c = fts_stats_cpu(st, 0);
	assert_int_equal(c->cpu, 0);
	assert_int_equal(c->busy_ns, 1008000);
	assert_int_equal(c->wall_ns, 1058000);
	assert_int_equal(c->switches, 3);
	assert_int_equal(c->irq_count + c->softirq_count + c->lost_events, 0);
	assert_true(c->util > 0.9527 && c->util < 0.9528);
	c = fts_stats_cpu(st, 1);
	assert_int_equal(c->cpu, 1);
	assert_int_equal(c->busy_ns, 1039000);
	assert_int_equal(c->switches, 4);
	assert_int_equal(c->irq_count, 1);
	assert_int_equal(c->irq_ns, 5000);
	assert_int_equal(c->softirq_count, 1);
	assert_int_equal(c->softirq_ns, 11000);
	assert_int_equal(fts_stats_info(st)->t_begin, US(1016));
	assert_int_equal(fts_stats_info(st)->t_end, US(2074));
	/* default order: running, largest first */
	assert_string_equal(fts_stats_task(st, 0)->tid, "kdamond.0:77");
	assert_string_equal(fts_stats_task(st, 4)->tid, "memfd:sealed-91:3591");
	fts_stats_free(st);
}

/*
 * Window [1500, 2000) us: slices are clipped to it, a wakeup counts when its
 * wait starts inside, a switch when it happens inside.
 *   bash:14356: Running 1500-1618 (118), D 1618-1743 (125), Runnable 1743-2000
 *               (257); its wakeup at 1743 (331 us in full) counts, the one at
 *               1041 does not; its switch at 1618 counts.
 *   bash:14349: Runnable 1500-1618 (118), Running 1618-2000 (382); irq and
 *               softirq inside; its switches (1044, 2074) are outside.
 *   CPU 0: kdamond.0 1500-1980 (480) busy, switch at 1980; wall 500.
 */
static void test_window(void **state)
{
	struct fts_stats_opts so = { .has_window = 1, .win_begin = US(1500), .win_end = US(2000) };
	struct fts_stats *st = run(FIXTURE, &so);
	const struct fts_task_stats *t;

	(void)state;
	t = task(st, "bash:14356");
	assert_non_null(t);
	assert_int_equal(t->running_ns, 118000);
	assert_int_equal(t->blocked_ns, 125000);
	assert_int_equal(t->runnable_ns, 257000);
	assert_int_equal(t->wakeups, 1);
	assert_int_equal(t->wake_max_ns, 331000);
	assert_int_equal(t->switches, 1);
	t = task(st, "bash:14349");
	assert_int_equal(t->runnable_ns, 118000);
	assert_int_equal(t->running_ns, 382000);
	assert_int_equal(t->switches, 0);
	assert_int_equal(t->irq_count, 1);
	assert_int_equal(t->softirq_count, 1);
	assert_int_equal(fts_stats_cpu(st, 0)->busy_ns, 480000);
	assert_int_equal(fts_stats_cpu(st, 0)->switches, 1);
	assert_int_equal(fts_stats_cpu(st, 0)->wall_ns, 500000);
	/* bash:14357 waits from 1984: inside, its wait clipped to 16, its wakeup (22) counts */
	assert_int_equal(task(st, "bash:14357")->runnable_ns, 16000);
	assert_int_equal(task(st, "bash:14357")->running_ns, 0);
	assert_int_equal(task(st, "bash:14357")->wake_max_ns, 22000);
	fts_stats_free(st);
}

/* Two collectors' rows are the same, field by field, in the same order. */
static void expect_same_rows(struct fts_stats *a, struct fts_stats *b)
{
	fts_stats_sort_tasks(a, FTS_TCOL_TASK, 0);
	fts_stats_sort_tasks(b, FTS_TCOL_TASK, 0);
	assert_int_equal(fts_stats_ntasks(a), fts_stats_ntasks(b));
	for (size_t i = 0; i < fts_stats_ntasks(a); i++) {
		const struct fts_task_stats *x = fts_stats_task(a, i), *y = fts_stats_task(b, i);

		assert_string_equal(x->tid, y->tid);
		assert_string_equal(x->comm, y->comm);
		assert_string_equal(x->top_irq, y->top_irq);
		assert_string_equal(x->top_preempter, y->top_preempter);
		for (int c = FTS_TCOL_PID; c < FTS_TCOL__COUNT; c++)
			assert_int_equal(fts_task_col_value(x, c), fts_task_col_value(y, c));
		assert_int_equal(x->first_ns, y->first_ns);
		assert_int_equal(x->last_ns, y->last_ns);
	}
	assert_int_equal(fts_stats_ncpus(a), fts_stats_ncpus(b));
	for (size_t i = 0; i < fts_stats_ncpus(a); i++)
		assert_memory_equal(fts_stats_cpu(a, i), fts_stats_cpu(b, i), sizeof(struct fts_cpu_stats));
	assert_memory_equal(fts_stats_info(a), fts_stats_info(b), sizeof(struct fts_stats_info));
}

/*
 * A live view finishes, feeds more and finishes again (the live top's
 * per-second collectors): the rows vanish while items come, and the next
 * finish counts everything fed so far; a finish with nothing new changes
 * nothing.
 */
static void test_refinish(void **state)
{
	struct fts_stats_opts so = { .has_window = 1, .win_begin = US(1500), .win_end = US(2000) };
	struct fts_stats *fresh = run(FIXTURE, &so), *st;
	struct fts_lane lane = { .id = 0, .group = FTS_GROUP_TASK, .tid = "worker:7" };
	struct fts_item it = { .lane = 0, .kind = FTS_ITEM_RUNNING, .ts = 1000, .dur = 100 };
	struct fts_err err = { 0 };
	struct fts_sink *k;

	(void)state;
	assert_int_equal(fts_stats_finish(fresh, &err), 0);
	st = run(FIXTURE, &so);
	expect_same_rows(st, fresh);
	fts_stats_free(st);
	assert_int_equal(fts_stats_create(NULL, &st, &err), 0);
	k = fts_stats_sink(st);
	assert_int_equal(k->lane(k, &lane, &err), 0);
	assert_int_equal(k->item(k, &it, &err), 0);
	assert_int_equal(fts_stats_finish(st, &err), 0);
	assert_int_equal(fts_stats_ntasks(st), 1);
	assert_int_equal(fts_stats_task(st, 0)->running_ns, 100);
	it.ts = 1200;
	it.dur = 50;
	assert_int_equal(k->item(k, &it, &err), 0);
	assert_int_equal(fts_stats_ntasks(st), 0);
	assert_int_equal(fts_stats_finish(st, &err), 0);
	assert_int_equal(fts_stats_ntasks(st), 1);
	assert_int_equal(fts_stats_task(st, 0)->running_ns, 150);
	assert_string_equal(fts_stats_task(st, 0)->tid, "worker:7");
	assert_string_equal(fts_stats_task(st, 0)->comm, "worker");
	assert_int_equal(fts_stats_info(st)->t_begin, 1000);
	assert_int_equal(fts_stats_info(st)->t_end, 1250);
	fts_stats_free(st);
	fts_stats_free(fresh);
}

/* CPU 0 only: kdamond.0 and bash:14357 (queued for and run on CPU 0); nothing of CPU 1. */
static void test_cpu_filter(void **state)
{
	struct fts_stats_opts so = { .cpu_list = "0" };
	struct fts_stats *st = run(FIXTURE, &so);

	(void)state;
	assert_int_equal(fts_stats_ncpus(st), 1);
	assert_int_equal(fts_stats_cpu(st, 0)->cpu, 0);
	assert_non_null(task(st, "kdamond.0:77"));
	assert_int_equal(task(st, "bash:14357")->runnable_ns, 22000);
	assert_null(task(st, "bash:14349"));
	assert_null(task(st, "memfd:sealed-91:3591"));
	fts_stats_free(st);
}

static void test_sort_and_columns(void **state)
{
	struct fts_stats *st = run(FIXTURE, NULL);
	enum fts_task_col col;
	static const char *const by_wait[] = { "bash:14349", "bash:14356", "kdamond.0:77",
					       "bash:14357", "memfd:sealed-91:3591" };

	(void)state;
	assert_int_equal(fts_task_col_parse("runnable", &col), 0);
	assert_int_equal(col, FTS_TCOL_RUNNABLE);
	assert_int_equal(fts_task_col_parse("wakeup_p99_ns", &col), 0);
	assert_int_equal(col, FTS_TCOL_WAKE_P99);
	assert_int_equal(fts_task_col_parse("nope", &col), -EINVAL);
	for (int c = 0; c < FTS_TCOL__COUNT; c++) {
		assert_int_equal(fts_task_col_parse(fts_task_col_name((enum fts_task_col)c), &col), 0);
		assert_int_equal(col, c);
	}
	fts_stats_sort_tasks(st, FTS_TCOL_RUNNABLE, 1);
	for (int i = 0; i < 5; i++)
		assert_string_equal(fts_stats_task(st, (size_t)i)->tid, by_wait[i]);
	fts_stats_sort_tasks(st, FTS_TCOL_TASK, 0);
	assert_string_equal(fts_stats_task(st, 0)->tid, "bash:14349");
	assert_string_equal(fts_stats_task(st, 4)->tid, "memfd:sealed-91:3591");
	fts_stats_free(st);
}

/* The DB convert writes gives back the same numbers (one implementation, two inputs). */
static void test_db_same_numbers(void **state)
{
	char dir[] = "/tmp/fts_unit_stats_XXXXXX", db[64];
	struct fts_convert_opts co = { .format = FTS_OUT_DB, .cs_rows = 1 };
	struct fts_err err = { 0 };
	struct fts_stats *a, *b;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(db, sizeof(db), "%s/ftrace_data.db", dir);
	co.input = FIXTURE;
	co.output = db;
	if (fts_convert(&co, NULL, &err))
		fail_msg("convert: %s", err.msg);
	a = run(FIXTURE, NULL);
	b = run(db, NULL);
	unlink(db);
	rmdir(dir);
	assert_int_equal(fts_stats_ntasks(a), fts_stats_ntasks(b));
	for (size_t i = 0; i < fts_stats_ntasks(a); i++) {
		const struct fts_task_stats *x = fts_stats_task(a, i), *y = fts_stats_task(b, i);

		assert_string_equal(x->tid, y->tid);
		for (int c = FTS_TCOL_PID; c < FTS_TCOL__COUNT; c++)
			assert_int_equal(fts_task_col_value(x, (enum fts_task_col)c),
					 fts_task_col_value(y, (enum fts_task_col)c));
		assert_string_equal(x->top_irq, y->top_irq);
		assert_string_equal(x->top_preempter, y->top_preempter);
	}
	for (size_t i = 0; i < fts_stats_ncpus(a); i++)
		assert_memory_equal(fts_stats_cpu(a, i), fts_stats_cpu(b, i), sizeof(struct fts_cpu_stats));
	fts_stats_free(a);
	fts_stats_free(b);
}

static void test_bad_opts(void **state)
{
	struct fts_stats_opts so = { .has_window = 1, .win_begin = 10, .win_end = 10 };
	struct fts_err err = { 0 };
	struct fts_stats *st;

	(void)state;
	assert_int_equal(fts_stats_create(&so, &st, &err), -EINVAL);
	assert_null(st);
	assert_non_null(strstr(err.msg, "window"));
	memset(&so, 0, sizeof(so));
	so.cpu_list = "3-1";
	assert_int_equal(fts_stats_create(&so, &st, &err), -EINVAL);
	assert_null(strstr(err.msg, "--")); /* library messages name no flag */
}

/* Exact nearest-rank up to 64 samples; past that within 1% (and the max exact). */
static void test_latency_percentiles(void **state)
{
	struct fts_lat l;

	(void)state;
	memset(&l, 0, sizeof(l));
	assert_int_equal(fts_lat_pct(&l, 50), 0);
	for (uint64_t v = 10; v >= 1; v--)
		assert_int_equal(fts_lat_add(&l, v * 100), 0);
	assert_int_equal(fts_lat_pct(&l, 50), 500);   /* rank 5 of 100..1000 */
	assert_int_equal(fts_lat_pct(&l, 99), 1000);  /* rank ceil(9.9) = 10 */
	assert_int_equal(fts_lat_pct(&l, 10), 100);
	fts_lat_free(&l);

	memset(&l, 0, sizeof(l));
	for (uint64_t v = 1; v <= 100000; v++)
		assert_int_equal(fts_lat_add(&l, v * 37), 0);
	{
		uint64_t p50 = fts_lat_pct(&l, 50), p99 = fts_lat_pct(&l, 99);

		assert_true(p50 >= 50000 * 37 * 0.99 && p50 <= 50000 * 37 * 1.01);
		assert_true(p99 >= 99000 * 37 * 0.99 && p99 <= 99000 * 37 * 1.01);
		assert_int_equal(fts_lat_pct(&l, 100), 100000 * 37);
		assert_int_equal(l.max, 100000 * 37);
	}
	fts_lat_free(&l);
}

static int cmp_u64_asc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * High percentiles are read from the max's bucket down, low ones from the
 * bottom up: both land on the bucket of the exact nearest-rank sample (within
 * its 1/128), on a skewed spread with a far outlier, and at p50 the two walks
 * (50 reads down, 49.9999 up, the same rank here) agree exactly.
 */
static void test_latency_percentiles_walks(void **state)
{
	static const double pcts[] = { 1, 10, 49.9999, 50, 75, 90, 99, 99.9, 99.99 };
	enum { N = 100000 };
	uint64_t *v = malloc(N * sizeof(*v)), x = 12345;
	struct fts_lat l;

	(void)state;
	assert_non_null(v);
	memset(&l, 0, sizeof(l));
	for (int i = 0; i < N; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		v[i] = i == N / 2 ? 3000000000ull : 1000 + ((x >> 33) % 5000) * ((x >> 20) % 7 + 1);
		assert_int_equal(fts_lat_add(&l, v[i]), 0);
	}
	qsort(v, N, sizeof(*v), cmp_u64_asc);
	for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		double r = pcts[k] * N / 100.0;
		uint64_t rank = (uint64_t)r, got, want;

		rank += (double)rank < r - 1e-9;
		want = v[rank - 1];
		got = fts_lat_pct(&l, pcts[k]);
		assert_true(got + want / 128 + 1 >= want && got <= want + want / 128 + 1);
	}
	assert_int_equal(fts_lat_pct(&l, 50), fts_lat_pct(&l, 49.9999));
	assert_int_equal(fts_lat_pct(&l, 100), 3000000000ull);
	fts_lat_free(&l);
	free(v);
}

/* Feed one item of @kind on @lane, with up to three key/value args (NULL ends). */
static void feed(struct fts_sink *k, uint32_t lane, enum fts_item_kind kind, uint64_t ts,
		 uint64_t dur, const char *k1, const char *v1, const char *k2, const char *v2,
		 const char *k3, const char *v3)
{
	struct fts_item it = { .lane = lane, .kind = kind, .ts = ts, .dur = dur, .name = "x" };
	struct fts_err err = { 0 };
	const char *kv[] = { k1, v1, k2, v2, k3, v3 };

	for (int i = 0; i < 6 && kv[i]; i += 2) {
		it.args[it.nargs].key = kv[i];
		it.args[it.nargs].val = kv[i + 1];
		it.nargs++;
	}
	assert_int_equal(k->item(k, &it, &err), 0);
}

/*
 * More tasks than one slab of records holds (1024): every row is made, a
 * task far in keeps its irq, preemption, switch and one inline latency
 * sample apart from its neighbours', and a second sample fed after finish
 * (the inline one moving to the array) shows in the next finish.
 */
static void test_many_tasks(void **state)
{
	enum { N = 2500, CPU_LANE = N };
	struct fts_lane cl = { .id = CPU_LANE, .group = FTS_GROUP_CPU, .tid = "CPU 000" };
	const struct fts_task_stats *r;
	struct fts_err err = { 0 };
	struct fts_stats *st;
	struct fts_sink *k;
	char tid[32];

	(void)state;
	assert_int_equal(fts_stats_create(NULL, &st, &err), 0);
	k = fts_stats_sink(st);
	for (uint32_t i = 0; i < N; i++) {
		struct fts_lane l = { .id = i, .group = FTS_GROUP_TASK, .tid = tid };

		snprintf(tid, sizeof(tid), "t%u:%u", i, 1000 + i);
		assert_int_equal(k->lane(k, &l, &err), 0);
	}
	assert_int_equal(k->lane(k, &cl, &err), 0);
	for (uint32_t i = 0; i < N; i++) {
		uint64_t t0 = 1000000 + (uint64_t)i * 10000;
		char pid[16], comm[16];

		snprintf(tid, sizeof(tid), "t%u:%u", i, 1000 + i);
		snprintf(comm, sizeof(comm), "t%u", i);
		snprintf(pid, sizeof(pid), "%u", 1000 + i);
		feed(k, i, FTS_ITEM_RUNNABLE, t0, i + 1, "cpu", "0", "reason", "wakeup", NULL, NULL);
		feed(k, i, FTS_ITEM_RUNNING, t0 + 5000, 10 + i, "cpu", "0", NULL, NULL, NULL, NULL);
		if (i % 7 == 0)
			feed(k, CPU_LANE, FTS_ITEM_IRQ, t0 + 5001, 3, "task", tid, "name", "eth0",
			     NULL, NULL);
		if (i % 11 == 0)
			feed(k, i, FTS_ITEM_RUNNABLE, t0 + 8000, 5, "cpu", "0", "reason", "preempted",
			     "preempted_by", "t0:1000");
		if (i % 3 == 0)
			feed(k, CPU_LANE, FTS_ITEM_SWITCH, t0 + 9000, 0, "prev_comm", comm, "prev_pid",
			     pid, "prev_state", "R");
	}
	assert_int_equal(fts_stats_finish(st, &err), 0);
	assert_int_equal(fts_stats_ntasks(st), N);
	r = fts_stats_task(st, 0);                /* by running time, largest first */
	assert_string_equal(r->tid, "t2499:3499");
	assert_int_equal(r->running_ns, 10 + 2499);
	/* 1386 = 2 * 3 * 7 * 11 * 3: in the second slab, with everything */
	r = task(st, "t1386:2386");
	assert_non_null(r);
	assert_string_equal(r->comm, "t1386");
	assert_int_equal(r->pid, 2386);
	assert_int_equal(r->running_ns, 1396);
	assert_int_equal(r->runnable_ns, 1387 + 5);
	assert_int_equal(r->wakeups, 1);
	assert_int_equal(r->wake_p50_ns, 1387);
	assert_int_equal(r->wake_p99_ns, 1387);
	assert_int_equal(r->wake_max_ns, 1387);
	assert_int_equal(r->irq_count, 1);
	assert_int_equal(r->irq_ns, 3);
	assert_string_equal(r->top_irq, "eth0");
	assert_string_equal(r->top_preempter, "t0:1000");
	assert_int_equal(r->top_preempter_count, 1);
	assert_int_equal(r->top_preempter_ns, 5);
	assert_int_equal(r->switches, 1);
	assert_int_equal(r->involuntary, 1);
	/* its neighbour has none of the extras */
	r = task(st, "t1387:2387");
	assert_non_null(r);
	assert_int_equal(r->irq_count + r->switches + r->top_preempter_count, 0);
	assert_string_equal(r->top_irq, "");
	assert_string_equal(r->top_preempter, "");
	/* a second sample: 10 and 1387 */
	feed(k, 1386, FTS_ITEM_RUNNABLE, 900000000, 10, "cpu", "0", "reason", "wakeup", NULL, NULL);
	assert_int_equal(fts_stats_ntasks(st), 0);
	assert_int_equal(fts_stats_finish(st, &err), 0);
	assert_int_equal(fts_stats_ntasks(st), N);
	r = task(st, "t1386:2386");
	assert_int_equal(r->wakeups, 2);
	assert_int_equal(r->wake_p50_ns, 10);
	assert_int_equal(r->wake_p99_ns, 1387);
	assert_int_equal(r->wake_max_ns, 1387);
	fts_stats_sort_tasks(st, FTS_TCOL_TASK, 0);
	assert_string_equal(fts_stats_task(st, 0)->tid, "t0:1000");
	assert_string_equal(fts_stats_task(st, N - 1)->tid, "t9:1009"); /* ':' > '9' */
	fts_stats_sort_tasks(st, FTS_TCOL_TASK, 1);
	assert_string_equal(fts_stats_task(st, 0)->tid, "t9:1009");
	fts_stats_free(st);
}


/*
 * fts_stats_max_only (the live top's): every row as the full collector's,
 * the same wakeup count and maximum, only the percentiles left at 0; and
 * more than 64 samples of one task (where the full one keeps a histogram).
 */
static void test_max_only(void **state)
{
	struct fts_lane l = { .id = 0, .group = FTS_GROUP_TASK, .tid = "w:1" };
	struct fts_stats *full = run(FIXTURE, NULL), *lean;
	struct fts_pipeline_opts po = { .input = FIXTURE };
	const struct fts_task_stats *a, *b;
	struct fts_err err = { 0 };
	struct fts_sink *k;

	(void)state;
	assert_int_equal(fts_stats_create(NULL, &lean, &err), 0);
	fts_stats_max_only(lean);
	k = fts_stats_sink(lean);
	assert_int_equal(fts_pipeline_run(&po, &k, 1, NULL, &err), 0);
	assert_int_equal(fts_stats_ntasks(lean), fts_stats_ntasks(full));
	for (size_t i = 0; i < fts_stats_ntasks(full); i++) {
		struct fts_task_stats x;

		a = fts_stats_task(full, i);
		b = fts_stats_task(lean, i);
		assert_string_equal(a->tid, b->tid);
		x = *a;
		x.wake_p50_ns = x.wake_p99_ns = 0;
		x.tid = b->tid, x.comm = b->comm, x.top_irq = b->top_irq, x.top_preempter = b->top_preempter;
		assert_memory_equal(&x, b, sizeof(x));
	}
	b = task(lean, "bash:14356");
	assert_int_equal(b->wakeups, 2);
	assert_int_equal(b->wake_max_ns, 331000);
	assert_int_equal(b->wake_p50_ns, 0);
	fts_stats_free(full);
	fts_stats_free(lean);

	assert_int_equal(fts_stats_create(NULL, &lean, &err), 0);
	fts_stats_max_only(lean);
	k = fts_stats_sink(lean);
	assert_int_equal(k->lane(k, &l, &err), 0);
	for (uint64_t i = 0; i < 200; i++)
		feed(k, 0, FTS_ITEM_RUNNABLE, 1000 * i, (i * 37) % 101, "cpu", "0", "reason", "wakeup",
		     NULL, NULL);
	assert_int_equal(fts_stats_finish(lean, &err), 0);
	b = task(lean, "w:1");
	assert_int_equal(b->wakeups, 200);
	assert_int_equal(b->wake_max_ns, 100);
	fts_stats_free(lean);   /* nothing of the samples to free (ASan: no leak, no bad free) */
}

/* The accumulator's three forms: one sample inline, the exact array, the histogram. */
static void test_latency_forms(void **state)
{
	struct fts_lat l;

	(void)state;
	memset(&l, 0, sizeof(l));
	assert_int_equal(fts_lat_add(&l, 700), 0);
	assert_int_equal(fts_lat_pct(&l, 50), 700);
	assert_int_equal(fts_lat_pct(&l, 99), 700);
	assert_int_equal(fts_lat_add(&l, 300), 0);          /* the inline one moves over */
	assert_int_equal(fts_lat_pct(&l, 50), 300);
	assert_int_equal(fts_lat_pct(&l, 100), 700);
	for (uint64_t v = 3; v <= 64; v++)                  /* 64 exact samples */
		assert_int_equal(fts_lat_add(&l, v), 0);
	assert_int_equal(fts_lat_pct(&l, 50), 34);          /* rank 32 of 3..64, 300, 700 */
	assert_int_equal(fts_lat_add(&l, 5), 0);            /* the 65th: into the histogram */
	assert_int_equal(l.n, 65);
	assert_int_equal(fts_lat_pct(&l, 50), 34);          /* below 64 buckets are exact */
	assert_int_equal(fts_lat_pct(&l, 100), 700);
	fts_lat_free(&l);
	assert_int_equal(l.n, 0);
	assert_int_equal(fts_lat_pct(&l, 50), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_checked),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_refinish),
		cmocka_unit_test(test_cpu_filter),
		cmocka_unit_test(test_sort_and_columns),
		cmocka_unit_test(test_db_same_numbers),
		cmocka_unit_test(test_bad_opts),
		cmocka_unit_test(test_latency_percentiles),
		cmocka_unit_test(test_latency_percentiles_walks),
		cmocka_unit_test(test_latency_forms),
		cmocka_unit_test(test_max_only),
		cmocka_unit_test(test_many_tasks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
