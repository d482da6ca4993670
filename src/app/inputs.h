/* SPDX-License-Identifier: MIT */
/*
 * inputs.h - which file to read when none is named, and which output format
 * and name follow from what was asked. Shared by the CLI and the TUI; the
 * words of any message are each front end's.
 */
#ifndef FTS_FRONT_INPUTS_H
#define FTS_FRONT_INPUTS_H

#include <stddef.h>

#include <ftscope/ftscope.h>

/* Why fts_default_input chose what it chose. */
enum fts_input_pick {
	FTS_PICK_DAT,        /* trace.dat (whether or not it exists: the reader will say) */
	FTS_PICK_TXT_ONLY,   /* no trace.dat, trace.txt exists */
	FTS_PICK_NEWER_DAT,  /* both exist, trace.dat is newer */
	FTS_PICK_NEWER_TXT,  /* both exist, trace.txt is newer */
};

/**
 * fts_default_input - the capture to read when the user named none
 * @why: filled with the reason, for a note to the user (may be NULL)
 *
 * trace.dat in the working directory; if it is missing, trace.txt; if both
 * exist, the newer (the reference silently converted a stale trace.dat).
 *
 * Returns "trace.dat" or "trace.txt".
 */
const char *fts_default_input(enum fts_input_pick *why);

/* The outcome of fts_output_choose. */
enum fts_output_check {
	FTS_OUT_OK,
	FTS_OUT_BAD_FORMAT,      /* the format asked for is neither "db" nor "json" */
	FTS_OUT_SUFFIX_MISMATCH, /* the output's suffix is not the format's (.db / .json) */
};

/**
 * fts_output_choose - the output format and path from what was asked
 * @format: "db", "json", or NULL (then from @output's suffix, else db)
 * @output: the output path, or NULL (then ftrace_data.db / ftrace_data.json)
 * @fmt: filled with the format
 * @path: filled with the output path (@output, or the default)
 *
 * Returns FTS_OUT_OK, or what is wrong (@fmt and @path are still filled when
 * only the suffix is wrong, for the message).
 */
enum fts_output_check fts_output_choose(const char *format, const char *output,
					enum fts_out_format *fmt, const char **path);

/**
 * fts_format_suffix - the suffix an output of @fmt must have
 * @fmt: the format
 *
 * Returns ".db" or ".json".
 */
const char *fts_format_suffix(enum fts_out_format fmt);

/**
 * fts_input_segments - which flight-recorder segments a directory input reads
 * @input: the input path
 * @buf: filled with "first .. last" segment names (or the one name)
 * @len: its room
 *
 * Returns how many segments @input holds when it is a directory of them
 * (read as one trace, in time order), else 0.
 */
int fts_input_segments(const char *input, char *buf, size_t len);

#endif
