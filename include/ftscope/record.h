/*
 * ftscope_record.h - the recorder's public C API.
 *
 * Start a capture of scheduler/irq events through a private tracefs instance
 * (or trace-cmd), sample its per-CPU health while it runs, stop it and get a
 * trace.dat (or kernel text) file; and keep a host pid -> container pid
 * mapping file up to date. Handles are opaque; every fallible call returns 0
 * or a negative errno and fills a struct fts_err message. Nothing here prints,
 * exits or installs signal handlers: the caller owns the process.
 */
#ifndef FTSCOPE_RECORD_H
#define FTSCOPE_RECORD_H

#include <stdint.h>

#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif


enum fts_record_backend {
	FTS_BACKEND_AUTO = 0,   /* native; trace-cmd only if the native one cannot start */
	FTS_BACKEND_TRACEFS,    /* native private instance ("debugfs" is an alias) */
	FTS_BACKEND_TRACE_CMD,  /* drive `trace-cmd record` */
};

/* What to record; mirrors the `ftscope record` flags. */
struct fts_record_opts {
	const char *cpus;          /* "0-3,8"; NULL or "" = all online CPUs */
	const char *output;        /* NULL = "trace.dat"; a .txt name gives kernel text */
	unsigned int bf_size_kb;   /* per-CPU ring buffer in KB; 0 = 40960 */
	enum fts_record_backend backend;
	int sched;                 /* 1: scheduler events */
	int irq;                   /* 1: hard and soft irq events */
	int futex;                 /* 1: syscalls sys_enter/exit_futex when the kernel has them */
	int nspid;                 /* 1: also keep pid_mapping.json up to date */
	const char *pid_mapping;   /* NULL = pid_mapping.json beside the output */
	double pidmap_interval_s;  /* rescan period with nspid; 0 = 1 s */
};

/* Live figures of one recorded CPU. */
struct fts_record_cpu_health {
	int cpu;
	uint64_t events;           /* arrived in the ring buffer so far (read + pending + overrun) */
	double events_per_s;       /* since the previous health call */
	uint64_t bytes_written;    /* raw pages streamed to disk */
	double fill;               /* ring buffer fill, 0..1 */
	uint64_t overrun;          /* kernel counters, totals since start */
	uint64_t commit_overrun;
	uint64_t dropped;
	uint64_t lost;             /* overrun + commit_overrun + dropped */
	uint64_t lost_delta;       /* lost since the previous health call */
};

/* A health snapshot; @cpu points into the recorder and stays valid until the next call. */
struct fts_record_health {
	double elapsed_s;
	int ncpus;
	const struct fts_record_cpu_health *cpu;
	uint64_t events;
	double events_per_s;
	uint64_t bytes_written;
	uint64_t lost;
	uint64_t lost_delta;
	int failed;                /* a reader hit an error (e.g. disk full): stop now */
	char failure[256];         /* what it was, empty when !failed */
	const char *backend;       /* "tracefs" or "trace-cmd" */
	const char *skipped_events;/* events the kernel lacks, comma separated, or "" */
};

/* How fts_record_stop ends the capture. */
enum fts_record_stop_mode {
	FTS_STOP_DRAIN = 0,        /* read everything still in the ring buffers */
	FTS_STOP_FAST,             /* skip draining (second Ctrl+C); file stays valid */
};

/* The final summary fts_record_stop fills. */
struct fts_record_summary {
	struct fts_record_health health;  /* the last sample, per-CPU totals */
	double duration_s;
	uint64_t file_size;
	char output[4096];         /* the file written */
	char pid_mapping[4096];    /* the mapping written, empty without nspid */
	int truncated;             /* 1 when a disk error cut the capture short */
	char failure[256];         /* why, when truncated */
	struct fts_record_cpu_health *cpu; /* per-CPU totals (health.ncpus of them); free with fts_record_summary_release */
};

struct fts_recorder;
struct fts_pidmapper;

/* fts_record_summary_release - free what fts_record_stop allocated in @sum. */
void fts_record_summary_release(struct fts_record_summary *sum);

/* fts_record_opts_init - fill @o with the reference defaults (all online CPUs, trace.dat, 40960 KB, sched+irq). */
void fts_record_opts_init(struct fts_record_opts *o);

/*
 * fts_record_start - validate @o, set up the capture and start recording;
 * on success *@out is the running recorder. Needs root and tracefs; errors
 * (-EPERM, -ENODEV, -EINVAL for a bad CPU list, ...) leave nothing behind.
 */
int fts_record_start(const struct fts_record_opts *o, struct fts_recorder **out, struct fts_err *err);

/* fts_record_health - sample @r's live per-CPU figures into @h (call at >= 2 Hz for good rates). */
int fts_record_health(struct fts_recorder *r, struct fts_record_health *h);

/*
 * fts_record_stop - stop @r, drain it (unless @mode is FTS_STOP_FAST), write
 * the output atomically, restore the tracing state and free @r (always, even
 * on error). @sum (may be NULL) gets the final figures.
 */
int fts_record_stop(struct fts_recorder *r, enum fts_record_stop_mode mode,
		    struct fts_record_summary *sum, struct fts_err *err);

/*
 * fts_pidmapper_start - write @path now and rescan /proc every @interval_s
 * seconds (<= 0: 1 s) in a thread, keeping every pid ever seen.
 */
int fts_pidmapper_start(const char *path, double interval_s, struct fts_pidmapper **out,
			struct fts_err *err);

/* fts_pidmapper_stop - rescan once more, write the file, stop the thread and free @m. */
int fts_pidmapper_stop(struct fts_pidmapper *m, struct fts_err *err);

#ifdef __cplusplus
}
#endif

#endif
