// SPDX-License-Identifier: MIT
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
#include "ftscope/pipeline.h"

#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/outfile.h"
#include "kit/kit.h"
#include "export/sink/batchq.h"
#include "export/sink/jsonw.h"
#include "export/sink/summary_tables.h"

static const char *const schema =
	"PRAGMA page_size=65536;"
	"PRAGMA journal_mode=OFF;"
	"PRAGMA synchronous=OFF;"
	"PRAGMA locking_mode=EXCLUSIVE;"
	"PRAGMA cache_size=-4096;"
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
	/*
	 * Insight's time index is kept up to date during the inserts, on the
	 * writer thread: slices come nearly in start order (99% land within
	 * 1,000 entries of the index's end), so each insert touches the last
	 * cached pages; building it after the rows was about a third of the
	 * serial tail, where one core idles. The flow index costs a little
	 * more CPU kept than built (its 's' and 'f' halves both grow), but
	 * moving it too leaves the writer and the main thread even.
	 */
	"CREATE INDEX track_id_timestamp_end_time_index ON slice (timestamp, end_time, track_id);"
	"CREATE INDEX flow_id_time_index ON flow (cat, type);"
	"BEGIN;";

/*
 * Insight's own index names and columns (TextSqlConstant.h), so it skips
 * building them. The time and flow indexes exist from the start (schema).
 */
static const char *const indexes =
	"CREATE INDEX IF NOT EXISTS track_id_timestamp_end_time_index ON slice (timestamp, end_time, track_id);"
	"CREATE INDEX IF NOT EXISTS track_id_cat_index ON slice (track_id, cat);"
	"CREATE INDEX IF NOT EXISTS flow_id_time_index ON flow (cat, type);";

#define BATCH_BYTES (1u << 20)

/*
 * Slices (or wakeup links) per INSERT statement: one sqlite3_step/reset per
 * REC_ROWS records instead of per record, which spares SQLite's per-statement
 * setup. Rows keep their order, so their ids are unchanged.
 */
#define REC_ROWS 32

struct sqlite_sink {
	struct fts_sink base;
	struct fts_outfile out;
	sqlite3 *db;
	sqlite3_stmt *ins_slice;
	sqlite3_stmt *ins_slices;  /* REC_ROWS slices in one statement */
	sqlite3_stmt *ins_thread;
	sqlite3_stmt *ins_flow;
	sqlite3_stmt *ins_flows;   /* REC_ROWS wakeup links (2 rows each) in one statement */
	struct fts_buf args;       /* producer's scratch for one item's args JSON */
	struct fts_buf name;       /* producer's scratch for a name made valid UTF-8 */

	/*
	 * Rows travel in batches to a writer thread that alone uses the
	 * connection until finish: parsing and modelling on one core,
	 * SQLite's b-tree work on the other.
	 */
	struct fts_batchq q;
	pthread_t writer;
	int writer_running;
	struct fts_err werr;       /* the writer's failure, read after join */
	int summary;               /* write the Ftrace Task Summary tables at finish */
};

/*
 * A flow record reuses the header: lane/ts are its start, sort_index/dur its
 * end's lane and time, the name its name and the "args" part its id in decimal.
 */
enum rec_type { REC_LANE = 'L', REC_ITEM = 'I', REC_FLOW = 'F' };

/* Fixed part of a record in a batch; strings follow it. */
struct rec_hdr {
	uint8_t type;
	uint8_t group;
	uint16_t name_len;
	uint32_t args_len;
	uint32_t lane;
	int32_t sort_index;
	uint64_t ts;
	uint64_t dur;
};

static int db_error(struct sqlite_sink *s, struct fts_err *err, const char *what)
{
	int code = sqlite3_errcode(s->db);
	int rc = code == SQLITE_FULL ? -ENOSPC : code == SQLITE_NOMEM ? -ENOMEM : -EIO;

	return fts_err_set(err, rc, "%s: %s: %s%s", s->out.target, what, sqlite3_errmsg(s->db),
			   code == SQLITE_FULL ? " (free some space, or write elsewhere)" : "");
}

static int write_lane(struct sqlite_sink *s, const struct rec_hdr *h, const char *tid)
{
	const char *group = h->group == FTS_GROUP_CPU ? FTS_GROUP_CPU_NAME : FTS_GROUP_TASK_NAME;
	sqlite3_stmt *st = s->ins_thread;
	int rc;

	sqlite3_bind_int64(st, 1, (sqlite3_int64)h->lane + 1);
	sqlite3_bind_text(st, 2, tid, h->name_len, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, group, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, tid, h->name_len, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, h->sort_index);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : db_error(s, &s->werr, "cannot insert lane");
}

/* Bind one slice's six values from parameter @p + 1 on. */
static void bind_item(sqlite3_stmt *st, int p, const struct rec_hdr *h, const char *name)
{
	sqlite3_bind_int64(st, p + 1, (sqlite3_int64)h->ts);
	sqlite3_bind_int64(st, p + 2, (sqlite3_int64)h->dur);
	sqlite3_bind_text(st, p + 3, name, h->name_len, SQLITE_STATIC);
	sqlite3_bind_int64(st, p + 4, (sqlite3_int64)h->lane + 1);
	sqlite3_bind_text(st, p + 5, name + h->name_len, (int)h->args_len, SQLITE_STATIC);
	sqlite3_bind_int64(st, p + 6, (sqlite3_int64)(h->ts + h->dur));
}

/*
 * Bind one wakeup link's two rows, its start ('s') and end ('f') sharing a
 * flow_id, from parameter @p + 1 on (12 values). Several rows per statement
 * also spare flow's AUTOINCREMENT, which reads and writes sqlite_sequence
 * once per statement.
 */
static void bind_flow(sqlite3_stmt *st, int p, const struct rec_hdr *h, const char *name)
{
	for (int end = 0; end < 2; end++, p += 6) {
		sqlite3_bind_text(st, p + 1, name + h->name_len, (int)h->args_len, SQLITE_STATIC);
		sqlite3_bind_text(st, p + 2, name, h->name_len, SQLITE_STATIC);
		sqlite3_bind_text(st, p + 3, name, h->name_len, SQLITE_STATIC);
		sqlite3_bind_int64(st, p + 4, (sqlite3_int64)(end ? (uint32_t)h->sort_index : h->lane) + 1);
		sqlite3_bind_int64(st, p + 5, (sqlite3_int64)(end ? h->dur : h->ts));
		sqlite3_bind_text(st, p + 6, end ? "f" : "s", 1, SQLITE_STATIC);
	}
}

static int step(struct sqlite_sink *s, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : db_error(s, &s->werr, what);
}

/* Read the header of the record at @off in @b; the offset past it, or 0 at the end. */
static size_t rec_at(const struct fts_buf *b, size_t off, struct rec_hdr *h)
{
	if (off + sizeof(*h) > b->len)
		return 0;
	memcpy(h, b->p + off, sizeof(*h));
	return off + sizeof(*h) + h->name_len + h->args_len;
}

/*
 * Insert the records of @type in batch @b, in their order: REC_ROWS per
 * statement, the rest one per statement. Slices and flows go to separate
 * tables and lanes to a third, so one pass per type keeps every table's rows
 * (and so its ids) in the order the model emitted them.
 */
static int write_pass(struct sqlite_sink *s, const struct fts_buf *b, uint8_t type)
{
	sqlite3_stmt *many = type == REC_ITEM ? s->ins_slices : s->ins_flows;
	sqlite3_stmt *one = type == REC_ITEM ? s->ins_slice : s->ins_flow;
	void (*bind)(sqlite3_stmt *, int, const struct rec_hdr *, const char *) =
		type == REC_ITEM ? bind_item : bind_flow;
	const char *what = type == REC_ITEM ? "cannot insert slice" : "cannot insert flow";
	int per = type == REC_ITEM ? 6 : 12;
	size_t pend[REC_ROWS], off = 0, next;
	struct rec_hdr h;
	int n = 0, rc = 0;

	for (; !rc && (next = rec_at(b, off, &h)) != 0; off = next) {
		if (h.type != type)
			continue;
		pend[n++] = off;
		if (n < REC_ROWS)
			continue;
		for (int i = 0; i < n; i++) {
			rec_at(b, pend[i], &h);
			bind(many, i * per, &h, b->p + pend[i] + sizeof(h));
		}
		rc = step(s, many, what);
		n = 0;
	}
	for (int i = 0; !rc && i < n; i++) {
		rec_at(b, pend[i], &h);
		bind(one, 0, &h, b->p + pend[i] + sizeof(h));
		rc = step(s, one, what);
	}
	return rc;
}

static int write_lanes(struct sqlite_sink *s, const struct fts_buf *b)
{
	size_t off = 0, next;
	struct rec_hdr h;
	int rc = 0;

	for (; !rc && (next = rec_at(b, off, &h)) != 0; off = next)
		if (h.type == REC_LANE)
			rc = write_lane(s, &h, b->p + off + sizeof(h));
	return rc;
}

/* One batch: its lanes, then its slices, then its flows (each table keeps its order). */
static int write_batch(void *arg, const struct fts_buf *b)
{
	struct sqlite_sink *s = arg;
	int rc = write_lanes(s, b);

	if (!rc)
		rc = write_pass(s, b, REC_ITEM);
	if (!rc)
		rc = write_pass(s, b, REC_FLOW);
	return rc;
}

static void *writer_main(void *arg)
{
	struct sqlite_sink *s = arg;

	fts_batchq_consume(&s->q, write_batch, s);
	return NULL;
}

/* Append one record; hand the batch over when it is full. */
static int put_rec(struct sqlite_sink *s, const struct rec_hdr *h, const char *name,
		   const char *args, struct fts_err *err)
{
	struct fts_buf *b = fts_batchq_fill(&s->q);

	fts_buf_put(b, (const char *)h, sizeof(*h));
	fts_buf_put(b, name, h->name_len);
	fts_buf_put(b, args, h->args_len);
	if (b->oom)
		return fts_err_set(err, -ENOMEM, "out of memory");
	if (b->len >= BATCH_BYTES && fts_batchq_submit(&s->q))
		return fts_err_set(err, s->werr.code ? s->werr.code : -EIO, "%s",
				   s->werr.msg[0] ? s->werr.msg : "writer failed");
	return 0;
}

/*
 * @str as the DB stores it: valid UTF-8, sanitised as the JSON sink does
 * (SQLite stores any bytes as TEXT; Python's sqlite3 and Insight cannot read
 * them back), cut at 64 KiB on a character boundary. NULL when out of memory.
 */
static const char *db_text(struct sqlite_sink *s, const char *str, uint16_t *len)
{
	size_t n;

	if (fts__utf8_valid(str)) {
		n = strlen(str);
	} else {
		s->name.len = 0;
		if (fts_buf_reserve(&s->name, FTS__UTF8_CLEAN_MAX(strlen(str))))
			return NULL;
		n = fts__utf8_clean(s->name.p, str);
		str = s->name.p;
	}
	if (n > 0xffff) {
		n = 0xffff;
		while (n && ((unsigned char)str[n] & 0xc0) == 0x80)
			n--;
	}
	*len = (uint16_t)n;
	return str;
}

static int sq_lane(struct fts_sink *base, const struct fts_lane *l, struct fts_err *err)
{
	struct sqlite_sink *s = (struct sqlite_sink *)base;
	struct rec_hdr h = { .type = REC_LANE, .group = (uint8_t)l->group, .lane = l->id,
			     .sort_index = l->sort_index };
	const char *tid = db_text(s, l->tid, &h.name_len);

	if (!tid)
		return fts_err_set(err, -ENOMEM, "out of memory");
	return put_rec(s, &h, tid, "", err);
}

static int sq_item(struct fts_sink *base, const struct fts_item *it, struct fts_err *err)
{
	struct sqlite_sink *s = (struct sqlite_sink *)base;
	struct rec_hdr h = { .type = REC_ITEM, .lane = it->lane, .ts = it->ts, .dur = it->dur };
	const char *name = db_text(s, it->name, &h.name_len);

	s->args.len = 0;
	fts_buf_put_args(&s->args, it);
	if (s->args.oom || !name)
		return fts_err_set(err, -ENOMEM, "out of memory");
	h.args_len = (uint32_t)s->args.len;
	return put_rec(s, &h, name, s->args.p, err);
}

static int sq_flow(struct fts_sink *base, const struct fts_flow *f, struct fts_err *err)
{
	struct sqlite_sink *s = (struct sqlite_sink *)base;
	struct rec_hdr h = { .type = REC_FLOW, .lane = f->from_lane, .ts = f->from_ts,
			     .sort_index = (int32_t)f->to_lane, .dur = f->to_ts };
	char id[24];
	const char *name = db_text(s, f->name, &h.name_len);

	if (!name)
		return fts_err_set(err, -ENOMEM, "out of memory");
	h.args_len = (uint32_t)snprintf(id, sizeof(id), "%llu", (unsigned long long)f->id);
	return put_rec(s, &h, name, id, err);
}

/* Stop the writer after it drained everything; its error lands in @err. */
static int join_writer(struct sqlite_sink *s, struct fts_err *err)
{
	if (!s->writer_running)
		return 0;
	fts_batchq_close(&s->q);
	pthread_join(s->writer, NULL);
	s->writer_running = 0;
	if (s->werr.code)
		return fts_err_set(err, s->werr.code, "%s", s->werr.msg);
	return 0;
}

static void sq_close(struct sqlite_sink *s)
{
	sqlite3_finalize(s->ins_slice);
	sqlite3_finalize(s->ins_slices);
	sqlite3_finalize(s->ins_thread);
	sqlite3_finalize(s->ins_flow);
	sqlite3_finalize(s->ins_flows);
	s->ins_slice = s->ins_slices = s->ins_thread = s->ins_flow = s->ins_flows = NULL;
	if (s->db)
		sqlite3_close(s->db);
	s->db = NULL;
}

static int sq_finish(struct fts_sink *base, int ok, struct fts_err *err)
{
	static const char *const sidecars[] = { "-wal", "-shm", "-journal", NULL };
	struct sqlite_sink *s = (struct sqlite_sink *)base;
	int rc;

	if (!ok)
		fts_batchq_fail(&s->q);
	rc = join_writer(s, err);
	if (ok && !rc) {
		if (sqlite3_exec(s->db, "COMMIT;", NULL, NULL, NULL) != SQLITE_OK)
			rc = db_error(s, err, "cannot commit");
		else if (sqlite3_exec(s->db, indexes, NULL, NULL, NULL) != SQLITE_OK)
			rc = db_error(s, err, "cannot build indexes");
		else if (s->summary)
			rc = fts_summary_tables_write(s->db, s->out.target, err);
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

	if (s->writer_running) {
		fts_batchq_fail(&s->q);
		join_writer(s, NULL);
	}
	sq_close(s);
	fts_outfile_abort(&s->out);
	fts_buf_free(&s->args);
	fts_buf_free(&s->name);
	fts_batchq_destroy(&s->q);
	free(s);
}

/* *@st: INSERT @head with @rows rows of @row each (row without its comma); 0 or an SQLite code. */
static int prepare_rows(sqlite3 *db, const char *head, const char *row, int rows, sqlite3_stmt **st)
{
	size_t hl = strlen(head), rl = strlen(row), n = hl;
	char *sql = malloc(hl + (size_t)rows * (rl + 1) + 1);
	int rc;

	if (!sql)
		return SQLITE_NOMEM;
	memcpy(sql, head, hl);
	for (int i = 0; i < rows; i++, n += rl + 1) {
		memcpy(sql + n, row, rl);
		sql[n + rl] = ',';
	}
	sql[n - 1] = '\0';     /* the last row's comma */
	rc = sqlite3_prepare_v2(db, sql, (int)n - 1, st, NULL);
	free(sql);
	return rc;
}

/* The sink's five INSERT statements; 0 or an SQLite code. */
static int prepare_inserts(struct sqlite_sink *s)
{
	static const char slice[] = "INSERT INTO slice (timestamp, duration, name, track_id, args, end_time) VALUES ";
	static const char flow[] = "INSERT INTO flow (flow_id, name, cat, track_id, timestamp, type) VALUES ";
	static const char six[] = "(?, ?, ?, ?, ?, ?)";
	int rc;

	if ((rc = prepare_rows(s->db, slice, six, 1, &s->ins_slice)) ||
	    (rc = prepare_rows(s->db, slice, six, REC_ROWS, &s->ins_slices)) ||
	    (rc = prepare_rows(s->db, flow, six, 2, &s->ins_flow)) ||
	    (rc = prepare_rows(s->db, flow, six, 2 * REC_ROWS, &s->ins_flows)))
		return rc;
	return sqlite3_prepare_v2(s->db,
				  "INSERT INTO thread (track_id, tid, pid, thread_name, thread_sort_index)"
				  " VALUES (?, ?, ?, ?, ?)", -1, &s->ins_thread, NULL);
}

static int create(const char *path, int summary, const struct fts_owner *owner,
		  struct fts_sink **out, struct fts_err *err)
{
	struct sqlite_sink *s = calloc(1, sizeof(*s));
	int rc;

	*out = NULL;
	if (!s)
		return fts_err_set(err, -ENOMEM, "out of memory");
	s->out.fd = -1;
	s->summary = summary;
	if (fts_batchq_init(&s->q)) {
		free(s);
		return fts_err_set(err, -ENOMEM, "out of memory");
	}
	s->base.lane = sq_lane;
	s->base.item = sq_item;
	s->base.finish = sq_finish;
	s->base.destroy = sq_destroy;
	s->base.flow = sq_flow;
	rc = fts_outfile_begin(&s->out, path, owner, err);
	if (rc)
		goto fail;
	/*
	 * NOMUTEX: one thread at a time uses the connection (this one, the
	 * writer from its start to its join, this one again), so SQLite's
	 * per-call connection mutex is pure cost (a tenth of the writer's time).
	 */
	if (sqlite3_open_v2(s->out.tmp, &s->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		rc = db_error(s, err, "cannot open");
		goto fail;
	}
	if (sqlite3_exec(s->db, schema, NULL, NULL, NULL) != SQLITE_OK) {
		rc = db_error(s, err, "cannot create tables");
		goto fail;
	}
	if (prepare_inserts(s) != SQLITE_OK) {
		rc = db_error(s, err, "cannot prepare statements");
		goto fail;
	}
	/* signals belong to the front end's thread, never to the writer */
	if (fts__thread_start(&s->writer, NULL, writer_main, s)) {
		rc = fts_err_set(err, -EAGAIN, "cannot start the writer thread");
		goto fail;
	}
	s->writer_running = 1;
	*out = &s->base;
	return 0;
fail:
	sq_destroy(&s->base);
	return rc;
}

int fts_sqlite_sink_create(const char *path, const struct fts_owner *owner, struct fts_sink **out,
			   struct fts_err *err)
{
	return create(path, 0, owner, out, err);
}

int fts_sqlite_sink_create_summary(const char *path, const struct fts_owner *owner,
				   struct fts_sink **out, struct fts_err *err)
{
	return create(path, 1, owner, out, err);
}
