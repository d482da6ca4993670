// SPDX-License-Identifier: MIT
/*
 * detect.c - what the pipeline was given, by content: an SQLite file (an
 * ftrace DB), a JSON document (our Chrome trace), or else a trace, which the
 * readers' own detection then checks.
 */
#include "ftscope/pipeline.h"

#include <string.h>
#include <sys/types.h>

#include "core/pipeline/pipeline_local.h"
#include "core/util/file_util.h"
#include "core/pipeline/segments.h"

#define SQLITE_MAGIC "SQLite format 3"

int fts_pipe_detect(const char *path, enum fts_pipeline_input *kind, enum fts_input_format *fmt,
		    struct fts_err *err)
{
	char head[64];
	size_t got;
	ssize_t n;
	int rc;

	*fmt = FTS_FMT_UNKNOWN;
	/* a directory of flight-recorder segments is one trace.dat input */
	if (fts__segments_is_dir(path)) {
		char **segs;
		int nseg = fts__segments_list(path, &segs, err);

		if (nseg < 0)
			return nseg;
		fts__segments_free(segs, nseg);
		*kind = FTS_PIPE_TRACE;
		*fmt = FTS_FMT_DAT;
		return 0;
	}
	/* never a plain open: a FIFO or device given as input would hang it */
	rc = fts_read_head(path, head, sizeof(head), &got, NULL, err);
	if (rc)
		return rc;
	n = (ssize_t)got;
	if (n >= (ssize_t)sizeof(SQLITE_MAGIC) && !memcmp(head, SQLITE_MAGIC, sizeof(SQLITE_MAGIC))) {
		*kind = FTS_PIPE_DB;
		return 0;
	}
	for (ssize_t i = 0; i < n; i++) {
		if (strchr(" \t\r\n", head[i]))
			continue;
		if (head[i] == '[' || head[i] == '{') {
			*kind = FTS_PIPE_JSON;
			return 0;
		}
		break;
	}
	*kind = FTS_PIPE_TRACE;
	return fts_input_detect(path, fmt, err);
}

int fts_pipeline_detect(const char *path, enum fts_pipeline_input *kind, struct fts_err *err)
{
	enum fts_input_format fmt;

	return fts_pipe_detect(path, kind, &fmt, err);
}
