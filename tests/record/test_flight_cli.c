// SPDX-License-Identifier: MIT
/*
 * The flight recorder's command-line side (app/flight_ctl.c,
 * app/flight_segment.c) without tracefs: --segment values, the pid file
 * refused when stale (a dead pid, a pid that is not ftscope, garbage), and the snapshot requests taken lowest asker pid first;
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

#include "app/flight_ctl.h"
#include "app/flight_segment.h"

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
		cmocka_unit_test(test_pidfile),
		cmocka_unit_test(test_pidfile_hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
