// SPDX-License-Identifier: MIT
/*
 * store_query.c - answering the view: bucket summaries, the item under the
 * cursor, the next item of some kinds. All walk the summary tree, never a
 * lane's items beyond the few crossing a query's edges.
 */
#include "export/preview/store_local.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The first item starting at or after @t. */
static uint64_t lower(const struct st_lane *l, uint64_t t)
{
	uint64_t lo = 0, hi = l->pub.nitems;

	while (lo < hi) {
		uint64_t mid = (lo + hi) / 2;

		if (st_ts(l)[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* One bucket being summed: flags, busy time, items, dominant-key candidates. */
struct acc {
	uint32_t flags;
	uint64_t busy, items;
	struct st_cands c;
};

/*
 * Buckets an item covers whole, between its first and its last, taken as
 * differences and summed once per query: an item across many buckets costs
 * O(1), not one step per bucket (issue 21: 40k slices with one start and long
 * durations cost each frame 40k x width). By kind (items, flags, busy time
 * and a task lane's state key all follow from it) and, on CPU lanes, by run
 * name for the first COVER_NAMES names. An item of another name is walked
 * while the query's walk budget lasts (runs on a CPU lane do not overlap, so
 * a real capture never spends it); past it, only its name's share of the
 * dominant task is left out (a pile of overlapping runs has no dominant).
 */
#define COVER_NAMES 16
struct cover {
	int64_t *kind[FTS_ITEM__COUNT];   /* n + 1 differences each */
	int64_t *name[COVER_NAMES];
	uint32_t key[COVER_NAMES];
	int nnames;
	int64_t *mem;
	int used, failed;
	uint64_t budget;                  /* buckets an item of another name may still walk */
};

/* A query over one bucket (fts_store_bucket) or n equal ones (fts_store_buckets). */
struct q {
	const struct st_lane *l;
	uint64_t t0, t1, ilo, ihi;
	struct acc *acc;                /* one per bucket */
	uint64_t *edges;                /* n + 1 bucket edges, t0 .. t1 */
	uint32_t n;                     /* buckets */
	uint32_t kinds;                 /* find: wanted kinds */
	int64_t best;                   /* find: shortest covering item */
	uint64_t best_dur;
	struct cover cv;                /* buckets: whole coverings */
};

/* Bucket k's start: t0 + w * k / n, exactly, whatever the width. */
static uint64_t edge_at(uint64_t t0, uint64_t t1, uint64_t k, uint32_t n)
{
	return t0 + (uint64_t)((unsigned __int128)(t1 - t0) * k / n);
}

static uint64_t edge(const struct q *q, uint64_t k)
{
	return q->edges[k];
}

/* The bucket holding @t (t0 <= t < t1): a binary search of the edges, no division. */
static uint64_t bucket_of(const struct q *q, uint64_t t)
{
	uint32_t lo = 0, hi = q->n; /* edges[lo] <= t < edges[hi] */

	while (hi - lo > 1) {
		uint32_t mid = (lo + hi) / 2;

		if (q->edges[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The bucket holding @t, given @k at or before it, for an item's end: most
 * items end in the bucket they start in or the next, so look there before
 * searching (the search was 40% of a whole-capture frame).
 */
static uint64_t bucket_after(const struct q *q, uint64_t t, uint64_t k)
{
	if (t < q->edges[k + 1])
		return k;
	if (k + 2 <= q->n && t < q->edges[k + 2])
		return k + 1;
	return bucket_of(q, t);
}

/* The bucket holding @t, given one at or before it: items come in start order. */
static uint64_t bucket_from(const struct q *q, uint64_t t, uint64_t k)
{
	while (k + 1 < q->n && q->edges[k + 1] <= t)
		k++;
	return k;
}

/* The difference arrays, allocated at the first item that needs them; 0 or -1. */
static int cover_open(struct q *q)
{
	struct cover *c = &q->cv;
	size_t m = (size_t)q->n + 1;

	if (c->used || c->failed)
		return c->failed ? -1 : 0;
	c->mem = calloc((FTS_ITEM__COUNT + COVER_NAMES) * m, sizeof(*c->mem));
	if (!c->mem) {
		c->failed = 1;
		return -1;
	}
	for (int k = 0; k < FTS_ITEM__COUNT; k++)
		c->kind[k] = c->mem + (size_t)k * m;
	for (int k = 0; k < COVER_NAMES; k++)
		c->name[k] = c->mem + (size_t)(FTS_ITEM__COUNT + k) * m;
	c->used = 1;
	return 0;
}

/* Item @i covers buckets [j0, j1) whole: note it; -1 when it must be walked instead. */
static int cover_add(struct q *q, uint64_t i, uint64_t j0, uint64_t j1)
{
	const struct st_lane *l = q->l;
	struct cover *c = &q->cv;
	int slot = -1;

	if (st_kind(l)[i] >= FTS_ITEM__COUNT || cover_open(q))
		return -1;
	if (st_named(l) && st_kind(l)[i] == FTS_ITEM_RUN) {
		for (int k = 0; k < c->nnames && slot < 0; k++)
			if (c->key[k] == st_name(l)[i])
				slot = k;
		if (slot < 0 && c->nnames < COVER_NAMES) {
			slot = c->nnames++;
			c->key[slot] = st_name(l)[i];
		}
		if (slot < 0 && c->budget >= j1 - j0) {
			c->budget -= j1 - j0;
			return -1;
		}
		if (slot >= 0) {
			c->name[slot][j0]++;
			c->name[slot][j1]--;
		}
	}
	c->kind[st_kind(l)[i]][j0]++;
	c->kind[st_kind(l)[i]][j1]--;
	return 0;
}

/* The coverings into the buckets, as the walk would have added them. */
static void cover_apply(struct q *q)
{
	struct cover *c = &q->cv;
	int64_t kn[FTS_ITEM__COUNT] = { 0 }, nm[COVER_NAMES] = { 0 };
	int cpu = st_named(q->l);

	if (!c->used)
		return;
	for (uint32_t j = 0; j < q->n; j++) {
		struct acc *a = &q->acc[j];
		uint64_t w = edge(q, j + 1) - edge(q, j);

		for (int k = 0; k < FTS_ITEM__COUNT; k++) {
			kn[k] += c->kind[k][j];
			if (!kn[k])
				continue;
			a->items += (uint64_t)kn[k];
			a->flags |= FTS_BK_ANY | st_kind_flag((unsigned)k);
			if (k == (cpu ? FTS_ITEM_RUN : FTS_ITEM_RUNNING))
				a->busy += (uint64_t)kn[k] * w;
			if (!cpu && k >= FTS_ITEM_RUNNING && k <= FTS_ITEM_BLOCKED)
				st_cand_add(&a->c, (uint32_t)k, (uint64_t)kn[k] * w);
		}
		for (int k = 0; k < c->nnames; k++) {
			nm[k] += c->name[k][j];
			if (nm[k])
				st_cand_add(&a->c, c->key[k], (uint64_t)nm[k] * w);
		}
	}
	free(c->mem);
	c->mem = NULL;
	c->used = 0;
}

/* Item @i's share of bucket @j: [ts, e) clipped to it. */
static void scan_part(struct q *q, uint64_t i, uint64_t j, uint64_t ts, uint64_t e)
{
	const struct st_lane *l = q->l;
	struct acc *a = &q->acc[j];
	uint64_t b0 = edge(q, j), b1 = edge(q, j + 1);
	uint64_t x = ts > b0 ? ts : b0, y = e < b1 ? e : b1;

	a->items++;
	a->flags |= FTS_BK_ANY | st_kind_flag(st_kind(l)[i]);
	if (st_is_busy(l, i))
		a->busy += y - x;
	st_cand_add(&a->c, st_top_key(l, i), y - x);
}

/*
 * One item crossing bucket edges: clipped into every bucket it touches, the
 * ones it covers whole between its first and last as one covering.
 * @k is a bucket at or before the one its (clipped) start falls in.
 */
static uint64_t scan_item(struct q *q, uint64_t i, uint64_t k)
{
	const struct st_lane *l = q->l;
	uint64_t ts = st_ts(l)[i], d = fts_store_dur(l, i), e = ts + d, klast;

	if (ts >= q->t1 || (d ? e <= q->t0 : ts < q->t0))
		return k;
	k = bucket_from(q, ts > q->t0 ? ts : q->t0, k);
	klast = d ? (e < q->t1 ? bucket_after(q, e - 1, k) : q->n - 1) : k;
	if (klast > k + 2 && cover_add(q, i, k + 1, klast) == 0) {
		scan_part(q, i, k, ts, e);
		scan_part(q, i, klast, ts, e);
		return k;
	}
	for (uint64_t j = k; j <= klast; j++)
		scan_part(q, i, j, ts, e);
	return k;
}

static void take_node(struct acc *a, const struct st_node *nd, uint64_t count)
{
	a->items += count;
	a->flags |= nd->flags;
	a->busy += nd->busy;
	st_cand_add(&a->c, nd->top, nd->top_ns);
}

/*
 * A node whose items all lie inside one bucket is taken whole; one entirely
 * before t0 or from t1 on is skipped; the rest is split, down to the items
 * that cross a bucket edge.
 */
static void visit(struct q *q, uint64_t x, uint64_t la, uint64_t lb)
{
	const struct st_lane *l = q->l;
	struct st_node tmp;
	const struct st_node *nd = fts_store_node(l, x, &tmp);
	uint64_t a = la * FTS_STORE_LEAF, b = lb * FTS_STORE_LEAF;

	if (a >= q->ihi || a >= l->pub.nitems || nd->max_end <= q->t0)
		return;
	if (b > l->pub.nitems)
		b = l->pub.nitems;
	if (a >= q->ilo && b <= q->ihi && nd->max_end <= q->t1) {
		uint64_t k = bucket_of(q, st_ts(l)[a]);

		/* every item ends in the bucket the first starts in (max_end <= t1 = edges[n]) */
		if (nd->max_end - 1 < q->edges[k + 1]) {
			take_node(&q->acc[k], nd, b - a);
			return;
		}
	}
	if (lb - la == 1) {
		/* starts only grow along a leaf: walk the buckets with them, no search per item */
		uint64_t k = bucket_of(q, st_ts(l)[a] > q->t0 ? st_ts(l)[a] : q->t0);

		for (uint64_t i = a; i < b && i < q->ihi; i++)
			k = scan_item(q, i, k);
		return;
	}
	visit(q, 2 * x, la, (la + lb) / 2);
	visit(q, 2 * x + 1, (la + lb) / 2, lb);
}

static void finish(const struct st_lane *l, const struct acc *q, uint64_t t0, uint64_t t1,
		   struct fts_bucket *b)
{
	int best = st_cand_top(&q->c);

	b->flags = q->flags;
	b->busy_ns = q->busy;
	b->items = q->items;
	b->top = FTS_STR_NONE;
	b->top_ns = 0;
	if (st_named(l) && q->c.n > 1)
		b->flags |= FTS_BK_MIXED;
	if (best >= 0) {
		b->top = q->c.key[best];
		b->top_ns = q->c.ns[best];
	}
	if (st_named(l)) {
		uint64_t w = t1 - t0, busy = q->busy < w ? q->busy : w;

		if (w - busy > b->top_ns) { /* idle covered more than any task */
			b->top = FTS_STR_NONE;
			b->top_ns = w - busy;
		}
	}
}

static void run(const struct fts_store *s, uint32_t lane, uint64_t t0, uint64_t t1,
		struct q *q, struct acc *acc, uint64_t *edges, uint32_t n)
{
	memset(q, 0, sizeof(*q));
	memset(acc, 0, n * sizeof(*acc));
	for (uint32_t k = 0; k <= n; k++)
		edges[k] = edge_at(t0, t1, k, n);
	q->edges = edges;
	q->l = &s->lane[lane];
	q->t0 = t0;
	q->t1 = t1;
	q->n = n;
	q->acc = acc;
	q->ilo = lower(q->l, t0);
	q->ihi = lower(q->l, t1);
	q->cv.budget = 64 * (uint64_t)n + 4096;
	visit(q, 1, 0, fts_store_nleaf_pow(q->l));
	cover_apply(q);
}

void fts_store_bucket(const struct fts_store *s, uint32_t lane, uint64_t t0, uint64_t t1,
		      struct fts_bucket *b)
{
	uint64_t edges[2];
	struct acc acc;
	struct q q;

	memset(b, 0, sizeof(*b));
	b->top = FTS_STR_NONE;
	if (!s || lane >= s->nlanes || t1 <= t0 || s->lane[lane].pub.nitems == 0)
		return;
	run(s, lane, t0, t1, &q, &acc, edges, 1);
	finish(q.l, &acc, t0, t1, b);
}

/* Up to this many buckets are summed on the stack. */
#define STACK_BUCKETS 64

int fts_store_buckets(const struct fts_store *s, uint32_t lane, uint64_t t0, uint64_t t1,
		      uint32_t n, struct fts_bucket *out)
{
	struct acc stack[STACK_BUCKETS], *acc = stack;
	uint64_t sedges[STACK_BUCKETS + 1], *edges = sedges;
	struct q q;

	if (!s || lane >= s->nlanes || t1 <= t0 || n == 0 || t1 - t0 < n)
		return -EINVAL;
	if (s->lane[lane].pub.nitems == 0) {
		for (uint32_t k = 0; k < n; k++) {
			memset(&out[k], 0, sizeof(out[k]));
			out[k].top = FTS_STR_NONE;
		}
		return 0;
	}
	if (n > STACK_BUCKETS) {
		acc = malloc(n * sizeof(*acc));
		edges = malloc((n + 1) * sizeof(*edges));
		if (!acc || !edges) {
			free(acc);
			free(edges);
			return -ENOMEM;
		}
	}
	run(s, lane, t0, t1, &q, acc, edges, n);
	for (uint32_t k = 0; k < n; k++)
		finish(q.l, &acc[k], edges[k], edges[k + 1], &out[k]);
	if (acc != stack) {
		free(acc);
		free(edges);
	}
	return 0;
}

/* ---------------------------------------------------------------- find / step */

static void find_visit(struct q *q, uint64_t x, uint64_t la, uint64_t lb)
{
	const struct st_lane *l = q->l;
	struct st_node tmp;
	const struct st_node *nd = fts_store_node(l, x, &tmp);
	uint64_t a = la * FTS_STORE_LEAF, b = lb * FTS_STORE_LEAF;

	if (a >= q->ihi || a >= l->pub.nitems || nd->max_end <= q->t0 || !(nd->kinds & q->kinds))
		return;
	if (b > l->pub.nitems)
		b = l->pub.nitems;
	if (lb - la == 1) {
		for (uint64_t i = a; i < b && i < q->ihi; i++) {
			uint64_t d = fts_store_dur(l, i);

			if (!(q->kinds & FTS_KIND_BIT(st_kind(l)[i])))
				continue;
			if (st_ts(l)[i] <= q->t0 && (d ? st_ts(l)[i] + d > q->t0 : st_ts(l)[i] == q->t0) &&
			    (q->best < 0 || d < q->best_dur)) {
				q->best = (int64_t)i;
				q->best_dur = d;
			}
		}
		return;
	}
	find_visit(q, 2 * x, la, (la + lb) / 2);
	find_visit(q, 2 * x + 1, (la + lb) / 2, lb);
}

/*
 * Of the wanted items starting before @ihi, the one ending last: a run slice
 * ends after the irqs it holds, so look back a little, not just one item.
 */
static int64_t latest_end_before(const struct fts_store *s, uint32_t lane, uint64_t ihi,
				 uint32_t kinds)
{
	const struct st_lane *l = &s->lane[lane];
	int64_t best = -1, i;
	uint64_t best_end = 0;
	int looked = 0;

	if (ihi == 0)
		return -1;
	i = (kinds & FTS_KIND_BIT(st_kind(l)[ihi - 1])) ? (int64_t)ihi - 1 :
						       fts_store_step(s, lane, ihi - 1, -1, kinds);
	for (; i >= 0 && looked < 2 * FTS_STORE_LEAF; looked++) {
		uint64_t e = st_ts(l)[i] + fts_store_dur(l, (uint64_t)i);

		if (best < 0 || e > best_end) {
			best = i;
			best_end = e;
		}
		i = fts_store_step(s, lane, (uint64_t)i, -1, kinds);
	}
	return best;
}

int64_t fts_store_find(const struct fts_store *s, uint32_t lane, uint64_t t, uint32_t kinds)
{
	const struct st_lane *l;
	struct q q;
	int64_t after, prev;

	if (!s || lane >= s->nlanes || s->lane[lane].pub.nitems == 0)
		return -1;
	l = &s->lane[lane];
	memset(&q, 0, sizeof(q));
	q.l = l;
	q.kinds = kinds ? kinds : ~0u;
	q.t0 = t;
	q.ihi = t == UINT64_MAX ? l->pub.nitems : lower(l, t + 1);
	q.best = -1;
	find_visit(&q, 1, 0, fts_store_nleaf_pow(l));
	if (q.best >= 0)
		return q.best;
	/* nothing covers t: the nearest, by the gap to its start or end */
	after = q.ihi < l->pub.nitems ? ((q.kinds & FTS_KIND_BIT(st_kind(l)[q.ihi])) ? (int64_t)q.ihi :
					fts_store_step(s, lane, q.ihi, 1, q.kinds)) : -1;
	prev = latest_end_before(s, lane, q.ihi, q.kinds);
	if (prev < 0)
		return after;
	if (after < 0)
		return prev;
	{
		uint64_t pe = st_ts(l)[prev] + fts_store_dur(l, (uint64_t)prev);
		uint64_t gap_prev = t > pe ? t - pe : 0, gap_after = st_ts(l)[after] - t;

		return gap_after < gap_prev ? after : prev;
	}
}

/* The next leaf after (dir > 0) or before @leaf holding a wanted kind; -1 if none. */
static int64_t next_leaf(const struct st_lane *l, uint64_t leaf, int dir, uint32_t kinds)
{
	uint64_t x = fts_store_nleaf_pow(l) + leaf;

	while (x > 1) {
		uint64_t sib = dir > 0 ? x + 1 : x - 1;

		if ((dir > 0 ? (x & 1) == 0 : (x & 1) == 1) && (l->x->tree[sib].kinds & kinds)) {
			x = sib;
			while (x < fts_store_nleaf_pow(l)) {
				uint64_t first = dir > 0 ? 2 * x : 2 * x + 1;

				x = (l->x->tree[first].kinds & kinds) ? first : (dir > 0 ? first + 1 : first - 1);
			}
			return (int64_t)(x - fts_store_nleaf_pow(l));
		}
		x /= 2;
	}
	return -1;
}

static int64_t step_leafwise(const struct st_lane *l, uint64_t leaf, int dir, uint32_t kinds)
{
	int64_t nl = next_leaf(l, leaf, dir, kinds);
	uint64_t a, b;

	if (nl < 0)
		return -1;
	a = (uint64_t)nl * FTS_STORE_LEAF;
	b = a + FTS_STORE_LEAF < l->pub.nitems ? a + FTS_STORE_LEAF : l->pub.nitems;
	if (dir > 0) {
		for (uint64_t i = a; i < b; i++)
			if (kinds & FTS_KIND_BIT(st_kind(l)[i]))
				return (int64_t)i;
	} else {
		for (uint64_t i = b; i > a; i--)
			if (kinds & FTS_KIND_BIT(st_kind(l)[i - 1]))
				return (int64_t)(i - 1);
	}
	return -1;
}

int64_t fts_store_step(const struct fts_store *s, uint32_t lane, uint64_t idx, int dir,
		       uint32_t kinds)
{
	const struct st_lane *l;
	uint64_t leaf, a, b;

	if (!s || lane >= s->nlanes || dir == 0)
		return -1;
	l = &s->lane[lane];
	if (idx >= l->pub.nitems)
		return -1;
	if (!kinds)
		kinds = ~0u;
	leaf = idx / FTS_STORE_LEAF;
	a = leaf * FTS_STORE_LEAF;
	b = a + FTS_STORE_LEAF < l->pub.nitems ? a + FTS_STORE_LEAF : l->pub.nitems;
	if (dir > 0) {
		for (uint64_t i = idx + 1; i < b; i++)
			if (kinds & FTS_KIND_BIT(st_kind(l)[i]))
				return (int64_t)i;
	} else {
		for (uint64_t i = idx; i > a; i--)
			if (kinds & FTS_KIND_BIT(st_kind(l)[i - 1]))
				return (int64_t)(i - 1);
	}
	return step_leafwise(l, leaf, dir, kinds);
}
