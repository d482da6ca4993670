// SPDX-License-Identifier: MIT
/*
 * The DB and JSON read-back (issue 21): cancelling works while SQLite itself
 * is busy (loading the lanes, before any row) and in the middle of a one-line
 * JSON; members are picked whatever their number and order; the DB sink's
 * UTF-8 sanitiser agrees with the JSON escaper.
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
#include <sqlite3.h>

#include "core/readback/readback.h"
#include "core/internal.h"

struct counts {
	uint64_t lanes, rows, reports;
	uint64_t cancel_at;   /* cancel at this report (1: the first); 0: never */
};

static int on_lane(void *ctx, const struct fts_lane *l, struct fts_err *err)
{
	(void)l, (void)err;
	((struct counts *)ctx)->lanes++;
	return 0;
}

static int on_row(void *ctx, const struct fts_rb_row *r, struct fts_err *err)
{
	(void)r, (void)err;
	((struct counts *)ctx)->rows++;
	return 0;
}

static int on_progress(void *ctx, uint64_t done, uint64_t total, uint64_t rows)
{
	struct counts *c = ctx;

	(void)done, (void)total, (void)rows;
	return ++c->reports == c->cancel_at;
}

static void tmp_path(char *p, size_t n, const char *suffix)
{
	snprintf(p, n, "%s/fts-rb-%d%s", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid(),
		 suffix);
	unlink(p);
}

/* An ftrace DB's two tables at @path, filled by @fill (SQL). */
static void make_db(const char *path, const char *fill)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
		"CREATE TABLE thread (track_id INTEGER PRIMARY KEY, tid TEXT, pid TEXT);"
		"CREATE TABLE slice (id INTEGER PRIMARY KEY, timestamp INTEGER, duration INTEGER,"
		" name TEXT, track_id INTEGER, args TEXT);", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, fill, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/* 300k task lanes: reading the thread table alone is seconds of SQLite work. */
static void make_many_lanes(const char *path)
{
	make_db(path,
		"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r LIMIT 300000)"
		" INSERT INTO thread SELECT n, 'task:' || n, 'Process Scheduling' FROM r;"
		"INSERT INTO slice VALUES (1, 1000, 10, 'Running', 1, '{}');");
}

static void test_db_cancel_while_sqlite_works(void **state)
{
	struct counts c = { .cancel_at = 1 };
	struct fts_rb_ops ops = { on_lane, on_row, on_progress, &c, NULL };
	struct fts_err err = { 0 };
	char path[256];
	uint64_t rows = 0;

	(void)state;
	tmp_path(path, sizeof(path), ".db");
	make_many_lanes(path);
	assert_int_equal(fts_db_readback(path, &ops, &rows, &err), -ECANCELED);
	assert_int_equal(c.lanes, 0);   /* cancelled inside the thread scan */
	assert_int_equal(c.rows, 0);
	/* and the same file reads whole when nobody cancels */
	memset(&c, 0, sizeof(c));
	assert_int_equal(fts_db_readback(path, &ops, &rows, &err), 0);
	assert_int_equal(c.lanes, 300000);
	assert_int_equal(rows, 1);
	unlink(path);
}

/* 150k slices on one task lane, slice n at ts 1000 + n with args {"n": "<n>"} */
static void make_many_rows(const char *path)
{
	make_db(path,
		"INSERT INTO thread VALUES (1, 'task:1', 'Process Scheduling');"
		"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r LIMIT 150000)"
		" INSERT INTO slice SELECT n, 1000 + n, 1, 'Running', 1, '{\"n\": \"' || n || '\"}' FROM r;");
}

struct ordered {
	uint64_t rows, stop_at, bad;
	int64_t last_ts;
};

/* Rows come in file order, each with its own args (split on the scan thread or here). */
static int on_ordered(void *ctx, const struct fts_rb_row *r, struct fts_err *err)
{
	struct ordered *o = ctx;
	char want[32];

	o->rows++;
	snprintf(want, sizeof(want), "%lld", (long long)(r->ts - 1000));
	if ((int64_t)r->ts != o->last_ts + 1)
		o->bad++;
	o->last_ts = (int64_t)r->ts;
	if (r->parsed) {
		if (r->nparsed != 1 || strcmp(r->parsed[0].key, "n") || strcmp(r->parsed[0].val, want))
			o->bad++;
	} else if (!r->args || !strstr(r->args, want)) {
		o->bad++;
	}
	if (o->rows == o->stop_at)
		return fts_err_set(err, -EPIPE, "stop here");
	return 0;
}

static int on_lane_quiet(void *ctx, const struct fts_lane *l, struct fts_err *err)
{
	(void)ctx, (void)l, (void)err;
	return 0;
}

/*
 * Issue 20: SQLite steps on a second thread, rows handed over in batches:
 * every row arrives once, in order, with its args; a row callback's error
 * stops the scan at that row; a progress cancel stops it too; no hang.
 */
static void test_db_scan_thread(void **state)
{
	struct ordered o = { .last_ts = 1000 };
	struct counts c = { .cancel_at = 1 };
	struct fts_rb_ops ops = { on_lane_quiet, on_ordered, NULL, &o, NULL };
	struct fts_rb_ops cops = { on_lane, on_row, on_progress, &c, NULL };
	struct fts_err err = { 0 };
	char path[256];
	uint64_t rows = 0;

	(void)state;
	tmp_path(path, sizeof(path), "-rows.db");
	make_many_rows(path);
	assert_int_equal(fts_db_readback(path, &ops, &rows, &err), 0);
	assert_int_equal(rows, 150000);
	assert_int_equal(o.rows, 150000);
	assert_int_equal(o.bad, 0);
	/* the row callback's error, at its row, not later */
	memset(&o, 0, sizeof(o));
	o.last_ts = 1000;
	o.stop_at = 20000;
	assert_int_equal(fts_db_readback(path, &ops, &rows, &err), -EPIPE);
	assert_int_equal(o.rows, 20000);
	assert_string_equal(err.msg, "stop here");
	/* the first progress report (every 65536 rows) cancels */
	assert_int_equal(fts_db_readback(path, &cops, &rows, &err), -ECANCELED);
	assert_int_equal(c.rows, 65536);
	unlink(path);
}

static void test_json_one_line_cancel(void **state)
{
	struct counts c = { .cancel_at = 1 };
	struct fts_rb_ops ops = { on_lane, on_row, on_progress, &c, NULL };
	struct fts_err err = { 0 };
	char path[256];
	uint64_t rows = 0;
	FILE *f;

	(void)state;
	tmp_path(path, sizeof(path), ".json");
	f = fopen(path, "w");
	assert_non_null(f);
	fputc('[', f);
	for (int i = 0; i < 200000; i++)
		fprintf(f, "%s{\"name\":\"Running\",\"ph\":\"X\",\"pid\":\"Process Scheduling\","
			"\"tid\":\"t:%d\",\"ts\":%d.5,\"dur\":1,\"args\":{}}", i ? "," : "", i % 50, i + 1);
	fputc(']', f);
	fclose(f);
	assert_int_equal(fts_json_readback(path, &ops, &rows, &err), -ECANCELED);
	assert_true(c.rows < 200000);
	memset(&c, 0, sizeof(c));
	assert_int_equal(fts_json_readback(path, &ops, &rows, &err), 0);
	assert_int_equal(rows, 200000);
	assert_int_equal(c.lanes, 50);
	unlink(path);
}

static void test_json_pick(void **state)
{
	static const char *const keys[] = { "ph", "tid", "args" };
	const char *v[3];
	char obj[2048], buf[2048];
	size_t n = 0;

	(void)state;
	n += (size_t)snprintf(obj + n, sizeof(obj) - n, "{");
	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(obj + n, sizeof(obj) - n, "\"k%d\":[%d,{\"ph\":\"no\"}],", i, i);
	snprintf(obj + n, sizeof(obj) - n, "\"tid\":\"first\",\"ph\":\"X\",\"args\":{\"a\":\"}\"},"
		 "\"tid\":\"a\\u00e9\\\"b\"}");
	assert_int_equal(fts_json_pick(obj, strlen(obj), keys, 3, v, buf, sizeof(buf)), 0);
	assert_string_equal(v[0], "X");            /* after 40 keys, nested "ph" ignored */
	assert_string_equal(v[1], "a\xc3\xa9\"b"); /* the last of a repeated key */
	assert_string_equal(v[2], "{\"a\":\"}\"}"); /* nested: raw text */
	assert_int_equal(fts_json_pick("[1]", 3, keys, 3, v, buf, sizeof(buf)), -EINVAL);
}

static void test_utf8_clean(void **state)
{
	char out[64], esc[64];

	(void)state;
	/* invalid bytes are Latin-1 code points, valid sequences stay */
	assert_int_equal(fts__utf8_clean(out, "b\xff\xc3h:\xe4\xb8\xad"), 10);
	assert_string_equal(out, "b\xc3\xbf\xc3\x83h:\xe4\xb8\xad");
	assert_true(fts__utf8_valid(out));
	assert_false(fts__utf8_valid("b\xff"));
	/* the JSON escaper says the same: \u00ff and \u00c3 */
	fts__json_escape(esc, "b\xff\xc3h", 0);
	assert_string_equal(esc, "\"b\\u00ff\\u00c3h\"");
	assert_int_equal(fts__utf8_clean(out, "\xed\xa0\x80"), 6); /* a surrogate: three bytes */
	assert_true(fts__utf8_valid(out));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_db_cancel_while_sqlite_works),
		cmocka_unit_test(test_db_scan_thread),
		cmocka_unit_test(test_json_one_line_cancel),
		cmocka_unit_test(test_json_pick),
		cmocka_unit_test(test_utf8_clean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
