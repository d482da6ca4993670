// SPDX-License-Identifier: MIT
/* Human-readable sizes, counts, rates and durations shared by the CLI and the TUI. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "app/fmt.h"

static void test_count(void **state)
{
	char b[FTS_FMT_LEN];

	(void)state;
	assert_string_equal(fts_fmt_count(0, b, sizeof(b)), "0");
	assert_string_equal(fts_fmt_count(999, b, sizeof(b)), "999");
	assert_string_equal(fts_fmt_count(1234, b, sizeof(b)), "1.2k");
	assert_string_equal(fts_fmt_count(999950, b, sizeof(b)), "1.0M");
	assert_string_equal(fts_fmt_count(5.6e9, b, sizeof(b)), "5.6G");
	assert_string_equal(fts_fmt_count(7e15, b, sizeof(b)), "7000.0T");
	assert_string_equal(fts_fmt_count(-1, b, sizeof(b)), "?");
	assert_string_equal(fts_fmt_count(NAN, b, sizeof(b)), "?");
	assert_string_equal(fts_fmt_rate(340100, b, sizeof(b)), "340.1k/s");
}

static void test_bytes(void **state)
{
	char b[FTS_FMT_LEN];

	(void)state;
	assert_string_equal(fts_fmt_bytes(512, b, sizeof(b)), "512 B");
	assert_string_equal(fts_fmt_bytes(1536, b, sizeof(b)), "1.5 KiB");
	assert_string_equal(fts_fmt_bytes(1048575, b, sizeof(b)), "1.0 MiB");
	assert_string_equal(fts_fmt_bytes(3.5 * 1073741824.0, b, sizeof(b)), "3.5 GiB");
	assert_string_equal(fts_fmt_bytes(INFINITY, b, sizeof(b)), "?");
}

/* Defect 7 of issue 15: an ETA printed as a size, or "0 s" before anything was done. */
static void test_eta(void **state)
{
	char b[FTS_FMT_LEN];

	(void)state;
	assert_string_equal(fts_fmt_eta(0, 100, 2.0, b, sizeof(b)), "?");
	assert_string_equal(fts_fmt_eta(10, 0, 2.0, b, sizeof(b)), "?");
	assert_string_equal(fts_fmt_eta(10, 100, 0.1, b, sizeof(b)), "?");
	assert_string_equal(fts_fmt_eta(25, 100, 1.0, b, sizeof(b)), "3.0 s");
	assert_string_equal(fts_fmt_eta(1, 100, 2.0, b, sizeof(b)), "3m18s");
	assert_string_equal(fts_fmt_eta(100, 100, 2.0, b, sizeof(b)), "0.0 s");
	assert_string_equal(fts_fmt_eta(NAN, 100, 2.0, b, sizeof(b)), "?");
}

static void test_duration(void **state)
{
	char b[FTS_FMT_LEN];

	(void)state;
	assert_string_equal(fts_fmt_duration(12.34, b, sizeof(b)), "12.3 s");
	assert_string_equal(fts_fmt_duration(59.96, b, sizeof(b)), "1m00s");
	assert_string_equal(fts_fmt_duration(125, b, sizeof(b)), "2m05s");
	assert_string_equal(fts_fmt_duration(3720, b, sizeof(b)), "1h02m");
	assert_string_equal(fts_fmt_duration(-3, b, sizeof(b)), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_eta),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
