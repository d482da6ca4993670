#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A fake training loop that records the scheduler around its steps with ftscope.

    sudo PYTHONPATH=python FTSCOPE_LIBRARY=build/lib/libftscope.so.0 \\
        python3 examples/train_with_ftrace.py --steps 20 --profiling_data result_dir/xxx_ascend_pt

Warm-up steps run untraced; the capture starts after them and stops after the
last step; each step's start and end are marked on CLOCK_MONOTONIC_RAW, the
trace clock, so they line up with the trace (and with the Ascend profiling
data, which uses the same clock). Then the capture is converted for
MindStudio Insight (aligned with the profiling data when given) and the tasks
that waited longest for a CPU are listed. With the drop-in instead:

    import trace_record
    trace_record.ftrace_record_start(cpu_mask="0-15")
    ...
    trace_record.ftrace_record_stop(output="trace.dat")
"""
import argparse
import os
import sys
import threading
import time

import ftscope


def dispatch_work(n):
    """CPU work standing in for operator dispatch."""
    x = 0
    for i in range(n):
        x += i * i
    return x


def train_step(workers):
    """One step: a few threads issue work, then the host waits for the 'device'."""
    threads = [threading.Thread(target=dispatch_work, args=(200000,), name="dispatch%d" % i)
               for i in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    time.sleep(0.01)  # the NPU computing


def now_raw_ns():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--workers", type=int, default=4)
    p.add_argument("--cpus", default=None, help="CPU list to record, e.g. 0-15 (default: all)")
    p.add_argument("--output", default="trace.dat")
    p.add_argument("--db", default="ftrace_data.db")
    p.add_argument("--profiling_data", default=None, help="Ascend profiling directory, for alignment")
    a = p.parse_args()

    for _ in range(a.warmup):
        train_step(a.workers)
    marks = []
    try:
        rec = ftscope.Recorder(output=a.output, cpus=a.cpus).start()
    except ftscope.FtscopeError as e:
        print("cannot record: %s" % e, file=sys.stderr)
        return 1
    with rec:  # stops (and saves) even if a step raises
        for step in range(a.steps):
            t0 = now_raw_ns()
            train_step(a.workers)
            marks.append((step, t0, now_raw_ns()))
            if step % 5 == 4:
                h = rec.health()
                print("step %d: %d events (%.0f/s), lost: %s"
                      % (step, h["events"], h["events_per_s"], h["lost_text"]))
    print("trace: %s (%d bytes, lost: %s)" % (rec.output, rec.summary["file_size"],
                                              rec.summary["health"]["lost_text"]))
    for step, t0, t1 in marks[:3]:
        print("step %d: mono_raw %d .. %d ns (%.2f ms)" % (step, t0, t1, (t1 - t0) / 1e6))

    s = ftscope.convert(input=rec.output, output=a.db, profiling_data=a.profiling_data)
    print("converted in %.2f s: %d items, %d CPU lanes, %d task lanes%s"
          % (s["seconds"], s["items"], s["cpu_lanes"], s["task_lanes"],
             ", aligned with %d profiling card(s)" % s["cards"] if s["aligned"] else ""))
    st = ftscope.stats(rec.output, sort="runnable_ns", top=5)
    print("waited longest for a CPU:")
    for t in st["tasks"]:
        print("  %-24s runnable %8.2f ms, preempted most by %s"
              % (t["task"].encode("ascii", "backslashreplace").decode(), t["runnable_ns"] / 1e6,
                 (t["top_preempter"] or "-").encode("ascii", "backslashreplace").decode()))
    print("Import %s into MindStudio Insight, in the same project as the profiling data."
          % os.path.abspath(s["output"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
