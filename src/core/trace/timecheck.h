/* SPDX-License-Identifier: MIT */
/*
 * timecheck.h - the readers' guard on event times (private to src/trace).
 *
 * Everything after the readers (the sched model, the sinks, Insight) assumes
 * time never goes backwards on a CPU and fits the output's int64 after the
 * time map's offset. A text file made of two captures pasted together, a
 * reversed file or a crafted trace.dat breaks that, and the model would
 * quietly write slices of negative length that fail the import contract.
 * Both readers pass every event through here and stop with one line saying
 * where.
 */
#ifndef FTS_TIMECHECK_H
#define FTS_TIMECHECK_H

#include <stdint.h>

#include "ftscope/error.h"
#include "ftscope/event.h"

/* 2^62 ns (146 years of uptime): any later mono_raw time stamp is corrupt. */
#define FTS_TS_MAX (UINT64_C(1) << 62)

struct fts_timecheck {
	uint64_t *last;   /* per CPU; 0 = nothing seen yet */
	int n;
};

/*
 * fts_timecheck_event - check @ts of an event on @cpu against the range and
 * against the CPU's previous event. Returns 0, or a negative code with @err
 * filled ("<path>: time goes backwards on CPU ...").
 */
int fts_timecheck_event(struct fts_timecheck *tc, const char *path, int cpu, uint64_t ts,
			struct fts_err *err);

/*
 * fts_clock_pair_ok - is the recorder's (CLOCK_REALTIME, CLOCK_MONOTONIC_RAW)
 * marker plausible: mono_raw in (0, FTS_TS_MAX], realtime after it and
 * before 2100? A crafted one would move every output time (or wrap it);
 * the readers ignore it then (the trace stays on raw times).
 */
int fts_clock_pair_ok(uint64_t realtime_ns, uint64_t mono_raw_ns);

/*
 * fts_clock_take - keep one clock sample read from a capture in @cp
 * @cp: the capture's anchor so far
 * @stop: the sample is tagged as the stop one ("ftscope_clock_stop")
 * @realtime_ns, @mono_raw_ns: the pair
 * @has_mono: @mono_ns and @window_ns were given too
 *
 * The first plausible untagged sample is the start; a later one (RAW after
 * the start's, with MONOTONIC, like the start) is the stop, the latest
 * winning. An implausible MONOTONIC (more than 1000 ppm of the uptime + 1 s
 * from RAW, or a window over 1 s) is dropped. Returns 1 when the sample was
 * a well-formed pair (used or not), 0 otherwise.
 */
int fts_clock_take(struct fts_clock_pair *cp, int stop, uint64_t realtime_ns, uint64_t mono_raw_ns,
		   int has_mono, uint64_t mono_ns, uint64_t window_ns);

/* fts_timecheck_free - release @tc's table. */
void fts_timecheck_free(struct fts_timecheck *tc);

#endif
