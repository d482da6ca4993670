/* SPDX-License-Identifier: MIT */
/* db_scan.h - a statement's rows stepped on a second thread, handed over in order (db_scan.c). */
#ifndef FTS_RB_DB_SCAN_H
#define FTS_RB_DB_SCAN_H

#include "core/readback/db_vfs.h"

/* One row of "SELECT rowid, track_id, timestamp, duration, name, args ...", copied out. */
struct fts_rb_raw {
	int64_t rowid, track, ts, dur;
	const char *name, *args;     /* NUL-terminated; NULL for SQL NULL */
	size_t name_len, args_len;
	const struct fts_arg *parsed; /* @args split (fts_rb_row.parsed); NULL: not */
	int nparsed;
};

/* A row, on the caller's thread; non-zero stops the scan and is returned. */
typedef int (*fts_rb_raw_fn)(void *ctx, const struct fts_rb_raw *row, struct fts_err *err);
/* No row for a while (SQLite busy on rows it skips): report; non-zero stops the scan. */
typedef int (*fts_rb_wait_fn)(void *ctx, struct fts_err *err);

/*
 * fts_rb_scan - every row of @st (columns as struct fts_rb_raw) to @fn in
 * order, SQLite stepping on a thread of its own (inline when none can be
 * started); @wait (may be NULL) about every 100 ms without a row. @g's
 * progress handler makes no callback meanwhile and stops at @g->halt.
 * Returns @fn's or @wait's non-zero return (the scan stopped), -ENOMEM, or
 * 0 with *@step = SQLite's last code (SQLITE_DONE, or why it stopped).
 */
int fts_rb_scan(sqlite3_stmt *st, struct fts_rb_guard *g, fts_rb_raw_fn fn, fts_rb_wait_fn wait,
		void *ctx, int *step, struct fts_err *err);

#endif
