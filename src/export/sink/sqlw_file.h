/* SPDX-License-Identifier: MIT */
/*
 * sqlw_file.h - pages appended to a SQLite database file that SQLite created
 * and closed (fileformat2.html, "The Database Header"). The page writer
 * (sqlw_btree.h) allocates pages here; several threads may allocate and
 * write at once. At close the header gets the new page count and a new
 * change counter, so SQLite reopening the file sees every page.
 */
#ifndef FTS_SQLW_FILE_H
#define FTS_SQLW_FILE_H

#include <stdatomic.h>
#include <stdint.h>

struct fts_sqlw_file {
	int fd;                   /* read/write, not owned */
	uint32_t page_size;       /* also the usable size: no reserved bytes */
	atomic_uint npages;       /* pages in the file, the last allocated included */
	atomic_int err;           /* the first failed write's negative errno, or 0 */
	uint32_t lock_page;       /* holds SQLite's lock bytes: never a tree's page */
	_Atomic uint64_t wb_from; /* writeback started below this offset (fts_writeback_start) */
};

/*
 * SQLite's lock bytes sit at this file offset (its PENDING_BYTE); the page
 * that holds them belongs to no tree ("The Lock-Byte Page"), and SQLite's
 * integrity_check rejects a file that uses it. Only files over 1 GiB reach it.
 */
#define FTS_SQLW_LOCK_BYTE 0x40000000u

/*
 * fts_sqlw_file_open - check the header of the database at @fd (a file
 * format we can extend: schema format 4, UTF-8, no auto-vacuum, no reserved
 * bytes, a valid page count) and start allocating after its last page.
 * Returns 0, -EINVAL for a file we cannot extend, or a negative errno.
 */
int fts_sqlw_file_open(struct fts_sqlw_file *f, int fd);

/*
 * fts_sqlw_file_alloc - the first of @n new pages (thread-safe); walk them
 * with fts_sqlw_file_next, which steps over the lock-byte page.
 */
uint32_t fts_sqlw_file_alloc(struct fts_sqlw_file *f, uint32_t n);

/* fts_sqlw_file_next - the page after @pg in a run from fts_sqlw_file_alloc. */
static inline uint32_t fts_sqlw_file_next(const struct fts_sqlw_file *f, uint32_t pg)
{
	return pg + 1 == f->lock_page ? pg + 2 : pg + 1;
}

/*
 * fts_sqlw_file_write - write page @pgno from @page (page_size bytes);
 * thread-safe. Returns 0 or the negative errno (also kept in f->err).
 */
int fts_sqlw_file_write(struct fts_sqlw_file *f, uint32_t pgno, const uint8_t *page);

/*
 * fts_sqlw_file_close - after every page is written: set the header's page
 * count and advance its change counter (with version-valid-for), leaving the
 * schema cookie as it is. Returns 0, or f->err / the header write's error.
 */
int fts_sqlw_file_close(struct fts_sqlw_file *f);

#endif
