// SPDX-License-Identifier: MIT
/*
 * The flight recorder's command-line side (app/flight_trigger.c) without
 * tracefs: --segment values, the lost-events trigger's timing and rate
 * limit, the pid file refused when stale (a dead pid, a pid that is not
 * ftscope, garbage), and the snapshot requests taken lowest asker pid first;
 * FIFOs, pid files others may write, one claim at a time, bounded requests.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "app/flight_trigger.h"

static void test_segment(void **state)
{
	double s;
	uint64_t b;

	(void)state;
	assert_int_equal(fts_flight_parse_segment("30s", &s, &b), 0);
	assert_true(s == 30 && b == 0);
	assert_int_equal(fts_flight_parse_segment("2m", &s, &b), 0);
	assert_true(s == 120 && b == 0);
	assert_int_equal(fts_flight_parse_segment("1.5", &s, &b), 0);
	assert_true(s == 1.5);
	assert_int_equal(fts_flight_parse_segment("64M", &s, &b), 0);
	assert_true(s == 0 && b == 64u << 20);
	assert_int_equal(fts_flight_parse_segment("1GiB", &s, &b), 0);
	assert_true(b == 1u << 30);
	const char *bad[] = { "", "0", "-1s", "30x", "s", "1e30", "nan", " 5", "5 s", "64Mi", NULL };
	for (int i = 0; bad[i]; i++)
		assert_int_equal(fts_flight_parse_segment(bad[i], &s, &b), -1);
}

static void test_trigger(void **state)
{
	struct fts_flight_trigger t = { .armed = 1, .post_ms = 2000, .gap_ms = 10000 };
	uint64_t lost;

	(void)state;
	assert_int_equal(fts_flight_trigger_step(&t, 1000, 0, &lost), 0);
	/* loss at 1.5 s: due 2 s later, not before */
	assert_int_equal(fts_flight_trigger_step(&t, 1500, 10, &lost), 0);
	assert_int_equal(fts_flight_trigger_step(&t, 3000, 25, &lost), 0);
	assert_int_equal(fts_flight_trigger_step(&t, 3500, 25, &lost), 1);
	assert_int_equal(lost, 25);
	/* more loss within the gap: quiet */
	assert_int_equal(fts_flight_trigger_step(&t, 4000, 40, &lost), 0);
	assert_int_equal(fts_flight_trigger_step(&t, 12000, 41, &lost), 0);
	assert_int_equal(fts_flight_trigger_step(&t, 14000, 41, &lost), 0);
	/* after the gap, new loss triggers again, counting from there */
	assert_int_equal(fts_flight_trigger_step(&t, 14500, 50, &lost), 0);
	assert_int_equal(fts_flight_trigger_step(&t, 16500, 50, &lost), 1);
	assert_int_equal(lost, 9);
	assert_int_equal(t.fired, 2);
	/* not armed: never */
	struct fts_flight_trigger off = { .post_ms = 0 };
	assert_int_equal(fts_flight_trigger_step(&off, 1, 100, &lost), 0);
}

/* The quiet gap is a ring of segments, 10 s at least, 60 s for segments by size. */
static void test_trigger_arm(void **state)
{
	struct fts_flight_trigger t;

	(void)state;
	fts_flight_trigger_arm(&t, 2.5, 30, 4);
	assert_true(t.armed);
	assert_int_equal(t.post_ms, 2500);
	assert_int_equal(t.gap_ms, 120000);
	fts_flight_trigger_arm(&t, 2, 2, 3);
	assert_int_equal(t.gap_ms, 10000);
	fts_flight_trigger_arm(&t, 2, 0, 4);
	assert_int_equal(t.gap_ms, 60000);
	fts_flight_trigger_arm(&t, 0, 5, 0);   /* keep 0: the default 4 */
	assert_int_equal(t.gap_ms, 20000);
	assert_int_equal(t.fired, 0);
}

static void put(const char *dir, const char *name, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_pidfile(void **state)
{
	char dir[] = "/tmp/fts-flight-cli-XXXXXX", why[512], text[64];
	struct fts_flight_claim claim = { 0 };
	pid_t pid, child;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(fts_flight_pid_check(dir, &pid, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "no flight recorder runs here"));
	/* a process that is gone */
	child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	snprintf(text, sizeof(text), "%d 123\n", (int)child);
	put(dir, FTS_FLIGHT_PIDFILE, text);
	assert_int_equal(fts_flight_pid_check(dir, &pid, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "stale"));
	/* a live process with another start time (a reused pid) */
	snprintf(text, sizeof(text), "%d 1\n", (int)getpid());
	put(dir, FTS_FLIGHT_PIDFILE, text);
	assert_int_equal(fts_flight_pid_check(dir, &pid, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "stale"));
	put(dir, FTS_FLIGHT_PIDFILE, "garbage\n");
	assert_int_equal(fts_flight_pid_check(dir, &pid, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not a flight recorder's pid file"));
	/* claiming over a stale file works; this test program is not ftscope, so its own file reads as stale */
	assert_int_equal(fts_flight_pid_claim(&claim, dir, why, sizeof(why)), 0);
	assert_int_equal(fts_flight_pid_check(dir, &pid, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "is not ftscope"));

	/* requests: the lowest asker pid first, its reason and seconds, the file consumed */
	char reason[128];
	double last;
	pid_t asker;
	put(dir, FTS_FLIGHT_REQUEST "300", "last_s=5\nstep 3 slow\nsecond line");
	put(dir, FTS_FLIGHT_REQUEST "200", "last_s=0\nfirst");
	put(dir, FTS_FLIGHT_REQUEST "x1", "ignored");
	assert_int_equal(fts_flight_take_request(&claim, &asker, reason, sizeof(reason), &last), 1);
	assert_int_equal(asker, 200);
	assert_string_equal(reason, "first");
	assert_int_equal(fts_flight_take_request(&claim, &asker, reason, sizeof(reason), &last), 1);
	assert_int_equal(asker, 300);
	assert_string_equal(reason, "step 3 slow\nsecond line");
	assert_true(last == 5);
	assert_int_equal(fts_flight_take_request(&claim, &asker, reason, sizeof(reason), &last), 0);
	fts_flight_answer(&claim, 300, "/x/snapshot-1\n");
	{
		char p[512];
		struct stat st;

		snprintf(p, sizeof(p), "%s/%s300", dir, FTS_FLIGHT_DONE);
		assert_int_equal(stat(p, &st), 0);
		unlink(p);
		snprintf(p, sizeof(p), "%s/%sx1", dir, FTS_FLIGHT_REQUEST);
		unlink(p);
		fts_flight_pid_release(&claim);   /* ours: held open since the claim */
		snprintf(p, sizeof(p), "%s/%s", dir, FTS_FLIGHT_PIDFILE);
		assert_int_equal(access(p, F_OK), -1);
	}
	assert_int_equal(rmdir(dir), 0);
}

/* Issue 33: FIFOs never opened blocking, files others may write not believed, the claim exclusive, requests bounded. */
static void test_pidfile_hostile(void **state)
{
	char dir[] = "/tmp/fts-flight-cli-XXXXXX", why[512], path[512], text[64], reason[128];
	struct stat st;
	double last;
	struct fts_flight_claim claim = { 0 };
	pid_t pid, asker;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, FTS_FLIGHT_PIDFILE);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(fts_flight_pid_check(dir, &pid, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not a regular file"));
	assert_int_equal(fts_flight_pid_claim(&claim, dir, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not a regular file"));
	unlink(path);
	snprintf(text, sizeof(text), "%d 1\n", (int)getpid());
	put(dir, FTS_FLIGHT_PIDFILE, text);
	assert_int_equal(chmod(path, 0666), 0);
	assert_int_equal(fts_flight_pid_check(dir, &pid, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not trusted"));
	/* claimed over it (not trustworthy: replaced), 0600, and one claim at a time */
	assert_int_equal(fts_flight_pid_claim(&claim, dir, why, sizeof(why)), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(fts_flight_pid_claim(&claim, dir, why, sizeof(why)), -1);
	fts_flight_pid_release(&claim);
	assert_int_equal(access(path, F_OK), -1);
	/* requests are read only through a held claim's directory */
	assert_int_equal(fts_flight_take_request(&claim, &asker, reason, sizeof(reason), &last), 0);
	assert_int_equal(fts_flight_pid_claim(&claim, dir, why, sizeof(why)), 0);
	/* a FIFO request is skipped and removed; last_s bounded as --last (0..1e7), not a number: 0 */
	snprintf(path, sizeof(path), "%s/%s100", dir, FTS_FLIGHT_REQUEST);
	assert_int_equal(mkfifo(path, 0600), 0);
	put(dir, FTS_FLIGHT_REQUEST "200", "last_s=1e300\nhuge");
	put(dir, FTS_FLIGHT_REQUEST "300", "last_s=nan\nnot a number");
	assert_int_equal(fts_flight_take_request(&claim, &asker, reason, sizeof(reason), &last), 1);
	assert_int_equal(asker, 200);
	assert_string_equal(reason, "huge");
	assert_true(last == 1e7);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(fts_flight_take_request(&claim, &asker, reason, sizeof(reason), &last), 1);
	assert_int_equal(asker, 300);
	assert_true(last == 0);
	assert_int_equal(fts_flight_take_request(&claim, &asker, reason, sizeof(reason), &last), 0);
	/* an empty stem */
	assert_int_equal(fts_flight_stem_ok("d/t.dat"), 1);
	assert_int_equal(fts_flight_stem_ok("t"), 1);
	assert_int_equal(fts_flight_stem_ok("d/.dat"), 0);
	assert_int_equal(fts_flight_stem_ok(".dat"), 0);
	assert_int_equal(fts_flight_stem_ok("d/..dat"), 0);
	fts_flight_pid_release(&claim);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_segment),
		cmocka_unit_test(test_trigger),
		cmocka_unit_test(test_trigger_arm),
		cmocka_unit_test(test_pidfile),
		cmocka_unit_test(test_pidfile_hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
