// SPDX-License-Identifier: MIT
/*
 * read_beside.c - a reader on a thread of its own, beside the model.
 *
 * Parsing text lines into events is about a third of a text conversion's CPU
 * time on the thread that also runs the model; on a second core the two
 * overlap. The reader thread copies each event (and each progress report)
 * as a record into a batch of a bounded queue (core/util/batchq.h); the
 * calling thread takes the batches and calls the caller's emit and progress
 * in the reader's order, so the model sees exactly the events, in the order,
 * it would have seen on one thread. A record: struct rec_hdr, then its
 * payload padded to 8 bytes, so an event is used in place, never copied out.
 *
 * Stopping: when the caller's emit returns non-zero the queue fails and the
 * reader's next hand-over returns 1 from its emit, which stops the reader
 * as a stop from the caller's emit would have; progress reports hand their
 * batch over at once, so a slow trace (few events) still shows progress and
 * can be cancelled.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/pipeline/pipeline_local.h"
#include "core/util/batchq.h"

/* A batch is handed over at this size: about 4,000 events. */
#define BATCH_BYTES (1u << 20)

enum rec_type { REC_EVENT = 1, REC_PROGRESS = 2 };

struct rec_hdr {
	uint32_t type;
	uint32_t len;  /* the whole record, a multiple of 8 */
};

struct beside {
	struct fts_batchq q;
	fts_pipe_read_fn read;
	const char *path;
	const struct fts_read_opts *outer;  /* the caller's emit and progress */
	/* the reader thread's */
	struct fts_read_stats st;
	struct fts_err err;
	int rc;
	int halted;     /* a hand-over failed: the consumer stopped */
	/* the calling thread's */
	int stopped;    /* the caller's emit's non-zero return */
};

/* The reader: append a record; hand the batch over when full or @now. 0, 1 (stop) or -ENOMEM. */
static int put(struct beside *b, uint32_t type, const void *p, size_t n, int now)
{
	struct fts_buf *buf = fts_batchq_fill(&b->q);
	struct rec_hdr h = { .type = type, .len = (uint32_t)(sizeof(h) + ((n + 7) & ~(size_t)7)) };

	if (b->halted)
		return 1;
	if (fts_buf_reserve(buf, h.len))
		return fts_err_set(&b->err, -ENOMEM, "out of memory");
	memcpy(buf->p + buf->len, &h, sizeof(h));
	memcpy(buf->p + buf->len + sizeof(h), p, n);
	buf->len += h.len;
	if ((now || buf->len >= BATCH_BYTES) && fts_batchq_submit(&b->q))
		b->halted = 1;
	return b->halted;
}

static int beside_emit(void *ctx, const struct fts_event *ev)
{
	return put(ctx, REC_EVENT, ev, sizeof(*ev), 0);
}

static void beside_progress(void *ctx, const struct fts_read_stats *st)
{
	put(ctx, REC_PROGRESS, st, sizeof(*st), 1);
}

static void *reader_main(void *arg)
{
	struct beside *b = arg;
	struct fts_read_opts ro = *b->outer;

	ro.emit = beside_emit;
	ro.emit_ctx = b;
	ro.progress = b->outer->progress ? beside_progress : NULL;
	ro.progress_ctx = b;
	b->rc = b->read(b->path, &ro, &b->st, &b->err);
	fts_batchq_close(&b->q);
	return NULL;
}

/* The calling thread: one batch's records to the caller's callbacks; non-zero stops. */
static int consume(void *arg, const struct fts_buf *buf)
{
	struct beside *b = arg;
	const struct fts_read_opts *o = b->outer;
	size_t off = 0;

	while (off + sizeof(struct rec_hdr) <= buf->len) {
		struct rec_hdr h;
		const char *payload = buf->p + off + sizeof(h);

		memcpy(&h, buf->p + off, sizeof(h));
		if (h.type == REC_EVENT) {
			int rc = o->emit(o->emit_ctx, (const struct fts_event *)(const void *)payload);

			if (rc) {
				b->stopped = rc;
				return rc;
			}
		} else {
			o->progress(o->progress_ctx, (const struct fts_read_stats *)(const void *)payload);
		}
		off += h.len;
	}
	return 0;
}

int fts_pipe_read_beside(fts_pipe_read_fn read, const char *path, const struct fts_read_opts *ro,
			 struct fts_read_stats *st, struct fts_err *err)
{
	struct beside *b = calloc(1, sizeof(*b));
	pthread_t t;
	int rc;

	if (!b || fts_batchq_init(&b->q)) {
		free(b);
		return read(path, ro, st, err); /* no room for a queue: read on this thread */
	}
	b->read = read;
	b->path = path;
	b->outer = ro;
	b->st = *st;
	if (fts__thread_start(&t, NULL, reader_main, b)) {
		fts_batchq_destroy(&b->q);
		free(b);
		return read(path, ro, st, err);
	}
	fts_batchq_consume(&b->q, consume, b);
	pthread_join(t, NULL);
	*st = b->st;
	rc = b->rc;
	/*
	 * the caller stopped the read: its code, as its emit's return ends a
	 * reader on one thread (whatever the reader met after that event)
	 */
	if (b->stopped)
		rc = b->stopped;
	else if (rc < 0 && err)
		*err = b->err;
	fts_batchq_destroy(&b->q);
	free(b);
	return rc;
}
