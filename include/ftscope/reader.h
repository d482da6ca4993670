/* SPDX-License-Identifier: MIT */
/*
 * reader.h - trace input readers. The format is decided from the file's first
 * bytes, never its name; every reader produces struct fts_event in time order.
 */
#ifndef FTS_READER_H
#define FTS_READER_H

#include "error.h"
#include "event.h"
#include "loss.h"
#include "export.h"

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
	/*
	 * The program fts_read_dat_probe runs to open a trace.dat's headers
	 * (see there); NULL: none, the headers are parsed in this process after
	 * the page checks only.
	 */
	const char *probe_helper;
	/*
	 * Non-zero: emit each event with its type, time, cpu and task only, its
	 * fields not parsed (zeros): for a scan that wants the clock samples and
	 * a count (both readers honour it).
	 */
	int headers_only;
};

/* fts_read_dat_probe's answer when no helper was given. */
#define FTS_PROBE_UNISOLATED 1
/* The first argument fts_read_dat_probe gives its helper: "HELPER __probe-dat FILE". */
#define FTS_PROBE_HELPER_ARG "__probe-dat"

/**
 * fts_input_detect - open a file and classify it by content, never by name
 * @path: the file
 * @fmt: set to its format
 * @err: filled when it is missing, unreadable, not regular, empty or not a trace
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_input_detect(const char *path, enum fts_input_format *fmt, struct fts_err *err);

/**
 * fts_input_format_name - a format's name for messages
 * @fmt: the format
 *
 * Returns "trace.dat", "text" or "unknown".
 */
FTS_API const char *fts_input_format_name(enum fts_input_format fmt);

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
FTS_API int fts_read_text(const char *path, const struct fts_read_opts *opts,
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
 * the trace library (in @opts->probe_helper; without one the headers are
 * parsed here), and time going backwards on a CPU are errors.
 *
 * Returns 0, the emitter's non-zero value, or a negative errno.
 */
FTS_API int fts_read_dat(const char *path, const struct fts_read_opts *opts,
		 struct fts_read_stats *st, struct fts_err *err);

/**
 * fts_read_dat_probe - check that the trace library can open a trace.dat
 * @path: the file
 * @helper: the program that opens it, or NULL
 * @err: filled when it cannot
 *
 * First checks, in this process, every data page the trace library loads
 * when it opens @path. Then runs @helper as "HELPER __probe-dat /dev/fd/4"
 * (no fork of the caller, so it is safe with threads running; an almost
 * empty environment; @path, opened once here without blocking, on fd 4, so
 * the helper never opens the name again; the answer pipe on fd 3), which calls
 * fts_read_dat_probe_answer: a corrupt header that crashes or hangs the
 * trace library takes the helper down, not the caller. A helper that cannot
 * be started, or ends without answering, is an error: the file is then not
 * opened. ftscope's own helper is the ftscope binary. fts_read_dat runs this
 * unless opts->probed.
 *
 * Returns 0, FTS_PROBE_UNISOLATED when @helper is NULL (only the page checks
 * ran: the headers will be parsed in this process), or a negative errno.
 */
FTS_API int fts_read_dat_probe(const char *path, const char *helper, struct fts_err *err);

/*
 * The comment line a text trace carries for a CPU's kernel loss count
 * ("# ftscope kernel_lost cpu=0 events=1719"): ftscope's text recordings
 * write one per CPU, and the text reader hands it on as fts_read_dat does
 * the trace.dat's CPUSTAT (struct fts_ev_lost.kernel).
 */
#define FTS_TEXT_KERNEL_LOST "# ftscope kernel_lost"

/**
 * fts_read_dat_loss - the kernel's per-CPU loss counters a trace.dat stores
 * @path: the trace.dat (CPUSTAT options, as trace-cmd report --stat prints)
 * @out: the counters are set into it (fts_loss_set_kernel, overrun holding the sum)
 *
 * Returns 0, or -1 when the file holds none that can be read.
 */
FTS_API int fts_read_dat_loss(const char *path, struct fts_loss *out);

/**
 * fts_read_dat_probe_answer - the helper's half of fts_read_dat_probe
 * @path: the file named on the helper's command line ("/dev/fd/4": the
 *        descriptor 4 the caller handed over, read without opening anything)
 *
 * Opens @path and each of its buffer instances with libtracecmd in this
 * process, then writes the answer on fd 3. Only a helper program calls it
 * (ftscope's hidden "__probe-dat" subcommand), after limiting its own CPU
 * time; it prints nothing.
 *
 * Returns the helper's exit status: 0 when the file opened, 1 otherwise.
 */
FTS_API int fts_read_dat_probe_answer(const char *path);

/**
 * fts_read_dat_probe_answer_scan - fts_read_dat_probe_answer, as asked by the
 * helper's third argument
 * @path: as for fts_read_dat_probe_answer
 * @mode: NULL (the plain answer), "clock" or "clock-stop": the helper opens
 *        the file by reading its first events for the capture's clock
 *        samples and writes them after the answer byte, so the caller need
 *        not parse the headers once more for that scan
 *
 * Returns the helper's exit status, as fts_read_dat_probe_answer.
 */
FTS_API int fts_read_dat_probe_answer_scan(const char *path, const char *mode);

/**
 * fts_read_any - detect a trace's format and run the matching reader
 * @path: trace.dat or text
 * @opts: as for fts_read_text
 * @st: counters, reset first
 * @err: filled on error
 *
 * Returns what the reader returns.
 */
FTS_API int fts_read_any(const char *path, const struct fts_read_opts *opts,
		 struct fts_read_stats *st, struct fts_err *err);

#ifdef __cplusplus
}
#endif

#endif
