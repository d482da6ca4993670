/* SPDX-License-Identifier: MIT */
/*
 * hostbound_impl.h - the Host Bound analysis's state, shared by its files:
 * hostbound.c (gaps, roles, ops, the public accessors), hostbound_sink.c
 * (lane items -> what the gaps need), hostbound_cause.c (the verdicts:
 * states, the wake-up chain, occupancy culprits), hostbound_out.c (CSV/JSON).
 *
 * Data: the gaps (disjoint, ascending); the threads the profiler names (its
 * Python threads and the launch flows' host ends), each with a role; and,
 * for the gaps' windows only, two flat arrays the sink appends to in any
 * order and finish sorts: the threads' state slices (struct hb_seg) and the
 * CPUs' run slices (struct hb_run), each clipped to one gap.
 */
#ifndef FTS_HOSTBOUND_IMPL_H
#define FTS_HOSTBOUND_IMPL_H

#include "ftscope/hostbound.h"

#include "core/util/inthash.h"
#include "core/util/strtab.h"

#define HB_LANE_NONE 0
#define HB_LANE_CPU UINT32_MAX

struct hb_gap {
	struct fts_hb_gap pub;
	uint32_t nthreads;    /* threads sharing it (weight 1/n each) */
	/*
	 * When the work of the launch that ended it was queued (its async_npu
	 * flow's host end, output ns) and by whom: before that the dispatch
	 * thread had nothing to launch, whatever it was doing. 0 / -1: unknown.
	 */
	uint64_t queued_at;
	int32_t queuer;
};

struct hb_thread {
	int32_t tid;
	uint32_t name;        /* the "comm:pid" of its latest traced slice, else the profiler's name */
	enum fts_hb_role role;
	int traced_name;      /* the profiler named it "Thread <tid>" / "tid <tid>": the trace's name wins */
	uint64_t named_at;    /* the end of the slice that gave the name */
};

/* A profiler thread's state, clipped to one gap. */
struct hb_seg {
	uint64_t s, e;
	uint32_t gap, thread; /* thread: index in threads */
	uint32_t lname;       /* its lane's "comm:pid" (the name at that time) */
	int32_t cpu;          /* Runnable: the CPU it waited for; irq: the CPU hit */
	int32_t waker;        /* Runnable after a wakeup: the waker's pid, else -1 */
	int32_t irq;          /* irq: its number, -1 for a softirq or unknown */
	uint32_t irqname;     /* irq: its name (softirq: its action), FTS_HB_NONE */
	uint8_t cat;          /* enum fts_hb_cat */
};

/* Who ran on a CPU, clipped to one gap. */
struct hb_run {
	uint64_t s, e;
	uint32_t gap, task;   /* task: "comm:pid" string id */
	int32_t cpu, pid;
	int32_t prio;         /* the kernel's prio (0-99 real-time, 100-139 normal), -1 unknown */
	int softirqd;         /* the task is a ksoftirqd: softirq work deferred to its thread */
};

/*
 * Softirq time a ksoftirqd thread ran inside the gaps, by (thread, vector):
 * what to call a CPU that thread held ("softirq NET_RX in ksoftirqd/1:24").
 */
struct hb_ksoft {
	uint32_t task, vec;   /* "comm:pid", the vector's action name: string ids */
	int32_t cpu;
	double ns;
};

struct fts_hostbound {
	struct fts_sink sink;          /* first: the sink callbacks get the hostbound */
	const struct fts_npu_trace *npu;
	int64_t offset_ns;             /* profiler time + this = output ns */
	int pid_mapping;               /* fts_hb_opts.pid_mapping */
	int from_free;
	struct hb_gap *gaps;           /* ascending, disjoint */
	size_t ngaps;
	uint32_t *gap_tids;            /* the threads each gap is blamed on: gap_first[g]..gap_first[g+1] */
	size_t *gap_first;
	struct fts_hb_gap *sorted;     /* public copy, worst first */
	struct hb_thread *threads;
	size_t nthreads;
	struct fts_hb_thread *pub_threads; /* fts_hostbound_threads: by role, then tid */
	struct fts_inthash by_tid;     /* tid -> thread index */
	uint32_t *lanes;               /* lane id -> thread index + 1, HB_LANE_CPU, HB_LANE_NONE */
	uint32_t *lane_names;          /* lane id -> its "comm:pid"; a CPU lane's: its CPU */
	size_t nlanes;
	struct hb_seg *segs;
	size_t nsegs, csegs;
	struct hb_run *runs;
	size_t nruns, cruns;
	struct hb_ksoft *ksoft;
	size_t nksoft, cksoft;
	/* irqs and softirqs over other tasks (or idle), clipped to the gaps: task is their label */
	struct hb_run *irqs;
	size_t nirqs, cirqs;
	uint64_t first_ts, last_end;   /* the capture's items: its covered span */
	uint64_t *op_maxend;           /* per npu op: the latest end of its thread's ops up to it */
	struct fts_hb_blame *blame;
	size_t nblame;
	struct fts_hb_step *steps;     /* fts_hostbound_steps */
	size_t nsteps;
	struct fts_hb_advice *advice;  /* fts_hostbound_advice */
	size_t nadvice, cadvice;
	struct fts_strtab strs;
};

/* Arrays start at 16 elements. 0 or -ENOMEM. */
int hb_grow(void **p, size_t *cap, size_t need, size_t size);

/* @s's id in the analysis's strings, UINT32_MAX when out of memory. */
uint32_t hb_intern(struct fts_hostbound *hb, const char *s);

/* The thread of @tid, NULL when it is none of the profiler's. */
struct hb_thread *hb_thread_by_tid(const struct fts_hostbound *hb, int32_t tid);

/*
 * The profiler op thread @tid was in most over [a, b) (output ns), the
 * innermost on a tie, if it covers at least @share of it; FTS_HB_NONE.
 * UINT32_MAX when out of memory.
 */
uint32_t hb_op_over(struct fts_hostbound *hb, int32_t tid, uint64_t a, uint64_t b, double share);

/* Whether "comm:pid" @task is one of ftscope's own threads. */
int hb_ours(const char *task);

/* Whether "comm:pid" @task is a ksoftirqd thread (the kernel runs deferred softirqs in it). */
int hb_softirqd(const char *task);

/*
 * What took a CPU in interrupt work: "irq 24 (eth0)", "softirq NET_RX" for
 * irq @irq (-1: a softirq) named @name; for a ksoftirqd run slice's task, "softirq NET_RX in
 * ksoftirqd/1:24" (the vector it ran most in the gaps). UINT32_MAX when out
 * of memory.
 */
uint32_t hb_irq_label(struct fts_hostbound *hb, int32_t irq, const char *name);
uint32_t hb_softirqd_label(struct fts_hostbound *hb, uint32_t task);

/* The verdicts, culprits and one-line causes of every gap, into hb->sorted (hostbound_cause.c). */
int hb_settle(struct fts_hostbound *hb);

/*
 * The per-step table and the advice (hostbound_steps.c, hostbound_advice.c),
 * from hb->sorted while it is still in gap order. 0 or -ENOMEM.
 */
int hb_make_steps(struct fts_hostbound *hb);
int hb_make_advice(struct fts_hostbound *hb);

/* The pid of "comm:pid", -1 when there is none. */
int32_t hb_pid_of(const char *task);

/* The sink callbacks (hostbound_sink.c). */
int hb_sink_lane(struct fts_sink *s, const struct fts_lane *l, struct fts_err *err);
int hb_sink_item(struct fts_sink *s, const struct fts_item *it, struct fts_err *err);

#endif
