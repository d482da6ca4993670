/* SPDX-License-Identifier: MIT */
/*
 * decimal.h - integers to decimal text without printf.
 *
 * The converter prints several numbers per item (pids, cpus, prios, times in
 * the JSON): two digits per division step from a pair table, written
 * backwards into the caller's buffer, then copied once.
 */
#ifndef FTS_DECIMAL_H
#define FTS_DECIMAL_H

#include <stdint.h>
#include <string.h>

/* A uint64 has at most 20 digits; with a sign and a NUL, 22. */
#define FTS_DECIMAL_MAX 22

/* "00".."99" back to back. */
extern const char fts__digit_pairs[201];

/* fts_decimal_before - @v's digits ending just before @end; returns where they start. */
static inline char *fts_decimal_before(char *end, uint64_t v)
{
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);

		v /= 100;
		end -= 2;
		memcpy(end, fts__digit_pairs + 2 * r, 2);
	}
	if (v >= 10) {
		end -= 2;
		memcpy(end, fts__digit_pairs + 2 * v, 2);
	} else {
		*--end = (char)('0' + v);
	}
	return end;
}

/* fts_decimal_len - how many digits @v has (1..20). */
static inline int fts_decimal_len(uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
		10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
		100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
	};
	uint64_t x = v | 1;
	/* log10 from log2 (1233 / 4096 ~ log10(2)), then one compare to settle it */
	int t = ((64 - __builtin_clzll(x)) * 1233) >> 12;

	return t + (x >= pow10[t]);
}

/* fts_decimal_u64 - @v into @dst (room for its digits and a NUL), NUL-terminated; returns the NUL. */
static inline char *fts_decimal_u64(char *dst, uint64_t v)
{
	int n = fts_decimal_len(v);

	fts_decimal_before(dst + n, v);
	dst[n] = '\0';
	return dst + n;
}

/* fts_decimal_i64 - fts_decimal_u64 of a signed value ('-' first when negative). */
static inline char *fts_decimal_i64(char *dst, int64_t v)
{
	if (v < 0) {
		*dst++ = '-';
		return fts_decimal_u64(dst, (uint64_t)(-(v + 1)) + 1);
	}
	return fts_decimal_u64(dst, (uint64_t)v);
}

#endif
