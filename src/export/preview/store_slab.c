// SPDX-License-Identifier: MIT
/*
 * store_slab.c - where a lane's column block lives. A capture with very many
 * tasks has very many lanes of a few items (issue 21 item 14: 1 M tasks, 3
 * items each): one malloc per column, or even per lane, costs more in
 * headers and rounding than the items themselves. Blocks of up to SLAB_CAP
 * items without the CPU lanes' aux columns are cut from big chunks in a few
 * size classes; a block left behind by a growing lane waits on its class's
 * list for the next lane to grow into it. Longer lanes and CPU lanes (few)
 * get one malloc each.
 */
#include "export/preview/store_local.h"

#include <stdlib.h>
#include <string.h>

#define SLAB_CAP FTS_STORE_SLAB_CAP
#define CHUNK (1u << 20)

/* Item counts of the classes: growth by about half, so a block wastes at most a third. */
static const uint32_t class_cap[ST_NCLASS] = { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32 };

static_assert(SLAB_CAP == 32, "the last class holds SLAB_CAP items");

static int class_of(uint64_t cap)
{
	for (int k = 0; k < ST_NCLASS; k++)
		if (cap <= class_cap[k])
			return k;
	return -1;
}

uint64_t fts_store_grow_cap(const struct st_lane *l)
{
	int k = class_of((uint64_t)l->cap + 1);

	if (!st_has_aux(l) && !st_has_aux2(l) && k >= 0)
		return class_cap[k];
	return (uint64_t)l->cap + l->cap / 2 + 1;
}

/* A block of @cap items with these columns comes from the slab. */
static int in_slab(uint64_t cap, int aux, int aux2)
{
	return !aux && !aux2 && cap > 0 && cap <= SLAB_CAP;
}

static size_t block_bytes(uint64_t cap, int aux, int aux2)
{
	size_t b;

	if (in_slab(cap, aux, aux2))
		cap = class_cap[class_of(cap)];
	b = (size_t)cap * st_item_bytes(aux, aux2);
	return (b + 7) & ~(size_t)7;
}

static void *slab_get(struct st_slab *sl, uint64_t cap)
{
	int k = class_of(cap);
	size_t b = block_bytes(cap, 0, 0);
	void *p = sl->freel[k];

	if (p) {
		memcpy(&sl->freel[k], p, sizeof(void *));
		return p;
	}
	if (sl->left < b) {
		char *c;

		if (sl->nchunk == sl->capchunk) {
			uint32_t n = sl->capchunk ? sl->capchunk * 2 : 16;
			char **a = realloc(sl->chunk, n * sizeof(*a));

			if (!a)
				return NULL;
			sl->chunk = a;
			sl->capchunk = n;
		}
		c = malloc(CHUNK);
		if (!c)
			return NULL;
		sl->chunk[sl->nchunk++] = c;
		sl->cur = c;
		sl->left = CHUNK;
		sl->bytes += CHUNK;
	}
	p = sl->cur;
	sl->cur += b;
	sl->left -= b;
	return p;
}

static void slab_put(struct st_slab *sl, void *p, uint64_t cap)
{
	int k = class_of(cap);

	memcpy(p, &sl->freel[k], sizeof(void *));
	sl->freel[k] = p;
}

static void block_free(struct fts_store *s, void *p, uint64_t cap, int aux, int aux2)
{
	if (!p)
		return;
	if (in_slab(cap, aux, aux2))
		slab_put(&s->slab, p, cap);
	else
		free(p);
}

void fts_slab_free_all(struct st_slab *sl)
{
	for (uint32_t i = 0; i < sl->nchunk; i++)
		free(sl->chunk[i]);
	free(sl->chunk);
	memset(sl, 0, sizeof(*sl));
}

size_t fts_store_block_bytes(const struct st_lane *l)
{
	return l->col ? block_bytes(l->cap, st_has_aux(l), st_has_aux2(l)) : 0;
}

struct st_ext *fts_store_ext(struct st_lane *l)
{
	if (!l->x)
		l->x = calloc(1, sizeof(*l->x));
	return l->x;
}

int fts_store_in_slab(const struct st_lane *l)
{
	return l->col && in_slab(l->cap, st_has_aux(l), st_has_aux2(l));
}

/* Column starts of a block of @cap items: ts, dur, name, args, aux, aux2 (NULL when absent), kind. */
struct cols {
	uint64_t *ts;
	uint32_t *dur, *name, *args, *aux, *aux2;
	uint8_t *kind;
};

static void cols_of(void *blk, uint64_t cap, int aux, int aux2, struct cols *c)
{
	uint32_t *u;

	c->ts = blk;
	c->dur = (uint32_t *)(c->ts + cap);
	c->name = c->dur + cap;
	c->args = c->name + cap;
	u = c->args + cap;
	c->aux = aux ? u : NULL;
	u += aux ? cap : 0;
	c->aux2 = aux2 ? u : NULL;
	u += aux2 ? cap : 0;
	c->kind = (uint8_t *)u;
}

int fts_store_relayout(struct fts_store *s, struct st_lane *l, uint64_t cap, int aux2)
{
	int aux = st_has_aux(l), had2 = st_has_aux2(l);
	uint64_t n = l->pub.nitems;
	struct cols o, c;
	void *blk;

	if (cap < n || cap > UINT32_MAX || (aux2 && !l->x))
		return -1;
	blk = in_slab(cap, aux, aux2) ? slab_get(&s->slab, cap) : malloc(block_bytes(cap, aux, aux2));
	if (!blk)
		return -1;
	cols_of(blk, cap, aux, aux2, &c);
	if (l->col) {
		cols_of(l->col, l->cap, aux, had2, &o);
		memcpy(c.ts, o.ts, n * sizeof(*c.ts));
		memcpy(c.dur, o.dur, n * sizeof(*c.dur));
		memcpy(c.name, o.name, n * sizeof(*c.name));
		memcpy(c.args, o.args, n * sizeof(*c.args));
		if (aux)
			memcpy(c.aux, o.aux, n * sizeof(*c.aux));
		if (aux2 && had2)
			memcpy(c.aux2, o.aux2, n * sizeof(*c.aux2));
		memcpy(c.kind, o.kind, n);
	}
	if (aux2 && !had2)
		for (uint64_t i = 0; i < n; i++)
			c.aux2[i] = FTS_AUX_NONE;
	block_free(s, l->col, l->cap, aux, had2);
	l->col = blk;
	l->cap = (uint32_t)cap;
	if (aux2)
		l->x->has_aux2 = 1;
	return 0;
}
