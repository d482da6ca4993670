// SPDX-License-Identifier: MIT
/*
 * sqlw_sort.c - sorted runs spilled to a scratch file, merged through a
 * binary heap. A chunk already in order (the common case for slices, which
 * arrive nearly in start order) is spilled without sorting.
 */
#include "export/sink/sqlw_sort.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util/tempfile.h"

/* Keys read from a run at a time during the merge. */
#define RUN_BUF_BYTES (64u << 10)

int fts_sqlw_sort_init(struct fts_sqlw_sort *s, size_t ksize, size_t cap, fts_sqlw_cmp_fn cmp,
		       void *ctx, const char *near)
{
	memset(s, 0, sizeof(*s));
	s->ksize = ksize;
	s->cap = cap;
	s->cmp = cmp;
	s->ctx = ctx;
	s->near = near;
	s->fd = -1;
	s->chunk = malloc(ksize * cap);
	return s->chunk ? 0 : -ENOMEM;
}

static int sorted(const struct fts_sqlw_sort *s)
{
	for (size_t i = 1; i < s->n; i++)
		if (s->cmp(s->chunk + (i - 1) * s->ksize, s->chunk + i * s->ksize, s->ctx) > 0)
			return 0;
	return 1;
}

static void sort_chunk(struct fts_sqlw_sort *s)
{
	if (!sorted(s))
		qsort_r(s->chunk, s->n, s->ksize, s->cmp, s->ctx);
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Sort the chunk and append it to the scratch file as a run. */
static int spill(struct fts_sqlw_sort *s)
{
	size_t bytes = s->n * s->ksize;
	int rc;

	if (s->fd < 0 && (s->fd = fts_rec_tempfile(s->near)) < 0)
		return s->fd;
	if (s->nruns == s->rcap) {
		size_t cap = s->rcap ? 2 * s->rcap : 16;
		struct fts_sqlw_run *r = realloc(s->runs, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		s->runs = r;
		s->rcap = cap;
	}
	sort_chunk(s);
	if ((rc = write_all(s->fd, s->chunk, bytes)))
		return rc;
	s->runs[s->nruns++] = (struct fts_sqlw_run){ .off = s->end, .left = s->n };
	s->end += (off_t)bytes;
	s->n = 0;
	return 0;
}

int fts_sqlw_sort_add(struct fts_sqlw_sort *s, const void *key)
{
	if (s->err)
		return s->err;
	if (s->n == s->cap && (s->err = spill(s)))
		return s->err;
	memcpy(s->chunk + s->n++ * s->ksize, key, s->ksize);
	return 0;
}

/* Refill run @r's buffer; 0 (r->n == 0 at its end) or a negative errno. */
static int refill(struct fts_sqlw_sort *s, struct fts_sqlw_run *r)
{
	size_t want = RUN_BUF_BYTES / s->ksize, got = 0;

	if (want > r->left)
		want = r->left;
	while (got < want * s->ksize) {
		ssize_t n = pread(s->fd, r->buf + got, want * s->ksize - got, r->off + (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		got += (size_t)n;
	}
	r->off += (off_t)got;
	r->left -= want;
	r->n = want;
	r->pos = 0;
	return 0;
}

static const void *run_key(const struct fts_sqlw_sort *s, size_t i)
{
	const struct fts_sqlw_run *r = &s->runs[i];

	return r->buf + r->pos * s->ksize;
}

/* Restore the heap from slot @i down. */
static void sift_down(struct fts_sqlw_sort *s, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i, x;

		if (l < s->hn && s->cmp(run_key(s, s->heap[l]), run_key(s, s->heap[m]), s->ctx) < 0)
			m = l;
		if (l + 1 < s->hn && s->cmp(run_key(s, s->heap[l + 1]), run_key(s, s->heap[m]), s->ctx) < 0)
			m = l + 1;
		if (m == i)
			return;
		x = s->heap[i];
		s->heap[i] = s->heap[m];
		s->heap[m] = x;
		i = m;
	}
}

int fts_sqlw_sort_start(struct fts_sqlw_sort *s)
{
	if (s->err)
		return s->err;
	if (!s->nruns) {
		sort_chunk(s);
		s->it = 0;
		return 0;
	}
	if (s->n && (s->err = spill(s)))
		return s->err;
	/* the chunk's memory is not needed for the merge */
	free(s->chunk);
	s->chunk = NULL;
	s->heap = malloc(sizeof(*s->heap) * s->nruns);
	if (!s->heap)
		return s->err = -ENOMEM;
	for (size_t i = 0; i < s->nruns; i++) {
		struct fts_sqlw_run *r = &s->runs[i];

		r->buf = malloc(RUN_BUF_BYTES);
		if (!r->buf)
			return s->err = -ENOMEM;
		if ((s->err = refill(s, r)))
			return s->err;
		s->heap[s->hn++] = i;
	}
	for (size_t i = s->hn / 2; i-- > 0;)
		sift_down(s, i);
	s->merging = 1;
	return 0;
}

/* Move the run on top of the heap past the key handed out last. */
static int advance(struct fts_sqlw_sort *s)
{
	struct fts_sqlw_run *r = &s->runs[s->heap[0]];
	int rc;

	if (++r->pos == r->n) {
		if (!r->left) {
			s->heap[0] = s->heap[--s->hn];
			if (s->hn)
				sift_down(s, 0);
			return 0;
		}
		if ((rc = refill(s, r)))
			return rc;
	}
	sift_down(s, 0);
	return 0;
}

const void *fts_sqlw_sort_next(struct fts_sqlw_sort *s)
{
	if (s->err)
		return NULL;
	if (!s->merging)
		return s->it < s->n ? s->chunk + s->it++ * s->ksize : NULL;
	/*
	 * The top run's key is handed out and the run advances on the next
	 * call, so the key stays valid in its buffer until then.
	 */
	if (s->handed && (s->err = advance(s)))
		return NULL;
	s->handed = s->hn > 0;
	return s->hn ? run_key(s, s->heap[0]) : NULL;
}

void fts_sqlw_sort_free(struct fts_sqlw_sort *s)
{
	free(s->chunk);
	for (size_t i = 0; i < s->nruns; i++)
		free(s->runs[i].buf);
	free(s->runs);
	free(s->heap);
	if (s->fd >= 0)
		close(s->fd);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}
