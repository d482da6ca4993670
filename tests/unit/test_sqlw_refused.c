// SPDX-License-Identifier: MIT
/*
 * A database header the page writer refuses (issue 34 item 4): a libsqlite3
 * whose build defaults make auto-vacuum databases is played here by this
 * test's own sqlite3_open_v2, which turns auto-vacuum on before the sink
 * creates its tables. The sink must refuse with one line that names the
 * output (not its temp file, gone by then) and what to do, and leave nothing
 * in the directory.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <sqlite3.h>

#include <ftscope/error.h>
#include <ftscope/pipeline.h>
#include "tmp_tree.h"

static int auto_vacuum;   /* set by a test: every new connection turns it on */

/* Interposed: the library's calls land here, the real one is the next. */
int sqlite3_open_v2(const char *name, sqlite3 **db, int flags, const char *vfs)
{
	int (*real)(const char *, sqlite3 **, int, const char *);
	int rc;

	*(void **)&real = dlsym(RTLD_NEXT, "sqlite3_open_v2");
	if (!real)
		return SQLITE_ERROR;
	rc = real(name, db, flags, vfs);
	if (rc == SQLITE_OK && auto_vacuum)
		sqlite3_exec(*db, "PRAGMA auto_vacuum=FULL", NULL, NULL, NULL);
	return rc;
}

static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void test_refused_header_names_the_output(void **state)
{
	char root[64], path[128];
	struct fts_sink *sink = NULL;
	struct fts_err err = { 0 };
	int rc;

	(void)state;
	tt_make(root, "sqlw_refused");
	snprintf(path, sizeof(path), "%s/out.db", root);
	auto_vacuum = 1;
	rc = fts_sqlite_sink_create(path, NULL, &sink, &err);
	auto_vacuum = 0;
	print_message("%s\n", err.msg);
	assert_int_equal(rc, -EINVAL);
	assert_null(sink);
	assert_int_equal(strncmp(err.msg, path, strlen(path)), 0);
	assert_true(err.msg[strlen(path)] == ':');          /* the output itself, no temp suffix */
	assert_non_null(strstr(err.msg, "auto-vacuum"));     /* why */
	assert_non_null(strstr(err.msg, "JSON format"));     /* the next step */
	assert_null(strchr(err.msg, '\n'));
	assert_int_equal(entries(root), 0);                  /* no output, no temp file */
	tt_remove(root);
}

/* The same call without the interposed default: the header is accepted. */
static void test_default_header_is_accepted(void **state)
{
	char root[64], path[128];
	struct fts_sink *sink = NULL;
	struct fts_err err = { 0 };

	(void)state;
	tt_make(root, "sqlw_refused");
	snprintf(path, sizeof(path), "%s/out.db", root);
	assert_int_equal(fts_sqlite_sink_create(path, NULL, &sink, &err), 0);
	assert_non_null(sink);
	sink->destroy(sink);
	tt_remove(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_header_is_accepted),
		cmocka_unit_test(test_refused_header_names_the_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
