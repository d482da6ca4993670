// SPDX-License-Identifier: MIT
/*
 * The integer-keyed table: put/get/del against a plain array as reference
 * (random operations, so runs wrap the array's end and deletions shift them
 * back), growth, the walk, the keys at the edges. And the sched model's task
 * index (task_index.h), which must place and walk its values as the table
 * does, whatever the operations (the model closes tasks in walk order).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/model/task_index.h"
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

/* ---- the task index against the table: same answers, same walk order ---- */

#define TIDX_RECS 4096

struct tidx_recs {
	int32_t pid[TIDX_RECS];  /* record -> key (the model's task pid) */
};

static uint64_t tidx_key(const void *ctx, uint32_t v)
{
	return (uint32_t)((const struct tidx_recs *)ctx)->pid[v];
}

static void tidx_vs_inthash(unsigned seed, uint32_t nkeys, uint32_t ops)
{
	struct tidx_recs *r = calloc(1, sizeof(*r));
	uint32_t *free_rec = malloc(TIDX_RECS * sizeof(*free_rec)), nfree = 0, pos_a, pos_b, va;
	struct fts_inthash h;
	struct fts_tidx x;
	uint64_t vh;

	fts_inthash_init(&h);
	fts_tidx_init(&x, tidx_key, r);
	for (uint32_t i = 0; i < TIDX_RECS; i++)
		free_rec[nfree++] = TIDX_RECS - 1 - i;
	srand(seed);
	for (uint32_t k = 0; k < ops; k++) {
		/* pids around 0 and the int32 edges: -1 is a key like any other */
		int32_t pid = (int32_t)(rand() % nkeys) - (int32_t)(nkeys / 2);
		const uint64_t *hv;
		uint32_t xv;

		if (k % 7 == 3)
			pid = pid < 0 ? INT32_MIN + (pid & 15) : INT32_MAX - (pid & 15);
		hv = fts_inthash_get(&h, (uint32_t)pid);
		xv = fts_tidx_get(&x, (uint32_t)pid);
		assert_int_equal(hv != NULL, xv != FTS_TIDX_NONE);
		if (hv)
			assert_int_equal(*hv, xv);
		if (!hv && nfree && rand() % 3) {
			uint32_t rec = free_rec[--nfree];
			int added = 0;
			uint64_t *slot = fts_inthash_put(&h, (uint32_t)pid, &added);

			assert_non_null(slot);
			assert_true(added);
			*slot = rec;
			r->pid[rec] = pid;
			assert_int_equal(fts_tidx_add(&x, rec), 0);
		} else if (hv && rand() % 2) {
			free_rec[nfree++] = (uint32_t)*hv;
			assert_int_equal(fts_inthash_del(&h, (uint32_t)pid), 1);
			assert_int_equal(fts_tidx_del(&x, (uint32_t)pid), 1);
		}
		assert_int_equal(x.n, fts_inthash_count(&h));
	}
	/* the walks visit the same values in the same order */
	pos_a = pos_b = 0;
	while (fts_inthash_next(&h, &pos_a, NULL, &vh)) {
		assert_true(fts_tidx_next(&x, &pos_b, &va));
		assert_int_equal(vh, va);
	}
	assert_false(fts_tidx_next(&x, &pos_b, &va));
	assert_int_equal(fts_tidx_del(&x, 12345678), 0);
	fts_inthash_free(&h);
	fts_tidx_free(&x);
	free(free_rec);
	free(r);
}

static void test_task_index(void **state)
{
	(void)state;
	tidx_vs_inthash(1, 64, 20000);      /* a few keys, much churn: runs wrap and shift */
	tidx_vs_inthash(2, 3000, 40000);    /* growth up to 4096 slots */
	tidx_vs_inthash(3, 1u << 30, 9000); /* spread keys */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_against_reference),
		cmocka_unit_test(test_growth_and_walk),
		cmocka_unit_test(test_task_index),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
