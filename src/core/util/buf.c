// SPDX-License-Identifier: MIT
/* buf.c - the one growable byte buffer (see buf.h). */
#include "core/util/buf.h"
#include <errno.h>
#include <stdint.h>

#include <stdlib.h>
#include <string.h>

/* The slow half of fts_buf_reserve: out of memory already, or the buffer must grow. */
int fts__buf_grow(struct fts_buf *b, size_t n)
{
	size_t cap;
	char *p;

	if (b->oom)
		return -1;
	if (b->len + n <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 4096;
	while (cap < b->len + n)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = 1;
		return -1;
	}
	b->p = p;
	b->cap = cap;
	return 0;
}

void fts_buf_puts(struct fts_buf *b, const char *s)
{
	fts_buf_put(b, s, strlen(s));
}

void fts_buf_free(struct fts_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
	b->oom = 0;
}

int fts_grow(void **p, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t n = *cap ? *cap : first;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -ENOMEM;
		n *= 2;
	}
	if (n > SIZE_MAX / size)
		return -ENOMEM;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}
