// SPDX-License-Identifier: MIT
/*
 * sqlite_sink.c - MindStudio Insight's ftrace DB (insight-import-contract.md).
 *
 * Insight opens the file as its own text-trace cache: the five tables with
 * its column names, integer ns times, end_time = timestamp + duration, every
 * args value a JSON string, process pid == process_name. slice.id is a plain
 * INTEGER PRIMARY KEY (rowid: unique, from 1) rather than Insight's
 * AUTOINCREMENT, which buys nothing for a file Insight never inserts slices
 * into.
 *
 * One file, three writers in turn:
 * 1. SQLite creates it: the PRAGMAs, the schema with Insight's three indexes
 *    (its own names, so it skips building them), all empty, and the process
 *    rows; then it closes, and each tree's root page is known.
 * 2. The page writer (sqlw_tables.h) appends slice and flow rows as SQLite's
 *    table pages, on a writer thread fed in batches (parsing and modelling
 *    on one core, the pages on the other), and at finish the interior pages
 *    and the three indexes, built bottom-up from sorted keys: SQLite's
 *    per-row b-tree work was half of a conversion's CPU.
 * 3. SQLite reopens it for the small rest: thread rows (kept in memory),
 *    sqlite_sequence ('flow', n) as AUTOINCREMENT would have left it, and
 *    with --with-summary the summary tables, computed in SQL over slice.
 * The file is written under a temp name and renamed into place only when
 * complete.
 */
#include "ftscope/pipeline.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util/outfile.h"
#include "core/internal.h"
#include "core/util/batchq.h"
#include "export/sink/jsonw.h"
#include "export/sink/sqlw_tables.h"
#include "export/sink/summary_tables.h"

static const char *const schema =
	"PRAGMA page_size=65536;"
	"PRAGMA journal_mode=OFF;"
	"PRAGMA synchronous=OFF;"
	"PRAGMA locking_mode=EXCLUSIVE;"
	"PRAGMA cache_size=-4096;"
	"PRAGMA temp_store=FILE;"
	"BEGIN;"
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
	/* Insight's own index names and columns (TextSqlConstant.h), so it skips building them */
	"CREATE INDEX track_id_timestamp_end_time_index ON slice (timestamp, end_time, track_id);"
	"CREATE INDEX flow_id_time_index ON flow (cat, type);"
	"CREATE INDEX track_id_cat_index ON slice (track_id, cat);"
	"COMMIT;";

/* The same connection settings when SQLite reopens the file for the rest. */
static const char *const reopen =
	"PRAGMA journal_mode=OFF;"
	"PRAGMA synchronous=OFF;"
	"PRAGMA locking_mode=EXCLUSIVE;"
	"PRAGMA cache_size=-4096;"
	"PRAGMA temp_store=FILE;"
	"BEGIN;";

#define BATCH_BYTES (1u << 20)

struct sqlite_sink {
	struct fts_sink base;
	struct fts_outfile out;
	sqlite3 *db;               /* open in phases 1 and 3 only */
	struct fts_buf args;       /* producer's scratch for one item's raw args (key\0val\0...) */
	struct fts_buf name;       /* producer's scratch for a name made valid UTF-8 */

	/*
	 * Rows travel in batches to a writer thread that alone uses the page
	 * writer until finish: parsing and modelling on one core, the pages
	 * on the other.
	 */
	struct fts_batchq q;
	pthread_t writer;
	int writer_running;
	struct fts_err werr;       /* the writer's failure, read after join */
	int summary;               /* write the Ftrace Task Summary tables at finish */

	int fd;                    /* read/write on out.tmp for the page writer, or -1 */
	struct fts_sqlw_tables pages;
	int pages_open;
	struct fts_buf lanes;      /* the writer's lane records, for the thread table at finish */
	struct fts_buf wargs;      /* the writer's scratch: one slice's args JSON */
};

/*
 * An item record's group is its number of args, its "args" part the raw
 * pairs. A flow record reuses the header: lane/ts are its start,
 * sort_index/dur its end's lane and time, the name its name and the "args"
 * part its id in decimal.
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

/* The page writer's negative errno @rc as the sink's error. */
static int page_error(struct sqlite_sink *s, struct fts_err *err, int rc)
{
	if (rc == -ENOMEM)
		return fts_err_set(err, rc, "out of memory");
	return fts_err_set(err, rc, "%s: cannot write: %s%s", s->out.target, strerror(-rc),
			   rc == -ENOSPC || rc == -EDQUOT ? " (free some space, or write elsewhere)" : "");
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
 * One slice row: timestamp, duration, name, track_id, args, end_time (the
 * rest NULL). The args JSON is built here from the raw pairs, on the
 * writer's core: escaping was a tenth of the main thread's time.
 */
static int write_item(struct sqlite_sink *s, const struct rec_hdr *h, const char *name)
{
	const char *raw = name + h->name_len;
	struct fts_buf *j = &s->wargs;

	j->len = 0;
	fts_buf_put(j, "{", 1);
	for (int i = 0; i < h->group; i++) {
		const char *key = raw, *val;
		size_t kn = strlen(key), vn;

		val = key + kn + 1;
		vn = strlen(val);
		raw = val + vn + 1;
		if (i)
			fts_buf_put(j, ",", 1);
		fts_buf_put_strn(j, key, kn);
		fts_buf_put(j, ":", 1);
		fts_buf_put_strn(j, val, vn);
	}
	fts_buf_put(j, "}", 1);
	if (j->oom)
		return -ENOMEM;
	return fts_sqlw_tables_slice(&s->pages, (int64_t)h->ts, (int64_t)h->dur, name, h->name_len,
				     j->p, j->len, (int64_t)h->lane + 1);
}

/* A wakeup link's two flow rows, its start ('s') and end ('f') sharing a flow_id. */
static int write_flow(struct sqlite_sink *s, const struct rec_hdr *h, const char *name)
{
	const char *id = name + h->name_len;
	int rc = fts_sqlw_tables_flow(&s->pages, id, h->args_len, name, h->name_len,
				      (int64_t)h->lane + 1, (int64_t)h->ts, 's');

	return rc ? rc : fts_sqlw_tables_flow(&s->pages, id, h->args_len, name, h->name_len,
					      (int64_t)(uint32_t)h->sort_index + 1, (int64_t)h->dur, 'f');
}

/*
 * One batch, in its order: slices and flows go to their own tables (each
 * keeps the order, so the ids are the model's), lanes are kept for the
 * thread table, which SQLite writes at finish.
 */
static int write_batch(void *arg, const struct fts_buf *b)
{
	struct sqlite_sink *s = arg;
	size_t off = 0, next;
	struct rec_hdr h;
	int rc = 0;

	for (; !rc && (next = rec_at(b, off, &h)) != 0; off = next) {
		const char *name = b->p + off + sizeof(h);

		if (h.type == REC_ITEM)
			rc = write_item(s, &h, name);
		else if (h.type == REC_FLOW)
			rc = write_flow(s, &h, name);
		else if (h.type == REC_LANE) {
			fts_buf_put(&s->lanes, b->p + off, next - off);
			rc = s->lanes.oom ? -ENOMEM : 0;
		}
	}
	if (rc)
		page_error(s, &s->werr, rc);
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
	struct rec_hdr h = { .type = REC_ITEM, .group = (uint8_t)it->nargs, .lane = it->lane,
			     .ts = it->ts, .dur = it->dur };
	const char *name = db_text(s, it->name, &h.name_len);

	/* the raw pairs, NUL-terminated: the writer turns them into JSON */
	s->args.len = 0;
	for (int i = 0; i < it->nargs; i++) {
		fts_buf_put(&s->args, it->args[i].key, strlen(it->args[i].key) + 1);
		fts_buf_put(&s->args, it->args[i].val, strlen(it->args[i].val) + 1);
	}
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
	if (s->db)
		sqlite3_close(s->db);
	s->db = NULL;
}

/* The thread rows from the lane records, in their order. */
static int write_lanes(struct sqlite_sink *s, struct fts_err *err)
{
	sqlite3_stmt *st;
	size_t off = 0, next;
	struct rec_hdr h;
	int rc = 0;

	if (sqlite3_prepare_v2(s->db, "INSERT INTO thread (track_id, tid, pid, thread_name,"
			       " thread_sort_index) VALUES (?, ?, ?, ?, ?)", -1, &st, NULL) != SQLITE_OK)
		return db_error(s, err, "cannot prepare statements");
	for (; !rc && (next = rec_at(&s->lanes, off, &h)) != 0; off = next) {
		const char *tid = s->lanes.p + off + sizeof(h);
		const char *group = h.group == FTS_GROUP_CPU ? FTS_GROUP_CPU_NAME : FTS_GROUP_TASK_NAME;

		sqlite3_bind_int64(st, 1, (sqlite3_int64)h.lane + 1);
		sqlite3_bind_text(st, 2, tid, h.name_len, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, group, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, tid, h.name_len, SQLITE_STATIC);
		sqlite3_bind_int(st, 5, h.sort_index);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_error(s, err, "cannot insert lane");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

/* Whether the temp file's name still leads to the file the outfile created and locked. */
static int same_file(struct sqlite_sink *s, struct fts_err *err)
{
	struct stat a, b;

	if (lstat(s->out.tmp, &a) || fstat(s->out.fd, &b) || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino)
		return fts_err_set(err, -EIO, "%s: the temp file was replaced", s->out.tmp);
	return 0;
}

/* Phase 3: SQLite reopens the file for the thread rows, sqlite_sequence and the summary. */
static int finish_sql(struct sqlite_sink *s, struct fts_err *err)
{
	int64_t flows = s->pages.flows;
	char seq[96];
	int rc;

	if ((rc = same_file(s, err)))
		return rc;
	if (sqlite3_open_v2(s->out.tmp, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		return db_error(s, err, "cannot reopen");
	if (sqlite3_exec(s->db, reopen, NULL, NULL, NULL) != SQLITE_OK)
		return db_error(s, err, "cannot reopen");
	if ((rc = write_lanes(s, err)))
		return rc;
	/* AUTOINCREMENT's record of flow's largest id, as SQLite's inserts would have left it */
	snprintf(seq, sizeof(seq), "INSERT INTO sqlite_sequence (name, seq) VALUES ('flow', %lld);",
		 (long long)flows);
	if (flows && sqlite3_exec(s->db, seq, NULL, NULL, NULL) != SQLITE_OK)
		return db_error(s, err, "cannot write sqlite_sequence");
	if (sqlite3_exec(s->db, "COMMIT;", NULL, NULL, NULL) != SQLITE_OK)
		return db_error(s, err, "cannot commit");
	if (s->summary)
		return fts_summary_tables_write(s->db, s->out.target, err);
	return 0;
}

static void close_pages(struct sqlite_sink *s)
{
	if (s->pages_open)
		fts_sqlw_tables_free(&s->pages);
	s->pages_open = 0;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

static int sq_finish(struct fts_sink *base, int ok, struct fts_err *err)
{
	static const char *const sidecars[] = { "-wal", "-shm", "-journal", NULL };
	struct sqlite_sink *s = (struct sqlite_sink *)base;
	int rc;

	if (!ok)
		fts_batchq_fail(&s->q);
	rc = join_writer(s, err);
	if (ok && !rc && (rc = fts_sqlw_tables_finish(&s->pages)))
		page_error(s, err, rc);
	close_pages(s);
	if (ok && !rc && fts_sink_cancelled(base))
		rc = fts_err_set(err, -ECANCELED, "cancelled");
	if (ok && !rc)
		rc = finish_sql(s, err);
	sq_close(s);
	if (!ok || rc) {
		fts_outfile_abort(&s->out);
		return rc;
	}
	s->out.cancelled = base->cancelled;
	s->out.cancel_ctx = base->cancel_ctx;
	return fts_outfile_commit(&s->out, sidecars, err);
}

static void sq_destroy(struct fts_sink *base)
{
	struct sqlite_sink *s = (struct sqlite_sink *)base;

	if (s->writer_running) {
		fts_batchq_fail(&s->q);
		join_writer(s, NULL);
	}
	close_pages(s);
	sq_close(s);
	fts_outfile_abort(&s->out);
	fts_buf_free(&s->args);
	fts_buf_free(&s->name);
	fts_buf_free(&s->lanes);
	fts_buf_free(&s->wargs);
	fts_batchq_destroy(&s->q);
	free(s);
}

/* Phase 1's result: each bulk tree's root page, from sqlite_master. */
static int read_roots(struct sqlite_sink *s, uint32_t root[FTS_SQLW_NOBJ], struct fts_err *err)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(s->db, "SELECT rootpage FROM sqlite_master WHERE name = ?", -1, &st,
			       NULL) != SQLITE_OK)
		return db_error(s, err, "cannot read the schema");
	for (int o = 0; !rc && o < FTS_SQLW_NOBJ; o++) {
		sqlite3_bind_text(st, 1, fts_sqlw_obj_name(o), -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_ROW || sqlite3_column_int64(st, 0) < 2)
			rc = fts_err_set(err, -EIO, "%s: no root page for %s", s->out.target,
					 fts_sqlw_obj_name(o));
		else
			root[o] = (uint32_t)sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

/*
 * The page writer's own descriptor on the temp file (the outfile's is
 * write-only): opened without following links, and checked to be the very
 * file the outfile created and locked.
 */
static int open_pages(struct sqlite_sink *s, const uint32_t root[FTS_SQLW_NOBJ], struct fts_err *err)
{
	struct stat a, b;
	int rc;

	s->fd = open(s->out.tmp, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (s->fd < 0)
		return fts_err_set(err, -errno, "%s: cannot open: %s", s->out.tmp, strerror(errno));
	if (fstat(s->fd, &a) || fstat(s->out.fd, &b) || a.st_dev != b.st_dev || a.st_ino != b.st_ino)
		return fts_err_set(err, -EIO, "%s: the temp file was replaced", s->out.tmp);
	rc = fts_sqlw_tables_open(&s->pages, s->fd, root, s->out.tmp);
	s->pages_open = 1;
	/*
	 * SQLite made the header from its build's defaults (auto-vacuum,
	 * reserved bytes, the legacy file format): the user's fix is another
	 * libsqlite3 or another format, and the temp file is gone by the time
	 * this is read, so the message names the output.
	 */
	if (rc == -EINVAL)
		return fts_err_set(err, rc,
				   "%s: not written: SQLite %s made a database header the page writer "
				   "cannot extend (auto-vacuum, reserved bytes or the legacy file "
				   "format in its build's defaults); write the JSON format instead, "
				   "or use a libsqlite3 built with its default options",
				   s->out.target, sqlite3_libversion());
	return rc ? page_error(s, err, rc) : 0;
}

static int create(const char *path, int summary, const struct fts_owner *owner,
		  struct fts_sink **out, struct fts_err *err)
{
	struct sqlite_sink *s = calloc(1, sizeof(*s));
	uint32_t root[FTS_SQLW_NOBJ];
	int rc;

	*out = NULL;
	if (!s)
		return fts_err_set(err, -ENOMEM, "out of memory");
	s->out.fd = -1;
	s->fd = -1;
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
	/* NOMUTEX: only this thread ever uses a connection (phases 1 and 3) */
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
	if ((rc = read_roots(s, root, err)))
		goto fail;
	/* SQLite is done until finish: the page writer appends from here */
	sq_close(s);
	if ((rc = open_pages(s, root, err)))
		goto fail;
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
