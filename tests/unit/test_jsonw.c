// SPDX-License-Identifier: MIT
/* Unit tests for the JSON buffer: escaping, microsecond times, args objects. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "export/sink/jsonw.h"

static const char *esc(const char *s)
{
	static char out[1024];
	struct fts_buf b = { 0 };

	fts_buf_put_str(&b, s);
	assert_int_equal(b.oom, 0);
	assert_true(b.len < sizeof(out));
	memcpy(out, b.p, b.len);
	out[b.len] = '\0';
	fts_buf_free(&b);
	return out;
}

static void test_escaping(void **state)
{
	(void)state;
	assert_string_equal(esc(""), "\"\"");
	assert_string_equal(esc("bash:123"), "\"bash:123\"");
	assert_string_equal(esc("a\"b\\c"), "\"a\\\"b\\\\c\"");
	assert_string_equal(esc("x\ny\tz\x01\x1f"), "\"x\\u000ay\\u0009z\\u0001\\u001f\"");
	assert_string_equal(esc("\x1b[31mred"), "\"\\u001b[31mred\"");
	assert_string_equal(esc("{a}"), "\"\\u007ba\\u007d\"");
	assert_string_equal(esc("/ <>'\x7f"), "\"/ <>'\x7f\"");
	/* valid UTF-8 kept: 2, 3 and 4 bytes */
	assert_string_equal(esc("caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80"),
			    "\"caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80\"");
	/* invalid bytes as \u00XX */
	assert_string_equal(esc("a\xff" "b"), "\"a\\u00ffb\"");
	assert_string_equal(esc("\x80"), "\"\\u0080\"");
	assert_string_equal(esc("\xc3"), "\"\\u00c3\"");             /* truncated */
	assert_string_equal(esc("\xe4\xb8"), "\"\\u00e4\\u00b8\"");  /* truncated */
	assert_string_equal(esc("\xc0\xaf"), "\"\\u00c0\\u00af\"");  /* overlong */
	assert_string_equal(esc("\xe0\x80\xaf"), "\"\\u00e0\\u0080\\u00af\"");
	assert_string_equal(esc("\xed\xa0\x80"), "\"\\u00ed\\u00a0\\u0080\"");  /* surrogate */
	assert_string_equal(esc("\xf4\x90\x80\x80"), "\"\\u00f4\\u0090\\u0080\\u0080\""); /* > U+10FFFF */
	assert_string_equal(esc("\xc3" "a"), "\"\\u00c3a\"");
}

static const char *us(uint64_t ns)
{
	static char out[64];
	char *end;

	memset(out, '#', sizeof(out));
	end = fts_jw_us(out, ns);
	assert_true(end > out && end - out <= FTS_JW_NUM_MAX);
	assert_int_equal(out[end - out], '#'); /* nothing written past the end it returns */
	*end = '\0';
	return out;
}

static void test_us(void **state)
{
	(void)state;
	assert_string_equal(us(0), "0.000");
	assert_string_equal(us(5), "0.005");
	assert_string_equal(us(50), "0.050");
	assert_string_equal(us(999), "0.999");
	assert_string_equal(us(1000), "1.000");
	assert_string_equal(us(1234567), "1234.567");
	assert_string_equal(us(1795968706681603992ull), "1795968706681603.992");
	assert_string_equal(us(UINT64_MAX), "18446744073709551.615");
}

/* The digit-pair formatting against printf, at every length and around each power of ten. */
static void test_digits(void **state)
{
	(void)state;
	for (uint64_t p = 1, k = 0; k < 20; k++, p *= 10) {
		for (uint64_t d = 0; d < 3000; d++) {
			uint64_t v = p - 1500 + d;
			char want[48];
			struct fts_buf b = { 0 };

			if (p < 1500 && d < 1500 - p)
				continue;
			fts_buf_put_u64(&b, v);
			fts_buf_put(&b, "", 1);
			snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
			assert_string_equal(b.p, want);
			snprintf(want, sizeof(want), "%llu.%03llu", (unsigned long long)(v / 1000),
				 (unsigned long long)(v % 1000));
			assert_string_equal(us(v), want);
			fts_buf_free(&b);
		}
	}
}

/* {"k":"v",...} from JSON keys and padded values, within the room fts_jw_args_room gives. */
static void test_args_and_growth(void **state)
{
	/* values padded to 8 bytes, as fts_jw_args_n reads them; keys already JSON */
	static const char three[8] = "3", ab[8] = "a\"b:1", x[8] = "{x}";
	const struct fts_strn keys[3] = { { "\"cpu\"", 5 }, { "\"task\"", 6 }, { "\"name\"", 6 } };
	const struct fts_strn vals[3] = { { three, 1 }, { ab, 5 }, { x, 3 } };
	struct fts_buf b = { 0 };
	char out[256], *end;
	char big[10001];

	(void)state;
	for (int n = 0; n <= 3; n++) {
		size_t room = fts_jw_args_room(keys, vals, n);

		assert_true(room < sizeof(out));
		memset(out, '#', sizeof(out));
		end = fts_jw_args_n(out, keys, vals, n);
		assert_true((size_t)(end - out) <= room);
		for (size_t i = room; i < sizeof(out); i++)
			assert_int_equal(out[i], '#'); /* whole-word copies stay in the room */
		*end = '\0';
		if (n == 0)
			assert_string_equal(out, "{}");
		if (n == 3)
			assert_string_equal(out, "{\"cpu\":\"3\",\"task\":\"a\\\"b:1\",\"name\":\"\\u007bx\\u007d\"}");
	}

	fts_buf_put_u64(&b, 0);
	fts_buf_put_u64(&b, 18446744073709551615ull);
	fts_buf_puts(&b, "!");
	fts_buf_put(&b, "", 1);
	assert_string_equal(b.p, "018446744073709551615!");
	fts_buf_free(&b);

	memset(big, '\x01', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	fts_buf_put_str(&b, big);
	assert_int_equal(b.len, 10000 * 6 + 2);
	assert_int_equal(b.oom, 0);
	assert_memory_equal(b.p + b.len - 7, "\\u0001\"", 7);
	fts_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_us),
		cmocka_unit_test(test_digits),
		cmocka_unit_test(test_args_and_growth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
