// SPDX-License-Identifier: MIT
/*
 * export_plan.c - checks shown before an export, so a user learns that
 * Insight will refuse a file, or that the capture misses the profiling run,
 * before copying gigabytes to a workstation.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <ftscope/ftscope.h>

#include "tui/session/export_plan.h"
#include "app/fmt.h"
#include "app/insight.h"
#include "tui/session/setup_model.h"

static int ends_with(const char *s, const char *sfx)
{
	size_t n = strlen(s), k = strlen(sfx);

	return n >= k && !strcmp(s + n - k, sfx);
}

/* The profiling's export type and the format that joins it, in one line. */
static void check_kind(struct fts_export_plan *p)
{
	struct fts_profiling_kind k;
	const char *why;

	if (fts_profiling_kind(p->profiling, &k, NULL) || !k.kind)
		return;
	p->kind_known = 1;
	p->kind_json = fts_profiling_format(&k, &why);
	(void)why;   /* convert's long reason; the screen has one short line */
	snprintf(p->kind_note, sizeof(p->kind_note), "%s",
		 p->kind_json ? "json joins it: text-only profiling; older Insight refuses a DB beside it" :
				"db joins it: the profiling has DB output");
}

int fts_export_prefer_format(const struct fts_export_plan *p)
{
	return p->kind_known && p->kind_json != p->json;
}

/* The profiling's cards as the screen shows them (fts_export_cards), from the library's time map. */
static int read_cards(const char *dir, struct fts_export_cards *c, struct fts_err *err)
{
	struct fts_timemap *tm = fts_timemap_new();
	int rc;

	if (!tm)
		return fts_err_set(err, -ENOMEM, "out of memory");
	rc = fts_timemap_from_profiling(dir, tm, err);
	if (!rc) {
		c->cards_total = (int)fts_timemap_stat(tm, FTS_TM_CARDS_TOTAL);
		c->ncards = (int)fts_timemap_stat(tm, FTS_TM_CARDS_LISTED);
		fts_timemap_window(tm, &c->lo, &c->hi);
		c->offset_min = fts_timemap_stat(tm, FTS_TM_OFFSET_MIN);
		c->offset_spread = fts_timemap_stat(tm, FTS_TM_OFFSET_SPREAD);
		c->start_spread = fts_timemap_stat(tm, FTS_TM_START_SPREAD);
		c->end_spread = fts_timemap_stat(tm, FTS_TM_END_SPREAD);
		for (int i = 0; i < c->ncards; i++) {
			const struct fts_card *k = fts_timemap_card(tm, i);

			snprintf(c->cards[i].dir, sizeof(c->cards[i].dir), "%s", k->dir);
			c->cards[i].start_mono = k->start_mono;
			c->cards[i].end_mono = k->end_mono;
			c->cards[i].offset = k->offset;
		}
	}
	fts_timemap_free(tm);
	return rc;
}

void fts_export_check(struct fts_export_plan *p)
{
	struct fts_err err = { 0 };
	char abs[4096];

	p->output_note[0] = 0;
	p->output_bad = 0;
	if (!p->output[0]) {
		snprintf(p->output_note, sizeof(p->output_note), "no output file given");
		p->output_bad = 1;
	} else if (!ends_with(p->output, p->json ? ".json" : ".db")) {
		snprintf(p->output_note, sizeof(p->output_note), "the output must end in .%s for the %s format",
			 p->json ? "json" : "db", p->json ? "json" : "db");
		p->output_bad = 1;
	} else if (!p->json && !fts_insight_db_name_ok(p->output)) {
		snprintf(p->output_note, sizeof(p->output_note),
			 "Insight only recognises DBs named " FTS_INSIGHT_DB_RULE ": this one will not import as ftrace");
	}
	if (!p->output_note[0] && p->output[0] && !fts_insight_path_ok(p->output, abs, sizeof(abs)))
		snprintf(p->output_note, sizeof(p->output_note),
			 "Insight's import refuses paths holding control characters or %s: %.300s",
			 FTS_INSIGHT_BAD_CHARS, abs);
	if (!p->output_bad && p->output[0] && p->input[0]) {
		struct fts_convert_opts co = { .input = p->input, .output = p->output };

		co.pid_mapping = p->pid_mapping[0] ? p->pid_mapping : NULL;
		if (fts_convert_check(&co, &err) == -EEXIST) {
			snprintf(p->output_note, sizeof(p->output_note), "%s", err.msg);
			p->output_bad = 1;
		}
		memset(&err, 0, sizeof(err));
	}
	p->prof_ok = 0;
	p->prof_note[0] = 0;
	memset(&p->tm, 0, sizeof(p->tm));
	p->kind_known = p->kind_json = 0;
	p->kind_note[0] = 0;
	if (!p->profiling[0])
		return;
	check_kind(p);
	if (read_cards(p->profiling, &p->tm, &err)) {
		snprintf(p->prof_note, sizeof(p->prof_note), "%s", err.msg[0] ? err.msg : "no profiling cards found");
		return;
	}
	p->prof_ok = p->tm.cards_total > 0;
	if (!p->prof_ok)
		snprintf(p->prof_note, sizeof(p->prof_note), "no start_info/end_info pair below this directory");
}

void fts_export_set_range(struct fts_export_plan *p, const struct fts_pipeline_result *r)
{
	const struct fts_timemap *tm = fts_pipeline_result_time(r);
	int epoch = fts_timemap_base(tm) == FTS_TIME_CLOCK_PAIR;
	int64_t off = epoch ? fts_timemap_offset(tm) : 0;
	uint64_t lo, hi, items = fts_pipeline_result_items(r, &lo, &hi);

	p->cap_epoch = epoch;
	p->cap_off = off;
	p->cap_lo = items ? (uint64_t)((int64_t)lo - off) : 0;
	p->cap_hi = items ? (uint64_t)((int64_t)hi - off) : 0;
}

void fts_export_card_range(const struct fts_export_plan *p, int i, int64_t *lo, int64_t *hi)
{
	const struct fts_export_card *c = &p->tm.cards[i];

	*lo = c->start_mono;
	*hi = c->end_mono;
}

/* The union of the cards' windows on the trace clock (every card's, listed or not). */
static void window(const struct fts_export_plan *p, int64_t *wlo, int64_t *whi)
{
	*wlo = (int64_t)p->tm.lo;
	*whi = (int64_t)p->tm.hi;
}

double fts_export_overlap(const struct fts_export_plan *p)
{
	int64_t wlo, whi, lo, hi;

	if (!p->prof_ok || p->cap_hi <= p->cap_lo)
		return -1;
	window(p, &wlo, &whi);
	lo = (int64_t)p->cap_lo > wlo ? (int64_t)p->cap_lo : wlo;
	hi = (int64_t)p->cap_hi < whi ? (int64_t)p->cap_hi : whi;
	if (hi <= lo)
		return 0;
	return (double)(hi - lo) / (double)(p->cap_hi - p->cap_lo);
}

/*
 * How far the recorder's clock pair (trace clock -> wall clock) is from the
 * nearest card's (the same mapping, taken by the profiler): on one boot of
 * one host both map the same clock, so they agree to within clock drift.
 */
static int64_t clock_disagreement(const struct fts_export_plan *p)
{
	int64_t best = INT64_MAX;

	for (int i = 0; i < p->tm.ncards; i++) {
		int64_t d = p->cap_off - p->tm.cards[i].offset;

		d = d < 0 ? -d : d;
		best = d < best ? d : best;
	}
	if (p->tm.cards_total > p->tm.ncards) {
		/* cards not listed: no nearer than the range of all offsets */
		int64_t lo = p->tm.offset_min, hi = lo + p->tm.offset_spread;
		int64_t d = p->cap_off < lo ? lo - p->cap_off : p->cap_off > hi ? p->cap_off - hi : 0;

		best = d < best ? d : best;
	}
	return best;
}

const char *fts_export_window_note(const struct fts_export_plan *p, char *buf, size_t len, int *bad)
{
	double ov = fts_export_overlap(p);
	int64_t wlo, whi, cap = (int64_t)(p->cap_hi - p->cap_lo), slack;
	char d[FTS_FMT_LEN];
	size_t n;

	*bad = 0;
	if (ov < 0)
		return snprintf(buf, len, "the capture's time range is not known"), buf;
	window(p, &wlo, &whi);
	if (ov >= 0.999) {
		n = (size_t)snprintf(buf, len, "all of the capture is inside the profiling window");
	} else if (ov > 0) {
		n = (size_t)snprintf(buf, len, "%.0f%% of the capture is inside the profiling window; the rest is left out",
				     ov * 100);
	} else {
		*bad = 1;
		if ((int64_t)p->cap_hi <= wlo)
			n = (size_t)snprintf(buf, len, "the capture ends %s before the profiling window starts",
					     fts_fmt_duration((double)(wlo - (int64_t)p->cap_hi) / 1e9, d, sizeof(d)));
		else
			n = (size_t)snprintf(buf, len, "the capture starts %s after the profiling window ends",
					     fts_fmt_duration((double)((int64_t)p->cap_lo - whi) / 1e9, d, sizeof(d)));
	}
	if (n >= len)
		return buf;
	slack = cap > 1000000000 ? cap : 1000000000;
	if (p->cap_epoch && clock_disagreement(p) > slack)
		snprintf(buf + n, len - n, "%s recorded on another boot or host (the recorder's and the profiler's clocks differ by %s)",
			 *bad ? ":" : ";", fts_fmt_duration((double)clock_disagreement(p) / 1e9, d, sizeof(d)));
	else if (*bad)
		snprintf(buf + n, len - n, ": Insight would show no ftrace rows; record while the model runs%s",
			 p->cap_epoch ? "" : " (or it was recorded on another boot or host: without the recorder's clock pair this cannot be told)");
	return buf;
}

const char *fts_export_cards_text(const struct fts_export_plan *p, char *buf, size_t len)
{
	int dev = 0, host = 0;
	const char *one = NULL;

	for (int i = 0; i < p->tm.ncards; i++) {
		const char *b = fts_base_name(p->tm.cards[i].dir);

		if (!strcmp(b, "host")) {
			host = 1;
			continue;
		}
		dev++;
		one = b;
	}
	if (p->tm.cards_total > p->tm.ncards) {
		snprintf(buf, len, "%d cards (the first %d listed)", p->tm.cards_total, p->tm.ncards);
		return buf;
	}
	snprintf(buf, len, "%d device card%s%s%.200s%s%s", dev, dev == 1 ? "" : "s", dev == 1 ? " (" : "",
		 dev == 1 ? one : "", dev == 1 ? ")" : "", host ? (dev ? " and the host's window" : "; only the host's window") : "");
	return buf;
}

int fts_export_pidmap_fits(time_t cap_mtime, time_t map_mtime)
{
	return map_mtime >= cap_mtime - 600 && map_mtime <= cap_mtime + 60;
}

void fts_export_progress_text(const struct fts_progress *p, double stage_s, double since_s, double total_s,
			      uint64_t input_bytes, char *line1, char *line2, size_t len, double *frac)
{
	char a[FTS_FMT_LEN], b[FTS_FMT_LEN], c[FTS_FMT_LEN], r[FTS_FMT_LEN], e[FTS_FMT_LEN], t[FTS_FMT_LEN],
		st[FTS_FMT_LEN];
	int bytes = p->unit && !strcmp(p->unit, "bytes");
	uint64_t total = p->total ? p->total : bytes ? input_bytes : 0;
	double rate = p->elapsed_s > 0 ? (double)p->done / p->elapsed_s : 0, eta;

	*frac = 0;
	fts_fmt_duration(total_s, t, sizeof(t));
	fts_fmt_duration(stage_s, st, sizeof(st));
	snprintf(line2, len, "%s events read, %s items written", fts_fmt_count((double)p->events, a, sizeof(a)),
		 fts_fmt_count((double)p->items, c, sizeof(c)));
	if (p->stage == FTS_STAGE_FINISH || p->stage == FTS_STAGE_INDEX) {
		*frac = 1;
		snprintf(line1, len, "finish: commit and indexes, %s; %s so far", st, t);
		return;
	}
	if (p->stage != FTS_STAGE_READ) {
		snprintf(line1, len, "%s, %s; %s so far",
			 p->stage == FTS_STAGE_CLOCK ? "clock: looking for the recorder's clock pair" :
			 "probe: checking the input", st, t);
		return;
	}
	if (total)
		*frac = (double)p->done / (double)total;
	*frac = *frac > 1 ? 1 : *frac;
	if (bytes) {
		fts_fmt_bytes((double)p->done, a, sizeof(a));
		fts_fmt_bytes((double)total, b, sizeof(b));
		fts_fmt_bytes(rate, r, sizeof(r));
	} else {
		fts_fmt_count((double)p->done, a, sizeof(a));
		fts_fmt_count((double)total, b, sizeof(b));
		fts_fmt_count(rate, r, sizeof(r));
	}
	/* a time: the work left over the rate so far, counting down between reports */
	eta = rate > 0 && total > p->done ? (double)(total - p->done) / rate - since_s : -1;
	if (eta >= 0 || (rate > 0 && total > p->done))
		fts_fmt_duration(eta > 0 ? eta : 0, e, sizeof(e));
	else
		snprintf(e, sizeof(e), "?");
	snprintf(line1, len, "read: %s of %s, %s/s, ETA %s; %s so far", a, total ? b : "?", r, e, t);
}

void fts_export_bar(int64_t lo, int64_t hi, int64_t axis_lo, int64_t axis_hi, int width, int *x0,
		    int *x1)
{
	double span = (double)(axis_hi - axis_lo);

	*x0 = *x1 = 0;
	if (width <= 0 || span <= 0 || hi < axis_lo || lo > axis_hi)
		return;
	if (lo < axis_lo)
		lo = axis_lo;
	if (hi > axis_hi)
		hi = axis_hi;
	*x0 = (int)((double)(lo - axis_lo) / span * width);
	*x1 = (int)((double)(hi - axis_lo) / span * width + 0.999999);
	if (*x0 >= width)
		*x0 = width - 1;
	if (*x1 > width)
		*x1 = width;
	if (*x1 <= *x0)
		*x1 = *x0 + 1;
}

const char *fts_export_refusal(int db)
{
	return db ? "this DB is already an export: its times and pids were fixed when it was written, so no "
		    "profiling window or pid map applies to it; export the trace.dat or text it was made from "
		    "(ftscope convert -i copies a DB whole, wakeup links and summary tables too)" :
		    "this JSON is already an export: its times and pids were fixed when it was written, so no "
		    "profiling window or pid map applies to it; export the trace.dat or text it was made from "
		    "(ftscope convert -i turns it into a DB, wakeup links too)";
}

int fts_export_toggle_summary(struct fts_export_plan *p)
{
	if (p->json)
		return 0;
	p->with_summary = !p->with_summary;
	return 1;
}

int fts_export_with_summary(const struct fts_export_plan *p)
{
	return p->with_summary && !p->json;
}

const char *fts_export_cmdline(const struct fts_export_plan *p, char *buf, size_t len)
{
	char q[8200];
	size_t off;

	off = (size_t)snprintf(buf, len, "ftscope convert -i %s", fts_shell_quote(p->input, q, sizeof(q)));
	if (off < len)
		off += (size_t)snprintf(buf + off, len - off, " -o %s", fts_shell_quote(p->output, q, sizeof(q)));
	if (p->json && off < len)
		off += (size_t)snprintf(buf + off, len - off, " --format json");
	if (fts_export_with_summary(p) && off < len)
		off += (size_t)snprintf(buf + off, len - off, " --with_summary");
	if (p->profiling[0] && off < len)
		off += (size_t)snprintf(buf + off, len - off, " --profiling_data %s",
					fts_shell_quote(p->profiling, q, sizeof(q)));
	if (p->pid_mapping[0] && off < len)
		snprintf(buf + off, len - off, " --pid_mapping %s", fts_shell_quote(p->pid_mapping, q, sizeof(q)));
	return buf;
}
