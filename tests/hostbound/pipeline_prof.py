#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The Ascend profiler's output for a run of pipeline.c, and its ground truth.

    pipeline_prof.py RUN_LOG OUT_DIR [RANK]

Writes OUT_DIR/prof/host_<pid>_<RANK>_ascend_pt/ (RANK 0 by default) in the profiler's shape
(shared/docs/ascend-profiling.md): trace_view.json with the device's stream
("Ascend Hardware", a synthetic pid), the
"Free" lane, the "Python" process with the main and dispatch threads and the
main thread's ops (cpu_op), async_npu flows (main thread's enqueue -> kernel)
written before the HostToDevice flows (dispatch thread's launch -> kernel) of
the same kernels, both ending at the same device time; start_info/end_info
and profiler_info_<RANK>.json from the run's clocks; and OUT_DIR/truth.json
(truth_<RANK>.json when RANK is given): the
injected stretches (epoch ns) with the category and culprit each must get,
cut to the parts the injection caused (see scored()).
"""
import json
import os
import sys


def us(ns):
    return "%d.%03d" % (ns // 1000, ns % 1000)


def read_log(path):
    run = {"ops": [], "kernels": [], "stretches": []}
    for line in open(path):
        w = line.split()
        if w[0] == "begin":
            run["raw0"], run["real0"] = int(w[1]), int(w[2])
        elif w[0] == "end":
            run["raw1"], run["real1"], run["mono1"] = int(w[1]), int(w[2]), int(w[3])
        elif w[0] == "pid":
            run["pid"] = int(w[1])
        elif w[0] in ("main", "dispatch", "saver"):
            run[w[0]] = (int(w[1]), int(w[2]))
        elif w[0] == "lockwait":
            run.setdefault("lockwaits", []).append((int(w[1]), int(w[2])))
        elif w[0] == "sop":
            run.setdefault("sops", []).append((int(w[1]), int(w[2]), " ".join(w[3:])))
        elif w[0] == "op":
            run["ops"].append((int(w[1]), int(w[2]), " ".join(w[3:])))
        elif w[0] == "kernel":
            run["kernels"].append(tuple(int(x) for x in w[1:5]))
        elif w[0] == "stretch":
            run["stretches"].append({"kind": w[1], "category": w[2], "culprit": w[3],
                                     "raw": (int(w[4]), int(w[5])), "pid": int(w[6]), "cpu_ns": int(w[7])})
    return run


def write_info(rank, run, rank_id):
    prof = os.path.join(rank, "PROF_000001_0_SIM", "host")
    os.makedirs(prof, exist_ok=True)
    os.makedirs(os.path.join(rank, "ASCEND_PROFILER_OUTPUT"), exist_ok=True)
    with open(os.path.join(prof, "start_info"), "w") as f:
        json.dump({"collectionTimeBegin": str(run["real0"] // 1000), "clockMonotonicRaw": str(run["raw0"])}, f)
    with open(os.path.join(prof, "end_info"), "w") as f:
        json.dump({"collectionTimeEnd": str(run["real1"] // 1000), "clockMonotonicRaw": str(run["raw1"])}, f)
    with open(os.path.join(rank, "profiler_info_%d.json" % rank_id), "w") as f:
        json.dump({"config": {"experimental_config": {"_profiler_level": "Level0", "_export_type": "text"}},
                   "start_info": {"syscnt_enable": False, "freq": 100, "start_cnt": 0,
                                  "start_monotonic": run["raw0"]},
                   "end_info": {"collectionTimeEnd": run["real1"], "MonotonicTimeEnd": run["mono1"]},
                   "rank_id": rank_id}, f)


def events(run, epoch):
    pid, (mtid, _), (dtid, _) = run["pid"], run["main"], run["dispatch"]
    # the profiler's synthetic device-side pids: python pid x 1024 + k, above INT32_MAX
    # (3089232288 in a real file); here lifted above it when the pid is small
    syn = pid * 1024 + (0 if pid * 1024 > 2**31 else 2**31)
    hw, ov, launch_pid = syn + 1, syn + 2, syn + 3
    # as in real files: the Python process's metadata starts with "ph", the device side's ends with it
    ev = [
        {"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": "Python"}},
        {"ph": "M", "name": "thread_name", "pid": pid, "tid": mtid, "args": {"name": "Thread %d" % mtid}},
        {"ph": "M", "name": "thread_name", "pid": pid, "tid": dtid, "args": {"name": "Thread %d" % dtid}},
        {"name": "process_name", "pid": hw, "tid": 0, "args": {"name": "Ascend Hardware"}, "ph": "M"},
        {"name": "thread_name", "pid": hw, "tid": 2, "args": {"name": "Stream 2"}, "ph": "M"},
        {"name": "process_name", "pid": ov, "tid": 0, "args": {"name": "Overlap Analysis"}, "ph": "M"},
        {"name": "thread_name", "pid": ov, "tid": 3, "args": {"name": "Free"}, "ph": "M"},
    ]
    for s, e, name in run["ops"]:
        ev.append({"ph": "X", "name": name, "pid": pid, "tid": mtid, "ts": us(epoch(s)),
                   "dur": (e - s) / 1000, "cat": "cpu_op"})
    # a third Python thread (the saver) and its ops, when the run had one
    if "saver" in run and run["saver"][0] > 0:
        stid = run["saver"][0]
        ev.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": stid, "args": {"name": "Thread %d" % stid}})
        for s, e, name in run.get("sops", []):
            ev.append({"ph": "X", "name": name, "pid": pid, "tid": stid, "ts": us(epoch(s)),
                       "dur": (e - s) / 1000, "cat": "cpu_op"})
    prev_end = None
    for i, (enq, host, s, e) in enumerate(run["kernels"]):
        ev.append({"ph": "X", "name": "FakeKernel_%d" % (i % 7), "pid": hw, "tid": 2, "ts": us(epoch(s)),
                   "dur": (e - s) / 1000, "args": {"Task Type": "AI_CORE"}})
        # async_npu first: with equal device times, the file's order must not decide the thread
        ev.append({"ph": "s", "cat": "async_npu", "name": "async_npu", "id": "a%d" % i, "pid": pid,
                   "tid": mtid, "ts": us(epoch(enq))})
        ev.append({"ph": "f", "bp": "e", "cat": "async_npu", "name": "async_npu", "id": "a%d" % i,
                   "pid": hw, "tid": 2, "ts": us(epoch(s))})
        ev.append({"ph": "s", "cat": "HostToDevice", "name": "HostToDevice", "id": i, "pid": launch_pid,
                   "tid": dtid, "ts": us(epoch(host))})
        ev.append({"ph": "f", "bp": "e", "cat": "HostToDevice", "name": "HostToDevice", "id": i,
                   "pid": hw, "tid": 2, "ts": us(epoch(s))})
        if prev_end is not None and s > prev_end:
            ev.append({"ph": "X", "name": "Free", "pid": ov, "tid": 3, "ts": us(epoch(prev_end)),
                       "dur": (s - prev_end) / 1000})
        prev_end = e if prev_end is None else max(prev_end, e)
    return ev


def work_spans(kernels):
    """When the dispatch thread had work: a launch queued and not yet made (the union of [enq, host])."""
    spans = []
    for enq, host, _, _ in sorted(kernels):
        if spans and enq <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], host)
        else:
            spans.append([enq, host])
    return spans


def scored(st, kernels, lockwaits):
    """
    The parts of a stretch its injection is the cause of, from the workload's own
    log (not the trace): interference on the dispatch side only while the dispatch
    thread had work; on the main side (spinner, hogs, sleeps) only while it had
    none; the lock only while the dispatch thread waited in pthread_mutex_lock
    (under load it may still be waiting for a CPU to get there). Under heavy load
    the rest is the load's doing, not the injection's.
    """
    a, b = st["raw"]
    if st["kind"] == "mutex":
        out = [(max(s, a), min(e, b)) for s, e in lockwaits if e > a and s < b]
        return [(x, y) for x, y in out if y - x >= 50000]
    downstream = st["kind"] in ("fifo_disp", "fifo_long", "mutex", "udp") or (st["kind"] == "wake_behind" and st["category"] == "runnable")
    out, t = [], a
    for s, e in work_spans(kernels):
        if e <= a or s >= b:
            continue
        s, e = max(s, a), min(e, b)
        if downstream:
            out.append((s, e))
        elif s > t:
            out.append((t, s))
        t = e
    if not downstream and t < b:
        out.append((t, b))
    return [(x, y) for x, y in out if y - x >= 50000]


def main():
    run = read_log(sys.argv[1])
    out = sys.argv[2]
    rank_id = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    rank = os.path.join(out, "prof", "host_%d_%d_ascend_pt" % (run["pid"], rank_id))
    write_info(rank, run, rank_id)

    def epoch(raw):
        return raw - run["raw0"] + run["real0"] // 1000 * 1000

    ev = events(run, epoch)
    with open(os.path.join(rank, "ASCEND_PROFILER_OUTPUT", "trace_view.json"), "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(e) for e in ev) + "\n]\n")
    stretches = []
    for st in run["stretches"]:
        for a, b in scored(st, run["kernels"], run.get("lockwaits", [])):
            # the share of the stretch the culprit task held the CPU, by its own clock
            share = min(1.0, st["cpu_ns"] / (st["raw"][1] - st["raw"][0]))
            stretches.append(dict(st, ns=[epoch(a), epoch(b)], cpu_share=share))
    truth = {"pid": run["pid"], "main_tid": run["main"][0], "dispatch_tid": run["dispatch"][0],
             "injected_ns": sum(st["raw"][1] - st["raw"][0] for st in run["stretches"]),
             "stretches": stretches}
    with open(os.path.join(out, "truth.json" if len(sys.argv) <= 3 else "truth_%d.json" % rank_id), "w") as f:
        json.dump(truth, f, indent=1)
    print("pipeline_prof: %d ops, %d kernels, %d stretches" % (len(run["ops"]), len(run["kernels"]),
                                                             len(run["stretches"])))


if __name__ == "__main__":
    main()
