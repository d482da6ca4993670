/* SPDX-License-Identifier: MIT */
/*
 * sqlw_sort.h - an external sort of fixed-size keys in bounded memory, for
 * the index keys of the page writer: keys are collected in a chunk, each
 * full chunk is sorted and spilled to an unlinked scratch file as a run,
 * and the runs are merged on reading. A sort whose keys fit one chunk never
 * touches the disk.
 */
#ifndef FTS_SQLW_SORT_H
#define FTS_SQLW_SORT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef int (*fts_sqlw_cmp_fn)(const void *a, const void *b, void *ctx);
typedef uint64_t (*fts_sqlw_bucket_fn)(const void *key);

/* The largest key. */
#define FTS_SQLW_KEY_MAX 64

struct fts_sqlw_run {
	off_t off;               /* next key in the scratch file */
	size_t left;             /* keys still in the file */
	uint8_t *buf;            /* read buffer */
	size_t n, pos;           /* keys in buf, next one */
};

struct fts_sqlw_sort {
	size_t ksize, cap, n;    /* key bytes, keys per chunk, keys in the chunk */
	uint8_t *chunk;
	uint8_t *spare;          /* the bucket sort's output, then swapped with chunk */
	fts_sqlw_bucket_fn bucket;
	fts_sqlw_cmp_fn cmp;
	void *ctx;
	const char *near;        /* scratch file goes beside this path */
	int fd;                  /* scratch file, -1 until the first spill */
	off_t end;
	struct fts_sqlw_run *runs;
	size_t nruns, rcap;
	size_t *heap, hn;        /* merge: run indexes, smallest current key first */
	size_t second;           /* merge: the run of the second-smallest key, or SIZE_MAX */
	size_t it;               /* in-memory: next key in the chunk */
	int merging;
	int handed;                /* merge: the top run's key was handed out */
	int err;                 /* first error (negative errno) */
};

/*
 * fts_sqlw_sort_init - an empty sort of @ksize-byte keys ordered by @cmp
 * (with @ctx), @cap keys per chunk, spilling beside @near (kept, not copied).
 * Returns 0, -EINVAL for keys over FTS_SQLW_KEY_MAX bytes, or -ENOMEM.
 */
int fts_sqlw_sort_init(struct fts_sqlw_sort *s, size_t ksize, size_t cap, fts_sqlw_cmp_fn cmp,
		       void *ctx, const char *near);

/*
 * fts_sqlw_sort_bucketed - promise that the keys of one @bucket form an
 * interval of the order, within which they come in the order they are
 * added, so a chunk sorts in one counting pass (when its buckets span a
 * small range; else as any chunk).
 */
void fts_sqlw_sort_bucketed(struct fts_sqlw_sort *s, fts_sqlw_bucket_fn bucket);

/* fts_sqlw_sort_add - add one key. Returns 0 or a negative errno (scratch file write). */
int fts_sqlw_sort_add(struct fts_sqlw_sort *s, const void *key);

/* fts_sqlw_sort_start - no more keys: set up reading in order. Returns 0 or a negative errno. */
int fts_sqlw_sort_start(struct fts_sqlw_sort *s);

/*
 * fts_sqlw_sort_next - the next key in order (valid until the next call),
 * or NULL at the end or on error (then s->err is set).
 */
const void *fts_sqlw_sort_next(struct fts_sqlw_sort *s);

/* fts_sqlw_sort_free - release memory and the scratch file. */
void fts_sqlw_sort_free(struct fts_sqlw_sort *s);

#endif
