// SPDX-License-Identifier: MIT
/*
 * record_top.c - rank threads by run-queue wait and CPU time between two
 * scans of /proc/PID/task/TID/schedstat. Each scan is kept sorted by tid so
 * the next one is matched with a merge, not a hash; names are read only for
 * the few threads shown.
 */
#include "core/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/session/record_top.h"

void fts_top_init(struct fts_live_top *t, const char *root)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->root, sizeof(t->root), "%s", root);
}

void fts_top_free(struct fts_live_top *t)
{
	free(t->prev);
	t->prev = NULL;
	t->nprev = 0;
}

/* Read a small file under @dirfd into @buf; returns bytes or -1. */
static ssize_t read_at(int dirfd, const char *name, char *buf, size_t len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return n;
}

static int by_tid(const void *a, const void *b)
{
	const struct fts_top_sample *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* Every thread's counters, sorted by tid. */
static int scan(const char *root, struct fts_top_sample **out, int *n)
{
	DIR *proc = opendir(root), *tasks;
	struct dirent *p, *q;
	struct fts_top_sample *v = NULL;
	int cap = 0, cnt = 0;

	if (!proc)
		return -errno;
	while ((p = readdir(proc))) {
		char path[600];

		if (!fts__all_digits(p->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s/task", root, p->d_name);
		tasks = opendir(path);
		if (!tasks)
			continue; /* the process ended meanwhile */
		while ((q = readdir(tasks))) {
			char name[300], buf[128];
			unsigned long long run, wait, slices;

			if (!fts__all_digits(q->d_name))
				continue;
			snprintf(name, sizeof(name), "%s/schedstat", q->d_name);
			if (read_at(dirfd(tasks), name, buf, sizeof(buf)) < 0 ||
			    sscanf(buf, "%llu %llu %llu", &run, &wait, &slices) != 3)
				continue;
			if (cnt == cap) {
				int nc = cap ? cap * 2 : 512;
				struct fts_top_sample *nv = realloc(v, (size_t)nc * sizeof(*v));

				if (!nv) {
					closedir(tasks);
					closedir(proc);
					free(v);
					return -ENOMEM;
				}
				v = nv;
				cap = nc;
			}
			v[cnt].tid = atoi(q->d_name);
			v[cnt].run_ns = run;
			v[cnt].wait_ns = wait;
			v[cnt].slices = slices;
			cnt++;
		}
		closedir(tasks);
	}
	closedir(proc);
	if (cnt)
		qsort(v, (size_t)cnt, sizeof(*v), by_tid);
	*out = v;
	*n = cnt;
	return 0;
}

/* Keep @row in the worst-first list @list (size @max, @n used) by @key. */
static void insert(struct fts_top_row *list, int *n, int max, const struct fts_top_row *row, int by_wait)
{
	double k = by_wait ? row->wait_frac : row->run_frac;
	int i = *n < max ? (*n)++ : max;

	if (i == max) {
		double last = by_wait ? list[max - 1].wait_frac : list[max - 1].run_frac;

		if (k <= last)
			return;
		i = max - 1;
	}
	while (i > 0 && k > (by_wait ? list[i - 1].wait_frac : list[i - 1].run_frac)) {
		list[i] = list[i - 1];
		i--;
	}
	list[i] = *row;
}

static void name_of(const char *root, int tid, char *comm, size_t len)
{
	char path[320];
	int fd;
	ssize_t n;

	/* /proc/TID/comm works for any thread id, not only process ids */
	snprintf(path, sizeof(path), "%s/%d/comm", root, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	comm[0] = 0;
	if (fd < 0)
		return;
	n = read(fd, comm, len - 1);
	close(fd);
	if (n <= 0) {
		comm[0] = 0;
		return;
	}
	comm[n] = 0;
	if (comm[n - 1] == '\n')
		comm[n - 1] = 0;
}

int fts_top_sample(struct fts_live_top *t, double now_s)
{
	struct fts_top_sample *cur = NULL;
	int ncur = 0, rc = scan(t->root, &cur, &ncur), j = 0;
	double dt = now_s - t->t_prev, worst = -1;

	if (rc)
		return rc;
	t->threads = ncur;
	if (t->prev && dt > 0) {
		t->nwait = t->nrun = 0;
		memset(&t->worst_latency, 0, sizeof(t->worst_latency));
		for (int i = 0; i < ncur; i++) {
			const struct fts_top_sample *c = &cur[i], *p;
			struct fts_top_row row;

			while (j < t->nprev && t->prev[j].tid < c->tid)
				j++;
			p = j < t->nprev && t->prev[j].tid == c->tid ? &t->prev[j] : NULL;
			memset(&row, 0, sizeof(row));
			row.tid = c->tid;
			/* a reused tid or a new thread: its counters started after our baseline */
			if (p && c->run_ns >= p->run_ns && c->wait_ns >= p->wait_ns && c->slices >= p->slices) {
				row.run_frac = (double)(c->run_ns - p->run_ns) / 1e9 / dt;
				row.wait_frac = (double)(c->wait_ns - p->wait_ns) / 1e9 / dt;
				if (c->slices > p->slices)
					row.wait_per_run_ms = (double)(c->wait_ns - p->wait_ns) / 1e6 / (double)(c->slices - p->slices);
			} else {
				row.run_frac = (double)c->run_ns / 1e9 / dt;
				row.wait_frac = (double)c->wait_ns / 1e9 / dt;
				if (c->slices)
					row.wait_per_run_ms = (double)c->wait_ns / 1e6 / (double)c->slices;
			}
			/* counters are read one by one during the scan: a thread busy the
			 * whole interval may show a little over 100%; it cannot be more */
			if (row.run_frac > 1)
				row.run_frac = 1;
			if (row.wait_frac > 1)
				row.wait_frac = 1;
			if (row.wait_frac > 0)
				insert(t->wait, &t->nwait, 8, &row, 1);
			if (row.run_frac > 0)
				insert(t->run, &t->nrun, 8, &row, 0);
			if (row.wait_per_run_ms > worst) {
				worst = row.wait_per_run_ms;
				t->worst_latency = row;
			}
		}
		for (int i = 0; i < t->nwait; i++)
			name_of(t->root, t->wait[i].tid, t->wait[i].comm, sizeof(t->wait[i].comm));
		for (int i = 0; i < t->nrun; i++)
			name_of(t->root, t->run[i].tid, t->run[i].comm, sizeof(t->run[i].comm));
		if (t->worst_latency.tid)
			name_of(t->root, t->worst_latency.tid, t->worst_latency.comm, sizeof(t->worst_latency.comm));
		t->interval_s = dt;
	}
	free(t->prev);
	t->prev = cur;
	t->nprev = ncur;
	t->t_prev = now_s;
	return 0;
}
