// SPDX-License-Identifier: MIT
/*
 * Unit tests of the interactive session's curses-free models: the home
 * screen's capture list (classified by content, symlinks skipped, newest
 * first), the setup choices (/proc/stat utilisation, CPU lists, NUMA
 * selection, memory, the equivalent command line, the flight recorder's
 * segment and keep), the export plan
 * (Insight's name and path rules, profiling cards, overlap bars, the
 * --with_summary toggle), the export worker (fts_convert in a thread, the
 * capture's span) and the one-line editor.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include <cmocka.h>

#include <ftscope/ftscope.h>

#include "tui/session/export_job.h"
#include "tui/session/export_plan.h"
#include "tui/session/home_model.h"
#include "tui/widgets/keys.h"
#include "tui/widgets/line_edit.h"
#include "tui/session/record_top.h"
#include "tui/session/setup_model.h"
#include "core/pipeline/result_impl.h"

static char tmpdir[256];

static void write_file(const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void copy_file(const char *from, const char *name, time_t mtime)
{
	char cmd[1024], path[512];
	struct timeval tv[2] = { { mtime, 0 }, { mtime, 0 } };

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", from, path);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(utimes(path, tv), 0);
}

static int setup_dir(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/fts_sess_XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	return 0;
}

static int remove_dir(void **state)
{
	char cmd[512];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd);
}

static void test_home_scan(void **state)
{
	struct fts_home_list l;
	struct fts_err err = { 0 };
	struct fts_convert_opts co = { 0 };
	char path[512], db[512];

	(void)state;
	copy_file(FTS_ASSETS "/sample/sample.dat", "old.dat", 1000000);
	copy_file(FTS_ASSETS "/sample/sample.txt", "renamed_capture.txt", 2000000);
	copy_file(FTS_ASSETS "/sample/pid_mapping.json", "pid_mapping.json", 3000000);
	write_file("notes.txt", "hello, not a trace\n");
	write_file("README", "not a trace either\n");
	snprintf(path, sizeof(path), "%s/link.dat", tmpdir);
	assert_int_equal(symlink(FTS_ASSETS "/sample/sample.dat", path), 0);
	/* a real DB through the converter, with a name Insight ignores */
	snprintf(db, sizeof(db), "%s/mine.db", tmpdir);
	co.input = FTS_ASSETS "/sample/sample.dat";
	co.output = db;
	co.format = FTS_OUT_DB;
	assert_int_equal(fts_convert(&co, NULL, &err), 0);

	assert_int_equal(fts_home_scan(tmpdir, 100, &l, &err), 0);
	/* newest first: mine.db (now), renamed_capture.txt, old.dat; the rest skipped */
	assert_int_equal(l.n, 3);
	assert_string_equal(l.e[0].name, "mine.db");
	assert_int_equal(l.e[0].kind, FTS_HOME_DB);
	assert_int_equal(l.e[0].insight_name, 0);
	assert_string_equal(l.e[1].name, "renamed_capture.txt");
	assert_int_equal(l.e[1].kind, FTS_HOME_TEXT);
	assert_string_equal(l.e[2].name, "old.dat");
	assert_int_equal(l.e[2].kind, FTS_HOME_DAT);
	assert_true(l.e[2].size > 1000);
	/* every file is read, whatever its name: notes.txt, README, the pid mapping */
	assert_int_equal(l.skipped, 3);
	fts_home_list_free(&l);
	fts_home_list_free(&l);

	assert_int_equal(fts_home_scan(tmpdir, 1, &l, &err), 0);
	assert_int_equal(l.n, 1);
	fts_home_list_free(&l);

	assert_true(fts_home_scan("/nonexistent/dir", 10, &l, &err) < 0);
	assert_non_null(strstr(err.msg, "/nonexistent/dir"));
}

static void test_insight_names(void **state)
{
	(void)state;
	/* the rules are src/app's; the plan turns them into notes */
	struct fts_export_plan p;

	memset(&p, 0, sizeof(p));
	snprintf(p.output, sizeof(p.output), "/home/u/run 1/ftrace_data12.db");
	fts_export_check(&p);
	assert_string_equal(p.output_note, "");
	snprintf(p.output, sizeof(p.output), "/home/u/a&b/ftrace_data.db");
	fts_export_check(&p);
	assert_non_null(strstr(p.output_note, "refuses"));
	assert_non_null(strstr(p.output_note, "/home/u/a&b/ftrace_data.db"));
	snprintf(p.output, sizeof(p.output), "/tmp/x\x1b/ftrace_data.db");
	fts_export_check(&p);
	assert_non_null(strstr(p.output_note, "refuses"));
	snprintf(p.output, sizeof(p.output), "/tmp/ftrace_data_kill.db");
	fts_export_check(&p);
	assert_non_null(strstr(p.output_note, "ftrace_data.db or ftrace_data<digits>.db"));
	assert_null(strstr(p.output_note, "ftrace_data*.db"));
	assert_null(strstr(p.output_note, "[0-9]*"));
	snprintf(p.output, sizeof(p.output), "/tmp/ftrace_data_1.db");
	fts_export_check(&p);
	assert_non_null(strstr(p.output_note, "ftrace_data.db or ftrace_data<digits>.db"));
	assert_int_equal(p.output_bad, 0);
}

static void test_cpustat(void **state)
{
	struct fts_cpustat a, b;
	uint64_t mem = 0;

	(void)state;
	write_file("stat1", "cpu  100 0 100 800 0 0 0 0 0 0\n"
			    "cpu0 50 0 50 400 0 0 0 0 0 0\n"
			    "cpu2 0 0 0 500 0 0 0 0\n"
			    "intr 12345\n");
	write_file("stat2", "cpu  200 0 200 1600 0 0 0 0 0 0\n"
			    "cpu0 125 0 125 450 0 0 0 0 0 0\n" /* +150 busy of +200 */
			    "cpu2 0 0 0 600 0 0 0 0\n");        /* idle */
	write_file("meminfo", "MemTotal: 1000 kB\nMemFree: 10 kB\nMemAvailable: 2048 kB\n");
	assert_int_equal(fts_cpustat_read(strcat(strcpy((char[600]){ 0 }, tmpdir), "/stat1"), &a), 0);
	assert_int_equal(fts_cpustat_read(strcat(strcpy((char[600]){ 0 }, tmpdir), "/stat2"), &b), 0);
	assert_int_equal(a.n, 3);
	assert_float_equal(fts_cpustat_util(&a, &b, 0), 0.75, 1e-9);
	assert_float_equal(fts_cpustat_util(&a, &b, 2), 0.0, 1e-9);
	assert_float_equal(fts_cpustat_util(&a, &b, 1), -1, 1e-9);  /* no line */
	assert_float_equal(fts_cpustat_util(&a, &a, 0), -1, 1e-9);  /* no time passed */
	assert_float_equal(fts_cpustat_util(&a, &b, 99), -1, 1e-9);
	fts_cpustat_free(&a);
	fts_cpustat_free(&b);
	fts_cpustat_free(&b);
	assert_int_equal(fts_record_mem_available(strcat(strcpy((char[600]){ 0 }, tmpdir), "/meminfo"), &mem), 0);
	assert_int_equal(mem, 2048u * 1024u);
	assert_int_equal(fts_record_mem_available(strcat(strcpy((char[600]){ 0 }, tmpdir), "/stat1"), &mem), -ENOENT);
	assert_true(fts_cpustat_read("/nonexistent", &a) < 0);
}

/* 8 online CPUs 0-3 (node 0) and 8-11 (node 1). */
static void fake_caps(struct fts_record_caps *c, struct fts_record_cpu_cap *cpu)
{
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < 8; i++) {
		cpu[i].cpu = i < 4 ? i : i + 4;
		cpu[i].node = i < 4 ? 0 : 1;
	}
	c->ncpus = 8;
	c->cpu = cpu;
	c->nnodes = 2;
}

static void test_setup_choices(void **state)
{
	struct fts_record_cpu_cap cpu[8];
	struct fts_record_caps caps;
	struct fts_record_opts o, pre;
	struct fts_setup s;
	struct fts_err err = { 0 };
	char buf[1024], cmd[2048];

	(void)state;
	fake_caps(&caps, cpu);
	assert_int_equal(fts_setup_init(&s, &caps, NULL, &err), 0);
	assert_int_equal(fts_setup_selected(&s), 8);
	assert_string_equal(fts_setup_cpulist(&s, buf, sizeof(buf), 1), "");
	assert_string_equal(fts_setup_cpulist(&s, buf, sizeof(buf), 0), "0-3,8-11");
	assert_int_equal(s.duration_s, 30);
	assert_int_equal(fts_setup_mem_bytes(&s), 8ull * 40960 * 1024);
	assert_string_equal(fts_setup_cmdline(&s, cmd, sizeof(cmd)), "ftscope record --sched 1 --irq 1 --record_time 30 --live_top");

	assert_int_equal(fts_setup_select_list(&s, "0, 2-3 ,9", &err), 0);
	assert_string_equal(fts_setup_cpulist(&s, buf, sizeof(buf), 1), "0,2-3,9");
	/* an offline CPU and garbage are refused and change nothing */
	assert_int_equal(fts_setup_select_list(&s, "0-5", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "CPU 4 is not online"));
	assert_int_equal(fts_setup_select_list(&s, "1-", &err), -EINVAL);
	assert_int_equal(fts_setup_select_list(&s, "3-1", &err), -EINVAL);
	assert_int_equal(fts_setup_select_list(&s, "", &err), -EINVAL);
	assert_int_equal(fts_setup_select_list(&s, "x", &err), -EINVAL);
	assert_string_equal(fts_setup_cpulist(&s, buf, sizeof(buf), 1), "0,2-3,9");

	assert_int_equal(fts_setup_select_node(&s, 1), 4);
	assert_string_equal(fts_setup_cpulist(&s, buf, sizeof(buf), 1), "8-11");
	assert_int_equal(fts_setup_select_node(&s, 7), 0);
	assert_string_equal(fts_setup_cpulist(&s, buf, sizeof(buf), 1), "8-11");

	s.irq = 0;
	s.duration_s = 0;
	s.bf_kb = 1024;
	s.nspid = 1;
	s.backend = FTS_BACKEND_TRACE_CMD;
	snprintf(s.output, sizeof(s.output), "my run's.dat");
	assert_string_equal(fts_setup_cmdline(&s, cmd, sizeof(cmd)),
			    "ftscope record --cpu 8-11 --sched 1 --irq 0 --record_time 0 --bf_size 1024 "
			    "--backend trace-cmd --NSpid --live_top -o 'my run'\\''s.dat'");
	fts_setup_opts(&s, &o, buf, sizeof(buf));
	assert_string_equal(o.cpus, "8-11");
	assert_string_equal(o.output, "my run's.dat");
	assert_int_equal(o.bf_size_kb, 1024);
	assert_int_equal(o.irq, 0);
	assert_int_equal(o.nspid, 1);
	assert_int_equal(o.live_top, 1);
	assert_true(o.duration_s == 0);
	/* the live top needs the sched events */
	s.sched = 0;
	s.irq = 1;
	fts_setup_opts(&s, &o, buf, sizeof(buf));
	assert_int_equal(o.live_top, 0);
	assert_null(strstr(fts_setup_cmdline(&s, cmd, sizeof(cmd)), "--live_top"));
	s.sched = 1;
	s.irq = 0;
	assert_int_equal(fts_setup_mem_bytes(&s), 4ull * 1024 * 1024);
	fts_setup_free(&s);
	fts_setup_free(&s);

	/* a preset from record flags; a bad CPU list keeps all CPUs and says why */
	fts_record_opts_init(&pre);
	pre.cpus = "8,9";
	pre.futex = 1;
	pre.duration_s = 5;
	assert_int_equal(fts_setup_init(&s, &caps, &pre, &err), 0);
	assert_string_equal(fts_setup_cpulist(&s, buf, sizeof(buf), 1), "8-9");
	assert_int_equal(s.futex, 1);
	assert_int_equal(s.duration_s, 5);
	fts_setup_free(&s);
	pre.cpus = "64";
	assert_int_equal(fts_setup_init(&s, &caps, &pre, &err), -EINVAL);
	assert_int_equal(fts_setup_selected(&s), 8);
	fts_setup_free(&s);

	/* every record flag --tui is given reaches the capture the setup starts (issue 21 item 10) */
	{
		char cpus[64];

		fts_record_opts_init(&pre);
		pre.cpus = "0-1,9";
		pre.output = "/tmp/x/run.txt";
		pre.bf_size_kb = 2048;
		pre.backend = FTS_BACKEND_TRACEFS;
		pre.irq = 0;
		pre.futex = 1;
		pre.exclude = "sched/sched_stat_runtime";
		pre.nspid = 1;
		pre.pid_mapping = "/tmp/x/my map.json";
		pre.duration_s = 7;
		pre.reader_nice = -15;
		assert_int_equal(fts_setup_init(&s, &caps, &pre, &err), 0);
		fts_setup_opts(&s, &o, cpus, sizeof(cpus));
		assert_string_equal(o.cpus, "0-1,9");
		assert_string_equal(o.output, "/tmp/x/run.txt");
		assert_int_equal(o.bf_size_kb, 2048);
		assert_int_equal(o.backend, FTS_BACKEND_TRACEFS);
		assert_int_equal(o.sched, 1);
		assert_int_equal(o.irq, 0);
		assert_int_equal(o.futex, 1);
		assert_string_equal(o.exclude, "sched/sched_stat_runtime");
		assert_int_equal(o.nspid, 1);
		assert_string_equal(o.pid_mapping, "/tmp/x/my map.json");
		assert_float_equal(o.duration_s, 7, 0);
		assert_int_equal(o.reader_nice, -15);
		fts_setup_cmdline(&s, cmd, sizeof(cmd));
		assert_non_null(strstr(cmd, " --pid_mapping '/tmp/x/my map.json'"));
		assert_non_null(strstr(cmd, " --reader_nice -15"));
		assert_non_null(strstr(cmd, " --bf_size 2048"));
		assert_non_null(strstr(cmd, " --backend tracefs"));
		fts_setup_free(&s);
	}

	assert_float_equal(fts_buffer_lasts_s(1024, 1024 * 1024), 1.0, 1e-9);
	assert_float_equal(fts_buffer_lasts_s(1024, 0), -1, 1e-9);
}

/*
 * The setup's flight recorder (issue 17): defaults as `record --flight`
 * (30 s segments, 4 kept, off), "SEGMENT KEEP" parsed by the CLI's own
 * parser and refused whole when wrong, and the options and command line it
 * gives: segments until stopped, without the live top the recorder refuses.
 */
/*
 * The setup's Trigger and Snapshot rows (issue 17): triggers as `record
 * --trigger`, checked by the library's own parser, ';' between, blanks
 * ignored; a bad one refused whole with why; they reach the options and the
 * command line only in flight mode; "last N s" is 0..86400 or all.
 */
static void test_setup_triggers(void **state)
{
	static const char *const bad[] = { "runnable>5", "runnable>5ms:uid=0", "sleep>5ms", "wakeup>0ms",
					   "runnable>5ms; wakeup", "lost>5", "runnable>5ms:comm=", "wakeup>2ms:pid=x" };
	static const char *const bad_last[] = { "-1", "x", "1e9", "nan", "10s", "" };
	struct fts_record_cpu_cap cpu[8];
	struct fts_record_caps caps;
	struct fts_record_opts o;
	struct fts_setup s;
	struct fts_err err = { 0 };
	char buf[1024], cmd[2048];

	(void)state;
	fake_caps(&caps, cpu);
	assert_int_equal(fts_setup_init(&s, &caps, NULL, &err), 0);
	assert_string_equal(s.triggers, "");
	assert_true(s.snap_last_s == 0);
	assert_int_equal(fts_setup_set_triggers(&s, " runnable>5ms:comm=python* ;wakeup>2ms ; ", &err), 0);
	assert_string_equal(s.triggers, "runnable>5ms:comm=python*;wakeup>2ms");
	fts_setup_opts(&s, &o, buf, sizeof(buf));
	assert_null(o.flight_triggers);    /* a plain capture has none */
	assert_null(strstr(fts_setup_cmdline(&s, cmd, sizeof(cmd)), "--trigger"));
	s.flight = 1;
	fts_setup_opts(&s, &o, buf, sizeof(buf));
	assert_string_equal(o.flight_triggers, "runnable>5ms:comm=python*;wakeup>2ms");
	assert_true(o.flight_post_trigger_s == 2);
	assert_string_equal(fts_setup_cmdline(&s, cmd, sizeof(cmd)),
			    "ftscope record --sched 1 --irq 1 --flight --segment 30s --keep 4 "
			    "--trigger 'runnable>5ms:comm=python*' --trigger 'wakeup>2ms' --live_top");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err.msg[0] = 0;
		assert_int_equal(fts_setup_set_triggers(&s, bad[i], &err), -EINVAL);
		assert_true(err.msg[0] != 0);
		assert_string_equal(s.triggers, "runnable>5ms:comm=python*;wakeup>2ms");   /* unchanged */
	}
	/* lost is the library's rule as the others: shown, on the command line and handed over */
	assert_int_equal(fts_setup_set_triggers(&s, "wakeup>2ms; lost", &err), 0);
	assert_string_equal(s.triggers, "wakeup>2ms;lost");
	fts_setup_opts(&s, &o, buf, sizeof(buf));
	assert_string_equal(o.flight_triggers, "wakeup>2ms;lost");
	assert_non_null(strstr(fts_setup_cmdline(&s, cmd, sizeof(cmd)), "--trigger 'wakeup>2ms' --trigger lost"));
	assert_int_equal(fts_setup_set_triggers(&s, "lost", &err), 0);
	fts_setup_opts(&s, &o, buf, sizeof(buf));
	assert_string_equal(o.flight_triggers, "lost");
	assert_int_equal(fts_setup_set_triggers(&s, "", &err), 0);
	fts_setup_opts(&s, &o, buf, sizeof(buf));
	assert_null(o.flight_triggers);

	assert_int_equal(fts_setup_set_snap_last(&s, " 10 ", &err), 0);
	assert_true(s.snap_last_s == 10);
	for (size_t i = 0; i < sizeof(bad_last) / sizeof(bad_last[0]); i++) {
		err.msg[0] = 0;
		assert_int_equal(fts_setup_set_snap_last(&s, bad_last[i], &err), -EINVAL);
		assert_true(err.msg[0] != 0);
		assert_true(s.snap_last_s == 10);
	}
	assert_int_equal(fts_setup_set_snap_last(&s, "all", &err), 0);
	assert_true(s.snap_last_s == 0);
	fts_setup_free(&s);
}

static void test_setup_flight(void **state)
{
	static const char *const bad[] = { "", "  ", "0s 2", "-1s", "30x", "30s 0", "30s -2", "30s 100001",
					    "30s 2x", "30s 2 3", "1e9s", "nan", "inf 2", "64M 1.5",
					    "0.4s 2", "512K" };
	struct fts_record_cpu_cap cpu[8];
	struct fts_record_caps caps;
	struct fts_record_opts o;
	struct fts_setup s;
	struct fts_err err = { 0 };
	char buf[1024], cmd[2048];

	(void)state;
	fake_caps(&caps, cpu);
	assert_int_equal(fts_setup_init(&s, &caps, NULL, &err), 0);
	assert_int_equal(s.flight, 0);
	assert_string_equal(s.segment, "30s");
	assert_int_equal(s.keep, 4);
	fts_setup_opts(&s, &o, buf, sizeof(buf));
	assert_true(o.flight_segment_s == 0 && o.flight_segment_bytes == 0); /* off: a plain capture */
	assert_true(o.duration_s == 30);

	s.flight = 1;
	fts_setup_opts(&s, &o, buf, sizeof(buf));
	assert_true(o.flight_segment_s == 30);
	assert_true(o.flight_segment_bytes == 0);
	assert_int_equal(o.flight_keep, 4);
	assert_true(o.duration_s == 0);    /* until stopped, whatever the duration row held */
	assert_int_equal(o.live_top, 1);   /* the session's top: it follows the rotations now */
	assert_null(o.flight_triggers);    /* none armed */
	assert_string_equal(fts_setup_cmdline(&s, cmd, sizeof(cmd)),
			    "ftscope record --sched 1 --irq 1 --flight --segment 30s --keep 4 --live_top");

	assert_int_equal(fts_setup_set_flight(&s, "1s 2", &err), 0);
	assert_string_equal(s.segment, "1s");
	assert_int_equal(s.keep, 2);
	fts_setup_opts(&s, &o, buf, sizeof(buf));
	assert_true(o.flight_segment_s == 1);
	assert_int_equal(o.flight_keep, 2);
	assert_int_equal(fts_setup_set_flight(&s, " 2m ", &err), 0); /* the keep count stays */
	assert_true(s.segment_s == 120);
	assert_int_equal(s.keep, 2);
	assert_int_equal(fts_setup_set_flight(&s, "64M 8", &err), 0);
	fts_setup_opts(&s, &o, buf, sizeof(buf));
	assert_true(o.flight_segment_s == 0);
	assert_true(o.flight_segment_bytes == 64ull << 20);
	assert_int_equal(o.flight_keep, 8);
	assert_string_equal(fts_setup_cmdline(&s, cmd, sizeof(cmd)),
			    "ftscope record --sched 1 --irq 1 --flight --segment 64M --keep 8 --live_top");

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err.msg[0] = 0;
		assert_int_equal(fts_setup_set_flight(&s, bad[i], &err), -EINVAL);
		assert_true(err.msg[0] != 0);
		/* refused whole: nothing of it was taken */
		assert_string_equal(s.segment, "64M");
		assert_true(s.segment_bytes == 64ull << 20 && s.segment_s == 0);
		assert_int_equal(s.keep, 8);
	}
	assert_int_equal(fts_setup_set_flight(&s, "30s 100000", &err), 0);
	assert_int_equal(s.keep, 100000);

	s.flight = 0; /* back to a capture: the flight fields leave the options */
	fts_setup_opts(&s, &o, buf, sizeof(buf));
	assert_true(o.flight_segment_s == 0 && o.flight_segment_bytes == 0 && o.flight_keep == 0);
	assert_null(strstr(fts_setup_cmdline(&s, cmd, sizeof(cmd)), "--flight"));
	fts_setup_free(&s);
}

static void test_shell_quote(void **state)
{
	char b[64];

	(void)state;
	assert_string_equal(fts_shell_quote("trace.dat", b, sizeof(b)), "trace.dat");
	assert_string_equal(fts_shell_quote("/a/b-c_d", b, sizeof(b)), "/a/b-c_d");
	assert_string_equal(fts_shell_quote("a b", b, sizeof(b)), "'a b'");
	assert_string_equal(fts_shell_quote("$(rm -rf)", b, sizeof(b)), "'$(rm -rf)'");
	assert_string_equal(fts_shell_quote("", b, sizeof(b)), "''");
	/* never overflows */
	assert_true(strlen(fts_shell_quote("'''''''''''''''''''''''''''''''''", b, 16)) < 16);
}

static void test_export_plan(void **state)
{
	struct fts_export_plan p;
	char cmd[9000];
	int64_t lo, hi;
	int x0, x1;

	(void)state;
	memset(&p, 0, sizeof(p));
	snprintf(p.input, sizeof(p.input), "trace.dat");
	snprintf(p.output, sizeof(p.output), "ftrace_data.db");
	fts_export_check(&p);
	assert_string_equal(p.output_note, "");
	assert_int_equal(p.output_bad, 0);
	snprintf(p.output, sizeof(p.output), "run.db");
	fts_export_check(&p);
	assert_non_null(strstr(p.output_note, "ftrace_data.db or ftrace_data<digits>.db"));
	assert_int_equal(p.output_bad, 0);
	snprintf(p.output, sizeof(p.output), "ftrace_data.json");
	fts_export_check(&p);
	assert_int_equal(p.output_bad, 1);
	p.json = 1;
	fts_export_check(&p);
	assert_int_equal(p.output_bad, 0);
	p.json = 0;
	snprintf(p.output, sizeof(p.output), "ftrace_data.db");
	snprintf(p.output, sizeof(p.output), "/home/u/a;b/ftrace_data.db");
	fts_export_check(&p);
	assert_non_null(strstr(p.output_note, "refuses"));
	snprintf(p.output, sizeof(p.output), "ftrace_data.db");

	/* the bundled profiling sample: two cards */
	snprintf(p.profiling, sizeof(p.profiling), "%s", FTS_ASSETS "/sample/profiling");
	fts_export_check(&p);
	assert_int_equal(p.prof_ok, 1);
	assert_int_equal(p.tm.ncards, 2);
	/* cards on the trace clock (clockMonotonicRaw): inside, half inside, outside */
	fts_export_card_range(&p, 0, &lo, &hi);
	assert_int_equal(lo, 623805628706ll);
	assert_int_equal(hi - lo, 626655780308ll - 623805628706ll);
	p.cap_lo = (uint64_t)lo + 1000;
	p.cap_hi = (uint64_t)hi - 1000;
	assert_float_equal(fts_export_overlap(&p), 1.0, 1e-9);
	p.cap_lo = (uint64_t)lo - (uint64_t)(hi - lo);
	p.cap_hi = (uint64_t)hi;
	assert_float_equal(fts_export_overlap(&p), 0.5, 1e-6);
	p.cap_lo = (uint64_t)hi + 10;
	p.cap_hi = (uint64_t)hi + 1000000;
	assert_float_equal(fts_export_overlap(&p), 0.0, 1e-9);
	{
		/* defect 9: the words follow the same clock as the bars */
		char note[600], cards[200];
		int bad;
		struct fts_pipeline_result r;

		fts_export_window_note(&p, note, sizeof(note), &bad);
		assert_int_equal(bad, 1);
		assert_non_null(strstr(note, "after the profiling window ends"));
		p.cap_lo = (uint64_t)lo - 5000000000ull;
		p.cap_hi = (uint64_t)lo - 4000000000ull;
		fts_export_window_note(&p, note, sizeof(note), &bad);
		assert_non_null(strstr(note, "ends 4.0 s before the profiling window starts"));
		/* no clock pair: the other-boot case cannot be told, and it says so */
		assert_non_null(strstr(note, "cannot be told"));
		/* the recorder's clock pair puts it after the window, an hour off the profiler's */
		memset(&r, 0, sizeof(r));
		r.items = 1;
		r.time.base = FTS_TIME_CLOCK_PAIR;
		r.time.offset = p.tm.cards[0].offset + 3600ll * 1000000000ll;
		r.span_lo = (uint64_t)((int64_t)p.cap_lo + r.time.offset);
		r.span_hi = (uint64_t)((int64_t)p.cap_hi + r.time.offset);
		p.cap_lo = p.cap_hi = 0;
		fts_export_set_range(&p, &r);
		assert_int_equal(p.cap_lo, (uint64_t)lo - 5000000000ull);
		fts_export_window_note(&p, note, sizeof(note), &bad);
		assert_int_equal(bad, 1);
		assert_non_null(strstr(note, "before the profiling window starts"));
		assert_non_null(strstr(note, "recorded on another boot or host (the recorder's and the profiler's clocks differ by 1h00m)"));
		/* the same clocks: no such claim */
		r.time.offset = p.tm.cards[0].offset + 1000;
		r.span_lo = (uint64_t)lo + 10 + (uint64_t)r.time.offset;
		r.span_hi = (uint64_t)hi - 10 + (uint64_t)r.time.offset;
		fts_export_set_range(&p, &r);
		fts_export_window_note(&p, note, sizeof(note), &bad);
		assert_int_equal(bad, 0);
		assert_string_equal(note, "all of the capture is inside the profiling window");
		/* issue 33: half inside and an hour off: one separator, not "left out;:" */
		r.time.offset = p.tm.cards[0].offset + 3600ll * 1000000000ll;
		r.span_lo = (uint64_t)(lo - (hi - lo) + r.time.offset);
		r.span_hi = (uint64_t)(hi + r.time.offset);
		fts_export_set_range(&p, &r);
		fts_export_window_note(&p, note, sizeof(note), &bad);
		assert_int_equal(bad, 0);
		assert_string_equal(note, "50% of the capture is inside the profiling window; the rest is left out; "
				    "recorded on another boot or host (the recorder's and the profiler's clocks differ by 1h00m)");
		/* defect 17: host is the host's window, not a card */
		assert_string_equal(fts_export_cards_text(&p, cards, sizeof(cards)),
				    "1 device card (device_0) and the host's window");
	}
	p.cap_lo = 623805628706ull;
	p.cap_hi = 624805628706ull;
	assert_float_equal(fts_export_overlap(&p), 1.0, 1e-9);
	p.cap_hi = p.cap_lo;
	assert_float_equal(fts_export_overlap(&p), -1, 1e-9);

	snprintf(p.profiling, sizeof(p.profiling), "/nonexistent");
	fts_export_check(&p);
	assert_int_equal(p.prof_ok, 0);
	assert_true(p.prof_note[0] != 0);

	fts_export_bar(0, 50, 0, 100, 10, &x0, &x1);
	assert_int_equal(x0, 0);
	assert_int_equal(x1, 5);
	fts_export_bar(99, 100, 0, 100, 10, &x0, &x1);  /* tiny: still one column */
	assert_int_equal(x0, 9);
	assert_int_equal(x1, 10);
	fts_export_bar(200, 300, 0, 100, 10, &x0, &x1); /* outside: nothing */
	assert_int_equal(x1 - x0, 0);
	fts_export_bar(-50, 500, 0, 100, 10, &x0, &x1); /* clipped */
	assert_int_equal(x0, 0);
	assert_int_equal(x1, 10);

	snprintf(p.profiling, sizeof(p.profiling), "/data/prof run");
	snprintf(p.pid_mapping, sizeof(p.pid_mapping), "pid_mapping.json");
	assert_string_equal(fts_export_cmdline(&p, cmd, sizeof(cmd)),
			    "ftscope convert -i trace.dat -o ftrace_data.db --profiling_data '/data/prof run' "
			    "--pid_mapping pid_mapping.json");
}

/* --with_summary: a DB-only toggle, in the command line only when it applies. */
static void test_export_summary_toggle(void **state)
{
	struct fts_export_plan p;
	char cmd[9000];

	(void)state;
	memset(&p, 0, sizeof(p));
	snprintf(p.input, sizeof(p.input), "trace.dat");
	snprintf(p.output, sizeof(p.output), "ftrace_data.db");
	assert_int_equal(fts_export_with_summary(&p), 0);
	assert_int_equal(fts_export_toggle_summary(&p), 1);
	assert_int_equal(fts_export_with_summary(&p), 1);
	assert_string_equal(fts_export_cmdline(&p, cmd, sizeof(cmd)),
			    "ftscope convert -i trace.dat -o ftrace_data.db --with_summary");
	/* JSON: not offered, not on the command line, and the toggle refuses */
	p.json = 1;
	snprintf(p.output, sizeof(p.output), "ftrace_data.json");
	assert_int_equal(fts_export_with_summary(&p), 0);
	assert_string_equal(fts_export_cmdline(&p, cmd, sizeof(cmd)),
			    "ftscope convert -i trace.dat -o ftrace_data.json --format json");
	assert_int_equal(fts_export_toggle_summary(&p), 0);
	/* back to DB: the choice is kept */
	p.json = 0;
	snprintf(p.output, sizeof(p.output), "ftrace_data.db");
	assert_int_equal(fts_export_with_summary(&p), 1);
	assert_int_equal(fts_export_toggle_summary(&p), 1);
	assert_int_equal(fts_export_with_summary(&p), 0);
	assert_null(strstr(fts_export_cmdline(&p, cmd, sizeof(cmd)), "--with_summary"));
}

static int run_job(enum fts_export_job_kind kind, const struct fts_export_plan *p,
		   struct fts_pipeline_result *res, struct fts_err *err)
{
	struct fts_export_job *j;
	struct fts_pipeline_result *r = NULL;
	int rc;

	/* the sample is trusted: no probe helper (this binary is not ftscope) */
	assert_int_equal(fts_export_job_start(kind, p, NULL, &j), 0);
	assert_int_equal(fts_export_job_kind(j), kind);
	while (!fts_export_job_done(j))
		usleep(10000);
	rc = fts_export_job_result(j, &r, err);
	fts_export_job_free(j);
	assert_non_null(r);
	*res = *r;   /* the layout is in reach here (result_impl.h) */
	fts_pipeline_result_free(r);
	return rc;
}

static long long db_count(const char *db, const char *table)
{
	char cmd[1024];
	long long v = -1;
	FILE *f;

	assert_true((size_t)snprintf(cmd, sizeof(cmd), "sqlite3 '%s' 'select count(*) from %s' 2>/dev/null", db,
				     table) < sizeof(cmd));
	f = popen(cmd, "r");
	assert_non_null(f);
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	pclose(f);
	return v;
}

/*
 * The export worker writes what fts_convert writes for the plan's command
 * line (--with_summary included), and the range job gives the capture's
 * span from the pipeline's result.
 */
static void test_export_job(void **state)
{
	struct fts_pipeline_result *res = calloc(1, sizeof(*res));
	struct fts_export_plan *p = calloc(1, sizeof(*p));
	struct fts_convert_opts co = { .format = FTS_OUT_DB, .cs_rows = 1, .with_summary = 1 };
	struct fts_err err = { 0 };
	char b[600];

	(void)state;
	assert_non_null(res);
	assert_non_null(p);
	snprintf(p->input, sizeof(p->input), "%s", FTS_ASSETS "/sample/sample.dat");
	assert_int_equal(run_job(FTS_JOB_RANGE, p, res, &err), 0);
	assert_true(res->items > 1000);
	assert_true(res->span_lo > 0 && res->span_lo < res->span_hi);

	snprintf(p->output, sizeof(p->output), "%s/ftrace_data.db", tmpdir);
	assert_int_equal(fts_export_toggle_summary(p), 1);
	assert_int_equal(run_job(FTS_JOB_EXPORT, p, res, &err), 0);
	assert_true(db_count(p->output, "trace_task_summary") > 0);
	assert_int_equal(db_count(p->output, "slice"), (long long)res->items);
	/* the same rows as `ftscope convert ... --with_summary` (what the CLI calls) */
	snprintf(b, sizeof(b), "%s/ftrace_data_cli.db", tmpdir);
	co.input = p->input;
	co.output = b;
	assert_int_equal(fts_convert(&co, NULL, &err), 0);
	assert_int_equal(db_count(b, "trace_task_summary"), db_count(p->output, "trace_task_summary"));
	assert_int_equal(db_count(b, "slice"), db_count(p->output, "slice"));
	/* the wakeup flows too */
	assert_true(db_count(p->output, "flow") > 1000);
	assert_int_equal(db_count(b, "flow"), db_count(p->output, "flow"));

	/* a failure is reported, and leaves nothing */
	snprintf(p->input, sizeof(p->input), "%s/nonexistent.dat", tmpdir);
	snprintf(p->output, sizeof(p->output), "%s/ftrace_data2.db", tmpdir);
	assert_true(run_job(FTS_JOB_EXPORT, p, res, &err) < 0);
	assert_non_null(strstr(err.msg, "nonexistent.dat"));
	assert_int_equal(access(p->output, F_OK), -1);
	free(p);
	free(res);
}

static void test_line_edit(void **state)
{
	struct fts_line_edit e;

	(void)state;
	fts_edit_begin(&e, 3, "ab");
	assert_int_equal(e.field, 3);
	assert_int_equal(fts_edit_key(&e, 'c'), FTS_EDIT_GOING);
	assert_int_equal(fts_edit_key(&e, FTS_KEY_BACKSPACE), FTS_EDIT_GOING);
	assert_int_equal(fts_edit_key(&e, FTS_KEY_BACKSPACE), FTS_EDIT_GOING);
	assert_int_equal(fts_edit_key(&e, 0x1b5b), FTS_EDIT_GOING);  /* not printable: ignored */
	assert_int_equal(fts_edit_key(&e, FTS_KEY_UP), FTS_EDIT_GOING);
	assert_string_equal(e.buf, "a");
	assert_int_equal(fts_edit_key(&e, FTS_KEY_ENTER), FTS_EDIT_DONE);
	assert_int_equal(e.active, 0);
	fts_edit_begin(&e, 1, "xyz");
	assert_int_equal(fts_edit_key(&e, FTS_KEY_CTRL('u')), FTS_EDIT_GOING);
	assert_string_equal(e.buf, "");
	for (int i = 0; i < FTS_EDIT_MAX + 10; i++)
		fts_edit_key(&e, 'a');
	assert_int_equal(strlen(e.buf), FTS_EDIT_MAX - 1);
	assert_int_equal(fts_edit_key(&e, FTS_KEY_ESC), FTS_EDIT_CANCEL);
	fts_edit_begin(&e, 1, NULL);
	assert_string_equal(e.buf, "");
}

/* A fake /proc: process @pid with thread @tid named @comm and counters. */
static void fake_thread(int pid, int tid, const char *comm, unsigned long long run,
			unsigned long long wait, unsigned long long slices)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/proc/%d/task/%d' '%s/proc/%d'", tmpdir, pid, tid, tmpdir, tid);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/proc/%d/task/%d/schedstat", tmpdir, pid, tid);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%llu %llu %llu\n", run, wait, slices);
	fclose(f);
	snprintf(path, sizeof(path), "%s/proc/%d/comm", tmpdir, tid);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", comm);
	fclose(f);
}

static void test_live_top(void **state)
{
	struct fts_live_top t;
	char root[300], cmd[400];

	(void)state;
	snprintf(root, sizeof(root), "%s/proc", tmpdir);
	fake_thread(10, 10, "trainer", 1000000000ull, 0, 10);
	fake_thread(10, 11, "worker\x1b[31m", 0, 0, 0);
	fake_thread(20, 20, "kworker/0:1", 0, 0, 0);
	fake_thread(30, 30, "gone", 5, 5, 5);
	fts_top_init(&t, root);
	assert_int_equal(fts_top_sample(&t, 100.0), 0);  /* baseline */
	assert_int_equal(t.threads, 4);
	assert_int_equal(t.nwait, 0);
	assert_int_equal(t.nrun, 0);
	/* 2 s later: trainer ran 1.6 s and waited 0.2 s over 4 runs; the worker
	 * waited 1 s over 2 runs; kworker ran 0.1 s; pid 30 ended; 40 is new */
	fake_thread(10, 10, "trainer", 2600000000ull, 200000000ull, 14);
	fake_thread(10, 11, "worker\x1b[31m", 0, 1000000000ull, 2);
	fake_thread(20, 20, "kworker/0:1", 100000000ull, 0, 1);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/proc/30'", tmpdir);
	assert_int_equal(system(cmd), 0);
	fake_thread(40, 40, "newbie", 200000000ull, 400000000ull, 1);
	assert_int_equal(fts_top_sample(&t, 102.0), 0);
	assert_int_equal(t.threads, 4);
	assert_float_equal(t.interval_s, 2.0, 1e-9);
	/* waiting most: worker 50%, newbie 20% (counted from its start), trainer 10% */
	assert_int_equal(t.nwait, 3);
	assert_int_equal(t.wait[0].tid, 11);
	assert_string_equal(t.wait[0].comm, "worker\x1b[31m"); /* raw: the grid escapes it */
	assert_float_equal(t.wait[0].wait_frac, 0.5, 1e-9);
	assert_float_equal(t.wait[0].wait_per_run_ms, 500.0, 1e-9);
	assert_int_equal(t.wait[1].tid, 40);
	assert_int_equal(t.wait[2].tid, 10);
	assert_float_equal(t.wait[2].wait_per_run_ms, 50.0, 1e-9);
	/* running most: trainer 80%, newbie 10%, kworker 5% */
	assert_int_equal(t.nrun, 3);
	assert_int_equal(t.run[0].tid, 10);
	assert_string_equal(t.run[0].comm, "trainer");
	assert_float_equal(t.run[0].run_frac, 0.8, 1e-9);
	assert_int_equal(t.run[2].tid, 20);
	assert_string_equal(t.run[2].comm, "kworker/0:1");
	assert_int_equal(t.worst_latency.tid, 11);
	/* a reused tid whose counters went backwards counts from zero */
	fake_thread(20, 20, "kworker/0:2", 50000000ull, 0, 1);
	assert_int_equal(fts_top_sample(&t, 103.0), 0);
	assert_int_equal(t.nrun, 1);  /* nobody else ran since */
	assert_int_equal(t.nwait, 0);
	assert_int_equal(t.run[0].tid, 20);
	assert_float_equal(t.run[0].run_frac, 0.05, 1e-9);
	fts_top_free(&t);
	fts_top_free(&t);
	fts_top_init(&t, "/nonexistent/proc");
	assert_true(fts_top_sample(&t, 1.0) < 0);
	/* the real /proc: this test's own thread is there */
	fts_top_init(&t, "/proc");
	assert_int_equal(fts_top_sample(&t, 1.0), 0);
	assert_true(t.threads >= 1);
	fts_top_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_home_scan, setup_dir, remove_dir),
		cmocka_unit_test(test_insight_names),
		cmocka_unit_test_setup_teardown(test_cpustat, setup_dir, remove_dir),
		cmocka_unit_test(test_setup_choices),
		cmocka_unit_test(test_setup_flight),
		cmocka_unit_test(test_setup_triggers),
		cmocka_unit_test(test_shell_quote),
		cmocka_unit_test(test_export_plan),
		cmocka_unit_test(test_export_summary_toggle),
		cmocka_unit_test_setup_teardown(test_export_job, setup_dir, remove_dir),
		cmocka_unit_test(test_line_edit),
		cmocka_unit_test_setup_teardown(test_live_top, setup_dir, remove_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
