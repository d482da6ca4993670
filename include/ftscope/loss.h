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

/* fts_loss_init - an empty model (no allocation). */
FTS_API void fts_loss_init(struct fts_loss *l);

/* fts_loss_free - release @l's memory and empty it. */
FTS_API void fts_loss_free(struct fts_loss *l);

/* fts_loss_at - CPU @cpu's entry, growing the table; NULL on ENOMEM or @cpu < 0. */
FTS_API struct fts_loss_cpu *fts_loss_at(struct fts_loss *l, int cpu);

/* fts_loss_copy - make @dst an independent copy of @src; 0 or -ENOMEM. */
FTS_API int fts_loss_copy(struct fts_loss *dst, const struct fts_loss *src);

/* fts_loss_set_kernel - the kernel's counters for @cpu (replaces earlier ones); 0 or -ENOMEM. */
FTS_API int fts_loss_set_kernel(struct fts_loss *l, int cpu, uint64_t overrun, uint64_t commit_overrun,
			uint64_t dropped);

/* fts_loss_add_drop - one drop point on @cpu: @count events, 0 when the kernel gave no size. */
FTS_API int fts_loss_add_drop(struct fts_loss *l, int cpu, uint64_t count);

/*
 * fts_loss_add_item - account one model item on CPU @cpu: a "lost events"
 * marker (its count and the kernel total it carries) or a "no data" slice
 * on a CPU lane; other kinds are ignored. 0 or -ENOMEM.
 */
FTS_API int fts_loss_add_item(struct fts_loss *l, int cpu, const struct fts_item *it);

/* fts_loss_cpu_events - events @c lost: the kernel's count if known (never below the sized drops). */
FTS_API uint64_t fts_loss_cpu_events(const struct fts_loss_cpu *c);

/* fts_loss_cpu_exact - 1 when fts_loss_cpu_events is the whole count, 0 when a lower bound. */
FTS_API int fts_loss_cpu_exact(const struct fts_loss_cpu *c);

/* fts_loss_cpu_any - 1 when @c lost anything (a count, or a drop of unknown size). */
FTS_API int fts_loss_cpu_any(const struct fts_loss_cpu *c);

/* fts_loss_total - events lost on all CPUs; *@exact (may be NULL) 0 when a lower bound. */
FTS_API uint64_t fts_loss_total(const struct fts_loss *l, int *exact);

/* fts_loss_unsized - drops of unknown size on CPUs whose kernel count is not known. */
FTS_API uint64_t fts_loss_unsized(const struct fts_loss *l);

/* fts_loss_any - 1 when any CPU lost anything. */
FTS_API int fts_loss_any(const struct fts_loss *l);

/* fts_loss_nodata_ns - time with no data, summed over CPUs. */
FTS_API uint64_t fts_loss_nodata_ns(const struct fts_loss *l);

/*
 * fts_loss_worst - CPU numbers, most events lost first (ties: lower CPU);
 * CPUs that lost nothing are left out. Returns how many went into @idx (<= @n).
 */
FTS_API int fts_loss_worst(const struct fts_loss *l, int *idx, int n);

/*
 * fts_loss_cpu_text - "1719", "at least 1959, plus 3 drops of unknown size",
 * "3 drops of unknown size" or "0" into @buf; never "0" when anything was lost.
 * Returns @buf.
 */
FTS_API char *fts_loss_cpu_text(const struct fts_loss_cpu *c, char *buf, size_t n);

/*
 * fts_loss_text - the whole capture in one line: "2877 events (CPU 0: 1719,
 * CPU 1: 1158)", worst CPUs first, at most @max_cpus named (then ", ...");
 * "none" when nothing was lost. Returns @buf.
 */
FTS_API char *fts_loss_text(const struct fts_loss *l, int max_cpus, char *buf, size_t n);

#ifdef __cplusplus
}
#endif

#endif
