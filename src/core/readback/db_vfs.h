/* SPDX-License-Identifier: MIT */
/*
 * db_vfs.h - how a DB input is opened: once, without blocking, through a VFS
 * that cannot write, with SQLite's advice for untrusted files, its work
 * bounded and cancellable, and SQLite's own reason in every failure.
 */
#ifndef FTS_RB_DB_VFS_H
#define FTS_RB_DB_VFS_H

#include <stdint.h>
#include <sqlite3.h>
#include <stdatomic.h>

#include "core/readback/readback.h"

#define FTS_RB_VFS "fts-ro"

/* fts_rb_vfs_register - register the read-only VFS once. Returns 0 or -ENOSYS. */
int fts_rb_vfs_register(void);

/* The progress handler's state: cancelling through ops->progress, and a work budget. */
struct fts_rb_guard {
	const struct fts_rb_ops *ops;
	uint64_t left;             /* progress-handler calls still allowed */
	uint64_t next_ms;          /* when ops->progress is called next */
	uint64_t done, total, rows;/* what the last report said, repeated while SQLite works */
	int cancelled, exhausted;
	int quiet;                 /* SQLite steps on another thread (db_scan.c): no ops->progress */
	atomic_int halt;           /* set by the caller's thread: stop SQLite at its next check */
};

/*
 * fts_rb_db_open - open the DB at @path for reading: the file once (no
 * symlink, no FIFO or device), its -wal read without -shm, nothing created
 * or written beside it. @g (ops set by the caller) gets the work budget and
 * becomes the progress handler's context. Returns 0 or a negative errno with
 * @err filled.
 */
int fts_rb_db_open(const char *path, struct fts_rb_guard *g, sqlite3 **out, struct fts_err *err);

/*
 * fts_rb_db_fail - @err for SQLite failure @rc while doing @what on @path:
 * cancelled, over budget, or SQLite's reason in words (locked, damaged or
 * truncated, not a database, needs rollback). Returns the negative code.
 */
int fts_rb_db_fail(sqlite3 *db, int rc, const struct fts_rb_guard *g, const char *path,
		   const char *what, struct fts_err *err);

/*
 * fts_rb_db_tables - check that "thread" and "slice" are plain tables, and
 * "flow" too when there is one (a view or virtual table can make a query run
 * forever); *@has_flow says whether there is. Returns 0 or a negative errno
 * with @err filled.
 */
int fts_rb_db_tables(sqlite3 *db, const struct fts_rb_guard *g, const char *path,
		     int *has_flow, struct fts_err *err);

/*
 * fts_rb_db_flows - the wakeup links of the DB's flow table (its 's' and 'f'
 * rows paired by flow_id) to @g->ops->flow, numbered from 1 in the order
 * their first row comes; @lane_of maps a track_id to its lane (0) or says it
 * is not a scheduling lane (-1): a link with such an end, with one end only
 * or a time Insight would wrap is left out, as such a slice is. Returns 0 or
 * a negative errno with @err filled.
 */
int fts_rb_db_flows(sqlite3 *db, struct fts_rb_guard *g, const char *path,
		    int (*lane_of)(const void *ctx, int64_t track, uint32_t *lane),
		    const void *lane_ctx, struct fts_err *err);

#endif
