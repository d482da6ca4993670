// SPDX-License-Identifier: MIT
/*
 * replay.c - a DB or JSON input, read back and handed to the sinks as lane
 * items: the time and pid maps do not apply (the file already carries
 * output times and display pids); kinds are inferred from the names, and a
 * DB's wakeup links are handed over after its slices. The
 * lanes and items are counted into the result's model counters by kind, so
 * a summary says what was written as for a trace.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/readback/readback.h"
#include "core/pipeline/pipeline_local.h"

/* Room for one row's unescaped args (FTS_RB_ARGS_ROOM: a DB scan splits them the same). */
#define ARGS_BUF FTS_RB_ARGS_ROOM

struct replay {
	struct fts_pipe *p;
	char name[1024];
	char buf[ARGS_BUF];
};

static int rp_lane(void *ctx, const struct fts_lane *lane, struct fts_err *err)
{
	struct replay *r = ctx;
	struct fts_model_stats *m = &r->p->res->model;

	if (lane->group == FTS_GROUP_CPU)
		m->cpu_lanes++;
	else
		m->task_lanes++;
	return r->p->count.base.lane(&r->p->count.base, lane, err);
}

/* The model's counter for an item of kind @k. */
static uint64_t *kind_counter(struct fts_model_stats *m, enum fts_item_kind k)
{
	switch (k) {
	case FTS_ITEM_RUN: return &m->cpu_slices;
	case FTS_ITEM_SWITCH: return &m->switch_markers;
	case FTS_ITEM_IRQ: return &m->irq_slices;
	case FTS_ITEM_SOFTIRQ: return &m->softirq_slices;
	case FTS_ITEM_LOST: return &m->lost_markers;
	case FTS_ITEM_RUNNING: return &m->task_running;
	case FTS_ITEM_RUNNABLE: return &m->task_runnable;
	case FTS_ITEM_SLEEPING:
	case FTS_ITEM_BLOCKED: return &m->task_sleeping;
	case FTS_ITEM_MARKER: return &m->cs_markers;
	case FTS_ITEM_NODATA: return &m->nodata_slices;
	default: return NULL;
	}
}

static int rp_row(void *ctx, const struct fts_rb_row *row, struct fts_err *err)
{
	struct replay *r = ctx;
	struct fts_item it;
	size_t n = row->name_len < sizeof(r->name) - 1 ? row->name_len : sizeof(r->name) - 1;
	uint64_t *n64;
	int na = 0;

	memcpy(r->name, row->name, n);
	r->name[n] = '\0';
	memset(&it, 0, sizeof(it));
	it.lane = row->lane;
	it.kind = row->kind;
	it.ts = row->ts;
	it.dur = row->dur;
	it.name = r->name;
	if (row->parsed) {
		na = row->nparsed; /* split on the reader's thread, into the same room as below */
		memcpy(it.args, row->parsed, (size_t)na * sizeof(it.args[0]));
	} else if (row->args) {
		na = fts_args_parse(row->args, row->args_len, it.args, FTS_ITEM_MAX_ARGS, r->buf,
				    sizeof(r->buf));
		if (na < 0)
			na = 0; /* Insight treats args that are not an object as empty */
	}
	it.nargs = na;
	n64 = kind_counter(&r->p->res->model, it.kind);
	if (n64)
		(*n64)++;
	return r->p->count.base.item(&r->p->count.base, &it, err);
}

/* A link whose ends are lanes already declared: as the model hands them over. */
static int rp_flow(void *ctx, const struct fts_flow *f, struct fts_err *err)
{
	struct replay *r = ctx;

	r->p->res->model.wakeup_links++;
	return r->p->count.base.flow(&r->p->count.base, f, err);
}

static int rp_progress(void *ctx, uint64_t done, uint64_t total, uint64_t rows)
{
	struct replay *r = ctx;

	r->p->events = rows;
	return fts_pipe_report(r->p, FTS_STAGE_READ, done, total,
			       r->p->res->input_kind == FTS_PIPE_DB ? "rows" : "bytes");
}

int fts_pipe_replay(struct fts_pipe *p, struct fts_err *err)
{
	struct fts_rb_ops ops = { rp_lane, rp_row, rp_progress, NULL, NULL };
	struct replay *r = calloc(1, sizeof(*r));
	int rc;

	if (!r)
		return fts_err_set(err, -ENOMEM, "out of memory");
	r->p = p;
	ops.ctx = r;
	if (p->count.base.flow)
		ops.flow = rp_flow; /* only when a sink takes links: reading them costs */
	if (fts_pipe_report(p, FTS_STAGE_READ, 0, 0, "rows")) {
		free(r);
		return fts_err_set(err, -ECANCELED, "cancelled");
	}
	rc = p->res->input_kind == FTS_PIPE_DB ? fts_db_readback(p->opts->input, &ops, &p->res->rows, err) :
		fts_json_readback(p->opts->input, &ops, &p->res->rows, err);
	free(r);
	if (!rc && p->count.items == 0)
		rc = fts_err_set(err, -ENODATA, "%s: no slices found in it", p->opts->input);
	return rc;
}
