/* SPDX-License-Identifier: MIT */
/*
 * reader.h - trace input readers. The format is decided from the file's first
 * bytes, never its name; every reader produces struct fts_event in time order.
 */
#ifndef FTS_READER_H
#define FTS_READER_H

#include "error.h"
#include "event.h"

#ifdef __cplusplus
extern "C" {
#endif

enum fts_input_format {
	FTS_FMT_UNKNOWN = 0,
	FTS_FMT_DAT,   /* trace-cmd trace.dat, v6 or v7 (compressed or not) */
	FTS_FMT_TEXT,  /* tracefs trace/trace_pipe text, or trace-cmd report */
};

struct fts_read_opts {
	fts_event_fn emit;
	void *emit_ctx;
	fts_read_progress_fn progress;  /* may be NULL */
	void *progress_ctx;
	/* The caller already ran fts_read_dat_probe on this file: skip it. */
	int probed;
};

/**
 * fts_input_detect - open a file and classify it by content, never by name
 * @path: the file
 * @fmt: set to its format
 * @err: filled when it is missing, unreadable, not regular, empty or not a trace
 *
 * Returns 0 or a negative errno.
 */
int fts_input_detect(const char *path, enum fts_input_format *fmt, struct fts_err *err);

/**
 * fts_input_format_name - a format's name for messages
 * @fmt: the format
 *
 * Returns "trace.dat", "text" or "unknown".
 */
const char *fts_input_format_name(enum fts_input_format fmt);

/**
 * fts_read_text - parse kernel or trace-cmd text, one event at a time
 * @path: a regular file (a FIFO or device is refused at once)
 * @opts: @opts->emit is called per event, in time order
 * @st: counters, reset first
 * @err: filled on error
 *
 * Unknown lines (and numbers too wide for their field) are counted in @st,
 * never fatal; time going backwards on a CPU is an error (-EINVAL: two
 * captures joined or a reordered file).
 *
 * Returns 0, the emitter's non-zero value, or a negative errno.
 */
int fts_read_text(const char *path, const struct fts_read_opts *opts,
		  struct fts_read_stats *st, struct fts_err *err);

/**
 * fts_read_dat - read a trace.dat, every buffer instance merged in time order
 * @path: a regular file
 * @opts: @opts->emit is called per event, in time order
 * @st: counters, reset first
 * @err: filled on error
 *
 * Records through libtracecmd, fields through libtraceevent, every page and
 * record length checked first. A truncated file, a corrupt data page or
 * record (the message names the CPU and file offset), a header that crashes
 * the trace library, and time going backwards on a CPU are errors.
 *
 * Returns 0, the emitter's non-zero value, or a negative errno.
 */
int fts_read_dat(const char *path, const struct fts_read_opts *opts,
		 struct fts_read_stats *st, struct fts_err *err);

/**
 * fts_read_dat_probe - check that the trace library can open a trace.dat
 * @path: the file
 * @err: filled when it cannot
 *
 * Opens @path with libtracecmd in a freshly exec'd copy of the running
 * program (/proc/self/exe; no fork of the caller, so it is safe with threads
 * running), so a corrupt header that crashes or hangs the library is reported
 * instead of crashing the caller. fts_read_dat runs it unless opts->probed.
 * A program that is not linked with this library (an interpreter loading it
 * later) cannot answer: the probe then passes.
 *
 * Returns 0 or a negative errno.
 */
int fts_read_dat_probe(const char *path, struct fts_err *err);

/**
 * fts_read_any - detect a trace's format and run the matching reader
 * @path: trace.dat or text
 * @opts: as for fts_read_text
 * @st: counters, reset first
 * @err: filled on error
 *
 * Returns what the reader returns.
 */
int fts_read_any(const char *path, const struct fts_read_opts *opts,
		 struct fts_read_stats *st, struct fts_err *err);

#ifdef __cplusplus
}
#endif

#endif
