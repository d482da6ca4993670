// SPDX-License-Identifier: MIT
/*
 * The flight recorder's triggers through the C API's key/value setter
 * (api.h, public header only), on the real tracefs (root; skipped
 * otherwise), as `record --trigger` has them (issue 34 item 1, issue 33
 * item 9):
 *  - "lost" fires on lost events (a 16 KB buffer, slowed readers and a
 *    pipe ping-pong) and writes snapshot-*-lost-N-events/ whose manifest
 *    names the kind, counts the loss and holds its event;
 *  - "runnable>1us" fires at once; two of its snapshots a ring apart with
 *    flight_trigger_keep 1: the first is removed for the second, whose
 *    manifest says so; the decoder's delay is in the manifest;
 *  - a ring of one 1 s segment and --post_trigger 3: the snapshot cannot
 *    hold its trigger, and its manifest and the health note say so;
 *  - bad trigger and cap values are refused by fts_rec_set / fts_rec_start.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <ftscope/api.h>

#include "core/internal.h"

static char dir[] = "/tmp/fts-flightapi-XXXXXX";

static void sleep_ms(long ms)
{
	nanosleep(&(struct timespec){ ms / 1000, ms % 1000 * 1000000L }, NULL);
}

/*
 * Two processes bouncing a byte through pipes (a sched_switch and wakeup
 * storm) in a process group of their own, until stop_pingpong kills it.
 */
static pid_t pingpong(void)
{
	int a[2], b[2];
	pid_t p;

	if (pipe(a) || pipe(b))
		return -1;
	p = fork();
	if (p == 0) {
		char c = 0;

		setpgid(0, 0);
		alarm(60);   /* never outlives the test */
		if (fork() == 0) {
			for (;;)
				if (read(a[0], &c, 1) != 1 || write(b[1], &c, 1) != 1)
					_exit(0);
		}
		for (;;)
			if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
				_exit(0);
	}
	if (p > 0)
		setpgid(p, p);
	close(a[0]);
	close(a[1]);
	close(b[0]);
	close(b[1]);
	return p;
}

static void stop_pingpong(pid_t p)
{
	if (p > 0) {
		kill(-p, SIGKILL);
		waitpid(p, NULL, 0);
	}
}

/* Root here: a start refused is a failure (the rule or key not taken), said with the reason. */
static void started(struct fts_rec *h, int rc)
{
	if (rc)
		fprintf(stderr, "cannot record: %s\n", fts_rec_error(h));
	assert_int_equal(rc, 0);
}

static void stop(struct fts_rec *h)
{
	int rc = fts_rec_stop(h, "fast", NULL);

	if (rc)
		fprintf(stderr, "stop: %d %s\n", rc, fts_rec_error(h));
	assert_int_equal(rc, 0);
	fts_rec_free(h);
}

/* The name of the first entry of @d starting with @prefix and containing @part, into @out; 1 if any. */
static int find(const char *d, const char *prefix, const char *part, char *out, size_t len)
{
	DIR *dd = opendir(d);
	struct dirent *e;
	int found = 0;

	if (!dd)
		return 0;
	while (!found && (e = readdir(dd)))
		if (!strncmp(e->d_name, prefix, strlen(prefix)) && strstr(e->d_name, part)) {
			snprintf(out, len, "%s", e->d_name);
			found = 1;
		}
	closedir(dd);
	return found;
}

static int count(const char *d, const char *prefix)
{
	DIR *dd = opendir(d);
	struct dirent *e;
	int n = 0;

	if (!dd)
		return 0;
	while ((e = readdir(dd)))
		n += !strncmp(e->d_name, prefix, strlen(prefix));
	closedir(dd);
	return n;
}

static char *slurp(const char *path)
{
	static char buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

static struct fts_rec *flight(const char *sub, const char *triggers)
{
	struct fts_rec *h = fts_rec_new();
	char out[256];

	snprintf(out, sizeof(out), "%s/%s", dir, sub);
	assert_int_equal(mkdir(out, 0755), 0);
	snprintf(out, sizeof(out), "%s/%s/t.dat", dir, sub);
	assert_non_null(h);
	assert_int_equal(fts_rec_set(h, "output", out), 0);
	assert_int_equal(fts_rec_set(h, "owner", ""), 0);
	assert_int_equal(fts_rec_set(h, "irq", "0"), 0);
	assert_int_equal(fts_rec_set(h, "flight_segment", "1"), 0);
	assert_int_equal(fts_rec_set(h, "flight_keep", "3"), 0);
	assert_int_equal(fts_rec_set(h, "flight_triggers", triggers), 0);
	return h;
}

/* Wait up to @s seconds for the health's flight_triggered to reach @n. */
static int wait_triggered(struct fts_rec *h, int n, int s)
{
	char want[64];

	snprintf(want, sizeof(want), "\"flight_triggered\":%d", n);
	for (int i = 0; i < s * 10; i++) {
		char *js = fts_rec_health_json(h);
		int got = js && strstr(js, want);

		fts_api_free(js);
		if (got)
			return 1;
		sleep_ms(100);
	}
	return 0;
}

/* The manifest of the snapshot in @dir/@sub whose name holds @part (its name into @name), in slurp's buffer. */
static char *manifest(const char *sub, const char *part, char *name, size_t len)
{
	char d[256], path[600];
	char *m;

	snprintf(d, sizeof(d), "%s/%s", dir, sub);
	assert_true(find(d, "snapshot-", part, name, len));
	snprintf(path, sizeof(path), "%s/%s/manifest.json", d, name);
	m = slurp(path);
	assert_non_null(m);
	return m;
}

static void test_bad_values(void **state)
{
	struct fts_rec *h = fts_rec_new();

	(void)state;
	assert_int_equal(fts_rec_set(h, "flight_trigger_keep", "100001"), -EINVAL);
	assert_int_equal(fts_rec_set(h, "flight_trigger_bytes", "-1"), -EINVAL);
	assert_int_equal(fts_rec_set(h, "flight_trigger_bytes", "2x"), -EINVAL);
	assert_int_equal(fts_rec_set(h, "flight_trigger_keep", "5"), 0);
	assert_int_equal(fts_rec_set(h, "flight_trigger_bytes", "1073741824"), 0);
	/* refused at start with the rule's reason, as record --trigger */
	assert_int_equal(fts_rec_set(h, "output", "/tmp/fts-flightapi-none/t.dat"), 0);
	assert_int_equal(fts_rec_set(h, "flight_segment", "1"), 0);
	assert_int_equal(fts_rec_set(h, "flight_triggers", "lost>5"), 0);
	assert_int_not_equal(fts_rec_start(h), 0);
	assert_non_null(strstr(fts_rec_error(h), "lost"));
	fts_rec_free(h);
}

static void test_lost(void **state)
{
	char name[256], *m;
	struct fts_rec *h;
	pid_t load;
	int fired, rc;

	(void)state;
	if (geteuid() != 0)
		skip();
	/* the library's test hook: readers that sleep between reads lose events at once */
	assert_int_equal(fts__test_control(FTS__TEST_READER_DELAY_MS, 20L), 0);
	h = flight("lost", "lost");
	assert_int_equal(fts_rec_set(h, "bf_size", "16"), 0);
	assert_int_equal(fts_rec_set(h, "flight_post_trigger", "1"), 0);
	rc = fts_rec_start(h);
	assert_int_equal(fts__test_control(FTS__TEST_READER_DELAY_MS, 0L), 0);
	started(h, rc);
	load = pingpong();
	fired = wait_triggered(h, 1, 15);
	stop_pingpong(load);
	stop(h);
	assert_true(fired);
	m = manifest("lost", "-lost-", name, sizeof(name));
	assert_non_null(strstr(name, "-events"));
	assert_non_null(strstr(m, "\"kind\": \"lost\""));
	assert_non_null(strstr(m, "\"trigger_held\": true"));
	assert_null(strstr(m, "\"lost_events\": 0,"));
	assert_non_null(strstr(m, "\"trigger_snapshots\": {\"keep\": 10, \"max_bytes\": 4294967296"));
}

static void test_runnable_cap(void **state)
{
	char d[256], name[256], *m;
	struct fts_rec *h;
	pid_t load;
	int fired;

	(void)state;
	if (geteuid() != 0)
		skip();
	h = flight("run", "runnable>1us");
	assert_int_equal(fts_rec_set(h, "flight_post_trigger", "0"), 0);
	assert_int_equal(fts_rec_set(h, "flight_trigger_keep", "1"), 0);
	started(h, fts_rec_start(h));
	load = pingpong();
	/* one at once, the next a ring (10 s at least) later; the first removed for it */
	fired = wait_triggered(h, 1, 10) && wait_triggered(h, 2, 25);
	stop_pingpong(load);
	stop(h);
	assert_true(fired);
	snprintf(d, sizeof(d), "%s/run", dir);
	assert_int_equal(count(d, "snapshot-"), 1);
	m = manifest("run", "runnable_1us", name, sizeof(name));
	assert_non_null(strstr(m, "\"kind\": \"runnable\""));
	assert_non_null(strstr(m, "\"delay_ms\": "));
	assert_non_null(strstr(m, "\"trigger_snapshots\": {\"keep\": 1,"));
	assert_non_null(strstr(m, "\"removed\": true}]"));
}

/* A ring of one 1 s segment and 3 s after the trigger: the snapshot cannot hold it, and says so. */
static void test_not_held(void **state)
{
	char name[256], note[1200] = "", *m;
	struct fts_rec *h;
	pid_t load;
	int fired;

	(void)state;
	if (geteuid() != 0)
		skip();
	h = flight("late", "runnable>1us");
	assert_int_equal(fts_rec_set(h, "flight_keep", "1"), 0);
	assert_int_equal(fts_rec_set(h, "flight_post_trigger", "3"), 0);
	started(h, fts_rec_start(h));
	load = pingpong();
	fired = wait_triggered(h, 1, 15);
	if (fired) {
		char *js = fts_rec_health_json(h);
		const char *n = js ? strstr(js, "\"flight_trigger_note\":") : NULL;

		snprintf(note, sizeof(note), "%s", n ? n : "");
		fts_api_free(js);
	}
	stop_pingpong(load);
	stop(h);
	assert_true(fired);
	assert_non_null(strstr(note, "it does not hold the trigger: the event is "));
	m = manifest("late", "runnable_1us", name, sizeof(name));
	assert_non_null(strstr(m, "\"trigger_held\": false"));
	assert_non_null(strstr(m, "\"trigger_not_held\": \"the trigger's event is "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_runnable_cap),
		cmocka_unit_test(test_not_held),
	};
	char cmd[128];
	int rc;

	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "test_flight_api: could not remove %s\n", dir);
	return rc;
}
