// SPDX-License-Identifier: MIT
/*
 * The recorder's UI-facing API through the public header only, on the real
 * tracefs (as root; skipped otherwise): the probe, worst-first ordering,
 * pure health snapshots from the recorder's own sampler, the duration
 * deadline, a stop with progress that can cut the file short, and health
 * asked from other threads while the stop frees what it reads (run under
 * TSan by the `threads` label).
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <ftscope/record.h>

static char dir[] = "/tmp/fts-recapi-XXXXXX";

static void sleep_ms(long ms)
{
	nanosleep(&(struct timespec){ ms / 1000, ms % 1000 * 1000000L }, NULL);
}

static void need_root(void)
{
	if (geteuid() != 0)
		skip();
}

static void test_worst_cpus(void **state)
{
	struct fts_record_cpu_health c[5] = {
		{ .cpu = 0, .lost = 0, .fill = 0.9 },
		{ .cpu = 1, .lost = 5, .fill = 0.1 },
		{ .cpu = 2, .lost = 0, .fill = 0.2 },
		{ .cpu = 3, .lost = 7, .fill = 0.0 },
		{ .cpu = 4, .lost = 5, .fill = 0.5 },
	};
	struct fts_record_health h = { .ncpus = 5, .cpu = c };
	int idx[5], want[5] = { 3, 4, 1, 0, 2 };

	(void)state;
	assert_int_equal(fts_record_worst_cpus(&h, idx, 5), 5);
	for (int i = 0; i < 5; i++)
		assert_int_equal(idx[i], want[i]);
	assert_int_equal(fts_record_worst_cpus(&h, idx, 2), 2);
	assert_int_equal(idx[0], 3);
	assert_int_equal(idx[1], 4);
	h.ncpus = 0;
	assert_int_equal(fts_record_worst_cpus(&h, idx, 2), 0);
}

static void test_probe(void **state)
{
	struct fts_record_opts o;
	struct fts_record_caps caps;
	struct fts_err err = { 0 };
	int sched_switch = 0;

	(void)state;
	need_root();
	fts_record_opts_init(&o);
	assert_int_equal(fts_record_probe(&o, &caps, &err), 0);
	assert_true(caps.root);
	assert_true(caps.tracefs_mounted || caps.tracefs_mountable);
	assert_true(caps.native_ok);
	assert_string_equal(caps.problem, "");
	assert_true(caps.instances && caps.mono_raw);
	assert_int_equal(caps.ncpus, (int)sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(caps.nnodes >= 1);
	for (int i = 0; i < caps.ncpus; i++)
		assert_true(caps.cpu[i].node >= -1 && (i == 0 || caps.cpu[i].cpu > caps.cpu[i - 1].cpu));
	assert_int_equal(caps.nevents, 16);
	for (int i = 0; i < caps.nevents; i++)
		if (!strcmp(caps.events[i].name, "sched/sched_switch"))
			sched_switch = caps.events[i].available;
	assert_true(sched_switch || !caps.tracefs_mounted);
	fts_record_caps_release(&caps);
	fts_record_caps_release(&caps);

	o.cpus = "3-1";
	assert_int_equal(fts_record_probe(&o, &caps, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "descending"));
	fts_record_caps_release(&caps);
}

struct seen {
	int calls[3];
	enum fts_record_stop_mode answer;
};

static enum fts_record_stop_mode on_progress(const struct fts_record_progress *p, void *arg)
{
	struct seen *s = arg;

	assert_true(p->stage <= FTS_REC_STAGE_RENDER);
	if (p->total)
		assert_true(p->done <= p->total);
	s->calls[p->stage]++;
	return p->stage == FTS_REC_STAGE_ASSEMBLE ? s->answer : FTS_STOP_DRAIN;
}

static struct fts_recorder *start(const char *name, double duration)
{
	static char out[128];
	struct fts_record_opts o;
	struct fts_recorder *r = NULL;
	struct fts_err err = { 0 };

	fts_record_opts_init(&o);
	snprintf(out, sizeof(out), "%s/%s", dir, name);
	o.output = out;
	o.cpus = "0";
	o.bf_size_kb = 1024;
	o.duration_s = duration;
	if (fts_record_start(&o, &r, &err))
		fail_msg("start: %s", err.msg);
	return r;
}

static void test_health_is_a_pure_snapshot(void **state)
{
	struct fts_record_health a, b;
	struct fts_record_summary sum;
	struct fts_err err = { 0 };
	struct seen s = { { 0 }, FTS_STOP_DRAIN };
	struct fts_recorder *r;

	(void)state;
	need_root();
	r = start("h.dat", 0);
	sleep_ms(1300);
	assert_int_equal(fts_record_health(r, &a), 0);
	assert_int_equal(fts_record_health(r, &b), 0);
	/* Two callers in a row see the same sample and the same rates. */
	assert_true(a.sample >= 2);
	if (a.sample == b.sample) {
		assert_true(a.events_per_s == b.events_per_s);
		assert_true(a.cpu[0].events == b.cpu[0].events);
	}
	assert_true(a.period_s > 0.3 && a.period_s < 1.5);
	assert_int_equal(a.ncpus, 1);
	assert_int_equal(a.cpu[0].cpu, 0);
	assert_true(a.counters);
	assert_false(a.done);
	assert_string_equal(a.backend, "tracefs");
	fts_record_health_release(&a);
	fts_record_health_release(&b);
	fts_record_health_release(&b);
	assert_int_equal(fts_record_stop_progress(r, FTS_STOP_DRAIN, on_progress, &s, &sum, &err), 0);
	assert_true(s.calls[FTS_REC_STAGE_DRAIN] >= 1);
	assert_true(s.calls[FTS_REC_STAGE_ASSEMBLE] >= 1);
	assert_int_equal(s.calls[FTS_REC_STAGE_RENDER], 0);
	assert_int_equal(sum.cut, 0);
	assert_non_null(sum.health.cpu);
	assert_int_equal(sum.health.ncpus, 1);
	assert_true(sum.file_size > 0);
	fts_record_summary_release(&sum);
	fts_record_summary_release(&sum);
}

/* Threads asking for health until the stop's assembly says stop (the contract: not after stop returns). */
struct hammer {
	struct fts_recorder *r;
	atomic_int quit;
	atomic_long calls;
	pthread_t th[2];
	int joined;
};

static void *hammer_main(void *arg)
{
	struct hammer *hm = arg;

	while (!atomic_load(&hm->quit)) {
		struct fts_record_health h;

		if (fts_record_health(hm->r, &h) == 0)
			atomic_fetch_add(&hm->calls, 1);
		fts_record_health_release(&h);
	}
	return NULL;
}

/* The stop's progress: at the first assembly report (top freed, instance gone) the hammers end. */
static enum fts_record_stop_mode hammer_progress(const struct fts_record_progress *p, void *arg)
{
	struct hammer *hm = arg;

	if (p->stage == FTS_REC_STAGE_ASSEMBLE && !hm->joined) {
		atomic_store(&hm->quit, 1);
		for (int i = 0; i < 2; i++)
			pthread_join(hm->th[i], NULL);
		hm->joined = 1;
	}
	return FTS_STOP_DRAIN;
}

static void test_health_while_stopping(void **state)
{
	static char out[128], map[128];
	struct hammer hm = { 0 };
	struct fts_record_opts o;
	struct fts_record_summary sum;
	struct fts_err err = { 0 };

	(void)state;
	need_root();
	fts_record_opts_init(&o);
	snprintf(out, sizeof(out), "%s/hs.dat", dir);
	snprintf(map, sizeof(map), "%s/hs.json", dir);
	o.output = out;
	o.cpus = "0";
	o.bf_size_kb = 1024;
	/* the live top and the pid mapper: what the stop frees while health reads it */
	o.live_top = 1;
	o.nspid = 1;
	o.pid_mapping = map;
	if (fts_record_start(&o, &hm.r, &err))
		fail_msg("start: %s", err.msg);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&hm.th[i], NULL, hammer_main, &hm), 0);
	sleep_ms(700);
	assert_int_equal(fts_record_stop_progress(hm.r, FTS_STOP_DRAIN, hammer_progress, &hm, &sum, &err), 0);
	assert_true(hm.joined);
	assert_true(atomic_load(&hm.calls) > 0);
	assert_true(sum.file_size > 0);
	fts_record_summary_release(&sum);
}

static void test_duration_ends_the_capture(void **state)
{
	struct fts_record_health h;
	struct fts_record_summary sum;
	struct fts_err err = { 0 };
	struct fts_recorder *r;

	(void)state;
	need_root();
	r = start("d.dat", 1.0);
	sleep_ms(1500);
	assert_int_equal(fts_record_health(r, &h), 0);
	assert_true(h.done);
	assert_true(h.elapsed_s >= 0.99 && h.elapsed_s < 1.2);
	fts_record_health_release(&h);
	assert_int_equal(fts_record_stop(r, FTS_STOP_DRAIN, &sum, &err), 0);
	assert_true(sum.duration_s >= 0.99 && sum.duration_s < 1.2);
	fts_record_summary_release(&sum);
}

static void test_stop_can_cut(void **state)
{
	struct fts_record_summary sum;
	struct fts_err err = { 0 };
	struct seen s = { { 0 }, FTS_STOP_CUT };
	struct fts_recorder *r;

	(void)state;
	need_root();
	r = start("c.txt", 0);
	sleep_ms(800);
	assert_int_equal(fts_record_stop_progress(r, FTS_STOP_DRAIN, on_progress, &s, &sum, &err), 0);
	assert_int_equal(sum.cut, 1);
	/* Cut while assembling: the text is not rendered any further. */
	assert_true(s.calls[FTS_REC_STAGE_RENDER] <= 1);
	fts_record_summary_release(&sum);
}

static void test_bad_options(void **state)
{
	struct fts_record_opts o;
	struct fts_recorder *r = (struct fts_recorder *)&o;
	struct fts_err err = { 0 };

	(void)state;
	fts_record_opts_init(&o);
	o.output = "";
	assert_int_equal(fts_record_start(&o, &r, &err), -EINVAL);
	assert_null(r);
	assert_null(strstr(err.msg, "--"));
	fts_record_opts_init(&o);
	o.sched = o.irq = 0;
	assert_int_equal(fts_record_start(&o, &r, &err), -EINVAL);
	assert_null(strstr(err.msg, "--"));
	fts_record_opts_init(&o);
	o.duration_s = 0.0 / 0.0;
	assert_int_equal(fts_record_start(&o, &r, &err), -EINVAL);
	fts_record_opts_init(&o);
	o.bf_size_kb = 1u << 23;
	assert_int_equal(fts_record_start(&o, &r, &err), -EINVAL);
	assert_null(strstr(err.msg, "--"));
	/* exclude: only events ftscope records, named clearly; probe says the same */
	fts_record_opts_init(&o);
	o.exclude = "sched/sched_stat_runtime,sched/nosuch";
	assert_int_equal(fts_record_start(&o, &r, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "'sched/nosuch'"));
	{
		struct fts_record_caps caps;

		assert_int_equal(fts_record_probe(&o, &caps, &err), -EINVAL);
		fts_record_caps_release(&caps);
	}
	fts_record_opts_init(&o);
	o.reader_nice = 5;
	assert_int_equal(fts_record_start(&o, &r, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "nice"));
}

/* Leaving out every event of the chosen groups leaves nothing to record. */
static void test_exclude_all(void **state)
{
	struct fts_record_opts o;
	struct fts_recorder *r = NULL;
	struct fts_err err = { 0 };
	char out[64];

	(void)state;
	need_root();
	snprintf(out, sizeof(out), "%s/none.dat", dir);
	fts_record_opts_init(&o);
	o.output = out;
	o.irq = 0;
	o.exclude = "sched/sched_switch,sched:sched_waking,sched/sched_wakeup,sched/sched_wakeup_new,"
		    "sched/sched_migrate_task,sched/sched_stat_runtime,sched/sched_process_fork,"
		    "sched/sched_process_exec,sched/sched_process_exit";
	assert_int_equal(fts_record_start(&o, &r, &err), -EINVAL);
	assert_null(r);
	assert_non_null(strstr(err.msg, "left out"));
}

/* Advice: peak rate x 2 s, a power of two, at least twice the buffer in use. */
static void test_advice_kb(void **state)
{
	struct fts_record_cpu_health c[2] = {
		{ .cpu = 0, .peak_bytes_per_s = 1.5 * 1024 * 1024 },
		{ .cpu = 1, .peak_bytes_per_s = 0.2 * 1024 * 1024 },
	};
	struct fts_record_health h = { .ncpus = 2, .cpu = c };

	(void)state;
	assert_int_equal(fts_record_advice_kb(&h, 256), 4096);    /* 3 MiB -> 4 MiB */
	assert_int_equal(fts_record_advice_kb(&h, 4096), 8192);   /* never below twice the current */
	c[0].peak_bytes_per_s = c[1].peak_bytes_per_s = 0;
	assert_int_equal(fts_record_advice_kb(&h, 16), 32);
	assert_int_equal(fts_record_advice_kb(&h, 1u << 22), 1u << 22);
}

/* The loss while stopped reaches the loss model (fts_loss_cpu.stopped). */
static void test_health_loss_stopped(void **state)
{
	struct fts_record_cpu_health c[1] = {
		{ .cpu = 3, .overrun = 90, .commit_overrun = 5, .dropped = 5, .lost = 100, .lost_stopped = 70 },
	};
	struct fts_record_health h = { .ncpus = 1, .cpu = c, .counters = 1 };
	struct fts_loss l;
	char buf[128];

	(void)state;
	fts_loss_init(&l);
	assert_int_equal(fts_record_health_loss(&h, &l), 0);
	assert_true(l.ncpu >= 4);
	assert_int_equal(l.cpu[3].stopped, 70);
	assert_int_equal(fts_loss_cpu_events(&l.cpu[3]), 100);
	assert_string_equal(fts_loss_text(&l, 2, buf, sizeof(buf)), "100 events (CPU 3: 100)");
	fts_loss_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worst_cpus),
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_exclude_all),
		cmocka_unit_test(test_advice_kb),
		cmocka_unit_test(test_health_loss_stopped),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_health_is_a_pure_snapshot),
		cmocka_unit_test(test_health_while_stopping),
		cmocka_unit_test(test_duration_ends_the_capture),
		cmocka_unit_test(test_stop_can_cut),
	};
	int rc;

	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (system("rm -rf /tmp/fts-recapi-*") != 0)
		fprintf(stderr, "test_record_api: could not remove /tmp/fts-recapi-*\n");
	return rc;
}
