// SPDX-License-Identifier: MIT
/*
 * Unit tests for the JSON sink's arg keys (json_keys.h): a record names a
 * key by slot, so every way a slot could name the wrong text is tried
 * through the real sink and read back from the file: a buffer reused for
 * another key, two keys of one item on the same slot, keys too long to
 * keep, keys that need escaping, more keys than slots; and only read-only
 * memory is trusted by address.
 */
#include <assert.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "ftscope/pipeline.h"
#include "export/sink/json_keys.h"

static char path[64];

static int setup(void **state)
{
	int fd;

	(void)state;
	strcpy(path, "/tmp/fts_jsink_XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return unlink(path);
}

struct sink_run {
	struct fts_sink *sink;
	struct fts_err err;
	uint64_t ts;
};

static void start(struct sink_run *r)
{
	struct fts_lane l = { .id = 0, .group = FTS_GROUP_TASK, .tid = "t:1" };

	memset(r, 0, sizeof(*r));
	r->ts = 1000;
	assert_int_equal(fts_json_sink_create(path, NULL, &r->sink, &r->err), 0);
	assert_int_equal(r->sink->lane(r->sink, &l, &r->err), 0);
}

/* One item with @n args: keys[i] = vals[i]. */
static void item(struct sink_run *r, const char *const *keys, const char *const *vals, int n)
{
	struct fts_item it = { .lane = 0, .kind = FTS_ITEM_RUN, .ts = r->ts, .dur = 1, .name = "x" };

	r->ts += 1000;
	for (int i = 0; i < n; i++) {
		it.args[i].key = keys[i];
		it.args[i].val = vals[i];
	}
	it.nargs = n;
	assert_int_equal(r->sink->item(r->sink, &it, &r->err), 0);
}

/* Finish; the file's text (free it). */
static char *finish(struct sink_run *r)
{
	FILE *f;
	char *text;
	long n;

	assert_int_equal(r->sink->finish(r->sink, 1, &r->err), 0);
	r->sink->destroy(r->sink);
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = malloc((size_t)n + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
	text[n] = '\0';
	fclose(f);
	return text;
}

/* The @k-th "X" event's args object, up to its closing brace, into @out. */
static const char *args_of(const char *text, int k, char *out, size_t cap)
{
	const char *p = text, *a, *e;

	for (int i = 0; i <= k; i++) {
		p = strstr(p, "\"ph\":\"X\"");
		assert_non_null(p);
		p++;
	}
	a = strstr(p, "\"args\":");
	assert_non_null(a);
	a += 7;
	e = strchr(a, '}');
	assert_non_null(e);
	assert_true((size_t)(e - a + 1) < cap);
	memcpy(out, a, (size_t)(e - a + 1));
	out[e - a + 1] = '\0';
	return out;
}

/* A buffer that held one key and then another: the second item shows the second key. */
static void test_reused_buffer(void **state)
{
	struct sink_run r;
	char buf[16], got[256], *text;
	const char *keys[1] = { buf }, *vals[1] = { "1" };

	(void)state;
	start(&r);
	strcpy(buf, "alpha");
	item(&r, keys, vals, 1);
	item(&r, keys, vals, 1);
	strcpy(buf, "beta");
	item(&r, keys, vals, 1);
	strcpy(buf, "alphb"); /* same length, one byte apart */
	item(&r, keys, vals, 1);
	text = finish(&r);
	assert_string_equal(args_of(text, 0, got, sizeof(got)), "{\"alpha\":\"1\"}");
	assert_string_equal(args_of(text, 1, got, sizeof(got)), "{\"alpha\":\"1\"}");
	assert_string_equal(args_of(text, 2, got, sizeof(got)), "{\"beta\":\"1\"}");
	assert_string_equal(args_of(text, 3, got, sizeof(got)), "{\"alphb\":\"1\"}");
	free(text);
}

/* The home slot fts_jkey_pick gives @p in an empty cache. */
static uint16_t home_slot(struct fts_jkey_cache *c, const char *p)
{
	uint16_t used[1], slot;

	fts_jkey_cache_init(c);
	fts_jkey_pick(c, p, 0, used, &slot);
	return slot;
}

/*
 * More keys of one item on one home slot than it may probe from: each keeps
 * its own text, in any order, item after item.
 */
static void test_same_slot_in_one_item(void **state)
{
	enum { N = FTS_JKEY_PROBES + 2 };
	static char pool[1 << 18];
	struct fts_jkey_cache *c = malloc(sizeof(*c));
	const char *keys[N], *vals[N] = { "0", "1", "2", "3", "4", "5" };
	char want[256], got[256], *text;
	struct sink_run r;
	uint16_t home;
	int found = 1;

	(void)state;
	static_assert(N <= 6, "vals");
	assert_non_null(c);
	home = home_slot(c, pool);
	keys[0] = pool;
	for (size_t at = 16; found < N && at + 16 < sizeof(pool); at += 16)
		if (home_slot(c, pool + at) == home)
			keys[found++] = pool + at;
	assert_int_equal(found, N);
	free(c);
	for (int i = 0; i < N; i++)
		snprintf((char *)keys[i], 16, "key%d", i);

	start(&r);
	for (int round = 0; round < 3; round++) {
		item(&r, keys, vals, N);
		/* rotate: each key to the next arg */
		const char *k0 = keys[0];

		memmove(keys, keys + 1, (N - 1) * sizeof(keys[0]));
		keys[N - 1] = k0;
	}
	text = finish(&r);
	for (int round = 0; round < 3; round++) {
		int w = snprintf(want, sizeof(want), "{");

		for (int i = 0; i < N; i++)
			w += snprintf(want + w, sizeof(want) - (size_t)w, "%s\"key%d\":\"%d\"", i ? "," : "",
				      (i + round) % N, i);
		snprintf(want + w, sizeof(want) - (size_t)w, "}");
		assert_string_equal(args_of(text, round, got, sizeof(got)), want);
	}
	free(text);
}

/* Keys past FTS_JKEY_MAX, keys with escapes, and more keys than slots: all as given. */
static void test_long_escaped_and_many(void **state)
{
	static char many[3 * FTS_JKEY_CACHED][8];
	char longk[FTS_JKEY_MAX + 40], want[512], got[512], *text;
	const char *keys[3], *vals[3] = { "a", "b", "c" };
	struct sink_run r;

	(void)state;
	memset(longk, 'k', sizeof(longk) - 1);
	longk[sizeof(longk) - 1] = '\0';
	keys[0] = longk;
	keys[1] = "q\"{}";
	keys[2] = longk + 10;
	start(&r);
	item(&r, keys, vals, 3);
	item(&r, keys, vals, 3);
	for (int i = 0; i < 3 * FTS_JKEY_CACHED; i++) {
		const char *k[1] = { many[i] }, *v[1] = { "v" };

		snprintf(many[i], sizeof(many[i]), "k%d", i);
		item(&r, k, v, 1);
	}
	text = finish(&r);
	snprintf(want, sizeof(want), "{\"%s\":\"a\",\"q\\\"\\u007b\\u007d\":\"b\",\"%s\":\"c\"}", longk,
		 longk + 10);
	assert_string_equal(args_of(text, 0, got, sizeof(got)), want);
	assert_string_equal(args_of(text, 1, got, sizeof(got)), want);
	for (int i = 0; i < 3 * FTS_JKEY_CACHED; i++) {
		snprintf(want, sizeof(want), "{\"k%d\":\"v\"}", i);
		assert_string_equal(args_of(text, 2 + i, got, sizeof(got)), want);
	}
	free(text);
}

/* A literal of this program is trusted by its address (read-only memory); a buffer never is. */
static void test_literal_trusted(void **state)
{
	static const char lit[] = "lit_key";
	static char writable[] = "lit_key";
	struct fts_jkey_cache *c = malloc(sizeof(*c));
	uint16_t used[1], slot;

	(void)state;
	assert_non_null(c);
	fts_jkey_cache_init(c);
	assert_true(c->nro > 0);
	assert_int_equal(fts_jkey_pick(c, lit, 0, used, &slot), 0);
	assert_int_equal(c->slot[slot].fixed, 1);
	assert_int_equal(fts_jkey_pick(c, lit, 0, used, &slot), 1);
	assert_int_equal(fts_jkey_pick(c, writable, 0, used, &slot), 0);
	assert_int_equal(c->slot[slot].fixed, 0);
	assert_int_equal(fts_jkey_pick(c, writable, 0, used, &slot), 1);
	writable[0] = 'L';
	assert_int_equal(fts_jkey_pick(c, writable, 0, used, &slot), 0);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reused_buffer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_same_slot_in_one_item, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_escaped_and_many, setup, teardown),
		cmocka_unit_test(test_literal_trusted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
