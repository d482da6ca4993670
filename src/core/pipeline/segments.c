// SPDX-License-Identifier: MIT
/*
 * segments.c - find a flight recording's segments in a directory (see
 * segments.h). Only names of the recorder's shape count: <stem>.NNNNNN.dat,
 * one stem, six digits; anything else there (the manifest, the pid mapping)
 * is left alone.
 */
#include "core/pipeline/segments.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int fts__segments_is_dir(const char *path)
{
	struct stat sb;

	return path && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* The stem's length when @name is <stem>.NNNNNN.dat, else 0. */
static size_t segment_stem(const char *name)
{
	size_t l = strlen(name);

	if (l < 12 || strcmp(name + l - 4, ".dat") || name[l - 11] != '.')
		return 0;
	for (size_t i = l - 10; i < l - 4; i++)
		if (name[i] < '0' || name[i] > '9')
			return 0;
	return l - 11;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int fts__segments_list(const char *dir, char ***paths, struct fts_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL, stem[256] = "";
	int n = 0, cap = 0, rc = 0;

	*paths = NULL;
	if (!d)
		return fts_err_set(err, -errno, "%s: %s", dir, strerror(errno));
	while ((e = readdir(d)) && !rc) {
		size_t sl = segment_stem(e->d_name);
		char **nv;

		if (!sl || sl >= sizeof(stem))
			continue;
		if (!stem[0])
			snprintf(stem, sizeof(stem), "%.*s", (int)sl, e->d_name);
		else if (strlen(stem) != sl || strncmp(stem, e->d_name, sl)) {
			rc = fts_err_set(err, -EINVAL, "%s: segments of two recordings (%s.* and %.*s.*); give one",
					 dir, stem, (int)sl, e->d_name);
			break;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			nv = realloc(v, sizeof(*v) * (size_t)cap);
			if (!nv) {
				rc = fts_err_set(err, -ENOMEM, "out of memory");
				break;
			}
			v = nv;
		}
		if (asprintf(&v[n], "%s/%s", dir, e->d_name) < 0) {
			rc = fts_err_set(err, -ENOMEM, "out of memory");
			break;
		}
		n++;
	}
	closedir(d);
	if (!rc && !n)
		rc = fts_err_set(err, -ENOENT,
				 "%s: is a directory, and holds no trace.dat segments (<stem>.NNNNNN.dat, as a flight recording writes)",
				 dir);
	if (rc) {
		fts__segments_free(v, n);
		return rc;
	}
	/* the six digits sort as numbers */
	qsort(v, (size_t)n, sizeof(*v), by_name);
	*paths = v;
	return n;
}

void fts__segments_free(char **paths, int n)
{
	for (int i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
}
