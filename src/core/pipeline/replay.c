// SPDX-License-Identifier: MIT
/*
 * replay.c - a DB or JSON input, read back and handed to the sinks as lane
 * items: the time and pid maps do not apply (the file already carries
 * output times and display pids); kinds are inferred from the names.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/readback/readback.h"
#include "core/pipeline/pipeline_local.h"

/* Room for one row's unescaped args. */
#define ARGS_BUF 4096

struct replay {
	struct fts_pipe *p;
	char name[1024];
	char buf[ARGS_BUF];
};

static int rp_lane(void *ctx, const struct fts_lane *lane, struct fts_err *err)
{
	struct replay *r = ctx;

	return r->p->count.base.lane(&r->p->count.base, lane, err);
}

static int rp_row(void *ctx, const struct fts_rb_row *row, struct fts_err *err)
{
	struct replay *r = ctx;
	struct fts_item it;
	size_t n = row->name_len < sizeof(r->name) - 1 ? row->name_len : sizeof(r->name) - 1;
	int na = 0;

	memcpy(r->name, row->name, n);
	r->name[n] = '\0';
	memset(&it, 0, sizeof(it));
	it.lane = row->lane;
	it.kind = row->kind;
	it.ts = row->ts;
	it.dur = row->dur;
	it.name = r->name;
	if (row->args) {
		na = fts_args_parse(row->args, row->args_len, it.args, FTS_ITEM_MAX_ARGS, r->buf,
				    sizeof(r->buf));
		if (na < 0)
			na = 0; /* Insight treats args that are not an object as empty */
	}
	it.nargs = na;
	return r->p->count.base.item(&r->p->count.base, &it, err);
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
	struct fts_rb_ops ops = { rp_lane, rp_row, rp_progress, NULL };
	struct replay *r = calloc(1, sizeof(*r));
	int rc;

	if (!r)
		return fts_err_set(err, -ENOMEM, "out of memory");
	r->p = p;
	ops.ctx = r;
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
