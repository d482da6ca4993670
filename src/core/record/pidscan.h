/* SPDX-License-Identifier: MIT */
/*
 * pidscan.h - collect host pid -> container pid (NSpid) for every thread in
 * /proc and write pid_mapping.json in the reference shape:
 *   {"<host pid>": {"NSpid": "<innermost>", "name": "...", "Tgid": "...", "PPid": "..."}}
 * A table keeps every pid ever seen across scans (a later scan updates it),
 * so short-lived and late-started threads stay mapped.
 */
#ifndef FTS_PIDSCAN_H
#define FTS_PIDSCAN_H

#include <stddef.h>

#include "ftscope/error.h"
#include "ftscope/output.h"

struct fts_pidscan;

/* fts_pidscan_new - an empty table, or NULL when out of memory. */
struct fts_pidscan *fts_pidscan_new(void);

/* fts_pidscan_free - free @t (NULL is fine). */
void fts_pidscan_free(struct fts_pidscan *t);

/* fts_pidscan_scan - add/update every thread under @proc ("/proc"); returns the number seen or a negative errno. */
int fts_pidscan_scan(struct fts_pidscan *t, const char *proc, struct fts_err *err);

/* fts_pidscan_count - number of pids in @t. */
size_t fts_pidscan_count(const struct fts_pidscan *t);

/*
 * fts_pidscan_write_json - write @t to @path atomically (temp + rename, no
 * symlinks), given to @owner (NULL: kept).
 */
int fts_pidscan_write_json(const struct fts_pidscan *t, const char *path,
			   const struct fts_owner *owner, struct fts_err *err);

/*
 * fts_pidscan_cmdlines - "pid comm\n" lines for every pid in @t, as
 * saved_cmdlines has them; malloc'd string in *@out (caller frees).
 */
int fts_pidscan_cmdlines(const struct fts_pidscan *t, char **out);

#endif
