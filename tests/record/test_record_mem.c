// SPDX-License-Identifier: MIT
/*
 * The recorder's memory rule (issue 21 item 13): buffers plus what the
 * readers buffer, against 7/8 of MemAvailable, read from a meminfo file (the
 * TUI's machine passes its own) or the FTS__TEST_MEMINFO test hook.
 */
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

#include "ftscope/record.h"
#include "core/internal.h"

static char dir[] = "/tmp/fts-mem-XXXXXX";

static const char *meminfo(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void test_need_and_max(void **state)
{
	(void)state;
	/* 2 CPUs x (4 GiB + 1 MiB reader) */
	assert_int_equal(fts_record_mem_need(4194304, 2, 0), 2 * ((4ull << 30) + (1u << 20)));
	/* the live top keeps up to 8 MiB more per CPU */
	assert_int_equal(fts_record_mem_need(1024, 1, 1), (1u << 20) + (1u << 20) + (8u << 20));
	assert_int_equal(fts_record_mem_need(0, 1, 0), 40960ull * 1024 + (1u << 20));
	assert_int_equal(fts_record_mem_need(1024, 0, 0), 0);
	/* 8 GiB available: 7 GiB usable, 3.5 GiB per CPU less the reader's MiB, whole MiB */
	assert_int_equal(fts_record_mem_max_kb(8ull << 30, 2, 0), 3583u * 1024);
	assert_int_equal(fts_record_mem_max_kb(1ull << 20, 2, 0), 0);
	assert_int_equal(fts_record_mem_max_kb(1ull << 50, 2, 0), 4194304u);
	/* under 1 MiB per CPU: KB, not rounded away */
	assert_int_equal(fts_record_mem_max_kb(1797560, 1, 0), 512);
}

static void test_check(void **state)
{
	struct fts_err err = { 0 };
	uint64_t avail = 0;
	unsigned fit = 1;

	(void)state;
	meminfo("small", "MemTotal: 4000000 kB\nMemAvailable: 2097152 kB\n");   /* 2 GiB */
	assert_int_equal(fts_record_mem_available(meminfo("small", "MemTotal: 4000000 kB\nMemAvailable: 2097152 kB\n"),
						  &avail), 0);
	assert_int_equal(avail, 2ull << 30);
	assert_int_equal(fts_record_mem_check(4194304, 2, 0, meminfo("small", "MemAvailable: 2097152 kB\n"), &fit, &err),
			 -ENOMEM);
	assert_int_equal(fit, 895u * 1024);  /* (1.75 GiB / 2 - 1 MiB), whole MiB */
	assert_non_null(strstr(err.msg, "at most 916480 KB per CPU fits"));
	assert_non_null(strstr(err.msg, "4194304 KB on 2 CPUs"));
	/* the largest size that fits is accepted, one KB more is not */
	assert_int_equal(fts_record_mem_check(fit, 2, 0, meminfo("small", "MemAvailable: 2097152 kB\n"), NULL, &err), 0);
	assert_int_equal(fts_record_mem_check(fit + 1, 2, 0, meminfo("small", "MemAvailable: 2097152 kB\n"), NULL, &err),
			 -ENOMEM);
	/* nothing fits: say to record fewer CPUs */
	assert_int_equal(fts_record_mem_check(1, 64, 0, meminfo("tiny", "MemAvailable: 1024 kB\n"), &fit, &err), -ENOMEM);
	assert_int_equal(fit, 0);
	assert_non_null(strstr(err.msg, "record fewer CPUs"));
	/* unknown MemAvailable (old kernels): the kernel decides */
	assert_int_equal(fts_record_mem_available(meminfo("old", "MemTotal: 1 kB\n"), &avail), -ENOENT);
	assert_int_equal(fts_record_mem_check(4194304, 2, 0, meminfo("old", "MemTotal: 1 kB\n"), &fit, &err), 0);
	assert_int_equal(fts_record_mem_available("/nonexistent/meminfo", &avail), -ENOENT);
}

static void test_hook(void **state)
{
	struct fts_err err = { 0 };
	uint64_t avail = 0;

	(void)state;
	assert_int_equal(fts__test_control(FTS__TEST_MEMINFO, meminfo("hook", "MemAvailable: 4096 kB\n")), 0);
	assert_int_equal(fts_record_mem_available(NULL, &avail), 0);
	assert_int_equal(avail, 4096u * 1024);
	assert_int_equal(fts_record_mem_available("/proc/meminfo", &avail), 0);
	assert_int_equal(avail, 4096u * 1024);
	assert_int_equal(fts_record_mem_check(40960, 1, 0, NULL, NULL, &err), -ENOMEM);
	assert_int_equal(fts__test_control(FTS__TEST_MEMINFO, NULL), 0);
	assert_int_equal(fts_record_mem_available(NULL, &avail), 0);
	assert_true(avail > 4096u * 1024);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[64];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_need_and_max),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_hook),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
