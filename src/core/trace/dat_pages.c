// SPDX-License-Identifier: MIT
/*
 * dat_pages.c - bounded walks of ring-buffer pages (see dat_pages.h).
 *
 * A page is a header (u64 time stamp, a commit word of 4 or 8 bytes whose
 * low 27 bits are the committed data size; bit 31 = events were lost, bit
 * 30 = their count is stored after the data) and then records. A record
 * header is a u32 with a 5-bit type_len: 0 = length in the next u32 (which
 * counts itself), 1..28 = type_len * 4 data bytes, 29 = padding (length in
 * the next u32), 30/31 = time extend/stamp (8 bytes in all). This mirrors
 * libtraceevent's kbuffer walk, with 64-bit arithmetic and every step
 * checked to move forward and stay inside the committed data. The same walk
 * is the check (fts_dat_page_check, before libtracecmd reads a page) and the
 * reader (fts_dat_page_walk, for the live top and our compressed reading):
 * one copy of the layout's rules, each header read once.
 */
#include "core/trace/dat_pages.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DAT_COMMIT_MASK ((1u << 27) - 1)
#define DAT_MISSED_EVENTS (1ull << 31)
#define DAT_MISSED_STORED (1ull << 30)
#define DAT_TYPE_PADDING 29
#define DAT_TYPE_DATA_MAX 28
#define DAT_READ_BLOCK (1u << 20)   /* pages are checked in 1 MB reads */

static uint32_t rd32(const struct dat_page_fmt *f, const unsigned char *p)
{
	if (!f->big_endian)
		return fts_le32(p);
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t rd64(const struct dat_page_fmt *f, const unsigned char *p)
{
	uint64_t lo = rd32(f, f->big_endian ? p + 4 : p), hi = rd32(f, f->big_endian ? p : p + 4);

	return hi << 32 | lo;
}

static uint64_t rd_commit(const struct dat_page_fmt *f, const unsigned char *p)
{
	return f->commit_size == 4 ? rd32(f, p) : rd64(f, p);
}

uint64_t fts_dat_page_ts(const struct dat_page_fmt *f, const unsigned char *page)
{
	return rd64(f, page);
}

#define DAT_TYPE_TIME_EXTEND 30
#define DAT_TYPE_TIME_STAMP 31
#define DAT_TS_SHIFT 27
/* an absolute time stamp has 59 bits: the top 5 come from the time so far (as kbuffer) */
#define DAT_TS_MSB (0xf8ull << 56)

/*
 * The records in data[0, size) (which starts @hdr bytes into its page, at
 * time @ts): each must end inside it and move forward. With @w, the data
 * records go to it with kbuffer's time stamps and sizes; without, this is
 * only the check. Reads no byte outside data[0, size).
 */
static const char *walk_records(const struct dat_page_fmt *f, const unsigned char *data,
				uint64_t size, uint32_t hdr, uint64_t ts, struct dat_page_walk *w)
{
	uint64_t p = 0;

	while (p < size) {
		uint32_t h, type_len, delta, arr = 0;
		uint64_t next, at;

		if (size - p < 4)
			return "a record header is cut by the end of the page data";
		h = rd32(f, data + p);
		type_len = f->big_endian ? h >> 27 : h & 0x1f;
		delta = f->big_endian ? h & ((1u << DAT_TS_SHIFT) - 1) : h >> 5;
		if (type_len - 1 < DAT_TYPE_DATA_MAX) {
			/* the common case first: 1..28 = type_len * 4 data bytes */
			at = p + 4;
			next = at + (uint64_t)type_len * 4;
			if (next > size)
				return "a record runs past the end of its page";
		} else {
			/* every other kind has a second word: its length or the time's high bits */
			if (size - p < 8)
				return "a record header is cut by the end of the page data";
			arr = rd32(f, data + p + 4);
			if (type_len == DAT_TYPE_TIME_EXTEND) {
				ts += ((uint64_t)arr << DAT_TS_SHIFT) + delta;
				p += 8;
				continue;
			}
			if (type_len == DAT_TYPE_TIME_STAMP) {
				ts = (((uint64_t)arr << DAT_TS_SHIFT) + delta) | (ts & DAT_TS_MSB);
				p += 8;
				continue;
			}
			if (arr & 0x80000000u)
				return "a record length is out of range";
			if (type_len == DAT_TYPE_PADDING) {
				/* padding may run to (or past) the end: it ends the page */
				ts += delta;
				p += 4 + (uint64_t)arr;
				continue;
			}
			if (arr < 4)
				return "a record length is out of range";
			at = p + 8;
			next = at + (((uint64_t)arr - 4 + 3) & ~(uint64_t)3);
			if (next > size)
				return "a record runs past the end of its page";
		}
		ts += delta;
		if (w) {
			/* kbuffer gives the page's lost events to a record at offset 0 only */
			if (!w->n && p)
				w->missed = 0;
			w->rec[w->n++] = (struct dat_page_rec){ ts, hdr + (uint32_t)at, (uint32_t)(next - at),
							       (uint32_t)(next - p) };
		}
		p = next;
	}
	return NULL;
}

/* The committed data size of a page, checked against its room; NULL or why not. */
static const char *page_head(const struct dat_page_fmt *f, const unsigned char *page,
			     uint64_t *size, uint64_t *commit)
{
	size_t hdr = 8 + (size_t)f->commit_size, room = (size_t)f->page_size - hdr;

	*commit = rd_commit(f, page + 8);
	*size = *commit & DAT_COMMIT_MASK;
	if (*size > room)
		return "the page's size field is larger than the page";
	if ((*commit & DAT_MISSED_EVENTS) && (*commit & DAT_MISSED_STORED) &&
	    room - *size < (size_t)f->commit_size)
		return "the page's lost-event count lies past the page";
	return NULL;
}

int fts_dat_page_walk_init(struct dat_page_walk *w, int page_size)
{
	/* a data record takes 8 bytes at least (a header and one word, or a 0-byte length) */
	w->cap = (uint32_t)(page_size / 8 + 1);
	w->n = 0;
	w->missed = 0;
	w->rec = malloc(w->cap * sizeof(*w->rec));
	return w->rec ? 0 : -ENOMEM;
}

void fts_dat_page_walk_free(struct dat_page_walk *w)
{
	free(w->rec);
	w->rec = NULL;
	w->cap = w->n = 0;
}

const char *fts_dat_page_walk(const struct dat_page_fmt *f, const unsigned char *page,
			      struct dat_page_walk *w)
{
	uint32_t hdr = 8 + (uint32_t)f->commit_size;
	uint64_t size, commit;
	const char *why = page_head(f, page, &size, &commit);

	w->n = 0;
	w->missed = 0;
	if (why)
		return why;
	if (commit & DAT_MISSED_EVENTS)
		w->missed = commit & DAT_MISSED_STORED ? (int)(uint32_t)rd_commit(f, page + hdr + size) : -1;
	why = walk_records(f, page + hdr, size, hdr, fts_dat_page_ts(f, page), w);
	if (why)
		w->n = 0;
	return why;
}

const char *fts_dat_page_check(const struct dat_page_fmt *f, const unsigned char *page,
			       size_t len)
{
	unsigned char tail[32];
	size_t hdr = 8 + (size_t)f->commit_size;
	uint64_t commit, size;
	const unsigned char *data;
	unsigned char *copy = NULL;
	const char *why;

	if (len < hdr) {
		/* a short last page: its header reads as zeros past the end */
		memset(tail, 0, sizeof(tail));
		memcpy(tail, page, len);
		page = tail;
		len = hdr;
	}
	why = page_head(f, page, &size, &commit);
	if (why)
		return why;
	data = page + hdr;
	if (size > len - hdr) {
		/* committed data past a short last page: check it as zeros */
		copy = calloc(1, (size_t)size);
		if (!copy)
			return NULL;   /* cannot check; libtracecmd reads it zero-padded too */
		memcpy(copy, data, len - hdr);
		data = copy;
	}
	why = walk_records(f, data, size, (uint32_t)hdr, 0, NULL);
	free(copy);
	return why;
}

/* The offset and size of field @name in one header_page line; 0 when it declares it. */
static int hp_line(const char *line, const char *name, unsigned long *off, unsigned long *size)
{
	unsigned long o, z;
	char decl[128];
	const char *last;

	if (sscanf(line, " field: %127[^;]; offset:%lu; size:%lu;", decl, &o, &z) != 3)
		return -1;
	last = strrchr(decl, ' ');
	if (strcmp(last ? last + 1 : decl, name))
		return -1;
	*off = o;
	*size = z;
	return 0;
}

int fts_dat_header_page_parse(const char *text, size_t len, struct dat_header_page *hp)
{
	unsigned long c_off = 0, c_size = 0, d_off = 0, d_size = 0;
	int found = 0;
	size_t at = 0;

	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - text - at) : len - at;
		char line[256];

		if (n < sizeof(line)) {
			memcpy(line, text + at, n);
			line[n] = '\0';
			if (!hp_line(line, "commit", &c_off, &c_size))
				found |= 1;
			else if (!hp_line(line, "data", &d_off, &d_size))
				found |= 2;
		}
		at += n + 1;
	}
	/* the commit word follows the u64 time stamp; records follow it */
	if (found != 3 || c_off != 8 || (c_size != 4 && c_size != 8) || d_off != 8 + c_size ||
	    d_size > (1ul << 24) || d_off + d_size < 64 || d_off + d_size > (1ul << 24))
		return -1;
	hp->commit_size = (int)c_size;
	hp->data_offset = (int)d_off;
	hp->subbuf_size = (int)(d_off + d_size);
	return 0;
}

int fts_dat_extent_check(int fd, const struct dat_page_fmt *f, uint64_t off, uint64_t size,
			 struct dat_page_fault *fault)
{
	size_t block = DAT_READ_BLOCK / (size_t)f->page_size * (size_t)f->page_size;
	unsigned char *buf;
	uint64_t done = 0;
	int ret = 0;

	if (!block)
		block = (size_t)f->page_size;
	buf = malloc(block);
	if (!buf)
		return -1;
	while (!ret && done < size) {
		size_t n = size - done < block ? (size_t)(size - done) : block;

		if (fts_dat_pread_all(fd, buf, n, off + done)) {
			ret = -1;
			break;
		}
		for (size_t at = 0; at < n; at += (size_t)f->page_size) {
			size_t len = n - at < (size_t)f->page_size ? n - at : (size_t)f->page_size;
			const char *why = fts_dat_page_check(f, buf + at, len);

			if (why) {
				fault->offset = off + done + at;
				fault->page = -1;
				fault->why = why;
				ret = 1;
				break;
			}
		}
		done += n;
	}
	free(buf);
	return ret;
}

static int zfault(struct dat_page_fault *fault, uint64_t at, int64_t page, const char *why)
{
	fault->offset = at;
	fault->page = page;
	fault->why = why;
	return 1;
}

int fts_dat_zextent_check(int fd, const struct dat_v7 *v, const struct dat_page_fmt *f,
			  uint64_t off, uint64_t size, int max_chunks, struct dat_page_fault *fault)
{
	unsigned char h[8], *z = NULL, *raw = NULL;
	size_t zcap = 0, rcap = 0;
	uint64_t pos, end;
	uint32_t left;
	int ret = 0;

	if (!size)
		return 0;
	/* the size counts the chunks, not the chunk count before them */
	end = off + size + 4 > v->file_size ? v->file_size : off + size + 4;
	if (fts_dat_pread_all(fd, h, 4, off))
		return zfault(fault, off, -1, "the chunk count cannot be read");
	left = fts_le32(h);
	if (max_chunks > 0 && left > (uint32_t)max_chunks)
		left = (uint32_t)max_chunks;
	for (pos = off + 4; !ret && left; left--) {
		uint32_t csize, rsize;
		size_t n;

		if (end - pos < sizeof(h) || fts_dat_pread_all(fd, h, sizeof(h), pos))
			return zfault(fault, pos, -1, "a chunk header lies past the CPU's data");
		csize = fts_le32(h);
		rsize = fts_le32(h + 4);
		if (csize > end - pos - sizeof(h) || rsize > DAT_Z_MAX) {
			ret = zfault(fault, pos, -1, "a chunk's size is out of range");
			break;
		}
		if (fts_dat_grow(&z, &zcap, csize ? csize : 1) ||
		    fts_dat_grow(&raw, &rcap, rsize ? rsize : 1)) {
			ret = -1;
			break;
		}
		if (fts_dat_pread_all(fd, z, csize, pos + sizeof(h))) {
			ret = zfault(fault, pos, -1, "a chunk cannot be read");
			break;
		}
		n = v->dec(raw, rsize, z, csize);
		if (v->is_err(n) || n > rsize) {
			ret = zfault(fault, pos, -1, "a chunk does not decompress");
			break;
		}
		for (size_t at = 0; at < n; at += (size_t)f->page_size) {
			size_t len = n - at < (size_t)f->page_size ? n - at : (size_t)f->page_size;
			const char *why = fts_dat_page_check(f, raw + at, len);

			if (why) {
				ret = zfault(fault, pos, (int64_t)(at / (size_t)f->page_size), why);
				break;
			}
		}
		pos += sizeof(h) + csize;
	}
	free(z);
	free(raw);
	return ret;
}
