/* SPDX-License-Identifier: MIT */
/*
 * store_cache.h - the preview store's cache (store_cache.c): a loaded store
 * written to a file keyed on the input's identity, so reopening the same
 * capture or DB maps that file instead of parsing the input again.
 * docs/robustness.md tells where it lives and what it trusts.
 */
#ifndef FTS_STORE_CACHE_H
#define FTS_STORE_CACHE_H

#include "export/preview/store_local.h"

struct st_cache;

/*
 * fts_store_cache_new - the cache entry @o's input would have, or NULL when
 * the cache is off for this open (not asked, FTSCOPE_NO_CACHE=1, profiling
 * data, an input that is not a regular file, out of memory). Never fails
 * the open: a cache directory that cannot be used leaves a note.
 */
struct st_cache *fts_store_cache_new(const struct fts_store_open_opts *o);

/*
 * fts_store_cache_load - a store read back from @c's file, checked whole
 * (header, key, checksum, every index), into *@out (owning @c then).
 * Returns 0 on a hit, 1 on a miss or a rejected file (with a note in @c
 * saying why; *@out NULL).
 */
int fts_store_cache_load(struct st_cache *c, struct fts_store **out);

/*
 * fts_store_cache_save - start writing @s to @c's file from a second thread
 * (@s owns @c from now on; fts_store_cache_free waits for the thread). A
 * failure to write is a note, never an error.
 */
void fts_store_cache_save(struct st_cache *c, struct fts_store *s);

/* fts_store_cache_text - @c's note, or NULL when there is nothing to say. */
const char *fts_store_cache_text(const struct st_cache *c);

/* fts_store_cache_free - wait for the writer, if any, and release @c (NULL is fine). */
void fts_store_cache_free(struct st_cache *c);

#endif
