// SPDX-License-Identifier: MIT
/*
 * screen_shot.c - one session screen as text, without a terminal or root:
 * the screen is entered on a fake machine (a fixed CPU/NUMA model, fixture
 * /proc files, a fake recorder whose health snapshots are fixed), driven
 * through its key handler and composed into a grid, which is written to
 * stdout. golden_screens.sh compares the result with the golden screens.
 *
 * usage: screen_shot home|setup|record|export WxH FIXTURES [KEYS] [HOME_DIR|INPUT]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui/widgets/keys.h"
#include "tui/widgets/locale.h"
#include "tui/session/session.h"

/* The fake host's CPUs and live-top tasks: 16 and 5, or FTS_SHOT_NCPUS and
 * FTS_SHOT_TOPN (the callbacks take no argument to carry them). */
static int NCPUS = 16, TOPN = 5;

static const struct fts_record_event_cap events[] = {
	{ "sched", "sched/sched_switch", 1 }, { "sched", "sched/sched_wakeup", 1 },
	{ "sched", "sched/sched_wakeup_new", 1 }, { "sched", "sched/sched_waking", 1 },
	{ "sched", "sched/sched_migrate_task", 1 }, { "sched", "sched/sched_process_fork", 1 },
	{ "sched", "sched/sched_process_exit", 1 }, { "sched", "sched/sched_process_exec", 1 },
	{ "sched", "sched/sched_stat_runtime", 0 }, { "irq", "irq/irq_handler_entry", 1 },
	{ "irq", "irq/irq_handler_exit", 1 }, { "irq", "irq/softirq_entry", 1 },
	{ "irq", "irq/softirq_exit", 1 }, { "irq", "irq/softirq_raise", 1 },
	{ "futex", "syscalls/sys_enter_futex", 1 }, { "futex", "syscalls/sys_exit_futex", 1 },
};

/* 16 CPUs on 2 NUMA nodes, root, tracefs mounted; the kernel lacks one event. */
static int fake_probe(const struct fts_record_opts *o, struct fts_record_caps *c, struct fts_err *err)
{
	(void)o;
	(void)err;
	memset(c, 0, sizeof(*c));
	c->root = c->tracefs_mounted = c->instances = c->mono_raw = c->native_ok = 1;
	snprintf(c->tracing_dir, sizeof(c->tracing_dir), "/sys/kernel/tracing");
	c->nevents = (int)(sizeof(events) / sizeof(events[0]));
	memcpy(c->events, events, sizeof(events));
	snprintf(c->missing_sched, sizeof(c->missing_sched), "sched:sched_stat_runtime");
	c->cpu = calloc(NCPUS, sizeof(*c->cpu));
	if (!c->cpu)
		return -ENOMEM;
	c->ncpus = NCPUS;
	for (int i = 0; i < NCPUS; i++) {
		c->cpu[i].cpu = i;
		c->cpu[i].node = i / 8;
	}
	c->nnodes = 2;
	return 0;
}

static int dummy_recorder;
static int health_calls;

static int fake_start(const struct fts_record_opts *o, struct fts_recorder **out, struct fts_err *err)
{
	(void)o;
	(void)err;
	*out = (struct fts_recorder *)&dummy_recorder;
	return 0;
}

static void fake_top(struct fts_record_top *t)
{
	static const char *const comm[] = { "dataloader", "python3", "kworker/3:1", "ksoftirqd/3", "hccp_service",
					    "acl_thread", "pt_main_thread", "migration/3" };
	int n = TOPN < FTS_RECORD_TOP_N ? TOPN : FTS_RECORD_TOP_N;

	t->enabled = 1;
	t->window_s = 5;
	t->nrunnable = t->ncpu = n;
	for (int i = 0; i < n; i++) {
		t->runnable[i].pid = 1000 + i;
		snprintf(t->runnable[i].comm, sizeof(t->runnable[i].comm), "%s", comm[i]);
		t->runnable[i].runnable_s = 2.5 - 2.5 / n * i;
	}
	for (int i = 0; i < n; i++) {
		t->cpu[i] = t->runnable[n - 1 - i];
		t->cpu[i].cpu_s = 4.0 - 3.5 / n * i;
	}
	t->worst_wakeup_ms = 12.25;
	t->worst_pid = 1000;
	snprintf(t->worst_comm, sizeof(t->worst_comm), "dataloader");
	t->events = 1234567;
	t->cpu_cost_s = 0.42;
}

/* Snapshot n of a steady capture: one second apart, CPU 3 losing events. */
static int fake_health(struct fts_recorder *r, struct fts_record_health *h)
{
	int n = ++health_calls;

	(void)r;
	memset(h, 0, sizeof(*h));
	h->cpu = calloc(NCPUS, sizeof(*h->cpu));
	if (!h->cpu)
		return -ENOMEM;
	h->ncpus = NCPUS;
	h->elapsed_s = n;
	h->period_s = 1;
	h->sample = (uint64_t)n;
	h->counters = 1;
	h->backend = "tracefs";
	for (int i = 0; i < NCPUS; i++) {
		struct fts_record_cpu_health *c = &h->cpu[i];

		c->cpu = i;
		/* cumulative counts only grow; every fourth CPU speeds up */
		c->events = (uint64_t)(1000 * (i + 1) * n + 300 * (i % 4) * n * n);
		c->events_per_s = 1000.0 * (i + 1) + 600.0 * (i % 4) * n;
		c->bytes_written = c->events * 40;
		c->fill = (i * 7 % 10) / 10.0;
		if (i == 3) {
			c->overrun = 100 + 20 * (uint64_t)n;
			c->lost = c->overrun;
			c->lost_delta = 20;
		}
		h->events += c->events;
		h->events_per_s += c->events_per_s;
		h->bytes_written += c->bytes_written;
		h->lost += c->lost;
		h->lost_delta += c->lost_delta;
	}
	fake_top(&h->top);
	return 0;
}

static int fake_stop(struct fts_recorder *r, enum fts_record_stop_mode mode, fts_record_progress_fn fn, void *arg,
		     struct fts_record_summary *sum, struct fts_err *err)
{
	(void)r; (void)mode; (void)fn; (void)arg; (void)err;
	if (sum)
		memset(sum, 0, sizeof(*sum));
	return 0;
}

static int fake_disk(const char *dir, double *bytes)
{
	(void)dir;
	*bytes = 50.0 * 1024 * 1024 * 1024;
	return 0;
}

static void nap(void)
{
	nanosleep(&(struct timespec){ .tv_nsec = 20000000 }, NULL);
}

/* What the loop does with a key, minus the terminal: the help overlay, then the screen. */
static void press(struct fts_session *s, int k)
{
	const struct fts_screen_ops *op = fts_session_screen(s->cur);
	unsigned r;

	if (s->help) {
		fts_session_help_key(s, k);
		return;
	}
	if (k == '?' && !op->full) {
		s->help = 1;
		return;
	}
	r = op->key(s, k);
	fts_session_follow(s, r);
}

/* Let the screen's workers finish: tick until it has news (at most a minute). */
static void settle(struct fts_session *s, int ticks)
{
	const struct fts_screen_ops *op = fts_session_screen(s->cur);

	for (int i = 0; op->tick && i < ticks; i++)
		op->tick(s);
}

static void wait_export(struct fts_session *s)
{
	for (int i = 0; i < 3000; i++, nap()) {
		if (fts_screen_export.tick(s) & FTS_RX_REDRAW)
			return;
	}
}

static int parse(const char *sz, int *w, int *h)
{
	return sscanf(sz, "%dx%d", w, h) == 2 && *w >= 20 && *h >= 6 ? 0 : -1;
}

int main(int argc, char **argv)
{
	static char stat1[4096], stat2[4096], meminfo[4096];
	struct fts_machine m = { .probe = fake_probe, .rec_start = fake_start, .rec_health = fake_health,
				 .rec_stop = fake_stop, .disk_free = fake_disk, .proc_root = "/nonexistent",
				 .home_dir = ".", .cwd = "/captures" };
	static const enum fts_scr scr_of[] = { FTS_SCR_HOME, FTS_SCR_SETUP, FTS_SCR_RECORD, FTS_SCR_EXPORT };
	static const char *const names[] = { "home", "setup", "record", "export" };
	struct fts_session s;
	const char *env_cpus = getenv("FTS_SHOT_NCPUS"), *env_top = getenv("FTS_SHOT_TOPN");
	struct fts_grid g = { 0 };
	int w, h, nk = 0, keys[256], which = -1;

	if (argc < 4 || parse(argv[2], &w, &h)) {
		fprintf(stderr, "usage: screen_shot home|setup|record|export WxH FIXTURES [KEYS] [HOME_DIR|INPUT]\n");
		return 2;
	}
	if (env_cpus && atoi(env_cpus) > 0)
		NCPUS = atoi(env_cpus);
	if (env_top && atoi(env_top) > 0)
		TOPN = atoi(env_top);
	for (int i = 0; i < 4; i++)
		which = strcmp(argv[1], names[i]) ? which : i;
	if (which < 0 || (argc > 4 && (nk = fts_keys_parse(argv[4], keys, 256)) < 0))
		return 2;
	snprintf(stat1, sizeof(stat1), "%s/stat1", argv[3]);
	snprintf(stat2, sizeof(stat2), "%s/stat2", argv[3]);
	snprintf(meminfo, sizeof(meminfo), "%s/meminfo", argv[3]);
	m.proc_stat = stat1;
	m.proc_meminfo = meminfo;
	if (which == 0 && argc > 5)
		m.home_dir = argv[5];
	fts_session_init(&s, scr_of[which], &m, fts_locale_utf8(), 0, 1);
	s.w = w;
	s.h = h;
	if (which == 2) {
		fts_record_opts_init(&s.rec_opts);
		s.rec_opts.output = "cap.dat";
		s.rec_opts.duration_s = 60;
		snprintf(s.setup_cmdline, sizeof(s.setup_cmdline), "ftscope record --record_time 60 -o cap.dat");
	}
	if (which == 3)
		snprintf(s.export_input, sizeof(s.export_input), "%s", argc > 5 ? argv[5] : "trace.dat");
	fts_session_screen(s.cur)->enter(&s);
	fts_session_resize(&s, w, h);
	if (which == 1) {
		m.proc_stat = stat2; /* the second sample: utilisation since the first */
		settle(&s, 1);
	}
	if (which == 2)
		settle(&s, 8);
	if (which == 3)
		wait_export(&s);
	for (int i = 0; i < nk; i++)
		press(&s, keys[i]);
	if (which == 1 && argc > 4 && strchr(argv[4], 'p')) {
		/* the probe records for a second of the real clock, then the tick measures it */
		nanosleep(&(struct timespec){ .tv_sec = 1, .tv_nsec = 100000000 }, NULL);
		settle(&s, 1);
	}
	if (fts_grid_resize(&g, w, h, s.theme.utf8))
		return 1;
	fts_session_compose(&s, &g);
	if (fts_grid_write(&g, stdout, 0) || fflush(stdout))
		return 1;
	while (fts_session_leave(&s, 0))
		nap();
	fts_grid_free(&g);
	return 0;
}
