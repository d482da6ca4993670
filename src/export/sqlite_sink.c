/*
 * sqlite_sink.c - MindStudio Insight's ftrace DB (insight-import-contract.md).
 *
 * Insight opens the file as its own text-trace cache: the five tables with
 * its column names, integer ns times, end_time = timestamp + duration, every
 * args value a JSON string, process pid == process_name. Rows go in one
 * transaction through prepared statements with no index; Insight's three
 * indexes are built after the rows, which is much cheaper than maintaining
 * them per insert. slice.id is a plain INTEGER PRIMARY KEY (rowid: unique,
 * from 1) rather than Insight's AUTOINCREMENT, which costs a third of the
 * insert time and buys nothing for a file Insight never inserts slices into.
 * The file is written under a temp name and renamed into place only when
 * complete.
 */
#include "export/sinks.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/outfile.h"
#include "export/jsonw.h"

static const char *const schema =
	"PRAGMA page_size=65536;"
	"PRAGMA journal_mode=OFF;"
	"PRAGMA synchronous=OFF;"
	"PRAGMA locking_mode=EXCLUSIVE;"
	"PRAGMA cache_size=-8192;"
	"PRAGMA temp_store=FILE;"
	"CREATE TABLE process (pid TEXT PRIMARY KEY, process_name TEXT, label TEXT,"
	" process_sort_index INTEGER);"
	"CREATE TABLE thread (track_id INTEGER PRIMARY KEY, tid TEXT, pid TEXT,"
	" thread_name TEXT, thread_sort_index INTEGER);"
	"CREATE TABLE slice (id INTEGER PRIMARY KEY, timestamp INTEGER,"
	" duration INTEGER, name TEXT, depth INTEGER, track_id INTEGER, cat TEXT,"
	" args TEXT, cname TEXT, end_time INTEGER, flag_id TEXT);"
	"CREATE TABLE counter (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, pid TEXT,"
	" timestamp INTEGER, cat TEXT, args TEXT);"
	"CREATE TABLE flow (id INTEGER PRIMARY KEY AUTOINCREMENT, flow_id TEXT, name TEXT,"
	" cat TEXT, track_id INTEGER, timestamp INTEGER, type TEXT);"
	"INSERT INTO process VALUES ('" FTS_GROUP_CPU_NAME "', '" FTS_GROUP_CPU_NAME "', NULL, 0);"
	"INSERT INTO process VALUES ('" FTS_GROUP_TASK_NAME "', '" FTS_GROUP_TASK_NAME "', NULL, 1);"
	"BEGIN;";

/* Insight's own index names and columns (TextSqlConstant.h), so it skips building them. */
static const char *const indexes =
	"CREATE INDEX IF NOT EXISTS track_id_timestamp_end_time_index ON slice (timestamp, end_time, track_id);"
	"CREATE INDEX IF NOT EXISTS track_id_cat_index ON slice (track_id, cat);"
	"CREATE INDEX IF NOT EXISTS flow_id_time_index ON flow (cat, type);";

struct sqlite_sink {
	struct fts_sink base;
	struct fts_outfile out;
	sqlite3 *db;
	sqlite3_stmt *ins_slice;
	sqlite3_stmt *ins_thread;
	struct fts_buf args;
};

static int db_error(struct sqlite_sink *s, struct fts_err *err, const char *what)
{
	int code = sqlite3_errcode(s->db);
	int rc = code == SQLITE_FULL ? -ENOSPC : code == SQLITE_NOMEM ? -ENOMEM : -EIO;

	return fts_err_set(err, rc, "%s: %s: %s%s", s->out.target, what, sqlite3_errmsg(s->db),
			   code == SQLITE_FULL ? " (free some space, or write elsewhere with --output)" : "");
}

static int sq_lane(struct fts_sink *base, const struct fts_lane *l, struct fts_err *err)
{
	struct sqlite_sink *s = (struct sqlite_sink *)base;
	const char *group = l->group == FTS_GROUP_CPU ? FTS_GROUP_CPU_NAME : FTS_GROUP_TASK_NAME;
	sqlite3_stmt *st = s->ins_thread;

	sqlite3_bind_int64(st, 1, (sqlite3_int64)l->id + 1);
	sqlite3_bind_text(st, 2, l->tid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, group, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, l->tid, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, l->sort_index);
	if (sqlite3_step(st) != SQLITE_DONE) {
		sqlite3_reset(st);
		return db_error(s, err, "cannot insert lane");
	}
	sqlite3_reset(st);
	return 0;
}

static int sq_item(struct fts_sink *base, const struct fts_item *it, struct fts_err *err)
{
	struct sqlite_sink *s = (struct sqlite_sink *)base;
	sqlite3_stmt *st = s->ins_slice;

	s->args.len = 0;
	fts_buf_put_args(&s->args, it);
	if (s->args.oom)
		return fts_err_set(err, -ENOMEM, "out of memory");
	sqlite3_bind_int64(st, 1, (sqlite3_int64)it->ts);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)it->dur);
	sqlite3_bind_text(st, 3, it->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)it->lane + 1);
	sqlite3_bind_text(st, 5, s->args.p, (int)s->args.len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)(it->ts + it->dur));
	if (sqlite3_step(st) != SQLITE_DONE) {
		sqlite3_reset(st);
		return db_error(s, err, "cannot insert slice");
	}
	sqlite3_reset(st);
	return 0;
}

static void sq_close(struct sqlite_sink *s)
{
	sqlite3_finalize(s->ins_slice);
	sqlite3_finalize(s->ins_thread);
	s->ins_slice = s->ins_thread = NULL;
	if (s->db)
		sqlite3_close(s->db);
	s->db = NULL;
}

static int sq_finish(struct fts_sink *base, int ok, struct fts_err *err)
{
	static const char *const sidecars[] = { "-wal", "-shm", "-journal", NULL };
	struct sqlite_sink *s = (struct sqlite_sink *)base;
	int rc = 0;

	if (ok) {
		if (sqlite3_exec(s->db, "COMMIT;", NULL, NULL, NULL) != SQLITE_OK)
			rc = db_error(s, err, "cannot commit");
		else if (sqlite3_exec(s->db, indexes, NULL, NULL, NULL) != SQLITE_OK)
			rc = db_error(s, err, "cannot build indexes");
	}
	sq_close(s);
	if (!ok || rc) {
		fts_outfile_abort(&s->out);
		return rc;
	}
	return fts_outfile_commit(&s->out, sidecars, err);
}

static void sq_destroy(struct fts_sink *base)
{
	struct sqlite_sink *s = (struct sqlite_sink *)base;

	sq_close(s);
	fts_outfile_abort(&s->out);
	fts_buf_free(&s->args);
	free(s);
}

int fts_sqlite_sink_create(const char *path, struct fts_sink **out, struct fts_err *err)
{
	struct sqlite_sink *s = calloc(1, sizeof(*s));
	int rc;

	*out = NULL;
	if (!s)
		return fts_err_set(err, -ENOMEM, "out of memory");
	s->out.fd = -1;
	s->base.lane = sq_lane;
	s->base.item = sq_item;
	s->base.finish = sq_finish;
	s->base.destroy = sq_destroy;
	rc = fts_outfile_begin(&s->out, path, err);
	if (rc)
		goto fail;
	if (sqlite3_open_v2(s->out.tmp, &s->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK) {
		rc = db_error(s, err, "cannot open");
		goto fail;
	}
	if (sqlite3_exec(s->db, schema, NULL, NULL, NULL) != SQLITE_OK) {
		rc = db_error(s, err, "cannot create tables");
		goto fail;
	}
	if (sqlite3_prepare_v2(s->db,
			       "INSERT INTO slice (timestamp, duration, name, track_id, args, end_time)"
			       " VALUES (?, ?, ?, ?, ?, ?)", -1, &s->ins_slice, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db,
			       "INSERT INTO thread (track_id, tid, pid, thread_name, thread_sort_index)"
			       " VALUES (?, ?, ?, ?, ?)", -1, &s->ins_thread, NULL) != SQLITE_OK) {
		rc = db_error(s, err, "cannot prepare statements");
		goto fail;
	}
	*out = &s->base;
	return 0;
fail:
	sq_destroy(&s->base);
	return rc;
}
