/* SPDX-License-Identifier: MIT */
/*
 * api.h - the opaque-handle API for language bindings (Python's ctypes).
 *
 * Four handles: a recording (fts_rec), a conversion (fts_conv), a statistics
 * run (fts_st) and a pid mapper (fts_pm). Each is created empty with the
 * reference defaults, configured with string key/value setters named after
 * the command-line flags ("cpus", "bf_size", "profiling_data", ...), run,
 * and freed. Results are JSON text the library allocates (free it with
 * fts_api_free); a failing call returns a negative errno and keeps a one-line
 * message in the handle (fts_*_error). No library struct crosses this API,
 * so a binding declares nothing but these functions, and fields added to the
 * structs behind it change nothing here.
 *
 * Values: booleans are "1"/"0" (also "true"/"false", "yes"/"no", "on"/"off"),
 * numbers are decimal text, "" resets a key to its default; an unknown key or
 * a bad value is -EINVAL with a message naming it. Owners ("owner") are
 * "UID:GID", or "" for the writer's. Strings in the JSON are always valid
 * UTF-8 (task names are escaped byte by byte where they are not).
 *
 * Two vocabularies, one per layer. fts_record_*, fts_convert, fts_stats_*,
 * fts_pidmapper_* (record.h, ftscope.h, stats.h) are the C library
 * API: typed option structs, callbacks and results a C program compiles
 * against. fts_rec_*, fts_conv_*, fts_st_*, fts_pm_* (this header, short
 * object names) are the binding layer built on them: every argument is a
 * handle, a string or a number, so a binding declares functions only
 * (python/ftscope/_lib.py; tests/contract/check_ctypes.py holds it to these
 * prototypes) and no C layout can drift under it. A C program uses the
 * first; a language binding the second. See docs/library.md.
 *
 * Nothing here prints, forks the caller, exits or installs signal handlers;
 * threads the library starts block every signal. One thread uses a handle at
 * a time, except fts_rec_health_json and fts_conv_cancel, which may be called
 * from any thread while the handle is in use.
 */
#ifndef FTS_API_H
#define FTS_API_H

#include <stddef.h>

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

struct fts_rec;
struct fts_conv;
struct fts_st;
struct fts_pm;

/**
 * fts_api_free - release a string this API returned
 * @s: the string; NULL is fine
 */
FTS_API void fts_api_free(char *s);

/**
 * fts_rec_new - a recording handle with the reference defaults
 *
 * Keys of fts_rec_set: cpus ("0-3,8"; "" = all online), output (trace.dat;
 * a .txt name gives kernel text), bf_size (KB per CPU, 40960), backend
 * (auto, tracefs, debugfs, trace-cmd), sched (1), irq (1), futex (0),
 * exclude ("sched/sched_stat_runtime,..."), nspid (0), pid_mapping (beside
 * the output), pidmap_interval (s, 1), duration (s; <= 0: until stopped),
 * live_top (0), owner, flight_segment (s; > 0: a flight recording of
 * trace.dat segments, see fts_record_opts), flight_keep (segments kept, 4),
 * flight_triggers ("lost;runnable>5ms:comm=python*;wakeup>2ms": automatic
 * snapshots, see fts_record_trigger_check), flight_post_trigger (s, 0),
 * flight_trigger_keep (trigger snapshots kept, 10), flight_trigger_bytes
 * (their bytes at most, 4 GiB), readers (reader threads, 1..64; 0: one per
 * 16 CPUs), exec_path (where trace-cmd is looked for, ':'-separated; "": the
 * usual root PATH; the library reads no environment variable, so a host
 * passes its own PATH).
 *
 * Returns the handle, or NULL when out of memory.
 */
FTS_API struct fts_rec *fts_rec_new(void);

/**
 * fts_rec_set - set one option before fts_rec_start
 * @h: the handle
 * @key: the option
 * @value: its value as text; NULL or "" resets it
 *
 * Returns 0, -EINVAL (unknown key, bad value) or -EBUSY (already started).
 */
FTS_API int fts_rec_set(struct fts_rec *h, const char *key, const char *value);

/**
 * fts_rec_start - check the options, set up a private tracefs instance and start recording
 * @h: the handle, configured
 *
 * Returns 0, or a negative errno: -EPERM (not root), -ENODEV (no tracefs),
 * -EINVAL, -EBUSY (already recording), -ENOSPC, ... with fts_rec_error set.
 */
FTS_API int fts_rec_start(struct fts_rec *h);

/**
 * fts_rec_running - whether @h is recording
 * @h: the handle
 *
 * Returns 1 between a successful fts_rec_start and fts_rec_stop, else 0.
 */
FTS_API int fts_rec_running(const struct fts_rec *h);

/**
 * fts_rec_health_json - the live figures as JSON
 * @h: the handle, recording
 *
 * {"elapsed_s", "events", "events_per_s", "bytes_written", "lost",
 * "lost_delta", "lost_text", "counters", "done", "failed", "failure",
 * "backend", "skipped_events", "fallback", "cpus": [{"cpu", "events",
 * "events_per_s", "bytes_written", "fill", "overrun", "commit_overrun",
 * "dropped", "lost", "lost_text"}, ...]}; "lost_text" is the loss model's
 * wording (loss.h). "done" means the duration is reached: call fts_rec_stop.
 *
 * Returns the JSON (free with fts_api_free), or NULL with fts_rec_error set
 * (not recording, out of memory).
 */
FTS_API char *fts_rec_health_json(struct fts_rec *h);

/**
 * fts_rec_stop - stop, restore the tracing state, write the output
 * @h: the handle
 * @mode: "drain" (NULL: read everything still buffered), "fast" or "cut"
 * @summary_json: set to the summary (free with fts_api_free), also when the
 *                output was cut short; NULL when not wanted
 *
 * The summary: {"output", "pid_mapping", "duration_s", "file_size",
 * "truncated", "cut", "failure", "health": {as fts_rec_health_json}}. The
 * tracing state is restored even when writing the output fails. The handle
 * may be started again.
 *
 * Returns 0, -ESRCH (not recording) or a negative errno with fts_rec_error set.
 */
FTS_API int fts_rec_stop(struct fts_rec *h, const char *mode, char **summary_json);

/**
 * fts_rec_snapshot - keep a flight recording's segments in a snapshot directory
 * @h: a handle recording with flight_segment set
 * @reason: why (any text; kept in the manifest, made safe for the directory's name)
 * @last_s: only the segments that end in the last @last_s seconds; <= 0: all kept
 * @dir: receives the snapshot directory's path (free with fts_api_free)
 *
 * As fts_record_snapshot; recording goes on. Any thread.
 *
 * Returns 0, -ESRCH (not recording), -EINVAL (not a flight recording) or a
 * negative errno with fts_rec_error set.
 */
FTS_API int fts_rec_snapshot(struct fts_rec *h, const char *reason, double last_s, char **dir);

/**
 * fts_rec_error - the message of the last failed call on @h
 * @h: the handle
 *
 * Returns a one-line message, "" when the last call succeeded; valid until the next call.
 */
FTS_API const char *fts_rec_error(const struct fts_rec *h);

/**
 * fts_rec_free - release a handle, stopping its capture ("fast") when one runs
 * @h: the handle; NULL is fine
 */
FTS_API void fts_rec_free(struct fts_rec *h);

/**
 * fts_conv_new - a conversion handle with the CLI's defaults
 *
 * Keys of fts_conv_set: input (required), output (ftrace_data.db, or
 * ftrace_data.json with format json), format (db or json; default from the
 * output's suffix, else db), profiling_data, pid_mapping, cs_rows (1),
 * with_summary (0), probe_helper (the program that opens a trace.dat in
 * isolation: the ftscope binary; "" = in this process), owner.
 *
 * Returns the handle, or NULL when out of memory.
 */
FTS_API struct fts_conv *fts_conv_new(void);

/**
 * fts_conv_set - set one option
 * @h: the handle
 * @key: the option
 * @value: its value as text; NULL or "" resets it
 *
 * Returns 0 or -EINVAL.
 */
FTS_API int fts_conv_set(struct fts_conv *h, const char *key, const char *value);

/**
 * fts_conv_run - convert, writing the output atomically (nothing on failure)
 * @h: the handle
 * @summary_json: set to the summary (free with fts_api_free); NULL when not wanted
 *
 * The summary: {"input", "input_format", "output", "format", "seconds",
 * "events", "skipped", "items", "cpu_lanes", "task_lanes", "tasks",
 * "cpu_slices", "irq_slices", "softirq_slices", "switch_markers",
 * "wakeup_links", "before_window", "after_window", "irq_unmatched_exit",
 * "lost_markers", "lost_any", "lost_events", "lost_exact" (0: a lower
 * bound), "lost_text" (the loss model's words, loss.h), "no_data_ns",
 * "overwritten", "aligned", "cards", "pidmap_entries", "pidmap_mapped"}.
 *
 * Returns 0, -ECANCELED after fts_conv_cancel, or a negative errno with
 * fts_conv_error set.
 */
FTS_API int fts_conv_run(struct fts_conv *h, char **summary_json);

/**
 * fts_conv_cancel - make a running fts_conv_run stop soon and leave nothing
 * @h: the handle; may be called from any thread (e.g. on Ctrl+C)
 */
FTS_API void fts_conv_cancel(struct fts_conv *h);

/**
 * fts_conv_error - the message of the last failed call on @h
 * @h: the handle
 *
 * Returns a one-line message, "" when the last call succeeded.
 */
FTS_API const char *fts_conv_error(const struct fts_conv *h);

/**
 * fts_conv_free - release a conversion handle
 * @h: the handle; NULL is fine
 */
FTS_API void fts_conv_free(struct fts_conv *h);

/**
 * fts_st_new - a statistics handle (ftscope stats)
 *
 * Keys of fts_st_set: input (a trace.dat, kernel text, or ftrace DB/JSON;
 * required), profiling_data, pid_mapping, cpus ("0-3"), sort (a column name,
 * "runnable_ns" by default), top (rows kept, 0 = all; default 0),
 * probe_helper (as for fts_conv_new).
 *
 * Returns the handle, or NULL when out of memory.
 */
FTS_API struct fts_st *fts_st_new(void);

/**
 * fts_st_set - set one option
 * @h: the handle
 * @key: the option
 * @value: its value as text; NULL or "" resets it
 *
 * Returns 0 or -EINVAL.
 */
FTS_API int fts_st_set(struct fts_st *h, const char *key, const char *value);

/**
 * fts_st_run - read the input and compute the per-task and per-CPU tables
 * @h: the handle
 * @json: set to {"info": {"t_begin", "t_end", "items", "items_counted",
 *        "lost_text"}, "tasks": [{"task", "comm", "pid", "running_ns", ...
 *        every column of ftscope stats}], "cpus": [{"cpu", "busy_ns",
 *        "wall_ns", "util", "irq_count", "irq_ns", "softirq_count",
 *        "softirq_ns", "switches", "lost_events", "lost_exact", "lost_text",
 *        "lost_markers", "nodata_ns"}]}, tasks sorted largest first; free
 *        with fts_api_free
 *
 * Returns 0 or a negative errno with fts_st_error set.
 */
FTS_API int fts_st_run(struct fts_st *h, char **json);

/**
 * fts_st_error - the message of the last failed call on @h
 * @h: the handle
 *
 * Returns a one-line message, "" when the last call succeeded.
 */
FTS_API const char *fts_st_error(const struct fts_st *h);

/**
 * fts_st_free - release a statistics handle
 * @h: the handle; NULL is fine
 */
FTS_API void fts_st_free(struct fts_st *h);

/**
 * fts_pm_new - a pid mapper handle (host pid -> container pid, pid_mapping.json)
 *
 * Keys of fts_pm_set: output (pid_mapping.json), interval (rescan period in
 * s, 1), owner.
 *
 * Returns the handle, or NULL when out of memory.
 */
FTS_API struct fts_pm *fts_pm_new(void);

/**
 * fts_pm_set - set one option before fts_pm_start
 * @h: the handle
 * @key: the option
 * @value: its value as text; NULL or "" resets it
 *
 * Returns 0, -EINVAL or -EBUSY (running).
 */
FTS_API int fts_pm_set(struct fts_pm *h, const char *key, const char *value);

/**
 * fts_pm_start - write the mapping now, then rescan /proc (threads too) every interval
 * @h: the handle
 *
 * Returns 0, -EBUSY (running) or a negative errno with fts_pm_error set.
 */
FTS_API int fts_pm_start(struct fts_pm *h);

/**
 * fts_pm_running - whether the mapper runs
 * @h: the handle
 *
 * Returns 1 between fts_pm_start and fts_pm_stop, else 0.
 */
FTS_API int fts_pm_running(const struct fts_pm *h);

/**
 * fts_pm_stop - rescan once more, write the file and stop
 * @h: the handle
 *
 * Returns 0, -ESRCH (not running) or a negative errno with fts_pm_error set.
 */
FTS_API int fts_pm_stop(struct fts_pm *h);

/**
 * fts_pm_error - the message of the last failed call on @h
 * @h: the handle
 *
 * Returns a one-line message, "" when the last call succeeded.
 */
FTS_API const char *fts_pm_error(const struct fts_pm *h);

/**
 * fts_pm_free - release a pid mapper, stopping it when it runs
 * @h: the handle; NULL is fine
 */
FTS_API void fts_pm_free(struct fts_pm *h);

#ifdef __cplusplus
}
#endif

#endif
