// SPDX-License-Identifier: MIT
/* clock.c - the one monotonic clock reader (see core/internal.h). */
#include "core/internal.h"

#include <time.h>

uint64_t fts__clock_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double fts__clock_mono_s(void)
{
	return (double)fts__clock_mono_ns() / 1e9;
}

uint64_t fts__clock_mono_ms(void)
{
	return fts__clock_mono_ns() / 1000000u;
}
