/* SPDX-License-Identifier: MIT */
/*
 * fuzz_rb.h - the read-back fuzz targets' consumer: lanes must come dense and
 * once, rows only on declared lanes, with their strings readable to their
 * stated length; args go through the args splitter as the replay does.
 */
#ifndef FTS_FUZZ_RB_H
#define FTS_FUZZ_RB_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "core/readback/readback.h"
#include "fuzz_util.h"

struct rb_check {
	uint32_t nlanes;
	uint64_t sum;
	unsigned reports, cancel_at;  /* cancel at that report (0: never) */
	char buf[4096];
};

static int rb_lane(void *ctx, const struct fts_lane *l, struct fts_err *err)
{
	struct rb_check *c = ctx;

	(void)err;
	if (l->id != c->nlanes || !l->tid)
		abort();
	c->sum += strlen(l->tid);
	c->nlanes++;
	return 0;
}

static int rb_row(void *ctx, const struct fts_rb_row *r, struct fts_err *err)
{
	struct rb_check *c = ctx;
	struct fts_arg args[FTS_ITEM_MAX_ARGS];
	int n;

	(void)err;
	if (r->lane >= c->nlanes || !r->name || r->ts == 0)
		abort();
	for (size_t i = 0; i < r->name_len; i++)
		c->sum += (unsigned char)r->name[i];
	if (r->args) {
		n = fts_args_parse(r->args, r->args_len, args, FTS_ITEM_MAX_ARGS, c->buf, sizeof(c->buf));
		for (int i = 0; i < n; i++)
			c->sum += strlen(args[i].key) + strlen(args[i].val);
	}
	return 0;
}

/* Cancels at a report picked by the input's size, so the cancel paths are fuzzed too. */
static int rb_progress(void *ctx, uint64_t done, uint64_t total, uint64_t rows)
{
	struct rb_check *c = ctx;

	(void)done, (void)total, (void)rows;
	return ++c->reports == c->cancel_at;
}

/* A link's ends must be lanes declared before it, its times Insight's. */
static int rb_flow(void *ctx, const struct fts_flow *f, struct fts_err *err)
{
	struct rb_check *c = ctx;

	(void)err;
	if (f->from_lane >= c->nlanes || f->to_lane >= c->nlanes || !f->name || !f->id ||
	    !f->from_ts || !f->to_ts)
		abort();
	c->sum += strlen(f->name);
	return 0;
}

typedef int (*rb_reader)(const char *path, const struct fts_rb_ops *ops, uint64_t *rows,
			 struct fts_err *err);

/* One input through @read from a file (the readers take paths); a failure must say why. */
static int rb_fuzz_one(const uint8_t *data, size_t size, rb_reader read)
{
	struct rb_check c = { .cancel_at = size % 5 };
	struct fts_rb_ops ops = { rb_lane, rb_row, rb_progress, &c, rb_flow };
	struct fts_err err = { 0 };
	uint64_t rows;
	char path[64];

	if (fts_fuzz_write(data, size, path, sizeof(path)))
		return 0;
	if (read(path, &ops, &rows, &err) && !err.msg[0])
		abort();
	unlink(path);
	return 0;
}

#endif
