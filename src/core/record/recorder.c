// SPDX-License-Identifier: MIT
/*
 * recorder.c - the recorder's public face: check the options and the output
 * before anything is recorded, pick the backend (AUTO falls back to
 * trace-cmd only when the native one is unavailable here), start the native
 * capture (instance -> streams -> sampler), hand out health snapshots, and
 * stop with progress: end, drain, remove the instance, assemble.
 *
 * Health may be asked from any thread, during the stop too (docs/threads.md):
 * the recorder's lock is held by fts_record_health throughout, and by the
 * stop wherever it frees or swaps what health reads (the top, the instance,
 * trace-cmd, the pid mapper, the places), and once more before the free.
 */
#include "core/record/record_local.h"
#include "core/internal.h"
#include "core/util/outfile.h"
#include "core/util/tempfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define RESERVE_BYTES (16u << 20)   /* held back to assemble the file after a full disk */
#define SAMPLE_NS 500000000L        /* the sampler's period */

struct fts_recorder {
	/*
	 * Health against stop: held by fts_record_health, and by the stop while
	 * it frees or swaps top, in, tc, mapper, top_last, or polls the places.
	 */
	pthread_mutex_t lock;
	struct fts_record_opts o;     /* the caller's strings are not kept */
	char output[PATH_MAX];
	char pid_mapping[PATH_MAX];
	char map_held[64 + NAME_MAX];  /* the mapping through its directory held open (map_at) */
	char tracing_dir[PATH_MAX];
	int text;                     /* render kernel text instead of keeping the dat */
	const char *backend;          /* "tracefs" / "trace-cmd" */
	char fallback[256];           /* why AUTO chose trace-cmd */
	struct rec_events ev;
	struct rec_instance *in;
	struct rec_stream *st;
	struct rec_health *hs;
	struct rec_tracecmd *tc;
	struct rec_top *top;
	struct rec_flight *fl;        /* the flight recorder's rotation, or NULL */
	struct rec_trig_rule *rules;  /* the flight recorder's scheduling triggers (parsed), or NULL */
	int nrules;
	struct fts_record_top top_last;  /* the top when it was stopped */
	struct fts_pidmapper *mapper;
	struct rec_place *out_place;  /* the output's directory, watched */
	char seg_name[NAME_MAX + 1];  /* flight: the last segment's name in its directory */
	struct rec_place *map_place;  /* the pid mapping's (follows out_place when the same) */
	int reserve_fd;
	uint64_t t0_ns;
	struct rec_clock clock_start; /* the opening clock marker's sample */
	struct rec_clock clock_stop;  /* read again at stop: convert fits MONOTONIC against RAW */
};

void fts_record_opts_init(struct fts_record_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->bf_size_kb = 40960;
	o->backend = FTS_BACKEND_AUTO;
	o->sched = 1;
	o->irq = 1;
}

static int flight_on(const struct fts_record_opts *o)
{
	return o->flight_segment_s > 0 || o->flight_segment_bytes > 0;
}

/* A flight output with a name before ".dat": "DIR/.dat" would make hidden segments ".NNNNNN.dat". */
static int flight_stem_ok(const char *output)
{
	const char *base = strrchr(output, '/') ? strrchr(output, '/') + 1 : output;
	size_t l = strlen(base);

	if (l >= 4 && !strcmp(base + l - 4, ".dat"))
		l -= 4;
	return l > 0 && !(l == 1 && base[0] == '.');
}

/*
 * A flight recording rotates the native streams into trace.dat segments:
 * neither trace-cmd nor a text output can do that. The live top follows
 * the rotation (rec_top_rotated), so it and the triggers work there.
 */
/* Whether @list holds a trigger other than "lost" (a bad list is refused later, parsed). */
static int sched_triggers(const char *list)
{
	struct rec_trig_rule *rules;
	int n, k;

	if (!list || !*list || rec_trig_parse_list(list, &rules, &n, NULL))
		return list && *list;
	k = rec_trig_sched_count(rules, n);
	free(rules);
	return k > 0;
}

static int check_flight(const struct fts_record_opts *o, struct fts_err *err)
{
	size_t n = o->output ? strlen(o->output) : 0;

	if (!isfinite(o->flight_segment_s) || o->flight_segment_s < 0 || o->flight_segment_s > 1e7)
		return fts_err_set(err, -EINVAL, "the flight segment length must be a number of seconds >= 0");
	if (o->flight_keep < 0 || o->flight_keep > 100000)
		return fts_err_set(err, -EINVAL, "the flight recorder keeps 1..100000 segments, not %d",
				   o->flight_keep);
	if (!isfinite(o->flight_post_trigger_s) || o->flight_post_trigger_s < 0 || o->flight_post_trigger_s > 3600)
		return fts_err_set(err, -EINVAL, "the seconds recorded after a trigger are 0..3600");
	if (o->flight_trigger_keep < 0 || o->flight_trigger_keep > 100000)
		return fts_err_set(err, -EINVAL, "the flight recorder keeps 1..100000 trigger snapshots, not %d",
				   o->flight_trigger_keep);
	if (!flight_on(o)) {
		if (o->flight_triggers && *o->flight_triggers)
			return fts_err_set(err, -EINVAL, "the triggers need a flight recording "
					   "(a segment length or size)");
		return 0;
	}
	if (!o->sched && sched_triggers(o->flight_triggers))
		return fts_err_set(err, -EINVAL, "the scheduling triggers need the sched events");
	if (o->flight_segment_s > 0 && o->flight_segment_s < 0.5)
		return fts_err_set(err, -EINVAL, "a flight segment lasts at least 0.5 s");
	if (o->flight_segment_bytes && o->flight_segment_bytes < (1u << 20))
		return fts_err_set(err, -EINVAL, "a flight segment holds at least 1 MiB");
	if (o->backend == FTS_BACKEND_TRACE_CMD)
		return fts_err_set(err, -EINVAL, "the flight recorder needs the native backend, not trace-cmd");
	if (n >= 4 && !strcmp(o->output + n - 4, ".txt"))
		return fts_err_set(err, -EINVAL, "the flight recorder writes trace.dat segments; choose a .dat output");
	if (!flight_stem_ok(o->output ? o->output : "trace.dat"))
		return fts_err_set(err, -EINVAL, "the flight recorder's output needs a name before .dat (its segments "
				   "are NAME.NNNNNN.dat; without one they would be hidden files no reader finds)");
	return 0;
}

int rec_check_opts(const struct fts_record_opts *o, struct fts_err *err)
{
	int rc;

	if (o->bf_size_kb > (1u << 22))
		return fts_err_set(err, -EINVAL, "a per-CPU buffer of %u KB is too large (max 4194304)",
				   o->bf_size_kb);
	if (!o->sched && !o->irq && !o->futex)
		return fts_err_set(err, -EINVAL, "no events selected (sched, irq and futex are all off)");
	if (o->output && !*o->output)
		return fts_err_set(err, -EINVAL, "the output path is empty");
	if (o->pid_mapping && !*o->pid_mapping && o->nspid)
		return fts_err_set(err, -EINVAL, "the pid mapping path is empty");
	if ((rc = rec_events_check_exclude(o->exclude, err)))
		return rc;
	if (o->readers < 0 || o->readers > 64)
		return fts_err_set(err, -EINVAL, "the reader threads are 1..64 (0: one per 16 CPUs), not %d",
				   o->readers);
	if (o->reader_nice < -20 || o->reader_nice > 0)
		return fts_err_set(err, -EINVAL, "the readers' nice must be -20..-1 (0: the default -10), not %d",
				   o->reader_nice);
	if (!isfinite(o->duration_s) || o->duration_s < 0 || o->duration_s > 1e9)
		return fts_err_set(err, -EINVAL, "the duration must be a number of seconds >= 0");
	if (!isfinite(o->pidmap_interval_s) || o->pidmap_interval_s < 0 || o->pidmap_interval_s > 1e7)
		return fts_err_set(err, -EINVAL, "the pid mapping interval must be a number of seconds >= 0");
	return check_flight(o, err);
}

/* Where the output and the mapping go; the reference's defaults. */
static int resolve_paths(struct fts_recorder *r, const struct fts_record_opts *o, struct fts_err *err)
{
	const char *out = o->output ? o->output : "trace.dat";
	const char *slash = strrchr(out, '/');
	size_t n = strlen(out);

	if (n >= sizeof(r->output))
		return fts_err_set(err, -ENAMETOOLONG, "the output path is too long");
	strcpy(r->output, out);
	r->text = n >= 4 && !strcmp(out + n - 4, ".txt");
	if (o->pid_mapping && *o->pid_mapping)
		n = (size_t)snprintf(r->pid_mapping, sizeof(r->pid_mapping), "%s", o->pid_mapping);
	else if (slash)
		n = (size_t)snprintf(r->pid_mapping, sizeof(r->pid_mapping), "%.*s/pid_mapping.json",
				     (int)(slash - out), out);
	else
		n = (size_t)snprintf(r->pid_mapping, sizeof(r->pid_mapping), "pid_mapping.json");
	if (n >= sizeof(r->pid_mapping))
		return fts_err_set(err, -ENAMETOOLONG, "the pid mapping path is too long");
	return 0;
}

/*
 * Refuse a bad output before recording, not after: create and remove the
 * temp file the commit will use (a directory, symlink, device or FIFO, a
 * missing directory or a name too long for its temp name all fail here),
 * and make sure the disk has room for the reserve.
 */
static int check_output(const char *path, int need_space, struct fts_err *err)
{
	struct fts_outfile f;
	struct statvfs vfs;
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int rc = fts_outfile_begin(&f, path, NULL, err);

	if (rc)
		return rc;
	fts_outfile_abort(&f);
	if (!need_space)
		return 0;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (statvfs(dir, &vfs) == 0 &&
	    (uint64_t)vfs.f_bavail * vfs.f_frsize < (uint64_t)RESERVE_BYTES + (4u << 20))
		return fts_err_set(err, -ENOSPC,
				   "%s: only %llu KiB free on its disk; recording needs at least %u MiB",
				   path, (unsigned long long)((uint64_t)vfs.f_bavail * vfs.f_frsize / 1024),
				   (RESERVE_BYTES >> 20) + 4);
	return 0;
}

/*
 * Where the pid mapping is written: its name in the directory held open
 * (or made when that one was removed), as a /proc/self/fd path, so a
 * directory swapped for a symlink is never written through by the mapper's
 * path-based rewrites (every second) nor read by a snapshot.
 */
static void map_at(struct fts_recorder *r, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/self/fd/%d/%s", rec_place_dirfd(r->map_place), rec_place_base(r->map_place));
}

static int reader_nice(const struct fts_record_opts *o)
{
	return o->reader_nice ? o->reader_nice : REC_READER_NICE;
}

/*
 * *@unavailable: the error means the native backend cannot work on this
 * machine (no private instances, no mono_raw clock); any other error (a
 * write refused, no memory for the buffers, ...) is the capture's, and AUTO
 * must say it rather than try trace-cmd.
 */
static int start_native(struct fts_recorder *r, const struct fts_cpuset *set, int *unavailable,
			struct fts_err *err)
{
	int rc;

	/* Any run repairs what killed runs left: their instances and trace-cmd's global state. */
	rec_instance_sweep(r->tracing_dir);
	rec_tracecmd_repair();
	rc = rec_instance_create(r->tracing_dir, set, r->o.bf_size_kb, &r->ev, &r->in, unavailable, err);
	if (!rc)
		rc = rec_stream_open(r->in, set, r->output, r->o.bf_size_kb, r->o.readers, &r->st, err);
	if (rc)
		return rc;
	/* Space held back so a full disk still leaves room to assemble the file. */
	r->reserve_fd = fts_rec_tempfile(r->output);
	if (r->reserve_fd >= 0 && fallocate(r->reserve_fd, 0, 0, RESERVE_BYTES) < 0) {
		close(r->reserve_fd);
		r->reserve_fd = -1;
	}
	r->t0_ns = fts__clock_mono_ns();
	rec_stream_set_nice(r->st, reader_nice(&r->o));
	if (flight_on(&r->o))
		rec_stream_go_on_full(r->st);   /* the flight thread makes room (flight.c) */
	rc = rec_health_start(r->in, r->st, r->o.bf_size_kb, r->t0_ns,
			      r->o.duration_s > 0 ? r->t0_ns + (uint64_t)(r->o.duration_s * 1e9) : 0,
			      SAMPLE_NS, reader_nice(&r->o), &r->hs, err);
	if (!rc)
		rc = rec_stream_start(r->st, err);
	/* the scheduling triggers are tested by the live top's decoder: it runs for them even unshown */
	if (!rc && (r->o.live_top || rec_trig_sched_count(r->rules, r->nrules))) {
		if (!r->o.sched)
			rc = fts_err_set(err, -EINVAL, r->o.live_top ? "the live top needs the sched events"
					 : "the scheduling triggers need the sched events");
		else
			rc = rec_top_start(r->tracing_dir, r->st, rec_instance_subbuf(r->in), &r->top, err);
		if (!rc && rec_trig_sched_count(r->rules, r->nrules))
			rec_top_triggers(r->top, r->rules, r->nrules, r->o.live_top);
	}
	if (!rc && flight_on(&r->o)) {
		struct rec_flight_cfg fc = {
			.output = r->output, .dirfd = rec_place_dirfd(r->out_place), .place = r->out_place,
			.segment_s = r->o.flight_segment_s,
			.segment_bytes = r->o.flight_segment_bytes,
			.keep = r->o.flight_keep > 0 ? r->o.flight_keep : 4, .in = r->in, .st = r->st,
			.tracing_dir = r->tracing_dir, .events = (const char *const *)r->ev.names,
			.owner = &r->o.owner, .top = r->top, .health = r->hs, .rules = r->rules,
			.nrules = r->nrules, .post_s = r->o.flight_post_trigger_s,
			.trig_keep = r->o.flight_trigger_keep, .trig_bytes = r->o.flight_trigger_bytes,
			.pidmap = r->o.nspid ? r->map_held : NULL,
		};
		rc = rec_flight_start(&fc, &r->fl, err);
	}
	if (!rc)
		rc = rec_instance_tracing(r->in, 1, err);
	if (!rc)
		rec_instance_clock_sample_marker(r->in, rec_stream_cpu(r->st, 0), &r->clock_start, 0);
	return rc;
}

static int start_tracecmd(struct fts_recorder *r, const struct fts_cpuset *set, struct fts_err *err)
{
	if (r->text)
		return fts_err_set(err, -EINVAL, "the trace-cmd backend writes trace.dat only; choose a .dat output");
	rec_tracecmd_repair();
	r->backend = "trace-cmd";
	r->t0_ns = fts__clock_mono_ns();
	return rec_tracecmd_start(&r->o, r->output, set, &r->ev, &r->tc, err);
}

/* Undo a partial start in reverse order. */
static void free_recorder(struct fts_recorder *r)
{
	rec_flight_free(r->fl);
	if (r->top)
		rec_top_free(r->top);
	if (r->hs)
		rec_health_free(r->hs);
	if (r->st)
		rec_stream_free(r->st);
	if (r->in)
		rec_instance_destroy(r->in, NULL);
	if (r->tc)
		rec_tracecmd_stop(r->tc, NULL);
	if (r->reserve_fd >= 0)
		close(r->reserve_fd);
	rec_place_free(r->map_place);
	rec_place_free(r->out_place);
	rec_events_free(&r->ev);
	free(r->rules);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

/* Pick and start the backend; AUTO tries trace-cmd only when native cannot work here. */
static int start_backend(struct fts_recorder *r, const struct fts_cpuset *set, struct fts_err *err)
{
	struct fts_err nerr = { 0 };
	int rc, unavailable = 0;

	if (r->o.backend == FTS_BACKEND_TRACE_CMD)
		return start_tracecmd(r, set, err);
	r->backend = "tracefs";
	rc = start_native(r, set, &unavailable, &nerr);
	if (!rc || r->o.backend != FTS_BACKEND_AUTO || !unavailable) {
		if (rc && err)
			*err = nerr;
		return rc;
	}
	/* Undo the native attempt before trying trace-cmd. */
	rec_flight_free(r->fl);
	r->fl = NULL;
	rec_top_free(r->top);
	r->top = NULL;
	rec_health_free(r->hs);
	rec_stream_free(r->st);
	rec_instance_destroy(r->in, NULL);
	r->hs = NULL;
	r->st = NULL;
	r->in = NULL;
	snprintf(r->fallback, sizeof(r->fallback), "%.200s", nerr.msg);
	rc = start_tracecmd(r, set, err);
	if (rc && err) {
		char why[sizeof(err->msg)];
		snprintf(why, sizeof(why), "%s", err->msg);
		fts_err_set(err, rc, "%s; trace-cmd cannot record either: %s", nerr.msg, why);
	}
	return rc;
}

int fts_record_start(const struct fts_record_opts *o, struct fts_recorder **out, struct fts_err *err)
{
	struct fts_recorder *r;
	struct fts_cpuset set;
	int rc;

	*out = NULL;
	if (!o)
		return fts_err_set(err, -EINVAL, "no options");
	if ((rc = rec_check_opts(o, err)))
		return rc;
	r = calloc(1, sizeof(*r));
	if (!r)
		return fts_err_set(err, -ENOMEM, "out of memory");
	pthread_mutex_init(&r->lock, NULL);
	r->o = *o;
	r->o.cpus = r->o.output = r->o.pid_mapping = r->o.flight_triggers = NULL;
	r->o.exec_path = NULL;
	rc = rec_trig_parse_list(o->flight_triggers, &r->rules, &r->nrules, err);
	if (rc) {
		pthread_mutex_destroy(&r->lock);
		free(r);
		return rc;
	}
	if (!r->o.bf_size_kb)
		r->o.bf_size_kb = 40960;
	r->reserve_fd = -1;
	rc = resolve_paths(r, o, err);
	if (!rc)
		rc = rec_tracing_dir(r->tracing_dir, sizeof(r->tracing_dir), err);
	if (!rc)
		rc = rec_cpus_resolve(o->cpus, &set, err);
	if (!rc)
		rc = fts_record_mem_check(r->o.bf_size_kb, fts_cpuset_count(&set), o->live_top, NULL, NULL, err);
	if (!rc)
		rc = check_output(r->output, 1, err);
	if (!rc && o->nspid)
		rc = check_output(r->pid_mapping, 0, err);
	if (!rc)
		rc = rec_place_open(r->output, &o->owner, NULL, &r->out_place, err);
	if (!rc && o->nspid)
		rc = rec_place_open(r->pid_mapping, &o->owner, r->out_place, &r->map_place, err);
	if (!rc && o->nspid)
		map_at(r, r->map_held, sizeof(r->map_held));
	if (!rc)
		rc = rec_events_select(&r->o, r->tracing_dir, &r->ev, err);
	r->o.exclude = NULL;   /* the caller's string: the selection holds what it meant */
	if (!rc) {
		r->o.cpus = o->cpus;   /* trace-cmd needs to know whether a list was given */
		r->o.exec_path = o->exec_path;   /* and where it is */
		rc = start_backend(r, &set, err);
		r->o.cpus = r->o.exec_path = NULL;
	}
	if (!rc && o->nspid)
		rc = fts_pidmapper_start(r->map_held, o->pidmap_interval_s, &o->owner, &r->mapper, err);
	if (rc) {
		if (r->mapper)
			fts_pidmapper_stop(r->mapper, NULL);
		free_recorder(r);
		return rc;
	}
	*out = r;
	return 0;
}

/*
 * The output's directory removed or renamed: say where the capture goes now
 * and send the pid mapping's rewrites there too. The native streams do not
 * care; trace-cmd keeps its files in that directory by name, so it stops.
 */
static void watch_places(struct fts_recorder *r, struct fts_record_health *h, int force)
{
	char path[PATH_MAX], note[512];
	size_t l;

	h->output_moved = rec_place_poll(r->out_place, force);
	if (r->map_place)
		h->output_moved += rec_place_poll(r->map_place, force);
	if (!h->output_moved)
		return;
	rec_place_note(r->out_place, h->output_note, sizeof(h->output_note));
	if (r->map_place) {
		map_at(r, path, sizeof(path));
		if (r->mapper)
			rec_pidmapper_retarget(r->mapper, path);
		rec_place_note(r->map_place, note, sizeof(note));
		l = strlen(h->output_note);
		if (note[0])
			snprintf(h->output_note + l, sizeof(h->output_note) - l, "%s%s", l ? "; " : "", note);
	}
	if (r->tc && h->output_note[0] && !h->failed) {
		h->failed = 1;
		snprintf(h->failure, sizeof(h->failure), "%.120s; trace-cmd keeps its files there by name, "
			 "so its capture may be lost", h->output_note);
	}
}

/* fts_record_health under the recorder's lock. */
static int health_locked(struct fts_recorder *r, struct fts_record_health *h)
{
	int rc = 0;

	memset(h, 0, sizeof(*h));
	if (r->hs) {
		rc = rec_health_snapshot(r->hs, h);
		h->failed = rec_stream_failed(r->st, h->failure, sizeof(h->failure));
		if (r->fl) {
			if (!h->failed)
				h->failed = rec_flight_failed(r->fl, h->failure, sizeof(h->failure));
			rec_flight_counts(r->fl, &h->flight_segments, &h->flight_disk_bytes);
			rec_flight_triggered(r->fl, &h->flight_triggered, &h->flight_trigger_hits,
					     h->flight_trigger_note, sizeof(h->flight_trigger_note));
			rec_flight_disk(r->fl, &h->flight_removed_early, &h->flight_segments_lost,
					&h->flight_writes_refused, h->flight_disk_note, sizeof(h->flight_disk_note));
		}
	} else {
		h->elapsed_s = (double)(fts__clock_mono_ns() - r->t0_ns) / 1e9;
		h->done = r->o.duration_s > 0 && h->elapsed_s >= r->o.duration_s;
	}
	if (r->top && r->o.live_top)
		rec_top_snapshot(r->top, &h->top);
	else if (r->o.live_top)
		h->top = r->top_last;
	h->backend = r->backend;
	watch_places(r, h, 0);
	snprintf(h->skipped_events, sizeof(h->skipped_events), "%s", r->ev.missing);
	snprintf(h->fallback, sizeof(h->fallback), "%s", r->fallback);
	return rc;
}

int fts_record_health(struct fts_recorder *r, struct fts_record_health *h)
{
	int rc;

	pthread_mutex_lock(&r->lock);
	rc = health_locked(r, h);
	pthread_mutex_unlock(&r->lock);
	return rc;
}

void fts_record_health_release(struct fts_record_health *h)
{
	if (!h)
		return;
	free(h->cpu);
	h->cpu = NULL;
	h->ncpus = 0;
}

int fts_record_health_loss(const struct fts_record_health *h, struct fts_loss *out)
{
	fts_loss_free(out);
	if (!h->counters)
		return 0;
	for (int i = 0; i < h->ncpus; i++) {
		const struct fts_record_cpu_health *c = &h->cpu[i];

		if (fts_loss_set_kernel(out, c->cpu, c->overrun, c->commit_overrun, c->dropped))
			return -ENOMEM;
		fts_loss_at(out, c->cpu)->stopped = c->lost_stopped;
	}
	return 0;
}

unsigned fts_record_buffer_kb(double bytes_per_s, unsigned min_kb)
{
	/* 2 s of readers not getting a CPU, the stall seen on loaded hosts */
	double want_kb = bytes_per_s * 2 / 1024;
	unsigned kb = 1;

	if (want_kb < min_kb)
		want_kb = min_kb;
	while (kb < want_kb && kb < (1u << 22))
		kb <<= 1;
	return kb;
}

unsigned fts_record_advice_kb(const struct fts_record_health *h, unsigned cur_kb)
{
	double peak = 0;

	for (int i = 0; i < h->ncpus; i++)
		if (h->cpu[i].peak_bytes_per_s > peak)
			peak = h->cpu[i].peak_bytes_per_s;
	return fts_record_buffer_kb(peak, 2 * cur_kb);
}

int fts_record_worst_cpus(const struct fts_record_health *h, int *idx, int max)
{
	int n = 0;

	/* Insertion into a short ordered list: @max is small (a screen's rows). */
	for (int i = 0; i < h->ncpus; i++) {
		const struct fts_record_cpu_health *c = &h->cpu[i];
		int k = n < max ? n : max;

		while (k > 0) {
			const struct fts_record_cpu_health *w = &h->cpu[idx[k - 1]];
			if (c->lost < w->lost || (c->lost == w->lost && c->fill <= w->fill))
				break;
			if (k < max)
				idx[k] = idx[k - 1];
			k--;
		}
		if (k < max) {
			idx[k] = i;
			if (n < max)
				n++;
		}
	}
	return n;
}

/* The caller's progress hook and the mode it asked for so far. */
struct stop_ctl {
	fts_record_progress_fn fn;
	void *arg;
	enum fts_record_stop_mode mode;
	uint64_t last_ns;
	uint64_t drained;             /* bytes drained from the CPUs before this one */
	uint64_t at_halt;             /* this CPU's bytes when the readers stopped */
};

static void ask(struct stop_ctl *c, const struct fts_record_progress *p)
{
	if (c->fn) {
		enum fts_record_stop_mode m = c->fn(p, c->arg);
		if (m > c->mode)
			c->mode = m;
	}
}

/* Between drained pages: report at most every 50 ms; go on while DRAIN. */
static int drain_more(void *arg, uint64_t bytes)
{
	struct stop_ctl *c = arg;
	uint64_t now = fts__clock_mono_ns();

	if (now - c->last_ns >= 50000000u) {
		struct fts_record_progress p = { FTS_REC_STAGE_DRAIN, c->drained + bytes - c->at_halt, 0 };

		ask(c, &p);
		c->last_ns = now;
	}
	return c->mode == FTS_STOP_DRAIN;
}

/* The same hook for the assembly, keeping the mode reached while draining. */
static enum fts_record_stop_mode assemble_progress(const struct fts_record_progress *p, void *arg)
{
	struct stop_ctl *c = arg;

	ask(c, p);
	return c->mode;
}

static void drain_all(struct fts_recorder *r, struct stop_ctl *ctl)
{
	int n = rec_stream_count(r->st);

	for (int i = 0; i < n && ctl->mode == FTS_STOP_DRAIN && !rec_stream_failed(r->st, NULL, 0); i++) {
		ctl->at_halt = rec_stream_bytes(r->st, i);
		rec_stream_drain(r->st, i, drain_more, ctl);
		ctl->drained += rec_stream_bytes(r->st, i) - ctl->at_halt;
	}
}

/* What the assembly needs, copied out of the instance before it goes. */
struct stop_data {
	int n;
	int *cpu, *fd;
	char **stats;
	char *clock_text;
	int page_size;
};

static int collect(struct fts_recorder *r, struct stop_data *d, struct fts_err *err)
{
	d->n = rec_stream_count(r->st);
	d->cpu = calloc((size_t)d->n, sizeof(*d->cpu));
	d->fd = calloc((size_t)d->n, sizeof(*d->fd));
	d->stats = calloc((size_t)d->n, sizeof(*d->stats));
	d->clock_text = rec_instance_clock(r->in) ? strdup(rec_instance_clock(r->in)) : NULL;
	d->page_size = rec_instance_subbuf(r->in);
	if (!d->cpu || !d->fd || !d->stats)
		return fts_err_set(err, -ENOMEM, "out of memory");
	for (int i = 0; i < d->n; i++) {
		struct rec_cpu_stats s;

		d->cpu[i] = rec_stream_cpu(r->st, i);
		d->fd[i] = rec_stream_fd(r->st, i);
		/* The stats at stop go into the trace.dat (CPUSTAT), as trace-cmd does. */
		(void)rec_instance_stats(r->in, d->cpu[i], &s, &d->stats[i]);
	}
	return 0;
}

static void free_stop_data(struct stop_data *d)
{
	for (int i = 0; d->stats && i < d->n; i++)
		free(d->stats[i]);
	free(d->stats);
	free(d->cpu);
	free(d->fd);
	free(d->clock_text);
}

static int assemble(struct fts_recorder *r, const struct stop_data *d, struct stop_ctl *ctl,
		    struct fts_record_summary *sum, struct fts_err *err)
{
	char clock_line[416], stop_line[200];
	struct rec_assembly a = {
		.output = r->output, .owner = &r->o.owner, .text = r->text, .tracing_dir = r->tracing_dir,
		.events = (const char *const *)r->ev.names, .clock_text = d->clock_text,
		.clock_line = clock_line, .page_size = d->page_size, .ncpu = d->n, .cpu = d->cpu,
		.fd = d->fd, .stats = d->stats,
	};
	int cut = 0, rc;

	/* into the directory held since the start (or made when it went), never through its path */
	if (r->fl) {
		a.name = r->seg_name;
		a.dirfd = rec_flight_dirfd(r->fl);
	} else {
		a.name = rec_place_base(r->out_place);
		a.dirfd = rec_place_dirfd(r->out_place);
	}
	rec_clock_format(stop_line, sizeof(stop_line), "ftscope_clock_stop", &r->clock_stop);
	{
		char start_line[200];

		rec_clock_format(start_line, sizeof(start_line), "ftscope_clock", &r->clock_start);
		snprintf(clock_line, sizeof(clock_line), "# %s\n# %s\n", start_line, stop_line);
	}
	rc = rec_assemble(&a, assemble_progress, ctl, &cut, err);
	if (sum && cut == 1)
		sum->cut = 1;
	if (sum && cut == 2) {
		size_t l = strlen(sum->failure);

		sum->truncated = 1;
		snprintf(sum->failure + l, sizeof(sum->failure) - l, "%s",
			 l ? "; the disk filled up again while writing the text, which keeps the events before that"
			   : "disk full while writing the text; it keeps the events before that");
	}
	return rc;
}

/* End, drain, sample, and take the instance away; then assemble. */
static int stop_native(struct fts_recorder *r, struct stop_ctl *ctl, struct fts_record_summary *sum,
		       struct fts_err *err)
{
	struct stop_data d = { 0 };
	uint64_t end, lost = 0;
	int rc, rc2;

	/* The rotation in progress completes; the streaming segment is the last one. */
	if (r->fl) {
		rec_flight_halt(r->fl);
		if (rec_flight_last_name(r->fl, r->seg_name, sizeof(r->seg_name)) == 0)
			rec_flight_shown(r->fl, r->seg_name, r->output, sizeof(r->output));
	}
	end = rec_health_end(r->hs);
	/* after the last event: the stop sample brackets the whole capture */
	rec_clock_sample(&r->clock_stop);
	rec_stream_halt(r->st);
	drain_all(r, ctl);
	/*
	 * The top reads the streams, which the assembly punches: finish it
	 * before, and after the drain, so its last figures count what the file
	 * holds (as `ftscope stats` of it would).
	 */
	pthread_mutex_lock(&r->lock);
	if (r->top) {
		rec_top_finish(r->top, &r->top_last);
		rec_top_free(r->top);
		r->top = NULL;
	}
	pthread_mutex_unlock(&r->lock);
	rec_health_final(r->hs);
	rc = collect(r, &d, err);
	/* the last segment's own loss and clock pair, as every segment's (segstats.c) */
	if (r->fl && !rc)
		lost = rec_flight_last_stats(r->fl, &r->clock_stop, d.stats);
	if (sum) {
		(void)fts_record_health(r, &sum->health);
		sum->duration_s = (double)(end - r->t0_ns) / 1e9;
		sum->truncated = rec_stream_failed(r->st, sum->failure, sizeof(sum->failure));
	}
	/* Remove the instance before the (possibly long) assembly. */
	pthread_mutex_lock(&r->lock);
	rec_stream_close_raw(r->st);
	rc2 = rec_instance_destroy(r->in, rc ? NULL : err);
	r->in = NULL;
	pthread_mutex_unlock(&r->lock);
	if (!rc)
		rc = rc2;
	/* Give the space held back to the assembly (it matters when the disk filled up). */
	if (r->reserve_fd >= 0) {
		close(r->reserve_fd);
		r->reserve_fd = -1;
	}
	if (d.cpu && d.fd && d.stats) {
		rc2 = assemble(r, &d, ctl, sum, rc ? NULL : err);
		if (!rc)
			rc = rc2;
		if (!rc2 && r->fl)
			rec_flight_closed(r->fl, lost);
	}
	free_stop_data(&d);
	return rc;
}

/* The last look before writing: the output and the mapping go where the places say. */
static void relocate(struct fts_recorder *r)
{
	char path[PATH_MAX];

	rec_place_poll(r->out_place, 1);
	if (rec_place_target(r->out_place, path, sizeof(path)) == 1)
		memcpy(r->output, path, sizeof(r->output));
	if (r->map_place) {
		rec_place_poll(r->map_place, 1);
		if (rec_place_target(r->map_place, path, sizeof(path)) == 1)
			memcpy(r->pid_mapping, path, sizeof(r->pid_mapping));   /* to name it */
		map_at(r, path, sizeof(path));
		if (r->mapper)
			rec_pidmapper_retarget(r->mapper, path);
	}
}

int fts_record_stop_progress(struct fts_recorder *r, enum fts_record_stop_mode mode,
			     fts_record_progress_fn progress, void *arg,
			     struct fts_record_summary *sum, struct fts_err *err)
{
	struct stop_ctl ctl = { progress, arg, mode, 0, 0, 0 };
	struct stat st;
	int rc, rc2;

	if (sum)
		memset(sum, 0, sizeof(*sum));
	if (!r)
		return fts_err_set(err, -EINVAL, "no recorder");
	pthread_mutex_lock(&r->lock);
	relocate(r);
	pthread_mutex_unlock(&r->lock);
	if (r->tc) {
		struct rec_tracecmd *tc = r->tc;

		if (sum) {
			(void)fts_record_health(r, &sum->health);
			sum->duration_s = sum->health.elapsed_s;
		}
		pthread_mutex_lock(&r->lock);
		r->tc = NULL;
		pthread_mutex_unlock(&r->lock);
		rc = rec_tracecmd_stop(tc, err);
	} else {
		rc = stop_native(r, &ctl, sum, err);
	}
	if (r->mapper) {
		struct fts_pidmapper *m = r->mapper;

		pthread_mutex_lock(&r->lock);
		r->mapper = NULL;
		pthread_mutex_unlock(&r->lock);
		rc2 = fts_pidmapper_stop(m, rc ? NULL : err);
		if (!rc)
			rc = rc2;
	}
	if (sum && r->fl)
		rec_flight_counts(r->fl, &sum->health.flight_segments, &sum->health.flight_disk_bytes);
	if (sum) {
		snprintf(sum->output, sizeof(sum->output), "%s", r->output);
		if (r->o.nspid)
			snprintf(sum->pid_mapping, sizeof(sum->pid_mapping), "%s", r->pid_mapping);
		sum->file_size = lstat(r->output, &st) == 0 ? (uint64_t)st.st_size : 0;
	}
	/* a health call begun before this point returns before the recorder goes */
	pthread_mutex_lock(&r->lock);
	pthread_mutex_unlock(&r->lock);
	free_recorder(r);
	return rc;
}

int fts_record_snapshot(struct fts_recorder *r, const char *reason, double last_s, char *dir,
			size_t len, struct fts_err *err)
{
	if (!r || !dir || !len)
		return fts_err_set(err, -EINVAL, "no recorder or no room for the snapshot's path");
	dir[0] = 0;
	if (!r->fl)
		return fts_err_set(err, -EINVAL, "snapshots need a flight recording (a segment length or size)");
	if (!isfinite(last_s))
		return fts_err_set(err, -EINVAL, "the snapshot's seconds must be a number");
	return rec_flight_snapshot(r->fl, reason, last_s, r->o.nspid ? r->map_held : NULL, dir, len, err);
}

int fts_record_stop(struct fts_recorder *r, enum fts_record_stop_mode mode,
		    struct fts_record_summary *sum, struct fts_err *err)
{
	return fts_record_stop_progress(r, mode, NULL, NULL, sum, err);
}

void fts_record_summary_release(struct fts_record_summary *sum)
{
	if (sum)
		fts_record_health_release(&sum->health);
}
