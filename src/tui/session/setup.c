// SPDX-License-Identifier: MIT
/*
 * setup.c - choose what to record: CPUs on a grid with their current
 * utilisation and NUMA node, event groups (expandable to the single events,
 * greyed where the kernel lacks them), the buffer and the memory it takes,
 * duration, output, pid mapping and backend; what will happen; and a 1 s
 * throw-away probe that measures the chosen load before the real capture.
 *
 * The choices live in struct fts_setup (setup_model.c, unit-tested); this
 * file draws them and maps keys. The probe (rate_probe.c) runs as steps from
 * the tick: start, wait 1 s without blocking the screen, stop (cut) and delete.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/env.h"
#include "app/fmt.h"
#include "app/process.h"
#include "core/internal.h"
#include "tui/widgets/keys.h"
#include "tui/widgets/line_edit.h"
#include "tui/session/session.h"
#include "tui/session/rate_probe.h"
#include "tui/session/setup_model.h"

enum field { F_CPUS, F_SCHED, F_IRQ, F_FUTEX, F_BUFFER, F_DURATION, F_OUTPUT, F_NSPID, F_LIVETOP, F_BACKEND, F_FLIGHT,
	     F_TRIGGER, F_SNAPLAST, F__COUNT };
#define NOPTS (F__COUNT - F_BUFFER)   /* the capture options, one row each */
#define NFLIGHT_ONLY 2                /* the last rows (Trigger, Snapshot): shown in flight mode only */

struct fts_setup_state {
	struct fts_setup m;
	struct fts_record_caps caps;
	int ready;
	enum field focus;
	int cur;                      /* CPU cursor on the grid */
	int cpu_top;                  /* first grid row shown */
	int expanded;                 /* single events shown */
	int node_cycle;               /* the node n selects next */
	struct fts_line_edit ed;
	struct fts_cpustat prev;
	uint64_t avail_mem;
	double util_t;                /* when utilisation was last sampled */
	char cwd[4096];               /* sampled on the tick: draw reads no file system */
	int out_exists;
	char out_bad[600];            /* why the output cannot be written, "" when it can */
	char cpu_bad[600];            /* the preset CPU list was wrong, until c/a/Space/n fix it */
	int ev_cur;                   /* expanded: the event under the cursor in the focused group, -1 its label */
	char backend_bad[3][700];     /* per backend: why a probe with it failed here */
	int backend_ok[3];            /* per backend: a probe with it recorded here */
	struct fts_rate_probe probe;   /* p: a 1 s throw-away capture */
};

enum act { A_RECORD = 1, A_PROBE, A_TOGGLE, A_EDIT, A_ALL, A_NODE, A_LIST, A_EXPAND, A_BACK,
	   A_UP, A_DOWN, A_LEFT, A_RIGHT, A_PREV_FIELD, A_NEXT_FIELD };

static const struct fts_bind bind[] = {
	{ A_RECORD, { 'r' }, "record", "start recording" },
	{ A_PROBE, { 'p' }, "probe", "probe: a 1 s throw-away capture of this choice (Esc stops it)" },
	{ A_TOGGLE, { ' ' }, "toggle", "toggle the CPU, group, event or option; on Mode: capture <-> flight recorder; "
	  "on Output: trace.dat <-> kernel text (.txt)" },
	{ A_EDIT, { FTS_KEY_ENTER }, "edit", "edit the field (buffer, duration, flight segment and keep, output)" },
	{ A_ALL, { 'a' }, "all", "all CPUs" },
	{ A_NODE, { 'n' }, "node", "the next NUMA node's CPUs only" },
	{ A_LIST, { 'c' }, "list", "type a CPU list (0-15,32)" },
	{ A_EXPAND, { 'x' }, NULL, "expand the event groups to single events (Left/Right pick one, Space leaves it out)" },
	{ A_BACK, { 'q', FTS_KEY_ESC }, "back", "back to the home screen" },
	{ A_UP, { FTS_KEY_UP, 'k' }, NULL, "the field above (a CPU row up on the grid)" },
	{ A_DOWN, { FTS_KEY_DOWN, 'j' }, NULL, "the field below (a CPU row down on the grid)" },
	{ A_LEFT, { FTS_KEY_LEFT, 'h' }, NULL, "the CPU before on the grid; the event before, expanded" },
	{ A_RIGHT, { FTS_KEY_RIGHT, 'l' }, NULL, "the CPU after on the grid; the event after, expanded" },
	{ A_PREV_FIELD, { FTS_KEY_BTAB }, NULL, "the field above" },
	{ A_NEXT_FIELD, { FTS_KEY_TAB }, NULL, "the field below" },
};

static const struct fts_bindings keys = FTS_BINDINGS(bind);

/* Why nothing can be recorded here, or NULL when it can. */
static const char *cannot_record(const struct fts_record_caps *c)
{
	if (!c->root)
		return "recording needs root (tracefs is root-only): run ftscope as root, e.g. sudo ftscope";
	if (!c->native_ok && !c->trace_cmd)
		return c->problem[0] ? c->problem : "tracefs is not usable here";
	return NULL;
}

/* What the screen shows about the output: where it goes, whether it replaces a file. */
static void refresh_paths(const struct fts_session *s, struct fts_setup_state *st)
{
	fts_machine_cwd(s->mach, st->cwd, sizeof(st->cwd));
	st->out_exists = access(st->m.output, F_OK) == 0;
	fts_setup_check_output(st->m.output, "trace.dat", st->out_bad, sizeof(st->out_bad));
}

/* Why the chosen backend cannot record here (from the probe of the machine and the 1 s probe), or NULL. */
static const char *backend_problem(const struct fts_setup_state *st)
{
	size_t n = strlen(st->m.output);

	if (st->backend_bad[st->m.backend][0])
		return st->backend_bad[st->m.backend];
	if (st->m.backend == FTS_BACKEND_TRACE_CMD && !st->caps.trace_cmd)
		return "trace-cmd is not installed here: choose the tracefs backend";
	if (st->m.backend == FTS_BACKEND_TRACE_CMD && n > 4 && !strcmp(st->m.output + n - 4, ".txt"))
		return "trace-cmd writes trace.dat only: choose a .dat output or the tracefs backend";
	if (st->m.backend == FTS_BACKEND_TRACEFS && !st->caps.native_ok)
		return st->caps.problem[0] ? st->caps.problem : "the native backend cannot record here";
	return NULL;
}

/*
 * trace-cmd chosen but not tried here yet: some kernels refuse `trace-cmd
 * record` ("Can't enable ftrace") and only running it tells, so the screen
 * says p checks it.
 */
static int backend_unchecked(const struct fts_setup_state *st)
{
	return st->m.backend == FTS_BACKEND_TRACE_CMD && !st->backend_ok[FTS_BACKEND_TRACE_CMD] && !backend_problem(st);
}

/* The native backend records (a private instance, live counters, the live top). */
static int native(const struct fts_setup_state *st)
{
	return st->m.backend == FTS_BACKEND_TRACEFS || (st->m.backend == FTS_BACKEND_AUTO && st->caps.native_ok);
}

/*
 * The first entry: probe the machine (with all CPUs: a wrong preset list must
 * not leave the screen dead) and take the preset; a wrong CPU list is marked
 * for c or a to fix. Returns 0, or -1 when the screen cannot be set up.
 */
static int setup_first(struct fts_session *s, struct fts_setup_state *st)
{
	struct fts_record_opts po;
	struct fts_err err = { 0 };
	int rc;

	if (s->preset) {
		po = *s->preset;
		po.cpus = NULL;
	} else {
		fts_record_opts_init(&po);
		fts_front_env_record(&po);   /* where trace-cmd is looked for */
	}
	if ((rc = s->mach->probe(&po, &st->caps, &err))) {
		fts_session_say(s, 1, "%s", err.msg);
		return -1;
	}
	rc = fts_setup_init(&st->m, &st->caps, s->preset, &err);
	if (rc == -ENOMEM) {
		fts_session_say(s, 1, "%s", err.msg);
		return -1;
	}
	if (rc) {
		snprintf(st->cpu_bad, sizeof(st->cpu_bad), "%s", err.msg);
		fts_session_say(s, 1, "the CPU list %s is wrong: %s; c types another, a selects all",
				s->preset && s->preset->cpus ? s->preset->cpus : "", err.msg);
	}
	st->ev_cur = -1;
	fts_cpustat_read(s->mach->proc_stat, &st->prev);
	(void)fts_record_mem_available(s->mach->proc_meminfo, &st->avail_mem);
	st->ready = 1;
	return 0;
}

static void enter(struct fts_session *s)
{
	struct fts_setup_state *st = s->setup;

	if (!st) {
		st = s->setup = calloc(1, sizeof(*st));
		if (!st)
			return;
	}
	if (!st->ready && setup_first(s, st))
		return;
	if (s->setup_raise_kb) { /* "record again with a bigger buffer" from the saved screen */
		fts_session_say(s, 0, "buffer raised from %u to %u KB per CPU (the last capture lost events); r records again",
				st->m.bf_kb, s->setup_raise_kb);
		st->m.bf_kb = s->setup_raise_kb;
		s->setup_raise_kb = 0;
	}
	refresh_paths(s, st);
}

/*
 * The CPU grid's cell width and how many fit on a row. "[x] 12  37%": 14
 * columns; a wide machine (a CPU numbered 100 or more, or NUMA nodes to show)
 * gets 17, so a 3-digit CPU keeps its space after "[x]" and the node ("n1",
 * "n12") a space on both sides: cells never run into each other (issue 20).
 */
#define CELL_W 14
#define CELL_W_WIDE 17
static int cell_w(const struct fts_setup_state *st)
{
	return st->m.nnodes > 1 || (st->m.ncpus && st->m.cpu[st->m.ncpus - 1] >= 100) ? CELL_W_WIDE : CELL_W;
}

static int cells_per_row(const struct fts_setup_state *st, int w)
{
	int n = (w - 2) / cell_w(st);

	return n < 1 ? 1 : n;
}

static const char *group_name(enum field f)
{
	return f == F_SCHED ? "sched" : f == F_IRQ ? "irq" : "futex";
}

static int *group_flag(struct fts_setup *m, enum field f)
{
	return f == F_SCHED ? &m->sched : f == F_IRQ ? &m->irq : &m->futex;
}

static const char *missing_of(const struct fts_record_caps *c, enum field f)
{
	return f == F_SCHED ? c->missing_sched : f == F_IRQ ? c->missing_irq : c->missing_futex;
}

/* An event's name without its "group/" part. */
static const char *short_name(const struct fts_record_event_cap *e)
{
	const char *sl = strchr(e->name, '/');

	return sl ? sl + 1 : e->name;
}

/*
 * Expanded, a group's single events flow after its label and wrap at column
 * EV_WRAP_X: where event @i of group @f goes on a screen @w wide, as a row
 * offset and a column. The draw and the layout both walk this.
 */
#define EV_X 13
#define EV_WRAP_X 14
static void event_pos(const struct fts_setup_state *st, enum field f, int w, int upto, int *row, int *x)
{
	*row = 0;
	*x = EV_X;
	for (int i = 0; i <= upto && i < st->caps.nevents; i++) {
		const struct fts_record_event_cap *e = &st->caps.events[i];
		int tw = fts_text_width(short_name(e), 0) + 3; /* "[x]" before the name */

		if (strcmp(e->group, group_name(f)))
			continue;
		if (*x + tw + 1 >= w) {
			(*row)++;
			*x = EV_WRAP_X;
		}
		if (i < upto)
			*x += tw + 1;
	}
}

/* Rows the event groups take. */
static int event_rows(const struct fts_setup_state *st, int w)
{
	int n = 0;

	for (enum field f = F_SCHED; f <= F_FUTEX; f++) {
		int row = 0, x;

		if (st->expanded)
			event_pos(st, f, w, st->caps.nevents, &row, &x);
		n += 1 + row;
	}
	return n;
}

/* Rows the probe's result takes. */
static int probe_rows(const struct fts_setup_state *st)
{
	return !st->probe.r && !st->probe.err[0] && st->probe.done ? 3 : 1;
}

/* The capture option rows shown: the flight-only ones (last) in flight mode. */
static int nopts(const struct fts_setup_state *st)
{
	return st->m.flight ? NOPTS : NOPTS - NFLIGHT_ONLY;
}

/*
 * The layout, top to bottom: (the reason recording is impossible), CPUs
 * (the grid rows that fit, then a "more rows" line), events, capture
 * options, (the CPU list being typed), what will happen, the probe. The CPU
 * grid gets what the rest leaves; returns its rows on a @w x @h screen.
 */
static int cpu_rows(const struct fts_setup_state *st, int w, int h)
{
	int per = cells_per_row(st, w), rows = (st->m.ncpus + per - 1) / per;
	int top = 1 + (cannot_record(&st->caps) ? 1 : 0) + 1;
	int rest = 1 + event_rows(st, w) + 1 + nopts(st) + (st->ed.active && st->ed.field == F_CPUS) + 2 +
		   backend_unchecked(st) +
		   probe_rows(st);
	int n = (h - 4) - top + 1 - rest;

	if (n < 1)
		n = 1;
	if (n > rows)
		n = rows;
	if (rows > n && n > 1)
		n--; /* the "more rows" line */
	return n;
}

/* Keep the CPU cursor's row on screen (after a key, a size change, a probe). */
static void keep_visible(struct fts_session *s)
{
	struct fts_setup_state *st = s->setup;
	int per, n;

	if (!st || !st->ready)
		return;
	per = cells_per_row(st, s->w);
	n = cpu_rows(st, s->w, s->h);
	if (st->cur / per < st->cpu_top)
		st->cpu_top = st->cur / per;
	if (st->cur / per >= st->cpu_top + n)
		st->cpu_top = st->cur / per - n + 1;
}

static void draw_group(const struct fts_session *s, struct fts_grid *g, enum field f, int y, int maxy)
{
	const struct fts_setup_state *st = s->setup;
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	int have = 0, total = 0, out = 0, x, on = *group_flag((struct fts_setup *)&st->m, f);
	char left[40] = "";

	for (int i = 0; i < st->caps.nevents; i++) {
		if (!strcmp(st->caps.events[i].group, group_name(f))) {
			total++;
			have += st->caps.events[i].available;
			out += fts_setup_event_excluded(&st->m, st->caps.events[i].name);
		}
	}
	if (out)
		snprintf(left, sizeof(left), ", %d left out (x: choose)", out);
	x = fts_grid_printf(g, 2, y, 20, fts_theme_style(&s->theme, st->focus == f ? FTS_R_LABEL_SEL : FTS_R_NORMAL),
			    "[%c] %-6s", *group_flag((struct fts_setup *)&st->m, f) ? 'x' : ' ', group_name(f)) + 2;
	if (st->expanded) {
		for (int i = 0; i < st->caps.nevents; i++) {
			const struct fts_record_event_cap *e = &st->caps.events[i];
			int row, ex, in = !fts_setup_event_excluded(&st->m, e->name);
			enum fts_role role = st->focus == f && st->ev_cur == i ? FTS_R_LABEL_SEL :
					     e->available && on && in ? FTS_R_NORMAL : FTS_R_DIM;

			if (strcmp(e->group, group_name(f)))
				continue;
			event_pos(st, f, g->w, i, &row, &ex);
			if (y + row > maxy)
				return;
			fts_grid_printf(g, ex, y + row, g->w - ex, fts_theme_style(&s->theme, role), "[%c]%s",
					in ? 'x' : ' ', short_name(e));
			if (!e->available)
				fts_grid_style(g, ex, y + row, fts_text_width(short_name(e), 0) + 3, FTS_A_DIM, -2, -2);
		}
	} else if (!st->caps.root || !st->caps.tracing_dir[0]) {
		fts_grid_printf(g, x + 1, y, g->w - x - 1, dim, "%d event%s%s (availability unknown without root/tracefs)",
				total, total == 1 ? "" : "s", left);
	} else if (missing_of(&st->caps, f)[0]) {
		fts_grid_printf(g, x + 1, y, g->w - x - 1, dim, "%d of %d event%s%s; this kernel lacks %s", have,
				total, total == 1 ? "" : "s", left, missing_of(&st->caps, f));
	} else {
		fts_grid_printf(g, x + 1, y, g->w - x - 1, dim, "%d event%s%s", total, total == 1 ? "" : "s", left);
	}
}

static void draw_events(const struct fts_session *s, struct fts_grid *g, int *y, int maxy)
{
	const struct fts_setup_state *st = s->setup;

	for (enum field f = F_SCHED; f <= F_FUTEX && *y <= maxy; f++) {
		int row = 0, x;

		draw_group(s, g, f, *y, maxy);
		if (st->expanded)
			event_pos(st, f, g->w, st->caps.nevents, &row, &x);
		*y += 1 + row;
	}
}

/*
 * The probe's verdict for the buffer as it is now: recomputed from the
 * measured rate on every draw, so changing the buffer never leaves a stale
 * verdict; a probe of other CPUs or events says so instead.
 */
static void draw_verdict(const struct fts_session *s, struct fts_grid *g, int y)
{
	const struct fts_setup_state *st = s->setup;
	const struct fts_rate_probe *p = &st->probe;
	double lasts = fts_buffer_lasts_s(st->m.bf_kb, p->worst_bytes_s);
	unsigned adv = fts_buffer_advice_kb(p->worst_bytes_s);
	int lost_here = fts_loss_any(&p->loss) && p->bf_kb == st->m.bf_kb;
	char c[FTS_FMT_LEN];

	if (lasts < 0)
		snprintf(c, sizeof(c), "any time");
	else if (lasts < 1)
		snprintf(c, sizeof(c), "%.1f ms", lasts * 1000);
	else
		fts_fmt_duration(lasts, c, sizeof(c));
	if (lost_here && st->m.bf_kb >= adv) /* the buffer was big enough: the readers fell behind */
		fts_grid_printf(g, 1, y, g->w - 1, fts_theme_style(&s->theme, FTS_R_ERROR),
				"Likely to lose events although the buffer holds %s: the readers fell behind; "
				"record fewer CPUs or events", c);
	else if (lost_here || st->m.bf_kb < adv)
		fts_grid_printf(g, 1, y, g->w - 1, fts_theme_style(&s->theme, FTS_R_ERROR),
				"Likely to lose events: the buffer holds %s; advised: >= %u KB per CPU", c, adv);
	else
		fts_grid_printf(g, 1, y, g->w - 1, fts_theme_style(&s->theme, FTS_R_DIM),
				"No loss expected: the buffer holds %s of it; advised: >= %u KB per CPU", c, adv);
}

/* What the probe lost (the loss model's words, with the buffer it had), then its rate per CPU. */
static void draw_probe_cpus(const struct fts_session *s, struct fts_grid *g, int y)
{
	const struct fts_rate_probe *p = &s->setup->probe;
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	struct fts_style red = fts_theme_style(&s->theme, FTS_R_ERROR);
	char a[FTS_FMT_LEN], lt[300];
	int x = 1;

	if (fts_loss_any(&p->loss))
		x += fts_grid_printf(g, x, y, g->w - x, red, "the probe lost %s with %u KB; ",
				     fts_loss_text(&p->loss, 2, lt, sizeof(lt)), p->bf_kb);
	x += fts_grid_text(g, x, y, g->w - x, "per CPU: ", dim);
	for (int i = 0; i < p->n && x < g->w - 2; i++)
		x += fts_grid_printf(g, x, y, g->w - x, p->pc[i].lost ? red : dim, "%d:%s ", p->pc[i].cpu,
				     fts_fmt_rate(p->pc[i].ev_s, a, sizeof(a)));
}

static void draw_probe(const struct fts_session *s, struct fts_grid *g, int y)
{
	const struct fts_setup_state *st = s->setup;
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	char a[FTS_FMT_LEN], b[FTS_FMT_LEN], cur[1400];
	const struct fts_rate_probe *p = &st->probe;

	if (p->r) {
		fts_grid_printf(g, 1, y, g->w - 1, fts_theme_style(&s->theme, FTS_R_HEADER),
				"Probe: recording 1 s of this choice into a throw-away file... (Esc stops)");
		return;
	}
	if (p->err[0]) {
		fts_grid_printf(g, 1, y, g->w - 1, fts_theme_style(&s->theme, FTS_R_ERROR), "Probe failed: %s", p->err);
		return;
	}
	if (!p->done) {
		fts_grid_text(g, 1, y, g->w - 1, "Probe: press p for a 1 s throw-away capture that measures this choice", dim);
		return;
	}
	if (strcmp(fts_rate_probe_choice(&st->m, cur, sizeof(cur)), p->choice)) {
		fts_grid_text(g, 1, y, g->w - 1, "Probe: it measured other CPUs or events; p measures this choice", dim);
		return;
	}
	fts_grid_printf(g, 1, y, g->w - 1, fts_theme_style(&s->theme, FTS_R_NORMAL),
			"Probe: %s in total; the busiest CPU, %d, writes %s/s", fts_fmt_rate(p->ev_s, a, sizeof(a)),
			p->worst_cpu, fts_fmt_bytes(p->worst_bytes_s, b, sizeof(b)));
	draw_verdict(s, g, y + 1);
	if (y + 2 <= g->h - 4)
		draw_probe_cpus(s, g, y + 2);
}

/* One CPU's cell on the grid: selected, utilisation, NUMA node. */
static void draw_cpu(const struct fts_session *s, struct fts_grid *g, int i, int x, int y)
{
	const struct fts_setup_state *st = s->setup;
	enum fts_role role = st->focus == F_CPUS && i == st->cur ? FTS_R_LABEL_SEL :
			     st->m.sel[i] ? FTS_R_NORMAL : FTS_R_DIM;
	char u[8];

	if (st->m.util[i] < 0)
		snprintf(u, sizeof(u), "  ?");
	else
		snprintf(u, sizeof(u), "%3.0f", st->m.util[i] * 100);
	int wide = cell_w(st) == CELL_W_WIDE;

	fts_grid_printf(g, x, y, cell_w(st) - 1, fts_theme_style(&s->theme, role), wide ? "[%c]%4d %s%%" : "[%c]%3d %s%%",
			st->m.sel[i] ? 'x' : ' ', st->m.cpu[i], u);
	if (st->m.nnodes > 1) /* after the figure and a space; the cell's last column stays blank */
		fts_grid_printf(g, x + (wide ? 13 : 12), y, 3, fts_theme_style(&s->theme, FTS_R_DIM),
				"n%d", st->m.node[i]);
	if (st->m.util[i] >= 0.8)
		fts_grid_style(g, x + (wide ? 8 : 7), y, 4, FTS_A_BOLD, -2, -2);
}

static void draw_cpus(const struct fts_session *s, struct fts_grid *g, int *y)
{
	const struct fts_setup_state *st = s->setup;
	int per = cells_per_row(st, g->w), rows = (st->m.ncpus + per - 1) / per, n = cpu_rows(st, g->w, g->h);
	char list[1024];

	fts_draw_section(s, g, 0, (*y)++, g->w, "CPUs");
	if (st->cpu_bad[0]) /* the preset list was wrong: nothing is chosen until c or a */
		fts_grid_printf(g, 8, *y - 1, g->w - 8, fts_theme_style(&s->theme, FTS_R_ERROR),
				" CPU list wrong: %s; c or a fixes it ", st->cpu_bad);
	else
		fts_grid_printf(g, 20, *y - 1, g->w - 20,
				fts_theme_style(&s->theme, st->focus == F_CPUS ? FTS_R_LABEL_SEL : FTS_R_DIM),
				" %d of %d selected: %s ", fts_setup_selected(&st->m), st->m.ncpus,
				fts_setup_cpulist(&st->m, list, sizeof(list), 0));
	for (int r = 0; r < n; r++, (*y)++) {
		for (int c = 0; c < per && (st->cpu_top + r) * per + c < st->m.ncpus; c++)
			draw_cpu(s, g, (st->cpu_top + r) * per + c, 2 + c * cell_w(st), *y);
	}
	if (rows > n)
		fts_grid_printf(g, 2, (*y)++, g->w - 2, fts_theme_style(&s->theme, FTS_R_DIM),
				"(%d more rows of CPUs: move the cursor to scroll)", rows - n);
}

/* The value shown beside option @f. */
static const char *option_value(const struct fts_setup_state *st, enum field f, char *buf, size_t len)
{
	static const char *const backend[] = {
		"auto: a private tracefs instance (trace-cmd if that cannot start)",
		"tracefs: a private instance, live loss counters, the live top",
		"trace-cmd record: global buffer, no live counters or live top",
	};
	char a[FTS_FMT_LEN], b[FTS_FMT_LEN], q[4200];
	size_t n = strlen(st->m.output);

	switch (f) {
	case F_BUFFER:
		snprintf(buf, len, "%u KB per CPU x %d = %s of %s available", st->m.bf_kb, fts_setup_selected(&st->m),
			 fts_fmt_bytes((double)fts_setup_mem_bytes(&st->m), a, sizeof(a)),
			 st->avail_mem ? fts_fmt_bytes((double)st->avail_mem, b, sizeof(b)) : "?");
		break;
	case F_DURATION:
		if (st->m.flight)
			snprintf(buf, len, "until stopped (the flight recorder keeps the last segments)");
		else if (st->m.duration_s > 0)
			snprintf(buf, len, "%ld s (0 = until stopped)", st->m.duration_s);
		else
			snprintf(buf, len, "until stopped (s stops and saves)");
		break;
	case F_FLIGHT:
		if (!st->m.flight)
			snprintf(buf, len, "capture (Space: flight recorder, a ring of segments until stopped)");
		else
			snprintf(buf, len, "flight recorder: %s segments, keep %d (Enter edits: 30s 4, 64M 8)",
				 st->m.segment, st->m.keep);
		break;
	case F_OUTPUT:
		snprintf(buf, len, "%s (%s)", fts_shell_quote(st->m.output, q, sizeof(q)),
			 n > 4 && !strcmp(st->m.output + n - 4, ".txt") ? "kernel text; Space: back to .dat"
									 : "trace.dat; Space: .txt for kernel text");
		break;
	case F_NSPID:
		if (!st->m.nspid)
			snprintf(buf, len, "off (Enter: on, at a path of your choice)");
		else if (st->m.pid_mapping[0])
			snprintf(buf, len, "on: %s (container pids; Enter: another path)",
				 fts_shell_quote(st->m.pid_mapping, q, sizeof(q)));
		else
			snprintf(buf, len, "on: pid_mapping.json beside the output (container pids; Enter: a path)");
		break;
	case F_TRIGGER:
		if (!st->m.triggers[0])
			snprintf(buf, len, "none (Enter: lost, runnable>5ms:comm=python*, wakeup>2ms; ';' between)");
		else
			snprintf(buf, len, "%s: snapshot 2 s after", st->m.triggers);
		break;
	case F_SNAPLAST:
		if (st->m.snap_last_s > 0)
			snprintf(buf, len, "s keeps the last %g s (Enter: seconds, 0 = all kept)", st->m.snap_last_s);
		else
			snprintf(buf, len, "s keeps all kept segments (Enter: the last N seconds)");
		break;
	case F_LIVETOP:
		snprintf(buf, len, "%s", !st->m.sched ? "needs the sched events" :
			 !st->m.live_top ? "off" :
			 !native(st) ? "not with trace-cmd: the /proc schedstat top instead" :
			 "on: tasks waiting and running most, decoded from the pages");
		break;
	default:
		if (backend_problem(st))
			snprintf(buf, len, "%s cannot record here: %s", st->m.backend == FTS_BACKEND_TRACE_CMD ? "trace-cmd" :
				 st->m.backend == FTS_BACKEND_TRACEFS ? "tracefs" : "auto", backend_problem(st));
		else
			snprintf(buf, len, "%s", backend[st->m.backend]);
		break;
	}
	return buf;
}

static void draw_options(const struct fts_session *s, struct fts_grid *g, int *y, int maxy)
{
	static const struct { enum field f; const char *label; } opt[NOPTS] = {
		{ F_BUFFER, "Buffer" }, { F_DURATION, "Duration" }, { F_OUTPUT, "Output" },
		{ F_NSPID, "Pid map" }, { F_LIVETOP, "Live top" }, { F_BACKEND, "Backend" }, { F_FLIGHT, "Mode" },
		{ F_TRIGGER, "Trigger" }, { F_SNAPLAST, "Snapshot" },
	};
	const struct fts_setup_state *st = s->setup;
	struct fts_style sel = fts_theme_style(&s->theme, FTS_R_LABEL_SEL);

	fts_draw_section(s, g, 0, (*y)++, g->w, "Capture");
	for (int i = 0; i < nopts(st) && *y <= maxy; i++, (*y)++) {
		char val[4400];

		fts_grid_printf(g, 2, *y, 10, st->focus == opt[i].f ? sel : fts_theme_style(&s->theme, FTS_R_HEADER),
				"%-9s", opt[i].label);
		if (st->ed.active && st->ed.field == (int)opt[i].f) {
			int x = fts_grid_text(g, 12, *y, g->w - 14, st->ed.buf, sel);

			fts_grid_put(g, 12 + x, *y, '_', sel);
		} else {
			int bad = opt[i].f == F_BACKEND && backend_problem(st);

			fts_grid_text(g, 12, *y, g->w - 12, option_value(st, opt[i].f, val, sizeof(val)),
				      fts_theme_style(&s->theme, bad ? FTS_R_ERROR : FTS_R_NORMAL));
		}
	}
	if (st->ed.active && st->ed.field == F_CPUS && *y <= maxy) {
		int x = fts_grid_text(g, 2, *y, 12, "CPU list: ", sel);

		x += fts_grid_text(g, 2 + x, *y, g->w - 4 - x, st->ed.buf, sel);
		fts_grid_put(g, 2 + x, (*y)++, '_', sel);
	}
}

/*
 * The recorder's memory rule (fts_record_mem_max_kb): 0 when the choice fits
 * or MemAvailable is unknown, else the largest per-CPU buffer that does (or
 * -1: none does).
 */
static long mem_refused(const struct fts_setup_state *st)
{
	int n = fts_setup_selected(&st->m), top = st->m.live_top && st->m.sched && native(st);
	unsigned fit = st->avail_mem && n ? fts_record_mem_max_kb(st->avail_mem, n, top) : FTS_BUFFER_MAX_KB;

	if (st->m.bf_kb <= fit)
		return 0;
	return fit ? (long)fit : -1;
}

/* The output without its ".dat": the flight segments are <stem>.NNNNNN.dat. */
static size_t stem_len(const char *out)
{
	size_t n = strlen(out);

	return n > 4 && !strcmp(out + n - 4, ".dat") ? n - 4 : n;
}

/* What will happen: the memory check, the instance, the file written. */
static void draw_happen(const struct fts_session *s, struct fts_grid *g, int *y, int maxy)
{
	const struct fts_setup_state *st = s->setup;
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	int abs = st->m.output[0] == '/';
	long fit = mem_refused(st);

	if (fit > 0)
		fts_grid_printf(g, 1, (*y)++, g->w - 1, fts_theme_style(&s->theme, FTS_R_ERROR),
				"The buffers need more than 7/8 of the memory available: at most %ld KB per CPU fits", fit);
	else if (fit < 0)
		fts_grid_text(g, 1, (*y)++, g->w - 1, "The buffers need more memory than is available: record fewer CPUs",
			      fts_theme_style(&s->theme, FTS_R_ERROR));
	else if (native(st))
		fts_grid_text(g, 1, (*y)++, g->w - 1, "A private tracefs instance records: no global tracing setting changes.", dim);
	else
		fts_grid_text(g, 1, (*y)++, g->w - 1,
			      "trace-cmd records in the global buffer (restored after); no live loss counts.", dim);
	if (*y <= maxy && backend_unchecked(st))
		fts_grid_text(g, 1, (*y)++, g->w - 1, "Not tried here yet: some kernels refuse trace-cmd; p checks it in 1 s.",
			      fts_theme_style(&s->theme, FTS_R_HEADER));
	if (*y <= maxy && st->out_bad[0])
		fts_grid_printf(g, 1, (*y)++, g->w - 1, fts_theme_style(&s->theme, FTS_R_ERROR), "Output: %s", st->out_bad);
	else if (*y <= maxy && st->m.flight)
		fts_grid_printf(g, 1, (*y)++, g->w - 1, dim, "Keeps the last %d segments as %s%s%.*s.NNNNNN.dat", st->m.keep,
				abs ? "" : st->cwd, abs ? "" : "/", (int)stem_len(st->m.output), st->m.output);
	else if (*y <= maxy)
		fts_grid_printf(g, 1, (*y)++, g->w - 1, dim, "%s %s%s%s", st->out_exists ? "Replaces" : "Writes",
				abs ? "" : st->cwd, abs ? "" : "/", st->m.output);
}

static void draw(const struct fts_session *s, struct fts_grid *g)
{
	const struct fts_setup_state *st = s->setup;
	char bar[256], cmd[8192];
	int y, maxy = g->h - 4;

	/* the keys that work now: the editor's while a field is edited, Esc while the probe runs */
	y = fts_session_frame(s, g, "setup", st && st->ed.active ? "Enter accept  Esc cancel  Ctrl+U clear" :
				  st && st->probe.r ? "Esc stop the probe" : fts_bind_bar(&keys, bar, sizeof(bar)));
	if (!st || !st->ready) {
		fts_grid_text(g, 1, y + 1, g->w - 1, "The recorder cannot be set up here (see below). q goes back.",
			      fts_theme_style(&s->theme, FTS_R_DIM));
		return;
	}
	if (cannot_record(&st->caps))
		fts_grid_text(g, 1, y++, g->w - 1, cannot_record(&st->caps), fts_theme_style(&s->theme, FTS_R_ERROR));
	draw_cpus(s, g, &y);
	fts_draw_section(s, g, 0, y++, g->w, "Events");
	draw_events(s, g, &y, maxy);
	draw_options(s, g, &y, maxy);
	if (y <= maxy)
		draw_happen(s, g, &y, maxy);
	if (y <= maxy)
		draw_probe(s, g, y);
	fts_session_cmdline(s, g, fts_setup_cmdline(&st->m, cmd, sizeof(cmd)));
}

/* Record or probe this choice: the options with their strings copied into @s. */
static void fill_opts(struct fts_session *s, const char *output)
{
	struct fts_setup_state *st = s->setup;

	fts_setup_opts(&st->m, &s->rec_opts, s->rec_cpus, sizeof(s->rec_cpus));
	snprintf(s->rec_output, sizeof(s->rec_output), "%s", output);
	s->rec_opts.output = s->rec_output;
	/* the session's copies: the setup's state goes when its screen does */
	snprintf(s->rec_triggers, sizeof(s->rec_triggers), "%s", st->m.triggers);
	s->rec_opts.flight_triggers = st->m.flight && s->rec_triggers[0] ? s->rec_triggers : NULL;
	s->rec_snap_last_s = st->m.snap_last_s;
	fts_front_output_owner(&s->rec_opts.owner);
}

/* A probe ended: what it says about the backend it ran with (trace-cmd may refuse to record here). */
static void probe_judged(struct fts_setup_state *st)
{
	char *bad = st->backend_bad[st->m.backend];

	if (!st->probe.err[0]) {
		bad[0] = 0;
		st->backend_ok[st->m.backend] = 1;
	}
	else if (st->m.backend == FTS_BACKEND_TRACE_CMD)
		snprintf(bad, sizeof(st->backend_bad[0]), "%s", st->probe.err);
}

static unsigned tick(struct fts_session *s)
{
	struct fts_setup_state *st = s->setup;
	struct fts_cpustat cur;

	if (!st || !st->ready)
		return 0;
	if (st->probe.r && fts__clock_mono_s() - st->probe.t0 >= FTS_RATE_PROBE_S) {
		fts_rate_probe_finish(&st->probe, s->mach, st->m.bf_kb, 1);
		probe_judged(st);
		keep_visible(s); /* the result takes rows */
		return FTS_RX_REDRAW;
	}
	if (st->probe.r || fts__clock_mono_s() - st->util_t < 1.0)
		return 0;
	st->util_t = fts__clock_mono_s();
	refresh_paths(s, st);
	if (fts_cpustat_read(s->mach->proc_stat, &cur))
		return FTS_RX_REDRAW;
	for (int i = 0; i < st->m.ncpus; i++)
		st->m.util[i] = fts_cpustat_util(&st->prev, &cur, st->m.cpu[i]);
	fts_cpustat_free(&st->prev);
	st->prev = cur;
	(void)fts_record_mem_available(s->mach->proc_meminfo, &st->avail_mem);
	return FTS_RX_REDRAW;
}

/* A value refused on accept: said, and left in the editor to be fixed. */
static void keep_editing(struct fts_session *s, int field, const char *prefix, const char *why)
{
	struct fts_setup_state *st = s->setup;
	char typed[sizeof(st->ed.buf)];

	snprintf(typed, sizeof(typed), "%s", st->ed.buf);
	fts_session_say(s, 1, "%s%s", prefix, why);
	fts_edit_begin(&st->ed, field, typed);
}

/* The output's or the pid map's path, checked as an output is ("" puts the pid map beside the output). */
static void commit_path(struct fts_session *s, int field)
{
	struct fts_setup_state *st = s->setup;
	char why[600];

	if (field == F_NSPID) {
		if (st->ed.buf[0] && fts_setup_check_output(st->ed.buf, "pid_mapping.json", why, sizeof(why))) {
			keep_editing(s, F_NSPID, "pid map: ", why);
		} else {
			snprintf(st->m.pid_mapping, sizeof(st->m.pid_mapping), "%s", st->ed.buf);
			st->m.nspid = 1;
		}
		return;
	}
	if (fts_setup_check_output(st->ed.buf, "trace.dat", why, sizeof(why)))
		keep_editing(s, F_OUTPUT, "", why);
	else
		snprintf(st->m.output, sizeof(st->m.output), "%s", st->ed.buf);
}

static void commit_edit(struct fts_session *s)
{
	struct fts_setup_state *st = s->setup;
	struct fts_err err = { 0 };
	char *end;
	long v;

	switch (st->ed.field) {
	case F_CPUS:
		if (fts_setup_select_list(&st->m, st->ed.buf, &err))
			fts_session_say(s, 1, "%s", err.msg);
		else
			st->cpu_bad[0] = 0;
		break;
	case F_BUFFER:
		v = strtol(st->ed.buf, &end, 10);
		if (end == st->ed.buf || *end || v <= 0 || v > (1 << 22))
			fts_session_say(s, 1, "the buffer is KB per CPU, 1..4194304");
		else
			st->m.bf_kb = (unsigned)v;
		break;
	case F_DURATION:
		v = strtol(st->ed.buf, &end, 10);
		if (end == st->ed.buf || *end || v < 0 || v > 1000000000L)
			fts_session_say(s, 1, "the duration is whole seconds, 0 for until stopped");
		else
			st->m.duration_s = v;
		break;
	case F_TRIGGER: case F_SNAPLAST:
		/* a wrong value stays in the editor to be fixed, as the segment's */
		if (st->ed.field == F_TRIGGER ? fts_setup_set_triggers(&st->m, st->ed.buf, &err)
					      : fts_setup_set_snap_last(&st->m, st->ed.buf, &err))
			keep_editing(s, st->ed.field, "", err.msg);
		break;
	case F_FLIGHT:
		/* a wrong value stays in the editor to be fixed, as the output's */
		if (fts_setup_set_flight(&st->m, st->ed.buf, &err))
			keep_editing(s, F_FLIGHT, "", err.msg);
		else
			st->m.flight = 1;
		break;
	case F_NSPID: case F_OUTPUT:
		commit_path(s, st->ed.field);
		break;
	default:
		break;
	}
}

static void start_edit(struct fts_setup_state *st, enum field f)
{
	char buf[64];

	switch (f) {
	case F_BUFFER:
		snprintf(buf, sizeof(buf), "%u", st->m.bf_kb);
		fts_edit_begin(&st->ed, f, buf);
		break;
	case F_DURATION:
		snprintf(buf, sizeof(buf), "%ld", st->m.duration_s);
		fts_edit_begin(&st->ed, f, buf);
		break;
	case F_FLIGHT:
		snprintf(buf, sizeof(buf), "%s %d", st->m.segment, st->m.keep);
		fts_edit_begin(&st->ed, f, buf);
		break;
	case F_TRIGGER:
		fts_edit_begin(&st->ed, f, st->m.triggers);
		break;
	case F_SNAPLAST:
		snprintf(buf, sizeof(buf), "%g", st->m.snap_last_s);
		fts_edit_begin(&st->ed, f, st->m.snap_last_s > 0 ? buf : "");
		break;
	case F_OUTPUT:
		fts_edit_begin(&st->ed, f, st->m.output);
		fts_edit_complete_with(&st->ed, fts_edit_complete_path);
		break;
	case F_NSPID:
		fts_edit_begin(&st->ed, f, st->m.pid_mapping);
		fts_edit_complete_with(&st->ed, fts_edit_complete_path);
		break;
	default:
		break;
	}
}

/* Space on an event of an expanded group: leave it out, or take it back. */
static void toggle_event(struct fts_session *s)
{
	struct fts_setup_state *st = s->setup;
	const struct fts_record_event_cap *e = &st->caps.events[st->ev_cur];

	if (!e->available)
		fts_session_say(s, 0, "this kernel lacks %s: it is not recorded either way", e->name);
	else if (fts_setup_toggle_event(&st->m, e->name))
		fts_session_say(s, 1, "too many events left out");
}

/* Left/Right on an expanded group: the event before/after (-1: the group's label). */
static void move_event(struct fts_setup_state *st, int dir)
{
	int i = st->ev_cur;

	for (;;) {
		i = i < 0 && dir < 0 ? -1 : i + dir;
		if (i < 0) {
			st->ev_cur = -1;
			return;
		}
		if (i >= st->caps.nevents)
			return;
		if (!strcmp(st->caps.events[i].group, group_name(st->focus))) {
			st->ev_cur = i;
			return;
		}
	}
}

/* Space on a field: toggle or cycle it. */
static void toggle(struct fts_session *s)
{
	struct fts_setup_state *st = s->setup;

	switch (st->focus) {
	case F_CPUS:
		if (st->m.ncpus)
			st->m.sel[st->cur] = !st->m.sel[st->cur];
		break;
	case F_SCHED: case F_IRQ: case F_FUTEX:
		if (st->expanded && st->ev_cur >= 0)
			toggle_event(s);
		else
			*group_flag(&st->m, st->focus) = !*group_flag(&st->m, st->focus);
		break;
	case F_NSPID:
		st->m.nspid = !st->m.nspid;
		break;
	case F_LIVETOP:
		st->m.live_top = !st->m.live_top;
		break;
	case F_FLIGHT:
		st->m.flight = !st->m.flight;
		break;
	case F_TRIGGER: case F_SNAPLAST:
		start_edit(st, st->focus);
		break;
	case F_BACKEND:
		st->m.backend = (enum fts_record_backend)((st->m.backend + 1) % 3);
		break;
	case F_OUTPUT: {
		/* the format follows the name: .dat <-> .txt (kernel text) */
		size_t n = strlen(st->m.output);

		char why[600];

		if (n > 4 && !strcmp(st->m.output + n - 4, ".txt"))
			memcpy(st->m.output + n - 4, ".dat", 4);
		else if (n > 4 && !strcmp(st->m.output + n - 4, ".dat"))
			memcpy(st->m.output + n - 4, ".txt", 4);
		else
			start_edit(st, st->focus);
		if (!st->ed.active && fts_setup_check_output(st->m.output, "trace.dat", why, sizeof(why)))
			fts_session_say(s, 1, "%s", why); /* the other name is taken by something else */
		break;
	}
	default:
		start_edit(st, st->focus);
		break;
	}
}

static unsigned start_recording(struct fts_session *s)
{
	struct fts_setup_state *st = s->setup;

	if (cannot_record(&st->caps)) {
		fts_session_say(s, 1, "cannot record: %s", cannot_record(&st->caps));
		return FTS_RX_REDRAW;
	}
	if (st->cpu_bad[0]) {
		fts_session_say(s, 1, "the CPU list is wrong (%s): c types another, a selects all", st->cpu_bad);
		return FTS_RX_REDRAW;
	}
	if (backend_problem(st)) {
		fts_session_say(s, 1, "cannot record with this backend here: %s", backend_problem(st));
		return FTS_RX_REDRAW;
	}
	if (st->m.flight && !native(st)) {
		fts_session_say(s, 1, "the flight recorder needs the tracefs backend (Backend: Space), not trace-cmd");
		return FTS_RX_REDRAW;
	}
	if (st->m.flight && strlen(st->m.output) > 4 && !strcmp(st->m.output + strlen(st->m.output) - 4, ".txt")) {
		fts_session_say(s, 1, "the flight recorder writes trace.dat segments: Output needs a .dat name");
		return FTS_RX_REDRAW;
	}
	refresh_paths(s, st);
	if (st->out_bad[0]) {
		fts_session_say(s, 1, "cannot record: %s", st->out_bad);
		return FTS_RX_REDRAW;
	}
	if (!fts_setup_selected(&st->m)) {
		fts_session_say(s, 1, "no CPU selected: Space toggles one, a selects all");
		return FTS_RX_REDRAW;
	}
	if (!st->m.sched && !st->m.irq && !st->m.futex) {
		fts_session_say(s, 1, "no event group selected: choose sched, irq or futex");
		return FTS_RX_REDRAW;
	}
	if (mem_refused(st) > 0) {
		fts_session_say(s, 1, "the buffers need more than 7/8 of the memory available: at most %ld KB per CPU "
				"fits (Buffer: Enter sets it)", mem_refused(st));
		return FTS_RX_REDRAW;
	}
	if (mem_refused(st) < 0) {
		fts_session_say(s, 1, "the buffers need more memory than is available: record fewer CPUs");
		return FTS_RX_REDRAW;
	}
	fill_opts(s, st->m.output);
	fts_setup_cmdline(&st->m, s->setup_cmdline, sizeof(s->setup_cmdline));
	s->next = FTS_SCR_RECORD;
	return FTS_RX_GOTO;
}

/* Up/Down move on the CPU grid while it has the focus, else between fields. */
static void move(struct fts_setup_state *st, int a, int per)
{
	switch (a) {
	case A_UP:
		if (st->focus == F_CPUS && st->cur >= per) {
			st->cur -= per;
			return;
		}
		/* fall through */
	case A_PREV_FIELD:
		st->focus = st->focus ? st->focus - 1 : F__COUNT - 1;
		if (!st->m.flight && st->focus > F_FLIGHT)   /* the flight-only rows are hidden */
			st->focus = F_FLIGHT;
		return;
	case A_DOWN:
		if (st->focus == F_CPUS && st->cur + per < st->m.ncpus) {
			st->cur += per;
			return;
		}
		/* fall through */
	case A_NEXT_FIELD:
		st->focus = (st->focus + 1) % F__COUNT;
		if (!st->m.flight && st->focus > F_FLIGHT)
			st->focus = F_CPUS;
		return;
	case A_LEFT:
		if (st->focus == F_CPUS && st->cur > 0)
			st->cur--;
		else if (st->expanded && st->focus >= F_SCHED && st->focus <= F_FUTEX)
			move_event(st, -1);
		return;
	case A_RIGHT:
		if (st->focus == F_CPUS && st->cur + 1 < st->m.ncpus)
			st->cur++;
		else if (st->expanded && st->focus >= F_SCHED && st->focus <= F_FUTEX)
			move_event(st, 1);
		return;
	default:
		return;
	}
}

static unsigned action(struct fts_session *s, int a)
{
	struct fts_setup_state *st = s->setup;
	int node, got;

	switch (a) {
	case A_BACK:
		s->next = FTS_SCR_HOME;
		return FTS_RX_GOTO;
	case A_TOGGLE:
		if (st->focus == F_CPUS)
			st->cpu_bad[0] = 0;
		toggle(s);
		break;
	case A_EDIT:
		if (st->focus == F_CPUS)
			fts_edit_begin(&st->ed, F_CPUS, "");
		else if (st->focus == F_OUTPUT || st->focus == F_BUFFER || st->focus == F_DURATION ||
			 st->focus == F_FLIGHT || st->focus == F_NSPID || st->focus == F_TRIGGER ||
			 st->focus == F_SNAPLAST)
			start_edit(st, st->focus);
		else
			toggle(s);
		break;
	case A_ALL:
		memset(st->m.sel, 1, (size_t)st->m.ncpus);
		st->cpu_bad[0] = 0;
		break;
	case A_NODE:
		node = st->node_cycle++ % (st->m.nnodes > 0 ? st->m.nnodes : 1);
		got = fts_setup_select_node(&st->m, node);
		if (got)
			st->cpu_bad[0] = 0;
		fts_session_say(s, 0, got ? "NUMA node %d: %d CPUs" : "no CPU on NUMA node %d", node, got);
		break;
	case A_LIST:
		st->focus = F_CPUS;
		fts_edit_begin(&st->ed, F_CPUS, "");
		break;
	case A_EXPAND: st->expanded = !st->expanded; break;
	case A_PROBE:
		if (cannot_record(&st->caps))
			fts_session_say(s, 1, "cannot probe: %s", cannot_record(&st->caps));
		else if (fts_rate_probe_start(&st->probe, s->mach, &st->m, fts__clock_mono_s()))
			probe_judged(st);
		break;
	case A_RECORD:
		return start_recording(s);
	default: {
		enum field was = st->focus;

		move(st, a, cells_per_row(st, s->w));
		if (st->focus != was)
			st->ev_cur = -1;
		break;
	}
	}
	return FTS_RX_REDRAW;
}

static unsigned key(struct fts_session *s, int k)
{
	struct fts_setup_state *st = s->setup;
	int a = fts_bind_action(&keys, k);
	unsigned r;

	if (!st || !st->ready) {
		if (a != A_BACK)
			return 0;
		s->next = FTS_SCR_HOME;
		return FTS_RX_GOTO;
	}
	if (st->ed.active) {
		if (fts_edit_key(&st->ed, k) == FTS_EDIT_DONE)
			commit_edit(s);
		refresh_paths(s, st);
		keep_visible(s);
		return FTS_RX_REDRAW;
	}
	if (st->probe.r) {
		if (a == A_BACK || a == A_PROBE) {
			fts_rate_probe_finish(&st->probe, s->mach, st->m.bf_kb, 0);
			fts_session_say(s, 0, "probe stopped");
		}
		return FTS_RX_REDRAW;
	}
	if (!a)
		return 0;
	s->msg[0] = 0;
	r = action(s, a);
	if (s->setup) {
		refresh_paths(s, st);
		keep_visible(s);
	}
	return r;
}

static int leave(struct fts_session *s, int sig)
{
	struct fts_setup_state *st = s->setup;

	(void)sig;
	if (!st)
		return 0;
	fts_rate_probe_free(&st->probe, s->mach);
	fts_setup_free(&st->m);
	fts_record_caps_release(&st->caps);
	fts_cpustat_free(&st->prev);
	free(st);
	s->setup = NULL;
	return 0;
}

const struct fts_screen_ops fts_screen_setup = {
	.title = "setup",
	.enter = enter,
	.layout = keep_visible,
	.draw = draw,
	.key = key,
	.tick = tick,
	.tick_ms = 250,
	.keys = &keys,
	.leave = leave,
};
