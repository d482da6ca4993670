// SPDX-License-Identifier: MIT
/*
 * test_dat_pages.c - the one page walker (dat_pages.c fts_dat_page_walk)
 * against libtraceevent's kbuffer, the reader it replaces: record by record
 * (time stamps, data pointers, sizes, lost-events counts) on every page of a
 * real capture, on made pages with every record kind in both byte orders and
 * commit sizes, and on corrupt pages, where the walk must name the fault and
 * yield nothing (each page sits in a buffer of exactly its size, so a read
 * past it is an ASan error).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/kbuffer.h>

#include "core/trace/dat_layout.h"
#include "core/trace/dat_pages.h"

#define SMALL_V6 FTS_DAT_WORK "/small-v6.dat"
#define PSZ 4096

/* Every record kbuffer reads on @page equals the walk's (which accepted it). */
static void same_as_kbuffer(const struct dat_page_fmt *f, unsigned char *page,
			    const struct dat_page_walk *w)
{
	struct kbuffer *kb = kbuffer_alloc(f->commit_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
					   f->big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	unsigned long long ts;
	uint32_t i = 0;
	void *data;

	assert_non_null(kb);
	assert_int_equal(kbuffer_load_subbuffer(kb, page), 0);
	assert_int_equal(fts_dat_page_ts(f, page), kbuffer_subbuf_timestamp(kb, page));
	while ((data = kbuffer_read_event(kb, &ts))) {
		assert_true(i < w->n);
		assert_int_equal(w->rec[i].ts, ts);
		assert_ptr_equal(page + w->rec[i].off, data);
		assert_int_equal(w->rec[i].size, kbuffer_event_size(kb));
		assert_int_equal(w->rec[i].rsize, kbuffer_curr_size(kb));
		assert_int_equal(i ? 0 : w->missed, kbuffer_missed_events(kb));
		kbuffer_next_event(kb, NULL);
		i++;
	}
	assert_int_equal(i, w->n);
	kbuffer_free(kb);
}

/* Walk @page (a copy in a buffer of exactly its size); returns the fault or NULL. */
static const char *walk_exact(const struct dat_page_fmt *f, const unsigned char *src,
			      struct dat_page_walk *w, int compare)
{
	unsigned char *page = malloc((size_t)f->page_size);
	const char *why;

	assert_non_null(page);
	memcpy(page, src, (size_t)f->page_size);
	why = fts_dat_page_walk(f, page, w);
	if (why)
		assert_int_equal(w->n, 0);
	/* the plain check says the same */
	assert_true(!why == !fts_dat_page_check(f, page, (size_t)f->page_size));
	if (!why && compare)
		same_as_kbuffer(f, page, w);
	free(page);
	return why;
}

/* Every page of every CPU of the real v6 capture, and mutations of them. */
static void test_real_pages(void **state)
{
	struct tracecmd_input *h = tracecmd_open(SMALL_V6, TRACECMD_FL_LOAD_NO_PLUGINS |
						 TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	struct dat_page_fmt f = { .page_size = PSZ };
	struct dat_page_walk w;
	struct dat_extents x;
	unsigned char page[PSZ];
	uint64_t pages = 0, records = 0, faults = 0, mutated = 0;
	struct stat sb;
	int fd = open(SMALL_V6, O_RDONLY);

	(void)state;
	assert_non_null(h);
	assert_true(fd >= 0 && !fstat(fd, &sb));
	assert_int_equal(fts_dat_v6_extents(fd, (uint64_t)sb.st_size, &x), 0);
	f.commit_size = tep_get_header_page_size(tracecmd_get_tep(h));
	assert_int_equal(fts_dat_page_walk_init(&w, PSZ), 0);
	srand(7);
	for (int i = 0; i < x.n; i++) {
		for (uint64_t off = x.ext[i].off; off + PSZ <= x.ext[i].off + x.ext[i].size; off += PSZ) {
			assert_int_equal(fts_dat_pread_all(fd, page, PSZ, off), 0);
			assert_null(walk_exact(&f, page, &w, 1));
			pages++;
			records += w.n;
			/* a few bytes of the header or the records changed at random */
			for (int m = 0; m < 16; m++) {
				unsigned char bad[PSZ];
				size_t at = (size_t)rand() % (m < 4 ? 24 : 256);

				memcpy(bad, page, PSZ);
				bad[at] ^= (unsigned char)(1 + rand() % 255);
				if (m & 1)
					bad[16 + (size_t)rand() % 64] = (unsigned char)rand();
				faults += walk_exact(&f, bad, &w, 1) != NULL;
				mutated++;
			}
		}
	}
	/* the fixture has pages and records; the mutations made bad pages and good ones */
	assert_true(pages > 10 && records > 1000);
	assert_true(faults > 0 && faults < mutated);
	fts_dat_page_walk_free(&w);
	fts_dat_extents_free(&x);
	close(fd);
	tracecmd_close(h);
}

/* ---- made pages ------------------------------------------------------------------ */

struct mk {
	struct dat_page_fmt f;
	unsigned char page[PSZ];
	size_t at;   /* the next record's offset from the page start */
};

static void put32(const struct mk *m, unsigned char *p, uint32_t v)
{
	for (int b = 0; b < 4; b++)
		p[b] = (unsigned char)(m->f.big_endian ? v >> (24 - 8 * b) : v >> (8 * b));
}

static void put64(const struct mk *m, unsigned char *p, uint64_t v)
{
	put32(m, p + (m->f.big_endian ? 4 : 0), (uint32_t)v);
	put32(m, p + (m->f.big_endian ? 0 : 4), (uint32_t)(v >> 32));
}

static void putlong(const struct mk *m, unsigned char *p, uint64_t v)
{
	if (m->f.commit_size == 8)
		put64(m, p, v);
	else
		put32(m, p, (uint32_t)v);
}

static void mk_start(struct mk *m, int big, int commit, uint64_t ts)
{
	memset(m, 0, sizeof(*m));
	m->f = (struct dat_page_fmt){ PSZ, commit, big };
	put64(m, m->page, ts);
	m->at = 8 + (size_t)commit;
}

/* A record header: type_len and a 27-bit delta, then @nwords more words. */
static void mk_rec(struct mk *m, uint32_t type_len, uint32_t delta, const uint32_t *words, int nwords)
{
	put32(m, m->page + m->at, m->f.big_endian ? type_len << 27 | delta : delta << 5 | type_len);
	m->at += 4;
	for (int i = 0; i < nwords; i++, m->at += 4)
		put32(m, m->page + m->at, words[i]);
}

/* Sets the commit word (size = what was written) with the lost-events flags. */
static void mk_end(struct mk *m, int missed, int stored, uint64_t lost)
{
	uint64_t size = m->at - 8 - (size_t)m->f.commit_size;
	uint64_t commit = size | (missed ? 1ull << 31 : 0) | (stored ? 1ull << 30 : 0);

	putlong(m, m->page + 8, commit);
	if (stored)
		putlong(m, m->page + m->at, lost);
}

/* Every record kind: data sizes, long records, time extend and stamp, padding. */
static void mk_all_kinds(struct mk *m, int big, int commit, int extend_first)
{
	uint32_t w3[3] = { 11, 22, 33 };
	uint32_t long_rec[6] = { 4 + 17, 1, 2, 3, 4, 5 };  /* 17 bytes: read as 20 */
	uint32_t ext[1] = { 3 };

	/* the top 5 bits set: an absolute stamp takes them from the time so far */
	mk_start(m, big, commit, 0xf800000000001000ull);
	if (extend_first)
		mk_rec(m, 30, 5, ext, 1);
	mk_rec(m, 3, 100, w3, 3);
	mk_rec(m, 1, 7, w3, 1);
	mk_rec(m, 0, 9, long_rec, 6);
	mk_rec(m, 30, 77, ext, 1);                  /* time extend: 3 << 27 + 77 */
	mk_rec(m, 2, 1, w3, 2);
	mk_rec(m, 29, 4, (uint32_t[]){ 12 }, 1);    /* padding in the middle: its length counts its word */
	m->at += 8;
	mk_rec(m, 31, 12345, (uint32_t[]){ 2 }, 1); /* absolute time stamp */
	mk_rec(m, 28, 3, NULL, 0);                  /* the largest inline size: 112 bytes */
	m->at += 112;
	mk_rec(m, 0, 0, (uint32_t[]){ 4 }, 1);      /* a long record with no data */
}

static void test_made_pages(void **state)
{
	struct dat_page_walk w;
	struct mk m;

	(void)state;
	assert_int_equal(fts_dat_page_walk_init(&w, PSZ), 0);
	for (int big = 0; big < 2; big++) {
		for (int commit = 4; commit <= 8; commit += 4) {
			for (int first = 0; first < 2; first++) {
				/* no loss; lost but not counted (-1); lost and counted */
				for (int loss = 0; loss < 3; loss++) {
					mk_all_kinds(&m, big, commit, first);
					mk_end(&m, loss > 0, loss > 1, 1234);
					assert_null(walk_exact(&m.f, m.page, &w, 1));
					assert_int_equal(w.n, 6);
					/* kbuffer's rule, kept: only a record at offset 0 carries the loss */
					assert_int_equal(w.missed, first || !loss ? 0 : loss == 1 ? -1 : 1234);
				}
				/* padding to the end of the page ends it */
				mk_all_kinds(&m, big, commit, first);
				mk_rec(&m, 29, 0, (uint32_t[]){ 104 }, 1);
				m.at += 100;
				mk_end(&m, 0, 0, 0);
				assert_null(walk_exact(&m.f, m.page, &w, 1));
				assert_int_equal(w.n, 6);
				/* an empty page */
				mk_start(&m, big, commit, 5);
				mk_end(&m, 0, 0, 0);
				assert_null(walk_exact(&m.f, m.page, &w, 1));
				assert_int_equal(w.n, 0);
			}
		}
	}
	fts_dat_page_walk_free(&w);
}

/* Corrupt made pages: each is refused with no record, and without a read outside it. */
static void test_corrupt_pages(void **state)
{
	struct dat_page_walk w;
	struct mk m;

	(void)state;
	assert_int_equal(fts_dat_page_walk_init(&w, PSZ), 0);
	for (int big = 0; big < 2; big++) {
		/* a size field larger than the page */
		mk_start(&m, big, 8, 1);
		putlong(&m, m.page + 8, PSZ - 15);
		assert_non_null(walk_exact(&m.f, m.page, &w, 0));
		/* a record past the committed data */
		mk_start(&m, big, 8, 1);
		mk_rec(&m, 3, 1, (uint32_t[]){ 1, 2, 3 }, 3);
		mk_end(&m, 0, 0, 0);
		putlong(&m, m.page + 8, 12);
		assert_non_null(walk_exact(&m.f, m.page, &w, 0));
		/* a time extend cut by the end of the data (its second word past it) */
		mk_start(&m, big, 8, 1);
		mk_rec(&m, 1, 1, (uint32_t[]){ 1 }, 1);
		mk_rec(&m, 30, 1, NULL, 0);
		mk_end(&m, 0, 0, 0);
		assert_non_null(walk_exact(&m.f, m.page, &w, 0));
		/* a full page whose last record is a time extend cut by the page's end */
		mk_start(&m, big, 8, 1);
		mk_rec(&m, 0, 0, (uint32_t[]){ 8, 0 }, 2);   /* 12 bytes: the rest in 8-byte steps */
		while (m.at < PSZ - 4)
			mk_rec(&m, 1, 0, (uint32_t[]){ 0 }, 1);
		mk_rec(&m, 30, 1, NULL, 0);
		mk_end(&m, 0, 0, 0);
		assert_int_equal(m.at, PSZ);
		assert_non_null(walk_exact(&m.f, m.page, &w, 0));
		/* long records of length < 4, and one with the sign bit */
		mk_start(&m, big, 4, 1);
		mk_rec(&m, 0, 1, (uint32_t[]){ 3 }, 1);
		mk_end(&m, 0, 0, 0);
		assert_non_null(walk_exact(&m.f, m.page, &w, 0));
		mk_start(&m, big, 4, 1);
		mk_rec(&m, 0, 1, (uint32_t[]){ 0x80000004u }, 1);
		mk_end(&m, 0, 0, 0);
		assert_non_null(walk_exact(&m.f, m.page, &w, 0));
		/* a long record running past the data */
		mk_start(&m, big, 4, 1);
		mk_rec(&m, 0, 1, (uint32_t[]){ 40 }, 1);
		mk_end(&m, 0, 0, 0);
		assert_non_null(walk_exact(&m.f, m.page, &w, 0));
		/* a lost-events count that would lie past the page */
		mk_start(&m, big, 8, 1);
		putlong(&m, m.page + 8, (PSZ - 16) | 3ull << 30);
		assert_non_null(walk_exact(&m.f, m.page, &w, 0));
		/* a good record, then a bad one: nothing of the page is yielded */
		mk_start(&m, big, 8, 1);
		mk_rec(&m, 1, 1, (uint32_t[]){ 1 }, 1);
		mk_rec(&m, 0, 1, (uint32_t[]){ 2 }, 1);
		mk_end(&m, 0, 0, 0);
		assert_non_null(walk_exact(&m.f, m.page, &w, 0));
		assert_int_equal(w.n, 0);
	}
	fts_dat_page_walk_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_pages),
		cmocka_unit_test(test_made_pages),
		cmocka_unit_test(test_corrupt_pages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
