// SPDX-License-Identifier: MIT
/*
 * store_npu.c - the preview store's NPU section: each card's trace_view.json (or profiler DB)
 * (npu.h) read before the capture runs, its Host Bound analysis fed the
 * capture's lanes on the same pass (hostbound.h: the gaps panel, and the
 * match of the profiler's host threads to the trace's tasks, which is not
 * made twice), then the card's device streams and "Free" lane added as
 * FTS_GROUP_NPU lanes through the store's own sink, so zoom, buckets, find
 * and details treat them as any other lane; so do its "HCCL" threads.
 *
 * The profiler's times are Unix-epoch ns and so are the store's once the
 * capture is aligned by the same profiling directory: no offset is added.
 */
#include "export/preview/store_local.h"
#include "ftscope/hostbound.h"
#include "ftscope/npu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct st_npu_card {
	char name[256];               /* its rank directory */
	struct fts_npu_trace *npu;
	struct fts_hostbound *hb;
};

struct st_npu {
	struct st_npu_card *card;
	size_t ncards;
	struct fts_sink **sinks;      /* one per card, fed by the pipeline */
	int32_t *tid;                 /* per lane: the profiler tid (-1), by src id until indexed */
	uint32_t ntid;
};

static int oom(struct fts_err *err)
{
	return fts_err_set(err, -ENOMEM, "out of memory while reading the NPU profiling data");
}

/* X/<rank>/ASCEND_PROFILER_OUTPUT/{trace_view.json,ascend_pytorch_profiler_<n>.db} -> <rank> */
static void card_name(const char *path, char *name, size_t len)
{
	const char *end = path + strlen(path), *b;
	int slashes = 0;

	/* back over "trace_view.json" and "ASCEND_PROFILER_OUTPUT" */
	while (end > path && slashes < 2)
		slashes += *--end == '/';
	b = end;
	while (b > path && b[-1] != '/')
		b--;
	snprintf(name, len, "%.*s", (int)(end - b), b);
}

int fts_store_npu_open(const char *dir, struct st_npu **out, struct fts_err *err)
{
	struct fts_hb_opts ho = { 0 };
	struct st_npu *n;
	char **paths = NULL;
	size_t np = 0;
	int rc;

	*out = NULL;
	if (!dir)
		return 0;
	rc = fts_npu_trace_list(dir, &paths, &np, err);
	if (rc == -ENOENT) {
		/* only start_info/end_info: the profiling aligns, no NPU lanes */
		memset(err, 0, sizeof(*err));
		return 0;
	}
	if (rc)
		return rc;
	n = calloc(1, sizeof(*n));
	if (!n || !(n->card = calloc(np, sizeof(*n->card))) || !(n->sinks = calloc(np, sizeof(*n->sinks)))) {
		if (n)
			free(n->card);
		free(n);
		fts_npu_list_free(paths, np);
		return oom(err);
	}
	n->ncards = np;
	for (size_t i = 0; i < np && !rc; i++) {
		struct st_npu_card *c = &n->card[i];

		card_name(paths[i], c->name, sizeof(c->name));
		rc = fts_npu_trace_read(paths[i], &c->npu, err);
		if (!rc)
			rc = fts_hostbound_create(c->npu, &ho, &c->hb, err);
		if (!rc)
			n->sinks[i] = fts_hostbound_sink(c->hb);
	}
	fts_npu_list_free(paths, np);
	if (rc) {
		fts_store_npu_free(n);
		return rc;
	}
	*out = n;
	return 0;
}

size_t fts_store_npu_sinks(const struct st_npu *n, struct fts_sink ***sinks)
{
	*sinks = n ? n->sinks : NULL;
	return n ? n->ncards : 0;
}

static int add_lane(struct fts_sink *ss, uint32_t id, int32_t sort, const char *tid, struct fts_err *err)
{
	struct fts_lane l = { id, FTS_GROUP_NPU, sort, tid };

	return ss->lane(ss, &l, err);
}

/* @id into the sorted set @ids (@n of them), once; a set of a card's streams is small. */
static void set_add(uint32_t *ids, uint32_t *n, uint32_t id)
{
	uint32_t k = *n;

	while (k > 0 && ids[k - 1] > id)
		k--;
	if (k > 0 && ids[k - 1] == id)
		return;
	memmove(ids + k + 1, ids + k, (*n - k) * sizeof(*ids));
	ids[k] = id;
	(*n)++;
}

/* The index of @id in the sorted set @ids. */
static uint32_t set_find(const uint32_t *ids, uint32_t n, uint32_t id)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* One slice on an NPU lane: a run slice named by its kernel (or "Free"). */
static int add_slice(struct fts_sink *ss, uint32_t lane, uint64_t ts, uint64_t dur, const char *name,
		     const char *key, const char *val, const char *card, struct fts_err *err)
{
	struct fts_item it = { 0 };

	it.lane = lane;
	it.kind = FTS_ITEM_RUN;
	it.ts = ts ? ts : 1; /* items start after 0 (lane.h) */
	it.dur = dur;
	it.name = *name ? name : "?";
	it.args[it.nargs++] = (struct fts_arg){ "card", card };
	if (key)
		it.args[it.nargs++] = (struct fts_arg){ key, val };
	return ss->item(ss, &it, err);
}

/*
 * One card's lanes: a lane per device stream (by stream id), the
 * profiler's "Free" lane, a lane per thread of its "HCCL" process.
 */
static int add_card(struct fts_sink *ss, const struct st_npu_card *c, size_t ci, uint32_t *id,
		    struct fts_err *err)
{
	const struct fts_npu_trace *t = c->npu;
	size_t most = t->nbusy > t->ncomm ? t->nbusy : t->ncomm;
	uint32_t *ids = calloc(most ? most : 1, sizeof(*ids)), n = 0, first = *id;
	char name[64], sv[16];
	int rc = 0;

	if (!ids)
		return oom(err);
	for (size_t i = 0; i < t->nbusy; i++)
		set_add(ids, &n, t->busy[i].stream);
	for (uint32_t k = 0; k < n && !rc; k++) {
		snprintf(name, sizeof(name), "NPU%zu stream %u", ci, ids[k]);
		rc = add_lane(ss, first + k, (int32_t)(ci * 1024 + k), name, err);
	}
	for (size_t i = 0; i < t->nbusy && !rc; i++) {
		const struct fts_npu_busy *b = &t->busy[i];

		snprintf(sv, sizeof(sv), "%u", b->stream);
		rc = add_slice(ss, first + set_find(ids, n, b->stream), b->ts, b->dur,
			       fts_npu_name(t, b->name), "stream", sv, c->name, err);
	}
	*id = first + n;
	if (!rc && t->nfree) {
		snprintf(name, sizeof(name), "NPU%zu Free", ci);
		rc = add_lane(ss, *id, (int32_t)(ci * 1024 + 1023), name, err);
		for (size_t i = 0; i < t->nfree && !rc; i++)
			rc = add_slice(ss, *id, t->free[i].ts, t->free[i].dur, "Free", NULL, NULL, c->name, err);
		(*id)++;
	}
	/* communication, after the Free lane: what the device did besides computing */
	n = 0;
	first = *id;
	for (size_t i = 0; i < t->ncomm; i++)
		set_add(ids, &n, t->comm[i].lane);
	for (uint32_t k = 0; k < n && !rc; k++) {
		snprintf(name, sizeof(name), "NPU%zu HCCL %u", ci, ids[k]);
		rc = add_lane(ss, first + k, (int32_t)(ci * 1024 + 512 + k), name, err);
	}
	for (size_t i = 0; i < t->ncomm && !rc; i++)
		rc = add_slice(ss, first + set_find(ids, n, t->comm[i].lane), t->comm[i].ts, t->comm[i].dur,
			       fts_npu_name(t, t->comm[i].name), NULL, NULL, c->name, err);
	*id = first + n;
	free(ids);
	return rc;
}

int fts_store_npu_ingest(struct fts_store *s, struct fts_sink *ss, struct st_npu *n, struct fts_err *err)
{
	uint32_t id = s->nsrc;
	int rc = 0;

	if (!n)
		return 0;
	/* the dispatch threads, by the capture's lane ids, before the NPU lanes take more */
	n->ntid = s->nsrc;
	n->tid = malloc((n->ntid ? n->ntid : 1) * sizeof(*n->tid));
	if (!n->tid)
		return oom(err);
	for (uint32_t l = 0; l < n->ntid; l++) {
		n->tid[l] = -1;
		for (size_t c = 0; c < n->ncards && n->tid[l] < 0; c++)
			n->tid[l] = fts_hostbound_lane_tid(n->card[c].hb, l);
	}
	for (size_t c = 0; c < n->ncards && !rc; c++)
		rc = add_card(ss, &n->card[c], c, &id, err);
	return rc;
}

int fts_store_npu_indexed(struct fts_store *s, struct st_npu *n)
{
	int32_t *by_lane;

	if (!n)
		return 0;
	by_lane = malloc((s->nlanes ? s->nlanes : 1) * sizeof(*by_lane));
	if (!by_lane)
		return -ENOMEM;
	for (uint32_t i = 0; i < s->nlanes; i++) {
		uint32_t src = s->lane[i].src;

		by_lane[i] = s->lane[i].pub.group == FTS_GROUP_TASK && src < n->ntid ? n->tid[src] : -1;
	}
	free(n->tid);
	n->tid = by_lane;
	n->ntid = s->nlanes;
	return 0;
}

void fts_store_npu_free(struct st_npu *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->ncards; i++) {
		fts_hostbound_free(n->card[i].hb);
		fts_npu_trace_free(n->card[i].npu);
	}
	free(n->card);
	free(n->sinks);
	free(n->tid);
	free(n);
}

size_t fts_store_ncards(const struct fts_store *s)
{
	return s && s->npu ? s->npu->ncards : 0;
}

const struct fts_hostbound *fts_store_card(const struct fts_store *s, size_t card, const char **name)
{
	if (card >= fts_store_ncards(s))
		return NULL;
	if (name)
		*name = s->npu->card[card].name;
	return s->npu->card[card].hb;
}

int32_t fts_store_dispatch_tid(const struct fts_store *s, uint32_t lane)
{
	if (!s || !s->npu || lane >= s->npu->ntid)
		return -1;
	return s->npu->tid[lane];
}
