/* SPDX-License-Identifier: MIT */
/*
 * read_dat_local.h - what the trace.dat reader's files share (private to
 * core/trace). read_dat.c validates, opens and runs the read; dat_merge.c
 * keeps the sources (one per buffer instance) and merges their CPUs' records
 * into one time-ordered stream; dat_zread.c reads compressed (v7) CPU data
 * chunk by chunk; dat_decode.c turns each record into a struct fts_event.
 */
#ifndef FTS_READ_DAT_LOCAL_H
#define FTS_READ_DAT_LOCAL_H

#include "ftscope/reader.h"

#include "core/trace/dat_decode.h"
#include "core/trace/dat_layout.h"
#include "core/trace/dat_pages.h"
#include "core/trace/timecheck.h"

#ifdef FTS_NO_TRACECMD
#include "core/trace/dat_own.h"   /* the static build's own reader */
#else
#include <trace-cmd/trace-cmd.h>
#endif

/* One CPU of a compressed buffer, read chunk by chunk (see top comment). */
struct dat_zcpu {
	int cpu;
	uint64_t pos;        /* file offset of the next chunk header */
	uint64_t end;        /* end of this CPU's data in the file */
	uint32_t left;       /* chunks not loaded yet */
	uint64_t chunk_at;   /* file offset of the loaded chunk (record offset) */
	unsigned char *raw;  /* decompressed chunk */
	size_t raw_len, raw_cap;
	size_t page_at;      /* offset of the loaded page in raw */
	unsigned char *zbuf; /* compressed chunk */
	size_t zbuf_cap;
	int64_t ts_delta;    /* what libtracecmd adds to the pages' time stamps */
	int loaded;          /* the page at page_at is walked into w */
	struct dat_page_walk w;
	uint32_t ri;         /* the next record of w */
	struct tep_record rec;
};

struct dat_src {
	struct tracecmd_input *handle;
	struct fts_dat_dec *dec;
	struct dat_zcpu *z;  /* per CPU id when read here, else NULL */
	int nr_z;
};

struct dat_cursor {
	struct tep_record *rec;
	int src;
	int cpu;
};


struct dat_ctx {
	const char *path;
	const struct fts_read_opts *opts;
	struct fts_read_stats *st;
	struct tracecmd_input *top;
	struct dat_src *srcs;
	int nr_srcs;
	struct fts_dat_dec **decs;
	int nr_decs;
	struct dat_cursor *heap;
	int heap_len;
	uint64_t next_progress;
	int fd;              /* our own descriptor for compressed chunks */
	int page_size;
	int zerr;            /* a compressed chunk was bad: where and why below */
	int zerr_cpu;
	struct dat_page_fault zfault;
	const struct dat_v7 *v7;
	struct fts_err *err;
	struct fts_timecheck tcheck;   /* time per CPU: forward only, in range */
	struct dat_page_fmt pfmt;
	char version;        /* '6' or '7' */
	int check_pages;     /* the page layout is one dat_pages.c knows */
	int pre_commit_size; /* the commit size the pre-open check assumed */
};

/* ---- dat_zread.c ---------------------------------------------------------- */

/*
 * fts_dat_src_try_z - read source @s (buffer @name, "" for the top one) here
 * when its data is zstd-compressed, after checking the first record of every
 * CPU against libtracecmd's; any doubt leaves the source to libtracecmd.
 */
void fts_dat_src_try_z(struct dat_ctx *c, struct dat_src *s, const char *name);

/*
 * fts_dat_z_next - the next record of @z, built as libtracecmd's
 * tracecmd_peek_data() builds it; valid until the next call. NULL at the end,
 * or with c->zerr set when the data is corrupt.
 */
struct tep_record *fts_dat_z_next(struct dat_ctx *c, struct dat_zcpu *z);

/* fts_dat_src_drop_z - free @s's own chunk readers (it is then libtracecmd's). */
void fts_dat_src_drop_z(struct dat_src *s);

/* ---- dat_merge.c ---------------------------------------------------------- */

/* fts_dat_add_source - add handle @h (sharing a decoder with any source on its tep). */
int fts_dat_add_source(struct dat_ctx *c, struct tracecmd_input *h);

/* fts_dat_fill_heap - every CPU's first record into the merge heap. 0 or -ENOMEM. */
int fts_dat_fill_heap(struct dat_ctx *c);

/*
 * fts_dat_merge_run - hand @fn every record of every source in time order
 * (ties: earlier source, then CPU) until the end, an error from @fn, or a
 * corrupt compressed chunk (-EIO, c->zerr set).
 */
int fts_dat_merge_run(struct dat_ctx *c,
		      int (*fn)(struct dat_ctx *c, struct dat_src *src, const struct tep_record *r));

/*
 * fts_dat_heap_add - the first records of sources [@from, nr_srcs) into the
 * heap (sources added since the heap was filled); how many in *@added.
 * 0 or -ENOMEM.
 */
int fts_dat_heap_add(struct dat_ctx *c, int from, int *added);

/*
 * fts_dat_merge_one - one step of fts_dat_merge_run (the heap not empty):
 * @fn's return; *@ended is the source whose stream (one CPU) just ended, or -1.
 */
int fts_dat_merge_one(struct dat_ctx *c,
		      int (*fn)(struct dat_ctx *c, struct dat_src *src, const struct tep_record *r), int *ended);

/* fts_dat_merge_free - free the heap, the sources (closing their handles) and decoders. */
void fts_dat_merge_free(struct dat_ctx *c);

#endif
