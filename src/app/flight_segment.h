/* SPDX-License-Identifier: MIT */
/*
 * flight_segment.h - the flight recorder's segment value ("30s", "64M") and
 * keep count as both front ends read them: `record --segment/--keep` and the
 * TUI's setup screen, so the two accept exactly the same words.
 */
#ifndef FTS_FRONT_FLIGHT_SEGMENT_H
#define FTS_FRONT_FLIGHT_SEGMENT_H

#include <stdint.h>

/* The segments kept when no count is given (the recorder's own default). */
#define FTS_FLIGHT_KEEP_DEFAULT 4
/* The largest --keep accepted. */
#define FTS_FLIGHT_KEEP_MAX 100000

/**
 * fts_flight_parse_segment - a segment length or size
 * @v: "30s", "2m", "1h", "30" (seconds) or "64M", "512K", "1G" (bytes)
 * @sec: the length in seconds, or 0
 * @bytes: the size in bytes, or 0
 *
 * Returns 0 (one of *@sec, *@bytes set, the other 0) or -1.
 */
int fts_flight_parse_segment(const char *v, double *sec, uint64_t *bytes);

#endif
