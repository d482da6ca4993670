// SPDX-License-Identifier: MIT
/*
 * json_sink.c - Chrome-trace JSON (array form) that Insight and Perfetto read.
 *
 * One event per line. Every event carries "ph" and no string holds a raw
 * brace, so Insight's splitter for files over 50 MiB (which counts raw
 * braces after a "ph") cuts only between events. ts/dur are microseconds
 * printed from integer ns with exactly three decimals: no float rounding.
 * Metadata (process/thread names, sort indexes) is written when a lane is
 * declared; the first "X" event always has a string pid of "CPU Scheduling"
 * or "Process Scheduling", which is how Insight recognises ftrace JSON.
 *
 * The text is built in 1 MiB batches that a writer thread write()s: copying
 * the output into the page cache is about 40% of a conversion's CPU time,
 * and on the second core it runs beside the reader and the model (bounded:
 * FTS_BATCHQ_DEPTH batches).
 */
#include "ftscope/pipeline.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util/file_util.h"
#include "core/util/outfile.h"
#include "kit/kit.h"
#include "export/sink/batchq.h"
#include "export/sink/jsonw.h"

#define FLUSH_AT (1u << 20)

/* A string literal's length is known at compile time: no strlen per event. */
#define PUT_LIT(b, lit) fts_buf_put((b), (lit), sizeof(lit) - 1)

/*
 * Lanes: a million tasks are a million lanes, so a lane's tid lives in one
 * arena (not a heap block each: 32 bytes for a 12-byte name) and its group
 * in a byte: about 24 bytes a lane. The tid is kept as the JSON string every
 * event of the lane writes (quoted, escaped), so it is escaped once, not per
 * event.
 */
struct json_sink {
	struct fts_sink base;
	struct fts_outfile out;
	struct fts_buf *buf;      /* the batch being filled (the queue's; changes at each flush) */
	struct fts_batchq q;
	pthread_t writer;
	int writer_running;
	int werr;                 /* the writer's failed write (negative errno), read after join */
	int first;                /* no event written yet (no leading comma) */
	struct fts_buf names;     /* the tids as JSON strings, NUL-terminated, back to back; "\"\"" at 0 */
	uint64_t *tid_off;        /* lane id -> its tid's offset in @names (ids never declared: 0) */
	unsigned char *group;     /* lane id -> enum fts_lane_group */
	uint32_t nlanes, cap;
};

/* The lane's group as a JSON string (the names need no escaping). */
static void put_group(struct fts_buf *b, const struct json_sink *s, uint32_t lane)
{
	if (s->group[lane] == FTS_GROUP_CPU)
		PUT_LIT(b, "\"" FTS_GROUP_CPU_NAME "\"");
	else
		PUT_LIT(b, "\"" FTS_GROUP_TASK_NAME "\"");
}

/* The lane's tid as a JSON string, escaped when the lane was declared. */
static void put_tid(struct fts_buf *b, const struct json_sink *s, uint32_t lane)
{
	fts_buf_puts(b, s->names.p + s->tid_off[lane]);
}

static void *writer_main(void *arg)
{
	struct json_sink *s = arg;
	struct fts_buf *b;

	while ((b = fts_batchq_take(&s->q)) != NULL) {
		int rc = fts_write_all(s->out.fd, b->p, b->len);

		fts_batchq_release(&s->q);
		if (rc) {
			s->werr = rc;
			fts_batchq_fail(&s->q);
			break;
		}
	}
	return NULL;
}

static int write_error(const struct json_sink *s, struct fts_err *err)
{
	int rc = s->werr ? s->werr : -EIO;

	return fts_err_set(err, rc, "%s: write failed: %s%s", s->out.target, strerror(-rc),
			   rc == -ENOSPC ? " (free some space, or write the output elsewhere)" : "");
}

/* Hand the batch to the writer; the next one is empty. */
static int flush(struct json_sink *s, struct fts_err *err)
{
	if (s->buf->oom)
		return fts_err_set(err, -ENOMEM, "out of memory");
	if (fts_batchq_submit(&s->q))
		return write_error(s, err);
	s->buf = fts_batchq_fill(&s->q);
	return 0;
}

/* Stop the writer after it wrote everything submitted; 0 or its write error. */
static int join_writer(struct json_sink *s, int ok, struct fts_err *err)
{
	if (!s->writer_running)
		return 0;
	if (!ok)
		fts_batchq_fail(&s->q);
	fts_batchq_close(&s->q);
	pthread_join(s->writer, NULL);
	s->writer_running = 0;
	return ok && s->werr ? write_error(s, err) : 0;
}

static void sep(struct json_sink *s)
{
	fts_buf_put(s->buf, s->first ? "\n" : ",\n", s->first ? 1 : 2);
	s->first = 0;
}

static void meta(struct json_sink *s, const char *name, const char *group, const char *tid,
		 const char *key, const char *sval, int64_t ival)
{
	sep(s);
	PUT_LIT(s->buf, "{\"name\":");
	fts_buf_put_str(s->buf, name);
	PUT_LIT(s->buf, ",\"ph\":\"M\",\"pid\":");
	fts_buf_put_str(s->buf, group);
	if (tid) {
		PUT_LIT(s->buf, ",\"tid\":");
		fts_buf_put_str(s->buf, tid);
	}
	PUT_LIT(s->buf, ",\"args\":{\"");
	fts_buf_puts(s->buf, key);
	PUT_LIT(s->buf, "\":");
	if (sval)
		fts_buf_put_str(s->buf, sval);
	else
		fts_buf_put_u64(s->buf, (uint64_t)ival);
	PUT_LIT(s->buf, "}}");
}

static int js_lane(struct fts_sink *base, const struct fts_lane *l, struct fts_err *err)
{
	struct json_sink *s = (struct json_sink *)base;
	const char *group = l->group == FTS_GROUP_CPU ? FTS_GROUP_CPU_NAME : FTS_GROUP_TASK_NAME;

	if (l->id >= s->cap) {
		uint32_t cap = s->cap ? s->cap : 256;
		uint64_t *t;
		unsigned char *g;

		while (cap <= l->id) {
			if (cap > UINT32_MAX / 2)
				return fts_err_set(err, -ENOMEM, "out of memory");
			cap *= 2;
		}
		t = realloc(s->tid_off, cap * sizeof(*t));
		if (!t)
			return fts_err_set(err, -ENOMEM, "out of memory");
		s->tid_off = t;
		g = realloc(s->group, cap);
		if (!g)
			return fts_err_set(err, -ENOMEM, "out of memory");
		s->group = g;
		memset(t + s->cap, 0, (cap - s->cap) * sizeof(*t));
		memset(g + s->cap, 0, cap - s->cap);
		s->cap = cap;
	}
	s->tid_off[l->id] = s->names.len;
	fts_buf_put_str(&s->names, l->tid);
	fts_buf_put(&s->names, "", 1);
	if (s->names.oom)
		return fts_err_set(err, -ENOMEM, "out of memory");
	s->group[l->id] = (unsigned char)l->group;
	if (l->id >= s->nlanes)
		s->nlanes = l->id + 1;
	meta(s, "thread_name", group, l->tid, "name", l->tid, 0);
	meta(s, "thread_sort_index", group, l->tid, "sort_index", NULL, l->sort_index);
	return 0;
}

static int js_item(struct fts_sink *base, const struct fts_item *it, struct fts_err *err)
{
	struct json_sink *s = (struct json_sink *)base;
	struct fts_buf *b = s->buf;

	if (it->lane >= s->nlanes)
		return fts_err_set(err, -EINVAL, "internal error: item on an undeclared lane");
	sep(s);
	PUT_LIT(b, "{\"name\":");
	fts_buf_put_str(b, it->name);
	PUT_LIT(b, ",\"ph\":\"X\",\"ts\":");
	fts_buf_put_us(b, it->ts);
	PUT_LIT(b, ",\"dur\":");
	fts_buf_put_us(b, it->dur);
	PUT_LIT(b, ",\"pid\":");
	put_group(b, s, it->lane);
	PUT_LIT(b, ",\"tid\":");
	put_tid(b, s, it->lane);
	PUT_LIT(b, ",\"args\":");
	fts_buf_put_args(b, it);
	fts_buf_put(b, "}", 1);
	if (b->len >= FLUSH_AT)
		return flush(s, err);
	return b->oom ? fts_err_set(err, -ENOMEM, "out of memory") : 0;
}

/* One end of a wakeup link: a Chrome flow event ("s" start, "f" end bound to its slice). */
static void flow_event(struct json_sink *s, const struct fts_flow *f, int end)
{
	struct fts_buf *b = s->buf;
	uint32_t lane = end ? f->to_lane : f->from_lane;

	sep(s);
	PUT_LIT(b, "{\"name\":");
	fts_buf_put_str(b, f->name);
	PUT_LIT(b, ",\"cat\":");
	fts_buf_put_str(b, f->name);
	fts_buf_puts(b, end ? ",\"ph\":\"f\",\"bp\":\"e\",\"id\":" : ",\"ph\":\"s\",\"id\":");
	fts_buf_put_u64(b, f->id);
	PUT_LIT(b, ",\"ts\":");
	fts_buf_put_us(b, end ? f->to_ts : f->from_ts);
	PUT_LIT(b, ",\"pid\":");
	put_group(b, s, lane);
	PUT_LIT(b, ",\"tid\":");
	put_tid(b, s, lane);
	fts_buf_put(b, "}", 1);
}

static int js_flow(struct fts_sink *base, const struct fts_flow *f, struct fts_err *err)
{
	struct json_sink *s = (struct json_sink *)base;

	if (f->from_lane >= s->nlanes || f->to_lane >= s->nlanes)
		return fts_err_set(err, -EINVAL, "internal error: a link to an undeclared lane");
	flow_event(s, f, 0);
	flow_event(s, f, 1);
	if (s->buf->len >= FLUSH_AT)
		return flush(s, err);
	return s->buf->oom ? fts_err_set(err, -ENOMEM, "out of memory") : 0;
}

static int js_finish(struct fts_sink *base, int ok, struct fts_err *err)
{
	struct json_sink *s = (struct json_sink *)base;
	int rc;

	if (!ok) {
		join_writer(s, 0, NULL);
		fts_outfile_abort(&s->out);
		return 0;
	}
	PUT_LIT(s->buf, "\n]\n");
	/* close submits the last batch; a failed write of any batch is reported here */
	if (s->buf->oom) {
		join_writer(s, 0, NULL);
		rc = fts_err_set(err, -ENOMEM, "out of memory");
	} else {
		rc = join_writer(s, 1, err);
	}
	if (rc) {
		fts_outfile_abort(&s->out);
		return rc;
	}
	return fts_outfile_commit(&s->out, NULL, err);
}

static void js_destroy(struct fts_sink *base)
{
	struct json_sink *s = (struct json_sink *)base;

	join_writer(s, 0, NULL);
	fts_outfile_abort(&s->out);
	fts_buf_free(&s->names);
	free(s->tid_off);
	free(s->group);
	fts_batchq_destroy(&s->q);
	free(s);
}

int fts_json_sink_create(const char *path, const struct fts_owner *owner, struct fts_sink **out,
			 struct fts_err *err)
{
	struct json_sink *s = calloc(1, sizeof(*s));
	int rc;

	*out = NULL;
	if (!s)
		return fts_err_set(err, -ENOMEM, "out of memory");
	s->out.fd = -1;
	s->first = 1;
	if (fts_batchq_init(&s->q)) {
		free(s);
		return fts_err_set(err, -ENOMEM, "out of memory");
	}
	s->buf = fts_batchq_fill(&s->q);
	PUT_LIT(&s->names, "\"\"\0");
	s->base.lane = js_lane;
	s->base.item = js_item;
	s->base.finish = js_finish;
	s->base.destroy = js_destroy;
	s->base.flow = js_flow;
	rc = fts_outfile_begin(&s->out, path, owner, err);
	/* signals belong to the front end's thread, never to the writer */
	if (!rc && fts__thread_start(&s->writer, NULL, writer_main, s))
		rc = fts_err_set(err, -EAGAIN, "cannot start the writer thread");
	if (rc) {
		js_destroy(&s->base);
		return rc;
	}
	s->writer_running = 1;
	PUT_LIT(s->buf, "[");
	/* process names first, CPU lanes above task lanes */
	meta(s, "process_name", FTS_GROUP_CPU_NAME, NULL, "name", FTS_GROUP_CPU_NAME, 0);
	meta(s, "process_sort_index", FTS_GROUP_CPU_NAME, NULL, "sort_index", NULL, 0);
	meta(s, "process_name", FTS_GROUP_TASK_NAME, NULL, "name", FTS_GROUP_TASK_NAME, 0);
	meta(s, "process_sort_index", FTS_GROUP_TASK_NAME, NULL, "sort_index", NULL, 1);
	*out = &s->base;
	return 0;
}
