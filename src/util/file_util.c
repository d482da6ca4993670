#include "util/file_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int fts_read_small_file(const char *path, size_t max, char **out, size_t *len, struct fts_err *err)
{
	struct stat sb;
	size_t got = 0;
	char *buf;
	int fd;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fts_err_set(err, -errno, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		return fts_err_set(err, -EINVAL, "%s: not a regular file", path);
	}
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

int fts_read_head(const char *path, void *buf, size_t len, size_t *got, uint64_t *size,
		  struct fts_err *err)
{
	struct stat sb;
	ssize_t n;
	int fd, e;

	*got = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		return fts_err_set(err, -e, "%s: cannot open: %s; check the path and permissions",
				   path, strerror(e));
	}
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return fts_err_set(err, -EINVAL, "%s: not a regular file; give a trace file", path);
	}
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
