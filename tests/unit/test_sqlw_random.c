// SPDX-License-Identifier: MIT
/*
 * A property test of the SQLite page writer (src/export/sink/sqlw_*, issue 34
 * item 4): random rows of random content -- text of every byte value (NUL,
 * invalid UTF-8, 0xff), integers at every serial-type edge and huge or
 * negative, NULLs, rowids with huge gaps from negative to positive -- written
 * as a table and an index on small pages (many pages, deep trees, overflow
 * chains), then read back with libsqlite3: PRAGMA integrity_check ok (which
 * checks the index against the table and SQLite's own order), every row by
 * its rowid byte for byte and type for type, the index scanned in order
 * equal to libsqlite3's ORDER BY.
 *
 * The seed is printed; FTS_SQLW_SEED=<n> replays a failing run.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "export/sink/sqlw_btree.h"
#include "export/sink/sqlw_file.h"
#include "export/sink/sqlw_record.h"
#include "tmp_tree.h"

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Integers where SQLite's serial types change width, and their neighbours. */
static const int64_t edges[] = {
	0, 1, -1, 2, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769,
	8388607, 8388608, -8388608, -8388609, INT32_MAX, (int64_t)INT32_MAX + 1, INT32_MIN,
	(int64_t)INT32_MIN - 1, (1ll << 47) - 1, 1ll << 47, -(1ll << 47), -(1ll << 47) - 1,
	INT64_MAX, INT64_MAX - 1, INT64_MIN, INT64_MIN + 1,
};

struct row {
	struct fts_sqlw_val v[3];   /* a, b, c */
	int64_t rowid;
};

/* A random value; text bytes (any of 256) go to @buf, @max of them at most. */
static struct fts_sqlw_val rnd_val(char *buf, size_t max)
{
	struct fts_sqlw_val v = { 0 };
	uint64_t pick = rnd() % 10;

	if (pick == 0) {
		v.type = FTS_SQLW_NULL;
	} else if (pick < 4) {
		v.type = FTS_SQLW_INT;
		v.i = rnd() % 2 ? edges[rnd() % (sizeof(edges) / sizeof(edges[0]))]
				: (int64_t)(rnd() >> (rnd() % 64)) * (rnd() % 2 ? -1 : 1);
	} else {
		v.type = FTS_SQLW_TEXT;
		/* mostly short (many keys share prefixes: two-letter alphabet), some long */
		v.n = rnd() % 8 ? rnd() % 24 : rnd() % (max + 1);
		if (v.n > max)   /* a round of short texts: never past @buf */
			v.n = max;
		for (size_t i = 0; i < v.n; i++)
			buf[i] = (char)(rnd() % 3 ? rnd() % 256 : 'a' + rnd() % 2);
		v.s = buf;
	}
	return v;
}

static int row_key_cmp(const void *pa, const void *pb)
{
	const struct row *x = pa, *y = pb;
	int c = fts_sqlw_val_cmp(&x->v[0], &y->v[0]);

	if (!c)
		c = fts_sqlw_val_cmp(&x->v[1], &y->v[1]);
	return c ? c : (x->rowid > y->rowid) - (x->rowid < y->rowid);
}

static void add(struct fts_sqlw_tree *t, const struct fts_sqlw_val *v, int n, int64_t rowid, int index)
{
	size_t len = fts_sqlw_record_encode(NULL, 0, v, n);
	uint8_t *rec = malloc(len);

	assert_non_null(rec);
	assert_int_equal(fts_sqlw_record_encode(rec, len, v, n), len);
	assert_int_equal(index ? fts_sqlw_tree_add_key(t, rec, len) : fts_sqlw_tree_add_row(t, rowid, rec, len), 0);
	free(rec);
}

static void assert_col(sqlite3_stmt *st, int col, const struct fts_sqlw_val *v)
{
	switch (v->type) {
	case FTS_SQLW_NULL:
		assert_int_equal(sqlite3_column_type(st, col), SQLITE_NULL);
		break;
	case FTS_SQLW_INT:
		assert_int_equal(sqlite3_column_type(st, col), SQLITE_INTEGER);
		assert_true(sqlite3_column_int64(st, col) == v->i);
		break;
	default:
		assert_int_equal(sqlite3_column_type(st, col), SQLITE_TEXT);
		/* the bytes as stored: blob access does no UTF-8 conversion */
		assert_int_equal(sqlite3_column_bytes(st, col), (int)v->n);
		if (v->n)
			assert_memory_equal(sqlite3_column_blob(st, col), v->s, v->n);
	}
}

static uint32_t root_of(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st;
	uint32_t root;

	assert_int_equal(sqlite3_prepare_v2(db, "SELECT rootpage FROM sqlite_master WHERE name = ?", -1, &st,
					    NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	root = (uint32_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return root;
}

/* Write @n rows on pages of @ps bytes through the page writer. */
static void write_db(const char *path, uint32_t ps, struct row *rows, size_t n)
{
	struct fts_sqlw_file f;
	struct fts_sqlw_tree tt, ti;
	char sql[256];
	uint32_t troot, iroot;
	sqlite3 *db;
	int fd;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	snprintf(sql, sizeof(sql), "PRAGMA page_size=%u; PRAGMA journal_mode=OFF;"
		 "CREATE TABLE t (id INTEGER PRIMARY KEY, a, b, c); CREATE INDEX ti ON t (a, b);", ps);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	troot = root_of(db, "t");
	iroot = root_of(db, "ti");
	sqlite3_close(db);
	fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(fts_sqlw_file_open(&f, fd), 0);
	assert_int_equal(fts_sqlw_tree_init(&tt, &f, 0, troot), 0);
	assert_int_equal(fts_sqlw_tree_init(&ti, &f, 1, iroot), 0);
	for (size_t i = 0; i < n; i++) {
		struct fts_sqlw_val v[4] = { { .type = FTS_SQLW_NULL }, rows[i].v[0], rows[i].v[1], rows[i].v[2] };

		add(&tt, v, 4, rows[i].rowid, 0);
	}
	qsort(rows, n, sizeof(*rows), row_key_cmp);
	for (size_t i = 0; i < n; i++) {
		struct fts_sqlw_val k[3] = { rows[i].v[0], rows[i].v[1], { .type = FTS_SQLW_INT, .i = rows[i].rowid } };

		add(&ti, k, 3, 0, 1);
	}
	assert_int_equal(fts_sqlw_tree_finish(&tt), 0);
	assert_int_equal(fts_sqlw_tree_finish(&ti), 0);
	fts_sqlw_tree_free(&tt);
	fts_sqlw_tree_free(&ti);
	assert_int_equal(fts_sqlw_file_close(&f), 0);
	close(fd);
}

/* @sql's ids are @rows' rowids, in order, and nothing more. */
static void assert_ids(sqlite3 *db, const char *sql, const struct row *rows, size_t n)
{
	sqlite3_stmt *st;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_true(sqlite3_column_int64(st, 0) == rows[i].rowid);
	}
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
}

/* libsqlite3 reads back what @rows (sorted by index key) say. */
static void check_db(const char *path, const struct row *rows, size_t n)
{
	sqlite3 *db;
	sqlite3_stmt *st;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
	sqlite3_finalize(st);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT a, b, c FROM t WHERE id = ?", -1, &st, NULL), SQLITE_OK);
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(st, 1, rows[i].rowid);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		for (int c = 0; c < 3; c++)
			assert_col(st, c, &rows[i].v[c]);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	/* libsqlite3's own sort (no index) agrees with the index we wrote */
	assert_ids(db, "SELECT id FROM t NOT INDEXED ORDER BY a, b, id", rows, n);
	assert_ids(db, "SELECT id FROM t INDEXED BY ti ORDER BY a, b", rows, n);
	sqlite3_close(db);
}

/* One round: @n random rows, text up to @max bytes, pages of @ps bytes. */
static void round_trip(uint32_t ps, size_t n, size_t max)
{
	struct row *rows = calloc(n, sizeof(*rows));
	char *text = malloc(n * 3 * (max + 1));
	char root[64], path[128];
	int64_t rowid = (int64_t)(rnd() % 2 ? INT64_MIN + (int64_t)(rnd() % 1000) : -(int64_t)(rnd() % 100000));

	assert_non_null(rows);
	assert_non_null(text);
	for (size_t i = 0; i < n; i++) {
		for (int c = 0; c < 3; c++)
			rows[i].v[c] = rnd_val(text + (i * 3 + (size_t)c) * (max + 1), max);
		rows[i].rowid = rowid;
		/* increasing, with gaps from 1 to 2^40, never past INT64_MAX */
		rowid += 1 + (int64_t)(rnd() % 4 ? rnd() % 7 : rnd() % (1ull << 40));
		if (rowid < rows[i].rowid)
			rowid = rows[i].rowid + 1;
	}
	tt_make(root, "sqlw_random");
	snprintf(path, sizeof(path), "%s/r.db", root);
	write_db(path, ps, rows, n);
	check_db(path, rows, n);
	tt_remove(root);
	free(text);
	free(rows);
}

static void test_random_rows(void **state)
{
	static const struct {
		uint32_t ps;
		size_t n, max;
	} rounds[] = {
		{ 512, 3000, 2000 },     /* deep trees, overflow chains of many pages */
		{ 1024, 20000, 300 },    /* many pages */
		{ 4096, 5000, 20000 },
		{ 65536, 30000, 200 },   /* the sink's own page size */
		{ 512, 1, 0 },
		{ 65536, 2, 100000 },
	};

	(void)state;
	for (size_t r = 0; r < sizeof(rounds) / sizeof(rounds[0]); r++)
		round_trip(rounds[r].ps, rounds[r].n, rounds[r].max);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_rows),
	};
	const char *seed = getenv("FTS_SQLW_SEED");

	rng = seed ? strtoull(seed, NULL, 10) : (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)getpid();
	if (!rng)
		rng = 1;
	printf("seed %" PRIu64 " (FTS_SQLW_SEED=%" PRIu64 " replays this run)\n", rng, rng);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
