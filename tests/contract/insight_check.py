#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check an ftscope output the way MindStudio Insight reads it.

Follows ../shared/docs/insight-import-contract.md: the tables and columns the
server queries, the names its statistics match, string-only args, exact
end_time, lane naming, and the depth rule (a lane splits into two rows when
two of its slices overlap by even 1 ns). It then re-computes the Ftrace Task
Summary the way the server's four parse units do, and fails when a part of it
would stay empty.

Rules learnt from the real server (contract section 10, issue 11):
- rows: the server re-sorts a lane's slices with an unstable sort on start
  time, so a zero-length item on a task lane that starts where another item
  starts may land after it and open a second row; one strictly inside
  another always does. Either fails (task lanes must draw as one row).
- markers: a zero-length state slice with cpu -1 (the context-switch totals
  row) for a task the sched statistics never count a switch for (no
  sched_switch with its prev_comm:prev_pid, or a kernel comm) is an all-zero
  summary row: fails.
- warnings: a state slice without `cpu` makes the server log
  "slice.args.cpu missing"; irq/softirq `task` `<idle>:0` slips past its
  idle filter (exactly `<idle>`): both fail.

usage: insight_check.py FILE [--expect-irq] [--expect-cs] [--expect-lost]
exit 0: all checks hold; 1: a check failed (each failure printed); 2: usage.
"""
import json
import re
import sqlite3
import sys
from collections import defaultdict

STATE_NAMES = ("Running", "Runnable", "Sleeping")
CPU_MARKERS = ("sched_switch", "irq", "softirq", "lost events")
NODATA = "no data"  # a hole after lost events, on CPU and task lanes: drawn, never counted
KERNEL_COMMS = ("migration", "swapper", "kworker")
CPU_TID = re.compile(r"^CPU \d+$")

errors = []


def fail(msg):
    if len(errors) < 50:
        print("FAIL:", msg)
    errors.append(msg)


def split_task_tid(tid):
    """<comm>:<pid>, split at the last colon, pid all digits (FtraceTimeStatisticsParseUnit)."""
    comm, sep, pid = tid.rpartition(":")
    if not sep or not comm or not pid.isdigit():
        return None
    return comm, int(pid)


def us_to_ns(v):
    """Insight's exact µs text -> ns: 3 decimals, the 4th rounds (NumberUtil.h)."""
    s = v if isinstance(v, str) else json.dumps(v)
    if s.startswith("-") or s.startswith(" ") or s.startswith("+") or not s:
        return 0
    whole, _, frac = s.partition(".")
    frac = (frac + "0000")[:4]
    ns = int(whole) * 1000 + int(frac[:3])
    if int(frac[3]) >= 5:
        ns += 1
    return ns


class Data:
    """Lanes and slices in one shape, from either format."""

    def __init__(self):
        self.lanes = {}  # key -> (group, tid)
        self.slices = []  # (lane key, ts, dur, name, args dict or None)
        self.flows = []   # (flow id, lane key, ts, type s/t/f)
        self.summary = None  # precomputed trace_task_summary rows, when present
        self.irq_detail = None
        self.status = {}     # status_info key -> value


def load_db(path):
    d = Data()
    con = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    cur = con.cursor()
    tables = {r[0] for r in cur.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    for t in ("process", "thread", "slice", "counter", "flow"):
        if t not in tables:
            fail("table %s missing (Insight's min/max query or lane load fails)" % t)
    if errors:
        return d
    cols = {r[1] for r in cur.execute("PRAGMA table_info(slice)")}
    for c in ("id", "timestamp", "duration", "name", "depth", "track_id", "cat", "args",
              "cname", "end_time", "flag_id"):
        if c not in cols:
            fail("slice.%s missing" % c)
    # the server's min/max query unions slice and counter
    lo, hi = cur.execute(
        "SELECT MIN(t), MAX(e) FROM (SELECT timestamp t, end_time e FROM slice "
        "UNION ALL SELECT timestamp, timestamp FROM counter)").fetchone()
    if lo is None or lo <= 0:
        fail("min timestamp %r: must be > 0" % lo)
    procs = cur.execute("SELECT pid, process_name FROM process").fetchall()
    for pid, name in procs:
        if pid != name:
            fail("process pid %r != process_name %r" % (pid, name))
        if name not in ("CPU Scheduling", "Process Scheduling"):
            fail("unexpected process %r" % name)
    pids = {p for p, _ in procs}
    seen = set()
    for track, tid, pid, tname in cur.execute(
            "SELECT track_id, tid, pid, thread_name FROM thread"):
        if track is None or track < 1:
            fail("thread track_id %r < 1" % track)
        if pid not in pids:
            fail("thread %r has pid %r with no process row" % (tid, pid))
        if (pid, tid) in seen:
            fail("duplicate lane (%r, %r)" % (pid, tid))
        seen.add((pid, tid))
        d.lanes[track] = (pid, tid)
    for sid, ts, dur, end, name, track, args, cat in cur.execute(
            "SELECT id, timestamp, duration, end_time, name, track_id, args, cat FROM slice"):
        if sid is None or sid < 1:
            fail("slice id %r < 1" % sid)
        if not isinstance(ts, int) or not isinstance(dur, int) or not isinstance(end, int):
            fail("slice %d: non-integer time (%r, %r, %r)" % (sid, ts, dur, end))
            continue
        if dur < 0 or end != ts + dur:
            fail("slice %d: end_time %d != timestamp %d + duration %d" % (sid, end, ts, dur))
        if name is None:
            fail("slice %d: NULL name" % sid)
        if cat == "python_function":
            fail("slice %d: cat python_function" % sid)
        if track not in d.lanes:
            fail("slice %d: track_id %r has no thread row" % (sid, track))
            continue
        parsed = None
        if args is not None:
            try:
                parsed = json.loads(args)
            except ValueError:
                fail("slice %d: args not JSON: %r" % (sid, args[:80]))
        d.slices.append((track, ts, dur, name, parsed, "db"))
    for fid, name, cat, track, ts, typ in cur.execute(
            "SELECT flow_id, name, cat, track_id, timestamp, type FROM flow"):
        d.flows.append((fid, track, ts, typ))
    load_summary(cur, tables, d)
    con.close()
    return d


# The server's own schemas (TextTraceDatabaseFtrace.cpp:29-72, 134-155):
# (name, type, notnull, default, pk position) as PRAGMA table_info reports them.
SUMMARY_SCHEMA = [("comm", "TEXT", 1, None, 1), ("pid", "INTEGER", 1, None, 2),
                  ("cpu_id", "INTEGER", 1, None, 3)] + [
    (c, "INTEGER", 0, "0", 0) for c in (
        "running_ns", "sleeping_ns", "runnable_ns", "cs_count", "cs_involuntary_count",
        "soft_irq_count", "soft_irq_duration", "hard_irq_count", "hard_irq_duration")]
IRQ_DETAIL_SCHEMA = [("comm", "TEXT", 1, None, 1), ("pid", "INTEGER", 1, None, 2),
                     ("cpu_id", "INTEGER", 1, None, 3), ("irq_type", "TEXT", 1, None, 4),
                     ("irq_name", "TEXT", 1, None, 5), ("count", "INTEGER", 0, "0", 0),
                     ("time_ns", "INTEGER", 0, "0", 0)]
FTRACE_UNITS = ("FTRACE_TIME_STATISTICS", "FTRACE_IRQ_STATISTICS",
                "FTRACE_SCHED_STATISTICS", "FTRACE_IRQ_AGGREGATION")


def load_summary(cur, tables, d):
    """Precomputed summary tables (convert --with-summary, contract 6.4 C)."""
    if "status_info" in tables:
        d.status = {k: v for k, v in cur.execute("SELECT key, value FROM status_info")}
    have = [t for t in ("trace_task_summary", "trace_irq_detail") if t in tables]
    finished = [k for k in FTRACE_UNITS if d.status.get(k) == "FINISH"]
    if not have and not finished:
        return
    if len(have) != 2 or len(finished) != 4:
        fail("summary tables %s with FINISH keys %s: the server would mix its rows with ours"
             " (contract 6.4: both tables and all four keys, or none)" % (have, finished))
        return
    for table, want in (("trace_task_summary", SUMMARY_SCHEMA),
                        ("trace_irq_detail", IRQ_DETAIL_SCHEMA)):
        got = [(r[1], r[2], r[3], r[4], r[5]) for r in cur.execute("PRAGMA table_info(%s)" % table)]
        if got != want:
            fail("%s schema differs from the server's: %r" % (table, got))
    d.summary = {}
    for r in cur.execute(
            "SELECT comm, pid, cpu_id, running_ns, runnable_ns, sleeping_ns, cs_count,"
            " cs_involuntary_count, soft_irq_count, soft_irq_duration, hard_irq_count,"
            " hard_irq_duration FROM trace_task_summary"):
        for v in r[1:]:
            if not isinstance(v, int):
                fail("trace_task_summary %r: non-integer value %r" % (r[:3], v))
        d.summary[(r[0], r[1], r[2])] = tuple(r[3:])
    d.irq_detail = {}
    for r in cur.execute("SELECT comm, pid, cpu_id, irq_type, irq_name, count, time_ns"
                         " FROM trace_irq_detail"):
        d.irq_detail[tuple(r[:5])] = (r[5], r[6])


def check_summary(d, task_rows, cs_cpu, irq_cpu):
    """The precomputed tables equal what the server's units would compute
    from the slices (re-derived here), except that switches count on the CPU
    lane's cpu; no cpu -1 rows."""
    want = {}
    for k, (run, rnb, slp) in task_rows.items():
        want[k] = [run, rnb, slp, 0, 0, 0, 0, 0, 0]
    for k, (n, inv) in cs_cpu.items():
        if k in want:
            want[k][3] += n
            want[k][4] += inv
    for (comm, pid, cpu, typ, name), (n, t) in irq_cpu.items():
        k = (comm, pid, cpu)
        if k in want:
            off = 5 if typ == "softirq" else 7
            want[k][off] += n
            want[k][off + 1] += t
    for k in sorted(set(want) | set(d.summary))[:100000]:
        if k[2] == -1:
            fail("trace_task_summary row %r has cpu -1 (a marker row)" % (k,))
        w = tuple(want.get(k, ()))
        g = d.summary.get(k, ())
        if w != g:
            fail("trace_task_summary %r: %r, the slices give %r (running, runnable, sleeping,"
                 " cs, cs_invol, soft n/ns, hard n/ns)" % (k, g, w))
    if d.irq_detail != irq_cpu:
        for k in sorted(set(d.irq_detail) | set(irq_cpu))[:20]:
            if d.irq_detail.get(k) != irq_cpu.get(k):
                fail("trace_irq_detail %r: %r, the slices give %r" %
                     (k, d.irq_detail.get(k), irq_cpu.get(k)))


def check_json_text(path):
    """The >50 MiB splitter counts raw braces after a "ph": no brace may sit in a string."""
    with open(path, "rb") as f:
        raw = f.read()
    if raw.startswith(b"\xef\xbb\xbf"):
        fail("BOM at the start")
    in_str = esc = False
    for i, c in enumerate(raw):
        if in_str:
            if esc:
                esc = False
            elif c == 0x5C:
                esc = True
            elif c == 0x22:
                in_str = False
            elif c in (0x7B, 0x7D):
                fail("raw brace inside a string at byte %d" % i)
                break
        elif c == 0x22:
            in_str = True
    return raw


def load_json(path):
    d = Data()
    raw = check_json_text(path)
    try:
        doc = json.loads(raw, parse_float=str, parse_int=str)
    except ValueError as e:
        fail("not valid JSON: %s" % e)
        return d
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    if not isinstance(events, list):
        fail("root is neither an array nor {traceEvents: [...]}")
        return d
    if raw.count(b'"ph"') != len(events):
        fail('the text "ph" appears %d times for %d events: some is inside a string'
             % (raw.count(b'"ph"'), len(events)))
    first_x = None
    for n, ev in enumerate(events):
        if "ph" not in ev:
            fail("event %d has no ph" % n)
            continue
        if ev["ph"] in ("s", "t", "f"):
            if "id" not in ev:
                fail("event %d: flow without id" % n)
            d.flows.append((str(ev.get("id")), (ev.get("pid"), ev.get("tid")),
                            us_to_ns(ev.get("ts", "0")), ev["ph"]))
            continue
        if ev["ph"] != "X":
            continue
        if first_x is None:
            first_x = ev
            if not isinstance(ev.get("pid"), str) or ev["pid"] not in (
                    "CPU Scheduling", "Process Scheduling"):
                fail("first X event's pid %r: Insight would not see ftrace" % ev.get("pid"))
        key = (ev.get("pid"), ev.get("tid"))
        d.lanes[key] = key
        args = ev.get("args")
        if args is not None and not isinstance(args, dict):
            fail("event %d: args not an object" % n)
        d.slices.append((key, us_to_ns(ev.get("ts", "0")), us_to_ns(ev.get("dur", "0")),
                         ev.get("name"), args, "json"))
    if first_x is None:
        fail("no X event")
    return d


def assign_depths(spans):
    """The server's greedy depth pass (SliceAnalyzer::AssignSliceDepths): each
    slice, in the given order, takes the first row where it overlaps nothing
    (strictly: a.start < b.end and b.start < a.end). Returns the row count.
    @spans must be sorted by start, so a row's slices all start at or before
    the new one, and only its latest end can reach past the new start."""
    rows = []  # [latest end, slices]
    for s, e in spans:
        for r in rows:
            if r[0] <= s or (s == e and not any(a < s < b for a, b in r[1])):
                r[0] = max(r[0], e)
                r[1].append((s, e))
                break
        else:
            rows.append([e, [(s, e)]])
    return len(rows)


def task_lane_rows(items):
    """Rows Insight draws for a task lane, in the worst order its unstable
    re-sort may choose: zero-length items after every slice starting at the
    same ns. There the measured server gives a zero-length item a row of its
    own (contract section 10), so that counts as a second row too."""
    spans = sorted(((s[1], s[1] + s[2]) for s in items), key=lambda x: (x[0], x[0] == x[1]))
    rows = assign_depths(spans)
    starts = {s for s, e in spans if e > s}
    if any(s == e and s in starts for s, e in spans):
        rows = max(rows, 2)
    return rows


def check_model(d, expect):
    by_lane = defaultdict(list)
    for s in d.slices:
        by_lane[s[0]].append(s)
    task_rows = defaultdict(lambda: [0, 0, 0])  # (comm, pid, cpu) -> running, runnable, sleeping
    has_cpu_minus1 = set()
    minus1_markers = set()  # tasks with a zero-length cpu -1 state slice
    for key, (group, tid) in d.lanes.items():
        if group == "CPU Scheduling":
            if not CPU_TID.match(tid):
                fail("CPU lane tid %r is not 'CPU <digits>'" % tid)
        elif group == "Process Scheduling":
            if split_task_tid(tid) is None:
                fail("task lane tid %r is not '<comm>:<pid>'" % tid)
        else:
            fail("lane in unknown group %r" % group)
    second_row = []  # (task lane tid, rows Insight would draw)
    warn_cpu = []    # task lanes with a state slice lacking args.cpu
    for key, items in by_lane.items():
        group, tid = d.lanes[key]
        for _, ts, dur, name, args, _ in items:
            if ts <= 0:
                fail("%s: ts %d <= 0" % (tid, ts))
            if name in STATE_NAMES + CPU_MARKERS:
                if not isinstance(args, dict):
                    fail("%s %s: args missing" % (tid, name))
                    continue
                for k, v in args.items():
                    if not isinstance(v, str):
                        fail("%s %s: arg %s is %r, not a string" % (tid, name, k, v))
        # depth: slices of one kind on a lane must only touch, never overlap
        if group == "Process Scheduling":
            body = sorted((s for s in items if s[3] in STATE_NAMES + (NODATA,) and s[2] > 0),
                          key=lambda s: s[1])
            t = split_task_tid(tid)
            for s in items:
                if s[3] not in STATE_NAMES or t is None:
                    continue
                cpu = s[4].get("cpu") if isinstance(s[4], dict) else None
                if cpu is None:
                    warn_cpu.append(tid)
                try:
                    cpu = int(cpu) if cpu is not None else -1
                except ValueError:
                    fail("%s: cpu arg %r does not parse" % (tid, cpu))
                    cpu = -1
                if cpu == -1:
                    has_cpu_minus1.add(t)
                    if s[2] == 0:
                        minus1_markers.add(t)
                task_rows[(t[0], t[1], cpu)][STATE_NAMES.index(s[3])] += s[2]
            for s in items:
                if s[3] not in STATE_NAMES + (NODATA,):
                    fail("%s: unexpected slice %r on a task lane" % (tid, s[3]))
            rows = task_lane_rows(items)
            if rows > 1:
                second_row.append((tid, rows))
        else:
            body = sorted((s for s in items if s[3] not in CPU_MARKERS and s[2] > 0),
                          key=lambda s: s[1])
        for a, b in zip(body, body[1:]):
            if a[1] + a[2] > b[1]:
                fail("%s: %s [%d,+%d] overlaps %s at %d (Insight draws a second row)" %
                     (tid, a[3], a[1], a[2], b[3], b[1]))
                break
    # the two views agree: a task's Running time on its lane equals the time
    # its run slices take on the CPU lanes
    running = defaultdict(int)
    on_cpu = defaultdict(int)
    for key, items in by_lane.items():
        group, tid = d.lanes[key]
        for _, ts, dur, name, args, _ in items:
            if group == "Process Scheduling" and name == "Running":
                running[tid] += dur
            elif group == "CPU Scheduling" and name not in CPU_MARKERS + (NODATA,):
                on_cpu[name] += dur
    for tid, rows in second_row[:10]:
        fail("%s: Insight draws this task lane with %d rows (a zero-length item at another"
             " item's start or inside one)" % (tid, rows))
    if len(second_row) > 10:
        fail("... %d task lanes with more than one row in all" % len(second_row))
    if warn_cpu:
        fail("%d state slice(s) without args.cpu (the server logs 'slice.args.cpu missing'),"
             " first on %s" % (len(warn_cpu), warn_cpu[0]))
    for tid in set(running) | set(on_cpu):
        if running[tid] != on_cpu[tid]:
            fail("%s: Running %d ns on its lane but %d ns on the CPU lanes" %
                 (tid, running[tid], on_cpu[tid]))
    # the statistics units
    if not task_rows:
        fail("Ftrace Task Summary: no Running/Runnable/Sleeping rows")
    irq_hits = irq_total = 0
    cs_hits = cs_total = 0
    counted = defaultdict(int)
    cs_cpu = defaultdict(lambda: [0, 0])      # (prev comm, prev pid, lane cpu) -> n, involuntary
    irq_cpu = defaultdict(lambda: [0, 0])     # (comm, pid, cpu, type, name) -> n, ns
    for key, items in by_lane.items():
        group, tid = d.lanes[key]
        if group != "CPU Scheduling":
            continue
        cpu = int(tid.split()[1])
        for _, ts, dur, name, args, _ in items:
            if name in ("irq", "softirq") and isinstance(args, dict):
                need = "name" if name == "irq" else "action"
                if not args.get(need):
                    fail("%s %s: no %s" % (tid, name, need))
                t = split_task_tid(args.get("task", ""))
                # the server skips exactly "<idle>" before parsing the task
                if args.get("task") == "<idle>":
                    continue
                if t is None:
                    fail("%s %s: task %r is not comm:pid" % (tid, name, args.get("task")))
                    continue
                if t[0] == "<idle>":
                    fail("%s %s: task %r: the server's idle filter wants exactly '<idle>'"
                         % (tid, name, args.get("task")))
                    continue
                if any(k in t[0] for k in KERNEL_COMMS):
                    continue
                irq_total += 1
                if args.get(need):
                    e = irq_cpu[(t[0], t[1], cpu, name, args[need])]
                    e[0] += 1
                    e[1] += dur
                if (t[0], t[1], cpu) in task_rows:
                    irq_hits += 1
            elif name == "sched_switch" and isinstance(args, dict):
                for k in ("prev_comm", "prev_pid", "prev_state"):
                    if k not in args:
                        fail("%s sched_switch: no %s" % (tid, k))
                comm = args.get("prev_comm", "")
                if any(k in comm for k in KERNEL_COMMS):
                    continue
                if not str(args.get("prev_pid", "")).isdigit():
                    fail("%s sched_switch: prev_pid %r" % (tid, args.get("prev_pid")))
                    continue
                cs_total += 1
                counted[(comm, int(args["prev_pid"]))] += 1
                if comm:
                    e = cs_cpu[(comm, int(args["prev_pid"]), cpu)]
                    e[0] += 1
                    e[1] += args.get("prev_state") == "R"  # the server's rule: exactly R
                if (comm, int(args["prev_pid"])) in has_cpu_minus1:
                    cs_hits += 1
    # a cpu -1 row with no switch to count is an all-zero summary row
    for t in sorted(minus1_markers):
        if not counted.get(t) or any(k in t[0] for k in KERNEL_COMMS):
            fail("%s:%d: context-switch marker but the server counts no switch for it"
                 " (an all-zero summary row)" % t)
    if expect.get("irq") and irq_hits == 0:
        fail("no irq/softirq slice lands on a task row: IRQ columns would stay empty")
    summary_cs = 0
    if d.summary is not None:
        check_summary(d, task_rows, {k: tuple(v) for k, v in cs_cpu.items()},
                      {k: tuple(v) for k, v in irq_cpu.items()})
        summary_cs = sum(v[3] for v in d.summary.values())
        if expect.get("cs") and cs_total and summary_cs == 0:
            fail("precomputed summary: no context switch counted")
    elif expect.get("cs") and cs_total and cs_hits == 0:
        fail("no context switch lands on a cpu -1 row: context-switch columns would stay 0")
    # wakeup links: one start and one end per id, on known lanes, start <= end
    ends = defaultdict(dict)
    for fid, lane, ts, typ in d.flows:
        if lane not in d.lanes:
            fail("flow %s: lane %r has no thread row" % (fid, lane))
        if typ not in ("s", "t", "f"):
            fail("flow %s: type %r" % (fid, typ))
        if typ in ends[fid]:
            fail("flow %s: two %r ends" % (fid, typ))
        ends[fid][typ] = ts
    for fid, e in ends.items():
        if "s" not in e or "f" not in e:
            fail("flow %s: not a start/end pair (%s)" % (fid, sorted(e)))
        elif e["s"] > e["f"] or e["s"] <= 0:
            fail("flow %s: starts at %d after its end %d" % (fid, e["s"], e["f"]))
    lost = sum(1 for s in d.slices if s[3] == "lost events")
    if expect.get("lost") and lost == 0:
        fail("no 'lost events' marker")
    print("lanes %d, slices %d, summary rows %d, irq on task rows %d/%d, "
          "switches on cpu -1 rows %d/%d, lost markers %d, wakeup links %d" %
          (len(d.lanes), len(d.slices), len(task_rows), irq_hits, irq_total, cs_hits,
           cs_total, lost, len(ends)))
    if d.summary is not None:
        print("precomputed summary: %d rows, %d irq detail rows, %d switches on per-CPU rows" %
              (len(d.summary), len(d.irq_detail), summary_cs))


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    path = argv[1]
    expect = {"irq": "--expect-irq" in argv, "cs": "--expect-cs" in argv,
              "lost": "--expect-lost" in argv}
    with open(path, "rb") as f:
        head = f.read(16)
    d = load_db(path) if head.startswith(b"SQLite format 3") else load_json(path)
    if not errors:
        check_model(d, expect)
    if errors:
        print("%s: %d problem(s)" % (path, len(errors)))
        return 1
    print("%s: OK" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
