/* SPDX-License-Identifier: MIT */
/*
 * store_cache_local.h - the store cache's insides, shared by its reader
 * (store_cache.c) and its writer (store_cache_write.c). src/export/preview only.
 */
#ifndef FTS_STORE_CACHE_LOCAL_H
#define FTS_STORE_CACHE_LOCAL_H

#include "export/preview/store_cache.h"

#include <pthread.h>

/* One file's identity: changes whenever the file is replaced or written. */
struct id5 {
	uint64_t dev, ino, size, mtime_ns, ctime_ns;
};

struct hdr {
	char magic[8];
	uint32_t format, hdr_bytes;
	char version[32];
	uint8_t build[20];              /* the code's build id: a rebuild of one version misses */
	struct id5 input, pidmap;
	struct id5 wal;                 /* the input's "-wal" (a DB's rows not yet in it); zeros: none */
	uint64_t payload_bytes;
	uint64_t nstrs, nlanes, items;  /* what the payload says, repeated for a quick look */
	uint64_t sum;                   /* over the payload */
	uint64_t hdr_sum;               /* over the header up to here */
};

struct st_cache {
	int dfd;                        /* the cache directory, -1: not usable */
	char name[40];                  /* "<16 hex>.ftc" */
	struct hdr key;                 /* magic, format, version, input, pidmap filled */
	char note[200];                 /* the open's: read by the front while the writer runs */
	char wnote[200];                /* the writer's failure: quiet, for a debugger's eyes only */
	pthread_t writer;
	int writing;
	const struct fts_store *store;  /* what the writer writes (read only, alive until joined) */
};

/* The file's checksum: xxh64's round over four lanes of 8-byte words (store_cache_write.c). */
struct fts_cache_sum {
	uint64_t v[4], len;
};

/* fts_cache_sum_init - an empty checksum. */
void fts_cache_sum_init(struct fts_cache_sum *h);

/* fts_cache_sum_blocks - add @n bytes at @p, @n a multiple of 32 (the tail goes to fts_cache_sum_end). */
void fts_cache_sum_blocks(struct fts_cache_sum *h, const unsigned char *p, size_t n);

/* fts_cache_sum_end - the checksum, with the tail @p (@n < 32 bytes); set h->len to the total first. */
uint64_t fts_cache_sum_end(const struct fts_cache_sum *h, const unsigned char *p, size_t n);

/* fts_cache_sum_all - the checksum of @n bytes at @p at once. */
uint64_t fts_cache_sum_all(const void *p, size_t n);

/* fts_store_cache_writer - the writer thread: @arg is the st_cache, its store set (store_cache_write.c). */
void *fts_store_cache_writer(void *arg);

#endif
