// SPDX-License-Identifier: MIT
#include "core/util/batchq.h"

#include <errno.h>
#include <string.h>

int fts_batchq_init(struct fts_batchq *q)
{
	memset(q, 0, sizeof(*q));
	if (pthread_mutex_init(&q->lock, NULL))
		return -ENOMEM;
	if (pthread_cond_init(&q->cond, NULL)) {
		pthread_mutex_destroy(&q->lock);
		return -ENOMEM;
	}
	return 0;
}

struct fts_buf *fts_batchq_fill(struct fts_batchq *q)
{
	return &q->slots[q->tail];
}

int fts_batchq_submit(struct fts_batchq *q)
{
	int rc = 0;

	pthread_mutex_lock(&q->lock);
	q->full[q->tail] = 1;
	q->tail = (q->tail + 1) % FTS_BATCHQ_DEPTH;
	pthread_cond_broadcast(&q->cond);
	while (q->full[q->tail] && !q->failed)
		pthread_cond_wait(&q->cond, &q->lock);
	if (q->failed)
		rc = -1;
	q->slots[q->tail].len = 0;
	pthread_mutex_unlock(&q->lock);
	return rc;
}

void fts_batchq_close(struct fts_batchq *q)
{
	if (q->slots[q->tail].len)
		fts_batchq_submit(q);
	pthread_mutex_lock(&q->lock);
	q->closed = 1;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

struct fts_buf *fts_batchq_take(struct fts_batchq *q)
{
	struct fts_buf *b = NULL;

	pthread_mutex_lock(&q->lock);
	while (!q->full[q->head] && !q->closed)
		pthread_cond_wait(&q->cond, &q->lock);
	if (q->full[q->head])
		b = &q->slots[q->head];
	pthread_mutex_unlock(&q->lock);
	return b;
}

void fts_batchq_release(struct fts_batchq *q)
{
	pthread_mutex_lock(&q->lock);
	q->full[q->head] = 0;
	q->head = (q->head + 1) % FTS_BATCHQ_DEPTH;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

void fts_batchq_fail(struct fts_batchq *q)
{
	pthread_mutex_lock(&q->lock);
	q->failed = 1;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

int fts_batchq_consume(struct fts_batchq *q, int (*fn)(void *arg, const struct fts_buf *b), void *arg)
{
	struct fts_buf *b;

	while ((b = fts_batchq_take(q)) != NULL) {
		int rc = fn(arg, b);

		fts_batchq_release(q);
		if (rc) {
			fts_batchq_fail(q);
			return rc;
		}
	}
	return 0;
}

void fts_batchq_destroy(struct fts_batchq *q)
{
	for (int i = 0; i < FTS_BATCHQ_DEPTH; i++)
		fts_buf_free(&q->slots[i]);
	pthread_cond_destroy(&q->cond);
	pthread_mutex_destroy(&q->lock);
}
