/* SPDX-License-Identifier: MIT */
/*
 * internal.h - the internal kit: library helpers the in-tree front ends (cli,
 * tui, front) share with the library, so each job has one implementation
 * and none of them has to become public API. Not installed; the fts__
 * prefix marks every name as internal (SQLite's sqlite3_ / sqlite3Xxx split),
 * and tests/contract/check_layers.py lets a front end call the library only
 * through a public header or this one.
 */
#ifndef FTS_KIT_H
#define FTS_KIT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/**
 * fts__utf8_decode - the well-formed UTF-8 sequence at the start of a string
 * @s: NUL-terminated bytes (a NUL never continues a sequence, so reading stops there)
 * @cp: filled with the code point when the sequence is valid; may be NULL
 *
 * Rejects overlong forms, surrogates and code points above U+10FFFF. ASCII,
 * including control characters, is valid: callers decide what to escape.
 *
 * Returns the sequence's length (1 to 4), or 0 when the bytes at @s are not
 * valid UTF-8 (or @s is empty).
 */
int fts__utf8_decode(const unsigned char *s, uint32_t *cp);

/* The room fts__utf8_clean needs for @n input bytes. */
#define FTS__UTF8_CLEAN_MAX(n) (2 * (size_t)(n) + 1)

/**
 * fts__utf8_clean - a string made valid UTF-8 the way the JSON escaper does it
 * @dst: room for FTS__UTF8_CLEAN_MAX(strlen(@s)) bytes
 * @s: NUL-terminated bytes (task names: anything)
 *
 * Valid UTF-8 is kept; each byte that is not part of a valid sequence is
 * read as Latin-1 and written as that code point's UTF-8, which is what a
 * JSON reader gets from fts__json_escape's \u00XX. So a task's name in the
 * DB is the name in the JSON of the same capture.
 *
 * Returns the length written, without the NUL that ends it.
 */
size_t fts__utf8_clean(char *dst, const char *s);

/**
 * fts__utf8_valid - whether a string is valid UTF-8 throughout
 * @s: NUL-terminated bytes
 *
 * Returns 1 or 0.
 */
int fts__utf8_valid(const char *s);

/**
 * fts__sat_add - @a + @b, or UINT64_MAX when the sum does not fit
 * @a: a count
 * @b: another
 *
 * Counts from a file (lost events, durations) can be anything up to
 * UINT64_MAX; a total that wrapped would read as a small, wrong number.
 *
 * Returns the saturated sum.
 */
static inline uint64_t fts__sat_add(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* fts__all_digits - 1 when @s is a non-empty run of ASCII digits (a pid as text), else 0. */
static inline int fts__all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/**
 * fts__clock_mono_ns - CLOCK_MONOTONIC in nanoseconds
 *
 * Returns the time, for intervals only (it has no epoch).
 */
uint64_t fts__clock_mono_ns(void);

/**
 * fts__clock_mono_s - CLOCK_MONOTONIC in seconds
 *
 * Returns the time as a double, for progress rates and timers.
 */
double fts__clock_mono_s(void);

/**
 * fts__clock_mono_ms - CLOCK_MONOTONIC in milliseconds
 *
 * Returns the time, for redraw and tick timers.
 */
uint64_t fts__clock_mono_ms(void);

/**
 * fts__thread_start - pthread_create with every signal blocked in the new thread
 * @t: filled with the thread
 * @attr: attributes, or NULL
 * @fn: the thread's function
 * @arg: its argument
 *
 * Every thread the library or a front end starts blocks every signal, so
 * SIGINT, SIGWINCH, SIGHUP and friends reach the front end's own thread (its
 * handlers, its terminal), never a reader or writer in the middle of a
 * system call. The caller's signal mask is unchanged when this returns.
 *
 * Returns 0 or a negative errno.
 */
int fts__thread_start(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);

/**
 * fts__thread_start_fifo - fts__thread_start at SCHED_FIFO 1, where allowed
 * @t, @fn, @arg: as fts__thread_start
 * @attr: attributes (initialised, not NULL); its scheduling fields are set here
 *
 * For short timed work that must not wait behind a loaded CPU (the clock
 * marker, the sampler that ends a capture): the policy is in the attributes,
 * so even the thread's first run does not queue behind fair-scheduled tasks.
 * Without the right to it (no CAP_SYS_NICE) the thread starts as a normal one.
 *
 * Returns 0 or a negative errno.
 */
int fts__thread_start_fifo(pthread_t *t, pthread_attr_t *attr, void *(*fn)(void *), void *arg);

/* fts__json_escape / fts__json_fputs flags */
#define FTS__JSON_BRACES 0x1u /* '{' '}' as \u007b \u007d: Insight splits big files by counting raw braces */
#define FTS__JSON_TERM   0x2u /* DEL and C1 controls (U+0080-U+009F) escaped too: the text may reach a terminal */
/* fts__json_escape_n only: @s is readable to @n rounded up to 8 bytes (whole-word reads) */
#define FTS__JSON_PADDED 0x4u

/* The room fts__json_escape needs for @n input bytes: quotes, \u00XX per byte, NUL. */
#define FTS__JSON_ESC_MAX(n) (6 * (size_t)(n) + 3)

/**
 * fts__json_escape - a string as a quoted JSON string that is always valid UTF-8
 * @dst: room for FTS__JSON_ESC_MAX(strlen(@s)) bytes
 * @s: NUL-terminated bytes (task names: anything)
 * @flags: FTS__JSON_BRACES, FTS__JSON_TERM, or 0
 *
 * '"' and '\\' are backslash-escaped; control bytes, and bytes that are not
 * valid UTF-8 (read as Latin-1), become \u00XX; valid UTF-8 is kept, except
 * what @flags asks to escape. The one escaper of the sinks (SQLite args,
 * JSON output: FTS__JSON_BRACES) and of `ftscope stats --format json`
 * (FTS__JSON_TERM).
 *
 * Returns the length written, without the NUL that ends it.
 */
size_t fts__json_escape(char *dst, const char *s, unsigned flags);

/**
 * fts__json_escape_n - fts__json_escape of a string whose length is known
 * @dst: room for FTS__JSON_ESC_MAX(@n) bytes
 * @s: @n bytes, NUL-terminated at @n (the escaper's UTF-8 check may read to it)
 * @n: strlen(@s)
 * @flags: as for fts__json_escape
 *
 * The same output as fts__json_escape; a string with nothing to escape (the
 * sinks' usual one) is checked eight bytes at a time and copied whole.
 * Returns the length written, without the NUL that ends it.
 */
size_t fts__json_escape_n(char *dst, const char *s, size_t n, unsigned flags);

/* A byte of every lane of a 64-bit word (the escaper's word tests). */
#define FTS__ONES 0x0101010101010101ull
#define FTS__HIGHS 0x8080808080808080ull

/* Some byte of @v is @c (exact: the classic zero-byte test on v ^ c). */
static inline uint64_t fts__has_byte(uint64_t v, unsigned char c)
{
	uint64_t x = v ^ (FTS__ONES * c);

	return (x - FTS__ONES) & ~x & FTS__HIGHS;
}

/*
 * fts__json_word_unplain - non-zero when some byte of @v may need escaping:
 * a control byte, '"', '\\', or a byte from '{' (0x7b) up, which takes in
 * '{', '}', DEL and all of non-ASCII in one test (adding 5 carries such a
 * byte into its high bit). '|' and '~' come along: the exact byte loop then
 * copies them as they are. A carry or borrow moves a flag up into higher
 * bytes only, never down.
 */
static inline uint64_t fts__json_word_unplain(uint64_t v)
{
	return ((v | (v + FTS__ONES * (0x80 - '{'))) & FTS__HIGHS) |
	       ((v - FTS__ONES * 0x20) & ~v & FTS__HIGHS) | fts__has_byte(v, '"') |
	       fts__has_byte(v, '\\');
}

/**
 * fts__json_escape_padded - fts__json_escape_n of a string readable to @n
 * rounded up to 8 bytes (FTS__JSON_PADDED), inline for the JSON writer's
 * dozen strings per event: checked and copied a word at a time; a string
 * with something to escape goes through fts__json_escape_n, which writes
 * all of @dst again.
 */
static inline size_t fts__json_escape_padded(char *dst, const char *s, size_t n, unsigned flags)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t bad = 0, v;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&v, s + i, 8);
		bad |= fts__json_word_unplain(v);
		memcpy(dst + 1 + i, &v, 8);
	}
	if (i < n) {
		memcpy(&v, s + i, 8);
		/* only the string's bytes: a flag rises to higher bytes, never lower */
		bad |= fts__json_word_unplain(v) & ((1ull << (8 * (n - i))) - 1);
		memcpy(dst + 1 + i, &v, 8);
	}
	if (!bad) {
		dst[0] = '"';
		dst[n + 1] = '"';
		dst[n + 2] = '\0';
		return n + 2;
	}
#endif
	return fts__json_escape_n(dst, s, n, flags & ~FTS__JSON_PADDED);
}

/**
 * fts__json_fputs - fts__json_escape onto a stream, without a buffer to size
 * @f: the stream
 * @s: NUL-terminated bytes
 * @flags: as for fts__json_escape
 *
 * Returns 0, or -1 when the stream is in error.
 */
int fts__json_fputs(FILE *f, const char *s, unsigned flags);

/* A directory of flight-recorder segments (<stem>.NNNNNN.dat) read as one input. */
struct fts_err;

/* fts__segments_is_dir - 1 when @path is a directory (a segments input), else 0. */
int fts__segments_is_dir(const char *path);

/*
 * fts__segments_list - the trace.dat segments (<stem>.NNNNNN.dat) in @dir,
 * in number order, as "dir/name" strings (free with fts__segments_free).
 * Returns the count (> 0), or a negative errno with @err filled (none there,
 * or segments of more than one stem).
 */
int fts__segments_list(const char *dir, char ***paths, struct fts_err *err);

/* What fts__segments_pick chose in a directory. */
struct fts__seg_pick {
	int runs;            /* recording runs found (segments of one run share an id) */
	int other;           /* segments of the other runs, left out */
	int dups;            /* segments found again under another number, counted once */
	uint64_t run;        /* the run read (the newest); 0: segments without a run id */
};

/*
 * fts__segments_pick - fts__segments_list, reading only the newest run's
 * segments, each once; what it chose in *@pick (may be NULL).
 */
int fts__segments_pick(const char *dir, char ***paths, struct fts__seg_pick *pick, struct fts_err *err);

/* fts__segments_free - free what fts__segments_list returned. */
void fts__segments_free(char **paths, int n);

struct fts_owner;

/**
 * fts__outfile_put - write a whole output file from memory, as every output is
 * @target: the output's path; a symlink or a directory there is refused
 * @buf: the bytes
 * @n: how many
 * @owner: who gets the file (NULL: the writer)
 * @err: filled on error
 *
 * Through a temp file beside @target, renamed over it once complete and
 * synced (outfile.h): never through a symlink, never half-written.
 *
 * Returns 0 or a negative errno; on error @target is as it was.
 */
int fts__outfile_put(const char *target, const void *buf, size_t n, const struct fts_owner *owner,
		     struct fts_err *err);

/*
 * Test control (SQLite's sqlite3_test_control): the hooks the tests use to
 * make a rare condition happen on demand. The library reads no environment
 * (DESIGN): the programs translate their FTSCOPE_TEST_* variables into these
 * calls at startup (src/app/env.c), before any library thread runs; a
 * library user never needs them. Every hook is off (0 / NULL) until set.
 */
enum fts__test_op {
	FTS__TEST_READER_DELAY_MS = 1, /* long 1..9999: each stream reader sleeps this long per pass (loss on demand) */
	FTS__TEST_SETUP_DELAY_MS,      /* long 1..9999: instance creation holds its lock this long */
	FTS__TEST_LOAD_PACE_MS,        /* long 1..10000: a store load slowed this much per sketch check */
	FTS__TEST_MEMINFO,             /* const char *: read in place of /proc/meminfo ("" or NULL: off) */
	FTS__TEST_NOPS
};

/**
 * fts__test_control - set one test hook
 * @op: an enum fts__test_op
 * @...: its value: a long, or a const char * (copied) for FTS__TEST_MEMINFO
 *
 * A value outside the hook's range turns it off. Safe from any thread.
 *
 * Returns 0, or -EINVAL for an unknown @op.
 */
int fts__test_control(int op, ...);

/* fts__test_long - a numeric hook's value (0: off). */
long fts__test_long(int op);

/* fts__test_path - FTS__TEST_MEMINFO's path into @buf (room @len); NULL when off. */
const char *fts__test_path(int op, char *buf, size_t len);

#endif
