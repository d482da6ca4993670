/* SPDX-License-Identifier: MIT */
/*
 * record_local.h - what the recorder's lower files provide to recorder.c
 * (and probe.c). Calls run one way:
 *
 *   recorder.c, probe.c
 *     -> health.c   (sampler thread: rates, loss, the duration deadline)
 *          -> stream.c, instance.c
 *     -> stream.c   (per-CPU reader threads splicing pages to stream files)
 *     -> top.c      (optional live top read from the streams) -> stream.c,
 *          -> top_engine.c (trace's decoder, the sched model, fts_stats)
 *     -> tracecmd.c (the `trace-cmd record` backend)  -> instance.c
 *     -> assemble.c (trace.dat / text output at stop)
 *          -> tracedat_write.c, text_render.c, pidscan.c
 *     -> instance.c (tracefs instance, event selection, CPU list, stats,
 *                    stale sweep)
 *     -> place.c    (the output's directory, watched: removed or renamed)
 *     -> memory.c   (the buffers against MemAvailable; public rule)
 *
 * Each file keeps its own state behind an opaque handle; nothing here is a
 * struct shared by several files except the small value types below.
 */
#ifndef FTS_RECORD_LOCAL_H
#define FTS_RECORD_LOCAL_H

#include "ftscope/error.h"
#include "ftscope/record.h"
#include "core/util/cpuset.h"

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define REC_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- instance.c ---------------------------------------------------------- */

/* The event set of the options, split into what the kernel has and lacks. */
struct rec_events {
	char **names;        /* "system/event" the kernel has, NULL-terminated */
	int count;
	char missing[512];   /* "sys:event,..." the kernel lacks, or "" */
};

/* Kernel counters of one per_cpu/cpuN/stats file. */
struct rec_cpu_stats {
	uint64_t entries, overrun, commit_overrun, bytes, dropped, read;
};

struct rec_instance;

/*
 * rec_tracing_dir - the tracefs mount, mounting it when missing (libtracefs
 * does), checked writable by root. Returns 0 or -ENODEV / -EPERM.
 */
int rec_tracing_dir(char *dir, size_t len, struct fts_err *err);

/*
 * rec_cpus_resolve - @list ("" or NULL = all online) as a set of online CPUs.
 * Returns 0 or -EINVAL with a message naming the bad part or offline CPUs.
 */
int rec_cpus_resolve(const char *list, struct fts_cpuset *set, struct fts_err *err);

/*
 * rec_check_opts - @o's values in range and consistent (the flight options
 * with each other, the backend and the output): what fts_record_start and
 * fts_record_probe refuse before touching anything. Returns 0 or -EINVAL
 * with @err filled.
 */
int rec_check_opts(const struct fts_record_opts *o, struct fts_err *err);

/*
 * rec_events_check_exclude - every name of the comma list @exclude is an
 * event ftscope records ("system/event" or "system:event"). 0 or -EINVAL.
 */
int rec_events_check_exclude(const char *exclude, struct fts_err *err);

/* rec_events_wanted - the reference event set of @o, less @o->exclude ("system/event", static). */
int rec_events_wanted(const struct fts_record_opts *o, const char **out, int max);

/*
 * rec_events_select - which of @o's events exist in @tracing_dir (the global
 * events: every instance has the same). Returns 0, -ENOMEM, or -EINVAL when
 * none of them exists.
 */
int rec_events_select(const struct fts_record_opts *o, const char *tracing_dir,
		      struct rec_events *ev, struct fts_err *err);

/* rec_events_free - free what rec_events_select allocated. */
void rec_events_free(struct rec_events *ev);

/*
 * rec_instance_sweep - remove instances of dead recorders. An instance is
 * live while its owner holds one of its files open (the kernel refuses to
 * remove it then), which holds across pid namespaces and pid reuse; one
 * being created is never seen unheld (both take a lock on instances/).
 */
void rec_instance_sweep(const char *tracing_dir);

/*
 * rec_instance_create - a new private instance, created and held open under
 * the sweep's lock so a concurrent sweep never sees it unheld; mono_raw
 * clock, @bf_kb per CPU, the CPU mask of @set and the events of @ev enabled;
 * tracing off. *@unavailable is 1 when the error means this machine has no
 * private instances or no mono_raw clock (the only case AUTO falls back on).
 */
int rec_instance_create(const char *tracing_dir, const struct fts_cpuset *set, unsigned bf_kb,
			const struct rec_events *ev, struct rec_instance **out, int *unavailable,
			struct fts_err *err);

/* rec_instance_clock - the instance's trace_clock file text (for the trace.dat option). */
const char *rec_instance_clock(const struct rec_instance *in);

/* rec_instance_subbuf - the sub-buffer size trace_pipe_raw hands out. */
int rec_instance_subbuf(const struct rec_instance *in);

/* rec_instance_open_raw - open per_cpu/cpu@cpu/trace_pipe_raw (O_NONBLOCK|O_CLOEXEC). */
int rec_instance_open_raw(struct rec_instance *in, int cpu, struct fts_err *err);

/* rec_instance_tracing - turn the instance's tracing on (1) or off (0). */
int rec_instance_tracing(struct rec_instance *in, int on, struct fts_err *err);

/* One reading of the three clocks (ns); @window: the RAW time the reads took. */
struct rec_clock {
	int64_t rt, raw, mono, window;
};

/* rec_clock_sample - the tightest of a few back-to-back reads of the three clocks. */
void rec_clock_sample(struct rec_clock *out);

/*
 * rec_clock_format - "@tag realtime_ns=.. mono_raw_ns=.. mono_ns=.. window_ns=.."
 * (no newline) into @buf; snprintf's return.
 */
int rec_clock_format(char *buf, size_t size, const char *tag, const struct rec_clock *c);

/*
 * rec_instance_clock_sample_marker - rec_instance_clock_marker, with the whole
 * sample (all three clocks) in *@out when non-NULL.
 */
int rec_instance_clock_sample_marker(struct rec_instance *in, int cpu, struct rec_clock *out,
				     long max_wait_ms);

/*
 * rec_instance_clock_marker - write "ftscope_clock realtime_ns=.. mono_raw_ns=..
 * mono_ns=.. window_ns=.." (rec_clock_sample) to trace_marker from a thread pinned to @cpu; the pair in *@rt, *@raw (may be NULL).
 * With @max_wait_ms > 0 it waits no longer than that for the pinned thread to
 * run (a loaded CPU), and returns 1 when it gave up (the marker is then late or lost).
 */
int rec_instance_clock_marker(struct rec_instance *in, int cpu, int64_t *rt, int64_t *raw,
			      long max_wait_ms);

/*
 * rec_instance_stats - parse per_cpu/cpu@cpu/stats; the raw text in *@text
 * when non-NULL (caller frees). Returns 0 or a negative errno.
 */
int rec_instance_stats(struct rec_instance *in, int cpu, struct rec_cpu_stats *s, char **text);

/* rec_instance_destroy - remove and free @in; -EBUSY when the kernel kept it. */
int rec_instance_destroy(struct rec_instance *in, struct fts_err *err);

/* ---- stream.c -------------------------------------------------------------- */

struct rec_stream;

/*
 * rec_stream_open - one unlinked stream file beside @output per CPU of @set,
 * fed from @in's trace_pipe_raw by a pool of reader threads (not started yet);
 * @bf_size_kb, the per-CPU buffer size, sets how long an idle reader sleeps;
 * @readers is the pool's size (fts_record_opts.readers; 0: one per 16 CPUs).
 */
int rec_stream_open(struct rec_instance *in, const struct fts_cpuset *set, const char *output,
		    unsigned int bf_size_kb, int readers, struct rec_stream **out, struct fts_err *err);

/* The readers' (and the sampler's) default nice: fair class, ahead of the workload. */
#define REC_READER_NICE (-10)

/* rec_stream_set_nice - the nice the readers take when they start (default REC_READER_NICE). */
void rec_stream_set_nice(struct rec_stream *s, int nice);

/*
 * rec_stream_go_on_full - before start: a full disk holds a CPU's reader a
 * moment (its page lost, counted) instead of ending the capture (flight).
 */
void rec_stream_go_on_full(struct rec_stream *s);

/* rec_stream_full_seen - 1 when a full disk refused a write since the last call. */
int rec_stream_full_seen(struct rec_stream *s);

/* rec_stream_refused - the writes a full disk refused so far (a page lost each). */
uint64_t rec_stream_refused(struct rec_stream *s);

/* rec_stream_tid - the thread id of index @i's reader, 0 before it ran. */
int rec_stream_tid(const struct rec_stream *s, int i);

/* rec_stream_readers - reader threads in the pool (FTSCOPE_READERS, else one per 16 CPUs). */
int rec_stream_readers(const struct rec_stream *s);

/* rec_stream_reader_of - the reader (0..readers-1) that drains index @i. */
int rec_stream_reader_of(const struct rec_stream *s, int i);

/* rec_stream_reader_tid - the thread id of reader @k, 0 before it ran. */
int rec_stream_reader_tid(const struct rec_stream *s, int k);

/* rec_stream_start - start the reader threads (all signals blocked in them). */
int rec_stream_start(struct rec_stream *s, struct fts_err *err);

/* rec_stream_halt - ask the readers to stop and join them. */
void rec_stream_halt(struct rec_stream *s);

/*
 * rec_stream_drain - after halt, read what is left in CPU @i's ring buffer;
 * @keep_going is asked between pages and stops the drain when it returns 0.
 */
void rec_stream_drain(struct rec_stream *s, int i, int (*keep_going)(void *arg, uint64_t bytes),
		      void *arg);

/* rec_stream_close_raw - close the trace_pipe_raw fds (so the instance can go). */
void rec_stream_close_raw(struct rec_stream *s);

/* rec_stream_count - recorded CPUs; rec_stream_cpu - the CPU number of index @i. */
int rec_stream_count(const struct rec_stream *s);
int rec_stream_cpu(const struct rec_stream *s, int i);

/* rec_stream_bytes - bytes streamed so far for index @i (any thread). */
uint64_t rec_stream_bytes(const struct rec_stream *s, int i);

/* rec_stream_fd - the stream file of index @i (whole pages, from offset 0). */
int rec_stream_fd(const struct rec_stream *s, int i);

/*
 * rec_stream_rotate - hand reader @i the stream file @fds[i] from its next
 * page on; the files it wrote so far come back in @old[i] (whole pages,
 * none shared with the new files). Any thread, while the readers run.
 */
int rec_stream_rotate(struct rec_stream *s, const int *fds, int *old);

/* rec_stream_failed - 1 and the message in @buf once a reader failed (disk full, ...). */
int rec_stream_failed(struct rec_stream *s, char *buf, size_t len);

/* rec_stream_free - join, close and free. */
void rec_stream_free(struct rec_stream *s);

/* ---- health.c -------------------------------------------------------------- */

struct rec_health;

/*
 * rec_health_start - take the base counters and start the sampler thread
 * (at @nice), which samples every @period_ns and, when @deadline_ns (CLOCK_MONOTONIC) is
 * non-zero, turns tracing off when it passes: the capture's length does not
 * depend on how soon the caller gets the CPU.
 */
int rec_health_start(struct rec_instance *in, struct rec_stream *st, unsigned bf_kb,
		     uint64_t t0_ns, uint64_t deadline_ns, long period_ns, int nice,
		     struct rec_health **out, struct fts_err *err);

/*
 * rec_health_snapshot - the latest figures into @h; @h->cpu is allocated
 * (the caller frees it). Pure: two callers never disturb each other.
 */
int rec_health_snapshot(struct rec_health *hs, struct fts_record_health *h);

/*
 * rec_health_lost - the lost events of every CPU at the latest sample (the
 * kernel's counters since the start; any thread), its number in *@sample.
 */
uint64_t rec_health_lost(struct rec_health *hs, uint64_t *sample);

/*
 * rec_health_end - end the capture once (the deadline or the caller's stop,
 * whichever comes first): the closing clock marker, then tracing off.
 * Returns when it ended (CLOCK_MONOTONIC ns).
 */
uint64_t rec_health_end(struct rec_health *hs);

/* rec_health_final - stop the thread and take one last sample (after the drain). */
void rec_health_final(struct rec_health *hs);

/* rec_health_free - stop the thread and free. */
void rec_health_free(struct rec_health *hs);

/* ---- trigger.c --------------------------------------------------------------- */

enum rec_trig_kind { REC_TRIG_RUNNABLE, REC_TRIG_WAKEUP, REC_TRIG_LOST };

/* One trigger: "runnable>5ms:comm=python*" or "lost" (see trigger.c). */
struct rec_trig_rule {
	enum rec_trig_kind kind;
	uint64_t thr_ns;            /* fires on a wait strictly longer */
	char comm[64];              /* fnmatch glob on the comm, or "" */
	long pid;                   /* a thread id, or 0 */
	char text[128];             /* as written */
};

/* A trigger that fired: the first since the last take, and how many fired meanwhile. */
struct rec_trig_hit {
	int rule;                   /* index in the rules */
	uint64_t ts;                /* trace ns (mono_raw): the end of the wait */
	uint64_t value_ns;          /* the wait */
	char task[64];              /* "comm:pid", printable ASCII only */
	uint64_t count;             /* hits since the last take (this one included) */
	uint64_t lost;              /* "lost": the events lost from the loss seen to the snapshot */
	uint64_t seen;              /* trace ns when the flight thread took it: @seen - @ts is the delay */
};

/* rec_trig_parse - one trigger @spec into @out; -EINVAL with why in @why. */
int rec_trig_parse(const char *spec, struct rec_trig_rule *out, char *why, size_t len);

/* rec_trig_parse_list - "spec;spec" into a malloc'ed array (*@n, 0 for NULL/""); -EINVAL with @err. */
int rec_trig_parse_list(const char *list, struct rec_trig_rule **rules, int *n, struct fts_err *err);

/* rec_trig_sched_count - how many of @rules need the decoder (all but "lost"). */
int rec_trig_sched_count(const struct rec_trig_rule *rules, int n);

/* rec_trig_lost_rule - the index of the "lost" rule in @rules, or -1. */
int rec_trig_lost_rule(const struct rec_trig_rule *rules, int n);

/* rec_trig_match - 1 when task-lane item @it (lane tid "comm:pid" @tid) fires rule @r. */
struct fts_item;
int rec_trig_match(const struct rec_trig_rule *r, const struct fts_item *it, const char *tid);

/* rec_trig_safe_text - @in with every byte outside printable ASCII as '?'. */
void rec_trig_safe_text(const char *in, char *out, size_t len);

/* ---- top_engine.c ------------------------------------------------------------ */

struct rec_top_engine;
struct tep_handle;

/*
 * rec_top_engine_new - the live top's figures from ring-buffer pages of @n
 * CPUs (numbers @cpus, in the order their pages are handed over), decoded
 * with @tep (borrowed) through the trace.dat reader's decoder, fed through
 * the sched model into one fts_stats per second; figures over the last
 * @window_s seconds. Returns 0 or a negative errno with @err filled.
 */
int rec_top_engine_new(struct tep_handle *tep, int n, const int *cpus, int page_size, int window_s,
		       struct rec_top_engine **out, struct fts_err *err);

/* rec_top_engine_page - one whole page of CPU index @i (copied). 0 or -ENOMEM. */
int rec_top_engine_page(struct rec_top_engine *e, int i, const void *page);

/*
 * rec_top_engine_page_buf - a page-sized buffer of CPU index @i's to read its
 * next page into (no copy after), or NULL (no memory). Each one goes back by
 * rec_top_engine_page_add or rec_top_engine_page_unused before the engine is freed.
 */
unsigned char *rec_top_engine_page_buf(struct rec_top_engine *e, int i);

/* rec_top_engine_page_add - @buf now holds CPU @i's next whole page. 0 or -ENOMEM (@buf taken back). */
int rec_top_engine_page_add(struct rec_top_engine *e, int i, unsigned char *buf);

/* rec_top_engine_page_unused - @buf given back unfilled. */
void rec_top_engine_page_unused(struct rec_top_engine *e, int i, unsigned char *buf);

/*
 * rec_top_engine_gap - pages of CPU @i were not handed over before its next
 * one: the model takes that as lost events there (no state carried across).
 */
void rec_top_engine_gap(struct rec_top_engine *e, int i);

/*
 * rec_top_engine_tick - merge what no CPU can still precede (@final: all of
 * it, then close the model's open slices; nothing may follow). 0, or -1 when
 * the model or a slot failed (rec_top_engine_error says why).
 */
int rec_top_engine_tick(struct rec_top_engine *e, int final);

/*
 * rec_top_engine_figures - the rankings, the worst wakeup and window_s of
 * @out (the rest is the caller's). 0 or -ENOMEM.
 */
int rec_top_engine_figures(struct rec_top_engine *e, struct fts_record_top *out);

/*
 * rec_top_engine_window - the span the figures cover, [@begin, @end] in trace
 * ns: from the oldest slot's second (or the first record) to the newest record merged.
 */
void rec_top_engine_window(const struct rec_top_engine *e, uint64_t *begin, uint64_t *end);

/* rec_top_engine_counts - records merged, dropped as late, and corrupt pages or records skipped. */
void rec_top_engine_counts(const struct rec_top_engine *e, uint64_t *records, uint64_t *late,
			   uint64_t *corrupt);

/* rec_top_engine_error - why a tick failed, or NULL. */
const char *rec_top_engine_error(const struct rec_top_engine *e);

/*
 * rec_top_engine_triggers - test every Runnable slice against @rules
 * (borrowed, @n of them); @figures 0: nothing but the triggers (no
 * per-second stats, no rankings: the figures stay empty).
 */
void rec_top_engine_triggers(struct rec_top_engine *e, const struct rec_trig_rule *rules, int n, int figures);

/* rec_top_engine_take_hit - 1 and the first hit since the last take into @out, else 0. */
int rec_top_engine_take_hit(struct rec_top_engine *e, struct rec_trig_hit *out);

/* rec_top_engine_free - release @e; NULL is fine. */
void rec_top_engine_free(struct rec_top_engine *e);

/* ---- top.c ----------------------------------------------------------------- */

struct rec_top;

/*
 * rec_top_start - start the live-top thread: it decodes @st's streamed pages
 * (sub-buffers of @page_size) with the sched formats of @tracing_dir.
 */
int rec_top_start(const char *tracing_dir, struct rec_stream *st, int page_size, struct rec_top **out,
		  struct fts_err *err);

/* rec_top_snapshot - the latest published top (any thread). */
void rec_top_snapshot(struct rec_top *t, struct fts_record_top *out);

/* rec_top_finish - stop the thread, decode what is left (bounded) and snapshot into @out. */
void rec_top_finish(struct rec_top *t, struct fts_record_top *out);

/*
 * rec_top_rotated - the flight recorder swapped the stream files: read the
 * old ones to their end (before they are assembled) and follow the new ones.
 */
void rec_top_rotated(struct rec_top *t);

/*
 * rec_top_triggers - test the decoded Runnable slices against @rules
 * (borrowed; they outlive @t); @figures 0: the top runs for them alone.
 */
void rec_top_triggers(struct rec_top *t, const struct rec_trig_rule *rules, int n, int figures);

/* rec_top_take_hit - 1 and the triggers fired since the last take (the first, and a count), else 0. */
int rec_top_take_hit(struct rec_top *t, struct rec_trig_hit *out);

/* rec_top_free - stop the thread and free. */
void rec_top_free(struct rec_top *t);

/* ---- tracecmd.c ------------------------------------------------------------ */

struct rec_tracecmd;

/*
 * rec_tracecmd_start - run `trace-cmd record` for @o into @output. The child
 * dies with its parent, and the global tracing state is saved to a file so
 * the next run repairs it when this process was killed.
 */
int rec_tracecmd_start(const struct fts_record_opts *o, const char *output, const struct fts_cpuset *set,
		       const struct rec_events *ev, struct rec_tracecmd **out, struct fts_err *err);

/*
 * rec_tracecmd_find - trace-cmd's path into @out: the first executable
 * "DIR/trace-cmd" of @exec_path (':'-separated; NULL or "": the usual root
 * PATH). 0, or -ENOENT (then @out is "").
 */
int rec_tracecmd_find(const char *exec_path, char *out, size_t len);

/* rec_tracecmd_stop - SIGINT, wait for its merge, restore the global state, free. */
int rec_tracecmd_stop(struct rec_tracecmd *t, struct fts_err *err);

/* rec_tracecmd_repair - restore the global state left by killed recorders. */
void rec_tracecmd_repair(void);

/* ---- place.c --------------------------------------------------------------- */

struct rec_place;

/*
 * rec_place_open - hold @path's directory to watch it while recording; a
 * place in the same directory as @near (may be NULL) follows @near. @owner
 * gets a directory made to save in when the held one is removed.
 */
int rec_place_open(const char *path, const struct fts_owner *owner, struct rec_place *near,
		   struct rec_place **out, struct fts_err *err);

/*
 * rec_place_poll - look whether the directory was removed or renamed (at
 * most every 200 ms unless @force; any thread). Returns how many times the
 * place changed so far (0 while it is where it was; always 0 for a place
 * that follows another).
 */
int rec_place_poll(struct rec_place *p, int force);

/* rec_place_target - where the file is to be written now. 1 moved, 0 as given, -ENAMETOOLONG. */
int rec_place_target(struct rec_place *p, char *buf, size_t len);

/*
 * rec_place_dirfd - the directory to write the file in now (the held one,
 * renamed or not, or the one made when it was removed): a descriptor the
 * place keeps open, for the *at calls. rec_place_base - the file's name there.
 */
int rec_place_dirfd(struct rec_place *p);
const char *rec_place_base(const struct rec_place *p);

/* rec_place_note - what happened to the directory and where the file goes; "" when as given. */
void rec_place_note(struct rec_place *p, char *buf, size_t len);

/* rec_place_free - close and free; NULL is fine. */
void rec_place_free(struct rec_place *p);

/* ---- pidmapper.c ------------------------------------------------------------- */

/* rec_pidmapper_retarget - write the mapping to @path from now on (any thread). */
void rec_pidmapper_retarget(struct fts_pidmapper *m, const char *path);

/* ---- flight.c -------------------------------------------------------------- */

/* ---- snapcap.c ------------------------------------------------------------- */

#define REC_SNAPCAP_KEEP 10                  /* trigger snapshots kept by default */
#define REC_SNAPCAP_BYTES (4ull << 30)       /* ... and their bytes (4 GiB) */

/* One trigger snapshot of this run, as made (its directory's identity). */
struct rec_snapcap_ent {
	char name[256];             /* in the output directory */
	dev_t dev;
	ino_t ino;
	uint64_t bytes;
};

/* The trigger snapshots kept, oldest first, and their cap (the flight thread's only). */
struct rec_snapcap {
	int keep;
	uint64_t bytes;
	struct rec_snapcap_ent *v;
	int n;
	unsigned dropped;           /* removed for the cap so far */
};

/* rec_snapcap_init - no snapshot yet; @keep / @bytes 0: the defaults. */
void rec_snapcap_init(struct rec_snapcap *c, int keep, uint64_t bytes);

/*
 * rec_snapcap_make_room - drop the oldest trigger snapshots in @dfd until one
 * more of @bytes fits (the newest is kept even alone over the bytes); each
 * dropped one as a JSON object into @json (may be NULL), ", " between.
 */
void rec_snapcap_make_room(struct rec_snapcap *c, int dfd, uint64_t bytes, FILE *json);

/*
 * rec_snapcap_drop_oldest - remove the oldest trigger snapshot in @dfd and
 * forget it (*@gone: what it was). 0, -ENOENT when none, or -errno when it
 * could not be removed (forgotten all the same: no longer ours).
 */
int rec_snapcap_drop_oldest(struct rec_snapcap *c, int dfd, struct rec_snapcap_ent *gone);

/* rec_snapcap_add - count snapshot @name (open as @sfd) of @bytes. 0 or -errno. */
int rec_snapcap_add(struct rec_snapcap *c, int sfd, const char *name, uint64_t bytes);

/* rec_snapcap_free - forget them (the directories stay). */
void rec_snapcap_free(struct rec_snapcap *c);

struct rec_flight;

/* What the flight recorder rotates and how (borrowed: they outlive it). */
struct rec_flight_cfg {
	const char *output;            /* "dir/trace.dat": segments are dir/trace.NNNNNN.dat */
	int dirfd;                     /* dir, held open since the start (the output's place) */
	struct rec_place *place;       /* that place: followed when the directory is removed (or NULL) */
	double segment_s;              /* close a segment after this long (0: by size only) */
	uint64_t segment_bytes;        /* ... or once this much streamed (0: by time only) */
	int keep;                      /* segments kept; older ones are deleted */
	struct rec_instance *in;
	struct rec_stream *st;
	const char *tracing_dir;
	const char *const *events;
	const struct fts_owner *owner;
	/*
	 * Triggers (none: rules NULL): the top decodes for the scheduling ones,
	 * the health sampler counts the loss "lost" fires on; the flight thread
	 * snapshots.
	 */
	struct rec_top *top;
	struct rec_health *health;
	const struct rec_trig_rule *rules;  /* borrowed */
	int nrules;
	double post_s;                 /* seconds recorded after a trigger before its snapshot */
	int trig_keep;                 /* trigger snapshots kept at most (oldest dropped first) */
	uint64_t trig_bytes;           /* ... and their bytes at most */
	const char *pidmap;            /* linked into trigger snapshots, or NULL */
};

/* rec_flight_start - start the rotation thread over the running readers of @cfg->st. */
int rec_flight_start(const struct rec_flight_cfg *cfg, struct rec_flight **out, struct fts_err *err);

/* rec_flight_halt - stop the thread after the rotation in progress (before the readers halt). */
void rec_flight_halt(struct rec_flight *f);

/* rec_flight_segment_name - the file name of segment @seq. 0 or -ENAMETOOLONG. */
int rec_flight_segment_name(const struct rec_flight *f, unsigned seq, char *buf, size_t len);

/* rec_flight_shown - "@name in the output directory" as a path to show (the directory's name now). */
void rec_flight_shown(const struct rec_flight *f, const char *name, char *buf, size_t len);

/*
 * rec_flight_last_name - after halt: the name of the streaming segment, to
 * be assembled in rec_flight_dirfd (the output directory held open).
 */
int rec_flight_last_name(struct rec_flight *f, char *buf, size_t len);
int rec_flight_dirfd(const struct rec_flight *f);

/* rec_flight_closed - the last segment was assembled (rec_flight_last_name): keep it, prune the ring. */
void rec_flight_closed(struct rec_flight *f, uint64_t lost);

/* rec_flight_counts - kept segments and their bytes plus what the streaming one holds so far. */
void rec_flight_counts(struct rec_flight *f, int *segments, uint64_t *disk_bytes);

/*
 * rec_flight_triggered - the scheduling triggers' snapshots so far (*@snaps),
 * their hits (*@hits, rate-limited ones too) and a line on the last one in @note.
 */
void rec_flight_triggered(struct rec_flight *f, int *snaps, uint64_t *hits, char *note, size_t len);

/*
 * rec_flight_disk - what a short disk cost so far: ring segments and trigger
 * snapshots removed early, segments not written, page writes refused; the
 * last note on it in @note.
 */
void rec_flight_disk(struct rec_flight *f, unsigned *removed, unsigned *lost_segs, uint64_t *refused, char *note,
		     size_t len);

/* rec_flight_failed - 1 and why in @buf once a rotation failed (disk full, ...). */
int rec_flight_failed(struct rec_flight *f, char *buf, size_t len);

/* rec_flight_reason_name - @reason made safe as part of a file name ("manual" when empty). */
void rec_flight_reason_name(const char *reason, char *buf, size_t len);

/*
 * rec_flight_snapshot - close the streaming segment, then hard-link (copy
 * across filesystems) the kept segments ending in the last @last_s seconds
 * (<= 0: all) and @pidmap (may be NULL) into a new snapshot-<UTC>-<reason>
 * directory beside the output, with manifest.json; its path in @dir.
 */
int rec_flight_snapshot(struct rec_flight *f, const char *reason, double last_s, const char *pidmap,
			char *dir, size_t len, struct fts_err *err);

/* ---- segstats.c -------------------------------------------------------------- */

/*
 * rec_segstats_text - a flight segment's CPUSTAT text (malloc'ed, or NULL):
 * the kernel's @kernel stats with overrun, commit overrun and dropped events
 * counted since @before (the previous segment), "run ..." lines with the
 * totals @now, then @meta (may be NULL). The segment's own loss in *@lost.
 */
char *rec_segstats_text(const char *kernel, const struct rec_cpu_stats *now, const struct rec_cpu_stats *before,
			const char *meta, uint64_t *lost);

/*
 * rec_segstats_meta - the lines a segment's first CPUSTAT ends with: "ftscope
 * run: <16 hex>", "ftscope segment: <seq>", and the clock samples at its
 * start (ftscope_clock) and end (ftscope_clock_stop). snprintf's return.
 */
int rec_segstats_meta(char *buf, size_t len, uint64_t run, unsigned seq, const struct rec_clock *from,
		      const struct rec_clock *to);

/*
 * rec_flight_last_stats - after halt, before the instance goes: replace the
 * stop's CPUSTAT texts @stats[0..n) (stream order) by the last segment's
 * (rec_segstats_text, clock sample @stop at its end); its own loss.
 */
uint64_t rec_flight_last_stats(struct rec_flight *f, const struct rec_clock *stop, char **stats);

/* rec_flight_free - halt and free; NULL is fine. */
void rec_flight_free(struct rec_flight *f);

/* ---- assemble.c ------------------------------------------------------------ */

/* What the assembly needs to know about the capture. */
struct rec_assembly {
	const char *output;       /* where it goes (with @name: only how it is named to the user) */
	const char *name;         /* non-NULL: the output is @name in directory @dirfd, never a path */
	int dirfd;
	const struct fts_owner *owner;  /* who gets @output; NULL: kept */
	int text;
	const char *tracing_dir;
	const char *const *events;
	const char *clock_text;
	const char *clock_line;   /* "# ftscope_clock ..." first line of a text output */
	int page_size;
	int ncpu;                 /* recorded CPUs */
	const int *cpu;           /* their numbers */
	const int *fd;            /* their stream files */
	char *const *stats;       /* their final stats texts */
};

/*
 * rec_assemble - write the output (trace.dat, or text rendered from it)
 * atomically. @progress (may be NULL) is called between steps; when it
 * returns FTS_STOP_CUT the copy stops and a valid shorter file is written
 * (*@cut set). A disk full while rendering text keeps the lines written.
 */
int rec_assemble(const struct rec_assembly *a, fts_record_progress_fn progress, void *arg,
		 int *cut, struct fts_err *err);

/* ---- text_render.c --------------------------------------------------------- */

/*
 * fts_rec_render_text - render the trace.dat at @dat_path as kernel text into
 * @fd. @step (may be NULL) is called every few thousand events with the
 * events so far; a non-zero return stops the render (the text is then a
 * complete prefix). *@stopped (may be NULL) is set when that happened.
 */
int fts_rec_render_text(const char *dat_path, int fd, const char *clock_line,
			int (*step)(void *arg, uint64_t events), void *arg, int *stopped,
			struct fts_err *err);

#endif
