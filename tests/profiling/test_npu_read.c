// SPDX-License-Identifier: MIT
/*
 * The two readers of one card (npu.h: trace_view.json and the profiler DB)
 * on gen.py's fixtures: every array of a text/DB pair of one run equal
 * field by field (but the Free lane, which only the text type has), the
 * variations landing where they must (device pids past 2^31, the HCCL-ended
 * launch, the id ending twice, steps), Level0/1/2; and the microsecond
 * parser on the forms real files use (exponents, five decimals, none).
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

#include "ftscope/npu.h"
#include "core/readback/readback.h"

#define T0 1795968970952116000ull
#define MS 1000000ull

static char dir[256];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s/fts-npu-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[400];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static void us(const char *s, int ok, uint64_t want)
{
	uint64_t ns = 12345;

	assert_int_equal(fts_json_us_to_ns(s, &ns), ok ? 0 : -1);
	if (ok && ns != want)
		fail_msg("%s: %llu ns, not %llu", s, (unsigned long long)ns, (unsigned long long)want);
}

static void us_forms(void **state)
{
	(void)state;
	us("2e3", 1, 2000000);          /* was 2 us: the exponent was dropped */
	us("2E+3", 1, 2000000);
	us("2.5e-1", 1, 250);
	us("1.5e-4", 1, 0);
	us("840.07675", 1, 840076);
	us("1736405443876953.510", 1, 1736405443876953510ull);
	us("1736405444092247", 1, 1736405444092247000ull);
	us("0.001", 1, 1);
	us("0", 1, 0);
	us("0e99999", 1, 0);
	us("1e-400", 1, 0);
	us("0.0000000000000000000000000000000000000000000000000123e48", 1, 12);
	us("1736405443.876953510e6", 1, 1736405443876953510ull);
	us("4000000000000000", 1, 4000000000000000000ull);
	us("4000000000000000.999", 1, 4000000000000000999ull);
	us("4000000000000001", 0, 0);
	us("1e400", 0, 0);
	us("1e16", 0, 0);
	us("99999999999999999999999", 0, 0);
	us("-1", 0, 0);
	us("", 0, 0);
	us(".5", 0, 0);
	us("1e", 0, 0);
	us("1e+", 0, 0);
	us("1.2.3", 0, 0);
	us("12x", 0, 0);
	us("true", 0, 0);
}

/* gen.py's rank @name of @type at @level; returns the card file's path. */
static const char *gen(const char *name, const char *type, int level, char *path, size_t len)
{
	const char *src = getenv("FTS_SRC");
	char cmd[1024];

	if (!src || system("python3 -c 'import sqlite3' 2>/dev/null"))
		skip();
	snprintf(cmd, sizeof(cmd), "python3 '%s/tests/profiling/gen.py' '%s/%s' --t0-ns %llu --type %s --level %d",
		 src, dir, name, (unsigned long long)T0, type, level);
	assert_int_equal(system(cmd), 0);
	snprintf(path, len, "%s/%s/ASCEND_PROFILER_OUTPUT/%s", dir, name,
		 strcmp(type, "db") ? "trace_view.json" : "ascend_pytorch_profiler_0.db");
	return path;
}

static struct fts_npu_trace *read_ok(const char *path)
{
	struct fts_npu_trace *t = NULL;
	struct fts_err err = { 0 };

	if (fts_npu_trace_read(path, &t, &err))
		fail_msg("%s", err.msg);
	return t;
}

/* What gen.py's scenario holds, whichever the type. */
static void check_scenario(const struct fts_npu_trace *t)
{
	int hccl = 0, twice = 0;

	assert_int_equal(t->nbusy, 13);          /* 3 steps x 4 tasks, a split task */
	assert_int_equal(t->nstreams, 3);
	assert_int_equal(t->ncomm, 1);
	assert_int_equal(t->nflows, 12 + 11);    /* launches, async_npu */
	assert_int_equal(t->unpaired_flows, 0);
	assert_int_equal(t->python_pid, 1);
	assert_int_equal(t->nthreads, 2);
	assert_int_equal(t->threads[0].tid, 1);
	assert_string_equal(t->threads[1].name, "Thread 3");
	assert_int_equal(t->nsteps, 3);
	for (uint32_t i = 0; i < 3; i++) {
		assert_int_equal(t->steps[i].number, 50 + i);
		assert_int_equal(t->steps[i].ts, T0 + i * 40 * MS);
		assert_int_equal(t->steps[i].dur, 39 * MS + 500000);
	}
	for (size_t i = 0; i < t->nflows; i++) {
		const struct fts_npu_flow *f = &t->flows[i];

		/* the HCCL-ended launch: step 1, launch 3, device at +1 ms */
		hccl += f->kind == 0 && f->dev_ts == T0 + 40 * MS + 31 * MS && f->host_tid == 3;
		/* the id ending twice: its first end (step 2, launch 0), not the split task */
		twice += f->kind == 0 && f->dev_ts == T0 + 80 * MS + MS;
		assert_false(f->dev_ts == T0 + 80 * MS + 3200000);
		if (i)
			assert_true(f->dev_ts >= t->flows[i - 1].dev_ts);
	}
	assert_int_equal(hccl, 1);
	assert_int_equal(twice, 1);
	for (size_t i = 0; i < t->nbusy; i++) {
		if (!strcmp(fts_npu_name(t, t->busy[i].name), "MatMul_1"))
			assert_int_equal(t->busy[i].dur, 2000076);   /* "2000.07675" */
		if (!strcmp(fts_npu_name(t, t->busy[i].name), "MatMul_0"))
			assert_int_equal(t->busy[i].dur, 2000000);   /* "2e3" */
	}
}

static void same(const struct fts_npu_trace *a, const struct fts_npu_trace *b)
{
	assert_int_equal(a->nbusy, b->nbusy);
	for (size_t i = 0; i < a->nbusy; i++) {
		assert_int_equal(a->busy[i].ts, b->busy[i].ts);
		assert_int_equal(a->busy[i].dur, b->busy[i].dur);
		assert_int_equal(a->busy[i].stream, b->busy[i].stream);
		assert_string_equal(fts_npu_name(a, a->busy[i].name), fts_npu_name(b, b->busy[i].name));
	}
	assert_int_equal(a->nflows, b->nflows);
	assert_memory_equal(a->flows, b->flows, a->nflows * sizeof(*a->flows));
	assert_int_equal(a->nops, b->nops);
	for (size_t i = 0; i < a->nops; i++) {
		assert_int_equal(a->ops[i].ts, b->ops[i].ts);
		assert_int_equal(a->ops[i].dur, b->ops[i].dur);
		assert_int_equal(a->ops[i].tid, b->ops[i].tid);
		assert_string_equal(fts_npu_name(a, a->ops[i].name), fts_npu_name(b, b->ops[i].name));
	}
	assert_int_equal(a->nsteps, b->nsteps);
	for (size_t i = 0; i < a->nsteps; i++) {
		assert_int_equal(a->steps[i].ts, b->steps[i].ts);
		assert_int_equal(a->steps[i].dur, b->steps[i].dur);
		assert_int_equal(a->steps[i].number, b->steps[i].number);
	}
	assert_int_equal(a->nthreads, b->nthreads);
	for (size_t i = 0; i < a->nthreads; i++) {
		assert_int_equal(a->threads[i].pid, b->threads[i].pid);
		assert_int_equal(a->threads[i].tid, b->threads[i].tid);
		assert_string_equal(a->threads[i].name, b->threads[i].name);
	}
	assert_int_equal(a->ncomm, b->ncomm);
	assert_int_equal(a->comm[0].ts, b->comm[0].ts);
	assert_int_equal(a->comm[0].dur, b->comm[0].dur);
}

static void text_db_pair(void **state)
{
	char pt[512], pd[512], name[32];

	(void)state;
	for (int level = 0; level <= 2; level++) {
		struct fts_npu_trace *t, *d;

		snprintf(name, sizeof(name), "t%d", level);
		t = read_ok(gen(name, "text", level, pt, sizeof(pt)));
		snprintf(name, sizeof(name), "d%d", level);
		d = read_ok(gen(name, "db", level, pd, sizeof(pd)));
		check_scenario(t);
		check_scenario(d);
		same(t, d);
		assert_int_equal(t->nfree, 12);  /* the profiler's Free lane: the gaps */
		assert_int_equal(d->nfree, 0);   /* the DB has none */
		fts_npu_trace_free(t);
		fts_npu_trace_free(d);
	}
}

/* A rank with both types gives its text; one with the DB only, the DB. */
static void listing(void **state)
{
	char p[512], sub[300];
	char **paths = NULL;
	struct fts_err err = { 0 };
	size_t n = 0;

	(void)state;
	gen("both_pt", "both", 1, p, sizeof(p));
	gen("dbonly_pt", "db", 1, p, sizeof(p));
	snprintf(sub, sizeof(sub), "%s/both_pt", dir);
	assert_int_equal(fts_npu_trace_list(sub, &paths, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_non_null(strstr(paths[0], "/trace_view.json"));
	fts_npu_list_free(paths, n);
	assert_int_equal(fts_npu_trace_list(dir, &paths, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_non_null(strstr(paths[0], "both_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"));
	assert_non_null(strstr(paths[1], "dbonly_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db"));
	fts_npu_list_free(paths, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(us_forms),
		cmocka_unit_test_setup_teardown(text_db_pair, setup, teardown),
		cmocka_unit_test_setup_teardown(listing, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
