// SPDX-License-Identifier: MIT
/*
 * loss.c - the one loss model (ftscope/loss.h): per-CPU kernel counters and
 * drop points, and the words every front end prints for them.
 */
#include "ftscope/loss.h"
#include "core/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOSS_MAX_CPUS (1 << 16)

void fts_loss_init(struct fts_loss *l)
{
	memset(l, 0, sizeof(*l));
}

void fts_loss_free(struct fts_loss *l)
{
	free(l->cpu);
	fts_loss_init(l);
}

struct fts_loss_cpu *fts_loss_at(struct fts_loss *l, int cpu)
{
	struct fts_loss_cpu *n;
	int want;

	if (cpu < 0 || cpu >= LOSS_MAX_CPUS)
		return NULL;
	if (cpu < l->ncpu)
		return &l->cpu[cpu];
	want = cpu + 1;
	n = realloc(l->cpu, (size_t)want * sizeof(*n));
	if (!n)
		return NULL;
	memset(n + l->ncpu, 0, (size_t)(want - l->ncpu) * sizeof(*n));
	l->cpu = n;
	l->ncpu = want;
	return &n[cpu];
}

int fts_loss_copy(struct fts_loss *dst, const struct fts_loss *src)
{
	struct fts_loss c = { 0 };

	if (src->ncpu > 0) {
		c.cpu = malloc((size_t)src->ncpu * sizeof(*c.cpu));
		if (!c.cpu)
			return -ENOMEM;
		memcpy(c.cpu, src->cpu, (size_t)src->ncpu * sizeof(*c.cpu));
		c.ncpu = src->ncpu;
	}
	free(dst->cpu);
	*dst = c;
	return 0;
}

int fts_loss_set_kernel(struct fts_loss *l, int cpu, uint64_t overrun, uint64_t commit_overrun,
			uint64_t dropped)
{
	struct fts_loss_cpu *c = fts_loss_at(l, cpu);

	if (!c)
		return -ENOMEM;
	c->overrun = overrun;
	c->commit_overrun = commit_overrun;
	c->dropped = dropped;
	c->kernel = fts__sat_add(fts__sat_add(overrun, commit_overrun), dropped);
	c->has_kernel = 1;
	return 0;
}

int fts_loss_add_drop(struct fts_loss *l, int cpu, uint64_t count)
{
	struct fts_loss_cpu *c = fts_loss_at(l, cpu);

	if (!c)
		return -ENOMEM;
	c->drops++;
	if (count)
		c->marked = fts__sat_add(c->marked, count);
	else
		c->unsized++;
	return 0;
}

static const char *arg_of(const struct fts_item *it, const char *key)
{
	for (int i = 0; i < it->nargs; i++)
		if (it->args[i].key && strcmp(it->args[i].key, key) == 0)
			return it->args[i].val;
	return NULL;
}

/* A decimal count into *@out: 0, or -1 for anything else ("unknown", missing, garbage). */
static int count_of(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	*out = 0;
	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

int fts_loss_add_item(struct fts_loss *l, int cpu, const struct fts_item *it)
{
	struct fts_loss_cpu *c;
	uint64_t n, k;

	if (it->kind != FTS_ITEM_LOST && it->kind != FTS_ITEM_NODATA)
		return 0;
	c = fts_loss_at(l, cpu);
	if (!c)
		return -ENOMEM;
	if (it->kind == FTS_ITEM_NODATA) {
		c->nodata_ns = fts__sat_add(c->nodata_ns, it->dur);
		return 0;
	}
	count_of(arg_of(it, FTS_LOSS_ARG_COUNT), &n);   /* unparsable: a drop of unknown size */
	if (fts_loss_add_drop(l, cpu, n))
		return -ENOMEM;
	c = &l->cpu[cpu];   /* the table may have moved */
	if (count_of(arg_of(it, FTS_LOSS_ARG_KERNEL), &k) == 0 && (!c->has_kernel || k > c->kernel)) {
		/* every marker of a CPU carries the same total; an older file none */
		c->kernel = k;
		c->has_kernel = 1;
	}
	/* a flight segment's own count is its whole loss: its first drop point may be the previous one's */
	if (c->has_kernel && arg_of(it, FTS_LOSS_ARG_WHOLE) && c->marked > c->kernel)
		c->marked = c->kernel;
	return 0;
}

uint64_t fts_loss_cpu_events(const struct fts_loss_cpu *c)
{
	if (c->has_kernel && c->kernel > c->marked)
		return c->kernel;
	return c->marked;
}

int fts_loss_cpu_exact(const struct fts_loss_cpu *c)
{
	return c->has_kernel || c->unsized == 0;
}

int fts_loss_cpu_any(const struct fts_loss_cpu *c)
{
	return fts_loss_cpu_events(c) > 0 || c->unsized > 0;
}

uint64_t fts_loss_total(const struct fts_loss *l, int *exact)
{
	uint64_t sum = 0;
	int ex = 1;

	for (int i = 0; i < l->ncpu; i++) {
		sum = fts__sat_add(sum, fts_loss_cpu_events(&l->cpu[i]));
		if (!fts_loss_cpu_exact(&l->cpu[i]))
			ex = 0;
	}
	if (exact)
		*exact = ex;
	return sum;
}

uint64_t fts_loss_unsized(const struct fts_loss *l)
{
	uint64_t n = 0;

	for (int i = 0; i < l->ncpu; i++)
		if (!fts_loss_cpu_exact(&l->cpu[i]))
			n = fts__sat_add(n, l->cpu[i].unsized);
	return n;
}

int fts_loss_any(const struct fts_loss *l)
{
	for (int i = 0; i < l->ncpu; i++)
		if (fts_loss_cpu_any(&l->cpu[i]))
			return 1;
	return 0;
}

uint64_t fts_loss_nodata_ns(const struct fts_loss *l)
{
	uint64_t ns = 0;

	for (int i = 0; i < l->ncpu; i++)
		ns = fts__sat_add(ns, l->cpu[i].nodata_ns);
	return ns;
}

/* @a loses more than @b: more events, then more unknown drops, then the lower CPU. */
static int worse(const struct fts_loss *l, int a, int b)
{
	uint64_t ea = fts_loss_cpu_events(&l->cpu[a]), eb = fts_loss_cpu_events(&l->cpu[b]);

	if (ea != eb)
		return ea > eb;
	if (l->cpu[a].unsized != l->cpu[b].unsized)
		return l->cpu[a].unsized > l->cpu[b].unsized;
	return a < b;
}

int fts_loss_worst(const struct fts_loss *l, int *idx, int n)
{
	int k = 0;

	for (int cpu = 0; cpu < l->ncpu; cpu++) {
		int at;

		if (!fts_loss_cpu_any(&l->cpu[cpu]))
			continue;
		/* insertion into the top @n: loss tables are short */
		for (at = k; at > 0 && worse(l, cpu, idx[at - 1]); at--)
			if (at < n)
				idx[at] = idx[at - 1];
		if (at < n) {
			idx[at] = cpu;
			if (k < n)
				k++;
		}
	}
	return k;
}

char *fts_loss_cpu_text(const struct fts_loss_cpu *c, char *buf, size_t n)
{
	uint64_t ev = fts_loss_cpu_events(c);
	const char *s = c->unsized == 1 ? "" : "s";

	if (!n)
		return buf;
	if (ev == 0 && c->unsized)   /* no count at all (or the kernel said 0 and the data disagrees) */
		snprintf(buf, n, "%" PRIu64 " drop%s of unknown size", c->unsized, s);
	else if (fts_loss_cpu_exact(c))
		snprintf(buf, n, "%" PRIu64, ev);
	else
		snprintf(buf, n, "at least %" PRIu64 ", plus %" PRIu64 " drop%s of unknown size", ev,
			 c->unsized, s);
	return buf;
}

char *fts_loss_text(const struct fts_loss *l, int max_cpus, char *buf, size_t n)
{
	int idx[64], k, exact;
	uint64_t total = fts_loss_total(l, &exact), unsized = fts_loss_unsized(l);
	size_t at;

	if (!n)
		return buf;
	if (!fts_loss_any(l)) {
		snprintf(buf, n, "none");
		return buf;
	}
	if (max_cpus > 64)
		max_cpus = 64;
	if (exact || !unsized)
		at = (size_t)snprintf(buf, n, "%" PRIu64 " events", total);
	else if (total)
		at = (size_t)snprintf(buf, n, "at least %" PRIu64 " events, plus %" PRIu64
				      " drop%s of unknown size", total, unsized, unsized == 1 ? "" : "s");
	else
		at = (size_t)snprintf(buf, n, "%" PRIu64 " drop%s of unknown size", unsized,
				      unsized == 1 ? "" : "s");
	k = fts_loss_worst(l, idx, max_cpus > 0 ? max_cpus : 1);
	for (int i = 0; max_cpus > 0 && i < k && at < n; i++) {
		const struct fts_loss_cpu *c = &l->cpu[idx[i]];
		uint64_t ev = fts_loss_cpu_events(c);

		if (ev)
			at += (size_t)snprintf(buf + at, n - at, "%sCPU %d: %" PRIu64 "%s",
					       i ? ", " : " (", idx[i], ev,
					       fts_loss_cpu_exact(c) || !c->unsized ? "" : "+");
		else
			at += (size_t)snprintf(buf + at, n - at, "%sCPU %d: ?", i ? ", " : " (", idx[i]);
	}
	if (max_cpus > 0 && k > 0 && at < n) {
		int more = 0;

		for (int cpu = 0; cpu < l->ncpu; cpu++)
			more += fts_loss_cpu_any(&l->cpu[cpu]);
		snprintf(buf + at, n - at, "%s)", more > k ? ", ..." : "");
	}
	return buf;
}

void fts_loss_summarize(const struct fts_loss *l, struct fts_loss_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->any = fts_loss_any(l);
	out->total = fts_loss_total(l, &out->exact);
	out->unsized = fts_loss_unsized(l);
	out->nodata_ns = fts_loss_nodata_ns(l);
	out->worst_cpu = -1;
	for (int i = 0; i < l->ncpu; i++) {
		out->drops += l->cpu[i].drops;
		out->cpus += fts_loss_cpu_any(&l->cpu[i]);
	}
	fts_loss_worst(l, &out->worst_cpu, 1);
	fts_loss_text(l, 4, out->text, sizeof(out->text));
}
