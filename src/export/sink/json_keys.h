/* SPDX-License-Identifier: MIT */
/*
 * json_keys.h - the JSON sink's arg keys, handed to its writer once.
 *
 * An item's keys are a few strings repeated on every event ("cpu", "prio",
 * "host_pid"). The producer remembers where each key's text was last seen
 * (keyed by pointer, confirmed by content, so a reused buffer is never
 * trusted; a string literal of this library's, in its read-only memory,
 * cannot change: its address is enough), and a record carries a slot
 * number instead of the key; the
 * writer keeps each slot's key escaped as JSON and copies it per event
 * instead of escaping it again. Both sides change a slot only in record
 * order (a definition precedes the items that use it), so they agree.
 */
#ifndef FTS_JSON_KEYS_H
#define FTS_JSON_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "ftscope/lane.h"
#include "core/util/buf.h"
#include "core/util/self_image.h"

#define FTS_JKEY_CACHED 256 /* slots the producer remembers */
#define FTS_JKEY_MAX 63     /* longer keys are defined again for every item */
#define FTS_JKEY_PROBES 4   /* the slots a key may sit in, from its address's */
/* slot FTS_JKEY_CACHED + i: arg i's key for one item only (too long, or its slot taken) */
#define FTS_JKEY_SLOTS (FTS_JKEY_CACHED + FTS_ITEM_MAX_ARGS)

/* The producer's side. */
struct fts_jkey_cache {
	struct {
		const char *ptr;           /* where the text was last seen; NULL: free */
		int fixed;                 /* @ptr is read-only memory: no need to compare */
		char text[FTS_JKEY_MAX + 1];
	} slot[FTS_JKEY_CACHED];
	struct fts_addr_range ro[FTS_SELF_RO_MAX]; /* this library's read-only memory */
	int nro;
	unsigned turn;                 /* which probe slot a miss evicts next */
};

/* fts_jkey_cache_init - an empty cache (it may be zeroed memory already). */
void fts_jkey_cache_init(struct fts_jkey_cache *c);

/*
 * fts_jkey_pick - the slot for arg @arg's key @key of an item whose earlier
 * args took @used[0..@arg-1]; *@slot is set. Returns 1 when the writer
 * already holds @key there, 0 when the caller must define the slot first.
 */
int fts_jkey_pick(struct fts_jkey_cache *c, const char *key, int arg, const uint16_t *used,
		  uint16_t *slot);

/* The writer's side: each slot's key as a quoted, escaped JSON string. */
struct fts_jkey_table {
	struct fts_buf json[FTS_JKEY_SLOTS];
};

/* fts_jkey_define - slot @slot (< FTS_JKEY_SLOTS) is @key now (@n bytes); 0 or -ENOMEM. */
int fts_jkey_define(struct fts_jkey_table *t, uint16_t slot, const char *key, size_t n);

/* fts_jkey_table_free - release the table's memory. */
void fts_jkey_table_free(struct fts_jkey_table *t);

#endif
