// SPDX-License-Identifier: MIT
/*
 * hostbound_steps.c - the idle time per training step (fts_hostbound_steps):
 * the profile's steps (ProfilerStep#<n> slices, STEP_TIME rows), each gap's
 * time and causes split between them by overlap, a step ending where the
 * next begins so that no time counts twice; what no step covers is one more
 * row, so the rows add up to the totals. A step's culprit is the task its
 * gaps' culprits name most, weighted the same way.
 */
#include "core/hostbound/hostbound_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct acc {
	uint32_t task;
	int32_t cpu;
	double ns;
};

/* One step's culprit tally; linear: a step's gaps name a handful of tasks. */
struct tally {
	struct acc *a;
	size_t n, cap;
};

static int tally_add(struct tally *t, uint32_t task, int32_t cpu, double ns)
{
	for (size_t i = 0; i < t->n; i++) {
		if (t->a[i].task == task && t->a[i].cpu == cpu) {
			t->a[i].ns += ns;
			return 0;
		}
	}
	if (hb_grow((void **)&t->a, &t->cap, t->n + 1, sizeof(*t->a)))
		return -ENOMEM;
	t->a[t->n++] = (struct acc){ task, cpu, ns };
	return 0;
}

/* @frac of gap @g into @st and its tally. */
static int add_share(struct fts_hb_step *st, struct tally *t, const struct fts_hb_gap *g, double frac)
{
	st->idle_ns += frac * (double)g->dur;
	st->gaps++;
	for (int c = 0; c < FTS_HB__COUNT; c++)
		st->cause_ns[c] += frac * g->cause_ns[c];
	for (int k = 0; k < FTS_HB_CULPRITS && g->culprits[k].task != FTS_HB_NONE; k++) {
		if (tally_add(t, g->culprits[k].task, g->culprits[k].cpu, frac * g->culprits[k].ns))
			return -ENOMEM;
	}
	return 0;
}

/* The largest cause and culprit of @st; the tally emptied. */
static void settle(struct fts_hb_step *st, struct tally *t)
{
	st->cause = FTS_HB_UNKNOWN;
	for (int c = 0, best = -1; c < FTS_HB__COUNT; c++) {
		if (st->cause_ns[c] > 0 && (best < 0 || st->cause_ns[c] > st->cause_ns[best]))
			st->cause = (enum fts_hb_cat)(best = c);
	}
	st->culprit = FTS_HB_NONE;
	st->culprit_cpu = -1;
	for (size_t i = 0; i < t->n; i++) {
		if (t->a[i].ns > st->culprit_ns) {
			st->culprit = t->a[i].task;
			st->culprit_cpu = t->a[i].cpu;
			st->culprit_ns = t->a[i].ns;
		}
	}
	t->n = 0;
}

/*
 * The profile's steps in the output's time, each ending by the next's
 * start; the longest marked when it is longer than every other.
 */
static void place(struct fts_hostbound *hb)
{
	const struct fts_npu_trace *n = hb->npu;
	size_t longest = 0;
	int unique = n->nsteps > 1;

	for (size_t i = 0; i < n->nsteps; i++) {
		struct fts_hb_step *st = &hb->steps[i];

		st->number = n->steps[i].number;
		st->ts = (uint64_t)((int64_t)n->steps[i].ts + hb->offset_ns);
		st->dur = n->steps[i].dur;
		if (i + 1 < n->nsteps && n->steps[i + 1].ts < n->steps[i].ts + st->dur)
			st->dur = n->steps[i + 1].ts - n->steps[i].ts;
		if (i && st->dur == hb->steps[longest].dur)
			unique = 0;
		else if (st->dur > hb->steps[longest].dur) {
			longest = i;
			unique = 1;
		}
	}
	hb->steps[longest].slowest = unique;
}

int hb_make_steps(struct fts_hostbound *hb)
{
	size_t ns = hb->npu->nsteps, g0 = 0;
	struct tally t = { 0 };
	double *covered;
	int rc = 0;

	free(hb->steps);
	hb->steps = NULL;
	hb->nsteps = 0;
	if (!ns)
		return 0;
	hb->steps = calloc(ns + 1, sizeof(*hb->steps));
	covered = calloc(hb->ngaps + 1, sizeof(*covered));
	if (!hb->steps || !covered) {
		free(covered);
		return -ENOMEM;
	}
	place(hb);
	/* hb->sorted is in gap order here: ascending and disjoint, as are the steps */
	for (size_t i = 0; i < ns && !rc; i++) {
		struct fts_hb_step *st = &hb->steps[i];
		uint64_t a = st->ts, b = st->ts + st->dur;

		while (g0 < hb->ngaps && hb->sorted[g0].ts + hb->sorted[g0].dur <= a)
			g0++;
		for (size_t g = g0; g < hb->ngaps && hb->sorted[g].ts < b && !rc; g++) {
			const struct fts_hb_gap *p = &hb->sorted[g];
			uint64_t s = p->ts > a ? p->ts : a, e = p->ts + p->dur < b ? p->ts + p->dur : b;

			if (e <= s || !p->dur)
				continue;
			covered[g] += (double)(e - s);
			rc = add_share(st, &t, p, (double)(e - s) / (double)p->dur);
		}
		settle(st, &t);
	}
	/* what no step covers: before the first, between steps, after the last */
	hb->nsteps = ns;
	for (size_t g = 0; g < hb->ngaps && !rc; g++) {
		const struct fts_hb_gap *p = &hb->sorted[g];

		if (p->dur && covered[g] < (double)p->dur)
			rc = add_share(&hb->steps[ns], &t, p, 1.0 - covered[g] / (double)p->dur);
	}
	if (!rc && hb->steps[ns].gaps) {
		hb->steps[ns].number = FTS_HB_NONE;
		settle(&hb->steps[ns], &t);
		hb->nsteps = ns + 1;
	}
	free(t.a);
	free(covered);
	return rc;
}

const struct fts_hb_step *fts_hostbound_steps(const struct fts_hostbound *hb, size_t *n)
{
	*n = hb->nsteps;
	return hb->steps;
}
