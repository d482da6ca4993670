// SPDX-License-Identifier: MIT
/* The shared helpers: the one UTF-8 decoder every escaper uses, the clock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kit/kit.h"

static int len(const char *s)
{
	return fts__utf8_decode((const unsigned char *)s, NULL);
}

static void test_valid(void **state)
{
	uint32_t cp = 0;

	(void)state;
	assert_int_equal(fts__utf8_decode((const unsigned char *)"A", &cp), 1);
	assert_int_equal(cp, 'A');
	assert_int_equal(len("\x1b"), 1); /* controls are valid UTF-8: escaping is the caller's job */
	assert_int_equal(fts__utf8_decode((const unsigned char *)"\xc3\xa9", &cp), 2);
	assert_int_equal(cp, 0xe9);
	assert_int_equal(fts__utf8_decode((const unsigned char *)"\xc2\x9b", &cp), 2); /* C1 CSI */
	assert_int_equal(cp, 0x9b);
	assert_int_equal(fts__utf8_decode((const unsigned char *)"\xe4\xb8\xad", &cp), 3);
	assert_int_equal(cp, 0x4e2d);
	assert_int_equal(fts__utf8_decode((const unsigned char *)"\xf0\x9f\x98\x80", &cp), 4);
	assert_int_equal(cp, 0x1f600);
	assert_int_equal(fts__utf8_decode((const unsigned char *)"\xf4\x8f\xbf\xbf", &cp), 4);
	assert_int_equal(cp, 0x10ffff);
}

static void test_invalid(void **state)
{
	(void)state;
	assert_int_equal(len(""), 0);
	assert_int_equal(len("\x80"), 0);          /* lone continuation */
	assert_int_equal(len("\xc0\xaf"), 0);      /* overlong '/' */
	assert_int_equal(len("\xc1\xbf"), 0);
	assert_int_equal(len("\xe0\x80\xaf"), 0);  /* overlong, 3 bytes */
	assert_int_equal(len("\xf0\x80\x80\xaf"), 0);
	assert_int_equal(len("\xed\xa0\x80"), 0);  /* surrogate U+D800 */
	assert_int_equal(len("\xf4\x90\x80\x80"), 0); /* U+110000 */
	assert_int_equal(len("\xf5\x80\x80\x80"), 0);
	assert_int_equal(len("\xe4\xb8"), 0);      /* cut by the NUL */
	assert_int_equal(len("\xc3" "A"), 0);
}

static void test_clock(void **state)
{
	uint64_t a, b;
	double s;

	(void)state;
	a = fts__clock_mono_ns();
	s = fts__clock_mono_s();
	b = fts__clock_mono_ns();
	assert_true(b >= a);
	assert_true(s * 1e9 >= (double)a - 1e6 && s * 1e9 <= (double)b + 1e6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_clock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
