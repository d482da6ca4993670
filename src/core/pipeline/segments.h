/* SPDX-License-Identifier: MIT */
/*
 * segments.h - a directory of flight-recorder segments (a snapshot, or the
 * recorder's own output directory) as one trace input: its
 * <stem>.NNNNNN.dat files, in segment order, read in one time-ordered merge.
 */
#ifndef FTS_PIPE_SEGMENTS_H
#define FTS_PIPE_SEGMENTS_H

#include "ftscope/error.h"
#include "ftscope/reader.h"
#include "core/trace/read_dats.h"

/* fts_segments_is_dir - 1 when @path is a directory (a segments input), else 0. */
int fts_segments_is_dir(const char *path);

/*
 * fts_segments_list - the trace.dat segments (<stem>.NNNNNN.dat) in @dir,
 * in number order, as "dir/name" strings (free with fts_segments_free).
 * Returns the count (> 0), or a negative errno with @err filled (none there,
 * or segments of more than one stem).
 */
int fts_segments_list(const char *dir, char ***paths, struct fts_err *err);

/* fts_segments_free - free what fts_segments_list returned. */
void fts_segments_free(char **paths, int n);

#endif
