/* SPDX-License-Identifier: MIT */
/*
 * setup_model.h - what the setup screen edits, without curses: the CPU
 * selection (grid, typed lists, all, a NUMA node), each CPU's utilisation from
 * /proc/stat, event groups, buffer memory against free memory, duration,
 * output, and the equivalent `ftscope record` command line.
 */
#ifndef FTS_TUI_SETUP_MODEL_H
#define FTS_TUI_SETUP_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include <ftscope/error.h>
#include <ftscope/record.h>

/* Cumulative /proc/stat jiffies per CPU number. */
struct fts_cpustat {
	int n;                   /* entries (highest CPU number + 1) */
	uint64_t *busy, *total;  /* indexed by CPU number; 0 when the CPU has no line */
};

/**
 * fts_cpustat_read - read the per-CPU lines of a /proc/stat file
 * @path: "/proc/stat" (a test passes its own)
 * @st: filled (free with fts_cpustat_free); zeroed first
 *
 * Returns 0, or a negative errno.
 */
int fts_cpustat_read(const char *path, struct fts_cpustat *st);

/**
 * fts_cpustat_free - release @st's arrays
 * @st: the sample; safe twice
 */
void fts_cpustat_free(struct fts_cpustat *st);

/**
 * fts_cpustat_util - a CPU's busy fraction between two samples
 * @a: the older sample
 * @b: the newer sample
 * @cpu: CPU number
 *
 * Returns 0..1, or -1 when unknown (no line, or no time passed).
 */
double fts_cpustat_util(const struct fts_cpustat *a, const struct fts_cpustat *b, int cpu);

struct fts_setup {
	int ncpus;
	int *cpu;                /* online CPU numbers, ascending */
	int *node;               /* NUMA node of each, -1 unknown */
	unsigned char *sel;      /* 1: record it */
	double *util;            /* 0..1, -1 unknown */
	int nnodes;
	int sched, irq, futex;   /* event groups */
	unsigned bf_kb;          /* per-CPU ring buffer */
	long duration_s;         /* 0: until stopped */
	char output[4096];
	int nspid;
	char pid_mapping[4096];  /* where the mapping goes; "": pid_mapping.json beside the output */
	int live_top;            /* the recorder decodes pages for the live top (needs sched) */
	enum fts_record_backend backend;
	char exclude[1024];      /* events of the chosen groups left out: "sched/sched_stat_runtime,..." */
	int reader_nice;         /* the readers' nice, -20..-1; 0: the recorder's default (no row: a record flag) */
	/* flight recorder (record --flight): segments kept in a ring until stopped */
	int flight;              /* 1: flight recorder mode; the duration is then "until stopped" */
	char segment[32];        /* as typed, "30s" or "64M" (app/flight_segment.h) */
	double segment_s;        /* parsed from it: seconds, or 0 */
	uint64_t segment_bytes;  /* ... or bytes, or 0 */
	int keep;                /* segments kept, 1..FTS_FLIGHT_KEEP_MAX */
	char triggers[512];      /* the triggers as typed, ';' between ("lost;runnable>5ms:comm=python*"); "" none */
	double snap_last_s;      /* a snapshot keeps the segments of the last this many seconds; 0: all */
};

/**
 * fts_setup_init - the choices, from the probed CPUs and a preset
 * @s: filled (free with fts_setup_free)
 * @caps: what fts_record_probe found (CPUs and nodes)
 * @preset: options to start from (e.g. record flags); NULL for the defaults
 * @err: message when the preset's CPU list does not parse
 *
 * A preset duration of 0 means "until stopped"; the default is 30 s, as the CLI.
 * Flight mode starts off, with segments of 30 s and 4 kept (the CLI's defaults),
 * unless the preset has a segment length or size (`record --tui --flight`):
 * then on, with its segment, keep and triggers (the preset's flight_triggers
 * is the setup's text: ';' between, "lost" among them).
 * The live top is on (the session shows it; the CLI's --live_top is opt-in).
 *
 * Returns 0, -EINVAL (bad CPU list, @s still usable with all CPUs), or -ENOMEM.
 */
int fts_setup_init(struct fts_setup *s, const struct fts_record_caps *caps,
		   const struct fts_record_opts *preset, struct fts_err *err);

/**
 * fts_setup_free - release @s's arrays
 * @s: the choices; safe twice
 */
void fts_setup_free(struct fts_setup *s);

/**
 * fts_setup_select_list - select exactly the CPUs of a typed list
 * @s: the choices
 * @list: "0-15,32"; every CPU in it must be online
 * @err: what is wrong with the list
 *
 * Returns 0 or -EINVAL (the selection is then unchanged).
 */
int fts_setup_select_list(struct fts_setup *s, const char *list, struct fts_err *err);

/**
 * fts_setup_select_node - select the CPUs of NUMA node @node only
 * @s: the choices
 * @node: the node
 *
 * Returns the CPUs selected (0 leaves the selection unchanged).
 */
int fts_setup_select_node(struct fts_setup *s, int node);

/**
 * fts_setup_selected - how many CPUs are selected
 * @s: the choices
 *
 * Returns the count.
 */
int fts_setup_selected(const struct fts_setup *s);

/**
 * fts_setup_cpulist - the selection as a compact list ("0-3,8"), "" when all
 * @s: the choices
 * @buf: output
 * @len: its size
 * @all_empty: 1: all online CPUs give ""; 0: always the full list
 *
 * Returns @buf.
 */
const char *fts_setup_cpulist(const struct fts_setup *s, char *buf, size_t len, int all_empty);

/**
 * fts_setup_mem_bytes - the ring buffer memory the choice takes (CPUs x size)
 * @s: the choices
 *
 * Returns bytes.
 */
uint64_t fts_setup_mem_bytes(const struct fts_setup *s);

/**
 * fts_setup_set_flight - the flight recorder's segment and keep count, as typed
 * @s: the choices
 * @text: "SEGMENT KEEP" ("30s 4", "64M 8") or "SEGMENT" alone (keep unchanged),
 *        the words of `record --segment` and `--keep`
 * @err: what is wrong with it
 *
 * Returns 0, or -EINVAL (@s unchanged).
 */
int fts_setup_set_flight(struct fts_setup *s, const char *text, struct fts_err *err);

/**
 * fts_setup_set_triggers - the flight recorder's triggers, as typed
 * @s: the choices
 * @text: "lost; runnable>5ms:comm=python*; wakeup>2ms" (';' between, blanks
 *        around each ignored), each as `record --trigger`; "" for none
 * @err: what is wrong with the first bad one
 *
 * Returns 0, or -EINVAL (@s unchanged).
 */
int fts_setup_set_triggers(struct fts_setup *s, const char *text, struct fts_err *err);

/**
 * fts_setup_set_snap_last - the seconds a snapshot keeps, as typed
 * @s: the choices
 * @text: seconds, 0..86400 ("0" or "all": every kept segment)
 * @err: what is wrong with it
 *
 * Returns 0, or -EINVAL (@s unchanged).
 */
int fts_setup_set_snap_last(struct fts_setup *s, const char *text, struct fts_err *err);

/**
 * fts_setup_opts - the recorder options for the choice
 * @s: the choices
 * @o: filled; its strings point into @s and @cpubuf
 * @cpubuf: room for the CPU list
 * @len: its size
 */
void fts_setup_opts(const struct fts_setup *s, struct fts_record_opts *o, char *cpubuf, size_t len);

/**
 * fts_setup_cmdline - the equivalent `ftscope record` command line
 * @s: the choices
 * @buf: output; the output path is shell-quoted
 * @len: its size
 *
 * Returns @buf.
 */
const char *fts_setup_cmdline(const struct fts_setup *s, char *buf, size_t len);

/**
 * fts_shell_quote - @s quoted for a POSIX shell when it needs it
 * @s: any bytes
 * @buf: output
 * @len: its size
 *
 * Returns @buf.
 */
const char *fts_shell_quote(const char *s, char *buf, size_t len);

/**
 * fts_buffer_lasts_s - how long a per-CPU buffer lasts if nothing drains it
 * @bf_kb: buffer per CPU in KB
 * @bytes_per_s: the busiest CPU's raw data rate
 *
 * Returns seconds, or -1 when the rate is 0.
 */
double fts_buffer_lasts_s(unsigned bf_kb, double bytes_per_s);

/* How long a reader may stall before its CPU's buffer overflows, in the buffer advice. */
#define FTS_BUFFER_STALL_S 2.0   /* the recorder's fts_record_advice_kb assumes the same */
/* The largest per-CPU buffer the setup accepts, in KB. */
#define FTS_BUFFER_MAX_KB 4194304u

/**
 * fts_buffer_advice_kb - the per-CPU buffer that lasts FTS_BUFFER_STALL_S at a data rate
 * @bytes_per_s: the busiest CPU's raw data rate
 *
 * Rounded up to a power of two, at least 1024 KB, at most FTS_BUFFER_MAX_KB.
 *
 * Returns KB.
 */
unsigned fts_buffer_advice_kb(double bytes_per_s);

/**
 * fts_setup_event_excluded - whether event @name ("sched/sched_switch") is left out
 * @s: the choices
 * @name: the event
 *
 * Returns 1 or 0.
 */
int fts_setup_event_excluded(const struct fts_setup *s, const char *name);

/**
 * fts_setup_toggle_event - leave event @name out, or take it back in
 * @s: the choices
 * @name: the event ("group/event")
 *
 * Returns 0, or -ENOSPC when the list of left-out events is full.
 */
int fts_setup_toggle_event(struct fts_setup *s, const char *name);

/**
 * fts_setup_check_output - whether the output can be written, in plain words
 * @path: the output as typed
 * @example: the file name a directory is told to add ("trace.dat")
 * @why: what is wrong ("" when nothing)
 * @len: its size
 *
 * Refuses an empty name, a directory, a symbolic link (ftscope never
 * writes through one), a device or pipe, a missing or read-only directory.
 * Reads the file system, writes nothing.
 *
 * Returns 0, or -1 with @why filled.
 */
int fts_setup_check_output(const char *path, const char *example, char *why, size_t len);

#endif
