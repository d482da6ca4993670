// SPDX-License-Identifier: MIT
/*
 * view_rows.c - the lane rows' buckets of a frame: asked of the store for
 * every visible lane before the rows are drawn, on two cores when enough
 * rows are new, and kept while the viewport stays.
 *
 * At the whole-capture zoom of a 10 M-slice capture a row of 240 buckets
 * costs about 0.2 ms (each bucket edge is a walk to a leaf), so 70 rows
 * were 15-20 ms on one core. Split over two threads they take half the
 * wall time; kept, they cost nothing for a key that leaves the viewport
 * alone (cursor within the view, lane moves, the search prompt, details,
 * marks), which is most keys of a session.
 *
 * A row is valid for (store, t0, right edge, width) and its lane: the
 * store answers the same for the same question, filter and sort only
 * choose the lanes. Rows that go off screen are dropped.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "tui/preview/view_impl.h"

/* Fewer new rows than this are asked on this thread alone: a thread costs more. */
#define ROWS_PARALLEL_MIN 8

struct view_row {
	uint32_t lane;
	int ok;                 /* b holds the lane's row for the key below */
	const struct fts_store *store;
	uint64_t t0, t1;
	int w;
	struct fts_bucket *b;   /* w of them (bn allocated) */
	int bn;
};

/* The shared work of one prepare: rows [0, n) not ok, taken in turn by either thread. */
struct rows_job {
	struct view_row **todo;
	int n;
	atomic_int next;
	atomic_int stop;
};

/* Whether @r was asked for @v's viewport (store, t0, right edge @t1, width @w). */
static int row_for(const struct view_row *r, const struct fts_view *v, uint64_t t1, int w)
{
	return r->store == v->store && r->t0 == v->t0 && r->t1 == t1 && r->w == w;
}

static void row_ask(struct view_row *r)
{
	r->ok = fts_store_buckets(r->store, r->lane, r->t0, r->t1, (uint32_t)r->w, r->b) == 0;
}

static void *rows_worker(void *arg)
{
	struct rows_job *j = arg;
	int i;

	while (!atomic_load(&j->stop) && (i = atomic_fetch_add(&j->next, 1)) < j->n)
		row_ask(j->todo[i]);
	return NULL;
}

/* The lanes the frame shows, in the order view_draw_lanes draws them; returns how many. */
static int visible_lanes(const struct fts_view *v, uint32_t *out, int max)
{
	int n = 0, rows = 0;

	for (uint32_t i = 0; i < v->npinned_disp && rows < max; i++, rows++)
		if (v->disp[i] >= 0)
			out[n++] = (uint32_t)v->disp[i];
	for (uint32_t i = v->top; i < v->ndisp && rows < max; i++, rows++)
		if (v->disp[i] >= 0)
			out[n++] = (uint32_t)v->disp[i];
	return n;
}

/* Move @lane's row out of @old (NULL there after) into @into; 0 when it had none. */
static int take_old(struct view_row *old, int nold, uint32_t lane, struct view_row *into)
{
	for (int i = 0; i < nold; i++)
		if (old[i].b && old[i].lane == lane) {
			*into = old[i];
			old[i].b = NULL;
			return 1;
		}
	return 0;
}

/* Whether @lane is among the first @n of @lanes (a pinned lane shows twice). */
static int seen_before(const uint32_t *lanes, int n, uint32_t lane)
{
	for (int i = 0; i < n; i++)
		if (lanes[i] == lane)
			return 1;
	return 0;
}

/* @r made the row of (@lane, this viewport): kept when it already is. 0 or -ENOMEM. */
static int row_key(struct fts_view *v, struct view_row *r, uint32_t lane, uint64_t t1, int w)
{
	if (r->ok && r->lane == lane && row_for(r, v, t1, w))
		return 0;
	if (r->bn < w) {
		struct fts_bucket *nb = realloc(r->b, (size_t)w * sizeof(*nb));

		if (!nb)
			return -ENOMEM;
		r->b = nb;
		r->bn = w;
	}
	r->lane = lane;
	r->store = v->store;
	r->t0 = v->t0;
	r->t1 = t1;
	r->w = w;
	r->ok = 0;
	return 0;
}

/* Ask the store for the rows in @j: this thread and, for many, a second one. */
static void rows_run(struct fts_view *v, struct rows_job *j)
{
	pthread_t t;
	int helper = j->n >= ROWS_PARALLEL_MIN && fts__thread_start(&t, NULL, rows_worker, j) == 0;
	int i;

	while ((i = atomic_fetch_add(&j->next, 1)) < j->n) {
		if (view_stop(v)) {
			atomic_store(&j->stop, 1);
			break;
		}
		row_ask(j->todo[i]);
	}
	if (helper)
		pthread_join(t, NULL);
}

void view_rows_prepare(struct fts_view *v)
{
	int max = v->lay.lanes_h, w = v->lay.time_w, nl, ntodo = 0;
	uint64_t t1 = view_t_right(v);
	struct view_row *rows, **todo;
	struct rows_job job;
	uint32_t *lanes;

	if (max <= 0 || w <= 0)
		return;
	lanes = malloc((size_t)max * sizeof(*lanes));
	rows = calloc((size_t)max, sizeof(*rows));
	todo = malloc((size_t)max * sizeof(*todo));
	if (!lanes || !rows || !todo) {
		/* no room: the rows are asked one by one as they are drawn */
		free(lanes);
		free(rows);
		free(todo);
		view_rows_free(v);
		return;
	}
	nl = visible_lanes(v, lanes, max);
	for (int i = 0; i < nl; i++) {
		/* NPU rows draw from their own query (view_npu.c) */
		if (seen_before(lanes, i, lanes[i]) ||
		    fts_store_lane(v->store, lanes[i])->group == FTS_GROUP_NPU)
			continue;
		take_old(v->rows, v->nrows, lanes[i], &rows[i]);
		if (row_key(v, &rows[i], lanes[i], t1, w) == 0 && !rows[i].ok)
			todo[ntodo++] = &rows[i];
	}
	view_rows_free(v);
	v->rows = rows;
	v->nrows = nl;
	memset(&job, 0, sizeof(job));
	job.todo = todo;
	job.n = ntodo;
	rows_run(v, &job);
	free(todo);
	free(lanes);
}

const struct fts_bucket *view_rows_get(struct fts_view *v, uint32_t lane)
{
	uint64_t t1 = view_t_right(v);
	int w = v->lay.time_w;

	for (int i = 0; i < v->nrows; i++) {
		struct view_row *r = &v->rows[i];

		if (!r->b || r->lane != lane)
			continue;
		if (!row_for(r, v, t1, w))
			return NULL;
		if (!r->ok) /* a frame cut short left it: ask now */
			row_ask(r);
		return r->ok ? r->b : NULL;
	}
	return NULL;
}

void view_rows_free(struct fts_view *v)
{
	for (int i = 0; i < v->nrows; i++)
		free(v->rows[i].b);
	free(v->rows);
	v->rows = NULL;
	v->nrows = 0;
}
