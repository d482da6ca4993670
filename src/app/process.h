/* SPDX-License-Identifier: MIT */
/*
 * process.h - what the front end decides for the process and the library
 * only applies: the trace.dat probe's helper (this binary), the outputs'
 * owner under sudo. Shared by the CLI and the TUI.
 */
#ifndef FTS_FRONT_PROCESS_H
#define FTS_FRONT_PROCESS_H

#include <ftscope/ftscope.h>

/* This binary: the probe helper (see fts_front_probe_helper). */
#define FTS_FRONT_PROBE_HELPER "/proc/self/exe"

/* The hidden subcommand the probe helper runs as (see fts_read_dat_probe). */
#define FTS_FRONT_PROBE_CMD FTS_PROBE_HELPER_ARG

/**
 * fts_front_probe_helper - the trace.dat probe's helper for the library's options
 *
 * This very binary, which answers FTS_FRONT_PROBE_CMD.
 *
 * Returns "/proc/self/exe".
 */
const char *fts_front_probe_helper(void);

/**
 * fts_front_probe_main - the helper: "ftscope __probe-dat FILE"
 * @argc: arguments after the subcommand name included (argv[0] is it)
 * @argv: FTS_FRONT_PROBE_CMD, then the file
 *
 * Limits its own CPU time (a trace library looping on a corrupt header is
 * killed by SIGXCPU), opens the file with fts_read_dat_probe_answer, prints
 * nothing.
 *
 * Returns 2 on a usage error; otherwise ends the process (_exit) with 0
 * when the file opened, 1 when not.
 */
int fts_front_probe_main(int argc, char **argv);

/**
 * fts_front_output_owner - who gets the outputs: the user who ran sudo
 * @o: filled; all zero (keep root's) unless running as root under sudo
 *
 * MindStudio Insight refuses files owned by someone else (contract 1.5) and
 * must be able to write the DB, so root's outputs go to SUDO_UID/SUDO_GID
 * when both are whole numbers and the user is not root.
 *
 * Returns nothing.
 */
void fts_front_output_owner(struct fts_owner *o);

#endif
