// SPDX-License-Identifier: MIT
/*
 * hostbound_advice.c - what to do about the dominant causes
 * (fts_hostbound_advice), with the capture's numbers: only what the kept
 * slices show. A cause is dominant at 10% of the idle time or more.
 *   preempted / waiting: the CPUs (of those the capture saw) idle for at
 *     least half of the gaps' traced time -> a taskset line for each
 *     dispatch and main thread; the task that held the CPU waited for most,
 *     its policy and priority from the scheduler's prio (0-99 real-time,
 *     100-139 normal: nice = prio - 120);
 *   waiting: how many threads ran on how many CPUs in the gaps it led;
 *   irq: the interrupt that took most of it, and the CPU it hit.
 * Names in the texts are raw: the writers escape them.
 */
#include "core/hostbound/hostbound_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DOMINANT 0.10      /* a cause's share of the idle time to be advised on */
#define IDLE_CPU 0.5       /* a CPU idle for this share of the gaps' traced time is free */
#define MAX_THREADS 4      /* dispatch and main threads given a taskset line */

struct cpus {
	int32_t *cpu;          /* ascending */
	double *busy;          /* run time in the gaps */
	size_t n;
};

static int add(struct fts_hostbound *hb, enum fts_hb_advice_kind kind, enum fts_hb_cat cause, double ns,
	       const char *text, const char *cmd)
{
	struct fts_hb_advice *a;

	if (hb_grow((void **)&hb->advice, &hb->cadvice, hb->nadvice + 1, sizeof(*hb->advice)))
		return -ENOMEM;
	a = &hb->advice[hb->nadvice];
	*a = (struct fts_hb_advice){ kind, cause, ns, hb_intern(hb, text), FTS_HB_NONE };
	if (a->text == UINT32_MAX || (cmd && (a->command = hb_intern(hb, cmd)) == UINT32_MAX))
		return -ENOMEM;
	hb->nadvice++;
	return 0;
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* The CPU lanes the sink saw, ascending, and their run time in the gaps. */
static int seen_cpus(const struct fts_hostbound *hb, struct cpus *c)
{
	c->cpu = calloc(hb->nlanes + 1, sizeof(*c->cpu));
	c->busy = calloc(hb->nlanes + 1, sizeof(*c->busy));
	if (!c->cpu || !c->busy)
		return -ENOMEM;
	for (size_t l = 0; l < hb->nlanes; l++) {
		if (hb->lanes[l] == HB_LANE_CPU)
			c->cpu[c->n++] = (int32_t)hb->lane_names[l];
	}
	qsort(c->cpu, c->n, sizeof(*c->cpu), cmp_i32);
	for (size_t r = 0; r < hb->nruns; r++) {
		int32_t *p = bsearch(&hb->runs[r].cpu, c->cpu, c->n, sizeof(*c->cpu), cmp_i32);

		if (p)
			c->busy[p - c->cpu] += (double)(hb->runs[r].e - hb->runs[r].s);
	}
	return 0;
}

/* @cpus (ascending) as a CPU list with ranges ("0-3,6"). */
static void cpu_list(char *buf, size_t len, const int32_t *cpus, size_t n)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && off < len; i++) {
		size_t j = i;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		off += (size_t)snprintf(buf + off, len - off, j > i ? "%s%d-%d" : "%s%d", off ? "," : "",
					cpus[i], cpus[j]);
		i = j;
	}
}

/* The gaps' time the capture covers. */
static double traced(const struct fts_hostbound *hb)
{
	double t = 0;

	for (size_t g = 0; g < hb->ngaps; g++)
		t += (double)hb->sorted[g].dur - hb->sorted[g].outside_ns;
	return t;
}

/* A taskset line per dispatch and main thread onto the CPUs idle during the gaps. */
static int advise_cpus(struct fts_hostbound *hb, const struct cpus *c, enum fts_hb_cat cause, double ns)
{
	double span = traced(hb), idle = 0;
	int32_t *free_cpus = calloc(c->n + 1, sizeof(*free_cpus));
	size_t nfree = 0;
	char list[256], text[512], cmd[320];
	int rc = 0;

	if (!free_cpus)
		return -ENOMEM;
	for (size_t i = 0; span > 0 && i < c->n; i++) {
		if (c->busy[i] <= (1.0 - IDLE_CPU) * span) {
			free_cpus[nfree++] = c->cpu[i];
			idle += 1.0 - c->busy[i] / span;
		}
	}
	cpu_list(list, sizeof(list), free_cpus, nfree);
	/* the dispatch threads first, then the main ones */
	for (size_t pass = 0, k = 0; pass < 2 && nfree && !rc; pass++) {
		for (size_t t = 0; t < hb->nthreads && k < MAX_THREADS && !rc; t++) {
			const struct hb_thread *th = &hb->threads[t];

			if (th->role != (pass ? FTS_HB_ROLE_MAIN : FTS_HB_ROLE_DISPATCH))
				continue;
			k++;
			snprintf(text, sizeof(text), "CPU%s %s %s idle %.0f%% of the gaps' traced time (%zu CPUs in the "
				 "capture): move the %s thread %s there", nfree > 1 ? "s" : "", list,
				 nfree > 1 ? "were" : "was", 100.0 * idle / (double)nfree, c->n,
				 fts_hostbound_role_name(th->role), fts_hostbound_str(hb, th->name));
			snprintf(cmd, sizeof(cmd), "taskset -cp %s %d", list, th->tid);
			rc = add(hb, FTS_HB_ADV_CPUS, cause, ns, text, cmd);
		}
	}
	free(free_cpus);
	return rc;
}

/* The task that held the CPUs waited for most, with its policy and priority. */
static int advise_task(struct fts_hostbound *hb, enum fts_hb_cat cause, double ns)
{
	const struct fts_hb_blame *b = hb->nblame ? &hb->blame[0] : NULL;
	const char *name;
	int32_t prio = -1, pid;
	char pol[160], text[640], cmd[64];

	if (!b)
		return 0;
	name = fts_hostbound_str(hb, b->task);
	pid = hb_pid_of(name);
	for (size_t r = 0; r < hb->nruns && prio < 0; r++) {
		if (hb->runs[r].task == b->task)
			prio = hb->runs[r].prio;
	}
	if (prio >= 0 && prio < 100)
		snprintf(pol, sizeof(pol), "real-time (SCHED_FIFO or SCHED_RR) priority %d: it runs before any normal "
			 "thread; make it normal, or move it off CPU %d", 99 - prio, b->cpu);
	else if (prio >= 100 && prio < 140)
		snprintf(pol, sizeof(pol), "normal policy, nice %d", prio - 120);
	else
		snprintf(pol, sizeof(pol), "policy unknown: check with chrt -p %d", pid);
	snprintf(text, sizeof(text), "%s%s held CPU %d for %.1f ms while the threads waited for it; %s", name,
		 b->ours ? " (ftscope's own)" : "", b->cpu, b->ns / 1e6, pol);
	/* a real-time task: the command that makes it normal (SCHED_OTHER); else one to check its policy */
	snprintf(cmd, sizeof(cmd), prio >= 0 && prio < 100 ? "chrt -o -p 0 %d" : "chrt -p %d", pid);
	return add(hb, FTS_HB_ADV_TASK, cause, ns, text, pid >= 0 ? cmd : NULL);
}

/* In the gaps waiting led: how many threads ran on how many CPUs. */
static int advise_crowd(struct fts_hostbound *hb, const struct cpus *c, double ns)
{
	struct fts_inthash seen;
	double busy = 0, span = 0;
	size_t tasks = 0;
	char text[512];
	int added, rc = 0;

	fts_inthash_init(&seen);
	for (size_t g = 0; g < hb->ngaps; g++) {
		if (hb->sorted[g].cause == FTS_HB_WAITING)
			span += (double)hb->sorted[g].dur - hb->sorted[g].outside_ns;
	}
	for (size_t r = 0; r < hb->nruns && !rc; r++) {
		const struct hb_run *x = &hb->runs[r];

		if (hb->sorted[x->gap].cause != FTS_HB_WAITING)
			continue;
		busy += (double)(x->e - x->s);
		added = 0;
		if (!fts_inthash_put(&seen, x->task, &added))
			rc = -ENOMEM;
		tasks += (size_t)added;
	}
	fts_inthash_free(&seen);
	if (rc || !c->n || span <= 0 || tasks <= c->n)
		return rc;
	snprintf(text, sizeof(text), "%zu runnable threads for %zu CPUs: %zu threads ran on the CPUs during the gaps "
		 "where waiting led (the CPUs %.0f%% busy); fewer worker threads (DataLoader num_workers, "
		 "OMP_NUM_THREADS) or more CPUs for the job", tasks, c->n, tasks, 100.0 * busy / (span * (double)c->n));
	return add(hb, FTS_HB_ADV_CROWD, FTS_HB_WAITING, ns, text, NULL);
}

struct irq_sum {
	int32_t irq, cpu;            /* irq: -1 for a softirq */
	uint32_t name;               /* its name (a softirq's action) */
	double ns;
};

static int irq_tally(struct irq_sum **sum, size_t *n, size_t *cap, int32_t irq, uint32_t name, int32_t cpu, double ns)
{
	size_t k;

	/* few distinct irqs hit a handful of threads: a linear tally */
	for (k = 0; k < *n; k++) {
		if ((*sum)[k].irq == irq && (*sum)[k].name == name && (*sum)[k].cpu == cpu)
			break;
	}
	if (k == *n) {
		if (hb_grow((void **)sum, cap, *n + 1, sizeof(**sum)))
			return -ENOMEM;
		(*sum)[(*n)++] = (struct irq_sum){ irq, cpu, name, 0 };
	}
	(*sum)[k].ns += ns;
	return 0;
}

/*
 * The (irq, name, CPU) that took most of the irq time, into @best (0 when
 * none); @all: their sum. The irq slices that hit the threads, and the
 * softirqs ksoftirqd threads ran in the gaps (the CPU the threads waited for).
 */
static int top_irq(const struct fts_hostbound *hb, struct irq_sum *best, double *all)
{
	struct irq_sum *sum = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	*best = (struct irq_sum){ -1, -1, FTS_HB_NONE, 0 };
	*all = 0;
	for (size_t i = 0; i < hb->nsegs && !rc; i++) {
		const struct hb_seg *s = &hb->segs[i];

		if (s->cat != FTS_HB_IRQ)
			continue;
		*all += (double)(s->e - s->s);
		rc = irq_tally(&sum, &n, &cap, s->irq, s->irqname, s->cpu, (double)(s->e - s->s));
	}
	for (size_t i = 0; i < hb->nksoft && !rc; i++) {
		*all += hb->ksoft[i].ns;
		rc = irq_tally(&sum, &n, &cap, -1, hb->ksoft[i].vec, hb->ksoft[i].cpu, hb->ksoft[i].ns);
	}
	for (size_t k = 0; k < n && !rc; k++) {
		if (sum[k].ns > best->ns)
			*best = sum[k];
	}
	free(sum);
	return rc;
}

/* The irq (or softirq) that took most of the irq time, and the CPU it hit. */
static int advise_irq(struct fts_hostbound *hb, const struct cpus *c, double ns)
{
	struct irq_sum best;
	double all;
	char text[640], cmd[320], list[256];
	int32_t *rest;
	size_t nrest = 0;
	int rc = top_irq(hb, &best, &all);

	if (rc)
		return rc;
	if (best.ns <= 0)
		return 0;
	if (best.irq < 0) {
		snprintf(text, sizeof(text), "softirq %s took CPU %d from the host threads for %.1f ms (%.0f%% of their irq "
			 "time, over them or in ksoftirqd): it runs where its interrupt was taken or where RPS steers it; "
			 "move the device's irq (/proc/irq/N/smp_affinity) or its RPS mask off CPU %d, or move the threads",
			 fts_hostbound_str(hb, best.name), best.cpu, best.ns / 1e6, 100.0 * best.ns / all, best.cpu);
		/* NET_RX: the RPS masks that may name the CPU */
		return add(hb, FTS_HB_ADV_IRQ, FTS_HB_IRQ, ns, text,
			   strcmp(fts_hostbound_str(hb, best.name), "NET_RX") ? NULL :
			   "grep -H . /sys/class/net/*/queues/rx-*/rps_cpus");
	}
	rest = calloc(c->n + 1, sizeof(*rest));
	if (!rest)
		return -ENOMEM;
	for (size_t i = 0; i < c->n; i++) {
		if (c->cpu[i] != best.cpu)
			rest[nrest++] = c->cpu[i];
	}
	cpu_list(list, sizeof(list), rest, nrest);
	snprintf(text, sizeof(text), "irq %d (%s) hit the host threads on CPU %d for %.1f ms (%.0f%% of their irq time): "
		 "steer it off CPU %d through /proc/irq/%d/smp_affinity, or move the threads", best.irq,
		 fts_hostbound_str(hb, best.name), best.cpu, best.ns / 1e6, 100.0 * best.ns / all, best.cpu, best.irq);
	snprintf(cmd, sizeof(cmd), "echo %s > /proc/irq/%d/smp_affinity_list", list, best.irq);
	rc = add(hb, FTS_HB_ADV_IRQ, FTS_HB_IRQ, ns, text, nrest ? cmd : NULL);
	free(rest);
	return rc;
}

int hb_make_advice(struct fts_hostbound *hb)
{
	double tot[FTS_HB__COUNT], queued, out, cut;
	uint64_t idle = fts_hostbound_cause_totals(hb, tot, &queued, &out);
	struct cpus c = { 0 };
	enum fts_hb_cat cpu_cause = tot[FTS_HB_PREEMPTED] >= tot[FTS_HB_WAITING] ? FTS_HB_PREEMPTED : FTS_HB_WAITING;
	int rc;

	hb->nadvice = 0;
	if (!idle)
		return 0;
	cut = DOMINANT * (double)idle;
	rc = seen_cpus(hb, &c);
	if (!rc && tot[cpu_cause] > 0 && tot[cpu_cause] >= cut) {
		rc = advise_cpus(hb, &c, cpu_cause, tot[cpu_cause]);
		if (!rc)
			rc = advise_task(hb, cpu_cause, tot[cpu_cause]);
	}
	if (!rc && tot[FTS_HB_WAITING] > 0 && tot[FTS_HB_WAITING] >= cut)
		rc = advise_crowd(hb, &c, tot[FTS_HB_WAITING]);
	if (!rc && tot[FTS_HB_IRQ] > 0 && tot[FTS_HB_IRQ] >= cut)
		rc = advise_irq(hb, &c, tot[FTS_HB_IRQ]);
	free(c.cpu);
	free(c.busy);
	return rc;
}

const struct fts_hb_advice *fts_hostbound_advice(const struct fts_hostbound *hb, size_t *n)
{
	*n = hb->nadvice;
	return hb->advice;
}
