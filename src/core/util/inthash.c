// SPDX-License-Identifier: MIT
/* inthash.c - integer-keyed open addressing (see inthash.h for the layout). */
#include "core/util/inthash.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define MIN_CAP 64u
#define MAX_CAP (1u << 31)

/* every byte 0xff is a free key: a fresh array is one memset */
static_assert(FTS_INTHASH_FREE == UINT64_MAX, "free slots are all-ones bytes");

void fts_inthash_init(struct fts_inthash *h)
{
	memset(h, 0, sizeof(*h));
}

void fts_inthash_free(struct fts_inthash *h)
{
	free(h->slot);
	memset(h, 0, sizeof(*h));
}

/* Fibonacci hashing: the product's top bits depend on every bit of the key. */
static uint32_t home(const struct fts_inthash *h, uint64_t key)
{
	return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> h->shift);
}

static int grow(struct fts_inthash *h)
{
	uint32_t cap = h->cap ? h->cap * 2 : MIN_CAP, mask = cap - 1;
	struct fts_inthash_slot *ns;
	struct fts_inthash nh;
	int bits = 0;

	if (h->cap >= MAX_CAP)
		return -1;
	ns = malloc((size_t)cap * sizeof(*ns));
	if (!ns)
		return -1;
	memset(ns, 0xff, (size_t)cap * sizeof(*ns));
	while ((1u << bits) < cap)
		bits++;
	nh = (struct fts_inthash){ ns, cap, h->n, 64 - bits };
	for (uint32_t i = 0; i < h->cap; i++) {
		uint32_t j;

		if (h->slot[i].key == FTS_INTHASH_FREE)
			continue;
		for (j = home(&nh, h->slot[i].key); ns[j].key != FTS_INTHASH_FREE; j = (j + 1) & mask)
			;
		ns[j] = h->slot[i];
	}
	free(h->slot);
	*h = nh;
	return 0;
}

/* The slot holding @key, or the free slot ending its probe. */
static uint32_t probe(const struct fts_inthash *h, uint64_t key)
{
	uint32_t mask = h->cap - 1, i = home(h, key);

	while (h->slot[i].key != key && h->slot[i].key != FTS_INTHASH_FREE)
		i = (i + 1) & mask;
	return i;
}

const uint64_t *fts_inthash_get(const struct fts_inthash *h, uint64_t key)
{
	uint32_t i;

	if (!h->cap || key == FTS_INTHASH_FREE)
		return NULL;
	i = probe(h, key);
	return h->slot[i].key == key ? &h->slot[i].val : NULL;
}

uint64_t *fts_inthash_put(struct fts_inthash *h, uint64_t key, int *added)
{
	uint32_t i = 0;

	assert(key != FTS_INTHASH_FREE);
	if (added)
		*added = 0;
	if (key == FTS_INTHASH_FREE)
		return NULL;
	if (h->cap) {
		i = probe(h, key);
		if (h->slot[i].key == key)
			return &h->slot[i].val;
	}
	if ((uint64_t)(h->n + 1) * 2 > h->cap) {
		/* past half full: grow, or go on while a free slot still ends every probe */
		if (grow(h) && (uint64_t)h->n + 2 > h->cap)
			return NULL;
		i = probe(h, key);
	}
	assert(h->slot[i].key == FTS_INTHASH_FREE);
	h->slot[i].key = key;
	h->slot[i].val = 0;
	h->n++;
	assert(h->n < h->cap); /* a free slot ends every probe */
	if (added)
		*added = 1;
	return &h->slot[i].val;
}

int fts_inthash_del(struct fts_inthash *h, uint64_t key)
{
	uint32_t mask = h->cap - 1, i, j;

	if (!h->cap || key == FTS_INTHASH_FREE)
		return 0;
	i = probe(h, key);
	if (h->slot[i].key != key)
		return 0;
	/*
	 * Backward shift: an entry further along the run moves into the hole
	 * when its home is not inside (hole, entry], so no probe ever stops
	 * early at the hole.
	 */
	for (j = (i + 1) & mask; h->slot[j].key != FTS_INTHASH_FREE; j = (j + 1) & mask) {
		uint32_t k = home(h, h->slot[j].key);

		if (((j - k) & mask) >= ((j - i) & mask)) {
			h->slot[i] = h->slot[j];
			i = j;
		}
	}
	h->slot[i].key = FTS_INTHASH_FREE;
	h->n--;
	return 1;
}

int fts_inthash_next(const struct fts_inthash *h, uint32_t *pos, uint64_t *key, uint64_t *val)
{
	for (uint32_t i = *pos; i < h->cap; i++) {
		if (h->slot[i].key == FTS_INTHASH_FREE)
			continue;
		if (key)
			*key = h->slot[i].key;
		if (val)
			*val = h->slot[i].val;
		*pos = i + 1;
		return 1;
	}
	*pos = h->cap;
	return 0;
}
