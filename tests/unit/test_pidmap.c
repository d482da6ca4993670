// SPDX-License-Identifier: MIT
/* Unit tests for pid_mapping.json loading. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "ftscope/pidmap.h"

static int load(const char *text, struct fts_pidmap **m, struct fts_err *err)
{
	char path[] = "/tmp/fts_unit_pidmap_XXXXXX";
	int fd = mkstemp(path), rc;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	memset(err, 0, sizeof(*err));
	rc = fts_pidmap_load(path, m, err);
	unlink(path);
	return rc;
}

static void test_reference_shape(void **state)
{
	struct fts_pidmap *m;
	struct fts_err err;

	(void)state;
	assert_int_equal(load("{\"100\": {},\n"
			      " \"101\": {\"NSpid\": \"\", \"name\": \"sshd\", \"Tgid\": \"101\", \"PPid\": \"1\"},\n"
			      " \"102\": {\"NSpid\": \"7\", \"name\": \"python3\", \"Tgid\": \"102\", \"PPid\": \"1\"},\n"
			      " \"103\": {\"NSpid\": \"8\", \"name\": \"worker:0-x\", \"Tgid\": \"102\", \"PPid\": \"1\"},\n"
			      " \"104\": {\"NSpid\": 9},\n"
			      " \"105\": {\"NSpid\": \"105\"},\n"
			      " \"106\": {\"NSpid\": null},\n"
			      " \"107\": {\"NSpid\": \"x\"}}",
			      &m, &err), 0);
	assert_non_null(m);
	assert_int_equal(fts_pidmap_lookup(m, 100), 100); /* {}: exited during the scan */
	assert_int_equal(fts_pidmap_lookup(m, 101), 101); /* host process */
	assert_int_equal(fts_pidmap_lookup(m, 102), 7);
	assert_int_equal(fts_pidmap_lookup(m, 103), 8);   /* a thread entry */
	assert_int_equal(fts_pidmap_lookup(m, 104), 9);   /* a number, not a string */
	assert_int_equal(fts_pidmap_lookup(m, 105), 105);
	assert_int_equal(fts_pidmap_lookup(m, 106), 106);
	assert_int_equal(fts_pidmap_lookup(m, 107), 107);
	assert_int_equal(fts_pidmap_lookup(m, 4242), 4242); /* unknown */
	assert_int_equal(fts_pidmap_lookup(m, 0), 0);
	assert_int_equal(fts_pidmap_lookup(m, -1), -1);
	assert_int_equal(fts_pidmap_size(m), 3);
	assert_int_equal(fts_pidmap_entries(m), 8);
	fts_pidmap_free(m);

	/* no map: identity */
	assert_int_equal(fts_pidmap_lookup(NULL, 55), 55);
	assert_int_equal(fts_pidmap_size(NULL), 0);
	fts_pidmap_free(NULL);
}

static void test_many_entries(void **state)
{
	static char text[1 << 20];
	struct fts_pidmap *m;
	struct fts_err err;
	size_t o = 0;

	(void)state;
	o += (size_t)snprintf(text + o, sizeof(text) - o, "{");
	for (int i = 1; i <= 5000; i++)
		o += (size_t)snprintf(text + o, sizeof(text) - o, "%s\"%d\": {\"NSpid\": \"%d\"}",
				      i > 1 ? "," : "", i * 3, i);
	snprintf(text + o, sizeof(text) - o, "}");
	assert_int_equal(load(text, &m, &err), 0);
	assert_int_equal(fts_pidmap_size(m), 5000);
	assert_int_equal(fts_pidmap_entries(m), 5000);
	for (int i = 1; i <= 5000; i++) {
		assert_int_equal(fts_pidmap_lookup(m, i * 3), i);
		assert_int_equal(fts_pidmap_lookup(m, i * 3 + 1), i * 3 + 1);
	}
	fts_pidmap_free(m);
}

static void test_errors(void **state)
{
	struct fts_pidmap *m = (struct fts_pidmap *)&m;
	struct fts_err err;

	(void)state;
	assert_int_equal(load("{\"12\": {\"NSpid\": ", &m, &err), -EINVAL);
	assert_null(m);
	assert_non_null(strstr(err.msg, "not valid JSON"));
	assert_int_equal(load("[{\"12\": {\"NSpid\": \"3\"}}]", &m, &err), -EINVAL);
	assert_null(m);
	assert_non_null(strstr(err.msg, "top level must be an object"));
	assert_int_equal(load("{\"abc\": {\"NSpid\": \"3\"}}", &m, &err), -EINVAL);
	assert_null(m);
	assert_non_null(strstr(err.msg, "'abc' is not a pid"));
	assert_int_equal(load("{\"-4\": {\"NSpid\": \"3\"}}", &m, &err), -EINVAL);
	assert_int_equal(load("{\"12x\": {\"NSpid\": \"3\"}}", &m, &err), -EINVAL);
	assert_int_equal(load("{\"12\": \"3\"}", &m, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "not an object"));
	assert_int_equal(load("{\"12\": {\"NSpid\": [3]}}", &m, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "neither a string nor a number"));
	assert_int_equal(load("", &m, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "empty"));
	assert_int_equal(fts_pidmap_load("/nonexistent/pid_mapping.json", &m, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "/nonexistent/pid_mapping.json"));
	assert_null(m);
}

/* The JSON walker that replaced the cJSON tree (issue 10 class 11) accepts and refuses what JSON does. */
static void test_json_edges(void **state)
{
	struct fts_pidmap *m;
	struct fts_err err;
	char deep[400];

	(void)state;
	/* values of other keys, of any shape, are skipped; the first NSpid counts */
	assert_int_equal(load(" {\"12\" : {\"x\": [1, {\"a\": [true, false, null]}, -0.5e+3, \"q\\\"\\u00e9\"],"
			      " \"NSpid\": \"3\", \"NSpid\": \"4\"}, \"13\": {\"NSpid\": 1e1}}\r\n", &m, &err), 0);
	assert_int_equal(fts_pidmap_lookup(m, 12), 3);
	assert_int_equal(fts_pidmap_lookup(m, 13), 10);
	assert_int_equal(fts_pidmap_entries(m), 2);
	fts_pidmap_free(m);
	assert_int_equal(load("{}", &m, &err), 0);
	assert_int_equal(fts_pidmap_lookup(m, 5), 5);
	fts_pidmap_free(m);
	/* an escaped NSpid is not taken as a pid */
	assert_int_equal(load("{\"12\": {\"NSpid\": \"\\u0033\"}}", &m, &err), 0);
	assert_int_equal(fts_pidmap_lookup(m, 12), 12);
	fts_pidmap_free(m);
	/* not JSON: trailing garbage, raw control bytes, bad escapes, bad numbers, cuts */
	for (const char *const *t = (const char *const[]){ "{} x", "{\"1\": {}},", "{\"1\": {\"a\": \"\t\"}}",
		"{\"1\": {\"a\": \"\\x\"}}", "{\"1\": {\"a\": 01}}", "{\"1\": {\"a\": 1.}}",
		"{\"1\": {\"a\": tru}}", "{\"1\" {}}", "{\"1\": {}", "{\"1\": {\"a\": [1,]}}",
		"{\"1\": {\"a\": \"\\u12\"}}", "{,}", NULL }; *t; t++) {
		assert_int_equal(load(*t, &m, &err), -EINVAL);
		assert_non_null(strstr(err.msg, "not valid JSON"));
	}
	/* nesting deeper than the walker's bound is refused, not recursed into */
	memset(deep, '[', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = '\0';
	assert_int_equal(load(deep, &m, &err), -EINVAL);
	/* an escaped key is not a pid */
	assert_int_equal(load("{\"\\u0031\": {}}", &m, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "is not a pid"));
}

static void test_fixture(void **state)
{
	struct fts_pidmap *m;
	struct fts_err err = { 0 };

	(void)state;
	assert_int_equal(fts_pidmap_load(FTS_TEST_DATA "/bad/pidmap_odd.json", &m, &err), 0);
	assert_int_equal(fts_pidmap_lookup(m, 100), 100);
	assert_int_equal(fts_pidmap_lookup(m, 101), 101);
	assert_int_equal(fts_pidmap_lookup(m, 102), 7);
	assert_int_equal(fts_pidmap_lookup(m, 106), 11);
	assert_int_equal(fts_pidmap_entries(m), 7);
	fts_pidmap_free(m);
	assert_int_equal(fts_pidmap_load(FTS_TEST_DATA "/bad/malformed_pidmap.json", &m, &err), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_shape),
		cmocka_unit_test(test_many_entries),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_json_edges),
		cmocka_unit_test(test_fixture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
