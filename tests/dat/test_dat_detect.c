// SPDX-License-Identifier: MIT
/* test_dat_detect.c - fts_input_detect classifies by content, never by name. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftscope/reader.h"

#define DAT_DIR FTS_TEST_DATA "/dat/"

static char dir[64];

static const char *put(const char *name, const void *data, size_t len)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	if (len)
		assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	return path;
}

static int detect(const char *path, enum fts_input_format *fmt)
{
	struct fts_err err = { 0 };
	int ret = fts_input_detect(path, fmt, &err);

	if (ret) {
		assert_int_equal(err.code, ret);
		assert_non_null(strstr(err.msg, path));
	}
	return ret;
}

static void test_real_files(void **state)
{
	enum fts_input_format fmt;

	(void)state;
	assert_int_equal(detect(DAT_DIR "small.dat", &fmt), 0);
	assert_int_equal(fmt, FTS_FMT_DAT);
	assert_int_equal(detect(FTS_DAT_WORK "/small-v6.dat", &fmt), 0);
	assert_int_equal(fmt, FTS_FMT_DAT);
	assert_int_equal(detect(DAT_DIR "small.txt", &fmt), 0);
	assert_int_equal(fmt, FTS_FMT_TEXT);
	assert_int_equal(detect(DAT_DIR "small.report", &fmt), 0);
	assert_int_equal(fmt, FTS_FMT_TEXT);
	assert_int_equal(detect(DAT_DIR "missing.dat", &fmt), -ENOENT);
	assert_string_equal(fts_input_format_name(FTS_FMT_DAT), "trace.dat");
	assert_string_equal(fts_input_format_name(FTS_FMT_TEXT), "text");
}

static void test_text_shapes(void **state)
{
	static const char *const texts[] = {
		"# tracer: nop\n#\n",
		"\n\ncpus=8\n",
		"version = 6\ncpus=2\n",
		"  bash-1234  [001] d..2. 12345.678901: sched_switch: prev_comm=bash\n",
		"# some comment\n  <idle>-0     [000]   612.345678: irq_handler_entry: irq=1\n",
		"memfd:sealed-91-2697 ( 2697) [001] .... 359.558993: sched_switch: x\n",
		"ftstest-dat:  rec.sh-4886  [000]   359.558118: sched_waking: comm=x\n",
	};
	enum fts_input_format fmt;

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		/* the name says .dat: content must win */
		const char *p = put("looks-like.dat", texts[i], strlen(texts[i]));

		assert_int_equal(detect(p, &fmt), 0);
		assert_int_equal(fmt, FTS_FMT_TEXT);
	}
}

static void test_not_traces(void **state)
{
	static const char *const junk[] = {
		"hello world\n",
		"{\"traceEvents\": []}\n",
		"   \n\n  \n",
		"#!/bin/sh\necho hi\n",
		"\x17\x08\x44trac",
	};
	unsigned char bin[4096];
	enum fts_input_format fmt;

	(void)state;
	assert_true(detect(put("empty.txt", "", 0), &fmt) < 0);
	assert_int_equal(fmt, FTS_FMT_UNKNOWN);
	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++)
		assert_true(detect(put("junk.txt", junk[i], strlen(junk[i])), &fmt) < 0);
	srand(7);
	for (size_t i = 0; i < sizeof(bin); i++)
		bin[i] = (unsigned char)rand();
	assert_true(detect(put("random.bin", bin, sizeof(bin)), &fmt) < 0);
	/* text-looking start but NUL bytes inside: binary */
	memcpy(bin, "# tracer: nop\n", 14);
	bin[20] = 0;
	assert_true(detect(put("nul.bin", bin, sizeof(bin)), &fmt) < 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/fts-detect-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	const char *names[] = { "looks-like.dat", "empty.txt", "junk.txt", "random.bin", "nul.bin" };
	char p[128];

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		unlink(p);
	}
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_files),
		cmocka_unit_test(test_text_shapes),
		cmocka_unit_test(test_not_traces),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
