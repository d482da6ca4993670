// SPDX-License-Identifier: MIT
/*
 * test_loglevel.c - fts_set_loglevel is the only thing that changes what
 * the trace libraries print: reading a trace.dat leaves their levels alone,
 * and the program's choice reaches libtraceevent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <traceevent/event-parse.h>
#include <traceevent/event-utils.h>

#include "ftscope/ftscope.h"

/* What libtraceevent prints for one warning, stderr captured (static buffer). */
static const char *warn_output(void)
{
	static char out[512];
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO);
	size_t n;

	assert_non_null(tmp);
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	tep_warning("ftscope-test-warning");
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(out, 1, sizeof(out) - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
	return out;
}

static int emit(void *ctx, const struct fts_event *ev)
{
	(void)ctx;
	(void)ev;
	return 0;
}

static void test_level_reaches_libtraceevent(void **state)
{
	(void)state;
	fts_set_loglevel(FTS_LOG_WARNING);
	assert_non_null(strstr(warn_output(), "ftscope-test-warning"));
	fts_set_loglevel(FTS_LOG_NONE);
	assert_string_equal(warn_output(), "");
}

/* The reader used to force NONE for the whole process; the caller's level stays. */
static void test_read_keeps_the_level(void **state)
{
	struct fts_read_opts o = { .emit = emit };
	struct fts_read_stats st;
	struct fts_err err = { 0 };

	(void)state;
	fts_set_loglevel(FTS_LOG_WARNING);
	assert_int_equal(fts_read_dat(FTS_TEST_DATA "/dat/small.dat", &o, &st, &err), 0);
	assert_non_null(strstr(warn_output(), "ftscope-test-warning"));
	fts_set_loglevel(FTS_LOG_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_level_reaches_libtraceevent),
		cmocka_unit_test(test_read_keeps_the_level),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
