// SPDX-License-Identifier: MIT
/*
 * Unit tests for the opaque-handle API (ftscope/api.h): setters and their
 * messages, the JSON writer on hostile task names, convert and stats on the
 * bundled sample, the pid mapper, and the recorder's calls that need no root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <sys/stat.h>

#include "core/api/api_local.h"
#include "ftscope/api.h"
#include "ftscope/version.h"

#define SAMPLE FTS_ASSETS "/sample/sample.dat"

static char tmpdir[64];

static int make_tmp(void **state)
{
	(void)state;
	strcpy(tmpdir, "/tmp/fts-api-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int rm_tmp(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_version(void **state)
{
	char want[32];

	(void)state;
	snprintf(want, sizeof(want), "%d.%d.%d", FTS_VERSION_MAJOR, FTS_VERSION_MINOR, FTS_VERSION_PATCH);
	assert_string_equal(fts_version(), want);
}

static void test_rec_setters(void **state)
{
	struct fts_rec *h = fts_rec_new();

	(void)state;
	assert_non_null(h);
	assert_int_equal(fts_rec_set(h, "colour", "red"), -EINVAL);
	assert_string_equal(fts_rec_error(h), "unknown record option 'colour'");
	assert_int_equal(fts_rec_set(h, "bf_size", "-1"), -EINVAL);
	assert_string_equal(fts_rec_error(h), "record option bf_size: bad value '-1'");
	assert_int_equal(fts_rec_set(h, "bf_size", "12x"), -EINVAL);
	assert_int_equal(fts_rec_set(h, "bf_size", "99999999999"), -EINVAL);
	assert_int_equal(fts_rec_set(h, "bf_size", "1024"), 0);
	assert_string_equal(fts_rec_error(h), "");
	assert_int_equal(fts_rec_set(h, "sched", "maybe"), -EINVAL);
	assert_int_equal(fts_rec_set(h, "sched", "off"), 0);
	assert_int_equal(fts_rec_set(h, "duration", "nan"), -EINVAL);
	assert_int_equal(fts_rec_set(h, "duration", "-1"), 0);
	assert_int_equal(fts_rec_set(h, "backend", "debugfs"), 0);
	assert_int_equal(fts_rec_set(h, "backend", "ebpf"), -EINVAL);
	assert_int_equal(fts_rec_set(h, "owner", "1000"), -EINVAL);
	assert_int_equal(fts_rec_set(h, "owner", "1000:-1"), -EINVAL);
	assert_int_equal(fts_rec_set(h, "owner", "1000:1000"), 0);
	assert_int_equal(fts_rec_set(h, "cpus", "0-3"), 0);
	assert_int_equal(fts_rec_set(h, "cpus", ""), 0);        /* reset */
	assert_int_equal(fts_rec_set(h, "output", "x.dat"), 0);
	assert_int_equal(fts_rec_set(h, "output", "y.dat"), 0);  /* the first copy is freed */
	/* what the environment once said (FTSCOPE_READERS, PATH) are keys: the library reads none */
	assert_int_equal(fts_rec_set(h, "readers", "4"), 0);
	assert_int_equal(fts_rec_set(h, "readers", "65"), -EINVAL);
	assert_int_equal(fts_rec_set(h, "readers", ""), 0);
	assert_int_equal(fts_rec_set(h, "exec_path", "/opt/trace/bin:/usr/bin"), 0);
	assert_int_equal(fts_rec_set(h, "exec_path", ""), 0);
	assert_int_equal(fts_rec_running(h), 0);
	assert_null(fts_rec_health_json(h));
	assert_non_null(strstr(fts_rec_error(h), "not recording"));
	assert_int_equal(fts_rec_stop(h, NULL, NULL), -ESRCH);
	assert_int_equal(fts_rec_stop(h, "later", NULL), -EINVAL);
	fts_rec_free(h);
	fts_rec_free(NULL);
}

/* A writer's text parses as JSON, and its one string is @want. */
static void expect_json_string(const char *in, const char *want)
{
	struct api_jw w = { 0 };
	cJSON *j;
	char *text;

	api_jw_open(&w, '{');
	api_jw_kstr(&w, "s", in);
	api_jw_ku64(&w, "n", UINT64_MAX);
	api_jw_knum(&w, "x", 1.0 / 0.0);
	api_jw_close(&w, '}');
	text = api_jw_take(&w);
	assert_non_null(text);
	j = cJSON_Parse(text);
	assert_non_null(j);
	assert_string_equal(cJSON_GetObjectItem(j, "s")->valuestring, want);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "x")));
	assert_non_null(strstr(text, "\"n\":18446744073709551615"));
	cJSON_Delete(j);
	free(text);
}

static void test_json_writer(void **state)
{
	(void)state;
	expect_json_string("plain", "plain");
	expect_json_string("q\"b\\s\n\x1b[31m", "q\"b\\s\n\x1b[31m");
	expect_json_string("bad \xff utf8", "bad \xc3\xbf utf8");  /* read as Latin-1: valid UTF-8 out */
	expect_json_string(NULL, "");
}

static cJSON *run_conv(struct fts_conv *h, int want_rc)
{
	char *sum = (char *)1;
	cJSON *j = NULL;

	assert_int_equal(fts_conv_run(h, &sum), want_rc);
	if (want_rc == 0) {
		assert_non_null(sum);
		j = cJSON_Parse(sum);
		assert_non_null(j);
	} else {
		assert_null(sum);
	}
	fts_api_free(sum);
	return j;
}

static void test_convert(void **state)
{
	struct fts_conv *h = fts_conv_new();
	char out[128], bad[128];
	struct stat st;
	cJSON *j;

	(void)state;
	snprintf(out, sizeof(out), "%s/o.json", tmpdir);
	snprintf(bad, sizeof(bad), "%s/o.txt", tmpdir);
	run_conv(h, -EINVAL);
	assert_non_null(strstr(fts_conv_error(h), "no input"));
	assert_int_equal(fts_conv_set(h, "input", SAMPLE), 0);
	assert_int_equal(fts_conv_set(h, "output", bad), 0);
	run_conv(h, -EINVAL);
	assert_non_null(strstr(fts_conv_error(h), "needs a name ending in .db"));
	assert_int_equal(fts_conv_set(h, "format", "xml"), -EINVAL);
	assert_int_equal(fts_conv_set(h, "output", out), 0);
	assert_int_equal(fts_conv_set(h, "with_summary", "1"), 0);
	run_conv(h, -EINVAL);  /* with_summary is DB only */
	assert_int_equal(fts_conv_set(h, "with_summary", ""), 0);
	j = run_conv(h, 0);
	assert_string_equal(cJSON_GetObjectItem(j, "format")->valuestring, "json");
	assert_string_equal(cJSON_GetObjectItem(j, "output")->valuestring, out);
	assert_true(cJSON_GetObjectItem(j, "events")->valuedouble > 10000);
	assert_int_equal(cJSON_GetObjectItem(j, "cpu_lanes")->valueint, 2);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(j, "aligned")));
	cJSON_Delete(j);
	assert_int_equal(stat(out, &st), 0);
	assert_int_equal(fts_conv_set(h, "input", "/nonexistent.dat"), 0);
	run_conv(h, -ENOENT);
	assert_non_null(strstr(fts_conv_error(h), "/nonexistent.dat"));
	fts_conv_free(h);
}

static void test_stats(void **state)
{
	struct fts_st *h = fts_st_new();
	char *json = NULL;
	cJSON *j, *tasks, *t0, *t1;

	(void)state;
	assert_int_equal(fts_st_set(h, "sort", "bogus"), -EINVAL);
	assert_int_equal(fts_st_set(h, "sort", "switches"), 0);
	assert_int_equal(fts_st_set(h, "top", "3"), 0);
	assert_int_equal(fts_st_run(h, &json), -EINVAL);
	assert_int_equal(fts_st_set(h, "input", SAMPLE), 0);
	assert_int_equal(fts_st_run(h, &json), 0);
	j = cJSON_Parse(json);
	assert_non_null(j);
	tasks = cJSON_GetObjectItem(j, "tasks");
	assert_int_equal(cJSON_GetArraySize(tasks), 3);
	t0 = cJSON_GetArrayItem(tasks, 0);
	t1 = cJSON_GetArrayItem(tasks, 1);
	assert_true(cJSON_GetObjectItem(t0, "switches")->valuedouble >=
		    cJSON_GetObjectItem(t1, "switches")->valuedouble);
	assert_non_null(cJSON_GetObjectItem(t0, "wakeup_p99_ns"));
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "cpus")), 2);
	cJSON_Delete(j);
	fts_api_free(json);
	fts_st_free(h);
}

static void test_pidmapper(void **state)
{
	struct fts_pm *h = fts_pm_new();
	char out[128];
	struct stat st;

	(void)state;
	snprintf(out, sizeof(out), "%s/pid_mapping.json", tmpdir);
	assert_int_equal(fts_pm_stop(h), -ESRCH);
	assert_int_equal(fts_pm_set(h, "interval", "x"), -EINVAL);
	assert_int_equal(fts_pm_set(h, "interval", "0.1"), 0);
	assert_int_equal(fts_pm_set(h, "output", out), 0);
	assert_int_equal(fts_pm_start(h), 0);
	assert_int_equal(fts_pm_running(h), 1);
	assert_int_equal(fts_pm_start(h), -EBUSY);
	assert_int_equal(fts_pm_set(h, "output", "elsewhere.json"), -EBUSY);
	assert_int_equal(fts_pm_stop(h), 0);
	assert_int_equal(fts_pm_running(h), 0);
	assert_int_equal(stat(out, &st), 0);
	assert_true(st.st_size > 2);
	assert_int_equal(fts_pm_start(h), 0);
	fts_pm_free(h);  /* stops a running mapper */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_rec_setters),
		cmocka_unit_test(test_json_writer),
		cmocka_unit_test(test_convert),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_pidmapper),
	};

	return cmocka_run_group_tests(tests, make_tmp, rm_tmp);
}
