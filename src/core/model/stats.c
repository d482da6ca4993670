// SPDX-License-Identifier: MIT
/*
 * stats.c - the triage statistics as a sink over lane items (stats.h).
 *
 * Data structures (a million tasks are a million records, so bytes count):
 *   - lanes[]: per declared lane id, its CPU number or its task's index.
 *     Task lanes are found by their tid, which is also how CPU-lane items
 *     name tasks (sched_switch prev_comm:prev_pid, irq/softirq `task`), so
 *     one string table of tids (util/strtab) joins them: a tid's id there is
 *     its task's index (a record is made for every tid interned, preempters
 *     too; one with nothing counted makes no row).
 *   - struct task: the counters the public row is made from (not the row:
 *     208 bytes, a third of them only known at finish), the latency
 *     samples, the CPU of its previous Running slice, and behind one
 *     pointer, allocated on first use (most tasks are never hit by an irq nor
 *     preempted), the irq counters and the per-irq-name and per-preempter
 *     accumulators (small arrays: a task is hit by a few irq names and
 *     preempted by a few tasks). Records sit in slabs of SLAB, never moved
 *     nor freed one by one: no allocator header, no pointer array, no copy
 *     when growing. 136 bytes.
 *   - row_task[]: which task each row is (finish picks the tasks with
 *     anything counted), and rows[], their order (sorting moves indexes,
 *     not rows). The public rows (208 bytes) are made from the counts a
 *     page of ROW_PAGE at a time when first asked for, and kept until the
 *     next finish: a preview of 1 M tasks shows a screenful and never pays
 *     208 MB for the rest (issue 21 item 14); sorting reads the counts.
 *   - cpus[]: per CPU number, the public row.
 *   - irq names in a second string table, so accumulators compare ids; the
 *     rows' string pointers are set from the ids when the rows are made (the
 *     tables' arenas move as they grow), and the comms, which only rows
 *     need, are cut from the tids into one block then.
 * Nothing is kept per item. A live view may finish, feed more and finish
 * again: the rows are made anew from the counts each time.
 */
#include "ftscope/stats.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/latency_hist.h"
#include "core/model/stats_lean.h"
#include "core/util/cpuset.h"
#include "core/util/strtab.h"

#define NO_STR UINT32_MAX
#define NO_TASK UINT32_MAX
#define SLAB_BITS 10
#define SLAB (1u << SLAB_BITS)
#define ROW_PAGE 1024u

struct named_acc {
	uint32_t name;     /* irqs: id in @names; preempters: task index (id in @tids) */
	uint64_t count;
	uint64_t ns;
};

struct acc_list {
	struct named_acc *v;
	size_t n, cap;
};

struct task_extra {
	uint64_t irq_count, irq_ns;
	uint64_t softirq_count, softirq_ns;
	struct acc_list irqs;        /* irq names and softirq actions */
	struct acc_list preempters;
};

/* The row's counters that every task may need (the names are the row's). */
struct counts {
	uint64_t running_ns, runnable_ns, sleeping_ns, blocked_ns, unknown_ns;
	uint64_t switches, involuntary, migrations;
	uint64_t first_ns, last_ns;
};

struct task {
	struct counts row;
	struct fts_lat lat;
	struct task_extra *x;        /* NULL until an irq or a preemption is counted */
	uint64_t last_run_ts;
	int32_t last_cpu;            /* CPU of the previous Running slice, -1 none */
	int32_t has_time;            /* first_ns/last_ns set */
};

struct lane_info {
	int32_t cpu;                 /* CPU lanes (and ids never declared: CPU 0, as before) */
	uint32_t task;               /* task lanes: the task's index; NO_TASK on CPU lanes */
};

struct fts_stats {
	struct fts_sink sink;        /* first: the callbacks get it back as the sink */
	struct fts_stats_opts opts;
	unsigned char *cpus_sel;     /* copy of opts.cpus */
	struct fts_stats_info info;
	int finished;
	int max_only;                /* latencies: count and maximum only (stats_lean.h) */

	struct lane_info *lanes;
	uint32_t nlanes, cap_lanes;

	struct fts_strtab tids;      /* "comm:pid"; id == task index */
	struct fts_strtab names;     /* irq names, softirq actions */

	struct task **slab;          /* task i: slab[i >> SLAB_BITS][i % SLAB] */
	uint32_t ntasks, nslab, cap_slab;
	uint32_t *row_task;          /* finished rows (tasks with anything counted): row -> task */
	uint32_t *rows;              /* the rows' order: row indexes */
	size_t nrows;
	struct fts_task_stats **page;/* rows by ROW_PAGE, each made on first use with its comms */
	size_t npages;
	struct fts_task_stats *spare;/* a row when its page cannot be had (no memory) */

	struct fts_cpu_stats *cpus;
	int ncpus;                   /* cpus[0 .. ncpus-1], by CPU number */
	int *cpu_seen;
	struct fts_cpu_stats *cpu_rows;  /* finished rows: the CPUs seen, in order */
	int ncpu_rows;

	uint64_t seen_lo, seen_hi;   /* span of the items counted */

	struct fts_loss loss;        /* CPU lanes' lost markers and holes */
	struct fts_stats_hole *holes;
	size_t nholes, cap_holes;
};

/* ---- strings and tasks ---- */

static struct task *task_at(const struct fts_stats *st, uint32_t i)
{
	return &st->slab[i >> SLAB_BITS][i & (SLAB - 1)];
}

static const char *tid_of(const struct fts_stats *st, uint32_t i)
{
	return fts_strtab_get(&st->tids, i);
}

/* Room for task @st->ntasks: its slab exists. 0 or -ENOMEM. */
static int task_room(struct fts_stats *st)
{
	if ((st->ntasks >> SLAB_BITS) < st->nslab)
		return 0;
	if (st->nslab == st->cap_slab) {
		uint32_t nc = st->cap_slab ? st->cap_slab * 2 : 16;
		struct task **ns = realloc(st->slab, nc * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		st->slab = ns;
		st->cap_slab = nc;
	}
	st->slab[st->nslab] = calloc(SLAB, sizeof(struct task));
	if (!st->slab[st->nslab])
		return -ENOMEM;
	st->nslab++;
	return 0;
}

/*
 * The index of the task whose tid is @tid ("comm:pid"), made on first use;
 * NO_TASK: no memory.
 */
static uint32_t task_id(struct fts_stats *st, const char *tid)
{
	uint32_t id;

	/* room first: once interned, a tid must have its record */
	if (task_room(st))
		return NO_TASK;
	id = fts_strtab_intern(&st->tids, tid, strlen(tid));
	if (id == NO_STR)
		return NO_TASK;
	if (id < st->ntasks)
		return id;
	task_at(st, id)->last_cpu = -1;
	st->ntasks++;
	/* strtab ids are dense and in creation order, like the records */
	return id;
}

static struct task *task_of(struct fts_stats *st, const char *tid)
{
	uint32_t id = task_id(st, tid);

	return id == NO_TASK ? NULL : task_at(st, id);
}

/* The accumulators of @t, made on first use; NULL: no memory. */
static struct task_extra *extra_of(struct task *t)
{
	if (!t->x)
		t->x = calloc(1, sizeof(*t->x));
	return t->x;
}

static int acc_add(struct acc_list *l, uint32_t name, uint64_t count, uint64_t ns)
{
	for (size_t i = 0; i < l->n; i++) {
		if (l->v[i].name == name) {
			l->v[i].count += count;
			l->v[i].ns += ns;
			return 0;
		}
	}
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 4;
		struct named_acc *nv = realloc(l->v, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		l->v = nv;
		l->cap = nc;
	}
	l->v[l->n++] = (struct named_acc){ .name = name, .count = count, .ns = ns };
	return 0;
}

/* The entry with the most time (then count, then name in @names), or NULL. */
static const struct named_acc *acc_top(const struct fts_strtab *names, const struct acc_list *l)
{
	const struct named_acc *best = NULL;

	for (size_t i = 0; i < l->n; i++) {
		const struct named_acc *a = &l->v[i];

		if (!best || a->ns > best->ns || (a->ns == best->ns && a->count > best->count) ||
		    (a->ns == best->ns && a->count == best->count &&
		     strcmp(fts_strtab_get(names, a->name), fts_strtab_get(names, best->name)) < 0))
			best = a;
	}
	return best;
}

/* ---- item helpers ---- */

static const char *arg_of(const struct fts_item *it, const char *key)
{
	for (int i = 0; i < it->nargs; i++) {
		if (it->args[i].key && !strcmp(it->args[i].key, key))
			return it->args[i].val;
	}
	return NULL;
}

static int arg_int(const struct fts_item *it, const char *key, long long *v)
{
	const char *s = arg_of(it, key);
	char *end;

	if (!s || !*s)
		return 0;
	*v = strtoll(s, &end, 10);
	return *end == '\0';
}

static int cpu_selected(const struct fts_stats *st, long long cpu)
{
	if (!st->cpus_sel)
		return 1;
	return cpu >= 0 && cpu < st->opts.ncpus && st->cpus_sel[cpu];
}

/*
 * The part of [ts, ts + dur) inside the window, in @lo and @hi. Returns 1 when
 * the item counts: a slice overlapping the window, a zero-length item
 * starting inside it.
 */
static int clip(const struct fts_stats *st, const struct fts_item *it, uint64_t *lo, uint64_t *hi)
{
	uint64_t s = it->ts, e = it->ts + it->dur;

	if (!st->opts.has_window) {
		*lo = s;
		*hi = e;
		return 1;
	}
	if (it->dur == 0) {
		*lo = *hi = s;
		return s >= st->opts.win_begin && s < st->opts.win_end;
	}
	*lo = s > st->opts.win_begin ? s : st->opts.win_begin;
	*hi = e < st->opts.win_end ? e : st->opts.win_end;
	return *lo < *hi;
}

static void seen_span(struct fts_stats *st, uint64_t lo, uint64_t hi)
{
	if (!st->info.items_counted || lo < st->seen_lo)
		st->seen_lo = lo;
	if (hi > st->seen_hi)
		st->seen_hi = hi;
	st->info.items_counted++;
}

static struct fts_cpu_stats *cpu_row(struct fts_stats *st, int32_t cpu)
{
	if (cpu < 0 || cpu >= 65536)
		return NULL;
	if (cpu >= st->ncpus) {
		int n = cpu + 1;
		struct fts_cpu_stats *nc = realloc(st->cpus, (size_t)n * sizeof(*nc));
		int *ns;

		if (!nc)
			return NULL;
		st->cpus = nc;
		ns = realloc(st->cpu_seen, (size_t)n * sizeof(*ns));
		if (!ns)
			return NULL;
		st->cpu_seen = ns;
		for (int i = st->ncpus; i < n; i++) {
			memset(&nc[i], 0, sizeof(nc[i]));
			nc[i].cpu = i;
			ns[i] = 0;
		}
		st->ncpus = n;
	}
	st->cpu_seen[cpu] = 1;
	return &st->cpus[cpu];
}

/* ---- the sink ---- */

static int nomem(struct fts_err *err)
{
	return fts_err_set(err, -ENOMEM, "out of memory (statistics)");
}

/* "CPU 003" -> 3; -1 when the name is not a CPU lane's. */
static int32_t cpu_of_tid(const char *tid)
{
	char *end;
	long v;

	if (strncmp(tid, "CPU ", 4) || tid[4] < '0' || tid[4] > '9')
		return -1;
	v = strtol(tid + 4, &end, 10);
	return *end || v > 65535 ? -1 : (int32_t)v;
}

static int st_lane(struct fts_sink *s, const struct fts_lane *l, struct fts_err *err)
{
	struct fts_stats *st = (struct fts_stats *)s;
	struct lane_info *li;

	if (l->id >= st->cap_lanes) {
		uint32_t nc = st->cap_lanes ? st->cap_lanes : 256;
		struct lane_info *nl;

		while (nc <= l->id)
			nc *= 2;
		nl = realloc(st->lanes, nc * sizeof(*nl));
		if (!nl)
			return nomem(err);
		for (uint32_t i = st->cap_lanes; i < nc; i++)
			nl[i] = (struct lane_info){ .cpu = 0, .task = NO_TASK };
		st->lanes = nl;
		st->cap_lanes = nc;
	}
	if (l->id >= st->nlanes)
		st->nlanes = l->id + 1;
	li = &st->lanes[l->id];
	li->cpu = -1;
	li->task = NO_TASK;
	if (l->group == FTS_GROUP_CPU) {
		li->cpu = cpu_of_tid(l->tid);
		if (li->cpu < 0)
			li->cpu = l->sort_index;
	} else {
		li->task = task_id(st, l->tid);
		if (li->task == NO_TASK)
			return nomem(err);
	}
	return 0;
}

static void task_span(struct task *t, uint64_t lo, uint64_t hi)
{
	if (!t->has_time || lo < t->row.first_ns)
		t->row.first_ns = lo;
	if (!t->has_time || hi > t->row.last_ns)
		t->row.last_ns = hi;
	t->has_time = 1;
}

static int task_item(struct fts_stats *st, struct task *t, const struct fts_item *it,
		     struct fts_err *err)
{
	uint64_t lo, hi, d;
	long long cpu = -1;
	const char *v;

	if (it->kind == FTS_ITEM_MARKER || !clip(st, it, &lo, &hi))
		return 0;
	arg_int(it, "cpu", &cpu);
	if (!cpu_selected(st, cpu))
		return 0;
	d = hi - lo;
	seen_span(st, lo, hi);
	task_span(t, lo, hi);
	switch (it->kind) {
	case FTS_ITEM_RUNNING:
		t->row.running_ns += d;
		if (t->last_cpu >= 0 && cpu >= 0 && cpu != t->last_cpu && it->ts >= t->last_run_ts)
			t->row.migrations++;
		if (cpu >= 0) {
			t->last_cpu = (int32_t)cpu;
			t->last_run_ts = it->ts;
		}
		break;
	case FTS_ITEM_RUNNABLE:
		t->row.runnable_ns += d;
		v = arg_of(it, "reason");
		if (v && (!strcmp(v, "wakeup") || !strcmp(v, "new"))) {
			/* a latency sample counts when the wait starts inside the window */
			if (lo == it->ts && st->max_only) {
				/* no samples: @u stays empty, fts_lat_free has nothing to free */
				t->lat.n++;
				t->lat.max = it->dur > t->lat.max ? it->dur : t->lat.max;
			} else if (lo == it->ts && fts_lat_add(&t->lat, it->dur)) {
				return nomem(err);
			}
		} else if (v && !strcmp(v, "preempted") && (v = arg_of(it, "preempted_by")) && *v) {
			uint32_t e = task_id(st, v);
			struct task_extra *x;

			/* task_id may add a slab, never move @t */
			if (e == NO_TASK || !(x = extra_of(t)) || acc_add(&x->preempters, e, 1, d))
				return nomem(err);
		}
		break;
	case FTS_ITEM_BLOCKED:
		t->row.blocked_ns += d;
		break;
	case FTS_ITEM_SLEEPING:
		t->row.sleeping_ns += d;
		break;
	case FTS_ITEM_NODATA:
		t->row.unknown_ns += d;
		break;
	default:
		break;
	}
	return 0;
}

/* An irq/softirq slice: the CPU's time, and the task it hit. */
static int irq_item(struct fts_stats *st, struct fts_cpu_stats *c, const struct fts_item *it,
		    uint64_t d, struct fts_err *err)
{
	int soft = it->kind == FTS_ITEM_SOFTIRQ;
	const char *who = arg_of(it, "task");
	const char *name = arg_of(it, soft ? "action" : "name");
	struct task_extra *x;
	struct task *t;
	uint32_t e;

	if (soft) {
		c->softirq_count++;
		c->softirq_ns += d;
	} else {
		c->irq_count++;
		c->irq_ns += d;
	}
	/* the idle task is "<idle>" (or "<idle>:0" in older files): no task row */
	if (!who || !*who || !strncmp(who, "<idle>", 6))
		return 0;
	t = task_of(st, who);
	if (!t)
		return nomem(err);
	x = extra_of(t);
	if (!x)
		return nomem(err);
	if (soft) {
		x->softirq_count++;
		x->softirq_ns += d;
	} else {
		x->irq_count++;
		x->irq_ns += d;
	}
	name = name && *name ? name : "?";
	e = fts_strtab_intern(&st->names, name, strlen(name));
	if (e == NO_STR || acc_add(&x->irqs, e, 1, d))
		return nomem(err);
	return 0;
}

/* A sched_switch: one for the CPU and one for prev (involuntary when it stayed runnable). */
static int switch_item(struct fts_stats *st, struct fts_cpu_stats *c, const struct fts_item *it,
		       struct fts_err *err)
{
	const char *comm = arg_of(it, "prev_comm"), *pid = arg_of(it, "prev_pid");
	const char *state = arg_of(it, "prev_state");
	char tid[256];
	struct task *t;

	c->switches++;
	if (!comm || !pid || !strcmp(pid, "0"))
		return 0; /* the idle task switching out */
	if ((size_t)snprintf(tid, sizeof(tid), "%s:%s", comm, pid) >= sizeof(tid))
		return 0;
	t = task_of(st, tid);
	if (!t)
		return nomem(err);
	t->row.switches++;
	if (state && state[0] == 'R')
		t->row.involuntary++;
	return 0;
}

static int add_hole(struct fts_stats *st, int32_t cpu, uint64_t lo, uint64_t hi)
{
	if (st->nholes == st->cap_holes) {
		size_t n = st->cap_holes ? st->cap_holes * 2 : 64;
		struct fts_stats_hole *h = realloc(st->holes, n * sizeof(*h));

		if (!h)
			return -ENOMEM;
		st->holes = h;
		st->cap_holes = n;
	}
	st->holes[st->nholes++] = (struct fts_stats_hole){ cpu, lo, hi };
	return 0;
}

static int cmp_hole(const void *a, const void *b)
{
	const struct fts_stats_hole *x = a, *y = b;

	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static int cpu_item(struct fts_stats *st, int32_t cpu, const struct fts_item *it,
		    struct fts_err *err)
{
	struct fts_cpu_stats *c;
	uint64_t lo, hi;

	/* a CPU lane whose number is unknown (not "CPU <n>", no sort index) counts nowhere */
	if (cpu < 0 || !cpu_selected(st, cpu) || !clip(st, it, &lo, &hi))
		return 0;
	c = cpu_row(st, cpu);
	if (!c)
		return nomem(err);
	seen_span(st, lo, hi);
	switch (it->kind) {
	case FTS_ITEM_RUN:
		c->busy_ns += hi - lo;
		return 0;
	case FTS_ITEM_IRQ:
	case FTS_ITEM_SOFTIRQ:
		return irq_item(st, c, it, hi - lo, err);
	case FTS_ITEM_SWITCH:
		return switch_item(st, c, it, err);
	case FTS_ITEM_LOST:
		c->lost_markers++;
		return fts_loss_add_item(&st->loss, cpu, it) ? nomem(err) : 0;
	case FTS_ITEM_NODATA:
		c->nodata_ns += hi - lo;
		return add_hole(st, cpu, lo, hi) ? nomem(err) : 0;
	default:
		return 0;
	}
}

static int st_item(struct fts_sink *s, const struct fts_item *it, struct fts_err *err)
{
	struct fts_stats *st = (struct fts_stats *)s;
	const struct lane_info *li;

	st->finished = 0;   /* the rows are made again on the next finish */
	st->info.items++;
	if (it->lane >= st->nlanes)
		return fts_err_set(err, -EINVAL, "statistics: an item on undeclared lane %u",
				   it->lane);
	li = &st->lanes[it->lane];
	if (li->task != NO_TASK)
		return task_item(st, task_at(st, li->task), it, err);
	return cpu_item(st, li->cpu, it, err);
}

static int st_flow(struct fts_sink *s, const struct fts_flow *f, struct fts_err *err)
{
	struct fts_stats *st = (struct fts_stats *)s;

	(void)f;
	(void)err;
	st->info.flows++;
	return 0;
}

static int st_finish(struct fts_sink *s, int ok, struct fts_err *err)
{
	return ok ? fts_stats_finish((struct fts_stats *)s, err) : 0;
}

static void st_destroy(struct fts_sink *s)
{
	(void)s; /* the sink lives and dies with its fts_stats */
}

/* ---- finishing and sorting ---- */

static int counted(const struct task *t)
{
	const struct counts *r = &t->row;

	return r->running_ns || r->runnable_ns || r->sleeping_ns || r->blocked_ns || r->unknown_ns ||
	       r->switches ||
	       (t->x && (t->x->irq_count || t->x->softirq_count)) || t->lat.n || t->has_time;
}

/* The length of the comm in tid @i: up to its last ':', or all of it. */
static size_t comm_len(const struct fts_stats *st, uint32_t i)
{
	const char *tid = tid_of(st, i), *colon = strrchr(tid, ':');

	return colon ? (size_t)(colon - tid) : fts_strtab_len(&st->tids, i);
}

/*
 * Row @r (task @ti) into @row; its comm cut into @comm (comm_len + 1 bytes)
 * when given. Everything else points into the string tables, which stay
 * put until more items are fed.
 */
static void make_row(const struct fts_stats *st, uint32_t ti, struct fts_task_stats *row, char *comm)
{
	const struct task *t = task_at(st, ti);
	const struct named_acc *a;
	const char *colon;

	memset(row, 0, sizeof(*row));
	row->tid = tid_of(st, ti);
	row->comm = "";
	if (comm) {
		size_t n = comm_len(st, ti);

		memcpy(comm, row->tid, n);
		comm[n] = '\0';
		row->comm = comm;
	}
	/* the pid is the tid after its last ':' (Insight splits there too) */
	colon = strrchr(row->tid, ':');
	row->pid = colon ? strtoll(colon + 1, NULL, 10) : -1;
	row->running_ns = t->row.running_ns;
	row->runnable_ns = t->row.runnable_ns;
	row->sleeping_ns = t->row.sleeping_ns;
	row->blocked_ns = t->row.blocked_ns;
	row->unknown_ns = t->row.unknown_ns;
	row->switches = t->row.switches;
	row->involuntary = t->row.involuntary;
	row->migrations = t->row.migrations;
	row->first_ns = t->row.first_ns;
	row->last_ns = t->row.last_ns;
	row->top_irq = "";
	row->top_preempter = "";
	row->wakeups = t->lat.n;
	/* fts_lat_pct sorts the exact samples in place: the same answers, before or after */
	if (!st->max_only) {
		row->wake_p50_ns = fts_lat_pct((struct fts_lat *)&t->lat, 50);
		row->wake_p99_ns = fts_lat_pct((struct fts_lat *)&t->lat, 99);
	}
	row->wake_max_ns = t->lat.n ? t->lat.max : 0;
	if (!t->x)
		return;
	row->irq_count = t->x->irq_count;
	row->irq_ns = t->x->irq_ns;
	row->softirq_count = t->x->softirq_count;
	row->softirq_ns = t->x->softirq_ns;
	if ((a = acc_top(&st->names, &t->x->irqs))) {
		row->top_irq = fts_strtab_get(&st->names, a->name);
		row->top_irq_ns = a->ns;
	}
	if ((a = acc_top(&st->tids, &t->x->preempters))) {
		row->top_preempter = tid_of(st, a->name);
		row->top_preempter_count = a->count;
		row->top_preempter_ns = a->ns;
	}
}

/* Drop the rows made so far (a new finish makes them anew from the counts). */
static void pages_free(struct fts_stats *st)
{
	for (size_t p = 0; p < st->npages; p++)
		free(st->page[p]);
	free(st->page);
	st->page = NULL;
	st->npages = 0;
}

/*
 * The page of ROW_PAGE rows holding row @r, made on first use: the rows and
 * their comms in one block. NULL when out of memory.
 */
static struct fts_task_stats *row_page(const struct fts_stats *st, uint32_t r)
{
	size_t p = r / ROW_PAGE, lo = p * ROW_PAGE, hi = lo + ROW_PAGE, clen = 0;
	struct fts_task_stats *rows;
	char *cp;

	if (st->page[p])
		return st->page[p];
	if (hi > st->nrows)
		hi = st->nrows;
	for (size_t i = lo; i < hi; i++)
		clen += comm_len(st, st->row_task[i]) + 1;
	rows = malloc((hi - lo) * sizeof(*rows) + clen);
	if (!rows)
		return NULL;
	cp = (char *)(rows + (hi - lo));
	for (size_t i = lo; i < hi; i++) {
		make_row(st, st->row_task[i], &rows[i - lo], cp);
		cp += comm_len(st, st->row_task[i]) + 1;
	}
	st->page[p] = rows; /* the page table is the cache: @st itself is unchanged */
	return rows;
}

int fts_stats_finish(struct fts_stats *st, struct fts_err *err)
{
	uint64_t wall;

	if (st->finished)
		return 0;
	free(st->rows);
	free(st->row_task);
	pages_free(st);
	st->rows = NULL;
	st->row_task = NULL;
	st->nrows = 0;
	for (uint32_t i = 0; i < st->ntasks; i++)
		st->nrows += counted(task_at(st, i)) != 0;
	/* the rows themselves are made a page at a time when asked for (fts_stats_task) */
	st->npages = (st->nrows + ROW_PAGE - 1) / ROW_PAGE;
	st->rows = malloc(st->nrows ? st->nrows * sizeof(*st->rows) : 1);
	st->row_task = malloc(st->nrows ? st->nrows * sizeof(*st->row_task) : 1);
	st->page = calloc(st->npages ? st->npages : 1, sizeof(*st->page));
	if (!st->spare)
		st->spare = malloc(sizeof(*st->spare));
	if (!st->rows || !st->row_task || !st->page || !st->spare) {
		st->npages = 0;
		return nomem(err);
	}
	for (uint32_t i = 0, r = 0; i < st->ntasks; i++) {
		if (!counted(task_at(st, i)))
			continue;
		st->rows[r] = r;
		st->row_task[r++] = i;
	}
	if (st->opts.has_window) {
		st->info.t_begin = st->opts.win_begin;
		st->info.t_end = st->opts.win_end;
	} else {
		st->info.t_begin = st->seen_lo;
		st->info.t_end = st->seen_hi;
	}
	wall = st->info.t_end - st->info.t_begin;
	free(st->cpu_rows);
	st->cpu_rows = calloc(st->ncpus ? (size_t)st->ncpus : 1, sizeof(*st->cpu_rows));
	if (!st->cpu_rows)
		return nomem(err);
	/* the CPU numbers seen (gaps below the highest one are left out) */
	st->ncpu_rows = 0;
	for (int i = 0; i < st->ncpus; i++) {
		struct fts_cpu_stats *c = &st->cpu_rows[st->ncpu_rows];

		if (!st->cpu_seen[i])
			continue;
		*c = st->cpus[i];
		c->wall_ns = wall;
		if (i < st->loss.ncpu) {
			const struct fts_loss_cpu *l = &st->loss.cpu[i];

			c->lost_events = fts_loss_cpu_events(l);
			c->lost_unsized = l->unsized;
		}
		c->lost_exact = i >= st->loss.ncpu || fts_loss_cpu_exact(&st->loss.cpu[i]);
		/* what is not known is neither busy nor idle */
		c->util = wall > c->nodata_ns ? (double)c->busy_ns / (double)(wall - c->nodata_ns) : 0.0;
		st->ncpu_rows++;
	}
	if (st->nholes)
		qsort(st->holes, st->nholes, sizeof(*st->holes), cmp_hole);
	st->finished = 1;
	fts_stats_sort_tasks(st, FTS_TCOL_RUNNING, 1);
	return 0;
}

static const char *const col_names[FTS_TCOL__COUNT] = {
	[FTS_TCOL_TASK] = "task",
	[FTS_TCOL_PID] = "pid",
	[FTS_TCOL_RUNNING] = "running_ns",
	[FTS_TCOL_RUNNABLE] = "runnable_ns",
	[FTS_TCOL_SLEEPING] = "sleeping_ns",
	[FTS_TCOL_BLOCKED] = "blocked_ns",
	[FTS_TCOL_UNKNOWN] = "unknown_ns",
	[FTS_TCOL_SWITCHES] = "switches",
	[FTS_TCOL_INVOLUNTARY] = "involuntary",
	[FTS_TCOL_MIGRATIONS] = "migrations",
	[FTS_TCOL_IRQ_COUNT] = "irq_count",
	[FTS_TCOL_IRQ_NS] = "irq_ns",
	[FTS_TCOL_SOFTIRQ_COUNT] = "softirq_count",
	[FTS_TCOL_SOFTIRQ_NS] = "softirq_ns",
	[FTS_TCOL_TOP_IRQ] = "top_irq",
	[FTS_TCOL_WAKEUPS] = "wakeups",
	[FTS_TCOL_WAKE_P50] = "wakeup_p50_ns",
	[FTS_TCOL_WAKE_P99] = "wakeup_p99_ns",
	[FTS_TCOL_WAKE_MAX] = "wakeup_max_ns",
	[FTS_TCOL_PREEMPTER] = "top_preempter",
	[FTS_TCOL_PREEMPTER_NS] = "top_preempter_ns",
};

const char *fts_task_col_name(enum fts_task_col col)
{
	return (unsigned)col < FTS_TCOL__COUNT ? col_names[col] : NULL;
}

int fts_task_col_parse(const char *name, enum fts_task_col *col)
{
	size_t n = strlen(name);

	for (int i = 0; i < FTS_TCOL__COUNT; i++) {
		const char *c = col_names[i];

		/* the exact name, or it without its "_ns" unit */
		if (!strcmp(name, c) || (strlen(c) == n + 3 && !strncmp(c, name, n) &&
					 !strcmp(c + n, "_ns"))) {
			*col = (enum fts_task_col)i;
			return 0;
		}
	}
	return -EINVAL;
}

uint64_t fts_task_col_value(const struct fts_task_stats *t, enum fts_task_col col)
{
	switch (col) {
	case FTS_TCOL_PID: return t->pid < 0 ? 0 : (uint64_t)t->pid;
	case FTS_TCOL_RUNNING: return t->running_ns;
	case FTS_TCOL_RUNNABLE: return t->runnable_ns;
	case FTS_TCOL_SLEEPING: return t->sleeping_ns;
	case FTS_TCOL_BLOCKED: return t->blocked_ns;
	case FTS_TCOL_UNKNOWN: return t->unknown_ns;
	case FTS_TCOL_SWITCHES: return t->switches;
	case FTS_TCOL_INVOLUNTARY: return t->involuntary;
	case FTS_TCOL_MIGRATIONS: return t->migrations;
	case FTS_TCOL_IRQ_COUNT: return t->irq_count;
	case FTS_TCOL_IRQ_NS: return t->irq_ns;
	case FTS_TCOL_SOFTIRQ_COUNT: return t->softirq_count;
	case FTS_TCOL_SOFTIRQ_NS: return t->softirq_ns;
	case FTS_TCOL_TOP_IRQ: return t->top_irq_ns;
	case FTS_TCOL_WAKEUPS: return t->wakeups;
	case FTS_TCOL_WAKE_P50: return t->wake_p50_ns;
	case FTS_TCOL_WAKE_P99: return t->wake_p99_ns;
	case FTS_TCOL_WAKE_MAX: return t->wake_max_ns;
	case FTS_TCOL_PREEMPTER_NS: return t->top_preempter_ns;
	default: return 0;
	}
}

/*
 * One row's sort key, by row index (the order array is what is sorted, with
 * the keys as the comparison's context: 16 bytes a row and 4 of the sort's
 * scratch, not a 24-byte key moved and copied); a number sorted descending
 * is stored inverted, so only text needs to know the direction.
 */
struct sort_key {
	union {
		uint64_t v;          /* number columns */
		const char *s;       /* text columns */
	} k;
	const char *tid;         /* the tie-break: tids are unique */
};

struct sort_ctx {
	const struct sort_key *keys;
	int text, desc;
};

static int cmp_row(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *c = arg;
	const struct sort_key *x = &c->keys[*(const uint32_t *)a], *y = &c->keys[*(const uint32_t *)b];
	int r;

	if (c->text)
		r = c->desc ? strcmp(y->k.s, x->k.s) : strcmp(x->k.s, y->k.s);
	else
		r = x->k.v < y->k.v ? -1 : x->k.v > y->k.v;
	return r ? r : strcmp(x->tid, y->tid);
}

void fts_stats_sort_tasks(struct fts_stats *st, enum fts_task_col col, int descending)
{
	struct sort_ctx c = {
		.text = col == FTS_TCOL_TASK || col == FTS_TCOL_TOP_IRQ || col == FTS_TCOL_PREEMPTER,
		.desc = descending,
	};
	struct sort_key *k;

	if (!st->nrows)
		return;
	k = malloc(st->nrows * sizeof(*k));
	if (!k)
		return; /* keep the current order: sorting is a view, not data */
	/* keys by row index (rowv order), whatever the current order */
	for (size_t i = 0; i < st->nrows; i++) {
		struct fts_task_stats row, *r = &row;

		/* from the counts, not the rows: sorting makes no row (their pages stay unmade) */
		make_row(st, st->row_task[i], &row, NULL);

		k[i].tid = r->tid;
		if (c.text) {
			k[i].k.s = col == FTS_TCOL_TASK ? r->tid : col == FTS_TCOL_TOP_IRQ ? r->top_irq :
				   r->top_preempter;
		} else {
			k[i].k.v = fts_task_col_value(r, col);
			if (descending)
				k[i].k.v = UINT64_MAX - k[i].k.v;
		}
	}
	c.keys = k;
	qsort_r(st->rows, st->nrows, sizeof(*st->rows), cmp_row, &c);
	free(k);
}

/* ---- lifetime and accessors ---- */

/* The CPU list as the selection bitmap (opts.cpus). */
static int cpus_from_list(struct fts_stats *st, const char *list, struct fts_err *err)
{
	struct fts_cpuset set;
	int rc = fts_cpuset_parse(list, &set, err), n;

	if (rc)
		return rc;
	n = 0;
	for (int c = fts_cpuset_next(&set, 0); c >= 0; c = fts_cpuset_next(&set, c + 1))
		n = c + 1;
	st->cpus_sel = calloc(n ? (size_t)n : 1, 1);
	if (!st->cpus_sel)
		return nomem(err);
	for (int c = fts_cpuset_next(&set, 0); c >= 0; c = fts_cpuset_next(&set, c + 1))
		st->cpus_sel[c] = 1;
	st->opts.cpus = st->cpus_sel;
	st->opts.ncpus = n;
	return 0;
}

int fts_stats_create(const struct fts_stats_opts *o, struct fts_stats **out,
		     struct fts_err *err)
{
	struct fts_stats *st = calloc(1, sizeof(*st));

	*out = NULL;
	if (!st)
		return nomem(err);
	fts_strtab_init(&st->tids);
	fts_strtab_init(&st->names);
	if (o) {
		st->opts = *o;
		if (o->has_window && o->win_end <= o->win_begin) {
			free(st);
			return fts_err_set(err, -EINVAL, "the statistics window is empty (end <= begin)");
		}
		if (!o->cpus && o->cpu_list) {
			int rc = cpus_from_list(st, o->cpu_list, err);

			if (rc) {
				free(st);
				return rc;
			}
		} else if (o->cpus) {
			st->cpus_sel = malloc(o->ncpus > 0 ? (size_t)o->ncpus : 1);
			if (!st->cpus_sel) {
				free(st);
				return nomem(err);
			}
			memcpy(st->cpus_sel, o->cpus, o->ncpus > 0 ? (size_t)o->ncpus : 0);
			st->opts.cpus = st->cpus_sel;
		}
	}
	st->sink.lane = st_lane;
	st->sink.item = st_item;
	st->sink.finish = st_finish;
	st->sink.destroy = st_destroy;
	st->sink.flow = st_flow;
	*out = st;
	return 0;
}

struct fts_sink *fts_stats_sink(struct fts_stats *st)
{
	return &st->sink;
}

void fts_stats_free(struct fts_stats *st)
{
	if (!st)
		return;
	for (uint32_t i = 0; i < st->ntasks; i++) {
		struct task *t = task_at(st, i);

		fts_lat_free(&t->lat);
		if (t->x) {
			free(t->x->irqs.v);
			free(t->x->preempters.v);
			free(t->x);
		}
	}
	for (uint32_t i = 0; i < st->nslab; i++)
		free(st->slab[i]);
	free(st->slab);
	fts_strtab_free(&st->tids);
	fts_strtab_free(&st->names);
	free(st->rows);
	free(st->row_task);
	pages_free(st);
	free(st->spare);
	free(st->lanes);
	free(st->cpus);
	free(st->holes);
	fts_loss_free(&st->loss);
	free(st->cpu_seen);
	free(st->cpu_rows);
	free(st->cpus_sel);
	free(st);
}

const struct fts_stats_info *fts_stats_info(const struct fts_stats *st)
{
	return &st->info;
}

void fts_stats_max_only(struct fts_stats *st)
{
	st->max_only = 1;
}

size_t fts_stats_ntasks(const struct fts_stats *st)
{
	return st->finished ? st->nrows : 0;
}

const struct fts_task_stats *fts_stats_task(const struct fts_stats *st, size_t i)
{
	const struct fts_task_stats *page;
	uint32_t r;

	if (i >= fts_stats_ntasks(st))
		return NULL;
	r = st->rows[i];
	page = row_page(st, r);
	if (page)
		return &page[r % ROW_PAGE];
	/* no memory for its page: the row alone, in the slot finish set aside (comm left out) */
	make_row(st, st->row_task[r], st->spare, NULL);
	return st->spare;
}

size_t fts_stats_ncpus(const struct fts_stats *st)
{
	return st->finished ? (size_t)st->ncpu_rows : 0;
}

const struct fts_cpu_stats *fts_stats_cpu(const struct fts_stats *st, size_t i)
{
	return i < fts_stats_ncpus(st) ? &st->cpu_rows[i] : NULL;
}

const struct fts_loss *fts_stats_loss(const struct fts_stats *st)
{
	return &st->loss;
}

size_t fts_stats_nholes(const struct fts_stats *st)
{
	return st->finished ? st->nholes : 0;
}

const struct fts_stats_hole *fts_stats_hole(const struct fts_stats *st, size_t i)
{
	return st->finished && i < st->nholes ? &st->holes[i] : NULL;
}
