/* SPDX-License-Identifier: MIT */
/* read_dats.h - several trace.dat files read as one (read_dat.c). */
#ifndef FTS_READ_DATS_H
#define FTS_READ_DATS_H

#include "ftscope/reader.h"

/*
 * fts_read_dats - read @n trace.dat files (consecutive segments of one
 * recording, version 6) as one trace: every file checked as fts_read_dat
 * checks one, then all their CPUs merged in time order (a boundary's pages
 * read late on one CPU still come out in order); @name in messages. The
 * kernel's loss is the last file's CPUSTAT less the first's.
 * Returns what fts_read_dat returns.
 */
int fts_read_dats(const char *const *paths, int n, const char *name, const struct fts_read_opts *opts,
		  struct fts_read_stats *st, struct fts_err *err);

#endif
