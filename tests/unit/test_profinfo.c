// SPDX-License-Identifier: MIT
/*
 * Unit tests for the profiler_info_<rank>.json fallback of the time map and
 * for the profiling export type (fts_profiling_kind / fts_profiling_format),
 * on directories generated here in the profiler's shape.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tmp_tree.h"

#include "ftscope/profkind.h"
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
	tt_make(root, "pi");
	memset(&tm, 0x5a, sizeof(tm));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tt_remove(root);
	return 0;
}

/* profiler_info as torch_npu writes it: numbers, ns; @type the _export_type JSON value */
static void info(const char *rel, const char *type, long long start_raw, long long end_rt,
		 long long end_mono)
{
	char text[600];

	snprintf(text, sizeof(text),
		 "{\"config\": {\"common_config\": {\"activities\": [\"CPU\", \"NPU\"]}, "
		 "\"experimental_config\": {\"_profiler_level\": \"Level0\", \"_export_type\": %s, "
		 "\"_data_simplification\": true}}, "
		 "\"start_info\": {\"syscnt_enable\": true, \"freq\": 100, \"start_cnt\": 123, "
		 "\"start_monotonic\": %lld}, "
		 "\"end_info\": {\"collectionTimeEnd\": %lld, \"MonotonicTimeEnd\": %lld}, \"rank_id\": 0}",
		 type, start_raw, end_rt, end_mono);
	put(rel, text);
}

static void prof_pair(const char *dir)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "%s/start_info", dir);
	put(rel, "{\"clockMonotonicRaw\": \"612000000000\", \"collectionTimeBegin\": \"1750000000000000\"}");
	snprintf(rel, sizeof(rel), "%s/end_info", dir);
	put(rel, "{\"clockMonotonicRaw\": \"622000000000\"}");
}

/* 1.75e18 ns is not exact as a double: the offset must still be exact to the ns */
#define START_RAW 600000000000ll
#define END_RT 1750000010123456789ll
#define END_MONO 610000000000ll

static void test_prof_only(void **state)
{
	struct fts_err err = { 0 };

	(void)state;
	prof_pair("h_1_ascend_pt/PROF_000001_x/host");
	assert_int_equal(fts_timemap_from_profiling(root, &tm, &err), 0);
	assert_int_equal(tm.ncards, 1);
	assert_int_equal(tm.cards[0].source, FTS_CARD_START_INFO);
	assert_string_equal(tm.cards[0].file, "");
	assert_int_equal(tm.profiler_info_cards, 0);
	assert_true(tm.offset == 1750000000000000000ll - 612000000000ll);
	assert_int_equal(tm.start_spread, 0);
	assert_int_equal(tm.end_spread, 0);
}

static void test_profiler_info_only(void **state)
{
	struct fts_err err = { 0 };

	(void)state;
	info("h_1_ascend_pt/profiler_info_0.json", "\"text\"", START_RAW, END_RT, END_MONO);
	assert_int_equal(fts_timemap_from_profiling(root, &tm, &err), 0);
	assert_int_equal(tm.base, FTS_TIME_PROFILING);
	assert_int_equal(tm.cards_total, 1);
	assert_int_equal(tm.profiler_info_cards, 1);
	assert_int_equal(tm.cards[0].source, FTS_CARD_PROFILER_INFO);
	assert_string_equal(tm.cards[0].file, "profiler_info_0.json");
	assert_string_equal(tm.cards[0].dir, at("h_1_ascend_pt"));
	assert_true(tm.lo == (uint64_t)START_RAW);
	assert_true(tm.hi == (uint64_t)END_MONO);
	/* no clock pair: the MONOTONIC-domain offset, and 50 ppm of 610 s as the bound */
	assert_true(tm.offset == END_RT - END_MONO);
	assert_true(tm.offset == 1749999400123456789ll);
	assert_int_equal(tm.cards[0].exact, 0);
	assert_true(tm.cards[0].error_ns == 30500000ll);
}

static void test_profiler_info_clock_pair(void **state)
{
	struct fts_clock_pair cp = { .valid = 1, .realtime_ns = 1750000000000000000ll,
				     .mono_raw_ns = 599000000000ll };
	struct fts_err err = { 0 };

	(void)state;
	info("h_1_ascend_pt/profiler_info_3.json", "\"db\"", START_RAW, END_RT, END_MONO);
	assert_int_equal(fts_timemap_from_profiling_cp(root, &cp, &tm, &err), 0);
	assert_int_equal(tm.cards[0].exact, 1);
	/* the trace clock's own offset; the end taken back to MONOTONIC_RAW through it */
	assert_true(tm.offset == 1749999401000000000ll);
	assert_true(tm.lo == (uint64_t)START_RAW);
	assert_true(tm.hi == 609123456789ull);
	assert_true(tm.cards[0].mono_minus_raw == 876543211ll);
	assert_true(tm.cards[0].error_ns == 0);

	/* a pair from another boot (MONOTONIC 3 s from RAW after 610 s): not used */
	cp.mono_raw_ns = 596000000000ll - 3000000000ll;
	assert_int_equal(fts_timemap_from_profiling_cp(root, &cp, &tm, &err), 0);
	assert_int_equal(tm.cards[0].exact, 0);
	assert_true(tm.hi == (uint64_t)END_MONO);
	assert_true(tm.offset == END_RT - END_MONO);
}

static void test_both_prof_wins(void **state)
{
	struct fts_err err = { 0 };

	(void)state;
	prof_pair("h_1_ascend_pt/PROF_000001_x/host");
	/* not even read where a pair below was used */
	put("h_1_ascend_pt/profiler_info_0.json", "not json");
	assert_int_equal(fts_timemap_from_profiling(root, &tm, &err), 0);
	assert_int_equal(tm.cards_total, 1);
	assert_int_equal(tm.profiler_info_cards, 0);
	assert_int_equal(tm.cards[0].source, FTS_CARD_START_INFO);

	/* a start_info without its end_info is no usable pair: profiler_info is */
	info("h_2_ascend_pt/profiler_info_1.json", "\"text\"", START_RAW, END_RT, END_MONO);
	put("h_2_ascend_pt/PROF_000002_y/host/start_info",
	    "{\"clockMonotonicRaw\": \"612000000000\", \"collectionTimeBegin\": \"1750000000000000\"}");
	assert_int_equal(fts_timemap_from_profiling(root, &tm, &err), 0);
	assert_int_equal(tm.cards_total, 2);
	assert_int_equal(tm.skipped_cards, 1);
	assert_int_equal(tm.profiler_info_cards, 1);
	assert_int_equal(tm.cards[1].source, FTS_CARD_PROFILER_INFO);
	assert_string_equal(tm.cards[1].file, "profiler_info_1.json");
}

static void test_cards_disagree(void **state)
{
	struct fts_err err = { 0 };

	(void)state;
	info("a_ascend_pt/profiler_info_0.json", "\"text\"", START_RAW, END_RT, END_MONO);
	/* 3 s later start, 5 s later end, offset 5 ms larger */
	info("b_ascend_pt/profiler_info_1.json", "\"text\"", START_RAW + 3000000000ll,
	     END_RT + 5005000000ll, END_MONO + 5000000000ll);
	assert_int_equal(fts_timemap_from_profiling(root, &tm, &err), 0);
	assert_int_equal(tm.cards_total, 2);
	assert_true(tm.start_spread == 3000000000ll);
	assert_true(tm.end_spread == 5000000000ll);
	assert_true(tm.offset_spread == 5000000ll);
	assert_true(tm.start_spread > FTS_TIMEMAP_WINDOW_TOLERANCE_NS);
	assert_true(tm.offset_spread > FTS_TIMEMAP_OFFSET_TOLERANCE_NS);
	/* the earliest card anchors the time base */
	assert_true(tm.offset == END_RT - END_MONO);
	assert_true(tm.lo == (uint64_t)START_RAW);
	assert_true(tm.hi == (uint64_t)(END_MONO + 5000000000ll));
}

/* each malformed file is refused with its path and the field */
static void test_malformed(void **state)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
		{ "not json", "profiler_info_0.json: not a JSON object" },
		{ "{\"end_info\": {}}", "profiler_info_0.json: start_info is missing" },
		{ "{\"start_info\": \"x\"}", "profiler_info_0.json: start_info is not an object" },
		{ "{\"start_info\": {\"start_monotonic\": 5}, \"end_info\": {\"collectionTimeEnd\": 9}}",
		  "profiler_info_0.json: end_info.MonotonicTimeEnd is missing" },
		{ "{\"start_info\": {\"start_monotonic\": -5}}",
		  "profiler_info_0.json: start_info.start_monotonic is not a positive integer" },
		{ "{\"start_info\": {\"start_monotonic\": 5}, \"end_info\": {\"collectionTimeEnd\": 1e30, \"MonotonicTimeEnd\": 9}}",
		  "profiler_info_0.json: end_info.collectionTimeEnd is out of range" },
		{ "{\"start_info\": {\"start_monotonic\": 50}, \"end_info\": {\"collectionTimeEnd\": 9, \"MonotonicTimeEnd\": 9}}",
		  "profiler_info_0.json: end_info.MonotonicTimeEnd 9 is before start_info.start_monotonic 50" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fts_err err = { 0 };

		put("h_ascend_pt/profiler_info_0.json", cases[i].text);
		assert_int_equal(fts_timemap_from_profiling(root, &tm, &err), -EINVAL);
		if (!strstr(err.msg, cases[i].why))
			fail_msg("case %zu: '%s' does not say '%s'", i, err.msg, cases[i].why);
		assert_int_equal(tm.base, FTS_TIME_RAW);
	}
}

static void kind_of(const char *rel, struct fts_profiling_kind *k)
{
	struct fts_err err = { 0 };

	assert_int_equal(fts_profiling_kind(at(rel), k, &err), 0);
}

static void test_kind(void **state)
{
	struct fts_profiling_kind k;
	struct fts_err err = { 0 };
	const char *why;

	(void)state;
	info("t/h_ascend_pt/profiler_info_0.json", "\"text\"", START_RAW, END_RT, END_MONO);
	kind_of("t", &k);
	assert_int_equal(k.cards, 1);
	assert_int_equal(k.kind, FTS_PROF_TEXT);
	assert_int_equal(k.text_only, 1);
	assert_string_equal(k.how, "profiler_info_0.json _export_type");
	assert_int_equal(fts_profiling_format(&k, &why), 1);
	assert_non_null(strstr(why, "File Conflict"));
	/* the *_ascend_pt directory itself works too */
	kind_of("t/h_ascend_pt", &k);
	assert_int_equal(k.kind, FTS_PROF_TEXT);

	info("d/h_ascend_pt/profiler_info_0.json", "\"db\"", START_RAW, END_RT, END_MONO);
	/* the export type wins over the files */
	put("d/h_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", "[]");
	kind_of("d", &k);
	assert_int_equal(k.kind, FTS_PROF_DB);
	assert_int_equal(fts_profiling_format(&k, &why), 0);

	info("l/h_ascend_pt/profiler_info_0.json", "[\"text\", \"db\"]", START_RAW, END_RT, END_MONO);
	kind_of("l", &k);
	assert_int_equal(k.kind, FTS_PROF_TEXT | FTS_PROF_DB);
	assert_int_equal(k.db, 1);
	assert_int_equal(fts_profiling_format(&k, &why), 0);
	info("l1/h_ascend_pt/profiler_info_0.json", "[\"text\"]", START_RAW, END_RT, END_MONO);
	kind_of("l1", &k);
	assert_int_equal(k.kind, FTS_PROF_TEXT);

	/* no _export_type (older torch_npu): by the files */
	put("ft/h_ascend_pt/profiler_info_0.json", "{\"rank_id\": 0}");
	put("ft/h_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", "[]");
	put("ft/h_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv", "");
	kind_of("ft", &k);
	assert_int_equal(k.kind, FTS_PROF_TEXT);
	assert_string_equal(k.how, "the files in ASCEND_PROFILER_OUTPUT");
	put("fd/h_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db", "");
	kind_of("fd", &k);
	assert_int_equal(k.kind, FTS_PROF_DB);
	put("fa/h_ascend_pt/ASCEND_PROFILER_OUTPUT/analysis.db", "");
	put("fa/h_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", "[]");
	kind_of("fa", &k);
	assert_int_equal(k.kind, FTS_PROF_TEXT | FTS_PROF_DB);
	assert_int_equal(fts_profiling_format(&k, &why), 0);

	/* nothing to tell by: unknown, DB the default */
	put("u/h_ascend_pt/profiler_info_0.json", "not json");
	kind_of("u", &k);
	assert_int_equal(k.cards, 1);
	assert_int_equal(k.unknown, 1);
	assert_int_equal(k.kind, 0);
	assert_int_equal(fts_profiling_format(&k, &why), 0);
	assert_non_null(strstr(why, "not known"));

	/* two cards, one text-only, one DB: JSON joins both */
	info("m/a_ascend_pt/profiler_info_0.json", "\"text\"", START_RAW, END_RT, END_MONO);
	info("m/b_ascend_pt/profiler_info_1.json", "\"db\"", START_RAW, END_RT, END_MONO);
	kind_of("m", &k);
	assert_int_equal(k.cards, 2);
	assert_int_equal(k.text_only, 1);
	assert_int_equal(k.db, 1);
	assert_int_equal(fts_profiling_format(&k, &why), 1);

	/* no card at all, and a missing directory */
	mkdir(at("empty"), 0755);
	kind_of("empty", &k);
	assert_int_equal(k.cards, 0);
	assert_int_equal(fts_profiling_kind(at("missing"), &k, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "missing"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_prof_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_profiler_info_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_profiler_info_clock_pair, setup, teardown),
		cmocka_unit_test_setup_teardown(test_both_prof_wins, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cards_disagree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_malformed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kind, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
