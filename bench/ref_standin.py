#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ref_standin.py - a stand-in for the reference trace_convert.py, as an anchor for bench/all.sh.

The reference converter (a Python script Ascend users run today) is not on this
machine. This follows its documented method (shared/docs/reference-behaviour.md,
"Known limits": trace.dat goes through `trace-cmd report` text first, a regex per
line in Python, the whole result held in lists, sorted, then written) so a
trace.dat -> DB figure has an anchor measured in the same run. It writes CPU run
slices and task-state slices with JSON args into a `slice` table; it is not a
converter to use (no irq pairing, no pid mapping, no profiling window).

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


def main(inp, out):
    rep = subprocess.run(["trace-cmd", "report", "-i", inp], check=True,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
    slices = []          # (ts, dur, name, track, args)
    running = {}         # cpu -> (ts, comm, pid, prio)
    state = {}           # (comm, pid) -> (ts, state, cpu)
    tracks = {}
    for raw in rep.decode("utf-8", "replace").splitlines():
        m = LINE.match(raw)
        if not m:
            continue
        ts = int(float(m.group("ts")) * 1e9)   # the reference's float round trip
        ev, rest, cpu = m.group("event"), m.group("rest"), int(m.group("cpu"))
        if ev == "sched_switch":
            s = SWITCH.match(rest)
            if not s:
                continue
            prev = running.get(cpu)
            if prev:
                name = "%s:%s" % (prev[1], prev[2])
                slices.append((prev[0], ts - prev[0], name, tracks.setdefault("CPU %d" % cpu, len(tracks) + 1),
                               json.dumps({"host_pid": prev[2], "prio": prev[3], "end_state": s.group("ps")})))
            running[cpu] = (ts, s.group("nc"), s.group("np"), s.group("npr"))
            for key, st in (((s.group("pc"), s.group("pp")), "Runnable" if s.group("ps").startswith("R") else "Sleeping"),
                            ((s.group("nc"), s.group("np")), "Running")):
                old = state.get(key)
                if old:
                    slices.append((old[0], ts - old[0], old[1], tracks.setdefault("%s:%s" % key, len(tracks) + 1),
                                   json.dumps({"cpu": old[2]})))
                state[key] = (ts, st, cpu)
        elif ev in ("sched_wakeup", "sched_wakeup_new"):
            w = WAKE.match(rest)
            if not w:
                continue
            key = (w.group("c"), w.group("p"))
            old = state.get(key)
            if old and old[1] == "Sleeping":
                slices.append((old[0], ts - old[0], old[1], tracks.setdefault("%s:%s" % key, len(tracks) + 1),
                               json.dumps({"cpu": old[2]})))
                state[key] = (ts, "Runnable", int(w.group("t") or cpu))
    slices.sort()
    db = sqlite3.connect(out)
    db.execute("CREATE TABLE thread (track_id INTEGER PRIMARY KEY, tid TEXT)")
    db.execute("CREATE TABLE slice (id INTEGER PRIMARY KEY AUTOINCREMENT, timestamp INTEGER, duration INTEGER,"
               " name TEXT, track_id INTEGER, args TEXT, end_time INTEGER)")
    db.executemany("INSERT INTO thread VALUES (?, ?)", [(v, k) for k, v in tracks.items()])
    db.executemany("INSERT INTO slice (timestamp, duration, name, track_id, args, end_time) VALUES (?,?,?,?,?,?)",
                   ((t, d, n, k, a, t + d) for t, d, n, k, a in slices))
    db.commit()
    db.close()
    print("%d slices" % len(slices))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: ref_standin.py TRACE.dat OUT.db")
    main(sys.argv[1], sys.argv[2])
