/* SPDX-License-Identifier: MIT */
/*
 * event.h - the one event struct every reader produces.
 *
 * Both the text reader and the trace.dat reader turn kernel records into
 * struct fts_event, so the time map, pid map and sched model after them do not
 * know which format a trace came from. Times are CLOCK_MONOTONIC_RAW
 * nanoseconds as the kernel stamped them (text gives microseconds; the reader
 * scales them). Strings are NUL-terminated copies, truncated to fit; they are
 * raw kernel bytes and must be sanitised before reaching a terminal.
 */
#ifndef FTS_EVENT_H
#define FTS_EVENT_H

#include <stdint.h>
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FTS_COMM_MAX 64   /* kernel comms are 16; text dumps may carry longer */
#define FTS_STATE_MAX 8   /* "R+", "S", "D|W", ... */
#define FTS_NAME_MAX 48   /* irq handler names */

/*
 * FTS_EVENT_TABLE(X) - the one list of the kernel events ftscope models, in
 * enum fts_ev_type order. Each entry is X(KIND, GROUP, SYSTEM, NAME, FIELDS...):
 *   KIND    the type is FTS_EV_<KIND>
 *   GROUP   the recorder option that enables it (sched, irq, futex)
 *   SYSTEM  its tracefs system, NAME its event name ("sched", "sched_switch")
 *   FIELDS  the format fields the trace.dat reader reads, in the order its
 *           decoders index them
 * The type names, the readers' kind maps, the recorder's event groups and
 * `ftscope record --list-events` (which the capture scripts use) all expand it.
 */
#define FTS_EVENT_TABLE(X) \
	X(SWITCH, sched, "sched", "sched_switch", "prev_comm", "prev_pid", "prev_prio", \
	  "prev_state", "next_comm", "next_pid", "next_prio") \
	X(WAKING, sched, "sched", "sched_waking", "comm", "pid", "prio", "target_cpu") \
	X(WAKEUP, sched, "sched", "sched_wakeup", "comm", "pid", "prio", "target_cpu") \
	X(WAKEUP_NEW, sched, "sched", "sched_wakeup_new", "comm", "pid", "prio", "target_cpu") \
	X(MIGRATE, sched, "sched", "sched_migrate_task", "comm", "pid", "prio", "orig_cpu", \
	  "dest_cpu") \
	X(STAT_RUNTIME, sched, "sched", "sched_stat_runtime", "comm", "pid", "runtime", \
	  "vruntime") \
	X(FORK, sched, "sched", "sched_process_fork", "parent_comm", "parent_pid", "child_comm", \
	  "child_pid") \
	X(EXEC, sched, "sched", "sched_process_exec", "filename", "pid", "old_pid") \
	X(EXIT, sched, "sched", "sched_process_exit", "comm", "pid", "prio") \
	X(IRQ_ENTRY, irq, "irq", "irq_handler_entry", "irq", "name") \
	X(IRQ_EXIT, irq, "irq", "irq_handler_exit", "irq", "ret") \
	X(SOFTIRQ_RAISE, irq, "irq", "softirq_raise", "vec") \
	X(SOFTIRQ_ENTRY, irq, "irq", "softirq_entry", "vec") \
	X(SOFTIRQ_EXIT, irq, "irq", "softirq_exit", "vec") \
	X(FUTEX_ENTER, futex, "syscalls", "sys_enter_futex", "uaddr", "op") \
	X(FUTEX_EXIT, futex, "syscalls", "sys_exit_futex", "ret")

#define FTS_EV_ENUM_(kind, group, system, name, ...) FTS_EV_##kind,

enum fts_ev_type {
	FTS_EVENT_TABLE(FTS_EV_ENUM_)
	FTS_EV_LOST,      /* the kernel dropped `lost.count` events on `cpu` */
	FTS_EV__COUNT
};

#undef FTS_EV_ENUM_

struct fts_ev_switch {
	char prev_comm[FTS_COMM_MAX];
	int32_t prev_pid;
	int32_t prev_prio;
	char prev_state[FTS_STATE_MAX];
	char next_comm[FTS_COMM_MAX];
	int32_t next_pid;
	int32_t next_prio;
};

/* sched_waking, sched_wakeup, sched_wakeup_new, sched_process_exit */
struct fts_ev_task {
	char comm[FTS_COMM_MAX];
	int32_t pid;
	int32_t prio;
	int32_t target_cpu; /* -1 when the event has none */
};

struct fts_ev_migrate {
	char comm[FTS_COMM_MAX];
	int32_t pid;
	int32_t prio;
	int32_t orig_cpu;
	int32_t dest_cpu;
};

struct fts_ev_runtime {
	char comm[FTS_COMM_MAX];
	int32_t pid;
	uint64_t runtime;
	uint64_t vruntime;
	int has_vruntime; /* 6.x kernels dropped the field */
};

struct fts_ev_fork {
	char parent_comm[FTS_COMM_MAX];
	int32_t parent_pid;
	char child_comm[FTS_COMM_MAX];
	int32_t child_pid;
};

struct fts_ev_exec {
	char comm[FTS_COMM_MAX]; /* the new comm: basename of filename, 15 bytes */
	int32_t pid;
	int32_t old_pid;
};

struct fts_ev_irq {
	int32_t irq;
	int32_t ret;              /* exit only */
	char name[FTS_NAME_MAX];  /* entry only */
};

struct fts_ev_softirq {
	int32_t vec;
};

struct fts_ev_futex {
	uint64_t uaddr;
	int64_t ret;
	int32_t op;
};

struct fts_ev_lost {
	uint64_t count; /* 0 when the kernel only said "some" */
	/*
	 * 1: not a drop but the kernel's total for @cpu over the whole capture
	 * (the trace.dat's stored ring-buffer stats), sent once per CPU before
	 * the first event, with @ts 0 (loss.h). 2: the same from a flight
	 * segment, whose count is its own and whole (FTS_LOSS_ARG_WHOLE).
	 */
	int kernel;
};

struct fts_event {
	uint64_t ts;                 /* ns, trace clock */
	int32_t cpu;
	int32_t pid;                 /* the task the event ran in (common_pid) */
	char comm[FTS_COMM_MAX];     /* its name as the reader saw it */
	enum fts_ev_type type;
	union {
		struct fts_ev_switch sw;
		struct fts_ev_task task;
		struct fts_ev_migrate migrate;
		struct fts_ev_runtime runtime;
		struct fts_ev_fork fork;
		struct fts_ev_exec exec;
		struct fts_ev_irq irq;
		struct fts_ev_softirq softirq;
		struct fts_ev_futex futex;
		struct fts_ev_lost lost;
	} u;
};

/**
 * fts_ev_type_name - the kernel's name of an event type
 * @type: the type
 *
 * Returns a static string ("sched_switch", ...), "unknown" when out of range.
 */
FTS_API const char *fts_ev_type_name(enum fts_ev_type type);

/**
 * fts_ev_type_from_name - the event type of a kernel event name
 * @name: the name, not necessarily NUL-terminated
 * @len: its length in bytes
 *
 * Returns the enum fts_ev_type value, or -1 for an event ftscope does not model.
 */
FTS_API int fts_ev_type_from_name(const char *name, int len);

/**
 * fts_softirq_name - the kernel's name of a softirq vector
 * @vec: the vector number
 *
 * Returns a static string ("TIMER", "NET_RX", ...), "UNKNOWN" when out of range.
 */
FTS_API const char *fts_softirq_name(int vec);

/**
 * fts_copy_str - bounded string copy that always terminates
 * @dst: the destination
 * @size: its size in bytes (> 0)
 * @src: the source
 * @len: bytes of @src to copy, or -1 for up to its NUL
 *
 * Truncates to @size - 1 bytes. Returns @dst.
 */
FTS_API char *fts_copy_str(char *dst, int size, const char *src, int len);

/*
 * A trace's clock anchor: one (CLOCK_REALTIME, CLOCK_MONOTONIC_RAW) pair taken
 * together, as ftscope record stores it. valid == 0 when the input has none.
 * Newer captures also read CLOCK_MONOTONIC with it (has_mono), and the three
 * again at stop (has_stop), so MONOTONIC <-> MONOTONIC_RAW can be fitted
 * (fts_clock_mono_to_raw); the fields after mono_raw_ns are 0 otherwise.
 */
struct fts_clock_pair {
	int valid;
	int64_t realtime_ns;
	int64_t mono_raw_ns;
	int has_mono;               /* mono_ns and window_ns are set */
	int64_t mono_ns;            /* CLOCK_MONOTONIC read with the pair */
	int64_t window_ns;          /* RAW time the reads took: each clock's uncertainty */
	int has_stop;               /* the stop_* sample is set (a later one, has_mono too) */
	int64_t stop_realtime_ns;
	int64_t stop_mono_raw_ns;   /* > mono_raw_ns */
	int64_t stop_mono_ns;
	int64_t stop_window_ns;
};

/*
 * The reader interface. A reader calls @emit for every event it understands,
 * in time order; a non-zero return from @emit stops the read and is passed back.
 */
typedef int (*fts_event_fn)(void *ctx, const struct fts_event *ev);

struct fts_read_stats {
	uint64_t bytes_total;     /* input size, for progress */
	uint64_t bytes_done;
	uint64_t events;          /* events emitted */
	uint64_t lines;           /* text: lines read */
	uint64_t skipped;         /* lines or records not understood */
	uint64_t other_events;    /* well-formed events of kinds we do not model */
	uint64_t lost_events;     /* sum of lost counts */
	uint64_t overwritten;     /* text copied from a full ring buffer: events the
				     kernel overwrote before the copy (from the
				     "entries-in-buffer/entries-written" header) */
	uint64_t by_type[FTS_EV__COUNT];
	char first_bad[160];      /* the first line skipped, sanitised, for the summary */
	uint64_t first_bad_line;
	struct fts_clock_pair clock; /* filled when the input stores one */
	int cpus;                 /* highest CPU seen + 1 */
};

/*
 * A reader's own hook (struct fts_read_opts), called from time to time with
 * its counters; it cannot cancel (the emitter's return value does that).
 * Programs that convert or preview use the pipeline's staged progress,
 * fts_stage_fn (pipeline.h), which can cancel.
 */
typedef void (*fts_read_progress_fn)(void *ctx, const struct fts_read_stats *st);

#ifdef __cplusplus
}
#endif

#endif
