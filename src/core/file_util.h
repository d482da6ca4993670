/* file_util.h - small file helpers shared by the loaders. */
#ifndef FTS_FILE_UTIL_H
#define FTS_FILE_UTIL_H

#include <stddef.h>

#include "core/error.h"

/*
 * fts_read_small_file - read all of regular file @path (at most @max bytes)
 * into a NUL-terminated malloc'd buffer. Returns 0, or a negative code with
 * @err filled (missing, not a regular file, too large, empty, read error).
 */
int fts_read_small_file(const char *path, size_t max, char **out, size_t *len, struct fts_err *err);

#endif
