// SPDX-License-Identifier: MIT
#include "core/util/tempfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int fts_rec_tempfile(const char *near)
{
	const char *slash = strrchr(near, '/');
	char dir[PATH_MAX], tmp[PATH_MAX + 32];
	int fd;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == near)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - near), near);
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	snprintf(tmp, sizeof(tmp), "%s/.ftscope-stream.XXXXXX", dir);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	unlink(tmp);
	return fd;
}

int fts_rec_tempfile_at(int dfd)
{
	char name[64];
	struct timespec ts;
	int fd = openat(dfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd >= 0)
		return fd;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	for (int tries = 0; tries < 16; tries++) {
		snprintf(name, sizeof(name), ".ftscope-stream.%d.%lx", (int)getpid(),
			 (unsigned long)(ts.tv_nsec + tries * 7919));
		fd = openat(dfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0) {
			unlinkat(dfd, name, 0);
			return fd;
		}
		if (errno != EEXIST)
			break;
	}
	return -errno;
}
