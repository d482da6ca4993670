// SPDX-License-Identifier: MIT
/*
 * db_scan.c - a statement's rows stepped by SQLite on a thread of its own
 * and handed to the caller's thread in order, through a ring of a few
 * batches (issue 20: a DB load within 1.5x of a bare SQLite scan uses both
 * cores; SQLite's record decoding on one, the store and statistics on the
 * other). A batch holds the row's numbers and copies of its text, so the
 * caller never touches the statement while SQLite moves on. The args'
 * JSON (the costliest step after SQLite's own) is split here while the
 * caller is the slower side (the ring fills), by the caller otherwise, so
 * the two threads carry about half each whatever the machine.
 *
 * Every callback runs on the caller's thread, as without the thread: the
 * progress handler (the guard) only counts its budget and watches @halt
 * while the scan thread steps; the caller reports progress, including while
 * it waits for a batch, so q still stops a DB whose rows come slowly.
 */
#include "core/readback/db_scan.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/internal.h"

/* 8 x 4096 rows: each side wakes the other once per half ring, not per batch */
#define NBATCH 8
#define BATCH_ROWS 4096
#define BATCH_TEXT (512u << 10)
#define WAIT_MS 100

struct raw {
	int64_t v[4];               /* the statement's first four columns */
	uint32_t name_off, name_len, args_off, args_len;
	uint32_t pair0;             /* its first pair in the batch's pairs */
	uint8_t has_name, has_args, npairs;
};

/* A split arg: its key and value as offsets into the batch's text. */
struct pair {
	uint32_t k, v;
};

struct batch {
	struct raw r[BATCH_ROWS];
	size_t n;
	char *text;                 /* names, args and their split pairs, each NUL-terminated */
	size_t used, cap;
	struct pair *pairs;
	size_t npairs, cappairs;
	int split;                  /* the args were split here (else the caller splits them) */
};

struct scan {
	sqlite3_stmt *st;
	struct fts_rb_guard *g;
	pthread_mutex_t mu;
	pthread_cond_t filled, emptied;
	struct batch b[NBATCH];
	size_t head, tail;          /* batches taken by the caller, and handed over */
	int step;                   /* SQLite's last code, once done */
	char room[FTS_RB_ARGS_ROOM]; /* the scan thread's: one row's args, unescaped */
	int done, oom;
	int want_room, want_rows;   /* a side sleeps until the ring is half empty / half full */
};

/* Room for @n more bytes of text in @b; 0 or -1 (no memory). */
static int text_room(struct batch *b, size_t n)
{
	size_t cap = b->cap ? b->cap : BATCH_TEXT;
	char *t;

	if (b->used + n <= b->cap)
		return 0;
	while (cap < b->used + n)
		cap *= 2;
	t = realloc(b->text, cap);
	if (!t)
		return -1;
	b->text = t;
	b->cap = cap;
	return 0;
}

/* Column @c's text into @b: its offset and length, or has = 0 when NULL. */
static int keep_text(sqlite3_stmt *st, int c, struct batch *b, uint32_t *off, uint32_t *len,
		     uint8_t *has)
{
	const unsigned char *t = sqlite3_column_text(st, c);
	size_t n = t ? (size_t)sqlite3_column_bytes(st, c) : 0;

	*has = t != NULL;
	*off = *len = 0;
	if (!t)
		return 0;
	if (text_room(b, n + 1))
		return -1;
	memcpy(b->text + b->used, t, n);
	b->text[b->used + n] = 0;
	*off = (uint32_t)b->used;
	*len = (uint32_t)n; /* SQLITE_LIMIT_LENGTH keeps it far below 4 GiB */
	b->used += n + 1;
	return 0;
}

/*
 * Row @r's args split as the pipeline would split them (fts_args_parse into
 * FTS_RB_ARGS_ROOM bytes): the JSON parsing moves to this thread. The
 * strings go into the batch's text, the pairs into its pairs. 0 or -1.
 */
static int split_args(struct batch *b, struct raw *r, char *room)
{
	struct fts_arg a[FTS_ITEM_MAX_ARGS];
	size_t end = 0;
	int na = 0;

	r->pair0 = (uint32_t)b->npairs;
	r->npairs = 0;
	if (r->has_args)
		na = fts_args_parse(b->text + r->args_off, r->args_len, a, FTS_ITEM_MAX_ARGS, room,
				    FTS_RB_ARGS_ROOM);
	if (na <= 0)
		return 0; /* Insight treats args that are not an object as empty */
	for (int i = 0; i < na; i++) {
		const char *e = a[i].val + strlen(a[i].val) + 1;

		if ((size_t)(e - room) > end)
			end = (size_t)(e - room);
	}
	if (b->npairs + (size_t)na > b->cappairs) {
		size_t cap = b->cappairs ? b->cappairs * 2 : BATCH_ROWS * 4;
		struct pair *p;

		while (cap < b->npairs + (size_t)na)
			cap *= 2;
		p = realloc(b->pairs, cap * sizeof(*p));
		if (!p)
			return -1;
		b->pairs = p;
		b->cappairs = cap;
	}
	if (text_room(b, end))
		return -1;
	memcpy(b->text + b->used, room, end);
	for (int i = 0; i < na; i++) {
		b->pairs[b->npairs + (size_t)i].k = (uint32_t)(b->used + (size_t)(a[i].key - room));
		b->pairs[b->npairs + (size_t)i].v = (uint32_t)(b->used + (size_t)(a[i].val - room));
	}
	b->used += end;
	b->npairs += (size_t)na;
	r->npairs = (uint8_t)na;
	return 0;
}

/* Fill batch @b from the statement: 1 more may come, 0 done (sc->step set), -1 no memory. */
static int fill(struct scan *sc, struct batch *b)
{
	int step;

	b->n = 0;
	b->used = 0;
	b->npairs = 0;
	while (b->n < BATCH_ROWS && b->used < BATCH_TEXT) {
		struct raw *r = &b->r[b->n];

		step = sqlite3_step(sc->st);
		if (step != SQLITE_ROW) {
			sc->step = step;
			return 0;
		}
		for (int c = 0; c < 4; c++)
			r->v[c] = sqlite3_column_int64(sc->st, c);
		if (keep_text(sc->st, 4, b, &r->name_off, &r->name_len, &r->has_name) ||
		    keep_text(sc->st, 5, b, &r->args_off, &r->args_len, &r->has_args) ||
		    (b->split && split_args(b, r, sc->room)))
			return -1;
		b->n++;
	}
	return 1;
}

static void *scan_main(void *arg)
{
	struct scan *sc = arg;
	int more = 1;

	while (more) {
		struct batch *b;

		pthread_mutex_lock(&sc->mu);
		if (sc->tail - sc->head == NBATCH) {
			/* full: sleep until half of it is taken (one wakeup per NBATCH / 2 batches) */
			sc->want_room = 1;
			while (sc->tail - sc->head > NBATCH / 2 && !atomic_load(&sc->g->halt))
				pthread_cond_wait(&sc->emptied, &sc->mu);
			sc->want_room = 0;
		}
		/*
		 * Balance: the caller keeping up (the ring below half) waits for us,
		 * so it splits the args itself; else splitting here spares it.
		 */
		sc->b[sc->tail % NBATCH].split = sc->tail - sc->head >= NBATCH / 2;
		pthread_mutex_unlock(&sc->mu);
		if (atomic_load(&sc->g->halt))
			break;
		b = &sc->b[sc->tail % NBATCH]; /* ours until handed over */
		more = fill(sc, b);
		pthread_mutex_lock(&sc->mu);
		if (more < 0)
			sc->oom = 1;
		else
			sc->tail++;
		if (more <= 0)
			sc->done = 1;
		if (sc->want_rows && (sc->tail - sc->head >= NBATCH / 2 || sc->done))
			pthread_cond_signal(&sc->filled);
		pthread_mutex_unlock(&sc->mu);
	}
	pthread_mutex_lock(&sc->mu);
	sc->done = 1;
	pthread_cond_signal(&sc->filled);
	pthread_mutex_unlock(&sc->mu);
	return NULL;
}

static void deadline_in(struct timespec *ts, long ms)
{
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_nsec += ms * 1000000L;
	ts->tv_sec += ts->tv_nsec / 1000000000L;
	ts->tv_nsec %= 1000000000L;
}

/* Hand batch @b's rows to @fn; its first non-zero return. */
static int hand_over(const struct batch *b, fts_rb_raw_fn fn, void *ctx, struct fts_err *err)
{
	for (size_t i = 0; i < b->n; i++) {
		const struct raw *r = &b->r[i];
		struct fts_arg a[FTS_ITEM_MAX_ARGS];
		struct fts_rb_raw row = {
			.rowid = r->v[0], .track = r->v[1], .ts = r->v[2], .dur = r->v[3],
			.name = r->has_name ? b->text + r->name_off : NULL, .name_len = r->name_len,
			.args = r->has_args ? b->text + r->args_off : NULL, .args_len = r->args_len,
			.parsed = b->split ? a : NULL, .nparsed = r->npairs,
		};
		int rc;

		for (int k = 0; k < r->npairs; k++) {
			a[k].key = b->text + b->pairs[r->pair0 + (uint32_t)k].k;
			a[k].val = b->text + b->pairs[r->pair0 + (uint32_t)k].v;
		}
		rc = fn(ctx, &row, err);

		if (rc)
			return rc;
	}
	return 0;
}

/* Without a second thread: the same rows, stepped here. */
static int scan_inline(sqlite3_stmt *st, fts_rb_raw_fn fn, void *ctx, int *step, struct fts_err *err)
{
	int rc = 0;

	while ((*step = sqlite3_step(st)) == SQLITE_ROW) {
		struct fts_rb_raw row = {
			.rowid = sqlite3_column_int64(st, 0), .track = sqlite3_column_int64(st, 1),
			.ts = sqlite3_column_int64(st, 2), .dur = sqlite3_column_int64(st, 3),
		};

		row.name = (const char *)sqlite3_column_text(st, 4);
		row.name_len = row.name ? (size_t)sqlite3_column_bytes(st, 4) : 0;
		row.args = (const char *)sqlite3_column_text(st, 5);
		row.args_len = row.args ? (size_t)sqlite3_column_bytes(st, 5) : 0;
		rc = fn(ctx, &row, err);
		if (rc)
			break;
	}
	return rc;
}

/*
 * With @sc->mu held, the ring empty: sleep until half of it is filled (or the
 * scan ends). Returns 0, or the non-zero of @wait (@sc->mu held again).
 */
static int wait_rows(struct scan *sc, fts_rb_wait_fn wait, void *ctx, struct fts_err *err)
{
	int rc;

	while (sc->head == sc->tail && !sc->done) {
		struct timespec ts;

		deadline_in(&ts, WAIT_MS);
		sc->want_rows = 1;
		while (sc->tail - sc->head < NBATCH / 2 && !sc->done &&
		       pthread_cond_timedwait(&sc->filled, &sc->mu, &ts) != ETIMEDOUT)
			;
		sc->want_rows = 0;
		if (sc->head == sc->tail && !sc->done && wait) {
			/* SQLite works without a row to show: the caller still reports, may cancel */
			pthread_mutex_unlock(&sc->mu);
			rc = wait(ctx, err);
			pthread_mutex_lock(&sc->mu);
			if (rc)
				return rc;
		}
	}
	return 0;
}

int fts_rb_scan(sqlite3_stmt *st, struct fts_rb_guard *g, fts_rb_raw_fn fn, fts_rb_wait_fn wait,
		void *ctx, int *step, struct fts_err *err)
{
	struct scan *sc = calloc(1, sizeof(*sc));
	pthread_t th;
	int rc = 0;

	*step = SQLITE_DONE;
	if (!sc)
		return scan_inline(st, fn, ctx, step, err);
	sc->st = st;
	sc->g = g;
	pthread_mutex_init(&sc->mu, NULL);
	pthread_cond_init(&sc->filled, NULL);
	pthread_cond_init(&sc->emptied, NULL);
	g->quiet = 1; /* from now the guard may run on the scan thread: no callbacks there */
	if (fts__thread_start(&th, NULL, scan_main, sc)) {
		g->quiet = 0;
		rc = scan_inline(st, fn, ctx, step, err);
		goto out;
	}
	for (;;) {
		struct batch *b;
		int last;

		pthread_mutex_lock(&sc->mu);
		rc = wait_rows(sc, wait, ctx, err);
		last = sc->head == sc->tail;
		pthread_mutex_unlock(&sc->mu);
		if (rc || last)
			break;
		b = &sc->b[sc->head % NBATCH];
		rc = hand_over(b, fn, ctx, err);
		pthread_mutex_lock(&sc->mu);
		sc->head++;
		if (sc->want_room && sc->tail - sc->head <= NBATCH / 2)
			pthread_cond_signal(&sc->emptied);
		pthread_mutex_unlock(&sc->mu);
		if (rc)
			break;
	}
	/* stop the scan thread wherever it is: waiting for room, or inside sqlite3_step */
	pthread_mutex_lock(&sc->mu);
	if (rc)
		atomic_store(&g->halt, 1);
	pthread_cond_signal(&sc->emptied);
	pthread_mutex_unlock(&sc->mu);
	pthread_join(th, NULL);
	g->quiet = 0;
	if (!rc && sc->oom)
		rc = fts_err_set(err, -ENOMEM, "out of memory");
	if (!rc)
		*step = sc->step;
out:
	for (int i = 0; i < NBATCH; i++) {
		free(sc->b[i].text);
		free(sc->b[i].pairs);
	}
	pthread_cond_destroy(&sc->filled);
	pthread_cond_destroy(&sc->emptied);
	pthread_mutex_destroy(&sc->mu);
	free(sc);
	return rc;
}
