// SPDX-License-Identifier: MIT
/*
 * The SQLite page writer alone (src/export/sink/sqlw_*): records, b-trees
 * built bottom-up into a file SQLite created, external sorts; every file is
 * read back through SQLite (content equal, PRAGMA integrity_check ok, which
 * also checks each index against its table). Small pages (512, 1024 bytes)
 * make deep trees and overflow chains cheap.
 */
#include <errno.h>
#include <fcntl.h>
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

#include "export/sink/sqlw_btree.h"
#include "export/sink/sqlw_file.h"
#include "export/sink/sqlw_record.h"
#include "export/sink/sqlw_sort.h"
#include "tmp_tree.h"

/* xorshift: the same rows on every run */
static uint64_t rng = 88172645463325252ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void test_varint(void **state)
{
	static const struct {
		uint64_t v;
		int len;
	} cases[] = {
		{ 0, 1 }, { 127, 1 }, { 128, 2 }, { 16383, 2 }, { 16384, 3 },
		{ (1ull << 21) - 1, 3 }, { 1ull << 21, 4 }, { (1ull << 56) - 1, 8 },
		{ 1ull << 56, 9 }, { UINT64_MAX, 9 },
	};
	uint8_t buf[FTS_SQLW_VARINT_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t back;

		assert_int_equal(fts_sqlw_varint_len(cases[i].v), cases[i].len);
		assert_int_equal(fts_sqlw_varint_put(buf, cases[i].v), cases[i].len);
		assert_int_equal(fts_sqlw_varint_get(buf, &back), cases[i].len);
		assert_true(back == cases[i].v);
	}
	/* SQLite's own bytes for 300: 0x82 0x2c */
	assert_int_equal(fts_sqlw_varint_put(buf, 300), 2);
	assert_int_equal(buf[0], 0x82);
	assert_int_equal(buf[1], 0x2c);
}

static void test_val_cmp(void **state)
{
	const struct fts_sqlw_val null = { .type = FTS_SQLW_NULL };
	const struct fts_sqlw_val neg = { .type = FTS_SQLW_INT, .i = -5 };
	const struct fts_sqlw_val big = { .type = FTS_SQLW_INT, .i = INT64_MAX };
	const struct fts_sqlw_val empty = { .type = FTS_SQLW_TEXT, .s = "", .n = 0 };
	const struct fts_sqlw_val ab = { .type = FTS_SQLW_TEXT, .s = "ab", .n = 2 };
	const struct fts_sqlw_val abc = { .type = FTS_SQLW_TEXT, .s = "abc", .n = 3 };
	const struct fts_sqlw_val b = { .type = FTS_SQLW_TEXT, .s = "b", .n = 1 };
	const struct fts_sqlw_val *order[] = { &null, &neg, &big, &empty, &ab, &abc, &b };

	(void)state;
	for (size_t i = 0; i < 7; i++)
		for (size_t j = 0; j < 7; j++) {
			int c = fts_sqlw_val_cmp(order[i], order[j]);

			assert_true(i < j ? c < 0 : i > j ? c > 0 : c == 0);
		}
}

/* A value for column generation: NULL, an integer of any size, or text of @max bytes at most. */
static struct fts_sqlw_val rnd_val(char *text, size_t max)
{
	struct fts_sqlw_val v = { 0 };

	switch (rnd() % 3) {
	case 0:
		v.type = FTS_SQLW_NULL;
		break;
	case 1:
		v.type = FTS_SQLW_INT;
		/* every serial type: 0, 1, 8..64-bit, negative too */
		v.i = (int64_t)(rnd() >> (rnd() % 64));
		if (rnd() % 2)
			v.i = -v.i;
		if (rnd() % 8 == 0)
			v.i = (int64_t)(rnd() % 2);
		break;
	default:
		v.type = FTS_SQLW_TEXT;
		v.n = max ? rnd() % (max + 1) : 0;
		/* a small alphabet: equal prefixes, so ties go to the length */
		for (size_t i = 0; i < v.n; i++)
			text[i] = (char)('a' + rnd() % 3);
		v.s = text;
	}
	return v;
}

struct row {
	struct fts_sqlw_val a, b, c;
	int64_t rowid;
};

static int row_key_cmp(const void *pa, const void *pb)
{
	const struct row *x = pa, *y = pb;
	int c = fts_sqlw_val_cmp(&x->a, &y->a);

	if (!c)
		c = fts_sqlw_val_cmp(&x->b, &y->b);
	return c ? c : (x->rowid > y->rowid) - (x->rowid < y->rowid);
}

static uint8_t *encode(const struct fts_sqlw_val *v, int n, size_t *size)
{
	uint8_t *rec;

	*size = fts_sqlw_record_encode(NULL, 0, v, n);
	rec = malloc(*size);
	assert_non_null(rec);
	assert_int_equal(fts_sqlw_record_encode(rec, *size, v, n), *size);
	return rec;
}

static int64_t one_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
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
		assert_int_equal(sqlite3_column_bytes(st, col), (int)v->n);
		assert_memory_equal(sqlite3_column_text(st, col) ? (const char *)sqlite3_column_text(st, col) : "",
				    v->n ? v->s : "", v->n);
	}
}

/* The type byte of page @pg and, for an interior page, its right-most child in *@right. */
static int page_type(int fd, uint32_t ps, uint32_t pg, uint32_t *right)
{
	uint8_t h[12];

	assert_int_equal(pread(fd, h, sizeof(h), (off_t)(pg - 1) * ps), (ssize_t)sizeof(h));
	*right = (uint32_t)h[8] << 24 | (uint32_t)h[9] << 16 | (uint32_t)h[10] << 8 | h[11];
	return h[0];
}

/* Levels of the tree at @root (1: a lone leaf), following right-most children. */
static int depth(int fd, uint32_t ps, uint32_t root)
{
	uint32_t pg = root, right;
	int d = 1;

	while (page_type(fd, ps, pg, &right) == 0x05 || page_type(fd, ps, pg, &right) == 0x02) {
		pg = right;
		d++;
	}
	return d;
}

/*
 * Build table t (id INTEGER PRIMARY KEY, a, b, c) and index ti (a, b) from
 * @n generated rows on pages of @ps bytes and read it all back. @cmax: the
 * longest c text; @kmax: the longest key text; @sizes: exact record sizes
 * to hit for the first rows (local-limit edges), 0-terminated. @lock: the
 * lock-byte offset SQLite was given (test_lock_page), 0 for its own.
 */
static void build_and_check(uint32_t ps, size_t n, size_t cmax, size_t kmax, const size_t *sizes,
			    uint32_t lock, int *table_depth, int *index_depth)
{
	char root_dir[64], path[128], sql[256];
	struct fts_sqlw_file f;
	struct fts_sqlw_tree tt, ti;
	struct row *rows = calloc(n ? n : 1, sizeof(*rows));
	char **texts = calloc(n ? n : 1, sizeof(*texts));
	sqlite3 *db;
	sqlite3_stmt *st;
	uint32_t troot, iroot;
	int fd;

	assert_non_null(rows);
	assert_non_null(texts);
	tt_make(root_dir, "sqlw");
	snprintf(path, sizeof(path), "%s/t.db", root_dir);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	snprintf(sql, sizeof(sql), "PRAGMA page_size=%u; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
		 "CREATE TABLE t (id INTEGER PRIMARY KEY, a, b, c); CREATE INDEX ti ON t (a, b);", ps);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	troot = (uint32_t)one_int(db, "SELECT rootpage FROM sqlite_master WHERE name = 't'");
	iroot = (uint32_t)one_int(db, "SELECT rootpage FROM sqlite_master WHERE name = 'ti'");
	sqlite3_close(db);

	fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(fts_sqlw_file_open(&f, fd), 0);
	assert_int_equal(f.page_size, ps);
	assert_int_equal(f.lock_page, FTS_SQLW_LOCK_BYTE / ps + 1);
	if (lock)
		f.lock_page = lock / ps + 1;
	assert_int_equal(fts_sqlw_tree_init(&tt, &f, 0, troot), 0);
	assert_int_equal(fts_sqlw_tree_init(&ti, &f, 1, iroot), 0);
	for (size_t i = 0; i < n; i++) {
		struct row *r = &rows[i];
		size_t len, want = sizes && *sizes ? *sizes++ : 0;
		struct fts_sqlw_val v[4];
		uint8_t *rec;

		texts[i] = malloc(2 * kmax + cmax + 3);
		assert_non_null(texts[i]);
		r->rowid = (int64_t)(i + 1) * 3;   /* gaps, as a table may have */
		r->a = rnd_val(texts[i], kmax);
		r->b = rnd_val(texts[i] + kmax + 1, kmax);
		r->c = (struct fts_sqlw_val){ .type = FTS_SQLW_TEXT, .s = texts[i] + 2 * kmax + 2,
					      .n = cmax ? rnd() % (cmax + 1) : 0 };
		if (rnd() % 50 == 0)
			r->c.n = cmax;   /* the longest, for overflow chains */
		memset(texts[i] + 2 * kmax + 2, 'x' + (int)(i % 3), r->c.n);
		v[0] = (struct fts_sqlw_val){ .type = FTS_SQLW_NULL };
		v[1] = r->a;
		v[2] = r->b;
		v[3] = r->c;
		if (want) {
			/* c's length for a record of exactly @want bytes (or as near as it goes) */
			v[3].n = 0;
			v[3].n = want > fts_sqlw_record_encode(NULL, 0, v, 4) + 2 ?
				 want - fts_sqlw_record_encode(NULL, 0, v, 4) - 2 : 0;
			while (v[3].n < cmax && fts_sqlw_record_encode(NULL, 0, v, 4) < want)
				v[3].n++;
			r->c.n = v[3].n;
			memset(texts[i] + 2 * kmax + 2, 'y', r->c.n);
		}
		rec = encode(v, 4, &len);
		assert_int_equal(fts_sqlw_tree_add_row(&tt, r->rowid, rec, len), 0);
		free(rec);
	}
	/* out of order: refused */
	if (n)
		assert_int_equal(fts_sqlw_tree_add_row(&tt, rows[n - 1].rowid, (const uint8_t *)"\x01", 1),
				 -EINVAL);
	qsort(rows, n, sizeof(*rows), row_key_cmp);
	for (size_t i = 0; i < n; i++) {
		struct fts_sqlw_val v[3] = { rows[i].a, rows[i].b,
					     { .type = FTS_SQLW_INT, .i = rows[i].rowid } };
		size_t len;
		uint8_t *rec = encode(v, 3, &len);

		assert_int_equal(fts_sqlw_tree_add_key(&ti, rec, len), 0);
		free(rec);
	}
	assert_int_equal(fts_sqlw_tree_finish(&tt), 0);
	assert_int_equal(fts_sqlw_tree_finish(&ti), 0);
	fts_sqlw_tree_free(&tt);
	fts_sqlw_tree_free(&ti);
	assert_int_equal(fts_sqlw_file_close(&f), 0);
	*table_depth = depth(fd, ps, troot);
	*index_depth = depth(fd, ps, iroot);
	close(fd);

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
	sqlite3_finalize(st);
	assert_int_equal(one_int(db, "SELECT count(*) FROM t"), (int64_t)n);
	/* every row by its rowid, in the index's order */
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT a, b, c FROM t WHERE id = ?", -1, &st, NULL),
			 SQLITE_OK);
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(st, 1, rows[i].rowid);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_col(st, 0, &rows[i].a);
		assert_col(st, 1, &rows[i].b);
		assert_col(st, 2, &rows[i].c);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	/* a scan through the index gives the rowids in the order sorted here */
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT id FROM t INDEXED BY ti ORDER BY a, b", -1, &st, NULL), SQLITE_OK);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_true(sqlite3_column_int64(st, 0) == rows[i].rowid);
	}
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	sqlite3_close(db);
	for (size_t i = 0; i < n; i++)
		free(texts[i]);
	free(texts);
	free(rows);
	tt_remove(root_dir);
}

/*
 * Files that grow past SQLite's lock-byte page (at 1 GiB, here moved to 64 KiB
 * through SQLite's test control, as the writer's own copy): no tree may use
 * that page, whether a leaf, an interior node or the middle or the start of an
 * overflow chain lands on it (integrity_check: "2nd reference to page N").
 */
static void test_lock_page(void **state)
{
	const uint32_t lock = 0x10000;
	int td, id;

	(void)state;
	sqlite3_test_control(SQLITE_TESTCTRL_PENDING_BYTE, lock);
	for (size_t n = 40; n <= 200; n += 10)
		build_and_check(512, n, 3000, 8, NULL, lock, &td, &id);
	build_and_check(512, 2000, 60, 20, NULL, lock, &td, &id);
	assert_true(td >= 2);
}

/* SQLite's own lock byte back, even after a failed check. */
static int lock_page_restore(void **state)
{
	(void)state;
	sqlite3_test_control(SQLITE_TESTCTRL_PENDING_BYTE, (int)FTS_SQLW_LOCK_BYTE);
	return 0;
}

/* Every small size: each way a last leaf or a last interior node can end. */
static void test_small_trees(void **state)
{
	int td, id;

	(void)state;
	for (size_t n = 0; n <= 300; n++)
		build_and_check(512, n, 40, 8, NULL, 0, &td, &id);
	build_and_check(512, 0, 40, 8, NULL, 0, &td, &id);
	assert_int_equal(td, 1);
	assert_int_equal(id, 1);
}

/* Records of 0..local limit +-1 and 200 KB (overflow chains) in table and index. */
static void test_overflow_edges(void **state)
{
	/* table leaf local limit on 1024-byte pages: U - 35; index: (U-12)*64/255 - 23 */
	const size_t x = 1024 - 35, xi = (1024 - 12) * 64 / 255 - 23;
	const size_t sizes[] = { 1, 2, 3, 4, x - 1, x, x + 1, xi - 1, xi, xi + 1, 1024, 2 * 1024,
				 200 * 1024, 200 * 1024 + 1, 0 };
	int td, id;

	(void)state;
	build_and_check(1024, 120, 200 * 1024, 300, sizes, 0, &td, &id);
	build_and_check(1024, 3, 200 * 1024, 200 * 1024, sizes, 0, &td, &id);
}

/* Many rows: three or more levels in both trees. */
static void test_deep_trees(void **state)
{
	int td, id;

	(void)state;
	build_and_check(512, 30000, 60, 20, NULL, 0, &td, &id);
	assert_true(td >= 3);
	assert_true(id >= 3);
}

static int int_cmp(const void *a, const void *b, void *ctx)
{
	int64_t x, y;

	(void)ctx;
	memcpy(&x, a, sizeof(x));
	memcpy(&y, b, sizeof(y));
	return (x > y) - (x < y);
}

static uint64_t bucket_of(const void *key)
{
	int64_t x;

	memcpy(&x, key, sizeof(x));
	return (uint64_t)(x >> 20);
}

/* Spilled runs and in-memory chunks, nearly sorted, random and bucketed keys. */
static void test_sort(void **state)
{
	char root_dir[64], near[128];

	(void)state;
	tt_make(root_dir, "sqlwsort");
	snprintf(near, sizeof(near), "%s/x.db", root_dir);
	for (int mode = 0; mode < 3; mode++)
		for (size_t cap = 7; cap <= 70000; cap *= 100) {
			struct fts_sqlw_sort s;
			size_t n = 20000, got = 0;
			int64_t last = INT64_MIN;
			uint64_t sum = 0, sum_in = 0;   /* wrapping: a checksum of the keys */
			const void *k;

			assert_int_equal(fts_sqlw_sort_init(&s, sizeof(int64_t), cap, int_cmp, NULL, near), 0);
			if (mode == 2)
				fts_sqlw_sort_bucketed(&s, bucket_of);
			for (size_t i = 0; i < n; i++) {
				/* 0: nearly in order, a few far behind; 1: random; 2: in order within buckets */
				int64_t v = mode == 0 ? (int64_t)i * 10 - (rnd() % 100 == 0 ? (int64_t)(rnd() % 5000) : (int64_t)(rnd() % 30)) :
					    mode == 1 ? (int64_t)(rnd() >> 1) - INT64_MAX / 2 :
					    (int64_t)(rnd() % 50) << 20 | (int64_t)i;

				sum_in += (uint64_t)v;
				assert_int_equal(fts_sqlw_sort_add(&s, &v), 0);
			}
			assert_int_equal(fts_sqlw_sort_start(&s), 0);
			while ((k = fts_sqlw_sort_next(&s)) != NULL) {
				int64_t v;

				memcpy(&v, k, sizeof(v));
				assert_true(v >= last);
				last = v;
				sum += (uint64_t)v;
				got++;
			}
			assert_int_equal(s.err, 0);
			assert_int_equal(got, n);
			assert_true(sum == sum_in);
			fts_sqlw_sort_free(&s);
		}
	tt_remove(root_dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_lock_page, lock_page_restore),   /* first: SQLite's lock byte moves before any open */
		cmocka_unit_test(test_varint),
		cmocka_unit_test(test_val_cmp),
		cmocka_unit_test(test_small_trees),
		cmocka_unit_test(test_overflow_edges),
		cmocka_unit_test(test_deep_trees),
		cmocka_unit_test(test_sort),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
