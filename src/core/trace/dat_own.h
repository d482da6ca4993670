/* SPDX-License-Identifier: MIT */
/*
 * dat_own.h - the static build's trace.dat reader (FTS_NO_TRACECMD): the few
 * libtracecmd calls the library makes, answered by our own code (private to
 * core; docs/static.md).
 *
 * Debian ships no libtracecmd.a, so a fully static ftscope cannot link it.
 * The library already checks and walks trace.dat pages itself (dat_pages.c)
 * and decodes records with libtraceevent (dat_decode.c); what libtracecmd
 * still did was parse the headers into a tep handle and hand out the
 * records of each CPU. dat_own.c does that for version 6 files (ftscope's
 * own) and version 7 files (trace-cmd's: the header sections, possibly
 * zstd-compressed, through dat_layout.c; compressed CPU data is read by
 * dat_zread.c as in the dynamic build), and its names stand in for
 * libtracecmd's through the macros below, so the callers read the same in
 * both builds. Latency traces, big-endian v7 files, codecs other than zstd
 * and time offsets or conversions are refused by name (fts_tc_refusal).
 */
#ifndef FTS_DAT_OWN_H
#define FTS_DAT_OWN_H

#include <traceevent/event-parse.h>

#define TRACECMD_FL_LOAD_NO_PLUGINS 1
#define TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS 2

#define tracecmd_input fts_tc_input
#define tracecmd_open_fd fts_tc_open_fd
#define tracecmd_open fts_tc_open
#define tracecmd_close fts_tc_close
#define tracecmd_get_tep fts_tc_get_tep
#define tracecmd_buffer_instances fts_tc_buffer_instances
#define tracecmd_buffer_instance_handle fts_tc_buffer_instance_handle
#define tracecmd_buffer_instance_name fts_tc_buffer_instance_name
#define tracecmd_read_cpu_first fts_tc_read_cpu_first
#define tracecmd_read_data fts_tc_read_data
#define tracecmd_free_record fts_tc_free_record
#define tracecmd_iterate_events fts_tc_iterate_events

struct fts_tc_input;

/*
 * fts_tc_open_fd - parse the version 6 or 7 trace.dat on @fd (which it owns from
 * then on, closed by fts_tc_close or on failure) into a handle. @flags is
 * ignored (no plugins are ever loaded). NULL when the file cannot be read
 * here: fts_tc_refusal says why when it is a format this reader leaves out.
 */
struct fts_tc_input *fts_tc_open_fd(int fd, int flags);

/* fts_tc_open - fts_tc_open_fd on @path opened read-only. */
struct fts_tc_input *fts_tc_open(const char *path, int flags);

/*
 * fts_tc_refusal - NULL when @fd (not moved) holds a trace.dat this reader
 * can read (or one too corrupt to tell), else a static phrase naming what it
 * leaves out ("a latency trace", ...) for the caller's error. It walks the
 * layout and options only: no format is parsed (that is the probe's helper's
 * job, where a crash of libtraceevent's parser is contained).
 */
const char *fts_tc_refusal(int fd);

/* fts_tc_close - free @h (an instance handle, or the top one with its tep and descriptor). */
void fts_tc_close(struct fts_tc_input *h);

/* fts_tc_get_tep - the tep handle the formats were parsed into (shared by the instances). */
struct tep_handle *fts_tc_get_tep(struct fts_tc_input *h);

/* fts_tc_buffer_instances - the named buffer instances of the top handle @h. */
int fts_tc_buffer_instances(struct fts_tc_input *h);

/* fts_tc_buffer_instance_handle - a handle on instance @i (NULL when its table is cut). */
struct fts_tc_input *fts_tc_buffer_instance_handle(struct fts_tc_input *h, int i);

/* fts_tc_buffer_instance_name - the name of instance @i, or NULL. */
const char *fts_tc_buffer_instance_name(struct fts_tc_input *h, int i);

/*
 * fts_tc_read_cpu_first - rewind CPU @cpu of @h and return its first record;
 * fts_tc_read_data the next one. The record is @h's, valid until the next
 * read of that CPU; NULL at the end (or at a page that does not walk: the
 * reader checks every page before it reads, see read_dat.c).
 */
struct tep_record *fts_tc_read_cpu_first(struct fts_tc_input *h, int cpu);
struct tep_record *fts_tc_read_data(struct fts_tc_input *h, int cpu);

/*
 * fts_tc_compressed - 1 when @h's data is compressed (v7): its records come
 * from dat_zread.c, and fts_tc_read_* return none.
 */
int fts_tc_compressed(const struct fts_tc_input *h);

/* fts_tc_free_record - nothing to free: records belong to their handle. */
void fts_tc_free_record(struct tep_record *r);

/*
 * fts_tc_iterate_events - every record of the top buffer in time order
 * (ties: lower CPU) to @cb until it returns non-zero. @cpus must be NULL.
 */
int fts_tc_iterate_events(struct fts_tc_input *h, void *cpus, int cpu_size,
			  int (*cb)(struct fts_tc_input *h, struct tep_record *r, int cpu, void *data),
			  void *data);

#endif
