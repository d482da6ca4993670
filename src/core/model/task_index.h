/* SPDX-License-Identifier: MIT */
/*
 * task_index.h - the sched model's live tasks by pid: open addressing over
 * 4-byte slots holding a record index (+1; 0 is free). The key is not kept:
 * the caller's @key callback reads it from the record (its pid), so 1 M
 * tasks cost 8 MB of slots, not inthash's 32 (issue 21 item 14).
 *
 * Same placement as inthash.h (Fibonacci home of the 64-bit key, linear
 * probing, at most half full, same growth, backward-shift deletion), so a
 * walk visits the tasks in the order inthash did: the model closes tasks in
 * walk order, and its output's order does not move.
 */
#ifndef FTS_TASK_INDEX_H
#define FTS_TASK_INDEX_H

#include <stdint.h>

#define FTS_TIDX_NONE UINT32_MAX

struct fts_tidx {
	uint32_t *slot;                               /* cap slots: value + 1, 0 = free */
	uint32_t cap;                                 /* 0 or a power of two */
	uint32_t n;                                   /* values held */
	int shift;                                    /* 64 - log2(cap) */
	uint64_t (*key)(const void *ctx, uint32_t v); /* the key of value @v */
	const void *ctx;
};

/* fts_tidx_init - an empty index whose values' keys @key gives (allocates nothing). */
void fts_tidx_init(struct fts_tidx *h, uint64_t (*key)(const void *ctx, uint32_t v), const void *ctx);

/* fts_tidx_free - release the slots (the index may be re-initialised). */
void fts_tidx_free(struct fts_tidx *h);

/* fts_tidx_get - the value whose key is @key, or FTS_TIDX_NONE. */
uint32_t fts_tidx_get(const struct fts_tidx *h, uint64_t key);

/*
 * fts_tidx_add - add value @v (< FTS_TIDX_NONE), whose key (already readable
 * through @key) is not in the index. Returns 0, or -1 when out of memory.
 */
int fts_tidx_add(struct fts_tidx *h, uint32_t v);

/* fts_tidx_del - remove the value whose key is @key; 1 when it was there, 0 when not. */
int fts_tidx_del(struct fts_tidx *h, uint64_t key);

/*
 * fts_tidx_next - walk: start with *@pos = 0; each call sets *@v to the next
 * value and returns 1, or returns 0 at the end. Slot order; no change during the walk.
 */
int fts_tidx_next(const struct fts_tidx *h, uint32_t *pos, uint32_t *v);

#endif
