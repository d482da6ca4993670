// SPDX-License-Identifier: MIT
/* task_index.c - the model's pid index over 4-byte slots (see task_index.h). */
#include "core/model/task_index.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* inthash.c's: the same sizes give the same slots, so the same walk order */
#define MIN_CAP 64u
#define MAX_CAP (1u << 31)

void fts_tidx_init(struct fts_tidx *h, uint64_t (*key)(const void *ctx, uint32_t v), const void *ctx)
{
	memset(h, 0, sizeof(*h));
	h->key = key;
	h->ctx = ctx;
}

void fts_tidx_free(struct fts_tidx *h)
{
	free(h->slot);
	h->slot = NULL;
	h->cap = h->n = 0;
	h->shift = 0;
}

static uint32_t home(const struct fts_tidx *h, uint64_t key)
{
	return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> h->shift);
}

static uint64_t key_at(const struct fts_tidx *h, uint32_t i)
{
	return h->key(h->ctx, h->slot[i] - 1);
}

static int grow(struct fts_tidx *h)
{
	uint32_t cap = h->cap ? h->cap * 2 : MIN_CAP, mask = cap - 1, *old = h->slot, ocap = h->cap;
	int bits = 0;

	if (h->cap >= MAX_CAP)
		return -1;
	h->slot = calloc(cap, sizeof(*h->slot));
	if (!h->slot) {
		h->slot = old;
		return -1;
	}
	while ((1u << bits) < cap)
		bits++;
	h->cap = cap;
	h->shift = 64 - bits;
	/* in old slot order, as inthash moves them: the new layout is the same */
	for (uint32_t i = 0; i < ocap; i++) {
		uint32_t j;

		if (!old[i])
			continue;
		for (j = home(h, h->key(h->ctx, old[i] - 1)); h->slot[j]; j = (j + 1) & mask)
			;
		h->slot[j] = old[i];
	}
	free(old);
	return 0;
}

/* The slot holding @key, or the free slot ending its probe. */
static uint32_t probe(const struct fts_tidx *h, uint64_t key)
{
	uint32_t mask = h->cap - 1, i = home(h, key);

	while (h->slot[i] && key_at(h, i) != key)
		i = (i + 1) & mask;
	return i;
}

uint32_t fts_tidx_get(const struct fts_tidx *h, uint64_t key)
{
	uint32_t i;

	if (!h->cap)
		return FTS_TIDX_NONE;
	i = probe(h, key);
	return h->slot[i] ? h->slot[i] - 1 : FTS_TIDX_NONE;
}

int fts_tidx_add(struct fts_tidx *h, uint32_t v)
{
	uint64_t key = h->key(h->ctx, v);
	uint32_t i;

	if (v >= FTS_TIDX_NONE)
		return -1;
	if ((uint64_t)(h->n + 1) * 2 > h->cap) {
		/* past half full: grow, or go on while a free slot still ends every probe */
		if (grow(h) && (uint64_t)h->n + 2 > h->cap)
			return -1;
	}
	i = probe(h, key);
	assert(!h->slot[i]); /* the key was not there */
	h->slot[i] = v + 1;
	h->n++;
	return 0;
}

int fts_tidx_del(struct fts_tidx *h, uint64_t key)
{
	uint32_t mask = h->cap - 1, i, j;

	if (!h->cap)
		return 0;
	i = probe(h, key);
	if (!h->slot[i])
		return 0;
	/* backward shift, as inthash: no probe ever stops early at the hole */
	for (j = (i + 1) & mask; h->slot[j]; j = (j + 1) & mask) {
		uint32_t k = home(h, key_at(h, j));

		if (((j - k) & mask) >= ((j - i) & mask)) {
			h->slot[i] = h->slot[j];
			i = j;
		}
	}
	h->slot[i] = 0;
	h->n--;
	return 1;
}

int fts_tidx_next(const struct fts_tidx *h, uint32_t *pos, uint32_t *v)
{
	for (uint32_t i = *pos; i < h->cap; i++) {
		if (!h->slot[i])
			continue;
		*v = h->slot[i] - 1;
		*pos = i + 1;
		return 1;
	}
	*pos = h->cap;
	return 0;
}
