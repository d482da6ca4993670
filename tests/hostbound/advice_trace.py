#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A text capture (the instance's `trace` file) of 4 CPUs under a card that
gen.py wrote with --pid 4000 --main-tid 4000 --disp-tid 4003, every 10 ms
period of the profile (device busy 1-3 ms into it, idle after):
  CPU 0: the dispatch thread npu_dispatch:4003 runs from 0; irq 42 "eth0-rx"
         hits it at 3.5-4.5 ms; then the real-time hog:4100 (kernel prio 49:
         SCHED_FIFO/RR priority 50) preempts it until the next period;
  CPU 1: busy:4200 all the time, the main thread python:4000 0.1 ms of it;
  CPUs 2, 3: idle (one 10 us kworker run each, at the start, so the capture
         knows them).
So the advice must say: CPUs 2-3 idle -> taskset for 4003 and 4000; hog:4100
real-time priority 50; irq 42 on CPU 0 -> its smp_affinity without CPU 0.
usage: advice_trace.py OUT.txt (times: the bundled sample's start_info + 50 ms)
"""
import sys

m0 = 623.805628706 + 0.050    # mono_raw of the profile's t0 (start_info + 50 ms)
lines = []
def ev(comm, pid, cpu, t, flags, what):
    lines.append((t, "%16s-%-7d [%03d] %s %12.6f: %s" % (comm, pid, cpu, flags, t, what)))
def sw(cpu, t, pc, pp, pprio, pst, nc, np_, nprio):
    ev(pc, pp, cpu, t, "d..2.", "sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d" % (pc, pp, pprio, pst, nc, np_, nprio))
def wake(cpu, t, bc, bp, comm, pid, prio, tcpu, flags="d..4."):
    ev(bc, bp, cpu, t, flags, "sched_waking: comm=%s pid=%d prio=%d target_cpu=%03d" % (comm, pid, prio, tcpu))
    ev(bc, bp, cpu, t + 0.000001, flags, "sched_wakeup: comm=%s pid=%d prio=%d target_cpu=%03d" % (comm, pid, prio, tcpu))
ms = 0.001
for c in (2, 3):
    sw(c, m0 + 0.05 * ms, "swapper/%d" % c, 0, 120, "R", "kworker/%d:1" % c, 4300 + c, 120)
    sw(c, m0 + 0.06 * ms, "kworker/%d:1" % c, 4300 + c, 120, "I", "swapper/%d" % c, 0, 120)
sw(1, m0 + 0.01 * ms, "swapper/1", 0, 120, "R", "busy", 4200, 120)
for p in range(13):
    P = m0 + p * 10 * ms
    if p == 0:
        sw(0, P, "swapper/0", 0, 120, "R", "npu_dispatch", 4003, 120)
    else:
        sw(0, P, "hog", 4100, 49, "S", "npu_dispatch", 4003, 120)
    ev("npu_dispatch", 4003, 0, P + 3.5 * ms, "d.h..", "irq_handler_entry: irq=42 name=eth0-rx")
    ev("npu_dispatch", 4003, 0, P + 4.5 * ms, "d.h..", "irq_handler_exit: irq=42 ret=handled")
    wake(0, P + 4.501 * ms, "npu_dispatch", 4003, "hog", 4100, 49, 0, "d.h4.")
    sw(0, P + 4.503 * ms, "npu_dispatch", 4003, 120, "R+", "hog", 4100, 49)
    wake(1, P + 0.1 * ms, "busy", 4200, "python", 4000, 120, 1)
    sw(1, P + 0.102 * ms, "busy", 4200, 120, "R+", "python", 4000, 120)
    sw(1, P + 0.2 * ms, "python", 4000, 120, "S", "busy", 4200, 120)
lines.sort(key=lambda x: x[0])
out = open(sys.argv[1], "w")
out.write("# tracer: nop\n#\n# entries-in-buffer/entries-written: %d/%d   #P:4\n#\n" % (len(lines), len(lines)))
for _, l in lines:
    out.write(l + "\n")
