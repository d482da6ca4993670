// SPDX-License-Identifier: MIT
/*
 * top_engine.c - the live top's figures, computed by the same engines as
 * `ftscope stats`: ring-buffer pages -> dat_decode.c (the trace.dat
 * reader's decoder) -> the sched model -> windowed fts_stats. So the top and
 * `ftscope stats --window` cannot disagree on what is Runnable, what is a
 * wakeup, or how long a task ran.
 *
 * Pages arrive per CPU, each CPU at its own pace (the kernel hands over full
 * pages), while the model wants one time-ordered stream. Each CPU keeps its
 * pages not yet merged; records are merged up to a watermark: no CPU will
 * still deliver anything older (each CPU's newest page starts after it), or,
 * so that one idle CPU cannot hold the view back, TOP_LAG_NS before the
 * newest page seen. A record older than what was already merged (a CPU that
 * lagged more than that) is dropped and counted as late. At the end
 * everything left is merged and the model closes its open slices, as
 * fts_model_finish does for a whole trace.
 *
 * The window: one fts_stats per second of trace time (a slot), made anew when
 * the merge enters a new second; the model's items go to the slots they
 * overlap, clipped there. The figures are the sums over the last @window_s
 * slots, so they are exactly `ftscope stats --window` over that span. The
 * model declares each lane once, so the lanes are kept here and declared to
 * a slot when its first item on them comes: a slot holds only the tasks of
 * its second, and memory does not grow with every task the recording saw.
 */
#include "core/record/record_local.h"
#include "core/model/stats_lean.h"
#include "core/model/timemap_impl.h"
#include "core/trace/dat_decode.h"
#include "core/trace/dat_pages.h"
#include "core/util/strtab.h"
#include "ftscope/sched_model.h"
#include "ftscope/stats.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#define NS 1000000000ull
#define TOP_LAG_NS (1 * NS)
#define NO_SEC UINT64_MAX

/* One CPU's pages not merged yet, and its read position in them. */
struct eng_cpu {
	int cpu;                   /* the CPU number */
	unsigned char **pg;        /* whole pages, oldest first (records point into them) */
	unsigned char *gap;        /* per page of @pg: pages were skipped before it */
	int gap_next;              /* the next page added follows skipped ones */
	size_t npages, cap;
	size_t at;                 /* the page being read; those before it are done */
	unsigned char **spare;     /* done pages, for reuse */
	size_t nspare;
	size_t nbuf;               /* page buffers this CPU owns (in @pg, @spare or lent): <= @cap */
	struct dat_page_walk w;    /* the records of pages[at] when loaded */
	uint32_t ri;               /* the next of them */
	int loaded;
	struct tep_record rec;     /* the next record when has_rec */
	int has_rec;
	int in_heap;               /* in the merge's heap (it has a record peeked) */
	uint64_t complete;         /* later records of this CPU are not older than this */
	int seen;                  /* a page has arrived */
};

/* One task's sums over the window's slots. */
struct eng_sum {
	uint64_t run_ns, cpu_ns;
	int pid;
	char comm[16];
};

/* A row of a slot's stats, what the figures read of it (tid: an id in lane_names). */
struct slot_row {
	uint32_t tid;
	int pid;
	uint64_t run_ns, cpu_ns, wake_max_ns;
	char comm[16];
};

/*
 * A slot's rows, kept until an item reaches the slot: only the slots that
 * changed since the last figures are finished and read again (mostly the
 * newest second), not the whole window at every tick.
 */
struct slot_rows {
	struct slot_row *v;
	size_t n, cap;
	int ok;                    /* @v is the slot's rows as of now */
};

/* A lane the model declared (its tid in the engine's lane_names). */
struct eng_lane {
	enum fts_lane_group group;
	int32_t sort_index;
	uint32_t tid;
};

struct rec_top_engine {
	struct fts_dat_dec *dec;
	struct dat_page_fmt pfmt;
	int n;
	struct eng_cpu *c;
	int *heap;                 /* indexes into @c, see heap_push */
	int nheap;
	uint64_t fed_ts;           /* the newest record merged */
	uint64_t first_ts;         /* the first one (0: none yet) */
	int any;
	uint64_t late, corrupt;
	uint64_t records;          /* merged */
	uint64_t by_type[FTS_EV__COUNT];  /* of them, decoded, per event type */

	struct fts_timemap tm;
	struct fts_model *model;
	struct fts_sink tee;       /* the model's sink: lanes to every slot, items where they fall */
	int window_s;
	struct fts_stats **slot;   /* slot[s % window_s] counts second s */
	uint64_t *slot_sec;
	unsigned char **declared;  /* per slot: lane id -> declared to it */
	uint32_t *ndeclared;       /* per slot: entries in declared[] */
	struct eng_lane *lanes;    /* by lane id */
	uint32_t nlanes, cap_lanes;
	struct fts_strtab lane_names;
	uint64_t sec_max;          /* the newest second with a slot, NO_SEC before any */
	int finished;
	struct fts_err err;        /* the model's or a slot's failure */
	int failed;
	const struct rec_trig_rule *rules;  /* the flight recorder's triggers (borrowed) */
	int nrules;
	struct rec_trig_hit hit;   /* the first hit since the last take (hit.count > 0) */
	int triggers_only;         /* no slots: the model runs for the triggers alone */
	uint64_t gen;              /* bumped by every record merged and every model item */
	uint64_t fig_gen;          /* @gen when @fig was computed */
	int fig_ok;                /* @fig holds the figures of @fig_gen */
	struct fts_record_top fig; /* the last figures: an idle tick repeats them, not recounts */
	struct slot_rows *srows;   /* per slot: its rows as the figures read them */
	struct eng_sum *acc;       /* by tid id (lane_names): the window's sums in one count */
	uint32_t *stamp;           /* by tid id: the count that last touched acc[id] */
	uint32_t *order;           /* the tids in the order the count first met them */
	size_t cap_acc;
	uint32_t count;            /* figures counted so far (stamps) */
};

/* ---- the tee: model items into the slots ---------------------------------------- */

#define ENGINE_OF(sink) ((struct rec_top_engine *)((char *)(sink) - offsetof(struct rec_top_engine, tee)))

/* Keep the lane: each slot gets it with its first item on it. */
static int tee_lane(struct fts_sink *s, const struct fts_lane *l, struct fts_err *err)
{
	struct rec_top_engine *e = ENGINE_OF(s);
	uint32_t tid;

	e->gen++;
	if (l->id >= e->cap_lanes) {
		uint32_t nc = e->cap_lanes ? e->cap_lanes : 256;
		struct eng_lane *p;

		while (nc <= l->id)
			nc *= 2;
		p = realloc(e->lanes, nc * sizeof(*p));
		if (!p)
			return fts_err_set(err, -ENOMEM, "out of memory (live top lanes)");
		e->lanes = p;
		e->cap_lanes = nc;
	}
	tid = fts_strtab_intern(&e->lane_names, l->tid, strlen(l->tid));
	if (tid == UINT32_MAX)
		return fts_err_set(err, -ENOMEM, "out of memory (live top lanes)");
	e->lanes[l->id] = (struct eng_lane){ l->group, l->sort_index, tid };
	if (l->id >= e->nlanes)
		e->nlanes = l->id + 1;
	return 0;
}

/* Declare lane @id to slot @i unless it has it. */
static int slot_lane(struct rec_top_engine *e, int i, uint32_t id, struct fts_err *err)
{
	struct fts_sink *k = fts_stats_sink(e->slot[i]);
	struct fts_lane l;

	if (id >= e->nlanes)
		return 0;   /* an undeclared lane: the slot itself reports it */
	if (id >= e->ndeclared[i]) {
		uint32_t nc = e->nlanes > 256 ? e->nlanes : 256;
		unsigned char *p = realloc(e->declared[i], nc);

		if (!p)
			return fts_err_set(err, -ENOMEM, "out of memory (live top lanes)");
		memset(p + e->ndeclared[i], 0, nc - e->ndeclared[i]);
		e->declared[i] = p;
		e->ndeclared[i] = nc;
	}
	if (e->declared[i][id])
		return 0;
	l = (struct fts_lane){ id, e->lanes[id].group, e->lanes[id].sort_index,
			       fts_strtab_get(&e->lane_names, e->lanes[id].tid) };
	e->declared[i][id] = 1;
	return k->lane(k, &l, err);
}

/* A Runnable slice against the triggers: the first hit is kept, later ones only counted. */
static void tee_trigger(struct rec_top_engine *e, const struct fts_item *it)
{
	const char *tid;

	if (it->lane >= e->nlanes || e->lanes[it->lane].group != FTS_GROUP_TASK)
		return;
	tid = fts_strtab_get(&e->lane_names, e->lanes[it->lane].tid);
	for (int r = 0; r < e->nrules; r++) {
		if (!rec_trig_match(&e->rules[r], it, tid))
			continue;
		if (!e->hit.count) {
			e->hit.rule = r;
			e->hit.ts = it->ts + it->dur;
			e->hit.value_ns = it->dur;
			rec_trig_safe_text(tid, e->hit.task, sizeof(e->hit.task));
		}
		e->hit.count++;
		return;
	}
}

static int tee_item(struct fts_sink *s, const struct fts_item *it, struct fts_err *err)
{
	struct rec_top_engine *e = ENGINE_OF(s);
	uint64_t s0 = it->ts / NS, s1 = it->dur ? (it->ts + it->dur - 1) / NS : s0;

	e->gen++;
	if (e->nrules && it->kind == FTS_ITEM_RUNNABLE)
		tee_trigger(e, it);
	if (e->triggers_only)
		return 0;
	if (e->sec_max == NO_SEC)
		return 0;
	if (s1 > e->sec_max)
		s1 = e->sec_max;
	if (e->sec_max >= (uint64_t)e->window_s && s0 < e->sec_max - (uint64_t)e->window_s + 1)
		s0 = e->sec_max - (uint64_t)e->window_s + 1;
	for (uint64_t sec = s0; sec <= s1 && sec != NO_SEC; sec++) {
		int i = (int)(sec % (uint64_t)e->window_s);
		struct fts_sink *k;
		int rc;

		if (e->slot_sec[i] != sec)
			continue;
		k = fts_stats_sink(e->slot[i]);
		e->srows[i].ok = 0;
		rc = slot_lane(e, i, it->lane, err);
		if (!rc)
			rc = k->item(k, it, err);
		if (rc)
			return rc;
	}
	return 0;
}

static int tee_finish(struct fts_sink *s, int ok, struct fts_err *err)
{
	(void)s;
	(void)ok;
	(void)err;
	return 0;
}

static void tee_destroy(struct fts_sink *s)
{
	(void)s;
}

/* Fresh slots for every second up to @sec (the merge reached it); older ones go. */
static int slots_advance(struct rec_top_engine *e, uint64_t sec)
{
	uint64_t from;

	if (e->sec_max != NO_SEC && sec <= e->sec_max)
		return 0;
	from = e->sec_max == NO_SEC || sec - e->sec_max > (uint64_t)e->window_s ?
	       (sec >= (uint64_t)e->window_s - 1 ? sec - (uint64_t)e->window_s + 1 : 0) : e->sec_max + 1;
	for (uint64_t s = from; s <= sec; s++) {
		int i = (int)(s % (uint64_t)e->window_s);
		struct fts_stats_opts o = { .has_window = 1, .win_begin = s * NS, .win_end = (s + 1) * NS };

		fts_stats_free(e->slot[i]);
		e->slot[i] = NULL;
		if (fts_stats_create(&o, &e->slot[i], &e->err))
			return -ENOMEM;
		fts_stats_max_only(e->slot[i]);   /* the top shows the worst wakeup, no percentile */
		e->slot_sec[i] = s;
		e->srows[i].ok = 0;
		if (e->ndeclared[i])
			memset(e->declared[i], 0, e->ndeclared[i]);
	}
	e->sec_max = sec;
	return 0;
}

/* ---- pages and the merge --------------------------------------------------------- */

/* Page @c->at is read to its end: keep its buffer for a later page. */
static void cpu_next_page(struct eng_cpu *c)
{
	c->spare[c->nspare++] = c->pg[c->at];
	c->pg[c->at++] = NULL;
	c->loaded = 0;
	if (c->at == c->npages)
		c->npages = c->at = 0;
}

/*
 * The next record of CPU @c into c->rec (has_rec), or none for now. A page
 * is walked once (dat_pages.c: checked and its records found in one pass);
 * a bad one is skipped whole and counted.
 */
static void cpu_peek(struct rec_top_engine *e, struct eng_cpu *c)
{
	while (!c->has_rec && c->at < c->npages) {
		unsigned char *page = c->pg[c->at];
		const struct dat_page_rec *r;

		if (!c->loaded) {
			if (fts_dat_page_walk(&e->pfmt, page, &c->w)) {
				e->corrupt++;
				cpu_next_page(c);
				continue;
			}
			c->loaded = 1;
			c->ri = 0;
		}
		if (c->ri >= c->w.n) {
			cpu_next_page(c);
			continue;
		}
		/* the fields the decoder reads; the rest stay zero from calloc */
		r = &c->w.rec[c->ri];
		c->rec.ts = r->ts;
		c->rec.size = (int)r->size;
		/* skipped pages are lost events to the model (count unknown): no state carried over */
		c->rec.missed_events = c->ri ? 0 : c->gap[c->at] ? -1 : c->w.missed;
		c->rec.cpu = c->cpu;
		c->rec.data = page + r->off;
		c->rec.ref_count = 1;
		c->ri++;
		c->has_rec = 1;
	}
}

static int feed(struct rec_top_engine *e, const struct fts_event *ev)
{
	if ((!e->triggers_only && slots_advance(e, ev->ts / NS)) || fts_model_event(e->model, ev, &e->err)) {
		e->failed = 1;
		return -1;
	}
	return 0;
}

/* Decode @r and hand it (after its lost-events marker, as the reader does) to the model. */
static int merge_one(struct rec_top_engine *e, const struct tep_record *r)
{
	struct fts_event ev;

	if (!e->any) {
		e->any = 1;
		e->first_ts = r->ts;
	}
	e->fed_ts = r->ts;
	e->records++;
	e->gen++;
	if (r->missed_events) {
		memset(&ev, 0, sizeof(ev));
		ev.ts = r->ts;
		ev.cpu = r->cpu;
		ev.pid = -1;
		ev.type = FTS_EV_LOST;
		ev.u.lost.count = r->missed_events > 0 ? (uint64_t)r->missed_events : 0;
		if (feed(e, &ev))
			return -1;
	}
	switch (fts_dat_decode(e->dec, r, &ev, NULL)) {
	case FTS_DAT_EVENT:
		if ((unsigned)ev.type < FTS_EV__COUNT)
			e->by_type[ev.type]++;
		return feed(e, &ev);
	case FTS_DAT_SHORT:
		e->corrupt++;
		return 0;
	default:
		return 0;
	}
}

/*
 * The merge's heap: the CPUs that have a record peeked, the oldest on top
 * (ties: lower CPU index). A scan of every CPU per record cost O(CPUs) per
 * event, 192 checks an event on a 192-CPU host; the heap costs O(log CPUs).
 */
static int heap_before(const struct rec_top_engine *e, int a, int b)
{
	uint64_t ta = e->c[a].rec.ts, tb = e->c[b].rec.ts;

	return ta < tb || (ta == tb && a < b);
}

static void heap_push(struct rec_top_engine *e, int i)
{
	int at = e->nheap++;

	while (at > 0 && heap_before(e, i, e->heap[(at - 1) / 2])) {
		e->heap[at] = e->heap[(at - 1) / 2];
		at = (at - 1) / 2;
	}
	e->heap[at] = i;
	e->c[i].in_heap = 1;
}

/* Sift @last down from the root (the root's slot is free). */
static void heap_down(struct rec_top_engine *e, int last)
{
	int at = 0;

	for (;;) {
		int k = 2 * at + 1;

		if (k >= e->nheap)
			break;
		if (k + 1 < e->nheap && heap_before(e, e->heap[k + 1], e->heap[k]))
			k++;
		if (!heap_before(e, e->heap[k], last))
			break;
		e->heap[at] = e->heap[k];
		at = k;
	}
	e->heap[at] = last;
}

static void heap_pop(struct rec_top_engine *e)
{
	int last = e->heap[--e->nheap];

	e->c[e->heap[0]].in_heap = 0;
	if (e->nheap)
		heap_down(e, last);
}

/* Merge every record not newer than @upto, in time order (ties: lower CPU index). */
static int merge_upto(struct rec_top_engine *e, uint64_t upto)
{
	/* CPUs out of the heap ran dry before: pages may have come since */
	for (int i = 0; i < e->n; i++) {
		if (e->c[i].in_heap)
			continue;
		cpu_peek(e, &e->c[i]);
		if (e->c[i].has_rec)
			heap_push(e, i);
	}
	while (e->nheap) {
		int i = e->heap[0];
		struct eng_cpu *best = &e->c[i];

		if (best->rec.ts > upto)
			return 0;
		best->has_rec = 0;
		if (e->any && best->rec.ts < e->fed_ts)
			e->late++;    /* its CPU lagged past TOP_LAG_NS: the model wants order */
		else if (merge_one(e, &best->rec))
			return -1;
		cpu_peek(e, best);
		/* its next record replaces it at the root: one sift instead of a pop and a push */
		if (best->has_rec)
			heap_down(e, i);
		else
			heap_pop(e);
	}
	return 0;
}

/* Room in @c's lists for one more page and one more buffer. 0 or -ENOMEM. */
static int cpu_room(struct eng_cpu *c)
{
	size_t cap = c->cap ? c->cap * 2 : 16;
	unsigned char **p, **sp, *g;

	if (c->npages < c->cap && c->nbuf < c->cap)
		return 0;
	p = realloc(c->pg, cap * sizeof(*p));
	if (p)
		c->pg = p;
	sp = p ? realloc(c->spare, cap * sizeof(*sp)) : NULL;
	if (sp)
		c->spare = sp;
	g = sp ? realloc(c->gap, cap * sizeof(*g)) : NULL;
	if (!g)
		return -ENOMEM;
	c->gap = g;
	c->cap = cap;
	return 0;
}

unsigned char *rec_top_engine_page_buf(struct rec_top_engine *e, int i)
{
	struct eng_cpu *c = &e->c[i];
	unsigned char *buf;

	if (c->nspare)
		return c->spare[--c->nspare];
	if (cpu_room(c))
		return NULL;
	buf = malloc((size_t)e->pfmt.page_size);
	if (buf)
		c->nbuf++;
	return buf;
}

void rec_top_engine_page_unused(struct rec_top_engine *e, int i, unsigned char *buf)
{
	struct eng_cpu *c = &e->c[i];

	c->spare[c->nspare++] = buf;   /* room: @spare holds every buffer the CPU owns */
}

int rec_top_engine_page_add(struct rec_top_engine *e, int i, unsigned char *buf)
{
	struct eng_cpu *c = &e->c[i];

	if (cpu_room(c)) {
		rec_top_engine_page_unused(e, i, buf);
		return -ENOMEM;
	}
	c->gap[c->npages] = (unsigned char)c->gap_next;
	c->gap_next = 0;
	c->pg[c->npages++] = buf;
	/* the page's base time: nothing this CPU delivers later is older */
	c->complete = fts_dat_page_ts(&e->pfmt, buf);
	c->seen = 1;
	return 0;
}

int rec_top_engine_page(struct rec_top_engine *e, int i, const void *page)
{
	unsigned char *buf = rec_top_engine_page_buf(e, i);

	if (!buf)
		return -ENOMEM;
	memcpy(buf, page, (size_t)e->pfmt.page_size);
	return rec_top_engine_page_add(e, i, buf);
}

void rec_top_engine_gap(struct rec_top_engine *e, int i)
{
	e->c[i].gap_next = 1;
}

/* The time up to which every CPU has delivered (or that the lag allows). */
static uint64_t watermark(const struct rec_top_engine *e)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (int i = 0; i < e->n; i++) {
		uint64_t t = e->c[i].seen ? e->c[i].complete : 0;

		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
	}
	if (hi > TOP_LAG_NS && hi - TOP_LAG_NS > lo)
		lo = hi - TOP_LAG_NS;
	return lo;
}

int rec_top_engine_tick(struct rec_top_engine *e, int final)
{
	uint64_t w = watermark(e);

	if (e->failed || e->finished)
		return e->failed ? -1 : 0;
	/* strictly older: a CPU's next page may start exactly at the watermark */
	if (merge_upto(e, final ? UINT64_MAX : w ? w - 1 : 0))
		return -1;
	if (final) {
		e->finished = 1;
		if (fts_model_finish(e->model, &e->err)) {
			e->failed = 1;
			return -1;
		}
	}
	return 0;
}

/* ---- the figures ------------------------------------------------------------------- */

static void rank(struct fts_record_top_task *list, int *n, const struct fts_record_top_task *x,
		 int by_cpu)
{
	int k = *n < FTS_RECORD_TOP_N ? *n : FTS_RECORD_TOP_N;
	double v = by_cpu ? x->cpu_s : x->runnable_s;

	if (v <= 0)
		return;
	while (k > 0 && v > (by_cpu ? list[k - 1].cpu_s : list[k - 1].runnable_s)) {
		if (k < FTS_RECORD_TOP_N)
			list[k] = list[k - 1];
		k--;
	}
	if (k < FTS_RECORD_TOP_N) {
		list[k] = *x;
		if (*n < FTS_RECORD_TOP_N)
			(*n)++;
	}
}

void rec_top_engine_window(const struct rec_top_engine *e, uint64_t *begin, uint64_t *end)
{
	uint64_t from = e->sec_max != NO_SEC && e->sec_max + 1 >= (uint64_t)e->window_s ?
			(e->sec_max + 1 - (uint64_t)e->window_s) * NS : 0;

	*begin = e->first_ts > from ? e->first_ts : from;
	*end = e->any ? e->fed_ts : *begin;
}

/* Slot @i's rows into e->srows[i] (its tids interned in lane_names). 0 or -ENOMEM. */
static int slot_read(struct rec_top_engine *e, int i)
{
	struct slot_rows *sr = &e->srows[i];
	struct fts_stats *st = e->slot[i];
	struct fts_err err = { 0 };
	size_t n;

	if (fts_stats_finish(st, &err))
		return -ENOMEM;
	n = fts_stats_ntasks(st);
	if (n > sr->cap) {
		struct slot_row *p = realloc(sr->v, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		sr->v = p;
		sr->cap = n;
	}
	for (size_t r = 0; r < n; r++) {
		const struct fts_task_stats *t = fts_stats_task(st, r);
		struct slot_row *x = &sr->v[r];

		x->tid = fts_strtab_intern(&e->lane_names, t->tid, strlen(t->tid));
		if (x->tid == UINT32_MAX)
			return -ENOMEM;
		x->pid = (int)t->pid;
		x->run_ns = t->runnable_ns;
		x->cpu_ns = t->running_ns;
		x->wake_max_ns = t->wake_max_ns;
		fts_copy_str(x->comm, sizeof(x->comm), t->comm, -1);
	}
	sr->n = n;
	sr->ok = 1;
	return 0;
}

/* Room in the count's arrays for every tid id. 0 or -ENOMEM. */
static int acc_room(struct rec_top_engine *e)
{
	size_t need = e->lane_names.n, nc = e->cap_acc ? e->cap_acc : 256;
	struct eng_sum *a;
	uint32_t *st, *o;

	if (need <= e->cap_acc)
		return 0;
	while (nc < need)
		nc *= 2;
	a = realloc(e->acc, nc * sizeof(*a));
	if (a)
		e->acc = a;
	st = a ? realloc(e->stamp, nc * sizeof(*st)) : NULL;
	if (st)
		e->stamp = st;
	o = st ? realloc(e->order, nc * sizeof(*o)) : NULL;
	if (!o)
		return -ENOMEM;
	e->order = o;
	memset(e->stamp + e->cap_acc, 0, (nc - e->cap_acc) * sizeof(*st));
	e->cap_acc = nc;
	return 0;
}

/*
 * Adds slot @i's rows into the sums (by tid; the tids met first go first,
 * so ties rank as before); the worst wakeup into @out.
 */
static void sum_slot(struct rec_top_engine *e, int i, uint32_t *norder, struct fts_record_top *out)
{
	const struct slot_rows *sr = &e->srows[i];

	for (size_t r = 0; r < sr->n; r++) {
		const struct slot_row *t = &sr->v[r];
		struct eng_sum *x = &e->acc[t->tid];

		if (e->stamp[t->tid] != e->count) {
			e->stamp[t->tid] = e->count;
			memset(x, 0, sizeof(*x));
			e->order[(*norder)++] = t->tid;
		}
		x->run_ns += t->run_ns;
		x->cpu_ns += t->cpu_ns;
		x->pid = t->pid;
		memcpy(x->comm, t->comm, sizeof(x->comm));
		if ((double)t->wake_max_ns / 1e6 > out->worst_wakeup_ms) {
			out->worst_wakeup_ms = (double)t->wake_max_ns / 1e6;
			out->worst_pid = t->pid;
			memcpy(out->worst_comm, t->comm, sizeof(out->worst_comm));
		}
	}
}

/* The event type with the most records so far, and its share of all merged records. */
static void dominant(const struct rec_top_engine *e, struct fts_record_top *out)
{
	int best = -1;

	for (int t = 0; t < FTS_EV__COUNT; t++)
		if (e->by_type[t] && (best < 0 || e->by_type[t] > e->by_type[best]))
			best = t;
	out->dominant[0] = '\0';
	out->dominant_share = 0;
	if (best < 0 || !e->records)
		return;
	snprintf(out->dominant, sizeof(out->dominant), "%s", fts_ev_type_name((enum fts_ev_type)best));
	out->dominant_share = (double)e->by_type[best] / (double)e->records;
}

/* The fields rec_top_engine_figures sets, from @from. */
static void figures_copy(struct fts_record_top *out, const struct fts_record_top *from)
{
	out->window_s = from->window_s;
	out->nrunnable = from->nrunnable;
	memcpy(out->runnable, from->runnable, sizeof(out->runnable));
	out->ncpu = from->ncpu;
	memcpy(out->cpu, from->cpu, sizeof(out->cpu));
	out->worst_wakeup_ms = from->worst_wakeup_ms;
	out->worst_pid = from->worst_pid;
	memcpy(out->worst_comm, from->worst_comm, sizeof(out->worst_comm));
	memcpy(out->dominant, from->dominant, sizeof(out->dominant));
	out->dominant_share = from->dominant_share;
}

static int figures_count(struct rec_top_engine *e, struct fts_record_top *out);

int rec_top_engine_figures(struct rec_top_engine *e, struct fts_record_top *out)
{
	int rc;

	/* nothing merged nor modelled since: the same figures (an idle recording's ticks) */
	if (e->fig_ok && e->fig_gen == e->gen) {
		figures_copy(out, &e->fig);
		return 0;
	}
	rc = figures_count(e, out);
	e->fig_ok = !rc;
	if (!rc) {
		figures_copy(&e->fig, out);
		e->fig_gen = e->gen;
	}
	return rc;
}

/* The slots in the window: second within the last @window_s. */
static int slot_in_window(const struct rec_top_engine *e, int i)
{
	return e->slot_sec[i] != NO_SEC && e->slot_sec[i] + (uint64_t)e->window_s > e->sec_max;
}

/* The figures counted from the slots (those unchanged since the last count are not reread). */
static int figures_count(struct rec_top_engine *e, struct fts_record_top *out)
{
	uint64_t begin, end;
	uint32_t norder = 0;
	int rc = 0;

	out->nrunnable = out->ncpu = 0;
	out->worst_wakeup_ms = 0;
	out->worst_pid = 0;
	out->worst_comm[0] = '\0';
	rec_top_engine_window(e, &begin, &end);
	out->window_s = (double)(end - begin) / 1e9;
	dominant(e, out);
	if (e->sec_max == NO_SEC)
		return 0;
	for (int i = 0; !rc && i < e->window_s; i++) {
		if (slot_in_window(e, i) && !e->srows[i].ok)
			rc = slot_read(e, i);
	}
	if (rc || (rc = acc_room(e)))
		return rc;
	if (++e->count == 0) {   /* the stamps wrapped: none may look current */
		memset(e->stamp, 0, e->cap_acc * sizeof(*e->stamp));
		e->count = 1;
	}
	for (int i = 0; i < e->window_s; i++) {
		if (slot_in_window(e, i))
			sum_slot(e, i, &norder, out);
	}
	for (uint32_t k = 0; k < norder; k++) {
		const struct eng_sum *sum = &e->acc[e->order[k]];
		struct fts_record_top_task x = { .pid = sum->pid };

		memcpy(x.comm, sum->comm, sizeof(x.comm));
		x.runnable_s = (double)sum->run_ns / 1e9;
		x.cpu_s = (double)sum->cpu_ns / 1e9;
		rank(out->runnable, &out->nrunnable, &x, 0);
		rank(out->cpu, &out->ncpu, &x, 1);
	}
	return 0;
}

void rec_top_engine_counts(const struct rec_top_engine *e, uint64_t *records, uint64_t *late,
			   uint64_t *corrupt)
{
	*records = e->records;
	*late = e->late;
	*corrupt = e->corrupt;
}

const char *rec_top_engine_error(const struct rec_top_engine *e)
{
	return e->failed ? e->err.msg : NULL;
}

void rec_top_engine_triggers(struct rec_top_engine *e, const struct rec_trig_rule *rules, int n, int figures)
{
	e->rules = rules;
	e->nrules = rules ? n : 0;
	e->triggers_only = !figures && e->nrules;
}

int rec_top_engine_take_hit(struct rec_top_engine *e, struct rec_trig_hit *out)
{
	if (!e->hit.count)
		return 0;
	*out = e->hit;
	memset(&e->hit, 0, sizeof(e->hit));
	return 1;
}

/* ---- lifetime ------------------------------------------------------------------------ */

static int engine_cpus(struct rec_top_engine *e, const int *cpus)
{
	e->c = calloc((size_t)e->n, sizeof(*e->c));
	e->heap = calloc((size_t)e->n + 1, sizeof(*e->heap));
	if (!e->c || !e->heap)
		return -ENOMEM;
	for (int i = 0; i < e->n; i++) {
		e->c[i].cpu = cpus[i];
		if (fts_dat_page_walk_init(&e->c[i].w, e->pfmt.page_size))
			return -ENOMEM;
	}
	return 0;
}

static int engine_slots(struct rec_top_engine *e, struct fts_err *err)
{
	e->slot = calloc((size_t)e->window_s, sizeof(*e->slot));
	e->slot_sec = malloc((size_t)e->window_s * sizeof(*e->slot_sec));
	e->declared = calloc((size_t)e->window_s, sizeof(*e->declared));
	e->ndeclared = calloc((size_t)e->window_s, sizeof(*e->ndeclared));
	e->srows = calloc((size_t)e->window_s, sizeof(*e->srows));
	if (!e->slot || !e->slot_sec || !e->declared || !e->ndeclared || !e->srows)
		return fts_err_set(err, -ENOMEM, "out of memory (live top)");
	for (int i = 0; i < e->window_s; i++)
		e->slot_sec[i] = NO_SEC;   /* its collector comes with its second */
	return 0;
}

int rec_top_engine_new(struct tep_handle *tep, int n, const int *cpus, int page_size, int window_s,
		       struct rec_top_engine **out, struct fts_err *err)
{
	struct rec_top_engine *e = calloc(1, sizeof(*e));
	struct fts_model_opts mo = { 0 };
	int rc;

	*out = NULL;
	if (!e)
		return fts_err_set(err, -ENOMEM, "out of memory (live top)");
	e->n = n;
	e->window_s = window_s > 0 ? window_s : 1;
	e->sec_max = NO_SEC;
	fts_strtab_init(&e->lane_names);
	e->pfmt.page_size = page_size;
	e->pfmt.commit_size = tep_get_header_page_size(tep);
	e->pfmt.big_endian = tep_is_file_bigendian(tep);
	e->tee = (struct fts_sink){ .lane = tee_lane, .item = tee_item, .finish = tee_finish,
				    .destroy = tee_destroy };
	fts_timemap_raw(&e->tm);
	mo.tm = &e->tm;
	mo.lean = 1;   /* the figures and the triggers read only what a lean model makes */
	mo.holes_forget = 1;   /* a sampled tick's hole: no stale Runnable across it */
	if (tep_is_old_format(tep) || (e->pfmt.commit_size != 4 && e->pfmt.commit_size != 8) ||
	    page_size < 64) {
		rec_top_engine_free(e);
		return fts_err_set(err, -EINVAL, "the live top cannot read this ring-buffer page format");
	}
	e->dec = fts_dat_dec_new(tep);
	if (e->dec)   /* the lean model reads nothing of them but the common part */
		fts_dat_dec_skip_body(e->dec, FTS_EV_STAT_RUNTIME);
	rc = e->dec ? engine_cpus(e, cpus) : -ENOMEM;
	if (rc)
		rc = fts_err_set(err, rc, "out of memory (live top)");
	if (!rc)
		rc = engine_slots(e, err);
	if (!rc)
		rc = fts_model_create(&mo, &e->tee, &e->model, err);
	if (rc) {
		rec_top_engine_free(e);
		return rc;
	}
	*out = e;
	return 0;
}

void rec_top_engine_free(struct rec_top_engine *e)
{
	if (!e)
		return;
	fts_model_free(e->model);
	for (int i = 0; e->slot && i < e->window_s; i++)
		fts_stats_free(e->slot[i]);
	for (int i = 0; e->declared && i < e->window_s; i++)
		free(e->declared[i]);
	for (int i = 0; e->srows && i < e->window_s; i++)
		free(e->srows[i].v);
	free(e->srows);
	free(e->acc);
	free(e->stamp);
	free(e->order);
	free(e->slot);
	free(e->slot_sec);
	free(e->declared);
	free(e->ndeclared);
	free(e->lanes);
	fts_strtab_free(&e->lane_names);
	for (int i = 0; e->c && i < e->n; i++) {
		struct eng_cpu *c = &e->c[i];

		fts_dat_page_walk_free(&c->w);
		for (size_t p = c->at; p < c->npages; p++)
			free(c->pg[p]);
		for (size_t p = 0; p < c->nspare; p++)
			free(c->spare[p]);
		free(c->pg);
		free(c->gap);
		free(c->spare);
	}
	free(e->c);
	free(e->heap);
	fts_dat_dec_free(e->dec);
	free(e);
}
