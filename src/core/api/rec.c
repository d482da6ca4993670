/* SPDX-License-Identifier: MIT */
/*
 * The recording handle (fts_rec): struct fts_record_opts behind key/value
 * setters, and the recorder's health and summary as JSON. The lock guards
 * the recorder pointer and the message, so fts_rec_health_json from another
 * thread never sees a recorder fts_rec_stop is freeing.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/api/api_local.h"
#include "ftscope/api.h"
#include "ftscope/loss.h"
#include "ftscope/record.h"

struct fts_rec {
	pthread_mutex_t lock;
	struct fts_recorder *r;     /* NULL when not recording */
	struct fts_record_opts o;   /* its strings are owned (see KEYS) */
	struct fts_record_opts defaults;
	struct fts_err err;
};

#define OPT(field) offsetof(struct fts_record_opts, field)
static const struct api_key KEYS[] = {
	{ "cpus", API_STR, OPT(cpus), 0 },
	{ "output", API_STR, OPT(output), 0 },
	{ "bf_size", API_UINT, OPT(bf_size_kb), 16u * 1024 * 1024 },
	{ "sched", API_BOOL, OPT(sched), 0 },
	{ "irq", API_BOOL, OPT(irq), 0 },
	{ "futex", API_BOOL, OPT(futex), 0 },
	{ "exclude", API_STR, OPT(exclude), 0 },
	{ "nspid", API_BOOL, OPT(nspid), 0 },
	{ "pid_mapping", API_STR, OPT(pid_mapping), 0 },
	{ "pidmap_interval", API_DOUBLE, OPT(pidmap_interval_s), 0 },
	{ "duration", API_DOUBLE, OPT(duration_s), 0 },
	{ "live_top", API_BOOL, OPT(live_top), 0 },
	{ "owner", API_OWNER, OPT(owner), 0 },
	{ "flight_segment", API_DOUBLE, OPT(flight_segment_s), 0 },
	{ "flight_keep", API_UINT, OPT(flight_keep), 100000 },
	{ "flight_triggers", API_STR, OPT(flight_triggers), 0 },
	{ "flight_post_trigger", API_DOUBLE, OPT(flight_post_trigger_s), 0 },
	{ "flight_trigger_keep", API_UINT, OPT(flight_trigger_keep), 100000 },
	{ "flight_trigger_bytes", API_U64, OPT(flight_trigger_bytes), 0 },
	{ "readers", API_UINT, OPT(readers), 64 },
	{ "exec_path", API_STR, OPT(exec_path), 0 },
};
#define NKEYS (sizeof(KEYS) / sizeof(KEYS[0]))

struct fts_rec *fts_rec_new(void)
{
	struct fts_rec *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	pthread_mutex_init(&h->lock, NULL);
	fts_record_opts_init(&h->o);
	h->defaults = h->o;
	return h;
}

static int set_backend(struct fts_rec *h, const char *v)
{
	if (api_empty(v) || !strcmp(v, "auto"))
		h->o.backend = FTS_BACKEND_AUTO;
	else if (!strcmp(v, "tracefs") || !strcmp(v, "debugfs"))
		h->o.backend = FTS_BACKEND_TRACEFS;
	else if (!strcmp(v, "trace-cmd") || !strcmp(v, "trace_cmd"))
		h->o.backend = FTS_BACKEND_TRACE_CMD;
	else
		return api_bad_value(&h->err, "record", "backend", v, -EINVAL);
	return 0;
}

int fts_rec_set(struct fts_rec *h, const char *key, const char *value)
{
	int rc;

	api_ok(&h->err);
	if (h->r)
		return fts_err_set(&h->err, -EBUSY, "record option %s: the capture already runs", key);
	if (!strcmp(key, "backend"))
		return set_backend(h, value);
	rc = api_set(&h->o, &h->defaults, KEYS, NKEYS, key, value, &h->err, "record");
	if (rc == -ENOENT)
		rc = api_bad_value(&h->err, "record", key, NULL, -EINVAL);
	if (!rc && !strcmp(key, "duration") && h->o.duration_s < 0)
		h->o.duration_s = 0;  /* the reference's "<= 0: until stopped" */
	return rc;
}

int fts_rec_start(struct fts_rec *h)
{
	struct fts_recorder *r = NULL;
	struct fts_err err = { 0 };
	int rc;

	api_ok(&h->err);
	if (h->r)
		return fts_err_set(&h->err, -EBUSY, "a capture already runs on this handle; stop it first");
	rc = fts_record_start(&h->o, &r, &err);
	pthread_mutex_lock(&h->lock);
	if (rc)
		h->err = err;
	else
		h->r = r;
	pthread_mutex_unlock(&h->lock);
	return rc;
}

int fts_rec_running(const struct fts_rec *h)
{
	return h->r != NULL;
}

static void cpu_json(struct api_jw *w, const struct fts_record_cpu_health *c,
		     const struct fts_loss *loss)
{
	char text[160];
	const struct fts_loss_cpu *lc = NULL;

	if (c->cpu >= 0 && c->cpu < loss->ncpu)
		lc = &loss->cpu[c->cpu];
	api_jw_open(w, '{');
	api_jw_ki64(w, "cpu", c->cpu);
	api_jw_ku64(w, "events", c->events);
	api_jw_knum(w, "events_per_s", c->events_per_s);
	api_jw_ku64(w, "bytes_written", c->bytes_written);
	api_jw_knum(w, "fill", c->fill);
	api_jw_ku64(w, "overrun", c->overrun);
	api_jw_ku64(w, "commit_overrun", c->commit_overrun);
	api_jw_ku64(w, "dropped", c->dropped);
	api_jw_ku64(w, "lost", c->lost);
	api_jw_key(w, "lost_text");
	api_jw_str(w, lc ? fts_loss_cpu_text(lc, text, sizeof(text)) : "unknown");
	api_jw_close(w, '}');
}

/* One health snapshot as a JSON object; the loss words come from the loss model. */
static int health_json(struct api_jw *w, const struct fts_record_health *hl)
{
	struct fts_loss loss;
	char text[512];

	fts_loss_init(&loss);
	if (fts_record_health_loss(hl, &loss))
		return -ENOMEM;
	api_jw_open(w, '{');
	api_jw_knum(w, "elapsed_s", hl->elapsed_s);
	api_jw_ku64(w, "events", hl->events);
	api_jw_knum(w, "events_per_s", hl->events_per_s);
	api_jw_ku64(w, "bytes_written", hl->bytes_written);
	api_jw_ku64(w, "lost", hl->lost);
	api_jw_ku64(w, "lost_delta", hl->lost_delta);
	api_jw_key(w, "lost_text");
	api_jw_str(w, hl->counters ? fts_loss_text(&loss, 8, text, sizeof(text)) : "unknown (no kernel counters)");
	api_jw_kbool(w, "counters", hl->counters);
	api_jw_kbool(w, "done", hl->done);
	api_jw_kbool(w, "failed", hl->failed);
	api_jw_kstr(w, "failure", hl->failure);
	api_jw_kstr(w, "backend", hl->backend);
	api_jw_kstr(w, "skipped_events", hl->skipped_events);
	api_jw_kstr(w, "fallback", hl->fallback);
	api_jw_ki64(w, "output_moved", hl->output_moved);
	api_jw_kstr(w, "output_note", hl->output_note);
	api_jw_ki64(w, "flight_segments", hl->flight_segments);
	api_jw_ku64(w, "flight_disk_bytes", hl->flight_disk_bytes);
	api_jw_ki64(w, "flight_triggered", hl->flight_triggered);
	api_jw_ku64(w, "flight_trigger_hits", hl->flight_trigger_hits);
	api_jw_kstr(w, "flight_trigger_note", hl->flight_trigger_note);
	api_jw_ku64(w, "flight_removed_early", hl->flight_removed_early);
	api_jw_ku64(w, "flight_segments_lost", hl->flight_segments_lost);
	api_jw_ku64(w, "flight_writes_refused", hl->flight_writes_refused);
	api_jw_kstr(w, "flight_disk_note", hl->flight_disk_note);
	api_jw_key(w, "cpus");
	api_jw_open(w, '[');
	for (int i = 0; i < hl->ncpus; i++)
		cpu_json(w, &hl->cpu[i], &loss);
	api_jw_close(w, ']');
	api_jw_close(w, '}');
	fts_loss_free(&loss);
	return 0;
}

char *fts_rec_health_json(struct fts_rec *h)
{
	struct fts_record_health hl;
	struct api_jw w = { 0 };
	char *out = NULL;
	int rc;

	memset(&hl, 0, sizeof(hl));
	pthread_mutex_lock(&h->lock);
	api_ok(&h->err);
	if (!h->r) {
		fts_err_set(&h->err, -ESRCH, "not recording: start the capture first");
		goto unlock;
	}
	rc = fts_record_health(h->r, &hl);
	if (!rc)
		rc = health_json(&w, &hl);
	if (!rc)
		out = api_jw_take(&w);
	if (!out) {
		fts_buf_free(&w.b);
		fts_err_set(&h->err, -ENOMEM, "out of memory taking the recorder's health");
	}
	fts_record_health_release(&hl);
unlock:
	pthread_mutex_unlock(&h->lock);
	return out;
}

int fts_rec_snapshot(struct fts_rec *h, const char *reason, double last_s, char **dir)
{
	char path[4096];
	int rc;

	*dir = NULL;
	/* Under the lock: fts_rec_stop cannot free the recorder while the snapshot links. */
	pthread_mutex_lock(&h->lock);
	api_ok(&h->err);
	if (!h->r)
		rc = fts_err_set(&h->err, -ESRCH, "not recording: start the capture first");
	else
		rc = fts_record_snapshot(h->r, reason, last_s, path, sizeof(path), &h->err);
	if (!rc && !(*dir = strdup(path)))
		rc = fts_err_set(&h->err, -ENOMEM, "out of memory");
	pthread_mutex_unlock(&h->lock);
	return rc;
}

static int parse_mode(const char *mode, enum fts_record_stop_mode *m)
{
	if (api_empty(mode) || !strcmp(mode, "drain"))
		*m = FTS_STOP_DRAIN;
	else if (!strcmp(mode, "fast"))
		*m = FTS_STOP_FAST;
	else if (!strcmp(mode, "cut"))
		*m = FTS_STOP_CUT;
	else
		return -EINVAL;
	return 0;
}

static char *summary_json(const struct fts_record_summary *s)
{
	struct api_jw w = { 0 };

	api_jw_open(&w, '{');
	api_jw_kstr(&w, "output", s->output);
	api_jw_kstr(&w, "pid_mapping", s->pid_mapping);
	api_jw_knum(&w, "duration_s", s->duration_s);
	api_jw_ku64(&w, "file_size", s->file_size);
	api_jw_kbool(&w, "truncated", s->truncated);
	api_jw_kbool(&w, "cut", s->cut);
	api_jw_kstr(&w, "failure", s->failure);
	api_jw_key(&w, "health");
	if (health_json(&w, &s->health)) {
		fts_buf_free(&w.b);
		return NULL;
	}
	api_jw_close(&w, '}');
	return api_jw_take(&w);
}

int fts_rec_stop(struct fts_rec *h, const char *mode, char **summary)
{
	struct fts_record_summary sum;
	struct fts_recorder *r;
	enum fts_record_stop_mode m;
	struct fts_err err = { 0 };
	int rc;

	if (summary)
		*summary = NULL;
	pthread_mutex_lock(&h->lock);
	api_ok(&h->err);
	r = h->r;
	rc = parse_mode(mode, &m);
	if (rc)
		api_bad_value(&h->err, "stop", "mode", mode, rc);
	else if (!r)
		rc = fts_err_set(&h->err, -ESRCH, "not recording: nothing to stop");
	else
		h->r = NULL;  /* health calls from now on say "not recording" */
	pthread_mutex_unlock(&h->lock);
	if (rc)
		return rc;
	memset(&sum, 0, sizeof(sum));
	rc = fts_record_stop(r, m, &sum, &err);
	pthread_mutex_lock(&h->lock);
	if (rc)
		h->err = err;
	if (summary && (!rc || sum.output[0]) && !(*summary = summary_json(&sum)) && !rc)
		rc = fts_err_set(&h->err, -ENOMEM, "out of memory writing the capture's summary");
	pthread_mutex_unlock(&h->lock);
	fts_record_summary_release(&sum);
	return rc;
}

const char *fts_rec_error(const struct fts_rec *h)
{
	return h->err.msg;
}

void fts_rec_free(struct fts_rec *h)
{
	if (!h)
		return;
	if (h->r)
		fts_rec_stop(h, "fast", NULL);
	api_free_strs(&h->o, KEYS, NKEYS);
	pthread_mutex_destroy(&h->lock);
	free(h);
}
