// SPDX-License-Identifier: MIT
/*
 * cmd_stats.c - `ftscope stats`: per-task and per-CPU triage numbers for a
 * trace or an ftrace DB, as a table, CSV or JSON. The numbers come from the
 * library's statistics sink (stats.h); this file parses flags and prints.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <fnmatch.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "app/fmt.h"
#include "app/inputs.h"
#include "app/msg.h"
#include "app/process.h"
#include "app/term_safe.h"
#include "cli/hostbound_cards.h"
#include "cli/stats_xlsx.h"
#include <ftscope/pipeline.h>
#include <ftscope/stats.h>
#include "core/internal.h"

enum { O_PROFILING, O_PIDMAP, O_TOP, O_TASK, O_CPU, O_SORT, O_FORMAT, O_WINDOW, O_HELP,
       O_MANIFEST, O_OUTPUT };

static const struct fts_opt_spec spec[] = {
	{ "profiling_data", 'p', 1, O_PROFILING },
	{ "pid_mapping", 'm', 1, O_PIDMAP },
	{ "top", 'n', 1, O_TOP },
	{ "task", 't', 1, O_TASK },
	{ "cpu", 'c', 1, O_CPU },
	{ "sort", 's', 1, O_SORT },
	{ "format", 'f', 1, O_FORMAT },
	{ "window", 'w', 1, O_WINDOW },
	{ "help", 'h', 0, O_HELP },
	{ "manifest", 0, 1, O_MANIFEST },
	{ "output", 'o', 1, O_OUTPUT },
	{ NULL, 0, 0, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: ftscope stats FILE [--profiling_data DIR] [--pid_mapping FILE] [--top N]\n"
"                     [--task NAME|PID[,...]]... [--cpu LIST] [--sort COLUMN]\n"
"                     [--format table|csv|json] [--window A..B]\n"
"       ftscope stats FILE --format xlsx -o REPORT.xlsx [options]   (Excel report)\n"
"       ftscope stats FILE FILE... [--manifest FILE] [options]   (many hosts)\n"
"       ftscope stats --manifest FILE [options]\n"
"\n"
"Per-task and per-CPU scheduling numbers of a capture (trace.dat, text, or an\n"
"ftrace DB: ftscope's or the reference converter's): which tasks waited, how\n"
"long, why, and who took their CPU.\n"
"\n"
"  -p, --profiling_data DIR   align with Ascend profiling and count only its window;\n"
"                             xlsx: also its cards' Host Bound sheets per step and gap\n"
"  -m, --pid_mapping FILE     show container pids (pid_mapping.json)\n"
"  -n, --top N                the N first tasks after sorting (default 20; 0: all)\n"
"  -t, --task NAME|PID[,...]  only tasks with one of these comms (exact, or a\n"
"                             shell pattern: 'python*') or pids; repeat the flag\n"
"                             or give a comma-separated list\n"
"  -c, --cpu LIST             only what happened on these CPUs (0-3,8)\n"
"  -s, --sort COLUMN          task column to sort by, largest first (default\n"
"                             running_ns; names as in the CSV header)\n"
"  -f, --format table|csv|json|xlsx  (default table); xlsx: the Excel report\n"
"                             (sheets and charts, every task unless --top) in -o\n"
"  -o, --output FILE          where --format xlsx writes (only with xlsx)\n"
"  -w, --window A..B          only [A, B), times from the start of the data with a\n"
"                             unit (ns, us, ms, s): 1.5s..2s, 200ms.., ..3s;\n"
"                             reads the input twice\n"
"      --manifest FILE        many hosts: name each input by its host from this\n"
"                             manifest (scripts/multihost.sh writes it beside the\n"
"                             ftrace_data<N>.db); without FILEs, every DB it lists\n"
"  -h, --help                 this text\n"
"\n"
"Several inputs (one per host): a row per host, most Runnable time first\n"
"(the task that waited most, the worst wakeup, involuntary switches, lost\n"
"events), then the tasks of every host in one list with a host column,\n"
"sorted by runnable_ns unless --sort says otherwise. --profiling_data and\n"
"--pid_mapping are per host: convert each capture first (docs/multihost.md).\n"
"\n"
"Columns (CSV/JSON names; the table shows ms and us):\n"
"  running/runnable/sleeping/blocked_ns  time Running, waiting for a CPU, asleep (S),\n"
"                             asleep uninterruptibly (D)\n"
"  unknown_ns                 no data: after events were lost, nothing is known;\n"
"                             this time is in no other column (a warning names\n"
"                             the CPUs and time ranges)\n"
"  switches, involuntary      context switches out; involuntary = preempted while\n"
"                             runnable (prev_state R/R+)\n"
"  migrations                 runs on another CPU than the previous run\n"
"  irq_*, softirq_*, top_irq  interrupts that hit the task, and the one taking most\n"
"  wakeups, wakeup_p50/p99/max_ns  waking -> running latency\n"
"  top_preempter(_ns)         the task that preempted it for the most wait time\n"
"\nExit status: 0 printed, 1 failed (one line on stderr, nothing on stdout), 2 bad arguments.\n");
}

/* ---- window ---- */

/* "1.5s", "200ms", "30us", "100ns" -> ns; -1 when it does not parse. */
static int parse_time(const char *s, size_t n, uint64_t *out)
{
	static const struct { const char *u; double mul; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	char buf[64], *end;
	double v;

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (buf[0] < '0' || buf[0] > '9')
		return -1;
	v = strtod(buf, &end);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].u)) {
			v *= units[i].mul;
			if (v < 0 || v > 1.8e19)
				return -1;
			*out = (uint64_t)(v + 0.5);
			return 0;
		}
	}
	return -1;
}

struct window {
	int set;
	int has_a, has_b;
	uint64_t a, b;   /* relative to the start of the data */
};

static int parse_window(const char *s, struct window *w)
{
	const char *dots = strstr(s, "..");

	if (!dots)
		return -1;
	w->set = 1;
	w->has_a = dots > s;
	w->has_b = dots[2] != '\0';
	if (w->has_a && parse_time(s, (size_t)(dots - s), &w->a))
		return -1;
	if (w->has_b && parse_time(dots + 2, strlen(dots + 2), &w->b))
		return -1;
	if (!w->has_a && !w->has_b)
		return -1;
	if (w->has_a && w->has_b && w->b <= w->a)
		return -1;
	return 0;
}

/* ---- escaping for every output (stdout may be a terminal) ---- */

/* @s with control and invalid bytes escaped (term_safe), malloc'd; NULL: no memory. */
static char *escaped(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fts_fputs_safe(f, s);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Display width: code points of the escaped (valid UTF-8) text. */
static size_t width_of(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xC0) != 0x80;
	return w;
}

/* ---- rows ---- */

struct out_row {
	const struct fts_task_stats *t;
};

/* One --task entry: a pid, or a comm (exact, or a shell pattern). */
static int task_matches_one(const struct fts_task_stats *t, const char *want, size_t n)
{
	char w[256];
	long long pid;

	if (n == 0 || n >= sizeof(w))
		return 0;
	memcpy(w, want, n);
	w[n] = '\0';
	if (!fts_parse_int(w, &pid))
		return pid == t->pid;
	return !strcmp(t->comm, w) || fnmatch(w, t->comm, 0) == 0;
}

/* @want: NULL (every task) or a list "a,b,c" joined from every --task. */
static int task_matches(const struct fts_task_stats *t, const char *want)
{
	if (!want)
		return 1;
	for (const char *p = want; *p;) {
		size_t n = strcspn(p, ",");

		if (task_matches_one(t, p, n))
			return 1;
		p += n + (p[n] == ',');
	}
	return 0;
}

/* ---- table ---- */

#define NCOLS_T 21
#define NCOLS_C 10

struct table {
	int ncols;
	const char *head[NCOLS_T];
	int left[NCOLS_T];        /* left-aligned (text) columns */
	size_t width[NCOLS_T];
	char ***cells;            /* [row][col], escaped, malloc'd */
	size_t nrows;
};

static char *fmt_ms(uint64_t ns)
{
	char *s;

	return asprintf(&s, "%.3f", (double)ns / 1e6) < 0 ? NULL : s;
}

static char *fmt_us(uint64_t ns)
{
	char *s;

	return asprintf(&s, "%.1f", (double)ns / 1e3) < 0 ? NULL : s;
}

static char *fmt_u(uint64_t v)
{
	char *s;

	return asprintf(&s, "%llu", (unsigned long long)v) < 0 ? NULL : s;
}

/* Append a row of @tb->ncols cells; takes @cells (freed with the table, also on error). */
static int table_add(struct table *tb, char **cells)
{
	char ***nc = realloc(tb->cells, (tb->nrows + 1) * sizeof(*nc));

	if (!nc) {
		for (int c = 0; c < tb->ncols; c++)
			free(cells[c]);
		free(cells);
		return -ENOMEM;
	}
	tb->cells = nc;
	tb->cells[tb->nrows++] = cells;
	for (int c = 0; c < tb->ncols; c++) {
		if (!cells[c])
			return -ENOMEM;
		if (width_of(cells[c]) > tb->width[c])
			tb->width[c] = width_of(cells[c]);
	}
	return 0;
}

static void table_print(const struct table *tb)
{
	for (size_t r = 0; r <= tb->nrows; r++) {
		for (int c = 0; c < tb->ncols; c++) {
			const char *s = r ? tb->cells[r - 1][c] : tb->head[c];
			size_t pad = tb->width[c] - width_of(s);

			if (c)
				fputs("  ", stdout);
			if (!tb->left[c])
				printf("%*s", (int)pad, "");
			fputs(s, stdout); /* already escaped (cells) or ours (heads) */
			if (tb->left[c] && c + 1 < tb->ncols)
				printf("%*s", (int)pad, "");
		}
		fputc('\n', stdout);
	}
}

static void table_free(struct table *tb)
{
	for (size_t r = 0; r < tb->nrows; r++) {
		for (int c = 0; c < tb->ncols; c++)
			free(tb->cells[r][c]);
		free(tb->cells[r]);
	}
	free(tb->cells);
}

static void table_init(struct table *tb, int ncols, const char *const *head, const int *left)
{
	memset(tb, 0, sizeof(*tb));
	tb->ncols = ncols;
	for (int c = 0; c < ncols; c++) {
		tb->head[c] = head[c];
		tb->left[c] = left[c];
		tb->width[c] = width_of(head[c]);
	}
}

static int print_task_table(struct out_row *rows, size_t n)
{
	static const char *const head[NCOLS_T] = {
		"task", "pid", "run_ms", "wait_ms", "sleep_ms", "D_ms", "unknown_ms", "cs", "invol",
		"migr", "irq", "irq_ms", "sirq", "sirq_ms", "top_irq", "wakeups", "wake_p50_us",
		"wake_p99_us", "wake_max_us", "top_preempter", "preempt_ms",
	};
	static const int left[NCOLS_T] = { [0] = 1, [14] = 1, [19] = 1 };
	struct table tb;
	int rc = 0;

	table_init(&tb, NCOLS_T, head, left);
	for (size_t i = 0; i < n && !rc; i++) {
		const struct fts_task_stats *t = rows[i].t;
		char **c = calloc(NCOLS_T, sizeof(*c));
		char *pid;

		if (!c)
			return -ENOMEM;
		c[0] = escaped(t->tid);
		c[1] = asprintf(&pid, "%lld", (long long)t->pid) < 0 ? NULL : pid;
		c[2] = fmt_ms(t->running_ns);
		c[3] = fmt_ms(t->runnable_ns);
		c[4] = fmt_ms(t->sleeping_ns);
		c[5] = fmt_ms(t->blocked_ns);
		c[6] = fmt_ms(t->unknown_ns);
		c[7] = fmt_u(t->switches);
		c[8] = fmt_u(t->involuntary);
		c[9] = fmt_u(t->migrations);
		c[10] = fmt_u(t->irq_count);
		c[11] = fmt_ms(t->irq_ns);
		c[12] = fmt_u(t->softirq_count);
		c[13] = fmt_ms(t->softirq_ns);
		c[14] = escaped(t->top_irq[0] ? t->top_irq : "-");
		c[15] = fmt_u(t->wakeups);
		c[16] = t->wakeups ? fmt_us(t->wake_p50_ns) : strdup("-");
		c[17] = t->wakeups ? fmt_us(t->wake_p99_ns) : strdup("-");
		c[18] = t->wakeups ? fmt_us(t->wake_max_ns) : strdup("-");
		c[19] = escaped(t->top_preempter[0] ? t->top_preempter : "-");
		c[20] = t->top_preempter[0] ? fmt_ms(t->top_preempter_ns) : strdup("-");
		rc = table_add(&tb, c);
	}
	if (!rc)
		table_print(&tb);
	table_free(&tb);
	return rc;
}

/* "1719", ">=1959" (drops of unknown size: see the warning), "?" (only those). */
static char *lost_cell(const struct fts_cpu_stats *c)
{
	char *s;

	if (c->lost_exact || !c->lost_unsized)
		return fmt_u(c->lost_events);
	if (!c->lost_events)
		return strdup("?");
	return asprintf(&s, ">=%llu", (unsigned long long)c->lost_events) < 0 ? NULL : s;
}

static int print_cpu_table(const struct fts_stats *st)
{
	static const char *const head[NCOLS_C] = {
		"cpu", "util_%", "busy_ms", "irq", "irq_ms", "sirq", "sirq_ms", "switches", "lost",
		"no_data_ms",
	};
	static const int left[NCOLS_C] = { 0 };
	struct table tb;
	int rc = 0;

	table_init(&tb, NCOLS_C, head, left);
	for (size_t i = 0; i < fts_stats_ncpus(st) && !rc; i++) {
		const struct fts_cpu_stats *c = fts_stats_cpu(st, i);
		char **v = calloc(NCOLS_C, sizeof(*v));

		if (!v)
			return -ENOMEM;
		if (asprintf(&v[0], "%d", c->cpu) < 0)
			v[0] = NULL;
		if (asprintf(&v[1], "%.1f", c->util * 100) < 0)
			v[1] = NULL;
		v[2] = fmt_ms(c->busy_ns);
		v[3] = fmt_u(c->irq_count);
		v[4] = fmt_ms(c->irq_ns);
		v[5] = fmt_u(c->softirq_count);
		v[6] = fmt_ms(c->softirq_ns);
		v[7] = fmt_u(c->switches);
		v[8] = lost_cell(c);
		v[9] = fmt_ms(c->nodata_ns);
		rc = table_add(&tb, v);
	}
	if (!rc)
		table_print(&tb);
	table_free(&tb);
	return rc;
}

/* ---- CSV and JSON ---- */

/*
 * A CSV field: escaped like everything printed, quoted when it holds a
 * comma, quote or space, and defused when a spreadsheet would read it as a
 * formula (a leading = + - @).
 */
static void csv_field(const char *raw)
{
	char *s = escaped(raw);
	const char *p = s ? s : "";

	if (strpbrk(p, ",\" ") || (p[0] && strchr("=+-@", p[0]))) {
		fputc('"', stdout);
		if (p[0] && strchr("=+-@", p[0]))
			fputc('\'', stdout);
		for (; *p; p++) {
			if (*p == '"')
				fputc('"', stdout);
			fputc(*p, stdout);
		}
		fputc('"', stdout);
	} else {
		fputs(p, stdout);
	}
	free(s);
}

/*
 * A JSON string. Bytes that are not valid UTF-8 become \u00XX (the byte as
 * Latin-1), controls and C1 code points \u escapes, so the output is valid
 * JSON and safe on a terminal (the kit's escaper, as the sinks use it).
 */
static void json_str(const char *s)
{
	fts__json_fputs(stdout, s, FTS__JSON_TERM);
}

/* The task columns of @t as CSV fields, in fts_task_col order. */
static void csv_task_fields(const struct fts_task_stats *t)
{
	for (int c = 0; c < FTS_TCOL__COUNT; c++) {
		if (c)
			fputc(',', stdout);
		if (c == FTS_TCOL_TASK)
			csv_field(t->tid);
		else if (c == FTS_TCOL_TOP_IRQ)
			csv_field(t->top_irq);
		else if (c == FTS_TCOL_PREEMPTER)
			csv_field(t->top_preempter);
		else if (c == FTS_TCOL_PID)
			printf("%lld", (long long)t->pid);
		else
			printf("%llu", (unsigned long long)fts_task_col_value(t, (enum fts_task_col)c));
	}
}

static void print_csv(struct out_row *rows, size_t n)
{
	for (int c = 0; c < FTS_TCOL__COUNT; c++)
		printf("%s%s", c ? "," : "", fts_task_col_name((enum fts_task_col)c));
	fputc('\n', stdout);
	for (size_t i = 0; i < n; i++) {
		csv_task_fields(rows[i].t);
		fputc('\n', stdout);
	}
}

static void print_cpu_csv(const struct fts_stats *st)
{
	printf("\ncpu,util,busy_ns,wall_ns,irq_count,irq_ns,softirq_count,softirq_ns,switches,lost_events,lost_exact,nodata_ns\n");
	for (size_t i = 0; i < fts_stats_ncpus(st); i++) {
		const struct fts_cpu_stats *c = fts_stats_cpu(st, i);

		printf("%d,%.6f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%d,%llu\n", c->cpu, c->util,
		       (unsigned long long)c->busy_ns, (unsigned long long)c->wall_ns,
		       (unsigned long long)c->irq_count, (unsigned long long)c->irq_ns,
		       (unsigned long long)c->softirq_count, (unsigned long long)c->softirq_ns,
		       (unsigned long long)c->switches, (unsigned long long)c->lost_events,
		       c->lost_exact, (unsigned long long)c->nodata_ns);
	}
}

/* The library's one stats JSON (fts_stats_json) of @rows, on stdout. */
static int print_json(const struct fts_stats *st, struct out_row *rows, size_t n)
{
	const struct fts_task_stats **t = malloc((n ? n : 1) * sizeof(*t));
	char *json = NULL;

	for (size_t i = 0; t && i < n; i++)
		t[i] = rows[i].t;
	if (t)
		json = fts_stats_json(st, t, n);
	free(t);
	if (!json) {
		fprintf(stderr, "ftscope stats: out of memory writing JSON\n");
		return 1;
	}
	puts(json);
	free(json);
	return 0;
}

/* ---- the command ---- */

struct stats_args {
	struct fts_pipeline_opts po;
	const char *cpu_list, *sort, *format;
	char *task;                  /* every --task joined by commas; NULL: all */
	const char *manifest;        /* several inputs: the host manifest (--manifest) */
	const char *output;          /* --format xlsx: the report (-o) */
	struct fts_detail *detail;   /* --format xlsx: per CPU and irq name, fed beside the stats */
	struct fts_hb_cards hb;      /* --format xlsx -p: each card's Host Bound analysis, fed beside them */
	int top_given;
	long long top;
	struct window win;
};

static int fail(const char *what, const struct fts_err *err)
{
	fts_msg_err("stats", "%s%s", what ? what : "", err ? err->msg : "");
	return 1;
}

/* Resolve a relative window against the data's span (a first pass, no sink). */
static int resolve_window(struct stats_args *a, struct fts_stats_opts *so)
{
	struct fts_pipeline_result *res = fts_pipeline_result_new();
	struct fts_err err = { 0 };
	uint64_t lo, hi, items;
	int rc;

	if (!res)
		return fail("out of memory", NULL);
	rc = fts_pipeline_run(&a->po, NULL, 0, res, &err);
	items = fts_pipeline_result_items(res, &lo, &hi);
	fts_pipeline_result_free(res);
	if (rc)
		return fail(NULL, &err);
	if (!items)
		return fail("the input holds no scheduling data", NULL);
	so->has_window = 1;
	so->win_begin = lo + (a->win.has_a ? a->win.a : 0);
	so->win_end = a->win.has_b ? lo + a->win.b : hi + 1;
	if (so->win_begin >= so->win_end)
		return fail("the window starts after the end of the data", NULL);
	return 0;
}

/* Another --task: appended to the list (NAME,PID,...), empty entries refused. */
static int add_task(struct stats_args *a, const char *arg)
{
	size_t old = a->task ? strlen(a->task) : 0, n = strlen(arg);
	char *t;

	if (!n || arg[0] == ',' || arg[n - 1] == ',' || strstr(arg, ",,")) {
		fprintf(stderr, "ftscope stats: --task wants NAME or PID, or a list NAME,PID,...\n");
		return -1;
	}
	t = realloc(a->task, old + n + 2);
	if (!t) {
		fprintf(stderr, "ftscope stats: out of memory\n");
		return -1;
	}
	if (old)
		t[old++] = ',';
	memcpy(t + old, arg, n + 1);
	a->task = t;
	return 0;
}

static int parse_args(int argc, char **argv, struct stats_args *a)
{
	struct fts_opts op;
	int id;

	a->top = 20;
	a->format = "table";
	a->sort = "running_ns";
	fts_opts_init(&op, "stats", argc, argv);
	while ((id = fts_opts_next(&op, spec)) != -1) {
		switch (id) {
		case O_PROFILING: a->po.profiling_data = op.arg; break;
		case O_PIDMAP: a->po.pid_mapping = op.arg; break;
		case O_TASK:
			if (add_task(a, op.arg))
				return 2;
			break;
		case O_CPU: a->cpu_list = op.arg; break;
		case O_SORT: a->sort = op.arg; break;
		case O_FORMAT: a->format = op.arg; break;
		case O_TOP:
			a->top_given = 1;
			if (fts_parse_int(op.arg, &a->top) || a->top < 0) {
				fprintf(stderr, "ftscope stats: --top wants a count >= 0\n");
				return 2;
			}
			break;
		case O_WINDOW:
			if (parse_window(op.arg, &a->win)) {
				fprintf(stderr, "ftscope stats: --window wants A..B with units, A < B (e.g. 1.5s..2s, 200ms.., ..3s)\n");
				return 2;
			}
			break;
		case O_HELP: usage(stdout); return -1;
		case O_MANIFEST: a->manifest = op.arg; break;
		case O_OUTPUT: a->output = op.arg; break;
		default: return 2;
		}
	}
	return 0;
}

/* --format xlsx wants -o (and every task unless --top); -o is only for it. Non-zero: said why. */
static int xlsx_args(struct stats_args *a)
{
	int xlsx = !strcmp(a->format, "xlsx");

	if (xlsx && !fts_xlsx_available())
		return fts_xlsx_write(NULL);
	if (xlsx && !a->output) {
		fprintf(stderr, "ftscope stats: --format xlsx writes a file: give it with -o REPORT.xlsx\n");
		return 2;
	}
	if (!xlsx && a->output) {
		fprintf(stderr, "ftscope stats: -o is for --format xlsx (the other formats print)\n");
		return 2;
	}
	if (xlsx && !a->top_given)
		a->top = 0;
	return 0;
}

/* The options after the input, checked. Returns 0, -1 (help printed: exit 0), 1 or 2. */
static int get_args(int argc, char **argv, const char *input, struct stats_args *a,
		    enum fts_task_col *col)
{
	int rc = parse_args(argc, argv, a);

	if (rc)
		return rc;
	a->po.input = input;
	if (strcmp(a->format, "table") && strcmp(a->format, "csv") && strcmp(a->format, "json") &&
	    strcmp(a->format, "xlsx")) {
		fprintf(stderr, "ftscope stats: --format must be table, csv, json or xlsx\n");
		return 2;
	}
	if (xlsx_args(a))
		return !strcmp(a->format, "xlsx") && !fts_xlsx_available() ? 1 : 2;
	if (fts_task_col_parse(a->sort, col)) {
		fprintf(stderr, "ftscope stats: --sort: no column '");
		fts_fputs_safe(stderr, a->sort);
		fprintf(stderr, "' (see --help for the names)\n");
		return 2;
	}
	if (a->cpu_list) {
		/* a malformed list is a usage error (2), found before any reading */
		struct fts_stats_opts so = { .cpu_list = a->cpu_list };
		struct fts_err err = { 0 };
		struct fts_stats *probe;

		if (fts_stats_create(&so, &probe, &err)) {
			fail("--cpu: ", &err);
			return 2;
		}
		fts_stats_free(probe);
	}
	a->po.cs_rows = 0; /* markers carry no numbers */
	a->po.probe_helper = fts_front_probe_helper();
	return 0;
}

/*
 * --format xlsx -p DIR: each card's Host Bound analysis, made as `ftscope
 * hostbound` makes it (same threshold), for the workbook's hostbound sheets.
 * Returns 0, or 1 after reporting the failure (an unreadable DIR: hostbound's line).
 */
static int hostbound_cards(struct stats_args *a)
{
	if (strcmp(a->format, "xlsx") || !a->po.profiling_data)
		return 0;
	return fts_hb_cards_load(&a->hb, a->po.profiling_data, 50 * 1000, a->po.pid_mapping != NULL,
				 "stats");
}

/* The statistics' sink, then the detail's and the cards' (xlsx): one pipeline run. */
static int run_sinks(struct stats_args *a, struct fts_stats *st)
{
	struct fts_pipeline_result *res = fts_pipeline_result_new();
	struct fts_err err = { 0 };
	struct fts_sink **sinks = calloc(2 + a->hb.n, sizeof(*sinks));
	int n = 0, rc, raw;

	if (!sinks || !res) {
		free(sinks);
		fts_pipeline_result_free(res);
		return fail("out of memory", NULL);
	}
	sinks[n++] = fts_stats_sink(st);
	if (a->detail)
		sinks[n++] = fts_detail_sink(a->detail);
	for (size_t i = 0; i < a->hb.n; i++)
		sinks[n++] = a->hb.sinks[i];
	rc = fts_pipeline_run(&a->po, sinks, n, res, &err);
	raw = fts_timemap_base(fts_pipeline_result_time(res)) == FTS_TIME_RAW;
	free(sinks);
	fts_pipeline_result_free(res);
	if (rc)
		return fail(NULL, &err);
	if (a->hb.n && raw) {
		/* hostbound refuses this input (a DB, or no clock at all); the workbook goes without */
		fts_msg_warn("stats", "%s: no clock pair in the capture and no start_info/end_info in the profiling: its times cannot be put next to the profiler's; no hostbound sheets",
			     a->po.input);
		fts_hb_cards_free(&a->hb);
	}
	return 0;
}

/* The input's numbers, in *@out. Returns 0, or 1 after reporting the failure. */
static int collect(struct stats_args *a, struct fts_stats **out)
{
	struct fts_stats_opts so = { 0 };
	struct fts_err err = { 0 };
	struct fts_stats *st;
	int rc;

	so.cpu_list = a->cpu_list;
	{
		char segs[600];
		int n = fts_input_segments(a->po.input, segs, sizeof(segs));

		if (n)
			fts_msg_err("stats", "note: reading %d segments of %s as one trace, in time order: %s", n,
				    a->po.input, segs);
	}
	if (hostbound_cards(a))
		return 1;
	if (a->win.set && resolve_window(a, &so))
		return 1;
	rc = fts_stats_create(&so, &st, &err);
	if (rc)
		return fail(a->cpu_list && rc == -EINVAL ? "--cpu: " : NULL, &err);
	if (!strcmp(a->format, "xlsx") && !(a->detail = fts_detail_new(&so))) {
		fts_stats_free(st);
		return fail("out of memory", NULL);
	}
	if (run_sinks(a, st)) {
		fts_stats_free(st);
		return 1;
	}
	*out = st;
	return 0;
}

/* The tasks to show, sorted by @col, --task and --top applied; NULL when out of memory. */
static struct out_row *select_rows(struct fts_stats *st, const struct stats_args *a,
				   enum fts_task_col col, size_t *n)
{
	struct out_row *rows;

	fts_stats_sort_tasks(st, col, col != FTS_TCOL_TASK && col != FTS_TCOL_TOP_IRQ &&
				      col != FTS_TCOL_PREEMPTER);
	rows = calloc(fts_stats_ntasks(st) + 1, sizeof(*rows));
	*n = 0;
	if (!rows)
		return NULL;
	for (size_t i = 0; i < fts_stats_ntasks(st); i++) {
		const struct fts_task_stats *t = fts_stats_task(st, i);

		if (task_matches(t, a->task) && (a->top == 0 || *n < (size_t)a->top))
			rows[(*n)++].t = t;
	}
	return rows;
}

/* Print in --format. Returns 0 or -ENOMEM. */
static int print_all(const struct fts_stats *st, const char *format, struct out_row *rows,
		     size_t n)
{
	const struct fts_stats_info *in = fts_stats_info(st);
	int rc;

	if (!strcmp(format, "csv")) {
		print_csv(rows, n);
		print_cpu_csv(st);
		return 0;
	}
	if (!strcmp(format, "json"))
		return print_json(st, rows, n);
	printf("window %.6f s (%llu .. %llu ns), %zu tasks shown of %zu\n\n",
	       (double)(in->t_end - in->t_begin) / 1e9, (unsigned long long)in->t_begin,
	       (unsigned long long)in->t_end, n, fts_stats_ntasks(st));
	rc = print_task_table(rows, n);
	if (!rc) {
		fputc('\n', stdout);
		rc = print_cpu_table(st);
	}
	return rc;
}

#define HOLES_SHOWN 6

/*
 * Lost events: what was lost (the one loss model) and where nothing is
 * known, CPU by CPU with the first few time ranges, from the window's start.
 */
static void print_loss_warning(const struct fts_stats *st, FILE *f)
{
	const struct fts_loss *l = fts_stats_loss(st);
	const struct fts_stats_info *in = fts_stats_info(st);
	char text[320], dur[32];

	if (!fts_loss_any(l) && !fts_stats_nholes(st))
		return;
	fprintf(f, "\nwarning: events were lost: %s\n", fts_loss_text(l, 8, text, sizeof(text)));
	for (size_t c = 0; c < fts_stats_ncpus(st); c++) {
		const struct fts_cpu_stats *cs = fts_stats_cpu(st, c);
		size_t shown = 0, total = 0;

		if (!cs->nodata_ns)
			continue;
		fprintf(f, "  CPU %d: no data for %s:", cs->cpu,
			fts_fmt_ns(cs->nodata_ns, FTS_DUR_SPACED, 0, dur, sizeof(dur)));
		for (size_t i = 0; i < fts_stats_nholes(st); i++) {
			const struct fts_stats_hole *h = fts_stats_hole(st, i);

			if (h->cpu != cs->cpu)
				continue;
			if (shown++ < HOLES_SHOWN)
				fprintf(f, "%s %.6f..%.6f s", shown > 1 ? "," : "",
					(double)(h->begin - in->t_begin) / 1e9,
					(double)(h->end - in->t_begin) / 1e9);
			total++;
		}
		if (total > HOLES_SHOWN)
			fprintf(f, " (and %zu more)", total - HOLES_SHOWN);
		fputc('\n', f);
	}
	fputs("  those spans count in no state: a task's is in unknown_ms (unknown_ns), not\n"
	      "  running, runnable or sleeping; util_% leaves them out. Record with a larger\n"
	      "  --bf_size, or fewer CPUs or events.\n", f);
}

/* ---- several inputs: one per host (docs/multihost.md) ---- */

struct host {
	char *name;                     /* the manifest's host, else the input's name */
	const char *input;
	char *input_buf;                /* @input, when it came from the manifest */
	const struct fts_host_entry *e; /* its manifest entry; NULL: none */
	struct fts_stats *st;
	struct fts_stats_totals tot;
};

struct host_row {
	const struct fts_task_stats *t;
	const struct host *h;
	enum fts_task_col col;
};

struct hosts_run {
	struct host *h;
	size_t n;
	struct fts_host_manifest *m;
	struct host_row *rows;
	size_t nrows, nmatch;           /* shown; matching --task before --top */
};

/* @word (after "--") names spec option @name, '-' and '_' alike, up to a '='. */
static int same_name(const char *word, const char *name)
{
	for (; *word && *word != '='; word++, name++)
		if (!*name || (*word == '-' ? '_' : *word) != *name)
			return 0;
	return !*name;
}

/* Does option word @w take the next word as its value? */
static int takes_value(const char *w)
{
	for (const struct fts_opt_spec *s = spec; s->name; s++) {
		if (w[1] != '-' && s->short_name && s->short_name == w[1])
			return s->has_arg && w[2] == '\0';
		if (w[1] == '-' && same_name(w + 2, s->name))
			return s->has_arg && !strchr(w, '=');
	}
	return 0;
}

static int is_option(const char *w, const char *long_name, char short_name)
{
	return (w[0] == '-' && w[1] == '-' && same_name(w + 2, long_name)) ||
	       (short_name && w[0] == '-' && w[1] == short_name);
}

/*
 * Several inputs, or --manifest: the many-host mode. @sort_given: --sort
 * was given (else that mode sorts by runnable time).
 */
static int hosts_mode(int argc, char **argv, int *sort_given)
{
	int inputs = 0, manifest = 0;

	*sort_given = 0;
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];

		if (w[0] != '-' || !w[1]) {
			inputs++;
			continue;
		}
		manifest |= is_option(w, "manifest", 0);
		*sort_given |= is_option(w, "sort", 's');
		i += takes_value(w);
	}
	return inputs > 1 || manifest;
}

/* @input's name when no manifest names it: its file name without the suffix. */
static char *name_of_input(const char *input)
{
	const char *b = strrchr(input, '/') ? strrchr(input, '/') + 1 : input;
	const char *dot = strrchr(b, '.');

	return strndup(b, dot && dot != b ? (size_t)(dot - b) : strlen(b));
}

static int cmp_host_name(const void *x, const void *y)
{
	const struct host *const *a = x, *const *b = y;
	int c = strcmp((*a)->name, (*b)->name);

	return c ? c : (*a > *b) - (*a < *b);
}

/*
 * Two inputs with one name (a/trace.dat, b/trace.dat) are told apart by
 * their paths. Sorted, so that equal names are neighbours: with 100k hosts,
 * comparing every pair took a minute.
 */
static int names_unique(struct hosts_run *r)
{
	struct host **v = malloc((r->n ? r->n : 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < r->n; i++)
		v[i] = &r->h[i];
	qsort(v, r->n, sizeof(*v), cmp_host_name);
	for (size_t i = 0, j; i < r->n; i = j) {
		for (j = i + 1; j < r->n && !strcmp(v[i]->name, v[j]->name); j++)
			;
		for (size_t k = i; j - i > 1 && k < j; k++) {
			free(v[k]->name);
			v[k]->name = strdup(v[k]->input);
			if (!v[k]->name) {
				free(v);
				return -ENOMEM;
			}
		}
	}
	free(v);
	return 0;
}

/* An input's file identity, for telling the same file given twice. */
struct host_file {
	dev_t dev;
	ino_t ino;
	size_t i;          /* its host */
};

static int cmp_host_file(const void *x, const void *y)
{
	const struct host_file *a = x, *b = y;

	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

/*
 * The same file given twice (by any path, or listed twice) is one host, not
 * two rows under one name: the later ones are dropped, with a note. An input
 * that cannot be looked at stays, for its load to say why.
 */
static int drop_repeats(struct hosts_run *r)
{
	struct host_file *f = malloc((r->n ? r->n : 1) * sizeof(*f));
	unsigned char *dup = calloc(r->n ? r->n : 1, 1);
	size_t nf = 0, out = 0;
	struct stat st;

	if (!f || !dup) {
		free(f);
		free(dup);
		return -ENOMEM;
	}
	for (size_t i = 0; i < r->n; i++)
		if (!stat(r->h[i].input, &st))
			f[nf++] = (struct host_file){ st.st_dev, st.st_ino, i };
	qsort(f, nf, sizeof(*f), cmp_host_file);
	for (size_t k = 1, first = 0; k < nf; k++) {
		if (f[k].dev != f[first].dev || f[k].ino != f[first].ino) {
			first = k; /* a run of one file starts with its first mention */
			continue;
		}
		dup[f[k].i] = 1;
		fts_msg_err("stats", "note: %s is %s again (the same file): counted once",
			    r->h[f[k].i].input, r->h[f[first].i].input);
	}
	for (size_t i = 0; i < r->n; i++) {
		if (dup[i]) {
			free(r->h[i].input_buf);
			continue;
		}
		r->h[out++] = r->h[i];
	}
	r->n = out;
	free(f);
	free(dup);
	return 0;
}

/* Every DB the manifest lists, beside it, as the inputs. */
static int inputs_from_manifest(struct hosts_run *r, const char *manifest)
{
	const char *slash = strrchr(manifest, '/');
	int dirlen = slash ? (int)(slash - manifest) : 1;
	const char *dir = slash ? manifest : ".";
	size_t n = fts_host_manifest_count(r->m);

	r->h = calloc(n ? n : 1, sizeof(*r->h));
	if (!r->h)
		return fail("out of memory", NULL);
	r->n = n;
	for (size_t i = 0; i < r->n; i++) {
		const struct fts_host_entry *e = fts_host_manifest_entry(r->m, i);

		if (!e->db[0]) {
			fputs("ftscope stats: ", stderr);
			fts_fputs_safe(stderr, manifest);
			fputs(": host '", stderr);
			fts_fputs_safe(stderr, e->host);
			fputs("' has no \"db\": name the inputs on the command line\n", stderr);
			return 1;
		}
		if (asprintf(&r->h[i].input_buf, "%.*s/%s", dirlen, dir, e->db) < 0)
			return fail("out of memory", NULL);
		r->h[i].input = r->h[i].input_buf;
	}
	return 0;
}

/* The hosts: the inputs given (named from the manifest when it lists them), or the manifest's. */
static int hosts_init(struct hosts_run *r, const struct stats_args *a, char **inputs, int ninputs)
{
	struct fts_err err = { 0 };

	if (a->manifest && fts_host_manifest_load(a->manifest, &r->m, &err))
		return fail(NULL, &err);
	if (ninputs == 0) {
		if (inputs_from_manifest(r, a->manifest))
			return 1;
	} else {
		r->h = calloc((size_t)ninputs, sizeof(*r->h));
		if (!r->h)
			return fail("out of memory", NULL);
		r->n = (size_t)ninputs;
		for (size_t i = 0; i < r->n; i++)
			r->h[i].input = inputs[i];
	}
	if (r->n == 0)
		return fail("the manifest lists no host", NULL);
	if (drop_repeats(r))
		return fail("out of memory", NULL);
	for (size_t i = 0; i < r->n; i++) {
		struct host *h = &r->h[i];

		h->e = fts_host_manifest_find(r->m, h->input);
		h->name = h->e ? strdup(h->e->host) : name_of_input(h->input);
		if (!h->name)
			return fail("out of memory", NULL);
	}
	return names_unique(r) ? fail("out of memory", NULL) : 0;
}

static int keep_task(const struct fts_task_stats *t, void *want)
{
	return task_matches(t, want);
}

/* Most Runnable time first; then by name, so the order is the same on every run. */
static int cmp_host(const void *x, const void *y)
{
	const struct host *a = x, *b = y;

	if (a->tot.runnable_ns != b->tot.runnable_ns)
		return a->tot.runnable_ns < b->tot.runnable_ns ? 1 : -1;
	return strcmp(a->name, b->name);
}

/* As fts_stats_sort_tasks across hosts: text columns A-Z, numbers largest first. */
static int cmp_host_row(const void *x, const void *y)
{
	const struct host_row *a = x, *b = y;
	enum fts_task_col col = a->col;
	int c;

	if (col == FTS_TCOL_TASK || col == FTS_TCOL_TOP_IRQ || col == FTS_TCOL_PREEMPTER) {
		c = strcmp(col == FTS_TCOL_TASK ? a->t->tid : col == FTS_TCOL_TOP_IRQ ?
			   a->t->top_irq : a->t->top_preempter,
			   col == FTS_TCOL_TASK ? b->t->tid : col == FTS_TCOL_TOP_IRQ ?
			   b->t->top_irq : b->t->top_preempter);
	} else {
		uint64_t va = fts_task_col_value(a->t, col), vb = fts_task_col_value(b->t, col);

		c = va < vb ? 1 : va > vb ? -1 : 0;
	}
	if (!c)
		c = strcmp(a->h->name, b->h->name);
	return c ? c : strcmp(a->t->tid, b->t->tid);
}

/* Read every input (nothing printed yet), total each, order hosts and tasks. */
static int hosts_collect(struct hosts_run *r, struct stats_args *a, enum fts_task_col col)
{
	size_t total = 0;

	for (size_t i = 0; i < r->n; i++) {
		a->po.input = r->h[i].input;
		if (collect(a, &r->h[i].st))
			return 1;
		total += fts_stats_ntasks(r->h[i].st);
	}
	for (size_t i = 0; i < r->n; i++)
		fts_stats_totals(r->h[i].st, keep_task, a->task, &r->h[i].tot);
	qsort(r->h, r->n, sizeof(*r->h), cmp_host);
	r->rows = calloc(total + 1, sizeof(*r->rows));
	if (!r->rows)
		return fail("out of memory", NULL);
	for (size_t i = 0; i < r->n; i++) {
		for (size_t k = 0; k < fts_stats_ntasks(r->h[i].st); k++) {
			const struct fts_task_stats *t = fts_stats_task(r->h[i].st, k);

			if (task_matches(t, a->task))
				r->rows[r->nmatch++] = (struct host_row){ t, &r->h[i], col };
		}
	}
	qsort(r->rows, r->nmatch, sizeof(*r->rows), cmp_host_row);
	r->nrows = a->top && r->nmatch > (size_t)a->top ? (size_t)a->top : r->nmatch;
	return 0;
}

static char *lost_total_cell(const struct fts_stats_totals *t)
{
	char *s;

	if (t->lost_exact)
		return fmt_u(t->lost_events);
	return asprintf(&s, ">=%llu", (unsigned long long)t->lost_events) < 0 ? NULL : s;
}

#define NCOLS_H 15

static char **host_cells(const struct host *h)
{
	const struct fts_stats_info *in = fts_stats_info(h->st);
	const struct fts_stats_totals *t = &h->tot;
	const char *b = strrchr(h->input, '/') ? strrchr(h->input, '/') + 1 : h->input;
	char **c = calloc(NCOLS_H, sizeof(*c));

	if (!c)
		return NULL;
	c[0] = escaped(h->name);
	c[1] = h->e && h->e->index >= 0 ? fmt_u((uint64_t)h->e->index) : strdup("-");
	c[2] = escaped(b);
	if (asprintf(&c[3], "%.3f", (double)(in->t_end - in->t_begin) / 1e9) < 0)
		c[3] = NULL;
	c[4] = fmt_u(t->tasks);
	c[5] = fmt_ms(t->running_ns);
	c[6] = fmt_ms(t->runnable_ns);
	c[7] = fmt_u(t->involuntary);
	c[8] = t->worst_p99 ? fmt_us(t->wake_p99_max_ns) : strdup("-");
	c[9] = t->worst_wakeup ? fmt_us(t->wake_max_ns) : strdup("-");
	c[10] = lost_total_cell(t);
	if (asprintf(&c[11], "%.1f", t->util * 100) < 0)
		c[11] = NULL;
	c[12] = escaped(t->most_runnable ? t->most_runnable->tid : "-");
	c[13] = t->most_runnable ? fmt_ms(t->most_runnable->runnable_ns) : strdup("-");
	c[14] = escaped(t->worst_wakeup ? t->worst_wakeup->tid : "-");
	return c;
}

static int print_hosts_table(const struct hosts_run *r)
{
	static const char *const head[NCOLS_H] = {
		"host", "n", "input", "window_s", "tasks", "run_ms", "wait_ms", "invol",
		"wake_p99_us", "wake_max_us", "lost", "util_%", "most_waiting", "its_wait_ms",
		"worst_wakeup",
	};
	static const int left[NCOLS_H] = { [0] = 1, [2] = 1, [12] = 1, [14] = 1 };
	struct table tb;
	int rc = 0;

	table_init(&tb, NCOLS_H, head, left);
	for (size_t i = 0; i < r->n && !rc; i++) {
		char **c = host_cells(&r->h[i]);

		rc = c ? table_add(&tb, c) : -ENOMEM;
	}
	if (!rc)
		table_print(&tb);
	table_free(&tb);
	return rc;
}

#define NCOLS_HT 12

static int print_host_tasks_table(const struct hosts_run *r)
{
	static const char *const head[NCOLS_HT] = {
		"host", "task", "pid", "wait_ms", "run_ms", "cs", "invol", "wakeups",
		"wake_p99_us", "wake_max_us", "top_preempter", "preempt_ms",
	};
	static const int left[NCOLS_HT] = { [0] = 1, [1] = 1, [10] = 1 };
	struct table tb;
	int rc = 0;

	table_init(&tb, NCOLS_HT, head, left);
	for (size_t i = 0; i < r->nrows && !rc; i++) {
		const struct fts_task_stats *t = r->rows[i].t;
		char **c = calloc(NCOLS_HT, sizeof(*c));

		if (!c) {
			rc = -ENOMEM;
			break;
		}
		c[0] = escaped(r->rows[i].h->name);
		c[1] = escaped(t->tid);
		if (asprintf(&c[2], "%lld", (long long)t->pid) < 0)
			c[2] = NULL;
		c[3] = fmt_ms(t->runnable_ns);
		c[4] = fmt_ms(t->running_ns);
		c[5] = fmt_u(t->switches);
		c[6] = fmt_u(t->involuntary);
		c[7] = fmt_u(t->wakeups);
		c[8] = t->wakeups ? fmt_us(t->wake_p99_ns) : strdup("-");
		c[9] = t->wakeups ? fmt_us(t->wake_max_ns) : strdup("-");
		c[10] = escaped(t->top_preempter[0] ? t->top_preempter : "-");
		c[11] = t->top_preempter[0] ? fmt_ms(t->top_preempter_ns) : strdup("-");
		rc = table_add(&tb, c);
	}
	if (!rc)
		table_print(&tb);
	table_free(&tb);
	return rc;
}

static void print_hosts_csv(const struct hosts_run *r)
{
	printf("host,index,input,window_ns,tasks,running_ns,runnable_ns,sleeping_ns,blocked_ns,"
	       "unknown_ns,switches,involuntary,migrations,wakeups,wakeup_p99_max_ns,wakeup_max_ns,"
	       "util,lost_events,lost_exact,most_runnable,most_runnable_ns,worst_wakeup,"
	       "most_preempted,ranks,clock_offset_ns\n");
	for (size_t i = 0; i < r->n; i++) {
		const struct host *h = &r->h[i];
		const struct fts_stats_totals *t = &h->tot;
		const struct fts_stats_info *in = fts_stats_info(h->st);

		csv_field(h->name);
		if (h->e && h->e->index >= 0)
			printf(",%lld,", (long long)h->e->index);
		else
			fputs(",,", stdout);
		csv_field(h->input);
		printf(",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.6f,%llu,%d,",
		       (unsigned long long)(in->t_end - in->t_begin), (unsigned long long)t->tasks,
		       (unsigned long long)t->running_ns, (unsigned long long)t->runnable_ns,
		       (unsigned long long)t->sleeping_ns, (unsigned long long)t->blocked_ns,
		       (unsigned long long)t->unknown_ns, (unsigned long long)t->switches,
		       (unsigned long long)t->involuntary, (unsigned long long)t->migrations,
		       (unsigned long long)t->wakeups, (unsigned long long)t->wake_p99_max_ns,
		       (unsigned long long)t->wake_max_ns, t->util,
		       (unsigned long long)t->lost_events, t->lost_exact);
		csv_field(t->most_runnable ? t->most_runnable->tid : "");
		printf(",%llu,", (unsigned long long)(t->most_runnable ? t->most_runnable->runnable_ns : 0));
		csv_field(t->worst_wakeup ? t->worst_wakeup->tid : "");
		fputc(',', stdout);
		csv_field(t->most_preempted ? t->most_preempted->tid : "");
		fputc(',', stdout);
		csv_field(h->e ? h->e->ranks : "");
		if (h->e && h->e->has_clock)
			printf(",%lld", (long long)h->e->clock_offset_ns);
		else
			fputc(',', stdout);
		fputc('\n', stdout);
	}
	printf("\nhost,");
	for (int c = 0; c < FTS_TCOL__COUNT; c++)
		printf("%s%s", c ? "," : "", fts_task_col_name((enum fts_task_col)c));
	fputc('\n', stdout);
	for (size_t i = 0; i < r->nrows; i++) {
		csv_field(r->rows[i].h->name);
		fputc(',', stdout);
		csv_task_fields(r->rows[i].t);
		fputc('\n', stdout);
	}
}

/* "key": {"task": "comm:pid", "<what>": n} or null. */
static void json_top(const char *key, const struct fts_task_stats *t, const char *what,
		     uint64_t v)
{
	printf(", \"%s\": ", key);
	if (!t) {
		fputs("null", stdout);
		return;
	}
	fputs("{\"task\": ", stdout);
	json_str(t->tid);
	printf(", \"%s\": %llu}", what, (unsigned long long)v);
}

static void json_host(const struct host *h)
{
	const struct fts_stats_totals *t = &h->tot;
	const struct fts_stats_info *in = fts_stats_info(h->st);

	fputs("{\"host\": ", stdout);
	json_str(h->name);
	if (h->e && h->e->index >= 0)
		printf(", \"index\": %lld", (long long)h->e->index);
	else
		fputs(", \"index\": null", stdout);
	fputs(", \"input\": ", stdout);
	json_str(h->input);
	fputs(", \"ranks\": ", stdout);
	json_str(h->e ? h->e->ranks : "");
	if (h->e && h->e->has_clock)
		printf(", \"clock_offset_ns\": %lld", (long long)h->e->clock_offset_ns);
	else
		fputs(", \"clock_offset_ns\": null", stdout);
	printf(", \"window\": {\"begin_ns\": %llu, \"end_ns\": %llu}, \"tasks\": %llu, "
	       "\"running_ns\": %llu, \"runnable_ns\": %llu, \"sleeping_ns\": %llu, "
	       "\"blocked_ns\": %llu, \"unknown_ns\": %llu, \"switches\": %llu, "
	       "\"involuntary\": %llu, \"migrations\": %llu, \"wakeups\": %llu, "
	       "\"wakeup_p99_max_ns\": %llu, \"wakeup_max_ns\": %llu, \"cpus\": %d, "
	       "\"util\": %.6f, \"lost_events\": %llu, \"lost_exact\": %s",
	       (unsigned long long)in->t_begin, (unsigned long long)in->t_end,
	       (unsigned long long)t->tasks, (unsigned long long)t->running_ns,
	       (unsigned long long)t->runnable_ns, (unsigned long long)t->sleeping_ns,
	       (unsigned long long)t->blocked_ns, (unsigned long long)t->unknown_ns,
	       (unsigned long long)t->switches, (unsigned long long)t->involuntary,
	       (unsigned long long)t->migrations, (unsigned long long)t->wakeups,
	       (unsigned long long)t->wake_p99_max_ns, (unsigned long long)t->wake_max_ns,
	       t->ncpus, t->util, (unsigned long long)t->lost_events,
	       t->lost_exact ? "true" : "false");
	json_top("most_runnable", t->most_runnable, "runnable_ns",
		 t->most_runnable ? t->most_runnable->runnable_ns : 0);
	json_top("worst_wakeup", t->worst_wakeup, "wakeup_max_ns", t->wake_max_ns);
	json_top("worst_p99", t->worst_p99, "wakeup_p99_ns", t->wake_p99_max_ns);
	json_top("most_preempted", t->most_preempted, "involuntary",
		 t->most_preempted ? t->most_preempted->involuntary : 0);
	fputc('}', stdout);
}

static void print_hosts_json(const struct hosts_run *r)
{
	fputs("{\"hosts\": [", stdout);
	for (size_t i = 0; i < r->n; i++) {
		printf("%s\n  ", i ? "," : "");
		json_host(&r->h[i]);
	}
	printf("\n ],\n \"tasks_matching\": %zu,\n \"tasks\": [", r->nmatch);
	for (size_t i = 0; i < r->nrows; i++) {
		char *task = fts_stats_task_json(r->rows[i].t);

		printf("%s\n  {\"host\": ", i ? "," : "");
		json_str(r->rows[i].h->name);
		/* the library's task object, its members after the host's */
		printf(", %s", task ? task + 1 : "\"error\": \"out of memory\"}");
		free(task);
	}
	printf("\n ]}\n");
}

static int print_hosts(const struct hosts_run *r, const char *format, enum fts_task_col col)
{
	int rc;

	if (!strcmp(format, "csv")) {
		print_hosts_csv(r);
		return 0;
	}
	if (!strcmp(format, "json")) {
		print_hosts_json(r);
		return 0;
	}
	printf("%zu hosts, most Runnable (waiting) time first\n\n", r->n);
	rc = print_hosts_table(r);
	if (rc)
		return rc;
	printf("\ntasks of all hosts by %s, %zu shown of %zu\n\n", fts_task_col_name(col), r->nrows,
	       r->nmatch);
	return print_host_tasks_table(r);
}

/* Each host's loss warning, under its name. */
static void print_hosts_loss(const struct hosts_run *r, FILE *f)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct fts_stats *st = r->h[i].st;

		if (!fts_loss_any(fts_stats_loss(st)) && !fts_stats_nholes(st))
			continue;
		fputs("\nhost ", f);
		fts_fputs_safe(f, r->h[i].name);
		fputc(':', f);
		print_loss_warning(st, f);
	}
}

static void hosts_free(struct hosts_run *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->h[i].name);
		free(r->h[i].input_buf);
		fts_stats_free(r->h[i].st);
	}
	free(r->h);
	free(r->rows);
	fts_host_manifest_free(r->m);
}

/* The options apart from the inputs, checked as in the one-input mode. Returns 0, -1 (help) or 2. */
static int hosts_args(int argc, char **argv, struct stats_args *a, enum fts_task_col *col,
		      char **opt, char **inputs, int *ninputs)
{
	int no = 1, rc;

	opt[0] = argv[0];
	*ninputs = 0;
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] != '-' || !argv[i][1]) {
			inputs[(*ninputs)++] = argv[i];
			continue;
		}
		opt[no++] = argv[i];
		if (takes_value(argv[i]) && i + 1 < argc)
			opt[no++] = argv[++i];
	}
	rc = get_args(no, opt, NULL, a, col);
	if (rc)
		return rc;
	if (!strcmp(a->format, "xlsx")) {
		fprintf(stderr, "ftscope stats: --format xlsx reports one input: give one FILE\n");
		return 2;
	}
	if (a->po.profiling_data || a->po.pid_mapping) {
		fprintf(stderr, "ftscope stats: --profiling_data and --pid_mapping belong to one host: convert each host's capture with its own, then give the DBs\n");
		return 2;
	}
	return 0;
}

/* `ftscope stats A B ...` / `--manifest M`: the many-host mode. */
static int cmd_stats_hosts(int argc, char **argv, int sort_given)
{
	struct stats_args a;
	struct hosts_run r;
	enum fts_task_col col;
	char **opt = calloc((size_t)argc + 1, sizeof(*opt));
	char **inputs = calloc((size_t)argc + 1, sizeof(*inputs));
	int ninputs, rc;

	memset(&a, 0, sizeof(a));
	memset(&r, 0, sizeof(r));
	if (!opt || !inputs) {
		rc = fail("out of memory", NULL);
		goto out;
	}
	rc = hosts_args(argc, argv, &a, &col, opt, inputs, &ninputs);
	if (rc) {
		rc = rc < 0 ? 0 : rc;
		goto out;
	}
	if (!sort_given)
		col = FTS_TCOL_RUNNABLE;
	rc = hosts_init(&r, &a, inputs, ninputs);
	if (!rc)
		rc = hosts_collect(&r, &a, col);
	if (rc)
		goto out;
	if (a.task && r.nmatch == 0) {
		fputs("ftscope stats: no host has a task named or numbered '", stderr);
		fts_fputs_safe(stderr, a.task);
		fputs("'\n", stderr);
		rc = 1;
		goto out;
	}
	if (print_hosts(&r, a.format, col)) {
		rc = fail("out of memory", NULL);
		goto out;
	}
	print_hosts_loss(&r, strcmp(a.format, "table") ? stderr : stdout);
	rc = fflush(stdout) ? 1 : 0;
out:
	hosts_free(&r);
	free(a.task);
	free(opt);
	free(inputs);
	return rc;
}

int fts_cmd_stats(int argc, char **argv)
{
	struct stats_args a;
	struct fts_stats *st = NULL;
	enum fts_task_col col;
	struct out_row *rows = NULL;
	const char *input;
	size_t n;
	int rc, sort_given;

	if (hosts_mode(argc, argv, &sort_given))
		return cmd_stats_hosts(argc, argv, sort_given);
	memset(&a, 0, sizeof(a));
	rc = fts_opts_take_input(&argc, &argv, &input, spec, usage,
				 "ftscope stats: which file? usage: ftscope stats FILE [options] (--help)");
	if (!rc)
		rc = get_args(argc, argv, input, &a, &col);
	if (rc) {
		rc = rc < 0 ? 0 : rc;
		goto out;
	}
	rc = 1;
	if (collect(&a, &st))
		goto out;
	rows = select_rows(st, &a, col, &n);
	if (!rows) {
		rc = fail("out of memory", NULL);
		goto out;
	}
	if (a.task && n == 0) {
		fputs("ftscope stats: no task named or numbered '", stderr);
		fts_fputs_safe(stderr, a.task);
		fputs("'\n", stderr);
		goto out;
	}
	if (!strcmp(a.format, "xlsx")) {
		struct fts_xlsx_report r = { input, a.output, st, keep_task, a.task, a.top, a.detail,
					     a.cpu_list != NULL, a.hb.n ? &a.hb : NULL };

		rc = fts_xlsx_write(&r);
		if (!rc)
			print_loss_warning(st, stderr);
		goto out;
	}
	rc = print_all(st, a.format, rows, n);
	if (rc) {
		rc = fail("out of memory", NULL);
		goto out;
	}
	print_loss_warning(st, strcmp(a.format, "table") ? stderr : stdout);
	rc = fflush(stdout) ? 1 : 0;
out:
	free(rows);
	fts_detail_free(a.detail);
	fts_hb_cards_free(&a.hb);
	fts_stats_free(st);
	free(a.task);
	return rc;
}
