// SPDX-License-Identifier: MIT
/*
 * db_read.c - an ftrace DB read back: its lanes (thread rows of the "CPU
 * Scheduling" and "Process Scheduling" processes) and every slice, in file
 * order, then its wakeup links (db_flows.c). Works on ours and on the
 * reference converter's (no sort index, args with numbers, overlapping
 * slices); Insight's added tables are ignored.
 */
#include "core/readback/readback.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "core/readback/db_scan.h"

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

/*
 * The CPU of a "CPU 007" lane: -1 for another name (kept, as before), -2 for
 * a number past what the model takes (refused: it would size per-CPU tables).
 */
int32_t fts_rb_cpu_of(const char *tid)
{
	int32_t cpu = 0;
	const char *p = tid + 4;

	if (strncmp(tid, "CPU ", 4) || *p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		cpu = cpu * 10 + (*p - '0');
		if (cpu >= FTS_RB_CPU_MAX)
			return -2;
	}
	return cpu;
}

static void lanes_free(struct db_lanes *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->t[i].tid);
	free(l->t);
}

/* A statement that does not compile: a missing column is not our DB; the rest SQLite's reason. */
static int prep_fail(sqlite3 *db, int rc, const struct fts_rb_guard *g, const char *path,
		     const char *table, struct fts_err *err)
{
	if (rc == SQLITE_ERROR && !g->cancelled && !g->exhausted)
		return fts_err_set(err, -EINVAL, "%s: not an ftrace DB (no %s table with %s): %s", path,
				   table, strcmp(table, "thread") ? "track_id, timestamp, duration, name, args" :
				   "track_id, tid, pid", sqlite3_errmsg(db));
	return fts_rb_db_fail(db, rc, g, path, "cannot read it", err);
}

static int load_lanes(sqlite3 *db, struct fts_rb_guard *g, const char *path, struct db_lanes *l,
		      struct fts_err *err)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int step;

	step = sqlite3_prepare_v2(db, "SELECT track_id, tid, pid FROM thread", -1, &st, NULL);
	if (step != SQLITE_OK)
		return prep_fail(db, step, g, path, "thread", err);
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
		t->cpu = t->group == FTS_GROUP_CPU ? fts_rb_cpu_of(tid) : -1;
		if (t->cpu == -2) {
			sqlite3_finalize(st);
			return fts_err_set(err, -ERANGE,
					   "%s: a CPU lane's number is out of range (CPUs go up to %d); refused",
					   path, FTS_RB_CPU_MAX - 1);
		}
		t->tid = strdup(tid);
		if (!t->tid)
			goto oom;
		l->n++;
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		return fts_rb_db_fail(db, step, g, path, "reading its thread table failed", err);
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

/* A flow end's lane: its track's, when that is a scheduling lane (fts_rb_db_flows). */
static int lane_of(const void *ctx, int64_t id, uint32_t *lane)
{
	const struct track *t = find_track(ctx, id);

	if (!t)
		return -1;
	*lane = t->lane;
	return 0;
}

/* The progress total; 0 when it cannot be had (the scan then says why). */
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

/* The scan's state, on the caller's thread (db_scan.c hands the rows over). */
struct slice_scan {
	struct fts_rb_guard *g;
	const struct db_lanes *l;
	const struct track *last;
	uint64_t n, total;
};

static int slice_row(void *ctx, const struct fts_rb_raw *r, struct fts_err *err)
{
	struct slice_scan *sc = ctx;
	const struct fts_rb_ops *ops = sc->g->ops;
	struct fts_rb_row row;
	int rc;

	if (!sc->last || sc->last->track_id != r->track)
		sc->last = find_track(sc->l, r->track);
	if (!sc->last || r->ts <= 0)
		return 0; /* a non-scheduling lane, or a time Insight would wrap */
	row.lane = sc->last->lane;
	row.ts = (uint64_t)r->ts;
	row.dur = r->dur > 0 ? (uint64_t)r->dur : 0;
	row.name = r->name ? r->name : "";
	row.name_len = r->name ? r->name_len : 0;
	row.args = r->args;
	row.args_len = r->args_len;
	row.parsed = r->parsed;
	row.nparsed = r->nparsed;
	row.kind = fts_rb_kind(sc->last->group, row.name, row.name_len, row.dur, row.args,
			       row.args_len);
	rc = ops->row(ops->ctx, &row, err);
	if (rc)
		return rc;
	sc->g->rows = ++sc->n;
	sc->g->done = (uint64_t)r->rowid;
	if (sc->n % PROGRESS_ROWS == 0 && ops->progress &&
	    ops->progress(ops->ctx, sc->g->done, sc->total, sc->n))
		return fts_err_set(err, -ECANCELED, "cancelled");
	return 0;
}

/* No row for a while: the figures so far again, and the user's chance to stop. */
static int slice_wait(void *ctx, struct fts_err *err)
{
	struct slice_scan *sc = ctx;
	const struct fts_rb_ops *ops = sc->g->ops;

	if (ops->progress && ops->progress(ops->ctx, sc->g->done, sc->total, sc->n))
		return fts_err_set(err, -ECANCELED, "cancelled");
	return 0;
}

static int read_slices(sqlite3 *db, struct fts_rb_guard *g, const char *path,
		       const struct db_lanes *l, uint64_t *rows, struct fts_err *err)
{
	struct slice_scan sc = { .g = g, .l = l };
	sqlite3_stmt *st;
	int step, rc;   /* SQLite's code; ours (0, negative errno, the row callback's) */

	sc.total = max_rowid(db);
	if (g->cancelled || g->exhausted)
		return fts_rb_db_fail(db, SQLITE_INTERRUPT, g, path, "cannot read it", err);
	g->total = sc.total;
	step = sqlite3_prepare_v2(db, "SELECT rowid, track_id, timestamp, duration, name, args FROM slice",
				  -1, &st, NULL);
	if (step != SQLITE_OK)
		return prep_fail(db, step, g, path, "slice", err);
	rc = fts_rb_scan(st, g, slice_row, slice_wait, &sc, &step, err);
	sqlite3_finalize(st);
	*rows = sc.n;
	if (rc)
		return rc;
	return step == SQLITE_DONE ? 0 : fts_rb_db_fail(db, step, g, path, "reading its slice table failed", err);
}

int fts_db_readback(const char *path, const struct fts_rb_ops *ops, uint64_t *rows,
		    struct fts_err *err)
{
	struct fts_rb_guard g = { .ops = ops };
	struct db_lanes l = { NULL, 0 };
	uint64_t local = 0;
	sqlite3 *db = NULL;
	int rc, has_flow = 0;

	if (!rows)
		rows = &local;
	*rows = 0;
	rc = fts_rb_db_open(path, &g, &db, err);
	if (!rc)
		rc = fts_rb_db_tables(db, &g, path, &has_flow, err);
	if (!rc)
		rc = load_lanes(db, &g, path, &l, err);
	if (!rc && l.n == 0)
		rc = fts_err_set(err, -ENODATA,
				 "%s: not an ftrace DB (no \"CPU Scheduling\" or \"Process Scheduling\" lanes)",
				 path);
	if (!rc)
		rc = declare_lanes(&l, ops, err);
	if (!rc)
		rc = read_slices(db, &g, path, &l, rows, err);
	if (!rc && has_flow && ops->flow)
		rc = fts_rb_db_flows(db, &g, path, lane_of, &l, err);
	lanes_free(&l);
	sqlite3_close(db);
	return rc;
}

int fts_db_has_summary(const char *path)
{
	static const char q[] = "SELECT count(*) FROM main.sqlite_schema WHERE type = 'table' AND"
				" name IN ('status_info', 'trace_task_summary', 'trace_irq_detail')";
	struct fts_rb_guard g = { .ops = NULL };
	struct fts_err err = { 0 };
	sqlite3 *db = NULL;
	sqlite3_stmt *st;
	int n = 0;

	if (fts_rb_db_open(path, &g, &db, &err))
		return 0;
	if (sqlite3_prepare_v2(db, q, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return n == 3;
}
