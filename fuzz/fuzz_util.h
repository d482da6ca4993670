/* SPDX-License-Identifier: MIT */
/* fuzz_util.h - the readers take paths: put a fuzz input in a private temp file. */
#ifndef FTS_FUZZ_UTIL_H
#define FTS_FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline int fts_fuzz_write(const uint8_t *data, size_t size, char *path, size_t len)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	int fd;

	snprintf(path, len, "%s/fts-fuzz-XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	return 0;
}

#endif
