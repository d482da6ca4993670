// SPDX-License-Identifier: MIT
/*
 * home_model.c - scan one directory for captures and DBs. The pipeline's
 * detector decides what a file is from its head, whatever its name, so a
 * renamed trace or a trace-cmd report still shows and a stray .txt does
 * not.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ftscope/pipeline.h>
#include <ftscope/reader.h>

#include "tui/session/home_model.h"
#include "app/insight.h"

const char *fts_home_kind_name(enum fts_home_kind k)
{
	switch (k) {
	case FTS_HOME_DAT: return "trace.dat";
	case FTS_HOME_TEXT: return "text";
	case FTS_HOME_DB: return "db";
	case FTS_HOME_JSON: return "json";
	case FTS_HOME_DIR: return "dir";
	}
	return "?";
}

/*
 * The detector calls any JSON "json"; a Chrome trace names "traceEvents" or
 * an event phase "ph" near its start, a pid mapping does not.
 */
static int chrome_json(const char *path)
{
	char buf[4097];
	size_t n;
	FILE *f = fopen(path, "re");

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return strstr(buf, "\"traceEvents\"") || strstr(buf, "\"ph\"");
}

/* What @path holds, by content; -1 when none of ours. */
static int classify(const char *path)
{
	enum fts_pipeline_input kind;
	enum fts_input_format fmt;
	struct fts_err err = { 0 };

	if (fts_pipeline_detect(path, &kind, &err))
		return -1;
	if (kind == FTS_PIPE_DB)
		return FTS_HOME_DB;
	if (kind == FTS_PIPE_JSON)
		return chrome_json(path) ? FTS_HOME_JSON : -1;
	if (fts_input_detect(path, &fmt, &err))
		return -1;
	return fmt == FTS_FMT_DAT ? FTS_HOME_DAT : FTS_HOME_TEXT;
}

static int newest_first(const void *a, const void *b)
{
	const struct fts_home_entry *x = a, *y = b;

	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? 1 : -1;
	return strcmp(x->name, y->name);
}

int fts_home_scan(const char *dir, int max, struct fts_home_list *l, struct fts_err *err)
{
	struct dirent *de;
	DIR *d;
	int cap = 0, examined = 0;

	memset(l, 0, sizeof(*l));
	d = opendir(dir);
	if (!d)
		return fts_err_set(err, -errno, "cannot list %s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		struct fts_home_entry *e;
		struct stat st;
		char path[4352];
		int k;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(e->name))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		if (examined++ >= FTS_HOME_EXAMINE_MAX) {
			l->unexamined++;
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		k = classify(path);
		if (k < 0) {
			l->skipped++;
			continue;
		}
		if (l->n == cap) {
			int ncap = cap ? cap * 2 : 16;
			void *p = realloc(l->e, (size_t)ncap * sizeof(*l->e));

			if (!p) {
				closedir(d);
				fts_home_list_free(l);
				return fts_err_set(err, -ENOMEM, "out of memory listing %s", dir);
			}
			l->e = p;
			cap = ncap;
		}
		e = &l->e[l->n++];
		memset(e, 0, sizeof(*e));
		snprintf(e->name, sizeof(e->name), "%s", de->d_name);
		e->kind = (enum fts_home_kind)k;
		e->size = (uint64_t)st.st_size;
		e->mtime = st.st_mtime;
		e->insight_name = k == FTS_HOME_DB && fts_insight_db_name_ok(e->name);
	}
	closedir(d);
	if (l->n)
		qsort(l->e, (size_t)l->n, sizeof(*l->e), newest_first);
	if (max > 0 && l->n > max)
		l->n = max;
	return 0;
}

void fts_home_list_free(struct fts_home_list *l)
{
	free(l->e);
	l->e = NULL;
	l->n = 0;
}

static int by_name(const void *a, const void *b)
{
	const struct fts_home_entry *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* Directory @name in @dfd is a flight snapshot: its manifest.json, a regular file, beside segments. */
static int is_snapshot(int dfd, const char *name)
{
	char p[300];
	struct stat st;

	snprintf(p, sizeof(p), "%s/manifest.json", name);
	return strncmp(name, "snapshot-", 9) == 0 && fstatat(dfd, p, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISREG(st.st_mode);
}

/* The subdirectories of @dir: "..", then by name. */
static int scan_dirs(const char *dir, struct fts_home_list *l, struct fts_err *err)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int cap = 16;

	memset(l, 0, sizeof(*l));
	if (!d)
		return fts_err_set(err, -errno, "cannot list %s: %s", dir, strerror(errno));
	l->e = calloc((size_t)cap, sizeof(*l->e));
	if (!l->e)
		goto oom;
	snprintf(l->e[l->n].name, sizeof(l->e[0].name), "..");
	l->e[l->n++].kind = FTS_HOME_DIR;
	while ((de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(l->e[0].name))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode))
			continue;
		if (l->n == cap) {
			void *p = realloc(l->e, (size_t)cap * 2 * sizeof(*l->e));

			if (!p)
				goto oom;
			l->e = p;
			cap *= 2;
		}
		memset(&l->e[l->n], 0, sizeof(l->e[0]));
		snprintf(l->e[l->n].name, sizeof(l->e[0].name), "%s", de->d_name);
		l->e[l->n].kind = FTS_HOME_DIR;
		l->e[l->n].snapshot = is_snapshot(dirfd(d), de->d_name);
		l->e[l->n++].mtime = st.st_mtime;
	}
	closedir(d);
	qsort(l->e + 1, (size_t)l->n - 1, sizeof(*l->e), by_name);
	l->ndirs = l->n;
	return 0;
oom:
	closedir(d);
	fts_home_list_free(l);
	return fts_err_set(err, -ENOMEM, "out of memory listing %s", dir);
}

int fts_home_scan_all(const char *dir, int max, struct fts_home_list *l, struct fts_err *err)
{
	struct fts_home_list files;
	void *p;
	int rc = scan_dirs(dir, l, err);

	if (rc)
		return rc;
	rc = fts_home_scan(dir, max, &files, err);
	if (rc) {
		fts_home_list_free(l);
		return rc;
	}
	p = realloc(l->e, (size_t)(l->n + files.n) * sizeof(*l->e));
	if (!p) {
		fts_home_list_free(&files);
		fts_home_list_free(l);
		return fts_err_set(err, -ENOMEM, "out of memory listing %s", dir);
	}
	l->e = p;
	if (files.n)
		memcpy(l->e + l->n, files.e, (size_t)files.n * sizeof(*l->e));
	l->n += files.n;
	l->skipped = files.skipped;
	l->unexamined = files.unexamined;
	fts_home_list_free(&files);
	return 0;
}

int fts_home_find(const struct fts_home_list *l, const char *name)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->e[i].name, name))
			return i;
	return -1;
}

const char *fts_home_join(const char *dir, const char *name, char *out, size_t len)
{
	char buf[8192], *parts[512], *save = NULL, *t;
	int n = 0, abs = dir[0] == '/';
	size_t off = 0;

	snprintf(buf, sizeof(buf), "%s/%s", dir, name);
	for (t = strtok_r(buf, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
		if (!strcmp(t, "."))
			continue;
		if (!strcmp(t, "..") && n && strcmp(parts[n - 1], "..")) {
			n--;
			continue;
		}
		if (!strcmp(t, "..") && abs)
			continue;   /* "/.." is "/" */
		if (n < (int)(sizeof(parts) / sizeof(parts[0])))
			parts[n++] = t;
	}
	out[0] = 0;
	if (abs)
		off = (size_t)snprintf(out, len, "/");
	for (int i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(out + off, len - off, "%s%s", i ? "/" : "", parts[i]);
	if (!out[0])
		snprintf(out, len, ".");
	return out;
}
