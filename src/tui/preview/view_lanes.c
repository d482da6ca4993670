// SPDX-License-Identifier: MIT
/*
 * view_lanes.c - which lanes the view shows and in what order: pinned
 * lanes on top (as Insight pins them), then CPU lanes by CPU, then task
 * lanes sorted by name, pid, running or runnable time, optionally filtered
 * to the search's matches.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tui/preview/view_impl.h"

int view_lanes_init(struct fts_view *v)
{
	size_t n = v->nlanes ? v->nlanes : 1;

	v->pinned = calloc(n, 1);
	v->match = calloc(n, 1);
	v->pin_order = calloc(n, sizeof(*v->pin_order));
	v->disp = calloc(n + 4, sizeof(*v->disp));
	v->npu_hidden = calloc(n, 1);
	if (!v->pinned || !v->match || !v->pin_order || !v->disp || !v->npu_hidden)
		return -ENOMEM;
	return view_lanes_rebuild(v);
}

void view_lanes_free(struct fts_view *v)
{
	free(v->pinned);
	free(v->match);
	free(v->pin_order);
	free(v->disp);
	free(v->npu_hidden);
	free(v->npu_busy);
	free(v->run_ns);
	free(v->wait_ns);
	free(v->by_tid);
}

static int cmp_tid(const void *pa, const void *pb, void *ctx)
{
	const struct fts_view *v = ctx;
	uint32_t a = fts_store_lane(v->store, *(const uint32_t *)pa)->tid;
	uint32_t b = fts_store_lane(v->store, *(const uint32_t *)pb)->tid;

	return a < b ? -1 : a > b;
}

/*
 * The task lane named @tid (an interned "comm:pid", as run slices on CPU
 * lanes are named), by binary search over an index built on first use.
 */
int64_t view_task_lane(struct fts_view *v, uint32_t tid)
{
	uint32_t lo = 0, hi;

	if (!v->by_tid) {
		v->by_tid = malloc((v->nlanes ? v->nlanes : 1) * sizeof(*v->by_tid));
		if (!v->by_tid)
			return -1;
		for (uint32_t l = 0; l < v->nlanes; l++) {
			if (fts_store_lane(v->store, l)->group == FTS_GROUP_TASK)
				v->by_tid[v->nby_tid++] = l;
		}
		qsort_r(v->by_tid, v->nby_tid, sizeof(*v->by_tid), cmp_tid, v);
	}
	hi = v->nby_tid;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2, t = fts_store_lane(v->store, v->by_tid[mid])->tid;

		if (t == tid)
			return v->by_tid[mid];
		if (t < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* not interned with the same id: compare the names */
	for (uint32_t i = 0; i < v->nby_tid; i++) {
		if (!strcmp(fts_store_str(v->store, fts_store_lane(v->store, v->by_tid[i])->tid),
			    fts_store_str(v->store, tid)))
			return v->by_tid[i];
	}
	return -1;
}

static int cmp_name_idx(const void *pa, const void *pb, void *ctx)
{
	const struct fts_view *v = ctx;

	return strcmp(fts_store_str(v->store, fts_store_lane(v->store, *(const uint32_t *)pa)->tid),
		      fts_store_str(v->store, fts_store_lane(v->store, *(const uint32_t *)pb)->tid));
}

/*
 * Runnable time per task lane from the summary's statistics (once the summary
 * was opened), which summed every wait: task lanes sorted by name, one binary
 * search per task row.
 */
static int stats_wait(struct fts_view *v)
{
	uint32_t *idx = malloc((v->nlanes ? v->nlanes : 1) * sizeof(*idx)), n = 0;

	if (!idx)
		return -ENOMEM;
	for (uint32_t l = 0; l < v->nlanes; l++) {
		if (fts_store_lane(v->store, l)->group == FTS_GROUP_TASK)
			idx[n++] = l;
	}
	qsort_r(idx, n, sizeof(*idx), cmp_name_idx, v);
	for (size_t i = 0; i < fts_stats_ntasks(v->stats); i++) {
		const struct fts_task_stats *t = fts_stats_task(v->stats, i);
		uint32_t lo = 0, hi = n;

		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			int c = strcmp(fts_store_str(v->store, fts_store_lane(v->store, idx[mid])->tid), t->tid);

			if (!c) {
				v->wait_ns[idx[mid]] = t->runnable_ns;
				break;
			}
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	free(idx);
	v->walked = 1;
	return 0;
}

/*
 * Running and runnable time per task lane, for sorting: Running comes from
 * one bucket over the whole capture (O(log n) per lane); Runnable needs a
 * walk of the lane's items, done once, on the first sort that asks for it.
 */
static int lane_totals(struct fts_view *v, int walk)
{
	if (v->run_ns && (!walk || v->walked))
		return 0;
	if (v->run_ns && walk && v->stats)
		return stats_wait(v);
	if (v->run_ns && walk) {
		v->walked = 1;
		for (uint32_t l = 0; l < v->nlanes; l++) {
			const struct fts_store_lane *sl = fts_store_lane(v->store, l);
			struct fts_store_item it;

			for (uint64_t i = 0; sl->group == FTS_GROUP_TASK && i < sl->nitems; i++) {
				if (fts_store_item(v->store, l, i, &it))
					break;
				if (it.kind == FTS_ITEM_RUNNABLE)
					v->wait_ns[l] += it.dur;
			}
		}
		return 0;
	}
	v->run_ns = calloc(v->nlanes ? v->nlanes : 1, sizeof(uint64_t));
	v->wait_ns = calloc(v->nlanes ? v->nlanes : 1, sizeof(uint64_t));
	if (!v->run_ns || !v->wait_ns) {
		free(v->run_ns);
		free(v->wait_ns);
		v->run_ns = v->wait_ns = NULL;
		return -ENOMEM;
	}
	for (uint32_t l = 0; l < v->nlanes; l++) {
		const struct fts_store_lane *sl = fts_store_lane(v->store, l);
		struct fts_bucket b;

		if (sl->group != FTS_GROUP_TASK)
			continue;
		fts_store_bucket(v->store, l, v->t_begin, view_add(v->t_end, 1), &b);
		v->run_ns[l] = b.busy_ns;
	}
	return walk ? lane_totals(v, walk) : 0;
}

static int cmp_name(const struct fts_view *v, uint32_t a, uint32_t b)
{
	return strcmp(fts_store_str(v->store, fts_store_lane(v->store, a)->tid),
		      fts_store_str(v->store, fts_store_lane(v->store, b)->tid));
}

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a < b ? 1 : a > b ? -1 : 0;
}

static int cmp_lanes(const void *pa, const void *pb, void *ctx)
{
	const struct fts_view *v = ctx;
	uint32_t a = (uint32_t)*(const int64_t *)pa, b = (uint32_t)*(const int64_t *)pb;
	const struct fts_store_lane *la = fts_store_lane(v->store, a), *lb = fts_store_lane(v->store, b);
	int c = 0, da = fts_store_dispatch_tid(v->store, a) >= 0, db = fts_store_dispatch_tid(v->store, b) >= 0;

	/* the profiler's host threads stay on top of Process Scheduling, whatever the sort */
	if (da != db)
		return da ? -1 : 1;
	switch (v->sort) {
	case SORT_PID:
		c = la->pid < lb->pid ? -1 : la->pid > lb->pid;
		break;
	case SORT_RUNNING:
		c = v->run_ns ? cmp_u64_desc(v->run_ns[a], v->run_ns[b]) : 0;
		break;
	case SORT_RUNNABLE:
		c = v->wait_ns ? cmp_u64_desc(v->wait_ns[a], v->wait_ns[b]) : 0;
		break;
	default:
		break;
	}
	if (!c)
		c = cmp_name(v, a, b);
	return c ? c : (a < b ? -1 : a > b);
}

int view_lanes_rebuild(struct fts_view *v)
{
	uint32_t n = 0, first_task;
	int has_cpu = 0;

	if (v->sort == SORT_RUNNING || v->sort == SORT_RUNNABLE) {
		if (lane_totals(v, v->sort == SORT_RUNNABLE) < 0)
			v->sort = SORT_NAME;
	}
	if (v->npins) {
		v->disp[n++] = DISP_PINNED;
		for (uint32_t i = 0; i < v->npins; i++)
			v->disp[n++] = v->pin_order[i];
	}
	v->npinned_disp = n;
	/* the NPU group above the CPU lanes: the device first, then what fed it */
	n = view_npu_disp(v, n);
	for (uint32_t l = 0; l < v->nlanes; l++) {
		if (fts_store_lane(v->store, l)->group != FTS_GROUP_CPU || v->pinned[l])
			continue;
		if (!has_cpu++)
			v->disp[n++] = DISP_CPU;
		v->disp[n++] = l;
	}
	v->disp[n++] = DISP_TASK;
	first_task = n;
	for (uint32_t l = 0; l < v->nlanes; l++) {
		if (fts_store_lane(v->store, l)->group != FTS_GROUP_TASK || v->pinned[l])
			continue;
		if (v->filter && v->query[0] && !v->match[l])
			continue;
		v->disp[n++] = l;
	}
	qsort_r(v->disp + first_task, n - first_task, sizeof(*v->disp), cmp_lanes, v);
	v->ndisp = n;
	if (v->top < v->npinned_disp || v->top >= n)
		v->top = v->npinned_disp;
	/* the selection survives a rebuild when its lane is still shown */
	if (view_disp_index(v, v->sel) < 0) {
		for (uint32_t i = 0; i < n; i++) {
			if (v->disp[i] >= 0) {
				v->sel = (uint32_t)v->disp[i];
				break;
			}
		}
	}
	return 0;
}

int64_t view_disp_index(const struct fts_view *v, uint32_t lane)
{
	for (uint32_t i = 0; i < v->ndisp; i++) {
		if (v->disp[i] == (int64_t)lane)
			return i;
	}
	return -1;
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return 0;
	}
	return 1;
}

/* ASCII case-insensitive substring: task names are bytes, not text. */
static int contains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++) {
		if (!strncasecmp(hay, needle, n))
			return 1;
	}
	return n == 0;
}

void view_search_apply(struct fts_view *v, const char *q)
{
	long pid = all_digits(q) ? strtol(q, NULL, 10) : -1;
	int64_t first = -1;
	int revealed;

	snprintf(v->query, sizeof(v->query), "%s", q);
	v->nmatch = 0;
	for (uint32_t l = 0; l < v->nlanes; l++) {
		const struct fts_store_lane *sl = fts_store_lane(v->store, l);
		int m = 0;

		if (q[0] && sl->group == FTS_GROUP_TASK) {
			m = contains(fts_store_str(v->store, sl->tid), q) ||
			    (pid >= 0 && (sl->pid == pid || sl->host_pid == pid));
		} else if (q[0] && sl->group == FTS_GROUP_NPU) {
			m = contains(fts_store_str(v->store, sl->tid), q); /* "stream 7", "HCCL", "Free" */
		}
		v->match[l] = (uint8_t)m;
		v->nmatch += (uint32_t)m;
	}
	revealed = view_npu_reveal(v); /* "HCCL", "stream 7": a folded lane is found too */
	view_lanes_rebuild(v);
	/* jump: the first match in display order */
	for (uint32_t i = 0; i < v->ndisp && first < 0; i++) {
		if (v->disp[i] >= 0 && v->match[v->disp[i]])
			first = v->disp[i];
	}
	if (!q[0])
		view_message(v, "search cleared");
	else if (first < 0)
		view_message(v, "no task matches '%s'", q);
	else {
		v->sel = (uint32_t)first;
		view_message(v, "%u task%s match '%s'%s", v->nmatch, v->nmatch == 1 ? "" : "s", q,
			     revealed ? " (NPU lanes unfolded; z folds)" : "");
	}
}

void view_toggle_pin(struct fts_view *v)
{
	uint32_t l = v->sel;

	if (v->pinned[l]) {
		uint32_t j = 0;

		for (uint32_t i = 0; i < v->npins; i++) {
			if (v->pin_order[i] != l)
				v->pin_order[j++] = v->pin_order[i];
		}
		v->npins = j;
		v->pinned[l] = 0;
	} else {
		v->pin_order[v->npins++] = l;
		v->pinned[l] = 1;
	}
	view_lanes_rebuild(v);
}

const char *view_sort_name(enum view_sort s)
{
	static const char *const names[SORT__COUNT] = { "running time", "runnable time", "name",
							"pid" };

	return names[s];
}

void view_next_sort(struct fts_view *v)
{
	v->sort = (enum view_sort)((v->sort + 1) % SORT__COUNT);
	view_lanes_rebuild(v);
	view_message(v, "task lanes sorted by %s", view_sort_name(v->sort));
}

/*
 * n / N after a search, as in less: the next (previous) matching task lane in
 * display order from the selected one; past the last it wraps to the first
 * and says so. The position among the matches goes to the status line.
 */
void view_search_next(struct fts_view *v, int dir)
{
	int64_t at = view_disp_index(v, v->sel), found = -1;
	uint32_t k = 0, nth = 0;
	int wrapped = 0;

	if (!v->query[0]) {
		view_message(v, "no search yet: / and a name or pid first");
		return;
	}
	if (!v->nmatch) {
		view_message(v, "no task matches '%s'", v->query);
		return;
	}
	if (at < 0)
		at = dir > 0 ? -1 : (int64_t)v->ndisp;
	for (uint32_t step = 1; step <= v->ndisp && found < 0; step++) {
		int64_t i = at + dir * (int64_t)step;

		if (i < 0 || i >= (int64_t)v->ndisp) {
			wrapped = 1;
			i = (i + (int64_t)v->ndisp) % (int64_t)v->ndisp;
		}
		if (v->disp[i] >= 0 && v->match[v->disp[i]])
			found = i;
	}
	if (found < 0) {
		view_message(v, "no task lane shown matches '%s'", v->query);
		return;
	}
	v->sel = (uint32_t)v->disp[found];
	for (uint32_t i = 0; i <= (uint32_t)found; i++)
		k += v->disp[i] >= 0 && v->match[v->disp[i]];
	for (uint32_t i = 0; i < v->ndisp; i++)
		nth += v->disp[i] >= 0 && v->match[v->disp[i]];
	if (wrapped)
		view_message(v, dir > 0 ? "search hit BOTTOM, continuing at TOP (match %u of %u)" :
			     "search hit TOP, continuing at BOTTOM (match %u of %u)", k, nth);
	else
		view_message(v, "match %u of %u for '%s'", k, nth, v->query);
}
