// SPDX-License-Identifier: MIT
/*
 * The integer-keyed table: put/get/del against a plain array as reference
 * (random operations, so runs wrap the array's end and deletions shift them
 * back), growth, the walk, the keys at the edges.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/util/inthash.h"

static void test_basic(void **state)
{
	struct fts_inthash h;
	uint64_t *v;
	int added = -1;

	(void)state;
	fts_inthash_init(&h);
	assert_null(fts_inthash_get(&h, 1));
	assert_int_equal(fts_inthash_del(&h, 1), 0);
	v = fts_inthash_put(&h, 1, &added);
	assert_non_null(v);
	assert_int_equal(added, 1);
	assert_int_equal(*v, 0); /* a new key's value starts at 0 */
	*v = 42;
	v = fts_inthash_put(&h, 1, &added);
	assert_int_equal(added, 0);
	assert_int_equal(*v, 42);
	assert_int_equal(*fts_inthash_get(&h, 1), 42);
	/* the edges: 0 and the largest storable key */
	*fts_inthash_put(&h, 0, NULL) = 7;
	*fts_inthash_put(&h, FTS_INTHASH_FREE - 1, NULL) = 8;
	assert_int_equal(*fts_inthash_get(&h, 0), 7);
	assert_int_equal(*fts_inthash_get(&h, FTS_INTHASH_FREE - 1), 8);
	assert_int_equal(fts_inthash_count(&h), 3);
	/* the free marker is never a key */
	assert_null(fts_inthash_get(&h, FTS_INTHASH_FREE));
	assert_int_equal(fts_inthash_del(&h, FTS_INTHASH_FREE), 0);
	assert_int_equal(fts_inthash_del(&h, 1), 1);
	assert_int_equal(fts_inthash_del(&h, 1), 0);
	assert_null(fts_inthash_get(&h, 1));
	assert_int_equal(fts_inthash_count(&h), 2);
	assert_true(fts_inthash_bytes(&h) > 0);
	fts_inthash_free(&h);
	assert_int_equal(fts_inthash_count(&h), 0);
	assert_null(fts_inthash_get(&h, 0));
}

/* Every operation checked against an array: value + 1 per key, 0 = absent. */
static void random_ops(uint32_t nkeys, uint32_t ops, uint64_t stride, unsigned seed)
{
	uint64_t *ref = calloc(nkeys, sizeof(*ref));
	struct fts_inthash h;
	uint32_t live = 0;

	assert_non_null(ref);
	srand(seed);
	fts_inthash_init(&h);
	for (uint32_t op = 0; op < ops; op++) {
		uint32_t k = (uint32_t)rand() % nkeys;
		uint64_t key = k * stride;
		const uint64_t *g;

		if (rand() % 3) {
			int added;
			uint64_t *v = fts_inthash_put(&h, key, &added);

			assert_non_null(v);
			assert_int_equal(added, ref[k] == 0);
			live += added;
			*v = op;
			ref[k] = (uint64_t)op + 1;
		} else {
			assert_int_equal(fts_inthash_del(&h, key), ref[k] != 0);
			live -= ref[k] != 0;
			ref[k] = 0;
		}
		assert_int_equal(fts_inthash_count(&h), live);
		/* a deletion must not cut any other key's probe run */
		if (op % 97 == 0) {
			for (uint32_t j = 0; j < nkeys; j++) {
				g = fts_inthash_get(&h, j * stride);
				if (ref[j])
					assert_true(g && *g == ref[j] - 1);
				else
					assert_null(g);
			}
		}
	}
	fts_inthash_free(&h);
	free(ref);
}

static void test_against_reference(void **state)
{
	(void)state;
	random_ops(300, 200000, 1, 1);          /* dense pids: a small table near half full */
	random_ops(5000, 200000, 1, 2);
	random_ops(2000, 100000, 1u << 20, 3);  /* keys alike in their low bits */
	random_ops(2000, 100000, 0x9e3779b97f4a7c15ull, 4);
}

static void test_growth_and_walk(void **state)
{
	const uint32_t n = 400000;
	struct fts_inthash h;
	uint8_t *seen = calloc(n, 1);
	uint32_t pos = 0, count = 0;
	uint64_t key, val;

	(void)state;
	assert_non_null(seen);
	fts_inthash_init(&h);
	for (uint32_t i = 0; i < n; i++)
		*fts_inthash_put(&h, 100 + (uint64_t)i, NULL) = i;
	assert_int_equal(fts_inthash_count(&h), n);
	assert_true(h.cap >= 2 * n); /* at most half full */
	for (uint32_t i = 0; i < n; i += 3)
		assert_int_equal(fts_inthash_del(&h, 100 + (uint64_t)i), 1);
	while (fts_inthash_next(&h, &pos, &key, &val)) {
		assert_true(key >= 100 && key < 100 + (uint64_t)n);
		assert_int_equal(val, key - 100);
		assert_int_not_equal(val % 3, 0);
		assert_int_equal(seen[val], 0);
		seen[val] = 1;
		count++;
	}
	assert_int_equal(count, fts_inthash_count(&h));
	assert_int_equal(count, n - (n + 2) / 3);
	assert_int_equal(fts_inthash_next(&h, &pos, NULL, NULL), 0);
	fts_inthash_free(&h);
	free(seen);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_against_reference),
		cmocka_unit_test(test_growth_and_walk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
