// SPDX-License-Identifier: MIT
/* dat_layout.c - trace.dat layout walks that do not go through libtracecmd. */
#include "core/trace/dat_layout.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef FTS_HAVE_ZSTD
#include <zstd.h>
#endif

int fts_dat_pread_all(int fd, void *buf, size_t n, uint64_t off)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(fd, (char *)buf + got, n - got, (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

int fts_dat_grow(unsigned char **buf, size_t *cap, size_t need)
{
	unsigned char *p;

	if (need <= *cap)
		return 0;
	p = realloc(*buf, need);
	if (!p)
		return -1;
	*buf = p;
	*cap = need;
	return 0;
}

int fts_dat_v7_section(int fd, const struct dat_v7 *v, uint64_t off, unsigned char **out,
		      size_t *len, uint16_t *id, uint16_t *flags)
{
	unsigned char h[16], *z = NULL;
	uint64_t size;
	size_t cap = 0;
	uint32_t csize, rsize;

	if (off > v->file_size || v->file_size - off < sizeof(h) ||
	    fts_dat_pread_all(fd, h, sizeof(h), off))
		return -1;
	*id = fts_le16(h);
	*flags = fts_le16(h + 2);
	size = fts_le64(h + 8);
	off += sizeof(h);
	if (size > v->file_size - off || size > DAT_Z_MAX)
		return -1;
	if (!(*flags & DAT_SEC_COMPRESSED) || !v->dec) {
		if (*flags & DAT_SEC_COMPRESSED)
			return -1;
		*len = (size_t)size;
		if (fts_dat_grow(out, &cap, *len + 1) || fts_dat_pread_all(fd, *out, *len, off))
			return -1;
		return 0;
	}
	if (size < 8 || fts_dat_pread_all(fd, h, 8, off))
		return -1;
	csize = fts_le32(h);
	rsize = fts_le32(h + 4);
	if (csize > size - 8 || rsize > DAT_Z_MAX || fts_dat_grow(&z, &cap, csize + 1u) ||
	    fts_dat_pread_all(fd, z, csize, off + 8)) {
		free(z);
		return -1;
	}
	cap = 0;
	if (fts_dat_grow(out, &cap, (size_t)rsize + 1)) {
		free(z);
		return -1;
	}
	*len = v->dec(*out, rsize, z, csize);
	free(z);
	return v->is_err(*len) || *len > rsize ? -1 : 0;
}

static const unsigned char *take_str(const unsigned char **p, const unsigned char *end)
{
	const unsigned char *s = *p, *nul = memchr(s, 0, (size_t)(end - s));

	if (!nul)
		return NULL;
	*p = nul + 1;
	return s;
}

static int v7_buffer_opt(struct dat_v7 *v, const unsigned char *p, const unsigned char *end)
{
	struct dat_zbuffer b = { 0 };
	const unsigned char *name;
	void *n;

	if (end - p < 8)
		return -1;
	b.section = fts_le64(p);
	p += 8;
	name = take_str(&p, end);
	if (!name || !take_str(&p, end) || end - p < 8)   /* name, clock */
		return -1;
	b.page_size = (int)fts_le32(p);
	b.cpus = (int)fts_le32(p + 4);
	p += 8;
	if (b.cpus < 0 || b.cpus > 65536 || (end - p) / 20 < b.cpus)
		return -1;
	n = realloc(v->bufs, sizeof(*v->bufs) * (size_t)(v->nr_bufs + 1));
	if (!n)
		return -1;
	v->bufs = n;
	b.name = strdup((const char *)name);
	b.cpu = calloc((size_t)b.cpus + 1, sizeof(*b.cpu));
	if (!b.name || !b.cpu) {
		free(b.name);
		free(b.cpu);
		return -1;
	}
	for (int i = 0; i < b.cpus; i++, p += 20) {
		b.cpu[i].id = (int)fts_le32(p);
		b.cpu[i].off = fts_le64(p + 4);
		b.cpu[i].size = fts_le64(p + 12);
	}
	v->bufs[v->nr_bufs++] = b;
	return 0;
}

void fts_dat_v7_free(struct dat_v7 *v)
{
	for (int i = 0; i < v->nr_bufs; i++) {
		free(v->bufs[i].name);
		free(v->bufs[i].cpu);
	}
	free(v->bufs);
	memset(v, 0, sizeof(*v));
}

/* The v7 header of a little-endian file: its page size, codec name and first option offset. */
struct v7_head {
	int page_size;
	char codec[32];
	uint64_t first_opt;
};

/* 0 when @fd holds a little-endian v7 header, -1 otherwise. */
static int v7_head_read(int fd, uint64_t file_size, struct v7_head *vh)
{
	unsigned char h[512];
	const unsigned char *p = h + FTS_DAT_MAGIC_LEN, *end = h + sizeof(h), *ver, *zname;

	memset(vh, 0, sizeof(*vh));
	if (file_size < 64 || fts_dat_pread_all(fd, h, file_size < sizeof(h) ? (size_t)file_size : sizeof(h), 0))
		return -1;
	if (file_size < sizeof(h))
		end = h + file_size;
	ver = take_str(&p, end);
	if (!ver || strcmp((const char *)ver, "7") != 0 || end - p < 6 || p[0] != 0)
		return -1;                      /* not v7, or big endian */
	vh->page_size = (int)fts_le32(p + 2);
	p += 6;                                 /* endian, long size, page size */
	zname = take_str(&p, end);
	if (!zname || strlen((const char *)zname) >= sizeof(vh->codec) || !take_str(&p, end) ||
	    end - p < 8)
		return -1;
	snprintf(vh->codec, sizeof(vh->codec), "%s", (const char *)zname);
	vh->first_opt = fts_le64(p);
	return 0;
}

int fts_dat_codec_missing(int fd, uint64_t file_size)
{
	struct v7_head vh;

	if (v7_head_read(fd, file_size, &vh))
		return 0;
#ifdef FTS_HAVE_ZSTD
	return 0;
#else
	return strcmp(vh.codec, "zstd") == 0;
#endif
}

/* One option of a v7 options section: 0 to go on, -1 to fail the walk. */
typedef fts_dat_v7_opt_fn v7_opt_fn;

/* Walks the chain of option sections from @off, each option to @fn. 0, or -1 when cut or corrupt. */
static int v7_walk_options(int fd, const struct dat_v7 *v, uint64_t off, v7_opt_fn fn, void *ctx)
{
	unsigned char *sec = NULL;
	int ret = -1;

	for (int guard = 0; off && guard < 256; guard++) {
		uint16_t id, flags;
		size_t len = 0;
		const unsigned char *q, *qend;

		if (fts_dat_v7_section(fd, v, off, &sec, &len, &id, &flags) || id != 0)
			goto out;
		off = 0;
		for (q = sec, qend = sec + len; qend - q >= 6;) {
			uint16_t oid = fts_le16(q);
			uint32_t osz = fts_le32(q + 2);

			q += 6;
			if (osz > (size_t)(qend - q))
				goto out;
			if (oid == DAT_OPT_DONE) {
				off = osz >= 8 ? fts_le64(q) : 0;
				break;
			}
			if (fn(ctx, oid, q, osz))
				goto out;
			q += osz;
		}
		free(sec);
		sec = NULL;
	}
	ret = off ? -1 : 0;
out:
	free(sec);
	return ret;
}

static int load_opt(void *ctx, uint16_t id, const unsigned char *p, uint32_t n)
{
	struct dat_v7 *v = ctx;

	if (id == DAT_OPT_BUFFER)
		return v7_buffer_opt(v, p, p + n);
	if (id == DAT_OPT_TIME_SHIFT || id == DAT_OPT_TSC2NSEC)
		v->time_conv = 1;
	return 0;
}

/*
 * Fills @v when the file is a little-endian v7 file, uncompressed (@v->dec
 * NULL) or compressed with zstd and built with libzstd; returns -1 (and
 * reading falls back to libtracecmd) otherwise.
 */
int fts_dat_v7_options(int fd, const struct dat_v7 *v, fts_dat_v7_opt_fn fn, void *ctx)
{
	struct v7_head vh;

	if (v7_head_read(fd, v->file_size, &vh))
		return -1;
	return v7_walk_options(fd, v, vh.first_opt, fn, ctx);
}

int fts_dat_v7_load(int fd, uint64_t file_size, struct dat_v7 *v)
{
	struct v7_head vh;
	uint64_t off;
	int ret;

	memset(v, 0, sizeof(*v));
	v->file_size = file_size;
	if (v7_head_read(fd, file_size, &vh))
		return -1;
	v->page_size = vh.page_size;
	if (v->page_size < 64 || v->page_size > (1 << 24))
		return -1;
	if (strcmp(vh.codec, "zstd") != 0 && strcmp(vh.codec, "none") != 0)
		return -1;
	off = vh.first_opt;
	if (strcmp(vh.codec, "zstd") == 0) {
#ifdef FTS_HAVE_ZSTD
		v->dec = ZSTD_decompress;
		v->is_err = ZSTD_isError;
#else
		return -1;
#endif
	}
	ret = v7_walk_options(fd, v, off, load_opt, v);
	if (ret)
		fts_dat_v7_free(v);
	return ret;
}

/*
 * v6 files map CPU data with mmap, so a file cut short inside the data makes
 * libtracecmd fault instead of fail. Walk the v6 header chain (man 5
 * trace-cmd.dat.v6) to the per-CPU (offset, size) lists and check that every
 * one lies inside the file. v7 needs no walk: its sections sit at the end and
 * tracecmd_open fails on them when cut.
 */
struct v6_walk {
	int fd;
	uint64_t pos;
	uint64_t size;
	int big_endian;
	int bad;
};

static uint64_t v6_num(struct v6_walk *w, int bytes)
{
	unsigned char b[8];
	uint64_t v = 0;

	if (w->bad || w->pos + (uint64_t)bytes > w->size ||
	    pread(w->fd, b, (size_t)bytes, (off_t)w->pos) != bytes) {
		w->bad = 1;
		return 0;
	}
	w->pos += (uint64_t)bytes;
	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)b[w->big_endian ? i : bytes - 1 - i] << (8 * (bytes - 1 - i));
	return v;
}

static void v6_skip(struct v6_walk *w, uint64_t n)
{
	if (w->bad || n > w->size - w->pos)
		w->bad = 1;
	else
		w->pos += n;
}

/* Skips a NUL-terminated string, bounded so a corrupt file cannot loop. */
static void v6_skip_str(struct v6_walk *w, char *out, int out_size)
{
	for (int i = 0; !w->bad && i < 4096; i++) {
		char ch = (char)v6_num(w, 1);

		if (out && i < out_size - 1) {
			out[i] = ch;
			out[i + 1] = '\0';
		}
		if (!ch)
			return;
	}
	w->bad = 1;
}

/* Reads @cpus (offset, size) pairs of buffer @name at the current position. */
static void v6_read_cpus(struct v6_walk *w, uint64_t cpus, const char *name,
			 struct dat_extents *x)
{
	for (uint64_t i = 0; i < cpus && !w->bad; i++) {
		uint64_t off = v6_num(w, 8), len = v6_num(w, 8);
		struct dat_extent *e;

		if (w->bad || off > w->size || len > w->size - off) {
			w->bad = 1;
			return;
		}
		if (!x || !len)
			continue;
		e = realloc(x->ext, sizeof(*x->ext) * (size_t)(x->n + 1));
		if (!e) {
			w->bad = 1;
			return;
		}
		x->ext = e;
		e = &x->ext[x->n++];
		memset(e, 0, sizeof(*e));
		snprintf(e->buffer, sizeof(e->buffer), "%s", name);
		e->cpu = (int)i;
		e->off = off;
		e->size = len;
	}
}

static void v6_walk_meta(struct v6_walk *w)
{
	uint64_t n, m;

	w->pos = 10;
	v6_skip_str(w, NULL, 0);               /* version */
	w->big_endian = (int)v6_num(w, 1);
	v6_skip(w, 1 + 4);                     /* long size, page size */
	v6_skip(w, 12);                        /* "header_page" */
	v6_skip(w, v6_num(w, 8));
	v6_skip(w, 13);                        /* "header_event" */
	v6_skip(w, v6_num(w, 8));
	n = v6_num(w, 4);                      /* ftrace event formats */
	for (uint64_t i = 0; i < n && !w->bad; i++)
		v6_skip(w, v6_num(w, 8));
	n = v6_num(w, 4);                      /* event systems */
	for (uint64_t i = 0; i < n && !w->bad; i++) {
		v6_skip_str(w, NULL, 0);
		m = v6_num(w, 4);
		for (uint64_t j = 0; j < m && !w->bad; j++)
			v6_skip(w, v6_num(w, 8));
	}
	v6_skip(w, v6_num(w, 4));              /* kallsyms */
	v6_skip(w, v6_num(w, 4));              /* printk formats */
	v6_skip(w, v6_num(w, 8));              /* cmdlines */
}

void fts_dat_extents_free(struct dat_extents *x)
{
	free(x->ext);
	memset(x, 0, sizeof(*x));
}

/* Returns 0 when every CPU data block of every buffer is inside the file. */
int fts_dat_v6_extents(int fd, uint64_t file_size, struct dat_extents *x)
{
	struct v6_walk w = { .fd = fd, .size = file_size };
	uint64_t cpus, bufs[64];
	char names[64][DAT_NAME_MAX];
	int nbufs = 0;
	char tag[16];

	if (x)
		memset(x, 0, sizeof(*x));
	v6_walk_meta(&w);
	if (x)
		x->big_endian = w.big_endian;
	cpus = v6_num(&w, 4);
	v6_skip_str(&w, tag, sizeof(tag));
	if (!w.bad && strncmp(tag, "options", 7) == 0) {
		for (int i = 0; i < 4096 && !w.bad; i++) {
			uint64_t id = v6_num(&w, 2), sz, at;

			if (id == 0)
				break;
			sz = v6_num(&w, 4);
			at = w.pos;
			if (id == 3 && nbufs < 64) {   /* TRACECMD_OPTION_BUFFER: offset, name */
				bufs[nbufs] = v6_num(&w, 8);
				v6_skip_str(&w, names[nbufs], DAT_NAME_MAX);
				nbufs++;
			}
			w.pos = at;
			v6_skip(&w, sz);
		}
		v6_skip_str(&w, tag, sizeof(tag));
	}
	if (!w.bad && strcmp(tag, "flyrecord") == 0)
		v6_read_cpus(&w, cpus, "", x);
	for (int i = 0; i < nbufs && !w.bad; i++) {
		w.pos = bufs[i];
		if (w.pos > w.size)
			w.bad = 1;
		v6_skip_str(&w, tag, sizeof(tag));
		if (!w.bad && strcmp(tag, "flyrecord") != 0)
			w.pos = bufs[i];
		v6_read_cpus(&w, cpus, names[i], x);
	}
	if (w.bad && x)
		fts_dat_extents_free(x);
	return w.bad ? -1 : 0;
}

int fts_dat_v6_check_extents(const char *path, uint64_t file_size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	int ret;

	if (fd < 0)
		return -1;
	ret = fts_dat_v6_extents(fd, file_size, NULL);
	close(fd);
	return ret;
}

/* ---- CPUSTAT: the kernel's per-CPU ring-buffer stats the file stores ---- */

/* The number after "@key: " on a line of @t, or 0 (and *@found untouched). */
static uint64_t stat_field(const char *t, size_t n, const char *key, int *found)
{
	size_t kl = strlen(key);

	for (size_t i = 0; i + kl + 1 < n; i++) {
		if ((i == 0 || t[i - 1] == '\n') && !memcmp(t + i, key, kl) && t[i + kl] == ':') {
			uint64_t v = 0;
			size_t j = i + kl + 1;

			while (j < n && t[j] == ' ')
				j++;
			if (j >= n || t[j] < '0' || t[j] > '9')
				return 0;
			for (; j < n && t[j] >= '0' && t[j] <= '9'; j++)
				v = v * 10 + (uint64_t)(t[j] - '0');
			*found = 1;
			return v;
		}
	}
	return 0;
}

/* The line of @t starting with @tag, without its newline, into @buf (kept when absent). */
static void stat_line(const char *t, size_t n, const char *tag, char *buf, size_t len)
{
	size_t tl = strlen(tag);

	for (size_t i = 0; i + tl <= n; i++) {
		if ((i == 0 || t[i - 1] == '\n') && !memcmp(t + i, tag, tl)) {
			size_t e = i;

			while (e < n && t[e] != '\n')
				e++;
			snprintf(buf, len, "%.*s", (int)(e - i), t + i);
			return;
		}
	}
}

/* A flight segment's own lines (record/segstats.c): the first option that has them wins. */
static void segment_meta(struct dat_cpustat *st, const char *t, size_t n)
{
	char run[40] = "";
	int found = 0;

	(void)stat_field(t, n, "run overrun", &found);
	if (found)
		st->own = 1;
	if (st->has_run)
		return;
	stat_line(t, n, "ftscope run: ", run, sizeof(run));
	if (!run[0])
		return;
	st->run = strtoull(run + 13, NULL, 16);
	st->has_run = st->run != 0;
	found = 0;
	st->seq = stat_field(t, n, "ftscope segment", &found);
	stat_line(t, n, "ftscope_clock ", st->clock, sizeof(st->clock));
	stat_line(t, n, "ftscope_clock_stop ", st->clock_stop, sizeof(st->clock_stop));
}

/* Walks CPUSTAT options in order: "\nBuffer: NAME\n" starts another buffer's CPUs at 0. */
struct cpustat_walk {
	struct dat_cpustat *st;
	int cpu;            /* the next option's CPU in the current buffer */
	int bad;
};

static void cpustat_opt(struct cpustat_walk *w, const char *t, size_t n)
{
	struct dat_cpustat *st = w->st;
	uint64_t ov, co, dr;
	int found = 0;

	while (n && t[n - 1] == '\0')
		n--;
	if (n >= 9 && !memcmp(t, "\nBuffer: ", 9)) {
		w->cpu = 0;
		return;
	}
	if (w->cpu >= DAT_CPUSTAT_MAX) {
		w->bad = 1;
		return;
	}
	segment_meta(st, t, n);
	ov = stat_field(t, n, "overrun", &found);
	co = stat_field(t, n, "commit overrun", &found);
	dr = stat_field(t, n, "dropped events", &found);
	if (found) {
		/* a CPU's counts summed over buffers: the reader merges their events */
		st->cpu[w->cpu].lost += ov + co + dr;
		st->cpu[w->cpu].known = 1;
		if (w->cpu >= st->ncpu)
			st->ncpu = w->cpu + 1;
	}
	w->cpu++;
}

static int cpustat_v6(int fd, uint64_t file_size, struct cpustat_walk *cw)
{
	struct v6_walk w = { .fd = fd, .size = file_size };
	char tag[16], text[2048];

	v6_walk_meta(&w);
	v6_num(&w, 4);                          /* cpus */
	v6_skip_str(&w, tag, sizeof(tag));
	if (w.bad || strncmp(tag, "options", 7) != 0)
		return -1;
	for (int i = 0; i < 65536 && !w.bad && !cw->bad; i++) {
		uint64_t id = v6_num(&w, 2), sz, at;

		if (id == DAT_OPT_DONE)
			break;
		sz = v6_num(&w, 4);
		at = w.pos;
		if (id == DAT_OPT_CPUSTAT && !w.bad && sz < sizeof(text) && sz <= w.size - w.pos) {
			if (fts_dat_pread_all(fd, text, (size_t)sz, at))
				return -1;
			cpustat_opt(cw, text, (size_t)sz);
		}
		w.pos = at;
		v6_skip(&w, sz);
	}
	return w.bad || cw->bad ? -1 : 0;
}

static int cpustat_v7_opt(void *ctx, uint16_t id, const unsigned char *p, uint32_t n)
{
	struct cpustat_walk *cw = ctx;

	if (id == DAT_OPT_CPUSTAT)
		cpustat_opt(cw, (const char *)p, n);
	return cw->bad ? -1 : 0;
}

static int cpustat_v7(int fd, uint64_t file_size, struct cpustat_walk *cw)
{
	struct dat_v7 v;
	struct v7_head vh;
	int ret = -1;

	if (fts_dat_v7_load(fd, file_size, &v))
		return -1;
	if (v7_head_read(fd, file_size, &vh) == 0)
		ret = v7_walk_options(fd, &v, vh.first_opt, cpustat_v7_opt, cw);
	fts_dat_v7_free(&v);
	return ret;
}

int fts_dat_cpustats(int fd, uint64_t file_size, int version, struct dat_cpustat *st)
{
	struct cpustat_walk w = { .st = st };
	int ret;

	memset(st, 0, sizeof(*st));
	ret = version == '6' ? cpustat_v6(fd, file_size, &w) :
	      version == '7' ? cpustat_v7(fd, file_size, &w) : -1;
	if (ret)
		memset(st, 0, sizeof(*st));
	return ret;
}
