// SPDX-License-Identifier: MIT
#include "ftscope/error.h"
#include "core/record/tracedat_write.h"
#include "core/trace/dat_layout.h"
#include "core/trace/dat_pages.h"
#include "core/util/buf.h"
#include "core/util/file_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/falloc.h>
#include <tracefs.h>

/* The header is built in the util buffer, in the host's byte order (put_header). */
static void put(struct fts_buf *b, const void *d, size_t n) { fts_buf_put(b, d, n); }
static void put4(struct fts_buf *b, uint32_t v) { put(b, &v, 4); }
static void put8(struct fts_buf *b, uint64_t v) { put(b, &v, 8); }
static void put2(struct fts_buf *b, uint16_t v) { put(b, &v, 2); }

/*
 * Append "<8-byte size><content>" of tracefs file @rel (relative to the
 * tracing directory; libtracefs reads it whole, as these files cannot be
 * sized with stat). A missing file is an error.
 */
static int put_file8(struct fts_buf *b, const char *rel)
{
	int n = 0;
	char *d = tracefs_instance_file_read(NULL, rel, &n);

	if (!d)
		return -1;
	put8(b, (uint64_t)n);
	put(b, d, (size_t)n);
	free(d);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The ftrace/ formats (print, ...) let readers decode trace_marker lines. */
static int put_ftrace_formats(struct fts_buf *b)
{
	static const char *const ftrace_events[] = { "print", "raw_data", "bputs", "bprint" };
	char path[256];
	int n = 0;
	size_t count_at;

	count_at = b->len;
	put4(b, 0);
	for (size_t i = 0; i < sizeof(ftrace_events) / sizeof(ftrace_events[0]); i++) {
		snprintf(path, sizeof(path), "events/ftrace/%s/format", ftrace_events[i]);
		if (put_file8(b, path) == 0)
			n++;
	}
	if (!b->oom)
		memcpy(b->p + count_at, &(uint32_t){ (uint32_t)n }, 4);
	return 0;
}

static int put_event_formats(struct fts_buf *b, const char *const *events, struct fts_err *err)
{
	size_t n = 0, i = 0;
	const char **sorted;
	uint32_t nsys = 0;
	size_t nsys_at;
	char path[512];

	while (events && events[n])
		n++;
	sorted = calloc(n + 1, sizeof(*sorted));
	if (!sorted)
		return fts_err_set(err, -ENOMEM, "out of memory writing trace.dat header");
	memcpy(sorted, events, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_str);
	nsys_at = b->len;
	put4(b, 0);
	while (i < n) {
		const char *slash = strchr(sorted[i], '/');
		size_t syslen = slash ? (size_t)(slash - sorted[i]) : 0;
		size_t j = i, count_at;
		uint32_t count = 0;

		if (!slash) {
			i++;
			continue;
		}
		put(b, sorted[i], syslen);
		put(b, "", 1);
		count_at = b->len;
		put4(b, 0);
		while (j < n && !strncmp(sorted[j], sorted[i], syslen + 1)) {
			snprintf(path, sizeof(path), "events/%s/format", sorted[j]);
			if (put_file8(b, path) == 0)
				count++;
			j++;
		}
		if (!b->oom)
			memcpy(b->p + count_at, &count, 4);
		nsys++;
		i = j;
	}
	if (!b->oom)
		memcpy(b->p + nsys_at, &nsys, 4);
	free(sorted);
	return 0;
}

/* Progress of the data copy across CPUs. */
struct copy_ctl {
	struct fts_dat_meta *m;
	uint64_t done, total;
};

/*
 * Copy @size bytes of @in to @out at @at, freeing source ranges when
 * @punch. *@copied gets the bytes copied (whole chunks, so whole pages).
 * Returns 0, 1 when the step hook cut the copy, or a negative errno.
 */
static int copy_range(int in, int out, uint64_t size, off_t at, struct copy_ctl *ctl, uint64_t *copied)
{
	const size_t chunk = 4u << 20;
	off_t src = 0;
	char *bounce = NULL;
	int punch = ctl->m->punch;

	*copied = 0;
	while ((uint64_t)src < size) {
		size_t want = size - (uint64_t)src < chunk ? (size_t)(size - (uint64_t)src) : chunk;
		off_t s = src, d = at + src;
		ssize_t n = bounce ? -1 : copy_file_range(in, &s, out, &d, want, 0);

		if (n < 0 && (bounce || errno == EXDEV || errno == ENOSYS || errno == EINVAL ||
			      errno == EOPNOTSUPP)) {
			/* Different filesystems or no kernel support: plain read/write. */
			if (!bounce && !(bounce = malloc(chunk)))
				return -ENOMEM;
			n = pread(in, bounce, want, src);
			if (n > 0) {
				int rc = fts_pwrite_all(out, bounce, (size_t)n, at + src);
				if (rc) {
					free(bounce);
					return rc;
				}
			}
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int rc = n < 0 ? -errno : -EIO;
			free(bounce);
			return rc;
		}
		if (punch)
			(void)fallocate(in, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, src, n);
		src += n;
		ctl->done += (uint64_t)n;
		/* Cut only at page boundaries: a short copy may end mid-page. */
		if (ctl->m->step && (uint64_t)src % (uint64_t)ctl->m->page_size == 0 &&
		    ctl->m->step(ctl->m->step_arg, ctl->done, ctl->total)) {
			*copied = (uint64_t)src;
			free(bounce);
			return 1;
		}
	}
	*copied = (uint64_t)src;
	free(bounce);
	return 0;
}

/*
 * After a cut in CPU @cut_cpu at @kept bytes: that CPU keeps @kept, the
 * later ones nothing (placed at the end of the data). Returns the new end.
 */
static uint64_t cut_table(char *table, int ncpus, int cut_cpu, uint64_t kept)
{
	uint64_t at, end;

	memcpy(&at, table + (size_t)cut_cpu * 16, 8);
	memcpy(table + (size_t)cut_cpu * 16 + 8, &kept, 8);
	end = at + kept;
	for (int c = cut_cpu + 1; c < ncpus; c++) {
		uint64_t zero = 0;

		memcpy(table + (size_t)c * 16, &end, 8);
		memcpy(table + (size_t)c * 16 + 8, &zero, 8);
	}
	return end;
}

/*
 * Magic, version, endianness, long size, page size, headers, formats, cmdlines.
 * The numbers here are the host's byte order and so are the kernel's pages,
 * so the endian byte is the host's; the long size is the kernel's, the commit
 * word of its header_page (this build's sizeof(long) may differ).
 */
static int put_header(struct fts_buf *b, const struct fts_dat_meta *m, int ncpus, struct fts_err *err)
{
	const char *cl = m->cmdlines ? m->cmdlines : "";
	struct dat_header_page hp;
	char *pf, *hpage;
	int n = 0, rc;

	hpage = tracefs_instance_file_read(NULL, "events/header_page", &n);
	if (!hpage || n <= 0 || fts_dat_header_page_parse(hpage, (size_t)n, &hp)) {
		free(hpage);
		return fts_err_set(err, -ENOENT,
				   "cannot read the ring-buffer page layout in %s/events/header_page (is tracefs mounted?)",
				   m->tracing_dir);
	}
	put(b, FTS_DAT_MAGIC, 10);
	put(b, "6", 2);
	put(b, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? "\1" : "\0", 1);
	put(b, &(char){ (char)hp.commit_size }, 1);
	put4(b, (uint32_t)m->page_size);
	put(b, "header_page", 12);
	put8(b, (uint64_t)n);
	put(b, hpage, (size_t)n);
	free(hpage);
	put(b, "header_event", 13);
	if (put_file8(b, "events/header_event"))
		return fts_err_set(err, -ENOENT, "cannot read %s/events/header_event (is tracefs mounted?)",
				   m->tracing_dir);
	put_ftrace_formats(b);
	rc = put_event_formats(b, m->events, err);
	if (rc)
		return rc;
	put4(b, 0); /* no kallsyms: none of our events print kernel addresses */
	pf = tracefs_instance_file_read(NULL, "printk_formats", &n);
	put4(b, (uint32_t)(pf ? n : 0));
	if (pf)
		put(b, pf, (size_t)n);
	free(pf);
	put8(b, strlen(cl));
	put(b, cl, strlen(cl));
	put4(b, (uint32_t)ncpus);
	return 0;
}

/* The options section: per-CPU stats (CPUSTAT) and the trace clock (TRACECLOCK). */
static void put_options(struct fts_buf *b, const struct fts_dat_meta *m, const struct fts_dat_cpu *cpus,
			int ncpus)
{
	put(b, "options  ", 10);
	/* one per CPU slot, in CPU order (readers count them): "" for a CPU not recorded */
	for (int c = 0; c < ncpus; c++) {
		const char *st = cpus[c].stats ? cpus[c].stats : "";

		put2(b, 2); /* CPUSTAT */
		put4(b, (uint32_t)strlen(st) + 1);
		put(b, st, strlen(st) + 1);
	}
	if (m->clock) {
		put2(b, 4); /* TRACECLOCK */
		put4(b, (uint32_t)strlen(m->clock) + 1);
		put(b, m->clock, strlen(m->clock) + 1);
	}
	put2(b, 0);
}

/*
 * "flyrecord" and the CPU table: each CPU's data starts page aligned after
 * the header. Sets *@table_at to the table's offset in @b. Returns the end of
 * the data.
 */
static uint64_t put_cpu_table(struct fts_buf *b, const struct fts_dat_meta *m,
			      const struct fts_dat_cpu *cpus, int ncpus, size_t *table_at)
{
	uint64_t off, page = (uint64_t)m->page_size;

	put(b, "flyrecord", 10);
	*table_at = b->len;
	for (int c = 0; c < ncpus; c++) {
		put8(b, 0);
		put8(b, 0);
	}
	if (b->oom)
		return 0;
	off = b->len;
	for (int c = 0; c < ncpus; c++) {
		uint64_t size = cpus[c].fd >= 0 ? cpus[c].size : 0;

		off = (off + page - 1) / page * page;
		memcpy(b->p + *table_at + (size_t)c * 16, &off, 8);
		memcpy(b->p + *table_at + (size_t)c * 16 + 8, &size, 8);
		off += size;
	}
	return off;
}

/*
 * Copy every CPU's pages to where the table says; after a cut, rewrite the
 * table to what was copied. Returns 0 or a negative errno; *@end is updated.
 */
static int copy_cpu_data(int out, struct fts_dat_meta *m, const struct fts_dat_cpu *cpus,
			 int ncpus, char *table, size_t table_at, uint64_t *end)
{
	struct copy_ctl ctl = { m, 0, 0 };
	int rc = 0;

	for (int c = 0; c < ncpus; c++)
		ctl.total += cpus[c].fd >= 0 ? cpus[c].size : 0;
	for (int c = 0; !rc && c < ncpus; c++) {
		uint64_t at, size, copied = 0;

		memcpy(&at, table + (size_t)c * 16, 8);
		memcpy(&size, table + (size_t)c * 16 + 8, 8);
		if (size)
			rc = copy_range(cpus[c].fd, out, size, (off_t)at, &ctl, &copied);
		if (rc == 1) {
			m->cut = 1;
			*end = cut_table(table, ncpus, c, copied);
			rc = fts_pwrite_all(out, table, (size_t)ncpus * 16, (off_t)table_at);
		}
	}
	return rc;
}

int fts_tracedat_write(int out, struct fts_dat_meta *m, const struct fts_dat_cpu *cpus,
		       int ncpus, struct fts_err *err)
{
	struct fts_buf b = { 0 };
	size_t table_at = 0;
	uint64_t end;
	int rc;

	rc = put_header(&b, m, ncpus, err);
	if (rc)
		goto out;
	put_options(&b, m, cpus, ncpus);
	end = put_cpu_table(&b, m, cpus, ncpus, &table_at);
	if (b.oom) {
		rc = fts_err_set(err, -ENOMEM, "out of memory writing trace.dat header");
		goto out;
	}
	rc = fts_pwrite_all(out, b.p, b.len, 0);
	if (!rc)
		rc = copy_cpu_data(out, m, cpus, ncpus, b.p + table_at, table_at, &end);
	/* An empty last CPU still needs the file to reach its page-aligned offset. */
	if (!rc && ftruncate(out, (off_t)end) < 0)
		rc = -errno;
	if (rc)
		fts_err_set(err, rc, "cannot write trace data: %s", strerror(-rc));
out:
	fts_buf_free(&b);
	return rc;
}
