/* SPDX-License-Identifier: MIT */
/*
 * fmt.h - human-readable numbers for both front ends, one unit of each kind
 * on every screen: counts ("1.2M"), sizes ("1.5 MiB"), rates ("340.1k/s"),
 * durations in seconds ("2m05s") and trace durations in ns ("1.234 ms"). Each writes
 * into a caller buffer of at least FTS_FMT_LEN bytes and returns it, so
 * several can appear in one printf.
 */
#ifndef FTS_FRONT_FMT_H
#define FTS_FRONT_FMT_H

#include <stddef.h>
#include <stdint.h>

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

/**
 * fts_fmt_eta - the time left, always a time or "?"
 * @done: work done so far (any unit)
 * @total: all the work, same unit; 0 when unknown
 * @elapsed_s: seconds spent on @done
 * @buf: at least FTS_FMT_LEN bytes
 * @len: size of @buf
 *
 * The remaining work at the rate so far, as fts_fmt_duration; "?" while
 * nothing is done yet, the total is unknown or under half a second has
 * passed (no rate to trust), and "0.0 s" once @done reaches @total.
 *
 * Returns @buf.
 */
const char *fts_fmt_eta(double done, double total, double elapsed_s, char *buf, size_t len);

/* How fts_fmt_ns lays a duration out. */
enum fts_dur_form {
	FTS_DUR_SPACED,   /* "12 ns", "3.45 µs", "1.234 ms", "2.5 s": details and the axis */
	FTS_DUR_CELL,     /* "0", "12ns", "3.4µs", "1.2ms", "2.500s": a 9-column table cell */
};

/**
 * fts_fmt_ns - a trace duration in nanoseconds, in the unit that suits it
 * @ns: nanoseconds
 * @form: spaced, or compact for table cells
 * @utf8: "µs" when 1, "us" when 0
 * @buf: at least FTS_FMT_LEN bytes
 * @len: size of @buf
 *
 * Returns @buf.
 */
const char *fts_fmt_ns(uint64_t ns, enum fts_dur_form form, int utf8, char *buf, size_t len);

#endif
