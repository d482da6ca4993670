/* file_util.h - small file helpers shared by the loaders. */
#ifndef FTS_FILE_UTIL_H
#define FTS_FILE_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "ftscope/error.h"

/*
 * fts_read_small_file - read all of regular file @path (at most @max bytes)
 * into a NUL-terminated malloc'd buffer. Returns 0, or a negative code with
 * @err filled (missing, not a regular file, too large, empty, read error).
 */
int fts_read_small_file(const char *path, size_t max, char **out, size_t *len, struct fts_err *err);

/*
 * fts_read_head - the first @len bytes of regular file @path into @buf (@got
 * set to how many there were) and its size into @size (may be NULL). Returns
 * 0, or a negative code with @err filled (missing, unreadable, not a file).
 */
int fts_read_head(const char *path, void *buf, size_t len, size_t *got, uint64_t *size,
		  struct fts_err *err);

#endif
