// SPDX-License-Identifier: MIT
/*
 * stats.c - the triage statistics as a sink over lane items (stats.h).
 *
 * Data structures:
 *   - lanes[]: per declared lane id, its group and either its CPU number or
 *     its task (struct task *). Task lanes are found by their tid, which is
 *     also how CPU-lane items name tasks (sched_switch prev_comm:prev_pid,
 *     irq/softirq `task`), so one string table (util/strtab: tid -> id, and
 *     task_of_str[id]) joins them.
 *   - struct task: the public row plus what is needed to finish it: the
 *     latency samples, per-irq-name and per-preempter accumulators (small
 *     arrays: a task is hit by a few irq names and preempted by a few tasks),
 *     the CPU of its previous Running slice.
 *   - cpus[]: per CPU number, the public row.
 *   - interned strings (irq names, preempters) in the same table as tasks'
 *     tids, so accumulators compare ids; the rows' string pointers are set
 *     from the ids when the rows are made (the table's arena moves as it grows).
 * Nothing is kept per item. A live view may finish, feed more and finish
 * again: the rows are made anew from the counts each time.
 */
#include "ftscope/stats.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/latency_hist.h"
#include "core/util/cpuset.h"
#include "core/util/strtab.h"

#define NO_STR UINT32_MAX

struct named_acc {
	uint32_t name;     /* string id */
	uint64_t count;
	uint64_t ns;
};

struct acc_list {
	struct named_acc *v;
	size_t n, cap;
};

struct task {
	struct fts_task_stats row;
	struct fts_lat lat;
	struct acc_list irqs;        /* irq names and softirq actions */
	struct acc_list preempters;
	int32_t last_cpu;            /* CPU of the previous Running slice, -1 none */
	uint64_t last_run_ts;
	int has_time;                /* first_ns/last_ns set */
	uint32_t tid, comm;          /* string ids of the row's tid and comm */
};

struct lane_info {
	enum fts_lane_group group;
	int32_t cpu;                 /* CPU lanes */
	struct task *task;           /* task lanes */
};

struct fts_stats {
	struct fts_sink sink;        /* first: the callbacks get it back as the sink */
	struct fts_stats_opts opts;
	unsigned char *cpus_sel;     /* copy of opts.cpus */
	struct fts_stats_info info;
	int finished;

	struct lane_info *lanes;
	uint32_t nlanes, cap_lanes;

	struct fts_strtab strs;      /* tids, comms, irq names, preempters */
	struct task **task_of_str;   /* string id -> its task, NULL when none */
	uint32_t cap_task_of;

	struct task **tasks;         /* every task made, in creation order */
	size_t ntasks, cap_tasks;
	struct task **rows;          /* finished rows (tasks with anything counted), sorted */
	size_t nrows;

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

/* The id of @s, added when new; NO_STR when out of memory. */
static uint32_t intern(struct fts_stats *st, const char *s)
{
	return fts_strtab_intern(&st->strs, s, strlen(s));
}

static const char *str_of(const struct fts_stats *st, uint32_t id)
{
	return fts_strtab_get(&st->strs, id);
}

/* Room for task_of_str[@id]. */
static int grow_task_of(struct fts_stats *st, uint32_t id)
{
	uint32_t nc = st->cap_task_of ? st->cap_task_of : 1024;
	struct task **nt;

	if (id < st->cap_task_of)
		return 0;
	while (nc <= id)
		nc *= 2;
	nt = realloc(st->task_of_str, nc * sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	memset(nt + st->cap_task_of, 0, (nc - st->cap_task_of) * sizeof(*nt));
	st->task_of_str = nt;
	st->cap_task_of = nc;
	return 0;
}

static struct task *task_new(struct fts_stats *st, uint32_t tid)
{
	const char *s = str_of(st, tid), *colon = strrchr(s, ':');
	struct task *t;

	if (st->ntasks == st->cap_tasks) {
		size_t nc = st->cap_tasks ? st->cap_tasks * 2 : 256;
		struct task **nt = realloc(st->tasks, nc * sizeof(*nt));

		if (!nt)
			return NULL;
		st->tasks = nt;
		st->cap_tasks = nc;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->last_cpu = -1;
	t->tid = t->comm = tid;
	/* comm is the tid up to its last ':' (Insight splits there too) */
	t->row.pid = colon ? strtoll(colon + 1, NULL, 10) : -1;
	if (colon) {
		/* a copy: interning may move the arena @s points into */
		char *comm = strndup(s, (size_t)(colon - s));

		t->comm = comm ? intern(st, comm) : NO_STR;
		free(comm);
		if (t->comm == NO_STR) {
			free(t);
			return NULL;
		}
	}
	st->tasks[st->ntasks++] = t;
	return t;
}

/* The task whose tid is @tid ("comm:pid"), made on first use; NULL: no memory. */
static struct task *task_of(struct fts_stats *st, const char *tid)
{
	uint32_t id = intern(st, tid);
	struct task *t;

	if (id == NO_STR || grow_task_of(st, id))
		return NULL;
	if (st->task_of_str[id])
		return st->task_of_str[id];
	t = task_new(st, id);
	if (t)
		st->task_of_str[id] = t;
	return t;
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

/* The entry with the most time (then count, then name), or NULL. */
static const struct named_acc *acc_top(const struct fts_stats *st, const struct acc_list *l)
{
	const struct named_acc *best = NULL;

	for (size_t i = 0; i < l->n; i++) {
		const struct named_acc *a = &l->v[i];

		if (!best || a->ns > best->ns || (a->ns == best->ns && a->count > best->count) ||
		    (a->ns == best->ns && a->count == best->count &&
		     strcmp(str_of(st, a->name), str_of(st, best->name)) < 0))
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
		memset(nl + st->cap_lanes, 0, (nc - st->cap_lanes) * sizeof(*nl));
		st->lanes = nl;
		st->cap_lanes = nc;
	}
	if (l->id >= st->nlanes)
		st->nlanes = l->id + 1;
	li = &st->lanes[l->id];
	li->group = l->group;
	li->cpu = -1;
	li->task = NULL;
	if (l->group == FTS_GROUP_CPU) {
		li->cpu = cpu_of_tid(l->tid);
		if (li->cpu < 0)
			li->cpu = l->sort_index;
	} else {
		li->task = task_of(st, l->tid);
		if (!li->task)
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
			if (lo == it->ts && fts_lat_add(&t->lat, it->dur))
				return nomem(err);
		} else if (v && !strcmp(v, "preempted") && (v = arg_of(it, "preempted_by")) && *v) {
			uint32_t e = intern(st, v);

			if (e == NO_STR || acc_add(&t->preempters, e, 1, d))
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
	if (soft) {
		t->row.softirq_count++;
		t->row.softirq_ns += d;
	} else {
		t->row.irq_count++;
		t->row.irq_ns += d;
	}
	e = intern(st, name && *name ? name : "?");
	if (e == NO_STR || acc_add(&t->irqs, e, 1, d))
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
	if (li->group == FTS_GROUP_TASK)
		return task_item(st, li->task, it, err);
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
	const struct fts_task_stats *r = &t->row;

	return r->running_ns || r->runnable_ns || r->sleeping_ns || r->blocked_ns || r->unknown_ns ||
	       r->switches ||
	       r->irq_count || r->softirq_count || t->lat.n || t->has_time;
}

int fts_stats_finish(struct fts_stats *st, struct fts_err *err)
{
	uint64_t wall;

	if (st->finished)
		return 0;
	free(st->rows);
	st->rows = calloc(st->ntasks ? st->ntasks : 1, sizeof(*st->rows));
	if (!st->rows)
		return nomem(err);
	st->nrows = 0;
	for (size_t i = 0; i < st->ntasks; i++) {
		struct task *t = st->tasks[i];
		const struct named_acc *a;

		if (!counted(t))
			continue;
		t->row.tid = str_of(st, t->tid);
		t->row.comm = str_of(st, t->comm);
		t->row.top_irq = "";
		t->row.top_irq_ns = 0;
		t->row.top_preempter = "";
		t->row.top_preempter_count = 0;
		t->row.top_preempter_ns = 0;
		t->row.wakeups = t->lat.n;
		t->row.wake_p50_ns = fts_lat_pct(&t->lat, 50);
		t->row.wake_p99_ns = fts_lat_pct(&t->lat, 99);
		t->row.wake_max_ns = t->lat.n ? t->lat.max : 0;
		if ((a = acc_top(st, &t->irqs))) {
			t->row.top_irq = str_of(st, a->name);
			t->row.top_irq_ns = a->ns;
		}
		if ((a = acc_top(st, &t->preempters))) {
			t->row.top_preempter = str_of(st, a->name);
			t->row.top_preempter_count = a->count;
			t->row.top_preempter_ns = a->ns;
		}
		st->rows[st->nrows++] = t;
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

/* One row's sort key; qsort has no context, so the key carries the order. */
struct sort_key {
	uint64_t v;
	const char *s;       /* text columns; NULL for numbers */
	struct task *t;
	int desc;
};

static int cmp_key(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;
	int c;

	if (x->s)
		c = strcmp(x->s, y->s);
	else
		c = x->v < y->v ? -1 : x->v > y->v;
	if (x->desc)
		c = -c;
	return c ? c : strcmp(x->t->row.tid, y->t->row.tid);
}

void fts_stats_sort_tasks(struct fts_stats *st, enum fts_task_col col, int descending)
{
	struct sort_key *k;

	if (!st->nrows)
		return;
	k = malloc(st->nrows * sizeof(*k));
	if (!k)
		return; /* keep the current order: sorting is a view, not data */
	for (size_t i = 0; i < st->nrows; i++) {
		const struct fts_task_stats *r = &st->rows[i]->row;

		k[i].t = st->rows[i];
		k[i].desc = descending;
		k[i].s = col == FTS_TCOL_TASK ? r->tid : col == FTS_TCOL_TOP_IRQ ? r->top_irq :
			 col == FTS_TCOL_PREEMPTER ? r->top_preempter : NULL;
		k[i].v = k[i].s ? 0 : fts_task_col_value(r, col);
	}
	qsort(k, st->nrows, sizeof(*k), cmp_key);
	for (size_t i = 0; i < st->nrows; i++)
		st->rows[i] = k[i].t;
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
	fts_strtab_init(&st->strs);
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
	for (size_t i = 0; i < st->ntasks; i++) {
		fts_lat_free(&st->tasks[i]->lat);
		free(st->tasks[i]->irqs.v);
		free(st->tasks[i]->preempters.v);
		free(st->tasks[i]);
	}
	fts_strtab_free(&st->strs);
	free(st->task_of_str);
	free(st->tasks);
	free(st->rows);
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

size_t fts_stats_ntasks(const struct fts_stats *st)
{
	return st->finished ? st->nrows : 0;
}

const struct fts_task_stats *fts_stats_task(const struct fts_stats *st, size_t i)
{
	return i < fts_stats_ntasks(st) ? &st->rows[i]->row : NULL;
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
