// SPDX-License-Identifier: MIT
/*
 * hostbound_out.c - a finished Host Bound analysis as CSV or JSON. Both may
 * be printed to a terminal, so task and kernel names (attacker-controlled)
 * are escaped here too: JSON through the kit's escaper with FTS__JSON_TERM,
 * CSV with every byte outside printable ASCII as \xNN. The text table is the
 * command line's (it escapes through app/term_safe).
 */
#include "ftscope/hostbound.h"

#include <errno.h>
#include <string.h>

#include "core/internal.h"

/* A CSV field: quoted when it holds , " or a space; a leading = + - @ defused for spreadsheets. */
static void csv_field(FILE *f, const char *s)
{
	int quote = strpbrk(s, ",\" ") || (s[0] && strchr("=+-@", s[0]));

	if (quote)
		fputc('"', f);
	if (s[0] && strchr("=+-@", s[0]))
		fputc('\'', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p >= 0x7f || *p == '\\')
			fprintf(f, "\\x%02x", *p);
		else if (*p == '"')
			fputs("\"\"", f);
		else
			fputc(*p, f);
	}
	if (quote)
		fputc('"', f);
}

/* The columns after wait_cpu_ns: the cause, its culprits, the line; ends the row. */
static void csv_causes(const struct fts_hostbound *hb, FILE *f, const struct fts_hb_gap *g)
{
	fprintf(f, ",%s,%d,", fts_hostbound_cat_name(g->cause), g->cause_tid);
	csv_field(f, fts_hostbound_str(hb, g->cause_thread));
	fprintf(f, ",%s,%d,", g->cause_tid >= 0 ? fts_hostbound_role_name(g->cause_role) : "",
		g->cause_depth);
	csv_field(f, fts_hostbound_str(hb, g->cause_op));
	fprintf(f, ",%.0f,%.0f", g->queued_ns, g->outside_ns);
	for (int c = 0; c < FTS_HB__COUNT; c++)
		fprintf(f, ",%.0f", g->cause_ns[c]);
	for (int k = 0; k < FTS_HB_CULPRITS; k++) {
		fputc(',', f);
		csv_field(f, fts_hostbound_str(hb, g->culprits[k].task));
		fprintf(f, ",%d,%.0f,%d", g->culprits[k].cpu, g->culprits[k].ns, g->culprits[k].ours);
	}
	for (int k = 0; k < FTS_HB_PARTS; k++) {
		const struct fts_hb_part *q = &g->parts[k];

		fprintf(f, ",%d,", q->ns > 0 ? q->tid : -1);
		csv_field(f, fts_hostbound_str(hb, q->ns > 0 ? q->thread : FTS_HB_NONE));
		fprintf(f, ",%s,%d,%s,%.0f,", q->ns > 0 ? fts_hostbound_role_name(q->role) : "", q->depth,
			q->ns > 0 ? fts_hostbound_cat_name(q->cat) : "", q->ns);
		csv_field(f, fts_hostbound_str(hb, q->ns > 0 ? q->op : FTS_HB_NONE));
		fputc(',', f);
		csv_field(f, fts_hostbound_str(hb, q->ns > 0 ? q->culprit : FTS_HB_NONE));
		fprintf(f, ",%d,%.0f", q->ns > 0 ? q->culprit_cpu : -1, q->ns > 0 ? q->culprit_ns : 0);
	}
	fputc(',', f);
	csv_field(f, fts_hostbound_str(hb, g->line));
	fputc('\n', f);
}

static void write_csv(const struct fts_hostbound *hb, FILE *f, size_t top, const char *card,
		      int header)
{
	size_t n;
	const struct fts_hb_gap *g = fts_hostbound_gaps(hb, &n);

	if (header) {
		fputs("card,start_ns,dur_ns,dispatch_tid,dispatch_thread,verdict", f);
		for (int c = 0; c < FTS_HB__COUNT; c++)
			fprintf(f, ",%s_ns", fts_hostbound_cat_name((enum fts_hb_cat)c));
		fputs(",top_preempter,top_preempter_cpu,top_preempter_ns,op,wait_cpu,wait_cpu_ns", f);
		fputs(",cause,cause_tid,cause_thread,cause_role,cause_depth,cause_op,queued_ns,outside_ns", f);
		for (int c = 0; c < FTS_HB__COUNT; c++)
			fprintf(f, ",cause_%s_ns", fts_hostbound_cat_name((enum fts_hb_cat)c));
		for (int k = 1; k <= FTS_HB_CULPRITS; k++)
			fprintf(f, ",culprit%d,culprit%d_cpu,culprit%d_ns,culprit%d_ours", k, k, k, k);
		for (int k = 1; k <= FTS_HB_PARTS; k++)
			fprintf(f, ",part%d_tid,part%d_thread,part%d_role,part%d_depth,part%d_category,part%d_ns,part%d_op"
				",part%d_culprit,part%d_culprit_cpu,part%d_culprit_ns", k, k, k, k, k, k, k, k, k, k);
		fputs(",explanation\n", f);
	}
	for (size_t i = 0; i < n && (!top || i < top); i++) {
		csv_field(f, card);
		fprintf(f, ",%llu,%llu,%d,", (unsigned long long)g[i].ts, (unsigned long long)g[i].dur,
			g[i].tid);
		csv_field(f, g[i].tid >= 0 ? fts_hostbound_str(hb, g[i].thread) : "(Python threads)");
		fprintf(f, ",%s", fts_hostbound_cat_name(g[i].verdict));
		for (int c = 0; c < FTS_HB__COUNT; c++)
			fprintf(f, ",%.0f", g[i].ns[c]);
		fputc(',', f);
		csv_field(f, fts_hostbound_str(hb, g[i].preempter));
		fprintf(f, ",%d,%.0f,", g[i].preempter_cpu, g[i].preempter_ns);
		csv_field(f, g[i].op != FTS_HB_NONE ? fts_hostbound_str(hb, g[i].op) : "");
		fprintf(f, ",%d,%.0f", g[i].wait_cpu, g[i].wait_cpu_ns);
		csv_causes(hb, f, &g[i]);
	}
}

static void json_cats(FILE *f, const double *ns)
{
	fputc('{', f);
	for (int c = 0; c < FTS_HB__COUNT; c++)
		fprintf(f, "%s\"%s\": %.0f", c ? ", " : "", fts_hostbound_cat_name((enum fts_hb_cat)c), ns[c]);
	fputc('}', f);
}

static void json_str(FILE *f, const struct fts_hostbound *hb, uint32_t id)
{
	if (id != FTS_HB_NONE)
		fts__json_fputs(f, fts_hostbound_str(hb, id), FTS__JSON_TERM);
	else
		fputs("null", f);
}

/* A gap's cause fields, after wait_cpu_ns. */
static void json_causes(const struct fts_hostbound *hb, FILE *f, const struct fts_hb_gap *g)
{
	fprintf(f, ",\n   \"cause\": \"%s\", \"cause_ns\": ", fts_hostbound_cat_name(g->cause));
	json_cats(f, g->cause_ns);
	fprintf(f, ", \"cause_tid\": %d, \"cause_thread\": ", g->cause_tid);
	json_str(f, hb, g->cause_thread);
	fputs(", \"cause_role\": ", f);
	if (g->cause_tid >= 0)
		fprintf(f, "\"%s\"", fts_hostbound_role_name(g->cause_role));
	else
		fputs("null", f);
	fprintf(f, ", \"cause_depth\": %d, \"cause_op\": ", g->cause_depth);
	json_str(f, hb, g->cause_op);
	fprintf(f, ", \"queued_ns\": %.0f, \"outside_ns\": %.0f, \"culprits\": [", g->queued_ns, g->outside_ns);
	for (int k = 0; k < FTS_HB_CULPRITS && g->culprits[k].task != FTS_HB_NONE; k++) {
		fputs(k ? ", {\"task\": " : "{\"task\": ", f);
		json_str(f, hb, g->culprits[k].task);
		fprintf(f, ", \"cpu\": %d, \"ns\": %.0f, \"ours\": %s}", g->culprits[k].cpu, g->culprits[k].ns,
			g->culprits[k].ours ? "true" : "false");
	}
	fputs("], \"parts\": [", f);
	for (int k = 0; k < FTS_HB_PARTS && g->parts[k].ns > 0; k++) {
		const struct fts_hb_part *q = &g->parts[k];

		fprintf(f, "%s{\"tid\": %d, \"thread\": ", k ? ", " : "", q->tid);
		json_str(f, hb, q->thread);
		fprintf(f, ", \"role\": \"%s\", \"depth\": %d, \"category\": \"%s\", \"ns\": %.0f, \"op\": ",
			fts_hostbound_role_name(q->role), q->depth, fts_hostbound_cat_name(q->cat), q->ns);
		json_str(f, hb, q->op);
		fputs(", \"culprit\": ", f);
		json_str(f, hb, q->culprit);
		fprintf(f, ", \"culprit_cpu\": %d, \"culprit_ns\": %.0f}", q->culprit_cpu, q->culprit_ns);
	}
	fputs("], \"explanation\": ", f);
	json_str(f, hb, g->line);
	fputc('}', f);
}

static void json_steps(const struct fts_hostbound *hb, FILE *f)
{
	size_t n;
	const struct fts_hb_step *st = fts_hostbound_steps(hb, &n);

	fputs(",\n \"steps\": [", f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",\n  {\"step\": " : "\n  {\"step\": ", f);
		if (st[i].number != FTS_HB_NONE)
			fprintf(f, "%u", st[i].number);
		else
			fputs("null", f);
		fprintf(f, ", \"start_ns\": %llu, \"dur_ns\": %llu, \"idle_ns\": %.0f, \"gaps\": %u, \"cause\": \"%s\", \"cause_ns\": ",
			(unsigned long long)st[i].ts, (unsigned long long)st[i].dur, st[i].idle_ns, st[i].gaps,
			fts_hostbound_cat_name(st[i].cause));
		json_cats(f, st[i].cause_ns);
		fputs(", \"culprit\": ", f);
		json_str(f, hb, st[i].culprit);
		fprintf(f, ", \"culprit_cpu\": %d, \"culprit_ns\": %.0f, \"slowest\": %s}", st[i].culprit_cpu,
			st[i].culprit_ns, st[i].slowest ? "true" : "false");
	}
	fputc(']', f);
}

static const char *const advice_kinds[] = {
	[FTS_HB_ADV_CPUS] = "cpus", [FTS_HB_ADV_TASK] = "task", [FTS_HB_ADV_IRQ] = "irq",
	[FTS_HB_ADV_CROWD] = "crowd",
};

static void json_advice(const struct fts_hostbound *hb, FILE *f)
{
	size_t n;
	const struct fts_hb_advice *a = fts_hostbound_advice(hb, &n);

	fputs(",\n \"advice\": [", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s\n  {\"kind\": \"%s\", \"cause\": \"%s\", \"cause_ns\": %.0f, \"text\": ", i ? "," : "",
			advice_kinds[a[i].kind], fts_hostbound_cat_name(a[i].cause), a[i].ns);
		json_str(f, hb, a[i].text);
		fputs(", \"command\": ", f);
		json_str(f, hb, a[i].command);
		fputc('}', f);
	}
	fputc(']', f);
}

/* The profiler's host threads, their roles and names as last traced. */
static void json_threads(const struct fts_hostbound *hb, FILE *f)
{
	size_t n;
	const struct fts_hb_thread *t = fts_hostbound_threads(hb, &n);

	fputs(",\n \"threads\": [", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s\n  {\"tid\": %d, \"role\": \"%s\", \"name\": ", i ? "," : "", t[i].tid,
			fts_hostbound_role_name(t[i].role));
		fts__json_fputs(f, fts_hostbound_str(hb, t[i].name), FTS__JSON_TERM);
		fputc('}', f);
	}
	fputc(']', f);
}

static void write_json(const struct fts_hostbound *hb, FILE *f, size_t top, const char *card)
{
	double tot[FTS_HB__COUNT], queued, out;
	uint64_t idle = fts_hostbound_totals(hb, tot);
	size_t n, nb;
	const struct fts_hb_gap *g = fts_hostbound_gaps(hb, &n);
	const struct fts_hb_blame *b = fts_hostbound_blame(hb, &nb);

	fputs("{\"card\": ", f);
	fts__json_fputs(f, card, FTS__JSON_TERM);
	fprintf(f, ", \"idle_ns\": %llu, \"gaps\": %zu, \"gap_source\": \"%s\",\n \"totals_ns\": ",
		(unsigned long long)idle, n, fts_hostbound_gaps_from_free(hb) ? "free" : "streams");
	json_cats(f, tot);
	(void)fts_hostbound_cause_totals(hb, tot, &queued, &out);
	fputs(",\n \"cause_totals_ns\": ", f);
	json_cats(f, tot);
	fprintf(f, ", \"queued_ns\": %.0f, \"outside_ns\": %.0f", queued, out);
	json_threads(hb, f);
	fputs(",\n \"preempters\": [", f);
	for (size_t i = 0; i < nb; i++) {
		fprintf(f, "%s\n  {\"task\": ", i ? "," : "");
		fts__json_fputs(f, fts_hostbound_str(hb, b[i].task), FTS__JSON_TERM);
		fprintf(f, ", \"cpu\": %d, \"ns\": %.0f, \"gaps\": %u, \"ours\": %s}", b[i].cpu, b[i].ns,
			b[i].gaps, b[i].ours ? "true" : "false");
	}
	fputs("],\n \"worst_gaps\": [", f);
	for (size_t i = 0; i < n && (!top || i < top); i++) {
		fprintf(f, "%s\n  {\"start_ns\": %llu, \"dur_ns\": %llu, \"dispatch_tid\": %d, \"dispatch_thread\": ",
			i ? "," : "", (unsigned long long)g[i].ts, (unsigned long long)g[i].dur, g[i].tid);
		if (g[i].tid >= 0)
			fts__json_fputs(f, fts_hostbound_str(hb, g[i].thread), FTS__JSON_TERM);
		else
			fputs("null", f);
		fprintf(f, ", \"verdict\": \"%s\", \"ns\": ", fts_hostbound_cat_name(g[i].verdict));
		json_cats(f, g[i].ns);
		fputs(", \"top_preempter\": ", f);
		if (g[i].preempter != FTS_HB_NONE)
			fts__json_fputs(f, fts_hostbound_str(hb, g[i].preempter), FTS__JSON_TERM);
		else
			fputs("null", f);
		fprintf(f, ", \"top_preempter_cpu\": %d, \"top_preempter_ns\": %.0f, \"op\": ", g[i].preempter_cpu,
			g[i].preempter_ns);
		if (g[i].op != FTS_HB_NONE)
			fts__json_fputs(f, fts_hostbound_str(hb, g[i].op), FTS__JSON_TERM);
		else
			fputs("null", f);
		fprintf(f, ", \"wait_cpu\": %d, \"wait_cpu_ns\": %.0f", g[i].wait_cpu, g[i].wait_cpu_ns);
		json_causes(hb, f, &g[i]);
	}
	fputc(']', f);
	json_steps(hb, f);
	json_advice(hb, f);
	fputc('}', f);
}

int fts_hostbound_write_steps(const struct fts_hostbound *hb, FILE *f, const char *card, int header)
{
	size_t n;
	const struct fts_hb_step *st = fts_hostbound_steps(hb, &n);

	if (header) {
		fputs("card,step,start_ns,dur_ns,idle_ns,gaps,cause", f);
		for (int c = 0; c < FTS_HB__COUNT; c++)
			fprintf(f, ",cause_%s_ns", fts_hostbound_cat_name((enum fts_hb_cat)c));
		fputs(",culprit,culprit_cpu,culprit_ns,slowest\n", f);
	}
	for (size_t i = 0; i < n; i++) {
		csv_field(f, card ? card : "");
		if (st[i].number != FTS_HB_NONE)
			fprintf(f, ",%u", st[i].number);
		else
			fputs(",outside", f);
		fprintf(f, ",%llu,%llu,%.0f,%u,%s", (unsigned long long)st[i].ts, (unsigned long long)st[i].dur,
			st[i].idle_ns, st[i].gaps, fts_hostbound_cat_name(st[i].cause));
		for (int c = 0; c < FTS_HB__COUNT; c++)
			fprintf(f, ",%.0f", st[i].cause_ns[c]);
		fputc(',', f);
		csv_field(f, fts_hostbound_str(hb, st[i].culprit));
		fprintf(f, ",%d,%.0f,%d\n", st[i].culprit_cpu, st[i].culprit_ns, st[i].slowest);
	}
	return ferror(f) ? -EIO : 0;
}

int fts_hostbound_write(const struct fts_hostbound *hb, FILE *f, int json, size_t top,
			const char *card, int header)
{
	if (json)
		write_json(hb, f, top, card ? card : "");
	else
		write_csv(hb, f, top, card ? card : "", header);
	return ferror(f) ? -EIO : 0;
}
