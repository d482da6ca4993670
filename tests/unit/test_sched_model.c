// SPDX-License-Identifier: MIT
/* Unit tests for the sched model: every transition, through a capturing sink. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "ftscope/sched_model.h"
#include "ftscope/stats.h"
#include "core/model/timemap_impl.h"

#define MAX_LANES 64
#define MAX_ITEMS 512

struct cap_lane {
	uint32_t id;
	enum fts_lane_group group;
	int32_t sort_index;
	char tid[96];
};

struct cap_item {
	uint32_t lane;
	enum fts_item_kind kind;
	uint64_t ts, dur;
	char name[96];
	int nargs;
	char key[FTS_ITEM_MAX_ARGS][32];
	char val[FTS_ITEM_MAX_ARGS][96];
};

struct cap_sink {
	struct fts_sink s;
	struct cap_lane lanes[MAX_LANES];
	int nlanes;
	struct cap_item items[MAX_ITEMS];
	int nitems;
	struct fts_flow flows[16];
	int nflows;
	int lean;                 /* the model under test is lean */
};

static int cap_lane(struct fts_sink *s, const struct fts_lane *l, struct fts_err *err)
{
	struct cap_sink *c = (struct cap_sink *)s;
	struct cap_lane *o;

	(void)err;
	assert_true(c->nlanes < MAX_LANES);
	assert_int_equal(l->id, (uint32_t)c->nlanes); /* dense, in declaration order */
	o = &c->lanes[c->nlanes++];
	o->id = l->id;
	o->group = l->group;
	o->sort_index = l->sort_index;
	snprintf(o->tid, sizeof(o->tid), "%s", l->tid);
	return 0;
}

/* The kind every item carries must agree with the name Insight sees. */
static void check_kind(const struct fts_item *it, int lean)
{
	static const char *const names[FTS_ITEM__COUNT] = {
		[FTS_ITEM_SWITCH] = "sched_switch", [FTS_ITEM_IRQ] = "irq",
		[FTS_ITEM_SOFTIRQ] = "softirq", [FTS_ITEM_LOST] = "lost events",
		[FTS_ITEM_RUNNING] = "Running", [FTS_ITEM_RUNNABLE] = "Runnable",
		[FTS_ITEM_SLEEPING] = "Sleeping", [FTS_ITEM_BLOCKED] = "Sleeping",
		[FTS_ITEM_MARKER] = "Sleeping", [FTS_ITEM_NODATA] = "no data",
	};

	assert_true(it->kind < FTS_ITEM__COUNT);
	if (lean)
		return;   /* a lean model's items are for stats alone: test_lean checks them */
	if (it->kind == FTS_ITEM_RUN)
		assert_non_null(strrchr(it->name, ':'));
	else
		assert_string_equal(it->name, names[it->kind]);
	if (it->kind == FTS_ITEM_BLOCKED || it->kind == FTS_ITEM_SLEEPING) {
		const char *st = NULL;

		for (int i = 0; i < it->nargs; i++)
			if (!strcmp(it->args[i].key, "state"))
				st = it->args[i].val;
		assert_non_null(st);
		assert_int_equal(it->kind == FTS_ITEM_BLOCKED, strchr(st, 'D') != NULL);
	}
	if (it->kind == FTS_ITEM_MARKER || it->kind == FTS_ITEM_SWITCH || it->kind == FTS_ITEM_LOST)
		assert_int_equal(it->dur, 0);
}

static int cap_item(struct fts_sink *s, const struct fts_item *it, struct fts_err *err)
{
	struct cap_sink *c = (struct cap_sink *)s;
	struct cap_item *o;

	(void)err;
	assert_true(c->nitems < MAX_ITEMS);
	assert_true(it->lane < (uint32_t)c->nlanes); /* declared before its first item */
	assert_true(it->ts > 0);
	check_kind(it, c->lean);
	o = &c->items[c->nitems++];
	o->lane = it->lane;
	o->kind = it->kind;
	o->ts = it->ts;
	o->dur = it->dur;
	snprintf(o->name, sizeof(o->name), "%s", it->name);
	o->nargs = it->nargs;
	for (int i = 0; i < it->nargs; i++) {
		assert_non_null(it->args[i].key);
		assert_non_null(it->args[i].val);
		snprintf(o->key[i], sizeof(o->key[i]), "%s", it->args[i].key);
		snprintf(o->val[i], sizeof(o->val[i]), "%s", it->args[i].val);
	}
	return 0;
}

static int cap_flow(struct fts_sink *s, const struct fts_flow *f, struct fts_err *err)
{
	struct cap_sink *c = (struct cap_sink *)s;

	(void)err;
	assert_true(c->nflows < 16);
	assert_true(f->from_lane < (uint32_t)c->nlanes && f->to_lane < (uint32_t)c->nlanes);
	assert_int_equal(f->id, (uint64_t)c->nflows + 1);
	assert_string_equal(f->name, "wakeup");
	c->flows[c->nflows] = *f;
	c->flows[c->nflows++].name = "wakeup";
	return 0;
}

static struct cap_sink sink;
static struct fts_timemap tm;
static struct fts_model *model;
static struct fts_model_opts mopts;

static void start(void)
{
	struct fts_err err = { 0 };

	memset(&sink, 0, sizeof(sink));
	sink.s.lane = cap_lane;
	sink.s.item = cap_item;
	sink.s.flow = cap_flow;
	sink.lean = mopts.lean;
	mopts.tm = &tm;
	assert_int_equal(fts_model_create(&mopts, &sink.s, &model, &err), 0);
}

static int setup_raw(void **state)
{
	(void)state;
	fts_timemap_raw(&tm);
	memset(&mopts, 0, sizeof(mopts));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fts_model_free(model);
	model = NULL;
	return 0;
}

/* ---- event builders ---- */

static void feed(const struct fts_event *ev)
{
	assert_int_equal(fts_model_event(model, ev, NULL), 0);
}

static void finish(void)
{
	assert_int_equal(fts_model_finish(model, NULL), 0);
}

static void base(struct fts_event *ev, enum fts_ev_type type, uint64_t ts, int cpu,
		 const char *comm, int pid)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->ts = ts;
	ev->cpu = cpu;
	ev->pid = pid;
	snprintf(ev->comm, sizeof(ev->comm), "%s", comm);
}

static void sw(uint64_t ts, int cpu, const char *prev, int prev_pid, const char *state,
	       const char *next, int next_pid)
{
	struct fts_event ev;

	base(&ev, FTS_EV_SWITCH, ts, cpu, prev, prev_pid);
	snprintf(ev.u.sw.prev_comm, sizeof(ev.u.sw.prev_comm), "%s", prev);
	ev.u.sw.prev_pid = prev_pid;
	ev.u.sw.prev_prio = 120;
	snprintf(ev.u.sw.prev_state, sizeof(ev.u.sw.prev_state), "%s", state);
	snprintf(ev.u.sw.next_comm, sizeof(ev.u.sw.next_comm), "%s", next);
	ev.u.sw.next_pid = next_pid;
	ev.u.sw.next_prio = 110;
	feed(&ev);
}

static void wake(enum fts_ev_type type, uint64_t ts, int cpu, const char *cur, int cur_pid,
		 const char *comm, int pid, int target)
{
	struct fts_event ev;

	base(&ev, type, ts, cpu, cur, cur_pid);
	snprintf(ev.u.task.comm, sizeof(ev.u.task.comm), "%s", comm);
	ev.u.task.pid = pid;
	ev.u.task.prio = 120;
	ev.u.task.target_cpu = target;
	feed(&ev);
}

static void simple(enum fts_ev_type type, uint64_t ts, int cpu, const char *cur, int cur_pid,
		   int a, int b)
{
	struct fts_event ev;

	base(&ev, type, ts, cpu, cur, cur_pid);
	switch (type) {
	case FTS_EV_IRQ_ENTRY:
		ev.u.irq.irq = a;
		snprintf(ev.u.irq.name, sizeof(ev.u.irq.name), "eth%d", a);
		break;
	case FTS_EV_IRQ_EXIT:
		ev.u.irq.irq = a;
		ev.u.irq.ret = b;
		break;
	case FTS_EV_SOFTIRQ_ENTRY:
	case FTS_EV_SOFTIRQ_EXIT:
		ev.u.softirq.vec = a;
		break;
	case FTS_EV_LOST:
		ev.u.lost.count = (uint64_t)a;
		break;
	case FTS_EV_EXIT:
		snprintf(ev.u.task.comm, sizeof(ev.u.task.comm), "%s", cur);
		ev.u.task.pid = a;
		ev.u.task.target_cpu = -1;
		break;
	case FTS_EV_STAT_RUNTIME:
		snprintf(ev.u.runtime.comm, sizeof(ev.u.runtime.comm), "%s", cur);
		ev.u.runtime.pid = cur_pid;
		ev.u.runtime.runtime = (uint64_t)a;
		ev.u.runtime.vruntime = (uint64_t)b;
		ev.u.runtime.has_vruntime = b != 0;
		break;
	case FTS_EV_MIGRATE:
		ev.u.migrate.pid = a;
		ev.u.migrate.orig_cpu = cpu;
		ev.u.migrate.dest_cpu = b;
		break;
	default:
		fail();
	}
	feed(&ev);
}

static void fork_ev(uint64_t ts, int cpu, const char *parent, int ppid, const char *child, int cpid)
{
	struct fts_event ev;

	base(&ev, FTS_EV_FORK, ts, cpu, parent, ppid);
	snprintf(ev.u.fork.parent_comm, sizeof(ev.u.fork.parent_comm), "%s", parent);
	ev.u.fork.parent_pid = ppid;
	snprintf(ev.u.fork.child_comm, sizeof(ev.u.fork.child_comm), "%s", child);
	ev.u.fork.child_pid = cpid;
	feed(&ev);
}

static void exec_ev(uint64_t ts, int cpu, const char *old, int pid, const char *newcomm)
{
	struct fts_event ev;

	base(&ev, FTS_EV_EXEC, ts, cpu, old, pid);
	snprintf(ev.u.exec.comm, sizeof(ev.u.exec.comm), "%s", newcomm);
	ev.u.exec.pid = pid;
	ev.u.exec.old_pid = pid;
	feed(&ev);
}

/* ---- lookups ---- */

static int lane_id(const char *tid)
{
	for (int i = 0; i < sink.nlanes; i++) {
		if (!strcmp(sink.lanes[i].tid, tid))
			return (int)sink.lanes[i].id;
	}
	return -1;
}

static const char *argv_of(const struct cap_item *it, const char *key)
{
	for (int i = 0; i < it->nargs; i++) {
		if (!strcmp(it->key[i], key))
			return it->val[i];
	}
	return NULL;
}

/* The @n-th item (in time order, then emission order) named @name on lane @tid. */
static const struct cap_item *nth(const char *tid, const char *name, int n)
{
	const struct cap_item *found[MAX_ITEMS];
	int k = 0, lane = lane_id(tid);

	for (int i = 0; i < sink.nitems; i++) {
		if ((int)sink.items[i].lane == lane && (!name || !strcmp(sink.items[i].name, name)))
			found[k++] = &sink.items[i];
	}
	/* stable insertion sort by ts */
	for (int i = 1; i < k; i++) {
		for (int j = i; j > 0 && found[j - 1]->ts > found[j]->ts; j--) {
			const struct cap_item *t = found[j];

			found[j] = found[j - 1];
			found[j - 1] = t;
		}
	}
	return n < k ? found[n] : NULL;
}

static int count(const char *tid, const char *name)
{
	int n = 0, lane = lane_id(tid);

	for (int i = 0; i < sink.nitems; i++) {
		if ((int)sink.items[i].lane == lane && (!name || !strcmp(sink.items[i].name, name)))
			n++;
	}
	return n;
}

static const struct cap_item *expect_at(const char *tid, const char *name, int n, uint64_t ts,
					uint64_t dur, const char *file, int line)
{
	const struct cap_item *it = nth(tid, name, n);

	if (!it) {
		print_error("no item %d named %s on lane %s\n", n, name ? name : "*", tid);
		_fail(file, line);
	}
	_assert_int_equal(it->ts, ts, file, line);
	_assert_int_equal(it->dur, dur, file, line);
	return it;
}

#define expect(tid, name, n, ts, dur) expect_at(tid, name, n, ts, dur, __FILE__, __LINE__)

static void arg_is(const struct cap_item *it, const char *key, const char *val)
{
	const char *v = argv_of(it, key);

	if (!v)
		fail_msg("item %s at %llu has no arg %s", it->name, (unsigned long long)it->ts, key);
	assert_string_equal(v, val);
}

static void no_arg(const struct cap_item *it, const char *key)
{
	assert_null(argv_of(it, key));
}

/* Every task lane: its slices, in time order, touch exactly (end == next start). */
static void check_task_lanes_contiguous(void)
{
	for (int l = 0; l < sink.nlanes; l++) {
		const struct cap_item *prev = NULL, *it;

		if (sink.lanes[l].group != FTS_GROUP_TASK)
			continue;
		for (int i = 0; (it = nth(sink.lanes[l].tid, NULL, i)) != NULL; i++) {
			assert_true(it->dur > 0 || !strcmp(argv_of(it, "cpu"), "-1"));
			if (it->dur == 0)
				continue; /* cs_rows marker */
			if (prev)
				assert_true(prev->ts + prev->dur <= it->ts);
			prev = it;
		}
	}
}

/* ---- tests ---- */

static void test_switch_states(void **state)
{
	const struct cap_item *it;

	(void)state;
	start();
	sw(1000, 0, "swapper/0", 0, "R", "A", 10);
	sw(2000, 0, "A", 10, "R+", "B", 20);
	sw(3000, 0, "B", 20, "D", "A", 10);
	sw(4000, 0, "A", 10, "S", "C", 30);
	sw(5000, 0, "C", 30, "I", "B", 20);
	sw(6000, 0, "B", 20, "R", "swapper/0", 0);
	finish();

	/* CPU lane */
	assert_int_equal(sink.lanes[0].group, FTS_GROUP_CPU);
	assert_string_equal(sink.lanes[0].tid, "CPU 000");
	assert_int_equal(sink.lanes[0].sort_index, 0);
	assert_int_equal(count("CPU 000", "sched_switch"), 6);
	it = expect("CPU 000", "sched_switch", 1, 2000, 0);
	arg_is(it, "prev_comm", "A");
	arg_is(it, "prev_pid", "10");
	arg_is(it, "prev_prio", "120");
	arg_is(it, "prev_state", "R+");
	arg_is(it, "next_comm", "B");
	arg_is(it, "next_pid", "20");
	arg_is(it, "next_prio", "110");
	it = expect("CPU 000", "A:10", 0, 1000, 1000);
	arg_is(it, "host_pid", "10");
	arg_is(it, "end_state", "R+");
	arg_is(it, "total_runtime", "0 [ns]");
	arg_is(it, "prio", "120");
	no_arg(it, "vruntime");
	expect("CPU 000", "B:20", 0, 2000, 1000);
	it = expect("CPU 000", "A:10", 1, 3000, 1000);
	arg_is(it, "end_state", "S");
	expect("CPU 000", "C:30", 0, 4000, 1000);
	it = expect("CPU 000", "B:20", 1, 5000, 1000);
	arg_is(it, "end_state", "R");
	assert_int_equal(count("CPU 000", NULL), 6 + 5); /* idle never gets a run slice */

	/* A: Running, Runnable (preempted), Running, Sleeping (S) until the end */
	assert_int_equal(count("A:10", NULL), 4);
	it = expect("A:10", "Running", 0, 1000, 1000);
	arg_is(it, "cpu", "0");
	arg_is(it, "host_pid", "10");
	it = expect("A:10", "Runnable", 0, 2000, 1000);
	arg_is(it, "cpu", "0");
	arg_is(it, "reason", "preempted");
	no_arg(it, "wakeup_latency_ns");
	no_arg(it, "waker");
	expect("A:10", "Running", 1, 3000, 1000);
	it = expect("A:10", "Sleeping", 0, 4000, 2000);
	arg_is(it, "state", "S");
	arg_is(it, "cpu", "0");

	/* B slept in D: the raw state is kept; then its switch-in ends Sleeping */
	it = expect("B:20", "Sleeping", 0, 3000, 2000);
	arg_is(it, "state", "D");
	expect("B:20", "Running", 1, 5000, 1000);
	/* B's preemption at the last event lasted 0 ns: no zero-length slice on a task lane */
	assert_int_equal(count("B:20", "Runnable"), 0);
	arg_is(nth("A:10", "Runnable", 0), "preempted_by", "B:20");
	it = expect("C:30", "Sleeping", 0, 5000, 1000);
	arg_is(it, "state", "I");
	assert_int_equal(lane_id("swapper/0:0"), -1);
	check_task_lanes_contiguous();

	assert_int_equal(fts_model_stats(model)->cpu_slices, 5);
	assert_int_equal(fts_model_stats(model)->switch_markers, 6);
	assert_int_equal(fts_model_stats(model)->cpu_lanes, 1);
	assert_int_equal(fts_model_stats(model)->task_lanes, 3);
	assert_int_equal(fts_model_stats(model)->switch_mismatch, 0);
}

static void test_wakeups(void **state)
{
	const struct cap_item *it;

	(void)state;
	start();
	sw(1000, 0, "swapper/0", 0, "R", "S1", 40);
	sw(2000, 0, "S1", 40, "S", "W", 50);
	/* CPU 1 first seen through a waking issued by X running there */
	wake(FTS_EV_WAKING, 3000, 1, "X", 60, "S1", 40, 0);
	wake(FTS_EV_WAKEUP, 3100, 1, "X", 60, "S1", 40, 0); /* already Runnable: no change */
	/* queued for CPU 0, but switched in on CPU 1 */
	sw(3500, 1, "X", 60, "S", "S1", 40);
	/* a new task */
	fork_ev(3600, 0, "W", 50, "W", 51);
	wake(FTS_EV_WAKEUP_NEW, 3700, 0, "W", 50, "W", 51, 1);
	sw(3900, 1, "S1", 40, "S", "W", 51);
	/* woken from idle */
	wake(FTS_EV_WAKING, 4000, 1, "W", 51, "S1", 40, 1);
	sw(4100, 1, "W", 51, "S", "swapper/1", 0);
	wake(FTS_EV_WAKING, 4200, 1, "<idle>", 0, "X", 60, 1);
	sw(4300, 1, "swapper/1", 0, "R", "X", 60);
	finish();

	assert_string_equal(sink.lanes[lane_id("CPU 001")].tid, "CPU 001");
	assert_int_equal(sink.lanes[lane_id("CPU 001")].sort_index, 1);
	expect("S1:40", "Sleeping", 0, 2000, 1000);
	it = expect("S1:40", "Runnable", 0, 3000, 500);
	arg_is(it, "reason", "wakeup");
	arg_is(it, "waker", "X:60");
	arg_is(it, "wakeup_latency_ns", "500");
	arg_is(it, "target_cpu", "0");
	arg_is(it, "cpu", "1");
	expect("S1:40", "Running", 1, 3500, 400);
	/* X ran on CPU 1 from the waking (its first sight) to its switch-out */
	expect("CPU 001", "X:60", 0, 3000, 500);
	expect("X:60", "Running", 0, 3000, 500);

	it = expect("W:51", "Runnable", 0, 3700, 200);
	arg_is(it, "reason", "new");
	arg_is(it, "waker", "W:50");
	arg_is(it, "wakeup_latency_ns", "200");
	arg_is(it, "target_cpu", "1");
	arg_is(it, "cpu", "1");

	it = expect("S1:40", "Runnable", 1, 4000, 300); /* not switched in again: closed at the last event */
	arg_is(it, "waker", "W:51");
	arg_is(it, "cpu", "1");
	it = expect("X:60", "Runnable", 0, 4200, 100);
	arg_is(it, "waker", "<idle>:0");
	arg_is(it, "wakeup_latency_ns", "100");
	check_task_lanes_contiguous();

	/*
	 * Wakeup links: X:60 woke S1 at 3000, S1 ran at 3500; W:50 woke W:51 at
	 * 3700, it ran at 3900. S1's second wakeup (4000) never ran; X's waker
	 * was idle: no link for either.
	 */
	assert_int_equal(sink.nflows, 2);
	assert_int_equal(sink.flows[0].from_lane, (uint32_t)lane_id("X:60"));
	assert_int_equal(sink.flows[0].from_ts, 3000);
	assert_int_equal(sink.flows[0].to_lane, (uint32_t)lane_id("S1:40"));
	assert_int_equal(sink.flows[0].to_ts, 3500);
	assert_int_equal(sink.flows[1].from_lane, (uint32_t)lane_id("W:50"));
	assert_int_equal(sink.flows[1].from_ts, 3700);
	assert_int_equal(sink.flows[1].to_lane, (uint32_t)lane_id("W:51"));
	assert_int_equal(sink.flows[1].to_ts, 3900);
	assert_int_equal(fts_model_stats(model)->wakeup_links, 2);
}

static void test_migrate_and_runtime(void **state)
{
	const struct cap_item *it;

	(void)state;
	start();
	sw(1000, 0, "swapper/0", 0, "R", "A", 10);
	simple(FTS_EV_STAT_RUNTIME, 1500, 0, "A", 10, 300, 0);
	simple(FTS_EV_STAT_RUNTIME, 1800, 0, "A", 10, 200, 999);
	simple(FTS_EV_STAT_RUNTIME, 1900, 0, "other", 11, 7777, 0); /* not who runs */
	sw(2000, 0, "A", 10, "R", "B", 20);
	simple(FTS_EV_MIGRATE, 2100, 0, "B", 20, 10, 3);
	sw(2500, 0, "B", 20, "S", "swapper/0", 0);
	finish();

	it = expect("CPU 000", "A:10", 0, 1000, 1000);
	arg_is(it, "total_runtime", "500 [ns]");
	arg_is(it, "vruntime", "999");
	it = expect("A:10", "Runnable", 0, 2000, 500);
	arg_is(it, "cpu", "3"); /* migrated while queued */
	arg_is(it, "migrated_from", "0");
	assert_int_equal(fts_model_stats(model)->migrations, 1);
}

static void test_exit_and_pid_reuse(void **state)
{
	(void)state;
	start();
	sw(1000, 0, "swapper/0", 0, "R", "old", 300);
	simple(FTS_EV_EXIT, 1500, 0, "old", 300, 300, 0);
	sw(2000, 0, "old", 300, "S", "bash", 10); /* after exit: ends whatever the state */
	sw(2500, 0, "bash", 10, "R", "z", 301);
	sw(2600, 0, "z", 301, "Z", "bash", 10);
	sw(2700, 0, "bash", 10, "R", "x", 302);
	sw(2800, 0, "x", 302, "X", "bash", 10);
	/* pid 300 is reused by a new task */
	fork_ev(5000, 0, "bash", 10, "old", 300);
	wake(FTS_EV_WAKEUP_NEW, 5100, 0, "bash", 10, "old", 300, 0);
	sw(6000, 0, "bash", 10, "R", "old", 300);
	sw(7000, 0, "old", 300, "R", "bash", 10);
	finish();

	assert_int_equal(count("old:300", NULL), 3);
	expect("old:300", "Running", 0, 1000, 1000);
	expect("old:300", "Runnable", 0, 5100, 900);
	arg_is(nth("old:300", "Runnable", 0), "reason", "new");
	expect("old:300", "Running", 1, 6000, 1000);
	assert_int_equal(count("old:300", "Runnable"), 1); /* the 0 ns one at 7000 is left out */
	assert_int_equal(count("old:300", "Sleeping"), 0);
	assert_int_equal(count("z:301", NULL), 1);
	expect("z:301", "Running", 0, 2500, 100);
	assert_int_equal(count("x:302", NULL), 1);
	expect("x:302", "Running", 0, 2700, 100);
	check_task_lanes_contiguous();
}

/* The dying task's last switch was lost: the fork that reuses its pid still starts afresh. */
static void test_pid_reuse_after_lost_switch(void **state)
{
	const struct cap_item *it;

	(void)state;
	start();
	sw(1000, 0, "swapper/0", 0, "R", "old", 300);
	simple(FTS_EV_EXIT, 1500, 0, "old", 300, 300, 0);
	simple(FTS_EV_LOST, 2000, 0, "", 0, 10, 0);
	sw(2500, 0, "bash", 10, "R", "swapper/0", 0);
	sw(3000, 0, "swapper/0", 0, "R", "bash", 10);
	fork_ev(5000, 0, "bash", 10, "new", 300);
	wake(FTS_EV_WAKEUP_NEW, 5100, 0, "bash", 10, "new", 300, 0);
	sw(6000, 0, "bash", 10, "R", "new", 300);
	finish();

	it = expect("new:300", "Runnable", 0, 5100, 900);
	arg_is(it, "reason", "new");
	assert_int_equal(count("new:300", NULL), 1); /* its 0 ns Running at the end is left out */
}

static void test_exec(void **state)
{
	const struct cap_item *it;

	(void)state;
	start();
	sw(1000, 0, "swapper/0", 0, "R", "bash", 10);
	exec_ev(1400, 0, "bash", 10, "python3");
	sw(2000, 0, "python3", 10, "S", "swapper/0", 0);
	wake(FTS_EV_WAKING, 2500, 0, "<idle>", 0, "python3", 10, 0);
	sw(3000, 0, "swapper/0", 0, "R", "python3", 10);
	finish();

	it = expect("CPU 000", "bash:10", 0, 1000, 400);
	arg_is(it, "end_state", "exec");
	it = expect("CPU 000", "python3:10", 0, 1400, 600);
	arg_is(it, "end_state", "S");
	expect("CPU 000", "python3:10", 1, 3000, 0);
	assert_int_equal(count("bash:10", NULL), 1);
	expect("bash:10", "Running", 0, 1000, 400);
	expect("python3:10", "Running", 0, 1400, 600);
	expect("python3:10", "Sleeping", 0, 2000, 500);
	expect("python3:10", "Runnable", 0, 2500, 500);
	assert_int_equal(count("python3:10", NULL), 3); /* not the 0 ns Running at 3000 */
	check_task_lanes_contiguous();
}

/* A thread (pid 11) of leader 10 execs: it takes over pid 10 under the new name. */
static void test_exec_by_thread(void **state)
{
	struct fts_event ev;
	const struct cap_item *it;

	(void)state;
	start();
	sw(1000, 0, "swapper/0", 0, "R", "worker", 11);
	base(&ev, FTS_EV_EXEC, 1500, 0, "worker", 11);
	snprintf(ev.u.exec.comm, sizeof(ev.u.exec.comm), "%s", "tool");
	ev.u.exec.pid = 10;
	ev.u.exec.old_pid = 11;
	feed(&ev);
	sw(2000, 0, "tool", 10, "S", "swapper/0", 0);
	finish();

	it = expect("CPU 000", "worker:11", 0, 1000, 500);
	arg_is(it, "end_state", "exec");
	it = expect("CPU 000", "tool:10", 0, 1500, 500);
	arg_is(it, "end_state", "S");
	expect("worker:11", "Running", 0, 1000, 500);
	expect("tool:10", "Running", 0, 1500, 500);
	assert_int_equal(count("tool:10", "Sleeping"), 0); /* 0 ns at the end */
	assert_int_equal(fts_model_stats(model)->switch_mismatch, 0);
	check_task_lanes_contiguous();
}

/*
 * The kernel dropped the switch A -> B on CPU 0: A's slices end at B's first
 * event there, B runs from it, and an irq in between is charged to B.
 */
static void test_missing_switch(void **state)
{
	const struct cap_item *it;

	(void)state;
	start();
	sw(1000, 0, "swapper/0", 0, "R", "A", 10);
	simple(FTS_EV_SOFTIRQ_ENTRY, 1500, 0, "B", 20, 1, 0);
	simple(FTS_EV_SOFTIRQ_EXIT, 1600, 0, "B", 20, 1, 0);
	sw(2000, 0, "B", 20, "S", "swapper/0", 0);
	finish();

	it = expect("CPU 000", "A:10", 0, 1000, 500);
	arg_is(it, "end_state", "?");
	expect("A:10", "Running", 0, 1000, 500);
	assert_int_equal(count("A:10", "Running"), 1);
	it = expect("CPU 000", "B:20", 0, 1500, 500);
	arg_is(it, "end_state", "S");
	expect("B:20", "Running", 0, 1500, 500);
	assert_int_equal(count("B:20", "Sleeping"), 0);
	it = expect("CPU 000", "softirq", 0, 1500, 100);
	arg_is(it, "task", "B:20");
	assert_int_equal(fts_model_stats(model)->switch_mismatch, 1);
	check_task_lanes_contiguous();
}

/*
 * Two switches dropped (A -> idle, idle -> B, as a VM's kernel did under a
 * SCHED_FIFO hog): A's slices end at the idle CPU's first event, B runs from
 * its own first event, and the switch that names B as prev closes it there.
 */
static void test_two_missing_switches(void **state)
{
	const struct cap_item *it;

	(void)state;
	start();
	sw(1000, 0, "swapper/0", 0, "R", "A", 10);
	simple(FTS_EV_SOFTIRQ_ENTRY, 1200, 0, "<idle>", 0, 1, 0);
	simple(FTS_EV_SOFTIRQ_EXIT, 1250, 0, "<idle>", 0, 1, 0);
	simple(FTS_EV_SOFTIRQ_ENTRY, 1500, 0, "B", 20, 1, 0);
	simple(FTS_EV_SOFTIRQ_EXIT, 1600, 0, "B", 20, 1, 0);
	sw(2000, 0, "B", 20, "S", "swapper/0", 0);
	finish();

	it = expect("CPU 000", "A:10", 0, 1000, 200);
	arg_is(it, "end_state", "?");
	expect("A:10", "Running", 0, 1000, 200);
	it = expect("CPU 000", "B:20", 0, 1500, 500);
	arg_is(it, "end_state", "S");
	expect("B:20", "Running", 0, 1500, 500);
	assert_int_equal(count("B:20", "Running"), 1);
	assert_int_equal(fts_model_stats(model)->switch_mismatch, 1);
	check_task_lanes_contiguous();
}

/* A is switched in on CPU 1 while CPU 0 still "runs" it: its CPU 0 stretch ends. */
static void test_running_elsewhere(void **state)
{
	(void)state;
	start();
	sw(1000, 0, "swapper/0", 0, "R", "A", 10);
	simple(FTS_EV_SOFTIRQ_ENTRY, 1200, 0, "<idle>", 0, 1, 0);
	sw(1500, 1, "swapper/1", 0, "R", "A", 10);
	sw(2000, 1, "A", 10, "S", "swapper/1", 0);
	finish();

	expect("CPU 000", "A:10", 0, 1000, 200);
	expect("CPU 001", "A:10", 0, 1500, 500);
	expect("A:10", "Running", 0, 1000, 200);
	expect("A:10", "Running", 1, 1500, 500);
	assert_int_equal(count("A:10", "Running"), 2);
	check_task_lanes_contiguous();
}

/* Lost events end the current run slice at the last event before the gap. */
static void test_lost_ends_run(void **state)
{
	const struct cap_item *it;

	(void)state;
	start();
	sw(1000, 0, "swapper/0", 0, "R", "A", 10);
	simple(FTS_EV_SOFTIRQ_ENTRY, 1200, 0, "A", 10, 1, 0);
	simple(FTS_EV_LOST, 9000, 0, "B", 20, 55, 0);
	simple(FTS_EV_SOFTIRQ_EXIT, 9000, 0, "B", 20, 1, 0); /* its entry was lost */
	sw(9500, 0, "B", 20, "S", "swapper/0", 0);
	finish();

	it = expect("CPU 000", "A:10", 0, 1000, 200);
	arg_is(it, "end_state", "?");
	expect("A:10", "Running", 0, 1000, 200);
	expect("CPU 000", "lost events", 0, 9000, 0);
	expect("CPU 000", "B:20", 0, 9000, 500);
	expect("B:20", "Running", 0, 9000, 500);
	assert_int_equal(count("CPU 000", "softirq"), 0);
	check_task_lanes_contiguous();
}

/*
 * A hole after lost events is "no data", on the CPU lane and on the lanes of
 * the tasks last seen on that CPU: a task waiting there is not shown waiting
 * through it, a task on another CPU is untouched, and the marker says how
 * much and for how long; the kernel's total (sent first) rides on it.
 */
static void test_lost_hole_is_no_data(void **state)
{
	struct fts_event k;
	const struct cap_item *it;

	(void)state;
	start();
	base(&k, FTS_EV_LOST, 0, 0, "", -1);
	k.u.lost.count = 80;
	k.u.lost.kernel = 1;
	feed(&k);
	sw(1000, 0, "swapper/0", 0, "R", "A", 10);
	wake(FTS_EV_WAKING, 1100, 0, "A", 10, "B", 20, 0);   /* B queued on CPU 0 */
	sw(1150, 1, "swapper/1", 0, "R", "C", 30);            /* C runs on CPU 1 */
	simple(FTS_EV_SOFTIRQ_ENTRY, 1200, 0, "A", 10, 1, 0);
	simple(FTS_EV_LOST, 9000, 0, "A", 10, 55, 0);
	sw(9500, 0, "A", 10, "R", "B", 20);
	sw(9800, 1, "C", 30, "S", "swapper/1", 0);
	finish();

	expect("CPU 000", "A:10", 0, 1000, 200);
	expect("CPU 000", "no data", 0, 1200, 7800);
	it = expect("CPU 000", "lost events", 0, 9000, 0);
	arg_is(it, "count", "55");
	arg_is(it, "kernel_lost", "80");
	arg_is(it, "no_data_us", "7");
	expect("B:20", "Runnable", 0, 1100, 100);
	expect("B:20", "no data", 0, 1200, 7800);
	expect("B:20", "Runnable", 1, 9000, 500);
	expect("A:10", "no data", 0, 1200, 7800);
	assert_int_equal(count("C:30", "no data"), 0);
	expect("C:30", "Running", 0, 1150, 8650);
	check_task_lanes_contiguous();
}

/*
 * holes_forget (the live top's sampled pages): after the hole the tasks it
 * touched are unknown until their next event: B, queued before it, is not
 * Runnable after it until it is seen again (here: it runs at 9500).
 */
static void test_hole_forgets(void **state)
{
	(void)state;
	mopts.holes_forget = 1;
	start();
	sw(1000, 0, "swapper/0", 0, "R", "A", 10);
	wake(FTS_EV_WAKING, 1100, 0, "A", 10, "B", 20, 0);
	sw(1150, 1, "swapper/1", 0, "R", "C", 30);
	simple(FTS_EV_SOFTIRQ_ENTRY, 1200, 0, "A", 10, 1, 0);
	simple(FTS_EV_LOST, 9000, 0, "A", 10, 0, 0);
	sw(9500, 0, "A", 10, "R", "B", 20);
	sw(9800, 1, "C", 30, "S", "swapper/1", 0);
	finish();
	mopts.holes_forget = 0;

	expect("B:20", "Runnable", 0, 1100, 100);
	expect("B:20", "no data", 0, 1200, 7800);
	assert_int_equal(count("B:20", "Runnable"), 1);
	assert_int_equal(count("B:20", "Running"), 1);
	expect("C:30", "Running", 0, 1150, 8650);
}

/*
 * A sleeps on CPU 0 from 1100; CPU 1 loses its events over 1200-5000 (where
 * A's waker ran); A runs at 6000. @wakeups: the trace has wakeup events (C
 * wakes D at 1050).
 */
static void sleeper_past_hole(int wakeups)
{
	start();
	sw(1000, 0, "swapper/0", 0, "R", "A", 10);
	sw(1000, 1, "swapper/1", 0, "R", "C", 30);
	if (wakeups)
		wake(FTS_EV_WAKING, 1050, 1, "C", 30, "D", 40, 1);
	sw(1100, 0, "A", 10, "S", "swapper/0", 0);
	simple(FTS_EV_SOFTIRQ_ENTRY, 1200, 1, "C", 30, 1, 0);
	simple(FTS_EV_LOST, 5000, 1, "C", 30, 77, 0);
	sw(6000, 0, "swapper/0", 0, "R", "A", 10);
	sw(6500, 0, "A", 10, "S", "swapper/0", 0);
	finish();
}

/*
 * A sleeper that runs again with no wakeup seen, in a trace that has
 * wakeups, was woken in a hole: Sleeping until the hole, "no data" over
 * it, Runnable (reason unknown) after it: its wakeup would have been seen.
 */
static void test_lost_wakeup(void **state)
{
	const struct cap_item *it;

	(void)state;
	sleeper_past_hole(1);
	expect("A:10", "Sleeping", 0, 1100, 100);
	expect("A:10", "no data", 0, 1200, 3800);
	it = expect("A:10", "Runnable", 0, 5000, 1000);
	arg_is(it, "reason", "unknown");
	expect("A:10", "Running", 1, 6000, 500);
	check_task_lanes_contiguous();
}

/* Without wakeup events in the trace, a sleeper that runs again just slept until then. */
static void test_no_wakeups_no_guess(void **state)
{
	(void)state;
	sleeper_past_hole(0);
	expect("A:10", "Sleeping", 0, 1100, 4900);
	assert_int_equal(count("A:10", "no data"), 0);
	assert_int_equal(count("A:10", "Runnable"), 0);
}

/* The kernel counted losses the data never marked: one marker says so. */
static void test_kernel_loss_unmarked(void **state)
{
	struct fts_event k;
	const struct cap_item *it;

	(void)state;
	start();
	base(&k, FTS_EV_LOST, 0, 1, "", -1);
	k.u.lost.count = 42;
	k.u.lost.kernel = 1;
	feed(&k);
	sw(1000, 1, "swapper/1", 0, "R", "A", 10);
	sw(2000, 1, "A", 10, "S", "swapper/1", 0);
	finish();

	it = expect("CPU 001", "lost events", 0, 1000, 0);
	arg_is(it, "count", "42");
	arg_is(it, "kernel_lost", "42");
}

static void test_kernel_threads(void **state)
{
	(void)state;
	start();
	sw(1000, 0, "swapper/0", 0, "R", "kworker/0:1", 7);
	sw(2000, 0, "kworker/0:1", 7, "I", "migration/0", 18);
	sw(3000, 0, "migration/0", 18, "S", "ksoftirqd/0", 15);
	sw(4000, 0, "ksoftirqd/0", 15, "S", "swapper/0", 0);
	finish();

	expect("CPU 000", "kworker/0:1:7", 0, 1000, 1000);
	expect("CPU 000", "migration/0:18", 0, 2000, 1000);
	expect("CPU 000", "ksoftirqd/0:15", 0, 3000, 1000);
	expect("kworker/0:1:7", "Running", 0, 1000, 1000);
	expect("kworker/0:1:7", "Sleeping", 0, 2000, 2000);
	expect("migration/0:18", "Running", 0, 2000, 1000);
	expect("ksoftirqd/0:15", "Running", 0, 3000, 1000);
	assert_int_equal(count("CPU 000", NULL), 4 + 3);
	for (int i = 0; i < sink.nlanes; i++)
		assert_null(strstr(sink.lanes[i].tid, ":0\0"));
	assert_int_equal(lane_id("swapper/0:0"), -1);
	assert_int_equal(sink.nlanes, 4);
}

static void test_irq_softirq(void **state)
{
	const struct cap_item *it;
	const struct fts_model_stats *ms;

	(void)state;
	start();
	sw(1000, 0, "swapper/0", 0, "R", "A", 10);
	simple(FTS_EV_IRQ_ENTRY, 1100, 0, "A", 10, 36, 0);
	simple(FTS_EV_IRQ_EXIT, 1150, 0, "A", 10, 36, 1);
	simple(FTS_EV_SOFTIRQ_ENTRY, 1200, 0, "A", 10, 1, 0);
	simple(FTS_EV_SOFTIRQ_EXIT, 1260, 0, "A", 10, 1, 0);
	simple(FTS_EV_IRQ_EXIT, 1300, 0, "A", 10, 99, 1);       /* unmatched */
	simple(FTS_EV_SOFTIRQ_EXIT, 1310, 0, "A", 10, 3, 0);    /* unmatched */
	simple(FTS_EV_IRQ_ENTRY, 1400, 0, "A", 10, 37, 0);
	simple(FTS_EV_IRQ_EXIT, 1400 + 1000000001ull, 0, "A", 10, 37, 0); /* > 1 s */
	simple(FTS_EV_SOFTIRQ_ENTRY, 1000002000ull, 0, "A", 10, 2, 0);
	simple(FTS_EV_SOFTIRQ_EXIT, 2000002001ull, 0, "A", 10, 2, 0);  /* > 1 s */
	/* on an idle CPU the task is exactly <idle>, what Insight's idle filter skips */
	sw(2000003000ull, 0, "A", 10, "S", "swapper/0", 0);
	simple(FTS_EV_IRQ_ENTRY, 2000004000ull, 0, "<idle>", 0, 5, 0);
	simple(FTS_EV_IRQ_EXIT, 2000004010ull, 0, "<idle>", 0, 5, 0);
	/* a lost-events marker forgets open entries */
	simple(FTS_EV_IRQ_ENTRY, 2000005000ull, 0, "<idle>", 0, 6, 0);
	simple(FTS_EV_SOFTIRQ_ENTRY, 2000005001ull, 0, "<idle>", 0, 7, 0);
	simple(FTS_EV_LOST, 2000005002ull, 0, "", 0, 42, 0);
	simple(FTS_EV_LOST, 2000005003ull, 1, "", 0, 0, 0);
	simple(FTS_EV_IRQ_EXIT, 2000005010ull, 0, "<idle>", 0, 6, 1);
	simple(FTS_EV_SOFTIRQ_EXIT, 2000005011ull, 0, "<idle>", 0, 7, 0);
	finish();

	assert_int_equal(count("CPU 000", "irq"), 2);
	it = expect("CPU 000", "irq", 0, 1100, 50);
	arg_is(it, "irq", "36");
	arg_is(it, "name", "eth36");
	arg_is(it, "ret", "handled");
	arg_is(it, "task", "A:10");
	it = expect("CPU 000", "irq", 1, 2000004000ull, 10);
	arg_is(it, "ret", "unhandled");
	arg_is(it, "task", "<idle>");
	arg_is(it, "name", "eth5");
	assert_int_equal(count("CPU 000", "softirq"), 1);
	it = expect("CPU 000", "softirq", 0, 1200, 60);
	arg_is(it, "vec", "1");
	arg_is(it, "action", "TIMER");
	arg_is(it, "task", "A:10");
	it = expect("CPU 000", "lost events", 0, 2000005002ull, 0);
	arg_is(it, "count", "42");
	it = expect("CPU 001", "lost events", 0, 2000005003ull, 0);
	arg_is(it, "count", "unknown");
	assert_int_equal(sink.lanes[lane_id("CPU 001")].sort_index, 1);

	ms = fts_model_stats(model);
	assert_int_equal(ms->irq_slices, 2);
	assert_int_equal(ms->softirq_slices, 1);
	assert_int_equal(ms->irq_unmatched_exit, 4);
	assert_int_equal(ms->irq_too_long, 2);
	assert_int_equal(ms->lost_markers, 2);
	assert_int_equal(ms->lost_events, 42);
	assert_true(ms->irq_unmatched_entry >= 1);
}

/* Slices on a lane touch exactly; integer ns; arg values are strings. */
static void test_boundaries(void **state)
{
	(void)state;
	start();
	sw(1000000001ull, 0, "swapper/0", 0, "R", "A", 10);
	sw(1000000002ull, 0, "A", 10, "R+", "B", 20);
	sw(1000000003ull, 0, "B", 20, "R", "A", 10);
	sw(1000000007ull, 0, "A", 10, "S", "B", 20);
	wake(FTS_EV_WAKING, 1000000011ull, 0, "B", 20, "A", 10, 0);
	sw(1000000013ull, 0, "B", 20, "R", "A", 10);
	finish();

	for (int i = 0; i < 5; i++) {
		const struct cap_item *a = nth("A:10", NULL, i), *b = nth("A:10", NULL, i + 1);

		assert_non_null(a);
		if (b)
			assert_int_equal(a->ts + a->dur, b->ts);
	}
	assert_int_equal(count("A:10", NULL), 5); /* its Running from ...13 lasts 0 ns */
	for (int i = 0; i < 2; i++)
		assert_int_equal(nth("CPU 000", "A:10", i)->ts + nth("CPU 000", "A:10", i)->dur,
				 nth("CPU 000", "B:20", i)->ts);
}

static void test_finish_closes_open_states(void **state)
{
	(void)state;
	start();
	sw(1000, 0, "swapper/0", 0, "R", "A", 10);
	sw(1000, 1, "swapper/1", 0, "R", "B", 20);
	sw(1500, 1, "B", 20, "S", "C", 30);
	wake(FTS_EV_WAKING, 1600, 1, "C", 30, "D", 40, 1);
	simple(FTS_EV_SOFTIRQ_ENTRY, 1700, 1, "C", 30, 1, 0);
	finish();

	expect("CPU 000", "A:10", 0, 1000, 700);
	arg_is(nth("CPU 000", "A:10", 0), "end_state", "running");
	expect("CPU 001", "C:30", 0, 1500, 200);
	expect("A:10", "Running", 0, 1000, 700);
	expect("B:20", "Sleeping", 0, 1500, 200);
	expect("C:30", "Running", 0, 1500, 200);
	expect("D:40", "Runnable", 0, 1600, 100);
	assert_int_equal(fts_model_stats(model)->last_ts, 1700);
	assert_int_equal(fts_model_stats(model)->first_ts, 1000);
}

static int setup_window(void **state)
{
	(void)state;
	fts_timemap_raw(&tm);
	tm.base = FTS_TIME_PROFILING;
	tm.has_window = 1;
	tm.lo = 2000;
	tm.hi = 5000;
	tm.offset = 1000000000000ll;
	memset(&mopts, 0, sizeof(mopts));
	return 0;
}

static void test_window(void **state)
{
	const struct fts_model_stats *ms;
	const int64_t off = 1000000000000ll;

	(void)state;
	start();
	sw(1000, 0, "swapper/0", 0, "R", "A", 10);       /* before the window */
	simple(FTS_EV_IRQ_ENTRY, 1900, 0, "A", 10, 3, 0);
	simple(FTS_EV_IRQ_EXIT, 2100, 0, "A", 10, 3, 1);  /* straddles lo */
	sw(3000, 0, "A", 10, "S", "B", 20);
	wake(FTS_EV_WAKING, 4000, 0, "B", 20, "A", 10, 0);
	sw(4500, 0, "B", 20, "R", "A", 10);
	sw(6000, 0, "A", 10, "S", "B", 20);               /* after it: ignored */
	sw(7000, 0, "B", 20, "S", "A", 10);
	finish();

	ms = fts_model_stats(model);
	assert_int_equal(ms->before_window, 2);
	assert_int_equal(ms->after_window, 2);
	assert_int_equal(ms->events_in, 8);
	assert_int_equal(count("CPU 000", "sched_switch"), 2); /* 3000 and 4500 */
	expect("CPU 000", "sched_switch", 0, 3000 + off, 0);
	expect("CPU 000", "irq", 0, 2000 + off, 100);
	expect("CPU 000", "A:10", 0, 2000 + off, 1000);
	expect("CPU 000", "B:20", 0, 3000 + off, 1500);
	expect("A:10", "Running", 0, 2000 + off, 1000);
	expect("A:10", "Sleeping", 0, 3000 + off, 1000);
	expect("A:10", "Runnable", 0, 4000 + off, 500);
	/* the trace goes on past the window: open states run to its end */
	expect("A:10", "Running", 1, 4500 + off, 500);
	expect("CPU 000", "A:10", 1, 4500 + off, 500);
	expect("B:20", "Runnable", 0, 4500 + off, 500);
	assert_int_equal(count("A:10", NULL), 4);
	assert_int_equal(count("B:20", NULL), 2);
	for (int i = 0; i < sink.nitems; i++) {
		assert_true(sink.items[i].ts >= (uint64_t)(2000 + off));
		assert_true(sink.items[i].ts + sink.items[i].dur <= (uint64_t)(5000 + off));
	}
}

static void write_file(char *path, const char *text)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void test_pid_mapping(void **state)
{
	char path[] = "/tmp/fts_unit_pm_XXXXXX";
	struct fts_pidmap *pm;
	struct fts_err err = { 0 };
	const struct cap_item *it;

	(void)state;
	write_file(path, "{\"10\": {\"NSpid\": \"7\"}, \"20\": {\"NSpid\": \"8\"}, \"30\": {}}");
	assert_int_equal(fts_pidmap_load(path, &pm, &err), 0);
	unlink(path);
	mopts.pm = pm;
	start();
	sw(1000, 0, "swapper/0", 0, "R", "A", 10);
	simple(FTS_EV_IRQ_ENTRY, 1100, 0, "A", 10, 36, 0);
	simple(FTS_EV_IRQ_EXIT, 1150, 0, "A", 10, 36, 1);
	sw(2000, 0, "A", 10, "S", "B", 20);
	wake(FTS_EV_WAKING, 2500, 0, "B", 20, "A", 10, 0);
	sw(3000, 0, "B", 20, "R", "C", 30);
	finish();

	assert_int_equal(lane_id("A:10"), -1);
	it = expect("A:7", "Running", 0, 1000, 1000);
	arg_is(it, "host_pid", "10");
	it = expect("A:7", "Runnable", 0, 2500, 500);
	arg_is(it, "waker", "B:8");
	it = expect("CPU 000", "A:7", 0, 1000, 1000);
	arg_is(it, "host_pid", "10");
	it = expect("CPU 000", "sched_switch", 1, 2000, 0);
	arg_is(it, "prev_pid", "7");
	arg_is(it, "next_pid", "8");
	it = expect("CPU 000", "sched_switch", 2, 3000, 0);
	arg_is(it, "prev_pid", "8");
	arg_is(it, "next_pid", "30");
	arg_is(expect("CPU 000", "irq", 0, 1100, 50), "task", "A:7");
	assert_int_equal(lane_id("C:30"), -1); /* its only state lasted 0 ns */
	assert_int_equal(count("B:8", "Runnable"), 0);
	arg_is(nth("B:8", "Running", 0), "cpu", "0");
	fts_model_free(model);
	model = NULL;
	fts_pidmap_free(pm);
	mopts.pm = NULL;
}

/*
 * cs_rows markers: one zero-length `Sleeping` with cpu -1 per task lane that
 * Insight will credit with at least one switch, at the lane's last end, where
 * no slice of the lane starts and none strictly contains it.
 *   A:10 switches out at 2000 (S) and 4000 (R): marker, lane ends at 6000.
 *   B:20 switches out at 3000 (R) and 5000 (S); its wakeup at 5500 is still
 *        Runnable at the end (6000): marker at 6000.
 *   kworker/0:1:7 switches out at 6000: Insight skips kworker switches, so none.
 *   N:40 only ever runs (CPU 1, until the end): no switch out, no marker.
 */
static void test_cs_rows(void **state)
{
	(void)state;
	mopts.cs_rows = 1;
	start();
	sw(1000, 0, "swapper/0", 0, "R", "A", 10);
	sw(1000, 1, "swapper/1", 0, "R", "N", 40);
	sw(2000, 0, "A", 10, "S", "B", 20);
	wake(FTS_EV_WAKING, 2500, 0, "B", 20, "A", 10, 0);
	sw(3000, 0, "B", 20, "R", "A", 10);
	sw(4000, 0, "A", 10, "R", "B", 20);
	sw(5000, 0, "B", 20, "S", "kworker/0:1", 7);
	wake(FTS_EV_WAKING, 5500, 0, "kworker/0:1", 7, "B", 20, 0);
	sw(6000, 0, "kworker/0:1", 7, "I", "A", 10);
	simple(FTS_EV_SOFTIRQ_ENTRY, 6000, 1, "N", 40, 1, 0);
	finish();
	mopts.cs_rows = 0;

	assert_int_equal(fts_model_stats(model)->cs_markers, 2);
	for (int l = 0; l < sink.nlanes; l++) {
		const struct cap_item *m = NULL;

		if (sink.lanes[l].group != FTS_GROUP_TASK)
			continue;
		for (int i = 0; i < sink.nitems; i++) {
			const struct cap_item *it = &sink.items[i];

			if (it->lane != sink.lanes[l].id || strcmp(argv_of(it, "cpu"), "-1"))
				continue;
			assert_null(m); /* at most one per lane */
			m = it;
			assert_string_equal(it->name, "Sleeping");
			assert_int_equal(it->dur, 0);
		}
		if (!m)
			continue;
		assert_int_equal(m->ts, 6000);
		for (int i = 0; i < sink.nitems; i++) {
			const struct cap_item *it = &sink.items[i];

			if (it->lane != m->lane || it == m)
				continue;
			assert_true(it->ts != m->ts);
			assert_false(it->ts < m->ts && m->ts < it->ts + it->dur);
		}
	}
	assert_int_equal(count("A:10", "Sleeping"), 2);  /* 2000-2500, and the marker */
	assert_int_equal(count("B:20", "Sleeping"), 2);  /* 5000-5500, and the marker */
	assert_int_equal(count("kworker/0:1:7", "Sleeping"), 0);
	assert_int_equal(count("N:40", "Sleeping"), 0);
	expect("N:40", "Running", 0, 1000, 5000);
	assert_int_equal(count("CPU 000", "Sleeping"), 0);
	check_task_lanes_contiguous();
}

/* Events on a CPU past the cap (FTS_CPUSET_MAX, 8192) or negative are dropped, and counted. */
static void test_cpu_out_of_range(void **state)
{
	(void)state;
	start();
	sw(1000, 0, "swapper/0", 0, "R", "A", 10);
	sw(1100, 8192, "swapper/8192", 0, "R", "B", 20);
	sw(1200, -1, "swapper", 0, "R", "C", 30);
	sw(1300, 8191, "swapper/8191", 0, "R", "D", 40);
	sw(2000, 0, "A", 10, "S", "swapper/0", 0);
	finish();
	assert_int_equal(fts_model_stats(model)->cpu_out_of_range, 2);
	assert_int_equal(fts_model_stats(model)->events_in, 5);
	assert_true(lane_id("CPU 8191") >= 0);
	assert_int_equal(count("B:20", NULL), 0);
	assert_int_equal(count("C:30", NULL), 0);
	expect("A:10", "Running", 0, 1000, 1000);
}

/* A counting sink, for more lanes than the capturing one holds. */
struct count_sink {
	struct fts_sink s;
	uint32_t lanes;
	uint64_t items, markers;
};

static int count_lane(struct fts_sink *s, const struct fts_lane *l, struct fts_err *err)
{
	struct count_sink *c = (struct count_sink *)s;

	(void)err;
	assert_int_equal(l->id, c->lanes); /* dense, in declaration order */
	c->lanes++;
	return 0;
}

static int count_item(struct fts_sink *s, const struct fts_item *it, struct fts_err *err)
{
	struct count_sink *c = (struct count_sink *)s;

	(void)err;
	c->items++;
	c->markers += it->kind == FTS_ITEM_MARKER;
	return 0;
}

/*
 * Thousands of tasks, half of them dying and their pids coming back under
 * another comm: the task table grows and deletes, the lane table grows past
 * its first block, and every lane keeps its own switch count (one marker
 * each).
 */
static void test_many_tasks(void **state)
{
	struct count_sink cs = { .s = { .lane = count_lane, .item = count_item } };
	const struct fts_model_stats *ms;
	struct fts_err err = { 0 };
	const int n = 3000;
	char comm[32], again[32];

	(void)state;
	mopts.tm = &tm;
	mopts.cs_rows = 1;
	assert_int_equal(fts_model_create(&mopts, &cs.s, &model, &err), 0);
	mopts.cs_rows = 0;
	for (int i = 0; i < n; i++) {
		uint64_t t = 1000 + (uint64_t)i * 100;

		snprintf(comm, sizeof(comm), "w%d", i);
		sw(t, 0, "swapper/0", 0, "R", comm, 100 + i);
		sw(t + 50, 0, comm, 100 + i, i % 2 ? "X" : "S", "swapper/0", 0);
	}
	for (int i = 1; i < n; i += 2) {
		uint64_t t = 1000000 + (uint64_t)i * 100;

		snprintf(again, sizeof(again), "v%d", i);
		sw(t, 1, "swapper/1", 0, "R", again, 100 + i);
		sw(t + 50, 1, again, 100 + i, "S", "swapper/1", 0);
	}
	finish();
	ms = fts_model_stats(model);
	assert_int_equal(ms->tasks_seen, n + n / 2);
	assert_int_equal(ms->task_lanes, n + n / 2);
	assert_int_equal(ms->cpu_lanes, 2);
	assert_int_equal(cs.lanes, n + n / 2 + 2);
	assert_int_equal(ms->cs_markers, n + n / 2);
	assert_int_equal(cs.markers, n + n / 2);
}

/*
 * A lean model (the live top's) makes the same slices on the same lanes with
 * the same counts as the full one, with only the arg stats reads for the
 * top's figures (reason); stats fed by either gives each task the same Running and
 * Runnable time and the same worst wakeup latency.
 */
static void lean_scenario(void)
{
	sw(1000, 0, "swapper/0", 0, "R", "A", 10);
	sw(1000, 1, "swapper/1", 0, "R", "B", 20);
	simple(FTS_EV_STAT_RUNTIME, 1500, 0, "A", 10, 300, 7);
	wake(FTS_EV_WAKING, 1600, 1, "B", 20, "C", 30, 0);
	wake(FTS_EV_WAKEUP, 1610, 1, "B", 20, "C", 30, 0);
	sw(2000, 0, "A", 10, "R", "C", 30);           /* A preempted by C */
	simple(FTS_EV_IRQ_ENTRY, 2100, 0, "C", 30, 36, 0);
	simple(FTS_EV_IRQ_EXIT, 2150, 0, "C", 30, 36, 1);
	simple(FTS_EV_SOFTIRQ_ENTRY, 2200, 1, "B", 20, 1, 0);
	simple(FTS_EV_SOFTIRQ_EXIT, 2260, 1, "B", 20, 1, 0);
	fork_ev(2300, 1, "B", 20, "B", 21);
	wake(FTS_EV_WAKEUP_NEW, 2310, 1, "B", 20, "B", 21, 1);
	sw(2500, 1, "B", 20, "D", "B", 21);           /* B blocks, its child runs */
	simple(FTS_EV_MIGRATE, 2600, 1, "B", 21, 10, 1);
	sw(3000, 0, "C", 30, "S", "A", 10);
	wake(FTS_EV_WAKEUP, 3100, 0, "A", 10, "B", 20, 1);
	sw(3500, 1, "B", 21, "S", "B", 20);
	exec_ev(3600, 1, "B", 20, "newB");
	simple(FTS_EV_EXIT, 3700, 0, "A", 10, 10, 0);
	sw(3800, 0, "A", 10, "X", "swapper/0", 0);
	wake(FTS_EV_WAKEUP, 3900, 0, "<idle>", 0, "C", 30, 0);
	sw(4000, 0, "swapper/0", 0, "R", "C", 30);
	simple(FTS_EV_STAT_RUNTIME, 4100, 0, "C", 30, 100, 0);
	sw(4200, 1, "newB", 20, "R", "swapper/1", 0);
	finish();
}

/* Stats over a model of @lean fed the scenario, into @st (caller frees). */
static struct fts_stats *lean_stats(int lean)
{
	struct fts_stats_opts so = { 0 };
	struct fts_stats *st;
	struct fts_model_opts mo = { .tm = &tm, .lean = lean };
	struct fts_model *saved = model;
	struct fts_err err = { 0 };

	assert_int_equal(fts_stats_create(&so, &st, &err), 0);
	assert_int_equal(fts_model_create(&mo, fts_stats_sink(st), &model, &err), 0);
	lean_scenario();
	fts_model_free(model);
	model = saved;
	assert_int_equal(fts_stats_finish(st, &err), 0);
	return st;
}

static void test_lean(void **state)
{
	static struct cap_sink full;
	struct fts_model_stats fs, ls;
	struct fts_stats *sf, *sl;
	int runnable = 0, reasons = 0;

	(void)state;
	start();
	lean_scenario();
	full = sink;
	fs = *fts_model_stats(model);
	fts_model_free(model);
	mopts.lean = 1;
	start();
	lean_scenario();
	ls = *fts_model_stats(model);

	assert_int_equal(sink.nlanes, full.nlanes);
	for (int i = 0; i < sink.nlanes; i++)
		assert_string_equal(sink.lanes[i].tid, full.lanes[i].tid);
	assert_int_equal(sink.nitems, full.nitems);
	assert_int_equal(sink.nflows, full.nflows);
	for (int i = 0; i < sink.nitems; i++) {
		const struct cap_item *l = &sink.items[i], *f = &full.items[i];
		int task = l->kind == FTS_ITEM_RUNNING || l->kind == FTS_ITEM_RUNNABLE ||
			   l->kind == FTS_ITEM_SLEEPING || l->kind == FTS_ITEM_BLOCKED;

		assert_int_equal(l->lane, f->lane);
		assert_int_equal(l->kind, f->kind);
		assert_int_equal(l->ts, f->ts);
		assert_int_equal(l->dur, f->dur);
		/* args: a Runnable's reason alone, as the full model has it */
		assert_int_equal(l->nargs, task && l->kind == FTS_ITEM_RUNNABLE ? 1 : 0);
		for (int a = 0; a < l->nargs; a++) {
			assert_string_equal(l->key[a], "reason");
			assert_non_null(argv_of(f, l->key[a]));
			assert_string_equal(l->val[a], argv_of(f, l->key[a]));
		}
		assert_null(argv_of(l, "host_pid"));
		assert_null(argv_of(l, "waker"));
		runnable += l->kind == FTS_ITEM_RUNNABLE;
		reasons += l->kind == FTS_ITEM_RUNNABLE && strcmp(argv_of(l, "reason"), "unknown");
	}
	assert_true(runnable >= 3 && reasons >= 3);   /* the scenario has wakeups and a preemption */
	assert_int_equal(ls.task_running, fs.task_running);
	assert_int_equal(ls.task_runnable, fs.task_runnable);
	assert_int_equal(ls.task_sleeping, fs.task_sleeping);
	assert_int_equal(ls.cpu_slices, fs.cpu_slices);
	assert_int_equal(ls.switch_markers, fs.switch_markers);
	assert_int_equal(ls.irq_slices, fs.irq_slices);
	assert_int_equal(ls.softirq_slices, fs.softirq_slices);

	/* what the top reads of stats is the same over either model */
	sf = lean_stats(0);
	sl = lean_stats(1);
	assert_int_equal(fts_stats_ntasks(sl), fts_stats_ntasks(sf));
	assert_true(fts_stats_ntasks(sf) >= 4);
	for (size_t r = 0; r < fts_stats_ntasks(sf); r++) {
		const struct fts_task_stats *a = fts_stats_task(sf, r), *b = fts_stats_task(sl, r);

		assert_string_equal(b->tid, a->tid);
		assert_int_equal(b->running_ns, a->running_ns);
		assert_int_equal(b->runnable_ns, a->runnable_ns);
		assert_int_equal(b->wake_max_ns, a->wake_max_ns);
		assert_int_equal(b->wakeups, a->wakeups);
	}
	fts_stats_free(sf);
	fts_stats_free(sl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_switch_states, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_wakeups, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_and_runtime, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_exit_and_pid_reuse, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_pid_reuse_after_lost_switch, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_exec, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_exec_by_thread, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_missing_switch, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_two_missing_switches, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_running_elsewhere, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_lost_ends_run, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_lost_hole_is_no_data, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_hole_forgets, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_lost_wakeup, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_no_wakeups_no_guess, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_kernel_loss_unmarked, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_kernel_threads, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_irq_softirq, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_boundaries, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_finish_closes_open_states, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_window, setup_window, teardown),
		cmocka_unit_test_setup_teardown(test_pid_mapping, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_cs_rows, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_cpu_out_of_range, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_many_tasks, setup_raw, teardown),
		cmocka_unit_test_setup_teardown(test_lean, setup_raw, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
