/* SPDX-License-Identifier: MIT */
/*
 * inthash.h - the integer-keyed hash table: uint64 key -> uint64 value.
 *
 * Open addressing with linear probing over one array of (key, value) slots,
 * so a probe reads one cache line; at most half full; deletion shifts the
 * following run back (no tombstones), so a table with churn (tasks dying,
 * pids reused) probes as little as a fresh one. Keys are spread by a
 * multiplicative (Fibonacci) hash: pids a crafted trace picks all alike
 * modulo 2^k still land apart. Values are the caller's: an index, a pid, a
 * pointer through uintptr_t. String keys belong in strtab.h.
 *
 * The sched model's live tasks, the pid map and the recorder's pid scan use
 * it; it sits on the converter's hot path (a task lookup per event).
 */
#ifndef FTS_INTHASH_H
#define FTS_INTHASH_H

#include <stddef.h>
#include <stdint.h>

/* The one key that cannot be stored: it marks a free slot. */
#define FTS_INTHASH_FREE UINT64_MAX

struct fts_inthash_slot {
	uint64_t key;
	uint64_t val;
};

struct fts_inthash {
	struct fts_inthash_slot *slot; /* cap slots */
	uint32_t cap;                  /* 0 (nothing allocated yet) or a power of two */
	uint32_t n;                    /* keys held */
	int shift;                     /* 64 - log2(cap): the hash's top bits pick the slot */
};

/* fts_inthash_init - an empty table (allocates nothing). */
void fts_inthash_init(struct fts_inthash *h);

/* fts_inthash_free - release the slots (the table may be re-initialised). */
void fts_inthash_free(struct fts_inthash *h);

/*
 * fts_inthash_get - the value of @key, or NULL when absent.
 * The pointer is valid until the next put or del.
 */
const uint64_t *fts_inthash_get(const struct fts_inthash *h, uint64_t key);

/*
 * fts_inthash_put - the value slot of @key, added (value 0) when absent;
 * *@added (may be NULL) says which. The pointer is valid until the next put
 * or del. When growing fails the table stays as it is while it has room
 * (slower, still correct). Returns NULL when out of memory.
 * @key must not be FTS_INTHASH_FREE.
 */
uint64_t *fts_inthash_put(struct fts_inthash *h, uint64_t key, int *added);

/* fts_inthash_del - remove @key; returns 1 when it was there, 0 when not. */
int fts_inthash_del(struct fts_inthash *h, uint64_t key);

/*
 * fts_inthash_next - walk the table: start with *@pos = 0; each call fills
 * @key and @val (either may be NULL) with the next entry and returns 1, or
 * returns 0 at the end. Slot order: not insertion order, not sorted. The
 * table must not change during the walk.
 */
int fts_inthash_next(const struct fts_inthash *h, uint32_t *pos, uint64_t *key, uint64_t *val);

/* fts_inthash_count - the number of keys. */
static inline uint32_t fts_inthash_count(const struct fts_inthash *h)
{
	return h->n;
}

/* fts_inthash_bytes - heap held, for memory figures. */
static inline size_t fts_inthash_bytes(const struct fts_inthash *h)
{
	return (size_t)h->cap * sizeof(*h->slot);
}

#endif
