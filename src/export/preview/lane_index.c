// SPDX-License-Identifier: MIT
/*
 * lane_index.c - the store's sort and its multi-resolution summary.
 *
 * Each lane's items are sorted by start (longer first on ties, so a run slice
 * precedes the irq that starts with it). Over blocks of FTS_STORE_LEAF items
 * a segment tree keeps, per node: the latest end, busy time, the dominant
 * task (CPU lanes) or state (task lanes) with its time, an OR of flags and a
 * mask of kinds. A bucket [t0, t1) takes whole every node lying inside it and
 * walks only the items crossing its two edges, so its cost is O(log n) times
 * the nesting depth at the edges, whatever its width (KernelShark walks a
 * bin's items; this never does). A flag set anywhere below a node is set on
 * the node, so zooming out never hides an irq, a lost event or a Runnable.
 */
#include "export/preview/store_local.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

uint64_t fts_store_dur(const struct st_lane *l, uint64_t i)
{
	uint64_t lo = 0, hi = l->nbig;

	if (l->dur[i] != FTS_DUR_BIG)
		return l->dur[i];
	if (l->bigi) /* sorting: the entry is known */
		return l->big[l->bigi[i]].dur;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (l->big[mid].item < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->nbig && l->big[lo].item == i ? l->big[lo].dur : (uint64_t)FTS_DUR_BIG;
}

/* ---------------------------------------------------------------- sort */

/* Start, then the longer first: long items by their real duration (bigi is set). */
static int before(const struct st_lane *l, uint64_t a, uint64_t b)
{
	return l->ts[a] < l->ts[b] ||
	       (l->ts[a] == l->ts[b] && fts_store_dur(l, a) > fts_store_dur(l, b));
}

struct tuple {
	uint64_t ts, bigi, real;
	uint32_t dur, name, args, aux, aux2;
	uint8_t kind;
};

static void get(const struct st_lane *l, uint64_t i, struct tuple *t)
{
	t->ts = l->ts[i];
	t->dur = l->dur[i];
	t->name = l->name[i];
	t->args = l->args[i];
	t->aux = l->aux ? l->aux[i] : 0;
	t->aux2 = l->aux2 ? l->aux2[i] : 0;
	t->kind = l->kind[i];
	t->bigi = l->bigi ? l->bigi[i] : 0;
	t->real = fts_store_dur(l, i);
}

static void set(struct st_lane *l, uint64_t i, const struct tuple *t)
{
	l->ts[i] = t->ts;
	l->dur[i] = t->dur;
	l->name[i] = t->name;
	l->args[i] = t->args;
	if (l->aux)
		l->aux[i] = t->aux;
	if (l->aux2)
		l->aux2[i] = t->aux2;
	l->kind[i] = t->kind;
	if (l->bigi)
		l->bigi[i] = t->bigi;
}

/*
 * Items arrive nearly sorted (a run slice closes after the irqs inside it):
 * insertion sort, given up when it moves too much.
 */
static int insertion_sort(struct st_lane *l)
{
	uint64_t budget = 8 * l->n + 4096;

	for (uint64_t i = 1; i < l->n; i++) {
		struct tuple t;
		uint64_t j = i;

		if (!before(l, i, i - 1))
			continue;
		get(l, i, &t);
		while (j > 0 && (l->ts[j - 1] > t.ts ||
				 (l->ts[j - 1] == t.ts && fts_store_dur(l, j - 1) < t.real))) {
			struct tuple u;

			get(l, j - 1, &u);
			set(l, j, &u);
			j--;
			if (--budget == 0) {
				set(l, j, &t);
				return -1;
			}
		}
		set(l, j, &t);
	}
	return 0;
}

static int cmp_perm(const void *a, const void *b, void *ctx)
{
	const struct st_lane *l = ctx;
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return before(l, x, y) ? -1 : before(l, y, x) ? 1 : 0;
}

#define PERMUTE(col, type)                                                  \
	do {                                                                \
		type *tmp_ = malloc(l->n * sizeof(type));                   \
		if (!tmp_)                                                  \
			goto oom;                                           \
		for (uint64_t i_ = 0; i_ < l->n; i_++)                      \
			tmp_[i_] = l->col[perm[i_]];                        \
		free(l->col);                                               \
		l->col = tmp_;                                              \
	} while (0)

/* Far from sorted: sort a permutation, then apply it column by column. */
static int perm_sort(struct st_lane *l)
{
	uint64_t *perm = malloc(l->n * sizeof(*perm));

	if (!perm)
		return -ENOMEM;
	for (uint64_t i = 0; i < l->n; i++)
		perm[i] = i;
	qsort_r(perm, l->n, sizeof(*perm), cmp_perm, l);
	PERMUTE(ts, uint64_t);
	PERMUTE(dur, uint32_t);
	PERMUTE(name, uint32_t);
	PERMUTE(args, uint32_t);
	PERMUTE(kind, uint8_t);
	if (l->aux)
		PERMUTE(aux, uint32_t);
	if (l->aux2)
		PERMUTE(aux2, uint32_t);
	if (l->bigi)
		PERMUTE(bigi, uint64_t);
	l->cap = l->n;
	free(perm);
	return 0;
oom:
	free(perm);
	return -ENOMEM;
}

/*
 * Before the sort each item finds its long entry by ingest order (both were
 * appended together); the sort carries that link along, and afterwards the
 * table is rewritten in item order: one binary search per lookup, however
 * many items share a start.
 */
static int big_open(struct st_lane *l)
{
	uint64_t k = 0;

	if (!l->nbig)
		return 0;
	l->bigi = malloc(l->n * sizeof(*l->bigi));
	if (!l->bigi)
		return -ENOMEM;
	for (uint64_t i = 0; i < l->n; i++)
		l->bigi[i] = l->dur[i] == FTS_DUR_BIG ? k++ : 0;
	return 0;
}

static int big_close(struct st_lane *l)
{
	struct st_big *b;
	uint64_t k = 0;

	if (!l->bigi)
		return 0;
	b = malloc(l->nbig * sizeof(*b));
	if (!b)
		return -ENOMEM;
	for (uint64_t i = 0; i < l->n; i++)
		if (l->dur[i] == FTS_DUR_BIG) {
			b[k].item = i;
			b[k++].dur = l->big[l->bigi[i]].dur;
		}
	free(l->big);
	free(l->bigi);
	l->bigi = NULL;
	l->big = b;
	l->capbig = l->nbig;
	return 0;
}

/* Give back the growth slack: the budget is per item, not per capacity. */
static void shrink(struct st_lane *l)
{
	uint64_t n = l->n ? l->n : 1;
	void *p;

#define SHRINK(col)                                                   \
	do {                                                          \
		p = realloc(l->col, n * sizeof(*l->col));             \
		if (p)                                                \
			l->col = p;                                   \
	} while (0)
	if (l->cap == l->n || !l->ts)
		return;
	SHRINK(ts);
	SHRINK(dur);
	SHRINK(name);
	SHRINK(args);
	SHRINK(kind);
	if (l->aux)
		SHRINK(aux);
	if (l->aux2)
		SHRINK(aux2);
#undef SHRINK
	l->cap = n;
}

/* ---------------------------------------------------------------- summary */

static void leaf_build(const struct st_lane *l, uint64_t a, uint64_t b, struct st_node *nd)
{
	struct st_cands c = { .n = 0 };
	int t;

	memset(nd, 0, sizeof(*nd));
	nd->top = FTS_STR_NONE;
	for (uint64_t i = a; i < b; i++) {
		uint64_t d = fts_store_dur(l, i), e = l->ts[i] + (d ? d : 1);

		if (e > nd->max_end)
			nd->max_end = e;
		if (st_is_busy(l, i))
			nd->busy += d;
		st_cand_add(&c, st_top_key(l, i), d);
		nd->flags |= FTS_BK_ANY | st_kind_flag(l->kind[i]);
		nd->kinds |= (uint16_t)FTS_KIND_BIT(l->kind[i]);
	}
	t = st_cand_top(&c);
	if (t >= 0) {
		nd->top = c.key[t];
		nd->top_ns = c.ns[t];
	}
	if (l->pub.group == FTS_GROUP_CPU && c.n > 1)
		nd->flags |= FTS_BK_MIXED;
}

static void node_join(struct st_node *p, const struct st_node *x, const struct st_node *y)
{
	p->max_end = x->max_end > y->max_end ? x->max_end : y->max_end;
	p->busy = x->busy + y->busy;
	p->flags = x->flags | y->flags;
	p->kinds = x->kinds | y->kinds;
	if (x->top == y->top) {
		p->top = x->top;
		p->top_ns = x->top_ns + y->top_ns;
	} else {
		const struct st_node *w = x->top_ns >= y->top_ns ? x : y;

		p->top = w->top;
		p->top_ns = w->top_ns;
		/* two different tasks dominate the halves: more than one ran */
		if (x->top != FTS_STR_NONE && y->top != FTS_STR_NONE && (x->flags & FTS_BK_ANY) &&
		    (y->flags & FTS_BK_ANY))
			p->flags |= FTS_BK_MIXED;
	}
	if (p->top == FTS_STR_NONE && !(p->flags & FTS_BK_ANY))
		p->top_ns = 0;
}

static int tree_build(struct st_lane *l)
{
	uint64_t leaves = (l->n + FTS_STORE_LEAF - 1) / FTS_STORE_LEAF, p = 1;

	while (p < leaves)
		p *= 2;
	l->nleaf_pow = p;
	l->tree = calloc(2 * p, sizeof(*l->tree));
	if (!l->tree)
		return -ENOMEM;
	for (uint64_t j = 0; j < p; j++) {
		struct st_node *nd = &l->tree[p + j];

		if (j < leaves)
			leaf_build(l, j * FTS_STORE_LEAF,
				   (j + 1) * FTS_STORE_LEAF < l->n ? (j + 1) * FTS_STORE_LEAF : l->n, nd);
		else
			nd->top = FTS_STR_NONE;
	}
	for (uint64_t x = p - 1; x >= 1; x--)
		node_join(&l->tree[x], &l->tree[2 * x], &l->tree[2 * x + 1]);
	return 0;
}

static int index_lane(struct st_lane *l)
{
	int rc = big_open(l);

	if (!rc && insertion_sort(l))
		rc = perm_sort(l);
	if (!rc)
		rc = big_close(l);
	if (rc)
		return rc;
	shrink(l);
	return tree_build(l);
}

/* CPU lanes first, by CPU; then task lanes in the order they appeared. */
static int lane_order(const void *a, const void *b)
{
	const struct st_lane *x = *(struct st_lane *const *)a, *y = *(struct st_lane *const *)b;

	if (x->pub.group != y->pub.group)
		return x->pub.group == FTS_GROUP_CPU ? -1 : 1;
	if (x->pub.group == FTS_GROUP_CPU && x->pub.cpu != y->pub.cpu)
		return x->pub.cpu < y->pub.cpu ? -1 : 1;
	return x->src < y->src ? -1 : x->src > y->src;
}

/* A task lane's host pid: its first item's host_pid arg (ours carries one). */
static void lane_host_pid(struct fts_store *s, struct st_lane *l)
{
	struct fts_arg a[FTS_ITEM_MAX_ARGS];
	struct st_actx cx;
	char buf[256];
	int n;

	if (l->pub.group != FTS_GROUP_TASK || l->n == 0)
		return;
	fts_store_actx(s, l, 0, &cx);
	n = fts_args_decode(fts_strtab_get(&s->strs, l->args[0]), fts_strtab_len(&s->strs, l->args[0]),
			    &cx, a, FTS_ITEM_MAX_ARGS, buf, sizeof(buf));
	for (int i = 0; i < n; i++)
		if (!strcmp(a[i].key, "host_pid"))
			l->pub.host_pid = (int32_t)strtol(a[i].val, NULL, 10);
}

static void info_add(struct fts_store *s, const struct st_lane *l)
{
	struct fts_store_info *in = &s->info;

	if (l->n) {
		uint64_t end = 0;

		if (!in->t_begin || l->ts[0] < in->t_begin)
			in->t_begin = l->ts[0];
		/* the latest end: the root's, less the 1 ns given to zero-length items */
		for (uint64_t i = l->n > 64 ? l->n - 64 : 0; i < l->n; i++)
			if (l->ts[i] + fts_store_dur(l, i) > end)
				end = l->ts[i] + fts_store_dur(l, i);
		if (l->tree[1].max_end - 1 > end)
			end = l->tree[1].max_end - 1;
		if (end > in->t_end)
			in->t_end = end;
	}
	in->items += l->n;
	if (l->pub.group == FTS_GROUP_CPU)
		in->ncpu_lanes++;
	else
		in->ntask_lanes++;
}

int fts_store_index(struct fts_store *s, int (*progress)(void *ctx, uint64_t done, uint64_t total),
		    void *ctx, struct fts_err *err)
{
	uint32_t n = 0;

	s->lanes = calloc(s->nsrc ? s->nsrc : 1, sizeof(*s->lanes));
	if (!s->lanes)
		return fts_err_set(err, -ENOMEM, "out of memory while indexing the preview");
	for (uint32_t i = 0; i < s->nsrc; i++)
		if (s->by_src[i])
			s->lanes[n++] = s->by_src[i];
	s->nlanes = n;
	qsort(s->lanes, n, sizeof(*s->lanes), lane_order);
	for (uint32_t i = 0; i < n; i++) {
		struct st_lane *l = s->lanes[i];

		if (progress && progress(ctx, i, n))
			return fts_err_set(err, -ECANCELED, "cancelled");
		l->pub.nitems = l->n;
		if (index_lane(l))
			return fts_err_set(err, -ENOMEM, "out of memory while indexing the preview");
		lane_host_pid(s, l);
		info_add(s, l);
	}
	s->info.lost_events = fts_loss_total(&s->loss, NULL);
	fts_strtab_shrink(&s->strs);
	s->indexed = 1;
	return 0;
}
