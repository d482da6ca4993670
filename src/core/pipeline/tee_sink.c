// SPDX-License-Identifier: MIT
/*
 * tee_sink.c - one sink that forwards every lane and item to several others,
 * so one pass of the model feeds SQLite, JSON, the preview store and a
 * caller's sink at once (ncdu's dir_output, one producer, many outputs).
 */
#include "ftscope/pipeline.h"

#include <errno.h>
#include <stdlib.h>

struct tee_sink {
	struct fts_sink base;
	int n;
	struct fts_sink *outs[];
};

static int tee_lane(struct fts_sink *base, const struct fts_lane *lane, struct fts_err *err)
{
	struct tee_sink *t = (struct tee_sink *)base;

	for (int i = 0; i < t->n; i++) {
		int rc = t->outs[i]->lane(t->outs[i], lane, err);

		if (rc)
			return rc;
	}
	return 0;
}

static int tee_item(struct fts_sink *base, const struct fts_item *it, struct fts_err *err)
{
	struct tee_sink *t = (struct tee_sink *)base;

	for (int i = 0; i < t->n; i++) {
		int rc = t->outs[i]->item(t->outs[i], it, err);

		if (rc)
			return rc;
	}
	return 0;
}

/* A wakeup link, to each output that takes links. */
static int tee_flow(struct fts_sink *base, const struct fts_flow *f, struct fts_err *err)
{
	struct tee_sink *t = (struct tee_sink *)base;

	for (int i = 0; i < t->n; i++) {
		int rc = t->outs[i]->flow ? t->outs[i]->flow(t->outs[i], f, err) : 0;

		if (rc)
			return rc;
	}
	return 0;
}

/*
 * ok: finish each in turn; the first failure turns the rest into discards, so
 * a failed run leaves no output from any of them (earlier ones already
 * published theirs: order the sinks with the likeliest to fail first).
 */
static int tee_finish(struct fts_sink *base, int ok, struct fts_err *err)
{
	struct tee_sink *t = (struct tee_sink *)base;
	int rc = 0;

	for (int i = 0; i < t->n; i++) {
		int r = t->outs[i]->finish(t->outs[i], ok && !rc, rc ? NULL : err);

		if (r && !rc)
			rc = r;
	}
	return rc;
}

/* The outputs are borrowed: their owner destroys them. */
static void tee_destroy(struct fts_sink *base)
{
	free(base);
}

int fts_sink_tee(struct fts_sink *const *sinks, int n, struct fts_sink **out,
		 struct fts_err *err)
{
	struct tee_sink *t;

	if (n < 1 || !sinks)
		return fts_err_set(err, -EINVAL, "internal error: a tee needs at least one sink");
	t = calloc(1, sizeof(*t) + (size_t)n * sizeof(t->outs[0]));
	if (!t)
		return fts_err_set(err, -ENOMEM, "out of memory");
	t->base.lane = tee_lane;
	t->base.item = tee_item;
	t->base.finish = tee_finish;
	t->base.destroy = tee_destroy;
	t->n = n;
	for (int i = 0; i < n; i++) {
		t->outs[i] = sinks[i];
		if (sinks[i]->flow)
			t->base.flow = tee_flow; /* only when someone takes links */
	}
	*out = &t->base;
	return 0;
}
