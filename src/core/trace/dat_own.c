// SPDX-License-Identifier: MIT
/*
 * dat_own.c - trace.dat files read without libtracecmd, for the static
 * build (FTS_NO_TRACECMD; see dat_own.h and docs/static.md).
 *
 * The headers (man 5 trace-cmd.dat.v6 / v7) are read in order into a tep
 * handle with libtraceevent's own parsers: in line in a v6 file, from the
 * sections its options name in a v7 one. The options give the buffer
 * instances; a file whose time stamps libtracecmd would shift or convert is
 * refused. Each CPU's uncompressed data is then read one page at a time and
 * walked by dat_pages.c, which reads records as kbuffer does (compressed
 * data is dat_zread.c's). Every length read from the file is bounded by the
 * file's size before it is used.
 */
#ifdef FTS_NO_TRACECMD
#include "core/trace/dat_own.h"
#include "core/trace/dat_layout.h"
#include "core/trace/dat_pages.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* what needs libtracecmd's time arithmetic: refused in one line */
#define TIME_OPTS_REFUSAL "time offsets or conversions (trace-cmd record's date option, host/guest, TSC options)"

#define OWN_META_MAX (256u << 20)   /* bound on one header section */
#define OWN_OPT_DATE 1
#define OWN_OPT_OFFSET 7
#define OWN_OPT_CPUCOUNT 8
#define OWN_OPT_GUEST 13
#define OWN_SEC_HEADERS 16   /* v7 sections, named by options of these ids: */
#define OWN_SEC_CMDLINES 21  /* headers, ftrace, events, kallsyms, printk, cmdlines */
#define OWN_OPT_BUFFER_TEXT 22

struct own_cpu {
	uint64_t off, size;  /* the CPU's extent in the file */
	uint64_t at;         /* file offset of the loaded page */
	unsigned char *page;
	struct dat_page_walk w;
	uint32_t ri;         /* the next record of w */
	int loaded;
	struct tep_record rec;
};

struct own_buf {
	char *name;
	uint64_t table;      /* v6: where its CPU table lies */
	struct dat_zcpu_info *cpu;   /* v7: its CPUs' extents */
	int ncpu;
	int compressed;      /* v7: read by dat_zread.c, not here */
};

struct fts_tc_input {
	struct fts_tc_input *top;   /* NULL for the top handle */
	struct tep_handle *tep;     /* the top's */
	int fd;                     /* the top's */
	uint64_t file_size;
	struct dat_page_fmt pf;
	int cpus;
	struct own_cpu *cpu;
	struct own_buf *bufs;       /* top only */
	int nr_bufs;
	const char *refusal;
	int compressed;             /* its data is read by dat_zread.c */
	int v7;
	int light;                  /* fts_tc_refusal: the layout only, no format parsed */
};

/*
 * A bounded sequential read of header data (numbers in the file's byte
 * order): of the file itself (v6), or of one decoded section in memory (v7).
 */
struct own_rd {
	int fd;
	const unsigned char *mem;   /* the section, when not NULL */
	uint64_t pos, size;
	int be;
	int bad;
};

static int rd_get(struct own_rd *r, void *dst, size_t n)
{
	if (!r->mem)
		return fts_dat_pread_all(r->fd, dst, n, r->pos);
	memcpy(dst, r->mem + r->pos, n);
	return 0;
}

static uint64_t rd_num(struct own_rd *r, int bytes)
{
	unsigned char b[8];
	uint64_t v = 0;

	if (r->bad || (uint64_t)bytes > r->size - r->pos || rd_get(r, b, (size_t)bytes)) {
		r->bad = 1;
		return 0;
	}
	r->pos += (uint64_t)bytes;
	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)b[r->be ? i : bytes - 1 - i] << (8 * (bytes - 1 - i));
	return v;
}

/* @n bytes, NUL-terminated, in a new buffer (NULL and r->bad when cut or too big). */
static char *rd_bytes(struct own_rd *r, uint64_t n)
{
	char *p;

	if (r->bad || n > r->size - r->pos || n > OWN_META_MAX || !(p = malloc((size_t)n + 1))) {
		r->bad = 1;
		return NULL;
	}
	if (rd_get(r, p, (size_t)n)) {
		free(p);
		r->bad = 1;
		return NULL;
	}
	p[n] = '\0';
	r->pos += n;
	return p;
}

/* A NUL-terminated string of at most @cap - 1 bytes into @out. */
static void rd_str(struct own_rd *r, char *out, size_t cap)
{
	for (size_t i = 0; !r->bad; i++) {
		char ch = (char)rd_num(r, 1);

		if (i >= cap) {
			r->bad = 1;
			return;
		}
		out[i] = ch;
		if (!ch)
			return;
	}
}

/* @n bytes handed to @fn as text, then freed. */
static void rd_text(struct own_rd *r, uint64_t n, struct tep_handle *tep,
		    int (*fn)(struct tep_handle *tep, const char *text))
{
	char *p = rd_bytes(r, n);

	if (p && n && tep)
		(void)fn(tep, p);
	free(p);
}

/* One event format of @n bytes of @system. A format libtraceevent cannot parse is skipped, as libtracecmd does. */
static void rd_format(struct own_rd *r, uint64_t n, struct tep_handle *tep, const char *system)
{
	char *p = rd_bytes(r, n);

	if (p && tep)
		(void)tep_parse_event(tep, p, (unsigned long)n, system);
	free(p);
}

/* The fixed header: version, endianness, long size, page size. */
static int rd_fixed(struct own_rd *r, struct fts_tc_input *h)
{
	char magic[FTS_DAT_MAGIC_LEN], version[16];
	int long_size;

	if (fts_dat_pread_all(r->fd, magic, sizeof(magic), 0) || memcmp(magic, FTS_DAT_MAGIC, sizeof(magic)))
		return -1;
	r->pos = FTS_DAT_MAGIC_LEN;
	rd_str(r, version, sizeof(version));
	if (r->bad || (strcmp(version, "6") && strcmp(version, "7"))) {
		h->refusal = "a trace.dat of a version other than 6 or 7";
		return -1;
	}
	h->v7 = version[0] == '7';
	r->be = (int)rd_num(r, 1);
	long_size = (int)rd_num(r, 1);
	h->pf.page_size = (int)rd_num(r, 4);
	h->pf.big_endian = r->be;
	if (r->bad || h->pf.page_size < 64 || h->pf.page_size > (1 << 24) ||
	    (long_size != 4 && long_size != 8))
		return -1;
	tep_set_file_bigendian(h->tep, r->be ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(h->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN :
				TEP_LITTLE_ENDIAN);
	tep_set_long_size(h->tep, long_size);
	tep_set_page_size(h->tep, h->pf.page_size);
	h->pf.commit_size = long_size;
	return 0;
}

/*
 * The tep to parse into, or none for fts_tc_refusal's walk: libtraceevent's
 * parsers crash on some corrupt formats, so the caller's own process only
 * walks the layout before the probe's helper has parsed them (dat_probe.c).
 */
#define TEP(h) ((h)->light ? NULL : (h)->tep)

/* "header_page" and "header_event" with their texts (v6 in line, v7 section 16). */
static int rd_headers(struct own_rd *r, struct fts_tc_input *h)
{
	char tag[16];
	uint64_t n;
	char *p;

	rd_str(r, tag, sizeof(tag));
	if (r->bad || strcmp(tag, "header_page"))
		return -1;
	n = rd_num(r, 8);
	p = rd_bytes(r, n);
	if (!p || (!h->light && tep_parse_header_page(h->tep, p, (unsigned long)n, h->pf.commit_size))) {
		free(p);
		return -1;
	}
	free(p);
	if (!h->light)
		h->pf.commit_size = tep_get_header_page_size(h->tep);
	rd_str(r, tag, sizeof(tag));
	if (r->bad || strcmp(tag, "header_event"))
		return -1;
	n = rd_num(r, 8);
	free(rd_bytes(r, n));
	return r->bad ? -1 : 0;
}

/* The ftrace formats (v7 section 17). */
static int rd_ftrace(struct own_rd *r, struct fts_tc_input *h)
{
	uint64_t n = rd_num(r, 4);

	for (uint64_t i = 0; i < n && !r->bad; i++)
		rd_format(r, rd_num(r, 8), TEP(h), "ftrace");
	return r->bad ? -1 : 0;
}

/* The event systems and their formats (v7 section 18). */
static int rd_events(struct own_rd *r, struct fts_tc_input *h)
{
	uint64_t n = rd_num(r, 4), m;
	char sys[256];

	for (uint64_t i = 0; i < n && !r->bad; i++) {
		rd_str(r, sys, sizeof(sys));
		m = rd_num(r, 4);
		for (uint64_t j = 0; j < m && !r->bad; j++)
			rd_format(r, rd_num(r, 8), TEP(h), sys);
	}
	return r->bad ? -1 : 0;
}

/* kallsyms and printk formats (4-byte sizes), cmdlines (8-byte): v7 sections 19, 20, 21. */
static int rd_kallsyms(struct own_rd *r, struct fts_tc_input *h)
{
	rd_text(r, rd_num(r, 4), TEP(h), tep_parse_kallsyms);
	return r->bad ? -1 : 0;
}

static int rd_printk(struct own_rd *r, struct fts_tc_input *h)
{
	rd_text(r, rd_num(r, 4), TEP(h), tep_parse_printk_formats);
	return r->bad ? -1 : 0;
}

static int rd_cmdlines(struct own_rd *r, struct fts_tc_input *h)
{
	rd_text(r, rd_num(r, 8), TEP(h), tep_parse_saved_cmdlines);
	return r->bad ? -1 : 0;
}

static int set_cpus(struct fts_tc_input *h, uint64_t cpus)
{
	if (cpus > 65536)
		return -1;
	h->cpus = (int)cpus;
	tep_set_cpus(h->tep, h->cpus);
	return 0;
}

/* The v6 header after the fixed part: every section in order, then the CPU count. */
static int rd_meta(struct own_rd *r, struct fts_tc_input *h)
{
	if (rd_headers(r, h) || rd_ftrace(r, h) || rd_events(r, h) || rd_kallsyms(r, h) ||
	    rd_printk(r, h) || rd_cmdlines(r, h))
		return -1;
	return set_cpus(h, rd_num(r, 4)) || r->bad ? -1 : 0;
}

/* One v6 option: a buffer instance kept; time offsets and conversions refused. */
static int rd_option(struct own_rd *r, struct fts_tc_input *h, unsigned id, uint64_t size)
{
	uint64_t end = r->pos + size;
	void *nb;

	if (size > r->size - r->pos)
		return -1;
	if (id == DAT_OPT_BUFFER) {
		uint64_t table = rd_num(r, 8);
		char name[DAT_NAME_MAX];

		rd_str(r, name, sizeof(name));
		nb = r->bad ? NULL : realloc(h->bufs, sizeof(*h->bufs) * (size_t)(h->nr_bufs + 1));
		if (!nb)
			return -1;
		h->bufs = nb;
		memset(&h->bufs[h->nr_bufs], 0, sizeof(h->bufs[h->nr_bufs]));
		h->bufs[h->nr_bufs].table = table;
		if (!(h->bufs[h->nr_bufs].name = strdup(name)))
			return -1;
		h->nr_bufs++;
	} else if (id == OWN_OPT_DATE || id == OWN_OPT_OFFSET || id == DAT_OPT_TIME_SHIFT ||
		   id == DAT_OPT_TSC2NSEC || id == OWN_OPT_GUEST) {
		/* libtracecmd's time arithmetic (trace-cmd's date option, guest offsets, TSC) is not redone here */
		h->refusal = TIME_OPTS_REFUSAL;
		return -1;
	}
	r->pos = end;
	return 0;
}

/*
 * The table of @h->cpus CPUs (their extents filled by the caller); each
 * CPU's page and walk are allocated when it is first read, so a file that
 * claims many CPUs costs nothing for the ones without data.
 */
static int cpu_alloc(struct fts_tc_input *h)
{
	h->cpu = calloc((size_t)h->cpus + 1, sizeof(*h->cpu));
	if (!h->cpu)
		return -1;
	for (int i = 0; i < h->cpus; i++)
		h->cpu[i].rec.cpu = i;
	return 0;
}

/* The v6 per-CPU (offset, size) table at r->pos into @h->cpu. */
static int rd_table(struct own_rd *r, struct fts_tc_input *h)
{
	if (cpu_alloc(h))
		return -1;
	for (int i = 0; i < h->cpus && !r->bad; i++) {
		struct own_cpu *c = &h->cpu[i];

		c->off = rd_num(r, 8);
		c->size = rd_num(r, 8);
		if (c->off > r->size || c->size > r->size - c->off)
			r->bad = 1;
	}
	return r->bad ? -1 : 0;
}

/* The v7 extents of buffer @b into @h (its CPUs by id, past the CPU count if need be). */
static int v7_extents(struct fts_tc_input *h, const struct own_buf *b)
{
	for (int i = 0; i < b->ncpu; i++)
		if (b->cpu[i].id < 0 || b->cpu[i].id >= 65536 ||
		    b->cpu[i].off > h->file_size || b->cpu[i].size > h->file_size - b->cpu[i].off)
			return -1;
		else if (b->cpu[i].id >= h->cpus)
			h->cpus = b->cpu[i].id + 1;
	/* a compressed buffer without data (trace-cmd's empty top buffer) needs no reader */
	for (int i = 0; i < b->ncpu; i++)
		if (b->cpu[i].size)
			h->compressed = b->compressed;
	if (cpu_alloc(h))
		return -1;
	for (int i = 0; i < b->ncpu; i++) {
		h->cpu[b->cpu[i].id].off = b->cpu[i].off;
		h->cpu[b->cpu[i].id].size = b->cpu[i].size;
	}
	return 0;
}

/* The options section and the top buffer's "flyrecord" table. */
static int rd_options(struct own_rd *r, struct fts_tc_input *h)
{
	char tag[16];

	rd_str(r, tag, sizeof(tag));
	if (!r->bad && !strcmp(tag, "options  ")) {
		for (int i = 0; i < 65536 && !r->bad; i++) {
			unsigned id = (unsigned)rd_num(r, 2);

			if (!id || r->bad)
				break;
			if (rd_option(r, h, id, rd_num(r, 4)))
				return -1;
		}
		rd_str(r, tag, sizeof(tag));
	}
	if (!r->bad && !strcmp(tag, "latency  "))
		h->refusal = "a latency trace (no per-CPU data)";
	if (r->bad || strcmp(tag, "flyrecord"))
		return -1;
	return rd_table(r, h);
}

static void own_free(struct fts_tc_input *h)
{
	for (int i = 0; h->cpu && i < h->cpus; i++) {
		fts_dat_page_walk_free(&h->cpu[i].w);
		free(h->cpu[i].page);
	}
	free(h->cpu);
	for (int i = 0; i < h->nr_bufs; i++) {
		free(h->bufs[i].name);
		free(h->bufs[i].cpu);
	}
	free(h->bufs);
	free(h);
}

/* What the v7 options name: the sections of the headers, and the CPU count. */
struct v7_opts {
	struct fts_tc_input *h;
	uint64_t sec[OWN_SEC_CMDLINES + 1];
	uint64_t cpus;
};

static int v7_opt(void *ctx, uint16_t id, const unsigned char *p, uint32_t n)
{
	struct v7_opts *o = ctx;

	if (id >= OWN_SEC_HEADERS && id <= OWN_SEC_CMDLINES) {
		if (n < 8)
			return -1;
		o->sec[id] = fts_le64(p);
	} else if (id == OWN_OPT_CPUCOUNT) {
		if (n < 4)
			return -1;
		o->cpus = fts_le32(p);
	} else if (id == OWN_OPT_DATE || id == OWN_OPT_OFFSET || id == DAT_OPT_TIME_SHIFT ||
		   id == DAT_OPT_TSC2NSEC || id == OWN_OPT_GUEST) {
		o->h->refusal = TIME_OPTS_REFUSAL;
		return -1;
	} else if (id == OWN_OPT_BUFFER_TEXT) {
		o->h->refusal = "a latency trace (no per-CPU data)";
		return -1;
	}
	return 0;
}

/* The header sections of a v7 file, each decoded and read like its v6 part. */
static int v7_sections(struct fts_tc_input *h, const struct dat_v7 *v, const struct v7_opts *o)
{
	static int (*const read[])(struct own_rd *, struct fts_tc_input *) = {
		rd_headers, rd_ftrace, rd_events, rd_kallsyms, rd_printk, rd_cmdlines,
	};
	unsigned char *sec = NULL;
	int ret = o->sec[OWN_SEC_HEADERS] ? 0 : -1;

	for (int id = OWN_SEC_HEADERS; !ret && id <= OWN_SEC_CMDLINES; id++) {
		struct own_rd r = { .fd = -1, .be = h->pf.big_endian };
		uint16_t sid, flags;
		size_t len = 0;

		if (!o->sec[id])
			continue;
		ret = fts_dat_v7_section(h->fd, v, o->sec[id], &sec, &len, &sid, &flags);
		if (!ret && sid != id)
			ret = -1;
		r.mem = sec;
		r.size = len;
		if (!ret)
			ret = read[id - OWN_SEC_HEADERS](&r, h);
	}
	free(sec);
	return ret;
}

/* The v7 BUFFER options: the top buffer's extents into @h, the named ones into h->bufs. */
static int v7_buffers(struct fts_tc_input *h, const struct dat_v7 *v)
{
	struct own_buf top = { 0 };
	int have_top = 0, ret = -1;

	h->bufs = calloc((size_t)v->nr_bufs + 1, sizeof(*h->bufs));
	if (!h->bufs)
		return -1;
	for (int i = 0; i < v->nr_bufs; i++) {
		const struct dat_zbuffer *zb = &v->bufs[i];
		struct own_buf *b = &h->bufs[h->nr_bufs++];
		unsigned char sh[16];

		b->name = strdup(zb->name);
		b->cpu = calloc((size_t)zb->cpus + 1, sizeof(*b->cpu));
		if (!b->name || !b->cpu || zb->page_size != h->pf.page_size ||
		    fts_dat_pread_all(h->fd, sh, sizeof(sh), zb->section) || fts_le16(sh) != DAT_SEC_BUFFER)
			goto out;
		memcpy(b->cpu, zb->cpu, sizeof(*b->cpu) * (size_t)zb->cpus);
		b->ncpu = zb->cpus;
		b->compressed = (fts_le16(sh + 2) & DAT_SEC_COMPRESSED) != 0;
		if (!*zb->name && !have_top) {
			/* the top buffer is not an instance: out of the list */
			top = *b;
			memset(b, 0, sizeof(*b));
			h->nr_bufs--;
			have_top = 1;
		}
	}
	ret = have_top ? v7_extents(h, &top) : cpu_alloc(h);
out:
	free(top.name);
	free(top.cpu);
	return ret;
}

static int rd_v7(struct fts_tc_input *h)
{
	struct v7_opts o = { .h = h };
	struct dat_v7 v;
	int ret;

	if (h->pf.big_endian) {
		h->refusal = "a big-endian version 7 file";
		return -1;
	}
	if (fts_dat_v7_load(h->fd, h->file_size, &v)) {
		h->refusal = "a version 7 file compressed with a codec other than zstd";
		return -1;
	}
	ret = fts_dat_v7_options(h->fd, &v, v7_opt, &o);
	if (!ret)
		ret = h->light ? 0 : v7_sections(h, &v, &o);
	if (!ret)
		ret = set_cpus(h, o.cpus);
	if (!ret)
		ret = v7_buffers(h, &v);
	fts_dat_v7_free(&v);
	return ret;
}

/* Parses the file on @fd into a new top handle; @h->refusal set when it is a format left out. */
static struct fts_tc_input *own_parse(int fd, int light, const char **refusal)
{
	struct fts_tc_input *h = calloc(1, sizeof(*h));
	struct own_rd r = { .fd = fd };
	struct stat sb;
	int ok;

	*refusal = NULL;
	if (!h)
		return NULL;
	h->fd = fd;
	h->light = light;
	h->tep = tep_alloc();
	ok = h->tep && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
	if (ok) {
		h->file_size = r.size = (uint64_t)sb.st_size;
		ok = !rd_fixed(&r, h) && (h->v7 ? !rd_v7(h) : !rd_meta(&r, h) && !rd_options(&r, h));
	}
	if (ok && !light && (tep_is_old_format(h->tep) || (h->pf.commit_size != 4 && h->pf.commit_size != 8))) {
		h->refusal = "the pre-2.6.31 ring-buffer format";
		ok = 0;
	}
	if (!ok) {
		*refusal = h->refusal;
		if (h->tep)
			tep_free(h->tep);
		own_free(h);
		return NULL;
	}
	return h;
}

struct fts_tc_input *fts_tc_open_fd(int fd, int flags)
{
	const char *why;
	struct fts_tc_input *h;

	(void)flags;
	h = own_parse(fd, 0, &why);
	if (!h)
		close(fd);
	return h;
}

struct fts_tc_input *fts_tc_open(const char *path, int flags)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	return fd < 0 ? NULL : fts_tc_open_fd(fd, flags);
}

const char *fts_tc_refusal(int fd)
{
	const char *why;
	struct fts_tc_input *h = own_parse(fd, 1, &why);

	if (h) {
		tep_free(h->tep);
		own_free(h);
	}
	return why;
}

void fts_tc_close(struct fts_tc_input *h)
{
	if (!h)
		return;
	if (!h->top) {
		tep_free(h->tep);
		close(h->fd);
	}
	own_free(h);
}

struct tep_handle *fts_tc_get_tep(struct fts_tc_input *h)
{
	return h ? h->tep : NULL;
}

int fts_tc_buffer_instances(struct fts_tc_input *h)
{
	return h->nr_bufs;
}

const char *fts_tc_buffer_instance_name(struct fts_tc_input *h, int i)
{
	return i >= 0 && i < h->nr_bufs ? h->bufs[i].name : NULL;
}

struct fts_tc_input *fts_tc_buffer_instance_handle(struct fts_tc_input *h, int i)
{
	struct own_rd r = { .fd = h->fd, .size = h->file_size, .be = h->pf.big_endian };
	struct fts_tc_input *b;
	char tag[16];

	if (i < 0 || i >= h->nr_bufs || !(b = calloc(1, sizeof(*b))))
		return NULL;
	b->top = h;
	b->tep = h->tep;
	b->fd = h->fd;
	b->file_size = h->file_size;
	b->pf = h->pf;
	b->v7 = h->v7;
	b->cpus = h->cpus;
	if (h->v7) {
		if (v7_extents(b, &h->bufs[i])) {
			own_free(b);
			return NULL;
		}
		return b;
	}
	/* the table follows a "flyrecord" tag when there is one (as dat_layout.c walks it) */
	r.pos = h->bufs[i].table;
	if (r.pos > r.size)
		r.bad = 1;
	rd_str(&r, tag, sizeof(tag));
	if (r.bad || strcmp(tag, "flyrecord")) {
		r.bad = 0;
		r.pos = h->bufs[i].table;
	}
	if (rd_table(&r, b)) {
		own_free(b);
		return NULL;
	}
	return b;
}

/* The next record of @c; NULL at the end of its data or at a page that does not walk. */
static struct tep_record *cpu_next(struct fts_tc_input *h, struct own_cpu *c)
{
	const struct dat_page_rec *pr;
	uint64_t page = (uint64_t)h->pf.page_size;

	for (;;) {
		if (c->loaded) {
			if (c->ri < c->w.n)
				break;
			c->loaded = 0;
			c->at += page;
		}
		if (c->at >= c->off + c->size)
			return NULL;
		/* a short last page reads as zero padding, as dat_pages.c checks it */
		memset(c->page, 0, (size_t)page);
		if (fts_dat_pread_all(h->fd, c->page, (size_t)(c->off + c->size - c->at < page ?
							       c->off + c->size - c->at : page), c->at) ||
		    fts_dat_page_walk(&h->pf, c->page, &c->w))
			return NULL;
		c->loaded = 1;
		c->ri = 0;
	}
	pr = &c->w.rec[c->ri];
	c->rec.ts = pr->ts;
	c->rec.size = (int)pr->size;
	c->rec.record_size = (int)pr->rsize;
	c->rec.missed_events = c->ri ? 0 : c->w.missed;
	c->rec.data = c->page + pr->off;
	c->rec.offset = c->at + pr->off;
	c->rec.ref_count = 1;
	c->ri++;
	return &c->rec;
}

struct tep_record *fts_tc_read_cpu_first(struct fts_tc_input *h, int cpu)
{
	struct own_cpu *c;

	if (cpu < 0 || cpu >= h->cpus || h->compressed)
		return NULL;
	c = &h->cpu[cpu];
	c->at = c->off;
	c->loaded = 0;
	if (!c->size)
		return NULL;
	if (!c->page && (fts_dat_page_walk_init(&c->w, h->pf.page_size) ||
			 !(c->page = malloc((size_t)h->pf.page_size))))
		return NULL;
	return cpu_next(h, c);
}

struct tep_record *fts_tc_read_data(struct fts_tc_input *h, int cpu)
{
	/* a CPU not rewound by fts_tc_read_cpu_first has no page yet: nothing to read */
	return cpu >= 0 && cpu < h->cpus && !h->compressed && h->cpu[cpu].page ?
	       cpu_next(h, &h->cpu[cpu]) : NULL;
}

int fts_tc_compressed(const struct fts_tc_input *h)
{
	return h->compressed;
}

void fts_tc_free_record(struct tep_record *r)
{
	(void)r;
}

int fts_tc_iterate_events(struct fts_tc_input *h, void *cpus, int cpu_size,
			  int (*cb)(struct fts_tc_input *h, struct tep_record *r, int cpu, void *data),
			  void *data)
{
	struct tep_record **next = calloc((size_t)h->cpus + 1, sizeof(*next));
	int ret = 0;

	(void)cpus;
	(void)cpu_size;
	if (!next)
		return -1;
	for (int i = 0; i < h->cpus; i++)
		next[i] = fts_tc_read_cpu_first(h, i);
	while (!ret) {
		int m = -1;

		for (int i = 0; i < h->cpus; i++)
			if (next[i] && (m < 0 || next[i]->ts < next[m]->ts))
				m = i;
		if (m < 0)
			break;
		ret = cb(h, next[m], m, data);
		next[m] = fts_tc_read_data(h, m);
	}
	free(next);
	return 0;
}
#endif
