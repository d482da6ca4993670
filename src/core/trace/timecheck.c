// SPDX-License-Identifier: MIT
/* timecheck.c - per-CPU monotonic time and range check (see timecheck.h). */
#include "core/trace/timecheck.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define TIMECHECK_MAX_CPUS (1 << 20)   /* the readers' own CPU bound */

static int grow(struct fts_timecheck *tc, int cpu)
{
	int n = tc->n ? tc->n : 64;
	uint64_t *p;

	while (n <= cpu)
		n *= 2;
	p = realloc(tc->last, sizeof(*p) * (size_t)n);
	if (!p)
		return -1;
	memset(p + tc->n, 0, sizeof(*p) * (size_t)(n - tc->n));
	tc->last = p;
	tc->n = n;
	return 0;
}

int fts_timecheck_event(struct fts_timecheck *tc, const char *path, int cpu, uint64_t ts,
			struct fts_err *err)
{
	uint64_t prev;

	if (ts > FTS_TS_MAX)
		return fts_err_set(err, -ERANGE,
				   "%s: time stamp %llu ns on CPU %d is out of range (more than 146 years of uptime); the trace is corrupt",
				   path, (unsigned long long)ts, cpu);
	if (cpu < 0 || cpu >= TIMECHECK_MAX_CPUS)
		return 0;   /* the readers bound CPUs themselves */
	if (cpu >= tc->n && grow(tc, cpu))
		return fts_err_set(err, -ENOMEM, "%s: out of memory", path);
	prev = tc->last[cpu];
	if (ts < prev)
		return fts_err_set(err, -EINVAL,
				   "%s: time goes backwards on CPU %d (%llu.%09llu s after %llu.%09llu s); is this two captures joined or a reordered file? convert each capture on its own",
				   path, cpu, (unsigned long long)(ts / 1000000000u),
				   (unsigned long long)(ts % 1000000000u),
				   (unsigned long long)(prev / 1000000000u),
				   (unsigned long long)(prev % 1000000000u));
	tc->last[cpu] = ts;
	return 0;
}

int fts_clock_pair_ok(uint64_t realtime_ns, uint64_t mono_raw_ns)
{
	const uint64_t year_2100_ns = UINT64_C(4102444800) * 1000000000u;

	return mono_raw_ns > 0 && mono_raw_ns <= FTS_TS_MAX && realtime_ns > mono_raw_ns &&
	       realtime_ns <= year_2100_ns;
}

/* MONOTONIC within 1000 ppm of the uptime (+1 s) of RAW, read within 1 s. */
static int mono_ok(uint64_t raw, uint64_t mono, uint64_t window)
{
	uint64_t d = mono > raw ? mono - raw : raw - mono;

	return mono > 0 && mono <= FTS_TS_MAX && d <= raw / 1000 + 1000000000u &&
	       window <= 1000000000u;
}

int fts_clock_take(struct fts_clock_pair *cp, int stop, uint64_t realtime_ns, uint64_t mono_raw_ns,
		   int has_mono, uint64_t mono_ns, uint64_t window_ns)
{
	if (!fts_clock_pair_ok(realtime_ns, mono_raw_ns))
		return 0;
	has_mono = has_mono && mono_ok(mono_raw_ns, mono_ns, window_ns);
	if (!cp->valid) {
		if (stop)
			return 1;   /* a stop with no start before it anchors nothing */
		memset(cp, 0, sizeof(*cp));
		cp->valid = 1;
		cp->realtime_ns = (int64_t)realtime_ns;
		cp->mono_raw_ns = (int64_t)mono_raw_ns;
		if (has_mono) {
			cp->has_mono = 1;
			cp->mono_ns = (int64_t)mono_ns;
			cp->window_ns = (int64_t)window_ns;
		}
		return 1;
	}
	if (!has_mono || !cp->has_mono || (int64_t)mono_raw_ns <= cp->mono_raw_ns ||
	    (cp->has_stop && (int64_t)mono_raw_ns <= cp->stop_mono_raw_ns))
		return 1;
	cp->has_stop = 1;
	cp->stop_realtime_ns = (int64_t)realtime_ns;
	cp->stop_mono_raw_ns = (int64_t)mono_raw_ns;
	cp->stop_mono_ns = (int64_t)mono_ns;
	cp->stop_window_ns = (int64_t)window_ns;
	return 1;
}

void fts_timecheck_free(struct fts_timecheck *tc)
{
	free(tc->last);
	tc->last = NULL;
	tc->n = 0;
}
