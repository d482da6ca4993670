#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a card's trace_view.json in the Ascend PyTorch profiler's shape into
a copy of the bundled sample's profiling directory (its clock files are the
sample capture's), for the preview's NPU lanes and gaps panel tests.

    npu_prof.py SAMPLE_PROFILING_DIR OUT_DIR [--streams N] [--hccl-planes N] [--steps N]

The card: two device streams; a kernel of 2 ms every 10 ms from 50 ms into
the profiling window on stream 5 (K<i>), a 1 ms copy after every fourth one
on stream 7 (C<i>); gaps of 8 ms, except that every 25th period holds no
kernel (an 18 ms gap: the worst ones); a 1 ms all-reduce after every fifth
kernel on the "HCCL" process; the profiler's "Free" lane where neither
computes nor communicates; HostToDevice flows from container tid 3 (npu_dispatch, host pid 15237
in the sample's pid_mapping.json), each after an aten::linear op on that
thread (a DataLoader.__next__ op over the 18 ms gaps); the "Python" process
with threads 1 and 3.
--streams N (N > 2) adds streams 10, 11, ... of ever fewer kernels, the
busiest first, and --hccl-planes N the HCCL process's "Plane 0".."Plane N-1"
threads with its all-reduces, as a real card shows them (8-16 streams, a
plane per link); without them the output is the two-stream card above.
--steps N writes N training steps (ProfilerStep#<n> on thread 1), 200 ms
each but the third, 400 ms (the slowest).
Deterministic: the same bytes every run.
"""
import argparse
import glob
import json
import os
import shutil


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("out")
    ap.add_argument("--streams", type=int, default=2)
    ap.add_argument("--hccl-planes", type=int, default=0)
    ap.add_argument("--steps", type=int, default=0)
    a = ap.parse_args()
    src, out = a.src, a.out
    extra = list(range(10, 10 + max(a.streams - 2, 0)))
    if os.path.exists(out):
        shutil.rmtree(out)
    shutil.copytree(src, out)
    rank = glob.glob(os.path.join(out, "*_ascend_pt"))[0]
    start = glob.glob(os.path.join(rank, "PROF_*", "host", "start_info"))[0]
    t0 = int(json.load(open(start))["collectionTimeBegin"]) + 50000  # us
    ev = [
        {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "Python"}},
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "Thread 1"}},
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": 3, "args": {"name": "Thread 3"}},
        {"ph": "M", "name": "process_name", "pid": 77, "args": {"name": "Ascend Hardware"}},
        {"ph": "M", "name": "thread_name", "pid": 77, "tid": 5, "args": {"name": "Stream 5"}},
        {"ph": "M", "name": "thread_name", "pid": 77, "tid": 7, "args": {"name": "Stream 7"}},
        {"ph": "M", "name": "process_name", "pid": 88, "args": {"name": "Overlap Analysis"}},
        {"ph": "M", "name": "thread_name", "pid": 88, "tid": 2, "args": {"name": "Free"}},
        {"ph": "M", "name": "process_name", "pid": 99, "args": {"name": "HCCL"}},
        {"ph": "M", "name": "thread_name", "pid": 99, "tid": 0,
         "args": {"name": "Group 0 Communication"}},
    ]
    for st in extra:
        ev.append({"ph": "M", "name": "thread_name", "pid": 77, "tid": st,
                   "args": {"name": "Stream %d" % st}})
    for p in range(a.hccl_planes):
        ev.append({"ph": "M", "name": "thread_name", "pid": 99, "tid": 1 + p,
                   "args": {"name": "Plane %d" % p}})
    busy = []
    for i in range(200):
        if i % 25 == 24:
            # nothing launched this period (an 18 ms gap): the thread waits for data
            ev.append({"ph": "X", "name": "DataLoader.__next__", "pid": 1, "tid": 3,
                       "ts": "%d.000" % (t0 + i * 10000 - 4000), "dur": 13000})
            continue
        ts = t0 + i * 10000
        busy.append((ts, 2000))
        ev.append({"ph": "X", "name": "MatMulV2_K%d" % i, "pid": 77, "tid": 5,
                   "ts": "%d.000" % ts, "dur": 2000})
        # the launch's op on the dispatch thread (cpu_op), just before the kernel
        ev.append({"ph": "X", "name": "aten::linear", "pid": 1, "tid": 3,
                   "ts": "%d.000" % (ts - 500), "dur": 480})
        ev.append({"ph": "s", "cat": "HostToDevice", "id": i, "pid": 1, "tid": 3,
                   "ts": "%d.000" % (ts - 30)})
        ev.append({"ph": "f", "bp": "e", "cat": "HostToDevice", "id": i, "pid": 77, "tid": 5,
                   "ts": "%d.000" % ts})
        if i % 4 == 0:
            ev.append({"ph": "X", "name": "MemcpyAsync_C%d" % i, "pid": 77, "tid": 7,
                       "ts": "%d.000" % (ts + 2000), "dur": 1000})
            busy.append((ts + 2000, 1000))
        if i % 5 == 0:
            ev.append({"ph": "X", "name": "hcom_allReduce_%d" % i, "pid": 99, "tid": 0,
                       "ts": "%d.000" % (ts + 2000), "dur": 1000})
            busy.append((ts + 2000, 1000))
            for p in range(a.hccl_planes):
                ev.append({"ph": "X", "name": "hcom_allReduce_%d" % i, "pid": 99, "tid": 1 + p,
                           "ts": "%d.000" % (ts + 2000), "dur": 1000})
        # stream 10 + j: a 500 us kernel every (j + 2)th period, after the copy
        for j, st in enumerate(extra):
            if i % (j + 2) == 0:
                ev.append({"ph": "X", "name": "AddN_S%d_%d" % (st, i), "pid": 77, "tid": st,
                           "ts": "%d.000" % (ts + 3200), "dur": 500})
                busy.append((ts + 3200, 500))
    # --steps N: ProfilerStep#1..N on the main thread, 200 ms each from the first
    # kernel's period, but the third twice as long (its end holds the first 18 ms gap)
    t = t0 - 4000
    for k in range(1, a.steps + 1):
        dur = 400000 if k == 3 else 200000
        ev.append({"ph": "X", "name": "ProfilerStep#%d" % k, "pid": 1, "tid": 1, "ts": "%d.000" % t,
                   "dur": dur, "cat": "python_function"})
        t += dur
    busy.sort()
    end = busy[0][0] + busy[0][1]
    for ts, dur in busy[1:]:
        if ts > end:
            ev.append({"ph": "X", "name": "Free", "pid": 88, "tid": 2,
                       "ts": "%d.000" % end, "dur": ts - end})
        end = max(end, ts + dur)
    os.makedirs(os.path.join(rank, "ASCEND_PROFILER_OUTPUT"), exist_ok=True)
    with open(os.path.join(rank, "ASCEND_PROFILER_OUTPUT", "trace_view.json"), "w") as f:
        json.dump(ev, f)


if __name__ == "__main__":
    main()
