// SPDX-License-Identifier: MIT
/*
 * fuzz_preview_keys.c - the previewer's keys over hostile stores (issue 21).
 *
 * The input's first HDR bytes craft an ftrace DB (written with SQLite to a
 * private temp file, read back by fts_store_open as `ftscope preview` does):
 * lanes, items per lane, and where times and durations come from (extreme
 * starts near 0 and 2^63, equal starts, durations up to 2^63, many lanes, no
 * items). The rest is a key sequence, replayed on the view at a size the
 * header picks, each key followed by a draw, as `--print --keys` does; a
 * few resizes come along. No terminal: the view draws into its grid.
 *
 * libFuzzer's -timeout catches the hangs this is for (an axis loop that
 * wraps); ASan/UBSan the rest.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ftscope/preview.h>

#include "tui/widgets/keys.h"
#include "tui/preview/view.h"

#define HDR 12
#define MAX_KEYS 400
#define MAX_ITEMS 20000

/* The header, byte by byte. */
struct recipe {
	uint8_t ncpu, ntask;   /* lanes (ntask x 16 when MANY) */
	uint8_t items;         /* per lane (x 64 when MANY) */
	uint8_t flags;         /* R_* */
	uint8_t base, dur;     /* which start and duration families */
	uint8_t size;          /* the view's size */
	uint8_t pad;
	uint32_t seed;
};

#define R_MANY 1       /* many lanes and items */
#define R_EQUAL 2      /* every item of a lane starts at the same ns */
#define R_NOITEMS 4    /* lanes, no items */
#define R_LOSS 8       /* lost-events markers and no-data holes */
#define R_NAMES 16     /* names with escapes, long names, odd pids */
#define R_SPAN 32      /* a lane's first item at 1000 ns, its last ending near 2^64 */

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* A start time from one of the families that broke the view before. */
static int64_t pick_ts(const struct recipe *r, uint32_t *s, int64_t prev)
{
	static const int64_t base[] = { 1, 1000, 1000000000, 1700000000000000000,
					INT64_MAX / 2, INT64_MAX - 1000000, INT64_MAX - 1 };
	int64_t b = base[r->base % 7], step = (int64_t)(rnd(s) % 5000000);

	if (r->flags & R_EQUAL)
		return b;
	switch (rnd(s) % 8) {
	case 0: return 1 + (int64_t)(rnd(s) % 5000);       /* near the start of time */
	case 1: return INT64_MAX - (int64_t)(rnd(s) % 5000); /* near the end */
	default: return prev > INT64_MAX - step ? INT64_MAX : (prev ? prev + step : b);
	}
}

static int64_t pick_dur(const struct recipe *r, uint32_t *s)
{
	switch ((r->dur + rnd(s)) % 8) {
	case 0: return 0;
	case 1: return 1;
	case 2: return (int64_t)(rnd(s) % 100000);
	case 3: return 4294967295ll + (int64_t)(rnd(s) % 3);   /* the store's long-item edge */
	case 4: return ((int64_t)1 << 62) + rnd(s);
	case 5: return INT64_MAX - (int64_t)(rnd(s) % 7);
	default: return (int64_t)(rnd(s) % 50000000);
	}
}

static const char *cpu_name(uint32_t *s)
{
	static const char *n[] = { "model:100", "kworker/0:1:7", "irq", "softirq", "lost events",
				   "sched_switch", "no data", "\x1b]0;x\x07:5", "a:-1", ":",
				   "x:99999999999999999999" };

	return n[rnd(s) % 11];
}

static const char *task_state(uint32_t *s, const char **args)
{
	static const char *n[] = { "Running", "Runnable", "Sleeping", "Sleeping", "no data", "Unknown" };
	static const char *a[] = { "{\"cpu\":\"0\"}", "{\"cpu\":\"1\",\"reason\":\"wakeup\"}",
				   "{\"cpu\":\"0\",\"state\":\"S\"}", "{\"cpu\":\"0\",\"state\":\"D\"}",
				   "{}", "not json" };
	uint32_t k = rnd(s) % 6;

	*args = a[k];
	return n[k];
}

static int lane_row(sqlite3 *db, int track, const char *tid, const char *pid)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "INSERT INTO thread VALUES (?, ?, ?)", -1, &st, NULL))
		return -1;
	sqlite3_bind_int(st, 1, track);
	sqlite3_bind_text(st, 2, tid, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, pid, -1, SQLITE_STATIC);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

static int lanes(sqlite3 *db, const struct recipe *r, int *ncpu, int *ntask)
{
	char tid[64];

	*ncpu = r->ncpu % 9;
	*ntask = (r->flags & R_MANY) ? (r->ntask % 64) * 16 : r->ntask % 12;
	for (int i = 0; i < *ncpu; i++) {
		/* CPU numbers from 0 up, or a crafted one */
		snprintf(tid, sizeof(tid), "CPU %03d", (r->flags & R_NAMES) && i == 1 ? 65535 : i);
		if (lane_row(db, 1 + i, tid, "CPU Scheduling"))
			return -1;
	}
	for (int i = 0; i < *ntask; i++) {
		if ((r->flags & R_NAMES) && i % 3 == 1)
			snprintf(tid, sizeof(tid), "\x1b[31mred\xff\xfe:%d", 2000000000 + i);
		else
			snprintf(tid, sizeof(tid), "t%d:%d", i % 5, 100 + i);
		if (lane_row(db, 100 + i, tid, "Process Scheduling"))
			return -1;
	}
	return 0;
}

static int items(sqlite3 *db, const struct recipe *r, int ncpu, int ntask)
{
	uint32_t s = r->seed ? r->seed : 1;
	int per = (r->flags & R_MANY) ? r->items * 64 : r->items, total = 0;
	sqlite3_stmt *st;

	if (r->flags & R_NOITEMS)
		return 0;
	if (sqlite3_prepare_v2(db, "INSERT INTO slice(timestamp, duration, name, track_id, args)"
			       " VALUES (?, ?, ?, ?, ?)", -1, &st, NULL))
		return -1;
	for (int l = 0; l < ncpu + ntask && total < MAX_ITEMS; l++) {
		int64_t ts = 0;

		for (int i = 0; i < per && total < MAX_ITEMS; i++, total++) {
			const char *args = "{\"end_state\":\"S\",\"prio\":\"120\"}", *name;

			ts = pick_ts(r, &s, ts);
			if ((r->flags & R_SPAN) && (i == 0 || i == per - 1))
				ts = i ? INT64_MAX - 1000 : 1000;
			if (l < ncpu)
				name = (r->flags & R_LOSS) && i % 7 == 3 ? (i % 2 ? "lost events" : "no data") :
									  cpu_name(&s);
			else
				name = task_state(&s, &args);
			sqlite3_bind_int64(st, 1, ts);
			sqlite3_bind_int64(st, 2, (r->flags & R_SPAN) && i && i == per - 1 ? INT64_MAX :
											     pick_dur(r, &s));
			sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
			sqlite3_bind_int(st, 4, l < ncpu ? 1 + l : 100 + l - ncpu);
			sqlite3_bind_text(st, 5, args, -1, SQLITE_STATIC);
			if (sqlite3_step(st) != SQLITE_DONE)
				break;
			sqlite3_reset(st);
		}
	}
	sqlite3_finalize(st);
	return 0;
}

static int make_db(const char *path, const struct recipe *r)
{
	sqlite3 *db;
	int ncpu, ntask, rc = -1;

	if (sqlite3_open(path, &db) != SQLITE_OK)
		goto out;
	if (sqlite3_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;"
			 "CREATE TABLE thread(track_id INTEGER PRIMARY KEY, tid TEXT, pid TEXT);"
			 "CREATE TABLE slice(id INTEGER PRIMARY KEY, timestamp INTEGER, duration INTEGER,"
			 " name TEXT, track_id INTEGER, cat TEXT, args TEXT, end_time INTEGER);",
			 NULL, NULL, NULL) != SQLITE_OK)
		goto out;
	if (lanes(db, r, &ncpu, &ntask) || items(db, r, ncpu, ntask))
		goto out;
	rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
out:
	sqlite3_close(db);
	return rc;
}

/* One input byte as a key: the view's bindings first, then search text and specials. */
static int key_of(uint8_t b)
{
	static const int special[] = { FTS_KEY_UP, FTS_KEY_DOWN, FTS_KEY_LEFT, FTS_KEY_RIGHT,
				       FTS_KEY_SLEFT, FTS_KEY_SRIGHT, FTS_KEY_PGUP, FTS_KEY_PGDN,
				       FTS_KEY_HOME, FTS_KEY_END, FTS_KEY_BTAB, FTS_KEY_TAB,
				       FTS_KEY_ENTER, FTS_KEY_ESC, FTS_KEY_BACKSPACE, FTS_KEY_CTRL('l'),
				       FTS_KEY_CTRL('u') };
	static const char bound[] = "?hlkjHL+=-0gGw[]rRxXnNfpoms/";

	if (b < sizeof(bound) - 1)
		return bound[b];
	b = (uint8_t)(b - (sizeof(bound) - 1));
	if (b < sizeof(special) / sizeof(special[0]))
		return special[b];
	return 0x20 + b % 0x5f;  /* printable: search text, and unbound keys */
}

static const int sizes[][2] = { { 20, 6 }, { 80, 24 }, { 132, 43 }, { 33, 11 }, { 1, 1 }, { 300, 60 } };

static void replay(const struct fts_store *store, const struct recipe *r, const uint8_t *k, size_t n)
{
	struct fts_view_opts o = { .title = "fuzz.db", .utf8 = r->size & 8, .colors = r->size & 16 ? 256 : 0 };
	int si = r->size % 6;
	struct fts_view *v;

	if (fts_view_create(store, &o, sizes[si][0], sizes[si][1], &v))
		return;
	fts_view_draw(v);
	for (size_t i = 0; i < n && i < MAX_KEYS; i++) {
		if (k[i] == 0xff) { /* a resize, as SIGWINCH does */
			si = (si + 1) % 6;
			fts_view_resize(v, sizes[si][0], sizes[si][1]);
		} else if (fts_view_key(v, key_of(k[i])) & FTS_RX_QUIT) {
			break;
		}
		fts_view_draw(v);
	}
	fts_view_free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fts_store_open_opts so = { 0 };
	struct fts_store *store = NULL;
	struct fts_err err = { 0 };
	struct recipe r;
	char path[256];
	int fd;

	if (size < HDR)
		return 0;
	memcpy(&r, data, HDR);
	snprintf(path, sizeof(path), "%s/fts-fuzz-keys-XXXXXX.db",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemps(path, 3);
	if (fd < 0)
		return 0;
	close(fd);
	if (make_db(path, &r) == 0) {
		so.path = path;
		if (fts_store_open(&so, &store, &err) == 0)
			replay(store, &r, data + HDR, size - HDR);
		else if (getenv("FTS_FUZZ_VERBOSE"))
			fprintf(stderr, "%s\n", err.msg);
		fts_store_free(store);
	}
	if (getenv("FTS_FUZZ_KEEP"))
		fprintf(stderr, "kept %s\n", path);
	else
		unlink(path);
	return 0;
}
