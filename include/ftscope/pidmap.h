/*
 * pidmap.h - host pid -> container pid, loaded from pid_mapping.json.
 *
 * The file is the reference recorder's shape:
 *   {"<host pid>": {"NSpid": "<ns pid>", "name": "...", "Tgid": "...", "PPid": "..."}, ...}
 * Entries that are {} or have an empty/non-numeric NSpid keep the host pid
 * (host processes, and processes that exited during the scan). Thread entries
 * (ftscope's recorder writes every /proc/<pid>/task/<tid>) map threads.
 */
#ifndef FTS_PIDMAP_H
#define FTS_PIDMAP_H

#include <stdint.h>

#include "error.h"

struct fts_pidmap;

/*
 * fts_pidmap_load - parse @path. Returns 0 and a map in @out, or a negative
 * code with @err filled (missing file, not JSON, wrong shape).
 */
int fts_pidmap_load(const char *path, struct fts_pidmap **out, struct fts_err *err);

/* fts_pidmap_lookup - the container pid of host pid @pid, or @pid when unmapped. */
int32_t fts_pidmap_lookup(const struct fts_pidmap *m, int32_t pid);

/* fts_pidmap_size - entries that map to a different pid; fts_pidmap_entries - all entries. */
uint32_t fts_pidmap_size(const struct fts_pidmap *m);
uint32_t fts_pidmap_entries(const struct fts_pidmap *m);

/* fts_pidmap_free - release @m (NULL is fine). */
void fts_pidmap_free(struct fts_pidmap *m);

#endif
