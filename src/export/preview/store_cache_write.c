// SPDX-License-Identifier: MIT
/*
 * store_cache_write.c - the store cache's checksum and its writer: a second
 * thread writes the loaded store into an O_CREAT | O_EXCL | O_NOFOLLOW temp
 * file (0600) in the cache directory, renamed into place once whole, then
 * the least recently used files go until the directory holds at most
 * CACHE_MAX_BYTES in CACHE_MAX_FILES files. A failure is never an error.
 */
#include "export/preview/store_cache_local.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_MAX_BYTES (2ull << 30)   /* the directory's total, oldest files evicted first */
#define CACHE_MAX_FILES 32
#define WBUF (1u << 20)                /* the writer's buffer: a multiple of the checksum's block */

/* ---- checksum: xxh64's round over four lanes of 8-byte words ---- */

#define P1 0x9E3779B185EBCA87ull
#define P2 0xC2B2AE3D27D4EB4Full
#define P3 0x165667B19E3779F9ull

static uint64_t rotl(uint64_t x, int r)
{
	return x << r | x >> (64 - r);
}

void fts_cache_sum_init(struct fts_cache_sum *h)
{
	h->v[0] = P1 + P2;
	h->v[1] = P2;
	h->v[2] = 0;
	h->v[3] = 0 - P1;
	h->len = 0;
}

/* Whole 32-byte blocks of @p (@n a multiple of 32, except at the very end: see fts_cache_sum_end). */
void fts_cache_sum_blocks(struct fts_cache_sum *h, const unsigned char *p, size_t n)
{
	uint64_t w;

	h->len += n;
	for (; n >= 32; n -= 32, p += 32) {
		for (int k = 0; k < 4; k++) {
			memcpy(&w, p + 8 * k, 8);
			h->v[k] = rotl(h->v[k] + w * P2, 31) * P1;
		}
	}
}

/* The tail @p (@n < 32 bytes, the bytes fts_cache_sum_blocks left) and the fold. */
uint64_t fts_cache_sum_end(const struct fts_cache_sum *h, const unsigned char *p, size_t n)
{
	uint64_t r = rotl(h->v[0], 1) + rotl(h->v[1], 7) + rotl(h->v[2], 12) + rotl(h->v[3], 18), w;

	r ^= h->len * P3;
	for (; n >= 8; n -= 8, p += 8) {
		memcpy(&w, p, 8);
		r = rotl(r ^ (w * P2), 27) * P1 + P3;
	}
	for (; n; n--, p++)
		r = rotl(r ^ (*p * P3), 11) * P1;
	r ^= r >> 33;
	r *= P2;
	r ^= r >> 29;
	r *= P3;
	return r ^ (r >> 32);
}

uint64_t fts_cache_sum_all(const void *p, size_t n)
{
	struct fts_cache_sum h;
	size_t whole = n & ~(size_t)31;

	fts_cache_sum_init(&h);
	fts_cache_sum_blocks(&h, p, whole);
	h.len = n;
	return fts_cache_sum_end(&h, (const unsigned char *)p + whole, n - whole);
}

/* ---- writing ---- */

struct wr {
	int fd;
	unsigned char *buf;
	size_t n;
	struct fts_cache_sum h;
	uint64_t total;
	int failed;
};

/* Write the buffer out; @sum: add it to the checksum (whole 32-byte blocks: WBUF is a multiple). */
static void flush(struct wr *w, int sum)
{
	const unsigned char *p = w->buf;
	size_t left = w->n;

	if (w->failed)
		return;
	if (sum)
		fts_cache_sum_blocks(&w->h, w->buf, w->n);
	while (left) {
		ssize_t k = write(w->fd, p, left);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			w->failed = k < 0 ? errno : ENOSPC;
			return;
		}
		p += k;
		left -= (size_t)k;
	}
	w->total += w->n;
	w->n = 0;
}

/* The payload's checksum as fts_cache_sum_all computes it, the buffer's rest being the end. */
static uint64_t finish_sum(const struct wr *w)
{
	size_t whole = w->n & ~(size_t)31;
	struct fts_cache_sum h = w->h;

	fts_cache_sum_blocks(&h, w->buf, whole);
	h.len = w->total + w->n;
	return fts_cache_sum_end(&h, w->buf + whole, w->n - whole);
}

static void put(struct wr *w, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n && !w->failed) {
		size_t k = WBUF - w->n < n ? WBUF - w->n : n;

		memcpy(w->buf + w->n, b, k);
		w->n += k;
		b += k;
		n -= k;
		if (w->n == WBUF)
			flush(w, 1);
	}
}

static void put_u64(struct wr *w, uint64_t v)
{
	put(w, &v, 8);
}

static void put_pad8(struct wr *w, size_t n)
{
	static const char zero[8];

	put(w, zero, (8 - n % 8) % 8);
}

static void write_payload(struct wr *w, const struct fts_store *s)
{
	const struct fts_strtab *t = &s->strs;

	put(w, &s->info, sizeof(s->info));
	put_u64(w, (uint64_t)s->loss.ncpu);
	put(w, s->loss.cpu, (size_t)s->loss.ncpu * sizeof(*s->loss.cpu));
	put_u64(w, t->n);
	put_u64(w, t->len);
	put(w, t->off, (size_t)t->n * 8);
	put(w, t->arena, t->len);
	put_pad8(w, t->len);
	put_u64(w, s->nlanes);
	for (uint32_t i = 0; i < s->nlanes; i++) {
		const struct st_lane *l = &s->lane[i];
		uint64_t n = l->pub.nitems;
		int aux = st_has_aux(l), aux2 = st_has_aux2(l);

		put(w, &l->pub, sizeof(l->pub));
		put_u64(w, (l->x ? 1u : 0u) | (aux2 ? 2u : 0u));
		if (l->x) {
			put_u64(w, l->x->aux2_base);
			put_u64(w, l->x->tree ? l->x->nleaf_pow : 0);
			put_u64(w, l->x->nbig);
		}
		if (n) {
			put(w, st_ts(l), n * 8);
			put(w, st_dur(l), n * 4);
			put(w, st_name(l), n * 4);
			put(w, st_args(l), n * 4);
			if (aux)
				put(w, st_aux(l), n * 4);
			if (aux2)
				put(w, st_aux2(l), n * 4);
			put(w, st_kind(l), n);
			put_pad8(w, (size_t)n * (4 * (3 + !!aux + !!aux2) + 1));
		}
		if (l->x && l->x->nbig)
			put(w, l->x->big, l->x->nbig * sizeof(*l->x->big));
		if (l->x && l->x->tree)
			put(w, l->x->tree, 2 * l->x->nleaf_pow * sizeof(*l->x->tree));
	}
}

struct ent {
	char name[64];
	uint64_t size;
	int64_t mtime;
};

static int cmp_newest(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	return x->mtime > y->mtime ? -1 : x->mtime < y->mtime;
}

/* Keep the newest files within CACHE_MAX_BYTES and CACHE_MAX_FILES; the rest go. */
static void evict(int dfd)
{
	int fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct ent *e = NULL;
	size_t n = 0, cap = 0;
	uint64_t total = 0;
	struct dirent *de;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct stat st;

		if (len < 5 || len >= sizeof(e->name) || strcmp(de->d_name + len - 4, ".ftc") ||
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			struct ent *ne = realloc(e, (cap = cap ? cap * 2 : 32) * sizeof(*e));

			if (!ne)
				break;
			e = ne;
		}
		memcpy(e[n].name, de->d_name, len + 1); /* len < sizeof(name), checked above */
		e[n].size = (uint64_t)st.st_size;
		e[n].mtime = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
		n++;
	}
	closedir(d);
	if (e)
		qsort(e, n, sizeof(*e), cmp_newest);
	for (size_t i = 0; i < n; i++) {
		total += e[i].size;
		/* the newest (just written) stays even alone over the cap: it is what the next open wants */
		if (i && (total > CACHE_MAX_BYTES || i >= CACHE_MAX_FILES))
			unlinkat(dfd, e[i].name, 0);
	}
	free(e);
}

void *fts_store_cache_writer(void *arg)
{
	struct st_cache *c = arg;
	const struct fts_store *s = c->store;
	struct wr w = { .fd = -1 };
	struct hdr h = c->key;
	char tmp[80];

	snprintf(tmp, sizeof(tmp), ".tmp-%d-%s", (int)getpid(), c->name);
	w.buf = calloc(1, WBUF);
	if (!w.buf)
		return NULL;
	unlinkat(c->dfd, tmp, 0); /* a leftover of a dead process that had our pid */
	w.fd = openat(c->dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (w.fd < 0) {
		snprintf(c->wnote, sizeof(c->wnote), "cache not written: %s", strerror(errno));
		free(w.buf);
		return NULL;
	}
	w.n = sizeof(h); /* the header's room (zeros), written last, outside the checksum */
	flush(&w, 0);
	fts_cache_sum_init(&w.h);
	w.total = 0;
	write_payload(&w, s);
	h.sum = finish_sum(&w);
	h.payload_bytes = w.total + w.n;
	flush(&w, 0);
	free(w.buf);
	h.nstrs = s->strs.n;
	h.nlanes = s->nlanes;
	h.items = s->info.items;
	h.hdr_sum = fts_cache_sum_all(&h, offsetof(struct hdr, hdr_sum));
	if (w.failed || pwrite(w.fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h)) {
		snprintf(c->wnote, sizeof(c->wnote), "cache not written: %s",
			 strerror(w.failed ? w.failed : errno ? errno : ENOSPC));
		close(w.fd);
		unlinkat(c->dfd, tmp, 0);
		return NULL;
	}
	close(w.fd);
	if (renameat(c->dfd, tmp, c->dfd, c->name)) {
		snprintf(c->wnote, sizeof(c->wnote), "cache not written: %s", strerror(errno));
		unlinkat(c->dfd, tmp, 0);
		return NULL;
	}
	evict(c->dfd);
	return NULL;
}
