// SPDX-License-Identifier: MIT
/*
 * test_owner.c - an output's owner comes from the caller's options, never
 * from the environment, and the directory is synced after the rename that
 * publishes it (a failure there is reported).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#include "ftscope/ftscope.h"

#define SAMPLE FTS_ASSETS "/sample/sample.txt"

static char g_dir[64];
static int g_fail_dir_fsync;   /* test switch for the fsync below */

/*
 * Stands in for libc's fsync in this test program (the library is linked
 * statically): a directory's fsync fails with EIO when asked to.
 */
int fsync(int fd)
{
	struct stat sb;

	if (g_fail_dir_fsync && fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		errno = EIO;
		return -1;
	}
	return (int)syscall(SYS_fsync, fd);
}

static int convert(const char *out, enum fts_out_format fmt, const struct fts_owner *owner,
		   struct fts_err *err)
{
	struct fts_convert_opts o = { .input = SAMPLE, .output = out, .format = fmt, .cs_rows = 1 };

	if (owner)
		o.owner = *owner;
	return fts_convert(&o, NULL, err);
}

static int setup(void **state)
{
	(void)state;
	snprintf(g_dir, sizeof(g_dir), "/tmp/fts-owner-test-XXXXXX");
	return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", g_dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void owned_by(const char *path, unsigned int uid, unsigned int gid)
{
	struct stat sb;

	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_uid, uid);
	assert_int_equal(sb.st_gid, gid);
}

/* SUDO_UID in the environment is the front end's business: the library ignores it. */
static void test_environment_ignored(void **state)
{
	struct fts_err err = { 0 };
	char out[128];

	(void)state;
	if (geteuid() != 0)
		skip();
	snprintf(out, sizeof(out), "%s/ftrace_data.db", g_dir);
	setenv("SUDO_UID", "65534", 1);
	setenv("SUDO_GID", "65534", 1);
	assert_int_equal(convert(out, FTS_OUT_DB, NULL, &err), 0);
	unsetenv("SUDO_UID");
	unsetenv("SUDO_GID");
	owned_by(out, 0, 0);
}

static void test_owner_from_options(void **state)
{
	const struct fts_owner nobody = { .set = 1, .uid = 65534, .gid = 65534 };
	struct fts_err err = { 0 };
	char out[128];

	(void)state;
	if (geteuid() != 0)
		skip();
	snprintf(out, sizeof(out), "%s/ftrace_data.db", g_dir);
	assert_int_equal(convert(out, FTS_OUT_DB, &nobody, &err), 0);
	owned_by(out, 65534, 65534);
	snprintf(out, sizeof(out), "%s/ftrace_data.json", g_dir);
	assert_int_equal(convert(out, FTS_OUT_JSON, &nobody, &err), 0);
	owned_by(out, 65534, 65534);
}

static void test_pidmapper_owner(void **state)
{
	const struct fts_owner nobody = { .set = 1, .uid = 65534, .gid = 65534 };
	struct fts_pidmapper *m = NULL;
	struct fts_err err = { 0 };
	char out[128];

	(void)state;
	if (geteuid() != 0)
		skip();
	snprintf(out, sizeof(out), "%s/pid_mapping.json", g_dir);
	assert_int_equal(fts_pidmapper_start(out, 0, &nobody, &m, &err), 0);
	assert_int_equal(fts_pidmapper_stop(m, &err), 0);
	owned_by(out, 65534, 65534);
}

/* The rename is published only once its directory is synced: a failure is an error. */
static void test_dir_fsync_failure_reported(void **state)
{
	struct fts_err err = { 0 };
	char out[128];
	int rc;

	(void)state;
	snprintf(out, sizeof(out), "%s/synced.db", g_dir);
	g_fail_dir_fsync = 1;
	rc = convert(out, FTS_OUT_DB, NULL, &err);
	g_fail_dir_fsync = 0;
	assert_int_equal(rc, -EIO);
	assert_non_null(strstr(err.msg, "directory could not be synced"));
	assert_int_equal(access(out, F_OK), 0);   /* published, durability unknown */
	assert_int_equal(convert(out, FTS_OUT_DB, NULL, &err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_environment_ignored, setup, teardown),
		cmocka_unit_test_setup_teardown(test_owner_from_options, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pidmapper_owner, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dir_fsync_failure_reported, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
