// SPDX-License-Identifier: MIT
/*
 * hostbound.c - the gaps of one card, the roles of its threads, the ops
 * they were in, and the public accessors (hostbound.h). The sink is
 * hostbound_sink.c, the verdicts hostbound_cause.c; the state they share
 * is hostbound_impl.h.
 */
#include "core/hostbound/hostbound_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/buf.h"

#define DEFAULT_THRESHOLD_NS 50000
/* a launch flow ends on its task's start, at the gap's end; allow for rounding to the us */
#define FLOW_SLACK_NS 1000

static int nomem(struct fts_err *err)
{
	return fts_err_set(err, -ENOMEM, "out of memory");
}

int hb_grow(void **p, size_t *cap, size_t need, size_t size)
{
	return fts_grow(p, cap, need, size, 16);
}

uint32_t hb_intern(struct fts_hostbound *hb, const char *s)
{
	return fts_strtab_intern(&hb->strs, s, strlen(s));
}

struct hb_thread *hb_thread_by_tid(const struct fts_hostbound *hb, int32_t tid)
{
	const uint64_t *slot = tid < 0 ? NULL : fts_inthash_get(&hb->by_tid, (uint64_t)(uint32_t)tid);

	return slot ? &hb->threads[*slot] : NULL;
}

int hb_ours(const char *task)
{
	/* the recorder's threads (src/core/record: fts-read<k>, fts-flight, fts-sampler, fts-top) */
	if (!strncmp(task, "host:", 5))
		task += 5;
	return !strncmp(task, "ftscope:", 8) || !strncmp(task, "fts-", 4);
}

/* "comm:pid" without a pid mapping's "host:" mark */
static const char *bare_task(const char *task)
{
	return strncmp(task, "host:", 5) ? task : task + 5;
}

int hb_softirqd(const char *task)
{
	return !strncmp(bare_task(task), "ksoftirqd/", 10);
}

uint32_t hb_irq_label(struct fts_hostbound *hb, int32_t irq, const char *name)
{
	char buf[160];

	name = name && *name ? name : "?";
	if (irq >= 0)
		snprintf(buf, sizeof(buf), "irq %d (%s)", irq, name);
	else
		snprintf(buf, sizeof(buf), "softirq %s", name);
	return hb_intern(hb, buf);
}

uint32_t hb_softirqd_label(struct fts_hostbound *hb, uint32_t task)
{
	const char *want = bare_task(fts_hostbound_str(hb, task));
	const struct hb_ksoft *best = NULL;
	char buf[192];

	for (size_t i = 0; i < hb->nksoft; i++) {
		if (!strcmp(bare_task(fts_hostbound_str(hb, hb->ksoft[i].task)), want) &&
		    (!best || hb->ksoft[i].ns > best->ns))
			best = &hb->ksoft[i];
	}
	if (best)
		snprintf(buf, sizeof(buf), "softirq %s in %s", fts_hostbound_str(hb, best->vec),
			 fts_hostbound_str(hb, task));
	else
		snprintf(buf, sizeof(buf), "softirqs in %s", fts_hostbound_str(hb, task));
	return hb_intern(hb, buf);
}

/* The thread of @tid, added when new; NULL when out of memory. */
static struct hb_thread *thread_of(struct fts_hostbound *hb, int32_t tid, const char *pname)
{
	int added = 0;
	uint64_t *slot = fts_inthash_put(&hb->by_tid, (uint64_t)(uint32_t)tid, &added);
	struct hb_thread *t;
	size_t cap = hb->nthreads;
	char buf[80];

	if (!slot)
		return NULL;
	if (!added)
		return &hb->threads[*slot];
	/* threads are few: grow by one, keeping the array exact */
	if (hb_grow((void **)&hb->threads, &cap, hb->nthreads + 1, sizeof(*hb->threads))) {
		fts_inthash_del(&hb->by_tid, (uint64_t)(uint32_t)tid);
		return NULL;
	}
	*slot = hb->nthreads;
	t = &hb->threads[hb->nthreads++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->role = FTS_HB_ROLE_OTHER;
	if (!pname || !*pname) {
		snprintf(buf, sizeof(buf), "tid %d", tid);
		pname = buf;
	}
	/* the trace's "comm:pid" names it better than the profiler's "Thread N" (hb_sink_item) */
	t->traced_name = !strncmp(pname, "Thread ", 7) || !strncmp(pname, "tid ", 4);
	t->name = hb_intern(hb, pname);
	return t->name == UINT32_MAX ? NULL : t;
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
	struct hb_gap *g;

	if (hb_grow((void **)&hb->gaps, cap, hb->ngaps + 1, sizeof(*hb->gaps)))
		return -ENOMEM;
	g = &hb->gaps[hb->ngaps++];
	memset(g, 0, sizeof(*g));
	g->pub.ts = ts;
	g->pub.dur = dur;
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

/* The flows that end a gap: who launched it and when its work was queued. */
struct gap_end {
	int32_t launcher;     /* -1: none */
	uint64_t queued_at;   /* the async_npu flow's host end (profiler ns); 0: none */
	int32_t queuer;
};

/*
 * Of the flows whose device end is the first at or after a gap's @end: the
 * launcher, HostToDevice (kind 0) before async_npu, the lowest tid on a tie;
 * the earliest async_npu start and its thread. Whatever their order in the file.
 */
static struct gap_end gap_end(const struct fts_npu_trace *n, uint64_t end)
{
	uint64_t from = end > FLOW_SLACK_NS ? end - FLOW_SLACK_NS : 0;
	struct gap_end r = { -1, 0, -1 };
	uint32_t best_kind = UINT32_MAX;
	size_t k;

	LOWER_BOUND(n->flows, n->nflows, dev_ts, from, k);
	for (size_t i = k; i < n->nflows && n->flows[i].dev_ts <= n->flows[k].dev_ts + FLOW_SLACK_NS; i++) {
		const struct fts_npu_flow *f = &n->flows[i];
		uint32_t kind = f->kind ? 1 : 0;

		if (kind < best_kind || (kind == best_kind && f->host_tid < r.launcher)) {
			r.launcher = f->host_tid;
			best_kind = kind;
		}
		if (kind && (!r.queued_at || f->host_ts < r.queued_at)) {
			r.queued_at = f->host_ts;
			r.queuer = f->host_tid;
		}
	}
	return r;
}

/* The roles: the launch flows' host ends dispatch, the async_npu one with most flows is main. */
static int set_roles(struct fts_hostbound *hb)
{
	const struct fts_npu_trace *n = hb->npu;
	struct fts_inthash count;
	int32_t main_tid = -1;
	uint64_t main_n = 0;

	fts_inthash_init(&count);
	for (size_t i = 0; i < n->nflows; i++) {
		struct hb_thread *t = thread_of(hb, n->flows[i].host_tid, NULL);
		int added = 0;
		uint64_t *c;

		if (!t)
			goto nomem;
		if (!n->flows[i].kind) {
			t->role = FTS_HB_ROLE_DISPATCH;
			continue;
		}
		c = fts_inthash_put(&count, (uint64_t)(uint32_t)t->tid, &added);
		if (!c)
			goto nomem;
		*c = added ? 1 : *c + 1;
		if (*c > main_n || (*c == main_n && t->tid < main_tid)) {
			main_n = *c;
			main_tid = t->tid;
		}
	}
	fts_inthash_free(&count);
	/* a thread that both queues and launches (no task queue) launches */
	if (main_tid >= 0 && hb_thread_by_tid(hb, main_tid)->role == FTS_HB_ROLE_OTHER)
		hb_thread_by_tid(hb, main_tid)->role = FTS_HB_ROLE_MAIN;
	return 0;
nomem:
	fts_inthash_free(&count);
	return -ENOMEM;
}

/* Each gap's dispatch thread(s) and the task that ended it. */
static int assign(struct fts_hostbound *hb, struct fts_err *err)
{
	const struct fts_npu_trace *n = hb->npu;
	size_t cap = 0, k;

	for (size_t i = 0; i < n->nthreads; i++) {
		if (!thread_of(hb, n->threads[i].tid, n->threads[i].name))
			return nomem(err);
	}
	if (set_roles(hb))
		return nomem(err);
	hb->gap_first = calloc(hb->ngaps + 1, sizeof(*hb->gap_first));
	if (!hb->gap_first)
		return nomem(err);
	for (size_t g = 0; g < hb->ngaps; g++) {
		struct fts_hb_gap *p = &hb->gaps[g].pub;
		uint64_t end = p->ts + p->dur, from = end > FLOW_SLACK_NS ? end - FLOW_SLACK_NS : 0;
		size_t first = hb->gap_first[g];
		struct gap_end ge = gap_end(n, end);

		LOWER_BOUND(n->busy, n->nbusy, ts, from, k);
		p->next_kernel = k < n->nbusy ? n->busy[k].name : FTS_HB_NONE;
		p->tid = ge.launcher;
		/* a thread that queues what it launches waits for nobody */
		hb->gaps[g].queued_at = p->tid < 0 || ge.queuer == p->tid || !hb_thread_by_tid(hb, ge.queuer) ?
			0 : ge.queued_at;
		hb->gaps[g].queuer = ge.queuer;
		if (hb_grow((void **)&hb->gap_tids, &cap, first + (p->tid >= 0 ? 1 : n->nthreads) + 1,
			    sizeof(*hb->gap_tids)))
			return nomem(err);
		if (p->tid >= 0)
			hb->gap_tids[first++] = (uint32_t)(hb_thread_by_tid(hb, p->tid) - hb->threads);
		for (size_t i = 0; p->tid < 0 && i < n->nthreads; i++)
			hb->gap_tids[first++] = (uint32_t)(hb_thread_by_tid(hb, n->threads[i].tid) - hb->threads);
		hb->gaps[g].nthreads = (uint32_t)(first - hb->gap_first[g]);
		hb->gap_first[g + 1] = first;
	}
	return 0;
}

/* The running maximum of the ends of each thread's ops (n->ops is sorted by tid, ts). */
static int op_ends(struct fts_hostbound *hb)
{
	const struct fts_npu_trace *n = hb->npu;
	const struct fts_npu_op *op = n->ops;

	if (!n->nops)
		return 0;
	hb->op_maxend = malloc(n->nops * sizeof(*hb->op_maxend));
	if (!hb->op_maxend)
		return -ENOMEM;
	for (size_t i = 0; i < n->nops; i++) {
		uint64_t e = op[i].ts + op[i].dur;

		hb->op_maxend[i] = i && op[i - 1].tid == op[i].tid && hb->op_maxend[i - 1] > e ? hb->op_maxend[i - 1] : e;
	}
	return 0;
}

/*
 * The op @tid was in over [a, b) (output ns; the ops are in the profiler's
 * time, hence @off): of its ops that overlap it, the one that overlaps most,
 * the innermost on a tie, when it covers at least @share of it. Walked back from the last op starting before b
 * while an earlier one may still reach into the window (op_maxend), so
 * nested ops cost no more than the ones that overlap.
 */
static uint32_t op_over(const struct fts_npu_trace *n, const uint64_t *maxend, int32_t tid,
			uint64_t a, uint64_t b, double share)
{
	const struct fts_npu_op *op = n->ops;
	uint64_t best_ov = 0, best_dur = 0;
	size_t lo = 0, hi = n->nops;
	uint32_t best = FTS_HB_NONE;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (op[mid].tid < tid || (op[mid].tid == tid && op[mid].ts < b))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && op[i].tid == tid && maxend[i] > a;) {
		uint64_t s = op[i].ts > a ? op[i].ts : a, e = op[i].ts + op[i].dur < b ? op[i].ts + op[i].dur : b;

		if (e <= s)
			continue;
		if (e - s > best_ov || (e - s == best_ov && op[i].dur < best_dur)) {
			best_ov = e - s;
			best_dur = op[i].dur;
			best = op[i].name;
		}
	}
	return (double)best_ov >= share * (double)(b - a) ? best : FTS_HB_NONE;
}

uint32_t hb_op_over(struct fts_hostbound *hb, int32_t tid, uint64_t a, uint64_t b, double share)
{
	int64_t off = hb->offset_ns;
	uint32_t name;

	if (!hb->npu->nops || tid < 0 || b <= a)
		return FTS_HB_NONE;
	name = op_over(hb->npu, hb->op_maxend, tid, (uint64_t)((int64_t)a - off), (uint64_t)((int64_t)b - off), share);
	return name == FTS_HB_NONE ? FTS_HB_NONE : hb_intern(hb, fts_npu_name(hb->npu, name));
}

static int hb_finish_cb(struct fts_sink *s, int ok, struct fts_err *err)
{
	return ok ? fts_hostbound_finish((struct fts_hostbound *)s, err) : 0;
}

static void hb_destroy(struct fts_sink *s)
{
	(void)s; /* the sink lives and dies with its hostbound */
}

static int cmp_blame(const void *a, const void *b)
{
	const struct fts_hb_blame *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/* The culprits of every gap summed by (task, CPU). */
static int make_blame(struct fts_hostbound *hb, struct fts_err *err)
{
	struct fts_inthash idx;
	int rc = 0;

	free(hb->blame);
	hb->nblame = 0;
	hb->blame = calloc(hb->ngaps * FTS_HB_CULPRITS + 1, sizeof(*hb->blame));
	if (!hb->blame)
		return nomem(err);
	fts_inthash_init(&idx);
	for (size_t g = 0; g < hb->ngaps && !rc; g++) {
		for (int i = 0; i < FTS_HB_CULPRITS; i++) {
			const struct fts_hb_culprit *c = &hb->sorted[g].culprits[i];
			uint64_t key = (uint64_t)c->task << 32 | (uint32_t)(c->cpu + 1);
			int added = 0;
			uint64_t *slot;

			if (c->task == FTS_HB_NONE)
				break;
			slot = fts_inthash_put(&idx, key, &added);
			if (!slot) {
				rc = nomem(err);
				break;
			}
			if (added) {
				*slot = hb->nblame;
				hb->blame[hb->nblame++] = (struct fts_hb_blame){ c->task, c->cpu, 0, 0, c->ours };
			}
			hb->blame[*slot].ns += c->ns;
			hb->blame[*slot].gaps++;
		}
	}
	fts_inthash_free(&idx);
	qsort(hb->blame, hb->nblame, sizeof(*hb->blame), cmp_blame);
	return rc;
}

static int cmp_gap(const void *a, const void *b)
{
	const struct fts_hb_gap *x = a, *y = b;

	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int role_rank(enum fts_hb_role r)
{
	return r == FTS_HB_ROLE_DISPATCH ? 0 : r == FTS_HB_ROLE_MAIN ? 1 : 2;
}

static int cmp_thread(const void *a, const void *b)
{
	const struct fts_hb_thread *x = a, *y = b;

	if (x->role != y->role)
		return role_rank(x->role) - role_rank(y->role);
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* The public list of the threads, by role then tid. 0 or -ENOMEM. */
static int make_threads(struct fts_hostbound *hb)
{
	free(hb->pub_threads);
	hb->pub_threads = calloc(hb->nthreads + 1, sizeof(*hb->pub_threads));
	if (!hb->pub_threads)
		return -ENOMEM;
	for (size_t i = 0; i < hb->nthreads; i++)
		hb->pub_threads[i] = (struct fts_hb_thread){ hb->threads[i].tid, hb->threads[i].name,
							     hb->threads[i].role };
	qsort(hb->pub_threads, hb->nthreads, sizeof(*hb->pub_threads), cmp_thread);
	return 0;
}

int fts_hostbound_finish(struct fts_hostbound *hb, struct fts_err *err)
{
	free(hb->sorted);
	hb->sorted = calloc(hb->ngaps ? hb->ngaps : 1, sizeof(*hb->sorted));
	if (!hb->sorted || hb_settle(hb))
		return nomem(err);
	if (make_blame(hb, err))
		return err->code;
	/* the steps and the advice read the gaps in time order: before the sort */
	if (hb_make_steps(hb) || hb_make_advice(hb) || make_threads(hb))
		return nomem(err);
	qsort(hb->sorted, hb->ngaps, sizeof(*hb->sorted), cmp_gap);
	return 0;
}

int fts_hostbound_create(const struct fts_npu_trace *npu, const struct fts_hb_opts *opts,
			 struct fts_hostbound **out, struct fts_err *err)
{
	struct fts_hostbound *hb;
	uint64_t thr = opts && opts->threshold_ns ? opts->threshold_ns : DEFAULT_THRESHOLD_NS;
	int rc;

	*out = NULL;
	hb = calloc(1, sizeof(*hb));
	if (!hb)
		return nomem(err);
	hb->npu = npu;
	hb->offset_ns = opts ? opts->offset_ns : 0;
	hb->pid_mapping = opts ? opts->pid_mapping : 0;
	hb->first_ts = UINT64_MAX;
	fts_strtab_init(&hb->strs);
	fts_inthash_init(&hb->by_tid);
	rc = find_gaps(hb, thr) ? nomem(err) : assign(hb, err);
	if (!rc && op_ends(hb))
		rc = nomem(err);
	if (rc) {
		fts_hostbound_free(hb);
		return rc;
	}
	for (size_t g = 0; g < hb->ngaps; g++) {
		hb->gaps[g].pub.ts = (uint64_t)((int64_t)hb->gaps[g].pub.ts + hb->offset_ns);
		if (hb->gaps[g].queued_at)
			hb->gaps[g].queued_at = (uint64_t)((int64_t)hb->gaps[g].queued_at + hb->offset_ns);
	}
	hb->sink.lane = hb_sink_lane;
	hb->sink.item = hb_sink_item;
	hb->sink.finish = hb_finish_cb;
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

/* The gaps' idle time; @ns by state (@causes 0) or by cause (1); the queued and outside sums when asked. */
static uint64_t sum_gaps(const struct fts_hostbound *hb, int causes, double ns[FTS_HB__COUNT],
			 double *queued_ns, double *outside_ns)
{
	uint64_t idle = 0;
	double queued = 0, outside = 0;

	for (int c = 0; c < FTS_HB__COUNT; c++)
		ns[c] = 0;
	for (size_t g = 0; hb->sorted && g < hb->ngaps; g++) {
		const struct fts_hb_gap *p = &hb->sorted[g];

		idle += p->dur;
		for (int c = 0; c < FTS_HB__COUNT; c++)
			ns[c] += causes ? p->cause_ns[c] : p->ns[c];
		queued += p->queued_ns;
		outside += p->outside_ns;
	}
	if (queued_ns)
		*queued_ns = queued;
	if (outside_ns)
		*outside_ns = outside;
	return idle;
}

uint64_t fts_hostbound_totals(const struct fts_hostbound *hb, double ns[FTS_HB__COUNT])
{
	return sum_gaps(hb, 0, ns, NULL, NULL);
}

uint64_t fts_hostbound_cause_totals(const struct fts_hostbound *hb, double ns[FTS_HB__COUNT],
				    double *queued_ns, double *outside_ns)
{
	return sum_gaps(hb, 1, ns, queued_ns, outside_ns);
}

const struct fts_hb_blame *fts_hostbound_blame(const struct fts_hostbound *hb, size_t *n)
{
	*n = hb->nblame;
	return hb->blame;
}

const struct fts_hb_thread *fts_hostbound_threads(const struct fts_hostbound *hb, size_t *n)
{
	*n = hb->pub_threads ? hb->nthreads : 0;
	return hb->pub_threads;
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

const char *fts_hostbound_role_name(enum fts_hb_role role)
{
	switch (role) {
	case FTS_HB_ROLE_DISPATCH: return "dispatch";
	case FTS_HB_ROLE_MAIN: return "main";
	case FTS_HB_ROLE_OTHER: return "other";
	}
	return "?";
}

int32_t fts_hostbound_lane_tid(const struct fts_hostbound *hb, uint32_t lane)
{
	uint32_t v = lane < hb->nlanes ? hb->lanes[lane] : HB_LANE_NONE;

	return v == HB_LANE_NONE || v == HB_LANE_CPU ? -1 : hb->threads[v - 1].tid;
}

int fts_hostbound_gaps_from_free(const struct fts_hostbound *hb)
{
	return hb->from_free;
}

void fts_hostbound_free(struct fts_hostbound *hb)
{
	if (!hb)
		return;
	free(hb->threads);
	free(hb->pub_threads);
	free(hb->gaps);
	free(hb->gap_tids);
	free(hb->gap_first);
	free(hb->sorted);
	free(hb->lanes);
	free(hb->lane_names);
	free(hb->segs);
	free(hb->runs);
	free(hb->ksoft);
	free(hb->irqs);
	free(hb->op_maxend);
	free(hb->blame);
	free(hb->steps);
	free(hb->advice);
	fts_inthash_free(&hb->by_tid);
	fts_strtab_free(&hb->strs);
	free(hb);
}
