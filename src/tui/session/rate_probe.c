// SPDX-License-Identifier: MIT
/*
 * rate_probe.c - the setup screen's 1 s throw-away capture (see
 * rate_probe.h). It runs in steps from the setup screen's tick: start,
 * let the recorder run while the loop goes on, then measure, cut and delete.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/session/rate_probe.h"

static void cleanup(struct fts_rate_probe *p)
{
	if (p->path[0])
		unlink(p->path);
	if (p->dir[0])
		rmdir(p->dir);
	p->path[0] = p->dir[0] = 0;
}

const char *fts_rate_probe_choice(const struct fts_setup *c, char *buf, size_t len)
{
	char cpus[1024];

	snprintf(buf, len, "%s|%d%d%d|%s|%d", fts_setup_cpulist(c, cpus, sizeof(cpus), 0), c->sched, c->irq,
		 c->futex, c->exclude, (int)c->backend);
	return buf;
}

int fts_rate_probe_start(struct fts_rate_probe *p, const struct fts_machine *m, const struct fts_setup *choice,
			 double now)
{
	struct fts_record_opts o;
	struct fts_err err = { 0 };
	char cpus[1024];

	p->err[0] = 0;
	p->done = 0;
	p->bf_kb = choice->bf_kb;
	fts_rate_probe_choice(choice, p->choice, sizeof(p->choice));
	snprintf(p->dir, sizeof(p->dir), "/tmp/ftscope-probe-XXXXXX");
	if (!mkdtemp(p->dir)) {
		snprintf(p->err, sizeof(p->err), "cannot make a temporary directory: %s", strerror(errno));
		p->dir[0] = 0;
		return -1;
	}
	snprintf(p->path, sizeof(p->path), "%s/probe.dat", p->dir);
	fts_setup_opts(choice, &o, cpus, sizeof(cpus));
	o.output = p->path;
	o.duration_s = 0;
	o.nspid = 0;
	/* the probe measures the load: one throw-away file, never a ring of segments */
	o.flight_segment_s = 0;
	o.flight_segment_bytes = 0;
	o.flight_keep = 0;
	if (m->rec_start(&o, &p->r, &err)) {
		snprintf(p->err, sizeof(p->err), "%s", err.msg);
		p->r = NULL;
		cleanup(p);
		return -1;
	}
	p->t0 = now;
	return 0;
}

/* The figures of snapshot @h: rates per CPU and the busiest CPU's data rate. */
static void measure(struct fts_rate_probe *p, const struct fts_record_health *h, unsigned bf_kb)
{
	double el = h->elapsed_s;

	free(p->pc);
	p->pc = calloc((size_t)h->ncpus + 1, sizeof(*p->pc));
	p->n = p->pc ? h->ncpus : 0;
	p->ev_s = el > 0 ? (double)h->events / el : 0;
	p->worst_bytes_s = 0;
	p->worst_cpu = h->ncpus ? h->cpu[0].cpu : 0;
	p->lost = h->lost;
	if (fts_record_health_loss(h, &p->loss))
		fts_loss_free(&p->loss);
	for (int i = 0; i < p->n; i++) {
		struct fts_rate_probe_cpu *c = &p->pc[i];

		c->cpu = h->cpu[i].cpu;
		c->ev_s = el > 0 ? (double)h->cpu[i].events / el : 0;
		/* bytes arrive a page at a time: use what was streamed, or the events at ~40 B each */
		c->bytes_s = el > 0 ? (double)h->cpu[i].bytes_written / el : 0;
		if (c->bytes_s < c->ev_s * 40)
			c->bytes_s = c->ev_s * 40;
		c->lost = h->cpu[i].lost;
		if (c->bytes_s > p->worst_bytes_s) {
			p->worst_bytes_s = c->bytes_s;
			p->worst_cpu = c->cpu;
		}
	}
	p->lasts_s = fts_buffer_lasts_s(bf_kb, p->worst_bytes_s);
	p->done = 1;
}

void fts_rate_probe_finish(struct fts_rate_probe *p, const struct fts_machine *m, unsigned bf_kb, int do_measure)
{
	struct fts_record_health h;
	struct fts_err err = { 0 };

	if (!p->r)
		return;
	if (do_measure && m->rec_health(p->r, &h) == 0) {
		measure(p, &h, bf_kb);
		fts_record_health_release(&h);
	}
	if (m->rec_stop(p->r, FTS_STOP_CUT, NULL, NULL, NULL, &err) && do_measure)
		snprintf(p->err, sizeof(p->err), "%s", err.msg);
	p->r = NULL;
	cleanup(p);
}

void fts_rate_probe_free(struct fts_rate_probe *p, const struct fts_machine *m)
{
	fts_rate_probe_finish(p, m, 0, 0);
	free(p->pc);
	p->pc = NULL;
	p->n = 0;
	fts_loss_free(&p->loss);
}
