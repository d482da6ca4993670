// SPDX-License-Identifier: MIT
/*
 * setup.c - choose what to record: CPUs on a grid with their current
 * utilisation and NUMA node, event groups (expandable to the single events,
 * greyed where the kernel lacks them), the buffer and the memory it takes,
 * duration, output, pid mapping and backend; what will happen; and a 1 s
 * throw-away probe that measures the chosen load before the real capture.
 *
 * The choices live in struct fts_setup (setup_model.c, unit-tested); this
 * file draws them and maps keys. The probe runs as steps from the tick:
 * start, wait 1 s without blocking the screen, stop (cut) and delete.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "front/fmt.h"
#include "front/process.h"
#include "kit/kit.h"
#include "tui/kit/keys.h"
#include "tui/kit/line_edit.h"
#include "tui/session/session.h"
#include "tui/session/setup_model.h"

enum field { F_CPUS, F_SCHED, F_IRQ, F_FUTEX, F_BUFFER, F_DURATION, F_OUTPUT, F_NSPID, F_LIVETOP, F_BACKEND,
	     F__COUNT };

struct probe_cpu {
	int cpu;
	double ev_s, bytes_s;
	uint64_t lost;
};

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
	/* the probe */
	struct fts_recorder *probe;
	char probe_dir[64], probe_path[128];
	double probe_t0;
	int probe_done;
	int nprobe;
	struct probe_cpu *pc;
	double probe_ev_s, probe_worst_bytes_s, probe_lasts_s;
	uint64_t probe_lost;
	int probe_worst_cpu;
	char probe_err[600];
};

static const char *const help[] = {
	"Up Down", "move between fields (also j k, Tab)",
	"Left Right", "move on the CPU grid (also h l)",
	"Space", "toggle the CPU or option; on Output: trace.dat <-> kernel text (.txt)",
	"a", "all CPUs",
	"n", "the next NUMA node's CPUs only",
	"c", "type a CPU list (0-15,32)",
	"Enter", "edit the field (buffer, duration, output)",
	"x", "expand the event groups to single events",
	"p", "probe: a 1 s throw-away capture of this choice (Esc stops it)",
	"r", "start recording",
	"q Esc", "back to the home screen",
	NULL,
};

/* Why nothing can be recorded here, or NULL when it can. */
static const char *cannot_record(const struct fts_record_caps *c)
{
	if (!c->root)
		return "recording needs root (tracefs is root-only): run ftscope as root, e.g. sudo ftscope";
	if (!c->native_ok && !c->trace_cmd)
		return c->problem[0] ? c->problem : "tracefs is not usable here";
	return NULL;
}

static void enter(struct fts_session *s)
{
	struct fts_setup_state *st = s->setup;
	struct fts_err err = { 0 };
	int rc;

	if (!st) {
		st = s->setup = calloc(1, sizeof(*st));
		if (!st)
			return;
	}
	if (st->ready)
		return;
	if ((rc = fts_record_probe(s->preset, &st->caps, &err))) {
		fts_session_say(s, 1, "%s", err.msg);
		return;
	}
	rc = fts_setup_init(&st->m, &st->caps, s->preset, &err);
	if (rc == -ENOMEM) {
		fts_session_say(s, 1, "%s", err.msg);
		return;
	}
	if (rc)
		fts_session_say(s, 1, "%s; all CPUs selected instead", err.msg);
	fts_cpustat_read("/proc/stat", &st->prev);
	fts_meminfo_available("/proc/meminfo", &st->avail_mem);
	st->ready = 1;
}

/* The CPU grid's cell width and how many fit on a row. */
static int cells_per_row(int w)
{
	int n = (w - 2) / 14;

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

static void draw_events(struct fts_session *s, struct fts_grid *g, int *y, int maxy)
{
	struct fts_setup_state *st = s->setup;
	struct fts_style nrm = fts_theme_style(&s->theme, FTS_R_NORMAL);
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	struct fts_style sel = fts_theme_style(&s->theme, FTS_R_LABEL_SEL);

	for (enum field f = F_SCHED; f <= F_FUTEX && *y <= maxy; f++, (*y)++) {
		int have = 0, total = 0, x;
		struct fts_style fs = st->focus == f ? sel : nrm;

		for (int i = 0; i < st->caps.nevents; i++) {
			if (!strcmp(st->caps.events[i].group, group_name(f))) {
				total++;
				have += st->caps.events[i].available;
			}
		}
		x = fts_grid_printf(g, 2, *y, 20, fs, "[%c] %-6s", *group_flag(&st->m, f) ? 'x' : ' ', group_name(f));
		x += 2;
		if (!st->expanded) {
			if (!st->caps.root || !st->caps.tracing_dir[0])
				fts_grid_printf(g, x + 1, *y, g->w - x - 1, dim, "%d events (availability unknown without root/tracefs)", total);
			else if (missing_of(&st->caps, f)[0])
				fts_grid_printf(g, x + 1, *y, g->w - x - 1, dim, "%d of %d events; this kernel lacks %s",
						have, total, missing_of(&st->caps, f));
			else
				fts_grid_printf(g, x + 1, *y, g->w - x - 1, dim, "%d events", total);
			continue;
		}
		/* expanded: each event, greyed when the kernel lacks it */
		x++;
		for (int i = 0; i < st->caps.nevents; i++) {
			const struct fts_record_event_cap *e = &st->caps.events[i];
			const char *shortn = strchr(e->name, '/');
			int w;

			if (strcmp(e->group, group_name(f)))
				continue;
			shortn = shortn ? shortn + 1 : e->name;
			w = fts_text_width(shortn, g->utf8) + 1;
			if (x + w >= g->w) {
				if (++(*y) > maxy)
					return;
				x = 14;
			}
			x += fts_grid_text(g, x, *y, g->w - x, shortn,
					   e->available ? nrm : fts_theme_style(&s->theme, FTS_R_DIM)) + 1;
			if (!e->available)
				fts_grid_style(g, x - w, *y, w - 1, FTS_A_DIM, -2, -2);
		}
	}
}

static void draw_probe(struct fts_session *s, struct fts_grid *g, int y)
{
	struct fts_setup_state *st = s->setup;
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	char a[FTS_FMT_LEN], b[FTS_FMT_LEN], c[FTS_FMT_LEN];

	if (st->probe) {
		fts_grid_printf(g, 1, y, g->w - 1, fts_theme_style(&s->theme, FTS_R_HEADER),
				"Probe: recording 1 s of this choice into a throw-away file... (Esc stops)");
		return;
	}
	if (st->probe_err[0]) {
		fts_grid_printf(g, 1, y, g->w - 1, fts_theme_style(&s->theme, FTS_R_ERROR), "Probe failed: %s", st->probe_err);
		return;
	}
	if (!st->probe_done) {
		fts_grid_text(g, 1, y, g->w - 1, "Probe: press p for a 1 s throw-away capture that measures this choice", dim);
		return;
	}
	fts_grid_printf(g, 1, y, g->w - 1, fts_theme_style(&s->theme, FTS_R_NORMAL),
			"Probe: %s in total; the busiest CPU, %d, writes %s/s", fts_fmt_rate(st->probe_ev_s, a, sizeof(a)),
			st->probe_worst_cpu, fts_fmt_bytes(st->probe_worst_bytes_s, b, sizeof(b)));
	if (st->probe_lost || (st->probe_lasts_s >= 0 && st->probe_lasts_s < 1.0))
		fts_grid_printf(g, 1, y + 1, g->w - 1, fts_theme_style(&s->theme, FTS_R_ERROR),
				"Likely to lose events (%llu lost in 1 s; the buffer lasts %s): raise it or record less",
				(unsigned long long)st->probe_lost,
				st->probe_lasts_s < 0 ? "?" : fts_fmt_duration(st->probe_lasts_s, c, sizeof(c)));
	else
		fts_grid_printf(g, 1, y + 1, g->w - 1, dim, "No loss; the buffer would last %s there if the disk stalled",
				st->probe_lasts_s < 0 ? "indefinitely" : fts_fmt_duration(st->probe_lasts_s, c, sizeof(c)));
	/* per CPU, in CPU order; as many as fit */
	if (y + 2 <= g->h - 4) {
		int x = fts_grid_text(g, 1, y + 2, 10, "per CPU: ", dim) + 1;

		for (int i = 0; i < st->nprobe && x < g->w - 2; i++)
			x += fts_grid_printf(g, x, y + 2, g->w - x, st->pc[i].lost ? fts_theme_style(&s->theme, FTS_R_ERROR) : dim,
					     "%d:%s ", st->pc[i].cpu, fts_fmt_rate(st->pc[i].ev_s, a, sizeof(a)));
	}
}

static void draw(struct fts_session *s, struct fts_grid *g)
{
	struct fts_setup_state *st = s->setup;
	struct fts_style nrm = fts_theme_style(&s->theme, FTS_R_NORMAL);
	struct fts_style dim = fts_theme_style(&s->theme, FTS_R_DIM);
	struct fts_style hs = fts_theme_style(&s->theme, FTS_R_HEADER);
	struct fts_style sel = fts_theme_style(&s->theme, FTS_R_LABEL_SEL);
	int y = fts_session_frame(s, g, "setup", "r record  p probe  Space toggle  Enter edit  a all  n node  c list  q back");
	int per = cells_per_row(g->w), rows, cpu_rows, maxy = g->h - 4;
	char a[FTS_FMT_LEN], b[FTS_FMT_LEN], list[1024], cwd[4096];
	static const char *const backend[] = { "auto (native, trace-cmd when unavailable)", "tracefs", "trace-cmd" };

	if (!st || !st->ready) {
		fts_grid_text(g, 1, y + 1, g->w - 1, "The recorder cannot be set up here (see below). q goes back.", dim);
		return;
	}
	if (cannot_record(&st->caps)) {
		fts_grid_text(g, 1, y++, g->w - 1, cannot_record(&st->caps), fts_theme_style(&s->theme, FTS_R_ERROR));
	}
	/* CPUs */
	fts_draw_section(s, g, 0, y++, g->w, "CPUs");
	fts_grid_printf(g, 20, y - 1, g->w - 20, st->focus == F_CPUS ? sel : dim, " %d of %d selected: %s ",
			fts_setup_selected(&st->m), st->m.ncpus,
			fts_setup_cpulist(&st->m, list, sizeof(list), 0));
	rows = (st->m.ncpus + per - 1) / per;
	/* leave room for the rest: events 1+3, capture 1+6, what happens 2, probe 3 */
	cpu_rows = maxy - y + 1 - 16 - (st->expanded ? 3 : 0);
	if (cpu_rows < 1)
		cpu_rows = 1;
	if (cpu_rows > rows)
		cpu_rows = rows;
	if (rows > cpu_rows && cpu_rows > 1)
		cpu_rows--; /* the "more rows" line */
	if (st->cur / per < st->cpu_top)
		st->cpu_top = st->cur / per;
	if (st->cur / per >= st->cpu_top + cpu_rows)
		st->cpu_top = st->cur / per - cpu_rows + 1;
	for (int r = 0; r < cpu_rows; r++, y++) {
		for (int c = 0; c < per; c++) {
			int i = (st->cpu_top + r) * per + c;
			struct fts_style cs = nrm;
			char u[8];

			if (i >= st->m.ncpus)
				break;
			if (st->focus == F_CPUS && i == st->cur)
				cs = sel;
			else if (!st->m.sel[i])
				cs = dim;
			if (st->m.util[i] < 0)
				snprintf(u, sizeof(u), "  ?");
			else
				snprintf(u, sizeof(u), "%3.0f", st->m.util[i] * 100);
			fts_grid_printf(g, 2 + c * 14, y, 13, cs, "[%c]%3d %s%%%s", st->m.sel[i] ? 'x' : ' ',
					st->m.cpu[i], u, st->m.nnodes > 1 ? "" : "");
			if (st->m.nnodes > 1)
				fts_grid_printf(g, 2 + c * 14 + 11, y, 3, dim, "n%d", st->m.node[i]);
			if (st->m.util[i] >= 0.8)
				fts_grid_style(g, 2 + c * 14 + 7, y, 4, FTS_A_BOLD, -2, -2);
		}
	}
	if (rows > cpu_rows)
		fts_grid_printf(g, 2, y++, g->w - 2, dim, "(%d more rows of CPUs: move the cursor to scroll)", rows - cpu_rows);
	/* events */
	fts_draw_section(s, g, 0, y++, g->w, "Events");
	draw_events(s, g, &y, maxy);
	/* options */
	fts_draw_section(s, g, 0, y++, g->w, "Capture");
	{
		struct { enum field f; const char *label; char val[4200]; } opt[6];
		char q[4200];

		opt[0].f = F_BUFFER;
		opt[0].label = "Buffer";
		snprintf(opt[0].val, sizeof(opt[0].val), "%u KB per CPU x %d = %s of %s available", st->m.bf_kb,
			 fts_setup_selected(&st->m), fts_fmt_bytes((double)fts_setup_mem_bytes(&st->m), a, sizeof(a)),
			 st->avail_mem ? fts_fmt_bytes((double)st->avail_mem, b, sizeof(b)) : "?");
		opt[1].f = F_DURATION;
		opt[1].label = "Duration";
		if (st->m.duration_s > 0)
			snprintf(opt[1].val, sizeof(opt[1].val), "%ld s (0 = until stopped)", st->m.duration_s);
		else
			snprintf(opt[1].val, sizeof(opt[1].val), "until stopped (s stops and saves)");
		opt[2].f = F_OUTPUT;
		opt[2].label = "Output";
		snprintf(opt[2].val, sizeof(opt[2].val), "%s (%s)", fts_shell_quote(st->m.output, q, sizeof(q)),
			 strlen(st->m.output) > 4 && !strcmp(st->m.output + strlen(st->m.output) - 4, ".txt") ?
			 "kernel text; Space: back to .dat" : "trace.dat; Space: .txt for kernel text");
		opt[3].f = F_NSPID;
		opt[3].label = "Pid map";
		snprintf(opt[3].val, sizeof(opt[3].val), "%s", st->m.nspid ? "on: pid_mapping.json beside the output (container pids)" : "off");
		opt[4].f = F_LIVETOP;
		opt[4].label = "Live top";
		snprintf(opt[4].val, sizeof(opt[4].val), "%s", !st->m.sched ? "needs the sched events" :
			 st->m.live_top ? "on: tasks waiting and running most, decoded from the pages" : "off");
		opt[5].f = F_BACKEND;
		opt[5].label = "Backend";
		snprintf(opt[5].val, sizeof(opt[5].val), "%s", backend[st->m.backend]);
		for (int i = 0; i < 6 && y <= maxy; i++, y++) {
			struct fts_style ls = st->focus == opt[i].f ? sel : hs;

			fts_grid_printf(g, 2, y, 10, ls, "%-9s", opt[i].label);
			if (st->ed.active && st->ed.field == (int)opt[i].f) {
				int x = fts_grid_text(g, 12, y, g->w - 14, st->ed.buf, sel);

				fts_grid_put(g, 12 + x, y, '_', sel);
			} else {
				fts_grid_text(g, 12, y, g->w - 12, opt[i].val, nrm);
			}
		}
	}
	if (st->ed.active && st->ed.field == F_CPUS && y <= maxy) {
		int x = fts_grid_text(g, 2, y, 12, "CPU list: ", sel);

		x += fts_grid_text(g, 2 + x, y, g->w - 4 - x, st->ed.buf, sel);
		fts_grid_put(g, 2 + x, y, '_', sel);
		y++;
	}
	/* what will happen */
	if (y <= maxy) {
		if (!getcwd(cwd, sizeof(cwd)))
			snprintf(cwd, sizeof(cwd), ".");
		if (fts_setup_mem_bytes(&st->m) > st->avail_mem && st->avail_mem)
			fts_grid_printf(g, 1, y++, g->w - 1, fts_theme_style(&s->theme, FTS_R_ERROR),
					"The buffers need more memory than is available: lower the buffer or the CPUs");
		else
			fts_grid_text(g, 1, y++, g->w - 1,
				      "A private tracefs instance records: no global tracing setting changes.", dim);
		if (y <= maxy)
			fts_grid_printf(g, 1, y++, g->w - 1, dim, "%s %s%s%s",
					access(st->m.output, F_OK) == 0 ? "Replaces" : "Writes",
					st->m.output[0] == '/' ? "" : cwd, st->m.output[0] == '/' ? "" : "/", st->m.output);
	}
	if (y <= maxy)
		draw_probe(s, g, y);
	fts_setup_cmdline(&st->m, s->cmdline, sizeof(s->cmdline));
}

/* Record or probe this choice: the options with their strings copied into @s. */
static void fill_opts(struct fts_session *s, const char *output)
{
	struct fts_setup_state *st = s->setup;

	fts_setup_opts(&st->m, &s->rec_opts, s->rec_cpus, sizeof(s->rec_cpus));
	snprintf(s->rec_output, sizeof(s->rec_output), "%s", output);
	s->rec_opts.output = s->rec_output;
	fts_front_output_owner(&s->rec_opts.owner);
}

static void probe_cleanup(struct fts_setup_state *st)
{
	if (st->probe_path[0])
		unlink(st->probe_path);
	if (st->probe_dir[0])
		rmdir(st->probe_dir);
	st->probe_path[0] = st->probe_dir[0] = 0;
}

static void probe_start(struct fts_session *s)
{
	struct fts_setup_state *st = s->setup;
	struct fts_record_opts o;
	struct fts_err err = { 0 };
	char cpus[1024];

	st->probe_err[0] = 0;
	st->probe_done = 0;
	snprintf(st->probe_dir, sizeof(st->probe_dir), "/tmp/ftscope-probe-XXXXXX");
	if (!mkdtemp(st->probe_dir)) {
		snprintf(st->probe_err, sizeof(st->probe_err), "cannot make a temporary directory: %s", strerror(errno));
		st->probe_dir[0] = 0;
		return;
	}
	snprintf(st->probe_path, sizeof(st->probe_path), "%s/probe.dat", st->probe_dir);
	fts_setup_opts(&st->m, &o, cpus, sizeof(cpus));
	o.output = st->probe_path;
	o.duration_s = 0;
	o.nspid = 0;
	if (fts_record_start(&o, &st->probe, &err)) {
		snprintf(st->probe_err, sizeof(st->probe_err), "%s", err.msg);
		st->probe = NULL;
		probe_cleanup(st);
		return;
	}
	st->probe_t0 = fts__clock_mono_s();
}

/* Read the probe's figures (when @measure), stop it without draining and delete its file. */
static void probe_finish(struct fts_setup_state *st, int measure)
{
	struct fts_record_health h;
	struct fts_err err = { 0 };

	if (!st->probe)
		return;
	if (measure && fts_record_health(st->probe, &h) == 0) {
		free(st->pc);
		st->pc = calloc((size_t)h.ncpus + 1, sizeof(*st->pc));
		st->nprobe = st->pc ? h.ncpus : 0;
		st->probe_ev_s = h.elapsed_s > 0 ? (double)h.events / h.elapsed_s : 0;
		st->probe_worst_bytes_s = 0;
		st->probe_worst_cpu = h.ncpus ? h.cpu[0].cpu : 0;
		st->probe_lost = h.lost;
		for (int i = 0; i < st->nprobe; i++) {
			st->pc[i].cpu = h.cpu[i].cpu;
			st->pc[i].ev_s = h.elapsed_s > 0 ? (double)h.cpu[i].events / h.elapsed_s : 0;
			/* bytes arrive a page at a time: use what was streamed, or the events at ~40 B each */
			st->pc[i].bytes_s = h.elapsed_s > 0 ? (double)h.cpu[i].bytes_written / h.elapsed_s : 0;
			if (st->pc[i].bytes_s < st->pc[i].ev_s * 40)
				st->pc[i].bytes_s = st->pc[i].ev_s * 40;
			st->pc[i].lost = h.cpu[i].lost;
			if (st->pc[i].bytes_s > st->probe_worst_bytes_s) {
				st->probe_worst_bytes_s = st->pc[i].bytes_s;
				st->probe_worst_cpu = st->pc[i].cpu;
			}
		}
		st->probe_lasts_s = fts_buffer_lasts_s(st->m.bf_kb, st->probe_worst_bytes_s);
		st->probe_done = 1;
		fts_record_health_release(&h);
	}
	if (fts_record_stop(st->probe, FTS_STOP_CUT, NULL, &err) && measure)
		snprintf(st->probe_err, sizeof(st->probe_err), "%s", err.msg);
	st->probe = NULL;
	probe_cleanup(st);
}

static unsigned tick(struct fts_session *s)
{
	struct fts_setup_state *st = s->setup;
	struct fts_cpustat cur;

	if (!st || !st->ready)
		return 0;
	if (st->probe && fts__clock_mono_s() - st->probe_t0 >= 1.0) {
		probe_finish(st, 1);
		return FTS_SR_REDRAW;
	}
	if (st->probe || fts__clock_mono_s() - st->util_t < 1.0)
		return 0;
	st->util_t = fts__clock_mono_s();
	if (fts_cpustat_read("/proc/stat", &cur))
		return 0;
	for (int i = 0; i < st->m.ncpus; i++)
		st->m.util[i] = fts_cpustat_util(&st->prev, &cur, st->m.cpu[i]);
	fts_cpustat_free(&st->prev);
	st->prev = cur;
	fts_meminfo_available("/proc/meminfo", &st->avail_mem);
	return FTS_SR_REDRAW;
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
	case F_OUTPUT:
		if (!st->ed.buf[0])
			fts_session_say(s, 1, "the output needs a file name");
		else
			snprintf(st->m.output, sizeof(st->m.output), "%s", st->ed.buf);
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
	case F_OUTPUT:
		fts_edit_begin(&st->ed, f, st->m.output);
		break;
	default:
		break;
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
		*group_flag(&st->m, st->focus) = !*group_flag(&st->m, st->focus);
		break;
	case F_NSPID:
		st->m.nspid = !st->m.nspid;
		break;
	case F_LIVETOP:
		st->m.live_top = !st->m.live_top;
		break;
	case F_BACKEND:
		st->m.backend = (enum fts_record_backend)((st->m.backend + 1) % 3);
		break;
	case F_OUTPUT: {
		/* the format follows the name: .dat <-> .txt (kernel text) */
		size_t n = strlen(st->m.output);

		if (n > 4 && !strcmp(st->m.output + n - 4, ".txt"))
			memcpy(st->m.output + n - 4, ".dat", 4);
		else if (n > 4 && !strcmp(st->m.output + n - 4, ".dat"))
			memcpy(st->m.output + n - 4, ".txt", 4);
		else
			start_edit(st, st->focus);
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
		return FTS_SR_REDRAW;
	}
	if (!fts_setup_selected(&st->m)) {
		fts_session_say(s, 1, "no CPU selected: Space toggles one, a selects all");
		return FTS_SR_REDRAW;
	}
	if (!st->m.sched && !st->m.irq && !st->m.futex) {
		fts_session_say(s, 1, "no event group selected: choose sched, irq or futex");
		return FTS_SR_REDRAW;
	}
	if (st->avail_mem && fts_setup_mem_bytes(&st->m) > st->avail_mem) {
		fts_session_say(s, 1, "the buffers need more memory than is available; lower the buffer size");
		return FTS_SR_REDRAW;
	}
	fill_opts(s, st->m.output);
	fts_setup_cmdline(&st->m, s->setup_cmdline, sizeof(s->setup_cmdline));
	s->next = FTS_SCR_RECORD;
	return FTS_SR_GOTO;
}

static unsigned key(struct fts_session *s, int k)
{
	struct fts_setup_state *st = s->setup;
	int per = cells_per_row(s->grid.w);

	if (!st || !st->ready) {
		if (k == 'q' || k == FTS_KEY_ESC) {
			s->next = FTS_SCR_HOME;
			return FTS_SR_GOTO;
		}
		return 0;
	}
	if (st->ed.active) {
		enum fts_edit_result r = fts_edit_key(&st->ed, k);

		if (r == FTS_EDIT_DONE)
			commit_edit(s);
		return FTS_SR_REDRAW;
	}
	if (st->probe) {
		if (k == FTS_KEY_ESC || k == 'q' || k == 'p') {
			probe_finish(st, 0);
			fts_session_say(s, 0, "probe stopped");
		}
		return FTS_SR_REDRAW;
	}
	s->msg[0] = 0;
	switch (k) {
	case 'q': case FTS_KEY_ESC:
		s->next = FTS_SCR_HOME;
		return FTS_SR_GOTO;
	case 'k': case FTS_KEY_UP: case FTS_KEY_BTAB:
		if (st->focus == F_CPUS && st->cur >= per && k != FTS_KEY_BTAB)
			st->cur -= per;
		else
			st->focus = st->focus ? st->focus - 1 : F__COUNT - 1;
		break;
	case 'j': case FTS_KEY_DOWN: case FTS_KEY_TAB:
		if (st->focus == F_CPUS && st->cur + per < st->m.ncpus && k != FTS_KEY_TAB)
			st->cur += per;
		else
			st->focus = (st->focus + 1) % F__COUNT;
		break;
	case 'h': case FTS_KEY_LEFT:
		if (st->focus == F_CPUS && st->cur > 0)
			st->cur--;
		break;
	case 'l': case FTS_KEY_RIGHT:
		if (st->focus == F_CPUS && st->cur + 1 < st->m.ncpus)
			st->cur++;
		break;
	case ' ':
		toggle(s);
		break;
	case FTS_KEY_ENTER:
		if (st->focus == F_CPUS)
			fts_edit_begin(&st->ed, F_CPUS, "");
		else if (st->focus == F_OUTPUT || st->focus == F_BUFFER || st->focus == F_DURATION)
			start_edit(st, st->focus);
		else
			toggle(s);
		break;
	case 'a':
		memset(st->m.sel, 1, (size_t)st->m.ncpus);
		break;
	case 'n': {
		int node = st->node_cycle % (st->m.nnodes > 0 ? st->m.nnodes : 1), got;

		st->node_cycle++;
		got = fts_setup_select_node(&st->m, node);
		fts_session_say(s, 0, got ? "NUMA node %d: %d CPUs" : "no CPU on NUMA node %d", node, got);
		break;
	}
	case 'c':
		st->focus = F_CPUS;
		fts_edit_begin(&st->ed, F_CPUS, "");
		break;
	case 'x':
		st->expanded = !st->expanded;
		break;
	case 'p':
		if (cannot_record(&st->caps))
			fts_session_say(s, 1, "cannot probe: %s", cannot_record(&st->caps));
		else
			probe_start(s);
		break;
	case 'r':
		return start_recording(s);
	default:
		return 0;
	}
	return FTS_SR_REDRAW;
}

static void on_signal(struct fts_session *s, int sig)
{
	struct fts_setup_state *st = s->setup;

	(void)sig;
	if (!st)
		return;
	probe_finish(st, 0);
	fts_setup_free(&st->m);
	fts_record_caps_release(&st->caps);
	fts_cpustat_free(&st->prev);
	free(st->pc);
	free(st);
	s->setup = NULL;
}

const struct fts_screen_ops fts_screen_setup = {
	.title = "setup",
	.enter = enter,
	.draw = draw,
	.key = key,
	.tick = tick,
	.tick_ms = 250,
	.help = help,
	.on_signal = on_signal,
};
