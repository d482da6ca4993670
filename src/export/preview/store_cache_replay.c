// SPDX-License-Identifier: MIT
/*
 * store_cache_replay.c - a store read from the cache, fed to the statistics
 * sink as a load feeds it, so the summary table is the same to the byte
 * without caching the statistics themselves.
 */
#include "export/preview/store_cache_local.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * An args blob taken apart once (a 10 M-item capture has ~1,500 distinct
 * blobs): its keys and literal values point into the blob, its markers are
 * rebuilt per item. Replaying through fts_args_decode scanned every blob of
 * every item again (a quarter of a reopen's time in strlen).
 */
struct tpair {
	const char *key, *val;   /* val: the literal value, or what follows the marker */
	char mark;               /* 0: literal; else the FTS_ARGS_* marker to rebuild */
};

struct tmpl {
	uint32_t first;          /* its pairs in the pool; UINT32_MAX: not taken apart yet */
	uint32_t n;
};

struct tmpls {
	struct tmpl *t;          /* by args string id */
	struct tpair *pool;
	size_t npool, cap;
};

/* Blob @id's pairs, taking it apart on first use as fts_args_decode reads it; NULL when out of memory. */
static const struct tmpl *tmpl_of(struct tmpls *T, const struct fts_strtab *strs, uint32_t id)
{
	struct tmpl *t = &T->t[id];
	const char *p = fts_strtab_get(strs, id), *end = p + fts_strtab_len(strs, id);

	if (t->first != UINT32_MAX)
		return t;
	if (T->npool + FTS_ITEM_MAX_ARGS > T->cap) {
		size_t nc = T->cap ? T->cap * 2 : 1024;
		struct tpair *np = realloc(T->pool, nc * sizeof(*np));

		if (!np)
			return NULL;
		T->pool = np;
		T->cap = nc;
	}
	t->first = (uint32_t)T->npool;
	t->n = 0;
	while (p < end && t->n < FTS_ITEM_MAX_ARGS) {
		const char *k = p, *v = k + strlen(k) + 1;
		struct tpair *q = &T->pool[T->npool];

		if (v >= end)
			break;
		p = v + strlen(v) + 1;
		q->key = k;
		q->mark = 0;
		if (v[0] == FTS_ARGS_LIT) {
			v++;
		} else if (v[0] >= FTS_ARGS_DUR && v[0] <= FTS_ARGS_LAST) {
			q->mark = v[0];
			v++;
		}
		q->val = v;
		T->npool++;
		t->n++;
	}
	return t;
}

/*
 * Give every lane of @s to @k, then every item with its args, as a load
 * would (the statistics sink: its numbers come out the same). The args are
 * rebuilt from each blob's template with one context per lane, not through
 * fts_store_item / fts_store_args, which redo per item what a lane shares.
 */
int fts_store_cache_replay(const struct fts_store *s, struct fts_sink *k, struct fts_err *err)
{
	struct tmpls T = { 0 };
	struct fts_item it;
	char buf[512];
	int rc = 0;

	T.t = malloc((s->strs.n ? s->strs.n : 1) * sizeof(*T.t));
	if (!T.t) {
		k->finish(k, 0, err);
		return -1;
	}
	memset(T.t, 0xff, (s->strs.n ? s->strs.n : 1) * sizeof(*T.t));
	for (uint32_t i = 0; i < s->nlanes && !rc; i++) {
		const struct fts_store_lane *l = &s->lane[i].pub;
		struct fts_lane ln = { .id = i, .group = l->group, .sort_index = l->cpu >= 0 ? l->cpu : 0,
				       .tid = fts_store_str(s, l->tid) };

		rc = k->lane(k, &ln, err);
	}
	for (uint32_t i = 0; i < s->nlanes && !rc; i++) {
		const struct st_lane *l = &s->lane[i];
		const uint32_t *name = st_name(l), *args = st_args(l), *aux = st_aux(l), *aux2 = st_aux2(l);
		const uint8_t *kind = st_kind(l);
		uint32_t last_name = FTS_STR_NONE;
		struct st_actx cx;

		if (!l->pub.nitems)
			continue;
		fts_store_actx(s, l, 0, &cx); /* what the lane shares; per item below what differs */
		it.lane = i;
		for (uint64_t j = 0; j < l->pub.nitems && !rc; j++) {
			const struct tmpl *t = tmpl_of(&T, &s->strs, args[j]);
			size_t used = 0;

			if (!t) {
				rc = fts_err_set(err, -ENOMEM, "out of memory");
				break;
			}
			cx.dur = fts_store_dur(l, j);
			cx.aux = aux ? aux[j] : FTS_AUX_NONE;
			cx.aux2 = aux2 ? aux2[j] : FTS_AUX_NONE;
			if (l->pub.group != FTS_GROUP_TASK && name[j] != last_name) {
				last_name = name[j];
				cx.pid = fts_args_ctx_pid(fts_strtab_get(&s->strs, name[j]));
			}
			it.nargs = (int)t->n;
			for (uint32_t a = 0; a < t->n; a++) {
				const struct tpair *q = &T.pool[t->first + a];

				it.args[a].key = q->key;
				it.args[a].val = q->val;
				if (q->mark) {
					int w = fts_args_rebuild(q->mark, q->val, &cx, buf + used, sizeof(buf) - used);

					if (w < 0) {
						it.nargs = 0; /* as fts_store_args: no room, no args */
						break;
					}
					it.args[a].val = buf + used;
					used += (size_t)w + 1;
				}
			}
			it.kind = (enum fts_item_kind)kind[j];
			it.ts = st_ts(l)[j];
			it.dur = cx.dur;
			it.name = fts_store_str(s, name[j]);
			rc = k->item(k, &it, err);
		}
	}
	free(T.t);
	free(T.pool);
	return k->finish(k, !rc, err) || rc ? -1 : 0;
}
