#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ref_standin.py - a stand-in for the reference trace_convert.py, as an anchor for bench/all.sh.

The reference converter (a Python script Ascend users run today) is not on this
machine. This follows its documented method and writes the DB output it is
documented to write, so a trace.dat -> DB figure has an anchor measured in the
same run. It is not a converter to use. Sources (shared/docs/):

  method  reference-behaviour.md §2 "Known limits": trace.dat goes through
          `trace-cmd report` text, a regex per line in Python, the whole result
          held in lists, sorted, then written.
  lanes   reference-behaviour.md §2 "What it produces (lanes)":
          CPU lanes `CPU <n>`: an on-CPU slice `comm:pid` per run (args host_pid,
          total_runtime "<n> [ns]", vruntime, end_state, prio), a zero-length
          `sched_switch` marker with all switch fields, `irq` slices (matched per CPU
          by irq number; args irq, name, ret, task) and `softirq` slices (by vec;
          args vec, action, task), unmatched pairs and durations < 0 or > 1 s dropped;
          task lanes `comm:pid` with Running/Runnable/Sleeping (arg cpu): R/R+ ->
          Runnable, X/Z ends it, other states Sleeping, a wakeup Sleeping -> Runnable;
          tasks whose comm contains swapper/kworker/migration left out; slices still
          open at the end dropped.
  times   insight-import-contract.md §8.2: sec.usec -> ns, DB int(float(us) * 1000).
  details insight-import-contract.md §8.5: a task that exits or execs loses all
          its task-lane slices (its state object is deleted before output); each
          task's last state and each CPU's last run are dropped; a task first seen
          as prev of a switch, then woken, gets a first Sleeping without cpu;
          vruntime is the integer 0 without a sched_stat_runtime value for it;
          sched_switch only if neither side is a kernel comm; irq task `comm:pid`
          (also `<idle>:0`); depth/cat/cname/flag_id NULL; lanes keyed by tid only.
  tables  insight-import-contract.md §2.2-2.3: process, thread, slice, counter,
          flow (the last two empty), and Insight's 3 indexes, which "the reference
          converter does" [ref exporters.py:158-161, 267]: built here after the
          rows (the cheaper order; the cited lines do not settle which it uses).

Not done, as the reference does not do it either: flows (no waker -> wakee link),
sched_waking/sched_migrate_task/sched_process_fork/softirq_raise (read, unused).
No --profiling_data or --pid_mapping (the bench passes neither).

    ref_standin.py TRACE.dat OUT.db
"""
import json
import re
import sqlite3
import subprocess
import sys

# trace-cmd report: "[instance: ]comm-pid [cpu] sec.usec: event: fields"; its sched
# lines are "prev:pid [prio] S ==> next:pid [prio]" and "comm:pid [prio] CPU:nnn".
LINE = re.compile(r"^(?:[\w.-]+:\s)?\s*(?P<comm>.+?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+(?P<ts>\d+\.\d+):\s+"
                  r"(?P<event>\w+):\s+(?P<rest>.*)$")
SWITCH = re.compile(r"(?P<pc>.+?):(?P<pp>\d+) \[(?P<ppr>\d+)\] (?P<ps>\S+) ==> (?P<nc>.+?):(?P<np>\d+) \[(?P<npr>\d+)\]")
WAKE = re.compile(r"(?P<c>.+?):(?P<p>\d+) \[(?P<pr>\d+)\](?: CPU:(?P<t>\d+))?")
RUNTIME = re.compile(r"comm=(?P<c>.+) pid=(?P<p>\d+) runtime=(?P<r>\d+)(?: \[ns\])?(?: vruntime=(?P<v>\d+))?")
IRQ_ENTRY = re.compile(r"irq=(?P<irq>\d+) name=(?P<name>.*)")
IRQ_EXIT = re.compile(r"irq=(?P<irq>\d+) ret=(?P<ret>\S+)")
SOFTIRQ = re.compile(r"vec=(?P<vec>\d+) \[action=(?P<action>\w+)\]")
EXEC = re.compile(r"filename=(?P<f>\S+) pid=(?P<p>\d+)")
EXIT = re.compile(r"comm=(?P<c>.+) pid=(?P<p>\d+)")
KERNEL = ("swapper", "kworker", "migration")
MAX_IRQ_NS = 1000000000


def kernel(comm):
    return any(k in comm for k in KERNEL)


def to_ns(ts):
    """sec.usec -> ns as the reference does, then its DB's float round trip."""
    sec, frac = ts.split(".")
    ns = (int(sec) * 1000000 + int(frac)) * 1000
    return int(float(ns / 1000) * 1000)


def main(inp, out):
    rep = subprocess.run(["trace-cmd", "report", "-i", inp], check=True,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
    cpu_slices = []      # (ts, dur, name, tid, args): CPU lanes
    running = {}         # cpu -> [ts, comm, pid, prio, runtime, vruntime]
    tasks = {}           # tid "comm:pid" -> {"tid", "state", "ts", "cpu", "slices"}
    by_pid = {}          # pid -> tid it last ran as
    irqs = {}            # cpu -> [(irq, name, ts, task)]
    softirqs = {}        # cpu -> [(vec, action, ts, task)]
    runtime = {}         # pid -> [sum ns, last vruntime or 0]
    dropped = 0

    def close_state(t, ts):
        if t["state"] is not None:
            args = {"cpu": str(t["cpu"])} if t["cpu"] is not None else {}
            t["slices"].append((t["ts"], ts - t["ts"], t["state"], t["tid"], json.dumps(args)))

    def task(comm, pid):
        tid = "%s:%s" % (comm, pid)
        t = tasks.get(tid)
        if t is None:
            t = tasks[tid] = {"tid": tid, "state": None, "ts": 0, "cpu": None, "slices": []}
            by_pid[pid] = tid
        return t

    for raw in rep.decode("utf-8", "replace").splitlines():
        m = LINE.match(raw)
        if not m:
            continue
        ts = to_ns(m.group("ts"))
        ev, rest, cpu = m.group("event"), m.group("rest"), int(m.group("cpu"))
        if ev == "sched_switch":
            s = SWITCH.match(rest)
            if not s:
                continue
            pc, pp, ps, nc, np_ = s.group("pc"), s.group("pp"), s.group("ps"), s.group("nc"), s.group("np")
            prev = running.get(cpu)
            if prev and not kernel(prev[1]):
                rt = runtime.pop(prev[2], None)
                cpu_slices.append((prev[0], ts - prev[0], "%s:%s" % (prev[1], prev[2]), "CPU %d" % cpu,
                                   json.dumps({"host_pid": prev[2], "total_runtime": "%d [ns]" % (rt[0] if rt else 0),
                                               "vruntime": rt[1] if rt else 0, "end_state": ps, "prio": prev[3]})))
            running[cpu] = [ts, nc, np_, s.group("npr")]
            if not kernel(pc) and not kernel(nc):
                cpu_slices.append((ts, 0, "sched_switch", "CPU %d" % cpu,
                                   json.dumps({"prev_comm": pc, "prev_pid": pp, "prev_prio": s.group("ppr"),
                                               "prev_state": ps, "next_comm": nc, "next_pid": np_,
                                               "next_prio": s.group("npr")})))
            if not kernel(pc):
                t = task(pc, pp)
                close_state(t, ts)
                if ps.startswith("X") or ps.startswith("Z"):
                    t["state"] = None
                else:
                    first = t["state"] is None
                    t["state"] = "Runnable" if ps in ("R", "R+") else "Sleeping"
                    t["ts"], t["cpu"] = ts, (None if first else cpu)
            if not kernel(nc):
                t = task(nc, np_)
                close_state(t, ts)
                t["state"], t["ts"], t["cpu"] = "Running", ts, cpu
        elif ev in ("sched_wakeup", "sched_wakeup_new"):
            w = WAKE.match(rest)
            if not w or kernel(w.group("c")):
                continue
            t = task(w.group("c"), w.group("p"))
            if t["state"] == "Sleeping":
                close_state(t, ts)
                t["state"], t["ts"], t["cpu"] = "Runnable", ts, int(w.group("t") or cpu)
        elif ev == "sched_stat_runtime":
            r = RUNTIME.match(rest)
            if r:
                acc = runtime.setdefault(r.group("p"), [0, 0])
                acc[0] += int(r.group("r"))
                if r.group("v"):
                    acc[1] = r.group("v")
        elif ev == "irq_handler_entry":
            r = IRQ_ENTRY.match(rest)
            if r:
                irqs.setdefault(cpu, []).append((r.group("irq"), r.group("name"), ts,
                                                 "%s:%s" % (m.group("comm"), m.group("pid"))))
        elif ev == "irq_handler_exit":
            r = IRQ_EXIT.match(rest)
            st = irqs.get(cpu)
            if r and st and st[-1][0] == r.group("irq"):
                irq, name, t0, who = st.pop()
                if 0 <= ts - t0 <= MAX_IRQ_NS:
                    cpu_slices.append((t0, ts - t0, "irq", "CPU %d" % cpu,
                                       json.dumps({"irq": irq, "name": name, "ret": r.group("ret"), "task": who})))
                    continue
            dropped += 1
        elif ev == "softirq_entry":
            r = SOFTIRQ.match(rest)
            if r:
                softirqs.setdefault(cpu, []).append((r.group("vec"), r.group("action"), ts,
                                                     "%s:%s" % (m.group("comm"), m.group("pid"))))
        elif ev == "softirq_exit":
            r = SOFTIRQ.match(rest)
            st = softirqs.get(cpu)
            if r and st and st[-1][0] == r.group("vec"):
                vec, action, t0, who = st.pop()
                if 0 <= ts - t0 <= MAX_IRQ_NS:
                    cpu_slices.append((t0, ts - t0, "softirq", "CPU %d" % cpu,
                                       json.dumps({"vec": vec, "action": action, "task": who})))
                    continue
            dropped += 1
        elif ev in ("sched_process_exec", "sched_process_exit"):
            r = (EXEC if ev == "sched_process_exec" else EXIT).match(rest)
            if r:
                tasks.pop(by_pid.pop(r.group("p"), None), None)    # its task-lane slices go with it
    if dropped:
        print("warning: %d unmatched irq/softirq events dropped" % dropped, file=sys.stderr)
    # each task's last (open) state is dropped: only closed slices are kept
    slices = cpu_slices
    for t in tasks.values():
        slices.extend(t["slices"])
    slices.sort()
    tracks = {}
    rows = []
    for t, d, n, tid, a in slices:
        track = tracks.get(tid)
        if track is None:
            track = tracks[tid] = len(tracks) + 1
        rows.append((t, d, n, track, a, t + d))
    db = sqlite3.connect(out)
    db.executescript(
        "CREATE TABLE process (pid TEXT PRIMARY KEY, process_name TEXT, label TEXT, process_sort_index INTEGER);"
        "CREATE TABLE thread (track_id INTEGER PRIMARY KEY, tid TEXT, pid TEXT, thread_name TEXT,"
        " thread_sort_index INTEGER);"
        "CREATE TABLE slice (id INTEGER PRIMARY KEY AUTOINCREMENT, timestamp INTEGER, duration INTEGER,"
        " name TEXT, depth INTEGER, track_id INTEGER, cat TEXT, args TEXT, cname TEXT, end_time INTEGER,"
        " flag_id TEXT);"
        "CREATE TABLE counter (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, pid TEXT, timestamp INTEGER,"
        " cat TEXT, args TEXT);"
        "CREATE TABLE flow (id INTEGER PRIMARY KEY AUTOINCREMENT, flow_id TEXT, name TEXT, cat TEXT,"
        " track_id INTEGER, timestamp INTEGER, type TEXT);")
    groups = ("CPU Scheduling", "Process Scheduling")
    db.executemany("INSERT INTO process (pid, process_name) VALUES (?, ?)", [(g, g) for g in groups])
    db.executemany("INSERT INTO thread (track_id, tid, pid, thread_name) VALUES (?, ?, ?, ?)",
                   [(v, k, groups[0] if k.startswith("CPU ") else groups[1], k) for k, v in tracks.items()])
    db.executemany("INSERT INTO slice (timestamp, duration, name, track_id, args, end_time) VALUES (?,?,?,?,?,?)",
                   rows)
    db.executescript(
        "CREATE INDEX IF NOT EXISTS track_id_timestamp_end_time_index ON slice (timestamp, end_time, track_id);"
        "CREATE INDEX IF NOT EXISTS track_id_cat_index ON slice (track_id, cat);"
        "CREATE INDEX IF NOT EXISTS flow_id_time_index ON flow (cat, type);")
    db.commit()
    db.close()
    print("%d slices, %d lanes" % (len(rows), len(tracks)))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: ref_standin.py TRACE.dat OUT.db")
    main(sys.argv[1], sys.argv[2])
