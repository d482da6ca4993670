/* SPDX-License-Identifier: MIT */
/*
 * stats_detail.h - the finer grain of `ftscope stats --format xlsx`: each
 * task's numbers per CPU, and the interrupts that hit it per CPU and per
 * irq name / softirq action (the reference report's task_summary and
 * proc_irq_detail sheets). A sink fed beside the statistics collector
 * (stats.h), counting the same items by the same rules, so that summed over
 * CPUs and names each row gives back the task's `stats` numbers.
 */
#ifndef FTS_CLI_STATS_DETAIL_H
#define FTS_CLI_STATS_DETAIL_H

#include <ftscope/lane.h>
#include <ftscope/stats.h>

#include <stddef.h>
#include <stdint.h>

/* One task on one CPU (cpu -1: slices that named no CPU). */
struct fts_detail_row {
	const char *tid;            /* "comm:pid"; raw bytes */
	int32_t cpu;
	uint64_t running_ns, runnable_ns, sleeping_ns, blocked_ns, unknown_ns;
	uint64_t switches, involuntary;
};

/* The irq (or softirq) @name that hit task @tid on @cpu. */
struct fts_detail_irq {
	const char *tid;            /* raw bytes */
	int32_t cpu;
	int soft;                   /* 1: a softirq action */
	const char *name;           /* raw bytes; "?" when the event named none */
	uint64_t count, ns;
};

struct fts_detail;

/* A collector counting only what @so's window keeps (its CPU filter is not applied). NULL: no memory. */
struct fts_detail *fts_detail_new(const struct fts_stats_opts *so);
/* Its sink, for fts_pipeline_run beside the statistics'; lives as long as @d. */
struct fts_sink *fts_detail_sink(struct fts_detail *d);
/* After the run: rows by tid then CPU, irq rows by tid, CPU, type, name. */
size_t fts_detail_nrows(const struct fts_detail *d);
const struct fts_detail_row *fts_detail_row_at(const struct fts_detail *d, size_t i);
size_t fts_detail_nirqs(const struct fts_detail *d);
const struct fts_detail_irq *fts_detail_irq_at(const struct fts_detail *d, size_t i);
void fts_detail_free(struct fts_detail *d);

#endif
