// SPDX-License-Identifier: MIT
/*
 * Unit tests for the open pipeline: several sinks at once through the tee,
 * staged progress in order, cancel at each stage leaving no file behind,
 * DB and JSON inputs replayed, the item span in the result (also with no
 * sink), fts_convert reporting the same stages and cancelling the same way,
 * and library messages that name no CLI flag.
 */
#include <dirent.h>
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

#include "ftscope/ftscope.h"
#include "ftscope/pipeline.h"
#include "core/pipeline/result_impl.h"

#define IRQ_TXT FTS_TEST_DATA "/irq/irq.txt"
#define IRQ_DAT FTS_TEST_DATA "/irq/irq.dat"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/fts_pipe_XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static void clean(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -f '%s'/*", dir);
	assert_int_equal(system(cmd), 0);
}

static char *path(const char *name)
{
	static char p[4][128];
	static int k;

	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

static long long q(const char *db, const char *sql)
{
	char cmd[512];
	long long v = -1;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "sqlite3 '%s' '%s'", db, sql);
	f = popen(cmd, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%lld", &v), 1);
	pclose(f);
	return v;
}

struct seen {
	enum fts_stage order[64];
	int n;
	int cancel_at;    /* stage to cancel at, or -1 */
	uint64_t items_max;
};

static int on_stage(void *ctx, const struct fts_progress *p)
{
	struct seen *s = ctx;

	if (s->n == 0 || s->order[s->n - 1] != p->stage)
		if (s->n < 64)
			s->order[s->n++] = p->stage;
	if (p->items > s->items_max)
		s->items_max = p->items;
	assert_non_null(p->unit);
	return (int)p->stage == s->cancel_at;
}

static int run(const char *input, const char *db, const char *json, struct seen *seen,
	       struct fts_pipeline_result *res, struct fts_err *err)
{
	struct fts_pipeline_opts o = { .input = input, .cs_rows = 1 };
	struct fts_sink *sinks[2] = { NULL, NULL };
	int n = 0, rc;

	if (seen) {
		o.progress = on_stage;
		o.progress_ctx = seen;
	}
	/* these inputs are known: skip the trace.dat probe helper */
	o.probed = 1;
	if (db)
		assert_int_equal(fts_sqlite_sink_create(db, NULL, &sinks[n++], err), 0);
	if (json)
		assert_int_equal(fts_json_sink_create(json, NULL, &sinks[n++], err), 0);
	rc = fts_pipeline_run(&o, sinks, n, res, err);
	for (int i = 0; i < n; i++)
		sinks[i]->destroy(sinks[i]);
	return rc;
}

/* One pass, two sinks: the DB and the JSON hold the same slices, and the stages come in order. */
static void test_tee_two_sinks(void **state)
{
	struct fts_pipeline_result res;
	struct fts_err err = { 0 };
	struct seen seen = { .cancel_at = -1 };
	char cmd[512];

	(void)state;
	clean();
	assert_int_equal(run(IRQ_TXT, path("ftrace_data.db"), path("t.json"), &seen, &res, &err), 0);
	assert_int_equal(res.input_kind, FTS_PIPE_TRACE);
	assert_true(res.items > 100);
	assert_int_equal(q(path("ftrace_data.db"), "select count(*) from slice"), (long long)res.items);
	snprintf(cmd, sizeof(cmd), "test $(grep -c '\"ph\":\"X\"' '%s') -eq %llu", path("t.json"),
		 (unsigned long long)res.items);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(entries(), 2);
	/* probe, clock, read, finish: in that order, each once */
	assert_int_equal(seen.n, 4);
	assert_int_equal(seen.order[0], FTS_STAGE_PROBE);
	assert_int_equal(seen.order[1], FTS_STAGE_CLOCK);
	assert_int_equal(seen.order[2], FTS_STAGE_READ);
	assert_int_equal(seen.order[3], FTS_STAGE_FINISH);
	assert_string_equal(fts_stage_name(FTS_STAGE_INDEX), "index");
}

/* Cancel at any stage: -ECANCELED, and neither output nor a temp file is left. */
static void test_cancel_leaves_nothing(void **state)
{
	enum fts_stage at[] = { FTS_STAGE_PROBE, FTS_STAGE_CLOCK, FTS_STAGE_READ, FTS_STAGE_FINISH };

	(void)state;
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		struct fts_err err = { 0 };
		struct seen seen = { .cancel_at = (int)at[i] };

		clean();
		assert_int_equal(run(IRQ_DAT, path("ftrace_data.db"), path("t.json"), &seen, NULL, &err),
				 -ECANCELED);
		assert_int_equal(entries(), 0);
	}
}

/* Cancels from the @from'th report of the finish stage on: the sinks ask while they finish. */
struct late {
	int finish_reports, from;
};

static int cancel_late(void *ctx, const struct fts_progress *p)
{
	struct late *l = ctx;

	return p->stage == FTS_STAGE_FINISH && ++l->finish_reports >= l->from;
}

/*
 * A cancel while a sink finishes (the DB's index built, the JSON's writer
 * joined, the file fsynced but not renamed) still leaves nothing: the DB
 * asks after its tables and again at the rename; the JSON after its writer
 * and at the rename. One report later there is no question left: published.
 */
static void test_cancel_while_finishing(void **state)
{
	struct fts_convert_opts co = { .input = IRQ_TXT, .cs_rows = 1 };
	struct fts_err err = { 0 };

	(void)state;
	co.progress = cancel_late;
	for (int json = 0; json < 2; json++) {
		co.format = json ? FTS_OUT_JSON : FTS_OUT_DB;
		co.output = path(json ? "ftrace_data.json" : "ftrace_data.db");
		for (int from = 2; from <= 4; from++) {
			struct late l = { .from = from };

			clean();
			co.progress_ctx = &l;
			if (from < 4) {
				assert_int_equal(fts_convert(&co, NULL, &err), -ECANCELED);
				assert_int_equal(entries(), 0);
			} else {
				assert_int_equal(fts_convert(&co, NULL, &err), 0);
				assert_int_equal(entries(), 1);
			}
			assert_int_equal(l.finish_reports, from < 4 ? from : 3);
		}
	}
}

/* An existing output survives a cancelled run untouched. */
static void test_cancel_keeps_old_output(void **state)
{
	struct fts_err err = { 0 };
	struct seen seen = { .cancel_at = FTS_STAGE_READ };
	struct stat a, b;

	(void)state;
	clean();
	assert_int_equal(run(IRQ_TXT, path("ftrace_data.db"), NULL, NULL, NULL, &err), 0);
	assert_int_equal(stat(path("ftrace_data.db"), &a), 0);
	assert_int_equal(run(IRQ_DAT, path("ftrace_data.db"), NULL, &seen, NULL, &err), -ECANCELED);
	assert_int_equal(stat(path("ftrace_data.db"), &b), 0);
	assert_int_equal(a.st_ino, b.st_ino);
	assert_int_equal(entries(), 1);
}

/* A DB and a JSON given as input are replayed: the same slices come out. */
static void test_replay_db_and_json(void **state)
{
	struct fts_pipeline_result r1, r2, r3;
	struct fts_err err = { 0 };

	(void)state;
	clean();
	assert_int_equal(run(IRQ_TXT, path("ftrace_data.db"), path("a.json"), NULL, &r1, &err), 0);
	assert_int_equal(run(path("ftrace_data.db"), path("ftrace_data2.db"), NULL, NULL, &r2, &err), 0);
	assert_int_equal(r2.input_kind, FTS_PIPE_DB);
	assert_int_equal(r2.rows, r1.items);
	assert_int_equal(r2.items, r1.items);
	assert_int_equal(run(path("a.json"), path("ftrace_data3.db"), NULL, NULL, &r3, &err), 0);
	assert_int_equal(r3.input_kind, FTS_PIPE_JSON);
	assert_int_equal(r3.items, r1.items);
	/* same rows, same args text, whichever way they came */
	{
		char cmd[1024];

		snprintf(cmd, sizeof(cmd),
			 "cd '%s' && test \"$(sqlite3 ftrace_data.db 'select timestamp,duration,name,args from slice order by 1,2,3,4' | md5sum)\" = "
			 "\"$(sqlite3 ftrace_data3.db 'select timestamp,duration,name,args from slice order by 1,2,3,4' | md5sum)\"",
			 dir);
		assert_int_equal(system(cmd), 0);
		snprintf(cmd, sizeof(cmd),
			 "cd '%s' && test \"$(sqlite3 ftrace_data.db 'select timestamp,duration,name,args from slice order by 1,2,3,4' | md5sum)\" = "
			 "\"$(sqlite3 ftrace_data2.db 'select timestamp,duration,name,args from slice order by 1,2,3,4' | md5sum)\"",
			 dir);
		assert_int_equal(system(cmd), 0);
	}
}

/* A sink that finds the span itself, to check the result's. */
struct span_sink {
	struct fts_sink base;
	uint64_t n, lo, hi;
};

static int sp_lane(struct fts_sink *s, const struct fts_lane *l, struct fts_err *e)
{
	(void)s; (void)l; (void)e;
	return 0;
}

static int sp_item(struct fts_sink *s, const struct fts_item *it, struct fts_err *e)
{
	struct span_sink *sp = (struct span_sink *)s;

	(void)e;
	if (!sp->n || it->ts < sp->lo)
		sp->lo = it->ts;
	if (!sp->n || it->ts + it->dur > sp->hi)
		sp->hi = it->ts + it->dur;
	sp->n++;
	return 0;
}

static int sp_finish(struct fts_sink *s, int ok, struct fts_err *e)
{
	(void)s; (void)ok; (void)e;
	return 0;
}

static void sp_destroy(struct fts_sink *s)
{
	(void)s;
}

/*
 * The result carries the items' span, with sinks or with none at all; read
 * through the public accessors, as a C caller must (the struct is opaque).
 */
static void test_span_in_result(void **state)
{
	struct span_sink sp = { .base = { sp_lane, sp_item, sp_finish, sp_destroy, NULL } };
	struct fts_sink *sinks[1] = { &sp.base };
	struct fts_pipeline_opts o = { .input = IRQ_DAT, .cs_rows = 1, .probed = 1 };
	struct fts_pipeline_result *r1 = fts_pipeline_result_new(), *r2 = fts_pipeline_result_new();
	struct fts_err err = { 0 };
	uint64_t lo1, hi1, lo2, hi2;
	uint32_t mapped = 7;

	(void)state;
	assert_non_null(r1);
	assert_non_null(r2);
	/* a new result counts nothing */
	assert_int_equal(fts_pipeline_result_items(r1, &lo1, &hi1), 0);
	assert_int_equal(lo1, 0);
	assert_int_equal(hi1, 0);
	assert_int_equal(fts_pipeline_run(&o, sinks, 1, r1, &err), 0);
	assert_true(sp.n > 100);
	assert_int_equal(fts_pipeline_result_items(r1, &lo1, &hi1), sp.n);
	assert_int_equal(lo1, sp.lo);
	assert_int_equal(hi1, sp.hi);
	assert_true(lo1 < hi1);
	assert_int_equal(fts_pipeline_result_input(r1), FTS_PIPE_TRACE);
	assert_int_equal(fts_pipeline_result_format(r1), FTS_FMT_DAT);
	assert_true(fts_pipeline_result_read(r1)->events > 0);
	assert_int_equal(fts_pipeline_result_rows(r1), 0);
	assert_int_equal(fts_pipeline_result_pidmap(r1, &mapped), 0);
	assert_int_equal(mapped, 0);
	assert_true(fts_pipeline_result_seconds(r1) > 0);
	assert_int_equal(fts_timemap_base(fts_pipeline_result_time(r1)), FTS_TIME_RAW);   /* no clock pair in it */
	assert_int_equal(fts_pipeline_result_loss(r1)->any, 0);
	/* no sink: the same counters and span, nothing written anywhere */
	assert_int_equal(fts_pipeline_run(&o, NULL, 0, r2, &err), 0);
	assert_int_equal(fts_pipeline_result_items(r2, &lo2, &hi2), fts_pipeline_result_items(r1, NULL, NULL));
	assert_int_equal(lo2, lo1);
	assert_int_equal(hi2, hi1);
	assert_int_equal(fts_pipeline_result_model(r2)->cpu_slices, fts_pipeline_result_model(r1)->cpu_slices);
	/* a failed run: no items, no span */
	o.input = FTS_TEST_DATA "/bad/garbage.txt";
	assert_true(fts_pipeline_run(&o, NULL, 0, r2, &err) < 0);
	assert_int_equal(fts_pipeline_result_items(r2, &lo2, &hi2), 0);
	assert_int_equal(lo2, 0);
	assert_int_equal(hi2, 0);
	fts_pipeline_result_free(r1);
	fts_pipeline_result_free(r2);
	fts_pipeline_result_free(NULL);
}

/* fts_convert reports the pipeline's stages, fills its result and cancels at any stage. */
static void test_convert_progress_and_cancel(void **state)
{
	enum fts_stage at[] = { FTS_STAGE_PROBE, FTS_STAGE_CLOCK, FTS_STAGE_READ, FTS_STAGE_FINISH };
	struct fts_convert_opts co = { .input = IRQ_DAT, .format = FTS_OUT_DB, .cs_rows = 1 };
	struct seen seen = { .cancel_at = -1 };
	struct fts_pipeline_result res;
	struct fts_err err = { 0 };

	(void)state;
	clean();
	co.output = path("ftrace_data.db");
	co.progress = on_stage;
	co.progress_ctx = &seen;
	assert_int_equal(fts_convert(&co, &res, &err), 0);
	assert_int_equal(seen.n, 4);
	for (int i = 0; i < 4; i++)
		assert_int_equal(seen.order[i], at[i]);
	assert_int_equal(res.input_kind, FTS_PIPE_TRACE);
	assert_int_equal(res.input_format, FTS_FMT_DAT);
	assert_true(res.items > 100);
	assert_true(res.span_lo < res.span_hi);
	assert_int_equal(q(co.output, "select count(*) from slice"), (long long)res.items);
	assert_int_equal(q(co.output, "select min(timestamp) from slice"), (long long)res.span_lo);
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		struct seen c = { .cancel_at = (int)at[i] };

		clean();
		co.progress_ctx = &c;
		co.format = i % 2 ? FTS_OUT_JSON : FTS_OUT_DB;
		co.output = path(i % 2 ? "ftrace_data.json" : "ftrace_data.db");
		assert_int_equal(fts_convert(&co, &res, &err), -ECANCELED);
		assert_int_equal(entries(), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tee_two_sinks),
		cmocka_unit_test(test_cancel_leaves_nothing),
		cmocka_unit_test(test_cancel_while_finishing),
		cmocka_unit_test(test_cancel_keeps_old_output),
		cmocka_unit_test(test_replay_db_and_json),
		cmocka_unit_test(test_span_in_result),
		cmocka_unit_test(test_convert_progress_and_cancel),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
