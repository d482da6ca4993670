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
#include "core/internal.h"

/* fts__segments_is_dir, fts__segments_list, fts__segments_free: in core/internal.h (the fronts name segments too). */

#endif
