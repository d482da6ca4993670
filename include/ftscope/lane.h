/* SPDX-License-Identifier: MIT */
/*
 * lane.h - lanes, items and the sink interface between the sched model and every output.
 *
 * The model declares each lane once (before its first item), then hands over
 * items (slices and zero-length markers) as they close; items are not in
 * time order. Times are output nanoseconds (already mapped). Every arg value
 * is a string: Insight's statistics read args without checking types.
 *
 * A sink is a struct of callbacks and its private state; SQLite, JSON and
 * the preview's lane store (src/export/sink, src/export/preview) each
 * implement one, so the model in src/core never depends on an output format.
 */
#ifndef FTS_LANE_H
#define FTS_LANE_H

#include <stdint.h>

#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FTS_GROUP_CPU_NAME "CPU Scheduling"
#define FTS_GROUP_TASK_NAME "Process Scheduling"
#define FTS_ITEM_MAX_ARGS 12

enum fts_lane_group {
	FTS_GROUP_CPU,   /* "CPU Scheduling": one lane per CPU, tid "CPU 003" */
	FTS_GROUP_TASK,  /* "Process Scheduling": one lane per task, tid "comm:pid" */
	/*
	 * The preview store only (preview.h), never a sink: a card's device
	 * stream or "Free" lane from the profiling data; items are FTS_ITEM_RUN
	 * slices named by kernel, as run slices on a CPU lane are by task.
	 */
	FTS_GROUP_NPU,
};

struct fts_lane {
	uint32_t id;               /* dense, from 0, in declaration order */
	enum fts_lane_group group;
	int32_t sort_index;        /* CPU number for CPU lanes, else 0 */
	const char *tid;           /* "CPU 003" or "comm:pid" (display pid) */
};

struct fts_arg {
	const char *key;
	const char *val;
};

/* What an item is, so no consumer has to compare names. */
enum fts_item_kind {
	FTS_ITEM_RUN,           /* CPU lane: a task's run slice, name "comm:pid" */
	FTS_ITEM_SWITCH,        /* CPU lane: zero-length "sched_switch" marker */
	FTS_ITEM_IRQ,           /* CPU lane: "irq" slice */
	FTS_ITEM_SOFTIRQ,       /* CPU lane: "softirq" slice */
	FTS_ITEM_LOST,          /* CPU lane: zero-length "lost events" marker */
	FTS_ITEM_RUNNING,       /* task lane: "Running" */
	FTS_ITEM_RUNNABLE,      /* task lane: "Runnable" (woken or preempted, waiting) */
	FTS_ITEM_SLEEPING,      /* task lane: "Sleeping", interruptible (S) or other */
	FTS_ITEM_BLOCKED,       /* task lane: "Sleeping" in uninterruptible state (D) */
	FTS_ITEM_MARKER,        /* task lane: zero-length context-switch totals row */
	FTS_ITEM_NODATA,        /* CPU or task lane: "no data", a hole after lost events (loss.h) */
	FTS_ITEM__COUNT
};

/*
 * One slice or zero-length marker. Lifetime: @name and every args[].key/val
 * point into the producer's scratch and are valid only during the sink's
 * item() call; a sink that keeps them copies (or interns) them.
 */
struct fts_item {
	uint32_t lane;
	enum fts_item_kind kind;
	uint64_t ts;       /* ns, > 0 */
	uint64_t dur;      /* ns; end = ts + dur exactly */
	const char *name;
	int nargs;
	struct fts_arg args[FTS_ITEM_MAX_ARGS];
};

/*
 * A wakeup link: from the waker, at the wakeup, to the woken task's next run
 * (its Running slice on its task lane). Delivered after both lanes are
 * declared; Insight draws it from the DB `flow` table, Perfetto from JSON
 * flow events. @name lives as long as the call.
 */
struct fts_flow {
	uint64_t id;        /* unique in the output, from 1 */
	const char *name;   /* "wakeup" */
	uint32_t from_lane; /* the waker's task lane */
	uint64_t from_ts;   /* output ns: the wakeup */
	uint32_t to_lane;   /* the woken task's lane */
	uint64_t to_ts;     /* output ns: the start of its Running slice */
};

struct fts_sink {
	/* Called once per lane before its first item; @lane->tid lives as long as the call. */
	int (*lane)(struct fts_sink *s, const struct fts_lane *lane, struct fts_err *err);
	/* One slice or marker. */
	int (*item)(struct fts_sink *s, const struct fts_item *it, struct fts_err *err);
	/* All items delivered: finish and publish (ok != 0) or discard (ok == 0). */
	int (*finish)(struct fts_sink *s, int ok, struct fts_err *err);
	/* Release everything; after finish, or instead of it on error. */
	void (*destroy)(struct fts_sink *s);
	/* Optional (NULL: the sink ignores links): one wakeup link. */
	int (*flow)(struct fts_sink *s, const struct fts_flow *f, struct fts_err *err);
	/*
	 * Optional (NULL: never), set by whoever runs the sink (the pipeline)
	 * before finish: non-zero means the run was cancelled, so finish
	 * discards rather than publishes. A sink asks between finish's steps,
	 * last just before its output replaces the target.
	 */
	int (*cancelled)(void *ctx);
	void *cancel_ctx;
};

/* fts_sink_cancelled - non-zero when @s's runner has cancelled the run (see fts_sink.cancelled). */
static inline int fts_sink_cancelled(const struct fts_sink *s)
{
	return s->cancelled && s->cancelled(s->cancel_ctx);
}

#ifdef __cplusplus
}
#endif

#endif
