/* SPDX-License-Identifier: MIT */
/*
 * rate_probe.h - the setup screen's probe: a 1 s throw-away capture of the
 * chosen CPUs and events in a private temporary directory, measured and
 * deleted, so the user sees the event rate, the busiest CPU's data rate
 * and how long the buffer would last before recording for real. No curses;
 * the recorder comes through the session's struct fts_machine.
 */
#ifndef FTS_TUI_RATE_PROBE_H
#define FTS_TUI_RATE_PROBE_H

#include <stdint.h>

#include "tui/session/session.h"
#include "tui/session/setup_model.h"

struct fts_rate_probe_cpu {
	int cpu;
	double ev_s, bytes_s;
	uint64_t lost;
};

struct fts_rate_probe {
	struct fts_recorder *r;        /* running, or NULL */
	char dir[64], path[128];       /* the throw-away capture */
	double t0;                     /* when it started (monotonic s) */
	int done;                      /* figures below are valid */
	int n;
	struct fts_rate_probe_cpu *pc; /* per CPU, in CPU order */
	double ev_s;                   /* events/s over all CPUs */
	double worst_bytes_s;          /* the busiest CPU's raw data rate */
	int worst_cpu;
	double lasts_s;                /* how long its buffer lasts undrained, -1: indefinitely */
	uint64_t lost;
	struct fts_loss loss;          /* what the probe lost, in the one loss model */
	unsigned bf_kb;                /* the buffer it recorded with */
	char choice[1400];             /* fts_rate_probe_choice of what it measured */
	char err[600];                 /* why it failed, "" when not */
};

/* How long the probe records. */
#define FTS_RATE_PROBE_S 1.0

/**
 * fts_rate_probe_choice - what a probe's figures depend on (CPUs, events, backend), as text
 * @choice: the setup's choices
 * @buf: output
 * @len: its size
 *
 * A probe measured another choice when its @choice differs. The buffer is not
 * part of it: the verdict is recomputed from the rate for any buffer.
 *
 * Returns @buf.
 */
const char *fts_rate_probe_choice(const struct fts_setup *choice, char *buf, size_t len);

/**
 * fts_rate_probe_start - start recording @choice into a temporary file
 * @p: the probe (zeroed before the first use)
 * @m: the machine
 * @choice: what the setup screen chose
 * @now: the monotonic clock, seconds
 *
 * Returns 0, or -1 with @p->err set.
 */
int fts_rate_probe_start(struct fts_rate_probe *p, const struct fts_machine *m, const struct fts_setup *choice,
			 double now);

/**
 * fts_rate_probe_finish - measure (when @measure), stop without draining, delete the file
 * @p: the probe (nothing happens when it is not running)
 * @m: the machine
 * @bf_kb: the per-CPU buffer the figures are judged against
 * @measure: 0: the user stopped it, keep no figures
 */
void fts_rate_probe_finish(struct fts_rate_probe *p, const struct fts_machine *m, unsigned bf_kb, int measure);

/**
 * fts_rate_probe_free - stop a running probe and free the figures
 * @p: the probe; safe twice
 * @m: the machine
 */
void fts_rate_probe_free(struct fts_rate_probe *p, const struct fts_machine *m);

#endif
