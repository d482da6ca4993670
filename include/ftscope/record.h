/* SPDX-License-Identifier: MIT */
/*
 * ftscope/record.h - the recorder's public C API.
 *
 * Probe what this machine can record, start a capture of scheduler/irq
 * events through a private tracefs instance (or trace-cmd), take health
 * snapshots while it runs, stop it with progress and get a trace.dat (or
 * kernel text) file; and keep a host pid -> container pid mapping file up to
 * date. Handles are opaque; every fallible call returns 0 or a negative errno
 * and fills a struct fts_err message. Nothing here prints, exits or installs
 * signal handlers, and every thread the library starts blocks all signals:
 * the caller owns the process.
 */
#ifndef FTS_RECORD_H
#define FTS_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "loss.h"
#include "output.h"
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

enum fts_record_backend {
	FTS_BACKEND_AUTO = 0,   /* native; trace-cmd only when the native one is unavailable */
	FTS_BACKEND_TRACEFS,    /* native private instance ("debugfs" is an alias) */
	FTS_BACKEND_TRACE_CMD,  /* drive `trace-cmd record` */
};

/* What to record; mirrors the `ftscope record` flags. */
struct fts_record_opts {
	const char *cpus;          /* "0-3,8"; NULL or "" = all online CPUs */
	const char *output;        /* NULL = "trace.dat"; a .txt name gives kernel text; "" is refused */
	unsigned int bf_size_kb;   /* per-CPU ring buffer in KB; 0 = 40960 */
	enum fts_record_backend backend;
	int sched;                 /* 1: scheduler events */
	int irq;                   /* 1: hard and soft irq events */
	int futex;                 /* 1: syscalls sys_enter/exit_futex when the kernel has them */
	const char *exclude;       /* "sched/sched_stat_runtime,irq/softirq_raise": events of the
				      chosen groups to leave out; NULL or "" = none */
	int nspid;                 /* 1: also keep pid_mapping.json up to date */
	const char *pid_mapping;   /* NULL = pid_mapping.json beside the output */
	double pidmap_interval_s;  /* rescan period with nspid; 0 = 1 s */
	double duration_s;         /* > 0: tracing stops by itself after this long; 0 = until stopped */
	int live_top;              /* 1: decode the streamed pages for fts_record_health's top (needs sched) */
	int reader_nice;           /* nice of the reader and sampler threads, -20..-1; 0 = -10 */
	struct fts_owner owner;    /* who gets the output and the pid mapping; all zero: the writer */
	/* Flight recorder (native backend, trace.dat only): on when a segment length or size is set. */
	double flight_segment_s;   /* > 0: close a segment <stem>.NNNNNN.dat after this many seconds */
	uint64_t flight_segment_bytes;  /* > 0: ... or once this many bytes streamed */
	int flight_keep;           /* segments kept, older ones deleted; 0 = 4 */
	/* Automatic snapshots (flight only): "lost;runnable>5ms:comm=python*;wakeup>2ms",
	   triggers separated by ';' (fts_record_trigger_check; all but "lost" need sched);
	   NULL or "" = none. */
	const char *flight_triggers;
	double flight_post_trigger_s;  /* seconds recorded after a trigger before its snapshot, 0..3600 */
	int flight_trigger_keep;   /* trigger snapshots kept, the oldest removed first; 0 = 10 */
	uint64_t flight_trigger_bytes;  /* ... and their bytes at most; 0 = 4 GiB */
	int readers;               /* reader threads, 1..64 (at most one per CPU); 0 = one per 16 CPUs */
	/* Where the trace-cmd program is looked for: directories separated by ':' as in $PATH
	   (the library reads no environment: a program passes its own); NULL or "" =
	   /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin. */
	const char *exec_path;
};

/* One event of the reference set and whether this kernel has it. */
struct fts_record_event_cap {
	const char *group;         /* "sched", "irq" or "futex" */
	const char *name;          /* "sched/sched_switch" */
	int available;             /* 1: the kernel has it; 0: it lacks it, or unknown (no root / tracefs not mounted) */
};

/* One online CPU. */
struct fts_record_cpu_cap {
	int cpu;
	int node;                  /* NUMA node, -1 when unknown */
};

/* What fts_record_probe found; free with fts_record_caps_release. */
struct fts_record_caps {
	int root;                  /* effective uid 0 */
	int tracefs_mounted;
	int tracefs_mountable;     /* not mounted, but the kernel has tracefs and we are root */
	char tracing_dir[4096];    /* where it is mounted, or "" */
	int instances;             /* private instances can be created */
	int mono_raw;              /* the mono_raw trace clock exists */
	int trace_cmd;             /* a trace-cmd program is in the options' exec_path (or the usual root PATH) */
	int native_ok;             /* the native backend can start (root, tracefs, instances, mono_raw) */
	char problem[256];         /* why native_ok is 0, and what to do; "" otherwise */
	int nevents;
	struct fts_record_event_cap events[24]; /* every event of sched, irq and futex */
	char missing_sched[256];   /* "sys:event,..." this kernel lacks per group, or "" */
	char missing_irq[256];
	char missing_futex[256];
	int ncpus;
	struct fts_record_cpu_cap *cpu;  /* the online CPUs, ascending */
	int nnodes;                /* NUMA nodes seen (1 without NUMA) */
};

/* Live figures of one recorded CPU. */
struct fts_record_cpu_health {
	int cpu;
	uint64_t events;           /* arrived in the ring buffer so far (read + pending + overrun) */
	double events_per_s;       /* over the recorder's last sampling period */
	uint64_t bytes_written;    /* raw pages streamed to disk */
	double fill;               /* ring buffer fill, 0..1 */
	uint64_t overrun;          /* kernel counters, totals since start */
	uint64_t commit_overrun;
	uint64_t dropped;
	uint64_t lost;             /* overrun + commit_overrun + dropped */
	uint64_t lost_delta;       /* lost during the recorder's last sampling period */
	uint64_t lost_stopped;     /* of @lost, lost while the recorder was stopped (SIGSTOP) */
	double bytes_per_s;        /* ring-buffer bytes arriving per second over the last period
				      (what was read plus what was overwritten, at the read size per event) */
	double peak_bytes_per_s;   /* the highest @bytes_per_s so far */
	double reader_wait_ms;     /* this CPU's reader waited for a CPU (runnable) in the last period */
	double reader_wait_total_ms;  /* ... since the start */
};

#define FTS_RECORD_TOP_N 8

/* One task of the live top. @comm is the kernel's: escape it before display. */
struct fts_record_top_task {
	int pid;
	char comm[16];
	double runnable_s;         /* waiting for a CPU (Runnable) during the window */
	double cpu_s;              /* running during the window */
};

/*
 * The live top (opts.live_top): decoded off the capture's critical path by a
 * low-priority thread from the pages already streamed, over the last
 * @window_s seconds of trace time. When the decoder falls behind it skips
 * pages (@skipped_bytes) rather than slow anything.
 */
struct fts_record_top {
	int enabled;
	double window_s;
	int nrunnable;
	struct fts_record_top_task runnable[FTS_RECORD_TOP_N];  /* most Runnable time first */
	int ncpu;
	struct fts_record_top_task cpu[FTS_RECORD_TOP_N];       /* most CPU time first */
	double worst_wakeup_ms;    /* longest wakeup -> running latency in the window */
	int worst_pid;
	char worst_comm[16];
	uint64_t events;           /* decoded so far */
	uint64_t skipped_bytes;    /* not decoded, to stay within budget */
	double cpu_cost_s;         /* the decoder's own CPU time so far */
	char dominant[32];         /* the event with the most records decoded ("sched_stat_runtime"), or "" */
	double dominant_share;     /* its share of all records decoded, 0..1 */
	/*
	 * The share (0..1) of the window's pages not decoded, to keep the top
	 * within its CPU budget; above 0 the times are estimates: the sampled
	 * spans' scaled by 1 / (1 - skipped_share).
	 */
	double skipped_share;
};

/*
 * A health snapshot. The recorder samples on its own tick (@period_s), so
 * rates do not depend on who polled last; to report every loss, compare
 * @lost (or a CPU's) with your previous snapshot. @cpu is owned by the
 * snapshot: free it with fts_record_health_release.
 */
struct fts_record_health {
	double elapsed_s;
	double period_s;           /* the sampling period the rates cover */
	uint64_t sample;           /* sample number; equal numbers mean equal figures */
	int ncpus;
	struct fts_record_cpu_health *cpu;
	uint64_t events;
	double events_per_s;
	uint64_t bytes_written;
	uint64_t lost;
	uint64_t lost_delta;
	int counters;              /* 1: per-CPU counters are known (0 with trace-cmd) */
	int done;                  /* duration_s reached: tracing is off, call fts_record_stop */
	int failed;                /* a reader hit an error (e.g. disk full): stop now */
	char failure[256];         /* what it was, empty when !failed */
	const char *backend;       /* "tracefs" or "trace-cmd" (static) */
	char skipped_events[512];  /* events the kernel lacks, comma separated, or "" */
	char fallback[256];        /* why AUTO fell back to trace-cmd, or "" */
	struct fts_record_top top; /* the live top; top.enabled is 0 without opts.live_top */
	/* Why events were lost (0 with trace-cmd): */
	double stopped_s;          /* the recorder was stopped (SIGSTOP, a debugger) this long in all */
	uint64_t lost_stopped;     /* events lost while it was stopped */
	double reader_wait_ms;     /* the longest a reader waited for a CPU in the last period */
	double reader_wait_worst_ms;  /* the longest a reader waited in any one period so far */
	double reader_wait_total_ms;  /* the most any one reader waited in all */
	int reader_nice;           /* the nice the readers run at */
	/* The output's (or the pid mapping's) directory removed or renamed while recording: */
	int output_moved;          /* how many times so far; 0: all is where it was asked */
	char output_note[1024];    /* what happened and where the capture goes now, or "" */
	/* Flight recorder (0 otherwise): */
	int flight_segments;       /* complete segments kept on disk */
	uint64_t flight_disk_bytes;  /* their bytes plus what the streaming segment holds so far */
	int flight_triggered;      /* snapshots the triggers took ("lost" too) */
	uint64_t flight_trigger_hits;  /* waits over a scheduling trigger's threshold (rate-limited ones too) */
	char flight_trigger_note[1024];  /* the last trigger snapshot (printable ASCII), or "" */
	/* The flight recorder on a short disk (it keeps room free rather than stop): */
	unsigned flight_removed_early;   /* ring segments and trigger snapshots removed to make room */
	unsigned flight_segments_lost;   /* segments a full disk kept from being written (events lost) */
	uint64_t flight_writes_refused;  /* page writes a full disk refused (a page of events lost each) */
	char flight_disk_note[512];      /* the last room made, or why none could be (printable ASCII), or "" */
};

/* How fts_record_stop ends the capture; each mode does less than the one before. */
enum fts_record_stop_mode {
	FTS_STOP_DRAIN = 0,        /* read everything still in the ring buffers */
	FTS_STOP_FAST,             /* skip (the rest of) draining; file stays valid */
	FTS_STOP_CUT,              /* also stop copying data now: a valid, shorter file */
};

/* The steps of fts_record_stop, in order. */
enum fts_record_stage {
	FTS_REC_STAGE_DRAIN = 0,   /* reading what is left in the ring buffers */
	FTS_REC_STAGE_ASSEMBLE,    /* copying the streams into the trace.dat */
	FTS_REC_STAGE_RENDER,      /* rendering kernel text (.txt outputs) */
};

/* Where fts_record_stop is; @done and @total count bytes (events for RENDER; total 0 = unknown). */
struct fts_record_progress {
	enum fts_record_stage stage;
	uint64_t done;
	uint64_t total;
};

/*
 * Called from fts_record_stop's thread at least every 100 ms of work; it
 * returns the mode to go on with (FTS_STOP_DRAIN to keep going; a mode can
 * only escalate).
 */
typedef enum fts_record_stop_mode (*fts_record_progress_fn)(const struct fts_record_progress *p,
							    void *arg);

/* The final summary fts_record_stop fills. */
struct fts_record_summary {
	struct fts_record_health health;  /* the last sample with per-CPU totals; owns health.cpu */
	double duration_s;
	uint64_t file_size;
	char output[4096];         /* the file written: elsewhere than asked when health.output_moved */
	char pid_mapping[4096];    /* the mapping written, empty without nspid */
	int truncated;             /* 1 when a disk error cut the capture short */
	int cut;                   /* 1 when FTS_STOP_CUT left a shorter file */
	char failure[256];         /* why, when truncated */
};

struct fts_recorder;
struct fts_pidmapper;

/**
 * fts_record_opts_init - fill options with the reference defaults
 * @o: the options to fill
 *
 * All online CPUs, trace.dat, 40960 KB per CPU, sched and irq events, AUTO
 * backend, no duration.
 */
FTS_API void fts_record_opts_init(struct fts_record_opts *o);

/**
 * fts_record_probe - what this machine can record, before starting
 * @o: the options (events and CPUs of interest); NULL for the defaults
 * @caps: filled with root, tracefs, instances, mono_raw, events, CPUs and NUMA nodes
 * @err: message on failure
 *
 * Changes nothing (it does not mount tracefs). A machine that cannot record
 * is not an error: @caps->native_ok is 0 and @caps->problem says why.
 * Options that fts_record_start would refuse (out of range, or not going
 * together, such as a flight recording into a text output) are refused
 * here first, with -EINVAL: a usage error, found before anything starts.
 *
 * Returns 0, -EINVAL (@o is refused), or a negative errno (-ENOMEM) with
 * @err filled.
 */
FTS_API int fts_record_probe(const struct fts_record_opts *o, struct fts_record_caps *caps,
		     struct fts_err *err);

/**
 * fts_record_caps_release - free what fts_record_probe allocated
 * @caps: the capabilities; safe on a zeroed struct and twice
 */
FTS_API void fts_record_caps_release(struct fts_record_caps *caps);

/**
 * fts_record_start - validate the options, set up the capture and start it
 * @o: what to record
 * @out: set to the running recorder on success, NULL otherwise
 * @err: message on failure
 *
 * The output (and the pid mapping with nspid) is checked before anything is
 * recorded: a directory, symlink, device or FIFO, a missing directory, a
 * name too long for its temporary name or a disk without room for the
 * reserve are refused, and so are buffers that do not fit in memory
 * (fts_record_mem_check). With FTS_BACKEND_AUTO, trace-cmd is used only when
 * the native backend is unavailable here (no tracefs instances or mono_raw).
 * On error nothing is left behind.
 *
 * Returns 0, or a negative errno: -EPERM (not root), -ENODEV (no tracefs),
 * -EINVAL (bad CPU list, no events), -ENOMEM (the buffers do not fit in
 * memory), -ENOSPC, -EISDIR, -ELOOP, ...
 */
FTS_API int fts_record_start(const struct fts_record_opts *o, struct fts_recorder **out, struct fts_err *err);

/**
 * fts_record_health - a snapshot of the live per-CPU figures
 * @r: the recorder
 * @h: filled; @h->cpu is allocated, free it with fts_record_health_release
 *
 * Safe to call from several threads at any rate: it reads the recorder's
 * latest sample, under the recorder's lock. That holds while
 * fts_record_stop runs on another thread too (a call then waits while the
 * stop frees what it reads, and the stop waits for calls begun before its
 * end); a call must not begin after fts_record_stop returned, as with any
 * freed handle. docs/threads.md lists every thread and lock. It also looks (at most every 200 ms) whether the output's
 * directory is still where it was; when it was removed, the directory the
 * capture will be saved in is made then (@h->output_note names it).
 *
 * Returns 0, or -ENOMEM (then @h->ncpus is 0).
 */
FTS_API int fts_record_health(struct fts_recorder *r, struct fts_record_health *h);

/**
 * fts_record_health_release - free a snapshot's per-CPU array
 * @h: the snapshot; safe twice
 */
FTS_API void fts_record_health_release(struct fts_record_health *h);

/**
 * fts_record_health_loss - a snapshot's loss in the one loss model (loss.h)
 * @h: the snapshot
 * @out: replaced with the kernel's per-CPU counters (empty when @h->counters is 0)
 *
 * The same numbers the trace.dat stores (CPUSTAT) and every reader reports.
 *
 * Returns 0 or -ENOMEM.
 */
FTS_API int fts_record_health_loss(const struct fts_record_health *h, struct fts_loss *out);

/**
 * fts_record_buffer_kb - the per-CPU buffer the recorder advises for a rate
 * @bytes_per_s: the fastest CPU's arrival rate, bytes per second
 * @min_kb: the least to advise (twice a buffer that lost events, say); 0: none
 *
 * Returns KB per CPU: 2 s of @bytes_per_s (the reader stall seen on loaded
 * hosts), at least @min_kb, rounded up to a power of two, at most 4194304.
 */
FTS_API unsigned fts_record_buffer_kb(double bytes_per_s, unsigned min_kb);

/**
 * fts_record_mem_available - MemAvailable of a meminfo file, in bytes
 * @meminfo: the file; NULL or "/proc/meminfo": this machine's (or the file
 *           $FTSCOPE_TEST_MEMINFO names, a test hook)
 * @bytes: filled
 *
 * Returns 0, or a negative errno (-ENOENT when the file has no MemAvailable line).
 */
FTS_API int fts_record_mem_available(const char *meminfo, uint64_t *bytes);

/**
 * fts_record_mem_need - the memory a capture takes
 * @bf_kb: per-CPU ring buffer in KB (0: the default 40960)
 * @ncpus: CPUs recorded
 * @live_top: 1 when the live top decodes pages too
 *
 * Returns bytes: @ncpus x (@bf_kb KB + 1 MiB for each reader, + 8 MiB the
 * live top may keep per CPU).
 */
FTS_API uint64_t fts_record_mem_need(unsigned bf_kb, int ncpus, int live_top);

/**
 * fts_record_mem_max_kb - the largest per-CPU buffer a capture may take
 * @avail: MemAvailable in bytes
 * @ncpus: CPUs recorded
 * @live_top: 1 when the live top decodes pages too
 *
 * A capture may take 7/8 of @avail; the rest is the workload's.
 *
 * Returns KB (whole MiB from 1 MiB up, at most 4194304), 0 when nothing fits.
 */
FTS_API unsigned fts_record_mem_max_kb(uint64_t avail, int ncpus, int live_top);

/**
 * fts_record_mem_check - whether a capture fits in memory, before allocating
 * @bf_kb: per-CPU ring buffer in KB (0: the default 40960)
 * @ncpus: CPUs recorded
 * @live_top: 1 when the live top decodes pages too
 * @meminfo: as for fts_record_mem_available (NULL: this machine)
 * @max_kb: set to fts_record_mem_max_kb (0 when MemAvailable is unknown); may be NULL
 * @err: the refusal, with the largest size that fits
 *
 * fts_record_start applies it; a UI can ask before.
 *
 * Returns 0 (fits, or MemAvailable is unknown) or -ENOMEM.
 */
FTS_API int fts_record_mem_check(unsigned bf_kb, int ncpus, int live_top, const char *meminfo,
				 unsigned *max_kb, struct fts_err *err);

/**
 * fts_record_advice_kb - a per-CPU buffer that would have kept up
 * @h: a snapshot (after loss)
 * @cur_kb: the buffer size in use, KB per CPU
 *
 * fts_record_buffer_kb of the fastest CPU's peak arrival rate, at least twice @cur_kb.
 *
 * Returns KB per CPU.
 */
FTS_API unsigned fts_record_advice_kb(const struct fts_record_health *h, unsigned cur_kb);

/**
 * fts_record_worst_cpus - order a snapshot's CPUs worst first
 * @h: the snapshot
 * @idx: filled with indices into @h->cpu: most lost first, then fullest buffer
 * @max: room in @idx
 *
 * Returns how many indices were written (min(@max, @h->ncpus)).
 */
FTS_API int fts_record_worst_cpus(const struct fts_record_health *h, int *idx, int max);

/**
 * fts_record_stop - stop, drain, write the output and free the recorder
 * @r: the recorder; freed always, even on error
 * @mode: FTS_STOP_DRAIN, FTS_STOP_FAST (skip draining) or FTS_STOP_CUT
 * @sum: the final figures (may be NULL); release with fts_record_summary_release
 * @err: message on failure
 *
 * Same as fts_record_stop_progress without a callback.
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_record_stop(struct fts_recorder *r, enum fts_record_stop_mode mode,
		    struct fts_record_summary *sum, struct fts_err *err);

/**
 * fts_record_stop_progress - stop with progress, so a UI never freezes
 * @r: the recorder; freed always, even on error
 * @mode: the mode to start with
 * @progress: called during drain, assembly and render (may be NULL); its
 *            return value escalates the mode (e.g. on a second Ctrl+C)
 * @arg: passed to @progress
 * @sum: the final figures (may be NULL); release with fts_record_summary_release
 * @err: message on failure
 *
 * Tracing stops first, the tracing state is restored and the instance
 * removed before the (possibly long) assembly. The output is written
 * atomically; after a disk error or FTS_STOP_CUT it holds what was recorded
 * (or copied) until then and @sum says so. When the output's directory was
 * removed or renamed while recording, the capture is saved where
 * fts_record_health's @output_note said (@sum->output).
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_record_stop_progress(struct fts_recorder *r, enum fts_record_stop_mode mode,
			     fts_record_progress_fn progress, void *arg,
			     struct fts_record_summary *sum, struct fts_err *err);

/**
 * fts_record_summary_release - free what fts_record_stop put in a summary
 * @sum: the summary; safe on a zeroed struct and twice
 */
FTS_API void fts_record_summary_release(struct fts_record_summary *sum);

/**
 * fts_record_snapshot - keep the flight recorder's last seconds in a snapshot directory
 * @r: a recorder started with a flight segment (opts.flight_segment_s or _bytes)
 * @reason: why (any text; made safe for the directory's name, kept whole in the manifest)
 * @last_s: keep the segments that end in the last @last_s seconds; <= 0: all kept
 * @dir: receives the snapshot directory's path
 * @len: the room in @dir
 * @err: the message on failure
 *
 * Closes the segment being written (so the snapshot reaches the call), then
 * hard-links (copies across filesystems) the kept segments and the pid
 * mapping into snapshot-<UTC time>-<reason>/ beside the output, with a
 * manifest.json (reason, trigger time, time range, segments, lost events).
 * Recording goes on. Any thread but the one stopping the recorder.
 *
 * Returns 0, -EINVAL when @r is not a flight recorder, or a negative errno.
 */
FTS_API int fts_record_snapshot(struct fts_recorder *r, const char *reason, double last_s, char *dir,
				size_t len, struct fts_err *err);

/**
 * fts_record_trigger_check - whether @spec is one valid flight trigger
 * @spec: "lost" (events lost, by the kernel's counters), or a scheduling
 *        trigger: "runnable>5ms[:comm=GLOB|:pid=N]" (any Runnable wait
 *        longer than the threshold) or "wakeup>2ms[:...]" (the wait after a
 *        wakeup); units ns, us, ms, s
 * @why: receives what is wrong (may be NULL)
 * @len: the room in @why
 *
 * A trigger that fires takes a snapshot (as fts_record_snapshot, reason the
 * rule; "lost-N-events" for "lost") opts.flight_post_trigger_s after its
 * event, then none for a ring of segments (10 s at least). Its manifest says
 * whether its segments hold the event ("trigger_held") and the trigger
 * snapshots dropped for the cap (opts.flight_trigger_keep and _bytes).
 *
 * Returns 0 or -EINVAL.
 */
FTS_API int fts_record_trigger_check(const char *spec, char *why, size_t len);

/**
 * fts_pidmapper_start - keep a pid mapping file up to date
 * @path: the JSON file to write (never through a symlink)
 * @interval_s: rescan period in seconds; <= 0 writes once at stop too (1 s)
 * @owner: who gets @path at every write; NULL: the writer keeps it
 * @out: set to the running mapper
 * @err: message on failure
 *
 * Writes @path now and rescans /proc every @interval_s in a thread, keeping
 * every pid ever seen.
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_pidmapper_start(const char *path, double interval_s, const struct fts_owner *owner,
			struct fts_pidmapper **out, struct fts_err *err);

/**
 * fts_pidmapper_stop - rescan once more, write the file, stop and free
 * @m: the mapper; freed always
 * @err: message on failure
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_pidmapper_stop(struct fts_pidmapper *m, struct fts_err *err);

#ifdef __cplusplus
}
#endif

#endif
