/* SPDX-License-Identifier: MIT */
/*
 * dat_pages.h - ring-buffer pages of trace.dat files and trace_pipe_raw:
 * checked before libtracecmd reads them, or walked here into their records
 * (private to core; the live top uses the walk too).
 *
 * libtracecmd and kbuffer trust a page's commit (size) field and every
 * record's length: a corrupt one makes them read past the page, or loop
 * forever on a length that wraps. Every page is walked here first, in our
 * own bounded code, and a bad one is named by CPU and file offset.
 */
#ifndef FTS_DAT_PAGES_H
#define FTS_DAT_PAGES_H

#include "ftscope/error.h"
#include "core/trace/dat_layout.h"

#include <stdint.h>

/* How pages of one file are laid out (from its header). */
struct dat_page_fmt {
	int page_size;
	int commit_size;   /* 4 or 8: the page header's commit field */
	int big_endian;
};

/*
 * What a kernel's events/header_page says about its ring-buffer pages. The
 * commit word is a kernel long (4 bytes on a 32-bit kernel), and records
 * start after it; the data field's offset + size is the sub-buffer
 * trace_pipe_raw hands out. Neither is this process's sizeof(long) or page
 * size: under an emulator, or a 32-bit or 64K-page user space, they differ.
 */
struct dat_header_page {
	int commit_size;   /* 4 or 8 */
	int data_offset;   /* 8 + commit_size: the layout kbuffer (every reader) assumes */
	int subbuf_size;   /* data offset + data size */
};

/*
 * fts_dat_header_page_parse - read @len bytes of header_page text ("field:
 * local_t commit; offset:8; size:8; ...") into @hp. Returns 0, or -1 when the
 * commit or data field is missing or describes a layout readers cannot read.
 */
int fts_dat_header_page_parse(const char *text, size_t len, struct dat_header_page *hp);

/* Where the first bad page is, and why. */
struct dat_page_fault {
	uint64_t offset;   /* file offset of the page, or of its compressed chunk */
	int64_t page;      /* page index inside that chunk; -1 when uncompressed */
	const char *why;   /* static text */
};

/* One record of a walked page, as libtraceevent's kbuffer reads it. */
struct dat_page_rec {
	uint64_t ts;      /* the page's time stamp plus every delta up to it */
	uint32_t off;     /* of its data, from the page's start */
	uint32_t size;    /* its data bytes, rounded up to 4 (kbuffer_event_size) */
	uint32_t rsize;   /* with its header (kbuffer_curr_size) */
};

/*
 * The records of one page, found by one bounded walk that checks the page
 * and reads every header once (kbuffer and a separate check read each twice).
 */
struct dat_page_walk {
	struct dat_page_rec *rec;
	uint32_t n, cap;
	int missed;       /* lost events before rec[0] (kbuffer_missed_events) */
};

/* fts_dat_page_walk_init - room for the records of a @page_size page. 0 or -ENOMEM. */
int fts_dat_page_walk_init(struct dat_page_walk *w, int page_size);

/* fts_dat_page_walk_free - free @w's room (a zeroed @w is fine). */
void fts_dat_page_walk_free(struct dat_page_walk *w);

/*
 * fts_dat_page_walk - walk one whole page (f->page_size bytes) into @w: its
 * records with the time stamps, offsets, sizes and lost-events count kbuffer
 * gives them. Returns NULL, or a static reason (the checks of
 * fts_dat_page_check) with @w->n = 0: a bad page yields no record at all.
 * Only the ring-buffer format of kernels since 2.6.31 (not tep's old format).
 */
const char *fts_dat_page_walk(const struct dat_page_fmt *f, const unsigned char *page,
			      struct dat_page_walk *w);

/* fts_dat_page_ts - the time stamp in a page's header. */
uint64_t fts_dat_page_ts(const struct dat_page_fmt *f, const unsigned char *page);

/*
 * fts_dat_page_check - walk the records of one page of @len bytes
 * (@len <= page size; a short last page is read as zero padding).
 * Returns NULL when every record lies inside the page's committed data,
 * else a static reason.
 */
const char *fts_dat_page_check(const struct dat_page_fmt *f, const unsigned char *page,
			       size_t len);

/*
 * fts_dat_extent_check - check every page of an uncompressed CPU extent
 * (@off, @size) of @fd. Returns 0, 1 with @fault filled for a bad page, or
 * -1 when the file cannot be read there.
 */
int fts_dat_extent_check(int fd, const struct dat_page_fmt *f, uint64_t off, uint64_t size,
			 struct dat_page_fault *fault);

/*
 * fts_dat_zextent_check - the same for a zstd-compressed v7 CPU extent: each
 * chunk (the first @max_chunks, 0 = all) is decompressed with @v's decoder
 * and its pages checked. Returns 0, 1 with @fault filled (bad chunk or page),
 * or -1 (out of memory).
 */
int fts_dat_zextent_check(int fd, const struct dat_v7 *v, const struct dat_page_fmt *f,
			  uint64_t off, uint64_t size, int max_chunks, struct dat_page_fault *fault);

/*
 * fts_dat_probe_open - open @path with libtracecmd in the @helper program
 * (dat_probe.c); the second half of fts_read_dat_probe. Returns 0,
 * FTS_PROBE_UNISOLATED when @helper is NULL, or a negative code with @err
 * filled (also when the helper cannot be started or does not answer).
 */
int fts_dat_probe_open(const char *path, const char *helper, struct fts_err *err);

struct fts_clock_scan;

/*
 * fts_dat_probe_open_scan - fts_dat_probe_open, the helper also scanning
 * the file for its clock samples (clock_scan.h, @need_stop as there; < 0:
 * no scan): *@scanned is 1 with @scan filled when it did.
 */
int fts_dat_probe_open_scan(const char *path, const char *helper, int need_stop,
			    struct fts_clock_scan *scan, int *scanned, struct fts_err *err);

/*
 * fts_dat_probe_scan - fts_read_dat_probe (the page checks, then the
 * helper), with the helper's clock scan as in fts_dat_probe_open_scan.
 */
int fts_dat_probe_scan(const char *path, const char *helper, int need_stop,
		       struct fts_clock_scan *scan, int *scanned, struct fts_err *err);



#endif
