// SPDX-License-Identifier: MIT
/* Unit tests of the cell grid, its one text writer, the theme table and the key table. */
#include <errno.h>
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <wchar.h>

#include "tui/widgets/grid.h"
#include "tui/widgets/bind.h"
#include "tui/widgets/keys.h"
#include "tui/widgets/theme.h"

static const struct fts_style plain = { -1, -1, 0 };

/* Row @y of @g after writing @s at column @x into a fresh @w-wide grid. */
static const char *write_row(int w, int utf8, int x, int maxw, const char *s, int *cols)
{
	static char out[1024];
	struct fts_grid g = { 0 };

	assert_int_equal(fts_grid_resize(&g, w, 2, utf8), 0);
	*cols = fts_grid_text(&g, x, 0, maxw, s, plain);
	fts_grid_row_text(&g, 0, out, sizeof(out));
	fts_grid_free(&g);
	return out;
}

static void test_escapes(void **state)
{
	int n;

	(void)state;
	/* an escape sequence in a task name shows as text, never reaches the terminal */
	assert_string_equal(write_row(40, 1, 0, 40, "a\x1b]0;pwned\x07z", &n), "a^[]0;pwned^Gz");
	assert_string_equal(write_row(40, 1, 0, 40, "x\x7fy", &n), "x^?y");
	/* C1 control (CSI) encoded as UTF-8, and a lone 0x9b byte */
	assert_string_equal(write_row(40, 1, 0, 40, "c\xc2\x9b" "1m", &n), "c\\x9b1m");
	assert_string_equal(write_row(40, 1, 0, 40, "c\x9b" "1m", &n), "c\\x9b1m");
	/* invalid UTF-8: truncated sequence, overlong, surrogate */
	assert_string_equal(write_row(40, 1, 0, 40, "\xe6\x97", &n), "\\xe6\\x97");
	assert_string_equal(write_row(40, 1, 0, 40, "\xc0\xaf", &n), "\\xc0\\xaf");
	assert_string_equal(write_row(40, 1, 0, 40, "\xed\xa0\x80", &n), "\\xed\\xa0\\x80");
	/* LANG=C: valid UTF-8 is still not shown raw */
	assert_string_equal(write_row(40, 0, 0, 40, "caf\xc3\xa9", &n), "caf\\xc3\\xa9");
	assert_int_equal(n, 11);
}

static void test_wide_and_zero_width(void **state)
{
	struct fts_grid g = { 0 };
	char out[256];
	int n;

	(void)state;
	/* two CJK characters take four columns; what follows stays aligned */
	assert_string_equal(write_row(20, 1, 0, 20, "\xe6\x97\xa5\xe6\x9c\xac:7", &n), "\xe6\x97\xa5\xe6\x9c\xac:7");
	assert_int_equal(n, 6);
	assert_int_equal(fts_text_width("\xe6\x97\xa5\xe6\x9c\xac:7", 1), 6);
	/* a combining accent has no column of its own: shown escaped, one cell per character */
	assert_string_equal(write_row(20, 1, 0, 20, "e\xcc\x81", &n), "e<U+0301>");
	assert_int_equal(n, 9);
	/* a wide character that does not fit is never cut in half */
	assert_int_equal(fts_grid_resize(&g, 10, 1, 1), 0);
	n = fts_grid_text(&g, 0, 0, 3, "\xe6\x97\xa5\xe6\x9c\xac", plain);
	assert_int_equal(n, 3);
	fts_grid_row_text(&g, 0, out, sizeof(out));
	assert_string_equal(out, "\xe6\x97\xa5\xe2\x80\xa6"); /* 日… */
	/* overwriting the right half of a wide character blanks its left half */
	assert_int_equal(fts_grid_text(&g, 0, 0, 10, "\xe6\x97\xa5", plain), 2);
	fts_grid_put(&g, 1, 0, 'x', plain);
	fts_grid_row_text(&g, 0, out, sizeof(out));
	assert_string_equal(out, " x\xe2\x80\xa6");
	/* at maxw 2 a wide character after one column is padded, not split */
	fts_grid_clear(&g, plain);
	assert_int_equal(fts_grid_text(&g, 0, 0, 2, "a\xe6\x97\xa5", plain), 2);
	fts_grid_row_text(&g, 0, out, sizeof(out));
	assert_string_equal(out, "a\xe2\x80\xa6");
	/* no cell ever holds a control code */
	fts_grid_text(&g, 0, 0, 10, "\x01\x02\x1b\x9b", plain);
	for (int x = 0; x < g.w; x++)
		assert_true(g.cells[x].ch >= 0x20 || g.cells[x].ch == 0);
	fts_grid_free(&g);
}

static void test_clip(void **state)
{
	int n;

	(void)state;
	assert_string_equal(write_row(40, 1, 0, 8, "kworker/u16:3-events", &n), "kworker\xe2\x80\xa6");
	assert_int_equal(n, 8);
	assert_string_equal(write_row(40, 0, 0, 8, "kworker/u16:3-events", &n), "kworker~");
	assert_string_equal(write_row(40, 1, 0, 8, "12345678", &n), "12345678");
	/* the row end clips as well */
	assert_string_equal(write_row(10, 1, 6, 40, "abcdefgh", &n), "      abc\xe2\x80\xa6");
	assert_int_equal(write_row(10, 1, 12, 40, "abc", &n)[0], 0);
}

static void test_write(void **state)
{
	struct fts_grid g = { 0 };
	struct fts_style red = { 1, -1, FTS_A_BOLD };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(fts_grid_resize(&g, 6, 2, 1), 0);
	fts_grid_text(&g, 0, 0, 6, "ab", red);
	f = open_memstream(&buf, &len);
	assert_int_equal(fts_grid_write(&g, f, 0), 0);
	fclose(f);
	assert_string_equal(buf, "ab\n\n");
	free(buf);
	f = open_memstream(&buf, &len);
	assert_int_equal(fts_grid_write(&g, f, 1), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\033[0;1;31mab"));
	free(buf);
	assert_int_equal(fts_grid_resize(&g, 0, 2, 1), -EINVAL);
	assert_int_equal(g.w, 6);
	fts_grid_free(&g);
}

static void test_theme(void **state)
{
	struct fts_theme t;

	(void)state;
	fts_theme_init(&t, 0, 256, 0);
	for (int i = 0; i < FTS_G__COUNT; i++)
		assert_true(fts_theme_glyph(&t, (enum fts_glyph)i) < 0x80);
	for (int i = 0; i <= 10; i++)
		assert_true(fts_theme_level(&t, i / 10.0) < 0x80);
	assert_int_equal(fts_theme_level(&t, 0), ' ');
	/* UTF-8 glyphs are all one column and distinct for the four task states */
	fts_theme_init(&t, 1, 256, 0);
	assert_int_not_equal(fts_theme_glyph(&t, FTS_G_RUNNING), fts_theme_glyph(&t, FTS_G_RUNNABLE));
	assert_int_not_equal(fts_theme_glyph(&t, FTS_G_SLEEPING), fts_theme_glyph(&t, FTS_G_BLOCKED));
	for (int i = 0; i < FTS_G__COUNT; i++)
		assert_int_equal(wcwidth((wchar_t)fts_theme_glyph(&t, (enum fts_glyph)i)), 1);
	/* NO_COLOR and monochrome terminals: no colour at all, and the states still differ by glyph */
	fts_theme_init(&t, 1, 256, 1);
	assert_int_equal(t.colors, 0);
	for (int r = 0; r < FTS_R__COUNT; r++) {
		assert_int_equal(fts_theme_style(&t, (enum fts_role)r).fg, -1);
		assert_int_equal(fts_theme_style(&t, (enum fts_role)r).bg, -1);
	}
	assert_int_equal(fts_theme_task(&t, 7).bg, -1);
	fts_theme_init(&t, 1, 2, 0);
	assert_int_equal(t.colors, 0);
	/* 8 colours: only the basic eight are used */
	fts_theme_init(&t, 1, 8, 0);
	for (int r = 0; r < FTS_R__COUNT; r++) {
		assert_true(fts_theme_style(&t, (enum fts_role)r).fg < 8);
		assert_true(fts_theme_style(&t, (enum fts_role)r).bg < 8);
	}
	for (uint32_t k = 0; k < 100; k++)
		assert_true(fts_theme_task(&t, k).bg >= 0 && fts_theme_task(&t, k).bg < 8);
	/* a task keeps its colour */
	fts_theme_init(&t, 1, 256, 0);
	assert_int_equal(fts_theme_task(&t, 42).bg, fts_theme_task(&t, 42).bg);
}

static void test_keys(void **state)
{
	int k[16];
	char buf[64];

	(void)state;
	assert_int_equal(fts_keys_parse("/kw\\n<Up><PgDn>\\e<C-l>+", k, 16), 9);
	assert_int_equal(k[0], '/');
	assert_int_equal(k[3], FTS_KEY_ENTER);
	assert_int_equal(k[4], FTS_KEY_UP);
	assert_int_equal(k[5], FTS_KEY_PGDN);
	assert_int_equal(k[6], FTS_KEY_ESC);
	assert_int_equal(k[7], FTS_KEY_CTRL('l'));
	assert_int_equal(k[8], '+');
	assert_int_equal(fts_keys_parse("<Nope>", k, 16), -EINVAL);
	assert_int_equal(fts_keys_parse("\\x", k, 16), -EINVAL);
	assert_int_equal(fts_keys_parse("abc", k, 2), -E2BIG);
	assert_int_equal(fts_keys_parse("<", k, 16), 1);
	assert_int_equal(k[0], '<');
	/* every action has help text and at least one key: `?` lists them all */
	for (int a = FTS_ACT_QUIT; a < FTS_ACT__COUNT; a++) {
		assert_true(strlen(fts_key_help((enum fts_action)a)) > 0);
		assert_true(strlen(fts_keys_of((enum fts_action)a, buf, sizeof(buf))) > 0);
	}
	assert_int_equal(fts_key_action('q'), FTS_ACT_QUIT);
	assert_int_equal(fts_key_action(FTS_KEY_LEFT), FTS_ACT_LEFT);
	assert_int_equal(fts_key_action('Z'), FTS_ACT_NONE);
	assert_string_equal(fts_keys_of(FTS_ACT_LEFT, buf, sizeof(buf)), "h Left");
	assert_string_equal(fts_key_name(FTS_KEY_CTRL('l'), buf, sizeof(buf)), "Ctrl+l");
}

/* A screen's key table: lookup, and the help keys and bottom line made from it. */
static void test_bindings(void **state)
{
	static const struct fts_bind tab[] = {
		{ 1, { 'r' }, "record", "record it" },
		{ 2, { FTS_KEY_ENTER, 'o' }, "open", "open it" },
		{ 3, { FTS_KEY_DOWN, 'j' }, NULL, "next" },
		{ 4, { 'q', FTS_KEY_ESC }, "quit", "quit" },
	};
	static const struct fts_bindings t = FTS_BINDINGS(tab);
	char buf[128];

	(void)state;
	assert_int_equal(fts_bind_action(&t, 'o'), 2);
	assert_int_equal(fts_bind_action(&t, FTS_KEY_ESC), 4);
	assert_int_equal(fts_bind_action(&t, 'x'), 0);
	assert_string_equal(fts_bind_keys(&t, 1, buf, sizeof(buf)), "Enter o");
	/* the bottom line: first key and word of each entry that has a word */
	assert_string_equal(fts_bind_bar(&t, buf, sizeof(buf)), "r record  Enter open  q quit");
	/* too small: whole entries only */
	assert_string_equal(fts_bind_bar(&t, buf, 21), "r record  Enter open");
	assert_string_equal(fts_bind_bar(&t, buf, 20), "r record");
	assert_string_equal(fts_bind_keys(&t, 1, buf, 7), "Enter");
	/* the view's table is one too, in action order */
	assert_int_equal((int)fts_view_keys.n, FTS_ACT__COUNT - 1);
	for (size_t i = 0; i < fts_view_keys.n; i++)
		assert_int_equal(fts_view_keys.b[i].act, (int)i + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_wide_and_zero_width),
		cmocka_unit_test(test_clip),
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_theme),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_bindings),
	};

	/* wcwidth needs a UTF-8 locale; the one every Debian has */
	if (!setlocale(LC_CTYPE, "C.UTF-8")) {
		fprintf(stderr, "no C.UTF-8 locale\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
