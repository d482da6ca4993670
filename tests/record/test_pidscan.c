// SPDX-License-Identifier: MIT
/* Unit tests for the /proc thread scanner and pid_mapping.json writer, on a fake /proc. */
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
#include <cjson/cJSON.h>

#include "core/record/pidscan.h"

static char root[256];

static void mk_task(int tgid, int tid, const char *name, const char *nspid, int ppid)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%d", root, tgid);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%d/task", root, tgid);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%d/task/%d", root, tgid, tid);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%d/task/%d/status", root, tgid, tid);
	f = fopen(p, "w");
	assert_non_null(f);
	fprintf(f, "Name:\t%s\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\n",
		name, tgid, tid, ppid);
	if (nspid)
		fprintf(f, "NSpid:\t%s\n", nspid);
	fclose(f);
}

static cJSON *load(const char *path)
{
	FILE *f = fopen(path, "r");
	static char buf[65536];
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return cJSON_Parse(buf);
}

static void test_scan_threads_and_keep(void **state)
{
	struct fts_pidscan *t = fts_pidscan_new();
	struct fts_err e = { 0 };
	char out[512], cmd[600];
	cJSON *j, *x;

	(void)state;
	snprintf(root, sizeof(root), "/tmp/fts-pidscan-%d", (int)getpid());
	mkdir(root, 0755);
	mk_task(1, 1, "init", "1", 0);
	mk_task(500, 500, "python3", "500\t1", 1);
	mk_task(500, 501, "worker\x1b[31m", "501\t2", 1);
	mk_task(600, 600, "old", NULL, 1);
	mkdir(strcat(strcpy(out, root), "/self"), 0755);
	assert_int_equal(fts_pidscan_scan(t, root, &e), 4);
	/* A thread that exits stays mapped; a new one is added. */
	snprintf(cmd, sizeof(cmd), "rm -rf %s/500/task/501", root);
	assert_int_equal(system(cmd), 0);
	mk_task(500, 502, "late", "502\t3", 1);
	assert_int_equal(fts_pidscan_scan(t, root, &e), 4);
	assert_int_equal(fts_pidscan_count(t), 5);
	snprintf(out, sizeof(out), "%s/map.json", root);
	assert_int_equal(fts_pidscan_write_json(t, out, NULL, &e), 0);
	j = load(out);
	assert_non_null(j);
	x = cJSON_GetObjectItem(j, "501");
	assert_non_null(x);
	assert_string_equal(cJSON_GetObjectItem(x, "NSpid")->valuestring, "2");
	assert_string_equal(cJSON_GetObjectItem(x, "Tgid")->valuestring, "500");
	assert_string_equal(cJSON_GetObjectItem(x, "PPid")->valuestring, "1");
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "502"), "NSpid")->valuestring, "3");
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "600"), "NSpid")->valuestring, "");
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "500"), "name")->valuestring, "python3");
	cJSON_Delete(j);
	/* Refuses to write through a symlink. */
	snprintf(out, sizeof(out), "%s/link.json", root);
	assert_int_equal(symlink("/nonexistent-target", out), 0);
	assert_true(fts_pidscan_write_json(t, out, NULL, &e) < 0);
	fts_pidscan_free(t);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

/*
 * More threads than the first table block holds; a rescan updates entries in
 * place (no pid twice), and the cmdlines list every pid once with its
 * latest name.
 */
static void test_many_and_rescan(void **state)
{
	struct fts_pidscan *t = fts_pidscan_new();
	struct fts_err e = { 0 };
	const int n = 1500;
	char cmd[600], *lines = NULL, *all, want[64];
	int nl = 0;

	(void)state;
	snprintf(root, sizeof(root), "/tmp/fts-pidscan-many-%d", (int)getpid());
	mkdir(root, 0755);
	for (int i = 0; i < n; i++)
		mk_task(700, 700 + i, "w", NULL, 1);
	assert_int_equal(fts_pidscan_scan(t, root, &e), n);
	for (int i = 0; i < n; i += 7)
		mk_task(700, 700 + i, "renamed", NULL, 1);
	assert_int_equal(fts_pidscan_scan(t, root, &e), n);
	assert_int_equal(fts_pidscan_count(t), n);
	assert_int_equal(fts_pidscan_cmdlines(t, &lines), 0);
	for (const char *p = lines; *p; p++)
		nl += *p == '\n';
	assert_int_equal(nl, n);
	/* whole lines: "\n700 w\n" must not match inside "1700 w" */
	assert_non_null(all = malloc(strlen(lines) + 2));
	all[0] = '\n';
	strcpy(all + 1, lines);
	for (int i = 0; i < n; i++) {
		snprintf(want, sizeof(want), "\n%d %s\n", 700 + i, i % 7 ? "w" : "renamed");
		assert_non_null(strstr(all, want));
	}
	free(all);
	free(lines);
	fts_pidscan_free(t);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

static void test_bad_proc(void **state)
{
	struct fts_pidscan *t = fts_pidscan_new();
	struct fts_err e = { 0 };

	(void)state;
	assert_true(fts_pidscan_scan(t, "/nonexistent-proc", &e) < 0);
	assert_true(e.msg[0] != '\0');
	fts_pidscan_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan_threads_and_keep),
		cmocka_unit_test(test_bad_proc),
		cmocka_unit_test(test_many_and_rescan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
