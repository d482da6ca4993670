/* SPDX-License-Identifier: MIT */
/*
 * dat_layout.h - the on-disk layout of trace.dat files, read without
 * libtracecmd (private to the trace.dat reader).
 *
 * Two jobs the library cannot do for us: find each CPU's compressed chunk
 * list in a v7 file (so read_dat.c can stream it one chunk at a time instead
 * of libtracecmd's never-freed chunk cache), and check that every per-CPU
 * extent of a v6 file lies inside the file (libtracecmd mmaps them and
 * faults on a cut file). Formats: man 5 trace-cmd.dat.v6 / v7.
 */
#ifndef FTS_DAT_LAYOUT_H
#define FTS_DAT_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

/* Every trace.dat starts with these bytes (then the version as text). */
#define FTS_DAT_MAGIC "\x17\x08\x44tracing"
#define FTS_DAT_MAGIC_LEN 10

#define DAT_Z_MAX (64u << 20)          /* bound on one chunk or option section */
#define DAT_OPT_DONE 0
#define DAT_OPT_CPUSTAT 2
#define DAT_OPT_BUFFER 3
#define DAT_OPT_TIME_SHIFT 12
#define DAT_OPT_TSC2NSEC 14
#define DAT_SEC_BUFFER 3
#define DAT_SEC_COMPRESSED 1

typedef size_t (*dat_zstd_fn)(void *dst, size_t cap, const void *src, size_t len);
typedef unsigned (*dat_zstd_err_fn)(size_t code);

struct dat_zcpu_info {
	int id;
	uint64_t off, size;
};

/* One BUFFER option of a v7 file. */
struct dat_zbuffer {
	char *name;
	uint64_t section;
	int page_size;
	int cpus;
	struct dat_zcpu_info *cpu;
};

struct dat_v7 {
	uint64_t file_size;
	dat_zstd_fn dec;     /* NULL: the file is not compressed */
	dat_zstd_err_fn is_err;
	struct dat_zbuffer *bufs;
	int nr_bufs;
	int time_conv;       /* TSC2NSEC or TIME_SHIFT: leave time to libtracecmd */
	int page_size;
};

static inline uint16_t fts_le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t fts_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t fts_le64(const unsigned char *p)
{
	return (uint64_t)fts_le32(p) | (uint64_t)fts_le32(p + 4) << 32;
}

/* fts_dat_pread_all - read exactly @n bytes at @off; 0, or -1 on error or EOF. */
int fts_dat_pread_all(int fd, void *buf, size_t n, uint64_t off);

/* fts_dat_grow - make *@buf hold at least @need bytes; 0 or -1 (out of memory). */
int fts_dat_grow(unsigned char **buf, size_t *cap, size_t need);

/*
 * fts_dat_v7_load - the BUFFER options of a v7 file on @fd and the zstd
 * decompressor (none for an uncompressed file). 0, or -1 when the file is
 * not little-endian v7, uncompressed or zstd-compressed, or is zstd and
 * ftscope was built without libzstd (the caller then leaves it all to
 * libtracecmd; fts_dat_codec_missing lets it refuse the file first).
 */
int fts_dat_v7_load(int fd, uint64_t file_size, struct dat_v7 *v);

/*
 * fts_dat_codec_missing - 1 when @fd holds a zstd-compressed v7 file and
 * ftscope was built without libzstd, else 0.
 */
int fts_dat_codec_missing(int fd, uint64_t file_size);

/*
 * fts_dat_v7_section - read the section at @off of the v7 file on @fd (@v
 * loaded) into *@out (grown with realloc; decompressed when the section is),
 * its length, id and flags. 0, or -1 when cut, too big or undecodable.
 */
int fts_dat_v7_section(int fd, const struct dat_v7 *v, uint64_t off, unsigned char **out,
		       size_t *len, uint16_t *id, uint16_t *flags);

/* One option of a v7 options section: 0 to go on, -1 to stop the walk (failed). */
typedef int (*fts_dat_v7_opt_fn)(void *ctx, uint16_t id, const unsigned char *p, uint32_t n);

/* fts_dat_v7_options - every option of the v7 file on @fd (@v loaded) to @fn. 0 or -1. */
int fts_dat_v7_options(int fd, const struct dat_v7 *v, fts_dat_v7_opt_fn fn, void *ctx);

/* fts_dat_v7_free - release what fts_dat_v7_load allocated. */
void fts_dat_v7_free(struct dat_v7 *v);

#define DAT_NAME_MAX 64

/* One CPU's data of one buffer ("" = the top buffer), as stored in the file. */
struct dat_extent {
	char buffer[DAT_NAME_MAX];
	int cpu;
	uint64_t off, size;
};

struct dat_extents {
	struct dat_extent *ext;
	int n;
	int big_endian;
};

/*
 * fts_dat_v6_extents - the non-empty per-CPU data extents of every buffer of
 * the v6 file on @fd into @x (may be NULL: check only). Returns 0, or -1 when
 * the layout is cut or an extent runs past @file_size (@x is then empty).
 */
int fts_dat_v6_extents(int fd, uint64_t file_size, struct dat_extents *x);

/* fts_dat_extents_free - release what fts_dat_v6_extents filled. */
void fts_dat_extents_free(struct dat_extents *x);

/*
 * fts_dat_v6_check_extents - 0 when @path is not v6 or every per-CPU data
 * extent lies inside its @file_size bytes; -1 when one runs past the end.
 */
int fts_dat_v6_check_extents(const char *path, uint64_t file_size);

/* The kernel's per-CPU ring-buffer counters as the file stores them (CPUSTAT options). */
#define DAT_CPUSTAT_MAX 4096
struct dat_cpustat {
	int ncpu;
	struct {
		uint64_t lost;   /* overrun + commit overrun + dropped events */
		int known;
	} cpu[DAT_CPUSTAT_MAX];
	/*
	 * A flight segment's (its CPUSTAT has "run overrun:" lines): the counts
	 * above are its own, since the previous segment of its run; the run's
	 * id, the segment's number and its clock samples (marker lines) if said.
	 */
	int own;
	int has_run;
	uint64_t run;
	uint64_t seq;
	char clock[200], clock_stop[200];
};

/*
 * fts_dat_cpustats - the CPUSTAT options of the trace.dat on @fd (@version
 * '6' or '7'), in CPU order, summed over buffers. Returns 0, or -1 when the
 * options cannot be walked (@st is then empty: counts unknown).
 */
int fts_dat_cpustats(int fd, uint64_t file_size, int version, struct dat_cpustat *st);

#endif
