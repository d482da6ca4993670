// SPDX-License-Identifier: MIT
/*
 * sqlw_tables.c - slice and flow rows straight into SQLite's page format,
 * and Insight's three indexes over them.
 *
 * Why not SQLite: its per-row b-tree work (3.9 M slices, 1.25 M flow rows,
 * three indexes) was half of a conversion's CPU time and a serial tail
 * after the rows. Rows come with ascending rowids, so the table leaves are
 * packed as they stream; index keys are collected through external sorts
 * (sqlw_sort.h), whose runs spill to a scratch file, so memory stays flat
 * with the trace length, and each index is packed from its sorted keys at
 * finish. The time index, the largest merge, runs on a second thread while
 * this one builds the other two.
 *
 * Every index key is the indexed columns then the rowid, compared as
 * SQLite compares records (fts_sqlw_val_cmp). Slice rows have NULL depth,
 * cat, cname and flag_id by this module's contract (the sink has nothing to
 * put there), so the track index key (track_id, cat) is (track_id, NULL).
 */
#include "export/sink/sqlw_tables.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "export/sink/sqlw_record.h"
#include "core/internal.h"

/* Keys per in-memory chunk of each sort: about 4 MiB each. */
#define TIME_CHUNK (128u << 10)
#define TRACK_CHUNK (256u << 10)
#define CAT_CHUNK (256u << 10)

struct time_key {
	int64_t ts, end, track, rowid;
};

struct track_key {
	int64_t track, rowid;
};

struct cat_key {
	uint32_t name;           /* in flow_names */
	uint32_t type;           /* 's' or 'f': a one-byte TEXT */
	int64_t rowid;
};

static const char *const names[FTS_SQLW_NOBJ] = {
	"slice", "flow", "track_id_timestamp_end_time_index", "track_id_cat_index",
	"flow_id_time_index",
};

const char *fts_sqlw_obj_name(enum fts_sqlw_obj o)
{
	return names[o];
}

static int cmp64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

static int time_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct time_key *a = pa, *b = pb;
	int c;

	(void)ctx;
	if ((c = cmp64(a->ts, b->ts)) || (c = cmp64(a->end, b->end)) ||
	    (c = cmp64(a->track, b->track)))
		return c;
	return cmp64(a->rowid, b->rowid);
}

static int track_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct track_key *a = pa, *b = pb;
	int c;

	(void)ctx;
	return (c = cmp64(a->track, b->track)) ? c : cmp64(a->rowid, b->rowid);
}

/* A lane's slices are added in rowid order: the track key sorts by its lane alone. */
static uint64_t track_bucket(const void *key)
{
	return (uint64_t)((const struct track_key *)key)->track;
}

/* A flow cat and type's rows come in rowid order. */
static uint64_t cat_bucket(const void *key)
{
	const struct cat_key *k = key;

	return (uint64_t)k->name << 8 | (k->type & 0xff);
}

static struct fts_sqlw_val cat_val(const struct fts_strtab *t, uint32_t id)
{
	return (struct fts_sqlw_val){ .type = FTS_SQLW_TEXT, .s = fts_strtab_get(t, id),
				      .n = fts_strtab_len(t, id) };
}

static int cat_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct cat_key *a = pa, *b = pb;
	const struct fts_strtab *t = ctx;
	int c = 0;

	if (a->name != b->name) {
		struct fts_sqlw_val va = cat_val(t, a->name), vb = cat_val(t, b->name);

		c = fts_sqlw_val_cmp(&va, &vb);
	}
	if (c || (c = cmp64(a->type, b->type)))
		return c;
	return cmp64(a->rowid, b->rowid);
}

int fts_sqlw_tables_open(struct fts_sqlw_tables *w, int fd, const uint32_t root[FTS_SQLW_NOBJ],
			 const char *near)
{
	int rc;

	memset(w, 0, sizeof(*w));
	w->by_time.fd = w->by_track.fd = w->by_cat.fd = -1;
	fts_strtab_init(&w->flow_names);
	memcpy(w->root, root, sizeof(w->root));
	if ((rc = fts_sqlw_file_open(&w->file, fd)))
		return rc;
	w->open = 1;
	if ((rc = fts_sqlw_tree_init(&w->slice, &w->file, 0, root[FTS_SQLW_SLICE])) ||
	    (rc = fts_sqlw_tree_init(&w->flow, &w->file, 0, root[FTS_SQLW_FLOW])) ||
	    (rc = fts_sqlw_sort_init(&w->by_time, sizeof(struct time_key), TIME_CHUNK, time_cmp,
				     NULL, near)) ||
	    (rc = fts_sqlw_sort_init(&w->by_track, sizeof(struct track_key), TRACK_CHUNK,
				     track_cmp, NULL, near)) ||
	    (rc = fts_sqlw_sort_init(&w->by_cat, sizeof(struct cat_key), CAT_CHUNK, cat_cmp,
				     &w->flow_names, near)))
		return rc;
	fts_sqlw_sort_bucketed(&w->by_track, track_bucket);
	fts_sqlw_sort_bucketed(&w->by_cat, cat_bucket);
	return 0;
}

/* Encode @v (@n values) into w->rec; its size, or 0 when out of memory. */
static size_t encode(struct fts_sqlw_tables *w, const struct fts_sqlw_val *v, int n)
{
	size_t size = fts_sqlw_record_encode(w->rec, w->rec_cap, v, n);

	if (size > w->rec_cap) {
		uint8_t *p = realloc(w->rec, size + 1024);

		if (!p)
			return 0;
		w->rec = p;
		w->rec_cap = size + 1024;
		fts_sqlw_record_encode(w->rec, w->rec_cap, v, n);
	}
	return size;
}

#define NUL_V { .type = FTS_SQLW_NULL }
#define INT_V(x) { .type = FTS_SQLW_INT, .i = (x) }
#define TEXT_V(p, len) { .type = FTS_SQLW_TEXT, .s = (p), .n = (len) }

int fts_sqlw_tables_slice(struct fts_sqlw_tables *w, int64_t ts, int64_t dur, const char *name,
			  size_t name_len, const char *args, size_t args_len, int64_t track)
{
	int64_t id = w->slices + 1, end = (int64_t)((uint64_t)ts + (uint64_t)dur);
	/* id (the rowid: NULL in the record), timestamp, duration, name, depth, track_id, cat, args, cname, end_time, flag_id */
	const struct fts_sqlw_val v[11] = {
		NUL_V, INT_V(ts), INT_V(dur), TEXT_V(name, name_len), NUL_V, INT_V(track), NUL_V,
		TEXT_V(args, args_len), NUL_V, INT_V(end), NUL_V,
	};
	struct time_key tk = { ts, end, track, id };
	struct track_key rk = { track, id };
	size_t n = encode(w, v, 11);
	int rc;

	if (!n)
		return -ENOMEM;
	if ((rc = fts_sqlw_tree_add_row(&w->slice, id, w->rec, n)) ||
	    (rc = fts_sqlw_sort_add(&w->by_time, &tk)) || (rc = fts_sqlw_sort_add(&w->by_track, &rk)))
		return rc;
	w->slices = id;
	return 0;
}

int fts_sqlw_tables_flow(struct fts_sqlw_tables *w, const char *id, size_t id_len,
			 const char *name, size_t name_len, int64_t track, int64_t ts, char type)
{
	int64_t rowid = w->flows + 1;
	/* id (rowid), flow_id, name, cat, track_id, timestamp, type */
	const struct fts_sqlw_val v[7] = {
		NUL_V, TEXT_V(id, id_len), TEXT_V(name, name_len), TEXT_V(name, name_len),
		INT_V(track), INT_V(ts), TEXT_V(&type, 1),
	};
	struct cat_key ck = { .type = (uint8_t)type, .rowid = rowid };
	size_t n = encode(w, v, 7);
	int rc;

	ck.name = fts_strtab_intern(&w->flow_names, name, name_len);
	if (!n || ck.name == UINT32_MAX)
		return -ENOMEM;
	if ((rc = fts_sqlw_tree_add_row(&w->flow, rowid, w->rec, n)) ||
	    (rc = fts_sqlw_sort_add(&w->by_cat, &ck)))
		return rc;
	w->flows = rowid;
	return 0;
}

/* One index to build: its sorted keys, its root, how a key becomes its record's values. */
struct index_job {
	struct fts_sqlw_tables *w;
	struct fts_sqlw_sort *sort;
	enum fts_sqlw_obj obj;
	int (*values)(const struct fts_sqlw_tables *w, const void *key, struct fts_sqlw_val *v);
	int rc;
};

static int time_values(const struct fts_sqlw_tables *w, const void *key, struct fts_sqlw_val *v)
{
	const struct time_key *k = key;

	(void)w;
	v[0] = (struct fts_sqlw_val)INT_V(k->ts);
	v[1] = (struct fts_sqlw_val)INT_V(k->end);
	v[2] = (struct fts_sqlw_val)INT_V(k->track);
	v[3] = (struct fts_sqlw_val)INT_V(k->rowid);
	return 4;
}

static int track_values(const struct fts_sqlw_tables *w, const void *key, struct fts_sqlw_val *v)
{
	const struct track_key *k = key;

	(void)w;
	v[0] = (struct fts_sqlw_val)INT_V(k->track);
	v[1] = (struct fts_sqlw_val)NUL_V;
	v[2] = (struct fts_sqlw_val)INT_V(k->rowid);
	return 3;
}

static int cat_values(const struct fts_sqlw_tables *w, const void *key, struct fts_sqlw_val *v)
{
	const struct cat_key *k = key;
	static const char types[] = "fs";

	v[0] = cat_val(&w->flow_names, k->name);
	v[1] = (struct fts_sqlw_val)TEXT_V(k->type == 'f' ? types : types + 1, 1);
	v[2] = (struct fts_sqlw_val)INT_V(k->rowid);
	return 3;
}

static int build_index(struct index_job *j)
{
	struct fts_sqlw_tree t;
	struct fts_sqlw_val v[4];
	uint8_t *rec = NULL;
	size_t cap = 0;
	const void *key;
	int rc = fts_sqlw_tree_init(&t, &j->w->file, 1, j->w->root[j->obj]);

	if (rc)
		return rc;
	rc = fts_sqlw_sort_start(j->sort);
	while (!rc && (key = fts_sqlw_sort_next(j->sort)) != NULL) {
		int n = j->values(j->w, key, v);
		size_t size = fts_sqlw_record_encode(rec, cap, v, n);

		if (size > cap) {
			uint8_t *p = realloc(rec, size + 256);

			if (!p) {
				rc = -ENOMEM;
				break;
			}
			rec = p;
			cap = size + 256;
			fts_sqlw_record_encode(rec, cap, v, n);
		}
		rc = fts_sqlw_tree_add_key(&t, rec, size);
	}
	if (!rc)
		rc = j->sort->err;
	if (!rc)
		rc = fts_sqlw_tree_finish(&t);
	fts_sqlw_tree_free(&t);
	fts_sqlw_sort_free(j->sort);
	free(rec);
	return rc;
}

static void *index_main(void *arg)
{
	struct index_job *j = arg;

	j->rc = build_index(j);
	return NULL;
}

int fts_sqlw_tables_finish(struct fts_sqlw_tables *w)
{
	struct index_job time = { w, &w->by_time, FTS_SQLW_TIME_INDEX, time_values, 0 };
	struct index_job track = { w, &w->by_track, FTS_SQLW_TRACK_INDEX, track_values, 0 };
	struct index_job cat = { w, &w->by_cat, FTS_SQLW_FLOW_INDEX, cat_values, 0 };
	pthread_t th;
	int threaded, rc;

	if ((rc = fts_sqlw_tree_finish(&w->slice)) || (rc = fts_sqlw_tree_finish(&w->flow)))
		return rc;
	/* the time index's merge is the longest job: a thread of its own (serial if none) */
	threaded = fts__thread_start(&th, NULL, index_main, &time) == 0;
	track.rc = build_index(&track);
	cat.rc = build_index(&cat);
	if (threaded)
		pthread_join(th, NULL);
	else
		time.rc = build_index(&time);
	if ((rc = time.rc) || (rc = track.rc) || (rc = cat.rc))
		return rc;
	return fts_sqlw_file_close(&w->file);
}

void fts_sqlw_tables_free(struct fts_sqlw_tables *w)
{
	fts_sqlw_tree_free(&w->slice);
	fts_sqlw_tree_free(&w->flow);
	fts_sqlw_sort_free(&w->by_time);
	fts_sqlw_sort_free(&w->by_track);
	fts_sqlw_sort_free(&w->by_cat);
	fts_strtab_free(&w->flow_names);
	free(w->rec);
	w->rec = NULL;
	w->open = 0;
}
