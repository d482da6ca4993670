/* SPDX-License-Identifier: MIT */
/*
 * util.h - the two small helpers the front ends share with the library, so
 * each job has one implementation: decoding UTF-8 (every escaper and the
 * TUI's cell writer validate text with it) and reading the monotonic clock
 * (progress rates, ETAs, redraw timers).
 */
#ifndef FTS_UTIL_H
#define FTS_UTIL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * fts_utf8_decode - the well-formed UTF-8 sequence at the start of a string
 * @s: NUL-terminated bytes (a NUL never continues a sequence, so reading stops there)
 * @cp: filled with the code point when the sequence is valid; may be NULL
 *
 * Rejects overlong forms, surrogates and code points above U+10FFFF. ASCII,
 * including control characters, is valid: callers decide what to escape.
 *
 * Returns the sequence's length (1 to 4), or 0 when the bytes at @s are not
 * valid UTF-8 (or @s is empty).
 */
int fts_utf8_decode(const unsigned char *s, uint32_t *cp);

/**
 * fts_clock_mono_ns - CLOCK_MONOTONIC in nanoseconds
 *
 * Returns the time, for intervals only (it has no epoch).
 */
uint64_t fts_clock_mono_ns(void);

/**
 * fts_clock_mono_s - CLOCK_MONOTONIC in seconds
 *
 * Returns the time as a double, for progress rates and timers.
 */
double fts_clock_mono_s(void);

#ifdef __cplusplus
}
#endif

#endif
