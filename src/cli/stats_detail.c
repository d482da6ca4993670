// SPDX-License-Identifier: MIT
/*
 * stats_detail.c - per task and CPU, and per irq name, counts for the Excel
 * report (stats_detail.h). The rules are the statistics sink's (stats.c):
 * task-lane slices count by their `cpu` arg, clipped to the window;
 * sched_switch markers count for prev on their CPU lane (involuntary when
 * prev_state starts with R, never for pid 0); irq/softirq slices for the
 * task in their `task` arg unless it is the idle task. A test holds the sums
 * to `ftscope stats --format csv`.
 */
#include "cli/stats_detail.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Key -> index: open addressing over malloc'd byte keys. */
struct hent {
	char *key;      /* NULL: free slot */
	size_t klen;
	uint64_t h;
	size_t idx;
};

struct htab {
	struct hent *e;
	size_t cap, n;
};

struct lane_ent {
	int task;       /* 1: a task lane */
	int32_t cpu;    /* CPU lanes: the number, -1 unknown */
	char *tid;      /* task lanes */
};

struct fts_detail {
	struct fts_sink sink;   /* first: the sink pointer is the collector's */
	int has_window;
	uint64_t win_begin, win_end;
	struct lane_ent *lanes;
	uint32_t nlanes;
	struct htab rows_h, irqs_h;
	struct fts_detail_row *rows;
	size_t nrows, cap_rows;
	struct fts_detail_irq *irqs;
	size_t nirqs, cap_irqs;
};

static uint64_t hash_bytes(const char *k, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)k[i]) * 1099511628211ull;
	return h;
}

static int ht_grow(struct htab *t)
{
	size_t nc = t->cap ? t->cap * 2 : 1024;
	struct hent *ne = calloc(nc, sizeof(*ne));

	if (!ne)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		size_t j;

		if (!t->e[i].key)
			continue;
		for (j = t->e[i].h & (nc - 1); ne[j].key; j = (j + 1) & (nc - 1))
			;
		ne[j] = t->e[i];
	}
	free(t->e);
	t->e = ne;
	t->cap = nc;
	return 0;
}

/* The entry for @k; *@fresh set when it was just added (its idx is for the caller to set). */
static struct hent *ht_get(struct htab *t, const char *k, size_t n, int *fresh)
{
	uint64_t h = hash_bytes(k, n);
	size_t j;

	if ((t->n + 1) * 2 > t->cap && ht_grow(t))
		return NULL;
	for (j = h & (t->cap - 1); t->e[j].key; j = (j + 1) & (t->cap - 1)) {
		if (t->e[j].h == h && t->e[j].klen == n && !memcmp(t->e[j].key, k, n)) {
			*fresh = 0;
			return &t->e[j];
		}
	}
	t->e[j].key = malloc(n);
	if (!t->e[j].key)
		return NULL;
	memcpy(t->e[j].key, k, n);
	t->e[j].klen = n;
	t->e[j].h = h;
	t->n++;
	*fresh = 1;
	return &t->e[j];
}

static void ht_free(struct htab *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->e[i].key);
	free(t->e);
}

/* A binary key: the CPU, a type byte, the tid with its NUL, then @name (may be NULL). */
static char *make_key(int32_t cpu, int soft, const char *tid, const char *name, size_t *n)
{
	size_t lt = strlen(tid) + 1, ln = name ? strlen(name) : 0;
	char *k = malloc(sizeof(cpu) + 1 + lt + ln);

	if (!k)
		return NULL;
	memcpy(k, &cpu, sizeof(cpu));
	k[sizeof(cpu)] = (char)soft;
	memcpy(k + sizeof(cpu) + 1, tid, lt);
	if (ln)
		memcpy(k + sizeof(cpu) + 1 + lt, name, ln);
	*n = sizeof(cpu) + 1 + lt + ln;
	return k;
}

static struct fts_detail_row *row_of(struct fts_detail *d, const char *tid, int32_t cpu)
{
	size_t n;
	char *k = make_key(cpu, 0, tid, NULL, &n);
	struct hent *e;
	int fresh;

	if (!k)
		return NULL;
	e = ht_get(&d->rows_h, k, n, &fresh);
	free(k);
	if (!e)
		return NULL;
	if (fresh) {
		if (d->nrows == d->cap_rows) {
			size_t nc = d->cap_rows ? d->cap_rows * 2 : 256;
			struct fts_detail_row *nr = realloc(d->rows, nc * sizeof(*nr));

			if (!nr)
				return NULL;
			d->rows = nr;
			d->cap_rows = nc;
		}
		/* the key holds the tid: it lives as long as the table */
		d->rows[d->nrows] = (struct fts_detail_row){ .tid = e->key + sizeof(cpu) + 1,
							     .cpu = cpu };
		e->idx = d->nrows++;
	}
	return &d->rows[e->idx];
}

static struct fts_detail_irq *irq_of(struct fts_detail *d, const char *tid, int32_t cpu, int soft,
				     const char *name)
{
	size_t n, lt = strlen(tid) + 1;
	char *k = make_key(cpu, soft, tid, name, &n);
	struct hent *e;
	int fresh;

	if (!k)
		return NULL;
	e = ht_get(&d->irqs_h, k, n, &fresh);
	free(k);
	if (!e)
		return NULL;
	if (fresh) {
		size_t ln = n - sizeof(cpu) - 1 - lt;
		char *nm = malloc(ln + 1);

		if (!nm)
			return NULL;
		memcpy(nm, e->key + sizeof(cpu) + 1 + lt, ln);
		nm[ln] = '\0';
		if (d->nirqs == d->cap_irqs) {
			size_t nc = d->cap_irqs ? d->cap_irqs * 2 : 256;
			struct fts_detail_irq *ni = realloc(d->irqs, nc * sizeof(*ni));

			if (!ni) {
				free(nm);
				return NULL;
			}
			d->irqs = ni;
			d->cap_irqs = nc;
		}
		d->irqs[d->nirqs] = (struct fts_detail_irq){ .tid = e->key + sizeof(cpu) + 1,
							     .cpu = cpu, .soft = soft, .name = nm };
		e->idx = d->nirqs++;
	}
	return &d->irqs[e->idx];
}

static const char *arg_of(const struct fts_item *it, const char *key)
{
	for (int i = 0; i < it->nargs; i++) {
		if (it->args[i].key && !strcmp(it->args[i].key, key))
			return it->args[i].val;
	}
	return NULL;
}

/* As stats.c's clip: the part inside the window; zero-length items when they start in it. */
static int clip(const struct fts_detail *d, const struct fts_item *it, uint64_t *lo, uint64_t *hi)
{
	uint64_t s = it->ts, e = it->ts + it->dur;

	if (!d->has_window) {
		*lo = s;
		*hi = e;
		return 1;
	}
	if (it->dur == 0) {
		*lo = *hi = s;
		return s >= d->win_begin && s < d->win_end;
	}
	*lo = s > d->win_begin ? s : d->win_begin;
	*hi = e < d->win_end ? e : d->win_end;
	return *lo < *hi;
}

/* "CPU 003" -> 3; -1 when the name is not a CPU lane's. */
static int32_t cpu_of_tid(const char *tid)
{
	char *end;
	long v;

	if (strncmp(tid, "CPU ", 4) || tid[4] < '0' || tid[4] > '9')
		return -1;
	v = strtol(tid + 4, &end, 10);
	return *end || v > 65535 ? -1 : (int32_t)v;
}

static int dt_lane(struct fts_sink *s, const struct fts_lane *l, struct fts_err *err)
{
	struct fts_detail *d = (struct fts_detail *)s;
	struct lane_ent *le;

	if (l->id >= d->nlanes) {
		struct lane_ent *nl = realloc(d->lanes, ((size_t)l->id + 1) * sizeof(*nl));

		if (!nl)
			return fts_err_set(err, -ENOMEM, "out of memory (report)");
		memset(nl + d->nlanes, 0, (l->id + 1 - d->nlanes) * sizeof(*nl));
		d->lanes = nl;
		d->nlanes = l->id + 1;
	}
	le = &d->lanes[l->id];
	free(le->tid);
	le->tid = NULL;
	le->task = l->group != FTS_GROUP_CPU;
	le->cpu = le->task ? -1 : cpu_of_tid(l->tid);
	if (!le->task && le->cpu < 0)
		le->cpu = l->sort_index;
	if (le->task && !(le->tid = strdup(l->tid)))
		return fts_err_set(err, -ENOMEM, "out of memory (report)");
	return 0;
}

static int task_item(struct fts_detail *d, const struct lane_ent *le, const struct fts_item *it)
{
	const char *v = arg_of(it, "cpu");
	long long cpu = -1;
	struct fts_detail_row *r;
	uint64_t lo, hi;

	if (it->kind == FTS_ITEM_MARKER || !clip(d, it, &lo, &hi))
		return 0;
	if (v && *v)
		cpu = strtoll(v, NULL, 10);
	if (cpu < -1 || cpu > INT32_MAX)
		cpu = -1;
	r = row_of(d, le->tid, (int32_t)cpu);
	if (!r)
		return -ENOMEM;
	switch (it->kind) {
	case FTS_ITEM_RUNNING: r->running_ns += hi - lo; break;
	case FTS_ITEM_RUNNABLE: r->runnable_ns += hi - lo; break;
	case FTS_ITEM_SLEEPING: r->sleeping_ns += hi - lo; break;
	case FTS_ITEM_BLOCKED: r->blocked_ns += hi - lo; break;
	case FTS_ITEM_NODATA: r->unknown_ns += hi - lo; break;
	default: break;
	}
	return 0;
}

static int cpu_item(struct fts_detail *d, int32_t cpu, const struct fts_item *it)
{
	uint64_t lo, hi;

	if (cpu < 0 || !clip(d, it, &lo, &hi))
		return 0;
	if (it->kind == FTS_ITEM_IRQ || it->kind == FTS_ITEM_SOFTIRQ) {
		int soft = it->kind == FTS_ITEM_SOFTIRQ;
		const char *who = arg_of(it, "task"), *name = arg_of(it, soft ? "action" : "name");
		struct fts_detail_irq *q;

		if (!who || !*who || !strncmp(who, "<idle>", 6))
			return 0;
		q = irq_of(d, who, cpu, soft, name && *name ? name : "?");
		if (!q)
			return -ENOMEM;
		q->count++;
		q->ns += hi - lo;
	} else if (it->kind == FTS_ITEM_SWITCH) {
		const char *comm = arg_of(it, "prev_comm"), *pid = arg_of(it, "prev_pid");
		const char *state = arg_of(it, "prev_state");
		struct fts_detail_row *r;
		char tid[256];

		if (!comm || !pid || !strcmp(pid, "0"))
			return 0;
		if ((size_t)snprintf(tid, sizeof(tid), "%s:%s", comm, pid) >= sizeof(tid))
			return 0;
		r = row_of(d, tid, cpu);
		if (!r)
			return -ENOMEM;
		r->switches++;
		if (state && state[0] == 'R')
			r->involuntary++;
	}
	return 0;
}

static int dt_item(struct fts_sink *s, const struct fts_item *it, struct fts_err *err)
{
	struct fts_detail *d = (struct fts_detail *)s;
	const struct lane_ent *le;
	int rc;

	if (it->lane >= d->nlanes)
		return fts_err_set(err, -EINVAL, "report: an item on undeclared lane %u", it->lane);
	le = &d->lanes[it->lane];
	rc = le->task ? task_item(d, le, it) : cpu_item(d, le->cpu, it);
	return rc ? fts_err_set(err, rc, "out of memory (report)") : 0;
}

static int cmp_row(const void *a, const void *b)
{
	const struct fts_detail_row *x = a, *y = b;
	int c = strcmp(x->tid, y->tid);

	return c ? c : (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static int cmp_irq(const void *a, const void *b)
{
	const struct fts_detail_irq *x = a, *y = b;
	int c = strcmp(x->tid, y->tid);

	if (!c)
		c = (x->cpu > y->cpu) - (x->cpu < y->cpu);
	if (!c)
		c = x->soft - y->soft;
	return c ? c : strcmp(x->name, y->name);
}

/* Sorting moves rows away from the table's indexes: nothing is looked up after. */
static int dt_finish(struct fts_sink *s, int ok, struct fts_err *err)
{
	struct fts_detail *d = (struct fts_detail *)s;

	(void)err;
	if (ok) {
		qsort(d->rows, d->nrows, sizeof(*d->rows), cmp_row);
		qsort(d->irqs, d->nirqs, sizeof(*d->irqs), cmp_irq);
	}
	return 0;
}

static void dt_destroy(struct fts_sink *s)
{
	(void)s; /* lives and dies with the collector (fts_detail_free) */
}

struct fts_detail *fts_detail_new(const struct fts_stats_opts *so)
{
	struct fts_detail *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->sink.lane = dt_lane;
	d->sink.item = dt_item;
	d->sink.finish = dt_finish;
	d->sink.destroy = dt_destroy;
	if (so && so->has_window) {
		d->has_window = 1;
		d->win_begin = so->win_begin;
		d->win_end = so->win_end;
	}
	return d;
}

struct fts_sink *fts_detail_sink(struct fts_detail *d)
{
	return &d->sink;
}

size_t fts_detail_nrows(const struct fts_detail *d)
{
	return d->nrows;
}

const struct fts_detail_row *fts_detail_row_at(const struct fts_detail *d, size_t i)
{
	return i < d->nrows ? &d->rows[i] : NULL;
}

size_t fts_detail_nirqs(const struct fts_detail *d)
{
	return d->nirqs;
}

const struct fts_detail_irq *fts_detail_irq_at(const struct fts_detail *d, size_t i)
{
	return i < d->nirqs ? &d->irqs[i] : NULL;
}

void fts_detail_free(struct fts_detail *d)
{
	if (!d)
		return;
	for (uint32_t i = 0; i < d->nlanes; i++)
		free(d->lanes[i].tid);
	free(d->lanes);
	for (size_t i = 0; i < d->nirqs; i++)
		free((char *)d->irqs[i].name);
	free(d->irqs);
	free(d->rows);
	ht_free(&d->rows_h);
	ht_free(&d->irqs_h);
	free(d);
}
