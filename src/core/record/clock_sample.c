/* SPDX-License-Identifier: MIT */
/*
 * clock_sample.c - read CLOCK_REALTIME, CLOCK_MONOTONIC and
 * CLOCK_MONOTONIC_RAW together, and the line a capture stores them in.
 *
 * Samples at a capture's start and stop let convert fit MONOTONIC against
 * RAW (their rates differ by the NTP frequency correction), which Ascend's
 * profiler_info needs: its end is on MONOTONIC, the trace on RAW.
 */
#include "core/record/record_local.h"

#include <stdio.h>
#include <time.h>

/* Tries per sample: a preemption inside one try only widens that try. */
#define CLOCK_TRIES 5

static int64_t ts_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

void rec_clock_sample(struct rec_clock *out)
{
	int64_t best = -1;

	for (int i = 0; i < CLOCK_TRIES; i++) {
		struct timespec a, mono, rt, b;
		int64_t gap;

		clock_gettime(CLOCK_MONOTONIC_RAW, &a);
		clock_gettime(CLOCK_MONOTONIC, &mono);
		clock_gettime(CLOCK_REALTIME, &rt);
		clock_gettime(CLOCK_MONOTONIC_RAW, &b);
		gap = ts_ns(&b) - ts_ns(&a);
		if (best < 0 || gap < best) {
			best = gap;
			out->rt = ts_ns(&rt);
			out->mono = ts_ns(&mono);
			out->raw = ts_ns(&a) + gap / 2;
			out->window = gap;
		}
	}
}

int rec_clock_format(char *buf, size_t size, const char *tag, const struct rec_clock *c)
{
	return snprintf(buf, size, "%s realtime_ns=%lld mono_raw_ns=%lld mono_ns=%lld window_ns=%lld",
			tag, (long long)c->rt, (long long)c->raw, (long long)c->mono,
			(long long)c->window);
}
