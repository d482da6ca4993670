/*
 * record_priv.h - the capture session shared by the record_*.c files.
 *
 * Native backend: a private tracefs instance; one reader thread per recorded
 * CPU splices whole ring-buffer pages from trace_pipe_raw into an unlinked
 * per-CPU stream file beside the output. At stop the streams are assembled
 * into a trace.dat (and, for .txt, rendered to kernel text from it).
 * trace-cmd backend: a `trace-cmd record` child stopped with SIGINT.
 */
#ifndef FTS_RECORD_PRIV_H
#define FTS_RECORD_PRIV_H

#include "ftscope/error.h"
#include "ftscope/record.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

struct tracefs_instance;
struct tracefs_cpu;

/* Kernel counters of one per_cpu/cpuN/stats file. */
struct fts_cpu_stats {
	uint64_t entries, overrun, commit_overrun, bytes, dropped, read;
	int valid;
};

struct rec_cpu {
	int cpu;
	struct fts_recorder *r;
	struct tracefs_cpu *tcpu;
	int rawfd;                    /* trace_pipe_raw; tracefs_cpu_free_fd leaves it open */
	int fd;                       /* unlinked stream file */
	_Atomic uint64_t bytes;
	pthread_t thread;
	int started;
	struct fts_cpu_stats base;    /* counters when the capture began */
	uint64_t prev_events, prev_lost;
	struct fts_record_cpu_health h;
	char *final_stats;            /* stats text at stop, for the CPUSTAT option */
};

struct fts_recorder {
	struct fts_record_opts o;
	char output[PATH_MAX];
	char pid_mapping[PATH_MAX];
	char tracing_dir[PATH_MAX];
	int text;                     /* render kernel text instead of keeping the dat */
	const char *backend;          /* "tracefs" / "trace-cmd" */

	struct tracefs_instance *inst;
	char inst_name[64];
	char *clock_text;             /* the instance's trace_clock file */
	char **events;                /* "system/event" enabled, NULL-terminated */
	char skipped[512];
	int page_size;

	int max_cpu;                  /* highest recorded CPU */
	int nrec;
	struct rec_cpu *cpus;
	long poll_ns;                 /* reader sleep when the buffer is empty */
	long reader_delay_ns;         /* test hook: a deliberately slow reader */
	int reserve_fd;               /* disk space held back to assemble the file after ENOSPC */

	atomic_int stop;
	atomic_int failed;
	pthread_mutex_t lock;
	char failure[256];

	uint64_t t0_ns, prev_ns;      /* CLOCK_MONOTONIC */
	int64_t clock_rt[2], clock_raw[2];

	struct fts_pidmapper *mapper;
	struct fts_record_cpu_health *health_buf;

	/* trace-cmd backend */
	pid_t child;
	char child_log[PATH_MAX];
	void *saved_global;           /* snapshot of the global files it may change */
};

/* fts_rec_now_ns - CLOCK_MONOTONIC in ns. */
uint64_t fts_rec_now_ns(void);

/* fts_rec_clock_pair - (CLOCK_REALTIME, CLOCK_MONOTONIC_RAW) read back to back, best of 3. */
void fts_rec_clock_pair(int64_t *realtime_ns, int64_t *mono_raw_ns);

/* fts_rec_read_stats - parse per_cpu/cpu@cpu/stats of @r's instance into @s; text copy in *@text if non-NULL. */
int fts_rec_read_stats(struct fts_recorder *r, int cpu, struct fts_cpu_stats *s, char **text);

/* fts_rec_fail - record the first failure (thread safe) and ask everyone to stop. */
void fts_rec_fail(struct fts_recorder *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* fts_rec_render_text - render the trace.dat at @dat_path as kernel text into @fd. */
int fts_rec_render_text(const char *dat_path, int fd, const char *clock_line, struct fts_err *err);

/* trace-cmd backend: start, and stop (free nothing; the caller frees @r). */
int fts_rec_tracecmd_start(struct fts_recorder *r, struct fts_err *err);
int fts_rec_tracecmd_stop(struct fts_recorder *r, struct fts_err *err);

/* fts_rec_event_list - the reference event set for @o as "system/event" strings (static storage). */
int fts_rec_event_list(const struct fts_record_opts *o, const char **out, int max);

#endif
