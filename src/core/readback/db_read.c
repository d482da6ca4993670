// SPDX-License-Identifier: MIT
/*
 * db_read.c - an ftrace DB read back: its lanes (thread rows of the "CPU
 * Scheduling" and "Process Scheduling" processes) and every slice, in file
 * order. Works on ours and on the reference converter's (no sort index,
 * args with numbers, overlapping slices); Insight's added tables are ignored.
 */
#include "core/readback/readback.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#define PROGRESS_ROWS 65536

struct track {
	int64_t track_id;
	uint32_t lane;
	enum fts_lane_group group;
	int32_t cpu;
	char *tid;
};

struct db_lanes {
	struct track *t;
	size_t n;
};

static int by_track(const void *a, const void *b)
{
	const struct track *x = a, *y = b;

	return x->track_id < y->track_id ? -1 : x->track_id > y->track_id;
}

/* CPU lanes first, by CPU number; then task lanes in track order. */
static int by_lane_order(const void *a, const void *b)
{
	const struct track *x = a, *y = b;

	if (x->group != y->group)
		return x->group == FTS_GROUP_CPU ? -1 : 1;
	if (x->group == FTS_GROUP_CPU && x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return by_track(a, b);
}

static int32_t cpu_of(const char *tid)
{
	if (strncmp(tid, "CPU ", 4))
		return -1;
	return (int32_t)strtol(tid + 4, NULL, 10);
}

static void lanes_free(struct db_lanes *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->t[i].tid);
	free(l->t);
}

static int db_fail(sqlite3 *db, const char *path, const char *what, struct fts_err *err)
{
	return fts_err_set(err, -EINVAL, "%s: %s: %s", path, what, sqlite3_errmsg(db));
}

static int load_lanes(sqlite3 *db, const char *path, struct db_lanes *l, struct fts_err *err)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int step;

	if (sqlite3_prepare_v2(db, "SELECT track_id, tid, pid FROM thread", -1, &st, NULL))
		return fts_err_set(err, -EINVAL,
				   "%s: not an ftrace DB (no thread table with track_id, tid, pid)", path);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *tid = (const char *)sqlite3_column_text(st, 1);
		const char *pid = (const char *)sqlite3_column_text(st, 2);
		struct track *t;

		if (!tid || !pid)
			continue;
		if (strcmp(pid, FTS_GROUP_CPU_NAME) && strcmp(pid, FTS_GROUP_TASK_NAME))
			continue; /* not a scheduling lane (a counter, profiling data) */
		if (l->n == cap) {
			cap = cap ? cap * 2 : 256;
			t = realloc(l->t, cap * sizeof(*t));
			if (!t)
				goto oom;
			l->t = t;
		}
		t = &l->t[l->n];
		t->track_id = sqlite3_column_int64(st, 0);
		t->group = strcmp(pid, FTS_GROUP_CPU_NAME) ? FTS_GROUP_TASK : FTS_GROUP_CPU;
		t->cpu = t->group == FTS_GROUP_CPU ? cpu_of(tid) : -1;
		t->tid = strdup(tid);
		if (!t->tid)
			goto oom;
		l->n++;
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		return db_fail(db, path, "reading its thread table failed", err);
	return 0;
oom:
	sqlite3_finalize(st);
	return fts_err_set(err, -ENOMEM, "out of memory");
}

static int declare_lanes(struct db_lanes *l, const struct fts_rb_ops *ops, struct fts_err *err)
{
	qsort(l->t, l->n, sizeof(*l->t), by_lane_order);
	for (size_t i = 0; i < l->n; i++) {
		struct fts_lane lane = { (uint32_t)i, l->t[i].group,
					 l->t[i].group == FTS_GROUP_CPU ? l->t[i].cpu : 0, l->t[i].tid };
		int rc;

		l->t[i].lane = (uint32_t)i;
		rc = ops->lane(ops->ctx, &lane, err);
		if (rc)
			return rc;
	}
	qsort(l->t, l->n, sizeof(*l->t), by_track);
	return 0;
}

static const struct track *find_track(const struct db_lanes *l, int64_t id)
{
	size_t lo = 0, hi = l->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (l->t[mid].track_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->n && l->t[lo].track_id == id ? &l->t[lo] : NULL;
}

static uint64_t max_rowid(sqlite3 *db)
{
	sqlite3_stmt *st;
	uint64_t n = 0;

	if (sqlite3_prepare_v2(db, "SELECT max(rowid) FROM slice", -1, &st, NULL))
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = (uint64_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static int read_slices(sqlite3 *db, const char *path, const struct db_lanes *l,
		       const struct fts_rb_ops *ops, uint64_t *rows, struct fts_err *err)
{
	uint64_t total = max_rowid(db), n = 0;
	const struct track *last = NULL;
	sqlite3_stmt *st;
	int step, rc = 0;   /* SQLite's code; ours (0, negative errno, the row callback's) */

	if (sqlite3_prepare_v2(db, "SELECT rowid, track_id, timestamp, duration, name, args FROM slice",
			       -1, &st, NULL))
		return fts_err_set(err, -EINVAL,
				   "%s: not an ftrace DB (no slice table with track_id, timestamp, duration, name, args)",
				   path);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t track = sqlite3_column_int64(st, 1), ts = sqlite3_column_int64(st, 2);
		int64_t dur = sqlite3_column_int64(st, 3);
		struct fts_rb_row row;

		if (!last || last->track_id != track)
			last = find_track(l, track);
		if (!last || ts <= 0)
			continue; /* a non-scheduling lane, or a time Insight would wrap */
		row.lane = last->lane;
		row.ts = (uint64_t)ts;
		row.dur = dur > 0 ? (uint64_t)dur : 0;
		row.name = (const char *)sqlite3_column_text(st, 4);
		row.name_len = (size_t)sqlite3_column_bytes(st, 4);
		if (!row.name)
			row.name = "";
		row.args = (const char *)sqlite3_column_text(st, 5);
		row.args_len = row.args ? (size_t)sqlite3_column_bytes(st, 5) : 0;
		row.kind = fts_rb_kind(last->group, row.name, row.name_len, row.dur, row.args,
				       row.args_len);
		rc = ops->row(ops->ctx, &row, err);
		if (rc)
			break;
		if (++n % PROGRESS_ROWS == 0 && ops->progress &&
		    ops->progress(ops->ctx, (uint64_t)sqlite3_column_int64(st, 0), total, n)) {
			rc = fts_err_set(err, -ECANCELED, "cancelled");
			break;
		}
	}
	sqlite3_finalize(st);
	*rows = n;
	if (rc)
		return rc;
	return step == SQLITE_DONE ? 0 : db_fail(db, path, "reading its slice table failed", err);
}

/*
 * An ftrace DB is a file anyone may have written, read here as root: open it
 * the way SQLite's security page advises for untrusted database files.
 * Read-only, never through a symlink, and query_only so no statement can
 * write; defensive mode (no writable_schema or shadow-table tricks);
 * trusted_schema off (views and triggers may not call functions with side
 * effects); cell sizes checked on every read (corrupt pages are refused, not
 * followed); no mmap (a file truncated under us must not fault).
 */
static int open_untrusted(const char *path, sqlite3 **out, struct fts_err *err)
{
	static const char pragmas[] = "PRAGMA trusted_schema=OFF; PRAGMA cell_size_check=ON;"
				      " PRAGMA mmap_size=0; PRAGMA query_only=ON;";
	sqlite3 *db = NULL;

	*out = NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		int rc = fts_err_set(err, -EIO, "%s: cannot open as SQLite: %s", path,
				     db ? sqlite3_errmsg(db) : "out of memory");

		sqlite3_close(db);
		return rc;
	}
	if (sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL) != SQLITE_OK ||
	    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL) != SQLITE_OK ||
	    sqlite3_exec(db, pragmas, NULL, NULL, NULL) != SQLITE_OK) {
		int rc = fts_err_set(err, -EIO, "%s: cannot open as SQLite safely: %s", path,
				     sqlite3_errmsg(db));

		sqlite3_close(db);
		return rc;
	}
	*out = db;
	return 0;
}

int fts_db_readback(const char *path, const struct fts_rb_ops *ops, uint64_t *rows,
		    struct fts_err *err)
{
	struct db_lanes l = { NULL, 0 };
	uint64_t local = 0;
	sqlite3 *db = NULL;
	int rc;

	if (!rows)
		rows = &local;
	*rows = 0;
	rc = open_untrusted(path, &db, err);
	if (!rc)
		rc = load_lanes(db, path, &l, err);
	if (!rc && l.n == 0)
		rc = fts_err_set(err, -ENODATA,
				 "%s: not an ftrace DB (no \"CPU Scheduling\" or \"Process Scheduling\" lanes)",
				 path);
	if (!rc)
		rc = declare_lanes(&l, ops, err);
	if (!rc)
		rc = read_slices(db, path, &l, ops, rows, err);
	lanes_free(&l);
	sqlite3_close(db);
	return rc;
}
