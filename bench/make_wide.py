#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make_wide.py - a synthetic ftrace text capture of a wide host (issue 20).

    make_wide.py OUT [CPUS [TASKS [STEPS]]]     (defaults 192, 100000, 1200)

CPUS CPUs that are always busy, TASKS tasks (pids 1000.., names worker/N:K)
spread over the CPUs (task i lives on CPU i % CPUS). Every CPU switches once a
step (a step is 960 us): the task it picks next is woken first (sched_waking,
then sched_wakeup on that CPU 2 us later), runs, and leaves sleeping
(prev_state=S) with a sched_stat_runtime of its slice; it cycles through its
CPU's tasks in turn, so with STEPS >= TASKS / CPUS every task runs. CPU c's
events of a step sit at c * 5 us into it, so the lines come out in time
order, as the kernel's merged `trace` file has them. Deterministic: the same
arguments give the same bytes.
"""
import sys

out = sys.argv[1]
ncpu = int(sys.argv[2]) if len(sys.argv) > 2 else 192
ntask = int(sys.argv[3]) if len(sys.argv) > 3 else 100000
steps = int(sys.argv[4]) if len(sys.argv) > 4 else 1200
STEP_US = 960
SLOT_US = 5
assert ncpu * SLOT_US <= STEP_US, "too many CPUs for the step"
per_cpu = [(ntask - c + ncpu - 1) // ncpu for c in range(ncpu)]   # tasks on CPU c
base_us = 1000 * 1000000                                            # 1000 s since boot
comm = lambda i: "worker/%d:%d" % (i % ncpu, i // ncpu)


def task(c, k):
    """The k-th task of CPU c: (pid, comm)."""
    i = c + ncpu * (k % per_cpu[c])
    return 1000 + i, comm(i)


def ts(us):
    return "%5d.%06d" % (us // 1000000, us % 1000000)


events = 0
with open(out, "w", buffering=1 << 22) as o:
    o.write("# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:%d\n#\n" % ncpu)
    o.write("#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n")
    o.write("#              | |         |   |||||     |         |\n")
    cur = [None] * ncpu
    for s in range(steps):
        buf = []
        for c in range(ncpu):
            t = base_us + s * STEP_US + c * SLOT_US
            npid, ncomm = task(c, s)
            if cur[c] is None:
                ppid, pcomm = 0, "swapper/%d" % c
            else:
                ppid, pcomm = cur[c]
            who = "%16s-%-7d [%03d]" % (pcomm, ppid, c)
            buf.append("%s d..4. %s: sched_waking: comm=%s pid=%d prio=120 target_cpu=%03d\n"
                       % (who, ts(t), ncomm, npid, c))
            buf.append("%s d..5. %s: sched_wakeup: comm=%s pid=%d prio=120 target_cpu=%03d\n"
                       % (who, ts(t + 2), ncomm, npid, c))
            if ppid:
                buf.append("%s d..2. %s: sched_stat_runtime: comm=%s pid=%d runtime=%d [ns]\n"
                           % (who, ts(t + 3), pcomm, ppid, STEP_US * 1000 - 4000))
            buf.append("%s d..2. %s: sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s"
                       " ==> next_comm=%s next_pid=%d next_prio=120\n"
                       % (who, ts(t + 4), pcomm, ppid, "S" if ppid else "R", ncomm, npid))
            events += 4 if ppid else 3
            cur[c] = (npid, ncomm)
        o.write("".join(buf))
print("%s: %d CPUs, %d tasks, %d steps of %d us, %d events" % (out, ncpu, ntask, steps, STEP_US, events))
