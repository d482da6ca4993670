// SPDX-License-Identifier: MIT
/*
 * rec_shot.c - the setup, record and saved screens as text on a fake
 * machine, for the loss, advice and setup-defect tests (rec_screens.sh):
 * 2 CPUs, root, tracefs; a fake recorder whose CPU 1 loses events, whose
 * trace-cmd backend refuses to start (as this kernel's does), and which
 * writes the options it was started with to $REC_SHOT_OPTS (an option dump:
 * what the setup hands the recorder).
 *
 * usage: rec_shot setup|record WxH FIXTURES KEYS
 *   KEYS as --keys; '~' waits for the screen's workers (the 1 s probe, a stop).
 *   $REC_SHOT_CPUS / $REC_SHOT_OUTPUT preset the setup as record --tui flags do;
 *   $REC_SHOT_LOSSLESS=1: nothing is lost; $REC_SHOT_FAIL=1: the recorder refuses to start.
 *   $REC_SHOT_FLIGHT=S (issue 33): record is a flight recording, 4 segments of S seconds kept.
 *   $REC_SHOT_NCPUS=N (issue 20): a machine of N CPUs (2 when unset) on 2 NUMA nodes
 *   beyond 2 CPUs, whose feed varies per CPU (see health()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui/widgets/keys.h"
#include "tui/widgets/locale.h"
#include "tui/session/session.h"

/* The fake machine's CPUs: $REC_SHOT_NCPUS, else 2. */
static int NCPUS = 2;

static const struct fts_record_event_cap events[] = {
	{ "sched", "sched/sched_switch", 1 }, { "sched", "sched/sched_wakeup", 1 },
	{ "sched", "sched/sched_stat_runtime", 1 }, { "irq", "irq/irq_handler_entry", 1 },
	{ "irq", "irq/irq_handler_exit", 1 }, { "irq", "irq/softirq_entry", 1 },
	{ "futex", "syscalls/sys_enter_futex", 1 },
};

static int probe(const struct fts_record_opts *o, struct fts_record_caps *c, struct fts_err *err)
{
	/* the real probe refuses a CPU list with offline CPUs: the setup must not pass it */
	if (o && o->cpus && *o->cpus)
		return fts_err_set(err, -EINVAL, "fake probe: called with a CPU list");
	memset(c, 0, sizeof(*c));
	c->root = c->tracefs_mounted = c->instances = c->mono_raw = c->native_ok = c->trace_cmd = 1;
	snprintf(c->tracing_dir, sizeof(c->tracing_dir), "/sys/kernel/tracing");
	c->nevents = (int)(sizeof(events) / sizeof(events[0]));
	memcpy(c->events, events, sizeof(events));
	c->cpu = calloc(NCPUS, sizeof(*c->cpu));
	if (!c->cpu)
		return -ENOMEM;
	c->ncpus = NCPUS;
	for (int i = 0; i < NCPUS; i++) {
		c->cpu[i].cpu = i;
		c->cpu[i].node = NCPUS > 2 ? i / ((NCPUS + 1) / 2) : 0;
	}
	c->nnodes = NCPUS > 2 ? 2 : 1;
	return 0;
}

static int recorder;
static int calls;

static int start(const struct fts_record_opts *o, struct fts_recorder **out, struct fts_err *err)
{
	const char *dump = getenv("REC_SHOT_OPTS");

	if (getenv("REC_SHOT_FAIL"))
		return fts_err_set(err, -EISDIR, "cap.dat: is a directory; give a file name");
	if (o->backend == FTS_BACKEND_TRACE_CMD)
		return fts_err_set(err, -EPERM, "trace-cmd: Operation not permitted: Can't enable ftrace");
	if (dump) {
		FILE *f = fopen(dump, "a");

		if (f) {
			fprintf(f, "cpus=%s bf_size_kb=%u sched=%d irq=%d futex=%d exclude=%s live_top=%d nspid=%d pid_mapping=%s output=%s\n",
				o->cpus ? o->cpus : "", o->bf_size_kb, o->sched, o->irq, o->futex,
				o->exclude ? o->exclude : "", o->live_top, o->nspid,
				o->pid_mapping ? o->pid_mapping : "", strstr(o->output, "ftscope-probe-") ? "(probe)" : o->output);
			fclose(f);
		}
	}
	calls = 0;
	*out = (struct fts_recorder *)&recorder;
	return 0;
}

/*
 * Snapshot n: one second apart; CPU 1 writes 1 MB/s and, unless lossless, loses 1000 events a second.
 * On a wide machine (more than 2 CPUs) the rest vary so an order shows: CPU i runs
 * (i * 37 % 101) * 1000 events/s, every 16th CPU from 5 on loses i * 10 events a second
 * (CPU 165 the most), and CPU 150 writes the largest figures (tens of millions of events).
 */
static int health(struct fts_recorder *r, struct fts_record_health *h)
{
	int n = ++calls, lossy = !getenv("REC_SHOT_LOSSLESS");

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
	if (getenv("REC_SHOT_FLIGHT")) {
		h->flight_segments = n < 4 ? n : 4;
		h->flight_disk_bytes = (uint64_t)h->flight_segments * (60u << 20);
	}
	for (int i = 0; i < NCPUS; i++) {
		struct fts_record_cpu_health *c = &h->cpu[i];

		c->cpu = i;
		c->events = (uint64_t)(10000 * (i + 1) * n);
		c->events_per_s = 10000.0 * (i + 1);
		/* CPU 0's 1008.0 KiB is the widest byte count: it must not shift the columns after it */
		c->bytes_written = i ? (uint64_t)1048576 * (uint64_t)n : 1032192;
		c->fill = i ? 0.95 : 0.1;
		if (i >= 2) {
			c->events_per_s = (double)(i * 37 % 101) * 1000.0;
			c->events = (uint64_t)c->events_per_s * (uint64_t)n;
			c->bytes_written = c->events * 40;
			c->fill = (double)(i * 13 % 100) / 100.0;
			if (i == 150) {
				c->events_per_s = 987654;
				c->events = 98765432 + (uint64_t)n;
				c->bytes_written = (uint64_t)3 << 30;
			}
			if (i % 16 == 5 && lossy) {
				c->overrun = (uint64_t)(i * 10) * (uint64_t)n;
				c->lost = c->overrun;
				c->lost_delta = (uint64_t)(i * 10);
			}
		}
		if (i == 1 && lossy) {
			c->overrun = 900 * (uint64_t)n;
			c->dropped = 100 * (uint64_t)n;
			c->lost = c->overrun + c->dropped;
			c->lost_delta = 1000;
		}
		h->events += c->events;
		h->events_per_s += c->events_per_s;
		h->bytes_written += c->bytes_written;
		h->lost += c->lost;
		h->lost_delta += c->lost_delta;
	}
	return 0;
}

static int stop(struct fts_recorder *r, enum fts_record_stop_mode mode, fts_record_progress_fn fn, void *arg,
		struct fts_record_summary *sum, struct fts_err *err)
{
	(void)mode; (void)fn; (void)arg; (void)err;
	if (!sum)
		return 0;
	memset(sum, 0, sizeof(*sum));
	health(r, &sum->health);
	sum->duration_s = sum->health.elapsed_s;
	sum->file_size = sum->health.bytes_written + 65536;
	snprintf(sum->output, sizeof(sum->output), "cap.dat");
	return 0;
}

static int disk(const char *dir, double *bytes)
{
	(void)dir;
	*bytes = 50.0 * 1024 * 1024 * 1024;
	return 0;
}

static void nap(void)
{
	nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
}

/* The loop minus the terminal: the help overlay, then the screen, then the switch it asks for. */
static void press(struct fts_session *s, int k)
{
	const struct fts_screen_ops *op = fts_session_screen(s->cur);

	if (s->help) {
		fts_session_help_key(s, k);
		return;
	}
	if (k == '?' && !op->full) {
		s->help = 1;
		return;
	}
	fts_session_follow(s, op->key(s, k));
}

/* The screen's ticks for @ms of the real clock (the probe records 1 s; a stop runs in a thread). */
static void run(struct fts_session *s, int ms)
{
	for (int t = 0; t < ms; t += 10, nap()) {
		const struct fts_screen_ops *op = fts_session_screen(s->cur);

		if (op->tick)
			fts_session_follow(s, op->tick(s));
	}
}

int main(int argc, char **argv)
{
	static char stat1[4096], meminfo[4096], keys[1024];
	struct fts_machine m = { .probe = probe, .rec_start = start, .rec_health = health, .rec_stop = stop,
				 .disk_free = disk, .proc_root = "/nonexistent", .home_dir = ".", .cwd = "/captures" };
	struct fts_record_opts preset;
	struct fts_session s;
	struct fts_grid g = { 0 };
	int w, h, rec;
	char *seg;

	if (getenv("REC_SHOT_NCPUS") && atoi(getenv("REC_SHOT_NCPUS")) > 0)
		NCPUS = atoi(getenv("REC_SHOT_NCPUS"));
	if (argc < 5 || sscanf(argv[2], "%dx%d", &w, &h) != 2 || w < 20 || h < 6) {
		fprintf(stderr, "usage: rec_shot setup|record WxH FIXTURES KEYS\n");
		return 2;
	}
	rec = !strcmp(argv[1], "record");
	snprintf(stat1, sizeof(stat1), "%s/stat1", argv[3]);
	snprintf(meminfo, sizeof(meminfo), "%s/meminfo", argv[3]);
	m.proc_stat = stat1;
	m.proc_meminfo = meminfo;
	fts_session_init(&s, rec ? FTS_SCR_RECORD : FTS_SCR_SETUP, &m, fts_locale_utf8(), 0, 1);
	s.w = w;
	s.h = h;
	fts_record_opts_init(&preset);
	preset.duration_s = 30;
	preset.cpus = getenv("REC_SHOT_CPUS");
	preset.output = getenv("REC_SHOT_OUTPUT");
	s.preset = &preset;
	if (rec) {
		fts_record_opts_init(&s.rec_opts);
		s.rec_opts.output = "cap.dat";
		if (getenv("REC_SHOT_FLIGHT")) { /* $REC_SHOT_FLIGHT=SECONDS: a flight ring of 4 such segments */
			s.rec_opts.flight_segment_s = atof(getenv("REC_SHOT_FLIGHT"));
			s.rec_opts.flight_keep = 4;
		}
		snprintf(s.setup_cmdline, sizeof(s.setup_cmdline), "ftscope record -o cap.dat");
	}
	fts_session_screen(s.cur)->enter(&s);
	fts_session_resize(&s, w, h);
	run(&s, rec ? 100 : 0);
	/* a frame before each key, as the loop draws one: keys that page (PgDn) page by what it showed */
	if (fts_grid_resize(&g, w, h, s.theme.utf8))
		return 1;
	fts_session_compose(&s, &g);
	snprintf(keys, sizeof(keys), "%s", argv[4]);
	for (seg = keys; seg;) {
		char *tilde = strchr(seg, '~');
		int k[256], nk;

		if (tilde)
			*tilde = 0;
		nk = fts_keys_parse(seg, k, 256);
		if (nk < 0)
			return 2;
		for (int i = 0; i < nk; i++) {
			press(&s, k[i]);
			run(&s, 20);
			fts_session_compose(&s, &g);
		}
		if (tilde)
			run(&s, 1300);
		seg = tilde ? tilde + 1 : NULL;
	}
	fts_session_compose(&s, &g);
	if (fts_grid_write(&g, stdout, 0) || fflush(stdout))
		return 1;
	while (fts_session_leave(&s, 0))
		nap();
	fts_grid_free(&g);
	return 0;
}
