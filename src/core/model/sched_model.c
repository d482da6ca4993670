// SPDX-License-Identifier: MIT
/*
 * sched_model.c - events -> lane items.
 *
 * Data structures first:
 *   - struct cpu, one per CPU index seen: who runs there since when (the run
 *     slice being built), its runtime sum, and the open irq/softirq entries.
 *   - struct task, one per live pid, found by pid through a task index
 *     (task_index.h: 4-byte slots holding the record's index): its current
 *     state (Running / Runnable / Sleeping / unknown) and since when, the
 *     CPU, the raw sleep state, the waker. A task is freed when it dies, so
 *     a reused pid starts fresh. A million tasks are a million of these, so
 *     names are ids into one string table (@names) and the records sit in
 *     slabs (the hash holds an index), dead ones on a free list: 72 bytes.
 *   - struct lane_ent, one per task lane, in slabs, found by its key (host
 *     pid, comm id in @names) through a second task index whose slots hold
 *     the entry's index (its comm id sits beside it in @lcomm): lanes are
 *     the only thing that outlives tasks. An entry exists before its lane is declared
 *     (a switch can be counted for it first) and keeps what the
 *     context-switch marker needs: how many switches Insight will count for
 *     it and where the lane ends.
 *
 * Every slice is emitted when it closes, through emit(), which clips it to
 * the window and maps its times; all boundaries are integer ns, so adjacent
 * slices share their boundary exactly.
 */
#include "ftscope/sched_model.h"
#include "core/internal.h"
#include "ftscope/loss.h"

#include "core/util/cpuset.h"
#include "core/util/decimal.h"
#include "core/model/task_index.h"
#include "core/util/strtab.h"
#include "core/model/timemap_impl.h"

#include <assert.h>
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IRQ_STACK 8
#define SOFTIRQ_VECS 16
#define IRQ_MAX_NS 1000000000ull
#define TID_MAX (FTS_COMM_MAX + 16)
#define NUM_MAX 24               /* a decimal int64 with its sign and NUL, as vnum reserves */
#define LANE_NONE UINT32_MAX     /* lane_entry: out of memory */
#define VBUF_SIZE 2048           /* one item's arg values, back to back */
#define SLAB_BITS 10             /* tasks and lane entries come SLAB at a time */
#define SLAB (1u << SLAB_BITS)
#define LANE_UNDECLARED UINT32_MAX /* lane_ent.id before the sink has seen the lane */

/* "comm:pid": a comm, ':', an int32 with its sign, the NUL (fmt_tid) */
static_assert(TID_MAX >= FTS_COMM_MAX + 1 + 11 + 1, "a tid fits TID_MAX");
static_assert(NUM_MAX >= FTS_DECIMAL_MAX, "an int64 fits NUM_MAX");
/* an item's values never overflow the scratch: no arg is ever cut to "" */
static_assert(NUM_MAX <= TID_MAX && FTS_NAME_MAX <= TID_MAX && FTS_STATE_MAX <= TID_MAX,
	      "every arg value fits TID_MAX");
static_assert(VBUF_SIZE >= FTS_ITEM_MAX_ARGS * TID_MAX, "an item's values fit the scratch");
/* the public cap is the CPU sets' (--cpu lists); it keeps the cpus array small */
static_assert(FTS_MODEL_CPU_MAX == FTS_CPUSET_MAX, "one CPU cap");
static_assert(FTS_CPUSET_MAX > 0 && FTS_CPUSET_MAX <= 65536, "CPU indexes are small ints");

enum tstate { T_UNKNOWN, T_RUNNING, T_RUNNABLE, T_SLEEPING };

/* Why a task is Runnable (the `reason` arg). */
enum treason { R_NONE, R_WAKEUP, R_NEW, R_PREEMPTED };

static const char *const reason_names[] = {
	[R_WAKEUP] = "wakeup", [R_NEW] = "new", [R_PREEMPTED] = "preempted",
};

struct task {
	int32_t pid;
	int32_t prio;
	uint64_t since;
	int32_t cpu;              /* where it runs / ran / was queued */
	int32_t target_cpu;       /* the wakeup's target, -1 if none */
	int32_t migrated_from;    /* CPU it was moved off while waiting, -1 if none */
	/*
	 * Comms are ids + 1 in the model's @names (0: none), so a task costs
	 * bytes, not 64 of string per name. Runnable after a wakeup: who woke
	 * it, (comm, host pid), the key of its lane; after a preemption: who
	 * took the CPU.
	 */
	uint32_t comm;
	uint32_t waker_comm;
	int32_t waker_pid;        /* host pid; 0: idle or unknown (no link) */
	uint32_t preempter_comm;
	int32_t preempter_pid;
	uint32_t lent;            /* cached lane entry of (comm, pid), index + 1; 0: look up */
	char sleep_state[FTS_STATE_MAX];
	uint8_t state;            /* enum tstate */
	uint8_t reason;           /* enum treason: Runnable's why */
	uint8_t exiting;
};

/* a free record links to the next free one through @lent */
#define next_free lent

struct irq_open {
	int32_t irq;
	uint64_t ts;
	char name[FTS_NAME_MAX];
};

struct cpu {
	int known;                /* curr_* describe who runs here */
	int32_t curr_pid;
	int32_t curr_prio;
	char curr_comm[FTS_COMM_MAX];
	uint64_t since;
	/*
	 * The first event on this CPU, since curr started, that ran in another
	 * task: when a switch goes missing (the kernel drops one now and then),
	 * the real switch happened between the last event of curr and this one.
	 */
	uint64_t foreign_ts;      /* 0: none */
	int32_t foreign_pid;
	/*
	 * The latest change of task among those events: two switches went
	 * missing (curr -> idle -> X, seen on a VM's kernel) and the switch
	 * that names X as prev shows X ran since its first event here.
	 */
	uint64_t foreign_last_ts; /* 0: none */
	int32_t foreign_last_pid;
	uint64_t last_ts;         /* the last event seen on this CPU */
	uint64_t first_ts;        /* the first (0: none yet) */
	uint64_t kernel_lost;     /* the kernel's total for this CPU, when has_kernel */
	int has_kernel;
	int kernel_whole;         /* kernel_lost is the whole loss (a flight segment's) */
	uint64_t drops;           /* lost-events markers emitted */
	uint64_t runtime;
	uint64_t vruntime;
	int has_vruntime;
	int nirq;
	struct irq_open irqs[IRQ_STACK];
	uint64_t softirq_ts[SOFTIRQ_VECS]; /* 0: not open */
	int lane_valid;
	uint32_t lane;
};

struct lane_ent {
	uint32_t id;              /* the lane's id; LANE_UNDECLARED: the sink has not seen it */
	int32_t pid;
	uint64_t switches;        /* sched_switch items Insight counts for this tid */
	uint64_t max_end;         /* output ns: the latest end of an item on the lane */
};

#define HOLES 64

struct fts_model {
	struct fts_model_opts opts;
	struct fts_sink *sink;
	struct fts_err err;
	struct fts_model_stats st;

	struct cpu *cpus;
	int ncpus;

	struct fts_tidx tasks;    /* live tasks: pid -> index of the record (task_at) */
	void **tslab;             /* task i: tslab[i >> SLAB_BITS][i % SLAB] (task_at) */
	uint32_t ntask_rec, ntslab, cap_tslab;
	uint32_t free_task;       /* index + 1 of a dead task's record to reuse; 0: none */

	/*
	 * task lanes: key (host pid, comm) -> index of the entry (lent_at); the
	 * key is read from the entry's pid and @lcomm (lane_key), 4 bytes a slot
	 */
	struct fts_tidx lane_keys;
	struct fts_strtab names;  /* comms of tasks, wakers, preempters and lanes */
	void **lslab;             /* entry i: lslab[i >> SLAB_BITS][i % SLAB] (lent_at) */
	uint32_t nlent, nlslab, cap_lslab;
	uint32_t *lcomm;          /* entry i's comm: id + 1 in @names */
	uint32_t cap_lcomm;
	uint32_t nlanes;          /* all lanes, CPU and task: the next id */

	uint64_t last_ts;         /* last event inside the window */
	int seen_event;
	int past_window;          /* an event came after the window: the trace outlasts it */

	uint64_t flows;           /* wakeup links handed out: the next id - 1 */

	/*
	 * The latest holes (lost events) on any CPU, a ring: a sleeper seen
	 * running with no wakeup was woken in one of them (lost_wakeup).
	 */
	struct { uint64_t s, e; int cpu; } holes[HOLES];
	uint32_t nholes;          /* holes seen; the ring keeps the last HOLES */
	int saw_wakeup;           /* the trace has wakeup events */

	/* scratch for one item's arg values (see VBUF_SIZE) */
	char vbuf[VBUF_SIZE];
	size_t vlen;
};

/* ---- small formatting helpers (the hot path avoids printf) ---- */

/* Reserve room in the value scratch; NULL when an item would overflow it. */
static char *vreserve(struct fts_model *m, size_t n)
{
	char *p;

	if (m->vlen + n > sizeof(m->vbuf))
		return NULL;
	p = m->vbuf + m->vlen;
	m->vlen += n;
	return p;
}

static const char *vnum(struct fts_model *m, int64_t v)
{
	char *p = vreserve(m, NUM_MAX);

	if (!p)
		return "";
	m->vlen -= NUM_MAX - (size_t)(fts_decimal_i64(p, v) - p + 1);
	return p;
}

static const char *vstr(struct fts_model *m, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = vreserve(m, n);

	if (!p)
		return "";
	memcpy(p, s, n);
	return p;
}

/* "comm:pid" with the display pid, into @dst (TID_MAX). */
static void fmt_tid(const struct fts_model *m, char *dst, const char *comm, int32_t host_pid)
{
	size_t n = strlen(comm);

	memcpy(dst, comm, n);
	dst[n++] = ':';
	fts_decimal_i64(dst + n, fts_pidmap_lookup(m->opts.pm, host_pid));
}

/* @comm's id + 1 in m->names (0: out of memory). */
static uint32_t name_id(struct fts_model *m, const char *comm)
{
	uint32_t id = fts_strtab_intern(&m->names, comm, strlen(comm));

	return id == UINT32_MAX ? 0 : id + 1;
}

/* "comm:pid" of a waker or preempter (name_id), in the value scratch; "<idle>:0" for pid 0. */
static const char *named_tid(struct fts_model *m, uint32_t comm, int32_t host_pid)
{
	char tid[TID_MAX];

	fmt_tid(m, tid, host_pid == 0 ? "<idle>" : fts_strtab_get(&m->names, comm - 1), host_pid);
	return vstr(m, tid);
}

static void arg(struct fts_item *it, const char *k, const char *v)
{
	if (it->nargs < FTS_ITEM_MAX_ARGS) {
		it->args[it->nargs].key = k;
		it->args[it->nargs].val = v;
		it->nargs++;
	}
}

/* ---- lanes ---- */

static int sink_fail(struct fts_model *m, int rc)
{
	if (rc >= 0)
		rc = -EIO;
	if (!m->err.code)
		fts_err_set(&m->err, rc, "output failed");
	return rc;
}

static int declare(struct fts_model *m, enum fts_lane_group g, int32_t sort, const char *tid,
		   uint32_t *id)
{
	struct fts_lane l = { .id = m->nlanes, .group = g, .sort_index = sort, .tid = tid };
	int rc = m->sink->lane(m->sink, &l, &m->err);

	if (rc)
		return sink_fail(m, rc);
	*id = m->nlanes++;
	return 0;
}

static int cpu_lane(struct fts_model *m, int cpu, uint32_t *id)
{
	struct cpu *c = &m->cpus[cpu];
	char tid[32];
	int rc;

	if (c->lane_valid) {
		*id = c->lane;
		return 0;
	}
	/* zero-padded so Insight's string sort keeps CPU 2 before CPU 10 */
	snprintf(tid, sizeof(tid), "CPU %03d", cpu);
	rc = declare(m, FTS_GROUP_CPU, cpu, tid, &c->lane);
	if (rc)
		return rc;
	c->lane_valid = 1;
	m->st.cpu_lanes++;
	*id = c->lane;
	return 0;
}

static struct lane_ent *lent_at(const struct fts_model *m, uint32_t i)
{
	return (struct lane_ent *)m->lslab[i >> SLAB_BITS] + (i & (SLAB - 1));
}

/*
 * One more slab in *@slabs (@n used, @cap room), of SLAB records of @size
 * bytes, zeroed. 0 or -ENOMEM.
 */
static int add_slab(void ***slabs, uint32_t *n, uint32_t *cap, size_t size)
{
	void *s;

	if (*n == *cap) {
		uint32_t nc = *cap ? *cap * 2 : 16;
		void **ns;

		if (nc <= *cap)
			return -ENOMEM;
		ns = realloc(*slabs, nc * sizeof(*ns));
		if (!ns)
			return -ENOMEM;
		*slabs = ns;
		*cap = nc;
	}
	s = calloc(SLAB, size);
	if (!s)
		return -ENOMEM;
	(*slabs)[(*n)++] = s;
	return 0;
}

/* A lane key: the comm's id + 1 in @names above the host pid. */
static uint64_t lane_key_of(uint32_t comm, int32_t pid)
{
	return (uint64_t)comm << 32 | (uint32_t)pid;
}

/* The lane index's key of entry @i. */
static uint64_t lane_key(const void *ctx, uint32_t i)
{
	const struct fts_model *m = ctx;

	return lane_key_of(m->lcomm[i], lent_at(m, i)->pid);
}

/*
 * The lane entry of (comm, pid), created (not declared) on first use: its
 * index (lent_at), or LANE_NONE when out of memory. Entries are made in
 * first-use order, the order the context-switch markers go out in.
 */
static uint32_t lane_entry(struct fts_model *m, const char *comm, int32_t pid)
{
	/* a comm as the key kept it: at most FTS_COMM_MAX - 1 bytes */
	uint32_t c = fts_strtab_intern(&m->names, comm, strnlen(comm, FTS_COMM_MAX - 1)), i;
	struct lane_ent *e;

	if (c == UINT32_MAX)
		return LANE_NONE;
	i = fts_tidx_get(&m->lane_keys, lane_key_of(c + 1, pid));
	if (i != FTS_TIDX_NONE)
		return i;
	if ((m->nlent >> SLAB_BITS) == m->nlslab &&
	    add_slab(&m->lslab, &m->nlslab, &m->cap_lslab, sizeof(struct lane_ent)))
		return LANE_NONE;
	if (m->nlent == m->cap_lcomm) {
		uint32_t nc = m->cap_lcomm ? m->cap_lcomm * 2 : SLAB;
		uint32_t *n = nc > m->cap_lcomm ? realloc(m->lcomm, (size_t)nc * sizeof(*n)) : NULL;

		if (!n)
			return LANE_NONE;
		m->lcomm = n;
		m->cap_lcomm = nc;
	}
	i = m->nlent;
	e = lent_at(m, i);
	e->id = LANE_UNDECLARED;
	e->pid = pid;
	m->lcomm[i] = c + 1;
	if (fts_tidx_add(&m->lane_keys, i))
		return LANE_NONE; /* the entry stays unused: the next one reuses it */
	m->nlent++;
	return i;
}

/* The comm of lane entry @i. */
static const char *lane_comm(const struct fts_model *m, uint32_t i)
{
	return fts_strtab_get(&m->names, m->lcomm[i] - 1);
}

/* Declare lane entry @i's lane to the sink if it is not yet. */
static int lane_declare(struct fts_model *m, uint32_t i)
{
	struct lane_ent *e = lent_at(m, i);
	char tid[TID_MAX];
	int rc;

	assert(i < m->nlent);
	if (e->id != LANE_UNDECLARED)
		return 0;
	fmt_tid(m, tid, lane_comm(m, i), e->pid);
	rc = declare(m, FTS_GROUP_TASK, 0, tid, &e->id);
	if (rc) {
		e->id = LANE_UNDECLARED;
		return rc;
	}
	m->st.task_lanes++;
	return 0;
}

static int no_lane_memory(struct fts_model *m)
{
	return sink_fail(m, fts_err_set(&m->err, -ENOMEM, "out of memory (task lanes)"));
}

/* ---- emission ---- */

/*
 * Clip [s, e] to the window and map it to output time in @it. Returns 0 when
 * nothing of it is left to show (outside the window, or at a time <= 0).
 */
static int place(const struct fts_model *m, struct fts_item *it, uint64_t s, uint64_t e)
{
	const struct fts_timemap *tm = m->opts.tm;
	int64_t out;

	if (e < s)
		e = s;
	if (e < tm->lo || s > tm->hi)
		return 0;
	if (s < tm->lo)
		s = tm->lo;
	if (e > tm->hi)
		e = tm->hi;
	out = (int64_t)s + tm->offset;
	if (out <= 0)
		return 0; /* Insight reads times as uint64 and ignores 0 */
	it->ts = (uint64_t)out;
	it->dur = e - s;
	return 1;
}

static int deliver(struct fts_model *m, const struct fts_item *it)
{
	int rc = m->sink->item(m->sink, it, &m->err);

	return rc ? sink_fail(m, rc) : 0;
}

/* Clip, map and hand to the sink; what falls outside the window is dropped. */
static int emit(struct fts_model *m, struct fts_item *it, uint64_t s, uint64_t e)
{
	return place(m, it, s, e) ? deliver(m, it) : 0;
}

static void item_init(struct fts_model *m, struct fts_item *it, uint32_t lane,
		      enum fts_item_kind kind, const char *name)
{
	m->vlen = 0;
	it->lane = lane;
	it->kind = kind;
	it->name = name;
	it->nargs = 0;
}

/*
 * Insight's sched statistics skip switches whose prev_comm contains one of
 * these (FtraceSchedStatisticsParseUnit), so such lanes never get a count.
 */
static int kernel_comm(const char *comm)
{
	return strstr(comm, "migration") || strstr(comm, "swapper") || strstr(comm, "kworker");
}

/*
 * The zero-length `Sleeping` with cpu -1 on which Insight lands the lane's
 * context-switch count (contract 6.2, 6.4 B). It sits at the lane's last end:
 * no slice of the lane starts there (task-lane slices are never zero-length)
 * nor contains it, so Insight's depth pass keeps the lane on one row whatever
 * order its unstable re-sort puts equal starts in.
 */
static int emit_cs_marker(struct fts_model *m, const struct lane_ent *e)
{
	struct fts_item it;

	item_init(m, &it, e->id, FTS_ITEM_MARKER, "Sleeping");
	arg(&it, "cpu", "-1");
	arg(&it, "note", "context-switch totals row");
	it.ts = e->max_end;
	it.dur = 0;
	m->st.cs_markers++;
	return deliver(m, &it);
}

/*
 * A marker on every lane for which Insight will count at least one switch,
 * in the order the lanes were first met.
 */
static int emit_cs_markers(struct fts_model *m)
{
	for (uint32_t i = 0; i < m->nlent; i++) {
		const struct lane_ent *e = lent_at(m, i);

		if (e->id != LANE_UNDECLARED && e->switches && e->max_end && !kernel_comm(lane_comm(m, i))) {
			int rc = emit_cs_marker(m, e);

			if (rc)
				return rc;
		}
	}
	return 0;
}

/* The index of @t's lane entry (cached in the task), or LANE_NONE when out of memory. */
static uint32_t task_lane(struct fts_model *m, struct task *t)
{
	if (!t->lent) {
		uint32_t i = lane_entry(m, fts_strtab_get(&m->names, t->comm - 1), t->pid);

		if (i == LANE_NONE)
			return LANE_NONE;
		t->lent = i + 1;
	}
	return t->lent - 1;
}

static enum fts_item_kind task_kind(const struct task *t)
{
	if (t->state == T_RUNNING)
		return FTS_ITEM_RUNNING;
	if (t->state == T_RUNNABLE)
		return FTS_ITEM_RUNNABLE;
	return strchr(t->sleep_state, 'D') ? FTS_ITEM_BLOCKED : FTS_ITEM_SLEEPING;
}

/* @t's lane, declared to the sink, into *@out. 0 or the error. */
static int task_lane_ready(struct fts_model *m, struct task *t, struct lane_ent **out)
{
	uint32_t lane = task_lane(m, t);
	int rc;

	if (lane == LANE_NONE)
		return no_lane_memory(m);
	rc = lane_declare(m, lane);
	if (rc)
		return rc;
	*out = lent_at(m, lane);
	return 0;
}

/* close_task_state's end in a lean model: the reason alone, the same counts. */
static int close_task_lean(struct fts_model *m, const struct task *t, struct lane_ent *e,
			   struct fts_item *it)
{
	if (t->state == T_RUNNABLE) {
		arg(it, "reason", t->reason ? reason_names[t->reason] : "unknown");
		m->st.task_runnable++;
	} else if (t->state == T_RUNNING) {
		m->st.task_running++;
	} else {
		m->st.task_sleeping++;
	}
	if (it->ts + it->dur > e->max_end)
		e->max_end = it->ts + it->dur;
	return deliver(m, it);
}

/* The task's state slice [since, end] on its lane. */
static int close_task_state(struct fts_model *m, struct task *t, uint64_t end)
{
	static const char *const names[] = {
		[T_RUNNING] = "Running", [T_RUNNABLE] = "Runnable", [T_SLEEPING] = "Sleeping",
	};
	struct lane_ent *e;
	struct fts_item it;
	int rc;

	if (t->state == T_UNKNOWN || t->pid == 0)
		return 0;
	assert(t->state < sizeof(names) / sizeof(names[0]) && names[t->state]);
	/*
	 * A zero-length state holds no time, and Insight's unstable re-sort may
	 * put it after the slice starting at the same ns: a second row.
	 */
	if (!place(m, &it, t->since, end) || it.dur == 0)
		return 0;
	rc = task_lane_ready(m, t, &e);
	if (rc)
		return rc;
	item_init(m, &it, e->id, task_kind(t), names[t->state]);
	if (m->opts.lean)
		return close_task_lean(m, t, e, &it);
	arg(&it, "cpu", vnum(m, t->cpu));
	switch (t->state) {
	case T_RUNNING:
		arg(&it, "prio", vnum(m, t->prio));
		m->st.task_running++;
		break;
	case T_RUNNABLE:
		arg(&it, "reason", t->reason ? reason_names[t->reason] : "unknown");
		if (t->waker_comm)
			arg(&it, "waker", named_tid(m, t->waker_comm, t->waker_pid));
		if (t->target_cpu >= 0)
			arg(&it, "target_cpu", vnum(m, t->target_cpu));
		if (t->migrated_from >= 0)
			arg(&it, "migrated_from", vnum(m, t->migrated_from));
		if (t->preempter_comm)
			arg(&it, "preempted_by", named_tid(m, t->preempter_comm, t->preempter_pid));
		if (t->reason && t->reason != R_PREEMPTED)
			arg(&it, "wakeup_latency_ns", vnum(m, (int64_t)(end - t->since)));
		m->st.task_runnable++;
		break;
	case T_SLEEPING:
		arg(&it, "state", t->sleep_state[0] ? vstr(m, t->sleep_state) : "S");
		m->st.task_sleeping++;
		break;
	default:
		break;
	}
	arg(&it, "host_pid", vnum(m, t->pid));
	if (it.ts + it.dur > e->max_end)
		e->max_end = it.ts + it.dur;
	return deliver(m, &it);
}

static void task_set(struct task *t, enum tstate s, uint64_t ts, int32_t cpu)
{
	t->state = s;
	t->since = ts;
	t->cpu = cpu;
	if (s != T_RUNNABLE) {
		t->waker_comm = 0;
		t->waker_pid = 0;
		t->preempter_comm = 0;
		t->reason = R_NONE;
		t->target_cpu = -1;
		t->migrated_from = -1;
	}
}

/* @t's comm (never NULL: "" when none). */
static const char *task_comm(const struct fts_model *m, const struct task *t)
{
	return t->comm ? fts_strtab_get(&m->names, t->comm - 1) : "";
}

/* Give @t the name @comm (a new lane key when it differs). 0 or -ENOMEM. */
static int task_rename(struct fts_model *m, struct task *t, const char *comm)
{
	uint32_t id;

	if (!strcmp(task_comm(m, t), comm))
		return 0;
	id = name_id(m, comm);
	if (!id)
		return -ENOMEM;
	t->comm = id;
	t->lent = 0;
	return 0;
}

/* The run slice on the CPU lane for whoever ran on @cpu since c->since. */
static int close_cpu_run(struct fts_model *m, int cpu, uint64_t end, const char *end_state)
{
	struct cpu *c = &m->cpus[cpu];
	struct fts_item it;
	char name[TID_MAX];
	uint32_t lane;
	int rc;

	if (!c->known || c->curr_pid == 0)
		return 0;
	if (end < m->opts.tm->lo || c->since > m->opts.tm->hi)
		return 0;
	rc = cpu_lane(m, cpu, &lane);
	if (rc)
		return rc;
	if (m->opts.lean) {
		m->st.cpu_slices++;
		item_init(m, &it, lane, FTS_ITEM_RUN, c->curr_comm);
		return emit(m, &it, c->since, end);
	}
	fmt_tid(m, name, c->curr_comm, c->curr_pid);
	item_init(m, &it, lane, FTS_ITEM_RUN, name);
	arg(&it, "host_pid", vnum(m, c->curr_pid));
	{
		char *p = vreserve(m, 32);

		if (p) {
			char *e = fts_decimal_u64(p, c->runtime);

			memcpy(e, " [ns]", 6);
		}
		arg(&it, "total_runtime", p ? p : "");
	}
	if (c->has_vruntime)
		arg(&it, "vruntime", vnum(m, (int64_t)c->vruntime));
	arg(&it, "end_state", end_state ? vstr(m, end_state) : "running");
	arg(&it, "prio", vnum(m, c->curr_prio));
	m->st.cpu_slices++;
	return emit(m, &it, c->since, end);
}

/* ---- tables ---- */

/*
 * Live tasks by pid. The table grows with them, so a lookup stays O(1)
 * however many tasks a trace holds (a fixed 4096 buckets made 400 k tasks
 * take 33 s).
 */
static struct task *task_at(const struct fts_model *m, uint64_t i)
{
	return (struct task *)m->tslab[i >> SLAB_BITS] + (i & (SLAB - 1));
}

static struct task *task_find(const struct fts_model *m, int32_t pid)
{
	uint32_t i = fts_tidx_get(&m->tasks, (uint32_t)pid);

	return i != FTS_TIDX_NONE ? task_at(m, i) : NULL;
}

/* The task index's key of record @i: its pid, as the key inthash had. */
static uint64_t task_key(const void *ctx, uint32_t i)
{
	return (uint32_t)task_at(ctx, i)->pid;
}

/* A zeroed record: a dead task's, or a new one. Its index, or UINT32_MAX when out of memory. */
static uint32_t task_alloc(struct fts_model *m)
{
	uint32_t i;

	if (m->free_task) {
		i = m->free_task - 1;
		m->free_task = task_at(m, i)->next_free;
		memset(task_at(m, i), 0, sizeof(struct task));
		return i;
	}
	if (m->ntask_rec == UINT32_MAX)
		return UINT32_MAX;
	if ((m->ntask_rec >> SLAB_BITS) == m->ntslab &&
	    add_slab(&m->tslab, &m->ntslab, &m->cap_tslab, sizeof(struct task)))
		return UINT32_MAX;
	return m->ntask_rec++;
}

static void task_release(struct fts_model *m, uint32_t i)
{
	task_at(m, i)->next_free = m->free_task;
	m->free_task = i + 1;
}

static struct task *task_get(struct fts_model *m, int32_t pid, const char *comm)
{
	struct task *t = task_find(m, pid);
	uint32_t i;

	if (t) {
		if (comm && comm[0] && task_rename(m, t, comm))
			return NULL;
		return t;
	}
	i = task_alloc(m);
	if (i == UINT32_MAX)
		return NULL;
	t = task_at(m, i);
	t->pid = pid; /* the index reads it: set before adding */
	t->cpu = -1;
	t->target_cpu = -1;
	t->migrated_from = -1;
	t->comm = name_id(m, comm ? comm : "");
	if (!t->comm || fts_tidx_add(&m->tasks, i)) {
		task_release(m, i);
		return NULL;
	}
	m->st.tasks_seen++;
	return t;
}

static void task_drop(struct fts_model *m, int32_t pid)
{
	uint32_t i = fts_tidx_get(&m->tasks, (uint32_t)pid);

	if (i != FTS_TIDX_NONE) {
		fts_tidx_del(&m->tasks, (uint32_t)pid);
		task_release(m, i);
	}
}

static int ensure_cpu(struct fts_model *m, int cpu)
{
	struct cpu *nc;
	int n;

	if (cpu < m->ncpus)
		return 0;
	n = cpu + 1;
	nc = realloc(m->cpus, (size_t)n * sizeof(*nc));
	if (!nc)
		return fts_err_set(&m->err, -ENOMEM, "out of memory (cpus)");
	memset(nc + m->ncpus, 0, (size_t)(n - m->ncpus) * sizeof(*nc));
	m->cpus = nc;
	m->ncpus = n;
	return 0;
}

/* ---- transitions ---- */

static void cpu_start(struct cpu *c, int32_t pid, const char *comm, int32_t prio, uint64_t ts)
{
	c->known = 1;
	c->curr_pid = pid;
	c->curr_prio = prio;
	fts_copy_str(c->curr_comm, FTS_COMM_MAX, comm, -1);
	c->since = ts;
	c->foreign_ts = 0;
	c->foreign_last_ts = 0;
	c->runtime = 0;
	c->has_vruntime = 0;
}

/* Remember the first event that ran in a task other than the one we think runs, and the latest change of task. */
static void note_foreign(struct cpu *c, const struct fts_event *ev)
{
	if (!c->known || ev->pid == c->curr_pid || ev->type == FTS_EV_SWITCH || ev->type == FTS_EV_LOST)
		return;
	if (!c->foreign_ts) {
		c->foreign_ts = ev->ts ? ev->ts : 1;
		c->foreign_pid = ev->pid;
	}
	if (!c->foreign_last_ts || c->foreign_last_pid != ev->pid) {
		c->foreign_last_ts = ev->ts ? ev->ts : 1;
		c->foreign_last_pid = ev->pid;
	}
}

/*
 * The first event on a CPU tells who was running there: start its run slice
 * (and Running state) at that event, so the first stretch is not lost.
 */
static int first_sight(struct fts_model *m, const struct fts_event *ev)
{
	struct cpu *c = &m->cpus[ev->cpu];
	struct task *t;
	int rc;

	if (c->known || ev->type == FTS_EV_SWITCH || ev->type == FTS_EV_LOST)
		return 0;
	cpu_start(c, ev->pid, ev->comm, 0, ev->ts);
	if (ev->pid == 0)
		return 0;
	t = task_get(m, ev->pid, ev->comm);
	if (!t)
		return fts_err_set(&m->err, -ENOMEM, "out of memory (tasks)");
	if (t->state == T_RUNNING)
		return 0;
	if (t->state != T_UNKNOWN) {
		/* it was waiting (e.g. woken before this CPU's first event): now it runs */
		if (t->state == T_RUNNABLE)
			t->cpu = ev->cpu;
		rc = close_task_state(m, t, ev->ts);
		if (rc)
			return rc;
	}
	task_set(t, T_RUNNING, ev->ts, ev->cpu);
	return 0;
}

/*
 * A switch went missing: the task we saw start on @cpu is no longer running
 * there (a switch names someone else, or it is switched in elsewhere). Close
 * its run slice and its Running state at the first event another task ran on
 * this CPU (or at @ts), so both views agree, and forget its state until the
 * next event about it.
 */
static int stop_unseen(struct fts_model *m, int cpu, uint64_t ts)
{
	struct cpu *c = &m->cpus[cpu];
	struct task *t = c->curr_pid ? task_find(m, c->curr_pid) : NULL;
	int rc;

	if (c->foreign_ts && c->foreign_ts <= ts && c->foreign_ts >= c->since)
		ts = c->foreign_ts;
	rc = close_cpu_run(m, cpu, ts, "?");

	if (rc)
		return rc;
	if (t && t->state == T_RUNNING && t->cpu == cpu) {
		rc = close_task_state(m, t, ts);
		if (rc)
			return rc;
		task_set(t, T_UNKNOWN, ts, -1);
	}
	return 0;
}

/* The switch to @ev's prev task went missing: it has run here since @from. */
static int start_unseen(struct fts_model *m, const struct fts_event *ev, uint64_t from)
{
	const struct fts_ev_switch *sw = &ev->u.sw;
	struct task *t;
	int rc;

	cpu_start(&m->cpus[ev->cpu], sw->prev_pid, sw->prev_comm, sw->prev_prio, from);
	if (sw->prev_pid == 0)
		return 0;
	t = task_get(m, sw->prev_pid, sw->prev_comm);
	if (!t)
		return fts_err_set(&m->err, -ENOMEM, "out of memory (tasks)");
	if (t->state == T_RUNNING)
		return 0;
	if (t->state != T_UNKNOWN && t->since <= from) {
		t->cpu = t->state == T_RUNNABLE ? ev->cpu : t->cpu;
		rc = close_task_state(m, t, from);
		if (rc)
			return rc;
	}
	task_set(t, T_RUNNING, from, ev->cpu);
	return 0;
}

/*
 * The wakeup link of @t, woken at t->since and switched in at @run: from its
 * waker's task lane at the wakeup to its own lane where its Running starts.
 * Only for sinks that take links, with both ends inside the window.
 */
static int emit_wakeup_link(struct fts_model *m, struct task *t, uint64_t run)
{
	struct fts_item from, to;
	uint32_t w, tl;
	struct fts_flow f;
	int rc;

	if (!m->sink->flow || !place(m, &from, t->since, t->since) || !place(m, &to, run, run) ||
	    t->since < m->opts.tm->lo)
		return 0;
	w = lane_entry(m, fts_strtab_get(&m->names, t->waker_comm - 1), t->waker_pid);
	if (w == LANE_NONE)
		return no_lane_memory(m);
	tl = task_lane(m, t);
	if (tl == LANE_NONE)
		return no_lane_memory(m);
	rc = lane_declare(m, w);
	if (!rc)
		rc = lane_declare(m, tl);
	if (rc)
		return rc;
	f.id = ++m->flows;
	f.name = "wakeup";
	f.from_lane = lent_at(m, w)->id;
	f.from_ts = from.ts;
	f.to_lane = lent_at(m, tl)->id;
	f.to_ts = to.ts;
	m->st.wakeup_links++;
	rc = m->sink->flow(m->sink, &f, &m->err);
	return rc ? sink_fail(m, rc) : 0;
}

/* An emitted switch: one more for the lane Insight will credit it to (prev_comm:prev_pid). */
static int count_switch(struct fts_model *m, const struct fts_ev_switch *sw)
{
	uint32_t i;

	if (sw->prev_pid == 0)
		return 0;
	i = lane_entry(m, sw->prev_comm, sw->prev_pid);
	if (i == LANE_NONE)
		return no_lane_memory(m);
	lent_at(m, i)->switches++;
	return 0;
}

/*
 * A switch, in five steps: reconcile what we thought ran here, close its run
 * slice, mark the switch on the CPU lane, then the task going out and the
 * one coming in.
 */

/* The switch names another prev than the one we saw start: a switch went missing. */
static int switch_reconcile(struct fts_model *m, const struct fts_event *ev)
{
	const struct fts_ev_switch *sw = &ev->u.sw;
	const struct cpu *c = &m->cpus[ev->cpu];
	uint64_t from = c->foreign_ts, last = c->foreign_last_ts;
	int32_t who = c->foreign_pid, last_who = c->foreign_last_pid;
	int rc;

	if (!c->known || c->curr_pid == sw->prev_pid)
		return 0;
	m->st.switch_mismatch++;
	rc = stop_unseen(m, ev->cpu, ev->ts);
	if (rc)
		return rc;
	/* prev ran at least since its first event here (after another's, when two went missing) */
	if (from && who == sw->prev_pid && from <= ev->ts)
		return start_unseen(m, ev, from);
	if (last && last_who == sw->prev_pid && last <= ev->ts)
		return start_unseen(m, ev, last);
	return 0;
}

static int switch_close_run(struct fts_model *m, const struct fts_event *ev)
{
	const struct fts_ev_switch *sw = &ev->u.sw;
	struct cpu *c = &m->cpus[ev->cpu];

	if (!c->known || c->curr_pid != sw->prev_pid)
		return 0;
	/* the switch names the task authoritatively (comm may have changed) */
	fts_copy_str(c->curr_comm, FTS_COMM_MAX, sw->prev_comm, -1);
	c->curr_prio = sw->prev_prio;
	return close_cpu_run(m, ev->cpu, ev->ts, sw->prev_state);
}

/* The zero-length sched_switch item on the CPU lane, counted for prev's task lane. */
static int switch_marker(struct fts_model *m, const struct fts_event *ev)
{
	const struct fts_ev_switch *sw = &ev->u.sw;
	struct fts_item it;
	uint32_t lane;
	int rc;

	rc = cpu_lane(m, ev->cpu, &lane);
	if (rc || ev->ts < m->opts.tm->lo)
		return rc;
	item_init(m, &it, lane, FTS_ITEM_SWITCH, "sched_switch");
	if (m->opts.lean) {
		/* the CPU's switch count stays; prev's own (from these args) is not made */
		if (!place(m, &it, ev->ts, ev->ts))
			return 0;
		m->st.switch_markers++;
		rc = deliver(m, &it);
		return rc || !m->opts.cs_rows ? rc : count_switch(m, sw);
	}
	arg(&it, "prev_comm", vstr(m, sw->prev_comm));
	arg(&it, "prev_pid", vnum(m, fts_pidmap_lookup(m->opts.pm, sw->prev_pid)));
	arg(&it, "prev_prio", vnum(m, sw->prev_prio));
	arg(&it, "prev_state", vstr(m, sw->prev_state));
	arg(&it, "next_comm", vstr(m, sw->next_comm));
	arg(&it, "next_pid", vnum(m, fts_pidmap_lookup(m->opts.pm, sw->next_pid)));
	arg(&it, "next_prio", vnum(m, sw->next_prio));
	if (!place(m, &it, ev->ts, ev->ts))
		return 0;
	m->st.switch_markers++;
	rc = deliver(m, &it);
	return rc ? rc : count_switch(m, sw);
}

/* prev leaves the CPU: it dies, waits (preempted) or sleeps. */
static int switch_out(struct fts_model *m, const struct fts_event *ev)
{
	const struct fts_ev_switch *sw = &ev->u.sw;
	struct task *t;
	int rc;

	if (sw->prev_pid == 0)
		return 0;
	t = task_get(m, sw->prev_pid, sw->prev_comm);
	if (!t)
		return fts_err_set(&m->err, -ENOMEM, "out of memory (tasks)");
	t->prio = sw->prev_prio;
	if (t->state == T_RUNNING) {
		rc = close_task_state(m, t, ev->ts);
		if (rc)
			return rc;
	}
	if (t->exiting || sw->prev_state[0] == 'X' || sw->prev_state[0] == 'Z') {
		task_drop(m, sw->prev_pid);
	} else if (sw->prev_state[0] == 'R') {
		task_set(t, T_RUNNABLE, ev->ts, ev->cpu);
		t->reason = R_PREEMPTED;
		if (m->opts.lean)
			return 0;   /* the preempter only names an arg */
		t->preempter_comm = name_id(m, sw->next_comm);
		t->preempter_pid = sw->next_pid;
		if (!t->preempter_comm)
			return fts_err_set(&m->err, -ENOMEM, "out of memory (names)");
	} else {
		task_set(t, T_SLEEPING, ev->ts, ev->cpu);
		fts_copy_str(t->sleep_state, FTS_STATE_MAX, sw->prev_state, -1);
	}
	return 0;
}

static int task_nodata(struct fts_model *m, struct task *t, int cpu, uint64_t s, uint64_t e);

/*
 * @t slept and now runs with no wakeup seen, in a trace that has wakeups:
 * the wakeup was lost in a hole on some CPU while it slept (the waker's,
 * not necessarily its own). Asleep until the first such hole, unknown over
 * the holes, Runnable (waiting, reason unknown) from the last one's end: a
 * wakeup after that would have been seen. No hole: nothing to say.
 */
static int lost_wakeup(struct fts_model *m, struct task *t, uint64_t now, int cpu)
{
	uint32_t n = m->nholes < HOLES ? m->nholes : HOLES;
	uint64_t h0 = UINT64_MAX, h1 = 0;
	int hcpu = -1, rc;

	for (uint32_t i = 0; i < n; i++) {
		if (m->holes[i].e <= t->since || m->holes[i].s >= now)
			continue;
		if (m->holes[i].s < h0) {
			h0 = m->holes[i].s;
			hcpu = m->holes[i].cpu;
		}
		if (m->holes[i].e > h1)
			h1 = m->holes[i].e;
	}
	if (h0 == UINT64_MAX)
		return 0;
	h0 = h0 > t->since ? h0 : t->since;
	h1 = h1 < now ? h1 : now;
	rc = task_nodata(m, t, hcpu, h0, h1);
	if (rc)
		return rc;
	m->st.lost_wakeups++;
	task_set(t, T_RUNNABLE, h1, cpu);
	return 0;
}

/* next takes the CPU: its wait (and wakeup link) ends, it runs here from now. */
static int switch_in(struct fts_model *m, const struct fts_event *ev)
{
	const struct fts_ev_switch *sw = &ev->u.sw;
	struct task *t;
	int rc;

	cpu_start(&m->cpus[ev->cpu], sw->next_pid, sw->next_comm, sw->next_prio, ev->ts);
	if (sw->next_pid == 0)
		return 0;
	t = task_get(m, sw->next_pid, sw->next_comm);
	if (!t)
		return fts_err_set(&m->err, -ENOMEM, "out of memory (tasks)");
	if (t->state == T_RUNNING && t->cpu != ev->cpu && t->cpu >= 0 && t->cpu < m->ncpus &&
	    m->cpus[t->cpu].known && m->cpus[t->cpu].curr_pid == t->pid) {
		/* still "running" elsewhere: its switch-out there was lost */
		int other = t->cpu; /* stop_unseen forgets t->cpu */

		m->st.switch_mismatch++;
		rc = stop_unseen(m, other, ev->ts);
		if (rc)
			return rc;
		m->cpus[other].known = 0;
	}
	if (t->state == T_SLEEPING && m->saw_wakeup) {
		rc = lost_wakeup(m, t, ev->ts, ev->cpu);
		if (rc)
			return rc;
	}
	if (t->state == T_RUNNABLE || t->state == T_SLEEPING) {
		/* a Runnable waited for this CPU: that is where it counts */
		t->cpu = ev->cpu;
		rc = close_task_state(m, t, ev->ts);
		if (!rc && t->state == T_RUNNABLE && t->waker_pid > 0 && t->reason &&
		    t->reason != R_PREEMPTED)
			rc = emit_wakeup_link(m, t, ev->ts);
		if (rc)
			return rc;
	}
	t->prio = sw->next_prio;
	task_set(t, T_RUNNING, ev->ts, ev->cpu);
	return 0;
}

static int on_switch(struct fts_model *m, const struct fts_event *ev)
{
	int rc = switch_reconcile(m, ev);

	if (!rc)
		rc = switch_close_run(m, ev);
	if (!rc)
		rc = switch_marker(m, ev);
	if (!rc)
		rc = switch_out(m, ev);
	if (!rc)
		rc = switch_in(m, ev);
	return rc;
}

/*
 * "comm:pid" of the task an event ran in (the waker, the task an irq hit):
 * the CPU's current task when the event agrees with it (the switch gave its
 * exact name), else the event's own task (a switch to it went missing).
 */
static void event_task(const struct fts_model *m, const struct fts_event *ev, char *dst)
{
	const struct cpu *c = &m->cpus[ev->cpu];

	if (c->known && c->curr_pid == ev->pid)
		fmt_tid(m, dst, c->curr_pid == 0 ? "<idle>" : c->curr_comm, c->curr_pid);
	else
		fmt_tid(m, dst, ev->pid == 0 ? "<idle>" : ev->comm, ev->pid);
}

/* The waker's (comm, host pid), as event_task names it: the key of its task lane. 0 or -ENOMEM. */
static int waker_key(struct fts_model *m, const struct fts_event *ev, struct task *t)
{
	const struct cpu *c = &m->cpus[ev->cpu];
	int same = c->known && c->curr_pid == ev->pid;

	t->waker_pid = same ? c->curr_pid : ev->pid;
	t->waker_comm = name_id(m, same ? c->curr_comm : ev->comm);
	return t->waker_comm ? 0 : fts_err_set(&m->err, -ENOMEM, "out of memory (names)");
}

static int on_wake(struct fts_model *m, const struct fts_event *ev)
{
	const struct fts_ev_task *w = &ev->u.task;
	struct task *t;
	int rc;

	m->saw_wakeup = 1;
	if (w->pid == 0)
		return 0;
	t = task_get(m, w->pid, w->comm);
	if (!t)
		return fts_err_set(&m->err, -ENOMEM, "out of memory (tasks)");
	if (t->state == T_RUNNING)
		return 0;
	if (t->state == T_RUNNABLE) {
		if (w->target_cpu >= 0)
			t->target_cpu = w->target_cpu;
		return 0;
	}
	if (t->state == T_SLEEPING) {
		rc = close_task_state(m, t, ev->ts);
		if (rc)
			return rc;
	}
	task_set(t, T_RUNNABLE, ev->ts, w->target_cpu >= 0 ? w->target_cpu : ev->cpu);
	t->prio = w->prio;
	t->target_cpu = w->target_cpu;
	t->reason = ev->type == FTS_EV_WAKEUP_NEW ? R_NEW : R_WAKEUP;
	if (m->opts.lean && !m->sink->flow)
		return 0;   /* the waker names an arg and a link, neither made */
	return waker_key(m, ev, t);
}

static int on_migrate(struct fts_model *m, const struct fts_event *ev)
{
	struct task *t = task_find(m, ev->u.migrate.pid);

	m->st.migrations++;
	if (!t || t->state == T_RUNNING)
		return 0;
	/* the first CPU it left while waiting is the one worth showing */
	if (t->migrated_from < 0 && ev->u.migrate.orig_cpu != ev->u.migrate.dest_cpu)
		t->migrated_from = ev->u.migrate.orig_cpu;
	if (t->state == T_RUNNABLE)
		t->cpu = ev->u.migrate.dest_cpu;
	return 0;
}

static int on_runtime(struct fts_model *m, const struct fts_event *ev)
{
	struct cpu *c = &m->cpus[ev->cpu];

	if (m->opts.lean)
		return 0;   /* the runtime only fills args of the run slices */
	if (c->known && c->curr_pid == ev->u.runtime.pid) {
		c->runtime += ev->u.runtime.runtime;
		if (ev->u.runtime.has_vruntime) {
			c->vruntime = ev->u.runtime.vruntime;
			c->has_vruntime = 1;
		}
	}
	return 0;
}

static int on_fork(struct fts_model *m, const struct fts_event *ev)
{
	const struct task *t = task_find(m, ev->u.fork.child_pid);

	/*
	 * a pid seen again after its task died is a new task (also when the
	 * dead task's final switch was lost and it still looks alive)
	 */
	if (t && (t->state == T_UNKNOWN || t->exiting))
		task_drop(m, ev->u.fork.child_pid);
	return task_get(m, ev->u.fork.child_pid, ev->u.fork.child_comm) ? 0 :
	       fts_err_set(&m->err, -ENOMEM, "out of memory (tasks)");
}

/* exec renames the task: the old name's slices end here, the new name's begin */
/*
 * A non-leader thread that execs takes over the leader's pid (old_pid !=
 * pid): the thread's task ends and the leader's pid continues under the new
 * name, running on this CPU.
 */
static int exec_takeover(struct fts_model *m, const struct fts_event *ev)
{
	const struct fts_ev_exec *x = &ev->u.exec;
	struct cpu *c = &m->cpus[ev->cpu];
	struct task *t = task_find(m, x->old_pid);
	int rc;

	if (c->known && c->curr_pid == x->old_pid) {
		rc = close_cpu_run(m, ev->cpu, ev->ts, "exec");
		if (rc)
			return rc;
		cpu_start(c, x->pid, x->comm, c->curr_prio, ev->ts);
	}
	if (t && t->state == T_RUNNING) {
		rc = close_task_state(m, t, ev->ts);
		if (rc)
			return rc;
	}
	task_drop(m, x->old_pid);
	task_drop(m, x->pid);
	t = task_get(m, x->pid, x->comm);
	if (!t)
		return fts_err_set(&m->err, -ENOMEM, "out of memory (tasks)");
	task_set(t, T_RUNNING, ev->ts, ev->cpu);
	return 0;
}

/* exec renames the task: the old name's slices end here, the new name's begin */
static int on_exec(struct fts_model *m, const struct fts_event *ev)
{
	struct task *t = task_find(m, ev->u.exec.pid);
	struct cpu *c = &m->cpus[ev->cpu];
	int rc;

	if (ev->u.exec.old_pid > 0 && ev->u.exec.old_pid != ev->u.exec.pid)
		return exec_takeover(m, ev);
	if (c->known && c->curr_pid == ev->u.exec.pid && strcmp(c->curr_comm, ev->u.exec.comm)) {
		rc = close_cpu_run(m, ev->cpu, ev->ts, "exec");
		if (rc)
			return rc;
		cpu_start(c, c->curr_pid, ev->u.exec.comm, c->curr_prio, ev->ts);
	}
	if (!t)
		return 0;
	if (t->state == T_RUNNING && strcmp(task_comm(m, t), ev->u.exec.comm)) {
		rc = close_task_state(m, t, ev->ts);
		if (rc)
			return rc;
		t->since = ev->ts;
	}
	return task_rename(m, t, ev->u.exec.comm) ?
	       fts_err_set(&m->err, -ENOMEM, "out of memory (names)") : 0;
}

static int on_task_exit(struct fts_model *m, const struct fts_event *ev)
{
	struct task *t = task_find(m, ev->u.task.pid);

	if (t)
		t->exiting = 1;
	return 0;
}

/*
 * The `task` of an irq/softirq slice. The idle task is written as `<idle>`,
 * the exact string Insight's IRQ statistics skip (FtraceIrqStatisticsParseUnit);
 * `<idle>:0` would reach trace_irq_detail as a task no row matches.
 */
static const char *curr_task(struct fts_model *m, const struct fts_event *ev)
{
	const struct cpu *c = &m->cpus[ev->cpu];
	int32_t pid = c->known && c->curr_pid == ev->pid ? c->curr_pid : ev->pid;
	char tid[TID_MAX];

	if (pid == 0)
		return "<idle>";
	event_task(m, ev, tid);
	return vstr(m, tid);
}

static int on_irq_entry(struct fts_model *m, const struct fts_event *ev)
{
	struct cpu *c = &m->cpus[ev->cpu];
	struct irq_open *o;

	if (c->nirq == IRQ_STACK) {
		/* entries that never exited (lost events): forget the oldest */
		memmove(c->irqs, c->irqs + 1, sizeof(c->irqs[0]) * (IRQ_STACK - 1));
		c->nirq--;
		m->st.irq_unmatched_entry++;
	}
	assert(c->nirq >= 0 && c->nirq < IRQ_STACK);
	o = &c->irqs[c->nirq++];
	o->irq = ev->u.irq.irq;
	o->ts = ev->ts;
	fts_copy_str(o->name, FTS_NAME_MAX, ev->u.irq.name, -1);
	return 0;
}

static int on_irq_exit(struct fts_model *m, const struct fts_event *ev)
{
	struct cpu *c = &m->cpus[ev->cpu];
	struct fts_item it;
	uint32_t lane;
	int i, rc;

	for (i = c->nirq - 1; i >= 0 && c->irqs[i].irq != ev->u.irq.irq; i--)
		;
	if (i < 0) {
		m->st.irq_unmatched_exit++;
		return 0;
	}
	m->st.irq_unmatched_entry += (uint64_t)(c->nirq - 1 - i);
	c->nirq = i;
	if (ev->ts - c->irqs[i].ts > IRQ_MAX_NS) {
		m->st.irq_too_long++;
		return 0;
	}
	rc = cpu_lane(m, ev->cpu, &lane);
	if (rc)
		return rc;
	item_init(m, &it, lane, FTS_ITEM_IRQ, "irq");
	if (m->opts.lean) {
		m->st.irq_slices++;
		return emit(m, &it, c->irqs[i].ts, ev->ts);
	}
	arg(&it, "irq", vnum(m, ev->u.irq.irq));
	arg(&it, "name", vstr(m, c->irqs[i].name));
	arg(&it, "ret", ev->u.irq.ret ? "handled" : "unhandled");
	arg(&it, "task", curr_task(m, ev));
	m->st.irq_slices++;
	return emit(m, &it, c->irqs[i].ts, ev->ts);
}

static int on_softirq(struct fts_model *m, const struct fts_event *ev)
{
	struct cpu *c = &m->cpus[ev->cpu];
	int vec = ev->u.softirq.vec;
	struct fts_item it;
	uint64_t start;
	uint32_t lane;
	int rc;

	if (vec < 0 || vec >= SOFTIRQ_VECS)
		return 0;
	if (ev->type == FTS_EV_SOFTIRQ_ENTRY) {
		if (c->softirq_ts[vec])
			m->st.irq_unmatched_entry++;
		c->softirq_ts[vec] = ev->ts ? ev->ts : 1;
		return 0;
	}
	start = c->softirq_ts[vec];
	if (!start) {
		m->st.irq_unmatched_exit++;
		return 0;
	}
	c->softirq_ts[vec] = 0;
	if (ev->ts - start > IRQ_MAX_NS) {
		m->st.irq_too_long++;
		return 0;
	}
	rc = cpu_lane(m, ev->cpu, &lane);
	if (rc)
		return rc;
	item_init(m, &it, lane, FTS_ITEM_SOFTIRQ, "softirq");
	if (m->opts.lean) {
		m->st.softirq_slices++;
		return emit(m, &it, start, ev->ts);
	}
	arg(&it, "vec", vnum(m, vec));
	arg(&it, "action", fts_softirq_name(vec));
	arg(&it, "task", curr_task(m, ev));
	m->st.softirq_slices++;
	return emit(m, &it, start, ev->ts);
}

/* A "no data" slice on @lane over [@s, @e): nothing is known there (loss.h). */
static int emit_nodata(struct fts_model *m, uint32_t lane, int cpu, uint64_t s, uint64_t e)
{
	struct fts_item it;

	item_init(m, &it, lane, FTS_ITEM_NODATA, FTS_LOSS_NODATA_NAME);
	arg(&it, "cpu", vnum(m, cpu));
	m->st.nodata_slices++;
	return emit(m, &it, s, e);
}

/*
 * @t's state up to @s closed, and "no data" over [@s, @e) on its lane (a
 * hole on @cpu); its state after is the caller's to set. 0 or -ENOMEM.
 */
static int task_nodata(struct fts_model *m, struct task *t, int cpu, uint64_t s, uint64_t e)
{
	struct lane_ent *le;
	struct fts_item it;
	int rc = close_task_state(m, t, s);

	if (!rc)
		rc = task_lane_ready(m, t, &le);
	if (rc || e <= s)
		return rc;
	if (place(m, &it, s, e) && it.ts + it.dur > le->max_end)
		le->max_end = it.ts + it.dur;
	return emit_nodata(m, le->id, cpu, s, e);
}

/*
 * Whose state a hole on @cpu from @s makes unknown: the tasks last seen on
 * it, and tasks that became runnable elsewhere while it was dark and still
 * wait (it may have taken them: the migration would be in the hole).
 */
static int in_hole(const struct task *t, int cpu, uint64_t s)
{
	return t->cpu == cpu || (t->state == T_RUNNABLE && t->since >= s);
}

/*
 * The tasks last seen on @cpu (running, queued or sleeping there) have an
 * unknown state in its hole [@s, @e): close what they were doing at the
 * hole's start (or at their own later change), mark the hole, and go on in
 * the same state after it, until their next event says otherwise.
 */
static int task_holes(struct fts_model *m, int cpu, uint64_t s, uint64_t e)
{
	uint32_t tv;
	int rc;

	for (uint32_t pos = 0; fts_tidx_next(&m->tasks, &pos, &tv);) {
		struct task *t = task_at(m, tv);
		uint64_t from = t->since > s ? t->since : s;

		if (t->pid == 0 || t->state == T_UNKNOWN || from >= e || !in_hole(t, cpu, s))
			continue;
		rc = task_nodata(m, t, cpu, from, e);
		if (rc)
			return rc;
		if (m->opts.holes_forget)
			task_set(t, T_UNKNOWN, e, -1);
		else
			t->since = e;
	}
	return 0;
}

/* The zero-length "lost events" marker at @ts, with what is known of the drop. */
static int emit_lost_marker(struct fts_model *m, int cpu, uint64_t ts, uint64_t count,
			    uint64_t hole_ns, const char *where)
{
	struct cpu *c = &m->cpus[cpu];
	struct fts_item it;
	uint32_t lane;
	int rc;

	rc = cpu_lane(m, cpu, &lane);
	if (rc)
		return rc;
	item_init(m, &it, lane, FTS_ITEM_LOST, "lost events");
	arg(&it, FTS_LOSS_ARG_COUNT, count ? vnum(m, (int64_t)count) : "unknown");
	if (c->has_kernel)
		arg(&it, FTS_LOSS_ARG_KERNEL, vnum(m, (int64_t)c->kernel_lost));
	if (c->has_kernel && c->kernel_whole)
		arg(&it, FTS_LOSS_ARG_WHOLE, "1");
	if (hole_ns)
		arg(&it, FTS_LOSS_ARG_NODATA, vnum(m, (int64_t)(hole_ns / 1000)));
	if (where)
		arg(&it, "where", where);
	m->st.lost_markers++;
	c->drops++;
	return emit(m, &it, ts, ts);
}

/*
 * Lost events: mark them, and forget what may now be wrong: open irq
 * pairings, and who runs here. The current run slice ends at the last event
 * seen before the gap; from there to this event nothing is known, on this
 * CPU and for the tasks last seen on it: "no data", never carried state.
 */
static int on_lost(struct fts_model *m, const struct fts_event *ev)
{
	struct cpu *c = &m->cpus[ev->cpu];
	uint64_t hole_from = c->last_ts, hole_ns = 0;
	int rc;

	m->st.lost_events = fts__sat_add(m->st.lost_events, ev->u.lost.count);
	m->st.irq_unmatched_entry += (uint64_t)c->nirq;
	c->nirq = 0;
	memset(c->softirq_ts, 0, sizeof(c->softirq_ts));
	if (hole_from && hole_from < ev->ts) {
		uint32_t lane;

		hole_ns = ev->ts - hole_from;
		m->holes[m->nholes % HOLES].s = hole_from;
		m->holes[m->nholes % HOLES].e = ev->ts;
		m->holes[m->nholes % HOLES].cpu = ev->cpu;
		m->nholes++;
		rc = task_holes(m, ev->cpu, hole_from, ev->ts);
		if (rc)
			return rc;
		rc = cpu_lane(m, ev->cpu, &lane);
		if (!rc)
			rc = emit_nodata(m, lane, ev->cpu, hole_from, ev->ts);
		if (rc)
			return rc;
	}
	if (c->known) {
		rc = stop_unseen(m, ev->cpu, c->last_ts > c->since ? c->last_ts : c->since);
		if (rc)
			return rc;
		c->known = 0;
	}
	return emit_lost_marker(m, ev->cpu, ev->ts, ev->u.lost.count, hole_ns, NULL);
}

/*
 * The kernel's total for a CPU (the file's ring-buffer stats), before any
 * event. Inside a profiling window it is not this window's loss: only the
 * drop points inside the window count then.
 */
static int on_kernel_lost(struct fts_model *m, const struct fts_event *ev)
{
	struct cpu *c;
	int rc;

	if (m->opts.tm->has_window || ev->cpu < 0 || ev->cpu >= FTS_CPUSET_MAX)
		return 0;
	rc = ensure_cpu(m, ev->cpu);
	if (rc)
		return rc;
	c = &m->cpus[ev->cpu];
	c->kernel_lost = ev->u.lost.count;
	c->has_kernel = 1;
	c->kernel_whole = ev->u.lost.kernel == 2;
	return 0;
}

/*
 * A CPU whose kernel counters say it lost events the data never marked
 * (no drop point survived): one marker at its first event, saying so.
 */
static int unmarked_losses(struct fts_model *m)
{
	for (int i = 0; i < m->ncpus; i++) {
		struct cpu *c = &m->cpus[i];
		int rc;

		if (!c->has_kernel || !c->kernel_lost || c->drops || !c->first_ts)
			continue;
		rc = emit_lost_marker(m, i, c->first_ts, c->kernel_lost, 0,
				      "not marked in the data: from the kernel's counters");
		if (rc)
			return rc;
	}
	return 0;
}

static int dispatch(struct fts_model *m, const struct fts_event *ev);

static int model_event(struct fts_model *m, const struct fts_event *ev)
{
	const struct fts_timemap *tm = m->opts.tm;
	int rc;

	if (ev->type == FTS_EV_LOST && ev->u.lost.kernel)
		return on_kernel_lost(m, ev);
	m->st.events_in++;
	if (ev->ts > tm->hi) {
		m->st.after_window++;
		m->past_window = 1;
		return 0;
	}
	if (ev->ts < tm->lo)
		m->st.before_window++;
	else {
		if (!m->seen_event)
			m->st.first_ts = ev->ts;
		m->seen_event = 1;
		if (ev->ts > m->last_ts)
			m->last_ts = ev->ts;
	}
	if (ev->cpu < 0 || ev->cpu >= FTS_CPUSET_MAX) {
		m->st.cpu_out_of_range++;
		return 0;
	}
	rc = ensure_cpu(m, ev->cpu);
	if (!rc)
		rc = first_sight(m, ev);
	if (rc)
		return rc;
	note_foreign(&m->cpus[ev->cpu], ev);
	rc = dispatch(m, ev);
	if (!m->cpus[ev->cpu].first_ts && ev->type != FTS_EV_LOST)
		m->cpus[ev->cpu].first_ts = ev->ts;
	m->cpus[ev->cpu].last_ts = ev->ts;
	return rc;
}

static int dispatch(struct fts_model *m, const struct fts_event *ev)
{
	switch (ev->type) {
	case FTS_EV_SWITCH:
		return on_switch(m, ev);
	case FTS_EV_WAKING:
	case FTS_EV_WAKEUP:
	case FTS_EV_WAKEUP_NEW:
		return on_wake(m, ev);
	case FTS_EV_MIGRATE:
		return on_migrate(m, ev);
	case FTS_EV_STAT_RUNTIME:
		return on_runtime(m, ev);
	case FTS_EV_FORK:
		return on_fork(m, ev);
	case FTS_EV_EXEC:
		return on_exec(m, ev);
	case FTS_EV_EXIT:
		return on_task_exit(m, ev);
	case FTS_EV_IRQ_ENTRY:
		return on_irq_entry(m, ev);
	case FTS_EV_IRQ_EXIT:
		return on_irq_exit(m, ev);
	case FTS_EV_SOFTIRQ_ENTRY:
	case FTS_EV_SOFTIRQ_EXIT:
		return on_softirq(m, ev);
	case FTS_EV_LOST:
		return on_lost(m, ev);
	default:
		return 0;
	}
}

static int model_finish(struct fts_model *m)
{
	/* the end of the trace, or of the window when the trace goes on past it */
	uint64_t end = m->past_window ? m->opts.tm->hi : m->last_ts;
	uint32_t tv;
	int rc;

	m->st.last_ts = m->last_ts;
	if (!m->seen_event)
		return 0;
	rc = unmarked_losses(m);
	if (rc)
		return rc;
	for (int i = 0; i < m->ncpus; i++) {
		struct cpu *c = &m->cpus[i];

		if (c->known && c->since <= end) {
			rc = close_cpu_run(m, i, end, NULL);
			if (rc)
				return rc;
		}
		m->st.irq_unmatched_entry += (uint64_t)c->nirq;
		c->nirq = 0;
		for (int v = 0; v < SOFTIRQ_VECS; v++)
			m->st.irq_unmatched_entry += c->softirq_ts[v] != 0;
	}
	/* in the table's order: close_task_state never adds or drops a task */
	for (uint32_t pos = 0; fts_tidx_next(&m->tasks, &pos, &tv);) {
		struct task *t = task_at(m, tv);

		if (t->state != T_UNKNOWN && t->since <= end) {
			rc = close_task_state(m, t, end);
			if (rc)
				return rc;
		}
	}
	return m->opts.cs_rows ? emit_cs_markers(m) : 0;
}

int fts_model_create(const struct fts_model_opts *opts, struct fts_sink *sink,
		     struct fts_model **out, struct fts_err *err)
{
	struct fts_model *m = calloc(1, sizeof(*m));

	*out = NULL;
	if (!m)
		return fts_err_set(err, -ENOMEM, "out of memory");
	fts_tidx_init(&m->tasks, task_key, m);
	fts_tidx_init(&m->lane_keys, lane_key, m);
	fts_strtab_init(&m->names);
	m->opts = *opts;
	m->sink = sink;
	*out = m;
	return 0;
}

/* The model's own error (a sink's failure) travels out through the caller's. */
static int pass_error(const struct fts_model *m, int rc, struct fts_err *err)
{
	if (rc < 0 && err)
		*err = m->err;
	return rc;
}

int fts_model_event(struct fts_model *m, const struct fts_event *ev, struct fts_err *err)
{
	return pass_error(m, model_event(m, ev), err);
}

int fts_model_finish(struct fts_model *m, struct fts_err *err)
{
	return pass_error(m, model_finish(m), err);
}

const struct fts_model_stats *fts_model_stats(const struct fts_model *m)
{
	return &m->st;
}

void fts_model_free(struct fts_model *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->ntslab; i++)
		free(m->tslab[i]);
	free(m->tslab);
	fts_tidx_free(&m->tasks);
	fts_tidx_free(&m->lane_keys);
	free(m->lcomm);
	fts_strtab_free(&m->names);
	for (uint32_t i = 0; i < m->nlslab; i++)
		free(m->lslab[i]);
	free(m->lslab);
	free(m->cpus);
	free(m);
#ifdef __GLIBC__
	/*
	 * A million tasks leave a few hundred MB of small blocks freed in the
	 * middle of the heap, under what the sink still holds; the sink's finish
	 * (the statistics rows) then maps new memory, and the peak is both.
	 * Hand those pages back now.
	 */
	malloc_trim(0);
#endif
}
