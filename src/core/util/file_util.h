/* SPDX-License-Identifier: MIT */
/* file_util.h - small file helpers shared by the loaders. */
#ifndef FTS_FILE_UTIL_H
#define FTS_FILE_UTIL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "ftscope/error.h"

#define FTS_OPEN_NOFOLLOW 1   /* refuse a symlink as the last component */

/*
 * fts_open_regular - open @path read-only without blocking (a FIFO or device
 * would hang a plain open or read) and refuse anything that is not a regular
 * file (and, with FTS_OPEN_NOFOLLOW in @flags, a symlink). Fills @sb.
 * Returns the descriptor (blocking mode restored), or a negative code with
 * @err filled naming what the path is.
 */
int fts_open_regular(const char *path, int flags, struct stat *sb, struct fts_err *err);

/*
 * fts_open_regular_at - fts_open_regular of @name relative to directory
 * descriptor @dirfd (AT_FDCWD: the working directory), so a file in a tree
 * deeper than PATH_MAX can be read; @path names it in messages only.
 */
int fts_open_regular_at(int dirfd, const char *name, const char *path, int flags, struct stat *sb,
			struct fts_err *err);

/*
 * fts_read_small_file_flags - fts_read_small_file with fts_open_regular's
 * @flags.
 */
int fts_read_small_file_flags(const char *path, size_t max, int flags, char **out, size_t *len,
			      struct fts_err *err);

/*
 * fts_read_small_file_at - fts_read_small_file_flags of @name relative to
 * @dirfd, as fts_open_regular_at; @path names it in messages only.
 */
int fts_read_small_file_at(int dirfd, const char *name, const char *path, size_t max, int flags,
			   char **out, size_t *len, struct fts_err *err);

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

/**
 * fts_write_all - write all of a buffer, retrying short writes and EINTR
 * @fd: the descriptor
 * @p: the bytes
 * @n: how many
 *
 * Returns 0, or a negative errno (-EIO when the file stops taking bytes).
 */
int fts_write_all(int fd, const void *p, size_t n);

/**
 * fts_pwrite_all - fts_write_all at an offset, leaving the file position alone
 * @fd: the descriptor
 * @p: the bytes
 * @n: how many
 * @at: the file offset of the first byte
 *
 * Returns 0, or a negative errno.
 */
int fts_pwrite_all(int fd, const void *p, size_t n, off_t at);

/*
 * fts_writeback_start - start the writeback of @fd's bytes [*@from, @end)
 * once they are FTS_WRITEBACK_STEP or more, and move *@from to @end (one
 * caller wins when threads race). So the fsync that ends an output waits
 * for its tail only: it was 0.4-0.6 s of a 3.4 s, 810 MB JSON conversion
 * and of a 770 MB DB's. A hint: durability is still the fsync's.
 */
#define FTS_WRITEBACK_STEP (8u << 20)
void fts_writeback_start(int fd, _Atomic uint64_t *from, uint64_t end);

#endif
