/* SPDX-License-Identifier: MIT */
/*
 * record_loss.h - what `ftscope record` says about lost events while it
 * records and at the end: at most one line every few seconds, summarising
 * the loss since the previous line worst CPUs first (through the one loss
 * model, loss.h), with advice that carries numbers: the buffer that would
 * have kept up, the readers' own wait for a CPU, the time ftscope was stopped.
 */
#ifndef FTS_CLI_RECORD_LOSS_H
#define FTS_CLI_RECORD_LOSS_H

#include <ftscope/record.h>

#include <stddef.h>
#include <stdint.h>

#define FTS_REC_WARN_EVERY_MS 5000

/* The counters at the previous warning line; zero it, then set @bf_kb. */
struct fts_rec_warn {
	int ncpu;
	uint64_t *overrun, *commit, *dropped, *stopped;  /* per CPU index of the health */
	uint64_t last_ms;          /* when the last line went out; 0: never */
	double stopped_s;          /* health.stopped_s at the last line */
	double wait_ms;            /* longest reader wait in one period since the last line */
	unsigned bf_kb;            /* the buffer in use, KB per CPU */
	int lines;                 /* lines written so far */
};

/*
 * fts_rec_warn_line - the next warning line into @buf (no newline), when one
 * is due at @now_ms: something was lost since the last line and either
 * FTS_REC_WARN_EVERY_MS passed or ftscope was stopped meanwhile (said at
 * once). Returns 1 with @buf filled, 0 when nothing is due, -1 on ENOMEM.
 */
int fts_rec_warn_line(struct fts_rec_warn *w, const struct fts_record_health *h, uint64_t now_ms,
		      char *buf, size_t n);

/*
 * fts_rec_advice - what to change, with numbers, for the loss of @h: the
 * time stopped, the readers' wait (@wait_ms in one period), else the buffer
 * that would have kept up. "" when nothing was lost. Returns @buf.
 */
char *fts_rec_advice(const struct fts_record_health *h, unsigned bf_kb, double wait_ms, char *buf,
		     size_t n);

/* fts_rec_warn_free - release @w's arrays. */
void fts_rec_warn_free(struct fts_rec_warn *w);

#endif
