// SPDX-License-Identifier: MIT
/*
 * hostbound_sink.c - the sink side of the Host Bound analysis: lane items
 * -> what the gaps need (hostbound_impl.h). Gaps are disjoint and sorted,
 * so an item finds those it overlaps by binary search: items may come in
 * any order and each costs O(log gaps + overlaps). Kept, clipped to each
 * gap: every state slice of the profiler's threads (any of them may turn
 * out to be the one the wake-up chain leads to), the irq slices that hit
 * them, and every CPU's run slices (the occupancy culprits). Nothing is
 * kept outside the gaps.
 */
#include "core/hostbound/hostbound_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int nomem(struct fts_err *err)
{
	return fts_err_set(err, -ENOMEM, "out of memory");
}

static const char *arg_of(const struct fts_item *it, const char *key)
{
	for (int i = 0; i < it->nargs; i++) {
		if (it->args[i].key && !strcmp(it->args[i].key, key))
			return it->args[i].val;
	}
	return NULL;
}

/* The pid of "comm:pid" (the comm may hold ':' itself), -1 when there is none. */
int32_t hb_pid_of(const char *tid)
{
	const char *c = tid ? strrchr(tid, ':') : NULL;
	char *end;
	long v;

	if (!c || !c[1])
		return -1;
	v = strtol(c + 1, &end, 10);
	return *end || v < 0 || v > INT32_MAX ? -1 : (int32_t)v;
}

static int32_t int_arg(const struct fts_item *it, const char *key)
{
	const char *v = arg_of(it, key);
	char *end;
	long long x;

	if (!v || !*v)
		return -1;
	x = strtoll(v, &end, 10);
	return *end || x < 0 || x > INT32_MAX ? -1 : (int32_t)x;
}

int hb_sink_lane(struct fts_sink *s, const struct fts_lane *l, struct fts_err *err)
{
	struct fts_hostbound *hb = (struct fts_hostbound *)s;
	size_t cap = hb->nlanes, cap2 = hb->nlanes;
	uint32_t v = HB_LANE_NONE, name = FTS_HB_NONE;

	if (l->group == FTS_GROUP_CPU) {
		v = HB_LANE_CPU;
		name = (uint32_t)l->sort_index;   /* a CPU lane's "name" is its CPU */
	} else {
		struct hb_thread *t = hb_thread_by_tid(hb, hb_pid_of(l->tid));

		if (t) {
			name = hb_intern(hb, l->tid);
			if (name == UINT32_MAX)
				return nomem(err);
			v = (uint32_t)(t - hb->threads) + 1;
		}
	}
	if (l->id >= hb->nlanes) {
		if (hb_grow((void **)&hb->lanes, &cap, (size_t)l->id + 1, sizeof(*hb->lanes)) ||
		    hb_grow((void **)&hb->lane_names, &cap2, (size_t)l->id + 1, sizeof(*hb->lane_names)))
			return nomem(err);
		memset(hb->lanes + hb->nlanes, 0, ((size_t)l->id + 1 - hb->nlanes) * sizeof(*hb->lanes));
		hb->nlanes = (size_t)l->id + 1;
	}
	hb->lanes[l->id] = v;
	hb->lane_names[l->id] = name;
	return 0;
}

/* The first gap that ends after @a. */
static size_t first_gap(const struct fts_hostbound *hb, uint64_t a)
{
	size_t lo = 0, hi = hb->ngaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct fts_hb_gap *p = &hb->gaps[mid].pub;

		if (p->ts + p->dur <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The next gap from *@g on that [a, b) overlaps, the overlap into [*s, *e);
 * 0 when none is left. Walk them with *@g = first_gap(hb, a), then *@g + 1.
 */
static int next_overlap(const struct fts_hostbound *hb, size_t *g, uint64_t a, uint64_t b, uint64_t *s,
			uint64_t *e)
{
	for (; *g < hb->ngaps && hb->gaps[*g].pub.ts < b; (*g)++) {
		const struct fts_hb_gap *p = &hb->gaps[*g].pub;

		*s = p->ts > a ? p->ts : a;
		*e = p->ts + p->dur < b ? p->ts + p->dur : b;
		if (*e > *s)
			return 1;
	}
	return 0;
}

/* @proto clipped to every gap it overlaps, appended to the state slices. */
static int keep_seg(struct fts_hostbound *hb, const struct hb_seg *proto)
{
	uint64_t s, e;

	for (size_t g = first_gap(hb, proto->s); next_overlap(hb, &g, proto->s, proto->e, &s, &e); g++) {
		struct hb_seg *k;

		if (hb_grow((void **)&hb->segs, &hb->csegs, hb->nsegs + 1, sizeof(*hb->segs)))
			return -ENOMEM;
		k = &hb->segs[hb->nsegs++];
		*k = *proto;
		k->s = s;
		k->e = e;
		k->gap = (uint32_t)g;
	}
	return 0;
}

/*
 * A run slice's task, interned: "comm:pid"; with a pid mapping, one the
 * mapping did not know (its pid is still the host's) as "host:comm:pid".
 */
static uint32_t run_name(struct fts_hostbound *hb, const struct fts_item *it)
{
	const char *name = it->name && *it->name ? it->name : "?";
	int32_t pid = hb_pid_of(name);
	char buf[128];

	if (hb->pid_mapping && pid > 0 && pid == int_arg(it, "host_pid") &&
	    (size_t)snprintf(buf, sizeof(buf), "host:%s", name) < sizeof(buf))
		return hb_intern(hb, buf);
	return hb_intern(hb, name);
}

/* A CPU's run slice clipped to every gap it overlaps. */
static int keep_run(struct fts_hostbound *hb, const struct fts_item *it, int32_t cpu)
{
	uint64_t a = it->ts, b = it->ts + it->dur, s, e;
	uint32_t task = FTS_HB_NONE;
	int32_t prio = -1;
	int softirqd = 0;

	for (size_t g = first_gap(hb, a); next_overlap(hb, &g, a, b, &s, &e); g++) {
		if (task == FTS_HB_NONE) {
			task = run_name(hb, it);
			if (task == UINT32_MAX)
				return -ENOMEM;
			prio = int_arg(it, "prio");
			softirqd = hb_softirqd(fts_hostbound_str(hb, task));
		}
		if (hb_grow((void **)&hb->runs, &hb->cruns, hb->nruns + 1, sizeof(*hb->runs)))
			return -ENOMEM;
		hb->runs[hb->nruns++] = (struct hb_run){ s, e, (uint32_t)g, task, cpu, hb_pid_of(it->name), prio,
							 softirqd };
	}
	return 0;
}

/* A softirq ksoftirqd ran: its time inside the gaps, tallied by (thread, vector). */
static int keep_ksoft(struct fts_hostbound *hb, const struct fts_item *it, const char *task, const char *vec,
		      int32_t cpu)
{
	uint64_t a = it->ts, b = it->ts + it->dur, s, e;
	double ns = 0;
	uint32_t t, v;
	size_t i;

	for (size_t g = first_gap(hb, a); next_overlap(hb, &g, a, b, &s, &e); g++)
		ns += (double)(e - s);
	if (ns <= 0)
		return 0;
	if ((t = hb_intern(hb, task)) == UINT32_MAX || (v = hb_intern(hb, vec && *vec ? vec : "?")) == UINT32_MAX)
		return -ENOMEM;
	/* a ksoftirqd per CPU, ten vectors: a linear tally */
	for (i = 0; i < hb->nksoft && (hb->ksoft[i].task != t || hb->ksoft[i].vec != v); i++)
		;
	if (i == hb->nksoft) {
		if (hb_grow((void **)&hb->ksoft, &hb->cksoft, hb->nksoft + 1, sizeof(*hb->ksoft)))
			return -ENOMEM;
		hb->ksoft[hb->nksoft++] = (struct hb_ksoft){ t, v, cpu, 0 };
	}
	hb->ksoft[i].ns += ns;
	return 0;
}

/*
 * An irq or softirq over another task (or the idle one): a CPU a thread
 * waited for was taken by it, not by that task. Clipped to every gap, its
 * label ("softirq NET_RX") as its task.
 */
static int keep_irq_over(struct fts_hostbound *hb, const struct fts_item *it, const char *name, int32_t cpu)
{
	uint64_t a = it->ts, b = it->ts + it->dur, s, e;
	uint32_t label = FTS_HB_NONE;

	for (size_t g = first_gap(hb, a); next_overlap(hb, &g, a, b, &s, &e); g++) {
		if (label == FTS_HB_NONE &&
		    (label = hb_irq_label(hb, it->kind == FTS_ITEM_IRQ ? int_arg(it, "irq") : -1, name)) == UINT32_MAX)
			return -ENOMEM;
		if (hb_grow((void **)&hb->irqs, &hb->cirqs, hb->nirqs + 1, sizeof(*hb->irqs)))
			return -ENOMEM;
		hb->irqs[hb->nirqs++] = (struct hb_run){ s, e, (uint32_t)g, label, cpu, -1, -1, 0 };
	}
	return 0;
}

/*
 * A CPU lane's item: a run slice (occupancy), an irq that hit one of the
 * threads, or a softirq a ksoftirqd thread ran (what it held a CPU for).
 */
static int cpu_item(struct fts_hostbound *hb, const struct fts_item *it, int32_t cpu)
{
	struct hb_thread *t;
	struct hb_seg seg;
	const char *name, *task;

	if (it->kind == FTS_ITEM_RUN)
		return keep_run(hb, it, cpu);
	if (it->kind != FTS_ITEM_IRQ && it->kind != FTS_ITEM_SOFTIRQ)
		return 0;
	task = arg_of(it, "task");
	name = arg_of(it, it->kind == FTS_ITEM_IRQ ? "name" : "action");
	if (task && hb_softirqd(task))   /* the ksoftirqd's whole slice is irq work already */
		return it->kind == FTS_ITEM_SOFTIRQ ? keep_ksoft(hb, it, task, name, cpu) : 0;
	t = hb_thread_by_tid(hb, hb_pid_of(task));
	if (!t)
		return keep_irq_over(hb, it, name, cpu);
	seg = (struct hb_seg){ it->ts, it->ts + it->dur, 0, (uint32_t)(t - hb->threads), FTS_HB_NONE,
			       cpu, -1, it->kind == FTS_ITEM_IRQ ? int_arg(it, "irq") : -1, FTS_HB_NONE, FTS_HB_IRQ };
	if (name && *name && (seg.irqname = hb_intern(hb, name)) == UINT32_MAX)
		return -ENOMEM;
	return keep_seg(hb, &seg);
}

/* A task lane's state slice of one of the profiler's threads. */
static int task_item(struct fts_hostbound *hb, const struct fts_item *it, uint32_t v)
{
	struct hb_seg seg = { it->ts, it->ts + it->dur, 0, v - 1, hb->lane_names[it->lane], -1, -1, -1,
			      FTS_HB_NONE, 0 };
	const char *why;

	switch (it->kind) {
	case FTS_ITEM_RUNNING: seg.cat = FTS_HB_RUNNING; break;
	case FTS_ITEM_RUNNABLE:
		why = arg_of(it, "reason");
		seg.cat = why && !strcmp(why, "preempted") ? FTS_HB_PREEMPTED : FTS_HB_WAITING;
		seg.cpu = int_arg(it, "cpu");
		if (seg.cat == FTS_HB_WAITING)
			seg.waker = hb_pid_of(arg_of(it, "waker"));
		break;
	case FTS_ITEM_SLEEPING: seg.cat = FTS_HB_SLEEPING; break;
	case FTS_ITEM_BLOCKED: seg.cat = FTS_HB_BLOCKED; break;
	case FTS_ITEM_NODATA: seg.cat = FTS_HB_UNKNOWN; break;
	default: return 0;
	}
	return keep_seg(hb, &seg);
}

int hb_sink_item(struct fts_sink *s, const struct fts_item *it, struct fts_err *err)
{
	struct fts_hostbound *hb = (struct fts_hostbound *)s;
	uint32_t v;
	int rc;

	if (!it->dur)
		return 0;
	/* the capture's span: idle time outside it is unknown for want of a trace */
	if (it->ts < hb->first_ts)
		hb->first_ts = it->ts;
	if (it->ts + it->dur > hb->last_end)
		hb->last_end = it->ts + it->dur;
	if (it->lane >= hb->nlanes)
		return 0;
	v = hb->lanes[it->lane];
	if (v == HB_LANE_NONE)
		return 0;
	if (v == HB_LANE_CPU) {
		rc = cpu_item(hb, it, (int32_t)hb->lane_names[it->lane]);
	} else {
		struct hb_thread *t = &hb->threads[v - 1];

		/*
		 * A task's lane is per (comm, pid): a shell that execs python, a
		 * thread that renames itself, start a lane. The thread is named as
		 * it last was (what ps shows now, what the advice acts on); each
		 * gap names it as it was then (hb_seg.lname).
		 */
		if (t->traced_name && it->ts + it->dur >= t->named_at) {
			t->name = hb->lane_names[it->lane];
			t->named_at = it->ts + it->dur;
		}
		rc = task_item(hb, it, v);
	}
	return rc ? nomem(err) : 0;
}
