// SPDX-License-Identifier: MIT
/*
 * export_job.c - the export screen's worker thread (see export_job.h).
 *
 * The screen's thread starts the job and polls it on its tick; the worker
 * only writes its progress (under @mu) and, once, its outcome before it
 * sets @finished. The progress callback returns the cancel flag, so the
 * library stops at its next report and removes what it had written.
 */
#include "tui/session/export_job.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ftscope/ftscope.h>

#include "app/process.h"
#include "core/internal.h"

struct fts_export_job {
	pthread_t th;
	enum fts_export_job_kind kind;
	int joined;
	atomic_int cancel, finished;
	pthread_mutex_t mu;          /* guards prog and stage_t0 */
	struct fts_progress prog;
	double t0, stage_t0, last_t; /* fts__clock_mono_s at the start, the stage's first report, the last */
	/* the input, a copy: the screen may change its plan meanwhile */
	struct fts_export_plan plan;
	const char *probe_helper;    /* a static string (fts_front_probe_helper) or NULL */
	long pace_ms;                /* test hook: a pause per progress report */
	/* the outcome, written by the worker before @finished */
	int rc;
	struct fts_err err;
	struct fts_pipeline_result *res;  /* NULL once taken by fts_export_job_result */
};

static int on_progress(void *ctx, const struct fts_progress *p)
{
	struct fts_export_job *j = ctx;

	pthread_mutex_lock(&j->mu);
	j->last_t = fts__clock_mono_s();
	if (p->stage != j->prog.stage || !j->stage_t0)
		j->stage_t0 = j->last_t;
	j->prog = *p;
	pthread_mutex_unlock(&j->mu);
	if (j->pace_ms > 0)
		nanosleep(&(struct timespec){ j->pace_ms / 1000, j->pace_ms % 1000 * 1000000L }, NULL);
	return atomic_load(&j->cancel);
}

/* The capture's span, as exported (cs_rows on): no sink, only the result. */
static int run_range(struct fts_export_job *j)
{
	struct fts_pipeline_opts po;

	memset(&po, 0, sizeof(po));
	po.input = j->plan.input;
	po.cs_rows = 1;
	po.progress = on_progress;
	po.progress_ctx = j;
	po.probe_helper = j->probe_helper;
	return fts_pipeline_run(&po, NULL, 0, j->res, &j->err);
}

/* What `ftscope convert` would do with the plan's command line (fts_export_cmdline). */
static int run_export(struct fts_export_job *j)
{
	const struct fts_export_plan *p = &j->plan;
	struct fts_convert_opts co;

	memset(&co, 0, sizeof(co));
	co.input = p->input;
	co.output = p->output;
	co.format = p->json ? FTS_OUT_JSON : FTS_OUT_DB;
	co.profiling_data = p->profiling[0] ? p->profiling : NULL;
	co.pid_mapping = p->pid_mapping[0] ? p->pid_mapping : NULL;
	co.cs_rows = 1;
	co.with_summary = fts_export_with_summary(p);
	co.progress = on_progress;
	co.progress_ctx = j;
	co.probe_helper = j->probe_helper;
	fts_front_output_owner(&co.owner);
	return fts_convert(&co, j->res, &j->err);
}

static void *job_main(void *arg)
{
	struct fts_export_job *j = arg;

	j->rc = j->kind == FTS_JOB_RANGE ? run_range(j) : run_export(j);
	atomic_store(&j->finished, 1);
	return NULL;
}

/*
 * Test hook (FTSCOPE_TEST_EXPORT_PACE_MS, as docs/record.md's other test
 * hooks): an export slow enough for a test's keys to land while it runs, on
 * any machine (a quiet one exports the test's 113 MB in under 2 s).
 */
static long export_pace_ms(void)
{
	const char *d = getenv("FTSCOPE_TEST_EXPORT_PACE_MS");
	long ms = d ? atol(d) : 0;

	return ms > 0 && ms <= 5000 ? ms : 0;
}

int fts_export_job_start(enum fts_export_job_kind kind, const struct fts_export_plan *plan,
			 const char *probe_helper, struct fts_export_job **out)
{
	struct fts_export_job *j = calloc(1, sizeof(*j));
	int rc;

	*out = NULL;
	if (!j)
		return -ENOMEM;
	j->res = fts_pipeline_result_new();
	if (!j->res) {
		free(j);
		return -ENOMEM;
	}
	j->kind = kind;
	j->plan = *plan;
	j->t0 = fts__clock_mono_s();
	j->probe_helper = probe_helper;
	j->pace_ms = export_pace_ms();
	pthread_mutex_init(&j->mu, NULL);
	atomic_init(&j->cancel, 0);
	atomic_init(&j->finished, 0);
	rc = fts__thread_start(&j->th, NULL, job_main, j);
	if (rc) {
		pthread_mutex_destroy(&j->mu);
		fts_pipeline_result_free(j->res);
		free(j);
		return rc;
	}
	*out = j;
	return 0;
}

enum fts_export_job_kind fts_export_job_kind(const struct fts_export_job *j)
{
	return j->kind;
}

void fts_export_job_progress(const struct fts_export_job *j, struct fts_progress *p,
			     struct fts_export_clock *t)
{
	/* the lock is not part of the job's value: a const reader may take it */
	pthread_mutex_t *mu = (pthread_mutex_t *)&j->mu;
	double now = fts__clock_mono_s();

	pthread_mutex_lock(mu);
	*p = j->prog;
	if (t) {
		t->total_s = now - j->t0;
		t->stage_s = now - (j->stage_t0 ? j->stage_t0 : j->t0);
		t->since_s = now - (j->last_t ? j->last_t : j->t0);
	}
	pthread_mutex_unlock(mu);
}

void fts_export_job_cancel(struct fts_export_job *j)
{
	atomic_store(&j->cancel, 1);
}

int fts_export_job_done(const struct fts_export_job *j)
{
	return atomic_load(&j->finished);
}

static void join(struct fts_export_job *j)
{
	if (!j->joined) {
		pthread_join(j->th, NULL);
		j->joined = 1;
	}
}

int fts_export_job_result(struct fts_export_job *j, struct fts_pipeline_result **res,
			  struct fts_err *err)
{
	join(j);
	if (res) {
		*res = j->res;
		j->res = NULL;
	}
	if (err)
		*err = j->err;
	return j->rc;
}

void fts_export_job_free(struct fts_export_job *j)
{
	if (!j)
		return;
	fts_export_job_cancel(j);
	join(j);
	pthread_mutex_destroy(&j->mu);
	fts_pipeline_result_free(j->res);
	free(j);
}
