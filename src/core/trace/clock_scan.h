/* SPDX-License-Identifier: MIT */
/*
 * clock_scan.h - the capture's clock samples, from the first events alone.
 *
 * ftscope's recorder stores a (realtime, mono_raw) pair at the start of a
 * trace (and a stop sample in its closing marker); a conversion needs it
 * before the first item is placed. The scan reads at most
 * FTS_CLOCK_SCAN_EVENTS events, fields unparsed, and stops as soon as it has
 * what it looks for. The pipeline runs it in process; for a trace.dat the
 * probe helper runs it too, in its sandbox, on the file it already opened
 * (dat_probe.c), so the headers are not parsed once more for it here.
 */
#ifndef FTS_CLOCK_SCAN_H
#define FTS_CLOCK_SCAN_H

#include "ftscope/reader.h"

#define FTS_CLOCK_SCAN_EVENTS 200000

/* A reader: fts_read_text, fts_read_dat, or one choosing between them. */
typedef int (*fts_clock_read_fn)(const char *path, const struct fts_read_opts *ro,
				 struct fts_read_stats *st, struct fts_err *err);

struct fts_clock_scan {
	struct fts_clock_pair clock; /* valid = 0: none found */
	int32_t partial;             /* stopped at the limit, a stop sample still wanted */
};

/*
 * fts_clock_scan - the clock samples among @path's first events, read by
 * @read: the start sample; with @need_stop, also a stop sample when the start
 * sample has CLOCK_MONOTONIC (else @out->partial says the rest was not
 * read). Returns 0, or the reader's negative error (@out then empty).
 */
int fts_clock_scan(fts_clock_read_fn read, const char *path, int need_stop, struct fts_clock_scan *out);

/* fts_clock_read_all - the clock samples of all of @path (a partial scan's sequel); 0 or -1 with none. */
int fts_clock_read_all(fts_clock_read_fn read, const char *path, struct fts_clock_pair *cp);

#endif
