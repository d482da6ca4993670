// SPDX-License-Identifier: MIT
/*
 * pidmapper.c - the pid mapper: a thread that rescans /proc every
 * interval and rewrites pid_mapping.json, so threads of a model started after
 * the recorder are mapped too. The table only grows: pids that exited stay.
 */
#include "ftscope/error.h"
#include "core/record/pidscan.h"
#include "core/record/record_local.h"
#include "core/internal.h"
#include "ftscope/record.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct fts_pidmapper {
	struct fts_pidscan *table;
	char path[PATH_MAX];
	struct fts_owner owner;
	int64_t interval_ns;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int stop;
};

static int scan_and_write(struct fts_pidmapper *m, struct fts_err *err)
{
	char path[PATH_MAX];
	int rc = fts_pidscan_scan(m->table, "/proc", err);

	if (rc < 0)
		return rc;
	pthread_mutex_lock(&m->lock);
	memcpy(path, m->path, sizeof(path));
	pthread_mutex_unlock(&m->lock);
	return fts_pidscan_write_json(m->table, path, &m->owner, err);
}

void rec_pidmapper_retarget(struct fts_pidmapper *m, const char *path)
{
	pthread_mutex_lock(&m->lock);
	snprintf(m->path, sizeof(m->path), "%s", path);
	pthread_mutex_unlock(&m->lock);
}

static void *mapper_main(void *arg)
{
	struct fts_pidmapper *m = arg;

	pthread_mutex_lock(&m->lock);
	while (!m->stop) {
		struct timespec until;
		int64_t ns;

		clock_gettime(CLOCK_MONOTONIC, &until);
		ns = (int64_t)until.tv_nsec + m->interval_ns;
		until.tv_sec += (time_t)(ns / 1000000000);
		until.tv_nsec = (long)(ns % 1000000000);
		if (pthread_cond_timedwait(&m->wake, &m->lock, &until) == ETIMEDOUT && !m->stop) {
			pthread_mutex_unlock(&m->lock);
			/* A failed rescan is retried next period; stop reports the last one. */
			scan_and_write(m, NULL);
			pthread_mutex_lock(&m->lock);
		}
	}
	pthread_mutex_unlock(&m->lock);
	return NULL;
}

int fts_pidmapper_start(const char *path, double interval_s, const struct fts_owner *owner,
			struct fts_pidmapper **out, struct fts_err *err)
{
	struct fts_pidmapper *m;
	pthread_condattr_t ca;
	int rc;

	*out = NULL;
	if (!path || !*path)
		path = "pid_mapping.json";
	m = calloc(1, sizeof(*m));
	if (!m || !(m->table = fts_pidscan_new())) {
		free(m);
		return fts_err_set(err, -ENOMEM, "out of memory");
	}
	snprintf(m->path, sizeof(m->path), "%s", path);
	if (owner)
		m->owner = *owner;
	m->interval_ns = (int64_t)((interval_s > 0 ? interval_s : 1.0) * 1e9);
	if (m->interval_ns < 10000000)
		m->interval_ns = 10000000;
	pthread_mutex_init(&m->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&m->wake, &ca);
	pthread_condattr_destroy(&ca);
	rc = scan_and_write(m, err);
	if (!rc) {
		rc = fts__thread_start(&m->thread, NULL, mapper_main, m);
		if (rc)
			fts_err_set(err, rc, "cannot start the pid mapper thread: %s", strerror(-rc));
	}
	if (rc) {
		pthread_cond_destroy(&m->wake);
		pthread_mutex_destroy(&m->lock);
		fts_pidscan_free(m->table);
		free(m);
		return rc;
	}
	*out = m;
	return 0;
}

int fts_pidmapper_stop(struct fts_pidmapper *m, struct fts_err *err)
{
	int rc;

	if (!m)
		return fts_err_set(err, -EINVAL, "no pid mapper");
	pthread_mutex_lock(&m->lock);
	m->stop = 1;
	pthread_cond_signal(&m->wake);
	pthread_mutex_unlock(&m->lock);
	pthread_join(m->thread, NULL);
	rc = scan_and_write(m, err);
	pthread_cond_destroy(&m->wake);
	pthread_mutex_destroy(&m->lock);
	fts_pidscan_free(m->table);
	free(m);
	return rc;
}
