// SPDX-License-Identifier: MIT
/* Unit tests for the readers' time guard (src/trace/timecheck.c, issue 10 classes 8, 9). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/trace/timecheck.h"

static void test_per_cpu_order(void **state)
{
	struct fts_timecheck tc = { 0 };
	struct fts_err err = { 0 };

	(void)state;
	assert_int_equal(fts_timecheck_event(&tc, "f", 0, 100, &err), 0);
	assert_int_equal(fts_timecheck_event(&tc, "f", 1, 50, &err), 0);    /* another CPU */
	assert_int_equal(fts_timecheck_event(&tc, "f", 0, 100, &err), 0);   /* equal is fine */
	assert_int_equal(fts_timecheck_event(&tc, "f", 700, 1, &err), 0);   /* the table grows */
	assert_int_equal(fts_timecheck_event(&tc, "f", 700, 2, &err), 0);
	assert_int_equal(fts_timecheck_event(&tc, "f", 0, 99, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "f: time goes backwards on CPU 0 (0.000000099 s after 0.000000100 s)"));
	assert_int_equal(fts_timecheck_event(&tc, "f", 700, 1, &err), -EINVAL);
	fts_timecheck_free(&tc);
	fts_timecheck_free(&tc);
}

static void test_range(void **state)
{
	struct fts_timecheck tc = { 0 };
	struct fts_err err = { 0 };

	(void)state;
	assert_int_equal(fts_timecheck_event(&tc, "f", 0, FTS_TS_MAX, &err), 0);
	assert_int_equal(fts_timecheck_event(&tc, "f", 1, FTS_TS_MAX + 1, &err), -ERANGE);
	assert_non_null(strstr(err.msg, "out of range"));
	assert_int_equal(fts_timecheck_event(&tc, "f", 2, UINT64_MAX, &err), -ERANGE);
	fts_timecheck_free(&tc);
}

static void test_clock_pair(void **state)
{
	(void)state;
	assert_true(fts_clock_pair_ok(UINT64_C(1795968706681603992), UINT64_C(359850431659)));
	assert_false(fts_clock_pair_ok(5, 6));                                  /* realtime before mono */
	assert_false(fts_clock_pair_ok(UINT64_C(1795968706681603992), 0));
	assert_false(fts_clock_pair_ok(UINT64_C(4102444800000000001), 5));     /* after 2100 */
	assert_false(fts_clock_pair_ok(UINT64_MAX, FTS_TS_MAX + 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_cpu_order),
		cmocka_unit_test(test_range),
		cmocka_unit_test(test_clock_pair),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
