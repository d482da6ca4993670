// SPDX-License-Identifier: MIT
/*
 * latency_hist.c - exact samples first, then a log-linear histogram
 * (see latency_hist.h for the bucket layout and its error).
 */
#include "core/model/latency_hist.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SUB_BITS 6
#define SUB (1u << SUB_BITS)   /* buckets per power of two */
#define TOP_OCTAVE 43           /* values up to 2^44 - 1 ns */
#define NBUCKETS (SUB + (TOP_OCTAVE - SUB_BITS + 1) * SUB)

static uint32_t bucket_of(uint64_t v)
{
	int o;

	if (v < SUB)
		return (uint32_t)v;
	o = 63 - __builtin_clzll(v);
	if (o > TOP_OCTAVE)
		return NBUCKETS - 1;
	return SUB + (uint32_t)(o - SUB_BITS) * SUB + (uint32_t)((v >> (o - SUB_BITS)) & (SUB - 1));
}

/* The middle of bucket @b: within half a bucket (1/128 relative) of any value in it. */
static uint64_t bucket_value(uint32_t b)
{
	uint32_t o, sub;

	if (b < SUB)
		return b;
	o = (b - SUB) / SUB + SUB_BITS;
	sub = (b - SUB) % SUB;
	return ((uint64_t)(SUB + sub) << (o - SUB_BITS)) + ((1ull << (o - SUB_BITS)) >> 1);
}

int fts_lat_add(struct fts_lat *l, uint64_t v)
{
	if (v > l->max || l->n == 0)
		l->max = v;
	if (l->n == 0) {
		l->u.one = v;
		l->n = 1;
		return 0;
	}
	if (l->n < LAT_EXACT) {
		if (l->n == 1 || l->n == l->cap) {
			uint32_t nc = l->n == 1 ? 4 : l->cap * 2;
			uint64_t *ne = realloc(l->n == 1 ? NULL : l->u.exact, nc * sizeof(*ne));

			if (!ne)
				return -ENOMEM;
			if (l->n == 1)
				ne[0] = l->u.one;
			l->u.exact = ne;
			l->cap = nc;
		}
		l->u.exact[l->n++] = v;
		return 0;
	}
	if (l->n == LAT_EXACT) {
		uint32_t *h = calloc(NBUCKETS, sizeof(*h));

		if (!h)
			return -ENOMEM;
		for (int i = 0; i < LAT_EXACT; i++)
			h[bucket_of(l->u.exact[i])]++;
		free(l->u.exact);
		l->u.hist = h;
		l->cap = 0;
	}
	l->u.hist[bucket_of(v)]++;
	l->n++;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t fts_lat_pct(struct fts_lat *l, double pct)
{
	uint64_t rank, seen = 0;
	double r;

	if (!l->n)
		return 0;
	r = pct * (double)l->n / 100.0;
	rank = (uint64_t)r; /* ceil, without libm */
	if ((double)rank < r - 1e-9)
		rank++;
	if (rank < 1)
		rank = 1;
	if (rank >= l->n)
		return l->max;
	/* here n > 1 (rank < n): the samples or the histogram */
	if (l->n <= LAT_EXACT) {
		qsort(l->u.exact, (size_t)l->n, sizeof(l->u.exact[0]), cmp_u64);
		return l->u.exact[rank - 1];
	}
	if (pct >= 50) {
		/*
		 * From the max's bucket down (none above it): the bucket where the
		 * count from the top reaches n - rank + 1 is the one where the count
		 * from the bottom reaches rank. A p99 then reads a few buckets, not
		 * the ~2,500 below it (the live top asks every task's twice a second).
		 */
		for (uint32_t b = bucket_of(l->max) + 1; b-- > 0;) {
			seen += l->u.hist[b];
			if (seen >= l->n - rank + 1) {
				uint64_t v = bucket_value(b);

				return v > l->max ? l->max : v;
			}
		}
		return l->max;
	}
	for (uint32_t b = 0; b < NBUCKETS; b++) {
		seen += l->u.hist[b];
		if (seen >= rank) {
			uint64_t v = bucket_value(b);

			return v > l->max ? l->max : v;
		}
	}
	return l->max;
}

void fts_lat_free(struct fts_lat *l)
{
	if (l->n > LAT_EXACT)
		free(l->u.hist);
	else if (l->n > 1)
		free(l->u.exact);
	memset(l, 0, sizeof(*l));
}
