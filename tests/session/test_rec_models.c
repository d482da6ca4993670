// SPDX-License-Identifier: MIT
/*
 * Unit tests of the setup's issue-15 models: the buffer advice and the raise
 * after a loss, the list of events left out (what fts_record_opts.exclude
 * gets), and the output check the setup runs on accept.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tui/session/setup_model.h"

static void test_buffer_advice(void **state)
{
	(void)state;
	/* 2 s of 3 MiB/s = 6144 KB, up to a power of two */
	assert_int_equal(fts_buffer_advice_kb(3 * 1048576.0), 8192);
	assert_int_equal(fts_buffer_advice_kb(0), 1024);
	assert_int_equal(fts_buffer_advice_kb(1e12), FTS_BUFFER_MAX_KB);
	/* after a loss: twice the buffer, or 2 s of the rate when larger, as a power of two */
	/* after a loss: twice the buffer at least (the recorder's rule, as the TUI uses it) */
	assert_int_equal(fts_record_buffer_kb(1048576.0, 2 * 40960), 131072);
	assert_int_equal(fts_record_buffer_kb(1048576.0, 2 * 8), 2048);
	assert_int_equal(fts_record_buffer_kb(0, 2 * 8), 16);
	assert_int_equal(fts_record_buffer_kb(0, 2 * 4000000u), FTS_BUFFER_MAX_KB);
}

static void test_exclude_list(void **state)
{
	struct fts_setup s;
	struct fts_record_opts o;
	char cpus[64], cmd[512];

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(fts_setup_toggle_event(&s, "sched/sched_stat_runtime"), 0);
	assert_int_equal(fts_setup_toggle_event(&s, "irq/softirq_raise"), 0);
	assert_int_equal(fts_setup_toggle_event(&s, "sched/sched_switch"), 0);
	assert_string_equal(s.exclude, "sched/sched_stat_runtime,irq/softirq_raise,sched/sched_switch");
	assert_true(fts_setup_event_excluded(&s, "irq/softirq_raise"));
	/* a prefix of a listed name is not listed */
	assert_false(fts_setup_event_excluded(&s, "irq/softirq"));
	/* out of the middle, the end, the start */
	assert_int_equal(fts_setup_toggle_event(&s, "irq/softirq_raise"), 0);
	assert_string_equal(s.exclude, "sched/sched_stat_runtime,sched/sched_switch");
	assert_int_equal(fts_setup_toggle_event(&s, "sched/sched_switch"), 0);
	assert_string_equal(s.exclude, "sched/sched_stat_runtime");
	fts_setup_opts(&s, &o, cpus, sizeof(cpus));
	assert_string_equal(o.exclude, "sched/sched_stat_runtime");
	assert_int_equal(fts_setup_toggle_event(&s, "syscalls/sys_enter_futex"), 0);
	s.sched = s.irq = 1;
	snprintf(s.output, sizeof(s.output), "trace.dat");
	/* the command line: record's --events, each left-out event as -system:event */
	assert_string_equal(fts_setup_cmdline(&s, cmd, sizeof(cmd)),
			    "ftscope record --events sched,irq,-sched:sched_stat_runtime,-syscalls:sys_enter_futex "
			    "--record_time 0 --bf_size 0");
	assert_int_equal(fts_setup_toggle_event(&s, "sched/sched_stat_runtime"), 0);
	assert_int_equal(fts_setup_toggle_event(&s, "syscalls/sys_enter_futex"), 0);
	assert_string_equal(s.exclude, "");
	assert_string_equal(fts_setup_cmdline(&s, cmd, sizeof(cmd)),
			    "ftscope record --sched 1 --irq 1 --record_time 0 --bf_size 0");
	fts_setup_opts(&s, &o, cpus, sizeof(cpus));
	assert_null(o.exclude);
}

static void test_check_output(void **state)
{
	char dir[] = "/tmp/fts-rec-models-XXXXXX", path[600], why[600];

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(fts_setup_check_output("", "trace.dat", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "needs a file name"));
	assert_int_equal(fts_setup_check_output(dir, "trace.dat", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "is a directory"));
	snprintf(path, sizeof(path), "%s/", dir);
	assert_int_equal(fts_setup_check_output(path, "trace.dat", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "is a directory"));
	snprintf(path, sizeof(path), "%s/missing/t.dat", dir);
	assert_int_equal(fts_setup_check_output(path, "trace.dat", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "does not exist"));
	snprintf(path, sizeof(path), "%s/link.dat", dir);
	assert_int_equal(symlink("/etc/passwd", path), 0);
	assert_int_equal(fts_setup_check_output(path, "trace.dat", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "symbolic link"));
	unlink(path);
	assert_int_equal(fts_setup_check_output("/dev/null", "trace.dat", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not a regular file"));
	snprintf(path, sizeof(path), "%s/t.dat", dir);
	assert_int_equal(fts_setup_check_output(path, "trace.dat", why, sizeof(why)), 0);
	assert_string_equal(why, "");
	/* plain words: no CLI flag names */
	assert_null(strstr(why, "--"));
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buffer_advice),
		cmocka_unit_test(test_exclude_list),
		cmocka_unit_test(test_check_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
