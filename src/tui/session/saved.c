// SPDX-License-Identifier: MIT
/*
 * saved.c - the screen between a recording and its preview (see saved.h).
 * The figures are copied from the recorder's final summary when the record
 * screen hands it over; draw reads only them. The loss is the kernel's
 * per-CPU counters from the last health sample, which is what the trace.dat
 * stores (CPUSTAT) and what every reader reports, printed through
 * fts_loss_text/fts_loss_cpu_text in fts_loss_worst's order.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/fmt.h"
#include "app/inputs.h"
#include "tui/widgets/keys.h"
#include "tui/session/saved.h"
#include "tui/session/setup_model.h"

struct fts_saved_state {
	char output[4096], pid_mapping[4096];
	double duration_s;
	uint64_t events, file_size;
	struct fts_loss loss;          /* the kernel's per-CPU counters */
	int counters;                  /* 0: the backend kept none live (trace-cmd) */
	int truncated, cut;
	char failure[256];
	unsigned bf_kb;                /* the buffer it was recorded with */
	unsigned raise_kb;             /* the buffer to record again with after a loss, 0 when none was lost */
	double busiest_bytes_s;        /* the busiest CPU's data rate */
	int busiest_cpu;
	int confirm_discard;           /* d was pressed: y deletes */
	/* a flight recording: the ring and the snapshots, not the last segment alone */
	int flight;
	char ring_dir[4096];           /* the output's directory: previewed as one trace */
	char ring[600];                /* its segments, "first .. last" (fts_input_segments) */
	int nseg;
	uint64_t ring_bytes;
	int nsnaps;                    /* snapshot-* directories made during the recording */
	char snaps[600];               /* their names, newest first, ", " between (as many as fit) */
	char disk_short[200];          /* what a short disk cost the flight ring, or "" */
};

enum act { A_PREVIEW = 1, A_AGAIN, A_DISCARD, A_HOME };

static const struct fts_bind bind[] = {
	{ A_PREVIEW, { FTS_KEY_ENTER, 'p' }, "preview", "open the capture in the preview (CPU and task lanes)" },
	{ A_AGAIN, { 'b' }, "record again", "back to the setup to record again; after a loss with the advised bigger buffer" },
	{ A_DISCARD, { 'd' }, "discard", "delete the capture (asks first)" },
	{ A_HOME, { 'q', FTS_KEY_ESC }, "home", "the home screen; the capture stays" },
};

static const struct fts_bindings keys = FTS_BINDINGS(bind);

void fts_saved_take(struct fts_session *s, const struct fts_record_summary *sum, unsigned bf_kb)
{
	const struct fts_record_health *h = &sum->health;
	struct fts_saved_state *st = s->saved;

	if (!st)
		st = s->saved = calloc(1, sizeof(*st));
	if (!st)
		return;
	fts_loss_free(&st->loss);
	memset(st, 0, sizeof(*st));
	snprintf(st->output, sizeof(st->output), "%s", sum->output);
	snprintf(st->pid_mapping, sizeof(st->pid_mapping), "%s", sum->pid_mapping);
	snprintf(st->failure, sizeof(st->failure), "%s", sum->failure);
	st->duration_s = sum->duration_s;
	st->events = h->events;
	st->file_size = sum->file_size;
	st->counters = h->counters;
	st->truncated = sum->truncated;
	st->cut = sum->cut;
	st->bf_kb = bf_kb;
	st->busiest_cpu = -1;
	if (h->flight_removed_early || h->flight_segments_lost || h->flight_writes_refused)
		snprintf(st->disk_short, sizeof(st->disk_short), "%u removed early, %u segments and %llu pages not "
			 "written", h->flight_removed_early, h->flight_segments_lost,
			 (unsigned long long)h->flight_writes_refused);
	if (fts_record_health_loss(h, &st->loss))
		fts_loss_free(&st->loss);
	for (int i = 0; i < h->ncpus && sum->duration_s > 0; i++) {
		double b = (double)h->cpu[i].bytes_written / sum->duration_s;

		if (b > st->busiest_bytes_s) {
			st->busiest_bytes_s = b;
			st->busiest_cpu = h->cpu[i].cpu;
		}
	}
	if (fts_loss_any(&st->loss))
		st->raise_kb = fts_record_advice_kb(h, bf_kb); /* the number `ftscope record` advises */
}

static int cmp_name_desc(const void *a, const void *b)
{
	return strcmp(*(char *const *)b, *(char *const *)a);
}

/* The snapshot-* directories in @dir changed since @since (this recording's), newest first. */
static void scan_snapshots(struct fts_saved_state *st, const char *dir, time_t since)
{
	char *names[256], path[8192];
	int n = 0;
	size_t off = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat sb;

	if (!d)
		return;
	while ((e = readdir(d)) && n < 256) {
		if (strncmp(e->d_name, "snapshot-", 9))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &sb) || !S_ISDIR(sb.st_mode) || sb.st_mtime < since)
			continue;
		if ((names[n] = strdup(e->d_name)))
			n++;
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(*names), cmp_name_desc);  /* their names start with the UTC time */
	st->nsnaps = n;
	st->snaps[0] = 0;
	for (int i = 0; i < n; i++) {
		if (off < sizeof(st->snaps))
			off += (size_t)snprintf(st->snaps + off, sizeof(st->snaps) - off, "%s%s", i ? ", " : "", names[i]);
		free(names[i]);
	}
}

void fts_saved_flight(struct fts_session *s, const char *outdir, uint64_t ring_bytes, double duration_s)
{
	struct fts_saved_state *st = s->saved;

	if (!st)
		return;
	st->flight = 1;
	snprintf(st->ring_dir, sizeof(st->ring_dir), "%s", outdir);
	st->nseg = fts_input_segments(outdir, st->ring, sizeof(st->ring));
	st->ring_bytes = ring_bytes;
	/* a second of slack before the start: a snapshot's directory time is whole seconds on some filesystems */
	scan_snapshots(st, outdir, time(NULL) - (time_t)duration_s - 2);
}

static void enter(struct fts_session *s)
{
	if (s->saved)
		s->saved->confirm_discard = 0;
}

/* Lost per CPU, worst first, as many rows as fit in @y..@maxy. */
static void draw_loss(const struct fts_session *s, struct fts_grid *g, int *y, int maxy)
{
	const struct fts_saved_state *st = s->saved;
	struct fts_style red = fts_theme_style(&s->theme, FTS_R_ERROR);
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	int idx[64], n = fts_loss_worst(&st->loss, idx, 64), any = 0, shown;

	for (int c = 0; c < st->loss.ncpu; c++)
		any += fts_loss_cpu_any(&st->loss.cpu[c]);
	fts_draw_section(s, g, 0, (*y)++, g->w, "Lost per CPU: the kernel's counters, as the file keeps them");
	for (shown = 0; shown < n && *y <= maxy - (shown + 1 < n); shown++) {
		char lt[160];

		fts_grid_printf(g, 2, (*y)++, g->w - 2, red, "CPU %-4d %s", idx[shown],
				fts_loss_cpu_text(&st->loss.cpu[idx[shown]], lt, sizeof(lt)));
	}
	if (*y <= maxy)
		fts_grid_printf(g, 2, (*y)++, g->w - 2, dim, "%s%s", any > shown ? "more CPUs lost events too; " : "",
				"every other CPU: none lost");
}

static void draw(const struct fts_session *s, struct fts_grid *g)
{
	const struct fts_saved_state *st = s->saved;
	struct fts_style nrm = fts_theme_style(&s->theme, FTS_R_NORMAL);
	struct fts_style hs = fts_theme_style(&s->theme, FTS_R_HEADER);
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	struct fts_style red = fts_theme_style(&s->theme, FTS_R_ERROR);
	char bar[256], a[FTS_FMT_LEN], b[FTS_FMT_LEN], lt[400];
	int y = fts_session_frame(s, g, "saved", st && st->confirm_discard ? "y delete it  any other key: keep it" :
				  fts_bind_bar(&keys, bar, sizeof(bar)));
	int maxy = g->h - 4, lost;

	if (!st)
		return;
	lost = fts_loss_any(&st->loss);
	fts_grid_text(g, 1, y, 7, "Saved ", hs);
	if (st->flight) {
		fts_grid_printf(g, 7, y++, g->w - 7, nrm, "the ring: %d segments %s in %s", st->nseg, st->ring,
				st->ring_dir);
		fts_grid_printf(g, 1, y++, g->w - 1, nrm, "%-9s %s; %s events arrived; the ring holds %s", "Took",
				fts_fmt_duration(st->duration_s, a, sizeof(a)), fts_fmt_count((double)st->events, b, sizeof(b)),
				fts_fmt_bytes((double)st->ring_bytes, lt, sizeof(lt)));
		fts_grid_printf(g, 1, y++, g->w - 1, nrm, "%-9s %d%s%s", "Snapshots", st->nsnaps, st->nsnaps ? ": " : "",
				st->snaps);
		if (st->disk_short[0])
			fts_grid_printf(g, 1, y++, g->w - 1, red, "%-9s short: %s", "Disk", st->disk_short);
	} else {
		fts_grid_text(g, 7, y++, g->w - 7, st->output, nrm);
		fts_grid_printf(g, 1, y++, g->w - 1, nrm, "%-9s %s; %s events arrived; the file has %s", "Took",
				fts_fmt_duration(st->duration_s, a, sizeof(a)), fts_fmt_count((double)st->events, b, sizeof(b)),
				fts_fmt_bytes((double)st->file_size, lt, sizeof(lt)));
	}
	if (!st->counters)
		fts_grid_printf(g, 1, y++, g->w - 1, dim, "%-9s not counted live with trace-cmd; the preview reads the file's counters",
				"Lost");
	else
		fts_grid_printf(g, 1, y++, g->w - 1, lost ? red : nrm, "%-9s %s", "Lost",
				fts_loss_text(&st->loss, 3, lt, sizeof(lt)));
	if (st->truncated)
		fts_grid_printf(g, 1, y++, g->w - 1, red, "Cut short: %s; the file holds what was recorded until then", st->failure);
	else if (st->cut)
		fts_grid_text(g, 1, y++, g->w - 1, "Cut short on request; the file is valid", dim);
	if (lost && y + 1 <= maxy)
		draw_loss(s, g, &y, maxy - 7);
	if (lost && y <= maxy && st->busiest_cpu >= 0)
		fts_grid_printf(g, 1, y++, g->w - 1, red, "Advice: buffer >= %u KB per CPU (was %u; CPU %d wrote %s/s)", st->raise_kb, st->bf_kb, st->busiest_cpu,
				fts_fmt_bytes(st->busiest_bytes_s, a, sizeof(a)));
	else if (lost && y <= maxy)
		fts_grid_printf(g, 1, y++, g->w - 1, red, "Advice: buffer >= %u KB per CPU (was %u)",
				st->raise_kb, st->bf_kb);
	y++;
	if (y <= maxy)
		fts_draw_section(s, g, 0, y++, g->w, "Next");
	for (int i = 0; i < 4 && y <= maxy; i++, y++) {
		static const char *const k[] = { "Enter", "b", "d", "q" };
		char what[300];

		if (i == 0)
			snprintf(what, sizeof(what), "preview the %s (CPU and task lanes)", st->flight ? "ring, its segments as one trace" : "capture");
		else if (i == 1 && st->raise_kb)
			snprintf(what, sizeof(what), "record again with a bigger buffer: %u KB per CPU", st->raise_kb);
		else if (i == 1)
			snprintf(what, sizeof(what), "record again (the same setup)");
		else if (i == 2 && st->flight)
			snprintf(what, sizeof(what), "discard: not for a ring (delete its segments yourself)");
		else if (i == 2)
			snprintf(what, sizeof(what), "discard: delete this capture (asks first)");
		else
			snprintf(what, sizeof(what), "home; the capture stays");
		fts_grid_text(g, 2, y, 7, k[i], hs);
		fts_grid_text(g, 9, y, g->w - 9, what, nrm);
	}
}

/* y after d: delete the capture and the pid mapping written with it. */
static unsigned discard(struct fts_session *s)
{
	struct fts_saved_state *st = s->saved;

	if (unlink(st->output) && errno != ENOENT) {
		fts_session_say(s, 1, "cannot delete %s: %s", st->output, strerror(errno));
		return FTS_RX_REDRAW;
	}
	if (st->pid_mapping[0])
		unlink(st->pid_mapping);
	fts_session_say(s, 0, "deleted %s", st->output);
	s->last_capture[0] = 0;
	s->next = FTS_SCR_HOME;
	return FTS_RX_GOTO;
}

static unsigned key(struct fts_session *s, int k)
{
	struct fts_saved_state *st = s->saved;
	int a = fts_bind_action(&keys, k);

	if (!st) {
		s->next = FTS_SCR_HOME;
		return FTS_RX_GOTO;
	}
	if (st->confirm_discard) {
		st->confirm_discard = 0;
		if (k == 'y' || k == 'Y')
			return discard(s);
		fts_session_say(s, 0, "kept %s", st->output);
		return FTS_RX_REDRAW;
	}
	switch (a) {
	case A_PREVIEW:
		s->msg[0] = 0;
		/* a ring is its segments, read as one trace from their directory */
		snprintf(s->preview_path, sizeof(s->preview_path), "%s",
			 st->flight && st->nseg > 1 ? st->ring_dir : st->output);
		/* recorded with container pids: show them */
		snprintf(s->preview_pidmap, sizeof(s->preview_pidmap), "%s", st->pid_mapping);
		return FTS_RX_PREVIEW | FTS_RX_REDRAW;
	case A_AGAIN:
		s->msg[0] = 0;
		s->setup_raise_kb = st->raise_kb;
		s->next = FTS_SCR_SETUP;
		return FTS_RX_GOTO;
	case A_DISCARD:
		if (st->flight) {
			/* its snapshots hold hard links to its segments: one file deleted here would mislead */
			fts_session_say(s, 1, "a flight ring is not deleted from here: its segments are %s in %s",
					st->ring, st->ring_dir);
			return FTS_RX_REDRAW;
		}
		st->confirm_discard = 1;
		fts_session_say(s, 1, "delete %s%s? y deletes it; any other key keeps it", st->output,
				st->pid_mapping[0] ? " and its pid mapping" : "");
		return FTS_RX_REDRAW;
	case A_HOME:
		s->msg[0] = 0;
		s->next = FTS_SCR_HOME;
		return FTS_RX_GOTO;
	default:
		return 0;
	}
}

static int leave(struct fts_session *s, int sig)
{
	(void)sig;
	if (!s->saved)
		return 0;
	fts_loss_free(&s->saved->loss);
	free(s->saved);
	s->saved = NULL;
	return 0;
}

const struct fts_screen_ops fts_screen_saved = {
	.title = "saved",
	.enter = enter,
	.draw = draw,
	.key = key,
	.keys = &keys,
	.leave = leave,
};
