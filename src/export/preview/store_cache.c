// SPDX-License-Identifier: MIT
/*
 * store_cache.c - the preview store written to a file after a full load and
 * read back on the next open of the same input (issue 20: reopening a 10 M
 * slice capture in under a second).
 *
 * Where: $XDG_CACHE_HOME/ftscope, else $HOME/.cache/ftscope; the directory
 * is made 0700 and opened without following a symlink, and must be ours and
 * not writable by group or others. One file per input, "<key hash>.ftc".
 * Key: the input's st_dev, st_ino, size, mtime and ctime (ns), the same of
 * the pid mapping, the ftscope version and the format version below, all
 * kept in the header and compared whole (the file name is only a hint).
 * Trust: a file that is not ours, not a regular file, or writable by group
 * or others is ignored; the header, a 64-bit checksum over the payload
 * (xxh64's round, four lanes) and every index in the payload (string ids
 * and offsets, lane groups, kinds, long-item entries, summary sizes) are
 * checked before the store is used: a bad file is a one-line note and a
 * normal load, never a crash. Writing: a second thread, into an O_EXCL |
 * O_NOFOLLOW temp file renamed into place; then the oldest files go until
 * the directory holds at most CACHE_MAX_BYTES in CACHE_MAX_FILES files.
 */
#include "export/preview/store_cache.h"
#include "kit/kit.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FTS_VERSION
#define FTS_VERSION "0"
#endif

#define CACHE_FORMAT 1u
#define CACHE_MAGIC "FTSCACH1"
#define CACHE_MAX_BYTES (2ull << 30)   /* the directory's total, oldest files evicted first */
#define CACHE_MAX_FILES 32
#define CACHE_MAX_CPU (1 << 20)        /* loss entries: more is a broken file */
#define WBUF (1u << 20)                /* the writer's buffer: a multiple of the checksum's block */

/*
 * These are written raw: a change to any of them changes the file, and must
 * bump CACHE_FORMAT (else an old file of the same version would be misread;
 * the index checks would still keep it from crashing the view).
 */
static_assert(sizeof(struct fts_store_info) == 88 && sizeof(struct fts_store_lane) == 48 &&
	      sizeof(struct fts_loss_cpu) == 80 && sizeof(struct st_node) == 32 &&
	      sizeof(struct st_big) == 16, "the cache's raw structs changed: bump CACHE_FORMAT");

/* One file's identity: changes whenever the file is replaced or written. */
struct id5 {
	uint64_t dev, ino, size, mtime_ns, ctime_ns;
};

struct hdr {
	char magic[8];
	uint32_t format, hdr_bytes;
	char version[32];
	struct id5 input, pidmap;
	uint64_t payload_bytes;
	uint64_t nstrs, nlanes, items;  /* what the payload says, repeated for a quick look */
	uint64_t sum;                   /* over the payload */
	uint64_t hdr_sum;               /* over the header up to here */
};

struct st_cache {
	int dfd;                        /* the cache directory, -1: not usable */
	char name[40];                  /* "<16 hex>.ftc" */
	struct hdr key;                 /* magic, format, version, input, pidmap filled */
	char note[200];                 /* the open's: read by the front while the writer runs */
	char wnote[200];                /* the writer's failure: quiet, for a debugger's eyes only */
	pthread_t writer;
	int writing;
	const struct fts_store *store;  /* what the writer writes (read only, alive until joined) */
};

/* ---- checksum: xxh64's round over four lanes of 8-byte words ---- */

#define P1 0x9E3779B185EBCA87ull
#define P2 0xC2B2AE3D27D4EB4Full
#define P3 0x165667B19E3779F9ull

struct sum {
	uint64_t v[4], len;
};

static uint64_t rotl(uint64_t x, int r)
{
	return x << r | x >> (64 - r);
}

static void sum_init(struct sum *h)
{
	h->v[0] = P1 + P2;
	h->v[1] = P2;
	h->v[2] = 0;
	h->v[3] = 0 - P1;
	h->len = 0;
}

/* Whole 32-byte blocks of @p (@n a multiple of 32, except at the very end: see sum_end). */
static void sum_blocks(struct sum *h, const unsigned char *p, size_t n)
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

/* The tail @p (@n < 32 bytes, the bytes sum_blocks left) and the fold. */
static uint64_t sum_end(const struct sum *h, const unsigned char *p, size_t n)
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

static uint64_t sum_all(const void *p, size_t n)
{
	struct sum h;
	size_t whole = n & ~(size_t)31;

	sum_init(&h);
	sum_blocks(&h, p, whole);
	h.len = n;
	return sum_end(&h, (const unsigned char *)p + whole, n - whole);
}

/* ---- where, and the key ---- */

static void id_of(const struct stat *st, struct id5 *id)
{
	id->dev = (uint64_t)st->st_dev;
	id->ino = (uint64_t)st->st_ino;
	id->size = (uint64_t)st->st_size;
	id->mtime_ns = (uint64_t)st->st_mtim.tv_sec * 1000000000ull + (uint64_t)st->st_mtim.tv_nsec;
	id->ctime_ns = (uint64_t)st->st_ctim.tv_sec * 1000000000ull + (uint64_t)st->st_ctim.tv_nsec;
}

/* Ours, a directory, nobody else may write into it. */
static int dir_trusted(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
	       !(st.st_mode & (S_IWGRP | S_IWOTH));
}

/* The cache directory, made when missing, never through a symlink; -1 with a note when unusable. */
static int open_dir(struct st_cache *c)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char base[4096];
	int bfd, dfd;

	if (xdg && xdg[0] == '/')
		snprintf(base, sizeof(base), "%s", xdg);
	else if (home && home[0] == '/')
		snprintf(base, sizeof(base), "%s/.cache", home);
	else
		return -1; /* nowhere to keep it: quietly none */
	if (mkdir(base, 0700) && errno != EEXIST)
		goto unusable;
	bfd = open(base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (bfd < 0)
		goto unusable;
	if (mkdirat(bfd, "ftscope", 0700) && errno != EEXIST) {
		close(bfd);
		goto unusable;
	}
	dfd = openat(bfd, "ftscope", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(bfd);
	if (dfd < 0)
		goto unusable;
	if (!dir_trusted(dfd)) {
		close(dfd);
		snprintf(c->note, sizeof(c->note),
			 "cache not used: its directory is not ours alone; loaded from the input");
		return -1;
	}
	return dfd;
unusable:
	snprintf(c->note, sizeof(c->note), "cache not used: %s (a symlink, or cannot be made); loaded from the input",
		 strerror(errno));
	return -1;
}

struct st_cache *fts_store_cache_new(const struct fts_store_open_opts *o)
{
	const char *env = getenv("FTSCOPE_NO_CACHE");
	struct st_cache *c;
	struct stat st;
	uint64_t h;

	if (!o->cache || !o->path || (env && env[0] && strcmp(env, "0")) || o->profiling_data)
		return NULL;
	if (stat(o->path, &st) || !S_ISREG(st.st_mode))
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	memcpy(c->key.magic, CACHE_MAGIC, 8);
	c->key.format = CACHE_FORMAT;
	c->key.hdr_bytes = sizeof(struct hdr);
	snprintf(c->key.version, sizeof(c->key.version), "%s", FTS_VERSION);
	id_of(&st, &c->key.input);
	if (o->pid_mapping) {
		struct stat pm;

		if (stat(o->pid_mapping, &pm)) {
			free(c);
			return NULL;
		}
		id_of(&pm, &c->key.pidmap);
	}
	h = sum_all(&c->key, offsetof(struct hdr, payload_bytes));
	snprintf(c->name, sizeof(c->name), "%016llx.ftc", (unsigned long long)h);
	c->dfd = open_dir(c);
	if (c->dfd < 0 && !c->note[0]) {
		free(c);
		return NULL;
	}
	return c;
}

const char *fts_store_cache_text(const struct st_cache *c)
{
	return c && c->note[0] ? c->note : NULL;
}

/* ---- reading back ---- */

struct rd {
	const unsigned char *p;
	size_t left;
	const unsigned char *kept;   /* the mapping's pages from here on are still resident */
};

/*
 * Give back the mapping's pages below @upto: they were read, and the file
 * stays in the page cache. Keeps a reopen's peak RSS near the store's own
 * (500 MB at 10 M slices with the whole file resident, the store being 250).
 */
static void drop_below(const unsigned char **kept, const unsigned char *upto)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), a = (uintptr_t)*kept, b = (uintptr_t)upto & ~(pg - 1);

	if (b > a) {
		madvise((void *)a, b - a, MADV_DONTNEED);
		*kept = (const unsigned char *)b;
	}
}

#define SUM_CHUNK (16u << 20)   /* a multiple of the checksum's 32-byte block */

/* The payload's checksum, as sum_all, a chunk at a time: each read in at once, then given back. */
static uint64_t sum_mapped(const unsigned char *map, const unsigned char *p, size_t n)
{
	const unsigned char *kept = map;
	size_t whole = n & ~(size_t)31;
	struct sum h;

	sum_init(&h);
	for (size_t at = 0; at < whole; at += SUM_CHUNK) {
		size_t k = whole - at < SUM_CHUNK ? whole - at : SUM_CHUNK;

#ifdef MADV_POPULATE_READ
		madvise((void *)((uintptr_t)(p + at) & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1)), k + 4096,
			MADV_POPULATE_READ); /* one fault pass per chunk (fails quietly before Linux 5.14) */
#endif
		sum_blocks(&h, p + at, k);
		drop_below(&kept, p + at + k);
	}
	h.len = n;
	return sum_end(&h, p + whole, n - whole);
}

/* The next @n bytes, or NULL when the payload ends first. */
static const void *take(struct rd *r, size_t n)
{
	const void *p = r->p;

	if (n > r->left)
		return NULL;
	r->p += n;
	r->left -= n;
	return p;
}

static int take_u64(struct rd *r, uint64_t *v)
{
	const void *p = take(r, 8);

	if (!p)
		return -1;
	memcpy(v, p, 8);
	return 0;
}

/* @n elements of @size, an overflow-safe count. */
static const void *take_n(struct rd *r, uint64_t n, size_t size)
{
	if (n > r->left / (size ? size : 1))
		return NULL;
	return take(r, (size_t)n * size);
}

static int pad8(struct rd *r, size_t n)
{
	return take(r, (8 - n % 8) % 8) ? 0 : -1;
}

#define BAD(why) do { *bad = (why); return -1; } while (0)

static int read_strs(struct fts_store *s, struct rd *r, const char **bad)
{
	struct fts_strtab *t = &s->strs;
	uint64_t n, len;
	const uint64_t *off;
	const char *arena;

	if (take_u64(r, &n) || take_u64(r, &len) || n >= UINT32_MAX / 4 || len >= (1ull << FTS_STRTAB_OFF_BITS))
		BAD("string table size");
	off = take_n(r, n, 8);
	arena = take_n(r, len, 1);
	if (!off || !arena || pad8(r, (size_t)len))
		BAD("string table cut short");
	t->off = malloc((n ? n : 1) * 8);
	t->arena = malloc(len ? len : 1);
	if (!t->off || !t->arena)
		BAD("out of memory");
	memcpy(t->off, off, n * 8);
	memcpy(t->arena, arena, len);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t o = t->off[i] & ((1ull << FTS_STRTAB_OFF_BITS) - 1), l = t->off[i] >> FTS_STRTAB_OFF_BITS;

		if (o >= len || l >= len - o || t->arena[o + l])
			BAD("a string's offset");
	}
	t->n = t->ncap = (uint32_t)n;
	t->len = t->cap = len;
	/* no hash slots: a loaded store interns nothing (fts_strtab_intern would rebuild them) */
	return 0;
}

/* A string id the store may pass to fts_strtab_get. */
static int str_ok(const struct fts_store *s, uint32_t id, int none_ok)
{
	return id < s->strs.n || (none_ok && id == FTS_STR_NONE);
}

static int read_lane(struct fts_store *s, struct st_lane *l, struct rd *r, const char **bad)
{
	uint64_t flags, n, base = 0, pow = 0, nbig = 0, leaves;
	const void *p;
	int aux, aux2;

	p = take(r, sizeof(l->pub));
	if (!p || take_u64(r, &flags))
		BAD("lane cut short");
	memcpy(&l->pub, p, sizeof(l->pub));
	if ((unsigned)l->pub.group > FTS_GROUP_TASK || !str_ok(s, l->pub.tid, 0) ||
	    !str_ok(s, l->pub.comm, 1) || flags > 3)
		BAD("a lane's group or name");
	n = l->pub.nitems;
	if (n > UINT32_MAX)
		BAD("a lane's item count");
	aux = st_has_aux(l);
	aux2 = (int)(flags & 2);
	if (flags & 1) {
		if (take_u64(r, &base) || take_u64(r, &pow) || take_u64(r, &nbig))
			BAD("lane cut short");
		if (!fts_store_ext(l))
			BAD("out of memory");
		l->x->aux2_base = base;
	} else if (aux2) {
		BAD("a lane's columns");
	}
	leaves = (n + FTS_STORE_LEAF - 1) / FTS_STORE_LEAF;
	/* the summary is there exactly when tree_build (lane_index.c) makes one, of its size */
	if (leaves > 1) {
		uint64_t want = 1;

		while (want < leaves)
			want *= 2;
		if (pow != want)
			BAD("a lane's summary size");
	} else if (pow) {
		BAD("a lane's summary size");
	}
	if (nbig > n)
		BAD("a lane's long items");
	if (n > r->left / st_item_bytes(aux, aux2))
		BAD("lane columns cut short");
	l->pub.nitems = 0;
	if (n && fts_store_relayout(s, l, n, aux2))
		BAD("out of memory");
	l->pub.nitems = n;
	if (n) {
		const uint64_t *ts = take_n(r, n, 8);
		const uint32_t *dur = take_n(r, n, 4), *name = take_n(r, n, 4), *args = take_n(r, n, 4);
		const uint32_t *ax = aux ? take_n(r, n, 4) : NULL, *ax2 = aux2 ? take_n(r, n, 4) : NULL;
		const uint8_t *kind = take_n(r, n, 1);
		int named = st_named(l);

		if (!kind || pad8(r, (size_t)n * (4 * (3 + !!aux + !!aux2) + 1)))
			BAD("lane columns cut short");
		memcpy(st_ts(l), ts, n * 8);
		memcpy(st_dur(l), dur, n * 4);
		memcpy(st_name(l), name, n * 4);
		memcpy(st_args(l), args, n * 4);
		if (aux)
			memcpy(st_aux(l), ax, n * 4);
		if (aux2)
			memcpy(st_aux2(l), ax2, n * 4);
		memcpy(st_kind(l), kind, n);
		for (uint64_t i = 0; i < n; i++) {
			/* a named lane's item names feed fts_strtab_get (fts_store_actx): a real id */
			if (st_kind(l)[i] >= FTS_ITEM__COUNT || !str_ok(s, st_args(l)[i], 0) ||
			    !str_ok(s, st_name(l)[i], !named))
				BAD("an item's kind or string");
		}
	}
	if (nbig) {
		const struct st_big *b = take_n(r, nbig, sizeof(struct st_big));

		if (!b)
			BAD("long items cut short");
		l->x->big = malloc(nbig * sizeof(*b));
		if (!l->x->big)
			BAD("out of memory");
		memcpy(l->x->big, b, nbig * sizeof(*b));
		l->x->nbig = l->x->capbig = nbig;
		for (uint64_t i = 0; i < nbig; i++)
			if (b[i].item >= n || (i && b[i].item <= b[i - 1].item))
				BAD("a long item's index");
	}
	if (pow) {
		const struct st_node *t = take_n(r, 2 * pow, sizeof(struct st_node));

		if (!t)
			BAD("summary cut short");
		l->x->tree = malloc(2 * pow * sizeof(*t));
		if (!l->x->tree)
			BAD("out of memory");
		memcpy(l->x->tree, t, 2 * pow * sizeof(*t));
		l->x->nleaf_pow = pow;
	}
	return 0;
}

static int read_payload(struct fts_store *s, const struct hdr *h, struct rd *r, const char **bad)
{
	uint64_t ncpu, nl, cpus = 0, tasks = 0, items = 0;
	const void *p;

	p = take(r, sizeof(s->info));
	if (!p || take_u64(r, &ncpu))
		BAD("cut short");
	memcpy(&s->info, p, sizeof(s->info));
	if ((unsigned)s->info.source > FTS_SRC_JSON || ncpu > CACHE_MAX_CPU)
		BAD("info");
	if (ncpu) {
		p = take_n(r, ncpu, sizeof(struct fts_loss_cpu));
		if (!p)
			BAD("loss cut short");
		if (!fts_loss_at(&s->loss, (int)ncpu - 1) || s->loss.ncpu != (int)ncpu)
			BAD("out of memory");
		memcpy(s->loss.cpu, p, ncpu * sizeof(struct fts_loss_cpu));
	}
	if (read_strs(s, r, bad))
		return -1;
	if (take_u64(r, &nl) || nl != h->nlanes || nl > UINT32_MAX / 2 || nl > r->left / sizeof(struct fts_store_lane))
		BAD("lane count");
	s->lane = calloc(nl ? nl : 1, sizeof(*s->lane));
	if (!s->lane)
		BAD("out of memory");
	s->caplanes = nl ? (uint32_t)nl : 1;
	for (uint64_t i = 0; i < nl; i++) {
		/* counted first: fts_store_free releases what a failed lane holds */
		s->nlanes = (uint32_t)i + 1;
		if (read_lane(s, &s->lane[i], r, bad))
			return -1;
		drop_below(&r->kept, r->p);
		cpus += s->lane[i].pub.group == FTS_GROUP_CPU;
		tasks += s->lane[i].pub.group == FTS_GROUP_TASK;
		items += s->lane[i].pub.nitems;
	}
	if (r->left || s->info.ncpu_lanes != cpus || s->info.ntask_lanes != tasks || s->info.items != items ||
	    items != h->items || s->strs.n != h->nstrs)
		BAD("totals");
	fts_store_slab_tidy(s);
	s->indexed = 1;
	return 0;
}

/* Ours, a regular file, nobody else may write it: else it is not read at all. */
static int file_trusted(const struct stat *st)
{
	return S_ISREG(st->st_mode) && st->st_uid == geteuid() && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/*
 * An args blob taken apart once (a 10 M-item capture has ~1,500 distinct
 * blobs): its keys and literal values point into the blob, its markers are
 * rebuilt per item. Replaying through fts_args_decode scanned every blob of
 * every item again (a quarter of a reopen's time in strlen).
 */
struct tpair {
	const char *key, *val;   /* val: the literal value, or what follows the marker */
	char mark;               /* 0: literal; else the FTS_ARGS_* marker to rebuild */
};

struct tmpl {
	uint32_t first;          /* its pairs in the pool; UINT32_MAX: not taken apart yet */
	uint32_t n;
};

struct tmpls {
	struct tmpl *t;          /* by args string id */
	struct tpair *pool;
	size_t npool, cap;
};

/* Blob @id's pairs, taking it apart on first use as fts_args_decode reads it; NULL when out of memory. */
static const struct tmpl *tmpl_of(struct tmpls *T, const struct fts_strtab *strs, uint32_t id)
{
	struct tmpl *t = &T->t[id];
	const char *p = fts_strtab_get(strs, id), *end = p + fts_strtab_len(strs, id);

	if (t->first != UINT32_MAX)
		return t;
	if (T->npool + FTS_ITEM_MAX_ARGS > T->cap) {
		size_t nc = T->cap ? T->cap * 2 : 1024;
		struct tpair *np = realloc(T->pool, nc * sizeof(*np));

		if (!np)
			return NULL;
		T->pool = np;
		T->cap = nc;
	}
	t->first = (uint32_t)T->npool;
	t->n = 0;
	while (p < end && t->n < FTS_ITEM_MAX_ARGS) {
		const char *k = p, *v = k + strlen(k) + 1;
		struct tpair *q = &T->pool[T->npool];

		if (v >= end)
			break;
		p = v + strlen(v) + 1;
		q->key = k;
		q->mark = 0;
		if (v[0] == FTS_ARGS_LIT) {
			v++;
		} else if (v[0] >= FTS_ARGS_DUR && v[0] <= FTS_ARGS_LAST) {
			q->mark = v[0];
			v++;
		}
		q->val = v;
		T->npool++;
		t->n++;
	}
	return t;
}

/*
 * Give every lane of @s to @k, then every item with its args, as a load
 * would (the statistics sink: its numbers come out the same). The args are
 * rebuilt from each blob's template with one context per lane, not through
 * fts_store_item / fts_store_args, which redo per item what a lane shares.
 */
static int replay(const struct fts_store *s, struct fts_sink *k, struct fts_err *err)
{
	struct tmpls T = { 0 };
	struct fts_item it;
	char buf[512];
	int rc = 0;

	T.t = malloc((s->strs.n ? s->strs.n : 1) * sizeof(*T.t));
	if (!T.t) {
		k->finish(k, 0, err);
		return -1;
	}
	memset(T.t, 0xff, (s->strs.n ? s->strs.n : 1) * sizeof(*T.t));
	for (uint32_t i = 0; i < s->nlanes && !rc; i++) {
		const struct fts_store_lane *l = &s->lane[i].pub;
		struct fts_lane ln = { .id = i, .group = l->group, .sort_index = l->cpu >= 0 ? l->cpu : 0,
				       .tid = fts_store_str(s, l->tid) };

		rc = k->lane(k, &ln, err);
	}
	for (uint32_t i = 0; i < s->nlanes && !rc; i++) {
		const struct st_lane *l = &s->lane[i];
		const uint32_t *name = st_name(l), *args = st_args(l), *aux = st_aux(l), *aux2 = st_aux2(l);
		const uint8_t *kind = st_kind(l);
		uint32_t last_name = FTS_STR_NONE;
		struct st_actx cx;

		if (!l->pub.nitems)
			continue;
		fts_store_actx(s, l, 0, &cx); /* what the lane shares; per item below what differs */
		it.lane = i;
		for (uint64_t j = 0; j < l->pub.nitems && !rc; j++) {
			const struct tmpl *t = tmpl_of(&T, &s->strs, args[j]);
			size_t used = 0;

			if (!t) {
				rc = fts_err_set(err, -ENOMEM, "out of memory");
				break;
			}
			cx.dur = fts_store_dur(l, j);
			cx.aux = aux ? aux[j] : FTS_AUX_NONE;
			cx.aux2 = aux2 ? aux2[j] : FTS_AUX_NONE;
			if (l->pub.group != FTS_GROUP_TASK && name[j] != last_name) {
				last_name = name[j];
				cx.pid = fts_args_ctx_pid(fts_strtab_get(&s->strs, name[j]));
			}
			it.nargs = (int)t->n;
			for (uint32_t a = 0; a < t->n; a++) {
				const struct tpair *q = &T.pool[t->first + a];

				it.args[a].key = q->key;
				it.args[a].val = q->val;
				if (q->mark) {
					int w = fts_args_rebuild(q->mark, q->val, &cx, buf + used, sizeof(buf) - used);

					if (w < 0) {
						it.nargs = 0; /* as fts_store_args: no room, no args */
						break;
					}
					it.args[a].val = buf + used;
					used += (size_t)w + 1;
				}
			}
			it.kind = (enum fts_item_kind)kind[j];
			it.ts = st_ts(l)[j];
			it.dur = cx.dur;
			it.name = fts_store_str(s, name[j]);
			rc = k->item(k, &it, err);
		}
	}
	free(T.t);
	free(T.pool);
	return k->finish(k, !rc, err) || rc ? -1 : 0;
}

int fts_store_cache_load(struct st_cache *c, const struct fts_store_open_opts *o,
			 struct fts_store **out, struct fts_err *err)
{
	double t0 = fts__clock_mono_s();
	const char *bad = NULL;
	struct fts_store *s = NULL;
	struct hdr h;
	struct stat st;
	struct rd r;
	void *map = MAP_FAILED;
	int fd;

	*out = NULL;
	if (c->dfd < 0)
		return 1;
	fd = openat(c->dfd, c->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 1; /* a miss (or a symlink in its place: not followed, not used) */
	if (fstat(fd, &st) || !file_trusted(&st)) {
		bad = "not ours, or writable by others";
		goto reject;
	}
	if ((uint64_t)st.st_size < sizeof(h)) {
		bad = "too short";
		goto reject;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		bad = "cannot be mapped";
		goto reject;
	}
	memcpy(&h, map, sizeof(h));
	if (h.hdr_sum != sum_all(&h, offsetof(struct hdr, hdr_sum)) ||
	    memcmp(&h, &c->key, offsetof(struct hdr, payload_bytes))) {
		bad = "another input, version or format";
		goto reject;
	}
	if (h.payload_bytes != (uint64_t)st.st_size - sizeof(h) ||
	    h.sum != sum_mapped(map, (const unsigned char *)map + sizeof(h), (size_t)h.payload_bytes)) {
		bad = "checksum mismatch";
		goto reject;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		bad = "out of memory";
		goto reject;
	}
	fts_strtab_init(&s->strs);
	s->last_tid = FTS_STR_NONE;
	r.p = (const unsigned char *)map + sizeof(h);
	r.left = (size_t)h.payload_bytes;
	r.kept = map;
	if (read_payload(s, &h, &r, &bad))
		goto reject;
	munmap(map, (size_t)st.st_size);
	map = MAP_FAILED;
	if (o->extra) {
		/*
		 * The extra sink's own failure (out of memory): it has taken part of
		 * the items, so a load from the input now would count them twice.
		 */
		if (replay(s, o->extra, err)) {
			close(fd);
			fts_store_free(s);
			return err && err->code ? err->code : -ENOMEM;
		}
	}
	futimens(fd, NULL); /* eviction goes by last use */
	close(fd);
	s->info.load_seconds = fts__clock_mono_s() - t0;
	snprintf(c->note, sizeof(c->note), "from cache");
	s->cache = c;
	*out = s;
	return 0;
reject:
	if (map != MAP_FAILED)
		munmap(map, (size_t)st.st_size);
	close(fd);
	fts_store_free(s);
	snprintf(c->note, sizeof(c->note), "cache rejected: %s; loaded from the input", bad);
	return 1;
}

/* ---- writing ---- */

struct wr {
	int fd;
	unsigned char *buf;
	size_t n;
	struct sum h;
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
		sum_blocks(&w->h, w->buf, w->n);
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

/* The payload's checksum as sum_all computes it, the buffer's rest being the end. */
static uint64_t finish_sum(const struct wr *w)
{
	size_t whole = w->n & ~(size_t)31;
	struct sum h = w->h;

	sum_blocks(&h, w->buf, whole);
	h.len = w->total + w->n;
	return sum_end(&h, w->buf + whole, w->n - whole);
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
		snprintf(e[n].name, sizeof(e[n].name), "%s", de->d_name);
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

static void *writer(void *arg)
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
	sum_init(&w.h);
	w.total = 0;
	write_payload(&w, s);
	h.sum = finish_sum(&w);
	h.payload_bytes = w.total + w.n;
	flush(&w, 0);
	free(w.buf);
	h.nstrs = s->strs.n;
	h.nlanes = s->nlanes;
	h.items = s->info.items;
	h.hdr_sum = sum_all(&h, offsetof(struct hdr, hdr_sum));
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

void fts_store_cache_save(struct st_cache *c, struct fts_store *s)
{
	s->cache = c;
	if (c->dfd < 0)
		return;
	c->store = s;
	if (!pthread_create(&c->writer, NULL, writer, c))
		c->writing = 1;
}

void fts_store_cache_free(struct st_cache *c)
{
	if (!c)
		return;
	if (c->writing)
		pthread_join(c->writer, NULL);
	if (c->dfd >= 0)
		close(c->dfd);
	free(c);
}
