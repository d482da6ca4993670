// SPDX-License-Identifier: MIT
/*
 * sqlw_file.c - the database header and page I/O for the page writer.
 * Pages are allocated from one atomic counter, so the table trees on the
 * writer thread and the index trees built on two threads at finish never
 * share a page and leave no hole (every allocated page is written: a page
 * no tree uses would fail integrity_check), except the lock-byte page,
 * which SQLite itself leaves unwritten.
 */
#include "export/sink/sqlw_file.h"
#include "export/sink/sqlw_record.h"
#include "core/util/file_util.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int pread_all(int fd, void *buf, size_t n, off_t off)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = pread(fd, (char *)buf + done, n - done, off + (off_t)done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -EINVAL;   /* shorter than its header says */
		done += (size_t)r;
	}
	return 0;
}

int fts_sqlw_file_open(struct fts_sqlw_file *f, int fd)
{
	uint8_t h[100];
	struct stat st;
	uint32_t ps, n;
	int rc = pread_all(fd, h, sizeof(h), 0);

	if (rc)
		return rc;
	if (fstat(fd, &st))
		return -errno;
	ps = (uint32_t)h[16] << 8 | h[17];
	if (ps == 1)
		ps = 65536;
	/*
	 * What the record and page code assumes: serial types 8/9 (schema
	 * format 4), UTF-8 text, no pointer-map pages, usable size == page size.
	 */
	if (ps < 512 || (ps & (ps - 1)) || h[20] != 0 || get32(h + 44) != 4 || get32(h + 52) != 0 ||
	    get32(h + 56) != 1)
		return -EINVAL;
	n = get32(h + 28);
	/* the in-header size counts only when version-valid-for matches (as SQLite reads it) */
	if (get32(h + 24) != get32(h + 92) || n == 0)
		n = (uint32_t)(st.st_size / ps);
	if ((off_t)n * ps != st.st_size)
		return -EINVAL;
	f->fd = fd;
	f->page_size = ps;
	atomic_init(&f->npages, n);
	atomic_init(&f->err, 0);
	atomic_init(&f->wb_from, 0);
	f->lock_page = FTS_SQLW_LOCK_BYTE / ps + 1;
	return 0;
}

uint32_t fts_sqlw_file_alloc(struct fts_sqlw_file *f, uint32_t n)
{
	uint32_t cur = atomic_load(&f->npages), add;

	/* a run that would cover the lock-byte page takes one more page and steps over it */
	do
		add = n + (cur < f->lock_page && cur + n >= f->lock_page);
	while (!atomic_compare_exchange_weak(&f->npages, &cur, cur + add));
	return cur + 1 == f->lock_page ? cur + 2 : cur + 1;
}

int fts_sqlw_file_write(struct fts_sqlw_file *f, uint32_t pgno, const uint8_t *page)
{
	int rc = fts_pwrite_all(f->fd, page, f->page_size, (off_t)(pgno - 1) * f->page_size);

	/* pages are mostly appended: the allocated ones are about written */
	if (!rc)
		fts_writeback_start(f->fd, &f->wb_from, (uint64_t)atomic_load(&f->npages) * f->page_size);
	if (rc) {
		int none = 0;

		atomic_compare_exchange_strong(&f->err, &none, rc);
	}
	return rc;
}

int fts_sqlw_file_close(struct fts_sqlw_file *f)
{
	uint8_t h[100];
	uint32_t change;
	int rc = atomic_load(&f->err);

	if (rc || (rc = pread_all(f->fd, h, sizeof(h), 0)))
		return rc;
	change = get32(h + 24) + 1;
	fts_sqlw_put32(h + 24, change);
	fts_sqlw_put32(h + 28, atomic_load(&f->npages));
	fts_sqlw_put32(h + 92, change);
	return fts_pwrite_all(f->fd, h, sizeof(h), 0);
}
