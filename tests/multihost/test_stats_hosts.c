// SPDX-License-Identifier: MIT
/*
 * Unit tests for the many-host parts of stats.h: fts_stats_totals on the
 * hand-derived capture of tests/unit/test_stats.c (its header lists every
 * number used here), with and without a task filter and on ties, and the host
 * manifest loader on good and bad files.
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

#define FIXTURE FTS_TEST_DATA "/stats/irq_excerpt.txt"
#define US(x) ((uint64_t)(x) * 1000)

static struct fts_stats *run(const char *input)
{
	struct fts_pipeline_opts po = { .input = input };
	struct fts_err err = { 0 };
	struct fts_stats *st;
	struct fts_sink *sinks[1];

	assert_int_equal(fts_stats_create(NULL, &st, &err), 0);
	sinks[0] = fts_stats_sink(st);
	if (fts_pipeline_run(&po, sinks, 1, NULL, &err))
		fail_msg("pipeline: %s", err.msg);
	return st;
}

/* Every task: the sums of the five rows, and who waited most by each measure. */
static void test_totals(void **state)
{
	struct fts_stats *st = run(FIXTURE);
	struct fts_stats_totals t;

	(void)state;
	fts_stats_totals(st, NULL, NULL, &t);
	assert_int_equal(t.tasks, 5);
	assert_int_equal(t.runnable_ns, US(24 + 574 + 37 + 331 + 22));
	assert_int_equal(t.running_ns, US(940 + 465 + 34 + 540 + 68));
	assert_int_equal(t.blocked_ns, US(125));
	assert_int_equal(t.switches, 5);
	assert_int_equal(t.involuntary, 1);
	assert_int_equal(t.wakeups, 1 + 2 + 1);
	assert_string_equal(t.most_runnable->tid, "bash:14349");
	assert_string_equal(t.worst_wakeup->tid, "bash:14356");
	assert_int_equal(t.wake_max_ns, US(331));
	assert_string_equal(t.most_preempted->tid, "bash:14349");
	assert_int_equal(t.ncpus, 2);
	assert_int_equal(t.busy_ns, US(1008 + 1039));
	assert_int_equal(t.wall_ns, US(2 * 1058));
	assert_true(t.util > 0.96 && t.util < 0.97);
	assert_int_equal(t.lost_events, 0);
	assert_int_equal(t.lost_exact, 1);
	fts_stats_free(st);
}

static int only_comm(const struct fts_task_stats *t, void *comm)
{
	return !strcmp(t->comm, comm);
}

/* A filter: only the bash tasks count; the CPUs' totals stay whole. */
static void test_totals_filtered(void **state)
{
	struct fts_stats *st = run(FIXTURE);
	struct fts_stats_totals t;

	(void)state;
	fts_stats_totals(st, only_comm, "bash", &t);
	assert_int_equal(t.tasks, 3);
	assert_int_equal(t.runnable_ns, US(574 + 37 + 331 + 22));
	assert_string_equal(t.most_runnable->tid, "bash:14349");
	assert_int_equal(t.busy_ns, US(1008 + 1039));
	fts_stats_totals(st, only_comm, "nobody", &t);
	assert_int_equal(t.tasks, 0);
	assert_null(t.most_runnable);
	assert_null(t.worst_wakeup);
	assert_null(t.most_preempted);
	fts_stats_free(st);
}

/* Equal waits: the smaller tid, whatever the rows' order; no wait at all: nobody. */
static void test_totals_ties(void **state)
{
	struct fts_lane lanes[] = {
		{ .id = 0, .group = FTS_GROUP_TASK, .tid = "b:2" },
		{ .id = 1, .group = FTS_GROUP_TASK, .tid = "a:1" },
		{ .id = 2, .group = FTS_GROUP_TASK, .tid = "c:3" },
	};
	struct fts_item it = { .kind = FTS_ITEM_RUNNABLE, .ts = 1000, .dur = 100 };
	struct fts_err err = { 0 };
	struct fts_stats_totals t;
	struct fts_stats *st;
	struct fts_sink *k;

	(void)state;
	assert_int_equal(fts_stats_create(NULL, &st, &err), 0);
	k = fts_stats_sink(st);
	for (int i = 0; i < 3; i++)
		assert_int_equal(k->lane(k, &lanes[i], &err), 0);
	for (uint32_t i = 0; i < 2; i++) {
		it.lane = i;
		assert_int_equal(k->item(k, &it, &err), 0);
	}
	it.lane = 2;
	it.kind = FTS_ITEM_RUNNING;
	assert_int_equal(k->item(k, &it, &err), 0);
	assert_int_equal(fts_stats_finish(st, &err), 0);
	for (int desc = 0; desc < 2; desc++) {
		fts_stats_sort_tasks(st, FTS_TCOL_TASK, desc);
		fts_stats_totals(st, NULL, NULL, &t);
		assert_int_equal(t.tasks, 3);
		assert_string_equal(t.most_runnable->tid, "a:1");
		assert_null(t.most_preempted);
	}
	fts_stats_free(st);
}

static char path[64];

static const char *manifest(const char *text)
{
	FILE *f;

	strcpy(path, "/tmp/fts_manifest_XXXXXX");
	f = fdopen(mkstemp(path), "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void test_manifest(void **state)
{
	struct fts_host_manifest *m;
	const struct fts_host_entry *e;
	struct fts_err err = { 0 };

	(void)state;
	assert_int_equal(fts_host_manifest_load(manifest(
		"{\"format\": \"ftscope-hosts/1\", \"hosts\": ["
		"{\"host\": \"node-a\", \"index\": 0, \"db\": \"ftrace_data0.db\", \"capture\": \"node-a.dat\","
		" \"ranks\": \"0,1\", \"clock_offset_ns\": \"1796089509977992517\", \"extra\": [1]},"
		"{\"host\": \"node-b\", \"index\": 1, \"db\": \"ftrace_data1.db\", \"clock_offset_ns\": -5}]}"),
		&m, &err), 0);
	unlink(path);
	assert_int_equal(fts_host_manifest_count(m), 2);
	e = fts_host_manifest_entry(m, 0);
	assert_string_equal(e->host, "node-a");
	assert_int_equal(e->index, 0);
	assert_string_equal(e->ranks, "0,1");
	assert_true(e->has_clock);
	assert_true(e->clock_offset_ns == 1796089509977992517LL);
	e = fts_host_manifest_entry(m, 1);
	assert_string_equal(e->capture, "");
	assert_string_equal(e->ranks, "");
	assert_true(e->has_clock && e->clock_offset_ns == -5);
	assert_null(fts_host_manifest_entry(m, 2));
	assert_string_equal(fts_host_manifest_find(m, "/x/y/ftrace_data1.db")->host, "node-b");
	assert_string_equal(fts_host_manifest_find(m, "node-a.dat")->host, "node-a");
	assert_null(fts_host_manifest_find(m, "ftrace_data2.db"));
	assert_null(fts_host_manifest_find(m, "dir/"));
	fts_host_manifest_free(m);
	fts_host_manifest_free(NULL);
}

/* Each bad manifest: -EINVAL, a message naming the file, nothing returned. */
static void test_manifest_bad(void **state)
{
	static const char *const bad[] = {
		"not json",
		"[]",
		"{\"hosts\": {}}",
		"{\"hosts\": [1]}",
		"{\"hosts\": [{\"index\": 0}]}",
		"{\"hosts\": [{\"host\": \"\"}]}",
		"{\"hosts\": [{\"host\": 7}]}",
		"{\"hosts\": [{\"host\": \"a\", \"index\": -1}]}",
		"{\"hosts\": [{\"host\": \"a\", \"index\": 1.5}]}",
		"{\"hosts\": [{\"host\": \"a\", \"db\": \"x/ftrace_data0.db\"}]}",
		"{\"hosts\": [{\"host\": \"a\", \"capture\": \"../a.dat\"}]}",
		"{\"hosts\": [{\"host\": \"a\", \"clock_offset_ns\": 1796089509977992517}]}",
		"{\"hosts\": [{\"host\": \"a\", \"clock_offset_ns\": \"12x\"}]}",
		"{\"hosts\": [{\"host\": \"a\", \"clock_offset_ns\": \"99999999999999999999\"}]}",
		"{\"hosts\": [{\"host\": \"a\"}, {\"host\": \"a\"}]}",
		"{\"hosts\": [{\"host\": \"a\", \"index\": 3}, {\"host\": \"b\", \"index\": 3}]}",
		"{\"hosts\": [{\"host\": \"a\", \"db\": \"d.db\"}, {\"host\": \"b\", \"db\": \"d.db\"}]}",
	};
	struct fts_host_manifest *m = (void *)1;
	struct fts_err err = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = fts_host_manifest_load(manifest(bad[i]), &m, &err);

		unlink(path);
		if (rc != -EINVAL)
			fail_msg("'%s': %d (%s)", bad[i], rc, err.msg);
		assert_null(m);
		assert_non_null(strstr(err.msg, path));
	}
	assert_true(fts_host_manifest_load("/nonexistent/ftscope-hosts.json", &m, &err) < 0);
	assert_null(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_totals),
		cmocka_unit_test(test_totals_filtered),
		cmocka_unit_test(test_totals_ties),
		cmocka_unit_test(test_manifest),
		cmocka_unit_test(test_manifest_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
