// SPDX-License-Identifier: MIT
/* strtab.c - interned strings: an arena, an offset table and an open-addressing hash. */
#include "core/util/strtab.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define OFF_BITS FTS_STRTAB_OFF_BITS
#define MAX_LEN ((1u << 24) - 1)
#define MAX_ARENA (1ull << OFF_BITS)

static_assert(MAX_LEN < (1ull << (64 - OFF_BITS)), "a length fits above the offset");

void fts_strtab_init(struct fts_strtab *t)
{
	memset(t, 0, sizeof(*t));
}

void fts_strtab_free(struct fts_strtab *t)
{
	free(t->arena);
	free(t->off);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

/*
 * Eight bytes a step, multiply and fold (as wyhash and friends do): args
 * blobs are 40-100 bytes and every item of a load is hashed once.
 */
static uint32_t hash(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n, w;

	while (n >= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
		s += 8;
		n -= 8;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	return (uint32_t)(h ^ h >> 32);
}

static int rehash(struct fts_strtab *t)
{
	uint32_t ns, *sl;

	if (t->nslots > UINT32_MAX / 2)
		return -1; /* the slot count would wrap (ids stay below UINT32_MAX / 4) */
	ns = t->nslots ? t->nslots * 2 : 1024;
	sl = calloc(ns, sizeof(*sl));
	if (!sl)
		return -1;
	for (uint32_t id = 0; id < t->n; id++) {
		uint32_t i = hash(fts_strtab_get(t, id), fts_strtab_len(t, id)) & (ns - 1);

		while (sl[i])
			i = (i + 1) & (ns - 1);
		sl[i] = id + 1;
	}
	free(t->slots);
	t->slots = sl;
	t->nslots = ns;
	return 0;
}

static uint32_t append(struct fts_strtab *t, const char *s, size_t n)
{
	if (n > MAX_LEN)
		n = MAX_LEN;
	if (t->len + n + 1 > MAX_ARENA)
		return UINT32_MAX; /* an offset would not fit its 40 bits */
	if (t->len + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;
		char *a;

		while (cap < t->len + n + 1)
			cap *= 2;
		a = realloc(t->arena, cap);
		if (!a)
			return UINT32_MAX;
		t->arena = a;
		t->cap = cap;
	}
	if (t->n == t->ncap) {
		uint32_t nc = t->ncap ? t->ncap * 2 : 256;
		uint64_t *o = realloc(t->off, nc * sizeof(*o));

		if (!o)
			return UINT32_MAX;
		t->off = o;
		t->ncap = nc;
	}
	memcpy(t->arena + t->len, s, n);
	t->arena[t->len + n] = '\0';
	t->off[t->n] = (uint64_t)t->len | (uint64_t)n << OFF_BITS;
	t->len += n + 1;
	return t->n++;
}

uint32_t fts_strtab_intern(struct fts_strtab *t, const char *s, size_t n)
{
	uint32_t i, id;

	if ((uint64_t)(t->n + 1) * 2 > t->nslots && rehash(t))
		return UINT32_MAX;
	i = hash(s, n) & (t->nslots - 1);
	while (t->slots[i]) {
		id = t->slots[i] - 1;
		if (fts_strtab_len(t, id) == n && !memcmp(fts_strtab_get(t, id), s, n))
			return id;
		i = (i + 1) & (t->nslots - 1);
	}
	id = append(t, s, n);
	if (id != UINT32_MAX)
		t->slots[i] = id + 1;
	/* at most half full: every probe ends at an empty slot */
	assert(id == UINT32_MAX || (uint64_t)t->n * 2 <= t->nslots);
	return id;
}

uint32_t fts_strtab_find(const struct fts_strtab *t, const char *s, size_t n)
{
	uint32_t i;

	if (!t->nslots)
		return UINT32_MAX;
	for (i = hash(s, n) & (t->nslots - 1); t->slots[i]; i = (i + 1) & (t->nslots - 1)) {
		uint32_t id = t->slots[i] - 1;

		if (fts_strtab_len(t, id) == n && !memcmp(fts_strtab_get(t, id), s, n))
			return id;
	}
	return UINT32_MAX;
}

size_t fts_strtab_bytes(const struct fts_strtab *t)
{
	return t->cap + (size_t)t->ncap * sizeof(*t->off) + (size_t)t->nslots * sizeof(*t->slots);
}

void fts_strtab_shrink(struct fts_strtab *t)
{
	char *a = t->len ? realloc(t->arena, t->len) : NULL;
	uint64_t *o = t->n ? realloc(t->off, t->n * sizeof(*o)) : NULL;

	if (a) {
		t->arena = a;
		t->cap = t->len;
	}
	if (o) {
		t->off = o;
		t->ncap = t->n;
	}
}
