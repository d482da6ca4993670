/* SPDX-License-Identifier: MIT */
/*
 * buf.h - the library's one growable byte buffer.
 *
 * Appends never fail loudly: the first allocation failure sets @oom and every
 * later append is dropped, so a writer appends freely and checks once at the
 * end (as the trace.dat header, the JSON lines and the SQLite args do).
 */
#ifndef FTS_UTIL_BUF_H
#define FTS_UTIL_BUF_H

#include <stddef.h>
#include <string.h>

struct fts_buf {
	char *p;
	size_t len;
	size_t cap;
	int oom;       /* an append failed: the content is incomplete */
};

/* fts__buf_grow - fts_buf_reserve's slow half (out of memory already, or grow). Returns 0 or -1. */
int fts__buf_grow(struct fts_buf *b, size_t n);

/**
 * fts_buf_reserve - make room for more bytes
 * @b: the buffer
 * @n: bytes about to be appended
 *
 * Returns 0, or -1 with @b->oom set when memory ran out (or had already).
 * Inline, as fts_buf_put: the sinks append a few bytes at a time, millions
 * of times a second.
 */
static inline int fts_buf_reserve(struct fts_buf *b, size_t n)
{
	if (!b->oom && b->len + n <= b->cap)
		return 0;
	return fts__buf_grow(b, n);
}

/**
 * fts_buf_put - append bytes
 * @b: the buffer
 * @s: the bytes
 * @n: how many
 */
static inline void fts_buf_put(struct fts_buf *b, const void *s, size_t n)
{
	/* nothing to add: @s may be NULL then (an empty buffer's p), and memcpy must not see it */
	if (!n || fts_buf_reserve(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

/**
 * fts_buf_puts - append a C string (without its NUL)
 * @b: the buffer
 * @s: the string
 */
void fts_buf_puts(struct fts_buf *b, const char *s);

/**
 * fts_grow - make an array of @size-byte elements hold at least @need
 * @p: the array (realloc'd; unchanged on failure)
 * @cap: its capacity in elements, updated
 * @need: elements wanted
 * @size: bytes per element
 * @first: capacity of a first allocation (doubled until @need fits)
 *
 * Returns 0, or -ENOMEM (out of memory or a size that would overflow).
 */
int fts_grow(void **p, size_t *cap, size_t need, size_t size, size_t first);

/**
 * fts_buf_free - release the memory and empty the buffer
 * @b: the buffer
 */
void fts_buf_free(struct fts_buf *b);

#endif
