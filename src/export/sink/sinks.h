/* SPDX-License-Identifier: MIT */
/* sinks.h - the output formats: each returns a struct fts_sink (core/lane.h). */
#ifndef FTS_SINKS_H
#define FTS_SINKS_H

#include "ftscope/lane.h"
#include "ftscope/output.h"

/*
 * fts_sqlite_sink_create - a sink writing Insight's ftrace DB to @path,
 * through a temp file in the same directory renamed into place at finish
 * and given to @owner (NULL: kept).
 */
int fts_sqlite_sink_create(const char *path, const struct fts_owner *owner, struct fts_sink **out,
			   struct fts_err *err);

/*
 * fts_json_sink_create - a sink writing Chrome-trace JSON to @path, through
 * a temp file renamed into place at finish and given to @owner (NULL: kept).
 */
int fts_json_sink_create(const char *path, const struct fts_owner *owner, struct fts_sink **out,
			 struct fts_err *err);

#endif
