// SPDX-License-Identifier: MIT
/*
 * segments.c - find a flight recording's segments in a directory (see
 * segments.h). Only names of the recorder's shape count: <stem>.NNNNNN.dat,
 * one stem, six to ten digits (sorted as numbers); anything else there (the
 * manifest, the pid mapping) is left alone. Of several runs the newest is
 * read, each segment once (pick_run).
 */
#include "core/pipeline/segments.h"
#include "core/trace/dat_layout.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int fts__segments_is_dir(const char *path)
{
	struct stat sb;

	return path && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* The stem's length when @name is <stem>.N.dat (6 to 10 digits: past 999999 the names grow), else 0. */
static size_t segment_stem(const char *name, uint64_t *num)
{
	size_t l = strlen(name), d = 0;

	if (l < 5 || strcmp(name + l - 4, ".dat"))
		return 0;
	while (d < l - 4 && name[l - 5 - d] >= '0' && name[l - 5 - d] <= '9')
		d++;
	if (d < 6 || d > 10 || l - 4 - d < 2 || name[l - 5 - d] != '.')
		return 0;
	*num = strtoull(name + l - 4 - d, NULL, 10);
	return l - 5 - d;
}

/* One segment found: its number from the name, what its header says (dat_layout.h). */
struct seg_ent {
	char *path;
	uint64_t num;      /* from the name */
	uint64_t run;      /* 0: an older segment, no run id */
	uint64_t seq;      /* its own number (header), when run */
	int drop;          /* another run's, or read already (pick_run) */
};

static int by_num(const void *a, const void *b)
{
	const struct seg_ent *x = a, *y = b;

	return x->num < y->num ? -1 : x->num > y->num;
}

static void read_meta(struct seg_ent *e, struct dat_cpustat *cs)
{
	struct stat sb;
	int fd = open(e->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);

	e->run = 0;
	if (fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    fts_dat_cpustats(fd, (uint64_t)sb.st_size, '6', cs) == 0 && cs->has_run) {
		e->run = cs->run;
		e->seq = cs->seq;
	}
	if (fd >= 0)
		close(fd);
}

/* The directory's segments of one stem, unsorted, into *@out; their count or a negative errno. */
static int scan_dir(const char *dir, struct seg_ent **out, struct fts_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct seg_ent *v = NULL;
	char stem[256] = "";
	int n = 0, cap = 0, rc = 0;

	*out = NULL;
	if (!d)
		return fts_err_set(err, -errno, "%s: %s", dir, strerror(errno));
	while ((e = readdir(d)) && !rc) {
		uint64_t num = 0;
		size_t sl = segment_stem(e->d_name, &num);

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
			struct seg_ent *nv;

			cap = cap ? 2 * cap : 16;
			nv = realloc(v, sizeof(*v) * (size_t)cap);
			if (!nv) {
				rc = fts_err_set(err, -ENOMEM, "out of memory");
				break;
			}
			v = nv;
		}
		memset(&v[n], 0, sizeof(v[n]));
		v[n].num = num;
		if (asprintf(&v[n].path, "%s/%s", dir, e->d_name) < 0) {
			rc = fts_err_set(err, -ENOMEM, "out of memory");
			break;
		}
		n++;
	}
	closedir(d);
	if (rc) {
		for (int i = 0; i < n; i++)
			free(v[i].path);
		free(v);
		return rc;
	}
	*out = v;
	return n;
}

/*
 * Keep the newest run's segments (the run of the highest number: numbering
 * goes on across runs, so that is the latest), each (run, seq) once: two runs
 * joined would invent what happened in the gap between them, and a segment
 * copied under another number would count its events twice. Segments with
 * no run id (older ones) are one run.
 */
static int by_run_seq(const void *a, const void *b)
{
	const struct seg_ent *x = *(struct seg_ent *const *)a, *y = *(struct seg_ent *const *)b;

	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->num < y->num ? -1 : x->num > y->num;
}

/* @v in number order; -ENOMEM, or how many are kept (moved to the front, in number order). */
static int pick_run(struct seg_ent *v, int n, struct fts__seg_pick *pk)
{
	struct seg_ent **by = malloc(sizeof(*by) * (size_t)n);
	uint64_t run = v[n - 1].run;
	int k = 0;

	if (!by)
		return -ENOMEM;
	/* sorted by (run, seq): the runs are the changes of run, a duplicate repeats both */
	for (int i = 0; i < n; i++)
		by[i] = &v[i];
	qsort(by, (size_t)n, sizeof(*by), by_run_seq);
	for (int i = 0; i < n; i++) {
		struct seg_ent *e = by[i];

		if (!i || e->run != by[i - 1]->run)
			pk->runs++;
		if (e->run != run) {
			pk->other++;
			e->drop = 1;
		} else if (i && run && e->seq == by[i - 1]->seq && by[i - 1]->run == run) {
			pk->dups++;
			e->drop = 1;
		}
	}
	free(by);
	for (int i = 0; i < n; i++) {
		if (v[i].drop)
			free(v[i].path);
		else
			v[k++] = v[i];
	}
	pk->run = run;
	return k;
}

int fts__segments_pick(const char *dir, char ***paths, struct fts__seg_pick *pick, struct fts_err *err)
{
	struct fts__seg_pick pk = { 0 };
	struct dat_cpustat *cs = malloc(sizeof(*cs));
	struct seg_ent *v = NULL;
	char **out = NULL;
	int n = cs ? scan_dir(dir, &v, err) : fts_err_set(err, -ENOMEM, "out of memory");

	*paths = NULL;
	if (pick)
		memset(pick, 0, sizeof(*pick));
	if (n == 0)
		n = fts_err_set(err, -ENOENT,
				"%s: is a directory, and holds no trace.dat segments (<stem>.NNNNNN.dat, as a flight recording writes)",
				dir);
	if (n > 0) {
		int all = n;

		for (int i = 0; i < n; i++)
			read_meta(&v[i], cs);
		qsort(v, (size_t)n, sizeof(*v), by_num);
		n = pick_run(v, n, &pk);   /* > 0: the newest run holds the last segment at least */
		out = n > 0 ? malloc(sizeof(*out) * (size_t)n) : NULL;
		if (!out) {
			/* pick_run's failure leaves every path to free, its success the kept ones */
			for (int i = 0; i < (n < 0 ? all : n); i++)
				free(v[i].path);
			n = fts_err_set(err, -ENOMEM, "out of memory");
		}
		for (int i = 0; out && i < n; i++)
			out[i] = v[i].path;
	}
	free(v);
	free(cs);
	if (n > 0) {
		*paths = out;
		if (pick)
			*pick = pk;
	}
	return n;
}

int fts__segments_list(const char *dir, char ***paths, struct fts_err *err)
{
	return fts__segments_pick(dir, paths, NULL, err);
}

void fts__segments_free(char **paths, int n)
{
	for (int i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
}
