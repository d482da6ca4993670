// SPDX-License-Identifier: MIT
/* Unit tests for the CLI option parser (src/cli/opts.c, compiled in). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cli/opts.h"

enum { O_INPUT = 1, O_PROF, O_FORCE, O_OUT, O_VERBOSE, O_BF };

static const struct fts_opt_spec spec[] = {
	{ "input", 'i', 1, O_INPUT },
	{ "profiling_data", 0, 1, O_PROF },
	{ "force", 'f', 0, O_FORCE },
	{ "output", 'o', 1, O_OUT },
	{ "verbose", 'v', 0, O_VERBOSE },
	{ "bf_size", 0, 1, O_BF },
	{ NULL, 0, 0, 0 },
};

#define ARGV(...) ((char *[]){ "convert", __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ "convert", __VA_ARGS__ }) / sizeof(char *)))

/* Parse and return the ids as a string like "1=a,2=b,3" (or "...,ERR"). */
static const char *parse(int argc, char **argv)
{
	static char out[256];
	struct fts_opts o;
	size_t n = 0;
	int id;

	out[0] = '\0';
	fts_opts_init(&o, "convert", argc, argv);
	while ((id = fts_opts_next(&o, spec)) != -1) {
		if (id == -2) {
			snprintf(out + n, sizeof(out) - n, "%sERR", n ? "," : "");
			return out;
		}
		n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%d", n ? "," : "", id);
		if (o.arg)
			n += (size_t)snprintf(out + n, sizeof(out) - n, "=%s", o.arg);
	}
	return out;
}

#define P(...) parse(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

static void test_spellings(void **state)
{
	(void)state;
	assert_string_equal(P("--profiling_data", "/p"), "2=/p");
	assert_string_equal(P("--profiling-data", "/p"), "2=/p");
	assert_string_equal(P("--profiling_data=/p"), "2=/p");
	assert_string_equal(P("--profiling-data=/p"), "2=/p");
	assert_string_equal(P("--bf-size=4096", "--bf_size", "8"), "6=4096,6=8");
	assert_string_equal(P("--input=a=b"), "1=a=b");
	assert_string_equal(P("--input=x"), "1=x");
	assert_string_equal(P("--input", "-x"), "1=-x"); /* a value may start with '-' */
	assert_string_equal(P("--force", "--verbose"), "3,5");
	assert_string_equal(parse(1, ARGV(NULL)), "");
}

static void test_short(void **state)
{
	(void)state;
	assert_string_equal(P("-i", "t.dat"), "1=t.dat");
	assert_string_equal(P("-it.dat"), "1=t.dat");
	assert_string_equal(P("-f", "-o", "x.db"), "3,4=x.db");
	assert_string_equal(P("-fv"), "ERR");     /* no bundling of flags */
	assert_string_equal(P("-x"), "ERR");
	assert_string_equal(P("-i"), "ERR");      /* missing value */
}

static void test_errors(void **state)
{
	(void)state;
	assert_string_equal(P("--input"), "ERR");
	assert_string_equal(P("--profiling_data"), "ERR");
	assert_string_equal(P("--nope"), "ERR");
	assert_string_equal(P("--inpu", "x"), "ERR");      /* no prefix matching */
	assert_string_equal(P("--inputs", "x"), "ERR");
	assert_string_equal(P("--profiling", "x"), "ERR");
	assert_string_equal(P("--force=1"), "ERR");        /* a flag takes no value */
	assert_string_equal(P("stray"), "ERR");
	assert_string_equal(P("-"), "ERR");
	assert_string_equal(P("--"), "ERR");
	assert_string_equal(P("--force", "stray", "--verbose"), "3,ERR");
	assert_string_equal(P("--Force"), "ERR");          /* case-sensitive */
	/* no option takes an empty value, in any spelling */
	assert_string_equal(P("--input="), "ERR");
	assert_string_equal(P("--input", ""), "ERR");
	assert_string_equal(P("-i", ""), "ERR");
	assert_string_equal(P("-o", "", "--force"), "ERR");
}

static void test_parse_int(void **state)
{
	long long v = 0;

	(void)state;
	assert_int_equal(fts_parse_int("40960", &v), 0);
	assert_int_equal(v, 40960);
	assert_int_equal(fts_parse_int("-3", &v), 0);
	assert_true(v == -3);
	assert_int_equal(fts_parse_int("", &v), -1);
	assert_int_equal(fts_parse_int(NULL, &v), -1);
	assert_int_equal(fts_parse_int("12k", &v), -1);
	assert_int_equal(fts_parse_int("99999999999999999999", &v), -1);
	assert_true(v == -3);
}

static void test_parse_seconds(void **state)
{
	double v = -1;

	(void)state;
	assert_int_equal(fts_parse_seconds("0.5", 1e7, &v), 0);
	assert_true(v == 0.5);
	assert_int_equal(fts_parse_seconds("0", 1e7, &v), 0);
	assert_int_equal(fts_parse_seconds("1e7", 1e7, &v), 0);
	for (const char *const *s = (const char *const[]){ "nan", "NaN", "-nan", "inf", "-inf",
		"infinity", "1e8", "-1", "", "1s", " 1", "1e999", NULL }; *s; s++)
		assert_int_equal(fts_parse_seconds(*s, 1e7, &v), -1);
	assert_int_equal(fts_parse_seconds(NULL, 1e7, &v), -1);
	assert_true(v == 1e7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spellings),
		cmocka_unit_test(test_short),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_parse_int),
		cmocka_unit_test(test_parse_seconds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
