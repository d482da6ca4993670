// SPDX-License-Identifier: MIT
/* Unit tests for the CPU list syntax and the tracing_cpumask writer. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "core/util/cpuset.h"

static const char *fmt(const char *list)
{
	static char out[256];
	struct fts_cpuset s;
	struct fts_err e = { 0 };

	assert_int_equal(fts_cpuset_parse(list, &s, &e), 0);
	fts_cpuset_format(&s, out, sizeof(out));
	return out;
}

static void test_lists(void **state)
{
	(void)state;
	assert_string_equal(fmt("0,1,4"), "0-1,4");
	assert_string_equal(fmt("0-3,8"), "0-3,8");
	assert_string_equal(fmt("0-15"), "0-15");
	assert_string_equal(fmt("3,1,1,2,0-1"), "0-3");
	assert_string_equal(fmt("5-5"), "5");
	assert_string_equal(fmt("100"), "100");
}

static void test_rejects(void **state)
{
	const char *bad[] = { "", "-1", "1,-2", "3-1", "a", "1,,2", "1,", ",1", "1-", "0x3",
			      " 1", "1 ", "1-2-3", "99999", "+1", NULL };
	struct fts_cpuset s;
	struct fts_err e = { 0 };

	(void)state;
	for (int i = 0; bad[i]; i++) {
		e.msg[0] = '\0';
		assert_int_equal(fts_cpuset_parse(bad[i], &s, &e), -EINVAL);
		assert_true(e.msg[0] != '\0');
	}
	assert_int_equal(fts_cpuset_parse(NULL, &s, &e), -EINVAL);
	assert_non_null(strstr((fts_cpuset_parse("3-1", &s, &e), e.msg), "descending"));
}

static const char *hex(const char *list)
{
	static char out[512];
	struct fts_cpuset s;

	assert_int_equal(fts_cpuset_parse(list, &s, NULL), 0);
	fts_cpuset_hexmask(&s, out, sizeof(out));
	return out;
}

static void test_hexmask(void **state)
{
	struct fts_cpuset s;
	char small[4];

	(void)state;
	assert_string_equal(hex("0-3,8"), "0000010f");
	assert_string_equal(hex("32"), "00000001,00000000");
	assert_string_equal(hex("0"), "00000001");
	assert_string_equal(hex("31"), "80000000");
	assert_string_equal(hex("0,63,64"), "00000001,80000000,00000001");
	fts_cpuset_clear(&s);
	fts_cpuset_hexmask(&s, small, 0);
	assert_int_equal(fts_cpuset_hexmask(&s, small, sizeof(small)), 8);
	assert_string_equal(small, "000");
}

static void test_online(void **state)
{
	struct fts_cpuset on, want;
	struct fts_err e = { 0 };

	(void)state;
	assert_int_equal(fts_cpuset_online(&on, &e), 0);
	assert_true(fts_cpuset_count(&on) >= 1);
	assert_true(fts_cpuset_has(&on, 0));
	assert_int_equal(fts_cpuset_parse("4000", &want, &e), 0);
	assert_int_equal(fts_cpuset_check_online(&want, &on, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "4000"));
	assert_non_null(strstr(e.msg, "online"));
	assert_int_equal(fts_cpuset_check_online(&on, &on, &e), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_hexmask),
		cmocka_unit_test(test_online),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
