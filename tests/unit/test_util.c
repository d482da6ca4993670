// SPDX-License-Identifier: MIT
/* The shared helpers: the one UTF-8 decoder every escaper uses, the JSON escaper, the clock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/internal.h"

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

/* @s escaped with @flags, through both entry points, which must agree. */
static const char *jesc(const char *s, unsigned flags)
{
	static char out[8192];
	char *m = NULL;
	size_t mlen = 0, n;
	FILE *f;

	assert_true(FTS__JSON_ESC_MAX(strlen(s)) <= sizeof(out));
	n = fts__json_escape(out, s, flags);
	assert_int_equal(n, strlen(out));
	assert_true(n <= FTS__JSON_ESC_MAX(strlen(s)) - 1);
	f = open_memstream(&m, &mlen);
	assert_non_null(f);
	assert_int_equal(fts__json_fputs(f, s, flags), 0);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(m, out);
	free(m);
	{
		char *o2 = malloc(FTS__JSON_ESC_MAX(strlen(s)));

		assert_non_null(o2);
		char *pad = calloc(1, strlen(s) + 8);

		assert_int_equal(fts__json_escape_n(o2, s, strlen(s), flags), n);
		assert_string_equal(o2, out);
		assert_non_null(pad);
		memcpy(pad, s, strlen(s));
		assert_int_equal(fts__json_escape_n(o2, pad, strlen(s), flags | FTS__JSON_PADDED), n);
		assert_string_equal(o2, out);
		/* past the NUL the padding may hold anything: only the string's bytes count */
		for (size_t i = strlen(s) + 1; i < strlen(s) + 8; i++)
			pad[i] = (char)(i & 1 ? '"' : 0x01);
		assert_int_equal(fts__json_escape_n(o2, pad, strlen(s), flags | FTS__JSON_PADDED), n);
		assert_string_equal(o2, out);
		free(pad);
		free(o2);
	}
	return out;
}

/* The length-given escaper's word-at-a-time check finds every byte at every position. */
static void test_json_escape_n_positions(void **state)
{
	char s[20];

	(void)state;
	for (size_t len = 1; len < sizeof(s); len++) {
		for (size_t at = 0; at < len; at++) {
			for (int c = 1; c < 256; c++) {
				memset(s, 'a', len);
				s[len] = '\0';
				s[at] = (char)c;
				jesc(s, FTS__JSON_BRACES);
				jesc(s, 0);
			}
		}
	}
}

/* The sinks' form (braces escaped) and the stats form (DEL and C1 escaped) differ only there. */
static void test_json_escape(void **state)
{
	static const unsigned both[] = { FTS__JSON_BRACES, FTS__JSON_TERM, 0 };
	char big[1200];

	(void)state;
	for (int i = 0; i < 3; i++) {
		unsigned fl = both[i];

		assert_string_equal(jesc("", fl), "\"\"");
		assert_string_equal(jesc("bash:123", fl), "\"bash:123\"");
		assert_string_equal(jesc("a\"b\\c/", fl), "\"a\\\"b\\\\c/\"");
		assert_string_equal(jesc("x\ny\tz\x01\x1f", fl), "\"x\\u000ay\\u0009z\\u0001\\u001f\"");
		assert_string_equal(jesc("\x1b[31m", fl), "\"\\u001b[31m\"");
		/* valid UTF-8 kept; bytes that are not UTF-8 as \u00XX */
		assert_string_equal(jesc("caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80", fl),
				    "\"caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80\"");
		assert_string_equal(jesc("a\xff" "b\xc3", fl), "\"a\\u00ffb\\u00c3\"");
		assert_string_equal(jesc("\xed\xa0\x80", fl), "\"\\u00ed\\u00a0\\u0080\"");
		assert_string_equal(jesc("\xc2\xa0", fl), "\"\xc2\xa0\""); /* U+00A0: past C1 */
	}
	assert_string_equal(jesc("{a}", FTS__JSON_BRACES), "\"\\u007ba\\u007d\"");
	assert_string_equal(jesc("{a}", FTS__JSON_TERM), "\"{a}\"");
	assert_string_equal(jesc("\x7f", FTS__JSON_BRACES), "\"\x7f\"");
	assert_string_equal(jesc("\x7f", FTS__JSON_TERM), "\"\\u007f\"");
	/* C1 controls (U+0085 NEL, U+009B CSI) are terminal controls */
	assert_string_equal(jesc("\xc2\x85\xc2\x9b", FTS__JSON_BRACES), "\"\xc2\x85\xc2\x9b\"");
	assert_string_equal(jesc("\xc2\x85\xc2\x9b", FTS__JSON_TERM), "\"\\u0085\\u009b\"");
	assert_string_equal(jesc("\x01{\x7f", FTS__JSON_BRACES | FTS__JSON_TERM), "\"\\u0001\\u007b\\u007f\"");
	/* longer than the stream's chunk, every unit an escape or a multi-byte one */
	for (size_t i = 0; i + 3 < sizeof(big); i += 3)
		memcpy(big + i, i % 2 ? "\x01\xe4\xb8" : "\xad{\xff", 3);
	big[sizeof(big) - 1] = '\0';
	jesc(big, FTS__JSON_BRACES);
	jesc(big, FTS__JSON_TERM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_json_escape),
		cmocka_unit_test(test_json_escape_n_positions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
