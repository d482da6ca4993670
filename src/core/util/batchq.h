/* SPDX-License-Identifier: MIT */
/*
 * batchq.h - a bounded queue of byte batches from one producer thread to one
 * consumer thread.
 *
 * The sinks use it to write their output on a second core while the reader
 * and the model run on the first; the pipeline, to run the text reader beside
 * the model. Batches are recycled, so memory is bounded by FTS_BATCHQ_DEPTH *
 * batch size whatever the trace length.
 */
#ifndef FTS_UTIL_BATCHQ_H
#define FTS_UTIL_BATCHQ_H

#include <pthread.h>
#include <stddef.h>

#include "core/util/buf.h"

#define FTS_BATCHQ_DEPTH 4

struct fts_batchq {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct fts_buf slots[FTS_BATCHQ_DEPTH];
	int full[FTS_BATCHQ_DEPTH];   /* slot holds a batch for the consumer */
	int head;                     /* next slot the consumer takes */
	int tail;                     /* next slot the producer fills */
	int closed;                   /* producer is done */
	int failed;                   /* consumer gave up: producer stops */
};

/* fts_batchq_init - an empty queue; 0 or a negative code. */
int fts_batchq_init(struct fts_batchq *q);

/* fts_batchq_fill - the buffer the producer appends to (owned until submit). */
struct fts_buf *fts_batchq_fill(struct fts_batchq *q);

/*
 * fts_batchq_submit - hand the filled buffer to the consumer and wait for a
 * free one. Returns 0, or -1 when the consumer has failed.
 */
int fts_batchq_submit(struct fts_batchq *q);

/* fts_batchq_close - no more batches (the current buffer is submitted first). */
void fts_batchq_close(struct fts_batchq *q);

/*
 * fts_batchq_take - the consumer's next batch, blocking; NULL once the queue is
 * closed and drained. Give it back with fts_batchq_release.
 */
struct fts_buf *fts_batchq_take(struct fts_batchq *q);

/* fts_batchq_release - the consumer is done with the batch from take. */
void fts_batchq_release(struct fts_batchq *q);

/* fts_batchq_fail - the consumer stops; the producer's next submit returns -1. */
void fts_batchq_fail(struct fts_batchq *q);

/*
 * fts_batchq_consume - the consumer's loop: @fn on each batch until the queue
 * is drained (0) or @fn fails (its non-zero return; the queue failed then).
 */
int fts_batchq_consume(struct fts_batchq *q, int (*fn)(void *arg, const struct fts_buf *b), void *arg);

/* fts_batchq_destroy - free the buffers (both threads must be done). */
void fts_batchq_destroy(struct fts_batchq *q);

#endif
