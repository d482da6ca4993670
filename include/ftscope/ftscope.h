/*
 * ftscope.h - the public C API of libftscope.
 *
 * Conversion (this file) and recording (ftscope_record.h). Every call returns
 * 0 or a negative errno-style code and fills a struct fts_err message; the
 * library never prints or exits.
 */
#ifndef FTSCOPE_H
#define FTSCOPE_H

#include <stdint.h>

#include "cleanup.h"
#include "error.h"
#include "event.h"
#include "reader.h"
#include "sched_model.h"
#include "timemap.h"

#include "record.h"

enum fts_out_format {
	FTS_OUT_DB,    /* MindStudio Insight ftrace DB (ftrace_data.db) */
	FTS_OUT_JSON,  /* Chrome-trace JSON */
};

struct fts_convert_opts {
	const char *input;           /* trace.dat or text; format detected from content */
	const char *output;          /* written atomically, never through a symlink */
	enum fts_out_format format;
	const char *profiling_data;  /* NULL: no alignment window */
	const char *pid_mapping;     /* NULL: host pids */
	int cs_rows;                 /* see struct fts_model_opts */
	fts_progress_fn progress;    /* may be NULL */
	void *progress_ctx;
};

struct fts_convert_result {
	enum fts_input_format input_format;
	struct fts_read_stats read;
	struct fts_model_stats model;
	struct fts_timemap time;
	uint32_t pidmap_entries;     /* entries in the pid mapping file */
	uint32_t pidmap_mapped;      /* of which map to another pid */
	double seconds;
};

/*
 * fts_convert - read opts->input, run the sched model and write opts->output.
 * On error nothing is left at opts->output (an existing file is untouched).
 * @res (may be NULL) receives counters for a summary. Returns 0 or negative.
 */
int fts_convert(const struct fts_convert_opts *opts, struct fts_convert_result *res,
		struct fts_err *err);

#endif
