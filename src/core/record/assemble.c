// SPDX-License-Identifier: MIT
/*
 * assemble.c - at stop, turn the per-CPU streams into the output: a
 * trace.dat assembled page aligned (copy_file_range, punching the copied
 * ranges so a full disk still has room), or kernel text rendered from it.
 * Both are written beside the output and renamed over it when complete.
 */
#include "core/record/record_local.h"
#include "core/record/pidscan.h"
#include "core/record/tracedat_write.h"
#include "core/util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <tracefs.h>
#include <unistd.h>

/* The caller's progress hook and the mode it asked for so far. */
struct asm_ctl {
	fts_record_progress_fn fn;
	void *arg;
	enum fts_record_stop_mode mode;
};

static int ask(struct asm_ctl *c, enum fts_record_stage stage, uint64_t done, uint64_t total)
{
	struct fts_record_progress p = { stage, done, total };

	if (c->fn) {
		enum fts_record_stop_mode m = c->fn(&p, c->arg);
		if (m > c->mode)
			c->mode = m;
	}
	return c->mode >= FTS_STOP_CUT;
}

static int copy_step(void *arg, uint64_t done, uint64_t total)
{
	return ask(arg, FTS_REC_STAGE_ASSEMBLE, done, total);
}

static int render_step(void *arg, uint64_t events)
{
	return ask(arg, FTS_REC_STAGE_RENDER, events, 0);
}

/* Cut a stream to whole pages: a failed write may leave a partial one. */
static uint64_t whole_pages(int fd, int page)
{
	struct stat st;
	uint64_t size;

	if (fstat(fd, &st) < 0)
		return 0;
	size = (uint64_t)st.st_size / (uint64_t)page * (uint64_t)page;
	if ((uint64_t)st.st_size != size && ftruncate(fd, (off_t)size) < 0) {
		/* readers stop at @size: a failed cut only leaves bytes nobody reads */
	}
	return size;
}

/* saved_cmdlines plus every live thread, so readers can name most pids. */
static char *gather_cmdlines(void)
{
	char *saved = tracefs_instance_file_read(NULL, "saved_cmdlines", NULL), *procs = NULL, *all;
	struct fts_pidscan *t = fts_pidscan_new();
	size_t n = saved ? strlen(saved) : 0;

	if (t && fts_pidscan_scan(t, "/proc", NULL) >= 0)
		fts_pidscan_cmdlines(t, &procs);
	fts_pidscan_free(t);
	all = malloc(n + (procs ? strlen(procs) : 0) + 1);
	if (all)
		sprintf(all, "%s%s", saved ? saved : "", procs ? procs : "");
	free(saved);
	free(procs);
	return all;
}

/* Cut to @len; -errno when the file cannot be cut (it then holds a partial line). */
static int cut_at(int fd, off_t len)
{
	return ftruncate(fd, len) < 0 ? -errno : 0;
}

/* Keep only whole lines of a text cut by a full disk (@fd is write-only: read @path). */
static int trim_to_line(int fd, const char *path)
{
	struct stat st;
	char buf[65536];
	off_t end, from;
	ssize_t n;
	int rfd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (rfd < 0 || fstat(fd, &st) < 0) {
		if (rfd >= 0)
			close(rfd);
		return cut_at(fd, 0);
	}
	end = st.st_size;
	while (end > 0) {
		from = end > (off_t)sizeof(buf) ? end - (off_t)sizeof(buf) : 0;
		n = pread(rfd, buf, (size_t)(end - from), from);
		if (n <= 0)
			break;
		for (ssize_t i = n - 1; i >= 0; i--)
			if (buf[i] == '\n') {
				close(rfd);
				return cut_at(fd, from + i + 1);
			}
		end = from;
	}
	close(rfd);
	return cut_at(fd, 0);
}

/* The output's temp file: in the held directory when the caller has one (rec_assembly.name). */
static int begin(struct fts_outfile *f, const struct rec_assembly *a, const struct fts_owner *owner,
		 struct fts_err *err)
{
	if (a->name)
		return fts_outfile_begin_at(f, a->dirfd, a->name, a->output, owner, err);
	return fts_outfile_begin(f, a->output, owner, err);
}

static int write_dat(struct fts_dat_meta *m, const struct fts_dat_cpu *dc, int n,
		     const struct rec_assembly *a, struct fts_err *err)
{
	struct fts_outfile f;
	int rc = begin(&f, a, a->owner, err);

	if (rc)
		return rc;
	rc = fts_tracedat_write(f.fd, m, dc, n, err);
	if (rc)
		fts_outfile_abort(&f);
	else
		rc = fts_outfile_commit(&f, NULL, err);
	return rc;
}

/*
 * The dat goes to a temp file first, the text is rendered from it. A full
 * disk while rendering keeps the complete lines written (*@cut = 2).
 */
static int write_text(const struct rec_assembly *a, struct fts_dat_meta *m, const struct fts_dat_cpu *dc,
		      int n, struct asm_ctl *ctl, int *cut, struct fts_err *err)
{
	struct fts_outfile dat, f;
	int rc = begin(&dat, a, NULL, err), stopped = 0;  /* never published */

	if (rc)
		return rc;
	rc = fts_tracedat_write(dat.fd, m, dc, n, err);
	if (!rc)
		rc = begin(&f, a, a->owner, err);
	if (!rc) {
		rc = fts_rec_render_text(dat.tmp, f.fd, a->clock_line, render_step, ctl, &stopped, err);
		if (rc == -ENOSPC || rc == -EDQUOT) {
			*cut = 2;
			rc = trim_to_line(f.fd, f.tmp);
			if (rc)
				fts_err_set(err, rc, "%s: cannot cut the text at its last whole line", f.tmp);
		}
		if (stopped && !*cut)
			*cut = 1;
		if (rc)
			fts_outfile_abort(&f);
		else
			rc = fts_outfile_commit(&f, NULL, err);
	}
	fts_outfile_abort(&dat);
	return rc;
}

int rec_assemble(const struct rec_assembly *a, fts_record_progress_fn progress, void *arg,
		 int *cut, struct fts_err *err)
{
	int max_cpu = 0, rc;
	struct fts_dat_cpu *dc;
	struct fts_dat_meta m = { 0 };
	struct asm_ctl ctl = { progress, arg, FTS_STOP_DRAIN };
	char *cmdlines;

	*cut = 0;
	for (int i = 0; i < a->ncpu; i++)
		if (a->cpu[i] > max_cpu)
			max_cpu = a->cpu[i];
	dc = calloc((size_t)max_cpu + 1, sizeof(*dc));
	cmdlines = gather_cmdlines();
	if (!dc || !cmdlines) {
		free(dc);
		free(cmdlines);
		return fts_err_set(err, -ENOMEM, "out of memory");
	}
	for (int c = 0; c <= max_cpu; c++)
		dc[c].fd = -1;
	for (int i = 0; i < a->ncpu; i++) {
		struct fts_dat_cpu *d = &dc[a->cpu[i]];

		d->fd = a->fd[i];
		d->size = whole_pages(a->fd[i], a->page_size);
		d->stats = a->stats ? a->stats[i] : NULL;
	}
	m.tracing_dir = a->tracing_dir;
	m.events = a->events;
	m.cmdlines = cmdlines;
	m.clock = a->clock_text;
	m.page_size = a->page_size;
	m.punch = 1;
	m.step = copy_step;
	m.step_arg = &ctl;
	if (a->text)
		rc = write_text(a, &m, dc, max_cpu + 1, &ctl, cut, err);
	else
		rc = write_dat(&m, dc, max_cpu + 1, a, err);
	if (m.cut && !*cut)
		*cut = 1;
	free(dc);
	free(cmdlines);
	return rc;
}
