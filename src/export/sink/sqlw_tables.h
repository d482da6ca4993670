/* SPDX-License-Identifier: MIT */
/*
 * sqlw_tables.h - Insight's bulk tables written as pages: slice and flow
 * rows as they stream (on the sink's writer thread), then at finish their
 * interior pages and Insight's three indexes over them, built bottom-up from
 * sorted keys on two threads. SQLite created the file, its schema and the
 * empty trees; their root pages are given here. The rest (thread rows,
 * sqlite_sequence, summary tables) SQLite writes after fts_sqlw_tables_finish.
 */
#ifndef FTS_SQLW_TABLES_H
#define FTS_SQLW_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "core/util/strtab.h"
#include "export/sink/sqlw_btree.h"
#include "export/sink/sqlw_file.h"
#include "export/sink/sqlw_sort.h"

/* The trees written here, in the order of fts_sqlw_tables.root[]. */
enum fts_sqlw_obj {
	FTS_SQLW_SLICE,          /* table slice */
	FTS_SQLW_FLOW,           /* table flow */
	FTS_SQLW_TIME_INDEX,     /* track_id_timestamp_end_time_index: slice (timestamp, end_time, track_id) */
	FTS_SQLW_TRACK_INDEX,    /* track_id_cat_index: slice (track_id, cat) */
	FTS_SQLW_FLOW_INDEX,     /* flow_id_time_index: flow (cat, type) */
	FTS_SQLW_NOBJ
};

/* fts_sqlw_obj_name - the SQL name of tree @o (as in sqlite_master). */
const char *fts_sqlw_obj_name(enum fts_sqlw_obj o);

struct fts_sqlw_tables {
	struct fts_sqlw_file file;
	uint32_t root[FTS_SQLW_NOBJ];
	struct fts_sqlw_tree slice, flow;
	struct fts_sqlw_sort by_time, by_track, by_cat;
	struct fts_strtab flow_names;   /* flow cat values, for the flow index keys */
	int64_t slices, flows;          /* rows so far: the last rowid of each table */
	uint8_t *rec;                   /* scratch: one record */
	size_t rec_cap;
	int open;
};

/*
 * fts_sqlw_tables_open - start appending to the database at @fd (read/write)
 * whose trees have the root pages @root; index key runs spill beside @near.
 * Returns 0, -EINVAL for a file the page writer cannot extend, or a negative errno.
 */
int fts_sqlw_tables_open(struct fts_sqlw_tables *w, int fd, const uint32_t root[FTS_SQLW_NOBJ],
			 const char *near);

/*
 * fts_sqlw_tables_slice - append a slice (rowid = the next id) with
 * end_time = @ts + @dur, track_id @track, @name and @args as TEXT; depth,
 * cat, cname and flag_id NULL. Returns 0 or a negative errno.
 */
int fts_sqlw_tables_slice(struct fts_sqlw_tables *w, int64_t ts, int64_t dur, const char *name,
			  size_t name_len, const char *args, size_t args_len, int64_t track);

/*
 * fts_sqlw_tables_flow - append one flow row (rowid = the next id) with
 * flow_id @id, name and cat @name, track_id @track, timestamp @ts and type
 * @type ("s" or "f"). Returns 0 or a negative errno.
 */
int fts_sqlw_tables_flow(struct fts_sqlw_tables *w, const char *id, size_t id_len,
			 const char *name, size_t name_len, int64_t track, int64_t ts, char type);

/*
 * fts_sqlw_tables_finish - the tables' interior pages, the three indexes
 * (the time index on a second thread), and the header. Returns 0 or a
 * negative errno.
 */
int fts_sqlw_tables_finish(struct fts_sqlw_tables *w);

/* fts_sqlw_tables_free - release everything (any time after open). */
void fts_sqlw_tables_free(struct fts_sqlw_tables *w);

#endif
