/* SPDX-License-Identifier: MIT */
/*
 * loss.h - the one loss model: how many events each CPU lost, and how sure we are.
 *
 * Every place that reports loss (the recorder's live view and its end summary,
 * the readers, convert, stats, the preview, the TUI) fills and prints this one
 * structure, so they cannot disagree. Two sources feed it:
 *
 *  - the kernel's ring-buffer counters (per_cpu/cpuN/stats: overrun, commit
 *    overrun, dropped events), read live by the recorder and stored in the
 *    trace.dat (the CPUSTAT options trace-cmd report --stat prints);
 *  - the drop points in the data (a page header's "missed events"), which
 *    say where the loss happened and, not always, how much.
 *
 * Per CPU, events lost = the kernel's count when it is known (it counts every
 * drop, sized or not), else the sum of the sized drops, which is then only a
 * lower bound when some drops carried no size. "No data" is the time between
 * a drop's last known event and the next event on that CPU.
 */
#ifndef FTS_LOSS_H
#define FTS_LOSS_H

#include <stddef.h>
#include <stdint.h>

#include "lane.h"
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Arg keys of a "lost events" marker (all values strings, as Insight needs). */
#define FTS_LOSS_ARG_COUNT  "count"        /* events dropped here, or "unknown" */
#define FTS_LOSS_ARG_KERNEL "kernel_lost"  /* the kernel's total for this CPU, when known */
#define FTS_LOSS_ARG_NODATA "no_data_us"   /* length of the hole before the marker, us */
/*
 * "1": the kernel's total is this CPU's whole loss (a flight segment's own
 * share: a drop point at its start may mark events the previous segment's
 * count holds), so the drop points' sizes never raise it.
 */
#define FTS_LOSS_ARG_WHOLE  "kernel_whole"
#define FTS_LOSS_NODATA_NAME "no data"     /* name of the hole's slices (CPU and task lanes) */

struct fts_loss_cpu {
	uint64_t marked;         /* sum of the sizes the drop points carried */
	uint64_t drops;          /* drop points seen in the data */
	uint64_t unsized;        /* of them, drops without a size */
	uint64_t kernel;         /* overrun + commit overrun + dropped, when has_kernel */
	uint64_t overrun, commit_overrun, dropped;
	uint64_t nodata_ns;      /* time with no data on this CPU */
	uint64_t stopped;        /* of the kernel count, lost while the recorder was stopped */
	int has_kernel;          /* the kernel's counters are known for this CPU */
};

struct fts_loss {
	int ncpu;                /* entries in @cpu (highest CPU seen + 1) */
	struct fts_loss_cpu *cpu;
};

/* A whole capture's loss, rendered once, for results passed around by value. */
struct fts_loss_summary {
	int any;                 /* something was lost */
	int exact;               /* @total is the whole count (else a lower bound) */
	uint64_t total;          /* fts_loss_total */
	uint64_t unsized;        /* fts_loss_unsized */
	uint64_t drops;          /* drop points in the data */
	uint64_t nodata_ns;      /* fts_loss_nodata_ns */
	int cpus;                /* CPUs that lost something */
	int worst_cpu;           /* -1 when none */
	char text[256];          /* fts_loss_text with up to 4 CPUs named */
};

/**
 * fts_loss_init - an empty model (no allocation)
 * @l: the model
 */
FTS_API void fts_loss_init(struct fts_loss *l);

/**
 * fts_loss_free - release the model's memory and empty it
 * @l: the model; safe twice
 */
FTS_API void fts_loss_free(struct fts_loss *l);

/**
 * fts_loss_at - one CPU's entry, growing the table
 * @l: the model
 * @cpu: the CPU number
 *
 * Returns the entry, or NULL when out of memory or @cpu is negative or huge.
 */
FTS_API struct fts_loss_cpu *fts_loss_at(struct fts_loss *l, int cpu);

/**
 * fts_loss_copy - an independent copy
 * @dst: replaced (its old table freed)
 * @src: the model to copy
 *
 * Returns 0 or -ENOMEM (then @dst is unchanged).
 */
FTS_API int fts_loss_copy(struct fts_loss *dst, const struct fts_loss *src);

/**
 * fts_loss_set_kernel - the kernel's counters for a CPU (replacing earlier ones)
 * @l: the model
 * @cpu: the CPU
 * @overrun: events overwritten before they were read
 * @commit_overrun: events lost to nested writes
 * @dropped: events dropped on a full buffer (no overwrite)
 *
 * Returns 0 or -ENOMEM.
 */
FTS_API int fts_loss_set_kernel(struct fts_loss *l, int cpu, uint64_t overrun, uint64_t commit_overrun,
			uint64_t dropped);

/**
 * fts_loss_add_drop - one drop point in the data
 * @l: the model
 * @cpu: the CPU it happened on
 * @count: events dropped there; 0 when the kernel gave no size
 *
 * Returns 0 or -ENOMEM.
 */
FTS_API int fts_loss_add_drop(struct fts_loss *l, int cpu, uint64_t count);

/**
 * fts_loss_add_item - account one model item
 * @l: the model
 * @cpu: the CPU of the item's lane
 * @it: a "lost events" marker (its count and the kernel total it carries) or
 *      a "no data" slice on a CPU lane; other kinds are ignored
 *
 * Returns 0 or -ENOMEM.
 */
FTS_API int fts_loss_add_item(struct fts_loss *l, int cpu, const struct fts_item *it);

/**
 * fts_loss_cpu_events - events a CPU lost
 * @c: the CPU's entry
 *
 * Returns the kernel's count when known (never below the sized drops), else
 * the sum of the sized drops.
 */
FTS_API uint64_t fts_loss_cpu_events(const struct fts_loss_cpu *c);

/**
 * fts_loss_cpu_exact - whether fts_loss_cpu_events is the whole count
 * @c: the CPU's entry
 *
 * Returns 1 when exact, 0 when it is a lower bound (drops of unknown size).
 */
FTS_API int fts_loss_cpu_exact(const struct fts_loss_cpu *c);

/**
 * fts_loss_cpu_any - whether a CPU lost anything
 * @c: the CPU's entry
 *
 * Returns 1 for a count or a drop of unknown size, else 0.
 */
FTS_API int fts_loss_cpu_any(const struct fts_loss_cpu *c);

/**
 * fts_loss_total - events lost on all CPUs
 * @l: the model
 * @exact: set to 0 when the total is a lower bound, else 1 (may be NULL)
 *
 * Returns the sum of fts_loss_cpu_events.
 */
FTS_API uint64_t fts_loss_total(const struct fts_loss *l, int *exact);

/**
 * fts_loss_unsized - drops of unknown size on CPUs whose kernel count is unknown
 * @l: the model
 *
 * Returns the number of such drops.
 */
FTS_API uint64_t fts_loss_unsized(const struct fts_loss *l);

/**
 * fts_loss_any - whether any CPU lost anything
 * @l: the model
 *
 * Returns 1 or 0.
 */
FTS_API int fts_loss_any(const struct fts_loss *l);

/**
 * fts_loss_nodata_ns - time with no data, summed over CPUs
 * @l: the model
 *
 * Returns nanoseconds.
 */
FTS_API uint64_t fts_loss_nodata_ns(const struct fts_loss *l);

/**
 * fts_loss_worst - CPU numbers, most events lost first
 * @l: the model
 * @idx: filled with CPU numbers (ties: more unknown drops, then the lower CPU)
 * @n: room in @idx
 *
 * CPUs that lost nothing are left out.
 *
 * Returns how many went into @idx (<= @n).
 */
FTS_API int fts_loss_worst(const struct fts_loss *l, int *idx, int n);

/**
 * fts_loss_cpu_text - one CPU's loss in words
 * @c: the CPU's entry
 * @buf: filled with "1719", "at least 1959, plus 3 drops of unknown size",
 *       "3 drops of unknown size" or "0" (never "0" when anything was lost)
 * @n: size of @buf
 *
 * Returns @buf.
 */
FTS_API char *fts_loss_cpu_text(const struct fts_loss_cpu *c, char *buf, size_t n);

/**
 * fts_loss_text - the whole capture's loss in one line
 * @l: the model
 * @max_cpus: CPUs named at most (worst first, then ", ..."); 0 names none
 * @buf: filled with e.g. "2877 events (CPU 0: 1719, CPU 1: 1158)", or "none"
 * @n: size of @buf
 *
 * A lower bound reads "at least N events, plus K drops of unknown size".
 *
 * Returns @buf.
 */
FTS_API char *fts_loss_text(const struct fts_loss *l, int max_cpus, char *buf, size_t n);

/**
 * fts_loss_summarize - totals and the one-line text, for results passed by value
 * @l: the model
 * @out: filled
 */
FTS_API void fts_loss_summarize(const struct fts_loss *l, struct fts_loss_summary *out);

#ifdef __cplusplus
}
#endif

#endif
