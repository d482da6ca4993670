// SPDX-License-Identifier: MIT
/*
 * test_probe.c - the trace.dat header probe runs the helper the caller
 * names, with a minimal environment, and fails closed: a helper that cannot
 * start or does not answer is an error, never a pass; no helper is said.
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

#include "ftscope/ftscope.h"

#define SMALL FTS_TEST_DATA "/dat/small.dat"
#define CRASH FTS_TEST_DATA "/bad/libtracecmd_crash2.dat"

static int emit(void *ctx, const struct fts_event *ev)
{
	(void)ctx;
	(void)ev;
	return 0;
}

static void test_ftscope_helper_passes_good_file(void **state)
{
	struct fts_err err = { 0 };

	(void)state;
	assert_int_equal(fts_read_dat_probe(SMALL, FTS_BIN, &err), 0);
}

static void test_ftscope_helper_catches_crash(void **state)
{
	struct fts_err err = { 0 };

	(void)state;
	assert_int_equal(fts_read_dat_probe(CRASH, FTS_BIN, &err), -EIO);
	/* "crashed"; under ASan the helper reports and exits 1 instead of dying */
	assert_non_null(strstr(err.msg, "corrupt"));
}

static void test_no_helper_is_said(void **state)
{
	struct fts_err err = { 0 };

	(void)state;
	assert_int_equal(fts_read_dat_probe(SMALL, NULL, &err), FTS_PROBE_UNISOLATED);
}

static void test_missing_helper_fails_closed(void **state)
{
	struct fts_read_opts o = { .emit = emit, .probe_helper = "/nonexistent/ftscope" };
	struct fts_read_stats st;
	struct fts_err err = { 0 };

	(void)state;
	assert_true(fts_read_dat_probe(SMALL, "/nonexistent/ftscope", &err) < 0);
	assert_non_null(strstr(err.msg, "cannot start the trace.dat probe helper"));
	/* the reader does not go on in-process */
	assert_true(fts_read_dat(SMALL, &o, &st, &err) < 0);
	assert_int_equal(st.events, 0);
}

static void test_silent_helper_fails_closed(void **state)
{
	struct fts_read_opts o = { .emit = emit, .probe_helper = "/bin/true" };
	struct fts_read_stats st;
	struct fts_err err = { 0 };

	(void)state;
	assert_int_equal(fts_read_dat_probe(SMALL, "/bin/true", &err), -EIO);
	assert_non_null(strstr(err.msg, "without an answer"));
	assert_int_equal(fts_read_dat(SMALL, &o, &st, &err), -EIO);
	assert_int_equal(st.events, 0);
}

/* A helper script that records its arguments and environment, then answers. */
static void test_helper_gets_minimal_env(void **state)
{
	char dir[] = "/tmp/fts-probe-test-XXXXXX", script[128], out[128], buf[4096];
	struct fts_err err = { 0 };
	FILE *f;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(script, sizeof(script), "%s/helper.sh", dir);
	snprintf(out, sizeof(out), "%s/seen", dir);
	f = fopen(script, "w");
	assert_non_null(f);
	/* the file comes as fd 4, not by name: a FIFO swapped in at the name cannot hang it */
	fprintf(f, "#!/bin/sh\necho \"args: $1 $2\" > %s\ncmp -s /dev/fd/4 %s && echo fd4-is-the-file >> %s\n"
		"/usr/bin/env >> %s\nprintf k >&3\n", out, SMALL, out, out);
	fclose(f);
	assert_int_equal(chmod(script, 0700), 0);
	setenv("FTS_PROBE_CANARY", "leaked", 1);
	assert_int_equal(fts_read_dat_probe(SMALL, script, &err), 0);
	unsetenv("FTS_PROBE_CANARY");
	f = fopen(out, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_non_null(strstr(buf, "args: __probe-dat /dev/fd/4\n"));
	assert_non_null(strstr(buf, "fd4-is-the-file\n"));
	assert_null(strstr(buf, "FTS_PROBE_CANARY"));
	assert_null(strstr(buf, "HOME="));
	/* the library reads no environment: it marks nothing there either */
	assert_null(strstr(buf, "FTSCOPE_PROBE_HELPER_CHILD"));
	unlink(out);
	unlink(script);
	rmdir(dir);
}

/*
 * A conversion asks the helper for the clock scan too ("__probe-dat FILE
 * clock"); a helper of an older ftscope refuses three arguments with status 2,
 * and is then asked plainly: the conversion goes on, and gives the same file.
 */
static void test_convert_with_old_helper(void **state)
{
	char dir[] = "/tmp/fts-probe-old-XXXXXX", script[128], seen[128], a[160], b[160], cmd[512];
	struct fts_convert_opts o = { .input = SMALL, .format = FTS_OUT_DB };
	struct fts_err err = { 0 };
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(script, sizeof(script), "%s/old.sh", dir);
	snprintf(seen, sizeof(seen), "%s/seen", dir);
	snprintf(a, sizeof(a), "%s/new.db", dir);
	snprintf(b, sizeof(b), "%s/old.db", dir);
	f = fopen(script, "w");
	assert_non_null(f);
	/* it answers plainly itself: an exec of ftscope from a script is not what is tested (nor possible under qemu-user here) */
	fprintf(f, "#!/bin/sh\necho \"$#\" >> %s\n[ $# -eq 3 ] && exit 2\nprintf k >&3\n", seen);
	fclose(f);
	assert_int_equal(chmod(script, 0700), 0);

	o.output = a;
	o.probe_helper = FTS_BIN;
	assert_int_equal(fts_convert(&o, NULL, &err), 0);
	o.output = b;
	o.probe_helper = script;
	if (fts_convert(&o, NULL, &err))
		fail_msg("%s", err.msg);
	/* asked with the scan first, then plainly */
	f = fopen(seen, "r");
	assert_non_null(f);
	assert_non_null(fgets(cmd, sizeof(cmd), f));
	assert_string_equal(cmd, "3\n");
	assert_non_null(fgets(cmd, sizeof(cmd), f));
	assert_string_equal(cmd, "2\n");
	fclose(f);
	snprintf(cmd, sizeof(cmd), "test \"$(sqlite3 '%s' 'select count(*), sum(ts), sum(dur) from slice')\" = "
		 "\"$(sqlite3 '%s' 'select count(*), sum(ts), sum(dur) from slice')\"", a, b);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/*
 * This binary named as the helper does not answer: it probes again (see
 * main), which must refuse with -ELOOP rather than start a helper in turn;
 * it answers only when it was refused, so the probe passes exactly then.
 */
static void test_helper_that_probes_again_is_refused(void **state)
{
	struct fts_err err = { 0 };

	(void)state;
	assert_int_equal(fts_read_dat_probe(SMALL, "/proc/self/exe", &err), 0);
}

/* Run as "__probe-dat /dev/fd/4" by the test above: a helper that probes instead of answering. */
static int probe_again(void)
{
	struct fts_err err = { 0 };

	/* /bin/true would make it -EIO ("without an answer") had the probe started it */
	if (fts_read_dat_probe("/dev/fd/4", "/bin/true", &err) != -ELOOP)
		return 1;
	return write(3, "k", 1) == 1 ? 0 : 1;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ftscope_helper_passes_good_file),
		cmocka_unit_test(test_ftscope_helper_catches_crash),
		cmocka_unit_test(test_no_helper_is_said),
		cmocka_unit_test(test_missing_helper_fails_closed),
		cmocka_unit_test(test_silent_helper_fails_closed),
		cmocka_unit_test(test_helper_gets_minimal_env),
		cmocka_unit_test(test_convert_with_old_helper),
		cmocka_unit_test(test_helper_that_probes_again_is_refused),
	};

	if (argc >= 3 && !strcmp(argv[1], FTS_PROBE_HELPER_ARG))
		return probe_again();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
