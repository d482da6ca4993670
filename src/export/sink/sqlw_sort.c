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

#include "core/util/buf.h"
#include "core/util/file_util.h"
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
	if (ksize > FTS_SQLW_KEY_MAX)
		return -EINVAL;
	s->chunk = malloc(ksize * cap);
	return s->chunk ? 0 : -ENOMEM;
}

/* How far back a late key may be inserted; one later than that is set aside. */
#define LOOKBACK 64

/*
 * Put key @key (at @i, the chunk's keys before @m sorted) in its place if
 * that is within LOOKBACK of the end; returns 0 when it is not.
 */
static int insert_near(struct fts_sqlw_sort *s, size_t m, size_t i)
{
	size_t k = s->ksize, lo = m > LOOKBACK ? m - LOOKBACK : 0, hi = m - 1;
	uint8_t *c = s->chunk, tmp[FTS_SQLW_KEY_MAX];

	if (lo && s->cmp(c + lo * k, c + i * k, s->ctx) > 0)
		return 0;
	/* the first place in [lo, m - 1] whose key sorts after key i (m - 1's does) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->cmp(c + mid * k, c + i * k, s->ctx) > 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	memcpy(tmp, c + i * k, k);
	memmove(c + (lo + 1) * k, c + lo * k, (m - lo) * k);
	memcpy(c + lo * k, tmp, k);
	return 1;
}

/* Merge the chunk's sorted first @m keys with the @a sorted keys of s->spare, from the back. */
static void merge_aside(struct fts_sqlw_sort *s, size_t m, size_t a)
{
	size_t k = s->ksize, out = m + a;
	uint8_t *c = s->chunk, *x = s->spare;

	while (a) {
		out--;
		if (m && s->cmp(c + (m - 1) * k, x + (a - 1) * k, s->ctx) > 0) {
			m--;
			memcpy(c + out * k, c + m * k, k);
		} else {
			a--;
			memcpy(c + out * k, x + a * k, k);
		}
	}
}

/*
 * Sort a chunk that arrives nearly in order (time keys: most in order, the
 * late ones mostly a few places behind): keys in order stay, a late key
 * goes back into place when that is at most LOOKBACK keys back, and the
 * rest (far behind) are set aside, sorted on their own and merged in. Moves
 * at most LOOKBACK keys per key, where a full insertion sort moved whole
 * stretches of the chunk. Returns 0 (nothing done) without memory for the
 * keys set aside.
 */
static int nearly_sort(struct fts_sqlw_sort *s)
{
	size_t k = s->ksize, m = 0, a = 0;
	uint8_t *c = s->chunk;

	if (!s->spare && !(s->spare = malloc(s->cap * k)))
		return 0;
	for (size_t i = 0; i < s->n; i++) {
		if (!m || s->cmp(c + (m - 1) * k, c + i * k, s->ctx) <= 0) {
			if (m != i)
				memcpy(c + m * k, c + i * k, k);
			m++;
		} else if (insert_near(s, m, i)) {
			m++;
		} else {
			memcpy(s->spare + a++ * k, c + i * k, k);
		}
	}
	if (a) {
		qsort_r(s->spare, a, k, s->cmp, s->ctx);
		merge_aside(s, m, a);
	}
	return 1;
}

/* qsort_r's view of two buckets: by their first keys. */
struct bucket_order {
	const struct fts_sqlw_sort *s;
	const size_t *first;     /* bucket -> index of its first key in the chunk */
};

static int bucket_cmp(const void *a, const void *b, void *ctx)
{
	const struct bucket_order *o = ctx;
	size_t k = o->s->ksize;

	return o->s->cmp(o->s->chunk + o->first[*(const uint32_t *)a] * k,
			 o->s->chunk + o->first[*(const uint32_t *)b] * k, o->s->ctx);
}

/*
 * Counting sort by bucket, stable: for keys whose buckets are intervals of
 * the order and whose order within a bucket is their arrival (a lane's
 * slices by rowid; a flow cat and type's rows). The few buckets in use are
 * put in order by their first keys. Returns 0 when the chunk's buckets span
 * too wide a range for a count table (or out of memory).
 */
static int bucket_sort(struct fts_sqlw_sort *s)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t k = s->ksize, *count, *first, pos = 0, range, used = 0;
	uint32_t *order;
	uint8_t *out;

	for (size_t i = 0; i < s->n; i++) {
		uint64_t b = s->bucket(s->chunk + i * k);

		lo = b < lo ? b : lo;
		hi = b > hi ? b : hi;
	}
	if (!s->n || hi - lo >= (1u << 20))
		return 0;
	range = (size_t)(hi - lo) + 1;
	if (!s->spare && !(s->spare = malloc(s->cap * k)))
		return 0;
	count = calloc(range, sizeof(*count));
	first = malloc(range * sizeof(*first));
	order = malloc(range * sizeof(*order));
	if (!count || !first || !order) {
		free(count);
		free(first);
		free(order);
		return 0;
	}
	for (size_t i = 0; i < s->n; i++) {
		size_t b = (size_t)(s->bucket(s->chunk + i * k) - lo);

		if (!count[b]++) {
			first[b] = i;
			order[used++] = (uint32_t)b;
		}
	}
	qsort_r(order, used, sizeof(*order), bucket_cmp, &(struct bucket_order){ s, first });
	for (size_t u = 0; u < used; u++) {
		size_t n = count[order[u]];

		count[order[u]] = pos;
		pos += n;
	}
	out = s->spare;
	for (size_t i = 0; i < s->n; i++)
		memcpy(out + count[s->bucket(s->chunk + i * k) - lo]++ * k, s->chunk + i * k, k);
	free(count);
	free(first);
	free(order);
	s->spare = s->chunk;
	s->chunk = out;
	return 1;
}

static void sort_chunk(struct fts_sqlw_sort *s)
{
	if (s->bucket && bucket_sort(s))
		return;
	if (!nearly_sort(s))
		qsort_r(s->chunk, s->n, s->ksize, s->cmp, s->ctx);
}

void fts_sqlw_sort_bucketed(struct fts_sqlw_sort *s, fts_sqlw_bucket_fn bucket)
{
	s->bucket = bucket;
}

/* Sort the chunk and append it to the scratch file as a run. */
static int spill(struct fts_sqlw_sort *s)
{
	size_t bytes = s->n * s->ksize;
	int rc;

	if (s->fd < 0 && (s->fd = fts_rec_tempfile(s->near)) < 0)
		return s->fd;
	if (fts_grow((void **)&s->runs, &s->rcap, s->nruns + 1, sizeof(*s->runs), 16))
		return -ENOMEM;
	sort_chunk(s);
	if ((rc = fts_write_all(s->fd, s->chunk, bytes)))
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

/*
 * Note the run holding the second-smallest key (the smaller of the top's
 * children; SIZE_MAX when the top is alone). While only the top run moves,
 * the top stays on top as long as its key is not above that one's.
 */
static void note_second(struct fts_sqlw_sort *s)
{
	if (s->hn < 2)
		s->second = SIZE_MAX;
	else if (s->hn == 2 || s->cmp(run_key(s, s->heap[2]), run_key(s, s->heap[1]), s->ctx) >= 0)
		s->second = s->heap[1];
	else
		s->second = s->heap[2];
}

/* Restore the heap after its top changed, and note the new second. */
static void resettle(struct fts_sqlw_sort *s)
{
	sift_down(s, 0);
	note_second(s);
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
	/* the chunks' memory is not needed for the merge */
	free(s->chunk);
	free(s->spare);
	s->chunk = s->spare = NULL;
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
	note_second(s);
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
				resettle(s);
			return 0;
		}
		if ((rc = refill(s, r)))
			return rc;
	}
	/* most steps: the top run's next key is still the smallest, nothing moves */
	if (s->second != SIZE_MAX &&
	    s->cmp(run_key(s, s->heap[0]), run_key(s, s->second), s->ctx) > 0)
		resettle(s);
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
	free(s->spare);
	for (size_t i = 0; i < s->nruns; i++)
		free(s->runs[i].buf);
	free(s->runs);
	free(s->heap);
	if (s->fd >= 0)
		close(s->fd);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}
