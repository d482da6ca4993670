// SPDX-License-Identifier: MIT
/*
 * view_loss.c - what the lane view says about loss, all of it through the one
 * loss model (ftscope/loss.h, filled by the store): the CPU labels' `!N`, the
 * status line's `lost ...`, the details of a `!` marker or a "no data" hole,
 * and x / X, which go to the next or previous loss on any CPU.
 *
 * A hole ("no data", FTS_ITEM_NODATA) is time nobody knows about: it is
 * neither idle nor busy, so the busy strip leaves it out of both (see
 * view_nodata_ns) and the lanes draw it with its own glyph.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/preview/view_impl.h"

#define LOSS_KINDS (FTS_KIND_BIT(FTS_ITEM_LOST) | FTS_KIND_BIT(FTS_ITEM_NODATA))

const struct fts_loss_cpu *view_cpu_loss(const struct fts_view *v, int cpu)
{
	const struct fts_loss *l = fts_store_loss(v->store);
	const struct fts_loss_cpu *c;

	if (cpu < 0 || cpu >= l->ncpu)
		return NULL;
	c = &l->cpu[cpu];
	return fts_loss_cpu_any(c) || c->nodata_ns ? c : NULL;
}

void view_loss_label(const struct fts_view *v, int cpu, int room, char *buf, size_t n)
{
	const struct fts_loss_cpu *c = view_cpu_loss(v, cpu);
	char t[96];
	uint64_t ev;

	buf[0] = 0;
	if (!c)
		return;
	/* the model's words when they fit ("!at least 12, plus 1 drop..."), else its short form */
	fts_loss_cpu_text(c, t, sizeof(t));
	if ((int)strlen(t) + 2 <= room) {
		snprintf(buf, n, " !%s", t);
		return;
	}
	ev = fts_loss_cpu_events(c);
	if (!ev && fts_loss_cpu_any(c))
		snprintf(buf, n, " !?");
	else if (!ev)
		snprintf(buf, n, " ?"); /* a hole whose drop carried nothing countable */
	else
		snprintf(buf, n, " !%" PRIu64 "%s", ev, fts_loss_cpu_exact(c) ? "" : "+");
}

void view_loss_status(const struct fts_view *v, int room, char *buf, size_t n)
{
	const struct fts_loss *l = fts_store_loss(v->store);
	char t[256];
	int exact;
	uint64_t total;

	/* the model's line with the worst CPUs, then without them, then its shortest form */
	snprintf(buf, n, "lost %s", fts_loss_text(l, 3, t, sizeof(t)));
	if ((int)strlen(buf) <= room)
		return;
	snprintf(buf, n, "lost %s", fts_loss_text(l, 0, t, sizeof(t)));
	if ((int)strlen(buf) <= room || !fts_loss_any(l))
		return;
	total = fts_loss_total(l, &exact);
	if (total)
		snprintf(buf, n, "lost %" PRIu64 "%s events", total, exact || !fts_loss_unsized(l) ? "" : "+");
	else
		snprintf(buf, n, "lost ? (drops of unknown size)");
}

uint64_t view_nodata_ns(const struct fts_view *v, uint32_t lane, uint64_t a, uint64_t b)
{
	uint32_t k = FTS_KIND_BIT(FTS_ITEM_NODATA);
	int64_t i = fts_store_find(v->store, lane, a, k), p;
	struct fts_store_item it;
	uint64_t sum = 0;

	if (i < 0)
		return 0;
	/* the nearest may start after @a while the one before still covers it */
	if (!fts_store_item(v->store, lane, (uint64_t)i, &it) && it.ts > a &&
	    (p = fts_store_step(v->store, lane, (uint64_t)i, -1, k)) >= 0)
		i = p;
	/* covered whole: the rest cannot add (crafted holes may overlap) */
	while (i >= 0 && sum < b - a && !fts_store_item(v->store, lane, (uint64_t)i, &it) && it.ts < b) {
		uint64_t s = it.ts > a ? it.ts : a, e = it.ts + it.dur < b ? it.ts + it.dur : b;

		if (e > s)
			sum += e - s;
		i = fts_store_step(v->store, lane, (uint64_t)i, 1, k);
	}
	return sum;
}

/* Hole [s, e) (inside the row) into the columns it touches; whole ones as differences in @full. */
static void hole_add(uint64_t t0, uint64_t npc, uint64_t s, uint64_t e, uint64_t *hole, int64_t *full)
{
	uint64_t c0 = (s - t0) / npc, c1 = (e - 1 - t0) / npc;

	if (c0 == c1) {
		hole[c0] += e - s;
		return;
	}
	hole[c0] += t0 + (c0 + 1) * npc - s;
	hole[c1] += e - (t0 + c1 * npc);
	full[c0 + 1]++;
	full[c1]--;
}

int view_nodata_row(const struct fts_view *v, uint32_t lane, uint64_t t0, uint64_t npc, int w,
		    uint64_t *hole)
{
	uint32_t k = FTS_KIND_BIT(FTS_ITEM_NODATA);
	uint64_t t1 = view_add(t0, view_mul((uint64_t)w, npc));
	int64_t i = fts_store_find(v->store, lane, t0, k), p, run = 0;
	int64_t *full = calloc((size_t)w + 1, sizeof(*full));
	struct fts_store_item it;

	if (!full)
		return -1;
	memset(hole, 0, (size_t)w * sizeof(*hole));
	if (i >= 0 && !fts_store_item(v->store, lane, (uint64_t)i, &it) && it.ts > t0 &&
	    (p = fts_store_step(v->store, lane, (uint64_t)i, -1, k)) >= 0)
		i = p;
	/* one walk over the row's holes, each O(1) however many columns it covers */
	while (i >= 0 && !fts_store_item(v->store, lane, (uint64_t)i, &it) && it.ts < t1) {
		uint64_t s = it.ts > t0 ? it.ts : t0, e = view_add(it.ts, it.dur);

		if (e > t1)
			e = t1;
		if (e > s)
			hole_add(t0, npc, s, e, hole, full);
		i = fts_store_step(v->store, lane, (uint64_t)i, 1, k);
	}
	for (int c = 0; c < w; c++) {
		run += full[c];
		hole[c] = view_add(hole[c], view_mul((uint64_t)run, npc));
	}
	free(full);
	return 0;
}

int64_t view_lost_in_column(const struct fts_view *v, uint32_t lane, struct fts_store_item *it)
{
	uint64_t a;
	int64_t i;

	if (v->cursor < v->t0)
		return -1;
	a = v->cursor - (v->cursor - v->t0) % v->npc; /* the cursor's column starts here */
	i = fts_store_find(v->store, lane, a, FTS_KIND_BIT(FTS_ITEM_LOST));
	if (i < 0 || fts_store_item(v->store, lane, (uint64_t)i, it))
		return -1;
	if (it->ts < a) {
		i = fts_store_step(v->store, lane, (uint64_t)i, 1, FTS_KIND_BIT(FTS_ITEM_LOST));
		if (i < 0 || fts_store_item(v->store, lane, (uint64_t)i, it))
			return -1;
	}
	return it->ts >= a && it->ts < view_add(a, v->npc) ? i : -1;
}

/* The value of arg @key of item @idx, or NULL. */
static const char *arg_of(const struct fts_view *v, uint32_t lane, uint64_t idx, const char *key,
			  char *buf, size_t n)
{
	struct fts_arg args[FTS_ITEM_MAX_ARGS];
	int k = fts_store_args(v->store, lane, idx, args, FTS_ITEM_MAX_ARGS, buf, n);

	for (int i = 0; i < k; i++) {
		if (!strcmp(args[i].key, key))
			return args[i].val;
	}
	return NULL;
}

/* The CPU lane of @cpu, or -1. */
static int64_t cpu_lane(const struct fts_view *v, int cpu)
{
	for (uint32_t l = 0; l < v->nlanes; l++) {
		const struct fts_store_lane *sl = fts_store_lane(v->store, l);

		if (sl->group == FTS_GROUP_CPU && sl->cpu == cpu)
			return l;
	}
	return -1;
}

/* How many events the drop that ended the hole [@t0, @t1) on @cpu carried: "312" or "". */
static void drop_count(const struct fts_view *v, int cpu, uint64_t t1, char *out, size_t n)
{
	int64_t lane = cpu_lane(v, cpu), i;
	struct fts_store_item it;
	char buf[256];
	const char *c;

	out[0] = 0;
	if (lane < 0)
		return;
	i = fts_store_find(v->store, (uint32_t)lane, t1, FTS_KIND_BIT(FTS_ITEM_LOST));
	if (i < 0 || fts_store_item(v->store, (uint32_t)lane, (uint64_t)i, &it))
		return;
	/* the marker sits where the data resumes: at the hole's end, give or take a tick */
	if ((it.ts > t1 ? it.ts - t1 : t1 - it.ts) > 1000)
		return;
	c = arg_of(v, (uint32_t)lane, (uint64_t)i, FTS_LOSS_ARG_COUNT, buf, sizeof(buf));
	if (c && c[0] >= '0' && c[0] <= '9')
		snprintf(out, n, "%s", c);
}

/* The CPU whose hole covers @t (a task lane's hole does not always say), or -1. */
static int hole_cpu(const struct fts_view *v, uint64_t t)
{
	for (uint32_t l = 0; l < v->nlanes; l++) {
		const struct fts_store_lane *sl = fts_store_lane(v->store, l);
		struct fts_store_item it;
		int64_t i;

		if (sl->group != FTS_GROUP_CPU)
			continue;
		i = fts_store_find(v->store, l, t, FTS_KIND_BIT(FTS_ITEM_NODATA));
		if (i >= 0 && !fts_store_item(v->store, l, (uint64_t)i, &it) && it.ts <= t &&
		    t < view_add(it.ts, it.dur))
			return sl->cpu;
	}
	return -1;
}

int view_loss_details(const struct fts_view *v, uint32_t lane, uint64_t idx,
		      const struct fts_store_item *it, char *line, size_t n)
{
	const struct fts_store_lane *sl = fts_store_lane(v->store, lane);
	int cpu = sl->group == FTS_GROUP_CPU ? sl->cpu : it->cpu >= 0 ? it->cpu : hole_cpu(v, it->ts);
	const struct fts_loss_cpu *c = view_cpu_loss(v, cpu);
	char all[96] = "?", here[32], d[32], buf[256];
	const char *cnt;

	if (c)
		fts_loss_cpu_text(c, all, sizeof(all));
	if (it->kind == FTS_ITEM_NODATA) {
		view_fmt_dur(v, it->dur, d, sizeof(d));
		if (cpu < 0) {
			snprintf(line, n, "no data: hole of %s after lost events; nothing is known here", d);
			return 1;
		}
		drop_count(v, cpu, it->ts + it->dur, here, sizeof(here));
		snprintf(line, n, "no data: hole of %s on CPU %d, %s%s CPU %d in all: %s", d, cpu,
			 here[0] ? here : "", here[0] ? " events lost here;" : "loss here of unknown size;",
			 cpu, all);
		return 1;
	}
	if (it->kind != FTS_ITEM_LOST)
		return 0;
	cnt = arg_of(v, lane, idx, FTS_LOSS_ARG_COUNT, buf, sizeof(buf));
	if (cnt && cnt[0] >= '0' && cnt[0] <= '9')
		snprintf(here, sizeof(here), "%s dropped", cnt);
	else
		snprintf(here, sizeof(here), "a drop of unknown size");
	snprintf(line, n, "lost events: %s here on CPU %d; CPU %d in all: %s", here, cpu, cpu, all);
	return 1;
}

/* x / X: the nearest loss (marker or hole start) after / before the cursor, on any CPU lane. */
void view_go_loss(struct fts_view *v, int dir)
{
	int64_t best_lane = -1;
	uint64_t best = 0;

	for (uint32_t l = 0; l < v->nlanes && !view_stop(v); l++) {
		struct fts_store_item it;
		int64_t i;

		if (fts_store_lane(v->store, l)->group != FTS_GROUP_CPU)
			continue;
		i = fts_store_find(v->store, l, v->cursor, LOSS_KINDS);
		while (i >= 0 && !fts_store_item(v->store, l, (uint64_t)i, &it)) {
			if (dir > 0 ? it.ts > v->cursor : it.ts < v->cursor) {
				if (best_lane < 0 || (dir > 0 ? it.ts < best : it.ts > best)) {
					best = it.ts;
					best_lane = l;
				}
				break;
			}
			i = fts_store_step(v->store, l, (uint64_t)i, dir, LOSS_KINDS);
		}
	}
	if (best_lane < 0) {
		const struct fts_loss *l = fts_store_loss(v->store);

		if (!fts_loss_any(l) && !fts_loss_nodata_ns(l))
			view_message(v, "this capture lost nothing");
		else
			view_message(v, dir > 0 ? "no later loss" : "no earlier loss");
		return;
	}
	v->sel = (uint32_t)best_lane;
	v->cursor = best;
	view_keep_cursor_visible(v);
}
