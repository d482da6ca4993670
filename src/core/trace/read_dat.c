// SPDX-License-Identifier: MIT
/*
 * read_dat.c - trace.dat reader (libtracecmd for the file, libtraceevent for
 * the fields): validation, open, and the read.
 *
 * The work is split by job: dat_merge.c merges the buffers' per-CPU record
 * streams into one time-ordered stream; dat_zread.c reads compressed (v7)
 * CPU data itself (libtracecmd 1.3.x never frees its chunk cache); and
 * dat_decode.c turns each record into a struct fts_event. libtracecmd still
 * parses the headers, formats and cmdlines, and reads anything we do not
 * handle (v6, uncompressed v7, other codecs, TSC or guest time conversion).
 *
 * libtracecmd and kbuffer trust every page's size field and record length;
 * a corrupt one crashes them, reads past the page or loops. So every page is
 * checked by dat_pages.c before they see it (up front for data they read,
 * inline for the chunks read here), and a record shorter than its event's
 * fixed fields is refused. A header that crashes the library is caught by
 * the probe (dat_probe.c), which opens the file in the caller's helper.
 * Every event's time goes through timecheck.c (forward per CPU, in range).
 */
#include "core/trace/read_dat_local.h"
#include "core/trace/read_dats.h"
#include "core/internal.h"
#include "core/util/file_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DAT_PROGRESS_EVERY (1u << 20)

static void progress(struct dat_ctx *c, const struct tep_record *r)
{
	if (r->offset > c->st->bytes_done && r->offset <= c->st->bytes_total)
		c->st->bytes_done = r->offset;
	if (c->opts->progress && c->st->events + c->st->other_events >= c->next_progress) {
		c->next_progress += DAT_PROGRESS_EVERY;
		c->opts->progress(c->opts->progress_ctx, c->st);
	}
}

/* ---- records ---------------------------------------------------------- */

static int64_t parse_i64(const char *s, const char *key)
{
	const char *p = strstr(s, key);

	return p ? strtoll(p + strlen(key), NULL, 10) : 0;
}

/*
 * Returns 1 when the print was one of ftscope's clock samples (and is
 * consumed): the first is the anchor, a later one with CLOCK_MONOTONIC (the
 * closing marker) the stop sample.
 */
static int take_clock(struct dat_ctx *c, const char *s, int len)
{
	static const char tag[] = "ftscope_clock ";
	static const char stop_tag[] = "ftscope_clock_stop ";
	char buf[200];
	int stop = len >= (int)sizeof(stop_tag) - 1 && memcmp(s, stop_tag, sizeof(stop_tag) - 1) == 0;
	int64_t r, m, mono, win;

	if (!stop && (len < (int)sizeof(tag) - 1 || memcmp(s, tag, sizeof(tag) - 1) != 0))
		return 0;
	fts_copy_str(buf, sizeof(buf), s, len);
	if (!strstr(buf, "realtime_ns=") || !strstr(buf, "mono_raw_ns="))
		return 0;
	r = parse_i64(buf, "realtime_ns=");
	m = parse_i64(buf, "mono_raw_ns=");
	mono = parse_i64(buf, " mono_ns=");
	win = parse_i64(buf, " window_ns=");
	if (r <= 0 || m <= 0)
		return 0;   /* implausible (crafted): keep raw times */
	return fts_clock_take(&c->st->clock, stop, (uint64_t)r, (uint64_t)m,
			      mono > 0 && win >= 0 && strstr(buf, " window_ns="), (uint64_t)mono,
			      (uint64_t)(win > 0 ? win : 0));
}

static int emit(struct dat_ctx *c, const struct fts_event *ev)
{
	int rc = fts_timecheck_event(&c->tcheck, c->path, ev->cpu, ev->ts, c->err);

	if (rc)
		return rc;
	c->st->events++;
	c->st->by_type[ev->type]++;
	return c->opts->emit ? c->opts->emit(c->opts->emit_ctx, ev) : 0;
}

static int emit_lost(struct dat_ctx *c, const struct tep_record *r)
{
	struct fts_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.ts = r->ts;
	ev.cpu = r->cpu;
	ev.pid = -1;
	ev.type = FTS_EV_LOST;
	ev.u.lost.count = r->missed_events > 0 ? (uint64_t)r->missed_events : 0;
	c->st->lost_events = fts__sat_add(c->st->lost_events, ev.u.lost.count);
	return emit(c, &ev);
}

/*
 * The kernel's per-CPU loss totals the file stores, handed on before any
 * event (struct fts_ev_lost.kernel): they count the drops the data marks
 * without a size, and the ones it does not mark at all.
 */
static int emit_kernel_loss(struct dat_ctx *c)
{
	struct dat_cpustat *cs = malloc(sizeof(*cs));
	int ret = 0;

	if (!cs)
		return fts_err_set(c->err, -ENOMEM, "%s: out of memory reading trace.dat", c->path);
	if (fts_dat_cpustats(c->fd, c->st->bytes_total, c->version, cs) == 0) {
		/* a flight segment's clock pair in its header: placed whatever the event rate */
		if (cs->clock[0])
			take_clock(c, cs->clock, (int)strlen(cs->clock));
		if (cs->clock_stop[0])
			take_clock(c, cs->clock_stop, (int)strlen(cs->clock_stop));
		for (int i = 0; !ret && i < cs->ncpu; i++) {
			struct fts_event ev;

			if (!cs->cpu[i].known)
				continue;
			memset(&ev, 0, sizeof(ev));
			ev.cpu = i;
			ev.pid = -1;
			ev.type = FTS_EV_LOST;
			ev.u.lost.count = cs->cpu[i].lost;
			ev.u.lost.kernel = cs->own ? 2 : 1;
			ret = c->opts->emit ? c->opts->emit(c->opts->emit_ctx, &ev) : 0;
		}
	}
	free(cs);
	return ret;
}

static int handle_record(struct dat_ctx *c, struct dat_src *src, const struct tep_record *r)
{
	struct fts_dat_rec_info info = { 0 };
	struct fts_event ev;
	int ret;

	if (r->cpu >= c->st->cpus)
		c->st->cpus = r->cpu + 1;
	if (r->missed_events) {
		ret = emit_lost(c, r);
		if (ret)
			return ret;
	}
	switch (fts_dat_decode(src->dec, r, &ev, &info)) {
	case FTS_DAT_EVENT:
		return emit(c, &ev);
	case FTS_DAT_PRINT:
		if (!take_clock(c, info.text, info.text_len))
			c->st->other_events++;
		return 0;
	case FTS_DAT_SHORT:
		return fts_err_set(c->err, -EIO,
				   "%s: trace.dat is corrupt: CPU %d, record at offset %llu: a %s record of %d bytes, its format needs %d; re-extract the trace",
				   c->path, r->cpu, (unsigned long long)r->offset, info.name, r->size,
				   info.min_size);
	default:
		c->st->other_events++;
		return 0;
	}
}

/* One record of the merge: decoded and emitted, then progress reported. */
static int on_record(struct dat_ctx *c, struct dat_src *src, const struct tep_record *r)
{
	int ret = handle_record(c, src, r);

	progress(c, r);
	return ret;
}

/* ---- open and validate ------------------------------------------------ */

static int check_file(const char *path, struct fts_read_stats *st, struct fts_err *err)
{
	char head[FTS_DAT_MAGIC_LEN];
	size_t n;
	int rc = fts_read_head(path, head, sizeof(head), &n, &st->bytes_total, err);

	if (rc)
		return rc;
	if (n != sizeof(head) || memcmp(head, FTS_DAT_MAGIC, sizeof(head)) != 0)
		return fts_err_set(err, -EINVAL,
				   "%s: not a trace.dat file (bad magic); record one with ftscope or trace-cmd",
				   path);
	return 0;
}

/*
 * The version, endianness and page size from the fixed file header (magic,
 * version text, endian byte, long size byte, u32 page size); a v6 file's
 * extents are checked here too (libtracecmd maps them and faults on a cut
 * file).
 */
static int check_version(const char *path, uint64_t size, char *version,
			 struct dat_page_fmt *pf, struct fts_err *err)
{
	unsigned char h[FTS_DAT_MAGIC_LEN + 16];
	const unsigned char *v = h + FTS_DAT_MAGIC_LEN, *nul;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t n = -1;

	if (fd >= 0) {
		n = pread(fd, h, sizeof(h), 0);
		close(fd);
	}
	nul = n > FTS_DAT_MAGIC_LEN ? memchr(v, 0, (size_t)n - FTS_DAT_MAGIC_LEN) : NULL;
	if (!nul || h + n - nul < 7)
		return fts_err_set(err, -EIO,
				   "%s: trace.dat header is truncated; re-extract the trace", path);
	*version = (char)v[0];
	pf->big_endian = nul[1] != 0;
	/* the commit word is a kernel long: the file's long size until the headers say */
	pf->commit_size = nul[2];
	pf->page_size = (int)(pf->big_endian ?
			      (uint32_t)nul[3] << 24 | (uint32_t)nul[4] << 16 | (uint32_t)nul[5] << 8 | nul[6] :
			      fts_le32(nul + 3));
	if (nul != v + 1 || *version != '6' || fts_dat_v6_check_extents(path, size) == 0)
		return 0;
	return fts_err_set(err, -EIO,
			   "%s: trace.dat is truncated or corrupt (data runs past the end of the file); re-extract the trace",
			   path);
}

/*
 * The static build reads version 6 files itself (dat_own.c) and refuses the
 * rest by name before anything parses them further.
 */
static int check_readable(const char *path, int fd, struct fts_err *err)
{
#ifdef FTS_NO_TRACECMD
	const char *why = fts_tc_refusal(fd);

	if (why)
		return fts_err_set(err, -ENOTSUP,
				   "%s: this static ftscope (built without libtracecmd) cannot read %s; convert the file with a dynamically linked ftscope",
				   path, why);
#else
	(void)path;
	(void)fd;
	(void)err;
#endif
	return 0;
}

static int page_fault(struct dat_ctx *c, const char *buffer, int cpu,
		      const struct dat_page_fault *f, struct fts_err *err)
{
	char where[96] = "";

	if (f->page >= 0)
		snprintf(where, sizeof(where), " (page %lld of the chunk)", (long long)f->page);
	if (buffer && *buffer)
		return fts_err_set(err, -EIO,
				   "%s: trace.dat is corrupt: buffer '%s' CPU %d, data at offset %llu%s: %s; re-extract the trace",
				   c->path, buffer, cpu, (unsigned long long)f->offset, where, f->why);
	return fts_err_set(err, -EIO,
			   "%s: trace.dat is corrupt: CPU %d, data at offset %llu%s: %s; re-extract the trace",
			   c->path, cpu, (unsigned long long)f->offset, where, f->why);
}

/* Is the compressed buffer @name read by our own chunk walk (pages checked as it goes)? */
static int buffer_read_here(const struct dat_ctx *c, const char *name)
{
	for (int i = 0; i < c->nr_srcs; i++) {
		const char *n = c->srcs[i].handle == c->top ? "" :
				tracecmd_buffer_instance_name(c->top, i - 1);

		if (c->srcs[i].z && n && strcmp(n, name) == 0)
			return 1;
	}
	return 0;
}

/*
 * Every page libtracecmd will read is checked here first (dat_pages.c): it
 * trusts page sizes and record lengths, and a corrupt one crashes it or
 * makes it loop. Files we cannot lay out ourselves (old ring-buffer format,
 * big-endian or non-zstd v7) are left to the library unchecked.
 */
static int check_pages(struct dat_ctx *c, int pre_open, struct fts_err *err)
{
	struct dat_page_fault f;
	int ret = 0;

	if (c->pfmt.page_size < 64 || c->pfmt.page_size > (1 << 24) ||
	    (c->pfmt.commit_size != 4 && c->pfmt.commit_size != 8))
		return 0;   /* a layout we do not know: left to the library */
	if (!pre_open && c->pfmt.commit_size == c->pre_commit_size && c->version == '6')
		return 0;   /* checked before the open, with the same layout */
	if (c->version == '6') {
		struct dat_extents x;

		if (fts_dat_v6_extents(c->fd, c->st->bytes_total, &x))
			return fts_err_set(err, -EIO,
					   "%s: trace.dat is truncated or corrupt (data runs past the end of the file); re-extract the trace",
					   c->path);
		for (int i = 0; !ret && i < x.n; i++) {
			ret = fts_dat_extent_check(c->fd, &c->pfmt, x.ext[i].off, x.ext[i].size, &f);
			if (ret > 0)
				ret = page_fault(c, x.ext[i].buffer, x.ext[i].cpu, &f, err);
			else if (ret < 0)
				ret = fts_err_set(err, -EIO, "%s: cannot read trace data", c->path);
		}
		fts_dat_extents_free(&x);
		return ret;
	}
	if (!c->v7)
		return 0;
	for (int b = 0; !ret && b < c->v7->nr_bufs; b++) {
		const struct dat_zbuffer *zb = &c->v7->bufs[b];

		/*
		 * Before the open only what tracecmd_open loads itself (the first
		 * chunk of each CPU); after it, the buffers our chunk walk does not
		 * read (it checks its own pages as it goes).
		 */
		if (!pre_open && c->v7->dec && buffer_read_here(c, zb->name))
			continue;
		if (!pre_open && !c->v7->dec && c->pfmt.commit_size == c->pre_commit_size)
			continue;
		for (int i = 0; !ret && i < zb->cpus; i++) {
			const struct dat_zcpu_info *ci = &zb->cpu[i];

			if (ci->off > c->v7->file_size || ci->size > c->v7->file_size - ci->off)
				ret = fts_err_set(err, -EIO,
						  "%s: trace.dat is truncated or corrupt (CPU %d data runs past the end of the file); re-extract the trace",
						  c->path, ci->id);
			else if (c->v7->dec)
				ret = fts_dat_zextent_check(c->fd, c->v7, &c->pfmt, ci->off, ci->size,
							    pre_open ? 1 : 0, &f);
			else
				ret = fts_dat_extent_check(c->fd, &c->pfmt, ci->off, ci->size, &f);
			if (ret > 0)
				ret = page_fault(c, zb->name, ci->id, &f, err);
			else if (ret < 0)
				ret = fts_err_set(err, -ENOMEM, "%s: out of memory checking trace data", c->path);
		}
	}
	return ret;
}

static int open_sources(struct dat_ctx *c, struct fts_err *err)
{
	int n, ret;

	/*
	 * From the descriptor checked at the start, never the name again: a
	 * FIFO swapped in there since would block a plain open (issue 21).
	 * libtracecmd owns the duplicate (it reads with lseek, ours with pread)
	 * and closes it on most failures; on the rest it stays open, as
	 * tracecmd_open leaves its own: never closed twice.
	 */
	n = fcntl(c->fd, F_DUPFD_CLOEXEC, 0);
	if (n >= 0 && lseek(n, 0, SEEK_SET) == 0)
		c->top = tracecmd_open_fd(n, TRACECMD_FL_LOAD_NO_PLUGINS |
					     TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!c->top)
		return fts_err_set(err, -EIO,
				   "%s: cannot parse trace.dat (truncated or corrupt?); re-extract the trace",
				   c->path);
	/* page size and endianness came from the file header (check_version) */
	c->pre_commit_size = c->pfmt.commit_size;
	c->pfmt.commit_size = tep_get_header_page_size(tracecmd_get_tep(c->top));
	c->check_pages = c->pfmt.page_size >= 64 && c->pfmt.page_size <= (1 << 24) &&
			 (c->pfmt.commit_size == 4 || c->pfmt.commit_size == 8) &&
			 !tep_is_old_format(tracecmd_get_tep(c->top));
	ret = fts_dat_add_source(c, c->top);
	if (!ret && c->check_pages)
		fts_dat_src_try_z(c, &c->srcs[c->nr_srcs - 1], "");
	n = tracecmd_buffer_instances(c->top);
	for (int i = 0; !ret && i < n; i++) {
		struct tracecmd_input *h = tracecmd_buffer_instance_handle(c->top, i);

		if (!h)
			return fts_err_set(err, -EIO,
					   "%s: cannot open buffer instance %d (truncated or corrupt?); re-extract the trace",
					   c->path, i);
		ret = fts_dat_add_source(c, h);
		if (ret) {
			tracecmd_close(h);
			break;
		}
		if (tracecmd_buffer_instance_name(c->top, i) && c->check_pages)
			fts_dat_src_try_z(c, &c->srcs[c->nr_srcs - 1], tracecmd_buffer_instance_name(c->top, i));
	}
	if (ret)
		return fts_err_set(err, ret, "%s: out of memory opening trace.dat", c->path);
#ifdef FTS_NO_TRACECMD
	/* compressed data has no reader here but dat_zread.c's */
	for (int i = 0; i < c->nr_srcs; i++)
		if (fts_tc_compressed(c->srcs[i].handle) && !c->srcs[i].z)
			return fts_err_set(err, -EIO,
					   "%s: cannot read the compressed data of buffer %d (corrupt, or a layout only libtracecmd reads); re-extract the trace or convert it with a dynamically linked ftscope",
					   c->path, i);
#endif
	return 0;
}

/*
 * Two steps before anything of libtracecmd runs in this process:
 * tracecmd_open loads every CPU's first page (and kbuffer trusts it), so
 * those pages are checked here first (the commit word's size taken from the
 * file's long size, confirmed after the open); then the headers are opened
 * in the caller's helper program (dat_probe.c).
 */
int fts_read_dat_probe(const char *path, const char *helper, struct fts_err *err)
{
	return fts_dat_probe_scan(path, helper, -1, NULL, NULL, err);
}

int fts_dat_probe_scan(const char *path, const char *helper, int need_stop,
		       struct fts_clock_scan *scan, int *scanned, struct fts_err *err)
{
	struct fts_read_stats st;
	struct dat_ctx c;
	struct dat_v7 v7;
	struct stat sb;
	int ret;

	memset(&c, 0, sizeof(c));
	memset(&st, 0, sizeof(st));
	c.path = path;
	c.st = &st;
	c.err = err;
	c.fd = -1;
	ret = check_file(path, &st, err);
	if (!ret)
		ret = check_version(path, st.bytes_total, &c.version, &c.pfmt, err);
	if (!ret) {
		c.fd = fts_open_regular(path, 0, &sb, err);
		if (c.fd < 0)
			ret = c.fd;
	}
	if (!ret)
		ret = check_readable(path, c.fd, err);
	if (!ret) {
		if (fts_dat_v7_load(c.fd, st.bytes_total, &v7) == 0)
			c.v7 = &v7;
		ret = check_pages(&c, 1, err);
	}
	if (c.v7)
		fts_dat_v7_free(&v7);
	if (c.fd >= 0)
		close(c.fd);
	if (scanned)
		*scanned = 0;
	return ret ? ret : fts_dat_probe_open_scan(path, helper, need_stop, scan, scanned, err);
}

/*
 * Open and validate one file into @c (the checks of fts_read_dat's top
 * comment), up to the merge; fts_read_dat and fts_read_dats share it.
 */
static int prepare(struct dat_ctx *c, struct dat_v7 *v7, const char *path, const struct fts_read_opts *opts,
		   struct fts_read_stats *st, struct fts_err *err)
{
	int ret;

	memset(st, 0, sizeof(*st));
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->path = path;
	c->err = err;
	c->opts = opts;
	c->st = st;
	c->next_progress = DAT_PROGRESS_EVERY;
	ret = check_file(path, st, err);
	if (!ret)
		ret = check_version(path, st->bytes_total, &c->version, &c->pfmt, err);
	if (ret)
		return ret;
	{
		struct stat sb;

		c->fd = fts_open_regular(path, 0, &sb, err);
		if (c->fd < 0)
			return c->fd;
	}
	ret = check_readable(path, c->fd, err);
	if (ret)
		return ret;
	if (fts_dat_v7_load(c->fd, st->bytes_total, v7) == 0)
		c->v7 = v7;
	c->pre_commit_size = c->pfmt.commit_size;
	/*
	 * The probe checks the pages tracecmd_open loads, then opens the file in
	 * a helper. The check runs here again even after a probe by the caller:
	 * the file may have changed since, and this process must not crash.
	 */
	ret = opts->probed ? 0 : fts_read_dat_probe(path, opts->probe_helper, err);
	if (ret == FTS_PROBE_UNISOLATED)
		ret = 0;   /* the caller chose no helper: the page checks ran */
	if (!ret && opts->probed)
		ret = check_pages(c, 1, err);
	if (!ret)
		ret = open_sources(c, err);
	if (!ret && c->check_pages)
		ret = check_pages(c, 0, err);
	return ret;
}

static void cleanup(struct dat_ctx *c, struct dat_v7 *v7)
{
	fts_dat_merge_free(c);
	fts_timecheck_free(&c->tcheck);
	if (c->v7)
		fts_dat_v7_free(v7);
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

int fts_read_dat(const char *path, const struct fts_read_opts *opts,
		 struct fts_read_stats *st, struct fts_err *err)
{
	struct dat_ctx c;
	struct dat_v7 v7;
	int ret = prepare(&c, &v7, path, opts, st, err);

	if (!ret) {
		ret = fts_dat_fill_heap(&c);
		if (ret)
			fts_err_set(err, ret, "%s: out of memory reading trace.dat", path);
	}
	if (!ret)
		ret = emit_kernel_loss(&c);
	if (!ret) {
		ret = fts_dat_merge_run(&c, on_record);
		if (c.zerr)
			page_fault(&c, NULL, c.zerr_cpu, &c.zfault, err);
	}
	if (!ret)
		st->bytes_done = st->bytes_total;
	cleanup(&c, &v7);
	return ret;
}

/*
 * What a run of segments says before its events (from each file's header,
 * one file open at a time): the kernel's loss per CPU, and the clock pair.
 * Flight segments count their own loss (record/segstats.c): the sum is the
 * run's. Older ones count from the recording's start: the last less the
 * first is what was lost while the later ones streamed (the first's own
 * loss shows only where its pages mark it). The clock pair: the first
 * segment's start sample and the last one's end sample.
 */
struct dats_pre {
	struct dat_cpustat first, cur;
	uint64_t lost[DAT_CPUSTAT_MAX];
	int known[DAT_CPUSTAT_MAX];
	int ncpu, own;
};

static int cpustat_of(const char *path, struct dat_cpustat *cs)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK), rc = -1;

	if (fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode))
		rc = fts_dat_cpustats(fd, (uint64_t)sb.st_size, '6', cs);
	if (fd >= 0)
		close(fd);
	return rc;
}

static void pre_add(struct dats_pre *p, int i, int n)
{
	const struct dat_cpustat *cs = &p->cur;

	if (i == 0) {
		p->first = *cs;
		p->own = cs->own;
	} else if (!cs->own) {
		p->own = 0;
	}
	for (int k = 0; k < cs->ncpu; k++) {
		if (!cs->cpu[k].known)
			continue;
		if (p->own || i == n - 1) {
			p->lost[k] = p->own ? fts__sat_add(p->lost[k], cs->cpu[k].lost) : cs->cpu[k].lost;
			p->known[k] = 1;
		}
	}
	if (cs->ncpu > p->ncpu)
		p->ncpu = cs->ncpu;
}

static int dats_header(struct dat_ctx *m, const char *const *paths, int n)
{
	struct dats_pre *p = calloc(1, sizeof(*p));
	int ret = 0;

	if (!p)
		return fts_err_set(m->err, -ENOMEM, "%s: out of memory reading the segments", m->path);
	for (int i = 0; i < n; i++) {
		if (cpustat_of(paths[i], &p->cur))
			memset(&p->cur, 0, sizeof(p->cur));
		pre_add(p, i, n);
		if (i == 0 && p->cur.clock[0])
			take_clock(m, p->cur.clock, (int)strlen(p->cur.clock));
		if (i == n - 1 && p->cur.clock_stop[0])
			take_clock(m, p->cur.clock_stop, (int)strlen(p->cur.clock_stop));
	}
	for (int k = 0; !ret && k < p->ncpu; k++) {
		struct fts_event ev;

		if (!p->known[k])
			continue;
		if (!p->own) {
			/* counted from the start: the later files' share */
			if (n < 2 || !p->first.cpu[k].known || p->lost[k] < p->first.cpu[k].lost)
				continue;
			p->lost[k] -= p->first.cpu[k].lost;
		}
		memset(&ev, 0, sizeof(ev));
		ev.cpu = k;
		ev.pid = -1;
		ev.type = FTS_EV_LOST;
		ev.u.lost.count = p->lost[k];
		ev.u.lost.kernel = p->own ? 2 : 1;
		ret = m->opts->emit ? m->opts->emit(m->opts->emit_ctx, &ev) : 0;
	}
	free(p);
	return ret;
}

/*
 * The earliest page of a v6 file (its pages' header times): the merge opens
 * the file when it reaches that time. 0 when unknown (opened at once).
 */
static uint64_t first_page_ts(const char *path)
{
	struct dat_extents x = { 0 };
	struct stat sb;
	uint64_t first = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);

	if (fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    fts_dat_v6_extents(fd, (uint64_t)sb.st_size, &x) == 0) {
		for (int i = 0; i < x.n; i++) {
			unsigned char b[8];
			uint64_t t;

			if (fts_dat_pread_all(fd, b, sizeof(b), x.ext[i].off))
				continue;
			t = fts_le64(b);
			if (x.big_endian)
				t = __builtin_bswap64(t);
			if (!first || t < first)
				first = t;
		}
		fts_dat_extents_free(&x);
	}
	if (fd >= 0)
		close(fd);
	return first;
}

/*
 * Segments read together: files are opened in order as the merge reaches
 * their first page's time and closed once read, so a run of any length
 * holds only the few that overlap in time open (each costs descriptors and
 * libtracecmd's memory); more than DATS_OPEN_MAX overlapping are opened as
 * earlier ones close, in file order.
 */
#define DATS_OPEN_MAX 8

struct dats {
	const char *const *paths;
	int n;
	struct dat_ctx *c;         /* per file: open from next_open's turn until read */
	struct dat_v7 *v7;
	struct fts_read_stats *fst;
	uint64_t *first_ts;
	int *live;                 /* per file: its streams still in the heap */
	int *src_file;             /* per merged source: its file */
	int next_open, nopen;
};

static int dats_open_one(struct dats *d, struct dat_ctx *m, const struct fts_read_opts *opts, struct fts_err *err)
{
	int i = d->next_open++, from = m->nr_srcs, added, ret;
	struct dat_ctx *c = &d->c[i];
	void *p;

	ret = prepare(c, &d->v7[i], d->paths[i], opts, &d->fst[i], err);
	d->nopen++;
	if (!ret && c->version != '6')
		ret = fts_err_set(err, -EINVAL,
				  "%s: a segment of several is trace.dat version %c; only version 6 (ftscope's) "
				  "segments are read together", d->paths[i], c->version);
	if (ret)
		return ret;
	p = realloc(m->srcs, sizeof(*m->srcs) * (size_t)(m->nr_srcs + c->nr_srcs));
	if (!p)
		return fts_err_set(err, -ENOMEM, "%s: out of memory", m->path);
	m->srcs = p;
	p = realloc(d->src_file, sizeof(*d->src_file) * (size_t)(m->nr_srcs + c->nr_srcs));
	if (!p)
		return fts_err_set(err, -ENOMEM, "%s: out of memory", m->path);
	d->src_file = p;
	for (int k = 0; k < c->nr_srcs; k++) {
		d->src_file[m->nr_srcs] = i;
		m->srcs[m->nr_srcs++] = c->srcs[k];   /* borrowed: the file's cleanup closes them */
	}
	if (fts_dat_heap_add(m, from, &added))
		return fts_err_set(err, -ENOMEM, "%s: out of memory reading the segments", m->path);
	d->live[i] = added;
	return 0;
}

static void dats_close_one(struct dats *d, int i)
{
	cleanup(&d->c[i], &d->v7[i]);
	memset(&d->c[i], 0, sizeof(d->c[i]));   /* read: nothing of it is left to free */
	d->c[i].fd = -1;
	d->nopen--;
}

/* Open the files the merge has reached (always one when nothing is open). */
static int dats_open_due(struct dats *d, struct dat_ctx *m, const struct fts_read_opts *opts, struct fts_err *err)
{
	while (d->next_open < d->n &&
	       (!m->heap_len || (d->nopen < DATS_OPEN_MAX && m->heap[0].rec->ts >= d->first_ts[d->next_open]))) {
		int i = d->next_open, ret = dats_open_one(d, m, opts, err);

		if (ret)
			return ret;
		if (!d->live[i])
			dats_close_one(d, i);
	}
	return 0;
}

static int dats_run(struct dats *d, struct dat_ctx *m, const struct fts_read_opts *opts, struct fts_err *err)
{
	int ret = dats_open_due(d, m, opts, err);

	while (!ret && m->heap_len) {
		int ended;

		ret = fts_dat_merge_one(m, on_record, &ended);
		if (ended >= 0 && !--d->live[d->src_file[ended]])
			dats_close_one(d, d->src_file[ended]);
		if (!ret)
			ret = dats_open_due(d, m, opts, err);
	}
	return ret;
}

int fts_read_dats(const char *const *paths, int n, const char *name, const struct fts_read_opts *opts,
		  struct fts_read_stats *st, struct fts_err *err)
{
	size_t k = (size_t)(n > 0 ? n : 1);
	struct dats d = { .paths = paths, .n = n, .c = calloc(k, sizeof(*d.c)), .v7 = calloc(k, sizeof(*d.v7)),
			  .fst = calloc(k, sizeof(*d.fst)), .first_ts = calloc(k, sizeof(uint64_t)),
			  .live = calloc(k, sizeof(int)) };
	struct dat_ctx m;
	int ret = 0;

	memset(st, 0, sizeof(*st));
	memset(&m, 0, sizeof(m));
	m.fd = -1;
	m.path = name;
	m.err = err;
	m.opts = opts;
	m.st = st;
	m.next_progress = DAT_PROGRESS_EVERY;
	if (!d.c || !d.v7 || !d.fst || !d.first_ts || !d.live)
		ret = fts_err_set(err, -ENOMEM, "%s: out of memory", name);
	else if (n < 1)
		ret = fts_err_set(err, -EINVAL, "%s: no trace.dat segments to read", name);
	for (int i = 0; !ret && i < n; i++) {
		struct stat sb;

		d.c[i].fd = -1;
		d.first_ts[i] = first_page_ts(paths[i]);
		if (stat(paths[i], &sb) == 0)
			st->bytes_total += (uint64_t)sb.st_size;
	}
	if (!ret)
		ret = dats_header(&m, paths, n);
	if (!ret)
		ret = dats_run(&d, &m, opts, err);
	if (!ret)
		st->bytes_done = st->bytes_total;
	/* the merge's records before the handles that own them */
	for (int i = 0; i < m.heap_len; i++)
		tracecmd_free_record(m.heap[i].rec);
	free(m.heap);
	free(m.srcs);
	fts_timecheck_free(&m.tcheck);
	for (int i = 0; d.c && i < d.next_open; i++)
		if (d.c[i].fd >= 0 || d.c[i].top || d.c[i].srcs || d.c[i].v7)
			cleanup(&d.c[i], &d.v7[i]);
	free(d.src_file);
	free(d.live);
	free(d.first_ts);
	free(d.fst);
	free(d.v7);
	free(d.c);
	return ret;
}

int fts_read_dat_loss(const char *path, struct fts_loss *out)
{
	struct dat_cpustat *cs = malloc(sizeof(*cs));
	char head[16] = { 0 };
	struct stat sb;
	int fd, ret = -1;

	if (!cs)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    fts_dat_pread_all(fd, head, sizeof(head), 0) == 0 &&
	    !memcmp(head, FTS_DAT_MAGIC, FTS_DAT_MAGIC_LEN) &&
	    fts_dat_cpustats(fd, (uint64_t)sb.st_size, head[FTS_DAT_MAGIC_LEN], cs) == 0) {
		ret = 0;
		for (int i = 0; !ret && i < cs->ncpu; i++)
			if (cs->cpu[i].known && fts_loss_set_kernel(out, i, cs->cpu[i].lost, 0, 0))
				ret = -1;
	}
	if (fd >= 0)
		close(fd);
	free(cs);
	return ret;
}
