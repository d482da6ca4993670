// SPDX-License-Identifier: MIT
/*
 * db_vfs.c - "fts-ro", the SQLite VFS a DB input is read through.
 *
 * SQLite's own VFS opens by name, blocking: a FIFO swapped in at the input's
 * name after detection hangs that open, and a read-only connection still
 * creates (and rewrites) -wal and -shm beside a WAL-mode input. This VFS
 * reads the main file from the descriptor the caller already opened without
 * blocking and checked (its number travels in the URI parameter "fts_fd"),
 * and can never write: it opens nothing but an existing -journal or -wal
 * (non-blocking, no symlink, regular files only), creates nothing, deletes
 * nothing, and every write or truncate fails. There is no shared memory, so
 * a WAL is read in exclusive locking mode through SQLite's heap wal-index.
 *
 * Locks are SQLite's POSIX protocol for a reader (a read lock on the shared
 * range, taken through the pending byte), so a writer of a rollback-mode DB
 * shows as "locked" instead of being read mid-write; higher levels are
 * granted without taking anything, as nothing here can write.
 */
#include "core/readback/db_vfs.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* SQLite's lock bytes (os.h), at the default pending byte. */
#define PENDING_BYTE 0x40000000
#define RESERVED_BYTE (PENDING_BYTE + 1)
#define SHARED_FIRST (PENDING_BYTE + 2)
#define SHARED_SIZE 510

struct ro_file {
	sqlite3_file base;
	int fd;
	int level;      /* the SQLite lock level we told it it has */
	int posix;      /* holds the read lock on the shared range */
};

static int set_lock(int fd, short type, off_t start, off_t len)
{
	struct flock l = { .l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len };

	return fcntl(fd, F_SETLK, &l);
}

static int ro_close(sqlite3_file *f)
{
	struct ro_file *r = (struct ro_file *)f;

	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	return SQLITE_OK;
}

static int ro_read(sqlite3_file *f, void *buf, int amt, sqlite3_int64 off)
{
	struct ro_file *r = (struct ro_file *)f;
	size_t got = 0;

	while (got < (size_t)amt) {
		ssize_t n = pread(r->fd, (char *)buf + got, (size_t)amt - got, (off_t)off + (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return SQLITE_IOERR_READ;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got == (size_t)amt)
		return SQLITE_OK;
	memset((char *)buf + got, 0, (size_t)amt - got); /* SQLite's contract for a short read */
	return SQLITE_IOERR_SHORT_READ;
}

static int ro_write(sqlite3_file *f, const void *buf, int amt, sqlite3_int64 off)
{
	(void)f, (void)buf, (void)amt, (void)off;
	return SQLITE_READONLY;
}

static int ro_truncate(sqlite3_file *f, sqlite3_int64 size)
{
	(void)f, (void)size;
	return SQLITE_READONLY;
}

static int ro_sync(sqlite3_file *f, int flags)
{
	(void)f, (void)flags;
	return SQLITE_OK;
}

static int ro_size(sqlite3_file *f, sqlite3_int64 *size)
{
	struct ro_file *r = (struct ro_file *)f;
	struct stat sb;

	if (fstat(r->fd, &sb))
		return SQLITE_IOERR_FSTAT;
	*size = (sqlite3_int64)sb.st_size;
	return SQLITE_OK;
}

/* A reader's SHARED lock, as SQLite's unix VFS takes it (through the pending byte). */
static int ro_lock(sqlite3_file *f, int level)
{
	struct ro_file *r = (struct ro_file *)f;
	int rc = SQLITE_OK;

	if (level >= SQLITE_LOCK_SHARED && !r->posix) {
		if (set_lock(r->fd, F_RDLCK, PENDING_BYTE, 1))
			return SQLITE_BUSY;
		if (set_lock(r->fd, F_RDLCK, SHARED_FIRST, SHARED_SIZE))
			rc = SQLITE_BUSY;
		else
			r->posix = 1;
		(void)set_lock(r->fd, F_UNLCK, PENDING_BYTE, 1);
	}
	if (rc == SQLITE_OK && level > r->level)
		r->level = level;
	return rc;
}

static int ro_unlock(sqlite3_file *f, int level)
{
	struct ro_file *r = (struct ro_file *)f;

	if (level == SQLITE_LOCK_NONE && r->posix) {
		(void)set_lock(r->fd, F_UNLCK, SHARED_FIRST, SHARED_SIZE);
		r->posix = 0;
	}
	if (level < r->level)
		r->level = level;
	return SQLITE_OK;
}

/* Whether another process holds RESERVED: a -journal is then live, not hot. */
static int ro_reserved(sqlite3_file *f, int *out)
{
	struct ro_file *r = (struct ro_file *)f;
	struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = RESERVED_BYTE,
			   .l_len = 1 };

	*out = fcntl(r->fd, F_GETLK, &l) == 0 && l.l_type != F_UNLCK;
	return SQLITE_OK;
}

static int ro_control(sqlite3_file *f, int op, void *arg)
{
	(void)f, (void)op, (void)arg;
	return SQLITE_NOTFOUND;
}

static int ro_sector(sqlite3_file *f)
{
	(void)f;
	return 512;
}

static int ro_caps(sqlite3_file *f)
{
	(void)f;
	return 0;
}

static const sqlite3_io_methods ro_methods = {
	.iVersion = 1,
	.xClose = ro_close,
	.xRead = ro_read,
	.xWrite = ro_write,
	.xTruncate = ro_truncate,
	.xSync = ro_sync,
	.xFileSize = ro_size,
	.xLock = ro_lock,
	.xUnlock = ro_unlock,
	.xCheckReservedLock = ro_reserved,
	.xFileControl = ro_control,
	.xSectorSize = ro_sector,
	.xDeviceCharacteristics = ro_caps,
};

/* An existing side file (-journal, -wal): never blocking, never a symlink or a FIFO. */
static int open_side(const char *name)
{
	struct stat sb;
	int fd = open(name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY);

	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int vfs_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *f, int flags,
		    int *out_flags)
{
	struct ro_file *r = (struct ro_file *)f;
	int fd = -1;

	(void)vfs;
	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (!name)
		return SQLITE_CANTOPEN; /* a temp file: temp_store is MEMORY, so never */
	if (flags & SQLITE_OPEN_MAIN_DB) {
		sqlite3_int64 given = sqlite3_uri_int64(name, "fts_fd", -1);

		fd = given >= 0 && given <= 0x7fffffff ? fcntl((int)given, F_DUPFD_CLOEXEC, 0) : -1;
	} else if (flags & (SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_WAL)) {
		fd = open_side(name);
	}
	if (fd < 0)
		return SQLITE_CANTOPEN;
	r->fd = fd;
	r->base.pMethods = &ro_methods;
	if (out_flags)
		*out_flags = (flags & ~(SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)) | SQLITE_OPEN_READONLY;
	return SQLITE_OK;
}

static int vfs_delete(sqlite3_vfs *vfs, const char *name, int sync)
{
	(void)vfs, (void)name, (void)sync;
	return SQLITE_IOERR_DELETE;
}

/* SQLite's rule: a side file "exists" when it is there and not empty. */
static int vfs_access(sqlite3_vfs *vfs, const char *name, int flags, int *out)
{
	struct stat sb;

	(void)vfs;
	*out = flags != SQLITE_ACCESS_READWRITE && lstat(name, &sb) == 0 && S_ISREG(sb.st_mode) &&
	       sb.st_size > 0;
	return SQLITE_OK;
}

static int vfs_fullpath(sqlite3_vfs *vfs, const char *name, int n, char *out)
{
	(void)vfs;
	if ((int)strlen(name) >= n)
		return SQLITE_CANTOPEN;
	strcpy(out, name); /* as given: no symlink resolved, so side files sit beside it */
	return SQLITE_OK;
}

static int vfs_random(sqlite3_vfs *vfs, int n, char *out)
{
	sqlite3_vfs *real = vfs->pAppData;

	return real->xRandomness(real, n, out);
}

static int vfs_sleep(sqlite3_vfs *vfs, int us)
{
	sqlite3_vfs *real = vfs->pAppData;

	return real->xSleep(real, us);
}

static int vfs_time(sqlite3_vfs *vfs, double *t)
{
	sqlite3_vfs *real = vfs->pAppData;

	return real->xCurrentTime(real, t);
}

static int vfs_lasterr(sqlite3_vfs *vfs, int n, char *out)
{
	(void)vfs;
	if (n > 0)
		out[0] = '\0';
	return errno;
}

/*
 * SQLite keeps registered VFSes in its own list, so the struct lives for the
 * process; it is filled and registered once and never changed after.
 */
static sqlite3_vfs ro_vfs = {
	.iVersion = 1,
	.szOsFile = sizeof(struct ro_file),
	.mxPathname = 4096,
	.zName = FTS_RB_VFS,
	.xOpen = vfs_open,
	.xDelete = vfs_delete,
	.xAccess = vfs_access,
	.xFullPathname = vfs_fullpath,
	.xRandomness = vfs_random,
	.xSleep = vfs_sleep,
	.xCurrentTime = vfs_time,
	.xGetLastError = vfs_lasterr,
};
static pthread_once_t ro_once = PTHREAD_ONCE_INIT;
static int ro_registered;

static void ro_register(void)
{
	ro_vfs.pAppData = sqlite3_vfs_find(NULL);
	if (ro_vfs.pAppData && sqlite3_vfs_register(&ro_vfs, 0) == SQLITE_OK)
		ro_registered = 1;
}

int fts_rb_vfs_register(void)
{
	pthread_once(&ro_once, ro_register);
	return ro_registered ? 0 : -ENOSYS;
}
