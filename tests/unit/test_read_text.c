// SPDX-License-Identifier: MIT
/* Unit tests for the ftrace text reader (kernel and trace-cmd report formats). */
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

#include "ftscope/reader.h"

#define MAX_EV 64

struct cap {
	struct fts_event ev[MAX_EV];
	int n;
};

static int on_event(void *ctx, const struct fts_event *ev)
{
	struct cap *c = ctx;

	assert_true(c->n < MAX_EV);
	c->ev[c->n++] = *ev;
	return 0;
}

/* Write @text (@len bytes) to a temp file and read it back through the text reader. */
static int run_len(const char *text, size_t len, struct cap *c, struct fts_read_stats *st)
{
	char path[] = "/tmp/fts_unit_text_XXXXXX";
	struct fts_read_opts o = { .emit = on_event, .emit_ctx = c };
	struct fts_err err = { 0 };
	int fd = mkstemp(path), rc;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	memset(c, 0, sizeof(*c));
	memset(st, 0, sizeof(*st));
	rc = fts_read_text(path, &o, st, &err);
	unlink(path);
	return rc;
}

static int run(const char *text, struct cap *c, struct fts_read_stats *st)
{
	return run_len(text, strlen(text), c, st);
}

static struct cap cap;
static struct fts_read_stats st;

static void check_switch(const struct fts_event *e, uint64_t ts, int cpu)
{
	assert_int_equal(e->type, FTS_EV_SWITCH);
	assert_int_equal(e->ts, ts);
	assert_int_equal(e->cpu, cpu);
	assert_int_equal(e->pid, 123);
	assert_string_equal(e->comm, "bash");
	assert_string_equal(e->u.sw.prev_comm, "bash");
	assert_int_equal(e->u.sw.prev_pid, 123);
	assert_int_equal(e->u.sw.prev_prio, 120);
	assert_string_equal(e->u.sw.prev_state, "R+");
	assert_string_equal(e->u.sw.next_comm, "kworker/0:1");
	assert_int_equal(e->u.sw.next_pid, 45);
	assert_int_equal(e->u.sw.next_prio, 100);
}

#define SW_FIELDS "sched_switch: prev_comm=bash prev_pid=123 prev_prio=120 prev_state=R+ ==> next_comm=kworker/0:1 next_pid=45 next_prio=100\n"

static void test_columns(void **state)
{
	const char *text =
		"# tracer: nop\n"
		"#\n"
		"            bash-123     [000] d.h3.   612.345678: " SW_FIELDS
		"bash-123 [001] d.h3 12345.678901: " SW_FIELDS
		"bash-123 [002] 123456.789012: " SW_FIELDS
		"            bash-123     (    123) [003] d..2.   612.345678901: " SW_FIELDS
		"            bash-123     (-------) [004] ....    0.000001: " SW_FIELDS
		"\tbash-123 [005] .N.1. 7.5: " SW_FIELDS;

	(void)state;
	assert_int_equal(run(text, &cap, &st), 0);
	assert_int_equal(cap.n, 6);
	check_switch(&cap.ev[0], 612345678000ull, 0);
	check_switch(&cap.ev[1], 12345678901000ull, 1);
	check_switch(&cap.ev[2], 123456789012000ull, 2);
	check_switch(&cap.ev[3], 612345678901ull, 3);
	check_switch(&cap.ev[4], 1000ull, 4);
	check_switch(&cap.ev[5], 7500000000ull, 5);
	assert_int_equal(st.events, 6);
	assert_int_equal(st.lines, 8);
	assert_int_equal(st.skipped, 0);
	assert_int_equal(st.by_type[FTS_EV_SWITCH], 6);
	assert_int_equal(st.cpus, 6);
	assert_string_equal(st.first_bad, "");
}

/* test_event_kinds: the task events (lines 1-10) */
static void check_task_events(const struct fts_event *e)
{
	assert_int_equal(e[0].type, FTS_EV_WAKING);
	assert_string_equal(e[0].u.task.comm, "memfd:sealed-91");
	assert_int_equal(e[0].u.task.pid, 2697);
	assert_int_equal(e[0].u.task.prio, 120);
	assert_int_equal(e[0].u.task.target_cpu, 1);
	assert_int_equal(e[1].type, FTS_EV_WAKEUP);
	assert_string_equal(e[1].u.task.comm, "my worker-1");
	assert_int_equal(e[1].u.task.pid, 77);
	assert_int_equal(e[1].u.task.prio, 110);
	assert_int_equal(e[1].u.task.target_cpu, 0);
	assert_int_equal(e[2].type, FTS_EV_WAKEUP_NEW);
	assert_int_equal(e[2].u.task.pid, 14319);
	assert_int_equal(e[2].u.task.target_cpu, 3);

	assert_int_equal(e[3].type, FTS_EV_MIGRATE);
	assert_string_equal(e[3].comm, "migration/0");
	assert_int_equal(e[3].pid, 18);
	assert_int_equal(e[3].cpu, 0);
	assert_string_equal(e[3].u.migrate.comm, "bash");
	assert_int_equal(e[3].u.migrate.pid, 14319);
	assert_int_equal(e[3].u.migrate.prio, 120);
	assert_int_equal(e[3].u.migrate.orig_cpu, 0);
	assert_int_equal(e[3].u.migrate.dest_cpu, 1);

	assert_int_equal(e[4].type, FTS_EV_STAT_RUNTIME);
	assert_int_equal(e[4].u.runtime.pid, 10);
	assert_int_equal(e[4].u.runtime.runtime, 783581);
	assert_int_equal(e[4].u.runtime.has_vruntime, 0);
	assert_int_equal(e[5].u.runtime.runtime, 4002917);
	assert_int_equal(e[5].u.runtime.has_vruntime, 1);
	assert_int_equal(e[5].u.runtime.vruntime, 123456789);

	assert_int_equal(e[6].type, FTS_EV_FORK);
	assert_string_equal(e[6].u.fork.parent_comm, "bash");
	assert_int_equal(e[6].u.fork.parent_pid, 10);
	assert_string_equal(e[6].u.fork.child_comm, "a:b-c d");
	assert_int_equal(e[6].u.fork.child_pid, 14319);

	assert_int_equal(e[7].type, FTS_EV_EXEC);
	assert_string_equal(e[7].u.exec.comm, "hackbench");
	assert_int_equal(e[7].u.exec.pid, 14319);
	assert_int_equal(e[7].u.exec.old_pid, 14319);
	assert_string_equal(e[8].u.exec.comm, "very_long_progr"); /* the kernel's 15 bytes */

	assert_int_equal(e[9].type, FTS_EV_EXIT);
	assert_string_equal(e[9].u.task.comm, "hackbench");
	assert_int_equal(e[9].u.task.pid, 14325);
	assert_int_equal(e[9].u.task.prio, 120);
	assert_int_equal(e[9].u.task.target_cpu, -1);
}

/* test_event_kinds: irq, softirq and futex events (lines 11-20) */
static void check_irq_futex_events(const struct fts_event *e)
{
	assert_int_equal(e[10].type, FTS_EV_IRQ_ENTRY);
	assert_int_equal(e[10].u.irq.irq, 36);
	assert_string_equal(e[10].u.irq.name, "virtio1-req.0");
	assert_int_equal(e[11].type, FTS_EV_IRQ_EXIT);
	assert_int_equal(e[11].u.irq.irq, 36);
	assert_int_equal(e[11].u.irq.ret, 1);
	assert_int_equal(e[12].u.irq.irq, 37);
	assert_int_equal(e[12].u.irq.ret, 0);

	assert_int_equal(e[13].type, FTS_EV_SOFTIRQ_RAISE);
	assert_int_equal(e[13].u.softirq.vec, 4);
	assert_int_equal(e[14].type, FTS_EV_SOFTIRQ_ENTRY);
	assert_int_equal(e[14].u.softirq.vec, 1);
	assert_int_equal(e[15].type, FTS_EV_SOFTIRQ_EXIT);
	assert_int_equal(e[15].u.softirq.vec, 9);

	assert_int_equal(e[16].type, FTS_EV_FUTEX_ENTER);
	assert_string_equal(e[16].comm, "date");
	assert_int_equal(e[16].pid, 4888);
	assert_int_equal(e[16].u.futex.uaddr, 0x7fa3dd4e7a4cull);
	assert_int_equal(e[16].u.futex.op, 0x81);
	assert_int_equal(e[17].type, FTS_EV_FUTEX_EXIT);
	assert_int_equal(e[17].u.futex.ret, 0);
	/* the kernel prints a negative return as 0x%lx: -ETIMEDOUT */
	assert_int_equal(e[18].type, FTS_EV_FUTEX_EXIT);
	assert_true(e[18].u.futex.ret == -110);
	assert_int_equal(e[19].u.futex.ret, 2);
}

static void test_event_kinds(void **state)
{
	const char *text =
		"  bash-10 [001] d.s6.   630.000001: sched_waking: comm=memfd:sealed-91 pid=2697 prio=120 target_cpu=001\n"
		"  bash-10 [001] dNh2.   630.000002: sched_wakeup: comm=my worker-1 pid=77 prio=110 target_cpu=000\n"
		"  bash-10 [001] d..2.   630.000003: sched_wakeup_new: comm=bash pid=14319 prio=120 target_cpu=003\n"
		"  migration/0-18 [000] d..3.   630.000004: sched_migrate_task: comm=bash pid=14319 prio=120 orig_cpu=0 dest_cpu=1\n"
		"  bash-10 [001] d..2.   630.000005: sched_stat_runtime: comm=bash pid=10 runtime=783581 [ns]\n"
		"  bash-10 [001] d..2.   630.000006: sched_stat_runtime: comm=bash pid=10 runtime=4002917 [ns] vruntime=123456789 [ns]\n"
		"  bash-10 [001] .....   630.000007: sched_process_fork: comm=bash pid=10 child_comm=a:b-c d child_pid=14319\n"
		"  bash-14319 [001] .....   630.000008: sched_process_exec: filename=/usr/bin/hackbench pid=14319 old_pid=14319\n"
		"  bash-5 [001] .....   630.000009: sched_process_exec: filename=/opt/very_long_program_name pid=5 old_pid=5\n"
		"  hackbench-14325 [000] .....   630.000010: sched_process_exit: comm=hackbench pid=14325 prio=120 group_dead=true\n"
		"  bash-10 [001] d.h2.   630.000011: irq_handler_entry: irq=36 name=virtio1-req.0\n"
		"  bash-10 [001] d.h2.   630.000012: irq_handler_exit: irq=36 ret=handled\n"
		"  bash-10 [001] d.h2.   630.000013: irq_handler_exit: irq=37 ret=unhandled\n"
		"  bash-10 [001] d.h4.   630.000014: softirq_raise: vec=4 [action=BLOCK]\n"
		"  bash-10 [001] ..s2.   630.000015: softirq_entry: vec=1 [action=TIMER]\n"
		"  bash-10 [001] ..s2.   630.000016: softirq_exit: vec=9 [action=RCU]\n"
		"  date-4888 [001] .....   630.000017: sys_futex(uaddr: 0x7fa3dd4e7a4c, op: 0x81, val: 0x7fffffff, utime: 0, uaddr2: 3, val3: 0)\n"
		"  date-4888 [001] .....   630.000018: sys_futex -> 0x0\n"
		"  date-4888 [001] .....   630.000019: sys_futex -> 0xffffffffffffff92\n"
		"  date-4888 [001] .....   630.000020: sys_futex -> 0x2\n";
	const struct fts_event *e = cap.ev;

	(void)state;
	assert_int_equal(run(text, &cap, &st), 0);
	assert_int_equal(st.skipped, 0);
	assert_int_equal(cap.n, 20);
	for (int i = 0; i < cap.n; i++)
		assert_int_equal(e[i].ts, 630000001000ull + (uint64_t)i * 1000);

	check_task_events(e);
	check_irq_futex_events(e);

	assert_int_equal(st.by_type[FTS_EV_SWITCH], 0);
	assert_int_equal(st.by_type[FTS_EV_STAT_RUNTIME], 2);
	assert_int_equal(st.by_type[FTS_EV_FUTEX_EXIT], 3);
	assert_int_equal(st.cpus, 2);
}

static void test_odd_comms(void **state)
{
	const char *text =
		" memfd:sealed-91-1186    [000] d..2.   359.558993: sched_switch: prev_comm=memfd:sealed-91 prev_pid=1186 prev_prio=120 prev_state=S ==> next_comm=my worker-1 next_pid=55 next_prio=120\n"
		"     my worker-1-55      [000] d..2.   359.558994: sched_switch: prev_comm=my worker-1 prev_pid=55 prev_prio=120 prev_state=D ==> next_comm=a:b-c d next_pid=77 next_prio=120\n"
		"         a:b-c d-77      [000] d..2.   359.558995: sched_switch: prev_comm=x prev_pid=1 prev_pid=99 prev_prio=120 prev_state=S ==> next_comm=z next_pid=5 next_pid=6 next_prio=121\n"
		"         a:b-c d-77      [000] d..2.   359.558996: sched_waking: comm=a pid=1 pid=2 prio=120 target_cpu=000\n"
		"         -x--3-8         [000] d..2.   359.558997: sched_waking: comm=p pid=3 prio=120 target_cpu=000\n";
	const struct fts_event *e = cap.ev;

	(void)state;
	assert_int_equal(run(text, &cap, &st), 0);
	assert_int_equal(st.skipped, 0);
	assert_int_equal(cap.n, 5);
	assert_string_equal(e[0].comm, "memfd:sealed-91");
	assert_int_equal(e[0].pid, 1186);
	assert_string_equal(e[0].u.sw.prev_comm, "memfd:sealed-91");
	assert_int_equal(e[0].u.sw.prev_pid, 1186);
	assert_string_equal(e[0].u.sw.next_comm, "my worker-1");
	assert_int_equal(e[0].u.sw.next_pid, 55);
	assert_string_equal(e[1].comm, "my worker-1");
	assert_int_equal(e[1].pid, 55);
	assert_string_equal(e[1].u.sw.prev_state, "D");
	assert_string_equal(e[1].u.sw.next_comm, "a:b-c d");
	assert_int_equal(e[1].u.sw.next_pid, 77);
	assert_string_equal(e[2].comm, "a:b-c d");
	assert_int_equal(e[2].pid, 77);
	/* a comm holding the text of the next key: the kernel's comm is <= 15 bytes */
	assert_string_equal(e[2].u.sw.prev_comm, "x prev_pid=1");
	assert_int_equal(e[2].u.sw.prev_pid, 99);
	assert_int_equal(e[2].u.sw.prev_prio, 120);
	assert_string_equal(e[2].u.sw.prev_state, "S");
	assert_string_equal(e[2].u.sw.next_comm, "z next_pid=5");
	assert_int_equal(e[2].u.sw.next_pid, 6);
	assert_int_equal(e[2].u.sw.next_prio, 121);
	assert_string_equal(e[3].u.task.comm, "a pid=1");
	assert_int_equal(e[3].u.task.pid, 2);
	assert_int_equal(e[3].u.task.prio, 120);
	assert_string_equal(e[4].comm, "-x--3");
	assert_int_equal(e[4].pid, 8);
}

/* A pid reused after its task exited: the reader reports pids as they are. */
static void test_pid_reuse(void **state)
{
	const char *text =
		"  old-300 [000] .....  1.000001: sched_process_exit: comm=old pid=300 prio=120 group_dead=true\n"
		"  old-300 [000] d..2.  1.000002: sched_switch: prev_comm=old prev_pid=300 prev_prio=120 prev_state=X ==> next_comm=bash next_pid=10 next_prio=120\n"
		"  bash-10 [000] .....  1.000003: sched_process_fork: comm=bash pid=10 child_comm=bash child_pid=300\n"
		"  bash-300 [001] .....  1.000004: sched_process_exec: filename=/bin/new pid=300 old_pid=300\n";

	(void)state;
	assert_int_equal(run(text, &cap, &st), 0);
	assert_int_equal(cap.n, 4);
	assert_int_equal(cap.ev[0].u.task.pid, 300);
	assert_string_equal(cap.ev[1].u.sw.prev_state, "X");
	assert_int_equal(cap.ev[1].u.sw.prev_pid, 300);
	assert_int_equal(cap.ev[2].u.fork.child_pid, 300);
	assert_int_equal(cap.ev[3].pid, 300);
	assert_string_equal(cap.ev[3].u.exec.comm, "new");
}

static void test_lost(void **state)
{
	const char *text =
		"CPU:1 [LOST 42 EVENTS]\n"
		"  bash-1 [000] d..2.  10.000001: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n"
		"[LOST 5 EVENTS]\n"
		"  bash-1 [003] ..s2.  10.000002: softirq_entry: vec=1 [action=TIMER]\n"
		"  bash-1 [003] ..s2.  10.000003: softirq_exit: vec=1 [action=TIMER]\n"
		"CPU:2 [LOST 7 EVENTS]\n";
	const struct fts_event *e = cap.ev;

	(void)state;
	assert_int_equal(run(text, &cap, &st), 0);
	assert_int_equal(cap.n, 6);
	assert_int_equal(e[0].type, FTS_EV_LOST);
	assert_int_equal(e[0].cpu, 1);
	assert_int_equal(e[0].ts, 10000001000ull);
	assert_int_equal(e[0].u.lost.count, 42);
	assert_int_equal(e[1].type, FTS_EV_WAKING);
	assert_int_equal(e[2].type, FTS_EV_LOST);
	assert_int_equal(e[2].cpu, 3);   /* the line names no CPU: the next event's */
	assert_int_equal(e[2].ts, 10000002000ull);
	assert_int_equal(e[2].u.lost.count, 5);
	assert_int_equal(e[3].type, FTS_EV_SOFTIRQ_ENTRY);
	assert_int_equal(e[4].type, FTS_EV_SOFTIRQ_EXIT);
	/* a loss at the very end keeps its CPU and the last time seen */
	assert_int_equal(e[5].type, FTS_EV_LOST);
	assert_int_equal(e[5].cpu, 2);
	assert_int_equal(e[5].ts, 10000003000ull);
	assert_int_equal(e[5].u.lost.count, 7);
	assert_int_equal(st.lost_events, 54);
	assert_int_equal(st.by_type[FTS_EV_LOST], 3);
	assert_int_equal(st.skipped, 0);
	assert_int_equal(st.cpus, 4);
}

static void test_report_format(void **state)
{
	const char *text =
		"cpus=2\n"
		"fx:  bash-2238  [000]   116.152467: sched_switch:  bash:2238 [120] R ==> memfd:sealed-91:1186 [120]\n"
		"fx:  bash-2238  [001]   116.152468: sched_wakeup:         memfd:sealed-91:1186 [120] CPU:000\n"
		"ftsdata-14488-1:            sleep-14496 [001]   603.300683: sched_switch:         sleep:14496 [120] S ==> rcu_preempt:15 [120]\n"
		"     memfd:sealed-91-1186 [000]   603.300684: sched_waking:   comm=x pid=3 prio=120 target_cpu=001\n"
		"fx: CPU:1 [1066 EVENTS DROPPED]\n"
		"fx:  bash-2238  [001]   603.300685: irq_handler_entry:     irq=36 name=virtio1-req.0\n"
		"fx:  a:b-c d-9  [000]   603.300686: sched_wakeup_new:     a:b-c d:12 [110] CPU:001\n"
		"ftsdata-14312-1:        <idle>-0     [000]   603.300687: sched_switch:         swapper/0:0 [120] R+ ==> kdamond.0:77 [120]\n";
	const struct fts_event *e = cap.ev;

	(void)state;
	assert_int_equal(run(text, &cap, &st), 0);
	assert_int_equal(st.skipped, 0);
	assert_int_equal(cap.n, 8);
	assert_int_equal(e[0].type, FTS_EV_SWITCH);
	assert_string_equal(e[0].comm, "bash");
	assert_int_equal(e[0].pid, 2238);
	assert_int_equal(e[0].cpu, 0);
	assert_int_equal(e[0].ts, 116152467000ull);
	assert_string_equal(e[0].u.sw.prev_comm, "bash");
	assert_int_equal(e[0].u.sw.prev_pid, 2238);
	assert_int_equal(e[0].u.sw.prev_prio, 120);
	assert_string_equal(e[0].u.sw.prev_state, "R");
	assert_string_equal(e[0].u.sw.next_comm, "memfd:sealed-91");
	assert_int_equal(e[0].u.sw.next_pid, 1186);
	assert_int_equal(e[0].u.sw.next_prio, 120);

	assert_int_equal(e[1].type, FTS_EV_WAKEUP);
	assert_int_equal(e[1].cpu, 1);
	assert_string_equal(e[1].u.task.comm, "memfd:sealed-91");
	assert_int_equal(e[1].u.task.pid, 1186);
	assert_int_equal(e[1].u.task.prio, 120);
	assert_int_equal(e[1].u.task.target_cpu, 0);

	assert_string_equal(e[2].comm, "sleep");
	assert_int_equal(e[2].pid, 14496);
	assert_string_equal(e[2].u.sw.prev_state, "S");
	assert_string_equal(e[2].u.sw.next_comm, "rcu_preempt");
	assert_int_equal(e[2].u.sw.next_pid, 15);

	assert_string_equal(e[3].comm, "memfd:sealed-91");
	assert_int_equal(e[3].pid, 1186);
	assert_int_equal(e[3].u.task.pid, 3);
	assert_int_equal(e[3].u.task.target_cpu, 1);

	assert_int_equal(e[4].type, FTS_EV_LOST);
	assert_int_equal(e[4].cpu, 1);
	assert_int_equal(e[4].u.lost.count, 1066);
	assert_int_equal(e[4].ts, 603300685000ull);
	assert_int_equal(e[5].type, FTS_EV_IRQ_ENTRY);
	assert_string_equal(e[5].u.irq.name, "virtio1-req.0");

	assert_int_equal(e[6].type, FTS_EV_WAKEUP_NEW);
	assert_string_equal(e[6].comm, "a:b-c d");
	assert_int_equal(e[6].pid, 9);
	assert_string_equal(e[6].u.task.comm, "a:b-c d");
	assert_int_equal(e[6].u.task.pid, 12);
	assert_int_equal(e[6].u.task.prio, 110);
	assert_int_equal(e[6].u.task.target_cpu, 1);

	assert_string_equal(e[7].comm, "<idle>");
	assert_int_equal(e[7].pid, 0);
	assert_string_equal(e[7].u.sw.prev_comm, "swapper/0");
	assert_int_equal(e[7].u.sw.prev_pid, 0);
	assert_string_equal(e[7].u.sw.prev_state, "R+");
	assert_string_equal(e[7].u.sw.next_comm, "kdamond.0");
	assert_int_equal(e[7].u.sw.next_pid, 77);
	assert_int_equal(st.lost_events, 1066);
}

static void test_garbage(void **state)
{
	const char *text =
		"hello\x1b[31m world\n"
		"  bash-1 [000] d..2.  10.000001: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n"
		"  bash-1 [000] d..2.  notatime: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n"
		"  bash-1 [000] d..2.  10.000002: sched_switch: garbage\n"
		"  bash-1 [000] d..2.  10.000003: tracing_mark_write: hello other marker\n"
		"  bash-1 [000] d..2.  10.000004: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n"
		"[000] 10.000005: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n"
		"nodash [000] 10.000006: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n"
		"\n"
		"   \n";

	(void)state;
	assert_int_equal(run(text, &cap, &st), 0);
	assert_int_equal(cap.n, 2);
	assert_int_equal(cap.ev[0].ts, 10000001000ull);
	assert_int_equal(cap.ev[1].ts, 10000004000ull);
	assert_int_equal(st.events, 2);
	assert_int_equal(st.skipped, 5);
	assert_int_equal(st.other_events, 1);
	assert_int_equal(st.lines, 10);
	assert_int_equal(st.first_bad_line, 1);
	assert_string_equal(st.first_bad, "hello\\x1b[31m world");
}

static void test_first_bad_is_bounded(void **state)
{
	char text[600];

	(void)state;
	memset(text, '\x01', 500);
	strcpy(text + 500, "\n");
	assert_int_equal(run(text, &cap, &st), 0);
	assert_int_equal(cap.n, 0);
	assert_int_equal(st.skipped, 1);
	assert_true(strlen(st.first_bad) < sizeof(st.first_bad));
	assert_int_equal(strlen(st.first_bad) % 4, 0);
	assert_memory_equal(st.first_bad, "\\x01\\x01", 8);
}

static void test_no_final_newline(void **state)
{
	const char *text =
		"  bash-1 [000] d..2.  10.000001: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n"
		"  bash-1 [001] d..2.  10.000002: sched_switch: prev_comm=bash prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=3 next_prio=120";

	(void)state;
	assert_int_equal(run(text, &cap, &st), 0);
	assert_int_equal(cap.n, 2);
	assert_int_equal(cap.ev[1].type, FTS_EV_SWITCH);
	assert_int_equal(cap.ev[1].cpu, 1);
	assert_int_equal(cap.ev[1].u.sw.next_pid, 3);
	assert_int_equal(cap.ev[1].u.sw.next_prio, 120);
	assert_int_equal(st.lines, 2);
	assert_int_equal(st.skipped, 0);
}

/* The last line has no newline and stale bytes follow it in the buffer. */
static void test_no_final_newline_futex(void **state)
{
	const char *text = "  d-1 [000] .....  10.000001: sys_futex -> 0x2";

	(void)state;
	assert_int_equal(run(text, &cap, &st), 0);
	assert_int_equal(cap.n, 1);
	assert_int_equal(cap.ev[0].type, FTS_EV_FUTEX_EXIT);
	assert_int_equal(cap.ev[0].u.futex.ret, 2);
}

static void test_crlf(void **state)
{
	const char *text = "  bash-1 [000] d..2.  10.000001: irq_handler_entry: irq=5 name=eth0\r\n";

	(void)state;
	assert_int_equal(run(text, &cap, &st), 0);
	assert_int_equal(cap.n, 1);
	assert_string_equal(cap.ev[0].u.irq.name, "eth0");
}

static void test_clock_header(void **state)
{
	const char *text =
		"# tracer: nop\n"
		"# ftscope_clock realtime_ns=1795968706681603992 mono_raw_ns=359850431659\n"
		"  bash-1 [000] d..2.  10.000001: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n";

	(void)state;
	assert_int_equal(run(text, &cap, &st), 0);
	assert_int_equal(cap.n, 1);
	assert_int_equal(st.clock.valid, 1);
	assert_true(st.clock.realtime_ns == 1795968706681603992ll);
	assert_true(st.clock.mono_raw_ns == 359850431659ll);
}

/* A newer capture: MONOTONIC with each sample, a stop line in the header, a later closing marker. */
static void test_clock_samples(void **state)
{
	const char *text =
		"# ftscope_clock realtime_ns=1795968706681603992 mono_raw_ns=359850431659 mono_ns=359852931659 window_ns=90\n"
		"# ftscope_clock_stop realtime_ns=1795968716681603992 mono_raw_ns=369850431659 mono_ns=369852931959 window_ns=70\n"
		"  bash-1 [000] d..2.  360.000001: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n";
	const char *old_stop =
		"# ftscope_clock realtime_ns=1795968706681603992 mono_raw_ns=359850431659 mono_ns=359852931659 window_ns=90\n"
		"  rec.sh-4886 [000] ...1.  369.860036: tracing_mark_write: ftscope_clock realtime_ns=1795968716681603992 mono_raw_ns=369850431000 mono_ns=369852931000 window_ns=50\n"
		"  rec.sh-4886 [000] ...1.  369.860037: tracing_mark_write: ftscope_clock realtime_ns=1795968716681603992 mono_raw_ns=359850431000 mono_ns=359852931000 window_ns=50\n";

	(void)state;
	assert_int_equal(run(text, &cap, &st), 0);
	assert_int_equal(cap.n, 1);
	assert_int_equal(st.clock.valid, 1);
	assert_int_equal(st.clock.has_mono, 1);
	assert_true(st.clock.mono_ns == 359852931659ll && st.clock.window_ns == 90);
	assert_int_equal(st.clock.has_stop, 1);
	assert_true(st.clock.stop_realtime_ns == 1795968716681603992ll);
	assert_true(st.clock.stop_mono_raw_ns == 369850431659ll);
	assert_true(st.clock.stop_mono_ns == 369852931959ll && st.clock.stop_window_ns == 70);

	/* a later marker is the stop; one before the start is not */
	assert_int_equal(run(old_stop, &cap, &st), 0);
	assert_int_equal(st.clock.has_stop, 1);
	assert_true(st.clock.stop_mono_raw_ns == 369850431000ll);
	assert_int_equal(st.other_events, 0);

	/* an implausible MONOTONIC (2 s from RAW at 360 s of uptime) is dropped, the pair kept */
	assert_int_equal(run("# ftscope_clock realtime_ns=1795968706681603992 mono_raw_ns=359850431659 mono_ns=361850431659 window_ns=90\n",
			     &cap, &st), 0);
	assert_int_equal(st.clock.valid, 1);
	assert_int_equal(st.clock.has_mono, 0);
	/* a stop with no start anchors nothing */
	assert_int_equal(run("# ftscope_clock_stop realtime_ns=1795968716681603992 mono_raw_ns=369850431659 mono_ns=369852931959 window_ns=70\n",
			     &cap, &st), 0);
	assert_int_equal(st.clock.valid, 0);
}

static void test_clock_marker(void **state)
{
	const char *text =
		"  rec.sh-4886 [000] ...1.  359.860036: tracing_mark_write: ftscope_clock realtime_ns=1795968706681603992 mono_raw_ns=359850431659\n"
		"  rec.sh-4886 [000] ...1.  359.860060: tracing_mark_write: ftscope_clock realtime_ns=5 mono_raw_ns=6\n"
		"  rec.sh-4886 [000] ...1.  359.860061: tracing_mark_write: hello other marker\n";

	(void)state;
	assert_int_equal(run(text, &cap, &st), 0);
	assert_int_equal(cap.n, 0);
	assert_int_equal(st.skipped, 0);
	assert_int_equal(st.other_events, 2);   /* the implausible second marker too */
	assert_int_equal(st.clock.valid, 1);
	assert_true(st.clock.realtime_ns == 1795968706681603992ll);
	assert_true(st.clock.mono_raw_ns == 359850431659ll);

	assert_int_equal(run("  a-1 [000] ...1.  1.000001: tracing_mark_write: hello\n", &cap, &st), 0);
	assert_int_equal(st.clock.valid, 0);

	/* crafted markers (realtime before mono, past 2100, wrapping) are ignored */
	for (const char *const *m = (const char *const[]){
		"ftscope_clock realtime_ns=5 mono_raw_ns=6",
		"ftscope_clock realtime_ns=9223372036854775807 mono_raw_ns=1",
		"ftscope_clock realtime_ns=99999999999999999999999 mono_raw_ns=1",
		"ftscope_clock realtime_ns=1795968706681603992 mono_raw_ns=0",
		"ftscope_clock realtime_ns=1795968706681603992 mono_raw_ns=9223372036854775808", NULL }; *m; m++) {
		char line[256];

		snprintf(line, sizeof(line), "  a-1 [000] ...1.  1.000001: tracing_mark_write: %s\n", *m);
		assert_int_equal(run(line, &cap, &st), 0);
		assert_int_equal(st.clock.valid, 0);
	}
}

/* Issue 10 class 8: numbers too wide for their field are not wrapped. */
static void test_overflowing_numbers(void **state)
{
	const char *text =
		"  bash-4294967297 [000] d..2.  10.000001: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n"
		"  bash-1 [000] d..2.  10.000002: sched_waking: comm=a pid=99999999999999999999999 prio=120 target_cpu=000\n"
		"  bash-1 [000] d..2.  99999999999999.000003: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n"
		"  bash-1 [000] d..2.  10.000004: sched_waking: comm=a pid=3 prio=120 target_cpu=000\n";

	(void)state;
	assert_int_equal(run(text, &cap, &st), 0);
	assert_int_equal(cap.n, 1);
	assert_int_equal(cap.ev[0].u.task.pid, 3);
	assert_int_equal(st.skipped, 3);
}

/* Issue 10 class 9: time going backwards on a CPU stops the read with a message. */
static void test_time_backwards(void **state)
{
	const char *text =
		"  a-1 [000] d..2.  10.000001: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n"
		"  a-1 [001] d..2.  10.000000: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n"
		"  a-1 [000] d..2.  10.000001: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n"
		"  a-1 [000] d..2.   9.500000: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n";
	char path[] = "/tmp/fts_unit_text_XXXXXX";
	struct fts_read_opts o = { .emit = on_event, .emit_ctx = &cap };
	struct fts_err err = { 0 };
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	memset(&cap, 0, sizeof(cap));
	memset(&st, 0, sizeof(st));
	/* another CPU earlier, and an equal time on one CPU, are fine; 9.5 after 10 is not */
	assert_int_equal(fts_read_text(path, &o, &st, &err), -EINVAL);
	unlink(path);
	assert_int_equal(cap.n, 3);
	assert_non_null(strstr(err.msg, "time goes backwards on CPU 0 (9.500000000 s after 10.000001000 s)"));
}

static void test_empty(void **state)
{
	(void)state;
	assert_int_equal(run("", &cap, &st), 0);
	assert_int_equal(cap.n, 0);
	assert_int_equal(st.events, 0);
	assert_int_equal(st.lines, 0);
	assert_int_equal(st.skipped, 0);
	assert_int_equal(st.cpus, 0);
}

static int stop_at_second(void *ctx, const struct fts_event *ev)
{
	int *n = ctx;

	(void)ev;
	return ++*n == 2 ? 7 : 0;
}

/* A comm may hold "[7] " itself: the CPU column is the one followed by a timestamp. */
static void test_bracket_in_comm(void **state)
{
	(void)state;
	assert_int_equal(run("        x[7] y-321    [001] d..2.   50.000001: sched_waking: comm=a pid=9 prio=120 target_cpu=001\n",
			     &cap, &st), 0);
	assert_int_equal(cap.n, 1);
	assert_int_equal(cap.ev[0].cpu, 1);
	assert_int_equal(cap.ev[0].pid, 321);
	assert_string_equal(cap.ev[0].comm, "x[7] y");
	assert_int_equal(cap.ev[0].ts, 50000001000ull);
}

/* LOST lines for two CPUs before the next event give two markers, one per CPU. */
static void test_lost_two_cpus(void **state)
{
	(void)state;
	assert_int_equal(run("CPU:0 [LOST 5 EVENTS]\nCPU:1 [LOST 7 EVENTS]\n"
			     "  bash-1 [001] ..... 1.000002: softirq_raise: vec=1 [action=TIMER]\n",
			     &cap, &st), 0);
	assert_int_equal(cap.n, 3);
	assert_int_equal(cap.ev[0].type, FTS_EV_LOST);
	assert_int_equal(cap.ev[0].cpu, 0);
	assert_int_equal(cap.ev[0].u.lost.count, 5);
	assert_int_equal(cap.ev[1].type, FTS_EV_LOST);
	assert_int_equal(cap.ev[1].cpu, 1);
	assert_int_equal(cap.ev[1].u.lost.count, 7);
	assert_int_equal(cap.ev[1].ts, 1000002000ull);
	assert_int_equal(st.lost_events, 12);
}

static void test_emit_stops_and_missing_file(void **state)
{
	const char *text =
		"  bash-1 [000] d..2.  10.000001: softirq_entry: vec=1\n"
		"  bash-1 [000] d..2.  10.000002: softirq_entry: vec=1\n"
		"  bash-1 [000] d..2.  10.000003: softirq_entry: vec=1\n";
	char path[] = "/tmp/fts_unit_text_XXXXXX";
	int n = 0, fd = mkstemp(path);
	struct fts_read_opts o = { .emit = stop_at_second, .emit_ctx = &n };
	struct fts_err err = { 0 };

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	memset(&st, 0, sizeof(st));
	assert_int_equal(fts_read_text(path, &o, &st, &err), 7);
	assert_int_equal(n, 2);
	unlink(path);
	assert_int_equal(fts_read_text(path, &o, &st, &err), -ENOENT);
	assert_non_null(strstr(err.msg, path));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_event_kinds),
		cmocka_unit_test(test_odd_comms),
		cmocka_unit_test(test_pid_reuse),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_report_format),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_first_bad_is_bounded),
		cmocka_unit_test(test_no_final_newline),
		cmocka_unit_test(test_no_final_newline_futex),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_clock_header),
		cmocka_unit_test(test_clock_marker),
		cmocka_unit_test(test_clock_samples),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_emit_stops_and_missing_file),
		cmocka_unit_test(test_bracket_in_comm),
		cmocka_unit_test(test_lost_two_cpus),
		cmocka_unit_test(test_overflowing_numbers),
		cmocka_unit_test(test_time_backwards),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
