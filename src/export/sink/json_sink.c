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
 * The sink's calls are copied as records into 1 MiB batches for a writer
 * thread, which formats the text and write()s it: formatting and copying the
 * output into the page cache are over half of a conversion's CPU time, and on
 * the second core they run beside the reader and the model (bounded:
 * FTS_BATCHQ_DEPTH batches and one output buffer). Everything from the
 * lane tables on is the writer's until it is joined.
 */
#include "ftscope/pipeline.h"

#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util/file_util.h"
#include "core/util/outfile.h"
#include "core/internal.h"
#include "core/util/batchq.h"
#include "core/util/decimal.h"
#include "export/sink/json_keys.h"
#include "export/sink/jsonw.h"

#define FLUSH_AT (1u << 20)
#define BATCH_BYTES (1u << 20)

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
	struct fts_batchq q;      /* records from the sink's calls to the writer */
	pthread_t writer;
	int writer_running;
	int werr;                 /* the writer's failure (negative errno), read after join */
	uint32_t declared;        /* the producer's count of lanes: ids below it are declared */
	struct fts_jkey_cache keys; /* the producer's: which arg keys the writer holds */

	/* the writer's */
	struct fts_buf *buf;      /* the output text, written at FLUSH_AT */
	struct fts_buf outbuf;
	int first;                /* no event written yet (no leading comma) */
	uint64_t written;         /* bytes in the file */
	struct fts_buf names;     /* the tids as JSON strings, NUL-terminated, back to back; "\"\"" at 0 */
	uint64_t *tid_off;        /* lane id -> its tid's offset in @names (ids never declared: 0) */
	uint32_t *tid_len;        /* lane id -> that JSON string's length (never declared: 2) */
	unsigned char *group;     /* lane id -> enum fts_lane_group */
	struct fts_jkey_table key_json; /* the arg keys, as JSON strings */
	uint32_t nlanes, cap;
};

/*
 * The writer's output: write it out (the writer, or the producer after the
 * join); 0 or a negative errno.
 */
static int flush_out(struct json_sink *s)
{
	int rc;

	if (s->buf->oom)
		return -ENOMEM;
	rc = fts_write_all(s->out.fd, s->buf->p, s->buf->len);
	s->written += s->buf->len;
	s->buf->len = 0;
	if (!rc)
		fts_outfile_wrote(&s->out, s->written);
	return rc;
}

/* The lane's group as a JSON string (the names need no escaping), at @o. */
static char *jw_group(char *o, const struct json_sink *s, uint32_t lane)
{
	if (s->group[lane] == FTS_GROUP_CPU)
		return FTS_JW_LIT(o, "\"" FTS_GROUP_CPU_NAME "\"");
	return FTS_JW_LIT(o, "\"" FTS_GROUP_TASK_NAME "\"");
}

/* The lane's tid as a JSON string, escaped when the lane was declared, at @o. */
static char *jw_tid(char *o, const struct json_sink *s, uint32_t lane)
{
	memcpy(o, s->names.p + s->tid_off[lane], s->tid_len[lane]);
	return o + s->tid_len[lane];
}

/* An event's separator from the one before, at @o. */
static char *jw_sep(char *o, struct json_sink *s)
{
	if (s->first) {
		s->first = 0;
		*o++ = '\n';
		return o;
	}
	return FTS_JW_LIT(o, ",\n");
}

/*
 * The room an event needs beyond its strings and tid: its literal text (well
 * under 160 bytes), two numbers, the longer group name.
 */
#define EVENT_ROOM (160 + 2 * FTS_JW_NUM_MAX + sizeof(FTS_GROUP_TASK_NAME) + sizeof(FTS_GROUP_CPU_NAME))

static void sep(struct json_sink *s)
{
	if (!fts_buf_reserve(s->buf, 2))
		s->buf->len = (size_t)(jw_sep(s->buf->p + s->buf->len, s) - s->buf->p);
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

/* The writer: a lane's tables and its metadata events. */
static int fmt_lane(struct json_sink *s, const struct fts_lane *l)
{
	const char *group = l->group == FTS_GROUP_CPU ? FTS_GROUP_CPU_NAME : FTS_GROUP_TASK_NAME;

	if (l->id >= s->cap) {
		uint32_t cap = s->cap ? s->cap : 256;
		uint64_t *t;
		uint32_t *tl;
		unsigned char *g;

		while (cap <= l->id) {
			if (cap > UINT32_MAX / 2)
				return -ENOMEM;
			cap *= 2;
		}
		t = realloc(s->tid_off, cap * sizeof(*t));
		if (!t)
			return -ENOMEM;
		s->tid_off = t;
		g = realloc(s->group, cap);
		if (!g)
			return -ENOMEM;
		s->group = g;
		tl = realloc(s->tid_len, cap * sizeof(*tl));
		if (!tl)
			return -ENOMEM;
		s->tid_len = tl;
		for (uint32_t i = s->cap; i < cap; i++)
			tl[i] = 2;
		memset(t + s->cap, 0, (cap - s->cap) * sizeof(*t));
		memset(g + s->cap, 0, cap - s->cap);
		s->cap = cap;
	}
	s->tid_off[l->id] = s->names.len;
	fts_buf_put_str(&s->names, l->tid);
	s->tid_len[l->id] = (uint32_t)(s->names.len - s->tid_off[l->id]);
	fts_buf_put(&s->names, "", 1);
	if (s->names.oom)
		return -ENOMEM;
	s->group[l->id] = (unsigned char)l->group;
	if (l->id >= s->nlanes)
		s->nlanes = l->id + 1;
	meta(s, "thread_name", group, l->tid, "name", l->tid, 0);
	meta(s, "thread_sort_index", group, l->tid, "sort_index", NULL, l->sort_index);
	return 0;
}

/*
 * A sink call as a record in a batch: this header, then its strings, each
 * as its length (uint32_t), its bytes, a NUL and zeros to a multiple of 8
 * bytes: a lane's tid; an item's name, then the value of each arg; a flow's
 * name; a key's text. An item's args name their keys by slot (json_keys.h):
 * @nargs uint16_t after the header, padded to 8 bytes, before the strings;
 * a key record (its slot in @lane) defines a slot before the items using
 * it. @len is the whole record's. The lengths spare the writer a scan of
 * every string, the padding lets it check and copy whole words.
 */
enum rec_type { REC_LANE = 'L', REC_ITEM = 'I', REC_FLOW = 'F', REC_KEY = 'K' };

struct rec_hdr {
	uint8_t type;
	uint8_t group;      /* lane: enum fts_lane_group */
	uint16_t nargs;     /* item */
	uint32_t len;
	uint32_t lane;      /* lane: its id; item: its lane; flow: from_lane */
	uint32_t to_lane;   /* flow */
	int32_t sort_index; /* lane */
	int32_t kind;       /* item: enum fts_item_kind */
	uint64_t ts;        /* item: ts; flow: from_ts */
	uint64_t dur;       /* item: dur; flow: to_ts */
	uint64_t id;        /* flow */
};

/* Room for an event at the end of the writer's output; NULL when memory ran out. */
static char *event_room(struct json_sink *s, size_t strings, uint32_t lane)
{
	struct fts_buf *b = s->buf;

	if (fts_buf_reserve(b, EVENT_ROOM + strings + s->tid_len[lane]))
		return NULL;
	return b->p + b->len;
}

/*
 * The writer: one "X" event (its lane was declared: the producer checked);
 * @str: its name, then @h->nargs values; @keys: their keys as JSON strings.
 */
static void fmt_item(struct json_sink *s, const struct rec_hdr *h, const struct fts_strn *str,
		     const struct fts_strn *keys)
{
	char *o = event_room(s, FTS__JSON_ESC_MAX(str[0].n) + fts_jw_args_room(keys, str + 1, h->nargs),
			     h->lane);

	if (!o)
		return;
	o = jw_sep(o, s);
	o = FTS_JW_LIT(o, "{\"name\":");
	o = fts_jw_strn_padded(o, str[0].s, str[0].n);
	o = FTS_JW_LIT(o, ",\"ph\":\"X\",\"ts\":");
	o = fts_jw_us(o, h->ts);
	o = FTS_JW_LIT(o, ",\"dur\":");
	o = fts_jw_us(o, h->dur);
	o = FTS_JW_LIT(o, ",\"pid\":");
	o = jw_group(o, s, h->lane);
	o = FTS_JW_LIT(o, ",\"tid\":");
	o = jw_tid(o, s, h->lane);
	o = FTS_JW_LIT(o, ",\"args\":");
	o = fts_jw_args_n(o, keys, str + 1, h->nargs);
	*o++ = '}';
	s->buf->len = (size_t)(o - s->buf->p);
}

/* The writer: one end of a wakeup link, a Chrome flow event ("s" start, "f" end bound to its slice). */
static void flow_event(struct json_sink *s, const struct fts_flow *f, size_t name_len, int end)
{
	uint32_t lane = end ? f->to_lane : f->from_lane;
	char *o = event_room(s, 2 * FTS__JSON_ESC_MAX(name_len), lane);

	if (!o)
		return;
	o = jw_sep(o, s);
	o = FTS_JW_LIT(o, "{\"name\":");
	o = fts_jw_strn_padded(o, f->name, name_len);
	o = FTS_JW_LIT(o, ",\"cat\":");
	o = fts_jw_strn_padded(o, f->name, name_len);
	if (end)
		o = FTS_JW_LIT(o, ",\"ph\":\"f\",\"bp\":\"e\",\"id\":");
	else
		o = FTS_JW_LIT(o, ",\"ph\":\"s\",\"id\":");
	o = fts_decimal_u64(o, f->id); /* its NUL is written over next */
	o = FTS_JW_LIT(o, ",\"ts\":");
	o = fts_jw_us(o, end ? f->to_ts : f->from_ts);
	o = FTS_JW_LIT(o, ",\"pid\":");
	o = jw_group(o, s, lane);
	o = FTS_JW_LIT(o, ",\"tid\":");
	o = jw_tid(o, s, lane);
	*o++ = '}';
	s->buf->len = (size_t)(o - s->buf->p);
}

/* A string's room in a record: its bytes and NUL, rounded up to 8. */
#define PADDED(n) (((size_t)(n) + 8) & ~(size_t)7)
/* An item's key slots' room: @nargs uint16_t, rounded up to 8 bytes. */
#define SLOTS_ROOM(nargs) (((size_t)(nargs) * sizeof(uint16_t) + 7) & ~(size_t)7)

/* The next string of a record into @out; -1 past its end (a record is never cut). */
static int next_str(const char **p, const char *end, struct fts_strn *out)
{
	uint32_t n;

	if (end - *p < (ptrdiff_t)sizeof(n))
		return -1;
	memcpy(&n, *p, sizeof(n));
	if ((size_t)(end - *p) - sizeof(n) < PADDED(n) || (*p)[sizeof(n) + n] != '\0')
		return -1;
	out->s = *p + sizeof(n);
	out->n = n;
	*p += sizeof(n) + PADDED(n);
	return 0;
}

/* The writer: format one record; 0 or a negative errno. */
static int fmt_rec(struct json_sink *s, const struct rec_hdr *h, const char *str, const char *end)
{
	struct fts_strn strs[1 + 2 * FTS_ITEM_MAX_ARGS];

	if (h->type == REC_LANE) {
		struct fts_lane l = { .id = h->lane, .group = (enum fts_lane_group)h->group,
				      .sort_index = h->sort_index };

		if (next_str(&str, end, &strs[0]))
			return -EIO;
		l.tid = strs[0].s;
		return fmt_lane(s, &l);
	}
	if (h->type == REC_ITEM) {
		struct fts_strn keys[FTS_ITEM_MAX_ARGS];

		if (h->nargs > FTS_ITEM_MAX_ARGS || h->lane >= s->nlanes ||
		    end - str < (ptrdiff_t)SLOTS_ROOM(h->nargs))
			return -EIO;
		for (int i = 0; i < h->nargs; i++) {
			uint16_t slot;

			memcpy(&slot, str + i * sizeof(slot), sizeof(slot));
			/* a slot is defined before its first use: never empty then */
			if (slot >= FTS_JKEY_SLOTS || !s->key_json.json[slot].len)
				return -EIO;
			keys[i].s = s->key_json.json[slot].p;
			keys[i].n = s->key_json.json[slot].len;
		}
		str += SLOTS_ROOM(h->nargs);
		for (int i = 0; i < 1 + h->nargs; i++)
			if (next_str(&str, end, &strs[i]))
				return -EIO;
		fmt_item(s, h, strs, keys);
		return 0;
	}
	if (h->type == REC_KEY) {
		if (h->lane >= FTS_JKEY_SLOTS || next_str(&str, end, &strs[0]))
			return -EIO;
		return fts_jkey_define(&s->key_json, (uint16_t)h->lane, strs[0].s, strs[0].n);
	}
	{
		struct fts_flow f = { .id = h->id, .from_lane = h->lane, .from_ts = h->ts,
				      .to_lane = h->to_lane, .to_ts = h->dur };

		if (next_str(&str, end, &strs[0]) || f.from_lane >= s->nlanes || f.to_lane >= s->nlanes)
			return -EIO;
		f.name = strs[0].s;
		flow_event(s, &f, strs[0].n, 0);
		flow_event(s, &f, strs[0].n, 1);
		return 0;
	}
}

/* One batch of records formatted into the output buffer, flushed as it fills. */
static int write_batch(void *arg, const struct fts_buf *b)
{
	struct json_sink *s = arg;
	size_t off = 0;
	int rc = 0;

	while (!rc && off + sizeof(struct rec_hdr) <= b->len) {
		struct rec_hdr h;

		memcpy(&h, b->p + off, sizeof(h));
		rc = fmt_rec(s, &h, b->p + off + sizeof(h), b->p + off + h.len);
		off += h.len;
		if (!rc && s->buf->len >= FLUSH_AT)
			rc = flush_out(s);
	}
	if (!rc && s->buf->oom)
		rc = -ENOMEM;
	if (rc)
		s->werr = rc; /* before the queue fails: the producer reads it then */
	return rc;
}

static void *writer_main(void *arg)
{
	fts_batchq_consume(&((struct json_sink *)arg)->q, write_batch, arg);
	return NULL;
}

static int write_error(const struct json_sink *s, struct fts_err *err)
{
	int rc = s->werr ? s->werr : -EIO;

	if (rc == -ENOMEM)
		return fts_err_set(err, rc, "out of memory");
	return fts_err_set(err, rc, "%s: write failed: %s%s", s->out.target, strerror(-rc),
			   rc == -ENOSPC ? " (free some space, or write the output elsewhere)" : "");
}

/* The producer: append a record (header, then @nstr strings); hand the batch over when full. */
static int put_rec(struct json_sink *s, struct rec_hdr *h, const uint16_t *slots,
		   const char *const *strs, int nstr, struct fts_err *err)
{
	struct fts_buf *b = fts_batchq_fill(&s->q);
	size_t at = b->len;

	h->len = sizeof(*h);
	fts_buf_put(b, (const char *)h, sizeof(*h));
	if (slots && !fts_buf_reserve(b, SLOTS_ROOM(h->nargs))) {
		memset(b->p + b->len, 0, SLOTS_ROOM(h->nargs));
		memcpy(b->p + b->len, slots, h->nargs * sizeof(*slots));
		b->len += SLOTS_ROOM(h->nargs);
		h->len += (uint32_t)SLOTS_ROOM(h->nargs);
	}
	for (int i = 0; i < nstr; i++) {
		uint32_t n = (uint32_t)strlen(strs[i]);
		size_t room = sizeof(n) + PADDED(n);

		if (fts_buf_reserve(b, room))
			break;
		memcpy(b->p + b->len, &n, sizeof(n));
		/*
		 * The NUL and the padding are zeros, read (and masked) by the writer's
		 * word checks: the last word is zeroed first, the string copied over it.
		 */
		memset(b->p + b->len + sizeof(n) + PADDED(n) - 8, 0, 8);
		memcpy(b->p + b->len + sizeof(n), strs[i], n);
		b->len += room;
		h->len += (uint32_t)room;
	}
	if (b->oom)
		return fts_err_set(err, -ENOMEM, "out of memory");
	memcpy(b->p + at + offsetof(struct rec_hdr, len), &h->len, sizeof(h->len));
	if (b->len >= BATCH_BYTES && fts_batchq_submit(&s->q))
		return write_error(s, err);
	return 0;
}

/* Stop the writer after it formatted everything submitted; 0 or its error. */
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

static int js_lane(struct fts_sink *base, const struct fts_lane *l, struct fts_err *err)
{
	struct json_sink *s = (struct json_sink *)base;
	struct rec_hdr h = { .type = REC_LANE, .group = (uint8_t)l->group, .lane = l->id,
			     .sort_index = l->sort_index };
	const char *strs[1] = { l->tid };

	if (l->id >= UINT32_MAX - 1)
		return fts_err_set(err, -ENOMEM, "out of memory");
	if (l->id >= s->declared)
		s->declared = l->id + 1;
	return put_rec(s, &h, NULL, strs, 1, err);
}

/* The producer: slot @slot is @key now, for the writer (before the item using it). */
static int put_key(struct json_sink *s, uint16_t slot, const char *key, struct fts_err *err)
{
	struct rec_hdr h = { .type = REC_KEY, .lane = slot };

	return put_rec(s, &h, NULL, &key, 1, err);
}

static int js_item(struct fts_sink *base, const struct fts_item *it, struct fts_err *err)
{
	struct json_sink *s = (struct json_sink *)base;
	struct rec_hdr h = { .type = REC_ITEM, .lane = it->lane, .kind = (int32_t)it->kind,
			     .ts = it->ts, .dur = it->dur };
	const char *strs[1 + FTS_ITEM_MAX_ARGS];
	uint16_t slots[FTS_ITEM_MAX_ARGS];
	int n = 0;

	if (it->lane >= s->declared)
		return fts_err_set(err, -EINVAL, "internal error: item on an undeclared lane");
	strs[n++] = it->name;
	for (int i = 0; i < it->nargs && i < FTS_ITEM_MAX_ARGS; i++) {
		if (!fts_jkey_pick(&s->keys, it->args[i].key, i, slots, &slots[i])) {
			int rc = put_key(s, slots[i], it->args[i].key, err);

			if (rc)
				return rc;
		}
		strs[n++] = it->args[i].val;
	}
	h.nargs = (uint16_t)(n - 1);
	return put_rec(s, &h, slots, strs, n, err);
}

static int js_flow(struct fts_sink *base, const struct fts_flow *f, struct fts_err *err)
{
	struct json_sink *s = (struct json_sink *)base;
	struct rec_hdr h = { .type = REC_FLOW, .lane = f->from_lane, .to_lane = f->to_lane,
			     .ts = f->from_ts, .dur = f->to_ts, .id = f->id };
	const char *strs[1] = { f->name };

	if (f->from_lane >= s->declared || f->to_lane >= s->declared)
		return fts_err_set(err, -EINVAL, "internal error: a link to an undeclared lane");
	return put_rec(s, &h, NULL, strs, 1, err);
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
	/* close submits the last batch; the writer's failure on any batch is reported here */
	rc = join_writer(s, 1, err);
	if (!rc && fts_sink_cancelled(base))
		rc = fts_err_set(err, -ECANCELED, "cancelled");
	if (!rc) {
		/* the writer is joined: its output buffer is this thread's now */
		PUT_LIT(s->buf, "\n]\n");
		s->werr = flush_out(s);
		if (s->werr)
			rc = write_error(s, err);
	}
	if (rc) {
		fts_outfile_abort(&s->out);
		return rc;
	}
	s->out.cancelled = base->cancelled;
	s->out.cancel_ctx = base->cancel_ctx;
	return fts_outfile_commit(&s->out, NULL, err);
}

static void js_destroy(struct fts_sink *base)
{
	struct json_sink *s = (struct json_sink *)base;

	join_writer(s, 0, NULL);
	fts_outfile_abort(&s->out);
	fts_buf_free(&s->names);
	fts_jkey_table_free(&s->key_json);
	free(s->tid_off);
	free(s->tid_len);
	free(s->group);
	fts_buf_free(&s->outbuf);
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
	fts_jkey_cache_init(&s->keys);
	if (fts_batchq_init(&s->q)) {
		free(s);
		return fts_err_set(err, -ENOMEM, "out of memory");
	}
	s->buf = &s->outbuf;
	PUT_LIT(&s->names, "\"\"\0");
	s->base.lane = js_lane;
	s->base.item = js_item;
	s->base.finish = js_finish;
	s->base.destroy = js_destroy;
	s->base.flow = js_flow;
	rc = fts_outfile_begin(&s->out, path, owner, err);
	if (rc) {
		js_destroy(&s->base);
		return rc;
	}
	/* process names first, CPU lanes above task lanes (before the writer starts: no race) */
	PUT_LIT(s->buf, "[");
	meta(s, "process_name", FTS_GROUP_CPU_NAME, NULL, "name", FTS_GROUP_CPU_NAME, 0);
	meta(s, "process_sort_index", FTS_GROUP_CPU_NAME, NULL, "sort_index", NULL, 0);
	meta(s, "process_name", FTS_GROUP_TASK_NAME, NULL, "name", FTS_GROUP_TASK_NAME, 0);
	meta(s, "process_sort_index", FTS_GROUP_TASK_NAME, NULL, "sort_index", NULL, 1);
	/* signals belong to the front end's thread, never to the writer */
	if (fts__thread_start(&s->writer, NULL, writer_main, s)) {
		js_destroy(&s->base);
		return fts_err_set(err, -EAGAIN, "cannot start the writer thread");
	}
	s->writer_running = 1;
	*out = &s->base;
	return 0;
}
