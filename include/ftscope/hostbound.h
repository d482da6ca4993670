/* SPDX-License-Identifier: MIT */
/*
 * hostbound.h - "why was the NPU idle": each device idle interval of one card
 * (npu.h) blamed on what its dispatch threads did on the host meanwhile.
 *
 * Gaps: the profiler's "Free" intervals when the file has them, else the
 * stretches in which no stream of the card is busy; only those of at least
 * the threshold count. The dispatch thread of a gap is the host end of the
 * launch that ended it: of the flows whose device end is the first at or
 * after the gap's end, a HostToDevice one (the launching thread) before an
 * async_npu one (the op that queued it), the lowest tid on a tie, so the
 * order of the flows in the file never matters; a gap with none is split
 * evenly between the "Python" process's threads. The main thread is the
 * host end of most async_npu flows.
 *
 * The analysis is a struct fts_sink fed the sched model's lane items
 * (fts_pipeline_run): a dispatch thread's task lane (matched by the pid part
 * of "comm:pid", the container pid when the run has the pid mapping) gives
 * its state over the gap, clipped to it:
 *   running    Running, less the irq time below
 *   preempted  Runnable after a preemption (who took the CPU, on which CPU)
 *   waiting    Runnable after a wakeup, or for a reason the trace lost
 *   sleeping   Sleeping (S and other interruptible states)
 *   blocked    Sleeping in D
 *   irq        irq/softirq slices on a CPU lane that hit the thread
 *   unknown    no trace coverage (outside the capture, or no data after lost events)
 * and, from the profiler's own CPU ops of that thread, the op it was in.
 *
 * Causes (cause_ns, the one-line explanation): the same split, but where the
 * dispatch thread slept and the task that woke it is one of the profiler's
 * threads (it slept on an empty queue: the main thread enqueued the work),
 * that time is the waker's state over the sleep instead, recursively to
 * FTS_HB_MAX_DEPTH threads up. Culprits: for preempted and waiting time, the
 * tasks that ran on the CPU the thread waited for, by time (occupancy), not
 * the task that switched in first.
 *
 * Items come in any order; what the analysis keeps is the state of the
 * profiler's threads and the CPUs' run slices inside the gaps only.
 */
#ifndef FTS_HOSTBOUND_H
#define FTS_HOSTBOUND_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "lane.h"
#include "npu.h"
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

enum fts_hb_cat {
	FTS_HB_RUNNING,
	FTS_HB_PREEMPTED,
	FTS_HB_WAITING,
	FTS_HB_SLEEPING,
	FTS_HB_BLOCKED,
	/*
	 * interrupt work took the CPU: irqs and softirqs over the running
	 * thread; in the causes also the time it waited for a CPU a ksoftirqd
	 * thread held (the softirqs the kernel deferred to it)
	 */
	FTS_HB_IRQ,
	FTS_HB_UNKNOWN,
	FTS_HB__COUNT
};

#define FTS_HB_NONE UINT32_MAX   /* no string */
#define FTS_HB_MAX_DEPTH 3       /* threads followed up the wake-up chain, the dispatch thread's waker first */
#define FTS_HB_CULPRITS 3
#define FTS_HB_PARTS 4

/* What a thread is to the card. */
enum fts_hb_role {
	FTS_HB_ROLE_DISPATCH,   /* launches to the device (HostToDevice host end) */
	FTS_HB_ROLE_MAIN,       /* queues the work (async_npu host end) */
	FTS_HB_ROLE_OTHER,      /* another thread of the profiler's Python process */
};

/* A task that held a CPU a thread waited for. */
struct fts_hb_culprit {
	uint32_t task;          /* "comm:pid": fts_hostbound_str; FTS_HB_NONE: empty slot */
	int32_t cpu;
	double ns;              /* overlap with the waiting, weighted as the gap's time */
	int ours;               /* one of ftscope's own threads (the recorder's readers, ...) */
};

struct fts_hb_opts {
	uint64_t threshold_ns;   /* gaps shorter than this are left out; 0: 50 us */
	/* added to the profiler's times to get the items' (output ns): 0 when both are epoch ns */
	int64_t offset_ns;
	/*
	 * 1: the run has a pid mapping, so the items name tasks by their
	 * container pid; a task that ran on a CPU and that the mapping does not
	 * know (its pid is its "host_pid") is named "host:comm:pid", so that one
	 * report holds one pid namespace and the host's tasks stand out
	 */
	int pid_mapping;
};

/* One piece of a gap's causes: a thread in one state (the chain followed). */
struct fts_hb_part {
	int32_t tid;            /* the thread (container tid) */
	uint32_t thread;        /* its "comm:pid" during the gap */
	enum fts_hb_role role;
	int depth;              /* 0: the dispatch thread, 1: its waker, ... */
	enum fts_hb_cat cat;
	double ns;              /* 0: an empty slot */
	uint32_t op;            /* the profiler op it was in then (half of its longest stretch), FTS_HB_NONE */
	/*
	 * preempted or waiting: the task that held the CPU it waited for longest;
	 * irq: what took it longest ("irq 24 (eth0)", "softirq NET_RX",
	 * "softirq NET_RX in ksoftirqd/1:24"); FTS_HB_NONE
	 */
	uint32_t culprit;
	int32_t culprit_cpu;
	double culprit_ns;
};

/* One device idle interval and its verdict. */
struct fts_hb_gap {
	uint64_t ts, dur;               /* output ns */
	int32_t tid;                    /* dispatch thread (container tid); -1: the Python threads, split */
	uint32_t thread;                /* its name: fts_hostbound_str ("comm:pid" when the trace had it) */
	uint32_t next_kernel;           /* the device task that ended the gap: fts_npu_name; FTS_HB_NONE */
	/*
	 * The profiler's CPU op the dispatch thread was in during the gap
	 * (fts_hostbound_str; FTS_HB_NONE: none, or no single dispatch thread): of
	 * the ops of its thread that overlap the gap, the one that overlaps it
	 * most, the innermost on a tie.
	 */
	uint32_t op;
	double ns[FTS_HB__COUNT];       /* the gap's time by category; they add up to dur */
	enum fts_hb_cat verdict;        /* the largest category */
	uint32_t preempter;             /* the task that held the CPU most of the preempted time, or FTS_HB_NONE */
	int32_t preempter_cpu;          /* the CPU where that happened, -1 when unknown */
	double preempter_ns;
	int32_t wait_cpu;               /* the CPU most of the waiting time was spent on (a wakeup's target), -1 none */
	double wait_cpu_ns;             /* that time */
	/* ---- causes: the wake-up chain followed (see the top of this file) ---- */
	double cause_ns[FTS_HB__COUNT]; /* the gap's time by category after the chain; they add up to dur */
	enum fts_hb_cat cause;          /* the largest of them */
	int32_t cause_tid;              /* whose state that mostly is; -1 none */
	uint32_t cause_thread;          /* its "comm:pid" during the gap */
	enum fts_hb_role cause_role;
	int cause_depth;                /* 0: the dispatch thread itself, 1: its waker, ... */
	uint32_t cause_op;              /* the profiler's op that thread was in then, FTS_HB_NONE */
	double queued_ns;               /* the dispatch thread slept on an empty queue (handed upstream) */
	struct fts_hb_culprit culprits[FTS_HB_CULPRITS]; /* of the preempted and waiting time, most first */
	double outside_ns;              /* of the gap: before the capture's first event or after its last */
	uint32_t line;                  /* the verdict in one line: fts_hostbound_str */
	struct fts_hb_part parts[FTS_HB_PARTS]; /* the largest pieces of cause_ns, most first */
};

/*
 * One of the profiler's host threads and its role. Its name is the trace's
 * "comm:pid" as it last was in the capture (a shell that exec'd python is
 * named python from the exec on), else the profiler's ("Thread <tid>").
 */
struct fts_hb_thread {
	int32_t tid;
	uint32_t name;                  /* fts_hostbound_str */
	enum fts_hb_role role;
};

/*
 * Preempted and waiting time (of the threads the causes name) summed over
 * all gaps, by the task that held the CPU and that CPU.
 */
struct fts_hb_blame {
	uint32_t task;                  /* "comm:pid": fts_hostbound_str */
	int32_t cpu;                    /* -1 when unknown */
	double ns;
	uint32_t gaps;                  /* gaps in which it took time */
	int ours;                       /* one of ftscope's own threads */
};

/*
 * One training step's share of the idle time: each gap split between the
 * steps by overlap (a step ends where the next begins), so that the steps
 * and the row of idle time outside every step add up to the totals.
 */
struct fts_hb_step {
	uint32_t number;                /* ProfilerStep#<n>, STEP_TIME's id; FTS_HB_NONE: outside every step */
	uint64_t ts, dur;               /* output ns (0, 0 for the outside row) */
	double idle_ns;                 /* NPU idle inside it (gaps >= the threshold) */
	double cause_ns[FTS_HB__COUNT]; /* that time by cause; they add up to idle_ns */
	uint32_t gaps;                  /* gaps that overlap it */
	enum fts_hb_cat cause;          /* the largest of cause_ns */
	uint32_t culprit;               /* the task that held the CPUs waited for most (gap culprits), FTS_HB_NONE */
	int32_t culprit_cpu;
	double culprit_ns;
	int slowest;                    /* 1 on the longest step, when longer than every other */
};

/* What a piece of advice is about. */
enum fts_hb_advice_kind {
	FTS_HB_ADV_CPUS,        /* CPUs idle during the gaps: a taskset line for a dispatch or main thread */
	FTS_HB_ADV_TASK,        /* the task that held the CPU waited for: its policy and priority */
	FTS_HB_ADV_IRQ,         /* an irq or softirq that hit the profiler's threads' CPU */
	FTS_HB_ADV_CROWD,       /* more runnable threads than CPUs */
};

/* One piece of advice, for one dominant cause, with the capture's numbers. */
struct fts_hb_advice {
	enum fts_hb_advice_kind kind;
	enum fts_hb_cat cause;          /* the cause it answers */
	double ns;                      /* the idle time of that cause */
	uint32_t text;                  /* the finding in one line: fts_hostbound_str */
	uint32_t command;               /* a command to check or apply it, FTS_HB_NONE */
};

struct fts_hostbound;

/**
 * fts_hostbound_create - the gaps of @npu, ready to be fed lane items
 * @npu: the card; borrowed, must outlive the analysis
 * @opts: threshold and time offset; NULL: defaults
 * @out: the analysis, freed with fts_hostbound_free
 * @err: filled on error
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_hostbound_create(const struct fts_npu_trace *npu, const struct fts_hb_opts *opts,
				 struct fts_hostbound **out, struct fts_err *err);

/**
 * fts_hostbound_sink - the sink that feeds @hb (its finish() runs fts_hostbound_finish)
 * @hb: the analysis
 *
 * Returns the sink; it lives and dies with @hb (its destroy() does nothing).
 */
FTS_API struct fts_sink *fts_hostbound_sink(struct fts_hostbound *hb);

/**
 * fts_hostbound_finish - settle the verdicts after the last item
 * @hb: the analysis
 * @err: filled on error
 *
 * Sorts the gaps worst first (longest first, ties by time) and the blame
 * list by time taken.
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_hostbound_finish(struct fts_hostbound *hb, struct fts_err *err);

/**
 * fts_hostbound_gaps - the gaps, worst first after fts_hostbound_finish
 * @hb: the analysis
 * @n: set to their number
 *
 * Returns the array, valid until fts_hostbound_free.
 */
FTS_API const struct fts_hb_gap *fts_hostbound_gaps(const struct fts_hostbound *hb, size_t *n);

/**
 * fts_hostbound_totals - the idle time of all gaps by category
 * @hb: the analysis
 * @ns: filled with FTS_HB__COUNT sums
 *
 * Returns the total idle time in ns (the sum of the gaps).
 */
FTS_API uint64_t fts_hostbound_totals(const struct fts_hostbound *hb, double ns[FTS_HB__COUNT]);

/**
 * fts_hostbound_cause_totals - the idle time of all gaps by cause (the wake-up chain followed)
 * @hb: the analysis
 * @ns: filled with FTS_HB__COUNT sums of the gaps' cause_ns
 * @queued_ns: set to the time the dispatch threads slept on an empty queue
 * @outside_ns: set to the idle time before the capture's first event or after its last
 *
 * Returns the total idle time in ns (the sum of the gaps).
 */
FTS_API uint64_t fts_hostbound_cause_totals(const struct fts_hostbound *hb, double ns[FTS_HB__COUNT],
					    double *queued_ns, double *outside_ns);

/**
 * fts_hostbound_blame - preempted and waiting time by the task that held the CPU, most first
 * @hb: the analysis
 * @n: set to the number of entries
 *
 * Returns the array, valid until fts_hostbound_free.
 */
FTS_API const struct fts_hb_blame *fts_hostbound_blame(const struct fts_hostbound *hb, size_t *n);

/**
 * fts_hostbound_threads - the profiler's host threads: dispatch, then main, then the others
 * @hb: the analysis, finished
 * @n: set to their number
 *
 * Within a role by tid. Returns the array, valid until fts_hostbound_free.
 */
FTS_API const struct fts_hb_thread *fts_hostbound_threads(const struct fts_hostbound *hb, size_t *n);

/**
 * fts_hostbound_steps - the idle time per training step, in time order
 * @hb: the analysis, finished
 * @n: set to the number of rows: one per step of the profile, then one
 *     (number FTS_HB_NONE) when some idle time lies outside every step;
 *     0 when the profile marks no step
 *
 * Returns the array, valid until fts_hostbound_free.
 */
FTS_API const struct fts_hb_step *fts_hostbound_steps(const struct fts_hostbound *hb, size_t *n);

/**
 * fts_hostbound_advice - what to do about the dominant causes (>= 10% of the idle time)
 * @hb: the analysis, finished
 * @n: set to the number of entries
 *
 * Preempted or waiting: the CPUs idle for at least half of the gaps' traced
 * time (a taskset line per dispatch and main thread), the task that held the
 * CPU most with its policy and priority (from the scheduler's prio), and for
 * waiting the number of threads that ran on the CPUs during those gaps. Irq:
 * the interrupt that took most of it, its CPU and /proc/irq/N/smp_affinity.
 *
 * Returns the array, valid until fts_hostbound_free.
 */
FTS_API const struct fts_hb_advice *fts_hostbound_advice(const struct fts_hostbound *hb, size_t *n);

/**
 * fts_hostbound_str - a task name the analysis kept
 * @hb: the analysis
 * @id: a string id from a gap or a blame entry
 *
 * Returns the name (raw bytes: escape before display), "" for FTS_HB_NONE.
 */
FTS_API const char *fts_hostbound_str(const struct fts_hostbound *hb, uint32_t id);

/**
 * fts_hostbound_cat_name - a category's name
 * @cat: the category
 *
 * Returns "running", "preempted", "waiting", "sleeping", "blocked", "irq", "unknown" or "?".
 */
FTS_API const char *fts_hostbound_cat_name(enum fts_hb_cat cat);

/**
 * fts_hostbound_role_name - a role's name
 * @role: the role
 *
 * Returns "dispatch", "main", "other" or "?".
 */
FTS_API const char *fts_hostbound_role_name(enum fts_hb_role role);

/**
 * fts_hostbound_gaps_from_free - whether the gaps are the profiler's "Free" intervals
 * @hb: the analysis
 *
 * Returns 1 for the profiler's own, 0 when computed from the streams.
 */
FTS_API int fts_hostbound_gaps_from_free(const struct fts_hostbound *hb);

/**
 * fts_hostbound_lane_tid - the profiler thread a lane the sink was fed is
 * @hb: the analysis, after its sink saw the lanes
 * @lane: a lane id as the sink was given it (struct fts_lane.id)
 *
 * The same match the verdicts use: a task lane whose pid is the container
 * tid of a "Python" thread or of a launch flow's host end.
 *
 * Returns that tid, or -1 for a lane that is none of them (or unknown).
 */
FTS_API int32_t fts_hostbound_lane_tid(const struct fts_hostbound *hb, uint32_t lane);

/**
 * fts_hostbound_write - the totals, the blame list and the gaps as CSV or JSON
 * @hb: the analysis, finished
 * @f: where to write
 * @json: 1 for JSON (one object: the card, its totals, preempters, gaps,
 *        steps (fts_hostbound_steps) and advice (fts_hostbound_advice)),
 *        0 for CSV (one row per gap, worst first, the card in the first column)
 * @top: gaps to write, worst first; 0: all
 * @card: the card's name for the output (its rank directory's name)
 * @header: CSV: 1 to write the header line first (the first card of several)
 *
 * Names are quoted and escaped for the format, and so that printing the
 * output on a terminal is safe.
 *
 * Returns 0, or -EIO when writing failed.
 */
FTS_API int fts_hostbound_write(const struct fts_hostbound *hb, FILE *f, int json, size_t top,
				const char *card, int header);

/**
 * fts_hostbound_write_steps - the per-step table as CSV (fts_hostbound_steps)
 * @hb: the analysis, finished
 * @f: where to write
 * @card: the card's name for the first column
 * @header: 1 to write the header line first (the first card of several)
 *
 * One row per step in time order, its step number "outside" for the idle
 * time outside every step; names quoted and escaped as fts_hostbound_write's.
 *
 * Returns 0, or -EIO when writing failed.
 */
FTS_API int fts_hostbound_write_steps(const struct fts_hostbound *hb, FILE *f, const char *card, int header);

/**
 * fts_hostbound_free - release an analysis
 * @hb: the analysis; NULL is fine
 */
FTS_API void fts_hostbound_free(struct fts_hostbound *hb);

#ifdef __cplusplus
}
#endif

#endif
