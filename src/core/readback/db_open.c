// SPDX-License-Identifier: MIT
/*
 * db_open.c - a DB input opened the way SQLite's security page advises for
 * untrusted database files, through the read-only VFS of db_vfs.c.
 *
 * WAL inputs: a read-only command must create nothing beside its input and
 * work on a read-only mount. A WAL-mode file whose -wal is missing or empty
 * holds everything in the main file, so it is opened immutable=1 (no lock,
 * no side file looked for). A non-empty -wal holds committed pages the main
 * file lacks: it is read (never written) in exclusive locking mode, where
 * SQLite keeps the wal-index in heap memory instead of a -shm. Any -shm is
 * left alone either way.
 */
#include "core/readback/db_vfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util/file_util.h"
#include "core/internal.h"

/* progress-handler period in VM steps; the budget counts these */
#define GUARD_STEPS 1000
/* VM steps allowed per byte of input (with WAL): a full scan of a real DB takes < 2 */
#define STEPS_PER_BYTE 64
#define GUARD_MIN_CALLS 100000
#define REPORT_MS 100
#define MAX_VALUE (16 << 20)
#define BUSY_MS 1000

static int guard(void *ctx)
{
	struct fts_rb_guard *g = ctx;
	uint64_t now;

	if (g->left == 0 || --g->left == 0) {
		g->exhausted = 1;
		return 1;
	}
	if (atomic_load_explicit(&g->halt, memory_order_relaxed))
		return 1; /* the caller stopped the scan (db_scan.c): its reason stands */
	if (g->quiet || !g->ops || !g->ops->progress || (g->left & 63))
		return 0;
	now = fts__clock_mono_ms();
	if (now < g->next_ms)
		return 0;
	g->next_ms = now + REPORT_MS;
	if (g->ops->progress(g->ops->ctx, g->done, g->total, g->rows)) {
		g->cancelled = 1;
		return 1;
	}
	return 0;
}

/* "file:" and @path with every byte but [A-Za-z0-9/._-] as %XX, then @query. */
static char *uri_of(const char *path, const char *query)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(path);
	char *u = malloc(5 + 3 * n + strlen(query) + 1), *o;

	if (!u)
		return NULL;
	o = u + 5;
	memcpy(u, "file:", 5);
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("/._-", *p)) {
			*o++ = (char)*p;
			continue;
		}
		*o++ = '%';
		*o++ = hex[*p >> 4];
		*o++ = hex[*p & 15];
	}
	strcpy(o, query);
	return u;
}

/* The size of @path's non-empty regular side file @suffix, or 0. */
static uint64_t side_size(const char *path, const char *suffix)
{
	char name[4096];
	struct stat sb;

	if ((size_t)snprintf(name, sizeof(name), "%s%s", path, suffix) >= sizeof(name))
		return 0;
	return lstat(name, &sb) == 0 && S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : 0;
}

/* The hardening a connection gets before its first read. */
static int harden(sqlite3 *db)
{
	static const char pragmas[] = "PRAGMA trusted_schema=OFF; PRAGMA cell_size_check=ON;"
				      " PRAGMA mmap_size=0; PRAGMA query_only=ON;"
				      " PRAGMA temp_store=MEMORY; PRAGMA locking_mode=EXCLUSIVE;";

	sqlite3_limit(db, SQLITE_LIMIT_LENGTH, MAX_VALUE);
	sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
	sqlite3_limit(db, SQLITE_LIMIT_WORKER_THREADS, 0);
	sqlite3_limit(db, SQLITE_LIMIT_TRIGGER_DEPTH, 1);
	if (sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL) != SQLITE_OK ||
	    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL) != SQLITE_OK ||
	    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL) != SQLITE_OK ||
	    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL) != SQLITE_OK ||
	    sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL) != SQLITE_OK)
		return SQLITE_ERROR;
	return sqlite3_exec(db, pragmas, NULL, NULL, NULL);
}

int fts_rb_db_open(const char *path, struct fts_rb_guard *g, sqlite3 **out, struct fts_err *err)
{
	unsigned char hdr[20] = { 0 };
	char query[64];
	uint64_t wal, bytes;
	struct stat sb;
	sqlite3 *db = NULL;
	char *uri;
	int fd, rc, wal_mode;

	*out = NULL;
	if (fts_rb_vfs_register())
		return fts_err_set(err, -ENOSYS, "%s: cannot set up SQLite's read-only access", path);
	fd = fts_open_regular(path, FTS_OPEN_NOFOLLOW, &sb, err);
	if (fd < 0)
		return fd;
	wal_mode = pread(fd, hdr, sizeof(hdr), 0) == (ssize_t)sizeof(hdr) && hdr[18] == 2 &&
		   hdr[19] == 2;
	wal = side_size(path, "-wal");
	bytes = (uint64_t)sb.st_size + wal;
	g->left = GUARD_MIN_CALLS + bytes / GUARD_STEPS * STEPS_PER_BYTE;
	g->next_ms = 0;
	snprintf(query, sizeof(query), "?fts_fd=%d%s", fd, wal_mode && !wal ? "&immutable=1" : "");
	uri = uri_of(path, query);
	rc = uri ? sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
				   FTS_RB_VFS) : SQLITE_NOMEM;
	free(uri);
	close(fd); /* the VFS holds its own duplicate, taken at the open */
	if (rc == SQLITE_OK)
		rc = harden(db);
	if (rc != SQLITE_OK) {
		rc = db ? fts_rb_db_fail(db, rc, g, path, "cannot open it", err) :
			  fts_err_set(err, -ENOMEM, "%s: out of memory", path);
		sqlite3_close(db);
		return rc;
	}
	sqlite3_progress_handler(db, GUARD_STEPS, guard, g);
	sqlite3_busy_timeout(db, BUSY_MS); /* a writer that is about to finish */
	*out = db;
	return 0;
}

/* SQLite's failure in words: what is wrong with the file, and what to do. */
static const char *reason(int ext, int *code)
{
	*code = -EINVAL;
	switch (ext & 0xff) {
	case SQLITE_NOTADB:
		return "not an SQLite database (or an encrypted one)";
	case SQLITE_CORRUPT:
		return "damaged or truncated; copy it again, or convert the capture again";
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		*code = -EBUSY;
		return "locked: another program is writing it; try again when it has finished";
	case SQLITE_READONLY:
		if (ext == SQLITE_READONLY_ROLLBACK)
			return "needs rollback: its -journal holds an interrupted write; open it once with sqlite3 as a user who may write there, then retry";
		return "read-only access refused";
	case SQLITE_IOERR:
		*code = -EIO;
		return ext == SQLITE_IOERR_SHORT_READ ? "truncated; copy it again, or convert the capture again" :
		       "read error";
	case SQLITE_NOMEM:
		*code = -ENOMEM;
		return "out of memory";
	case SQLITE_TOOBIG:
		*code = -E2BIG;
		return "holds a value over 16 MB, which no ftrace DB has";
	case SQLITE_CANTOPEN:
		*code = -EIO;
		return "cannot open it, or its -journal or -wal";
	default:
		return NULL;
	}
}

int fts_rb_db_fail(sqlite3 *db, int rc, const struct fts_rb_guard *g, const char *path,
		   const char *what, struct fts_err *err)
{
	int ext = db ? sqlite3_extended_errcode(db) : rc, code;
	const char *why;

	if (g && g->cancelled)
		return fts_err_set(err, -ECANCELED, "cancelled");
	if (g && g->exhausted)
		return fts_err_set(err, -E2BIG,
				   "%s: reading it takes far more work than its size explains (a damaged or hostile DB); refused",
				   path);
	if ((ext & 0xff) != (rc & 0xff))
		ext = rc;
	why = reason(ext, &code);
	if (!why)
		return fts_err_set(err, -EINVAL, "%s: %s: %s", path, what,
				   db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
	return fts_err_set(err, code, "%s: %s: %s (SQLite: %s)", path, what, why,
			   db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
}

/* Each of these must be a plain table: a view or virtual table can run forever. */
int fts_rb_db_tables(sqlite3 *db, const struct fts_rb_guard *g, const char *path,
		     int *has_flow, struct fts_err *err)
{
	static const char q[] = "SELECT lower(name), type, sql FROM main.sqlite_schema"
				" WHERE lower(name) IN ('thread', 'slice', 'flow')";
	sqlite3_stmt *st;
	int step, seen = 0;

	*has_flow = 0;
	step = sqlite3_prepare_v2(db, q, -1, &st, NULL);
	if (step != SQLITE_OK)
		return fts_rb_db_fail(db, step, g, path, "cannot read it", err);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *type = (const char *)sqlite3_column_text(st, 1);
		const char *sql = (const char *)sqlite3_column_text(st, 2);
		int bad = !type || strcmp(type, "table") || !sql ||
			  !sqlite3_strnicmp(sql, "CREATE VIRTUAL", 14);

		if (bad && name && type) {
			int rc = fts_err_set(err, -EINVAL,
					     "%s: not an ftrace DB: its %s is a %s, not a table (ftscope reads tables only)",
					     path, name, strcmp(type, "table") ? type : "virtual table");

			sqlite3_finalize(st);
			return rc;
		}
		if (name && !strcmp(name, "flow"))
			*has_flow = 1;
		else
			seen++;
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		return fts_rb_db_fail(db, step, g, path, "cannot read it", err);
	return seen ? 0 : fts_err_set(err, -EINVAL,
				     "%s: not an ftrace DB (no thread or slice table)", path);
}
