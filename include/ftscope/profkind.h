/* SPDX-License-Identifier: MIT */
/*
 * profkind.h - which export type an Ascend profiling directory holds (text,
 * DB or both), and so which ftrace output format MindStudio Insight can
 * import next to it.
 */
#ifndef FTS_PROFKIND_H
#define FTS_PROFKIND_H

#include "error.h"
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FTS_PROF_TEXT 1u   /* ASCEND_PROFILER_OUTPUT/trace_view.json, CSVs */
#define FTS_PROF_DB 2u     /* ascend_pytorch_profiler_<rank>.db, analysis.db */

struct fts_profiling_kind {
	int cards;          /* *_ascend_pt directories found (profiler_info or ASCEND_PROFILER_OUTPUT) */
	int text_only;      /* cards holding text output and no DB */
	int db;             /* cards holding DB output (alone or with text) */
	int unknown;        /* cards whose type could not be told */
	unsigned kind;      /* FTS_PROF_TEXT | FTS_PROF_DB over all cards; 0 unknown */
	char how[160];      /* how the first typed card was told: "profiler_info_0.json _export_type" ... */
};

/**
 * fts_profiling_kind - the export type of every card below @dir
 * @dir: the profiling directory (a *_ascend_pt directory or its parent);
 *       searched 4 levels down, symlinks not followed
 * @k: filled. A card's type is its profiler_info_<rank>.json's
 *     config.experimental_config._export_type ("text", "db" or a list of
 *     them), else its files (trace_view.json: text; ascend_pytorch_profiler_*.db
 *     or analysis.db: DB)
 * @err: filled when @dir cannot be opened
 *
 * Returns 0 (no card found is not an error: k->cards is 0) or a negative errno.
 */
FTS_API int fts_profiling_kind(const char *dir, struct fts_profiling_kind *k, struct fts_err *err);

/**
 * fts_profiling_format - the ftrace output format that joins this profiling in Insight
 * @k: from fts_profiling_kind
 * @why: set to one line saying why (static)
 *
 * Text-only profiling: JSON (older Insight refuses an ftrace DB next to it,
 * "File Conflict"); DB or both: DB; unknown: DB, the default.
 *
 * Returns 1 for JSON, 0 for DB.
 */
FTS_API int fts_profiling_format(const struct fts_profiling_kind *k, const char **why);

#ifdef __cplusplus
}
#endif

#endif
