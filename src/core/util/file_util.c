// SPDX-License-Identifier: MIT
#include "core/util/file_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a non-regular file is, for the message. */
static const char *kind_of(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISLNK(m))
		return "a symbolic link";
	return "not a regular file";
}

/*
 * Opening a FIFO for reading blocks until a writer comes, and a device may
 * never end: open without blocking, refuse anything but a regular file, and
 * only then read. With @flags & FTS_OPEN_NOFOLLOW a symlink is refused too.
 */
int fts_open_regular_at(int dirfd, const char *name, const char *path, int flags, struct stat *sb,
			struct fts_err *err)
{
	int fd, e;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY |
		  ((flags & FTS_OPEN_NOFOLLOW) ? O_NOFOLLOW : 0));
	if (fd < 0) {
		e = errno;
		if (e == ELOOP && (flags & FTS_OPEN_NOFOLLOW))
			return fts_err_set(err, -ELOOP, "%s: is a symbolic link; not followed", path);
		return fts_err_set(err, -e, "%s: cannot open: %s; check the path and permissions",
				   path, strerror(e));
	}
	if (fstat(fd, sb) < 0) {
		e = errno;
		close(fd);
		return fts_err_set(err, -e, "%s: cannot stat: %s", path, strerror(e));
	}
	if (!S_ISREG(sb->st_mode)) {
		e = S_ISDIR(sb->st_mode) ? EISDIR : EINVAL;
		close(fd);
		return fts_err_set(err, -e, "%s: is %s, not a regular file", path,
				   kind_of(sb->st_mode));
	}
	/* a regular file never blocks; clear the flag so reads behave as usual */
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int fts_open_regular(const char *path, int flags, struct stat *sb, struct fts_err *err)
{
	return fts_open_regular_at(AT_FDCWD, path, path, flags, sb, err);
}

int fts_read_small_file(const char *path, size_t max, char **out, size_t *len, struct fts_err *err)
{
	return fts_read_small_file_flags(path, max, 0, out, len, err);
}

int fts_read_small_file_at(int dirfd, const char *name, const char *path, size_t max, int flags,
			   char **out, size_t *len, struct fts_err *err)
{
	struct stat sb;
	size_t got = 0;
	char *buf;
	int fd;

	*out = NULL;
	fd = fts_open_regular_at(dirfd, name, path, flags, &sb, err);
	if (fd < 0)
		return fd;
	if ((size_t)sb.st_size > max) {
		close(fd);
		return fts_err_set(err, -EFBIG, "%s: too large (%lld bytes)", path, (long long)sb.st_size);
	}
	if (sb.st_size == 0) {
		close(fd);
		return fts_err_set(err, -EINVAL, "%s: file is empty", path);
	}
	buf = malloc((size_t)sb.st_size + 1);
	if (!buf) {
		close(fd);
		return fts_err_set(err, -ENOMEM, "%s: out of memory", path);
	}
	while (got < (size_t)sb.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)sb.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;

			free(buf);
			close(fd);
			return fts_err_set(err, -e, "%s: read failed: %s", path, strerror(e));
		}
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	*out = buf;
	*len = got;
	return 0;
}

int fts_read_small_file_flags(const char *path, size_t max, int flags, char **out, size_t *len,
			      struct fts_err *err)
{
	return fts_read_small_file_at(AT_FDCWD, path, path, max, flags, out, len, err);
}

int fts_read_head(const char *path, void *buf, size_t len, size_t *got, uint64_t *size,
		  struct fts_err *err)
{
	struct stat sb;
	ssize_t n;
	int fd, e;

	*got = 0;
	fd = fts_open_regular(path, 0, &sb, err);
	if (fd < 0)
		return fd;
	do
		n = pread(fd, buf, len, 0);
	while (n < 0 && errno == EINTR);
	e = errno;
	close(fd);
	if (n < 0)
		return fts_err_set(err, -e, "%s: cannot read: %s", path, strerror(e));
	*got = (size_t)n;
	if (size)
		*size = (uint64_t)sb.st_size;
	return 0;
}

/* at < 0: plain write(); else pwrite() at @at. */
static int write_loop(int fd, const char *p, size_t n, off_t at)
{
	while (n) {
		ssize_t w = at < 0 ? write(fd, p, n) : pwrite(fd, p, n, at);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		n -= (size_t)w;
		if (at >= 0)
			at += w;
	}
	return 0;
}

int fts_write_all(int fd, const void *p, size_t n)
{
	return write_loop(fd, p, n, -1);
}

int fts_pwrite_all(int fd, const void *p, size_t n, off_t at)
{
	return write_loop(fd, p, n, at);
}

void fts_writeback_start(int fd, _Atomic uint64_t *from, uint64_t end)
{
	uint64_t f = atomic_load(from);

	if (end < f + FTS_WRITEBACK_STEP || !atomic_compare_exchange_strong(from, &f, end))
		return;
	/* its errors are the fsync's to report */
	(void)sync_file_range(fd, (off_t)f, (off_t)(end - f), SYNC_FILE_RANGE_WRITE);
}
