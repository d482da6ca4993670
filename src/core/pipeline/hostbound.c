// SPDX-License-Identifier: MIT
/*
 * hostbound.c - the gaps of one card and the sink that blames them
 * (hostbound.h). Gaps are disjoint and sorted by time, so each dispatch
 * thread keeps the ascending list of the gaps it is blamed for, and an item
 * of its lane finds the gaps it overlaps by binary search: items may come in
 * any order and each costs O(log gaps + overlaps). Preempters are kept per
 * gap in one pool of small linked lists (a gap sees one or two), so the
 * totals by (task, CPU) are exact.
 */
#include "ftscope/hostbound.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/buf.h"
#include "core/util/inthash.h"
#include "core/util/strtab.h"

#define DEFAULT_THRESHOLD_NS 50000
/* a launch flow ends on its task's start, at the gap's end; allow for rounding to the us */
#define FLOW_SLACK_NS 1000
#define LANE_NONE 0
#define LANE_CPU UINT32_MAX

struct gap {
	struct fts_hb_gap pub;
	uint32_t head;        /* first preempter entry, FTS_HB_NONE */
	uint32_t whead;       /* first waiting entry (task FTS_HB_NONE, by CPU), FTS_HB_NONE */
	uint32_t nthreads;    /* threads sharing it (weight 1/n each) */
};

struct pentry {
	uint32_t next, task;
	int32_t cpu;
	double ns;
};

struct thread {
	int32_t tid;
	uint32_t name;        /* first "comm:pid" lane seen, else the profiler's name */
	uint32_t *gaps;       /* ascending */
	size_t ngaps, cgaps;
};

struct fts_hostbound {
	struct fts_sink sink;          /* first: the sink callbacks get the hostbound */
	const struct fts_npu_trace *npu;
	int from_free;
	struct gap *gaps;
	size_t ngaps;
	struct fts_hb_gap *sorted;     /* public copy, worst first */
	struct thread *threads;
	size_t nthreads;
	struct fts_inthash by_tid;     /* tid -> thread index */
	uint32_t *lanes;               /* lane id -> thread index + 1, LANE_CPU, LANE_NONE */
	size_t nlanes;
	struct pentry *pool;
	size_t npool, cpool;
	struct fts_hb_blame *blame;
	size_t nblame;
	struct fts_strtab strs;
};

static int nomem(struct fts_err *err)
{
	return fts_err_set(err, -ENOMEM, "out of memory");
}

/* Arrays start at 16 elements. */
static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	return fts_grow(p, cap, need, size, 16);
}

static uint32_t intern(struct fts_hostbound *hb, const char *s)
{
	return fts_strtab_intern(&hb->strs, s, strlen(s));
}

/* The thread of @tid, added when new; NULL when out of memory. */
static struct thread *thread_of(struct fts_hostbound *hb, int32_t tid, const char *pname)
{
	int added = 0;
	uint64_t *slot = fts_inthash_put(&hb->by_tid, (uint64_t)(uint32_t)tid, &added);
	struct thread *t;
	size_t cap = hb->nthreads;
	char buf[80];

	if (!slot)
		return NULL;
	if (!added)
		return &hb->threads[*slot];
	/* threads are few: grow by one, keeping the array exact */
	if (grow((void **)&hb->threads, &cap, hb->nthreads + 1, sizeof(*hb->threads))) {
		fts_inthash_del(&hb->by_tid, (uint64_t)(uint32_t)tid);
		return NULL;
	}
	*slot = hb->nthreads;
	t = &hb->threads[hb->nthreads++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	if (!pname || !*pname) {
		snprintf(buf, sizeof(buf), "tid %d", tid);
		pname = buf;
	}
	t->name = intern(hb, pname);
	return t->name == UINT32_MAX ? NULL : t;
}

static int blame_gap(struct fts_hostbound *hb, struct thread *t, uint32_t g)
{
	if (grow((void **)&t->gaps, &t->cgaps, t->ngaps + 1, sizeof(*t->gaps)))
		return -ENOMEM;
	t->gaps[t->ngaps++] = g;
	hb->gaps[g].nthreads++;
	return 0;
}

/* First index in [0, n) whose key is >= @v (keys ascending). */
#define LOWER_BOUND(arr, n, field, v, out)                                  \
	do {                                                                \
		size_t lo_ = 0, hi_ = (n);                                  \
		while (lo_ < hi_) {                                         \
			size_t mid_ = lo_ + (hi_ - lo_) / 2;                \
			if ((arr)[mid_].field < (v))                        \
				lo_ = mid_ + 1;                             \
			else                                                \
				hi_ = mid_;                                 \
		}                                                           \
		(out) = lo_;                                                \
	} while (0)

static int add_gap(struct fts_hostbound *hb, size_t *cap, uint64_t ts, uint64_t dur)
{
	struct gap *g;

	if (grow((void **)&hb->gaps, cap, hb->ngaps + 1, sizeof(*hb->gaps)))
		return -ENOMEM;
	g = &hb->gaps[hb->ngaps++];
	memset(g, 0, sizeof(*g));
	g->pub.ts = ts;
	g->pub.dur = dur;
	g->head = FTS_HB_NONE;
	g->whead = FTS_HB_NONE;
	return 0;
}

/* The device's idle intervals at or above @thr, in the profiler's time. */
static int find_gaps(struct fts_hostbound *hb, uint64_t thr)
{
	const struct fts_npu_trace *n = hb->npu;
	size_t cap = 0;

	hb->from_free = n->nfree > 0;
	if (hb->from_free) {
		for (size_t i = 0; i < n->nfree; i++) {
			if (n->free[i].dur >= thr && add_gap(hb, &cap, n->free[i].ts, n->free[i].dur))
				return -ENOMEM;
		}
		return 0;
	}
	if (!n->nbusy)
		return 0;
	/* the union of every stream's tasks: a gap is where none is busy */
	uint64_t end = n->busy[0].ts + n->busy[0].dur;

	for (size_t i = 1; i < n->nbusy; i++) {
		const struct fts_npu_busy *b = &n->busy[i];

		if (b->ts > end && b->ts - end >= thr && add_gap(hb, &cap, end, b->ts - end))
			return -ENOMEM;
		if (b->ts + b->dur > end)
			end = b->ts + b->dur;
	}
	return 0;
}

/* Each gap's dispatch thread(s) and the task that ended it. */
static int assign(struct fts_hostbound *hb, struct fts_err *err)
{
	const struct fts_npu_trace *n = hb->npu;

	for (size_t i = 0; i < n->nthreads; i++) {
		if (!thread_of(hb, n->threads[i].tid, n->threads[i].name))
			return nomem(err);
	}
	for (size_t g = 0; g < hb->ngaps; g++) {
		struct fts_hb_gap *p = &hb->gaps[g].pub;
		uint64_t end = p->ts + p->dur, from = end > FLOW_SLACK_NS ? end - FLOW_SLACK_NS : 0;
		size_t k;

		LOWER_BOUND(n->busy, n->nbusy, ts, from, k);
		p->next_kernel = k < n->nbusy ? n->busy[k].name : FTS_HB_NONE;
		p->preempter = FTS_HB_NONE;
		p->preempter_cpu = -1;
		p->wait_cpu = -1;
		LOWER_BOUND(n->flows, n->nflows, dev_ts, from, k);
		if (k < n->nflows) {
			struct thread *t = thread_of(hb, n->flows[k].host_tid, NULL);

			if (!t || blame_gap(hb, t, (uint32_t)g))
				return nomem(err);
			p->tid = t->tid;
			continue;
		}
		p->tid = -1;
		for (size_t i = 0; i < n->nthreads; i++) {
			const uint64_t *slot = fts_inthash_get(&hb->by_tid, (uint64_t)(uint32_t)n->threads[i].tid);

			if (blame_gap(hb, &hb->threads[*slot], (uint32_t)g))
				return nomem(err);
		}
	}
	return 0;
}

/*
 * The op each gap's dispatch thread was in (hostbound.h): its ops are a run
 * of n->ops (sorted by tid, ts), walked back from the last one starting
 * before the gap's end while an earlier one may still reach into the gap
 * (the running maximum of their ends), so nested ops cost no more than
 * the ones that overlap.
 */
static int find_ops(struct fts_hostbound *hb)
{
	const struct fts_npu_trace *n = hb->npu;
	const struct fts_npu_op *op = n->ops;
	uint64_t *maxend;

	for (size_t g = 0; g < hb->ngaps; g++)
		hb->gaps[g].pub.op = FTS_HB_NONE;
	if (!n->nops)
		return 0;
	maxend = malloc(n->nops * sizeof(*maxend));
	if (!maxend)
		return -ENOMEM;
	for (size_t i = 0; i < n->nops; i++) {
		uint64_t e = op[i].ts + op[i].dur;

		maxend[i] = i && op[i - 1].tid == op[i].tid && maxend[i - 1] > e ? maxend[i - 1] : e;
	}
	for (size_t g = 0; g < hb->ngaps; g++) {
		struct fts_hb_gap *p = &hb->gaps[g].pub;
		uint64_t a = p->ts, b = p->ts + p->dur, best_ov = 0, best_dur = 0;
		size_t lo = 0, hi = n->nops;
		uint32_t best = FTS_HB_NONE;

		if (p->tid < 0)
			continue;
		/* the first op after (tid, b) */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (op[mid].tid < p->tid || (op[mid].tid == p->tid && op[mid].ts < b))
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t i = lo; i-- > 0 && op[i].tid == p->tid && maxend[i] > a;) {
			uint64_t s = op[i].ts > a ? op[i].ts : a, e = op[i].ts + op[i].dur < b ? op[i].ts + op[i].dur : b;

			if (e <= s)
				continue;
			if (e - s > best_ov || (e - s == best_ov && op[i].dur < best_dur)) {
				best_ov = e - s;
				best_dur = op[i].dur;
				best = op[i].name;
			}
		}
		if (best != FTS_HB_NONE && (p->op = intern(hb, fts_npu_name(n, best))) == UINT32_MAX) {
			free(maxend);
			return -ENOMEM;
		}
	}
	free(maxend);
	return 0;
}

/* ---- the sink ---- */

static const char *arg_of(const struct fts_item *it, const char *key)
{
	for (int i = 0; i < it->nargs; i++) {
		if (it->args[i].key && !strcmp(it->args[i].key, key))
			return it->args[i].val;
	}
	return NULL;
}

/* The pid of "comm:pid" (the comm may hold ':' itself), -1 when there is none. */
static int32_t pid_of(const char *tid)
{
	const char *c = tid ? strrchr(tid, ':') : NULL;
	char *end;
	long v;

	if (!c || !c[1])
		return -1;
	v = strtol(c + 1, &end, 10);
	return *end || v < 0 || v > INT32_MAX ? -1 : (int32_t)v;
}

static struct thread *thread_by_pid(struct fts_hostbound *hb, int32_t pid)
{
	const uint64_t *slot = pid < 0 ? NULL : fts_inthash_get(&hb->by_tid, (uint64_t)(uint32_t)pid);

	return slot ? &hb->threads[*slot] : NULL;
}

static int hb_lane(struct fts_sink *s, const struct fts_lane *l, struct fts_err *err)
{
	struct fts_hostbound *hb = (struct fts_hostbound *)s;
	size_t cap = hb->nlanes;
	uint32_t v = LANE_NONE;

	if (l->group == FTS_GROUP_CPU) {
		v = LANE_CPU;
	} else {
		struct thread *t = thread_by_pid(hb, pid_of(l->tid));

		if (t) {
			/* the trace's "comm:pid" names it better than the profiler's "Thread N" */
			if (!strncmp(fts_strtab_get(&hb->strs, t->name), "Thread ", 7) ||
			    !strncmp(fts_strtab_get(&hb->strs, t->name), "tid ", 4)) {
				uint32_t id = intern(hb, l->tid);

				if (id == UINT32_MAX)
					return nomem(err);
				t->name = id;
			}
			v = (uint32_t)(t - hb->threads) + 1;
		}
	}
	if (l->id >= hb->nlanes) {
		if (grow((void **)&hb->lanes, &cap, (size_t)l->id + 1, sizeof(*hb->lanes)))
			return nomem(err);
		memset(hb->lanes + hb->nlanes, 0, ((size_t)l->id + 1 - hb->nlanes) * sizeof(*hb->lanes));
		hb->nlanes = (size_t)l->id + 1;
	}
	hb->lanes[l->id] = v;
	return 0;
}

/* @ns more for (@task, @cpu) in the entry list at @head. */
static int add_entry(struct fts_hostbound *hb, uint32_t *head, uint32_t task, int32_t cpu, double ns)
{
	uint32_t last = FTS_HB_NONE;

	for (uint32_t e = *head; e != FTS_HB_NONE; e = hb->pool[e].next) {
		if (hb->pool[e].task == task && hb->pool[e].cpu == cpu) {
			hb->pool[e].ns += ns;
			return 0;
		}
		last = e;
	}
	/* the tail by index, not by pointer: growing the pool moves it */
	if (grow((void **)&hb->pool, &hb->cpool, hb->npool + 1, sizeof(*hb->pool)))
		return -ENOMEM;
	hb->pool[hb->npool] = (struct pentry){ FTS_HB_NONE, task, cpu, ns };
	if (last == FTS_HB_NONE)
		*head = (uint32_t)hb->npool;
	else
		hb->pool[last].next = (uint32_t)hb->npool;
	hb->npool++;
	return 0;
}

static int add_preempter(struct fts_hostbound *hb, struct gap *g, const char *who, int32_t cpu,
			 double ns)
{
	uint32_t task = intern(hb, who && *who ? who : "?");

	return task == UINT32_MAX ? -ENOMEM : add_entry(hb, &g->head, task, cpu, ns);
}

/* Add [a, b) of @cat to every gap of @t it overlaps. */
static int spread(struct fts_hostbound *hb, struct thread *t, uint64_t a, uint64_t b,
		  enum fts_hb_cat cat, const struct fts_item *it)
{
	size_t lo = 0, hi = t->ngaps;
	const char *who = NULL;
	long long cpu = -1;

	/* the first gap that ends after a */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct fts_hb_gap *p = &hb->gaps[t->gaps[mid]].pub;

		if (p->ts + p->dur <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (cat == FTS_HB_PREEMPTED || cat == FTS_HB_WAITING) {
		const char *c = arg_of(it, "cpu");

		if (cat == FTS_HB_PREEMPTED)
			who = arg_of(it, "preempted_by");
		if (c && *c)
			cpu = strtoll(c, NULL, 10);
	}
	for (size_t i = lo; i < t->ngaps; i++) {
		struct gap *g = &hb->gaps[t->gaps[i]];
		uint64_t s = g->pub.ts > a ? g->pub.ts : a;
		uint64_t e = g->pub.ts + g->pub.dur < b ? g->pub.ts + g->pub.dur : b;
		double w;

		if (g->pub.ts >= b)
			break;
		if (e <= s)
			continue;
		w = (double)(e - s) / g->nthreads;
		g->pub.ns[cat] += w;
		if (cat == FTS_HB_PREEMPTED &&
		    add_preempter(hb, g, who, cpu >= 0 && cpu <= INT32_MAX ? (int32_t)cpu : -1, w))
			return -ENOMEM;
		/* a wakeup's wait: on which CPU (the model's target CPU; -1 unknown is not a CPU) */
		if (cat == FTS_HB_WAITING && cpu >= 0 && cpu <= INT32_MAX &&
		    add_entry(hb, &g->whead, FTS_HB_NONE, (int32_t)cpu, w))
			return -ENOMEM;
	}
	return 0;
}

static int hb_item(struct fts_sink *s, const struct fts_item *it, struct fts_err *err)
{
	struct fts_hostbound *hb = (struct fts_hostbound *)s;
	enum fts_hb_cat cat;
	struct thread *t;
	uint32_t v;

	if (it->lane >= hb->nlanes || !it->dur)
		return 0;
	v = hb->lanes[it->lane];
	if (v == LANE_NONE)
		return 0;
	if (v == LANE_CPU) {
		if (it->kind != FTS_ITEM_IRQ && it->kind != FTS_ITEM_SOFTIRQ)
			return 0;
		t = thread_by_pid(hb, pid_of(arg_of(it, "task")));
		if (!t)
			return 0;
		cat = FTS_HB_IRQ;
	} else {
		const char *why;

		t = &hb->threads[v - 1];
		switch (it->kind) {
		case FTS_ITEM_RUNNING: cat = FTS_HB_RUNNING; break;
		case FTS_ITEM_RUNNABLE:
			why = arg_of(it, "reason");
			cat = why && !strcmp(why, "preempted") ? FTS_HB_PREEMPTED : FTS_HB_WAITING;
			break;
		case FTS_ITEM_SLEEPING: cat = FTS_HB_SLEEPING; break;
		case FTS_ITEM_BLOCKED: cat = FTS_HB_BLOCKED; break;
		case FTS_ITEM_NODATA: cat = FTS_HB_UNKNOWN; break;
		default: return 0;
		}
	}
	if (spread(hb, t, it->ts, it->ts + it->dur, cat, it))
		return nomem(err);
	return 0;
}

static int hb_finish(struct fts_sink *s, int ok, struct fts_err *err)
{
	return ok ? fts_hostbound_finish((struct fts_hostbound *)s, err) : 0;
}

static void hb_destroy(struct fts_sink *s)
{
	(void)s; /* the sink lives and dies with its hostbound */
}

/* ---- finishing ---- */

static int cmp_gap(const void *a, const void *b)
{
	const struct fts_hb_gap *x = a, *y = b;

	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int cmp_blame(const void *a, const void *b)
{
	const struct fts_hb_blame *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return x->task < y->task ? -1 : x->task > y->task;
}

static void settle_gap(struct fts_hostbound *hb, struct gap *g)
{
	struct fts_hb_gap *p = &g->pub;
	double covered = 0, *ns = p->ns;

	/* irq time hit the thread while it ran: it was not running then */
	ns[FTS_HB_RUNNING] = ns[FTS_HB_RUNNING] > ns[FTS_HB_IRQ] ? ns[FTS_HB_RUNNING] - ns[FTS_HB_IRQ] : 0;
	for (int c = 0; c < FTS_HB__COUNT; c++)
		covered += ns[c];
	if (covered < (double)p->dur)
		ns[FTS_HB_UNKNOWN] += (double)p->dur - covered;
	p->verdict = FTS_HB_UNKNOWN;
	for (int c = 0; c < FTS_HB__COUNT; c++) {
		if (ns[c] > ns[p->verdict])
			p->verdict = (enum fts_hb_cat)c;
	}
	if (p->tid >= 0)
		p->thread = thread_by_pid(hb, p->tid)->name;
	else
		p->thread = FTS_HB_NONE;
	p->preempter = FTS_HB_NONE;
	p->preempter_ns = 0;
	for (uint32_t e = g->head; e != FTS_HB_NONE; e = hb->pool[e].next) {
		if (hb->pool[e].ns > p->preempter_ns) {
			p->preempter = hb->pool[e].task;
			p->preempter_cpu = hb->pool[e].cpu;
			p->preempter_ns = hb->pool[e].ns;
		}
	}
	p->wait_cpu = -1;
	p->wait_cpu_ns = 0;
	for (uint32_t e = g->whead; e != FTS_HB_NONE; e = hb->pool[e].next) {
		if (hb->pool[e].ns > p->wait_cpu_ns) {
			p->wait_cpu = hb->pool[e].cpu;
			p->wait_cpu_ns = hb->pool[e].ns;
		}
	}
}

static int make_blame(struct fts_hostbound *hb, struct fts_err *err)
{
	struct fts_inthash idx;
	int rc = 0;

	free(hb->blame);
	hb->nblame = 0;
	hb->blame = calloc(hb->npool ? hb->npool : 1, sizeof(*hb->blame));
	if (!hb->blame)
		return nomem(err);
	fts_inthash_init(&idx);
	for (size_t e = 0; e < hb->npool; e++) {
		const struct pentry *p = &hb->pool[e];
		uint64_t key = (uint64_t)p->task << 32 | (uint32_t)(p->cpu + 1);
		int added = 0;
		uint64_t *slot;

		if (p->task == FTS_HB_NONE)
			continue;   /* a waiting entry (by CPU only): no preempter to blame */
		slot = fts_inthash_put(&idx, key, &added);
		if (!slot) {
			rc = nomem(err);
			break;
		}
		if (added) {
			*slot = hb->nblame;
			hb->blame[hb->nblame++] = (struct fts_hb_blame){ p->task, p->cpu, 0, 0 };
		}
		hb->blame[*slot].ns += p->ns;
		hb->blame[*slot].gaps++;   /* one entry per (gap, task, cpu) */
	}
	fts_inthash_free(&idx);
	qsort(hb->blame, hb->nblame, sizeof(*hb->blame), cmp_blame);
	return rc;
}

int fts_hostbound_finish(struct fts_hostbound *hb, struct fts_err *err)
{
	free(hb->sorted);
	hb->sorted = calloc(hb->ngaps ? hb->ngaps : 1, sizeof(*hb->sorted));
	if (!hb->sorted)
		return nomem(err);
	for (size_t g = 0; g < hb->ngaps; g++) {
		struct gap copy = hb->gaps[g];   /* finish may run twice: settle a copy */

		settle_gap(hb, &copy);
		hb->sorted[g] = copy.pub;
	}
	qsort(hb->sorted, hb->ngaps, sizeof(*hb->sorted), cmp_gap);
	return make_blame(hb, err);
}

int fts_hostbound_create(const struct fts_npu_trace *npu, const struct fts_hb_opts *opts,
			 struct fts_hostbound **out, struct fts_err *err)
{
	struct fts_hostbound *hb;
	uint64_t thr = opts && opts->threshold_ns ? opts->threshold_ns : DEFAULT_THRESHOLD_NS;
	int64_t off = opts ? opts->offset_ns : 0;
	int rc;

	*out = NULL;
	hb = calloc(1, sizeof(*hb));
	if (!hb)
		return nomem(err);
	hb->npu = npu;
	fts_strtab_init(&hb->strs);
	fts_inthash_init(&hb->by_tid);
	rc = find_gaps(hb, thr) ? nomem(err) : assign(hb, err);
	if (!rc && find_ops(hb))
		rc = nomem(err);
	if (rc) {
		fts_hostbound_free(hb);
		return rc;
	}
	for (size_t g = 0; g < hb->ngaps; g++)
		hb->gaps[g].pub.ts = (uint64_t)((int64_t)hb->gaps[g].pub.ts + off);
	hb->sink.lane = hb_lane;
	hb->sink.item = hb_item;
	hb->sink.finish = hb_finish;
	hb->sink.destroy = hb_destroy;
	*out = hb;
	return 0;
}

struct fts_sink *fts_hostbound_sink(struct fts_hostbound *hb)
{
	return &hb->sink;
}

const struct fts_hb_gap *fts_hostbound_gaps(const struct fts_hostbound *hb, size_t *n)
{
	*n = hb->sorted ? hb->ngaps : 0;
	return hb->sorted;
}

uint64_t fts_hostbound_totals(const struct fts_hostbound *hb, double ns[FTS_HB__COUNT])
{
	uint64_t idle = 0;

	for (int c = 0; c < FTS_HB__COUNT; c++)
		ns[c] = 0;
	for (size_t g = 0; hb->sorted && g < hb->ngaps; g++) {
		idle += hb->sorted[g].dur;
		for (int c = 0; c < FTS_HB__COUNT; c++)
			ns[c] += hb->sorted[g].ns[c];
	}
	return idle;
}

const struct fts_hb_blame *fts_hostbound_blame(const struct fts_hostbound *hb, size_t *n)
{
	*n = hb->nblame;
	return hb->blame;
}

const char *fts_hostbound_str(const struct fts_hostbound *hb, uint32_t id)
{
	if (id == FTS_HB_NONE || id >= hb->strs.n)
		return "";
	return fts_strtab_get(&hb->strs, id);
}

const char *fts_hostbound_cat_name(enum fts_hb_cat cat)
{
	static const char *const names[FTS_HB__COUNT] = {
		[FTS_HB_RUNNING] = "running", [FTS_HB_PREEMPTED] = "preempted",
		[FTS_HB_WAITING] = "waiting", [FTS_HB_SLEEPING] = "sleeping",
		[FTS_HB_BLOCKED] = "blocked", [FTS_HB_IRQ] = "irq",
		[FTS_HB_UNKNOWN] = "unknown",
	};

	return (unsigned)cat < FTS_HB__COUNT ? names[cat] : "?";
}

int32_t fts_hostbound_lane_tid(const struct fts_hostbound *hb, uint32_t lane)
{
	uint32_t v = lane < hb->nlanes ? hb->lanes[lane] : LANE_NONE;

	return v == LANE_NONE || v == LANE_CPU ? -1 : hb->threads[v - 1].tid;
}

int fts_hostbound_gaps_from_free(const struct fts_hostbound *hb)
{
	return hb->from_free;
}

void fts_hostbound_free(struct fts_hostbound *hb)
{
	if (!hb)
		return;
	for (size_t i = 0; i < hb->nthreads; i++)
		free(hb->threads[i].gaps);
	free(hb->threads);
	free(hb->gaps);
	free(hb->sorted);
	free(hb->lanes);
	free(hb->pool);
	free(hb->blame);
	fts_inthash_free(&hb->by_tid);
	fts_strtab_free(&hb->strs);
	free(hb);
}
