// SPDX-License-Identifier: MIT
/*
 * store_sink.c - the sink that fills the preview store: lanes as declared,
 * items appended to their lane's columns (sorted later, at index time).
 * Names and args are interned; strings from the producer are never kept.
 */
#include "export/preview/store_local.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct store_sink {
	struct fts_sink base;
	struct fts_store *s;
};

static int oom(struct fts_err *err)
{
	return fts_err_set(err, -ENOMEM, "out of memory while loading the preview");
}

/* "comm:pid": split at the last colon, as Insight does. */
static void task_ids(struct fts_store *s, struct st_lane *l, const char *tid)
{
	const char *c = strrchr(tid, ':');

	l->pub.pid = -1;
	l->pub.comm = FTS_STR_NONE;
	if (!c)
		return;
	l->pub.comm = fts_strtab_intern(&s->strs, tid, (size_t)(c - tid));
	l->pub.pid = (int32_t)strtol(c + 1, NULL, 10);
}

static int ss_lane(struct fts_sink *base, const struct fts_lane *lane, struct fts_err *err)
{
	struct fts_store *s = ((struct store_sink *)base)->s;
	struct st_lane *l;

	if (lane->id >= s->capsrc) {
		uint32_t cap = s->capsrc ? s->capsrc * 2 : 256;
		struct st_lane **b;

		while (cap <= lane->id)
			cap *= 2;
		b = realloc(s->by_src, cap * sizeof(*b));
		if (!b)
			return oom(err);
		memset(b + s->capsrc, 0, (cap - s->capsrc) * sizeof(*b));
		s->by_src = b;
		s->capsrc = cap;
	}
	if (s->by_src[lane->id])
		return 0; /* declared twice: keep the first */
	l = calloc(1, sizeof(*l));
	if (!l)
		return oom(err);
	s->by_src[lane->id] = l;
	if (lane->id >= s->nsrc)
		s->nsrc = lane->id + 1;
	l->src = lane->id;
	l->pub.group = lane->group;
	l->pub.cpu = lane->group == FTS_GROUP_CPU ? lane->sort_index : -1;
	l->pub.host_pid = -1;
	l->pub.comm = FTS_STR_NONE;
	l->pub.pid = -1;
	l->pub.tid = fts_strtab_intern(&s->strs, lane->tid, strlen(lane->tid));
	l->last_name = FTS_STR_NONE;
	if (lane->group == FTS_GROUP_TASK)
		task_ids(s, l, lane->tid);
	return l->pub.tid == FTS_STR_NONE ? oom(err) : 0;
}

static int grow(void **p, size_t elem, uint64_t cap)
{
	void *q = realloc(*p, elem * cap);

	if (!q)
		return -1;
	*p = q;
	return 0;
}

/*
 * Columns start small: most task lanes of a capture with very many tasks hold
 * a handful of items, and 64 up front cost 1.4 KB per task before the index
 * shrinks them (issue 21 item 14: 1 M tasks). Growth by half keeps appends
 * amortised O(1).
 */
static int lane_grow(struct st_lane *l)
{
	uint64_t cap = l->cap ? l->cap + l->cap / 2 + 1 : 4;

	if (grow((void **)&l->ts, sizeof(*l->ts), cap) || grow((void **)&l->dur, sizeof(*l->dur), cap) ||
	    grow((void **)&l->name, sizeof(*l->name), cap) ||
	    grow((void **)&l->args, sizeof(*l->args), cap) ||
	    grow((void **)&l->kind, sizeof(*l->kind), cap) ||
	    (l->pub.group == FTS_GROUP_CPU && grow((void **)&l->aux, sizeof(*l->aux), cap)) ||
	    (l->aux2 && grow((void **)&l->aux2, sizeof(*l->aux2), cap)))
		return -1;
	l->cap = cap;
	return 0;
}

static int add_big(struct st_lane *l, uint64_t item, uint64_t dur)
{
	if (l->nbig == l->capbig) {
		size_t cap = l->capbig ? l->capbig * 2 : 16;
		struct st_big *b = realloc(l->big, cap * sizeof(*b));

		if (!b)
			return -1;
		l->big = b;
		l->capbig = cap;
	}
	l->big[l->nbig].item = item;
	l->big[l->nbig].dur = dur;
	l->nbig++;
	return 0;
}

static uint32_t name_id(struct fts_store *s, struct st_lane *l, const char *name)
{
	size_t n = strlen(name);

	/* consecutive items of a lane often share a name: skip the hash */
	if (l->last_name != FTS_STR_NONE && fts_strtab_len(&s->strs, l->last_name) == n &&
	    !memcmp(fts_strtab_get(&s->strs, l->last_name), name, n))
		return l->last_name;
	l->last_name = fts_strtab_intern(&s->strs, name, n);
	return l->last_name;
}

/* CPU lanes: lost-event markers and holes go into the one loss model. */
static int count_lost(struct fts_store *s, struct st_lane *l, const struct fts_item *it)
{
	struct fts_loss_cpu *c;

	if (l->pub.group != FTS_GROUP_CPU || l->pub.cpu < 0)
		return 0;
	if (fts_loss_add_item(&s->loss, l->pub.cpu, it))
		return -ENOMEM;
	c = &s->loss.cpu[l->pub.cpu];
	l->pub.lost = fts_loss_cpu_events(c);
	l->pub.lost_marks = c->drops;
	return 0;
}

/*
 * The lane's first vruntime opens its aux2 column: earlier items get "none",
 * and the base sits 2^31 below it, as values on one CPU stay close together.
 */
static int aux2_open(struct st_lane *l, const struct fts_item *it)
{
	for (int a = 0; a < it->nargs; a++) {
		const char *v = it->args[a].val;

		if (strcmp(it->args[a].key, "vruntime") || !v || *v < '0' || *v > '9')
			continue;
		l->aux2 = malloc((l->cap ? l->cap : 1) * sizeof(*l->aux2));
		if (!l->aux2)
			return -1;
		for (uint64_t i = 0; i < l->n; i++)
			l->aux2[i] = FTS_AUX_NONE;
		l->aux2_base = strtoull(v, NULL, 10);
		l->aux2_base = l->aux2_base > (1ull << 31) ? l->aux2_base - (1ull << 31) : 0;
		return 0;
	}
	return 0;
}

/*
 * What @it's args are encoded against (store_args.c): the context pid, and
 * on a CPU lane the switch side kept in the aux column as the id of its
 * interned "comm:pid" (*@ref, FTS_AUX_NONE when none). 0 or -1 (no memory).
 */
static int args_ctx(struct fts_store *s, const struct st_lane *l, const struct fts_item *it,
		    uint64_t dur, struct st_actx *cx, uint32_t *ref)
{
	int c, p;

	memset(cx, 0, sizeof(*cx));
	cx->dur = dur;
	cx->ref_c = cx->ref_p = -1;
	cx->aux2_base = l->aux2_base;
	*ref = FTS_AUX_NONE;
	if (l->aux && fts_args_ref_pick(it->args, it->nargs, &c, &p) == 0) {
		int w = snprintf(s->scratch, sizeof(s->scratch), "%s:%s", it->args[c].val,
				 it->args[p].val);

		if (w > 0 && w < 128) { /* rebuilt into the reader's 256 bytes (preview.h) */
			*ref = fts_strtab_intern(&s->strs, s->scratch, (size_t)w);
			if (*ref == FTS_STR_NONE)
				return -1;
			cx->ref_c = c;
			cx->ref_p = p;
		}
	}
	/* after the interning above: the arena may have moved */
	cx->pid = fts_args_ctx_pid(l->pub.group == FTS_GROUP_TASK ? fts_strtab_get(&s->strs, l->pub.tid) :
								    it->name);
	return 0;
}

static int ss_item(struct fts_sink *base, const struct fts_item *it, struct fts_err *err)
{
	struct fts_store *s = ((struct store_sink *)base)->s;
	struct st_lane *l = it->lane < s->nsrc ? s->by_src[it->lane] : NULL;
	uint32_t aux = FTS_AUX_NONE, aux2 = FTS_AUX_NONE, ref;
	uint64_t i, dur = it->dur;
	struct st_actx cx;
	size_t blen;

	if (!l)
		return fts_err_set(err, -EINVAL, "internal error: item on an undeclared lane");
	if (l->n == l->cap && lane_grow(l))
		return oom(err);
	i = l->n;
	l->ts[i] = it->ts;
	if (dur > UINT64_MAX - it->ts)
		dur = UINT64_MAX - it->ts; /* a read-back file's nonsense: keep end >= start */
	if (dur >= FTS_DUR_BIG) {
		if (add_big(l, i, dur))
			return oom(err);
		l->dur[i] = FTS_DUR_BIG;
	} else {
		l->dur[i] = (uint32_t)dur;
	}
	l->kind[i] = (uint8_t)it->kind;
	l->name[i] = name_id(s, l, it->name);
	if (l->aux && !l->aux2 && it->kind == FTS_ITEM_RUN && aux2_open(l, it))
		return oom(err);
	if (args_ctx(s, l, it, dur, &cx, &ref))
		return oom(err);
	blen = fts_args_encode(it->args, it->nargs, &cx, l->aux && ref == FTS_AUX_NONE ? &aux : NULL,
			       l->aux2 ? &aux2 : NULL, s->scratch, sizeof(s->scratch));
	l->args[i] = fts_strtab_intern(&s->strs, s->scratch, blen);
	if (l->aux)
		l->aux[i] = ref != FTS_AUX_NONE ? ref : aux;
	if (l->aux2)
		l->aux2[i] = aux2;
	if (l->name[i] == FTS_STR_NONE || l->args[i] == FTS_STR_NONE)
		return oom(err);
	if ((it->kind == FTS_ITEM_LOST || it->kind == FTS_ITEM_NODATA) && count_lost(s, l, it))
		return oom(err);
	l->n++;
	return 0;
}

/* The store is indexed by fts_store_open after the run, where cancel is honoured. */
static int ss_finish(struct fts_sink *base, int ok, struct fts_err *err)
{
	(void)base;
	(void)ok;
	(void)err;
	return 0;
}

static void ss_destroy(struct fts_sink *base)
{
	free(base);
}

int fts_store_sink_new(struct fts_store *s, struct fts_sink **out, struct fts_err *err)
{
	struct store_sink *ss = calloc(1, sizeof(*ss));

	if (!ss)
		return oom(err);
	ss->base.lane = ss_lane;
	ss->base.item = ss_item;
	ss->base.finish = ss_finish;
	ss->base.destroy = ss_destroy;
	ss->s = s;
	*out = &ss->base;
	return 0;
}
