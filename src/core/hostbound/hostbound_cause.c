// SPDX-License-Identifier: MIT
/*
 * hostbound_cause.c - the verdicts of the Host Bound analysis, once every
 * item is in (hostbound.h, hostbound_impl.h). Per gap, from the state
 * slices and run slices the sink kept for it, sorted:
 *   - the dispatch thread's own state over the gap (ns, verdict);
 *   - the causes: the same walk, but a sleep ended by one of the profiler's
 *     threads (the dispatch thread slept on an empty queue; the main thread
 *     woke it when it queued work) is replaced by its waker's state over
 *     that sleep, up to FTS_HB_MAX_DEPTH threads up, never round a loop;
 *   - the culprits: for preempted and waiting time, the run slices of the
 *     CPU waited for, over exactly that time, by task;
 *   - interrupt work: irq slices that hit a thread while it ran, and, in the
 *     causes, the time it waited for a CPU a ksoftirqd thread held (softirq
 *     work the kernel deferred to its thread: the CPU was taken by the
 *     interrupts, not by a task), each piece named after what took it.
 */
#include "core/hostbound/hostbound_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARTS 16       /* (thread, depth) pairs a gap's causes are made of */
#define MAX_WAIT_CPUS 16
#define OP_SHARE 0.5       /* an op names a cause's slice when it covers half of it */

struct part {
	uint32_t thread;
	int depth;
	double ns[FTS_HB__COUNT];
	uint64_t best_s[FTS_HB__COUNT], best_e[FTS_HB__COUNT];  /* its longest slice of each */
	uint64_t run_s[FTS_HB__COUNT], run_e[FTS_HB__COUNT];    /* the latest, joined to the one it follows */
};

struct tally {
	uint32_t task;
	int32_t cpu;
	double ns;
	uint32_t who;       /* per-piece culprits: index in walk.part * FTS_HB__COUNT + category; else 0 */
};

/* One gap's walk. */
struct walk {
	struct fts_hostbound *hb;
	const struct hb_seg *seg;  /* the gap's, by (thread, s) */
	size_t nseg;
	const struct hb_run *run;  /* the gap's, by (cpu, s) */
	size_t nrun;
	const struct hb_run *irq;  /* the gap's irqs over other tasks, by (cpu, s) */
	size_t nirq;
	int maxdepth;
	uint32_t chain[FTS_HB_MAX_DEPTH + 1];
	double w;                  /* the thread's share of the gap */
	double ns[FTS_HB__COUNT], queued;
	double lost;               /* unknown time the capture's lost events made (no-data slices) */
	struct part part[MAX_PARTS];
	size_t npart;
	/* the gap's culprits and the pieces' (who): as many as ran, a loaded CPU runs hundreds */
	struct tally *cul, *pcul;
	size_t ncul, ccul, npcul, cpcul;
	int oom;
	/*
	 * the thread's own state (the old preempter): culprits of preempted time
	 * only, interrupt work left as the scheduler saw it; else the causes
	 */
	int preempt_only;
	struct tally wcpu[MAX_WAIT_CPUS];
	size_t nwcpu;
};

static int cmp_seg(const void *a, const void *b)
{
	const struct hb_seg *x = a, *y = b;

	if (x->gap != y->gap)
		return x->gap < y->gap ? -1 : 1;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return (x->cat > y->cat) - (x->cat < y->cat);
}

static int cmp_run(const void *a, const void *b)
{
	const struct hb_run *x = a, *y = b;

	if (x->gap != y->gap)
		return x->gap < y->gap ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return (x->s > y->s) - (x->s < y->s);
}

static void tally_add(struct tally *t, size_t *n, size_t cap, uint32_t task, int32_t cpu, double ns, uint32_t who)
{
	for (size_t i = 0; i < *n; i++) {
		if (t[i].task == task && t[i].cpu == cpu && t[i].who == who) {
			t[i].ns += ns;
			return;
		}
	}
	if (*n < cap)
		t[(*n)++] = (struct tally){ task, cpu, ns, who };
}

/* The first of @n slices (by cpu, then start) of @cpu that may end after @a. */
static size_t first_on_cpu(const struct hb_run *r, size_t n, int32_t cpu, uint64_t a)
{
	size_t lo = 0, hi = n;

	/*
	 * one CPU's run slices do not overlap: their ends ascend as their starts
	 * do (an irq nested in a softirq breaks that for the irqs, rarely: the
	 * search may then start past the softirq's tail)
	 */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r[mid].cpu < cpu || (r[mid].cpu == cpu && r[mid].e <= a))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The time irqs over other tasks took on @cpu within [a, b) (an irq nested in a softirq counted once). */
static uint64_t irq_within(const struct walk *k, int32_t cpu, uint64_t a, uint64_t b)
{
	uint64_t sum = 0, upto = a;

	for (size_t i = first_on_cpu(k->irq, k->nirq, cpu, a); i < k->nirq && k->irq[i].cpu == cpu && k->irq[i].s < b;
	     i++) {
		uint64_t s = k->irq[i].s > upto ? k->irq[i].s : upto, e = k->irq[i].e < b ? k->irq[i].e : b;

		if (e > s) {
			sum += e - s;
			upto = e;
		}
	}
	return sum;
}

/* Move @ns of piece @who's time to irq, taken by @label on @cpu. */
static void to_irq(struct walk *k, uint32_t who, uint32_t label, int32_t cpu, double ns)
{
	struct part *p = &k->part[who / FTS_HB__COUNT];

	/* never more than the piece has (overlapping irq records) */
	ns = ns < p->ns[who % FTS_HB__COUNT] ? ns : p->ns[who % FTS_HB__COUNT];
	if (ns <= 0)
		return;
	p->ns[who % FTS_HB__COUNT] -= ns;
	k->ns[who % FTS_HB__COUNT] -= ns;
	p->ns[FTS_HB_IRQ] += ns;
	k->ns[FTS_HB_IRQ] += ns;
	tally_add(k->pcul, &k->npcul, k->cpcul, label, cpu, ns, who - who % FTS_HB__COUNT + FTS_HB_IRQ);
}

/*
 * Who held @cpu over [a, b), but @self: added to the culprits, the gap's
 * and piece @who's. In the causes, interrupt work took it, not a task: a
 * ksoftirqd's slices and the irqs over the others move to irq, named.
 */
static void occupancy(struct walk *k, int32_t cpu, uint64_t a, uint64_t b, int32_t self, uint32_t who)
{
	uint64_t upto = a;

	if (cpu < 0)
		return;
	for (size_t i = first_on_cpu(k->run, k->nrun, cpu, a); i < k->nrun && k->run[i].cpu == cpu && k->run[i].s < b;
	     i++) {
		uint64_t s = k->run[i].s > a ? k->run[i].s : a, e = k->run[i].e < b ? k->run[i].e : b;
		uint32_t label;
		double ns;

		if (e <= s || k->run[i].pid == self)
			continue;
		if (hb_grow((void **)&k->cul, &k->ccul, k->ncul + 1, sizeof(*k->cul)) ||
		    hb_grow((void **)&k->pcul, &k->cpcul, k->npcul + 1, sizeof(*k->pcul))) {
			k->oom = 1;
			return;
		}
		if (k->run[i].softirqd && !k->preempt_only) {
			/* the CPU was in softirq work: irq time, named after the vector */
			if ((label = hb_softirqd_label(k->hb, k->run[i].task)) == UINT32_MAX) {
				k->oom = 1;
				return;
			}
			to_irq(k, who, label, cpu, (double)(e - s) * k->w);
			continue;
		}
		ns = (double)(e - s - (k->preempt_only ? 0 : irq_within(k, cpu, s, e))) * k->w;
		tally_add(k->cul, &k->ncul, k->ccul, k->run[i].task, cpu, ns, 0);
		tally_add(k->pcul, &k->npcul, k->cpcul, k->run[i].task, cpu, ns, who);
	}
	if (k->preempt_only)
		return;
	/* the irqs over the other tasks (or the idle CPU) meanwhile */
	for (size_t i = first_on_cpu(k->irq, k->nirq, cpu, a); i < k->nirq && k->irq[i].cpu == cpu && k->irq[i].s < b;
	     i++) {
		uint64_t s = k->irq[i].s > upto ? k->irq[i].s : upto, e = k->irq[i].e < b ? k->irq[i].e : b;

		if (e <= s)
			continue;
		upto = e;
		if (hb_grow((void **)&k->pcul, &k->cpcul, k->npcul + 1, sizeof(*k->pcul))) {
			k->oom = 1;
			return;
		}
		to_irq(k, who, k->irq[i].task, cpu, (double)(e - s) * k->w);
	}
}

/* The first of the gap's slices of thread @ti starting at or after @t. */
static size_t seg_from(const struct walk *k, uint32_t ti, uint64_t t)
{
	size_t lo = 0, hi = k->nseg;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct hb_seg *x = &k->seg[mid];

		if (x->thread < ti || (x->thread == ti && x->s < t))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The profiler thread that woke @ti from the sleep ending at @t, or -1 (none, or not one of them). */
static int64_t waker_of(const struct walk *k, uint32_t ti, uint64_t t)
{
	for (size_t i = seg_from(k, ti, t); i < k->nseg && k->seg[i].thread == ti && k->seg[i].s == t; i++) {
		const struct hb_thread *w;

		if (k->seg[i].cat != FTS_HB_WAITING || k->seg[i].waker < 0)
			continue;
		w = hb_thread_by_tid(k->hb, k->seg[i].waker);
		return w ? w - k->hb->threads : -1;
	}
	return -1;
}

static int in_chain(const struct walk *k, uint32_t ti, int depth)
{
	for (int d = 0; d <= depth; d++) {
		if (k->chain[d] == ti)
			return 1;
	}
	return 0;
}

static struct part *part_of(struct walk *k, uint32_t ti, int depth)
{
	for (size_t i = 0; i < k->npart; i++) {
		if (k->part[i].thread == ti && k->part[i].depth == depth)
			return &k->part[i];
	}
	if (k->npart == MAX_PARTS)
		return &k->part[MAX_PARTS - 1];
	memset(&k->part[k->npart], 0, sizeof(k->part[0]));
	k->part[k->npart].thread = ti;
	k->part[k->npart].depth = depth;
	return &k->part[k->npart++];
}

static void part_add(struct walk *k, struct part *p, int cat, uint64_t s, uint64_t e)
{
	double ns = (double)(e - s);

	p->ns[cat] += ns * k->w;
	k->ns[cat] += ns * k->w;
	/* a slice cut in two (where the work was queued) is still one slice */
	if (s != p->run_e[cat])
		p->run_s[cat] = s;
	p->run_e[cat] = e;
	if (p->run_e[cat] - p->run_s[cat] > p->best_e[cat] - p->best_s[cat]) {
		p->best_s[cat] = p->run_s[cat];
		p->best_e[cat] = p->run_e[cat];
	}
}

/* A slice of thread @ti's state clipped to [s, e): counted, or handed to its waker. */
static void walk(struct walk *k, uint32_t ti, uint64_t a, uint64_t b, int depth);

static void one_slice(struct walk *k, const struct hb_seg *x, uint64_t s, uint64_t e, int depth)
{
	struct part *p = part_of(k, x->thread, depth);
	int64_t wt;

	if ((x->cat == FTS_HB_SLEEPING || x->cat == FTS_HB_BLOCKED) && depth < k->maxdepth &&
	    (wt = waker_of(k, x->thread, x->e)) >= 0 && !in_chain(k, (uint32_t)wt, depth)) {
		if (!depth)
			k->queued += (double)(e - s) * k->w;
		k->chain[depth + 1] = (uint32_t)wt;
		walk(k, (uint32_t)wt, s, e, depth + 1);
		return;
	}
	part_add(k, p, x->cat, s, e);
	if (x->cat == FTS_HB_PREEMPTED || (x->cat == FTS_HB_WAITING && !k->preempt_only))
		occupancy(k, x->cpu, s, e, k->hb->threads[x->thread].tid,
			  (uint32_t)(p - k->part) * FTS_HB__COUNT + x->cat);
	if (x->cat == FTS_HB_WAITING && !depth && x->cpu >= 0)
		tally_add(k->wcpu, &k->nwcpu, MAX_WAIT_CPUS, FTS_HB_NONE, x->cpu, (double)(e - s) * k->w, 0);
}

/* What an irq slice of a running thread took, for its piece's culprit. */
static void irq_culprit(struct walk *k, const struct hb_seg *x, uint64_t s, uint64_t e, int depth)
{
	struct part *p = part_of(k, x->thread, depth);
	uint32_t label;

	if (hb_grow((void **)&k->pcul, &k->cpcul, k->npcul + 1, sizeof(*k->pcul)) ||
	    (label = hb_irq_label(k->hb, x->irq, x->irqname != FTS_HB_NONE ? fts_hostbound_str(k->hb, x->irqname) :
				  NULL)) == UINT32_MAX) {
		k->oom = 1;
		return;
	}
	tally_add(k->pcul, &k->npcul, k->cpcul, label, x->cpu, (double)(e - s) * k->w,
		  (uint32_t)(p - k->part) * FTS_HB__COUNT + FTS_HB_IRQ);
}

/*
 * The first slice of @ti that may reach into [a, ...): a thread's state
 * slices do not overlap, so only the one before a's may, with the irq
 * slices inside it in between (a chain walks many short windows of one gap).
 */
static size_t seg_into(const struct walk *k, uint32_t ti, uint64_t a)
{
	size_t i = seg_from(k, ti, a);

	while (i > 0 && k->seg[i - 1].thread == ti && (k->seg[i - 1].e > a || k->seg[i - 1].cat == FTS_HB_IRQ))
		i--;
	return i;
}

static void walk(struct walk *k, uint32_t ti, uint64_t a, uint64_t b, int depth)
{
	uint64_t covered = 0, irq = 0, run = 0;
	struct part *p;

	for (size_t i = seg_into(k, ti, a); i < k->nseg && k->seg[i].thread == ti && k->seg[i].s < b; i++) {
		const struct hb_seg *x = &k->seg[i];
		uint64_t s = x->s > a ? x->s : a, e = x->e < b ? x->e : b;

		if (e <= s)
			continue;
		if (x->cat == FTS_HB_IRQ) {
			irq += e - s;
			irq_culprit(k, x, s, e, depth);
			continue;
		}
		covered += e - s;
		if (x->cat == FTS_HB_RUNNING)
			run += e - s;
		if (x->cat == FTS_HB_UNKNOWN)
			k->lost += (double)(e - s) * k->w;
		one_slice(k, x, s, e, depth);
	}
	p = part_of(k, ti, depth);
	/* irq time hit the thread while it ran: it was not running then */
	irq = irq < run ? irq : run;
	p->ns[FTS_HB_RUNNING] -= (double)irq * k->w;
	k->ns[FTS_HB_RUNNING] -= (double)irq * k->w;
	p->ns[FTS_HB_IRQ] += (double)irq * k->w;
	k->ns[FTS_HB_IRQ] += (double)irq * k->w;
	if (covered < b - a) {
		p->ns[FTS_HB_UNKNOWN] += (double)(b - a - covered) * k->w;
		k->ns[FTS_HB_UNKNOWN] += (double)(b - a - covered) * k->w;
	}
}

/* The gap's threads walked over it, following wakers to @maxdepth. */
static void walk_gap(struct fts_hostbound *hb, struct walk *k, size_t g, int maxdepth, int preempt_only)
{
	const struct fts_hb_gap *p = &hb->gaps[g].pub;
	size_t n = hb->gap_first[g + 1] - hb->gap_first[g];

	memset(k->ns, 0, sizeof(k->ns));
	k->queued = 0;
	k->lost = 0;
	k->npart = k->ncul = k->npcul = k->nwcpu = 0;
	k->maxdepth = maxdepth;
	k->preempt_only = preempt_only;
	k->w = n ? 1.0 / (double)n : 1;
	if (n == 1 && maxdepth > 0 && hb->gaps[g].queued_at > p->ts) {
		/*
		 * The work of the launch that ended the gap was queued at q: until
		 * then the dispatch thread had nothing to launch, whatever it was
		 * doing (asleep, or waiting for a CPU after a timer): that time is
		 * the queuing thread's, as a sleep it ended would be.
		 */
		uint64_t q = hb->gaps[g].queued_at < p->ts + p->dur ? hb->gaps[g].queued_at : p->ts + p->dur;
		uint32_t d = hb->gap_tids[hb->gap_first[g]];
		uint32_t m = (uint32_t)(hb_thread_by_tid(hb, hb->gaps[g].queuer) - hb->threads);

		k->chain[0] = d;
		k->chain[1] = m;
		k->queued += (double)(q - p->ts);
		walk(k, m, p->ts, q, 1);
		if (q < p->ts + p->dur)
			walk(k, d, q, p->ts + p->dur, 0);
		return;
	}
	for (size_t i = hb->gap_first[g]; i < hb->gap_first[g + 1]; i++) {
		k->chain[0] = hb->gap_tids[i];
		walk(k, hb->gap_tids[i], p->ts, p->ts + p->dur, 0);
	}
	if (!n)
		k->ns[FTS_HB_UNKNOWN] = (double)p->dur;
}

static enum fts_hb_cat largest(const double *ns)
{
	enum fts_hb_cat v = FTS_HB_UNKNOWN;

	for (int c = 0; c < FTS_HB__COUNT; c++) {
		if (ns[c] > ns[v])
			v = (enum fts_hb_cat)c;
	}
	return v;
}

static int cmp_tally(const void *a, const void *b)
{
	const struct tally *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* The name thread @ti had in the gap: the lane it spent most of the gap's slices on. */
static uint32_t name_in_gap(const struct walk *k, uint32_t ti)
{
	struct tally by[8];
	size_t n = 0;

	for (size_t i = seg_from(k, ti, 0); i < k->nseg && k->seg[i].thread == ti; i++) {
		if (k->seg[i].lname != FTS_HB_NONE)
			tally_add(by, &n, 8, k->seg[i].lname, 0, (double)(k->seg[i].e - k->seg[i].s), 0);
	}
	if (!n)
		return k->hb->threads[ti].name;
	qsort(by, n, sizeof(*by), cmp_tally);
	return by[0].task;
}

/* "18.2 ms" / "350 us" */
static void dur_text(char *dst, size_t len, double ns)
{
	if (ns >= 1e6)
		snprintf(dst, len, "%.1f ms", ns / 1e6);
	else
		snprintf(dst, len, "%.0f us", ns / 1e3);
}

static const char *const role_text[] = {
	[FTS_HB_ROLE_DISPATCH] = "dispatch thread", [FTS_HB_ROLE_MAIN] = "main thread",
	[FTS_HB_ROLE_OTHER] = "thread",
};

/*
 * "main thread python:12 preempted 18.2 ms behind hog:123 on CPU 0 (17.9 ms)
 * in aten::add", without the thread when @named (the clause before named it).
 */
static size_t clause(char *buf, size_t len, const struct fts_hostbound *hb, const struct fts_hb_part *q,
		     int named)
{
	char d[32], d2[32];
	size_t n = 0;

	dur_text(d, sizeof(d), q->ns);
	if (!named)
		n = (size_t)snprintf(buf, len, "%s %s ", role_text[q->role], fts_hostbound_str(hb, q->thread));
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s %s", fts_hostbound_cat_name(q->cat), d);
	if (q->culprit != FTS_HB_NONE && n < len) {
		const char *who = fts_hostbound_str(hb, q->culprit);

		dur_text(d2, sizeof(d2), q->culprit_ns);
		n += (size_t)snprintf(buf + n, len - n, " %s %s%s on CPU %d (%s)", q->cat == FTS_HB_IRQ ? "from" : "behind",
				      who, hb_ours(who) ? " (ftscope's own)" : "", q->culprit_cpu, d2);
	}
	if (q->op != FTS_HB_NONE && n < len)
		n += (size_t)snprintf(buf + n, len - n, " in %s", fts_hostbound_str(hb, q->op));
	return n < len ? n : len - 1;
}

/*
 * Why the dispatch thread slept when a chain piece @q explains it: the main
 * thread woke it when it queued work; another of the profiler's threads
 * woke it when it let go of what the dispatch thread waited for (a lock).
 */
static const char *why_idle(const struct fts_hb_part *q)
{
	return q->role == FTS_HB_ROLE_MAIN ? "no work queued" : "waited for another thread";
}

/*
 * The gap's verdict in one line, from its largest piece, and the next one
 * worth a fifth of the gap: "dispatch idle: no work queued (18.3 ms); main
 * thread python:12 preempted 18.2 ms behind hog:123 on CPU 0 (17.9 ms)".
 */
static uint32_t make_line(struct fts_hostbound *hb, const struct fts_hb_gap *p, double lost)
{
	const struct fts_hb_part *q = &p->parts[0];
	char buf[1024], d[32];
	size_t n = 0;

	if (q->ns <= 0 || (q->cat == FTS_HB_UNKNOWN && p->outside_ns >= 0.5 * q->ns)) {
		dur_text(d, sizeof(d), p->outside_ns > 0 ? p->outside_ns : (double)p->dur);
		snprintf(buf, sizeof(buf), p->outside_ns > 0 ? "unknown: %s outside the capture" :
			 "unknown: %s, no trace of the dispatch thread", d);
		return hb_intern(hb, buf);
	}
	/* the kernel dropped the events of that time: say so, guess nothing */
	if (q->cat == FTS_HB_UNKNOWN && lost >= 0.5 * q->ns) {
		dur_text(d, sizeof(d), lost);
		snprintf(buf, sizeof(buf), "unknown: %s in lost events (the capture dropped them)", d);
		return hb_intern(hb, buf);
	}
	if (q->depth > 0) {
		dur_text(d, sizeof(d), p->queued_ns);
		n = (size_t)snprintf(buf, sizeof(buf), "dispatch idle: %s (%s); ", why_idle(q), d);
	}
	n += clause(buf + n, sizeof(buf) - n, hb, q, 0);
	for (int i = 1; i < FTS_HB_PARTS && n + 20 < sizeof(buf); i++) {
		const struct fts_hb_part *r = &p->parts[i];

		if (r->ns < 0.2 * (double)p->dur || r->cat == FTS_HB_UNKNOWN)
			continue;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "; %s%s", r->depth && !q->depth ? why_idle(r) : "",
				      r->depth && !q->depth ? ": " : "");
		/* the same thread again: "...; preempted 5.0 ms behind ..." */
		n += clause(buf + n, sizeof(buf) - n, hb, r, r->tid == q->tid && r->depth == q->depth);
		break;
	}
	return hb_intern(hb, buf);
}

/* The task that held the CPU longest while piece @who (walk.part, category) waited. */
static void part_culprit(struct fts_hb_part *q, const struct walk *k, uint32_t who)
{
	for (size_t i = 0; i < k->npcul; i++) {
		const struct tally *t = &k->pcul[i];

		if (t->who == who && (t->ns > q->culprit_ns || (t->ns == q->culprit_ns && t->task < q->culprit))) {
			q->culprit = t->task;
			q->culprit_cpu = t->cpu;
			q->culprit_ns = t->ns;
		}
	}
}

static int cmp_part(const void *a, const void *b)
{
	const struct fts_hb_part *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return (x->cat > y->cat) - (x->cat < y->cat);
}

/* The largest (thread, category) pieces of the causes, with their names and ops. */
static void make_parts(struct fts_hostbound *hb, struct fts_hb_gap *p, const struct walk *k)
{
	struct fts_hb_part all[MAX_PARTS * FTS_HB__COUNT];
	uint64_t span[MAX_PARTS * FTS_HB__COUNT][3];
	size_t n = 0;

	for (size_t i = 0; i < k->npart; i++) {
		for (int c = 0; c < FTS_HB__COUNT; c++) {
			const struct part *q = &k->part[i];

			if (q->ns[c] < 0.5)
				continue;
			all[n] = (struct fts_hb_part){ hb->threads[q->thread].tid, name_in_gap(k, q->thread),
						       hb->threads[q->thread].role, q->depth, (enum fts_hb_cat)c,
						       q->ns[c], FTS_HB_NONE, FTS_HB_NONE, -1, 0 };
			/* the op of the piece's longest slice, found after sorting: keep it with it */
			span[n][0] = q->best_s[c];
			span[n][1] = q->best_e[c];
			span[n][2] = i * FTS_HB__COUNT + (size_t)c;
			all[n].op = (uint32_t)n;
			n++;
		}
	}
	qsort(all, n, sizeof(*all), cmp_part);
	for (size_t i = 0; i < FTS_HB_PARTS; i++) {
		const uint64_t *sp = i < n ? span[all[i].op] : NULL;

		if (i >= n) {
			p->parts[i] = (struct fts_hb_part){ -1, FTS_HB_NONE, FTS_HB_ROLE_OTHER, 0, FTS_HB_UNKNOWN, 0,
							    FTS_HB_NONE, FTS_HB_NONE, -1, 0 };
			continue;
		}
		p->parts[i] = all[i];
		p->parts[i].op = all[i].cat == FTS_HB_UNKNOWN ? FTS_HB_NONE :
			hb_op_over(hb, all[i].tid, sp[0], sp[1], OP_SHARE);
		if (all[i].cat == FTS_HB_PREEMPTED || all[i].cat == FTS_HB_WAITING || all[i].cat == FTS_HB_IRQ)
			part_culprit(&p->parts[i], k, (uint32_t)sp[2]);
	}
}

/* The (thread, depth) that holds most of the cause's time, its name and op. */
static void cause_of(struct fts_hostbound *hb, struct fts_hb_gap *p, const struct walk *k)
{
	const struct part *best = NULL;
	enum fts_hb_cat c = p->cause;

	for (size_t i = 0; i < k->npart; i++) {
		if (!best || k->part[i].ns[c] > best->ns[c])
			best = &k->part[i];
	}
	p->cause_tid = -1;
	p->cause_thread = FTS_HB_NONE;
	p->cause_op = FTS_HB_NONE;
	p->cause_depth = 0;
	p->cause_role = FTS_HB_ROLE_OTHER;
	if (!best || best->ns[c] <= 0)
		return;
	p->cause_tid = hb->threads[best->thread].tid;
	p->cause_thread = name_in_gap(k, best->thread);
	p->cause_role = hb->threads[best->thread].role;
	p->cause_depth = best->depth;
	if (c != FTS_HB_UNKNOWN)
		p->cause_op = hb_op_over(hb, p->cause_tid, best->best_s[c], best->best_e[c], OP_SHARE);
}

static uint64_t outside(const struct fts_hostbound *hb, const struct fts_hb_gap *p)
{
	uint64_t a = p->ts, b = p->ts + p->dur, in_a, in_b;

	if (hb->first_ts >= hb->last_end)
		return p->dur;
	in_a = a > hb->first_ts ? a : hb->first_ts;
	in_b = b < hb->last_end ? b : hb->last_end;
	return in_b > in_a ? p->dur - (in_b - in_a) : p->dur;
}

/* The dispatch thread's own state (the old verdict), into @p. */
static void own_state(struct fts_hostbound *hb, struct fts_hb_gap *p, struct walk *k, size_t g)
{
	walk_gap(hb, k, g, 0, 1);
	memcpy(p->ns, k->ns, sizeof(p->ns));
	p->verdict = largest(p->ns);
	if (k->ncul)   /* qsort wants an array, even of none */
		qsort(k->cul, k->ncul, sizeof(*k->cul), cmp_tally);
	p->preempter = k->ncul ? k->cul[0].task : FTS_HB_NONE;
	p->preempter_cpu = k->ncul ? k->cul[0].cpu : -1;
	p->preempter_ns = k->ncul ? k->cul[0].ns : 0;
	qsort(k->wcpu, k->nwcpu, sizeof(*k->wcpu), cmp_tally);
	p->wait_cpu = k->nwcpu ? k->wcpu[0].cpu : -1;
	p->wait_cpu_ns = k->nwcpu ? k->wcpu[0].ns : 0;
	p->thread = p->tid >= 0 ? name_in_gap(k, (uint32_t)(hb_thread_by_tid(hb, p->tid) - hb->threads))
				: FTS_HB_NONE;
	p->op = hb_op_over(hb, p->tid, p->ts, p->ts + p->dur, 0);
}

static int settle_gap(struct fts_hostbound *hb, struct walk *k, size_t g)
{
	struct fts_hb_gap *p = &hb->sorted[g];

	*p = hb->gaps[g].pub;
	own_state(hb, p, k, g);
	walk_gap(hb, k, g, FTS_HB_MAX_DEPTH, 0);
	memcpy(p->cause_ns, k->ns, sizeof(p->cause_ns));
	p->cause = largest(p->cause_ns);
	p->queued_ns = k->queued;
	p->outside_ns = (double)outside(hb, p);
	if (k->ncul)   /* qsort wants an array, even of none */
		qsort(k->cul, k->ncul, sizeof(*k->cul), cmp_tally);
	for (size_t i = 0; i < FTS_HB_CULPRITS; i++) {
		struct fts_hb_culprit *c = &p->culprits[i];

		*c = (struct fts_hb_culprit){ FTS_HB_NONE, -1, 0, 0 };
		if (i < k->ncul) {
			*c = (struct fts_hb_culprit){ k->cul[i].task, k->cul[i].cpu, k->cul[i].ns, 0 };
			c->ours = hb_ours(fts_hostbound_str(hb, c->task));
		}
	}
	cause_of(hb, p, k);
	make_parts(hb, p, k);
	p->line = make_line(hb, p, k->lost);
	/* FTS_HB_NONE is UINT32_MAX, the strings' out of memory: the line is never none */
	return p->line == UINT32_MAX ? -ENOMEM : 0;
}

int hb_settle(struct fts_hostbound *hb)
{
	struct walk *k = calloc(1, sizeof(*k));
	size_t si = 0, ri = 0, ii = 0;
	int rc = 0;

	if (!k)
		return -ENOMEM;
	k->hb = hb;
	if (hb->nsegs)
		qsort(hb->segs, hb->nsegs, sizeof(*hb->segs), cmp_seg);
	if (hb->nruns)
		qsort(hb->runs, hb->nruns, sizeof(*hb->runs), cmp_run);
	if (hb->nirqs)
		qsort(hb->irqs, hb->nirqs, sizeof(*hb->irqs), cmp_run);
	for (size_t g = 0; g < hb->ngaps && !rc; g++) {
		size_t se = si, re = ri, ie = ii;

		while (se < hb->nsegs && hb->segs[se].gap == g)
			se++;
		while (re < hb->nruns && hb->runs[re].gap == g)
			re++;
		while (ie < hb->nirqs && hb->irqs[ie].gap == g)
			ie++;
		k->seg = hb->segs + si;
		k->nseg = se - si;
		k->run = hb->runs + ri;
		k->nrun = re - ri;
		k->irq = hb->irqs + ii;
		k->nirq = ie - ii;
		rc = settle_gap(hb, k, g);
		si = se;
		ri = re;
		ii = ie;
	}
	rc = rc ? rc : k->oom ? -ENOMEM : 0;
	free(k->cul);
	free(k->pcul);
	free(k);
	return rc;
}
