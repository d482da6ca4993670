/* SPDX-License-Identifier: MIT */
/*
 * stats_lean.h - a cheaper fts_stats for readers that show only the worst
 * wakeup latency (the recorder's live top), private to core.
 *
 * A task's latency samples (kept exactly up to 64, then in a histogram) and
 * the percentiles made of them at every finish cost the live top about a
 * tenth of its CPU, for figures it never shows.
 */
#ifndef FTS_STATS_LEAN_H
#define FTS_STATS_LEAN_H

#include "ftscope/stats.h"

/*
 * fts_stats_max_only - keep of each task's wakeup latencies only their count
 * and maximum: the rows' wake_p50_ns and wake_p99_ns then read 0, everything
 * else is unchanged. Call before the first item.
 */
void fts_stats_max_only(struct fts_stats *st);

#endif
