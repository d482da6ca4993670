// SPDX-License-Identifier: MIT
/*
 * store_estimate.c - what a capture will cost the preview, told before it
 * loads: items from the file's size and kind, memory and time from those.
 *
 * The constants are measured (bench/preview_bench.c, issue 15 defect 19) on
 * hackbench captures of 1.2-1.5 M items and the bundled sample:
 *   trace.dat   ~1 MB of headers (formats, symbols), then 43 B of file per
 *               item (~12 B compressed: the bundled sample); peak RSS = the
 *               file (libtracecmd maps it, and mapped pages count in RSS) +
 *               ~45 B per item + ~20 MB of trace libraries; ~40 MB/s of file
 *   text        ~100 B per item (tracefs text and trace-cmd report); ~100 MB/s
 *   ftrace DB   ~190 B per item; ~170 MB/s
 *   our JSON    ~230 B per item; ~170 MB/s
 * and the store itself holds <= 32 B per item (preview.h), the statistics
 * sink a few more.
 */
#include "export/preview/store_local.h"
#include "core/util/file_util.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MB (1024.0 * 1024.0)

#define DAT_HEADERS MB          /* a trace.dat's formats and symbols before its data */
#define DAT_ZIPPED_PER_ITEM 12  /* bytes per item of compressed trace.dat data */

struct kind_cost {
	double file_per_item;   /* bytes of input per lane item */
	double mem_per_item;    /* resident bytes per item while previewing */
	double base;            /* fixed resident bytes */
	double rate;            /* input bytes loaded per second */
	int maps_file;          /* the input's pages count in RSS */
};

static const struct kind_cost costs[] = {
	[FTS_SRC_TRACE_DAT] = { 43, 45, 20 * MB, 40 * MB, 1 },
	[FTS_SRC_TRACE_TEXT] = { 100, 40, 4 * MB, 100 * MB, 0 },
	[FTS_SRC_DB] = { 190, 40, 4 * MB, 170 * MB, 0 },
	[FTS_SRC_JSON] = { 230, 40, 4 * MB, 170 * MB, 0 },
};

/*
 * A trace.dat v7 names its compression in its header: magic (10 bytes),
 * version "7\0", endianness and long size (1 byte each), page size (4), then
 * at 18 the algorithm's name ("none" when not compressed).
 */
static int dat_compressed(int fd)
{
	char head[40] = { 0 };
	ssize_t n = pread(fd, head, sizeof(head) - 1, 0);

	if (n < 22 || head[10] != '7' || head[11] != 0)
		return 0;
	return strcmp(head + 18, "none") != 0 && head[18] != 0;
}

int fts_store_estimate(const char *path, struct fts_store_estimate *e, struct fts_err *err)
{
	enum fts_pipeline_input kind;
	enum fts_input_format fmt = FTS_FMT_UNKNOWN;
	const struct kind_cost *c;
	struct stat sb;
	double items;
	int fd, rc;

	memset(e, 0, sizeof(*e));
	rc = fts_pipeline_detect(path, &kind, err);
	if (!rc && kind == FTS_PIPE_TRACE)
		rc = fts_input_detect(path, &fmt, err);
	if (rc)
		return rc;
	fd = fts_open_regular(path, 0, &sb, err);
	if (fd < 0)
		return fd;
	e->source = kind == FTS_PIPE_DB ? FTS_SRC_DB : kind == FTS_PIPE_JSON ? FTS_SRC_JSON :
		    fmt == FTS_FMT_DAT ? FTS_SRC_TRACE_DAT : FTS_SRC_TRACE_TEXT;
	e->compressed = e->source == FTS_SRC_TRACE_DAT && dat_compressed(fd);
	close(fd);
	c = &costs[e->source];
	e->input_bytes = (uint64_t)sb.st_size;
	if (e->source == FTS_SRC_TRACE_DAT) {
		/* a small file is mostly headers: count half of it as data */
		double hdr = (double)sb.st_size / 2 < DAT_HEADERS ? (double)sb.st_size / 2 : DAT_HEADERS;
		double data = (double)sb.st_size - hdr;

		items = data / (e->compressed ? DAT_ZIPPED_PER_ITEM : c->file_per_item);
	} else {
		items = (double)sb.st_size / c->file_per_item;
	}
	e->items = (uint64_t)items;
	e->bytes = (uint64_t)(items * c->mem_per_item + c->base + (c->maps_file ? (double)sb.st_size : 0));
	/* time goes with the events, whatever their packing */
	e->seconds = items * c->file_per_item / c->rate;
	return 0;
}
