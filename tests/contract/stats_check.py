#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Cross-check `ftscope stats --format json --top 0` against the DB of the same capture.

The statistics sink (C) and this script (SQL over the DB convert wrote) derive
each number independently from the same lane items:
  - per task: running/runnable/sleeping/blocked = sums of its lane's state slices
    (Sleeping in D -> blocked); running = its run slices on the CPU lanes;
    running + runnable + sleeping + blocked + the gaps between its slices (the
    model leaves a task's state unknown after a missing switch or lost events)
    = its lifetime (last end - first start);
  - switches / involuntary = sched_switch items with its prev_comm:prev_pid
    (involuntary: prev_state R...); irq/softirq counts and times by `task`;
    wakeups = Runnable with reason wakeup/new, their max = wakeup_max_ns;
  - per CPU: busy = run slices on its lane <= wall; irq/softirq/switch counts;
    lost = max(sum of the markers' counts, the kernel_lost they carry); no data
    = its "no data" slices (tasks: unknown_ns, in the lifetime sum).

usage: stats_check.py STATS.json FTRACE_DATA.db
exit 0 when everything agrees; 1 with each disagreement printed.
"""
import json
import sqlite3
import sys
from collections import defaultdict

errors = []


def fail(msg):
    if len(errors) < 40:
        print("FAIL:", msg)
    errors.append(msg)


def main(stats_path, db_path):
    st = json.load(open(stats_path))
    con = sqlite3.connect("file:%s?mode=ro" % db_path, uri=True)
    q = con.execute
    lanes = {tr: (pid, tid) for tr, pid, tid in q("SELECT track_id, pid, tid FROM thread")}
    task = defaultdict(lambda: defaultdict(int))
    spans = defaultdict(list)
    cpu = defaultdict(lambda: defaultdict(int))
    for tr, name, ts, dur, args in q("SELECT track_id, name, timestamp, duration, args FROM slice"):
        group, tid = lanes[tr]
        a = json.loads(args) if args else {}
        if group == "Process Scheduling":
            if dur == 0:
                continue  # the context-switch marker
            spans[tid].append((ts, ts + dur))
            if name == "no data":
                task[tid]["unknown_ns"] += dur
            elif name == "Sleeping" and "D" in a.get("state", ""):
                task[tid]["blocked_ns"] += dur
            else:
                task[tid][name.lower() + "_ns"] += dur
            if name == "Runnable" and a.get("reason") in ("wakeup", "new"):
                task[tid]["wakeups"] += 1
                task[tid]["wakeup_max_ns"] = max(task[tid]["wakeup_max_ns"], dur)
            continue
        c = int(tid.split()[1])
        if name == "sched_switch":
            cpu[c]["switches"] += 1
            if a.get("prev_pid") != "0":
                who = "%s:%s" % (a["prev_comm"], a["prev_pid"])
                task[who]["switches"] += 1
                task[who]["involuntary"] += a.get("prev_state", "").startswith("R")
        elif name in ("irq", "softirq"):
            cpu[c][name + "_count"] += 1
            cpu[c][name + "_ns"] += dur
            who = a.get("task", "")
            if not who.startswith("<idle>"):
                task[who][name + "_count"] += 1
                task[who][name + "_ns"] += dur
        elif name == "lost events":
            cpu[c]["marked"] += int(a["count"]) if a.get("count", "").isdigit() else 0
            if a.get("kernel_lost", "").isdigit():
                cpu[c]["kernel"] = max(cpu[c]["kernel"], int(a["kernel_lost"]))
            # the kernel's count when the markers carry it, never below what they sum
            cpu[c]["lost_events"] = max(cpu[c]["marked"], cpu[c]["kernel"])
        elif name == "no data":
            cpu[c]["nodata_ns"] += dur
        else:
            cpu[c]["busy_ns"] += dur
            task[name]["on_cpu_ns"] += dur
    con.close()

    rows = {t["task"]: t for t in st["tasks"]}
    keys = ("running_ns", "runnable_ns", "sleeping_ns", "blocked_ns", "unknown_ns", "switches",
            "involuntary",
            "irq_count", "irq_ns", "softirq_count", "softirq_ns", "wakeups", "wakeup_max_ns")
    for tid, want in task.items():
        if not any(want.values()):
            continue
        got = rows.get(tid)
        if got is None:
            fail("%s: in the DB but not in the statistics" % tid)
            continue
        for k in keys:
            if got[k] != want[k]:
                fail("%s: %s %d, the DB says %d" % (tid, k, got[k], want[k]))
        if want["on_cpu_ns"] != got["running_ns"]:
            fail("%s: running %d ns but %d ns of run slices on the CPU lanes"
                 % (tid, got["running_ns"], want["on_cpu_ns"]))
        sp = sorted(spans.get(tid, []))
        if sp:
            gaps = sum(max(0, b[0] - a[1]) for a, b in zip(sp, sp[1:]))
            total = (got["running_ns"] + got["runnable_ns"] + got["sleeping_ns"] + got["blocked_ns"]
                     + got["unknown_ns"])
            life = got["last_ns"] - got["first_ns"]
            if total + gaps != life:
                fail("%s: states %d + unknown gaps %d != lifetime %d" % (tid, total, gaps, life))
            if got["wakeups"] and not (got["wakeup_p50_ns"] <= got["wakeup_p99_ns"] <= got["wakeup_max_ns"]):
                fail("%s: wakeup percentiles out of order" % tid)
    extra = set(rows) - set(task)
    if extra:
        fail("in the statistics but not in the DB: %s" % sorted(extra)[:5])
    for c in st["cpus"]:
        want = cpu[c["cpu"]]
        for k in ("busy_ns", "irq_count", "irq_ns", "softirq_count", "softirq_ns", "switches",
                  "lost_events", "nodata_ns"):
            if c[k] != want[k]:
                fail("CPU %d: %s %d, the DB says %d" % (c["cpu"], k, c[k], want[k]))
        if c["busy_ns"] > c["wall_ns"]:
            fail("CPU %d: busy %d > wall %d" % (c["cpu"], c["busy_ns"], c["wall_ns"]))
    print("%d tasks, %d CPUs checked against the DB" % (len(rows), len(st["cpus"])))
    return 1 if errors else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
