// SPDX-License-Identifier: MIT
/*
 * stats_xlsx.c - the Excel report of `ftscope stats` (stats_xlsx.h).
 *
 * Sheets, in order (the first four are the reference trace_analyze.py's,
 * with its column names first and its units, microseconds):
 *   task_summary_by_comm  per comm (all its pids and CPUs), chart: top-10 running
 *   task_summary_by_pid   per task (comm, pid), in --sort order
 *   task_summary          per task and CPU
 *   proc_irq_detail       per task, CPU and irq / softirq name, with a
 *                         comm:pid@cpu label; charts: top-10 IRQ time and count
 *                         per comm:pid@cpu (every name summed, tables J:K, M:N)
 *   wait_latency, preempters, cpu_summary, no_data, info   (ftscope's own)
 *   hostbound_steps, hostbound_gaps  with -p, per card (hostbound_cards.h):
 *                         `ftscope hostbound`'s steps and gaps, worst first
 * Every number is the one `stats --format csv` prints, in us (ns / 1000)
 * where the name says so; sleeping_us counts S and D as the reference does
 * (its "Sleeping" slices), blocked_us is the D part of it.
 *
 * libxlsxwriter writes to a path, so the workbook is made in a private
 * directory (mkdtemp) and its bytes then go to the target the way every
 * output does (fts__outfile_put: a temp file beside it, renamed).
 */
#include "cli/stats_xlsx.h"

#include "app/msg.h"

#ifndef FTS_HAVE_XLSX

int fts_xlsx_available(void)
{
	return 0;
}

int fts_xlsx_write(const struct fts_xlsx_report *r)
{
	(void)r;
	fts_msg_err("stats", "--format xlsx: this ftscope was built without libxlsxwriter "
		    "(install libxlsxwriter-dev and rebuild)");
	return 1;
}

#else

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xlsxwriter.h>

#include "app/process.h"
#include "app/term_safe.h"
#include "core/internal.h"
#include <ftscope/output.h>

int fts_xlsx_available(void)
{
	return 1;
}

struct fmts {
	lxw_format *head, *us, *pct;
};

/* One sheet being written: the next row, and the first error met. */
struct sheet {
	lxw_worksheet *ws;
	const char *name;
	const struct fmts *f;
	lxw_row_t row;
	lxw_error err;
};

/* The tasks listed (--task, --top applied), in the statistics' order. */
struct task_list {
	const struct fts_task_stats **t;
	size_t n;
	const struct fts_task_stats **by_tid;   /* the same, sorted by tid */
};

static void keep_err(struct sheet *s, lxw_error e)
{
	if (e && !s->err)
		s->err = e;
}

/*
 * Text as every output shows it: control and invalid bytes escaped
 * (term_safe); then U+FFFE and U+FFFF, valid UTF-8 that XML 1.0 refuses
 * (the workbook would not open), as \uFFFE.
 */
static char *clean(const char *s)
{
	char *buf = NULL, *esc = NULL;
	size_t len = 0, elen = 0;
	FILE *f = open_memstream(&esc, &elen);

	if (!f)
		return NULL;
	fts_fputs_safe(f, s ? s : "");
	if (fclose(f)) {
		free(esc);
		return NULL;
	}
	f = open_memstream(&buf, &len);
	if (!f) {
		free(esc);
		return NULL;
	}
	for (const unsigned char *p = (const unsigned char *)esc; *p; p++) {
		if (p[0] == 0xEF && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF)) {
			fprintf(f, "\\uFFF%c", p[2] == 0xBE ? 'E' : 'F');
			p += 2;
		} else {
			fputc(*p, f);
		}
	}
	free(esc);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void put_str(struct sheet *s, lxw_col_t c, const char *raw)
{
	char *v = clean(raw);

	if (!v) {
		keep_err(s, LXW_ERROR_MEMORY_MALLOC_FAILED);
		return;
	}
	keep_err(s, worksheet_write_string(s->ws, s->row, c, v, NULL));
	free(v);
}

static void put_n(struct sheet *s, lxw_col_t c, uint64_t v)
{
	keep_err(s, worksheet_write_number(s->ws, s->row, c, (double)v, NULL));
}

static void put_i(struct sheet *s, lxw_col_t c, int64_t v)
{
	keep_err(s, worksheet_write_number(s->ws, s->row, c, (double)v, NULL));
}

static void put_us(struct sheet *s, lxw_col_t c, uint64_t ns)
{
	keep_err(s, worksheet_write_number(s->ws, s->row, c, (double)ns / 1e3, s->f->us));
}

/* A cpu_id cell: blank for time that named no CPU (the reference's NULL). */
static void put_cpu(struct sheet *s, lxw_col_t c, int32_t cpu)
{
	if (cpu >= 0)
		put_i(s, c, cpu);
}

static int sheet_new(lxw_workbook *wb, struct sheet *s, const char *name, const struct fmts *f,
		     const char *const *head, int nhead)
{
	memset(s, 0, sizeof(*s));
	s->ws = workbook_add_worksheet(wb, name);
	if (!s->ws)
		return -1;
	s->name = name;
	s->f = f;
	for (int c = 0; c < nhead; c++) {
		size_t w = strlen(head[c]) + 2;

		keep_err(s, worksheet_write_string(s->ws, 0, (lxw_col_t)c, head[c], f->head));
		keep_err(s, worksheet_set_column(s->ws, (lxw_col_t)c, (lxw_col_t)c,
						 (double)(w < 12 ? 12 : w), NULL));
	}
	worksheet_freeze_panes(s->ws, 1, 0);
	/* printed (or made a PDF), a sheet is as wide as the page, charts whole */
	worksheet_set_landscape(s->ws);
	worksheet_fit_to_pages(s->ws, 1, 0);
	s->row = 1;
	return 0;
}

/*
 * A column chart of @n rows from row 1: categories in column @cat, values in
 * @val; @pct: a 0..100 axis (else LibreOffice starts it near the smallest bar).
 */
static void add_chart(lxw_workbook *wb, struct sheet *s, size_t n, lxw_col_t cat, lxw_col_t val,
		      const char *title, const char *xname, const char *yname, lxw_row_t at_row,
		      lxw_col_t at_col, int pct)
{
	lxw_chart_options opt = { .x_scale = 1.5, .y_scale = 1.4 };
	lxw_chart *ch;
	lxw_chart_series *se;

	if (n == 0)
		return; /* nothing to draw: an empty range is not a chart */
	ch = workbook_add_chart(wb, LXW_CHART_COLUMN);
	se = ch ? chart_add_series(ch, NULL, NULL) : NULL;
	if (!se) {
		keep_err(s, LXW_ERROR_MEMORY_MALLOC_FAILED);
		return;
	}
	chart_series_set_categories(se, s->name, 1, cat, (lxw_row_t)n, cat);
	chart_series_set_values(se, s->name, 1, val, (lxw_row_t)n, val);
	chart_series_set_name(se, yname);
	chart_title_set_name(ch, title);
	chart_axis_set_name(ch->x_axis, xname);
	chart_axis_set_name(ch->y_axis, yname);
	chart_legend_set_position(ch, LXW_CHART_LEGEND_NONE);
	if (pct) {
		chart_axis_set_min(ch->y_axis, 0);
		chart_axis_set_max(ch->y_axis, 100);
	}
	keep_err(s, worksheet_insert_chart_opt(s->ws, at_row, at_col, ch, &opt));
}

/* ---- the tasks ---- */

static int cmp_tid(const void *a, const void *b)
{
	const struct fts_task_stats *const *x = a, *const *y = b;

	return strcmp((*x)->tid, (*y)->tid);
}

static int list_tasks(const struct fts_xlsx_report *r, struct task_list *l)
{
	size_t n = fts_stats_ntasks(r->st);

	l->n = 0;
	l->t = calloc(n + 1, sizeof(*l->t));
	l->by_tid = calloc(n + 1, sizeof(*l->by_tid));
	if (!l->t || !l->by_tid)
		return -ENOMEM;
	for (size_t i = 0; i < n && (r->top == 0 || l->n < (size_t)r->top); i++) {
		const struct fts_task_stats *t = fts_stats_task(r->st, i);

		if (t && (!r->keep || r->keep(t, r->keep_arg)))
			l->t[l->n++] = t;
	}
	memcpy(l->by_tid, l->t, l->n * sizeof(*l->t));
	qsort(l->by_tid, l->n, sizeof(*l->by_tid), cmp_tid);
	return 0;
}

static const struct fts_task_stats *find_task(const struct task_list *l, const char *tid)
{
	struct fts_task_stats key = { .tid = tid };
	const struct fts_task_stats *k = &key, **hit;

	hit = bsearch(&k, l->by_tid, l->n, sizeof(*l->by_tid), cmp_tid);
	return hit ? *hit : NULL;
}

/*
 * Does @cpu count? The detail sink sees every CPU; with --cpu only those the
 * statistics kept (its CPU rows) do, and time that named no CPU does not,
 * as in the statistics.
 */
static int cpu_kept(const struct fts_xlsx_report *r, int32_t cpu)
{
	if (!r->cpu_filtered)
		return 1;
	for (size_t i = 0; i < fts_stats_ncpus(r->st); i++)
		if (fts_stats_cpu(r->st, i)->cpu == cpu)
			return 1;
	return 0;
}

/* ---- task_summary_by_comm ---- */

struct comm_sum {
	const char *comm;
	uint64_t running, sleeping, runnable, blocked, unknown, cs, invol, tasks;
};

static int cmp_comm(const void *a, const void *b)
{
	const struct fts_task_stats *const *x = a, *const *y = b;

	return strcmp((*x)->comm, (*y)->comm);
}

static int cmp_sum(const void *a, const void *b)
{
	const struct comm_sum *x = a, *y = b;

	if (x->running != y->running)
		return x->running < y->running ? 1 : -1;
	return strcmp(x->comm, y->comm);
}

/* Tasks summed by comm, most running time first; NULL: no memory. */
static struct comm_sum *sum_by_comm(const struct task_list *l, size_t *n)
{
	const struct fts_task_stats **t = calloc(l->n + 1, sizeof(*t));
	struct comm_sum *s = calloc(l->n + 1, sizeof(*s));

	*n = 0;
	if (!t || !s) {
		free(t);
		free(s);
		return NULL;
	}
	memcpy(t, l->t, l->n * sizeof(*t));
	qsort(t, l->n, sizeof(*t), cmp_comm);
	for (size_t i = 0; i < l->n; i++) {
		struct comm_sum *c;

		if (!*n || strcmp(s[*n - 1].comm, t[i]->comm))
			s[(*n)++].comm = t[i]->comm;
		c = &s[*n - 1];
		c->running += t[i]->running_ns;
		c->sleeping += t[i]->sleeping_ns + t[i]->blocked_ns;
		c->runnable += t[i]->runnable_ns;
		c->blocked += t[i]->blocked_ns;
		c->unknown += t[i]->unknown_ns;
		c->cs += t[i]->switches;
		c->invol += t[i]->involuntary;
		c->tasks++;
	}
	free(t);
	qsort(s, *n, sizeof(*s), cmp_sum);
	return s;
}

static int sheet_by_comm(lxw_workbook *wb, const struct fmts *f, const struct task_list *l)
{
	static const char *const head[] = {
		"comm", "running_us", "sleeping_us", "runnable_us", "cs_count",
		"cs_involuntary_count", "blocked_us", "unknown_us", "tasks",
	};
	struct sheet s;
	size_t n;
	struct comm_sum *c = sum_by_comm(l, &n);

	if (!c || sheet_new(wb, &s, "task_summary_by_comm", f, head, 9)) {
		free(c);
		return -1;
	}
	for (size_t i = 0; i < n; i++, s.row++) {
		put_str(&s, 0, c[i].comm);
		put_us(&s, 1, c[i].running);
		put_us(&s, 2, c[i].sleeping);
		put_us(&s, 3, c[i].runnable);
		put_n(&s, 4, c[i].cs);
		put_n(&s, 5, c[i].invol);
		put_us(&s, 6, c[i].blocked);
		put_us(&s, 7, c[i].unknown);
		put_n(&s, 8, c[i].tasks);
	}
	free(c);
	add_chart(wb, &s, n < 10 ? n : 10, 0, 1, "Top10 Running Time", "comm", "running_us", 1, 10, 0);
	return s.err ? -1 : 0;
}

/* ---- task_summary_by_pid and task_summary ---- */

static int sheet_by_pid(lxw_workbook *wb, const struct fmts *f, const struct task_list *l)
{
	static const char *const head[] = {
		"comm", "pid", "running_us", "sleeping_us", "runnable_us", "cs_count",
		"cs_involuntary_count", "blocked_us", "unknown_us", "migrations", "task",
	};
	struct sheet s;

	if (sheet_new(wb, &s, "task_summary_by_pid", f, head, 11))
		return -1;
	for (size_t i = 0; i < l->n; i++, s.row++) {
		const struct fts_task_stats *t = l->t[i];

		put_str(&s, 0, t->comm);
		put_i(&s, 1, t->pid);
		put_us(&s, 2, t->running_ns);
		put_us(&s, 3, t->sleeping_ns + t->blocked_ns);
		put_us(&s, 4, t->runnable_ns);
		put_n(&s, 5, t->switches);
		put_n(&s, 6, t->involuntary);
		put_us(&s, 7, t->blocked_ns);
		put_us(&s, 8, t->unknown_ns);
		put_n(&s, 9, t->migrations);
		put_str(&s, 10, t->tid);
	}
	return s.err ? -1 : 0;
}

/* The first detail row of @tid (rows are by tid, then CPU), or nrows. */
static size_t first_row(const struct fts_detail *d, const char *tid)
{
	size_t lo = 0, hi = fts_detail_nrows(d);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(fts_detail_row_at(d, mid)->tid, tid) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void task_cpu_row(struct sheet *s, const struct fts_task_stats *t,
			 const struct fts_detail_row *r)
{
	put_str(s, 0, t->comm);
	put_i(s, 1, t->pid);
	put_cpu(s, 2, r->cpu);
	put_us(s, 3, r->running_ns);
	put_us(s, 4, r->sleeping_ns + r->blocked_ns);
	put_us(s, 5, r->runnable_ns);
	put_n(s, 6, r->switches);
	put_n(s, 7, r->involuntary);
	put_us(s, 8, r->blocked_ns);
	put_us(s, 9, r->unknown_ns);
	s->row++;
}

static int sheet_task_cpu(lxw_workbook *wb, const struct fmts *f, const struct task_list *l,
			  const struct fts_xlsx_report *rep)
{
	const struct fts_detail *d = rep->detail;
	static const char *const head[] = {
		"comm", "pid", "cpu_id", "running_us", "sleeping_us", "runnable_us", "cs_count",
		"cs_involuntary_count", "blocked_us", "unknown_us",
	};
	struct sheet s;

	if (sheet_new(wb, &s, "task_summary", f, head, 10))
		return -1;
	for (size_t i = 0; i < l->n; i++) {
		const struct fts_task_stats *t = l->t[i];

		for (size_t k = first_row(d, t->tid); k < fts_detail_nrows(d); k++) {
			const struct fts_detail_row *r = fts_detail_row_at(d, k);

			if (strcmp(r->tid, t->tid))
				break;
			if (cpu_kept(rep, r->cpu))
				task_cpu_row(&s, t, r);
		}
	}
	return s.err ? -1 : 0;
}

/* ---- proc_irq_detail ---- */

struct irq_row {
	const struct fts_task_stats *t;
	const struct fts_detail_irq *q;
	char *label;        /* comm:pid@cpu */
};

static int cmp_irq_time(const void *a, const void *b)
{
	const struct irq_row *x = a, *y = b;

	if (x->q->ns != y->q->ns)
		return x->q->ns < y->q->ns ? 1 : -1;
	return strcmp(x->label, y->label);
}

/* A chart bar: one comm:pid@cpu, every irq and softirq name summed. */
struct label_sum {
	const char *label;
	uint64_t ns, count;
};

static int cmp_label(const void *a, const void *b)
{
	const struct irq_row *x = a, *y = b;

	return strcmp(x->label, y->label);
}

static int cmp_sum_time(const void *a, const void *b)
{
	const struct label_sum *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return strcmp(x->label, y->label);
}

static int cmp_sum_count(const void *a, const void *b)
{
	const struct label_sum *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return cmp_sum_time(a, b);
}

/* The irq rows of the listed tasks, by time; NULL: no memory. */
static struct irq_row *irq_rows(const struct task_list *l, const struct fts_xlsx_report *r,
				size_t *n)
{
	const struct fts_detail *d = r->detail;
	struct irq_row *v = calloc(fts_detail_nirqs(d) + 1, sizeof(*v));

	*n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < fts_detail_nirqs(d); i++) {
		const struct fts_detail_irq *q = fts_detail_irq_at(d, i);
		const struct fts_task_stats *t = find_task(l, q->tid);

		if (!t || !cpu_kept(r, q->cpu))
			continue;
		v[*n] = (struct irq_row){ t, q, NULL };
		if (asprintf(&v[*n].label, "%s:%lld@%d", t->comm, (long long)t->pid, q->cpu) < 0) {
			for (size_t k = 0; k < *n; k++)
				free(v[k].label);
			free(v);
			return NULL;
		}
		(*n)++;
	}
	qsort(v, *n, sizeof(*v), cmp_irq_time);
	return v;
}

/* Two columns from @col: the top 10 of @v (already ordered), the data of one chart. */
static void top_table(struct sheet *s, lxw_col_t col, const struct label_sum *v, size_t n,
		      const char *head, int time)
{
	keep_err(s, worksheet_write_string(s->ws, 0, col, time ? "top_time_label" :
					   "top_count_label", s->f->head));
	keep_err(s, worksheet_write_string(s->ws, 0, col + 1, head, s->f->head));
	keep_err(s, worksheet_set_column(s->ws, col, col, 28, NULL));
	keep_err(s, worksheet_set_column(s->ws, col + 1, col + 1, 12, NULL));
	for (size_t i = 0; i < n && i < 10; i++) {
		s->row = (lxw_row_t)(i + 1);
		put_str(s, col, v[i].label);
		if (time)
			put_us(s, col + 1, v[i].ns);
		else
			put_n(s, col + 1, v[i].count);
	}
}

/*
 * The charts' data, right of the table: the comm:pid@cpu labels that took
 * the most irq time (J, K) and count (M, N), each label once, every name summed.
 */
static int irq_charts(lxw_workbook *wb, struct sheet *s, struct irq_row *v, size_t n)
{
	struct label_sum *l = calloc(n + 1, sizeof(*l));
	size_t k = 0;

	if (!l)
		return -1;
	qsort(v, n, sizeof(*v), cmp_label);
	for (size_t i = 0; i < n; i++) {
		if (!k || strcmp(l[k - 1].label, v[i].label))
			l[k++].label = v[i].label;
		l[k - 1].ns += v[i].q->ns;
		l[k - 1].count += v[i].q->count;
	}
	qsort(l, k, sizeof(*l), cmp_sum_time);
	top_table(s, 9, l, k, "top_time_us", 1);
	qsort(l, k, sizeof(*l), cmp_sum_count);
	top_table(s, 12, l, k, "top_count", 0);
	free(l);
	k = k < 10 ? k : 10;
	add_chart(wb, s, k, 9, 10, "Top10 IRQ Time", "comm:pid@cpu", "time_us", 12, 9, 0);
	add_chart(wb, s, k, 12, 13, "Top10 IRQ Count", "comm:pid@cpu", "count", 34, 9, 0);
	return 0;
}

static int sheet_irq(lxw_workbook *wb, const struct fmts *f, const struct task_list *l,
		     const struct fts_xlsx_report *r)
{
	static const char *const head[] = {
		"comm", "pid", "cpu_id", "irq_type", "irq_name", "count", "time_us", "label",
	};
	struct sheet s;
	size_t n;
	struct irq_row *v = irq_rows(l, r, &n);
	int rc = -1;

	if (!v || sheet_new(wb, &s, "proc_irq_detail", f, head, 8))
		goto out;
	keep_err(&s, worksheet_set_column(s.ws, 7, 7, 28, NULL));
	for (size_t i = 0; i < n; i++, s.row++) {
		put_str(&s, 0, v[i].t->comm);
		put_i(&s, 1, v[i].t->pid);
		put_cpu(&s, 2, v[i].q->cpu);
		put_str(&s, 3, v[i].q->soft ? "softirq" : "irq");
		put_str(&s, 4, v[i].q->name);
		put_n(&s, 5, v[i].q->count);
		put_us(&s, 6, v[i].q->ns);
		put_str(&s, 7, v[i].label);
	}
	rc = n && irq_charts(wb, &s, v, n) ? -1 : s.err ? -1 : 0;
out:
	for (size_t i = 0; v && i < n; i++)
		free(v[i].label);
	free(v);
	return rc;
}

/* ---- ftscope's own sheets ---- */

static int cmp_p99(const void *a, const void *b)
{
	const struct fts_task_stats *const *x = a, *const *y = b;

	if ((*x)->wake_p99_ns != (*y)->wake_p99_ns)
		return (*x)->wake_p99_ns < (*y)->wake_p99_ns ? 1 : -1;
	return strcmp((*x)->tid, (*y)->tid);
}

static int cmp_preempt(const void *a, const void *b)
{
	const struct fts_task_stats *const *x = a, *const *y = b;

	if ((*x)->top_preempter_ns != (*y)->top_preempter_ns)
		return (*x)->top_preempter_ns < (*y)->top_preempter_ns ? 1 : -1;
	return strcmp((*x)->tid, (*y)->tid);
}

/* The listed tasks that have @what, ordered by @cmp; NULL: no memory. */
static const struct fts_task_stats **tasks_with(const struct task_list *l, int preempted,
						int (*cmp)(const void *, const void *), size_t *n)
{
	const struct fts_task_stats **v = calloc(l->n + 1, sizeof(*v));

	*n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < l->n; i++)
		if (preempted ? l->t[i]->top_preempter[0] != '\0' : l->t[i]->wakeups > 0)
			v[(*n)++] = l->t[i];
	qsort(v, *n, sizeof(*v), cmp);
	return v;
}

static int sheet_latency(lxw_workbook *wb, const struct fmts *f, const struct task_list *l)
{
	static const char *const head[] = {
		"task", "comm", "pid", "wakeups", "wakeup_p50_us", "wakeup_p99_us", "wakeup_max_us",
		"runnable_us",
	};
	struct sheet s;
	size_t n;
	const struct fts_task_stats **v = tasks_with(l, 0, cmp_p99, &n);

	if (!v || sheet_new(wb, &s, "wait_latency", f, head, 8)) {
		free(v);
		return -1;
	}
	for (size_t i = 0; i < n; i++, s.row++) {
		put_str(&s, 0, v[i]->tid);
		put_str(&s, 1, v[i]->comm);
		put_i(&s, 2, v[i]->pid);
		put_n(&s, 3, v[i]->wakeups);
		put_us(&s, 4, v[i]->wake_p50_ns);
		put_us(&s, 5, v[i]->wake_p99_ns);
		put_us(&s, 6, v[i]->wake_max_ns);
		put_us(&s, 7, v[i]->runnable_ns);
	}
	free(v);
	return s.err ? -1 : 0;
}

static int sheet_preempters(lxw_workbook *wb, const struct fmts *f, const struct task_list *l)
{
	static const char *const head[] = {
		"task", "comm", "pid", "cs_involuntary_count", "runnable_us", "top_preempter",
		"top_preempter_us", "top_preempter_count",
	};
	struct sheet s;
	size_t n;
	const struct fts_task_stats **v = tasks_with(l, 1, cmp_preempt, &n);

	if (!v || sheet_new(wb, &s, "preempters", f, head, 8)) {
		free(v);
		return -1;
	}
	for (size_t i = 0; i < n; i++, s.row++) {
		put_str(&s, 0, v[i]->tid);
		put_str(&s, 1, v[i]->comm);
		put_i(&s, 2, v[i]->pid);
		put_n(&s, 3, v[i]->involuntary);
		put_us(&s, 4, v[i]->runnable_ns);
		put_str(&s, 5, v[i]->top_preempter);
		put_us(&s, 6, v[i]->top_preempter_ns);
		put_n(&s, 7, v[i]->top_preempter_count);
	}
	free(v);
	return s.err ? -1 : 0;
}

static int sheet_cpus(lxw_workbook *wb, const struct fmts *f, const struct fts_stats *st)
{
	static const char *const head[] = {
		"cpu_id", "util_pct", "busy_us", "wall_us", "irq_count", "irq_us", "softirq_count",
		"softirq_us", "cs_count", "lost_events", "lost_exact", "no_data_us",
	};
	struct sheet s;

	if (sheet_new(wb, &s, "cpu_summary", f, head, 12))
		return -1;
	for (size_t i = 0; i < fts_stats_ncpus(st); i++, s.row++) {
		const struct fts_cpu_stats *c = fts_stats_cpu(st, i);

		put_i(&s, 0, c->cpu);
		keep_err(&s, worksheet_write_number(s.ws, s.row, 1, c->util * 100, f->pct));
		put_us(&s, 2, c->busy_ns);
		put_us(&s, 3, c->wall_ns);
		put_n(&s, 4, c->irq_count);
		put_us(&s, 5, c->irq_ns);
		put_n(&s, 6, c->softirq_count);
		put_us(&s, 7, c->softirq_ns);
		put_n(&s, 8, c->switches);
		put_n(&s, 9, c->lost_events);
		keep_err(&s, worksheet_write_boolean(s.ws, s.row, 10, c->lost_exact, NULL));
		put_us(&s, 11, c->nodata_ns);
	}
	add_chart(wb, &s, fts_stats_ncpus(st), 0, 1, "CPU utilisation", "cpu_id", "util_pct",
		  (lxw_row_t)fts_stats_ncpus(st) + 2, 0, 1);
	return s.err ? -1 : 0;
}

/* The holes after lost events: nothing is known on that CPU over that span. */
static int sheet_nodata(lxw_workbook *wb, const struct fmts *f, const struct fts_stats *st)
{
	static const char *const head[] = { "cpu_id", "begin_s", "end_s", "duration_us" };
	const struct fts_stats_info *in = fts_stats_info(st);
	struct sheet s;

	if (sheet_new(wb, &s, "no_data", f, head, 4))
		return -1;
	for (size_t i = 0; i < fts_stats_nholes(st); i++, s.row++) {
		const struct fts_stats_hole *h = fts_stats_hole(st, i);

		put_i(&s, 0, h->cpu);
		keep_err(&s, worksheet_write_number(s.ws, s.row, 1,
						    (double)(h->begin - in->t_begin) / 1e9, NULL));
		keep_err(&s, worksheet_write_number(s.ws, s.row, 2,
						    (double)(h->end - in->t_begin) / 1e9, NULL));
		put_us(&s, 3, h->end - h->begin);
	}
	return s.err ? -1 : 0;
}

static void info_row(struct sheet *s, const char *key, const char *text, uint64_t num, int is_num)
{
	keep_err(s, worksheet_write_string(s->ws, s->row, 0, key, NULL));
	if (is_num)
		put_n(s, 1, num);
	else
		put_str(s, 1, text);
	s->row++;
}

static int sheet_info(lxw_workbook *wb, const struct fmts *f, const struct fts_xlsx_report *r,
		      const struct task_list *l)
{
	static const char *const head[] = { "key", "value" };
	const struct fts_stats_info *in = fts_stats_info(r->st);
	const struct fts_loss *loss = fts_stats_loss(r->st);
	char text[512];
	struct sheet s;

	if (sheet_new(wb, &s, "info", f, head, 2))
		return -1;
	keep_err(&s, worksheet_set_column(s.ws, 1, 1, 60, NULL));
	info_row(&s, "input", r->input, 0, 0);
	info_row(&s, "ftscope", FTS_VERSION, 0, 0);
	info_row(&s, "window_begin_ns", NULL, in->t_begin, 1);
	info_row(&s, "window_end_ns", NULL, in->t_end, 1);
	info_row(&s, "tasks", NULL, fts_stats_ntasks(r->st), 1);
	info_row(&s, "tasks_listed", NULL, l->n, 1);
	info_row(&s, "lost_events", fts_loss_any(loss) || fts_stats_nholes(r->st) ?
		 fts_loss_text(loss, 8, text, sizeof(text)) : "none", 0, 0);
	info_row(&s, "units", "_us: microseconds (ns / 1000); sleeping_us: asleep, S and D "
		 "(blocked_us: the D part); unknown_us: no data after lost events", 0, 0);
	return s.err ? -1 : 0;
}

/* ---- hostbound_steps and hostbound_gaps (-p: the Host Bound report's numbers) ---- */

static void put_usd(struct sheet *s, lxw_col_t c, double ns)
{
	keep_err(s, worksheet_write_number(s->ws, s->row, c, ns / 1e3, s->f->us));
}

/* Output ns as seconds from the start of the data (the info sheet's window_begin_ns). */
static void put_rel_s(struct sheet *s, lxw_col_t c, uint64_t ns, uint64_t t0)
{
	keep_err(s, worksheet_write_number(s->ws, s->row, c,
					   ns >= t0 ? (double)(ns - t0) / 1e9 : -(double)(t0 - ns) / 1e9, NULL));
}

/* "<base>_<card>" with the characters a sheet name refuses made '_', cut to Excel's 31. */
static void cut_name(const char *base, const char *card, char *name, size_t len)
{
	if (snprintf(name, len, "%s_%s", base, card) < 0)
		name[0] = '\0';
	name[len > 31 ? 31 : len - 1] = '\0';
	for (size_t k = strlen(base); name[k]; k++)
		if (strchr("[]:*?/\\'", name[k]) || (unsigned char)name[k] < 0x20 || (unsigned char)name[k] > 0x7e)
			name[k] = '_';
}

/* Do two cards' cut names clash (Excel compares sheet names ignoring case)? */
static int names_clash(const struct fts_hb_cards *cs)
{
	char x[300], y[300];

	for (size_t i = 0; i < cs->n; i++) {
		cut_name("hostbound_steps", cs->c[i].name, x, sizeof(x));
		for (size_t k = i + 1; k < cs->n; k++) {
			cut_name("hostbound_steps", cs->c[k].name, y, sizeof(y));
			if (!strcasecmp(x, y))
				return 1;
		}
	}
	return 0;
}

/*
 * "<base>" for the only card, else "<base>_<card>" cut as cut_name does, or
 * "<base>_<i>" (the card's place in `hostbound`'s list, from 0) for every
 * card when two of those clash; the sheets' card column names the card.
 */
static void hb_sheet_name(lxw_workbook *wb, const char *base, const struct fts_hb_cards *cs, size_t i,
			  char *name, size_t len)
{
	if (cs->n == 1) {
		snprintf(name, len, "%s", base);
		return;
	}
	cut_name(base, cs->c[i].name, name, len);
	if (names_clash(cs) || workbook_validate_sheet_name(wb, name) != LXW_NO_ERROR)
		snprintf(name, len, "%s_%zu", base, i);
}

static void step_row(struct sheet *s, const struct fts_hostbound *hb, const struct fts_hb_step *st,
		     uint64_t t0, const char *card)
{
	if (st->number != FTS_HB_NONE) {
		put_n(s, 0, st->number);
		put_rel_s(s, 1, st->ts, t0);
		put_us(s, 2, st->dur);
	} else {
		put_str(s, 0, "outside");
	}
	put_usd(s, 3, st->idle_ns);
	put_n(s, 4, st->gaps);
	put_str(s, 5, st->idle_ns > 0 ? fts_hostbound_cat_name(st->cause) : "");
	for (int c = 0; c < FTS_HB__COUNT; c++)
		put_usd(s, (lxw_col_t)(6 + c), st->cause_ns[c]);
	if (st->culprit != FTS_HB_NONE) {
		put_str(s, 6 + FTS_HB__COUNT, fts_hostbound_str(hb, st->culprit));
		put_cpu(s, 7 + FTS_HB__COUNT, st->culprit_cpu);
		put_usd(s, 8 + FTS_HB__COUNT, st->culprit_ns);
	}
	keep_err(s, worksheet_write_boolean(s->ws, s->row, 9 + FTS_HB__COUNT, st->slowest, NULL));
	put_str(s, 10 + FTS_HB__COUNT, card);
	s->row++;
}

/* One card's idle time per training step, as `hostbound` prints it (fts_hostbound_steps). */
static int sheet_hb_steps(lxw_workbook *wb, const struct fmts *f, const struct fts_xlsx_report *r, size_t i)
{
	static const char *const head[] = {
		"step", "start_s", "step_us", "npu_idle_us", "gaps", "cause", "running_us",
		"preempted_us", "waiting_us", "sleeping_us", "blocked_us", "irq_us", "unknown_us",
		"top_culprit", "top_culprit_cpu", "top_culprit_us", "slowest", "card",
	};
	const struct fts_hostbound *hb = r->hb->c[i].hb;
	uint64_t t0 = fts_stats_info(r->st)->t_begin;
	struct sheet s;
	size_t n;
	const struct fts_hb_step *st = fts_hostbound_steps(hb, &n);
	char name[300];

	_Static_assert(FTS_HB__COUNT == 7, "one column per cause");
	hb_sheet_name(wb, "hostbound_steps", r->hb, i, name, sizeof(name));
	if (sheet_new(wb, &s, name, f, head, 18))
		return -1;
	keep_err(&s, worksheet_set_column(s.ws, 13, 13, 28, NULL));
	for (size_t k = 0; k < n; k++)
		step_row(&s, hb, &st[k], t0, r->hb->c[i].name);
	add_chart(wb, &s, n && st[n - 1].number == FTS_HB_NONE ? n - 1 : n, 0, 3, "NPU idle per step",
		  "step", "npu_idle_us", (lxw_row_t)n + 2, 0, 0);
	return s.err ? -1 : 0;
}

/* One card's gaps, worst first: when, how long, whose launch ended it, why. */
static int sheet_hb_gaps(lxw_workbook *wb, const struct fmts *f, const struct fts_xlsx_report *r, size_t i)
{
	static const char *const head[] = {
		"start_s", "idle_us", "dispatch_thread", "cause", "cause_thread", "why", "card",
	};
	const struct fts_hostbound *hb = r->hb->c[i].hb;
	uint64_t t0 = fts_stats_info(r->st)->t_begin;
	struct sheet s;
	size_t n;
	const struct fts_hb_gap *g = fts_hostbound_gaps(hb, &n);
	char name[300];

	hb_sheet_name(wb, "hostbound_gaps", r->hb, i, name, sizeof(name));
	if (sheet_new(wb, &s, name, f, head, 7))
		return -1;
	keep_err(&s, worksheet_set_column(s.ws, 2, 2, 28, NULL));
	keep_err(&s, worksheet_set_column(s.ws, 4, 4, 28, NULL));
	keep_err(&s, worksheet_set_column(s.ws, 5, 5, 100, NULL));
	for (size_t k = 0; k < n; k++, s.row++) {
		put_rel_s(&s, 0, g[k].ts, t0);
		put_us(&s, 1, g[k].dur);
		put_str(&s, 2, g[k].tid >= 0 ? fts_hostbound_str(hb, g[k].thread) : "(the Python threads)");
		put_str(&s, 3, fts_hostbound_cat_name(g[k].cause));
		put_str(&s, 4, fts_hostbound_str(hb, g[k].cause_thread));
		put_str(&s, 5, fts_hostbound_str(hb, g[k].line));
		put_str(&s, 6, r->hb->c[i].name);
	}
	return s.err ? -1 : 0;
}

static int sheets_hostbound(lxw_workbook *wb, const struct fmts *f, const struct fts_xlsx_report *r)
{
	for (size_t i = 0; r->hb && i < r->hb->n; i++)
		if (sheet_hb_steps(wb, f, r, i) || sheet_hb_gaps(wb, f, r, i))
			return -1;
	return 0;
}

/* ---- the workbook ---- */

static int write_sheets(lxw_workbook *wb, const struct fts_xlsx_report *r,
			const struct task_list *l)
{
	struct fmts f;

	f.head = workbook_add_format(wb);
	f.us = workbook_add_format(wb);
	f.pct = workbook_add_format(wb);
	if (!f.head || !f.us || !f.pct)
		return -1;
	format_set_bold(f.head);
	format_set_num_format(f.us, "0.000");
	format_set_num_format(f.pct, "0.0");
	if (sheet_by_comm(wb, &f, l) || sheet_by_pid(wb, &f, l) ||
	    sheet_task_cpu(wb, &f, l, r) || sheet_irq(wb, &f, l, r))
		return -1;
	if (sheet_latency(wb, &f, l) || sheet_preempters(wb, &f, l) || sheet_cpus(wb, &f, r->st) ||
	    sheet_nodata(wb, &f, r->st) || sheet_info(wb, &f, r, l) || sheets_hostbound(wb, &f, r))
		return -1;
	return 0;
}

/* The whole file at @path (ours, in our private directory) into memory. */
static int slurp(const char *path, char **buf, size_t *n)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat sb;
	ssize_t got;

	*buf = NULL;
	if (fd < 0 || fstat(fd, &sb) || !S_ISREG(sb.st_mode) || !(*buf = malloc((size_t)sb.st_size + 1))) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	for (*n = 0; *n < (size_t)sb.st_size; *n += (size_t)got) {
		got = read(fd, *buf + *n, (size_t)sb.st_size - *n);
		if (got <= 0 && !(got < 0 && errno == EINTR)) {
			close(fd);
			free(*buf);
			*buf = NULL;
			return -1;
		}
		if (got < 0)
			got = 0;
	}
	close(fd);
	return 0;
}

/* Make the workbook in @dir; its bytes in *@buf. Returns 0 or -1 (message printed). */
static int make_workbook(const struct fts_xlsx_report *r, const struct task_list *l,
			 char *dir, char **buf, size_t *n)
{
	lxw_workbook_options opt = { .constant_memory = 0, .tmpdir = dir, .use_zip64 = 0 };
	char path[4200];
	lxw_workbook *wb;
	lxw_error e;
	int rc;

	snprintf(path, sizeof(path), "%s/report.xlsx", dir);
	wb = workbook_new_opt(path, &opt);
	if (!wb) {
		fts_msg_err("stats", "xlsx: cannot start the workbook in %s", dir);
		return -1;
	}
	rc = write_sheets(wb, r, l);
	e = workbook_close(wb);
	if (rc || e) {
		fts_msg_err("stats", "xlsx: cannot write the workbook: %s",
			    e ? lxw_strerror(e) : "out of memory or a value Excel refuses");
		unlink(path);
		return -1;
	}
	rc = slurp(path, buf, n);
	unlink(path);
	if (rc)
		fts_msg_err("stats", "xlsx: cannot read back %s: %s", path, strerror(errno));
	return rc;
}

int fts_xlsx_write(const struct fts_xlsx_report *r)
{
	const char *tmp = getenv("TMPDIR");
	struct task_list l = { 0 };
	struct fts_err err = { 0 };
	struct fts_owner owner;
	char dir[4096], *buf = NULL;
	size_t n = 0;
	int rc = 1;

	if ((size_t)snprintf(dir, sizeof(dir), "%s/ftscope-xlsx-XXXXXX",
			     tmp && *tmp == '/' ? tmp : "/tmp") >= sizeof(dir) || !mkdtemp(dir)) {
		fts_msg_err("stats", "xlsx: cannot make a private temp directory: %s", strerror(errno));
		return 1;
	}
	if (list_tasks(r, &l)) {
		fts_msg_err("stats", "out of memory");
		goto out;
	}
	if (make_workbook(r, &l, dir, &buf, &n))
		goto out;
	fts_front_output_owner(&owner);
	if (fts__outfile_put(r->output, buf, n, &owner, &err)) {
		fts_msg_err("stats", "%s", err.msg);
		goto out;
	}
	rc = 0;
out:
	rmdir(dir);
	free(buf);
	free(l.t);
	free(l.by_tid);
	return rc;
}

#endif
