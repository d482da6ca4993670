// SPDX-License-Identifier: MIT
/*
 * export_plan.c - checks shown before an export, so a user learns that
 * Insight will refuse a file, or that the capture misses the profiling run,
 * before copying gigabytes to a workstation.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tui/session/export_plan.h"
#include "front/insight.h"
#include "tui/session/setup_model.h"

static int ends_with(const char *s, const char *sfx)
{
	size_t n = strlen(s), k = strlen(sfx);

	return n >= k && !strcmp(s + n - k, sfx);
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
			 "Insight only recognises DBs named ftrace_data*.db: this one will not import as ftrace");
	}
	if (!p->output_note[0] && p->output[0] && !fts_insight_path_ok(p->output, abs, sizeof(abs)))
		snprintf(p->output_note, sizeof(p->output_note),
			 "Insight's import refuses paths holding control characters or %s: %.300s",
			 FTS_INSIGHT_BAD_CHARS, abs);
	p->prof_ok = 0;
	p->prof_note[0] = 0;
	memset(&p->tm, 0, sizeof(p->tm));
	if (!p->profiling[0])
		return;
	if (fts_timemap_from_profiling(p->profiling, &p->tm, &err)) {
		snprintf(p->prof_note, sizeof(p->prof_note), "%s", err.msg[0] ? err.msg : "no profiling cards found");
		return;
	}
	p->prof_ok = p->tm.ncards > 0;
	if (!p->prof_ok)
		snprintf(p->prof_note, sizeof(p->prof_note), "no start_info/end_info pair below this directory");
}

int fts_export_epoch(uint64_t t)
{
	return t > 978307200ull * 1000000000ull; /* 2001-01-01 */
}

void fts_export_card_range(const struct fts_export_plan *p, int i, int64_t *lo, int64_t *hi)
{
	const struct fts_card *c = &p->tm.cards[i];
	int64_t off = fts_export_epoch(p->cap_lo) ? c->offset : 0;

	*lo = c->start_mono + off;
	*hi = c->end_mono + off;
}

double fts_export_overlap(const struct fts_export_plan *p)
{
	int64_t wlo = INT64_MAX, whi = INT64_MIN, lo, hi;

	if (!p->prof_ok || p->cap_hi <= p->cap_lo)
		return -1;
	for (int i = 0; i < p->tm.ncards; i++) {
		fts_export_card_range(p, i, &lo, &hi);
		if (lo < wlo)
			wlo = lo;
		if (hi > whi)
			whi = hi;
	}
	lo = (int64_t)p->cap_lo > wlo ? (int64_t)p->cap_lo : wlo;
	hi = (int64_t)p->cap_hi < whi ? (int64_t)p->cap_hi : whi;
	if (hi <= lo)
		return 0;
	return (double)(hi - lo) / (double)(p->cap_hi - p->cap_lo);
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
