/* SPDX-License-Identifier: MIT */
/* summary_tables.h - Insight's Ftrace Task Summary tables, written by us (summary_tables.c). */
#ifndef FTS_SUMMARY_TABLES_H
#define FTS_SUMMARY_TABLES_H

#include <sqlite3.h>

#include "ftscope/error.h"

/**
 * fts_summary_tables_write - compute trace_task_summary and trace_irq_detail
 * from the DB's own slices and mark the server's four ftrace units FINISH
 * @db: an open connection to a complete ftrace DB (rows committed)
 * @target: the file name used in error messages
 * @err: filled on error
 *
 * Runs in one transaction of its own: on error nothing of it is left.
 *
 * Returns 0 or a negative errno.
 */
int fts_summary_tables_write(sqlite3 *db, const char *target, struct fts_err *err);

#endif
