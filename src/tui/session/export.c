// SPDX-License-Identifier: MIT
/*
 * export.c - guided export for MindStudio Insight: format, output
 * (flagged when Insight will not recognise the name or its import refuses
 * the path), profiling directory with its cards and how the capture
 * overlaps each card's window drawn as bars on one time axis (the trace
 * clock, where the export applies the window), the pid mapping (offered
 * when the one beside the capture was written with it); then a progress
 * bar with rate and ETA that Esc cancels, the summary (loss in the one loss
 * model) and what to do next. A DB or JSON is not offered: its times and
 * pids are fixed, so the form's profiling and maps cannot apply to it, and
 * the screen says so (`ftscope convert -i` copies one, links and all).
 *
 * Slow work (the capture's time range, the export through fts_convert)
 * runs in one worker thread (export_job.c) that the screen polls on the
 * tick; Esc cancels it through the progress callback, so a cancelled
 * export leaves no file behind (and keeps an older one).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <ftscope/ftscope.h>

#include "tui/session/export_job.h"
#include "tui/session/export_plan.h"
#include "app/fmt.h"
#include "app/insight.h"
#include "tui/session/home_model.h"
#include "tui/widgets/keys.h"
#include "tui/widgets/line_edit.h"
#include "tui/session/session.h"
#include "tui/session/setup_model.h"

enum field { F_FORMAT, F_OUTPUT, F_PROFILING, F_PIDMAP, F_SUMMARY, F__COUNT };

struct fts_export_state {
	struct fts_export_plan plan;
	enum field focus;
	struct fts_line_edit ed;
	struct fts_export_job *job;  /* the running or finished worker, NULL: none */
	struct fts_export_job *retired; /* a cancelled range job still winding down */
	int range_known;
	char range_err[700];
	int exported;                /* the last export succeeded */
	struct fts_pipeline_result *res; /* the last export's, when @exported */
	char done_output[4096];
	int output_exists;           /* checked with the plan: draw reads no file system */
	char refused[600];           /* why this input cannot be exported ("" it can) */
	uint64_t input_bytes;        /* the input's size, the read's total */
	time_t input_mtime;
	int cancelling;              /* Esc pressed: the worker stops at its next report */
	char pidmap_note[600];       /* whose pid_mapping.json this is, when not offered */
	char default_note[160];      /* why the output has no default, or "" */
};

enum act { A_EXPORT = 1, A_EDIT, A_TOGGLE, A_FORMAT, A_OPEN, A_BACK, A_UP, A_DOWN };

static const struct fts_bind bind[] = {
	{ A_EXPORT, { 'x' }, "export", "export now (Esc cancels it; nothing is left behind)" },
	{ A_EDIT, { FTS_KEY_ENTER }, "edit",
	  "edit a path (Tab completes); switch Format, Summary" },
	{ A_TOGGLE, { ' ' }, NULL, "switch Format (db/json) or Summary (tables on/off)" },
	{ A_FORMAT, { 'f' }, "format", "db <-> json, from any field" },
	{ A_OPEN, { 'o' }, "open result", "after an export: open the written file in the preview" },
	{ A_BACK, { 'q', FTS_KEY_ESC }, "back", "back home (while exporting only Esc: it cancels)" },
	{ A_UP, { FTS_KEY_UP, 'k', FTS_KEY_BTAB }, NULL, "the field above" },
	{ A_DOWN, { FTS_KEY_DOWN, 'j', FTS_KEY_TAB }, NULL, "the field below" },
};

static const struct fts_bindings keys = FTS_BINDINGS(bind);

static int exporting(const struct fts_export_state *st)
{
	return st && st->job && fts_export_job_kind(st->job) == FTS_JOB_EXPORT;
}

/* Cancel and wait for the worker, if any (a cancelled export removes its temp file first). */
static void job_stop(struct fts_export_state *st)
{
	fts_export_job_free(st->job);
	st->job = NULL;
}

/* Free the retired job once it has ended (or, @wait, after it has). */
static void reap(struct fts_export_state *st, int wait)
{
	if (st->retired && (wait || fts_export_job_done(st->retired))) {
		fts_export_job_free(st->retired);
		st->retired = NULL;
	}
}

/*
 * Cancel the worker without waiting for it: a range job reading a large
 * capture stops only at its next progress report, seconds away on a busy
 * machine, and the keys must not wait for that.
 */
static void job_retire(struct fts_export_state *st)
{
	if (!st->job)
		return;
	if (fts_export_job_done(st->job)) {
		job_stop(st);
		return;
	}
	reap(st, 1);  /* at most one winding down */
	fts_export_job_cancel(st->job);
	st->retired = st->job;
	st->job = NULL;
}

/*
 * "@dir@name" into @out, or "" when it does not fit: a default cut short
 * would name another file (a capture deep in the tree gets no default and
 * its output row says why).
 */
static int beside(char *out, size_t len, const char *dir, const char *name)
{
	if ((size_t)snprintf(out, len, "%s%s", dir, name) < len)
		return 0;
	out[0] = 0;
	return -1;
}

/* Fill the plan's defaults from the input: output beside it, a pid map found there. */
static void plan_defaults(struct fts_session *s, struct fts_export_state *st)
{
	char dir[4096], pm[4096];
	const char *sl = strrchr(s->export_input, '/');
	struct fts_convert_opts co = { .input = s->export_input };
	struct fts_err err = { 0 };
	struct stat sb;

	snprintf(st->plan.input, sizeof(st->plan.input), "%s", s->export_input);
	dir[0] = 0;
	if (sl && (size_t)(sl - s->export_input) + 2 <= sizeof(dir))
		snprintf(dir, sizeof(dir), "%.*s/", (int)(sl - s->export_input), s->export_input);
	st->plan.pid_mapping[0] = 0;
	st->pidmap_note[0] = 0;
	st->default_note[0] = 0;
	if (beside(st->plan.output, sizeof(st->plan.output), dir, st->plan.json ? "ftrace_data.json" : "ftrace_data.db")) {
		snprintf(st->default_note, sizeof(st->default_note),
			 "no default output: the capture's directory path is too long (%zu bytes); give a shorter one",
			 strlen(dir));
		return;
	}
	/* the default would replace the input itself (any spelling of its path): the next name */
	co.output = st->plan.output;
	if (fts_convert_check(&co, &err) == -EEXIST)
		beside(st->plan.output, sizeof(st->plan.output), dir, st->plan.json ? "ftrace_data1.json" : "ftrace_data1.db");
	if (beside(pm, sizeof(pm), dir, "pid_mapping.json") || lstat(pm, &sb) || !S_ISREG(sb.st_mode))
		return;
	/* only the map written with this capture; another one is named, not used */
	if (fts_export_pidmap_fits(st->input_mtime, sb.st_mtime)) {
		snprintf(st->plan.pid_mapping, sizeof(st->plan.pid_mapping), "%s", pm);
	} else {
		char when[32], d[FTS_FMT_LEN];
		struct tm tm;
		double ago = difftime(st->input_mtime, sb.st_mtime);

		localtime_r(&sb.st_mtime, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
		snprintf(st->pidmap_note, sizeof(st->pidmap_note),
			 "%.300s here is from %s, %s %s this capture: another run's (Enter to give it anyway)", pm, when,
			 fts_fmt_duration(ago < 0 ? -ago : ago, d, sizeof(d)), ago < 0 ? "after" : "before");
	}
}

/* A DB or JSON input is not exported again: why, for the screen ("" when it can be). */
static void check_input(struct fts_session *s, struct fts_export_state *st)
{
	enum fts_pipeline_input kind;
	struct fts_err err = { 0 };
	struct stat sb;

	st->refused[0] = 0;
	st->input_bytes = 0;
	st->input_mtime = 0;
	if (stat(s->export_input, &sb) == 0) {
		st->input_bytes = (uint64_t)sb.st_size;
		st->input_mtime = sb.st_mtime;
	}
	if (fts_pipeline_detect(s->export_input, &kind, &err)) {
		snprintf(st->refused, sizeof(st->refused), "%s", err.msg);
		return;
	}
	if (kind != FTS_PIPE_TRACE)
		snprintf(st->refused, sizeof(st->refused), "%s", fts_export_refusal(kind == FTS_PIPE_DB));
}

static void check(struct fts_export_state *st)
{
	fts_export_check(&st->plan);
	st->output_exists = access(st->plan.output, F_OK) == 0;
}

/*
 * Read the capture's time range for the bars, unless known or running. An
 * export cancels it (the two would share the CPU), so the form starts it
 * again when it comes back.
 */
static void range_start(struct fts_session *s, struct fts_export_state *st)
{
	if (st->range_known || st->job || st->refused[0])
		return;
	st->range_err[0] = 0;
	if (fts_export_job_start(FTS_JOB_RANGE, &st->plan, s->mach->probe_helper, &st->job))
		snprintf(st->range_err, sizeof(st->range_err), "cannot start a thread");
}

static void enter(struct fts_session *s)
{
	struct fts_export_state *st = s->exp;

	if (st) {
		job_retire(st);
		reap(st, 0);
	} else {
		st = s->exp = calloc(1, sizeof(*st));
		if (!st)
			return;
	}
	st->exported = 0;
	st->cancelling = 0;
	st->range_known = 0;
	st->range_err[0] = 0;
	st->plan.cap_lo = st->plan.cap_hi = 0;
	check_input(s, st);
	plan_defaults(s, st);
	check(st);
	s->msg[0] = 0;
	if (st->refused[0])
		return;
	range_start(s, st);
}

/* @text over rows @y.. @maxy, @w columns wide, broken at spaces; returns the next row. */
static int wrap(struct fts_grid *g, int x, int y, int w, int maxy, const char *text, struct fts_style st)
{
	char line[700];
	const char *p = text;

	while (*p && y <= maxy) {
		size_t n = 0, fit = 0;

		while (p[n] && n < sizeof(line) - 1) {
			line[n] = p[n];
			line[n + 1] = 0;
			if (fts_text_width(line, g->utf8) > w)
				break;
			n++;
			if (!p[n] || p[n] == ' ')
				fit = n;
		}
		if (!fit)
			fit = n ? n : 1;  /* a word longer than the row: cut it */
		snprintf(line, sizeof(line), "%.*s", (int)fit, p);
		fts_grid_text(g, x, y++, w, line, st);
		p += fit;
		while (*p == ' ')
			p++;
	}
	return y;
}

static void draw_bars(const struct fts_session *s, struct fts_grid *g, int *y, int maxy)
{
	const struct fts_export_state *st = s->exp;
	const struct fts_export_plan *p = &st->plan;
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	struct fts_style nrm = fts_theme_style(&s->theme, FTS_R_NORMAL);
	int64_t alo = (int64_t)p->cap_lo, ahi = (int64_t)p->cap_hi, lo, hi;
	int w = g->w - 16, x0, x1, bad;
	double ov = fts_export_overlap(p);
	char a[FTS_FMT_LEN], note[700];
	uint32_t full = s->theme.utf8 ? 0x2588 : '#';

	if (p->tm.cards_total) {
		alo = (int64_t)p->tm.lo < alo ? (int64_t)p->tm.lo : alo;
		ahi = (int64_t)p->tm.hi > ahi ? (int64_t)p->tm.hi : ahi;
	}
	if (ahi <= alo || w < 10)
		return;
	fts_grid_printf(g, 2, (*y)++, g->w - 2, dim, "time axis (the trace clock): %s from the earliest start",
			fts_fmt_duration((double)(ahi - alo) / 1e9, a, sizeof(a)));
	fts_export_bar((int64_t)p->cap_lo, (int64_t)p->cap_hi, alo, ahi, w, &x0, &x1);
	fts_grid_text(g, 2, *y, 12, "capture", nrm);
	fts_grid_fill(g, 14, *y, w, s->theme.utf8 ? 0x00b7 : '.', dim);
	fts_grid_fill(g, 14 + x0, *y, x1 - x0, full, fts_theme_style(&s->theme, FTS_R_RUNNING));
	(*y)++;
	for (int i = 0; i < p->tm.ncards && *y <= maxy - 1; i++, (*y)++) {
		fts_export_card_range(p, i, &lo, &hi);
		fts_export_bar(lo, hi, alo, ahi, w, &x0, &x1);
		fts_grid_text(g, 2, *y, 12, fts_base_name(p->tm.cards[i].dir), nrm);
		fts_grid_fill(g, 14, *y, w, s->theme.utf8 ? 0x00b7 : '.', dim);
		fts_grid_fill(g, 14 + x0, *y, x1 - x0, full, fts_theme_style(&s->theme, FTS_R_WINDOW));
	}
	if (*y > maxy)
		return;
	fts_export_window_note(p, note, sizeof(note), &bad);
	*y = wrap(g, 2, *y, g->w - 3, maxy, note, fts_theme_style(&s->theme, bad ? FTS_R_ERROR :
		  ov < 0.999 ? FTS_R_RUNNABLE : FTS_R_NORMAL));
}

/* The range job's progress: the bars need the whole capture read once. */
static void draw_range_progress(const struct fts_session *s, struct fts_grid *g, int y)
{
	const struct fts_export_state *st = s->exp;
	struct fts_export_clock t;
	struct fts_progress p;
	char l1[300], l2[300];
	double f;

	fts_export_job_progress(st->job, &p, &t);
	fts_export_progress_text(&p, t.stage_s, t.since_s, t.total_s, st->input_bytes, l1, l2, sizeof(l1), &f);
	fts_grid_printf(g, 2, y, g->w - 2, fts_theme_style(&s->theme, FTS_R_DIM),
			"reading the capture's time range: %s", l1);
}

/* The line under field @f, if any (the editor's hint, a warning), and its colour. */
static const char *note_of(const struct fts_export_state *st, int f, enum fts_role *role)
{
	*role = FTS_R_DIM;
	if (st->ed.active && st->ed.field == f && st->ed.hint[0])
		return st->ed.hint;
	if (f == F_OUTPUT && !st->plan.output[0] && st->default_note[0]) {
		*role = FTS_R_ERROR;
		return st->default_note;
	}
	if (f == F_OUTPUT && st->plan.output_note[0]) {
		*role = FTS_R_ERROR;
		return st->plan.output_note;
	}
	if (f == F_OUTPUT && st->output_exists)
		return "exists: replaced only when the export succeeds";
	if (f == F_PIDMAP && !st->plan.pid_mapping[0] && st->pidmap_note[0]) {
		*role = FTS_R_RUNNABLE;
		return st->pidmap_note;
	}
	return NULL;
}

/* The form's first row (under the title and the Input row). */
#define FORM_Y 2

/* The field drawn on row @y, or -1 (the same walk as draw_form). */
static int field_at(const struct fts_export_state *st, int y)
{
	enum fts_role role;
	int row = FORM_Y;

	for (int f = 0; f < F__COUNT; f++, row++) {
		if (row == y)
			return f;
		if (note_of(st, f, &role))
			row++;
	}
	return -1;
}

static void draw_form(const struct fts_session *s, struct fts_grid *g, int y, int maxy)
{
	struct fts_export_state *st = s->exp;
	struct fts_style nrm = fts_theme_style(&s->theme, FTS_R_NORMAL);
	struct fts_style hs = fts_theme_style(&s->theme, FTS_R_HEADER);
	struct fts_style sel = fts_theme_style(&s->theme, FTS_R_LABEL_SEL);
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	struct fts_style red = fts_theme_style(&s->theme, FTS_R_ERROR);
	static const char *const label[] = { "Format", "Output", "Profiling", "Pid map", "Summary" };
	const char *val[F__COUNT];
	enum fts_role role;

	val[F_FORMAT] = st->plan.json ? "json (Chrome trace, also opens in Perfetto)" : "db (MindStudio Insight ftrace DB)";
	val[F_OUTPUT] = st->plan.output;
	val[F_PROFILING] = st->plan.profiling[0] ? st->plan.profiling : "(none: Enter to give the Ascend profiling directory)";
	val[F_PIDMAP] = st->plan.pid_mapping[0] ? st->plan.pid_mapping : "(none: host pids)";
	val[F_SUMMARY] = st->plan.json ? "(DB only)" : st->plan.with_summary ?
		"yes: Insight's Ftrace Task Summary tables, context switches per CPU (--with_summary)" :
		"no: Insight computes them (Space: write them, with context switches per CPU)";
	for (int f = 0; f < F__COUNT && y <= maxy; f++, y++) {
		fts_grid_printf(g, 2, y, 11, (int)st->focus == f ? sel : hs, "%-10s", label[f]);
		if (st->ed.active && st->ed.field == f) {
			int x = fts_grid_text(g, 13, y, g->w - 15, st->ed.buf, sel);

			fts_grid_put(g, 13 + x, y, '_', sel);
		} else {
			fts_grid_text(g, 13, y, g->w - 13, val[f], f == F_PROFILING && !st->plan.profiling[0] ? dim : nrm);
		}
		if (note_of(st, f, &role) && y < maxy)
			fts_grid_text(g, 13, ++y, g->w - 13, note_of(st, f, &role), fts_theme_style(&s->theme, role));
	}
	if (y > maxy)
		return;
	fts_draw_section(s, g, 0, y++, g->w, "Profiling window");
	if (!st->plan.profiling[0]) {
		fts_grid_text(g, 2, y++, g->w - 2, !st->range_known ?
			      "No profiling directory: the wall clock if the capture has the recorder's clock pair" :
			      st->plan.cap_epoch ? "No profiling directory: times go on the wall clock (the recorder's clock pair)" :
			      "No profiling directory: times stay on the trace clock (no recorder clock pair)", dim);
	} else if (!st->plan.prof_ok) {
		fts_grid_text(g, 2, y++, g->w - 2, st->plan.prof_note, red);
	} else {
		char cards[300];

		fts_grid_printf(g, 2, y++, g->w - 2, nrm, "%s%s%s", fts_export_cards_text(&st->plan, cards, sizeof(cards)),
				st->plan.tm.offset_spread > FTS_TIMEMAP_OFFSET_TOLERANCE_NS ?
				"; their clock offsets differ by more than 1 ms" : "",
				st->plan.tm.start_spread > FTS_TIMEMAP_WINDOW_TOLERANCE_NS ||
				st->plan.tm.end_spread > FTS_TIMEMAP_WINDOW_TOLERANCE_NS ?
				"; their windows differ by more than 1 s" : "");
		if (st->plan.kind_note[0] && y <= maxy)
			fts_grid_text(g, 2, y++, g->w - 2, st->plan.kind_note, dim);
		if (st->range_err[0])
			fts_grid_text(g, 2, y++, g->w - 2, st->range_err, red);
		else if (!st->range_known && st->job)
			draw_range_progress(s, g, y++);
		else if (!st->range_known)
			fts_grid_text(g, 2, y++, g->w - 2, "the capture's time range is not known", dim);
		else
			draw_bars(s, g, &y, maxy);
	}
}

static void draw_progress(const struct fts_session *s, struct fts_grid *g, int y)
{
	struct fts_export_state *st = s->exp;
	struct fts_export_clock t;
	struct fts_progress p;
	char l1[300], l2[300];
	double f;
	int bw = g->w - 4;

	fts_export_job_progress(st->job, &p, &t);
	fts_export_progress_text(&p, t.stage_s, t.since_s, t.total_s, st->input_bytes, l1, l2, sizeof(l1), &f);
	fts_draw_section(s, g, 0, y++, g->w, st->cancelling ? "Cancelling" : "Exporting");
	fts_grid_text(g, 2, y++, g->w - 2, l1, fts_theme_style(&s->theme, FTS_R_NORMAL));
	fts_grid_text(g, 2, y++, g->w - 2, l2, fts_theme_style(&s->theme, FTS_R_DIM));
	if (bw > 0) {
		fts_grid_fill(g, 2, y, bw, s->theme.utf8 ? 0x2591 : '.', fts_theme_style(&s->theme, FTS_R_DIM));
		fts_grid_fill(g, 2, y, (int)(f * bw), s->theme.utf8 ? 0x2588 : '#', fts_theme_style(&s->theme, FTS_R_RUNNING));
	}
	fts_grid_text(g, 2, y + 2, g->w - 2, st->cancelling ?
		      "cancelling: the export stops at its next step and removes what it wrote" :
		      "Esc cancels: nothing is left behind", fts_theme_style(&s->theme, st->cancelling ? FTS_R_RUNNABLE : FTS_R_DIM));
}

static void draw_done(const struct fts_session *s, struct fts_grid *g, int y, int maxy)
{
	struct fts_export_state *st = s->exp;
	const struct fts_pipeline_result *r = st->res;
	const struct fts_model_stats *m = fts_pipeline_result_model(r);
	const struct fts_loss_summary *loss = fts_pipeline_result_loss(r);
	uint64_t items = fts_pipeline_result_items(r, NULL, NULL);
	struct fts_style nrm = fts_theme_style(&s->theme, FTS_R_NORMAL);
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	char a[FTS_FMT_LEN];

	fts_draw_section(s, g, 0, y++, g->w, "Exported");
	fts_grid_printf(g, 2, y++, g->w - 2, nrm, "%s in %.2f s: %s items, %u CPU lanes, %u task lanes",
			st->done_output, fts_pipeline_result_seconds(r), fts_fmt_count((double)items, a, sizeof(a)),
			m->cpu_lanes, m->task_lanes);
	if (fts_timemap_base(fts_pipeline_result_time(r)) == FTS_TIME_PROFILING && y < maxy) {
		char cards[300];

		fts_grid_printf(g, 2, y++, g->w - 2, nrm, "aligned with %s",
				fts_export_cards_text(&st->plan, cards, sizeof(cards)));
		fts_grid_printf(g, 2, y++, g->w - 2, (m->before_window || m->after_window) ?
				fts_theme_style(&s->theme, FTS_R_RUNNABLE) : nrm,
				"left out: %llu events before the profiling window, %llu after",
				(unsigned long long)m->before_window, (unsigned long long)m->after_window);
	}
	/* the pipeline's own loss model (loss.h): the numbers the preview and stats print */
	if (loss->any && y <= maxy) {
		fts_grid_printf(g, 2, y++, g->w - 2, fts_theme_style(&s->theme, FTS_R_ERROR),
				"the kernel lost %s", loss->text);
		if (y <= maxy)
			fts_grid_text(g, 4, y++, g->w - 4, "(marked on the CPU lanes; the preview shows the same numbers)", dim);
	}
	if (y <= maxy)
		fts_grid_text(g, 2, y++, g->w - 2,
			      st->plan.json ? "Next: open it in MindStudio Insight or ui.perfetto.dev."
			      : "Next: copy it with the profiling data to your workstation and import it",
			      dim);
	if (!st->plan.json && y <= maxy)
		fts_grid_text(g, 2, y++, g->w - 2, "in MindStudio Insight into the same project as the profiling data.", dim);
	if (y <= maxy)
		fts_grid_text(g, 2, y, g->w - 2, "o opens the written file in the preview; q goes home.", dim);
}

static void draw(const struct fts_session *s, struct fts_grid *g)
{
	const struct fts_export_state *st = s->exp;
	char bar[256], cmd[8192];
	int y = fts_session_frame(s, g, "export", exporting(st) ? "Esc cancel" :
				  st && st->refused[0] ? "q back" : fts_bind_bar(&keys, bar, sizeof(bar)));
	int maxy = g->h - 4;

	if (!st)
		return;
	fts_grid_text(g, 1, y, 8, "Input", fts_theme_style(&s->theme, FTS_R_HEADER));
	fts_grid_text(g, 13, y++, g->w - 13, st->plan.input, fts_theme_style(&s->theme, FTS_R_NORMAL));
	if (st->refused[0]) {
		fts_draw_section(s, g, 0, y + 1, g->w, "Cannot export this file");
		wrap(g, 2, y + 2, g->w - 4, g->h - 4, st->refused, fts_theme_style(&s->theme, FTS_R_ERROR));
		return;
	}
	fts_session_cmdline(s, g, fts_export_cmdline(&st->plan, cmd, sizeof(cmd)));
	if (exporting(st)) {
		draw_progress(s, g, y + 1);
		return;
	}
	if (st->exported) {
		draw_done(s, g, y + 1, maxy);
		return;
	}
	draw_form(s, g, FORM_Y, maxy);
}

/* The capture's time range arrived (or not): the profiling bars can be drawn. */
static void range_done(struct fts_export_state *st, int rc, const struct fts_pipeline_result *r,
		       const struct fts_err *err)
{
	if (rc == -ECANCELED)
		return;
	uint64_t items = r ? fts_pipeline_result_items(r, NULL, NULL) : 0;

	if (rc || !items)
		snprintf(st->range_err, sizeof(st->range_err), "cannot read the capture's time range: %s",
			 rc ? err->msg : "it holds no scheduler items");
	if (r)
		fts_export_set_range(&st->plan, r);
	st->range_known = !rc && items;
}

static unsigned tick(struct fts_session *s)
{
	struct fts_export_state *st = s->exp;
	struct fts_pipeline_result *r = NULL;
	struct fts_err err = { 0 };
	int rc, was_export;

	if (st)
		reap(st, 0);
	if (!st || !st->job)
		return 0;
	if (!fts_export_job_done(st->job))
		return exporting(st) ? FTS_RX_REDRAW : 0;
	rc = fts_export_job_result(st->job, &r, &err);
	if (!exporting(st)) {
		range_done(st, rc, r, &err);
	} else if (rc == -ECANCELED) {
		fts_session_say(s, 0, "export cancelled; nothing was written");
	} else if (rc) {
		fts_session_say(s, 1, "export failed: %s", err.msg);
	} else {
		st->exported = 1;
		fts_pipeline_result_free(st->res);
		st->res = r;
		r = NULL;
		snprintf(st->done_output, sizeof(st->done_output), "%s", st->plan.output);
		if (st->cancelling)   /* Esc came during the last step, which does not stop */
			fts_session_say(s, 0, "too late to cancel: the export had reached its last step; wrote %s",
					st->plan.output);
		else
			fts_session_say(s, 0, "wrote %s", st->plan.output);
	}
	fts_pipeline_result_free(r);
	was_export = exporting(st);
	st->cancelling = 0;
	job_stop(st);
	if (was_export && !st->exported)
		range_start(s, st);   /* back on the form: the bars again */
	return FTS_RX_REDRAW;
}

static void switch_format(struct fts_export_state *st);

static void commit_edit(struct fts_export_state *st)
{
	switch (st->ed.field) {
	case F_OUTPUT:
		snprintf(st->plan.output, sizeof(st->plan.output), "%s", st->ed.buf);
		break;
	case F_PROFILING:
		snprintf(st->plan.profiling, sizeof(st->plan.profiling), "%s", st->ed.buf);
		break;
	case F_PIDMAP:
		snprintf(st->plan.pid_mapping, sizeof(st->plan.pid_mapping), "%s", st->ed.buf);
		break;
	default:
		break;
	}
	check(st);
	/* a profiling directory given: the format that joins it (the user may switch back) */
	if (st->ed.field == F_PROFILING && fts_export_prefer_format(&st->plan))
		switch_format(st);
}

/* Space / Enter on the format: db <-> json, with the output's extension following. */
static void switch_format(struct fts_export_state *st)
{
	size_t n = strlen(st->plan.output);

	st->plan.json = !st->plan.json;
	if (!st->plan.json && n > 5 && !strcmp(st->plan.output + n - 5, ".json"))
		snprintf(st->plan.output + n - 5, sizeof(st->plan.output) - (n - 5), ".db");
	else if (st->plan.json && n > 3 && !strcmp(st->plan.output + n - 3, ".db") &&
		 n + 2 < sizeof(st->plan.output))   /* else left as it is: the check says why */
		snprintf(st->plan.output + n - 3, sizeof(st->plan.output) - (n - 3), ".json");
	check(st);
}

/* x: check the plan, then start the export worker. */
static void start_export(struct fts_session *s)
{
	struct fts_export_state *st = s->exp;

	if (st->refused[0]) {
		fts_session_say(s, 1, "%s", st->refused);
		return;
	}
	check(st);
	if (st->plan.output_bad) {
		fts_session_say(s, 1, "%s", st->plan.output_note);
		return;
	}
	if (st->plan.profiling[0] && !st->plan.prof_ok) {
		fts_session_say(s, 1, "the profiling directory is not usable: %s", st->plan.prof_note);
		return;
	}
	job_retire(st);
	if (fts_export_job_start(FTS_JOB_EXPORT, &st->plan, s->mach->probe_helper, &st->job))
		fts_session_say(s, 1, "cannot start the export thread");
}

/* Enter: a format or summary toggle, or the field's editor (Tab completes paths). */
static void edit_field(struct fts_export_state *st)
{
	if (st->focus == F_FORMAT) {
		switch_format(st);
	} else if (st->focus == F_SUMMARY) {
		fts_export_toggle_summary(&st->plan);
	} else {
		fts_edit_begin(&st->ed, st->focus, st->focus == F_OUTPUT ? st->plan.output :
			       st->focus == F_PROFILING ? st->plan.profiling : st->plan.pid_mapping);
		fts_edit_complete_with(&st->ed, fts_edit_complete_path);
	}
}

/* Space: switches only; on a path field it says which key edits. */
static void toggle_field(struct fts_session *s, struct fts_export_state *st)
{
	if (st->focus == F_FORMAT || st->focus == F_SUMMARY)
		edit_field(st);
	else
		fts_session_say(s, 0, "Space switches Format and Summary; Enter edits this field (f: the format from anywhere)");
}

static unsigned key(struct fts_session *s, int k)
{
	struct fts_export_state *st = s->exp;
	int a = fts_bind_action(&keys, k);

	if (!st)
		return a == A_BACK ? FTS_RX_QUIT : 0;
	if (exporting(st)) {
		/* only Esc cancels, as the bottom line says; the news shows at once */
		if (k == FTS_KEY_ESC && !st->cancelling) {
			fts_export_job_cancel(st->job);
			st->cancelling = 1;
			fts_session_say(s, 0, "cancelling the export...");
		} else if (k != FTS_KEY_ESC) {
			fts_session_say(s, 0, "exporting: Esc cancels");
		}
		return FTS_RX_REDRAW;
	}
	if (st->ed.active) {
		if (fts_edit_key(&st->ed, k) == FTS_EDIT_DONE)
			commit_edit(st);
		return FTS_RX_REDRAW;
	}
	s->msg[0] = 0;
	switch (a) {
	case A_BACK:
		job_retire(st);
		s->next = FTS_SCR_HOME;
		return FTS_RX_GOTO;
	case A_UP: st->focus = st->focus ? st->focus - 1 : F__COUNT - 1; break;
	case A_DOWN: st->focus = (st->focus + 1) % F__COUNT; break;
	case A_EDIT:
		if (st->exported) {
			st->exported = 0;   /* back to the form */
			range_start(s, st);
		}
		else if (!st->refused[0])
			edit_field(st);
		break;
	case A_TOGGLE:
		if (!st->exported && !st->refused[0])
			toggle_field(s, st);
		break;
	case A_FORMAT:
		if (!st->exported && !st->refused[0])
			switch_format(st);
		break;
	case A_OPEN:
		if (!st->exported) {
			fts_session_say(s, 1, "export first (x); o then opens the written file");
			break;
		}
		snprintf(s->preview_path, sizeof(s->preview_path), "%s", st->done_output);
		/* the file was aligned by this profiling: its NPU lanes and gaps go next to it */
		if (st->plan.profiling[0] && st->plan.prof_ok)
			snprintf(s->preview_profiling, sizeof(s->preview_profiling), "%s", st->plan.profiling);
		return FTS_RX_PREVIEW | FTS_RX_REDRAW;
	case A_EXPORT: start_export(s); break;
	default:
		return 0;
	}
	return FTS_RX_REDRAW;
}

/* A click on a field focuses it; on the focused one, it acts as Enter. */
static unsigned mouse(struct fts_session *s, enum fts_mouse ev, int x, int y)
{
	struct fts_export_state *st = s->exp;
	int f;

	(void)x;
	if (!st || ev != FTS_MOUSE_CLICK || exporting(st) || st->exported || st->refused[0] || st->ed.active)
		return 0;
	f = field_at(st, y);
	if (f < 0)
		return 0;
	s->msg[0] = 0;
	if ((int)st->focus == f)
		edit_field(st);
	st->focus = (enum field)f;
	return FTS_RX_REDRAW;
}

static int leave(struct fts_session *s, int sig)
{
	struct fts_export_state *st = s->exp;

	(void)sig;
	if (!st)
		return 0;
	/* a cancelled export removes its temporary file before the thread ends */
	job_stop(st);
	reap(st, 1);
	fts_pipeline_result_free(st->res);
	free(st);
	s->exp = NULL;
	return 0;
}

const struct fts_screen_ops fts_screen_export = {
	.title = "export",
	.enter = enter,
	.draw = draw,
	.key = key,
	.mouse = mouse,
	.tick = tick,
	.tick_ms = 200,
	.keys = &keys,
	.leave = leave,
};
