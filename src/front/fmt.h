/* SPDX-License-Identifier: MIT */
/*
 * fmt.h - human-readable numbers for both front ends: counts ("1.2M"),
 * sizes ("1.5 MiB"), rates ("340.1k/s") and durations ("2m05s"). Each writes
 * into a caller buffer of at least FTS_FMT_LEN bytes and returns it, so
 * several can appear in one printf.
 */
#ifndef FTS_FRONT_FMT_H
#define FTS_FRONT_FMT_H

#include <stddef.h>

#define FTS_FMT_LEN 32

/**
 * fts_fmt_count - a count with a decimal prefix
 * @v: the count (negative, NaN and infinity print as "?")
 * @buf: at least FTS_FMT_LEN bytes
 * @len: size of @buf
 *
 * 950 -> "950", 1234 -> "1.2k", 5.6e6 -> "5.6M" (k, M, G, T).
 *
 * Returns @buf.
 */
const char *fts_fmt_count(double v, char *buf, size_t len);

/**
 * fts_fmt_bytes - a size with a binary prefix
 * @v: bytes
 * @buf: at least FTS_FMT_LEN bytes
 * @len: size of @buf
 *
 * 512 -> "512 B", 1536 -> "1.5 KiB", up to TiB.
 *
 * Returns @buf.
 */
const char *fts_fmt_bytes(double v, char *buf, size_t len);

/**
 * fts_fmt_rate - a per-second rate as a count with "/s"
 * @per_s: events (or anything) per second
 * @buf: at least FTS_FMT_LEN bytes
 * @len: size of @buf
 *
 * Returns @buf ("340.1k/s").
 */
const char *fts_fmt_rate(double per_s, char *buf, size_t len);

/**
 * fts_fmt_duration - seconds for a person
 * @s: seconds
 * @buf: at least FTS_FMT_LEN bytes
 * @len: size of @buf
 *
 * Under a minute "12.3 s"; under an hour "2m05s"; else "1h02m".
 *
 * Returns @buf.
 */
const char *fts_fmt_duration(double s, char *buf, size_t len);

#endif
