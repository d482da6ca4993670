// SPDX-License-Identifier: MIT
/*
 * npu_db.c - one card from the DB export type of the torch_npu profiler
 * (ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_<rank>.db), into the same
 * struct fts_npu_trace as trace_view.json gives (ascend-profiling.md, "DB
 * export type"):
 *
 *   TASK               -> busy (streamId, epoch ns; the kernel's name from
 *                         COMPUTE_TASK_INFO by globalTaskId, else the taskType)
 *   COMMUNICATION_OP   -> comm (one lane: the DB has no HCCL planes)
 *   CANN_API           -> HostToDevice flows: the launch whose connectionId
 *                         produced TASK rows (else a COMMUNICATION_OP), to the
 *                         first of them; nested APIs share the id, the latest
 *                         start (the innermost, the real launch) is kept
 *   PYTORCH_API        -> ops and the Python threads (globalTid = pid << 32 |
 *                         tid; startNs/endNs are TEXT there), and through
 *                         CONNECTION_IDS the async_npu flows
 *   STEP_TIME          -> steps
 *
 * There is no "Free" lane: hostbound finds the gaps from the streams. The
 * file is hostile until proven otherwise: opened through db_open.c (read-only
 * VFS, hardened, work-bounded), every table a plain one, every value checked
 * for its type and range; a refusal is one line naming the table and row.
 */
#include "core/readback/npu_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/readback/db_vfs.h"
#include "core/util/buf.h"
#include "core/util/inthash.h"
#include "core/util/strtab.h"

enum { T_TASK, T_STRING_IDS, T_COMPUTE, T_CANN, T_PYTORCH, T_CONN_IDS, T_STEP, T_COMM, NTABLES };
static const char *const table_names[NTABLES] = {
	"TASK", "STRING_IDS", "COMPUTE_TASK_INFO", "CANN_API", "PYTORCH_API",
	"CONNECTION_IDS", "STEP_TIME", "COMMUNICATION_OP",
};

struct ndb {
	const char *path;
	sqlite3 *db;
	struct fts_rb_guard g;
	struct fts_npu_trace *t;
	struct fts_strtab *names;
	struct fts_inthash sid;        /* STRING_IDS id -> names id */
	struct fts_inthash conn_task;  /* connectionId -> first TASK start */
	struct fts_inthash conn_comm;  /* connectionId -> first COMMUNICATION_OP start */
	struct fts_inthash launch;     /* connectionId -> index in t->flows */
	struct fts_inthash tids;       /* Python tids seen */
	size_t cbusy, ccomm, cflows, cops, csteps, cthreads;
	int have[NTABLES];
	int64_t device;                /* the TASK rows' deviceId; -1 before the first */
	int64_t python_pid;            /* -1 before the first PYTORCH_API row */
	uint64_t row;                  /* of the table being read, for messages */
	const char *table;
};

static int nomem(struct fts_err *err)
{
	return fts_err_set(err, -ENOMEM, "out of memory");
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	return fts_grow(p, cap, need, size, 256);
}

static int bad_row(struct ndb *n, const char *what, struct fts_err *err)
{
	return fts_err_set(err, -EINVAL, "%s: %s row %llu: %s; refused", n->path, n->table,
			   (unsigned long long)n->row, what);
}

/* An integer column (or a TEXT of digits, as PYTORCH_API's times are) 0 .. @max. */
static int col_u64(sqlite3_stmt *st, int i, uint64_t max, uint64_t *v)
{
	const unsigned char *s;
	uint64_t x = 0;

	switch (sqlite3_column_type(st, i)) {
	case SQLITE_INTEGER:
		if (sqlite3_column_int64(st, i) < 0 || (uint64_t)sqlite3_column_int64(st, i) > max)
			return -1;
		*v = (uint64_t)sqlite3_column_int64(st, i);
		return 0;
	case SQLITE_TEXT:
		s = sqlite3_column_text(st, i);
		if (!s || !*s)
			return -1;
		for (; *s >= '0' && *s <= '9'; s++) {
			if (x > (max - (uint64_t)(*s - '0')) / 10)
				return -1;
			x = x * 10 + (uint64_t)(*s - '0');
		}
		if (*s)
			return -1;
		*v = x;
		return 0;
	default:
		return -1;
	}
}

/* startNs, endNs at @i, @i + 1: an epoch interval. */
static int col_span(struct ndb *n, sqlite3_stmt *st, int i, uint64_t *ts, uint64_t *dur,
		    struct fts_err *err)
{
	uint64_t end;

	if (col_u64(st, i, FTS_NPU_NS_MAX, ts) || col_u64(st, i + 1, FTS_NPU_NS_MAX, &end))
		return bad_row(n, "startNs/endNs is not an epoch time in ns (an integer up to year 2096)", err);
	if (end < *ts)
		return bad_row(n, "endNs is before startNs", err);
	*dur = end - *ts;
	return 0;
}

/* A name column: an id into STRING_IDS (or, leniently, the text itself). */
static int col_name(struct ndb *n, sqlite3_stmt *st, int i, uint32_t *id, struct fts_err *err)
{
	const uint64_t *s;
	const char *txt = "";

	if (sqlite3_column_type(st, i) == SQLITE_INTEGER) {
		s = fts_inthash_get(&n->sid, (uint64_t)sqlite3_column_int64(st, i));
		if (s) {
			*id = (uint32_t)*s;
			return 0;
		}
	} else if (sqlite3_column_type(st, i) == SQLITE_TEXT) {
		txt = (const char *)sqlite3_column_text(st, i);
	}
	*id = fts_strtab_intern(n->names, txt ? txt : "", txt ? strlen(txt) : 0);
	return *id == UINT32_MAX ? nomem(err) : 0;
}

/* Run @sql over @table, each row to @fn. */
static int each_row(struct ndb *n, const char *table, const char *sql,
		    int (*fn)(struct ndb *n, sqlite3_stmt *st, struct fts_err *err), struct fts_err *err)
{
	sqlite3_stmt *st;
	char what[64];
	int rc;

	n->table = table;
	n->row = 0;
	snprintf(what, sizeof(what), "cannot read its %s table", table);
	rc = sqlite3_prepare_v2(n->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return fts_rb_db_fail(n->db, rc, &n->g, n->path, what, err);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int r;

		n->row++;
		n->t->events++;
		if ((r = fn(n, st, err))) {
			sqlite3_finalize(st);
			return r;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fts_rb_db_fail(n->db, rc, &n->g, n->path, what, err);
}

static int on_string(struct ndb *n, sqlite3_stmt *st, struct fts_err *err)
{
	const char *v = (const char *)sqlite3_column_text(st, 1);
	uint64_t *slot;
	uint32_t id;

	if (sqlite3_column_type(st, 0) != SQLITE_INTEGER || sqlite3_column_int64(st, 0) < 0)
		return bad_row(n, "id is not an integer 0 or more", err);
	id = fts_strtab_intern(n->names, v ? v : "", v ? (size_t)sqlite3_column_bytes(st, 1) : 0);
	slot = id == UINT32_MAX ? NULL : fts_inthash_put(&n->sid, (uint64_t)sqlite3_column_int64(st, 0), NULL);
	if (!slot)
		return nomem(err);
	*slot = id;
	return 0;
}

/* The first start of a connectionId's device work, kept in @h. */
static int first_start(struct fts_inthash *h, sqlite3_stmt *st, int i, uint64_t ts)
{
	uint64_t *slot;
	int added = 0;

	if (sqlite3_column_type(st, i) != SQLITE_INTEGER || sqlite3_column_int64(st, i) < 0)
		return 0;       /* no connection: a task nothing launched from the host */
	slot = fts_inthash_put(h, (uint64_t)sqlite3_column_int64(st, i), &added);
	if (!slot)
		return -ENOMEM;
	if (added || ts < *slot)
		*slot = ts;
	return 0;
}

/* startNs, endNs, streamId, connectionId, deviceId, name */
static int on_task(struct ndb *n, sqlite3_stmt *st, struct fts_err *err)
{
	struct fts_npu_trace *t = n->t;
	uint64_t ts, dur, stream, dev;
	uint32_t name;
	int rc;

	if ((rc = col_span(n, st, 0, &ts, &dur, err)))
		return rc;
	if (col_u64(st, 2, UINT32_MAX, &stream))
		return bad_row(n, "streamId is not a stream number (0 .. 2^32 - 1)", err);
	if (col_u64(st, 4, INT64_MAX, &dev))
		return bad_row(n, "deviceId is not a device number", err);
	if (n->device >= 0 && (uint64_t)n->device != dev)
		return fts_err_set(err, -ENOTSUP,
				   "%s: TASK rows of more than one device (ids %lld and %llu): several cards in one file are not supported yet",
				   n->path, (long long)n->device, (unsigned long long)dev);
	n->device = (int64_t)dev;
	if ((rc = col_name(n, st, 5, &name, err)))
		return rc;
	if (first_start(&n->conn_task, st, 3, ts) ||
	    grow((void **)&t->busy, &n->cbusy, t->nbusy + 1, sizeof(*t->busy)))
		return nomem(err);
	t->busy[t->nbusy++] = (struct fts_npu_busy){ ts, dur, (uint32_t)stream, name };
	return 0;
}

/* startNs, endNs, opName, connectionId */
static int on_comm(struct ndb *n, sqlite3_stmt *st, struct fts_err *err)
{
	struct fts_npu_trace *t = n->t;
	uint64_t ts, dur;
	uint32_t name;
	int rc;

	if ((rc = col_span(n, st, 0, &ts, &dur, err)) || (rc = col_name(n, st, 2, &name, err)))
		return rc;
	if (first_start(&n->conn_comm, st, 3, ts) ||
	    grow((void **)&t->comm, &n->ccomm, t->ncomm + 1, sizeof(*t->comm)))
		return nomem(err);
	t->comm[t->ncomm++] = (struct fts_npu_comm){ ts, dur, 0, name };
	return 0;
}

/* A host tid out of a globalTid (pid << 32 | tid): an OS id, so it fits int32. */
static int tid_of(struct ndb *n, sqlite3_stmt *st, int i, int64_t *pid, int32_t *tid,
		  struct fts_err *err)
{
	uint64_t g;

	if (col_u64(st, i, INT64_MAX, &g))
		return bad_row(n, "globalTid is not pid << 32 | tid", err);
	if ((g & 0xffffffffu) > INT32_MAX || (g >> 32) > INT32_MAX)
		return bad_row(n, "globalTid holds a pid or tid past 2^31 - 1 (not an OS id)", err);
	*pid = (int64_t)(g >> 32);
	*tid = (int32_t)(g & 0xffffffffu);
	return 0;
}

/* A flow from the host (@host_ts, @tid) to the device work of connectionId column @i. */
static int add_flow(struct ndb *n, sqlite3_stmt *st, int i, uint64_t host_ts, int32_t tid,
		    uint32_t kind, struct fts_err *err)
{
	struct fts_npu_trace *t = n->t;
	const uint64_t *dev;
	uint64_t conn, *slot;
	int added = 0;

	if (sqlite3_column_type(st, i) != SQLITE_INTEGER || sqlite3_column_int64(st, i) < 0)
		return 0;
	conn = (uint64_t)sqlite3_column_int64(st, i);
	dev = fts_inthash_get(&n->conn_task, conn);
	if (!dev)
		dev = fts_inthash_get(&n->conn_comm, conn);
	if (!dev)
		return 0;       /* an API that launched nothing on the device */
	if (kind == 0) {        /* nested launch APIs share the id: the latest start wins */
		slot = fts_inthash_put(&n->launch, conn, &added);
		if (!slot)
			return nomem(err);
		if (!added) {
			struct fts_npu_flow *f = &t->flows[*slot];

			if (host_ts >= f->host_ts)
				*f = (struct fts_npu_flow){ host_ts, *dev, tid, kind };
			return 0;
		}
		*slot = t->nflows;
	}
	if (grow((void **)&t->flows, &n->cflows, t->nflows + 1, sizeof(*t->flows)))
		return nomem(err);
	t->flows[t->nflows++] = (struct fts_npu_flow){ host_ts, *dev, tid, kind };
	return 0;
}

/* startNs, globalTid, connectionId: a launch of @kind (0 HostToDevice, 1 async_npu) */
static int on_launch(struct ndb *n, sqlite3_stmt *st, uint32_t kind, struct fts_err *err)
{
	uint64_t ts;
	int64_t pid;
	int32_t tid;
	int rc;

	if (col_u64(st, 0, FTS_NPU_NS_MAX, &ts))
		return bad_row(n, "startNs is not an epoch time in ns", err);
	if ((rc = tid_of(n, st, 1, &pid, &tid, err)))
		return rc;
	return add_flow(n, st, 2, ts, tid, kind, err);
}

/* CANN_API's launches: the text type's HostToDevice flows */
static int on_cann(struct ndb *n, sqlite3_stmt *st, struct fts_err *err)
{
	return on_launch(n, st, 0, err);
}

/* PYTORCH_API ops joined to CONNECTION_IDS: the text type's async_npu flows */
static int on_async(struct ndb *n, sqlite3_stmt *st, struct fts_err *err)
{
	return on_launch(n, st, 1, err);
}

/* A thread of the Python process, named as the text type names it. */
static int add_thread(struct ndb *n, int32_t tid, struct fts_err *err)
{
	struct fts_npu_trace *t = n->t;
	struct fts_npu_thread *th;
	int added = 0;

	if (!fts_inthash_put(&n->tids, (uint64_t)(uint32_t)tid, &added))
		return nomem(err);
	if (!added)
		return 0;
	if (grow((void **)&t->threads, &n->cthreads, t->nthreads + 1, sizeof(*t->threads)))
		return nomem(err);
	th = &t->threads[t->nthreads++];
	memset(th, 0, sizeof(*th));
	th->pid = t->python_pid;
	th->tid = tid;
	snprintf(th->name, sizeof(th->name), "Thread %d", tid);
	return 0;
}

/* startNs, endNs (TEXT), globalTid, name */
static int on_pytorch(struct ndb *n, sqlite3_stmt *st, struct fts_err *err)
{
	struct fts_npu_trace *t = n->t;
	uint64_t ts, dur;
	uint32_t name;
	int64_t pid;
	int32_t tid;
	int rc;

	if ((rc = col_span(n, st, 0, &ts, &dur, err)) || (rc = tid_of(n, st, 2, &pid, &tid, err)))
		return rc;
	if (n->python_pid < 0) {
		n->python_pid = pid;
		t->python_pid = (int32_t)pid;
	}
	if (pid == n->python_pid && (rc = add_thread(n, tid, err)))
		return rc;
	if (!dur)
		return 0;
	if ((rc = col_name(n, st, 3, &name, err)))
		return rc;
	if (grow((void **)&t->ops, &n->cops, t->nops + 1, sizeof(*t->ops)))
		return nomem(err);
	t->ops[t->nops++] = (struct fts_npu_op){ ts, dur, tid, name };
	return 0;
}

/* id, startNs, endNs */
static int on_step(struct ndb *n, sqlite3_stmt *st, struct fts_err *err)
{
	struct fts_npu_trace *t = n->t;
	uint64_t id, ts, dur;
	int rc;

	if (col_u64(st, 0, UINT32_MAX, &id))
		return bad_row(n, "id is not a step number (0 .. 2^32 - 1)", err);
	if ((rc = col_span(n, st, 1, &ts, &dur, err)))
		return rc;
	if (grow((void **)&t->steps, &n->csteps, t->nsteps + 1, sizeof(*t->steps)))
		return nomem(err);
	t->steps[t->nsteps++] = (struct fts_npu_step){ ts, dur, (uint32_t)id };
	return 0;
}

/*
 * Which tables are there, each a plain table (a view or virtual table can
 * run forever); TASK and STRING_IDS are needed, the rest only enrich.
 */
static int find_tables(struct ndb *n, struct fts_err *err)
{
	static const char q[] = "SELECT name, type, sql FROM main.sqlite_schema WHERE type IN ('table', 'view')";
	sqlite3_stmt *st;
	int rc, seen = 0;

	rc = sqlite3_prepare_v2(n->db, q, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return fts_rb_db_fail(n->db, rc, &n->g, n->path, "cannot read it", err);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *type = (const char *)sqlite3_column_text(st, 1);
		const char *sql = (const char *)sqlite3_column_text(st, 2);

		seen++;
		for (int i = 0; name && i < NTABLES; i++) {
			if (strcmp(name, table_names[i]))
				continue;
			if (!type || strcmp(type, "table") || !sql || !sqlite3_strnicmp(sql, "CREATE VIRTUAL", 14)) {
				sqlite3_finalize(st);
				return fts_err_set(err, -EINVAL,
						   "%s: its %s is not a plain table (ftscope reads tables only); refused",
						   n->path, table_names[i]);
			}
			n->have[i] = 1;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return fts_rb_db_fail(n->db, rc, &n->g, n->path, "cannot read it", err);
	if (!n->have[T_TASK] || !n->have[T_STRING_IDS])
		return fts_err_set(err, -EINVAL,
				   "%s: not a torch_npu profiler DB (ascend_pytorch_profiler_<rank>.db): no %s table among its %d tables",
				   n->path, n->have[T_TASK] ? "STRING_IDS" : "TASK", seen);
	return 0;
}

static int read_tables(struct ndb *n, struct fts_err *err)
{
	int rc;

	rc = each_row(n, "STRING_IDS", "SELECT id, value FROM STRING_IDS", on_string, err);
	if (!rc)
		rc = each_row(n, "TASK", n->have[T_COMPUTE] ?
			      "SELECT t.startNs, t.endNs, t.streamId, t.connectionId, t.deviceId,"
			      " coalesce(c.name, t.taskType) FROM TASK t LEFT JOIN COMPUTE_TASK_INFO c"
			      " ON c.globalTaskId = t.globalTaskId" :
			      "SELECT startNs, endNs, streamId, connectionId, deviceId, taskType FROM TASK",
			      on_task, err);
	if (!rc && n->have[T_COMM])
		rc = each_row(n, "COMMUNICATION_OP",
			      "SELECT startNs, endNs, opName, connectionId FROM COMMUNICATION_OP", on_comm, err);
	if (!rc && n->have[T_CANN])
		rc = each_row(n, "CANN_API", "SELECT startNs, globalTid, connectionId FROM CANN_API",
			      on_cann, err);
	if (!rc && n->have[T_PYTORCH])
		rc = each_row(n, "PYTORCH_API", "SELECT startNs, endNs, globalTid, name FROM PYTORCH_API",
			      on_pytorch, err);
	if (!rc && n->have[T_PYTORCH] && n->have[T_CONN_IDS])
		rc = each_row(n, "PYTORCH_API",
			      "SELECT p.startNs, p.globalTid, c.connectionId FROM PYTORCH_API p"
			      " JOIN CONNECTION_IDS c ON c.id = p.connectionId", on_async, err);
	if (!rc && n->have[T_STEP])
		rc = each_row(n, "STEP_TIME", "SELECT id, startNs, endNs FROM STEP_TIME", on_step, err);
	return rc;
}

static int count_streams(struct ndb *n, struct fts_err *err)
{
	struct fts_npu_trace *t = n->t;
	struct fts_inthash s;
	int added;

	fts_inthash_init(&s);
	for (size_t i = 0; i < t->nbusy; i++) {
		if (!fts_inthash_put(&s, t->busy[i].stream, &added)) {
			fts_inthash_free(&s);
			return nomem(err);
		}
		t->nstreams += added ? 1 : 0;
	}
	fts_inthash_free(&s);
	return 0;
}

int fts_npu_db_read(const char *path, struct fts_npu_trace **out, struct fts_err *err)
{
	struct ndb n = { .path = path, .device = -1, .python_pid = -1 };
	int rc;

	*out = NULL;
	n.t = calloc(1, sizeof(*n.t));
	n.names = calloc(1, sizeof(*n.names));
	if (!n.t || !n.names) {
		free(n.t);
		free(n.names);
		return nomem(err);
	}
	n.t->python_pid = -1;
	fts_strtab_init(n.names);
	n.t->priv = n.names;    /* freed with the trace */
	fts_inthash_init(&n.sid);
	fts_inthash_init(&n.conn_task);
	fts_inthash_init(&n.conn_comm);
	fts_inthash_init(&n.launch);
	fts_inthash_init(&n.tids);
	rc = fts_rb_db_open(path, &n.g, &n.db, err);
	if (!rc)
		rc = find_tables(&n, err);
	if (!rc)
		rc = read_tables(&n, err);
	if (!rc && !n.t->nbusy)
		rc = fts_err_set(err, -ENODATA, "%s: its TASK table has no rows (no device tasks)", path);
	if (!rc)
		rc = count_streams(&n, err);
	sqlite3_close(n.db);
	fts_inthash_free(&n.sid);
	fts_inthash_free(&n.conn_task);
	fts_inthash_free(&n.conn_comm);
	fts_inthash_free(&n.launch);
	fts_inthash_free(&n.tids);
	if (rc) {
		fts_npu_trace_free(n.t);
		return rc;
	}
	fts_strtab_shrink(n.names);
	fts_npu_sort(n.t);
	*out = n.t;
	return 0;
}
