// SPDX-License-Identifier: MIT
/*
 * preview_store.c - fts_store_open and the store's accessors. Every input goes
 * through fts_pipeline_run (a trace through the readers, maps and model as
 * `convert` runs them; a DB or JSON read back), into the store's sink, then
 * the store is indexed (lane_index.c) while progress may still cancel.
 */
#include "export/preview/store_local.h"
#include "export/preview/store_cache.h"
#include "core/internal.h"
#include "core/pipeline/result_impl.h"
#include "ftscope/npu.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct open_ctx {
	const struct fts_store_open_opts *o;
	struct fts_pipeline_result *res;
};

static int index_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct open_ctx *c = ctx;
	struct fts_progress p;

	if (!c->o->progress)
		return 0;
	memset(&p, 0, sizeof(p));
	p.stage = FTS_STAGE_INDEX;
	p.done = done;
	p.total = total;
	p.unit = "lanes";
	p.events = c->res->input_kind == FTS_PIPE_TRACE ? c->res->read.events : c->res->rows;
	p.items = c->res->items;
	p.elapsed_s = c->res->seconds;
	return c->o->progress(c->o->progress_ctx, &p);
}

static enum fts_store_source source_of(const struct fts_pipeline_result *r)
{
	if (r->input_kind == FTS_PIPE_DB)
		return FTS_SRC_DB;
	if (r->input_kind == FTS_PIPE_JSON)
		return FTS_SRC_JSON;
	return r->input_format == FTS_FMT_DAT ? FTS_SRC_TRACE_DAT : FTS_SRC_TRACE_TEXT;
}

/* One pipeline pass over the input into the store's sink @ss, the caller's extra sink and the cards' Host Bound sinks. */
static int read_input(struct fts_store *s, const struct fts_store_open_opts *o, struct fts_sink *ss,
		      struct fts_pipeline_result *res, struct fts_err *err)
{
	struct fts_pipeline_opts po;
	struct fts_sink *sinks[2 + FTS_NPU_MAX_CARDS], **hb = NULL;
	size_t nhb;

	memset(&po, 0, sizeof(po));
	po.input = o->path;
	po.profiling_data = o->profiling_data;
	po.pid_mapping = o->pid_mapping;
	po.cs_rows = 1; /* what convert writes by default */
	po.progress = o->progress;
	po.progress_ctx = o->progress_ctx;
	po.probe_helper = o->probe_helper;
	sinks[0] = ss;
	sinks[1] = o->extra;
	/* each card's Host Bound analysis rides the same pass (store_npu.c) */
	nhb = fts_store_npu_sinks(s->npu, &hb);
	for (size_t i = 0; i < nhb; i++)
		sinks[(o->extra ? 2 : 1) + i] = hb[i];
	return fts_pipeline_run(&po, sinks, (o->extra ? 2 : 1) + (int)nhb, res, err);
}

/* What the store says of its input: the source, the events read, the profiling window in output ns. */
static void note_source(struct fts_store *s, const struct fts_pipeline_result *res)
{
	s->info.source = source_of(res);
	s->info.events = res->input_kind == FTS_PIPE_TRACE ? res->read.events : res->rows;
	if (res->input_kind == FTS_PIPE_TRACE && res->time.has_window) {
		s->info.has_window = 1;
		s->info.win_begin = (uint64_t)((int64_t)res->time.lo + res->time.offset);
		s->info.win_end = (uint64_t)((int64_t)res->time.hi + res->time.offset);
	}
}

int fts_store_open(const struct fts_store_open_opts *o, struct fts_store **out,
		   struct fts_err *err)
{
	struct fts_pipeline_result res;
	struct fts_sink *ss = NULL;
	struct open_ctx oc = { o, &res };
	struct fts_store *s;
	double t0 = fts__clock_mono_s();
	struct st_cache *cache = fts_store_cache_new(o);
	int rc;

	*out = NULL;
	/* the same input unchanged since a full load: its store, checked, from the cache */
	if (cache) {
		if (!fts_store_cache_load(cache, out))
			return 0;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		fts_store_cache_free(cache);
		return fts_err_set(err, -ENOMEM, "out of memory");
	}
	s->cache = cache;
	fts_strtab_init(&s->strs);
	s->last_tid = FTS_STR_NONE;
	s->sketch = o->sketch;
	if (s->sketch)
		fts_sketch_begin(s->sketch);
	rc = fts_store_sink_new(s, &ss, err);
	if (!rc)
		rc = fts_store_npu_open(o->profiling_data, &s->npu, err);
	if (rc) {
		if (ss)
			ss->destroy(ss);
		goto fail;
	}
	rc = read_input(s, o, ss, &res, err);
	/*
	 * A DB or JSON is taken as aligned already (the export screen opens what
	 * it wrote with the profiling directory it aligned it by): its times and
	 * the profiler's are both epoch ns.
	 */
	if (!rc)
		rc = fts_store_npu_ingest(s, ss, s->npu, err);
	ss->destroy(ss);
	if (s->sketch)
		fts_sketch_publish(s->sketch); /* all of it, while the store is indexed */
	s->sketch = NULL;
	if (rc)
		goto fail;
	res.seconds = fts__clock_mono_s() - t0;
	rc = fts_store_index(s, index_progress, &oc, err);
	if (!rc && fts_store_npu_indexed(s, s->npu))
		rc = fts_err_set(err, -ENOMEM, "out of memory");
	if (rc)
		goto fail;
	note_source(s, &res);
	s->info.load_seconds = fts__clock_mono_s() - t0;
	if (s->cache)
		fts_store_cache_save(s->cache, s); /* from a second thread: the first frame does not wait */
	*out = s;
	return 0;
fail:
	fts_store_free(s);
	return rc;
}

void fts_store_free(struct fts_store *s)
{
	if (!s)
		return;
	fts_store_cache_free(s->cache); /* first: its writer reads the store */
	for (uint32_t i = 0; i < s->nlanes; i++) {
		struct st_lane *l = &s->lane[i];

		if (!fts_store_in_slab(l))
			free(l->col); /* slab blocks go with their chunks */
		if (l->x) {
			free(l->x->big);
			free(l->x->bigi);
			free(l->x->tree);
			free(l->x);
		}
	}
	free(s->lane);
	free(s->by_src);
	fts_slab_free_all(&s->slab);
	fts_strtab_free(&s->strs);
	fts_loss_free(&s->loss);
	fts_store_npu_free(s->npu);
	free(s);
}

const struct fts_store_info *fts_store_info(const struct fts_store *s)
{
	return &s->info;
}

const char *fts_store_cache_note(const struct fts_store *s)
{
	return fts_store_cache_text(s->cache);
}

const struct fts_loss *fts_store_loss(const struct fts_store *s)
{
	return &s->loss;
}

uint32_t fts_store_nlanes(const struct fts_store *s)
{
	return s->nlanes;
}

const struct fts_store_lane *fts_store_lane(const struct fts_store *s, uint32_t lane)
{
	return lane < s->nlanes ? &s->lane[lane].pub : NULL;
}

const char *fts_store_str(const struct fts_store *s, uint32_t id)
{
	return id < s->strs.n ? fts_strtab_get(&s->strs, id) : "";
}

static int32_t item_cpu(const struct fts_store *s, const struct st_lane *l, uint64_t i)
{
	const char *b, *e;

	if (l->pub.group == FTS_GROUP_CPU)
		return l->pub.cpu;
	/* task lanes: the "cpu" arg, read from the blob without decoding the rest */
	b = fts_strtab_get(&s->strs, st_args(l)[i]);
	e = b + fts_strtab_len(&s->strs, st_args(l)[i]);
	while (b < e) {
		const char *v = b + strlen(b) + 1;

		if (v >= e)
			break;
		if (!strcmp(b, "cpu") && *v >= '0' && *v <= '9')
			return (int32_t)strtol(v, NULL, 10);
		b = v + strlen(v) + 1;
	}
	return -1;
}

int fts_store_item(const struct fts_store *s, uint32_t lane, uint64_t idx,
		   struct fts_store_item *it)
{
	const struct st_lane *l;

	if (!s || lane >= s->nlanes || idx >= s->lane[lane].pub.nitems)
		return -ERANGE;
	l = &s->lane[lane];
	it->ts = st_ts(l)[idx];
	it->dur = fts_store_dur(l, idx);
	it->kind = (enum fts_item_kind)st_kind(l)[idx];
	it->name = st_name(l)[idx];
	it->cpu = item_cpu(s, l, idx);
	return 0;
}

/* The context item @i of @l was encoded against (store_args.c). */
void fts_store_actx(const struct fts_store *s, const struct st_lane *l, uint64_t i,
		    struct st_actx *cx)
{
	memset(cx, 0, sizeof(*cx));
	cx->dur = fts_store_dur(l, i);
	cx->ref_c = cx->ref_p = -1;
	cx->aux = st_has_aux(l) ? st_aux(l)[i] : FTS_AUX_NONE;
	cx->aux2 = st_has_aux2(l) ? st_aux2(l)[i] : FTS_AUX_NONE;
	cx->aux2_base = l->x ? l->x->aux2_base : 0;
	cx->strs = &s->strs;
	if (l->pub.group == FTS_GROUP_TASK)
		fts_args_ctx_lane(cx, l->pub.pid);
	else
		cx->pid = fts_args_ctx_pid(fts_strtab_get(&s->strs, st_name(l)[i]));
}

int fts_store_args(const struct fts_store *s, uint32_t lane, uint64_t idx,
		   struct fts_arg *args, int max, char *buf, size_t bufsz)
{
	const struct st_lane *l;
	struct st_actx cx;

	if (!s || lane >= s->nlanes || idx >= s->lane[lane].pub.nitems)
		return -ERANGE;
	l = &s->lane[lane];
	fts_store_actx(s, l, idx, &cx);
	return fts_args_decode(fts_strtab_get(&s->strs, st_args(l)[idx]),
			       fts_strtab_len(&s->strs, st_args(l)[idx]), &cx, args, max, buf, bufsz);
}

size_t fts_store_bytes(const struct fts_store *s)
{
	/* the last chunk's tail was never written: mapped, not resident */
	size_t b = sizeof(*s) + fts_strtab_bytes(&s->strs) + (s->slab.bytes - s->slab.left) +
		   (size_t)s->slab.capchunk * sizeof(*s->slab.chunk) +
		   (size_t)s->caplanes * sizeof(*s->lane) +
		   (size_t)s->capsrc * sizeof(*s->by_src);

	for (uint32_t i = 0; i < s->nlanes; i++) {
		const struct st_lane *l = &s->lane[i];
		const struct st_ext *x = l->x;

		if (l->col && !fts_store_in_slab(l))
			b += fts_store_block_bytes(l);
		if (x)
			b += sizeof(*x) + x->capbig * sizeof(*x->big) +
			     (x->tree ? (size_t)(2 * x->nleaf_pow) * sizeof(*x->tree) : 0);
	}
	return b;
}
