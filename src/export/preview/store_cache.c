// SPDX-License-Identifier: MIT
/*
 * store_cache.c - the preview store written to a file after a full load and
 * read back on the next open of the same input (issue 20: reopening a 10 M
 * slice capture in under a second).
 *
 * Where: <cache_dir>/ftscope (the option; the programs pass $XDG_CACHE_HOME,
 * else $HOME/.cache: the library reads no environment); the directory
 * is made 0700 and opened without following a symlink, and must be ours and
 * not writable by group or others. One file per input, "<key hash>.ftc".
 * Key: the input's st_dev, st_ino, size, mtime and ctime (ns), the same of
 * its "-wal" when there is one (a WAL-mode DB's newest rows are there, its
 * main file untouched) and of the pid mapping, the ftscope version and the
 * format version below, all kept in the header and compared whole (the file
 * name is only a hint).
 * Trust: a file that is not ours, not a regular file, or writable by group
 * or others is ignored; the header, a 64-bit checksum over the payload
 * (xxh64's round, four lanes) and every index in the payload (string ids
 * and offsets, lane groups, kinds, long-item entries, summary sizes) are
 * checked before the store is used: a bad file is a one-line note and a
 * normal load, never a crash. Writing: a second thread, into an O_EXCL |
 * O_NOFOLLOW temp file renamed into place; then the oldest files go until
 * the directory holds at most 2 GiB in 32 files (store_cache_write.c). A
 * load with an extra sink is never served from the cache: that sink must see
 * the input's events (the preview's summary is made from the store itself,
 * store_stats.c).
 */
#include "export/preview/store_cache_local.h"
#include "core/internal.h"
#include "core/util/self_image.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FTS_VERSION
#define FTS_VERSION "0"
#endif

#define CACHE_FORMAT 3u
#define CACHE_MAGIC "FTSCACH1"
#define CACHE_MAX_CPU (1 << 20)        /* loss entries: more is a broken file */

/*
 * These are written raw: a change to any of them changes the file, and must
 * bump CACHE_FORMAT (else an old file of the same version would be misread;
 * the index checks would still keep it from crashing the view).
 */
static_assert(sizeof(struct fts_store_info) == 88 && sizeof(struct fts_store_lane) == 48 &&
	      sizeof(struct fts_loss_cpu) == 80 && sizeof(struct st_node) == 32 &&
	      sizeof(struct st_big) == 16, "the cache's raw structs changed: bump CACHE_FORMAT");

/* ---- where, and the key ---- */

static void id_of(const struct stat *st, struct id5 *id)
{
	id->dev = (uint64_t)st->st_dev;
	id->ino = (uint64_t)st->st_ino;
	id->size = (uint64_t)st->st_size;
	id->mtime_ns = (uint64_t)st->st_mtim.tv_sec * 1000000000ull + (uint64_t)st->st_mtim.tv_nsec;
	id->ctime_ns = (uint64_t)st->st_ctim.tv_sec * 1000000000ull + (uint64_t)st->st_ctim.tv_nsec;
}

/*
 * The identity of @path's "-wal", zeros when there is none: a reader of a
 * WAL-mode DB takes the committed pages there (db_open.c), so new rows
 * change the -wal and leave the main file as it was.
 */
static void wal_id(const char *path, struct id5 *id)
{
	char wal[4096];
	struct stat st;

	memset(id, 0, sizeof(*id));
	if ((size_t)snprintf(wal, sizeof(wal), "%s-wal", path) < sizeof(wal) && !stat(wal, &st))
		id_of(&st, id);
}

/* Ours, a directory, nobody else may write into it. */
static int dir_trusted(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
	       !(st.st_mode & (S_IWGRP | S_IWOTH));
}

/* The cache directory, made when missing, never through a symlink; -1 with a note when unusable. */
static int open_dir(struct st_cache *c, const char *base)
{
	int bfd, dfd;

	if (!base || base[0] != '/')
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

struct build_find {
	uint8_t *out;        /* 20 bytes */
};

/* The GNU build id in one of @info's PT_NOTE segments. */
static void build_note(struct dl_phdr_info *info, void *arg)
{
	struct build_find *f = arg;

	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
		const unsigned char *end = p + ph->p_memsz;

		while (ph->p_type == PT_NOTE && p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
			const unsigned char *desc = p + sizeof(*n) + ((n->n_namesz + 3) & ~3u);

			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(p + sizeof(*n), "GNU", 4) &&
			    desc + n->n_descsz <= end) {
				memcpy(f->out, desc, n->n_descsz < 20 ? n->n_descsz : 20);
				return;
			}
			p = desc + ((n->n_descsz + 3) & ~3u);
		}
	}
}

/*
 * The build id of the code that makes the store (the library, or the program
 * it is linked into): the version alone would serve a rebuilt store's old
 * layout or content to a development build. Without one (a build without
 * --build-id), zeros: the version and format still hold.
 */
static void build_id(uint8_t out[20])
{
	struct build_find f = { .out = out };

	memset(out, 0, 20);
	fts_self_image((uintptr_t)&build_id, build_note, &f);
}

struct st_cache *fts_store_cache_new(const struct fts_store_open_opts *o)
{
	struct st_cache *c;
	struct stat st;
	uint64_t h;

	if (!o->cache || !o->cache_dir || !o->path || o->profiling_data || o->extra)
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
	build_id(c->key.build);
	id_of(&st, &c->key.input);
	wal_id(o->path, &c->key.wal);
	if (o->pid_mapping) {
		struct stat pm;

		if (stat(o->pid_mapping, &pm)) {
			free(c);
			return NULL;
		}
		id_of(&pm, &c->key.pidmap);
	}
	h = fts_cache_sum_all(&c->key, offsetof(struct hdr, payload_bytes));
	snprintf(c->name, sizeof(c->name), "%016llx.ftc", (unsigned long long)h);
	c->dfd = open_dir(c, o->cache_dir);
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

/* The payload's checksum, as fts_cache_sum_all, a chunk at a time: each read in at once, then given back. */
static uint64_t sum_mapped(const unsigned char *map, const unsigned char *p, size_t n)
{
	const unsigned char *kept = map;
	size_t whole = n & ~(size_t)31;
	struct fts_cache_sum h;

	fts_cache_sum_init(&h);
	for (size_t at = 0; at < whole; at += SUM_CHUNK) {
		size_t k = whole - at < SUM_CHUNK ? whole - at : SUM_CHUNK;

#ifdef MADV_POPULATE_READ
		madvise((void *)((uintptr_t)(p + at) & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1)), k + 4096,
			MADV_POPULATE_READ); /* one fault pass per chunk (fails quietly before Linux 5.14) */
#endif
		fts_cache_sum_blocks(&h, p + at, k);
		drop_below(&kept, p + at + k);
	}
	h.len = n;
	return fts_cache_sum_end(&h, p + whole, n - whole);
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

/* A lane's @l->pub.nitems items, column by column, each kind and string id checked. */
static int read_columns(const struct fts_store *s, struct st_lane *l, struct rd *r, int aux, int aux2,
			const char **bad)
{
	uint64_t n = l->pub.nitems;
	const uint64_t *ts = take_n(r, n, 8);
	const uint32_t *dur = take_n(r, n, 4), *name = take_n(r, n, 4), *args = take_n(r, n, 4);
	const uint32_t *ax = aux ? take_n(r, n, 4) : NULL, *ax2 = aux2 ? take_n(r, n, 4) : NULL;
	const uint8_t *kind = take_n(r, n, 1);

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
		/* item names feed fts_strtab_get (fts_store_actx, store_stats.c): a real id, on every lane */
		if (st_kind(l)[i] >= FTS_ITEM__COUNT || !str_ok(s, st_args(l)[i], 0) ||
		    !str_ok(s, st_name(l)[i], 0))
			BAD("an item's kind or string");
	}
	return 0;
}

/* A lane's index: its @nbig long items (in item order) and its summary tree of 2 * @pow nodes. */
static int read_index(struct st_lane *l, struct rd *r, uint64_t nbig, uint64_t pow, const char **bad)
{
	uint64_t n = l->pub.nitems;

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
	if (n && read_columns(s, l, r, aux, aux2, bad))
		return -1;
	return read_index(l, r, nbig, pow, bad);
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

int fts_store_cache_load(struct st_cache *c, struct fts_store **out)
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
	if (h.hdr_sum != fts_cache_sum_all(&h, offsetof(struct hdr, hdr_sum)) ||
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

void fts_store_cache_save(struct st_cache *c, struct fts_store *s)
{
	s->cache = c;
	if (c->dfd < 0)
		return;
	c->store = s;
	/* signals blocked, as every library thread: the caller's handlers run on its own threads */
	if (!fts__thread_start(&c->writer, NULL, fts_store_cache_writer, c))
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
