// SPDX-License-Identifier: MIT
/*
 * store_slab.c - where a lane's column block lives. A capture with very many
 * tasks has very many lanes of a few items (issue 21 item 14: 1 M tasks, 3
 * items each): one malloc per column, or even per lane, costs more in
 * headers and rounding than the items themselves. Blocks of up to SLAB_CAP
 * items without the CPU lanes' aux columns are cut from big chunks in a few
 * size classes; a block left behind by a growing lane waits on its class's
 * list for the next lane to grow into it. When lanes all grow at once (the
 * model closes every task's last state at the end) the lists fill with
 * blocks no lane wants: past a quarter of the live bytes they are squeezed
 * out by sliding the live blocks down in address order (slab_compact), and
 * the emptied chunks go back to the system. Longer lanes and CPU lanes (few)
 * get one realloc'd block each.
 */
#include "export/preview/store_local.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

/* Chunks are mapped, not malloc'd, so that the ones compaction empties leave the RSS. */
static char *chunk_new(void)
{
	void *c = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return c == MAP_FAILED ? NULL : c;
}

static void *slab_get(struct st_slab *sl, uint64_t cap)
{
	int k = class_of(cap);
	size_t b = block_bytes(cap, 0, 0);
	void *p = sl->freel[k];

	if (p) {
		memcpy(&sl->freel[k], p, sizeof(void *));
		sl->free_bytes -= b;
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
		c = chunk_new();
		if (!c)
			return NULL;
		sl->chunk[sl->nchunk++] = c;
		sl->free_bytes += sl->left; /* the old chunk's tail: squeezed out by the next compaction */
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
	sl->free_bytes += block_bytes(cap, 0, 0);
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (char *const *)a, y = (uintptr_t) * (char *const *)b;

	return x < y ? -1 : x > y;
}

/* The chunk holding @p: a binary search of the chunks, sorted by address. */
static uint32_t chunk_of(const struct st_slab *sl, const char *p)
{
	uint32_t lo = 0, hi = sl->nchunk; /* chunk[lo] <= p < chunk[hi] */

	while (hi - lo > 1) {
		uint32_t mid = (lo + hi) / 2;

		if ((uintptr_t)sl->chunk[mid] <= (uintptr_t)p)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Slide every live block down to the start of the chunks, in address order
 * (chunks sorted by address, as one long run): a block never lands past
 * where it was, so memmove in that order is safe. The order comes without a
 * sort of the lanes (1 M of them, each compare a cache miss): lanes are
 * bucketed by chunk, then each chunk's blocks are read off a map of its
 * 8-byte slots. The chunks left empty are unmapped and the free lists
 * dropped. Out of memory: nothing is done.
 */
static void slab_compact(struct fts_store *s)
{
	struct st_slab *sl = &s->slab;
	uint32_t *start = NULL, *order = NULL, *slot = NULL, w = 0;
	size_t off = 0;

	if (!sl->nchunk)
		return;
	qsort(sl->chunk, sl->nchunk, sizeof(*sl->chunk), cmp_ptr);
	start = calloc((size_t)sl->nchunk + 1, sizeof(*start));
	order = malloc((s->nlanes ? s->nlanes : 1) * sizeof(*order));
	slot = calloc(CHUNK / 8, sizeof(*slot));
	if (!start || !order || !slot)
		goto out;
	for (uint32_t i = 0; i < s->nlanes; i++)
		if (fts_store_in_slab(&s->lane[i]))
			start[chunk_of(sl, s->lane[i].col) + 1]++;
	for (uint32_t c = 0; c < sl->nchunk; c++)
		start[c + 1] += start[c];
	for (uint32_t i = 0; i < s->nlanes; i++)
		if (fts_store_in_slab(&s->lane[i]))
			order[start[chunk_of(sl, s->lane[i].col)]++] = i;
	/* start[c] is now chunk c's end: chunk c's lanes are order[c ? start[c-1] : 0, start[c]) */
	for (uint32_t c = 0; c < sl->nchunk; c++) {
		uint32_t a = c ? start[c - 1] : 0;

		if (a == start[c])
			continue;
		for (uint32_t j = a; j < start[c]; j++)
			slot[((char *)s->lane[order[j]].col - sl->chunk[c]) / 8] = order[j] + 1;
		for (uint32_t k = 0; k < CHUNK / 8; k++) {
			struct st_lane *l;
			size_t b;

			if (!slot[k])
				continue;
			l = &s->lane[slot[k] - 1];
			slot[k] = 0;
			b = block_bytes(l->cap, 0, 0);
			if (off + b > CHUNK) {
				w++;
				off = 0;
			}
			if (sl->chunk[w] + off != (char *)l->col)
				memmove(sl->chunk[w] + off, l->col, b);
			l->col = sl->chunk[w] + off;
			off += b;
		}
	}
	for (uint32_t c = w + 1; c < sl->nchunk; c++)
		munmap(sl->chunk[c], CHUNK);
	sl->nchunk = w + 1;
	sl->bytes = (size_t)sl->nchunk * CHUNK;
	sl->cur = sl->chunk[w] + off;
	sl->left = CHUNK - off;
	memset(sl->freel, 0, sizeof(sl->freel));
	sl->free_bytes = 0;
out:
	free(start);
	free(order);
	free(slot);
}

/* Compact when the free lists hold more than a quarter of what the lanes use (and a chunk). */
static void slab_maybe_compact(struct fts_store *s)
{
	struct st_slab *sl = &s->slab;
	size_t live = sl->bytes - sl->left - sl->free_bytes;

	if (sl->free_bytes >= CHUNK && sl->free_bytes > live / 4)
		slab_compact(s);
}

void fts_store_slab_tidy(struct fts_store *s)
{
	struct st_slab *sl = &s->slab;
	size_t live = sl->bytes - sl->left - sl->free_bytes;

	if (sl->free_bytes >= CHUNK && sl->free_bytes > live / 8)
		slab_compact(s);
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
		munmap(sl->chunk[i], CHUNK);
	free(sl->chunk);
	memset(sl, 0, sizeof(*sl));
}

size_t fts_store_block_bytes(const struct st_lane *l)
{
	return l->col ? block_bytes(l->cap, st_has_aux(l), st_has_aux2(l)) : 0;
}

struct st_ext *fts_store_ext(struct st_lane *l)
{
	if (!l->x) {
		l->x = calloc(1, sizeof(*l->x));
		if (l->x)
			l->x->last_ref = FTS_STR_NONE;
	}
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

/*
 * A long lane changes size through realloc (mremap for a big block: no
 * second copy held at once, and slack not yet written costs no RSS), its
 * columns then slid to their new starts: the last first when growing, the
 * first first when shrinking, so none overwrites another not yet moved.
 */
static int grow_in_place(struct st_lane *l, uint64_t cap, int aux, int aux2)
{
	uint64_t n = l->pub.nitems, oldcap = l->cap;
	struct cols o, c;
	void *blk;

	if (cap < oldcap) { /* shrinking: slide down first, then cut */
		cols_of(l->col, oldcap, aux, aux2, &o);
		cols_of(l->col, cap, aux, aux2, &c);
		memmove(c.dur, o.dur, n * sizeof(*c.dur));
		memmove(c.name, o.name, n * sizeof(*c.name));
		memmove(c.args, o.args, n * sizeof(*c.args));
		if (aux)
			memmove(c.aux, o.aux, n * sizeof(*c.aux));
		if (aux2)
			memmove(c.aux2, o.aux2, n * sizeof(*c.aux2));
		memmove(c.kind, o.kind, n);
		blk = realloc(l->col, block_bytes(cap, aux, aux2));
		l->col = blk ? blk : l->col; /* a failed shrink keeps the bigger block */
		l->cap = (uint32_t)cap;
		return 0;
	}
	blk = realloc(l->col, block_bytes(cap, aux, aux2));
	if (!blk)
		return -1;
	cols_of(blk, oldcap, aux, aux2, &o);
	cols_of(blk, cap, aux, aux2, &c);
	memmove(c.kind, o.kind, n);
	if (aux2)
		memmove(c.aux2, o.aux2, n * sizeof(*c.aux2));
	if (aux)
		memmove(c.aux, o.aux, n * sizeof(*c.aux));
	memmove(c.args, o.args, n * sizeof(*c.args));
	memmove(c.name, o.name, n * sizeof(*c.name));
	memmove(c.dur, o.dur, n * sizeof(*c.dur));
	l->col = blk;
	l->cap = (uint32_t)cap;
	return 0;
}

int fts_store_relayout(struct fts_store *s, struct st_lane *l, uint64_t cap, int aux2)
{
	int aux = st_has_aux(l), had2 = st_has_aux2(l);
	uint64_t n = l->pub.nitems;
	struct cols o, c;
	void *blk;

	if (cap < n || cap > UINT32_MAX || (aux2 && !l->x))
		return -1;
	if (l->col && !in_slab(l->cap, aux, had2) && !in_slab(cap, aux, aux2) && aux2 == had2)
		return grow_in_place(l, cap, aux, aux2);
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
	slab_maybe_compact(s);
	return 0;
}
