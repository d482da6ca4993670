// SPDX-License-Identifier: MIT
/*
 * dat_merge.c - the k-way merge of a trace.dat's record streams.
 *
 * A trace.dat holds a top buffer and any number of named buffer instances,
 * each split per CPU. Every (handle, cpu) pair is a stream whose next record
 * sits in a binary min-heap keyed by timestamp; popping the heap yields one
 * globally ordered stream without reading ahead more than one record per
 * stream, so memory is O(buffers x CPUs). Sources that share a tep handle
 * share one decoder (dat_decode.c).
 */
#include "core/trace/read_dat_local.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Ties go to the earlier source and CPU so the order is reproducible. */
static int cursor_less(const struct dat_cursor *a, const struct dat_cursor *b)
{
	if (a->rec->ts != b->rec->ts)
		return a->rec->ts < b->rec->ts;
	if (a->src != b->src)
		return a->src < b->src;
	return a->cpu < b->cpu;
}

static void heap_down(struct dat_cursor *h, int n, int i)
{
	for (;;) {
		int l = 2 * i + 1, m = i;
		struct dat_cursor t;

		if (l < n && cursor_less(&h[l], &h[m]))
			m = l;
		if (l + 1 < n && cursor_less(&h[l + 1], &h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

int fts_dat_add_source(struct dat_ctx *c, struct tracecmd_input *h)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct fts_dat_dec *dec = NULL;
	void *p;

	if (!tep)
		return -EINVAL;
	for (int i = 0; i < c->nr_decs; i++) {
		if (fts_dat_dec_tep(c->decs[i]) == tep)
			dec = c->decs[i];
	}
	if (!dec) {
		p = realloc(c->decs, sizeof(*c->decs) * (size_t)(c->nr_decs + 1));
		if (!p)
			return -ENOMEM;
		c->decs = p;
		dec = fts_dat_dec_new(tep);
		if (!dec)
			return -ENOMEM;
		c->decs[c->nr_decs++] = dec;
		/* a scan for the clock samples (prints) wants no event's fields */
		for (int t = 0; c->opts && c->opts->headers_only && t < FTS_EV__COUNT; t++)
			fts_dat_dec_skip_body(dec, (enum fts_ev_type)t);
	}
	p = realloc(c->srcs, sizeof(*c->srcs) * (size_t)(c->nr_srcs + 1));
	if (!p)
		return -ENOMEM;
	c->srcs = p;
	memset(&c->srcs[c->nr_srcs], 0, sizeof(c->srcs[c->nr_srcs]));
	c->srcs[c->nr_srcs].handle = h;
	c->srcs[c->nr_srcs].dec = dec;
	c->nr_srcs++;
	return 0;
}

static int src_cpus(const struct dat_src *src)
{
	return src->z ? src->nr_z : tep_get_cpus(fts_dat_dec_tep(src->dec));
}

int fts_dat_fill_heap(struct dat_ctx *c)
{
	int total = 0;

	for (int s = 0; s < c->nr_srcs; s++)
		total += src_cpus(&c->srcs[s]);
	c->heap = calloc((size_t)total + 1, sizeof(*c->heap));
	if (!c->heap)
		return -ENOMEM;
	for (int s = 0; s < c->nr_srcs; s++) {
		struct dat_src *src = &c->srcs[s];
		int cpus = src_cpus(src);

		for (int cpu = 0; cpu < cpus; cpu++) {
			/* src_try_z read the first records already; cpu_first also rewinds */
			struct tep_record *r = src->z ? (src->z[cpu].rec.data ? &src->z[cpu].rec : NULL) :
					       tracecmd_read_cpu_first(src->handle, cpu);

			if (!r)
				continue;
			c->heap[c->heap_len++] = (struct dat_cursor){ r, s, cpu };
		}
	}
	for (int i = c->heap_len / 2 - 1; i >= 0; i--)
		heap_down(c->heap, c->heap_len, i);
	return 0;
}

int fts_dat_heap_add(struct dat_ctx *c, int from, int *added)
{
	int total = 0, k = 0;
	struct dat_cursor *h;

	*added = 0;
	for (int s = from; s < c->nr_srcs; s++)
		total += src_cpus(&c->srcs[s]);
	h = realloc(c->heap, sizeof(*h) * (size_t)(c->heap_len + total + 1));
	if (!h)
		return -ENOMEM;
	c->heap = h;
	for (int s = from; s < c->nr_srcs; s++) {
		struct dat_src *src = &c->srcs[s];

		for (int cpu = 0; cpu < src_cpus(src); cpu++) {
			struct tep_record *r = src->z ? (src->z[cpu].rec.data ? &src->z[cpu].rec : NULL) :
					       tracecmd_read_cpu_first(src->handle, cpu);

			if (r) {
				c->heap[c->heap_len++] = (struct dat_cursor){ r, s, cpu };
				k++;
			}
		}
	}
	for (int i = c->heap_len / 2 - 1; i >= 0; i--)
		heap_down(c->heap, c->heap_len, i);
	*added = k;
	return 0;
}

int fts_dat_merge_one(struct dat_ctx *c,
		      int (*fn)(struct dat_ctx *c, struct dat_src *src, const struct tep_record *r), int *ended)
{
	struct dat_cursor *top = &c->heap[0];
	struct dat_src *src = &c->srcs[top->src];
	int ret = fn(c, src, top->rec);

	*ended = -1;
	if (src->z) {
		top->rec = fts_dat_z_next(c, &src->z[top->cpu]);
		if (c->zerr && !ret)
			ret = -EIO;
	} else {
		tracecmd_free_record(top->rec);
		top->rec = tracecmd_read_data(src->handle, top->cpu);
	}
	if (!top->rec) {
		*ended = top->src;
		c->heap[0] = c->heap[--c->heap_len];
	}
	heap_down(c->heap, c->heap_len, 0);
	return ret;
}

int fts_dat_merge_run(struct dat_ctx *c,
		      int (*fn)(struct dat_ctx *c, struct dat_src *src, const struct tep_record *r))
{
	int ret = 0, ended;

	while (c->heap_len && !ret)
		ret = fts_dat_merge_one(c, fn, &ended);
	return ret;
}

void fts_dat_merge_free(struct dat_ctx *c)
{
	for (int i = 0; i < c->heap_len; i++) {
		if (!c->srcs[c->heap[i].src].z)
			tracecmd_free_record(c->heap[i].rec);
	}
	free(c->heap);
	for (int i = 0; i < c->nr_srcs; i++)
		fts_dat_src_drop_z(&c->srcs[i]);
	/* Instance handles first: they borrow state from the top handle. */
	for (int i = 0; i < c->nr_srcs; i++) {
		if (c->srcs[i].handle != c->top)
			tracecmd_close(c->srcs[i].handle);
	}
	if (c->top)
		tracecmd_close(c->top);
	free(c->srcs);
	for (int i = 0; i < c->nr_decs; i++)
		fts_dat_dec_free(c->decs[i]);
	free(c->decs);
}
