// SPDX-License-Identifier: MIT
/*
 * test_untrusted_db.c - an ftrace DB read back is never written, and the
 * row callback's own code comes back as it is (db_read.c used to mix it up
 * with SQLite's result codes and report "reading its slice table failed").
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

#include "ftscope/ftscope.h"
#include "core/readback/readback.h"

#define SAMPLE FTS_ASSETS "/sample/sample.txt"

struct counts {
	int lanes, rows, stop_at;
};

static int on_lane(void *ctx, const struct fts_lane *lane, struct fts_err *err)
{
	(void)lane;
	(void)err;
	((struct counts *)ctx)->lanes++;
	return 0;
}

static int on_row(void *ctx, const struct fts_rb_row *row, struct fts_err *err)
{
	struct counts *c = ctx;

	(void)row;
	(void)err;
	return ++c->rows == c->stop_at ? 7 : 0;
}

static void make_db(char *dir, char *db, size_t len)
{
	struct fts_convert_opts o = { .input = SAMPLE, .format = FTS_OUT_DB, .cs_rows = 1 };
	struct fts_err err = { 0 };

	assert_non_null(mkdtemp(dir));
	snprintf(db, len, "%s/ftrace_data.db", dir);
	o.output = db;
	assert_int_equal(fts_convert(&o, NULL, &err), 0);
}

static void test_row_code_kept(void **state)
{
	char dir[] = "/tmp/fts-untrusted-XXXXXX", db[128];
	struct counts c = { .stop_at = 3 };
	struct fts_rb_ops ops = { .lane = on_lane, .row = on_row, .ctx = &c };
	struct fts_err err = { 0 };
	uint64_t rows = 0;

	(void)state;
	make_db(dir, db, sizeof(db));
	assert_int_equal(fts_db_readback(db, &ops, &rows, &err), 7);
	assert_null(strstr(err.msg, "slice table"));
	assert_int_equal(c.rows, 3);
	unlink(db);
	rmdir(dir);
}

static void test_read_writes_nothing(void **state)
{
	char dir[] = "/tmp/fts-untrusted-XXXXXX", db[128], cmd[512];
	struct counts c = { 0 };
	struct fts_rb_ops ops = { .lane = on_lane, .row = on_row, .ctx = &c };
	struct fts_err err = { 0 };
	struct stat before, after;
	uint64_t rows = 0;

	(void)state;
	make_db(dir, db, sizeof(db));
	assert_int_equal(stat(db, &before), 0);
	assert_int_equal(fts_db_readback(db, &ops, &rows, &err), 0);
	assert_true(rows > 0);
	assert_true(c.lanes > 0);
	assert_int_equal(stat(db, &after), 0);
	assert_int_equal(before.st_size, after.st_size);
	assert_int_equal(before.st_mtim.tv_sec, after.st_mtim.tv_sec);
	assert_int_equal(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
	/* nothing created beside it (no journal, no WAL) */
	snprintf(cmd, sizeof(cmd), "test \"$(ls -A '%s')\" = ftrace_data.db", dir);
	assert_int_equal(system(cmd), 0);
	unlink(db);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row_code_kept),
		cmocka_unit_test(test_read_writes_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
