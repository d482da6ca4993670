// SPDX-License-Identifier: MIT
/*
 * Unit tests for the CLI's one message path (src/app/msg.c): every byte of
 * a message is escaped. (The trace libraries' own log output is switched
 * off instead: tests/library/test_loglevel.c.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "app/msg.h"

/* Runs @fn with stderr sent to a temp file; returns what it wrote (static). */
static const char *capture(void (*fn)(void))
{
	static char out[1024];
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO);
	size_t n;

	assert_non_null(tmp);
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	fn();
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(out, 1, sizeof(out) - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
	return out;
}

static void say_err(void)
{
	fts_msg_err("convert", "unknown option '%s'", "--x\033[31m\x9b\xc2\x9b\n\xff");
}

static void say_warn(void)
{
	fts_msg_warn(NULL, "%s", "caf\xc3\xa9 ok\n");
}

static void test_err_escaped(void **state)
{
	(void)state;
	assert_string_equal(capture(say_err),
			    "ftscope convert: unknown option '--x\\x1b[31m\\x9b\\xc2\\x9b\\x0a\\xff'\n");
}

static void test_warn_keeps_utf8(void **state)
{
	(void)state;
	/* valid UTF-8 passes; the caller's trailing newline is the line end */
	assert_string_equal(capture(say_warn), "ftscope: warning: caf\xc3\xa9 ok\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_err_escaped),
		cmocka_unit_test(test_warn_keeps_utf8),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
