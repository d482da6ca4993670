/* SPDX-License-Identifier: MIT */
/*
 * tracedat_write.h - assemble a trace-cmd v6 trace.dat from per-CPU raw
 * ring-buffer pages (see `man 5 trace-cmd.dat.v6`).
 *
 * The header (page/event headers, the format files of the recorded events and
 * of ftrace's own events, printk formats, saved cmdlines, the clock option and
 * per-CPU stats) is built in memory; the CPU data is then copied page aligned
 * from the per-CPU stream files. Copying may punch holes in the sources as it
 * goes, so assembling needs little more free disk than the header.
 */
#ifndef FTS_TRACEDAT_WRITE_H
#define FTS_TRACEDAT_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "ftscope/error.h"

struct fts_dat_cpu {
	int fd;          /* raw pages of this CPU, or -1 when not recorded */
	uint64_t size;   /* bytes of whole pages to take from offset 0 */
	const char *stats; /* per_cpu/cpuN/stats text for the CPUSTAT option, or NULL */
};

struct fts_dat_meta {
	const char *tracing_dir;   /* the tracefs mount (libtracefs reads header_page, formats, printk_formats there); for messages */
	const char *const *events; /* "system/event" of every recorded event, NULL-terminated */
	const char *cmdlines;      /* "pid comm\n" lines (saved_cmdlines and more) */
	const char *clock;         /* the trace_clock file text, e.g. "... [mono_raw] ..." */
	int page_size;             /* ring-buffer sub-buffer size */
	int punch;                 /* 1: free the copied ranges of the sources as we go */
	/*
	 * Called after every copied chunk with the bytes copied so far and in
	 * all (may be NULL); non-zero cuts the copy short: the file then holds
	 * the pages copied until then and is still valid.
	 */
	int (*step)(void *arg, uint64_t done, uint64_t total);
	void *step_arg;
	int cut;                   /* set to 1 when @step cut the copy */
};

/*
 * fts_tracedat_write - write the whole file to @out (positioned at 0) from
 * @cpus[0..@ncpus) (index = CPU number). Returns 0 or a negative errno with
 * a message; on error @out holds garbage the caller removes.
 */
int fts_tracedat_write(int out, struct fts_dat_meta *m, const struct fts_dat_cpu *cpus,
		       int ncpus, struct fts_err *err);

#endif
