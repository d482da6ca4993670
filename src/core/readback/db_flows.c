// SPDX-License-Identifier: MIT
/*
 * db_flows.c - the wakeup links of an ftrace DB read back: its flow table's
 * 's' (the waker) and 'f' (the woken task's run) rows, paired by flow_id
 * (flow_pair.c).
 */
#include "core/readback/db_vfs.h"

#include <errno.h>
#include <string.h>

#include "core/readback/flow_pair.h"

/* One flow row into @pr; a row that is no link's end is left out. */
static int flow_row(struct fts_rb_pairs *pr, sqlite3_stmt *st)
{
	const char *id = (const char *)sqlite3_column_text(st, 0);
	const char *name = (const char *)sqlite3_column_text(st, 1);
	const char *type = (const char *)sqlite3_column_text(st, 4);

	if (!id || !type || (strcmp(type, "s") && strcmp(type, "f")))
		return 0;
	return fts_rb_pairs_add(pr, id, (size_t)sqlite3_column_bytes(st, 0), name,
				(size_t)sqlite3_column_bytes(st, 1), type[0] == 'f',
				sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3));
}

int fts_rb_db_flows(sqlite3 *db, struct fts_rb_guard *g, const char *path,
		    int (*lane_of)(const void *ctx, int64_t track, uint32_t *lane),
		    const void *lane_ctx, struct fts_err *err)
{
	struct fts_rb_pairs pr;
	sqlite3_stmt *st;
	int step, rc = 0;

	step = sqlite3_prepare_v2(db, "SELECT flow_id, name, track_id, timestamp, type FROM flow",
				  -1, &st, NULL);
	if (step != SQLITE_OK) {
		if (step == SQLITE_ERROR && !g->cancelled && !g->exhausted)
			return fts_err_set(err, -EINVAL,
					   "%s: its flow table is not an ftrace DB's (no flow_id, name, track_id, timestamp, type): %s; its wakeup links cannot be carried over",
					   path, sqlite3_errmsg(db));
		return fts_rb_db_fail(db, step, g, path, "cannot read its flow table", err);
	}
	fts_rb_pairs_init(&pr);
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW)
		rc = flow_row(&pr, st);
	sqlite3_finalize(st);
	if (rc)
		rc = fts_err_set(err, rc, "out of memory (wakeup links)");
	else if (step != SQLITE_DONE)
		rc = fts_rb_db_fail(db, step, g, path, "reading its flow table failed", err);
	else
		rc = fts_rb_pairs_hand(&pr, g->ops, lane_of, lane_ctx, err);
	fts_rb_pairs_free(&pr);
	return rc;
}
