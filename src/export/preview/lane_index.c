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
	const struct st_ext *x = l->x;
	uint64_t lo = 0, hi;

	if (st_dur(l)[i] != FTS_DUR_BIG || !x)
		return st_dur(l)[i];
	if (x->bigi) /* sorting: the entry is known */
		return x->big[x->bigi[i]].dur;
	hi = x->nbig;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (x->big[mid].item < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < x->nbig && x->big[lo].item == i ? x->big[lo].dur : (uint64_t)FTS_DUR_BIG;
}

/* ---------------------------------------------------------------- sort */

/* Start, then the longer first: long items by their real duration (bigi is set). */
static int before(const struct st_lane *l, uint64_t a, uint64_t b)
{
	const uint64_t *ts = st_ts(l);

	return ts[a] < ts[b] || (ts[a] == ts[b] && fts_store_dur(l, a) > fts_store_dur(l, b));
}

struct tuple {
	uint64_t ts, bigi, real;
	uint32_t dur, name, args, aux, aux2;
	uint8_t kind;
};

static void get(const struct st_lane *l, uint64_t i, struct tuple *t)
{
	t->ts = st_ts(l)[i];
	t->dur = st_dur(l)[i];
	t->name = st_name(l)[i];
	t->args = st_args(l)[i];
	t->aux = st_has_aux(l) ? st_aux(l)[i] : 0;
	t->aux2 = st_has_aux2(l) ? st_aux2(l)[i] : 0;
	t->kind = st_kind(l)[i];
	t->bigi = l->x && l->x->bigi ? l->x->bigi[i] : 0;
	t->real = fts_store_dur(l, i);
}

static void set(struct st_lane *l, uint64_t i, const struct tuple *t)
{
	st_ts(l)[i] = t->ts;
	st_dur(l)[i] = t->dur;
	st_name(l)[i] = t->name;
	st_args(l)[i] = t->args;
	if (st_has_aux(l))
		st_aux(l)[i] = t->aux;
	if (st_has_aux2(l))
		st_aux2(l)[i] = t->aux2;
	st_kind(l)[i] = t->kind;
	if (l->x && l->x->bigi)
		l->x->bigi[i] = t->bigi;
}

/*
 * Items arrive nearly sorted (a run slice closes after the irqs inside it):
 * insertion sort, given up when it moves too much.
 */
static int insertion_sort(struct st_lane *l)
{
	uint64_t budget = 8 * l->pub.nitems + 4096;
	const uint64_t *ts = st_ts(l);

	for (uint64_t i = 1; i < l->pub.nitems; i++) {
		struct tuple t;
		uint64_t j = i;

		if (!before(l, i, i - 1))
			continue;
		get(l, i, &t);
		while (j > 0 && (ts[j - 1] > t.ts ||
				 (ts[j - 1] == t.ts && fts_store_dur(l, j - 1) < t.real))) {
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

/* Column @col (of @type) put in @perm's order through @tmp (n items of up to 8 bytes). */
#define PERMUTE(col, type)                                                  \
	do {                                                                \
		type *c_ = (type *)(col), *t_ = (type *)tmp;                \
		for (uint64_t i_ = 0; i_ < n; i_++)                         \
			t_[i_] = c_[perm[i_]];                              \
		memcpy(c_, t_, n * sizeof(type));                           \
	} while (0)

/* Far from sorted: sort a permutation, then apply it column by column in place. */
static int perm_sort(struct st_lane *l)
{
	uint64_t n = l->pub.nitems, *perm = malloc(n * sizeof(*perm)), *tmp = malloc(n * sizeof(*tmp));

	if (!perm || !tmp) {
		free(perm);
		free(tmp);
		return -ENOMEM;
	}
	for (uint64_t i = 0; i < n; i++)
		perm[i] = i;
	qsort_r(perm, n, sizeof(*perm), cmp_perm, l);
	PERMUTE(st_ts(l), uint64_t);
	PERMUTE(st_dur(l), uint32_t);
	PERMUTE(st_name(l), uint32_t);
	PERMUTE(st_args(l), uint32_t);
	PERMUTE(st_kind(l), uint8_t);
	if (st_has_aux(l))
		PERMUTE(st_aux(l), uint32_t);
	if (st_has_aux2(l))
		PERMUTE(st_aux2(l), uint32_t);
	if (l->x && l->x->bigi)
		PERMUTE(l->x->bigi, uint64_t);
	free(perm);
	free(tmp);
	return 0;
}

/*
 * Before the sort each item finds its long entry by ingest order (both were
 * appended together); the sort carries that link along, and afterwards the
 * table is rewritten in item order: one binary search per lookup, however
 * many items share a start.
 */
static int big_open(struct st_lane *l)
{
	struct st_ext *x = l->x;
	uint64_t k = 0;

	if (!x || !x->nbig)
		return 0;
	x->bigi = malloc(l->pub.nitems * sizeof(*x->bigi));
	if (!x->bigi)
		return -ENOMEM;
	for (uint64_t i = 0; i < l->pub.nitems; i++)
		x->bigi[i] = st_dur(l)[i] == FTS_DUR_BIG ? k++ : 0;
	return 0;
}

static int big_close(struct st_lane *l)
{
	struct st_ext *x = l->x;
	struct st_big *b;
	uint64_t k = 0;

	if (!x || !x->bigi)
		return 0;
	b = malloc(x->nbig * sizeof(*b));
	if (!b)
		return -ENOMEM;
	for (uint64_t i = 0; i < l->pub.nitems; i++)
		if (st_dur(l)[i] == FTS_DUR_BIG) {
			b[k].item = i;
			b[k++].dur = x->big[x->bigi[i]].dur;
		}
	free(x->big);
	free(x->bigi);
	x->bigi = NULL;
	x->big = b;
	x->capbig = x->nbig;
	return 0;
}

/*
 * Give back the growth slack: the budget is per item, not per capacity. A
 * small lane's slab block is already within a third of its items.
 */
static void shrink(struct fts_store *s, struct st_lane *l)
{
	uint64_t n = l->pub.nitems ? l->pub.nitems : 1;

	if (l->cap > n && (st_has_aux(l) || st_has_aux2(l) || l->cap > FTS_STORE_SLAB_CAP))
		(void)fts_store_relayout(s, l, n, st_has_aux2(l)); /* out of memory: keep the slack */
}

/* ---------------------------------------------------------------- summary */

static void leaf_build(const struct st_lane *l, uint64_t a, uint64_t b, struct st_node *nd)
{
	struct st_cands c = { .n = 0 };
	int t;

	memset(nd, 0, sizeof(*nd));
	nd->top = FTS_STR_NONE;
	for (uint64_t i = a; i < b; i++) {
		uint64_t d = fts_store_dur(l, i), e = st_ts(l)[i] + (d ? d : 1);

		if (e > nd->max_end)
			nd->max_end = e;
		if (st_is_busy(l, i))
			nd->busy += d;
		st_cand_add(&c, st_top_key(l, i), d);
		nd->flags |= FTS_BK_ANY | st_kind_flag(st_kind(l)[i]);
		nd->kinds |= (uint16_t)FTS_KIND_BIT(st_kind(l)[i]);
	}
	t = st_cand_top(&c);
	if (t >= 0) {
		nd->top = c.key[t];
		nd->top_ns = c.ns[t];
	}
	if (st_named(l) && c.n > 1)
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

const struct st_node *fts_store_node(const struct st_lane *l, uint64_t x, struct st_node *tmp)
{
	if (l->x && l->x->tree)
		return &l->x->tree[x];
	leaf_build(l, 0, l->pub.nitems, tmp);
	return tmp;
}

/* A lane of one leaf keeps no tree: its root is summed on demand (fts_store_node). */
static int tree_build(struct st_lane *l)
{
	uint64_t n = l->pub.nitems, leaves = (n + FTS_STORE_LEAF - 1) / FTS_STORE_LEAF, p = 1;
	struct st_node *tree;

	if (leaves <= 1)
		return 0;
	while (p < leaves)
		p *= 2;
	if (!fts_store_ext(l))
		return -ENOMEM;
	tree = calloc(2 * p, sizeof(*tree));
	if (!tree)
		return -ENOMEM;
	for (uint64_t j = 0; j < p; j++) {
		struct st_node *nd = &tree[p + j];

		if (j < leaves)
			leaf_build(l, j * FTS_STORE_LEAF,
				   (j + 1) * FTS_STORE_LEAF < n ? (j + 1) * FTS_STORE_LEAF : n, nd);
		else
			nd->top = FTS_STR_NONE;
	}
	for (uint64_t x = p - 1; x >= 1; x--)
		node_join(&tree[x], &tree[2 * x], &tree[2 * x + 1]);
	l->x->tree = tree;
	l->x->nleaf_pow = p;
	return 0;
}

static int index_lane(struct fts_store *s, struct st_lane *l)
{
	int rc = big_open(l);

	if (!rc && insertion_sort(l))
		rc = perm_sort(l);
	if (!rc)
		rc = big_close(l);
	if (rc)
		return rc;
	shrink(s, l);
	return tree_build(l);
}

/* CPU lanes first, by CPU; then task lanes in the order they appeared; then NPU lanes so. */
static int lane_order(const void *a, const void *b)
{
	const struct st_lane *x = a, *y = b;

	if (x->pub.group != y->pub.group)
		return x->pub.group < y->pub.group ? -1 : 1;
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

	if (l->pub.group != FTS_GROUP_TASK || l->pub.nitems == 0)
		return;
	fts_store_actx(s, l, 0, &cx);
	n = fts_args_decode(fts_strtab_get(&s->strs, st_args(l)[0]), fts_strtab_len(&s->strs, st_args(l)[0]),
			    &cx, a, FTS_ITEM_MAX_ARGS, buf, sizeof(buf));
	for (int i = 0; i < n; i++)
		if (!strcmp(a[i].key, "host_pid"))
			l->pub.host_pid = (int32_t)strtol(a[i].val, NULL, 10);
}

static void info_add(struct fts_store *s, const struct st_lane *l)
{
	struct fts_store_info *in = &s->info;
	uint64_t n = l->pub.nitems;

	if (n) {
		const uint64_t *ts = st_ts(l);
		struct st_node tmp;
		uint64_t end = 0, root_end = fts_store_node(l, 1, &tmp)->max_end;

		if (!in->t_begin || ts[0] < in->t_begin)
			in->t_begin = ts[0];
		/* the latest end: the root's, less the 1 ns given to zero-length items */
		for (uint64_t i = n > 64 ? n - 64 : 0; i < n; i++)
			if (ts[i] + fts_store_dur(l, i) > end)
				end = ts[i] + fts_store_dur(l, i);
		if (root_end - 1 > end)
			end = root_end - 1;
		if (end > in->t_end)
			in->t_end = end;
	}
	in->items += n;
	if (l->pub.group == FTS_GROUP_CPU)
		in->ncpu_lanes++;
	else if (l->pub.group == FTS_GROUP_TASK)
		in->ntask_lanes++;
}

int fts_store_index(struct fts_store *s, int (*progress)(void *ctx, uint64_t done, uint64_t total),
		    void *ctx, struct fts_err *err)
{
	uint32_t n = s->nlanes;

	/* the producer's ids were for ingest only: the lanes move into public order */
	free(s->by_src);
	s->by_src = NULL;
	s->nsrc = s->capsrc = 0;
	qsort(s->lane, n, sizeof(*s->lane), lane_order);
	for (uint32_t i = 0; i < n; i++) {
		struct st_lane *l = &s->lane[i];

		if (progress && progress(ctx, i, n))
			return fts_err_set(err, -ECANCELED, "cancelled");
		if (index_lane(s, l))
			return fts_err_set(err, -ENOMEM, "out of memory while indexing the preview");
		lane_host_pid(s, l);
		info_add(s, l);
	}
	s->info.lost_events = fts_loss_total(&s->loss, NULL);
	fts_store_slab_tidy(s);
	fts_strtab_shrink(&s->strs);
	if (n < s->caplanes) {
		struct st_lane *b = realloc(s->lane, (n ? n : 1) * sizeof(*b));

		if (b) {
			s->lane = b;
			s->caplanes = n ? n : 1;
		}
	}
	s->indexed = 1;
	return 0;
}
