#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A model that feeds a simulated NPU, and writes what the Ascend profiler would.

    sim.py OUT_DIR CPU

A dispatch thread (comm "npu_dispatch", pinned to CPU) launches fake kernels
to a simulated device that runs each for KERNEL_US after its launch (or after
the one before it ends). Now and then, at times it records, the model makes
the device wait on purpose:
  - sleep:   the dispatch thread sleeps SLEEP_MS (time.sleep: state S);
  - preempt: a busy loop (comm "hb_busy", SCHED_FIFO 10, pinned to the same
             CPU) spins BUSY_MS while the dispatch thread wants to run.
The dispatch and main threads run SCHED_FIFO 5, so the rest of a loaded
machine does not make gaps of its own in the stretches checked.
It writes OUT_DIR/prof/host_<pid>_0_ascend_pt/ in the profiler's shape
(shared/docs/ascend-profiling.md): ASCEND_PROFILER_OUTPUT/trace_view.json
(streams, HostToDevice flows, Free intervals, the Python threads),
profiler_info_0.json and PROF_*/host/{start_info,end_info} from the real
clocks (CLOCK_MONOTONIC_RAW, as the profiler's native side reads it), and
OUT_DIR/truth.json: the stretches it caused, in epoch ns.
"""
import json
import os
import signal
import sys
import threading
import time

KERNEL_US = 300        # each fake kernel's run on the device
WORK_US = 350        # host work per launch: longer than a kernel, so no backlog builds up
SLEEP_MS = 30
BUSY_MS = 30
NORMAL_MS = 150        # launching normally between the stretches
PLAN = ["sleep", "preempt", "sleep", "preempt"]

RAW = time.CLOCK_MONOTONIC_RAW


def raw_ns():
    return time.clock_gettime_ns(RAW)


def spin_us(us):
    end = raw_ns() + us * 1000
    while raw_ns() < end:
        pass


def set_comm(name):
    with open("/proc/thread-self/comm", "w") as f:
        f.write(name)


def busy_child(cpu, wfd):
    """The competing busy loop: FIFO on the dispatch CPU for BUSY_MS; reports its stretch."""
    set_comm("hb_busy")
    # above the dispatcher first: at its priority it would wait behind it forever
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
    # Still on the main thread's CPU: wait there until the dispatcher spins
    # again. Asking for this loop took the GIL from it, and the parent gives
    # it back only in waitpid; arriving on its CPU before it has it back, the
    # loop would find it asleep on the GIL, and its wait would be a wakeup's
    # ("waiting"), not the preemption this stretch is meant to cause.
    time.sleep(0.02)
    os.sched_setaffinity(0, {cpu})
    t0 = raw_ns()
    spin_us(BUSY_MS * 1000)
    t1 = raw_ns()
    os.write(wfd, ("%d %d\n" % (t0, t1)).encode())
    os._exit(0)


class Dispatch:
    def __init__(self, cpu):
        self.cpu = cpu
        self.launches = []        # (host raw ns, kernel index)
        self.stretches = []       # (kind, raw start, raw end)
        self.phase = threading.Event()   # set by the dispatcher: "start the busy loop now"
        self.busy_done = threading.Event()
        self.tid = None
        self.stop = False

    def launch_for(self, ms):
        end = raw_ns() + ms * 1_000_000
        while raw_ns() < end:
            spin_us(WORK_US)
            self.launches.append(raw_ns())

    def run(self):
        self.tid = threading.get_native_id()
        set_comm("npu_dispatch")
        os.sched_setaffinity(0, {self.cpu})
        # FIFO below the busy loop's: on a loaded machine (the tests of others)
        # nothing but the busy loop, irqs and kernel RT threads may take its CPU,
        # so the gaps the test checks are the ones the model made
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(5))
        self.launch_for(NORMAL_MS)
        for kind in PLAN:
            if kind == "sleep":
                t0 = raw_ns()
                time.sleep(SLEEP_MS / 1000)
                self.stretches.append(("sleep", t0, raw_ns()))
            else:
                # keep launching (wanting the CPU) while the busy loop holds it
                self.busy_done.clear()
                self.phase.set()
                while not self.busy_done.is_set():
                    spin_us(WORK_US)
                    self.launches.append(raw_ns())
            self.launch_for(NORMAL_MS)


def device(launches):
    """Each kernel starts 20 us after its launch, or when the one before it ends."""
    out, free_at = [], 0
    for host in launches:
        start = max(host + 20_000, free_at)
        out.append((host, start, start + KERNEL_US * 1000))
        free_at = start + KERNEL_US * 1000
    return out


def us(ns):
    """Epoch ns as the profiler's ts string: microseconds with three decimals."""
    return "%d.%03d" % (ns // 1000, ns % 1000)


def main():
    out, cpu = sys.argv[1], int(sys.argv[2])
    # it spins at a real-time priority: never for long, whatever goes wrong
    signal.alarm(20)
    other = [c for c in os.sched_getaffinity(0) if c != cpu]
    if not other:
        sys.exit("sim.py: needs a second CPU for the main thread")
    os.sched_setaffinity(0, {other[0]})
    # the main thread answers at once too: it takes the GIL the dispatcher needs
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(5))
    pid = os.getpid()
    # the profiler's start: realtime and mono_raw read back to back
    begin_real, begin_raw = time.time_ns(), raw_ns()
    d = Dispatch(cpu)
    th = threading.Thread(target=d.run)
    th.start()
    busy = []
    while th.is_alive():
        if d.phase.wait(0.01):
            d.phase.clear()
            r, w = os.pipe()
            child = os.fork()
            if child == 0:
                os.close(r)
                busy_child(cpu, w)
            os.close(w)
            os.waitpid(child, 0)
            t0, t1 = map(int, os.read(r, 100).split())
            os.close(r)
            busy.append((t0, t1, child))
            d.busy_done.set()
    th.join()
    end_real, end_raw, end_mono = time.time_ns(), raw_ns(), time.clock_gettime_ns(time.CLOCK_MONOTONIC)

    def epoch(raw):
        return raw - begin_raw + begin_real // 1000 * 1000

    rank = os.path.join(out, "prof", "host_%d_0_ascend_pt" % pid)
    prof = os.path.join(rank, "PROF_000001_0_SIM", "host")
    os.makedirs(prof, exist_ok=True)
    os.makedirs(os.path.join(rank, "ASCEND_PROFILER_OUTPUT"), exist_ok=True)
    with open(os.path.join(prof, "start_info"), "w") as f:
        json.dump({"collectionTimeBegin": str(begin_real // 1000), "clockMonotonicRaw": str(begin_raw)}, f)
    with open(os.path.join(prof, "end_info"), "w") as f:
        json.dump({"collectionTimeEnd": str(end_real // 1000), "clockMonotonicRaw": str(end_raw)}, f)
    with open(os.path.join(rank, "profiler_info_0.json"), "w") as f:
        json.dump({"config": {"experimental_config": {"_profiler_level": "Level0", "_export_type": "text"}},
                   "start_info": {"syscnt_enable": False, "freq": 100, "start_cnt": 0,
                                  "start_monotonic": begin_raw},
                   "end_info": {"collectionTimeEnd": end_real, "MonotonicTimeEnd": end_mono},
                   "rank_id": 0}, f)

    dev = device(d.launches)
    hw, ov, host_pid = 9001, 9002, 9003
    ev = [
        {"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": "Python"}},
        {"ph": "M", "name": "thread_name", "pid": pid, "tid": pid, "args": {"name": "Thread %d" % pid}},
        {"ph": "M", "name": "thread_name", "pid": pid, "tid": d.tid, "args": {"name": "Thread %d" % d.tid}},
        {"ph": "M", "name": "process_name", "pid": hw, "tid": 0, "args": {"name": "Ascend Hardware"}},
        {"ph": "M", "name": "thread_name", "pid": hw, "tid": 2, "args": {"name": "Stream 2"}},
        {"ph": "M", "name": "process_name", "pid": ov, "tid": 0, "args": {"name": "Overlap Analysis"}},
        {"ph": "M", "name": "thread_name", "pid": ov, "tid": 0, "args": {"name": "Computing"}},
        {"ph": "M", "name": "thread_name", "pid": ov, "tid": 3, "args": {"name": "Free"}},
    ]
    prev_end = None
    for i, (host, start, end) in enumerate(dev):
        ev.append({"ph": "X", "name": "FakeKernel_%d" % (i % 7), "pid": hw, "tid": 2, "ts": us(epoch(start)),
                   "dur": KERNEL_US, "args": {"Task Type": "AI_CORE", "Task Id": i}})
        ev.append({"ph": "X", "name": "Computing", "pid": ov, "tid": 0, "ts": us(epoch(start)), "dur": KERNEL_US})
        ev.append({"ph": "s", "cat": "HostToDevice", "name": "HostToDevice", "id": str(i), "pid": host_pid,
                   "tid": d.tid, "ts": us(epoch(host))})
        ev.append({"ph": "f", "bp": "e", "cat": "HostToDevice", "name": "HostToDevice", "id": str(i),
                   "pid": hw, "tid": 2, "ts": us(epoch(start))})
        if prev_end is not None and start > prev_end:
            ev.append({"ph": "X", "name": "Free", "pid": ov, "tid": 3, "ts": us(epoch(prev_end)),
                       "dur": (start - prev_end) / 1000})
        prev_end = end
    with open(os.path.join(rank, "ASCEND_PROFILER_OUTPUT", "trace_view.json"), "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(e) for e in ev) + "\n]\n")
    truth = {"dispatch_tid": d.tid, "pid": pid, "cpu": cpu, "launches": len(dev),
             "sleep": [[epoch(a), epoch(b)] for k, a, b in d.stretches if k == "sleep"],
             "preempt": [[epoch(a), epoch(b), c] for a, b, c in busy]}
    with open(os.path.join(out, "truth.json"), "w") as f:
        json.dump(truth, f)
    print("sim: %d launches, %d sleeps, %d busy loops, dispatch tid %d on CPU %d"
          % (len(dev), len(truth["sleep"]), len(busy), d.tid, cpu))


if __name__ == "__main__":
    main()
