/* SPDX-License-Identifier: MIT */
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
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

struct fts_pidmap;

/**
 * fts_pidmap_load - read a pid mapping file (pid_mapping.json)
 * @path: a regular file
 * @out: the map, freed with fts_pidmap_free
 * @err: filled when the file is missing, not JSON or of the wrong shape
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_pidmap_load(const char *path, struct fts_pidmap **out, struct fts_err *err);

/**
 * fts_pidmap_lookup - the container pid of a host pid
 * @m: the map; NULL maps nothing
 * @pid: the host pid
 *
 * Returns the container pid, or @pid when it is not mapped.
 */
FTS_API int32_t fts_pidmap_lookup(const struct fts_pidmap *m, int32_t pid);

/**
 * fts_pidmap_size - how many entries map to a different pid
 * @m: the map
 *
 * Returns the count.
 */
FTS_API uint32_t fts_pidmap_size(const struct fts_pidmap *m);

/**
 * fts_pidmap_entries - how many entries the file held
 * @m: the map
 *
 * Returns the count.
 */
FTS_API uint32_t fts_pidmap_entries(const struct fts_pidmap *m);

/**
 * fts_pidmap_free - release a map
 * @m: the map; NULL is fine
 */
FTS_API void fts_pidmap_free(struct fts_pidmap *m);

#ifdef __cplusplus
}
#endif

#endif
