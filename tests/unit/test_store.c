// SPDX-License-Identifier: MIT
/*
 * Unit tests for the preview lane store: a real capture loaded through the
 * pipeline, checked item by item against what the model handed any sink, and
 * bucket by bucket against a brute-force walk; a DB and a JSON of the same
 * capture read back; and a small DB shaped like the reference converter's
 * (overlapping slices, numeric args, "Unknown" states) with hand-checked
 * buckets.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "ftscope/ftscope.h"
#include "ftscope/preview.h"
#include "ftscope/stats.h"

#define IRQ_TXT FTS_TEST_DATA "/irq/irq.txt"

/* ---- a sink that keeps everything, as the oracle ---- */

struct rec_item {
	uint32_t lane;
	enum fts_item_kind kind;
	uint64_t ts, dur;
	char *name;
	char *args; /* "k=v;k=v;" */
};

#define REC_MAX_LANES 32768 /* test_many_tasks: 20000 task lanes */

struct rec_sink {
	struct fts_sink s;
	char *tid[REC_MAX_LANES];
	enum fts_lane_group group[REC_MAX_LANES];
	uint32_t nlanes;
	struct rec_item *it;
	size_t n, cap;
};

static char *args_str(const struct fts_arg *a, int n)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < n; i++)
		len += strlen(a[i].key) + strlen(a[i].val) + 2;
	s = malloc(len);
	s[0] = '\0';
	for (int i = 0; i < n; i++) {
		strcat(s, a[i].key);
		strcat(s, "=");
		strcat(s, a[i].val);
		strcat(s, ";");
	}
	return s;
}

static int rec_lane(struct fts_sink *s, const struct fts_lane *l, struct fts_err *err)
{
	struct rec_sink *r = (struct rec_sink *)s;

	(void)err;
	assert_true(l->id < REC_MAX_LANES);
	r->tid[l->id] = strdup(l->tid);
	r->group[l->id] = l->group;
	if (l->id >= r->nlanes)
		r->nlanes = l->id + 1;
	return 0;
}

static int rec_item(struct fts_sink *s, const struct fts_item *it, struct fts_err *err)
{
	struct rec_sink *r = (struct rec_sink *)s;

	(void)err;
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 1024;
		r->it = realloc(r->it, r->cap * sizeof(*r->it));
	}
	r->it[r->n].lane = it->lane;
	r->it[r->n].kind = it->kind;
	r->it[r->n].ts = it->ts;
	r->it[r->n].dur = it->dur;
	r->it[r->n].name = strdup(it->name);
	r->it[r->n].args = args_str(it->args, it->nargs);
	r->n++;
	return 0;
}

static int rec_finish(struct fts_sink *s, int ok, struct fts_err *err)
{
	struct rec_sink *r = (struct rec_sink *)s;

	(void)err;
	r->s.lane = ok ? r->s.lane : NULL; /* marks "finished with ok=0" for the cancel test */
	return 0;
}

static void rec_destroy(struct fts_sink *s)
{
	struct rec_sink *r = (struct rec_sink *)s;

	for (uint32_t i = 0; i < r->nlanes; i++)
		free(r->tid[i]);
	for (size_t i = 0; i < r->n; i++) {
		free(r->it[i].name);
		free(r->it[i].args);
	}
	free(r->it);
	free(r);
}

static struct rec_sink *rec_new(void)
{
	struct rec_sink *r = calloc(1, sizeof(*r));

	r->s.lane = rec_lane;
	r->s.item = rec_item;
	r->s.finish = rec_finish;
	r->s.destroy = rec_destroy;
	return r;
}

/* ---- helpers ---- */

static struct fts_store *open_store(const char *path, struct fts_sink *extra)
{
	struct fts_store_open_opts o = { .path = path, .extra = extra };
	struct fts_err err = { 0 };
	struct fts_store *s = NULL;
	int rc = fts_store_open(&o, &s, &err);

	if (rc)
		fprintf(stderr, "fts_store_open(%s): %s\n", path, err.msg);
	assert_int_equal(rc, 0);
	assert_non_null(s);
	return s;
}

static int32_t lane_by_tid(const struct fts_store *s, const char *tid)
{
	for (uint32_t i = 0; i < fts_store_nlanes(s); i++)
		if (!strcmp(fts_store_str(s, fts_store_lane(s, i)->tid), tid))
			return (int32_t)i;
	return -1;
}

static char *store_args_str(const struct fts_store *s, uint32_t lane, uint64_t i)
{
	struct fts_arg a[FTS_ITEM_MAX_ARGS];
	char buf[512];
	int n = fts_store_args(s, lane, i, a, FTS_ITEM_MAX_ARGS, buf, sizeof(buf));

	assert_true(n >= 0);
	return args_str(a, n);
}

/* brute force over the oracle's items of one lane */
static void oracle_bucket(const struct rec_sink *r, uint32_t src_lane, uint64_t t0, uint64_t t1,
			  uint32_t *flags, uint64_t *items, uint64_t *busy)
{
	*flags = 0;
	*items = 0;
	*busy = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct rec_item *it = &r->it[i];
		uint64_t e = it->ts + it->dur, a, b;
		static const uint32_t kf[FTS_ITEM__COUNT] = {
			[FTS_ITEM_SWITCH] = FTS_BK_SWITCH, [FTS_ITEM_IRQ] = FTS_BK_IRQ,
			[FTS_ITEM_SOFTIRQ] = FTS_BK_SOFTIRQ, [FTS_ITEM_LOST] = FTS_BK_LOST,
			[FTS_ITEM_RUNNING] = FTS_BK_RUNNING, [FTS_ITEM_RUNNABLE] = FTS_BK_RUNNABLE,
			[FTS_ITEM_SLEEPING] = FTS_BK_SLEEPING, [FTS_ITEM_BLOCKED] = FTS_BK_BLOCKED,
			[FTS_ITEM_NODATA] = FTS_BK_NODATA,
		};

		if (it->lane != src_lane || it->ts >= t1 || (it->dur ? e <= t0 : it->ts < t0))
			continue;
		(*items)++;
		*flags |= FTS_BK_ANY | kf[it->kind];
		a = it->ts > t0 ? it->ts : t0;
		b = e < t1 ? e : t1;
		if (it->kind == FTS_ITEM_RUN || it->kind == FTS_ITEM_RUNNING)
			*busy += b - a;
	}
}

/* ---- tests ---- */

/* Every item the model produced is in the store, in start order, with its args. */
static void test_trace_items_match_model(void **state)
{
	struct rec_sink *r = rec_new();
	struct fts_store *s;
	uint64_t total = 0;

	(void)state;
	s = open_store(IRQ_TXT, &r->s);
	assert_int_equal(fts_store_info(s)->source, FTS_SRC_TRACE_TEXT);
	assert_int_equal(fts_store_info(s)->items, r->n);
	assert_int_equal(fts_store_nlanes(s), r->nlanes);
	for (uint32_t src = 0; src < r->nlanes; src++) {
		int32_t lane = lane_by_tid(s, r->tid[src]);
		uint64_t n = 0, prev = 0;

		assert_true(lane >= 0);
		for (size_t i = 0; i < r->n; i++)
			n += r->it[i].lane == src;
		assert_int_equal(fts_store_lane(s, (uint32_t)lane)->nitems, n);
		total += n;
		for (uint64_t k = 0; k < n; k++) {
			struct fts_store_item si;
			int found = 0;
			char *as;

			assert_int_equal(fts_store_item(s, (uint32_t)lane, k, &si), 0);
			assert_true(si.ts >= prev);
			prev = si.ts;
			as = store_args_str(s, (uint32_t)lane, k);
			for (size_t i = 0; i < r->n && !found; i++) {
				const struct rec_item *it = &r->it[i];

				found = it->lane == src && it->ts == si.ts && it->dur == si.dur &&
					it->kind == si.kind &&
					!strcmp(it->name, fts_store_str(s, si.name)) && !strcmp(it->args, as);
			}
			if (!found)
				fprintf(stderr, "lane %s item %llu (%s %s) not produced by the model\n",
					r->tid[src], (unsigned long long)k, fts_store_str(s, si.name), as);
			assert_true(found);
			free(as);
		}
	}
	assert_int_equal(total, r->n);
	/* CPU lanes come first, by CPU */
	assert_int_equal(fts_store_lane(s, 0)->group, FTS_GROUP_CPU);
	assert_int_equal(fts_store_lane(s, 0)->cpu, 0);
	assert_int_equal(fts_store_lane(s, 1)->cpu, 1);
	assert_int_equal(fts_store_lane(s, 2)->group, FTS_GROUP_TASK);
	assert_int_equal(fts_store_info(s)->ncpu_lanes, 2);
	fts_store_free(s);
	r->s.destroy(&r->s);
}

/* Buckets of every width agree with a brute-force walk over the model's items. */
static void test_trace_buckets_match_brute_force(void **state)
{
	struct rec_sink *r = rec_new();
	struct fts_store *s;
	const struct fts_store_info *in;
	unsigned seed = 7;

	(void)state;
	s = open_store(IRQ_TXT, &r->s);
	in = fts_store_info(s);
	assert_true(in->t_end > in->t_begin);
	for (uint32_t src = 0; src < r->nlanes; src++) {
		uint32_t lane = (uint32_t)lane_by_tid(s, r->tid[src]);

		for (int k = 0; k < 300; k++) {
			uint64_t span = in->t_end - in->t_begin + 1;
			uint64_t w = k % 3 == 0 ? span / (1 + rand_r(&seed) % 4) :
				     k % 3 == 1 ? 1 + (uint64_t)rand_r(&seed) % 100000 :
						  1 + (uint64_t)rand_r(&seed) % 10000000;
			uint64_t t0 = in->t_begin - 10 + (uint64_t)rand_r(&seed) % span, items, busy;
			uint32_t flags;
			struct fts_bucket b;

			fts_store_bucket(s, lane, t0, t0 + w, &b);
			oracle_bucket(r, src, t0, t0 + w, &flags, &items, &busy);
			assert_int_equal(b.flags & ~FTS_BK_MIXED, flags);
			assert_int_equal(b.items, items);
			assert_int_equal(b.busy_ns, busy);
			if (r->group[src] == FTS_GROUP_TASK && b.top != FTS_STR_NONE)
				assert_true(b.top >= FTS_ITEM_RUNNING && b.top <= FTS_ITEM_BLOCKED);
		}
	}
	fts_store_free(s);
	r->s.destroy(&r->s);
}

/*
 * Hand-checked on irq.txt: bash-14349 on CPU 1 takes irq 36 from 597.121733
 * to 597.121738 (lines 31 and 33). A bucket of a whole second around it, and
 * one of 1 us on its start, both show it; the shortest item covering its
 * middle is the irq itself, 5 us long, with the irq's args.
 */
static void test_trace_irq_hand_checked(void **state)
{
	struct fts_store *s = open_store(IRQ_TXT, NULL);
	int32_t cpu1 = lane_by_tid(s, "CPU 001");
	struct fts_store_item it;
	struct fts_arg a[FTS_ITEM_MAX_ARGS];
	struct fts_bucket b;
	char buf[256];
	int64_t idx;
	int n, seen = 0;

	(void)state;
	assert_true(cpu1 >= 0);
	fts_store_bucket(s, (uint32_t)cpu1, 597000000000ull, 598000000000ull, &b);
	assert_true(b.flags & FTS_BK_IRQ);
	assert_true(b.flags & FTS_BK_MIXED);
	fts_store_bucket(s, (uint32_t)cpu1, 597121733000ull, 597121734000ull, &b);
	assert_true(b.flags & FTS_BK_IRQ);
	assert_string_equal(fts_store_str(s, b.top), "bash:14349");
	assert_int_equal(b.top_ns, 1000);
	assert_int_equal(b.busy_ns, 1000);
	/* 1 us before it: no irq */
	fts_store_bucket(s, (uint32_t)cpu1, 597121732000ull, 597121733000ull, &b);
	assert_false(b.flags & FTS_BK_IRQ);

	idx = fts_store_find(s, (uint32_t)cpu1, 597121735000ull, 0);
	assert_true(idx >= 0);
	assert_int_equal(fts_store_item(s, (uint32_t)cpu1, (uint64_t)idx, &it), 0);
	assert_int_equal(it.kind, FTS_ITEM_IRQ);
	assert_int_equal(it.ts, 597121733000ull);
	assert_int_equal(it.dur, 5000);
	assert_int_equal(it.cpu, 1);
	n = fts_store_args(s, (uint32_t)cpu1, (uint64_t)idx, a, FTS_ITEM_MAX_ARGS, buf, sizeof(buf));
	for (int i = 0; i < n; i++) {
		if (!strcmp(a[i].key, "name")) {
			assert_string_equal(a[i].val, "virtio1-req.0");
			seen++;
		}
		if (!strcmp(a[i].key, "task")) {
			assert_string_equal(a[i].val, "bash:14349");
			seen++;
		}
	}
	assert_int_equal(seen, 2);
	/* asking for run slices only gives the slice the irq interrupted */
	idx = fts_store_find(s, (uint32_t)cpu1, 597121735000ull, FTS_KIND_BIT(FTS_ITEM_RUN));
	assert_int_equal(fts_store_item(s, (uint32_t)cpu1, (uint64_t)idx, &it), 0);
	assert_int_equal(it.kind, FTS_ITEM_RUN);
	assert_string_equal(fts_store_str(s, it.name), "bash:14349");
	assert_true(it.ts <= 597121733000ull && it.ts + it.dur >= 597121738000ull);
	fts_store_free(s);
}

/* A row of buckets at once answers as the buckets one by one do. */
static void test_buckets_row_matches_single(void **state)
{
	struct fts_store *s = open_store(IRQ_TXT, NULL);
	const struct fts_store_info *in = fts_store_info(s);
	struct fts_bucket row[300], one;
	unsigned seed = 3;

	(void)state;
	for (uint32_t lane = 0; lane < fts_store_nlanes(s); lane++) {
		for (int k = 0; k < 40; k++) {
			uint64_t span = in->t_end - in->t_begin + 1;
			uint32_t n = 1 + (uint32_t)rand_r(&seed) % 300;
			uint64_t w = k == 0 ? span : n + (uint64_t)rand_r(&seed) % (span / (1 + k % 7));
			uint64_t t0 = k == 0 ? in->t_begin : in->t_begin + (uint64_t)rand_r(&seed) % span;

			assert_int_equal(fts_store_buckets(s, lane, t0, t0 + w, n, row), 0);
			for (uint32_t c = 0; c < n; c++) {
				uint64_t a = t0 + (uint64_t)((unsigned __int128)w * c / n);
				uint64_t b = t0 + (uint64_t)((unsigned __int128)w * (c + 1) / n);

				fts_store_bucket(s, lane, a, b, &one);
				assert_int_equal(row[c].flags, one.flags);
				assert_int_equal(row[c].items, one.items);
				assert_int_equal(row[c].busy_ns, one.busy_ns);
				/* where both are exact (few items), the dominant one agrees too */
				if (one.items <= 2) {
					assert_int_equal(row[c].top, one.top);
					assert_int_equal(row[c].top_ns, one.top_ns);
				}
			}
		}
	}
	assert_int_equal(fts_store_buckets(s, 0, 10, 10, 1, row), -EINVAL);
	assert_int_equal(fts_store_buckets(s, 0, 10, 12, 3, row), -EINVAL);
	fts_store_free(s);
}

/* Stepping by kind visits exactly the items of that kind, both ways. */
static void test_step_by_kind(void **state)
{
	struct fts_store *s = open_store(IRQ_TXT, NULL);

	(void)state;
	for (uint32_t lane = 0; lane < fts_store_nlanes(s); lane++) {
		uint64_t n = fts_store_lane(s, lane)->nitems, want = 0, got = 0;
		uint32_t mask = FTS_KIND_BIT(FTS_ITEM_IRQ) | FTS_KIND_BIT(FTS_ITEM_RUNNABLE);
		int64_t i, last = -1;

		for (uint64_t k = 0; k < n; k++) {
			struct fts_store_item it;

			fts_store_item(s, lane, k, &it);
			if (mask & FTS_KIND_BIT(it.kind)) {
				want++;
				last = (int64_t)k;
			}
		}
		for (i = fts_store_step(s, lane, 0, 1, mask); i >= 0;
		     i = fts_store_step(s, lane, (uint64_t)i, 1, mask))
			got++;
		{
			struct fts_store_item it0;

			fts_store_item(s, lane, 0, &it0);
			got += (mask & FTS_KIND_BIT(it0.kind)) ? 1 : 0;
		}
		assert_int_equal(got, want);
		if (last >= 0) {
			uint64_t back = 1;

			for (i = fts_store_step(s, lane, (uint64_t)last, -1, mask); i >= 0;
			     i = fts_store_step(s, lane, (uint64_t)i, -1, mask))
				back++;
			assert_int_equal(back, want);
		}
	}
	fts_store_free(s);
}

static char tmpdir[64];

static int make_tmp(void **state)
{
	(void)state;
	strcpy(tmpdir, "/tmp/fts_store_XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int rm_tmp(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Our DB and JSON of a capture read back into the same store as the capture. */
static void compare_readback(enum fts_out_format fmt, const char *name, enum fts_store_source src)
{
	struct fts_convert_opts co = { .input = IRQ_TXT, .format = fmt, .cs_rows = 1 };
	struct fts_err err = { 0 };
	struct fts_store *a, *b;
	char out[128];

	snprintf(out, sizeof(out), "%s/%s", tmpdir, name);
	co.output = out;
	assert_int_equal(fts_convert(&co, NULL, &err), 0);
	a = open_store(IRQ_TXT, NULL);
	b = open_store(out, NULL);
	assert_int_equal(fts_store_info(b)->source, src);
	assert_int_equal(fts_store_info(b)->items, fts_store_info(a)->items);
	assert_int_equal(fts_store_info(b)->t_begin, fts_store_info(a)->t_begin);
	assert_int_equal(fts_store_info(b)->t_end, fts_store_info(a)->t_end);
	assert_int_equal(fts_store_nlanes(b), fts_store_nlanes(a));
	for (uint32_t la = 0; la < fts_store_nlanes(a); la++) {
		const struct fts_store_lane *x = fts_store_lane(a, la);
		int32_t lb = lane_by_tid(b, fts_store_str(a, x->tid));
		uint64_t step = (fts_store_info(a)->t_end - fts_store_info(a)->t_begin) / 97 + 1;

		assert_true(lb >= 0);
		assert_int_equal(fts_store_lane(b, (uint32_t)lb)->nitems, x->nitems);
		assert_int_equal(fts_store_lane(b, (uint32_t)lb)->host_pid, x->host_pid);
		for (uint64_t k = 0; k < x->nitems; k++) {
			char *sa = store_args_str(a, la, k), *sb = store_args_str(b, (uint32_t)lb, k);
			struct fts_store_item ia, ib;

			fts_store_item(a, la, k, &ia);
			fts_store_item(b, (uint32_t)lb, k, &ib);
			assert_int_equal(ia.ts, ib.ts);
			assert_int_equal(ia.dur, ib.dur);
			assert_int_equal(ia.kind, ib.kind);
			assert_string_equal(fts_store_str(a, ia.name), fts_store_str(b, ib.name));
			assert_string_equal(sa, sb);
			free(sa);
			free(sb);
		}
		for (uint64_t t = fts_store_info(a)->t_begin; t < fts_store_info(a)->t_end; t += step) {
			struct fts_bucket ba, bb;

			fts_store_bucket(a, la, t, t + step, &ba);
			fts_store_bucket(b, (uint32_t)lb, t, t + step, &bb);
			assert_int_equal(ba.flags, bb.flags);
			assert_int_equal(ba.items, bb.items);
			assert_int_equal(ba.busy_ns, bb.busy_ns);
			assert_int_equal(ba.top_ns, bb.top_ns);
			/* two tasks with the same time: either may be named, ties are not ordered */
			if (strcmp(fts_store_str(a, ba.top), fts_store_str(b, bb.top)))
				assert_true(ba.top != FTS_STR_NONE && bb.top != FTS_STR_NONE);
		}
	}
	fts_store_free(a);
	fts_store_free(b);
}

static void test_db_readback(void **state)
{
	struct rec_sink *r = rec_new();
	struct fts_store *a, *b;
	char db[128];

	(void)state;
	compare_readback(FTS_OUT_DB, "ftrace_data.db", FTS_SRC_DB);
	/* with another sink to feed, the DB goes through the pipeline's replay: same store */
	snprintf(db, sizeof(db), "%s/ftrace_data.db", tmpdir);
	a = open_store(db, NULL);
	b = open_store(db, &r->s);
	assert_int_equal(r->n, fts_store_info(a)->items);
	assert_int_equal(fts_store_info(b)->items, fts_store_info(a)->items);
	assert_int_equal(fts_store_bytes(b), fts_store_bytes(a));
	for (uint32_t l = 0; l < fts_store_nlanes(a); l++) {
		for (uint64_t k = 0; k < fts_store_lane(a, l)->nitems; k++) {
			char *x = store_args_str(a, l, k), *y = store_args_str(b, l, k);

			assert_string_equal(x, y);
			free(x);
			free(y);
		}
	}
	fts_store_free(a);
	fts_store_free(b);
	r->s.destroy(&r->s);
}

static void test_json_readback(void **state)
{
	(void)state;
	compare_readback(FTS_OUT_JSON, "ftrace_data.json", FTS_SRC_JSON);
}

/*
 * A DB shaped like the reference converter's: thread rows keyed by tid with
 * no sort index, lanes declared out of CPU order, run slices overlapping by
 * 250 ns (its float round trip), numeric args, an "Unknown" state.
 *
 *   CPU 1  a:10  [1000, 2250)  b:20 [2000, 3000)  irq [2100, 2150)
 *   CPU 0  a:10  [5000, 6000)
 *   a:10   Running [1000, 2250)  Unknown [2250, 5000)  Running [5000, 6000)
 */
static void make_ref_db(const char *path)
{
	static const char *sql =
		"CREATE TABLE process (pid TEXT PRIMARY KEY, process_name TEXT, label TEXT, process_sort_index INTEGER);"
		"CREATE TABLE thread (track_id INTEGER PRIMARY KEY, tid TEXT, pid TEXT, thread_name TEXT, thread_sort_index INTEGER);"
		"CREATE TABLE slice (id INTEGER PRIMARY KEY AUTOINCREMENT, timestamp INTEGER, duration INTEGER, name TEXT, depth INTEGER, track_id INTEGER, cat TEXT, args TEXT, cname TEXT, end_time INTEGER, flag_id TEXT);"
		"CREATE TABLE counter (id INTEGER, name TEXT, pid TEXT, timestamp INTEGER, cat TEXT, args TEXT);"
		"CREATE TABLE flow (id INTEGER, flow_id TEXT, name TEXT, cat TEXT, track_id INTEGER, timestamp INTEGER, type TEXT);"
		"INSERT INTO process VALUES ('CPU Scheduling','CPU Scheduling',NULL,NULL),('Process Scheduling','Process Scheduling',NULL,NULL);"
		"INSERT INTO thread VALUES (1,'a:10','Process Scheduling','a:10',NULL),(2,'CPU 1','CPU Scheduling','CPU 1',NULL),(3,'CPU 0','CPU Scheduling','CPU 0',NULL);"
		"INSERT INTO slice (timestamp,duration,name,track_id,args,end_time) VALUES"
		" (1000,1250,'a:10',2,'{\"host_pid\": 10, \"total_runtime\": \"900 [ns]\", \"vruntime\": 0, \"end_state\": \"R\", \"prio\": 120}',2250),"
		" (2000,1000,'b:20',2,'{\"host_pid\": 20, \"total_runtime\": \"1000 [ns]\", \"vruntime\": 0, \"end_state\": \"S\", \"prio\": 120}',3000),"
		" (2100,50,'irq',2,'{\"irq\": \"36\", \"name\": \"virtio\", \"ret\": \"handled\", \"task\": \"b:20\"}',2150),"
		" (5000,1000,'a:10',3,'{\"host_pid\": 10}',6000),"
		" (1000,1250,'Running',1,'{\"cpu\": \"1\"}',2250),"
		" (2250,2750,'Unknown',1,'{\"cpu\": \"1\"}',5000),"
		" (5000,1000,'Running',1,'{\"cpu\": \"0\"}',6000);";
	sqlite3 *db;
	char *msg = NULL;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		fprintf(stderr, "%s\n", msg);
	assert_null(msg);
	sqlite3_close(db);
}

/* test_reference_db_hand_checked: five buckets of 1 us at once on CPU 1 */
static void check_ref_row(const struct fts_store *s, uint32_t cpu1)
{
	struct fts_bucket row[5];

	assert_int_equal(fts_store_buckets(s, cpu1, 1000, 6000, 5, row), 0);
	assert_string_equal(fts_store_str(s, row[0].top), "a:10");
	assert_int_equal(row[0].top_ns, 1000);
	assert_int_equal(row[0].items, 1);
	assert_int_equal(row[0].flags, FTS_BK_ANY);
	assert_string_equal(fts_store_str(s, row[1].top), "b:20");
	assert_int_equal(row[1].top_ns, 1000);
	assert_int_equal(row[1].busy_ns, 1250);
	assert_int_equal(row[1].items, 3);
	assert_int_equal(row[1].flags, FTS_BK_ANY | FTS_BK_IRQ | FTS_BK_MIXED);
	assert_int_equal(row[2].items, 0);
	assert_int_equal(row[2].top, FTS_STR_NONE);
	assert_int_equal(row[2].top_ns, 1000);
	assert_int_equal(row[4].items, 0);
}

/*
 * test_reference_db_hand_checked: numeric args come back as their JSON
 * text; the task lane's item carries its cpu.
 */
static void check_ref_items(const struct fts_store *s, uint32_t cpu1, uint32_t task)
{
	struct fts_arg a[FTS_ITEM_MAX_ARGS];
	struct fts_store_item it;
	char buf[256];
	int n;

	assert_int_equal(fts_store_item(s, cpu1, 0, &it), 0);
	assert_string_equal(fts_store_str(s, it.name), "a:10");
	n = fts_store_args(s, cpu1, 0, a, FTS_ITEM_MAX_ARGS, buf, sizeof(buf));
	assert_int_equal(n, 5);
	assert_string_equal(a[0].key, "host_pid");
	assert_string_equal(a[0].val, "10");
	assert_string_equal(a[1].val, "900 [ns]");
	assert_string_equal(a[2].val, "0");
	assert_int_equal(fts_store_item(s, task, 2, &it), 0);
	assert_int_equal(it.cpu, 0);
	assert_int_equal(fts_store_lane(s, task)->host_pid, -1);
	/* nothing covers 3500 on CPU 1: the nearest is b:20's end (500 ns away) */
	assert_int_equal(fts_store_find(s, cpu1, 3500, 0), 1);
}

static void test_reference_db_hand_checked(void **state)
{
	struct fts_store *s;
	struct fts_bucket b;
	char path[128];
	int32_t cpu1, task;

	(void)state;
	snprintf(path, sizeof(path), "%s/ftrace_data_ref.db", tmpdir);
	make_ref_db(path);
	s = open_store(path, NULL);
	assert_int_equal(fts_store_info(s)->source, FTS_SRC_DB);
	assert_int_equal(fts_store_info(s)->items, 7);
	assert_int_equal(fts_store_info(s)->t_begin, 1000);
	assert_int_equal(fts_store_info(s)->t_end, 6000);
	assert_int_equal(fts_store_nlanes(s), 3);
	/* CPU 0 before CPU 1 although declared after it */
	assert_string_equal(fts_store_str(s, fts_store_lane(s, 0)->tid), "CPU 0");
	cpu1 = lane_by_tid(s, "CPU 1");
	task = lane_by_tid(s, "a:10");
	assert_int_equal(cpu1, 1);
	assert_int_equal(task, 2);
	assert_int_equal(fts_store_lane(s, 2)->pid, 10);
	assert_string_equal(fts_store_str(s, fts_store_lane(s, 2)->comm), "a");

	/* [1500, 2500) on CPU 1: a:10 750 ns, b:20 500 ns, overlapping; the irq; two tasks */
	fts_store_bucket(s, (uint32_t)cpu1, 1500, 2500, &b);
	assert_string_equal(fts_store_str(s, b.top), "a:10");
	assert_int_equal(b.top_ns, 750);
	assert_int_equal(b.busy_ns, 1250);
	assert_int_equal(b.items, 3);
	assert_int_equal(b.flags, FTS_BK_ANY | FTS_BK_IRQ | FTS_BK_MIXED);
	/* [2300, 4000): b:20 700 ns, idle 1000 ns: idle wins */
	fts_store_bucket(s, (uint32_t)cpu1, 2300, 4000, &b);
	assert_int_equal(b.top, FTS_STR_NONE);
	assert_int_equal(b.top_ns, 1000);
	assert_int_equal(b.busy_ns, 700);
	assert_int_equal(b.flags, FTS_BK_ANY);
	/* the task lane over all of it: Unknown (a sleep) 2750 ns beats Running 2250 */
	fts_store_bucket(s, (uint32_t)task, 0, 10000, &b);
	assert_int_equal(b.top, FTS_ITEM_SLEEPING);
	assert_int_equal(b.top_ns, 2750);
	assert_int_equal(b.busy_ns, 2250);
	assert_int_equal(b.flags, FTS_BK_ANY | FTS_BK_RUNNING | FTS_BK_SLEEPING);
	check_ref_row(s, (uint32_t)cpu1);
	/* an empty stretch */
	fts_store_bucket(s, (uint32_t)cpu1, 3000, 3500, &b);
	assert_int_equal(b.flags, 0);
	assert_int_equal(b.items, 0);

	check_ref_items(s, (uint32_t)cpu1, (uint32_t)task);
	fts_store_free(s);
}

/* The hostile DB of test_hostile_db at @path. */
static void make_hostile_db(const char *path)
{
	static const char *schema =
		"CREATE TABLE thread (track_id INTEGER, tid TEXT, pid TEXT);"
		"CREATE TABLE slice (id INTEGER PRIMARY KEY, timestamp, duration, name, track_id, args);"
		"INSERT INTO thread VALUES (1,'CPU 0','CPU Scheduling'),(1,'CPU 0','CPU Scheduling'),"
		" (2,NULL,'CPU Scheduling'),(3,'x' || char(27) || '[2J:12','Process Scheduling'),"
		" (4,'CPU ','CPU Scheduling'),(5,':','Process Scheduling'),(NULL,'CPU 9','CPU Scheduling'),"
		" (6,'t:1','other');"
		"INSERT INTO slice (timestamp,duration,name,track_id,args) VALUES"
		" (NULL,NULL,NULL,1,NULL),('abc','def','irq',1,'not json'),(-5,10,'irq',1,'{}'),"
		" (9223372036854775807,9223372036854775807,'lost events',1,'{\"count\":\"18446744073709551615\"}'),"
		" (400,1,'Sleeping',5,'{\"state\":\"D\"}'),(500,1,'x',99,'{}'),(600,1,'y',6,'{}'),"
		" (300,1,CAST(x'52756e6e696e6700' AS TEXT),3,'[1,2]');";
	/* values a shell or a C literal would mangle, bound as they are */
	static const char *nested = "{\"a\":{\"b\":[1,{\"c\":\"}\"}]},\"d\":\"\\u00e9\\n\\\"\"}";
	static const char *cut = "{\"cpu\":\"\x01\",\"x\":";
	sqlite3_stmt *st;
	sqlite3 *db;

	unlink(path);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, schema, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "INSERT INTO slice (timestamp,duration,name,track_id,args) VALUES (?,?,?,?,?)",
					    -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int64(st, 1, 100);
	sqlite3_bind_int64(st, 2, -7);
	sqlite3_bind_text(st, 3, "sched_switch", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, 1);
	sqlite3_bind_text(st, 5, nested, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, 200);
	sqlite3_bind_int64(st, 2, 5);
	sqlite3_bind_text(st, 3, "Running", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, 3);
	sqlite3_bind_text(st, 5, cut, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

/*
 * A hostile DB: NULLs everywhere, text where numbers go, negative and huge
 * times, args that are not JSON or nest deeply, escapes and control bytes in
 * names, a lane declared twice, slices on a lane that does not exist. It
 * loads what makes sense, skips the rest, and never reads out of bounds.
 */
static void test_hostile_db(void **state)
{
	struct fts_store *s;
	struct fts_bucket b;
	struct fts_arg a[FTS_ITEM_MAX_ARGS];
	char path[128], buf[256];
	uint64_t total = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/ftrace_data_hostile.db", tmpdir);
	make_hostile_db(path);
	s = open_store(path, NULL);
	for (uint32_t l = 0; l < fts_store_nlanes(s); l++) {
		const struct fts_store_lane *ln = fts_store_lane(s, l);

		total += ln->nitems;
		fts_store_str(s, ln->tid);
		fts_store_str(s, ln->comm);
		fts_store_bucket(s, l, 1, UINT64_MAX, &b);
		assert_int_equal(b.items, ln->nitems);
		for (uint64_t k = 0; k < ln->nitems; k++) {
			struct fts_store_item it;

			assert_int_equal(fts_store_item(s, l, k, &it), 0);
			assert_true(it.ts > 0);
			assert_true(fts_store_args(s, l, k, a, FTS_ITEM_MAX_ARGS, buf, sizeof(buf)) >= 0);
		}
		assert_true(fts_store_find(s, l, 150, 0) >= -1);
	}
	/* kept: sched_switch, lost events, Running, "Running\0...", Sleeping (D); times <= 0 dropped */
	assert_int_equal(total, 5);
	assert_int_equal(fts_store_info(s)->lost_events, UINT64_MAX);
	{
		int32_t cpu0 = lane_by_tid(s, "CPU 0");
		int n;

		assert_true(cpu0 >= 0);
		/* the nested args: "a" keeps its JSON text, "d" is unescaped */
		n = fts_store_args(s, (uint32_t)cpu0, 0, a, FTS_ITEM_MAX_ARGS, buf, sizeof(buf));
		assert_int_equal(n, 2);
		assert_string_equal(a[0].val, "{\"b\":[1,{\"c\":\"}\"}]}");
		assert_string_equal(a[1].val, "\xc3\xa9\n\"");
	}
	fts_store_free(s);
}

static int cancel_at_read(void *ctx, const struct fts_progress *p)
{
	int *stages = ctx;

	stages[p->stage]++;
	return p->stage == FTS_STAGE_READ;
}

/* Cancelling stops the load with -ECANCELED and no store. */
static void test_cancel(void **state)
{
	int stages[FTS_STAGE__COUNT] = { 0 };
	struct fts_store_open_opts o = { .path = IRQ_TXT, .progress = cancel_at_read,
					 .progress_ctx = stages };
	struct fts_err err = { 0 };
	struct fts_store *s = (struct fts_store *)&o;

	(void)state;
	assert_int_equal(fts_store_open(&o, &s, &err), -ECANCELED);
	assert_null(s);
	assert_int_equal(stages[FTS_STAGE_PROBE], 1);
	assert_int_equal(stages[FTS_STAGE_READ], 1);
	assert_int_equal(stages[FTS_STAGE_INDEX], 0);
}

/* Bad input: one error, no store. */
static void test_bad_inputs(void **state)
{
	const char *bad[] = { FTS_TEST_DATA "/bad/garbage.txt", FTS_TEST_DATA "/bad/empty.txt",
			      "/nonexistent/x.db", FTS_TEST_DATA "/bad/malformed_pidmap.json" };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct fts_store_open_opts o = { .path = bad[i] };
		struct fts_err err = { 0 };
		struct fts_store *s = NULL;

		assert_true(fts_store_open(&o, &s, &err) < 0);
		assert_null(s);
		assert_true(err.msg[0] != '\0');
		assert_null(strchr(err.msg, '\n'));
	}
}

/*
 * Issue 15 defect 19: on kernels whose sched_stat_runtime carries vruntime,
 * every run slice's args differ; the store keeps the vruntime out of the
 * interned blobs (and gives it back exact), so it stays near its per-item
 * budget: 40k slices of 4 tasks cost ~34 B/item, not the ~80 they took.
 */
static void test_vruntime_budget(void **state)
{
	char path[128];
	FILE *f;
	struct fts_store *s;
	const int n = 40000;
	int32_t cpu;
	uint64_t far = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/vruntime.json", tmpdir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "[\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":\"CPU Scheduling\",\"tid\":\"CPU 000\",\"args\":{\"name\":\"CPU 000\"}},\n");
	for (int i = 0; i < n; i++) {
		/* within 2^32 of each other, except one far value (kept as written) */
		uint64_t vr = i == n / 2 ? 99000000000000000ull : 5000000000000ull + (uint64_t)i * 7919;

		if (i == n / 2)
			far = vr;
		fprintf(f, "{\"name\":\"t%d:%d\",\"ph\":\"X\",\"ts\":%d.000,\"dur\":1.000,\"pid\":\"CPU Scheduling\",\"tid\":\"CPU 000\",\"args\":{\"host_pid\":\"%d\",\"total_runtime\":\"%d [ns]\",\"vruntime\":\"%llu\",\"end_state\":\"S\",\"prio\":\"120\"}}%s\n",
			i % 4, 10 + i % 4, 1000 + 2 * i, 10 + i % 4, 1000 + i, (unsigned long long)vr,
			i + 1 < n ? "," : "");
	}
	fprintf(f, "]\n");
	assert_int_equal(fclose(f), 0);
	s = open_store(path, NULL);
	cpu = lane_by_tid(s, "CPU 000");
	assert_true(cpu >= 0);
	assert_int_equal(fts_store_lane(s, (uint32_t)cpu)->nitems, n);
	for (int i = 0; i < n; i += 997) {
		char want[64], *got = store_args_str(s, (uint32_t)cpu, (uint64_t)i);
		uint64_t vr = i == n / 2 ? far : 5000000000000ull + (uint64_t)i * 7919;

		snprintf(want, sizeof(want), "vruntime=%llu", (unsigned long long)vr);
		assert_non_null(strstr(got, want));
		free(got);
	}
	{
		char want[64], *got = store_args_str(s, (uint32_t)cpu, (uint64_t)(n / 2));

		snprintf(want, sizeof(want), "vruntime=%llu", (unsigned long long)far);
		assert_non_null(strstr(got, want));
		free(got);
	}
	assert_true((double)fts_store_bytes(s) / n < 40);
	fts_store_free(s);
}

/* ---- very many tasks (issue 21 item 14) ---- */

/* One item, for sorting the oracle's and the store's alike. */
struct flat_item {
	const char *tid;
	uint64_t ts, dur;
	int kind;
	char *name, *args;
};

static int cmp_flat(const void *pa, const void *pb)
{
	const struct flat_item *a = pa, *b = pb;
	int c = strcmp(a->tid, b->tid);

	if (c)
		return c;
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	if (a->dur != b->dur)
		return a->dur < b->dur ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	c = strcmp(a->name, b->name);
	return c ? c : strcmp(a->args, b->args);
}

/*
 * N tasks that each run once (bench/preview_tasks.sh's capture): every item
 * of every lane, args included, is what the model produced, though the args
 * blobs are shared across tasks (the task's pid and its switch's comm:pid
 * are kept outside them); and the store holds a few hundred bytes per task
 * (issue 21 item 14: 880 B/task before, in the store alone).
 */
static void test_many_tasks(void **state)
{
	const int n = 20000;
	struct rec_sink *r = rec_new();
	struct flat_item *want, *got;
	struct fts_store *s;
	char path[128];
	size_t k = 0;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/tasks.txt", tmpdir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "# tracer: nop\n");
	for (int i = 0, t = 1000000; i < n; i++) {
		int pid = 1000 + i, c = i % 2;

		fprintf(f, "          <idle>-0       [%03d] d..2.  %6d.%06d: sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=t%d next_pid=%d next_prio=120\n",
			c, t / 1000000, t % 1000000, c, i, pid);
		t++;
		fprintf(f, "             t%d-%d    [%03d] d..2.  %6d.%06d: sched_switch: prev_comm=t%d prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=swapper/%d next_pid=0 next_prio=120\n",
			i, pid, c, t / 1000000, t % 1000000, i, pid, c);
		t++;
	}
	assert_int_equal(fclose(f), 0);
	s = open_store(path, &r->s);
	assert_int_equal(fts_store_info(s)->ntask_lanes, n);
	assert_int_equal(fts_store_info(s)->items, r->n);
	want = calloc(r->n, sizeof(*want));
	got = calloc(r->n, sizeof(*got));
	assert_true(want && got);
	for (size_t i = 0; i < r->n; i++) {
		want[i].tid = r->tid[r->it[i].lane];
		want[i].ts = r->it[i].ts;
		want[i].dur = r->it[i].dur;
		want[i].kind = (int)r->it[i].kind;
		want[i].name = r->it[i].name;
		want[i].args = r->it[i].args;
	}
	for (uint32_t l = 0; l < fts_store_nlanes(s); l++) {
		const struct fts_store_lane *sl = fts_store_lane(s, l);

		if (sl->group == FTS_GROUP_TASK) /* the pid parsed from "comm:pid" */
			assert_int_equal(sl->pid, atoi(strrchr(fts_store_str(s, sl->tid), ':') + 1));
		for (uint64_t i = 0; i < sl->nitems; i++, k++) {
			struct fts_store_item it;

			assert_true(k < r->n);
			assert_int_equal(fts_store_item(s, l, i, &it), 0);
			got[k].tid = fts_store_str(s, sl->tid);
			got[k].ts = it.ts;
			got[k].dur = it.dur;
			got[k].kind = (int)it.kind;
			got[k].name = (char *)fts_store_str(s, it.name);
			got[k].args = store_args_str(s, l, i);
		}
	}
	assert_int_equal(k, r->n);
	qsort(want, r->n, sizeof(*want), cmp_flat);
	qsort(got, r->n, sizeof(*got), cmp_flat);
	for (size_t i = 0; i < r->n; i++) {
		if (cmp_flat(&want[i], &got[i]))
			fprintf(stderr, "item %zu: model %s %s [%s], store %s %s [%s]\n", i, want[i].tid,
				want[i].name, want[i].args, got[i].tid, got[i].name, got[i].args);
		assert_int_equal(cmp_flat(&want[i], &got[i]), 0);
	}
	/* 6 items a task: 298 B/task here (1 MB slab chunks and the lane array round up; 276 at 1 M) */
	fprintf(stderr, "store: %.0f B/task\n", (double)fts_store_bytes(s) / n);
	assert_true((double)fts_store_bytes(s) / n < 500);
	for (size_t i = 0; i < r->n; i++)
		free(got[i].args);
	free(want);
	free(got);
	fts_store_free(s);
	r->s.destroy(&r->s);
}

/*
 * Values that look like what the blobs take out, and some that only nearly
 * do, come back exactly: a host_pid equal to the lane's pid or not (or only
 * as a number: "007" on lane "z:007", whose pid is 7), a cpu
 * equal to it (the item's cpu is read from the blob), a switch's task with a
 * colon in its comm or a pid with a leading zero, a pid that is not a
 * number, values starting with the marker bytes.
 */
static void test_args_markers(void **state)
{
	static const struct {
		const char *tid, *name, *args_json, *want;
		int cpu;
	} c[] = {
		{ "a:5", "Running", "\"cpu\":\"5\",\"host_pid\":\"5\"", "cpu=5;host_pid=5;", 5 },
		{ "a:5", "Sleeping", "\"cpu\":\"1\",\"host_pid\":\"6\"", "cpu=1;host_pid=6;", 1 },
		{ "a:5", "Runnable", "\"cpu\":\"0\",\"note\":\"\\u0005x\",\"host_pid\":\"\\u0005\"",
		  "cpu=0;note=\005x;host_pid=\005;", 0 },
		{ "z:007", "Running", "\"cpu\":\"1\",\"host_pid\":\"007\"", "cpu=1;host_pid=007;", 1 },
		{ "z:007", "Sleeping", "\"cpu\":\"1\",\"host_pid\":\"7\"", "cpu=1;host_pid=7;", 1 },
		{ "CPU 000", "sched_switch",
		  "\"prev_comm\":\"x:y\",\"prev_pid\":\"42\",\"prev_state\":\"S\",\"next_comm\":\"\\u0006w\",\"next_pid\":\"0\"",
		  "prev_comm=x:y;prev_pid=42;prev_state=S;next_comm=\006w;next_pid=0;", 0 },
		{ "CPU 000", "sched_switch",
		  "\"prev_comm\":\"swapper/0\",\"prev_pid\":\"0\",\"next_comm\":\"q\",\"next_pid\":\"007\"",
		  "prev_comm=swapper/0;prev_pid=0;next_comm=q;next_pid=007;", 0 },
		{ "CPU 000", "sched_switch",
		  "\"prev_comm\":\"m\",\"prev_pid\":\"-1\",\"next_comm\":\"\\u0007\",\"next_pid\":\"3\"",
		  "prev_comm=m;prev_pid=-1;next_comm=\007;next_pid=3;", 0 },
		{ "CPU 000", "r:9", "\"host_pid\":\"9\",\"total_runtime\":\"12 [ns]\",\"prio\":\"9\"",
		  "host_pid=9;total_runtime=12 [ns];prio=9;", 0 },
	};
	const int nc = (int)(sizeof(c) / sizeof(c[0]));
	struct fts_store *s;
	char path[128];
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/markers.json", tmpdir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "[\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":\"CPU Scheduling\",\"tid\":\"CPU 000\",\"args\":{\"name\":\"CPU 000\"}},\n");
	fprintf(f, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":\"Process Scheduling\",\"tid\":\"a:5\",\"args\":{\"name\":\"a:5\"}},\n");
	fprintf(f, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":\"Process Scheduling\",\"tid\":\"z:007\",\"args\":{\"name\":\"z:007\"}},\n");
	for (int i = 0; i < nc; i++)
		fprintf(f, "{\"name\":\"%s\",\"ph\":\"X\",\"ts\":%d.000,\"dur\":%s,\"pid\":\"%s\",\"tid\":\"%s\",\"args\":{%s}}%s\n",
			c[i].name, 1000 + 10 * i, strcmp(c[i].name, "sched_switch") ? "1.000" : "0.000",
			strncmp(c[i].tid, "CPU", 3) ? "Process Scheduling" : "CPU Scheduling", c[i].tid,
			c[i].args_json, i + 1 < nc ? "," : "");
	fprintf(f, "]\n");
	assert_int_equal(fclose(f), 0);
	s = open_store(path, NULL);
	for (int i = 0; i < nc; i++) {
		int32_t lane = lane_by_tid(s, c[i].tid);
		uint64_t idx = 0;
		struct fts_store_item it;
		char *got;

		assert_true(lane >= 0);
		/* this case's item: the one at its start */
		while (fts_store_item(s, (uint32_t)lane, idx, &it) == 0 && it.ts < (uint64_t)(1000 + 10 * i) * 1000)
			idx++;
		assert_int_equal(fts_store_item(s, (uint32_t)lane, idx, &it), 0);
		assert_string_equal(fts_store_str(s, it.name), c[i].name);
		got = store_args_str(s, (uint32_t)lane, idx);
		assert_string_equal(got, c[i].want);
		assert_int_equal(it.cpu, c[i].cpu);
		free(got);
	}
	assert_int_equal(fts_store_lane(s, (uint32_t)lane_by_tid(s, "a:5"))->host_pid, 5);
	fts_store_free(s);
}

/* ---- the summary's statistics made from the store (fts_store_stats) ---- */

static int by_tid(const void *a, const void *b)
{
	return strcmp((*(const struct fts_task_stats *const *)a)->tid,
		      (*(const struct fts_task_stats *const *)b)->tid);
}

/* @st's rows in tid order (a fresh array the caller frees). */
static const struct fts_task_stats **rows_by_tid(struct fts_stats *st)
{
	size_t n = fts_stats_ntasks(st);
	const struct fts_task_stats **v = calloc(n ? n : 1, sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = fts_stats_task(st, i);
	qsort(v, n, sizeof(*v), by_tid);
	return v;
}

/*
 * @path loaded with a collector fed during the load (what the preview did
 * before) and the collector fed from the store afterwards: every task row,
 * every column and name, every CPU row, the same. Returns the task rows.
 */
static size_t check_stats_from_store(const char *path)
{
	struct fts_stats *live = NULL, *made = NULL;
	const struct fts_task_stats **a, **b;
	struct fts_err err = { 0 };
	struct fts_store *s;
	size_t n;

	assert_int_equal(fts_stats_create(NULL, &live, NULL), 0);
	s = open_store(path, fts_stats_sink(live));
	assert_int_equal(fts_store_stats(s, NULL, NULL, &made, &err), 0);
	assert_non_null(made);
	n = fts_stats_ntasks(live);
	assert_int_equal(fts_stats_ntasks(made), n);
	a = rows_by_tid(live);
	b = rows_by_tid(made);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(a[i]->tid, b[i]->tid);
		assert_string_equal(a[i]->comm, b[i]->comm);
		assert_string_equal(a[i]->top_irq, b[i]->top_irq);
		assert_string_equal(a[i]->top_preempter, b[i]->top_preempter);
		assert_int_equal(a[i]->top_preempter_count, b[i]->top_preempter_count);
		assert_int_equal(a[i]->first_ns, b[i]->first_ns);
		assert_int_equal(a[i]->last_ns, b[i]->last_ns);
		for (int c = 0; c < FTS_TCOL__COUNT; c++)
			assert_int_equal(fts_task_col_value(a[i], (enum fts_task_col)c),
					 fts_task_col_value(b[i], (enum fts_task_col)c));
	}
	/* and the order each sort gives, ties included */
	for (int c = 0; c < FTS_TCOL__COUNT; c++) {
		fts_stats_sort_tasks(live, (enum fts_task_col)c, c & 1);
		fts_stats_sort_tasks(made, (enum fts_task_col)c, c & 1);
		for (size_t i = 0; i < n; i++)
			assert_string_equal(fts_stats_task(live, i)->tid, fts_stats_task(made, i)->tid);
	}
	assert_int_equal(fts_stats_ncpus(made), fts_stats_ncpus(live));
	for (size_t i = 0; i < fts_stats_ncpus(live); i++) {
		const struct fts_cpu_stats *x = fts_stats_cpu(live, i), *y = fts_stats_cpu(made, i);

		assert_int_equal(x->cpu, y->cpu);
		assert_int_equal(x->busy_ns, y->busy_ns);
		assert_int_equal(x->wall_ns, y->wall_ns);
		assert_int_equal(x->irq_count, y->irq_count);
		assert_int_equal(x->softirq_ns, y->softirq_ns);
		assert_int_equal(x->switches, y->switches);
		assert_int_equal(x->lost_events, y->lost_events);
		assert_int_equal(x->lost_markers, y->lost_markers);
		assert_int_equal(x->nodata_ns, y->nodata_ns);
	}
	free(a);
	free(b);
	fts_stats_free(live);
	fts_stats_free(made);
	fts_store_free(s);
	fprintf(stderr, "%s: %zu task rows alike\n", path, n);
	return n;
}

static int stop_now(void *ctx)
{
	return ++*(int *)ctx > 0;
}

static void test_stats_from_store(void **state)
{
	struct fts_convert_opts co = { .input = IRQ_TXT, .cs_rows = 1 };
	struct fts_stats *st = (struct fts_stats *)&co; /* must be reset to NULL */
	struct fts_err err = { 0 };
	struct fts_store *s;
	char out[128];
	int asked = 0;

	(void)state;
	assert_true(check_stats_from_store(IRQ_TXT) > 0);
	assert_true(check_stats_from_store(FTS_TEST_DATA "/irq/irq.dat") > 0);
	assert_true(check_stats_from_store(FTS_TEST_DATA "/lost/overwrite.txt") > 0);
	assert_true(check_stats_from_store(FTS_TEST_DATA "/hackbench/hackbench.dat") > 0);
	assert_true(check_stats_from_store(FTS_ASSETS "/sample/sample.dat") > 0);
	snprintf(out, sizeof(out), "%s/stats_rb.db", tmpdir);
	co.output = out;
	co.format = FTS_OUT_DB;
	assert_int_equal(fts_convert(&co, NULL, &err), 0);
	assert_true(check_stats_from_store(out) > 0);
	snprintf(out, sizeof(out), "%s/stats_rb.json", tmpdir);
	co.format = FTS_OUT_JSON;
	assert_int_equal(fts_convert(&co, NULL, &err), 0);
	assert_true(check_stats_from_store(out) > 0);
	/* cancelled: no statistics, the reason said */
	s = open_store(IRQ_TXT, NULL);
	assert_int_equal(fts_store_stats(s, stop_now, &asked, &st, &err), -ECANCELED);
	assert_null(st);
	assert_true(asked > 0);
	fts_store_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_items_match_model),
		cmocka_unit_test(test_trace_buckets_match_brute_force),
		cmocka_unit_test(test_trace_irq_hand_checked),
		cmocka_unit_test(test_buckets_row_matches_single),
		cmocka_unit_test(test_step_by_kind),
		cmocka_unit_test(test_db_readback),
		cmocka_unit_test(test_json_readback),
		cmocka_unit_test(test_reference_db_hand_checked),
		cmocka_unit_test(test_hostile_db),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_vruntime_budget),
		cmocka_unit_test(test_many_tasks),
		cmocka_unit_test(test_args_markers),
		cmocka_unit_test(test_stats_from_store),
	};

	return cmocka_run_group_tests(tests, make_tmp, rm_tmp);
}
