/* SPDX-License-Identifier: MIT */
/*
 * latency_hist.h - percentiles of a stream of durations in bounded memory.
 *
 * The first LAT_EXACT samples are kept as they are (so small captures give
 * exact nearest-rank percentiles); past that every sample goes into a
 * log-linear histogram: values below 64 ns exactly, above that 64 buckets
 * per power of two (relative error under 1/64, about 1.6%), up to 2^44 ns
 * (4.9 hours; longer ones land in the last bucket). The maximum is always exact.
 */
#ifndef FTS_LATENCY_HIST_H
#define FTS_LATENCY_HIST_H

#include <stdint.h>

#define LAT_EXACT 64

/*
 * One per task: most tasks have a few samples or none, and a million tasks
 * are a million of these, so the first sample is kept inline (no heap at
 * all), the exact samples are grown from the second, and the histogram
 * takes the same pointer once it replaces them: 32 bytes for a task with
 * one sample, not 40 plus a heap block. Which member of @u is live follows
 * from @n alone: <= 1 @one, <= LAT_EXACT @exact, above @hist.
 */
struct fts_lat {
	uint64_t n;
	uint64_t max;
	union {
		uint64_t one;           /* n <= 1: the sample */
		uint64_t *exact;        /* 1 < n <= LAT_EXACT: @cap slots, min(n, LAT_EXACT) used */
		uint32_t *hist;         /* n > LAT_EXACT */
	} u;
	uint32_t cap;               /* room in @u.exact */
};

/* fts_lat_add - one sample. Returns 0 or -ENOMEM. */
int fts_lat_add(struct fts_lat *l, uint64_t v);

/*
 * fts_lat_pct - the nearest-rank @pct percentile (0 < pct <= 100): the
 * smallest sample with at least pct% of the samples at or below it. Sorts
 * the exact samples in place. Returns 0 when there are none.
 */
uint64_t fts_lat_pct(struct fts_lat *l, double pct);

/* fts_lat_free - release the samples and the histogram; the struct (the caller's) is left empty. */
void fts_lat_free(struct fts_lat *l);

#endif
