// SPDX-License-Identifier: MIT
/* Unit tests for the profiling time map: start_info/end_info discovery and mapping. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tmp_tree.h"

#include "ftscope/timemap.h"
#include "core/model/timemap_impl.h"

static char root[64];
static struct fts_timemap tm;

static void put(const char *rel, const char *text)
{
	tt_put(root, rel, text);
}

static const char *at(const char *rel)
{
	return tt_at(root, rel);
}

static int setup(void **state)
{
	(void)state;
	tt_make(root, "tm");
	memset(&tm, 0x5a, sizeof(tm));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tt_remove(root);
	return 0;
}

static void test_one_card(void **state)
{
	struct fts_err err = { 0 };

	(void)state;
	put("PROF_000001_x/host/start_info",
	    "{\"collectionDateBegin\": \"2025\", \"clockMonotonicRaw\": \"612000000000\", \"collectionTimeBegin\": \"1750000000000000\"}");
	put("PROF_000001_x/host/end_info",
	    "{\"collectionTimeEnd\": \"1750000010000000\", \"clockMonotonicRaw\": \"622000000000\"}");
	put("PROF_000001_x/host/other.json", "not json");
	assert_int_equal(fts_timemap_from_profiling(root, &tm, &err), 0);
	assert_int_equal(tm.base, FTS_TIME_PROFILING);
	assert_int_equal(tm.ncards, 1);
	assert_int_equal(tm.skipped_cards, 0);
	assert_int_equal(tm.has_window, 1);
	assert_int_equal(tm.lo, 612000000000ull);
	assert_int_equal(tm.hi, 622000000000ull);
	assert_true(tm.offset == 1750000000000000000ll - 612000000000ll);
	assert_true(tm.offset_spread == 0);
	assert_string_equal(tm.cards[0].dir, at("PROF_000001_x/host"));
	assert_true(tm.cards[0].start_mono == 612000000000ll);
	assert_true(tm.cards[0].end_mono == 622000000000ll);

	/* pointing at the card's own directory works as well */
	assert_int_equal(fts_timemap_from_profiling(at("PROF_000001_x/host"), &tm, &err), 0);
	assert_int_equal(tm.ncards, 1);
}

/* The public accessors (struct fts_timemap is opaque to callers) read what the fields hold. */
static void check_accessors(const char *dir, const struct fts_timemap *want)
{
	struct fts_timemap *m = fts_timemap_new();
	struct fts_err err = { 0 };
	uint64_t lo = 1, hi = 1;

	assert_non_null(m);
	assert_int_equal(fts_timemap_base(m), FTS_TIME_RAW);
	assert_int_equal(fts_timemap_window(m, &lo, &hi), 0);
	assert_int_equal(lo, 1);
	assert_null(fts_timemap_card(m, 0));
	assert_int_equal(fts_timemap_from_profiling(dir, m, &err), 0);
	assert_int_equal(fts_timemap_base(m), FTS_TIME_PROFILING);
	assert_true(fts_timemap_offset(m) == want->offset);
	assert_int_equal(fts_timemap_window(m, &lo, &hi), 1);
	assert_int_equal(lo, want->lo);
	assert_int_equal(hi, want->hi);
	assert_int_equal(fts_timemap_stat(m, FTS_TM_CARDS_TOTAL), want->cards_total);
	assert_int_equal(fts_timemap_stat(m, FTS_TM_CARDS_LISTED), want->ncards);
	assert_int_equal(fts_timemap_stat(m, FTS_TM_CARDS_SKIPPED), want->skipped_cards);
	assert_int_equal(fts_timemap_stat(m, FTS_TM_CARDS_PROFILER_INFO), want->profiler_info_cards);
	assert_true(fts_timemap_stat(m, FTS_TM_OFFSET_MIN) == want->offset_min);
	assert_true(fts_timemap_stat(m, FTS_TM_OFFSET_SPREAD) == want->offset_spread);
	assert_true(fts_timemap_stat(m, FTS_TM_START_SPREAD) == want->start_spread);
	assert_true(fts_timemap_stat(m, FTS_TM_END_SPREAD) == want->end_spread);
	assert_int_equal(fts_timemap_stat(m, (enum fts_timemap_stat)999), 0);
	for (int i = 0; i < want->ncards; i++)
		assert_string_equal(fts_timemap_card(m, i)->dir, want->cards[i].dir);
	assert_null(fts_timemap_card(m, want->ncards));
	assert_null(fts_timemap_card(m, -1));
	fts_timemap_free(m);
	fts_timemap_free(NULL);
}

static void test_several_cards(void **state)
{
	struct fts_err err = { 0 };

	(void)state;
	/* card b starts first; card a ends last; offsets differ by 3 us */
	put("a_ascend_pt/PROF_1/host/start_info",
	    "{\"clockMonotonicRaw\": 2000000, \"collectionTimeBegin\": 1750000000002003}");
	put("a_ascend_pt/PROF_1/host/end_info", "{\"clockMonotonicRaw\": 9000000}");
	put("b_ascend_pt/PROF_2/device_0/start_info.0",
	    "{\"clockMonotonicRaw\": \"1000000\", \"collectionTimeBegin\": \"1750000000001000\"}");
	put("b_ascend_pt/PROF_2/device_0/end_info.0", "{\"clockMonotonicRaw\": \"5000000\"}");
	/* start_info without end_info: skipped, counted */
	put("c_ascend_pt/PROF_3/host/start_info",
	    "{\"clockMonotonicRaw\": \"500\", \"collectionTimeBegin\": \"1\"}");
	/* names that are not start_info[.N] */
	put("e/start_info.x", "{\"clockMonotonicRaw\": \"1\", \"collectionTimeBegin\": \"1\"}");
	put("e/end_info.x", "{\"clockMonotonicRaw\": \"2\"}");
	put("e/start_info_backup", "{\"clockMonotonicRaw\": \"1\", \"collectionTimeBegin\": \"1\"}");

	assert_int_equal(fts_timemap_from_profiling(root, &tm, &err), 0);
	assert_int_equal(tm.ncards, 2);
	assert_int_equal(tm.skipped_cards, 1);
	assert_int_equal(tm.lo, 1000000);
	assert_int_equal(tm.hi, 9000000);
	/* the earliest card anchors the time base */
	assert_true(tm.offset == 1750000000001000000ll - 1000000ll);
	assert_true(tm.offset_spread ==
		    (1750000000002003000ll - 2000000ll) - (1750000000001000000ll - 1000000ll));
	assert_true(tm.cards[0].offset == 1750000000002003000ll - 2000000ll);
	assert_string_equal(tm.cards[1].dir, at("b_ascend_pt/PROF_2/device_0"));
	check_accessors(root, &tm);
}

static void test_symlink_not_followed(void **state)
{
	struct fts_err err = { 0 };
	char target[600];

	(void)state;
	put("real/PROF_1/host/start_info",
	    "{\"clockMonotonicRaw\": \"100\", \"collectionTimeBegin\": \"7\"}");
	put("real/PROF_1/host/end_info", "{\"clockMonotonicRaw\": \"200\"}");
	put("top/readme", "x");
	put("linkdir/readme", "x");
	snprintf(target, sizeof(target), "%s", at("real"));
	assert_int_equal(symlink(target, at("linkdir/link")), 0);
	err.msg[0] = '\0';
	/* a symlinked directory is not followed, and not skipped without a word */
	assert_int_equal(fts_timemap_from_profiling(at("linkdir"), &tm, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "linkdir/link: is a symbolic link to a directory, not followed"));
	assert_int_equal(tm.ncards, 0);
	/* a symlinked info file is not read either */
	snprintf(target, sizeof(target), "%s", at("real/PROF_1/host/start_info"));
	assert_int_equal(symlink(target, at("top/start_info")), 0);
	put("top/end_info", "{\"clockMonotonicRaw\": \"200\"}");
	assert_int_equal(fts_timemap_from_profiling(at("top"), &tm, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "top/start_info: is not a regular file"));
	/* nor a symlinked end_info beside a real start_info (docs/insight.md promises it) */
	snprintf(target, sizeof(target), "%s", at("real/PROF_1/host/end_info"));
	put("own/start_info", "{\"clockMonotonicRaw\": \"100\", \"collectionTimeBegin\": \"7\"}");
	assert_int_equal(symlink(target, at("own/end_info")), 0);
	assert_int_equal(fts_timemap_from_profiling(at("own"), &tm, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "own/end_info: is a symbolic link; not followed"));
	assert_int_equal(tm.ncards, 0);
	/* the directory given itself may be a symlink */
	assert_int_equal(fts_timemap_from_profiling(at("linkdir/link"), &tm, &err), 0);
	assert_int_equal(tm.ncards, 1);
	assert_true(tm.offset == 7000 - 100);
}

static void test_errors(void **state)
{
	struct fts_err err = { 0 };

	(void)state;
	put("empty/readme", "x");
	assert_int_equal(fts_timemap_from_profiling(at("empty"), &tm, &err), -ENOENT);
	assert_non_null(strstr(err.msg, at("empty")));
	assert_int_equal(tm.base, FTS_TIME_RAW);
	assert_int_equal(tm.has_window, 0);
	assert_int_equal(tm.offset, 0);

	err.msg[0] = '\0';
	assert_int_equal(fts_timemap_from_profiling(at("empty/readme"), &tm, &err), -ENOTDIR);
	assert_non_null(strstr(err.msg, "must be a directory"));

	err.msg[0] = '\0';
	assert_int_equal(fts_timemap_from_profiling(at("missing"), &tm, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "cannot open"));

	/* a bad pair: the error says which file and what, even beside a good card */
	put("bad/start_info", "[1, 2]");
	put("bad/end_info", "{\"clockMonotonicRaw\": \"9\"}");
	assert_int_equal(fts_timemap_from_profiling(at("bad"), &tm, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "bad/start_info: not a JSON object"));
	put("bad/good/start_info", "{\"clockMonotonicRaw\": \"5\", \"collectionTimeBegin\": \"1\"}");
	put("bad/good/end_info", "{\"clockMonotonicRaw\": \"9\"}");
	assert_int_equal(fts_timemap_from_profiling(at("bad"), &tm, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "bad/start_info: not a JSON object"));
	assert_int_equal(tm.base, FTS_TIME_RAW);

	/* end before start */
	put("rev/start_info", "{\"clockMonotonicRaw\": \"900\", \"collectionTimeBegin\": \"1\"}");
	put("rev/end_info", "{\"clockMonotonicRaw\": \"100\"}");
	assert_int_equal(fts_timemap_from_profiling(at("rev"), &tm, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "rev/end_info: clockMonotonicRaw 100 is before start_info's 900"));

	/* end_info missing */
	put("half/start_info", "{\"clockMonotonicRaw\": \"900\", \"collectionTimeBegin\": \"1\"}");
	assert_int_equal(fts_timemap_from_profiling(at("half"), &tm, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "half/end_info: cannot open"));

	/* a FIFO end_info is refused at once, never waited on */
	put("fifo/start_info", "{\"clockMonotonicRaw\": \"900\", \"collectionTimeBegin\": \"1\"}");
	assert_int_equal(mkfifo(at("fifo/end_info"), 0600), 0);
	assert_int_equal(fts_timemap_from_profiling(at("fifo"), &tm, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "fifo/end_info: is a FIFO, not a regular file"));

	/* crafted clocks: out of range, never wrapped */
	put("big/start_info", "{\"clockMonotonicRaw\": 1e300, \"collectionTimeBegin\": \"1\"}");
	put("big/end_info", "{\"clockMonotonicRaw\": \"100\"}");
	assert_int_equal(fts_timemap_from_profiling(at("big"), &tm, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "big/start_info: clockMonotonicRaw is out of range"));
	put("epoch/start_info", "{\"clockMonotonicRaw\": 5, \"collectionTimeBegin\": \"9223372036854775\"}");
	put("epoch/end_info", "{\"clockMonotonicRaw\": \"100\"}");
	assert_int_equal(fts_timemap_from_profiling(at("epoch"), &tm, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "collectionTimeBegin is out of range"));
}

static void test_parse_info(void **state)
{
	int64_t mono = 0, begin = 0;
	const char *s;

	(void)state;
	s = "{\"clockMonotonicRaw\": \"359850431659\", \"collectionTimeBegin\": \"1795968706681603\"}";
	assert_int_equal(fts_timemap_parse_info(s, strlen(s), &mono, &begin), 0);
	assert_true(mono == 359850431659ll);
	assert_true(begin == 1795968706681603ll);
	s = "{\"clockMonotonicRaw\": 359850431659, \"collectionTimeBegin\": 1795968706681603}";
	assert_int_equal(fts_timemap_parse_info(s, strlen(s), &mono, &begin), 0);
	assert_true(mono == 359850431659ll);
	assert_true(begin == 1795968706681603ll);
	s = "{\"clockMonotonicRaw\": \"77\"}";
	assert_int_equal(fts_timemap_parse_info(s, strlen(s), &mono, NULL), 0);
	assert_true(mono == 77);
	assert_int_equal(fts_timemap_parse_info(s, strlen(s), &mono, &begin), -EINVAL);
	s = "{\"clockMonotonicRaw\": \"12x\"}";
	assert_int_equal(fts_timemap_parse_info(s, strlen(s), &mono, NULL), -EINVAL);
	s = "{\"clockMonotonicRaw\": \"\"}";
	assert_int_equal(fts_timemap_parse_info(s, strlen(s), &mono, NULL), -EINVAL);
	s = "{\"clockMonotonicRaw\": true}";
	assert_int_equal(fts_timemap_parse_info(s, strlen(s), &mono, NULL), -EINVAL);
	s = "{\"clockMonotonicRaw\": \"-5\"}";
	assert_int_equal(fts_timemap_parse_info(s, strlen(s), &mono, NULL), -EINVAL);
	s = "\"clockMonotonicRaw\"";
	assert_int_equal(fts_timemap_parse_info(s, strlen(s), &mono, NULL), -EINVAL);
	s = "{\"clockMonotonicRaw\": \"5\"";
	assert_int_equal(fts_timemap_parse_info(s, strlen(s), &mono, NULL), -EINVAL);
	/* values that would overflow begin * 1000 - mono, or a double -> int64 cast */
	for (const char *const *v = (const char *const[]){
		"{\"clockMonotonicRaw\": 1e19}", "{\"clockMonotonicRaw\": \"99999999999999999999\"}",
		"{\"clockMonotonicRaw\": \"4611686018427387905\"}", "{\"clockMonotonicRaw\": 1e400}",
		"{\"clockMonotonicRaw\": \"+5\"}", "{\"clockMonotonicRaw\": 0.5}", NULL }; *v; v++)
		assert_int_equal(fts_timemap_parse_info(*v, strlen(*v), &mono, NULL), -EINVAL);
	s = "{\"clockMonotonicRaw\": 5, \"collectionTimeBegin\": 4102444800000001}";
	assert_int_equal(fts_timemap_parse_info(s, strlen(s), &mono, &begin), -EINVAL);
	s = "{\"clockMonotonicRaw\": 4611686018427387904, \"collectionTimeBegin\": 4102444800000000}";
	assert_int_equal(fts_timemap_parse_info(s, strlen(s), &mono, &begin), 0);
}

static void test_clock_and_raw(void **state)
{
	struct fts_clock_pair cp = { .valid = 1, .realtime_ns = 1795968706681603992ll,
				     .mono_raw_ns = 359850431659ll };

	(void)state;
	fts_timemap_from_clock(&tm, &cp);
	assert_int_equal(tm.base, FTS_TIME_CLOCK_PAIR);
	assert_true(tm.offset == 1795968706681603992ll - 359850431659ll);
	assert_int_equal(tm.has_window, 0);
	assert_int_equal(tm.lo, 0);
	assert_true(tm.hi == UINT64_MAX);
	assert_int_equal(tm.ncards, 0);

	cp.valid = 0;
	fts_timemap_from_clock(&tm, &cp);
	assert_int_equal(tm.base, FTS_TIME_RAW);
	assert_int_equal(tm.offset, 0);
	assert_true(tm.hi == UINT64_MAX);

	memset(&tm, 0x5a, sizeof(tm));
	fts_timemap_raw(&tm);
	assert_int_equal(tm.base, FTS_TIME_RAW);
	assert_int_equal(tm.offset, 0);
	assert_int_equal(tm.lo, 0);
	assert_true(tm.hi == UINT64_MAX);
	assert_int_equal(tm.skipped_cards, 0);
}

/*
 * MONOTONIC -> RAW: start and stop samples with a known drift (+30 ppm:
 * MONOTONIC gains 300 us in 10 s of RAW) give every time within 1 ns, inside
 * and beyond the samples; a start sample alone gives its offset; none, nothing.
 */
static void test_clock_fit(void **state)
{
	const int64_t raw0 = INT64_C(100000000000), off0 = INT64_C(2500000), span = INT64_C(10000000000);
	struct fts_clock_pair cp = {
		.valid = 1, .realtime_ns = INT64_C(1795968706681603992), .mono_raw_ns = raw0,
		.has_mono = 1, .mono_ns = raw0 + off0, .window_ns = 80,
		.has_stop = 1, .stop_realtime_ns = INT64_C(1795968716681603992),
		.stop_mono_raw_ns = raw0 + span, .stop_mono_ns = raw0 + off0 + span + span / 1000000 * 30,
		.stop_window_ns = 120,
	};
	int64_t raw, err;
	double ppm;

	(void)state;
	/* mono(raw) = mono0 + (raw - raw0) * (1 + 30e-6): invert at times around the capture */
	for (int64_t t = raw0 - span; t <= raw0 + 3 * span; t += span / 7 + 12345) {
		long double mono = (long double)(raw0 + off0) + (long double)(t - raw0) * 1.00003L;
		int64_t m = (int64_t)llroundl(mono);
		long double want = (long double)raw0 + ((long double)m - (raw0 + off0)) / 1.00003L;

		assert_int_equal(fts_clock_mono_to_raw(&cp, m, &raw, &err, &ppm), FTS_CLOCK_FIT_SLOPE);
		assert_true(fabsl((long double)raw - want) <= 1.0L);
		assert_true(ppm > 29.999 && ppm < 30.001);
		/* inside: half the wider window (+1 for rounding); beyond: plus the slope's uncertainty */
		if (t >= raw0 && t <= raw0 + span)
			assert_true(err == 61);
		else
			assert_true(err > 61 && err < 61 + 100 * 3 + 2);
	}
	/* 2 s past the stop: (40 + 60) ns of slack over 10 s tilts it by 20 ns */
	assert_int_equal(fts_clock_mono_to_raw(&cp, cp.stop_mono_ns + INT64_C(2000000000), &raw, &err, NULL),
			 FTS_CLOCK_FIT_SLOPE);
	assert_true(err == 61 + 20);

	/* a slope of 2000 ppm is no clock's drift: the start offset is used */
	cp.stop_mono_ns = raw0 + off0 + span + span / 1000000 * 2000;
	assert_int_equal(fts_clock_mono_to_raw(&cp, raw0 + off0 + 1000, &raw, &err, &ppm), FTS_CLOCK_FIT_OFFSET);
	assert_true(raw == raw0 + 1000);
	assert_true(ppm == 0);

	/* start only: the offset, off by half the window plus 50 ppm of the distance */
	cp.has_stop = 0;
	assert_int_equal(fts_clock_mono_to_raw(&cp, raw0 + off0 + span, &raw, &err, &ppm), FTS_CLOCK_FIT_OFFSET);
	assert_true(raw == raw0 + span);
	assert_true(err == 40 + span / 1000000 * FTS_CLOCK_DRIFT_PPM);
	assert_int_equal(fts_clock_mono_to_raw(&cp, raw0 + off0 - span, &raw, &err, NULL), FTS_CLOCK_FIT_OFFSET);
	assert_true(raw == raw0 - span);
	assert_true(err == 40 + span / 1000000 * FTS_CLOCK_DRIFT_PPM);

	/* no MONOTONIC sample (trace-cmd, older captures): nothing converted, *raw untouched */
	cp.has_mono = 0;
	raw = 7;
	assert_int_equal(fts_clock_mono_to_raw(&cp, raw0, &raw, &err, NULL), FTS_CLOCK_FIT_NONE);
	assert_true(raw == 7);
	cp.valid = 0;
	cp.has_mono = 1;
	assert_int_equal(fts_clock_mono_to_raw(&cp, raw0, &raw, &err, NULL), FTS_CLOCK_FIT_NONE);
}

/* Every card counts, listed or not: 64 in one window, 36 in the next; the anchor is beyond the list. */
static void test_hundred_cards(void **state)
{
	struct fts_err err = { 0 };
	char rel[128], text[160];
	int64_t lo = INT64_MAX, hi = INT64_MIN;

	(void)state;
	for (int i = 0; i < 100; i++) {
		/* card 99 starts first: it anchors the time base, though not listed */
		long long start = i < 64 ? 1000000 + i : i == 99 ? 500000 : 3000000 + i;
		long long end = i < 64 ? 2000000 : 4000000;
		long long begin_us = 1750000000000000ll + i * 7;
		int64_t off = begin_us * 1000 - start;

		lo = off < lo ? off : lo;
		hi = off > hi ? off : hi;

		snprintf(rel, sizeof(rel), "rank_%03d_ascend_pt/PROF_1/device_0/start_info", i);
		snprintf(text, sizeof(text), "{\"clockMonotonicRaw\": %lld, \"collectionTimeBegin\": %lld}",
			 start, begin_us);
		put(rel, text);
		snprintf(rel, sizeof(rel), "rank_%03d_ascend_pt/PROF_1/device_0/end_info", i);
		snprintf(text, sizeof(text), "{\"clockMonotonicRaw\": %lld}", end);
		put(rel, text);
	}
	assert_int_equal(fts_timemap_from_profiling(at(""), &tm, &err), 0);
	assert_int_equal(tm.cards_total, 100);
	assert_int_equal(tm.ncards, FTS_TIMEMAP_MAX_CARDS);
	assert_int_equal(tm.skipped_cards, 0);
	assert_true(tm.lo == 500000 && tm.hi == 4000000);
	assert_true(tm.offset == (1750000000000000ll + 99 * 7) * 1000 - 500000);
	assert_true(tm.offset_min == lo);
	assert_true(tm.offset_spread == hi - lo);
}

/* A key twice: the same value is harmless, different values are refused. */
static void test_duplicate_keys(void **state)
{
	int64_t mono, begin;
	const char *s;

	(void)state;
	s = "{\"clockMonotonicRaw\": 5, \"clockMonotonicRaw\": 5, \"collectionTimeBegin\": 9}";
	assert_int_equal(fts_timemap_parse_info(s, strlen(s), &mono, &begin), 0);
	assert_true(mono == 5 && begin == 9);
	s = "{\"clockMonotonicRaw\": 5, \"collectionTimeBegin\": 9, \"clockMonotonicRaw\": \"6\"}";
	assert_int_equal(fts_timemap_parse_info(s, strlen(s), &mono, &begin), -EINVAL);
	s = "{\"clockMonotonicRaw\": 5, \"collectionTimeBegin\": 9, \"collectionTimeBegin\": 8}";
	assert_int_equal(fts_timemap_parse_info(s, strlen(s), &mono, &begin), -EINVAL);
	s = "{\"clockMonotonicRaw\": 5, \"clockMonotonicRaw\": 6}";
	assert_int_equal(fts_timemap_parse_info(s, strlen(s), &mono, NULL), -EINVAL);
}

/* A card more than 12 directories down is not skipped without a word. */
static void test_too_deep(void **state)
{
	struct fts_err err = { 0 };
	char rel[256] = "";

	(void)state;
	for (int i = 0; i < 13; i++)
		strcat(rel, "d/");
	strcat(rel, "start_info");
	put(rel, "{\"clockMonotonicRaw\": 1, \"collectionTimeBegin\": 2}");
	put("a_ascend_pt/host/start_info", "{\"clockMonotonicRaw\": 1, \"collectionTimeBegin\": 2}");
	put("a_ascend_pt/host/end_info", "{\"clockMonotonicRaw\": 3}");
	assert_int_equal(fts_timemap_from_profiling(at(""), &tm, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "more than 12 directory levels below"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_one_card, setup, teardown),
		cmocka_unit_test_setup_teardown(test_several_cards, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_not_followed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hundred_cards, setup, teardown),
		cmocka_unit_test(test_duplicate_keys),
		cmocka_unit_test_setup_teardown(test_too_deep, setup, teardown),
		cmocka_unit_test(test_parse_info),
		cmocka_unit_test(test_clock_and_raw),
		cmocka_unit_test(test_clock_fit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
