// SPDX-License-Identifier: MIT
/*
 * test_home_export.c - the curses-free halves of the home and export screens
 * (issue 15, defects 5, 7, 8, 10, 14, 17 and the loss line): the path
 * completion of the line editor, the home list's directories and paths, the
 * export's progress words, the pid map rule, and the loss an export counts
 * against the preview store's (the one loss model).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <ftscope/ftscope.h>
#include <ftscope/preview.h>

#include "tui/widgets/keys.h"
#include "tui/widgets/line_edit.h"
#include "tui/session/export_job.h"
#include "tui/session/export_plan.h"
#include "tui/session/home_model.h"

static char tmpdir[256];

static void touch(const char *name)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
}

static void sub(const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	assert_int_equal(mkdir(path, 0755), 0);
}

static int setup_dir(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/fts_homeexp_XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	return 0;
}

static int remove_dir(void **state)
{
	char cmd[512];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd);
}

static void type(struct fts_line_edit *e, const char *s)
{
	for (; *s; s++)
		fts_edit_key(e, *s);
}

/* Tab completes paths where the caller asked for it, and stays a no-op elsewhere. */
static void test_path_completion(void **state)
{
	struct fts_line_edit e;
	char start[512];

	(void)state;
	touch("abc_1.dat");
	touch("abc_2.dat");
	touch(".hidden");
	sub("runs");
	touch("runs/trace.dat");
	snprintf(start, sizeof(start), "%s/", tmpdir);

	/* without a hook (the setup screen's fields), Tab changes nothing */
	memset(&e, 0, sizeof(e));
	fts_edit_begin(&e, 1, start);
	type(&e, "ab");
	assert_int_equal(fts_edit_key(&e, FTS_KEY_TAB), FTS_EDIT_GOING);
	assert_non_null(strstr(e.buf, "/ab"));
	assert_int_equal(strlen(strstr(e.buf, "/ab")), 3);

	/* with the path hook: the common prefix, and the candidates named */
	fts_edit_begin(&e, 1, start);
	fts_edit_complete_with(&e, fts_edit_complete_path);
	type(&e, "ab");
	fts_edit_key(&e, FTS_KEY_TAB);
	assert_string_equal(strrchr(e.buf, '/'), "/abc_");
	assert_int_equal(e.len, strlen(e.buf));
	assert_non_null(strstr(e.hint, "2 matches"));
	type(&e, "2");
	assert_string_equal(e.hint, "");  /* typing clears the note */
	fts_edit_key(&e, FTS_KEY_TAB);
	assert_string_equal(strrchr(e.buf, '/'), "/abc_2.dat");

	/* a single directory gets its slash; then inside it */
	fts_edit_begin(&e, 1, start);
	fts_edit_complete_with(&e, fts_edit_complete_path);
	type(&e, "r");
	fts_edit_key(&e, FTS_KEY_TAB);
	assert_non_null(strstr(e.buf, "/runs/"));
	fts_edit_key(&e, FTS_KEY_TAB);
	assert_non_null(strstr(e.buf, "/runs/trace.dat"));

	/* hidden names only when asked for; no match says so */
	fts_edit_begin(&e, 1, start);
	fts_edit_complete_with(&e, fts_edit_complete_path);
	type(&e, "zz");
	fts_edit_key(&e, FTS_KEY_TAB);
	assert_string_equal(e.hint, "no match");
	fts_edit_begin(&e, 1, start);
	fts_edit_complete_with(&e, fts_edit_complete_path);
	assert_string_equal(e.hint, "");
	type(&e, ".h");
	fts_edit_key(&e, FTS_KEY_TAB);
	assert_non_null(strstr(e.buf, "/.hidden"));
	/* the directory prompt's hook: only directories */
	fts_edit_begin(&e, 1, start);
	fts_edit_complete_with(&e, fts_edit_complete_dir);
	type(&e, "a");
	fts_edit_key(&e, FTS_KEY_TAB);
	assert_string_equal(strrchr(e.buf, '/'), "/a");
	assert_string_equal(e.hint, "no match");
	/* fts_edit_begin clears the hook: the next field is plain again */
	fts_edit_begin(&e, 2, "");
	assert_null(e.complete);
}

static void test_home_join(void **state)
{
	char b[256];

	(void)state;
	assert_string_equal(fts_home_join(".", "x", b, sizeof(b)), "x");
	assert_string_equal(fts_home_join("x", "..", b, sizeof(b)), ".");
	assert_string_equal(fts_home_join(".", "..", b, sizeof(b)), "..");
	assert_string_equal(fts_home_join("..", "..", b, sizeof(b)), "../..");
	assert_string_equal(fts_home_join("/a", "..", b, sizeof(b)), "/");
	assert_string_equal(fts_home_join("/", "..", b, sizeof(b)), "/");
	assert_string_equal(fts_home_join("/a/b", "c", b, sizeof(b)), "/a/b/c");
	assert_string_equal(fts_home_join("a/b/", "../c", b, sizeof(b)), "a/c");
}

/* Defect 14: directories first, every input kind by content (a trace-cmd report too). */
static void test_home_scan_all(void **state)
{
	struct fts_home_list l;
	struct fts_err err = { 0 };
	char cmd[1024];

	(void)state;
	sub("b_dir");
	sub("a_dir");
	sub(".git");
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s/capture.out'", FTS_ASSETS "/sample/sample.report", tmpdir);
	assert_int_equal(system(cmd), 0);
	touch("notes.md");
	assert_int_equal(fts_home_scan_all(tmpdir, 100, &l, &err), 0);
	assert_int_equal(l.ndirs, 3);
	assert_string_equal(l.e[0].name, "..");
	assert_string_equal(l.e[1].name, "a_dir");
	assert_string_equal(l.e[2].name, "b_dir");
	assert_int_equal(l.e[2].kind, FTS_HOME_DIR);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.e[3].name, "capture.out");
	assert_int_equal(l.e[3].kind, FTS_HOME_TEXT);
	assert_int_equal(fts_home_find(&l, "capture.out"), 3);
	assert_int_equal(fts_home_find(&l, "notes.md"), -1);
	assert_int_equal(l.skipped, 1);
	fts_home_list_free(&l);
}

/* Defect 7: an ETA is a time, a read without a total uses the input's size, finishing moves. */
static void test_progress_text(void **state)
{
	struct fts_progress p = { .stage = FTS_STAGE_READ, .done = 32u << 20, .total = 0, .unit = "bytes",
				  .events = 263000, .items = 379400, .elapsed_s = 2.0 };
	char l1[300], l2[300];
	double f;

	(void)state;
	fts_export_progress_text(&p, 2.0, 0.0, 2.5, 64u << 20, l1, l2, sizeof(l1), &f);
	assert_string_equal(l1, "read: 32.0 MiB of 64.0 MiB, 16.0 MiB/s, ETA 2.0 s; 2.5 s so far");
	assert_string_equal(l2, "263.0k events read, 379.4k items written");
	assert_float_equal(f, 0.5, 1e-9);
	/* between reports the ETA counts down, not up */
	fts_export_progress_text(&p, 2.5, 0.5, 3.0, 64u << 20, l1, l2, sizeof(l1), &f);
	assert_non_null(strstr(l1, "ETA 1.5 s; 3.0 s so far"));
	/* nothing read yet: no rate, no ETA, but the clock runs */
	p.done = 0;
	p.elapsed_s = 0.2;
	fts_export_progress_text(&p, 0.7, 0.5, 0.7, 64u << 20, l1, l2, sizeof(l1), &f);
	assert_string_equal(l1, "read: 0 B of 64.0 MiB, 0 B/s, ETA ?; 0.7 s so far");
	/* the commit: reported once, the stage clock moves */
	p.stage = FTS_STAGE_FINISH;
	fts_export_progress_text(&p, 1.3, 1.3, 5.0, 64u << 20, l1, l2, sizeof(l1), &f);
	assert_string_equal(l1, "finish: commit and indexes, 1.3 s; 5.0 s so far");
	assert_float_equal(f, 1.0, 1e-9);
	p.stage = FTS_STAGE_CLOCK;
	fts_export_progress_text(&p, 0.4, 0.4, 0.4, 64u << 20, l1, l2, sizeof(l1), &f);
	assert_non_null(strstr(l1, "clock: looking for the recorder's clock pair, 0.4 s"));
}

/* Defect 10: a pid map written with the capture, not an older run's. */
static void test_pidmap_fits(void **state)
{
	(void)state;
	assert_true(fts_export_pidmap_fits(100000, 100000));
	assert_true(fts_export_pidmap_fits(100000, 100000 - 300));  /* assembling the capture took 5 min */
	assert_true(fts_export_pidmap_fits(100000, 100000 + 30));
	assert_false(fts_export_pidmap_fits(100000, 100000 - 3 * 3600));
	assert_false(fts_export_pidmap_fits(100000, 100000 + 3600));
}

/* Defect 5: a DB or JSON is not exported again, and the words say why. */
static void test_refusal(void **state)
{
	(void)state;
	assert_non_null(strstr(fts_export_refusal(1), "DB is already an export"));
	/* its links are carried by convert now (issue 33): not a reason any more */
	assert_null(strstr(fts_export_refusal(1), "lose"));
	assert_non_null(strstr(fts_export_refusal(1), "no profiling window or pid map applies"));
	assert_non_null(strstr(fts_export_refusal(0), "JSON is already an export"));
}

/*
 * The loss line: an export of a lossy capture reports, in the one loss
 * model, what the preview store counts for the same file; never "none" then.
 */
static void test_export_loss(void **state)
{
	struct fts_export_plan *p = calloc(1, sizeof(*p));
	struct fts_pipeline_result *res = NULL;
	struct fts_store_open_opts so = { 0 };
	struct fts_store *store = NULL;
	struct fts_export_job *j;
	struct fts_err err = { 0 };
	char b[400];

	(void)state;
	assert_non_null(p);
	snprintf(p->input, sizeof(p->input), "%s", FTS_TEST_DATA "/dat/lost.dat");
	snprintf(p->output, sizeof(p->output), "%s/ftrace_data.db", tmpdir);
	assert_int_equal(fts_export_job_start(FTS_JOB_EXPORT, p, NULL, &j), 0);
	while (!fts_export_job_done(j))
		usleep(10000);
	assert_int_equal(fts_export_job_result(j, &res, &err), 0);
	assert_non_null(res);
	assert_true(fts_pipeline_result_loss(res)->any);
	assert_string_not_equal(fts_pipeline_result_loss(res)->text, "none");
	so.path = p->input;
	assert_int_equal(fts_store_open(&so, &store, &err), 0);
	fts_loss_text(fts_store_loss(store), 4, b, sizeof(b));
	assert_string_equal(fts_pipeline_result_loss(res)->text, b);
	fts_store_free(store);
	fts_export_job_free(j);
	fts_pipeline_result_free(res);
	free(p);
}

static void put_file(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A profiling directory the plan knows preselects the format that joins it, and says why. */
static void test_export_prefer_format(void **state)
{
	struct fts_export_plan *p = calloc(1, sizeof(*p));

	(void)state;
	assert_non_null(p);
	sub("h_ascend_pt");
	sub("h_ascend_pt/ASCEND_PROFILER_OUTPUT");
	put_file("h_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", "[]");
	snprintf(p->input, sizeof(p->input), "%s", FTS_TEST_DATA "/dat/lost.dat");
	snprintf(p->output, sizeof(p->output), "%s/ftrace_data.db", tmpdir);
	/* no profiling directory: nothing preselected */
	fts_export_check(p);
	assert_int_equal(p->kind_known, 0);
	assert_int_equal(fts_export_prefer_format(p), 0);
	/* text-only: JSON, for older Insight's "File Conflict" */
	snprintf(p->profiling, sizeof(p->profiling), "%s", tmpdir);
	fts_export_check(p);
	assert_int_equal(p->kind_known, 1);
	assert_int_equal(p->kind_json, 1);
	assert_non_null(strstr(p->kind_note, "text-only"));
	assert_int_equal(fts_export_prefer_format(p), 1);
	p->json = 1;
	assert_int_equal(fts_export_prefer_format(p), 0);
	/* the same directory with DB output as well: DB */
	put_file("h_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db", "");
	fts_export_check(p);
	assert_int_equal(p->kind_json, 0);
	assert_non_null(strstr(p->kind_note, "DB output"));
	assert_int_equal(fts_export_prefer_format(p), 1);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_path_completion, setup_dir, remove_dir),
		cmocka_unit_test(test_home_join),
		cmocka_unit_test_setup_teardown(test_home_scan_all, setup_dir, remove_dir),
		cmocka_unit_test(test_progress_text),
		cmocka_unit_test(test_pidmap_fits),
		cmocka_unit_test(test_refusal),
		cmocka_unit_test_setup_teardown(test_export_loss, setup_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_export_prefer_format, setup_dir, remove_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
