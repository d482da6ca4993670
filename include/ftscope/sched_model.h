/* SPDX-License-Identifier: MIT */
/*
 * sched_model.h - the state machine that turns events into lane items.
 *
 * CPU lanes ("CPU Scheduling"): one run slice per stretch a task ran
 * (`comm:pid`, kernel threads included, idle left out), a zero-length
 * `sched_switch` marker per switch, `irq` and `softirq` slices, and
 * zero-length `lost events` markers. Task lanes ("Process Scheduling"):
 * consecutive `Running` / `Runnable` / `Sleeping` slices with `cpu` in args,
 * never zero-length (a state that lasted 0 ns is left out). Runnable slices
 * say why they wait (`reason`: wakeup, new, preempted) and, when known, who
 * woke the task (`waker`) or who took its CPU (`preempted_by`), as "comm:pid".
 * The `task` of an irq/softirq slice that hit the idle task is `<idle>`.
 *
 * State is kept per CPU and per live task only, so memory does not grow with
 * trace length (lane names are kept per task name ever seen).
 */
#ifndef FTS_SCHED_MODEL_H
#define FTS_SCHED_MODEL_H

#include <stdint.h>

#include "error.h"
#include "event.h"
#include "lane.h"
#include "pidmap.h"
#include "timemap.h"
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CPUs the model takes: 0 .. FTS_MODEL_CPU_MAX - 1; events on others are counted and dropped. */
#define FTS_MODEL_CPU_MAX 8192

struct fts_model_opts {
	const struct fts_timemap *tm;  /* required */
	const struct fts_pidmap *pm;   /* NULL: pids as recorded */
	/*
	 * Give each task lane for which Insight will count at least one switch
	 * (one sched_switch item with its prev_comm:prev_pid, prev_comm not a
	 * kernel thread Insight skips) one zero-length `Sleeping` marker with
	 * `"cpu": "-1"` at the lane's last end time: Insight only lands
	 * context-switch counts on (comm, pid, cpu -1) rows (contract 6.4 B),
	 * so without it that column stays 0. The markers come last, from
	 * fts_model_finish.
	 */
	int cs_rows;
	/*
	 * Items carry only what `ftscope stats` needs for the task figures (each
	 * task's Running and Runnable time, its wakeup latencies): Runnable
	 * slices keep their "reason"; every other arg (so stats' CPU selection,
	 * migrations, preempters, irq and switch counts per task), the run
	 * slices' "comm:pid" names and the waker and preempter names are not
	 * made. The slices, lanes and counters are the full model's. For the
	 * recorder's live top, which reads nothing else (0: every item
	 * complete, as convert and stats want).
	 */
	int lean;
	/*
	 * After a hole (lost events: no data on a CPU), the tasks it touched are
	 * in an unknown state until their next event, instead of going on in the
	 * state they had before it. For the live top, whose sampled pages leave
	 * a hole every tick: a task woken before one and gone to sleep inside it
	 * would otherwise count as Runnable until it next wakes (0: carried on,
	 * as convert and stats draw lanes).
	 */
	int holes_forget;
};

struct fts_model_stats {
	uint64_t events_in;          /* events fed in */
	uint64_t before_window;      /* events before the profiling window */
	uint64_t after_window;       /* events after it (ignored) */
	uint64_t cpu_slices;         /* run slices on CPU lanes */
	uint64_t switch_markers;
	uint64_t irq_slices;
	uint64_t softirq_slices;
	uint64_t lost_markers;
	uint64_t nodata_slices;      /* "no data" slices: holes after lost events (loss.h) */
	uint64_t lost_events;        /* sum of the counts the kernel gave */
	uint64_t task_running;
	uint64_t task_runnable;
	uint64_t task_sleeping;
	uint64_t cs_markers;
	uint64_t wakeup_links;       /* flows handed to the sink (waker -> woken's run) */
	uint64_t irq_unmatched_exit; /* exits without their entry (incl. softirq) */
	uint64_t irq_unmatched_entry;/* entries never closed */
	uint64_t irq_too_long;       /* > 1 s: a pairing across lost events */
	uint64_t switch_mismatch;    /* prev_pid was not who we saw running */
	uint64_t migrations;         /* sched_migrate_task events */
	uint32_t cpu_lanes;
	uint32_t task_lanes;
	uint64_t tasks_seen;
	uint64_t first_ts, last_ts;  /* trace clock, events inside the window */
	uint64_t cpu_out_of_range;   /* events on a CPU < 0 or >= FTS_MODEL_CPU_MAX (dropped) */
	/* sleepers seen running with no wakeup: woken in a hole, unknown over it, then Runnable */
	uint64_t lost_wakeups;
};

struct fts_model;

/**
 * fts_model_create - a model that turns events into lane items for a sink
 * @opts: the time map (required), pid map and marker rows
 * @sink: where items go; borrowed: the caller finishes and destroys it
 * @out: the model, freed with fts_model_free
 * @err: filled on error
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_model_create(const struct fts_model_opts *opts, struct fts_sink *sink,
		     struct fts_model **out, struct fts_err *err);

/**
 * fts_model_event - feed one event
 * @m: the model
 * @ev: the event; events come in time order
 * @err: filled with the sink's message when it fails
 *
 * Returns 0, or the sink's negative errno.
 */
FTS_API int fts_model_event(struct fts_model *m, const struct fts_event *ev, struct fts_err *err);

/**
 * fts_model_finish - close every open slice at the end of the trace
 * @m: the model
 * @err: filled with the sink's message when it fails
 *
 * The end is the last event, or the window's end when the trace goes on past
 * it; markers and wakeup links still pending are handed over too.
 *
 * Returns 0, or the sink's negative errno.
 */
FTS_API int fts_model_finish(struct fts_model *m, struct fts_err *err);

/**
 * fts_model_stats - counters for the summary
 * @m: the model
 *
 * Returns the counters, valid until fts_model_free.
 */
FTS_API const struct fts_model_stats *fts_model_stats(const struct fts_model *m);

/**
 * fts_model_free - release a model
 * @m: the model; NULL is fine
 */
FTS_API void fts_model_free(struct fts_model *m);

#ifdef __cplusplus
}
#endif

#endif
