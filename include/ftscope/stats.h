/* SPDX-License-Identifier: MIT */
/*
 * stats.h - Host Bound triage numbers, per task and per CPU, from lane items.
 *
 * One implementation for every front end: the statistics are a struct
 * fts_sink fed the same lanes and items the SQLite and JSON sinks get, so
 * they are the same whether the items come from a trace through the sched
 * model (fts_pipeline_run), from a DB or JSON replayed by the pipeline, or
 * from the terminal previewer's loader (fts_store_open_opts.extra).
 *
 * What each number is, in item terms (sched_model.h says where items come from):
 *   running/runnable/sleeping/blocked  task lane Running / Runnable /
 *                      Sleeping (S, I, ...) / Sleeping in D: sums of durations
 *   switches           CPU lane sched_switch items whose prev_comm:prev_pid is
 *                      the task; involuntary: prev_state starting with R
 *                      (preempted while runnable, R and R+)
 *   migrations         a Running slice on another CPU than the task's previous one
 *   irq/softirq        CPU lane irq/softirq slices whose `task` is the task
 *   wakeup latency     task lane Runnable slices with reason wakeup or new:
 *                      waking to running (nearest-rank percentiles)
 *   top preempter      Runnable slices with reason preempted, grouped by
 *                      `preempted_by`: the task that took the most time from it
 *   per CPU            run slices (busy), irq/softirq slices, sched_switch
 *                      items, lost-events markers (sum of their counts)
 * Context-switch markers (FTS_ITEM_MARKER) carry no time and are ignored.
 * "No data" (FTS_ITEM_NODATA, the holes after lost events) counts in no
 * state: a task's goes to unknown_ns, a CPU's out of its wall time, and
 * the holes are listed (fts_stats_hole) for the warning a front end prints.
 *
 * Memory: per task and per CPU, not per item (wakeup latencies are kept
 * exactly up to 64 per task, then in a log-linear histogram: percentiles
 * within 1% of the true sample, the maximum exact).
 */
#ifndef FTS_STATS_H
#define FTS_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "lane.h"
#include "loss.h"
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

struct fts_stats;

struct fts_stats_opts {
	/*
	 * Only what happens in [win_begin, win_end) (output ns) counts: slices
	 * are clipped to it, zero-length items and wakeups count when they start
	 * inside it. has_window == 0: everything.
	 */
	int has_window;
	uint64_t win_begin, win_end;
	/*
	 * Only these CPUs count (NULL: all): cpus[n] != 0 selects CPU n, for
	 * n < ncpus. Task-lane slices count by their `cpu` arg, CPU-lane items by
	 * their lane.
	 */
	const unsigned char *cpus;
	int ncpus;
	/* Or the same as a list ("0-3,8"), used when @cpus is NULL; NULL: all. */
	const char *cpu_list;
};

/* Columns of the per-task table, in the order the CLI prints them. */
enum fts_task_col {
	FTS_TCOL_TASK,          /* "task": comm:pid */
	FTS_TCOL_PID,           /* "pid" */
	FTS_TCOL_RUNNING,       /* "running_ns" */
	FTS_TCOL_RUNNABLE,      /* "runnable_ns" */
	FTS_TCOL_SLEEPING,      /* "sleeping_ns": S, I and other interruptible states */
	FTS_TCOL_BLOCKED,       /* "blocked_ns": D (uninterruptible) */
	FTS_TCOL_UNKNOWN,       /* "unknown_ns": no data, after lost events (loss.h) */
	FTS_TCOL_SWITCHES,      /* "switches" */
	FTS_TCOL_INVOLUNTARY,   /* "involuntary" */
	FTS_TCOL_MIGRATIONS,    /* "migrations" */
	FTS_TCOL_IRQ_COUNT,     /* "irq_count" */
	FTS_TCOL_IRQ_NS,        /* "irq_ns" */
	FTS_TCOL_SOFTIRQ_COUNT, /* "softirq_count" */
	FTS_TCOL_SOFTIRQ_NS,    /* "softirq_ns" */
	FTS_TCOL_TOP_IRQ,       /* "top_irq": the irq name / softirq action that took most */
	FTS_TCOL_WAKEUPS,       /* "wakeups" */
	FTS_TCOL_WAKE_P50,      /* "wakeup_p50_ns" */
	FTS_TCOL_WAKE_P99,      /* "wakeup_p99_ns" */
	FTS_TCOL_WAKE_MAX,      /* "wakeup_max_ns" */
	FTS_TCOL_PREEMPTER,     /* "top_preempter": comm:pid */
	FTS_TCOL_PREEMPTER_NS,  /* "top_preempter_ns": the runnable time after its preemptions */
	FTS_TCOL__COUNT
};

/* One task (one task lane: comm:pid, the pid Insight shows). */
struct fts_task_stats {
	const char *tid;            /* "comm:pid"; raw bytes: escape before display */
	const char *comm;           /* the comm part; raw bytes */
	int64_t pid;                /* the pid part (container pid when mapped) */
	uint64_t running_ns;
	uint64_t runnable_ns;
	uint64_t sleeping_ns;       /* Sleeping in any state but D */
	uint64_t blocked_ns;        /* Sleeping in D */
	uint64_t unknown_ns;        /* "no data": a hole after lost events, in no other column */
	uint64_t switches;
	uint64_t involuntary;
	uint64_t migrations;
	uint64_t irq_count, irq_ns;
	uint64_t softirq_count, softirq_ns;
	const char *top_irq;        /* "" when none; raw bytes */
	uint64_t top_irq_ns;
	uint64_t wakeups;           /* latency samples */
	uint64_t wake_p50_ns, wake_p99_ns, wake_max_ns; /* 0 when no samples */
	const char *top_preempter;  /* "" when never preempted; raw bytes */
	uint64_t top_preempter_count;
	uint64_t top_preempter_ns;
	uint64_t first_ns, last_ns; /* first state start, last state end (inside the window) */
};

/* One CPU lane. */
struct fts_cpu_stats {
	int32_t cpu;
	uint64_t busy_ns;           /* run slices (any task but idle) */
	uint64_t wall_ns;           /* the window, or the span of all items seen */
	double util;                /* busy_ns / wall_ns, 0..1 */
	uint64_t irq_count, irq_ns;
	uint64_t softirq_count, softirq_ns;
	uint64_t switches;
	uint64_t lost_events;       /* fts_loss_cpu_events (loss.h): the kernel's count when known */
	int lost_exact;             /* 0: @lost_events is a lower bound (drops of unknown size) */
	uint64_t lost_unsized;      /* drops of unknown size */
	uint64_t lost_markers;      /* drop points (some carry no count) */
	uint64_t nodata_ns;         /* no data after those drops: left out of @util */
};

/* A hole in the data: nothing is known on @cpu over [begin, end) (output ns). */
struct fts_stats_hole {
	int32_t cpu;
	uint64_t begin, end;
};

/* Totals over everything counted. */
struct fts_stats_info {
	uint64_t t_begin, t_end;    /* the span counted (the window, else first start .. last end) */
	uint64_t items;             /* items fed in */
	uint64_t items_counted;     /* of which inside the window and CPU filter */
	uint64_t flows;             /* wakeup links seen (not used for numbers) */
};

/**
 * fts_stats_create - an empty statistics collector
 * @o: window and CPU filter; NULL: everything (copied, @o->cpus too)
 * @out: the collector, owned by the caller (fts_stats_free)
 * @err: filled on error
 *
 * Returns 0, -EINVAL (an empty window, a bad CPU list) or -ENOMEM.
 */
FTS_API int fts_stats_create(const struct fts_stats_opts *o, struct fts_stats **out,
		     struct fts_err *err);

/**
 * fts_stats_sink - the sink that feeds @st
 * @st: the collector
 *
 * Hand it to fts_pipeline_run or fts_store_open_opts.extra. Its finish(ok=1)
 * computes the rows (after which the fts_stats_task/cpu calls answer); its
 * destroy() does nothing: the sink lives and dies with @st (fts_stats_free).
 *
 * Returns the sink, valid as long as @st.
 */
FTS_API struct fts_sink *fts_stats_sink(struct fts_stats *st);

/**
 * fts_stats_finish - compute the rows, if the sink's finish has not
 * @st: the collector
 * @err: filled on error
 *
 * For callers that feed the sink by hand. More items may follow (a live
 * view): the rows are then gone until the next finish, which counts
 * everything fed so far. The rows' strings stay valid until more items are
 * fed or fts_stats_free.
 *
 * Returns 0 or -ENOMEM.
 */
FTS_API int fts_stats_finish(struct fts_stats *st, struct fts_err *err);

/**
 * fts_stats_free - release a collector and its sink
 * @st: the collector; NULL is fine
 */
FTS_API void fts_stats_free(struct fts_stats *st);

/**
 * fts_stats_info - the totals over everything counted
 * @st: the collector
 *
 * Returns the totals, valid as long as @st.
 */
FTS_API const struct fts_stats_info *fts_stats_info(const struct fts_stats *st);

/**
 * fts_stats_loss - the loss seen by the statistics (the one model, loss.h)
 * @st: the collector, after fts_stats_finish
 *
 * Returns the model, valid as long as @st.
 */
FTS_API const struct fts_loss *fts_stats_loss(const struct fts_stats *st);

/**
 * fts_stats_nholes - how many holes (no data) fall in the window and CPU filter
 * @st: the collector, after fts_stats_finish
 *
 * Returns the count (0 before fts_stats_finish).
 */
FTS_API size_t fts_stats_nholes(const struct fts_stats *st);

/**
 * fts_stats_hole - hole @i, in time order
 * @st: the collector, after fts_stats_finish
 * @i: < fts_stats_nholes
 *
 * Returns the hole, or NULL when @i is out of range.
 */
FTS_API const struct fts_stats_hole *fts_stats_hole(const struct fts_stats *st, size_t i);

/**
 * fts_stats_ntasks - how many task rows there are
 * @st: the collector
 *
 * Returns the number of task rows (0 before finish).
 */
FTS_API size_t fts_stats_ntasks(const struct fts_stats *st);

/**
 * fts_stats_task - task row @i in the current order
 * @st: the collector, finished
 * @i: < fts_stats_ntasks()
 *
 * Rows are made from the counts a page at a time on first use (a collector
 * of a million tasks holds no row nobody asked for), so calls on one
 * collector from two threads at once need the caller's lock.
 *
 * Returns the row, valid until more items are fed or fts_stats_free (sorting
 * reorders, never moves rows); NULL when @i is out of range. Without memory
 * for its page, the row alone (comm "") in a slot the next such call reuses.
 */
FTS_API const struct fts_task_stats *fts_stats_task(const struct fts_stats *st, size_t i);

/**
 * fts_stats_ncpus - how many CPU rows there are (ordered by CPU number)
 * @st: the collector
 *
 * Returns the number of CPU rows (0 before finish).
 */
FTS_API size_t fts_stats_ncpus(const struct fts_stats *st);

/**
 * fts_stats_cpu - one CPU row
 * @st: the collector, finished
 * @i: < fts_stats_ncpus()
 *
 * Returns the row, valid as long as @st.
 */
FTS_API const struct fts_cpu_stats *fts_stats_cpu(const struct fts_stats *st, size_t i);

/**
 * fts_stats_sort_tasks - order the task rows by a column
 * @st: the collector, finished
 * @col: the column
 * @descending: non-zero for largest first
 *
 * Ties are broken by tid, so the order is the same on every run.
 */
FTS_API void fts_stats_sort_tasks(struct fts_stats *st, enum fts_task_col col, int descending);

/**
 * fts_task_col_name - a task column's name, with its unit
 * @col: the column
 *
 * Returns the name ("running_ns", ...), or NULL for a column out of range.
 */
FTS_API const char *fts_task_col_name(enum fts_task_col col);

/**
 * fts_task_col_parse - a column from its name
 * @name: as fts_task_col_name gives it; "running" without the unit also works
 * @col: filled
 *
 * Returns 0 or -EINVAL.
 */
FTS_API int fts_task_col_parse(const char *name, enum fts_task_col *col);

/**
 * fts_task_col_value - a numeric column of @t, for sorting and printing
 * @t: the row
 * @col: any column but FTS_TCOL_TASK, FTS_TCOL_TOP_IRQ, FTS_TCOL_PREEMPTER
 *
 * Returns the value (0 for the text columns).
 */
FTS_API uint64_t fts_task_col_value(const struct fts_task_stats *t, enum fts_task_col col);

/* ---- the one stats JSON (ftscope stats -f json, fts_st_run, Python) ---- */

/**
 * fts_stats_task_json - one task row as a JSON object
 * @t: the row
 *
 * Members: "task", "comm", "pid", every other column under its CLI name
 * (fts_task_col_name), then "top_irq_ns", "top_preempter_count", "first_ns",
 * "last_ns". Strings are escaped for JSON and for a terminal (controls, DEL
 * and C1 as \u escapes; invalid UTF-8 bytes as \u00XX).
 *
 * Returns a malloc'd NUL-terminated text (free() it), or NULL when out of memory.
 */
FTS_API char *fts_stats_task_json(const struct fts_task_stats *t);

/**
 * fts_stats_json - the statistics of one input as one JSON document
 * @st: finished statistics
 * @tasks: the task rows to list, in order (a selection of @st's); NULL: all of
 *         @st's in its current order (fts_stats_sort_tasks)
 * @ntasks: how many of @tasks (ignored when @tasks is NULL)
 *
 * The document: "window" {begin_ns, end_ns}, "info" {t_begin, t_end, items,
 * items_counted, lost_text}, "tasks" [fts_stats_task_json objects], "cpus"
 * [{cpu, util, busy_ns, wall_ns, irq_count, irq_ns, softirq_count,
 * softirq_ns, switches, lost_events, lost_exact, lost_unsized, lost_text,
 * lost_markers, nodata_ns}], "holes" [{cpu, begin_ns, end_ns}]. The command
 * line, the binding API and Python all print this one text.
 *
 * Returns a malloc'd NUL-terminated text (free() it), or NULL when out of memory.
 */
FTS_API char *fts_stats_json(const struct fts_stats *st, const struct fts_task_stats *const *tasks,
			     size_t ntasks);

/* ---- many hosts: one row per input, and the host manifest ---- */

/*
 * A whole input's numbers in one row, for comparing hosts (`ftscope stats
 * A.db B.db`): sums over the task rows a filter keeps, the tasks that waited
 * most by each measure, and the CPUs' totals.
 */
struct fts_stats_totals {
	uint64_t tasks;             /* task rows kept by the filter */
	uint64_t running_ns, runnable_ns, sleeping_ns, blocked_ns, unknown_ns;
	uint64_t switches, involuntary, migrations, wakeups;
	/* the kept task with the largest value (ties: the smaller tid); NULL when none */
	const struct fts_task_stats *most_runnable;   /* runnable_ns */
	const struct fts_task_stats *worst_wakeup;    /* wake_max_ns */
	const struct fts_task_stats *worst_p99;       /* wake_p99_ns */
	const struct fts_task_stats *most_preempted;  /* involuntary */
	uint64_t wake_max_ns;       /* largest wakeup latency of any kept task */
	uint64_t wake_p99_max_ns;   /* largest per-task p99 */
	int ncpus;
	uint64_t busy_ns, wall_ns;  /* summed over the CPU rows */
	uint64_t nodata_ns;
	double util;                /* busy / (wall - no data) over all CPUs, 0..1 */
	uint64_t lost_events;       /* summed over the CPU rows */
	int lost_exact;             /* 0: a lower bound (some drops had no size) */
};

/* A task filter for fts_stats_totals: non-zero keeps @t. */
typedef int (*fts_task_filter)(const struct fts_task_stats *t, void *arg);

/**
 * fts_stats_totals - one row of totals over an input's task and CPU rows
 * @st: the collector, finished
 * @keep: which task rows count; NULL: all
 * @arg: passed to @keep
 * @out: filled; its task pointers stay valid as long as @st's rows
 */
FTS_API void fts_stats_totals(const struct fts_stats *st, fts_task_filter keep, void *arg,
			      struct fts_stats_totals *out);

/*
 * One host of a many-host capture, from the manifest `scripts/multihost.sh`
 * writes beside the DBs (docs/multihost.md): which host each
 * ftrace_data<N>.db came from, since Insight only takes that file name.
 */
struct fts_host_entry {
	const char *host;           /* the host as the launcher named it; raw bytes */
	int64_t index;              /* N of ftrace_data<N>.db; -1 when absent */
	const char *db;             /* the DB's file name beside the manifest; "" when absent */
	const char *capture;        /* the capture's file name; "" when absent */
	const char *ranks;          /* the ranks whose profiling data aligned it ("0-7"); "" unknown */
	int has_clock;              /* @clock_offset_ns is known */
	int64_t clock_offset_ns;    /* CLOCK_REALTIME - CLOCK_MONOTONIC_RAW at record start */
};

struct fts_host_manifest;

/**
 * fts_host_manifest_load - read a host manifest (ftscope-hosts.json)
 * @path: the manifest
 * @out: the manifest, owned by the caller (fts_host_manifest_free)
 * @err: filled on error
 *
 * Each entry needs a non-empty "host"; hosts, indexes and file names are
 * unique, and file names are plain names (no '/'). "clock_offset_ns" is a
 * number or a string of digits (it needs 61 bits). Other keys are ignored.
 *
 * Returns 0, -EINVAL (not a manifest, with what is wrong), -ENOMEM, or the
 * file's error (missing, not a regular file, too large).
 */
FTS_API int fts_host_manifest_load(const char *path, struct fts_host_manifest **out,
				   struct fts_err *err);

/**
 * fts_host_manifest_count - how many hosts a manifest lists
 * @m: the manifest
 *
 * Returns the count.
 */
FTS_API size_t fts_host_manifest_count(const struct fts_host_manifest *m);

/**
 * fts_host_manifest_entry - host @i, in the manifest's order
 * @m: the manifest
 * @i: < fts_host_manifest_count
 *
 * Returns the entry (valid as long as @m), or NULL when @i is out of range.
 */
FTS_API const struct fts_host_entry *fts_host_manifest_entry(const struct fts_host_manifest *m,
							     size_t i);

/**
 * fts_host_manifest_find - the host whose DB or capture is @file
 * @m: the manifest
 * @file: a path; only its last component is compared
 *
 * Returns the entry, or NULL when no host names that file.
 */
FTS_API const struct fts_host_entry *fts_host_manifest_find(const struct fts_host_manifest *m,
							    const char *file);

/**
 * fts_host_manifest_free - release a manifest
 * @m: the manifest; NULL is fine
 */
FTS_API void fts_host_manifest_free(struct fts_host_manifest *m);

#ifdef __cplusplus
}
#endif

#endif
