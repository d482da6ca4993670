// SPDX-License-Identifier: MIT
/*
 * npu_list.c - the card files below a profiling directory: per rank
 * directory (*_ascend_pt), its ASCEND_PROFILER_OUTPUT/trace_view.json (text
 * export type) or, when there is none, its ascend_pytorch_profiler_<rank>.db
 * (DB export type). A run exporting both types leaves both: the text one is
 * taken, because it alone carries the profiler's own "Free" lane (which
 * hostbound prefers for the gaps) and so a run that used to be read gives the
 * same answer when the DB type is added; the two agree on the rest (tests
 * /profiling check a pair).
 */
#include "ftscope/npu.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define OUT_REL "ASCEND_PROFILER_OUTPUT"
#define TV_REL OUT_REL "/trace_view.json"
#define DB_PREFIX "ascend_pytorch_profiler_"

static int nomem(struct fts_err *err)
{
	return fts_err_set(err, -ENOMEM, "out of memory");
}

static int is_reg(const char *path)
{
	struct stat sb;

	return !lstat(path, &sb) && S_ISREG(sb.st_mode);
}

/* "ascend_pytorch_profiler_<digits>.db" */
static int is_db_name(const char *s)
{
	size_t n = strlen(DB_PREFIX), k = 0;

	if (strncmp(s, DB_PREFIX, n))
		return 0;
	for (s += n; s[k] >= '0' && s[k] <= '9'; k++)
		;
	return k > 0 && !strcmp(s + k, ".db");
}

/* The rank's DB: the first such name (a rank directory holds one). */
static int has_db(const char *dir, char *path, size_t len)
{
	char out[4096], best[256] = "";
	struct dirent *de;
	DIR *d;
	int n;

	n = snprintf(out, sizeof(out), "%s/" OUT_REL, dir);
	if (n < 0 || (size_t)n >= sizeof(out) || !(d = opendir(out)))
		return 0;
	while ((de = readdir(d))) {
		if (is_db_name(de->d_name) && strlen(de->d_name) < sizeof(best) &&
		    (!best[0] || strcmp(de->d_name, best) < 0))
			strcpy(best, de->d_name);
	}
	closedir(d);
	if (!best[0])
		return 0;
	n = snprintf(path, len, "%s/%s", out, best);
	return n > 0 && (size_t)n < len && is_reg(path);
}

/* @dir's card file into @path: trace_view.json first, else the DB (see the top). */
static int has_card(const char *dir, char *path, size_t len)
{
	int n = snprintf(path, len, "%s/" TV_REL, dir);

	if (n > 0 && (size_t)n < len && is_reg(path))
		return 1;
	return has_db(dir, path, len);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void fts_npu_list_free(char **paths, size_t n)
{
	for (size_t i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
}

/* One level down: the rank directories a profiling run leaves side by side. */
static int scan_ranks(const char *dir, DIR *d, char **out, size_t *k, struct fts_err *err)
{
	char sub[4096], path[4096];
	struct dirent *de;

	while ((de = readdir(d))) {
		int len;

		if (de->d_name[0] == '.')
			continue;
		len = snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (len < 0 || (size_t)len >= sizeof(sub) || !has_card(sub, path, sizeof(path)))
			continue;
		if (*k == FTS_NPU_MAX_CARDS)
			return fts_err_set(err, -E2BIG, "%s: more than %d cards (rank directories); give fewer",
					   dir, FTS_NPU_MAX_CARDS);
		if (!(out[(*k)++] = strdup(path)))
			return nomem(err);
	}
	return 0;
}

int fts_npu_trace_list(const char *dir, char ***paths, size_t *n, struct fts_err *err)
{
	char path[4096];
	char **out = NULL;
	size_t k = 0;
	int rc;
	DIR *d;

	*paths = NULL;
	*n = 0;
	if (has_card(dir, path, sizeof(path))) {
		out = calloc(1, sizeof(*out));
		if (!out || !(out[0] = strdup(path))) {
			free(out);
			return nomem(err);
		}
		*paths = out;
		*n = 1;
		return 0;
	}
	d = opendir(dir);
	if (!d)
		return fts_err_set(err, -errno, "%s: cannot open the profiling directory: %s", dir,
				   strerror(errno));
	out = calloc(FTS_NPU_MAX_CARDS, sizeof(*out));
	if (!out) {
		closedir(d);
		return nomem(err);
	}
	rc = scan_ranks(dir, d, out, &k, err);
	closedir(d);
	if (!rc && !k)
		rc = fts_err_set(err, -ENOENT,
				 "%s: no " TV_REL " or " OUT_REL "/" DB_PREFIX "<rank>.db here or one level down (a torch_npu profile is needed)",
				 dir);
	if (rc) {
		fts_npu_list_free(out, k);
		return rc;
	}
	qsort(out, k, sizeof(*out), cmp_str);
	*paths = out;
	*n = k;
	return 0;
}
