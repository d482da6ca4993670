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
		uint32_t *b;

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
	if (s->nlanes == s->caplanes) {
		uint32_t cap = s->caplanes ? s->caplanes * 2 : 256;
		struct st_lane *b = realloc(s->lane, cap * sizeof(*b));

		if (!b)
			return oom(err);
		s->lane = b;
		s->caplanes = cap;
	}
	l = &s->lane[s->nlanes];
	memset(l, 0, sizeof(*l));
	s->by_src[lane->id] = ++s->nlanes;
	if (lane->id >= s->nsrc)
		s->nsrc = lane->id + 1;
	l->src = lane->id;
	l->pub.group = lane->group;
	l->pub.cpu = lane->group == FTS_GROUP_CPU ? lane->sort_index : -1;
	l->pub.host_pid = -1;
	l->pub.comm = FTS_STR_NONE;
	l->pub.pid = -1;
	l->pub.tid = fts_strtab_intern(&s->strs, lane->tid, strlen(lane->tid));
	if (lane->group == FTS_GROUP_TASK)
		task_ids(s, l, lane->tid);
	s->last_tid = l->pub.tid;
	if (s->sketch)
		fts_sketch_lane(s->sketch, l->pub.group, l->pub.cpu);
	return l->pub.tid == FTS_STR_NONE ? oom(err) : 0;
}

static int add_big(struct st_lane *l, uint64_t item, uint64_t dur)
{
	struct st_ext *x = fts_store_ext(l);

	if (!x)
		return -1;
	if (x->nbig == x->capbig) {
		size_t cap = x->capbig ? x->capbig * 2 : 4;
		struct st_big *b = realloc(x->big, cap * sizeof(*b));

		if (!b)
			return -1;
		x->big = b;
		x->capbig = cap;
	}
	x->big[x->nbig].item = item;
	x->big[x->nbig].dur = dur;
	x->nbig++;
	return 0;
}

/* @id is the string @str (@n bytes): a cache check, no hash. */
static int same(const struct fts_store *s, uint32_t id, const char *str, size_t n)
{
	return id != FTS_STR_NONE && fts_strtab_len(&s->strs, id) == n &&
	       !memcmp(fts_strtab_get(&s->strs, id), str, n);
}

static uint32_t name_id(struct fts_store *s, struct st_lane *l, const char *name)
{
	size_t n = strlen(name);
	uint32_t last = l->pub.nitems ? st_name(l)[l->pub.nitems - 1] : FTS_STR_NONE;

	/* consecutive items of a lane often share a name, a run slice its switch's task: skip the hash */
	if (same(s, last, name, n))
		return last;
	if (l->x && same(s, l->x->last_ref, name, n))
		return l->x->last_ref;
	return fts_strtab_intern(&s->strs, name, n);
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
static int aux2_open(struct fts_store *s, struct st_lane *l, const struct fts_item *it)
{
	for (int a = 0; a < it->nargs; a++) {
		const char *v = it->args[a].val;
		uint64_t base;

		if (strcmp(it->args[a].key, "vruntime") || !v || *v < '0' || *v > '9')
			continue;
		if (!fts_store_ext(l) || fts_store_relayout(s, l, l->cap ? l->cap : 1, 1))
			return -1;
		base = strtoull(v, NULL, 10);
		l->x->aux2_base = base > (1ull << 31) ? base - (1ull << 31) : 0;
		return 0;
	}
	return 0;
}

/*
 * What @it's args are encoded against (store_args.c): the context pid, and
 * on a CPU lane the switch side kept in the aux column as the id of its
 * interned "comm:pid" (*@ref, FTS_AUX_NONE when none). 0 or -1 (no memory).
 */
static int args_ctx(struct fts_store *s, struct st_lane *l, const struct fts_item *it,
		    uint64_t dur, struct st_actx *cx, uint32_t *ref)
{
	int c, p;

	memset(cx, 0, sizeof(*cx));
	cx->dur = dur;
	cx->ref_c = cx->ref_p = -1;
	cx->aux2_base = l->x ? l->x->aux2_base : 0;
	*ref = FTS_AUX_NONE;
	if (st_has_aux(l) && fts_args_ref_pick(it->args, it->nargs, &c, &p) == 0) {
		int w = snprintf(s->scratch, sizeof(s->scratch), "%s:%s", it->args[c].val,
				 it->args[p].val);

		if (w > 0 && w < 128) { /* rebuilt into the reader's 256 bytes (preview.h) */
			struct st_ext *x = fts_store_ext(l);

			if (!x)
				return -1;
			if (same(s, x->last_ref, s->scratch, (size_t)w))
				*ref = x->last_ref;
			else if (same(s, s->last_tid, s->scratch, (size_t)w))
				*ref = x->last_ref = s->last_tid;
			else
				*ref = x->last_ref = fts_strtab_intern(&s->strs, s->scratch, (size_t)w);
			if (*ref == FTS_STR_NONE)
				return -1;
			cx->ref_c = c;
			cx->ref_p = p;
		}
	}
	if (l->pub.group == FTS_GROUP_TASK)
		fts_args_ctx_lane(cx, l->pub.pid);
	else
		cx->pid = fts_args_ctx_pid(it->name);
	return 0;
}

static int ss_item(struct fts_sink *base, const struct fts_item *it, struct fts_err *err)
{
	struct fts_store *s = ((struct store_sink *)base)->s;
	uint32_t li = it->lane < s->nsrc ? s->by_src[it->lane] : 0;
	struct st_lane *l = li ? &s->lane[li - 1] : NULL;
	uint32_t aux = FTS_AUX_NONE, aux2 = FTS_AUX_NONE, ref, name, args;
	uint64_t i, dur = it->dur;
	struct st_actx cx;
	size_t blen;

	if (!l)
		return fts_err_set(err, -EINVAL, "internal error: item on an undeclared lane");
	if (l->pub.nitems == l->cap && fts_store_relayout(s, l, fts_store_grow_cap(l), st_has_aux2(l)))
		return oom(err);
	if (st_has_aux(l) && !st_has_aux2(l) && it->kind == FTS_ITEM_RUN && aux2_open(s, l, it))
		return oom(err);
	i = l->pub.nitems;
	if (dur > UINT64_MAX - it->ts)
		dur = UINT64_MAX - it->ts; /* a read-back file's nonsense: keep end >= start */
	name = name_id(s, l, it->name);
	if (args_ctx(s, l, it, dur, &cx, &ref))
		return oom(err);
	blen = fts_args_encode(it->args, it->nargs, &cx, st_has_aux(l) && ref == FTS_AUX_NONE ? &aux : NULL,
			       st_has_aux2(l) ? &aux2 : NULL, s->scratch, sizeof(s->scratch));
	args = fts_strtab_intern(&s->strs, s->scratch, blen);
	if (name == FTS_STR_NONE || args == FTS_STR_NONE)
		return oom(err);
	if (dur >= FTS_DUR_BIG) {
		if (add_big(l, i, dur))
			return oom(err);
		st_dur(l)[i] = FTS_DUR_BIG;
	} else {
		st_dur(l)[i] = (uint32_t)dur;
	}
	st_ts(l)[i] = it->ts;
	st_kind(l)[i] = (uint8_t)it->kind;
	st_name(l)[i] = name;
	st_args(l)[i] = args;
	if (st_has_aux(l))
		st_aux(l)[i] = ref != FTS_AUX_NONE ? ref : aux;
	if (st_has_aux2(l))
		st_aux2(l)[i] = aux2;
	if ((it->kind == FTS_ITEM_LOST || it->kind == FTS_ITEM_NODATA) && count_lost(s, l, it))
		return oom(err);
	l->pub.nitems++;
	if (s->sketch)
		fts_sketch_item(s->sketch, l->pub.group == FTS_GROUP_CPU ? l->pub.cpu : -1, it->kind,
				it->ts, dur);
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
