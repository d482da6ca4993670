// SPDX-License-Identifier: MIT
/*
 * home_model.c - scan one directory for captures and DBs. Names only pick
 * candidates; the pipeline's detector decides what a file is, so a renamed
 * trace still shows and a stray .txt does not.
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
#include "front/insight.h"

const char *fts_home_kind_name(enum fts_home_kind k)
{
	switch (k) {
	case FTS_HOME_DAT: return "trace.dat";
	case FTS_HOME_TEXT: return "text";
	case FTS_HOME_DB: return "db";
	case FTS_HOME_JSON: return "json";
	}
	return "?";
}

static int ends_with(const char *s, const char *sfx)
{
	size_t n = strlen(s), k = strlen(sfx);

	return n >= k && !strcmp(s + n - k, sfx);
}

static int candidate(const char *name)
{
	return ends_with(name, ".dat") || ends_with(name, ".txt") || ends_with(name, ".db") ||
	       ends_with(name, ".json") || !strncmp(name, "trace", 5);
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
	int cap = 0;

	memset(l, 0, sizeof(*l));
	d = opendir(dir);
	if (!d)
		return fts_err_set(err, -errno, "cannot list %s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		struct fts_home_entry *e;
		struct stat st;
		char path[4352];
		int k;

		if (de->d_name[0] == '.' || !candidate(de->d_name) || strlen(de->d_name) >= sizeof(e->name))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
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
