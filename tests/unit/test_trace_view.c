// SPDX-License-Identifier: MIT
/*
 * Unit tests for the trace_view.json reader (npu.h) on generated files in the
 * profiler's shape (ascend-profiling.md): string ts in epoch us, numeric
 * dur, metadata before or after the slices, flows paired by string or
 * number ids in either order, counters and cpu_ops that must be dropped,
 * and the refusals (not JSON, two cards in one file, no device, a bad ts),
 * plus the search for every card's file below a profiling directory.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "ftscope/npu.h"

static char dir[256];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s/fts-tv-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[400];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static const char *write_file(const char *name, const char *text)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	return path;
}

#define META \
	"{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":100,\"tid\":0,\"args\":{\"name\":\"Python\"}},\n" \
	"{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":100,\"tid\":101,\"args\":{\"name\":\"Thread 101\"}},\n" \
	"{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":100,\"tid\":100,\"args\":{\"name\":\"Thread 100\"}},\n" \
	"{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":900,\"tid\":0,\"args\":{\"name\":\"Ascend Hardware\"}},\n" \
	"{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":900,\"tid\":2,\"args\":{\"name\":\"Stream 2\"}},\n" \
	"{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":950,\"tid\":0,\"args\":{\"name\":\"Overlap Analysis\"}},\n" \
	"{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":950,\"tid\":3,\"args\":{\"name\":\"Free\"}},\n" \
	"{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":950,\"tid\":0,\"args\":{\"name\":\"Computing\"}},\n" \
	"{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":970,\"tid\":0,\"args\":{\"name\":\"HCCL\"}}"

#define BODY \
	"{\"ph\":\"X\",\"name\":\"MatMul_1\",\"pid\":900,\"tid\":7,\"ts\":\"1736405443876960.250\",\"dur\":4.5,\"args\":{\"Task Type\":\"AI_CORE\"}},\n" \
	"{\"ph\":\"X\",\"name\":\"Add_2\",\"pid\":900,\"tid\":2,\"ts\":\"1736405443876953.510\",\"dur\":2,\"cat\":\"x\"},\n" \
	"{\"ph\":\"X\",\"name\":\"aten::add\",\"pid\":100,\"tid\":101,\"ts\":\"1736405443876950.000\",\"dur\":1},\n" \
	"{\"ph\":\"X\",\"name\":\"Free\",\"pid\":950,\"tid\":3,\"ts\":\"1736405443876955.510\",\"dur\":4.74},\n" \
	"{\"ph\":\"X\",\"name\":\"Computing\",\"pid\":950,\"tid\":0,\"ts\":\"1736405443876953.510\",\"dur\":2},\n" \
	"{\"ph\":\"C\",\"name\":\"HBM\",\"pid\":960,\"tid\":0,\"ts\":\"1736405443876953.510\",\"args\":{\"v\":1}},\n" \
	"{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"HostToDevice\",\"name\":\"HostToDevice\",\"id\":\"42\",\"pid\":900,\"tid\":7,\"ts\":\"1736405443876960.250\"},\n" \
	"{\"ph\":\"s\",\"cat\":\"HostToDevice\",\"name\":\"HostToDevice\",\"id\":\"42\",\"pid\":\"host\",\"tid\":101,\"ts\":\"1736405443876958.000\"},\n" \
	"{\"ph\":\"s\",\"cat\":\"async_npu\",\"name\":\"async_npu\",\"id\":7,\"pid\":100,\"tid\":100,\"ts\":\"1736405443876950.000\"},\n" \
	"{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"async_npu\",\"name\":\"async_npu\",\"id\":7,\"pid\":900,\"tid\":2,\"ts\":\"1736405443876953.510\"},\n" \
	"{\"ph\":\"s\",\"cat\":\"async_npu\",\"name\":\"async_npu\",\"id\":8,\"pid\":100,\"tid\":100,\"ts\":\"1736405443876951.000\"},\n" \
	"{\"ph\":\"s\",\"cat\":\"fwdbwd\",\"name\":\"fwdbwd\",\"id\":9,\"pid\":100,\"tid\":100,\"ts\":\"1736405443876951.000\"},\n" \
	"{\"ph\":\"X\",\"name\":\"hcom_allReduce_2\",\"pid\":970,\"tid\":4,\"ts\":\"1736405443876970.000\",\"dur\":3},\n" \
	"{\"ph\":\"X\",\"name\":\"hcom_allReduce_1\",\"pid\":970,\"tid\":4,\"ts\":\"1736405443876960.000\",\"dur\":1.5}"

#define T(us_after) (1736405443876950000ull + (uint64_t)(us_after))

static void check_card(const struct fts_npu_trace *t)
{
	assert_int_equal(t->nbusy, 2);
	assert_int_equal(t->nstreams, 2);
	/* sorted by time; exact ns from the three-decimal strings */
	assert_int_equal(t->busy[0].ts, T(3510));
	assert_int_equal(t->busy[0].dur, 2000);
	assert_int_equal(t->busy[0].stream, 2);
	assert_string_equal(fts_npu_name(t, t->busy[0].name), "Add_2");
	assert_int_equal(t->busy[1].ts, T(10250));
	assert_int_equal(t->busy[1].dur, 4500);
	assert_string_equal(fts_npu_name(t, t->busy[1].name), "MatMul_1");
	/* only the thread named "Free" of the overlap analysis */
	assert_int_equal(t->nfree, 1);
	assert_int_equal(t->free[0].ts, T(5510));
	assert_int_equal(t->free[0].dur, 4740);
	/* two complete pairs, by device time; id 8 has no finish, fwdbwd is no launch */
	assert_int_equal(t->nflows, 2);
	assert_int_equal(t->unpaired_flows, 1);
	assert_int_equal(t->flows[0].host_tid, 100);
	assert_int_equal(t->flows[0].kind, 1);
	assert_int_equal(t->flows[0].host_ts, T(0));
	assert_int_equal(t->flows[0].dev_ts, T(3510));
	assert_int_equal(t->flows[1].host_tid, 101);
	assert_int_equal(t->flows[1].kind, 0);
	assert_int_equal(t->flows[1].dev_ts, T(10250));
	assert_int_equal(t->python_pid, 100);
	assert_int_equal(t->nthreads, 2);
	assert_int_equal(t->threads[0].tid, 100);
	assert_string_equal(t->threads[1].name, "Thread 101");
	/* the Python thread's CPU op, kept for "in which op" */
	assert_int_equal(t->nops, 1);
	assert_int_equal(t->ops[0].tid, 101);
	assert_int_equal(t->ops[0].ts, T(0));
	assert_int_equal(t->ops[0].dur, 1000);
	assert_string_equal(fts_npu_name(t, t->ops[0].name), "aten::add");
	/* the "HCCL" process's slices, by time, apart from the device's */
	assert_int_equal(t->ncomm, 2);
	assert_int_equal(t->comm[0].ts, T(10000));
	assert_int_equal(t->comm[0].dur, 1500);
	assert_int_equal(t->comm[0].lane, 4);
	assert_string_equal(fts_npu_name(t, t->comm[0].name), "hcom_allReduce_1");
	assert_string_equal(fts_npu_name(t, t->comm[1].name), "hcom_allReduce_2");
}

static void test_read_meta_first(void **state)
{
	struct fts_npu_trace *t = NULL;
	struct fts_err err = { 0 };
	const char *p = write_file("tv1.json", "[\n" META ",\n" BODY "\n]\n");

	(void)state;
	if (fts_npu_trace_read(p, &t, &err))
		fail_msg("%s", err.msg);
	check_card(t);
	assert_int_equal(t->events, 23);
	fts_npu_trace_free(t);
}

static void test_read_meta_last_one_line(void **state)
{
	struct fts_npu_trace *t = NULL;
	struct fts_err err = { 0 };
	/* metadata after the slices, the whole array on one line, no closing ']' */
	char text[8192];
	const char *p;

	(void)state;
	snprintf(text, sizeof(text), "[%s,%s", BODY, META);
	for (char *c = text; *c; c++)
		if (*c == '\n')
			*c = ' ';
	p = write_file("tv2.json", text);
	if (fts_npu_trace_read(p, &t, &err))
		fail_msg("%s", err.msg);
	check_card(t);
	fts_npu_trace_free(t);
}

static void expect_refusal(const char *name, const char *text, int code, const char *words)
{
	struct fts_npu_trace *t = (struct fts_npu_trace *)1;
	struct fts_err err = { 0 };
	const char *p = write_file(name, text);

	assert_int_equal(fts_npu_trace_read(p, &t, &err), code);
	assert_null(t);
	if (!strstr(err.msg, words))
		fail_msg("%s: message '%s' lacks '%s'", name, err.msg, words);
	assert_null(strchr(err.msg, '\n'));
}

static void test_refusals(void **state)
{
	(void)state;
	/* cut in the middle of an event */
	expect_refusal("cut.json", "[\n" META ",\n{\"ph\":\"X\",\"name\":\"a", -EINVAL,
		       "ends inside an event");
	expect_refusal("obj.json", "{\"traceEvents\": []}", -EINVAL, "a JSON object");
	expect_refusal("text.json", "hello", -EINVAL, "no '['");
	expect_refusal("garbage.json", "[{\"ph\":\"M\"} {\"ph\":\"M\"}]", -EINVAL, "no ',' or ']'");
	expect_refusal("badts.json",
		       "[" META ",{\"ph\":\"X\",\"name\":\"k\",\"pid\":900,\"tid\":2,\"ts\":\"-5\",\"dur\":1}]",
		       -EINVAL, "not microseconds");
	expect_refusal("nodev.json", "[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"Python\"}}]",
		       -ENODATA, "no \"Ascend Hardware\"");
	expect_refusal("notask.json", "[" META "]", -ENODATA, "no device tasks");
	expect_refusal("two.json",
		       "[" META ",{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":901,\"args\":{\"name\":\"Ascend Hardware\"}}]",
		       -ENOTSUP, "more than one");
	expect_refusal("empty.json", "", -EINVAL, "no '['");
}

static void mkdirs(const char *rel)
{
	char path[512], cmd[700];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
	assert_int_equal(system(cmd), 0);
}

static void test_list(void **state)
{
	struct fts_err err = { 0 };
	char want[1024], sub[512];
	char **paths;
	size_t n;

	(void)state;
	snprintf(sub, sizeof(sub), "%s/prof", dir);
	mkdirs("prof");
	assert_int_equal(fts_npu_trace_list(sub, &paths, &n, &err), -ENOENT);
	assert_null(paths);
	assert_non_null(strstr(err.msg, "no ASCEND_PROFILER_OUTPUT/trace_view.json"));
	/* one rank directory below the one given */
	mkdirs("prof/h_2_1_ascend_pt/ASCEND_PROFILER_OUTPUT");
	write_file("prof/h_2_1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", "[]");
	assert_int_equal(fts_npu_trace_list(sub, &paths, &n, &err), 0);
	assert_int_equal(n, 1);
	snprintf(want, sizeof(want), "%s/h_2_1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", sub);
	assert_string_equal(paths[0], want);
	fts_npu_list_free(paths, n);
	/* the rank directory itself */
	snprintf(sub, sizeof(sub), "%s/prof/h_2_1_ascend_pt", dir);
	assert_int_equal(fts_npu_trace_list(sub, &paths, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(paths[0], want);
	fts_npu_list_free(paths, n);
	/* eight cards, in name order; a directory without the file is no card */
	for (int i = 0; i < 8; i++) {
		char rel[128];

		if (i == 2)
			continue;
		snprintf(rel, sizeof(rel), "prof/h_%d_1_ascend_pt/ASCEND_PROFILER_OUTPUT", i);
		mkdirs(rel);
		snprintf(rel, sizeof(rel), "prof/h_%d_1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", i);
		write_file(rel, "[]");
	}
	mkdirs("prof/h_8_1_ascend_pt/FRAMEWORK");
	snprintf(sub, sizeof(sub), "%s/prof", dir);
	assert_int_equal(fts_npu_trace_list(sub, &paths, &n, &err), 0);
	assert_int_equal(n, 8);
	for (size_t i = 0; i < n; i++) {
		snprintf(want, sizeof(want), "%s/h_%zu_1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", sub, i);
		assert_string_equal(paths[i], want);
	}
	fts_npu_list_free(paths, n);
	snprintf(sub, sizeof(sub), "%s/nothere", dir);
	assert_int_equal(fts_npu_trace_list(sub, &paths, &n, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "cannot open the profiling directory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_meta_first),
		cmocka_unit_test(test_read_meta_last_one_line),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_list),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
