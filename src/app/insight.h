/* SPDX-License-Identifier: MIT */
/*
 * insight.h - what MindStudio Insight will refuse, checked before the user
 * copies a file to their workstation (insight-import-contract.md 1.1, 1.5).
 * Shared by the CLI's convert and the TUI's export: the checks live here, the
 * wording of the warning is each front end's.
 */
#ifndef FTS_FRONT_INSIGHT_H
#define FTS_FRONT_INSIGHT_H

#include <stddef.h>

/*
 * The name rule Insight's server applies to an ftrace DB, as messages state
 * it: "ftrace_data", then digits or nothing, then ".db" (ftrace_data_kill.db
 * and ftrace_data2_x.db are refused). Spelled out: the glob
 * "ftrace_data[0-9]*.db" reads as "a digit, then anything".
 */
#define FTS_INSIGHT_DB_RULE "ftrace_data.db or ftrace_data<digits>.db"

/* The characters Insight's path check refuses, for messages. */
#define FTS_INSIGHT_BAD_CHARS "\" ' % < > | & $ ; ` \\"

/**
 * fts_insight_db_name_ok - whether Insight imports @path as an ftrace DB
 * @path: the DB's path; only its base name matters
 *
 * Insight recognises an ftrace DB by name only: ^ftrace_data[0-9]*\.db$
 *
 * Returns 1 when the name matches, else 0.
 */
int fts_insight_db_name_ok(const char *path);

/**
 * fts_insight_path_ok - whether Insight's import accepts @path's characters
 * @path: the output path, relative to the working directory or absolute
 * @abs: filled with the absolute path that was checked (may be NULL)
 * @abssz: size of @abs
 *
 * Insight refuses paths holding control characters or any of
 * FTS_INSIGHT_BAD_CHARS, anywhere in the absolute path.
 *
 * Returns 1 when Insight accepts it, else 0.
 */
int fts_insight_path_ok(const char *path, char *abs, size_t abssz);

/**
 * fts_base_name - the part of @path after its last '/'
 * @path: a path
 *
 * Returns a pointer into @path.
 */
const char *fts_base_name(const char *path);

#endif
