// SPDX-License-Identifier: MIT
/*
 * dat_zread.c - compressed (v7) CPU data, read here rather than through
 * libtracecmd (the chunk lists come from dat_layout.c): 1.3.x keeps every
 * decompressed chunk in a per-CPU cache that it never frees (its
 * free_zpage() range test cannot match), so a 24 MB zstd file held ~165 MB
 * of heap by the end. We walk each CPU's chunk list ourselves, decompress one
 * chunk at a time with the zstd that libtracecmd already loaded, and hand
 * records as libtracecmd's peek_data builds them. Each page is checked and its
 * records found in one bounded walk (dat_pages.c fts_dat_page_walk, which
 * reads them as libtraceevent's kbuffer does): kbuffer trusts the page, so it
 * needed a separate check first, and each header was read twice.
 */
#include "core/trace/read_dat_local.h"

#include <stdlib.h>
#include <string.h>

/* ---- compressed v7 CPU data (layout parsed in dat_layout.c) ---------- */

static void zcpu_free(struct dat_zcpu *z)
{
	fts_dat_page_walk_free(&z->w);
	free(z->raw);
	free(z->zbuf);
}

void fts_dat_src_drop_z(struct dat_src *s)
{
	for (int i = 0; i < s->nr_z; i++)
		zcpu_free(&s->z[i]);
	free(s->z);
	s->z = NULL;
	s->nr_z = 0;
}

/* Loads the next chunk of @z. Returns 1, 0 at the end, -1 when corrupt. */
static int zcpu_load_chunk(struct dat_ctx *c, struct dat_zcpu *z)
{
	unsigned char h[8];
	uint32_t csize, rsize;
	size_t n, cap;

	if (!z->left)
		return 0;
	if (z->end - z->pos < sizeof(h) || fts_dat_pread_all(c->fd, h, sizeof(h), z->pos))
		return -1;
	csize = fts_le32(h);
	rsize = fts_le32(h + 4);
	cap = ((size_t)rsize + (size_t)c->page_size - 1) / (size_t)c->page_size * (size_t)c->page_size;
	if (csize > z->end - z->pos - sizeof(h) || rsize > DAT_Z_MAX ||
	    fts_dat_grow(&z->zbuf, &z->zbuf_cap, csize ? csize : 1) ||
	    fts_dat_grow(&z->raw, &z->raw_cap, cap ? cap : 1) ||
	    fts_dat_pread_all(c->fd, z->zbuf, csize, z->pos + sizeof(h)))
		return -1;
	n = c->v7->dec(z->raw, rsize, z->zbuf, csize);
	if (c->v7->is_err(n) || n > rsize)
		return -1;
	/* a short last page reads as zero padding, never past the buffer */
	memset(z->raw + n, 0, (n + (size_t)c->page_size - 1) / (size_t)c->page_size *
	       (size_t)c->page_size - n);
	z->raw_len = n;
	z->page_at = 0;
	z->chunk_at = z->pos;
	z->pos += sizeof(h) + csize;
	z->left--;
	return 1;
}

/* Records where @z went bad: its loaded chunk's page, or (@chunk) the next chunk. */
static void z_fail(struct dat_ctx *c, const struct dat_zcpu *z, int chunk, const char *why)
{
	c->zerr = 1;
	c->zerr_cpu = z->cpu;
	c->zfault.offset = chunk ? z->pos : z->chunk_at;
	c->zfault.page = chunk ? -1 : (int64_t)(z->page_at / (size_t)c->page_size);
	c->zfault.why = why;
}

/*
 * The next record of @z, built the way libtracecmd's tracecmd_peek_data()
 * builds it; the record and its data stay valid until the next call. NULL at
 * the end, or with c->zerr set when the data is corrupt.
 */
struct tep_record *fts_dat_z_next(struct dat_ctx *c, struct dat_zcpu *z)
{
	const struct dat_page_rec *r;
	const char *why;

	for (;;) {
		if (z->loaded) {
			if (z->ri < z->w.n)
				break;
			z->loaded = 0;
			z->page_at += (size_t)c->page_size;
		}
		if (z->page_at >= z->raw_len) {
			int got = zcpu_load_chunk(c, z);

			if (got <= 0) {
				if (got < 0)
					z_fail(c, z, 1, "a chunk is cut, out of range or does not decompress");
				return NULL;
			}
			continue;
		}
		/* raw is padded to whole pages (zcpu_load_chunk): the walk stays inside */
		why = fts_dat_page_walk(&c->pfmt, z->raw + z->page_at, &z->w);
		if (why) {
			z_fail(c, z, 0, why);
			return NULL;
		}
		z->loaded = 1;
		z->ri = 0;
	}
	/* the walk keeps every record inside its page: the decoders trust rec.size */
	r = &z->w.rec[z->ri];
	z->rec.ts = r->ts + (unsigned long long)z->ts_delta;
	z->rec.size = (int)r->size;
	z->rec.record_size = (int)r->rsize;
	z->rec.missed_events = z->ri ? 0 : z->w.missed;
	z->rec.cpu = z->cpu;
	z->rec.data = z->raw + z->page_at + r->off;
	z->rec.offset = z->chunk_at;    /* compressed file position, for progress */
	z->rec.ref_count = 1;
	z->ri++;
	return &z->rec;
}

/*
 * Sets up our own reading of source @s when its buffer is compressed, and
 * checks the first record of every CPU against libtracecmd's (same bytes;
 * the time difference, e.g. a file ts offset, is kept and added). Any doubt
 * leaves the source to libtracecmd.
 */
void fts_dat_src_try_z(struct dat_ctx *c, struct dat_src *s, const char *name)
{
	struct tep_handle *tep = fts_dat_dec_tep(s->dec);
	const struct dat_zbuffer *b = NULL;
	unsigned char h[16];

	/* the walk reads the file's page format (c->pfmt, set up by the caller) */
	if (!c->v7 || !c->v7->dec || c->v7->time_conv || tep_is_file_bigendian(tep) ||
	    c->pfmt.page_size != c->v7->page_size || tep_is_old_format(tep))
		return;
	c->page_size = c->v7->page_size;
	for (int i = 0; i < c->v7->nr_bufs; i++) {
		if (strcmp(c->v7->bufs[i].name, name) == 0)
			b = &c->v7->bufs[i];
	}
	if (!b || b->cpus <= 0 || b->page_size != c->page_size ||
	    b->section > c->v7->file_size - sizeof(h) || fts_dat_pread_all(c->fd, h, sizeof(h), b->section) ||
	    fts_le16(h) != DAT_SEC_BUFFER || !(fts_le16(h + 2) & DAT_SEC_COMPRESSED))
		return;
	s->z = calloc((size_t)b->cpus, sizeof(*s->z));
	if (!s->z)
		return;
	s->nr_z = b->cpus;
	for (int i = 0; i < b->cpus; i++) {
		struct dat_zcpu *z = &s->z[i];
		const struct dat_zcpu_info *ci = &b->cpu[i];
		struct tep_record *lib, *own;
		unsigned char cnt[4];
		int ok;

		z->cpu = ci->id;
		if (fts_dat_page_walk_init(&z->w, c->page_size) || ci->off > c->v7->file_size ||
		    ci->size > c->v7->file_size - ci->off)
			goto fallback;
		/* the size counts the chunks, not the chunk count before them */
		z->end = ci->off + ci->size + 4;
		if (z->end > c->v7->file_size)
			z->end = c->v7->file_size;
		if (ci->size) {
			if (fts_dat_pread_all(c->fd, cnt, sizeof(cnt), ci->off))
				goto fallback;
			z->left = fts_le32(cnt);
			z->pos = ci->off + 4;
		}
		own = fts_dat_z_next(c, z);
#ifdef FTS_NO_TRACECMD
		/* the static build has no other reader to hold this one to */
		lib = own;
#else
		lib = tracecmd_read_cpu_first(s->handle, i);
#endif
		ok = !c->zerr && !own == !lib;
		if (ok && own) {
			ok = lib->cpu == own->cpu && lib->size == own->size &&
			     lib->missed_events == own->missed_events &&
			     memcmp(lib->data, own->data, (size_t)own->size) == 0;
			z->ts_delta = (int64_t)(lib->ts - own->ts);
			own->ts = lib->ts;
		}
		tracecmd_free_record(lib);
		if (!ok)
			goto fallback;
	}
	return;
fallback:
	c->zerr = 0;
	fts_dat_src_drop_z(s);
}
