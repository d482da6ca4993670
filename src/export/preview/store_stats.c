// SPDX-License-Identifier: MIT
/*
 * store_stats.c - the statistics of `ftscope stats` made from a loaded store
 * (fts_store_stats), for the preview's per-task summary.
 *
 * Why not a collector fed while loading: its per-task records (~185 B a task)
 * would sit beside the sched model's and the store's at the load's peak, for
 * a table most previews never open (issue 21 item 14). The store already
 * holds every item the collector would have seen, args included, so the
 * same collector (stats.c: one implementation) is fed again from it, when
 * the summary is first asked for and the model is gone.
 *
 * The numbers are the same as from the load: every counter is a sum, a
 * min/max or a multiset of samples, and every order the collector shows
 * (rows, top irq, top preempter) breaks ties by name, so item order does
 * not matter; the one order-sensitive count, migrations, looks at a task's
 * Running slices, which its lane stores in time order as they were made.
 * NPU lanes are skipped: they were added after the load's run, which the
 * collector never saw.
 */
#include "export/preview/store_local.h"
#include "ftscope/stats.h"

#include <errno.h>
#include <string.h>

/* Items between two asks of the caller's stop callback. */
#define POLL_ITEMS 65536u

/* The lane as the producer declared it (the collector reads its group, CPU and tid). */
static int replay_lane(struct fts_sink *k, const struct fts_store *s, uint32_t i,
		       struct fts_err *err)
{
	const struct st_lane *l = &s->lane[i];
	struct fts_lane d = {
		.id = i,
		.group = l->pub.group,
		.sort_index = l->pub.group == FTS_GROUP_CPU ? l->pub.cpu : 0,
		.tid = fts_strtab_get(&s->strs, l->pub.tid),
	};

	return k->lane(k, &d, err);
}

static int replay_items(struct fts_sink *k, const struct fts_store *s, uint32_t i,
			int (*stop)(void *ctx), void *ctx, uint64_t *budget, struct fts_err *err)
{
	const struct st_lane *l = &s->lane[i];
	char buf[4096];
	struct fts_item it;

	for (uint64_t j = 0; j < l->pub.nitems; j++) {
		int n, rc;

		if (!--*budget) {
			*budget = POLL_ITEMS;
			if (stop && stop(ctx))
				return fts_err_set(err, -ECANCELED, "cancelled");
		}
		memset(&it, 0, sizeof(it));
		it.lane = i;
		it.kind = (enum fts_item_kind)st_kind(l)[j];
		it.ts = st_ts(l)[j];
		it.dur = fts_store_dur(l, j);
		it.name = fts_strtab_get(&s->strs, st_name(l)[j]);
		n = fts_store_args(s, i, j, it.args, FTS_ITEM_MAX_ARGS, buf, sizeof(buf));
		if (n < 0)
			return fts_err_set(err, n, "statistics: item %llu of lane %u cannot be read back",
					   (unsigned long long)j, i);
		it.nargs = n;
		rc = k->item(k, &it, err);
		if (rc)
			return rc;
	}
	return 0;
}

int fts_store_stats(const struct fts_store *s, int (*stop)(void *ctx), void *ctx,
		    struct fts_stats **out, struct fts_err *err)
{
	struct fts_stats *st = NULL;
	struct fts_sink *k;
	uint64_t budget = 1; /* asked before the first item too */
	int rc;

	*out = NULL;
	rc = fts_stats_create(NULL, &st, err);
	if (rc)
		return rc;
	k = fts_stats_sink(st);
	/* every lane first: a CPU lane's switch names a task whose lane comes later */
	for (uint32_t i = 0; i < s->nlanes && !rc; i++) {
		if (s->lane[i].pub.group == FTS_GROUP_CPU || s->lane[i].pub.group == FTS_GROUP_TASK)
			rc = replay_lane(k, s, i, err);
	}
	for (uint32_t i = 0; i < s->nlanes && !rc; i++) {
		if (s->lane[i].pub.group == FTS_GROUP_CPU || s->lane[i].pub.group == FTS_GROUP_TASK)
			rc = replay_items(k, s, i, stop, ctx, &budget, err);
	}
	if (!rc)
		rc = fts_stats_finish(st, err);
	if (rc) {
		fts_stats_free(st);
		return rc;
	}
	*out = st;
	return 0;
}
