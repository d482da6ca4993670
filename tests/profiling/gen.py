#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write one rank's torch_npu profiler output (text and/or DB export type) of
one scenario, reproducing every variation measured on real files
(shared/docs/ascend-profiling.md, "Variations measured on real files" and
"DB export type"):

- device-side pids above 2^31 ("Ascend Hardware" 3089232288, ...);
- metadata of "Python" with "ph" first, of every device-side process with
  "ph" last; X slices as ph,name,pid,tid,ts,dur,cat,args / name,pid,tid,ts,
  dur,args,ph / name,pid,tid,ts,dur,ph; flows as ph,bp,name,id,pid,tid,ts,cat
  or name,ph,id,ts,cat,pid,tid,bp (whose "s" has no bp);
- ts strings with three decimals, counters' without any, HCCL slices' as
  numbers; dur as integers, floats with five decimals, an exponent (2e3);
- flow ids as numbers and as strings of digits; one id ending in two "f";
- HostToDevice starting on a pid without metadata (Level0) or on "CANN"
  (Level1/2), one ending on "HCCL";
- ProfilerStep#<n> slices / STEP_TIME rows;
- the DB: TASK (epoch ns, streamId, names through STRING_IDS and
  COMPUTE_TASK_INFO), CANN_API + connectionId, PYTORCH_API with TEXT times,
  CONNECTION_IDS, STEP_TIME, COMMUNICATION_OP, META_DATA.

The text and DB outputs of one scenario describe the same timeline, so
`ftscope hostbound` must give the same gaps and verdicts for both. Times are
whole ns; a float dur's digits past the ns are what the reader drops.

usage: gen.py RANK_DIR --t0-ns NS [--type text|db|both] [--level 0|1|2]
              [--rank N] [--pid P] [--main-tid T] [--disp-tid T]
              [--shuffle SEED] [--steps N] [--slow-step K --slow-ms MS] [--async-lead-ms MS]
"""
import argparse
import json
import os
import random
import sqlite3

DEV_PID = 3089232288       # "Ascend Hardware": python pid x 1024 + k, past 2^31 (--dev-pid)
CANN_PID = 3089232289
L0_PID = 3089232290        # Level0's HostToDevice starts here: no metadata at all
OVERLAP_PID = 3170820832
HCCL_PID = 3170820833
COUNTER_PID = 3170820834
MS = 1000000


def scenario(t0, steps, pid, main, disp, first=0, slow=None, slow_ns=0, lead_ns=0):
    """The timeline in ns: dict of lists (shared by both writers); steps
    @first .. @first + @steps - 1 (bench/npu_profiles.py writes it in pieces).
    Step index @slow (counted from 0) is @slow_ns longer: its last launch
    comes that much later (one long gap), the steps after it shift. @lead_ns:
    the main thread queues each launch's work that much before the op (its
    async_npu flow starts then): the dispatch thread has work through the gap."""
    s = {"busy": [], "comm": [], "ops": [], "launch": [], "async": [], "steps": [],
         "pid": pid, "main": main, "disp": disp}
    conn = 1000 + first * 4
    for k in range(first, first + steps):
        base = t0 + k * 40 * MS + (slow_ns if slow is not None and k > slow else 0)
        extra = slow_ns if k == slow else 0
        s["steps"].append((50 + k, base, 39 * MS + 500000 + extra))
        s["ops"].append((main, base, 39 * MS + 500000 + extra, "ProfilerStep#%d" % (50 + k)))
        for j in range(4):
            at = base + j * 10 * MS + (extra if j == 3 else 0)
            conn += 1
            s["ops"].append((main, at + 100000, 500000, "aten::op%d" % j))
            s["ops"].append((main, at + 150000, 20000, "Enqueue"))
            s["ops"].append((disp, at + 700000, 200000, "Dequeue@aten::op%d" % j))
            launch = at + 800000
            dev = at + MS
            if k % 3 == 1 and j == 3:
                # a launch whose work is an HCCL op: its flow ends on "HCCL";
                # the hccl stream's task covers it (the device is busy)
                s["comm"].append((dev, 1500 * 1000, "hcom_allReduce__%d" % k, conn))
                s["busy"].append((dev, 1500 * 1000, 4, "Notify_Wait", None))
                s["launch"].append((disp, launch, conn, "hccl"))
                continue
            dur = 2000076 if j % 2 else 2000000   # "2000.07675" and the exponent 2e3
            s["busy"].append((dev, dur, 2 + j % 2, "MatMul_%d" % j, conn))
            s["launch"].append((disp, launch, conn, "dev"))
            s["async"].append((main, at + 100000 - lead_ns, conn))
            if k % 3 == 2 and j == 0:
                # the same launch id ends twice: a second task of that launch
                s["busy"].append((dev + 2200000, 300000, 2, "MatMul_tail", conn))
    return s


def us(ns, decimals=3):
    return "%d.%03d" % (ns // 1000, ns % 1000) if decimals else "%d" % (ns // 1000)


class Text:
    """Events as lists of (key, raw JSON value), in the key order asked."""

    def __init__(self, rng):
        self.ev = []
        self.rng = rng

    def put(self, pairs):
        self.ev.append(pairs)

    def meta(self, name, pid, tid, val, ph_first):
        p = [("name", json.dumps(name)), ("pid", str(pid)), ("tid", str(tid)),
             ("args", json.dumps({"name": val}))]
        self.put([("ph", '"M"')] + p if ph_first else p + [("ph", '"M"')])

    def slice(self, pid, tid, ts, dur, name, shape, cat=None, ts_raw=None, dur_raw=None):
        ts_v = ts_raw if ts_raw is not None else json.dumps(us(ts))
        dur_v = dur_raw if dur_raw is not None else dur_text(dur)
        base = [("name", json.dumps(name)), ("pid", str(pid)), ("tid", str(tid)),
                ("ts", ts_v), ("dur", dur_v)]
        if shape == 0:
            self.put([("ph", '"X"')] + base + [("cat", json.dumps(cat or "")),
                                               ("args", '{"Task Type": "AI_CORE"}')])
        elif shape == 1:
            self.put(base + [("args", '{"Physic Stream Id": 2}'), ("ph", '"X"')])
        else:
            self.put(base + [("ph", '"X"')])

    def flow(self, ph, cat, fid, pid, tid, ts, shape):
        idv = json.dumps(fid)
        if shape == 0:
            p = [("ph", json.dumps(ph))] + ([("bp", '"e"')] if ph == "f" else []) + \
                [("name", json.dumps(cat)), ("id", idv), ("pid", str(pid)), ("tid", str(tid)),
                 ("ts", json.dumps(us(ts))), ("cat", json.dumps(cat))]
        else:
            p = [("name", json.dumps(cat)), ("ph", json.dumps(ph)), ("id", idv),
                 ("ts", json.dumps(us(ts))), ("cat", json.dumps(cat)), ("pid", str(pid)),
                 ("tid", str(tid))] + ([("bp", '"e"')] if ph == "f" else [])
        self.put(p)

    def lines(self, shuffle_keys):
        for pairs in self.ev:
            if shuffle_keys:
                pairs = pairs[:]
                self.rng.shuffle(pairs)
            yield "{%s}" % ", ".join('"%s": %s' % kv for kv in pairs)

    def dump(self, path, shuffle_keys):
        with open(path, "w") as f:
            f.write("[\n" + ",\n".join(self.lines(shuffle_keys)) + "\n]\n")


def dur_text(ns):
    if ns == 2000000:
        return "2e3"                        # exponent: 2000 us
    if ns % 1000 == 0:
        return "%d" % (ns // 1000)          # integer us
    return "%d.%03d75" % (ns // 1000, ns % 1000)   # five decimals, past the ns


def text_meta(t, s, level):
    pid, disp = s["pid"], s["disp"]
    t.meta("process_name", pid, 0, "Python", True)
    t.meta("process_labels", pid, 0, "CPU", True)
    for tid in (s["main"], disp):
        t.meta("thread_name", pid, tid, "Thread %d" % tid, True)
    t.meta("process_name", DEV_PID, 0, "Ascend Hardware", False)
    for st in (2, 3, 4):
        t.meta("thread_name", DEV_PID, st, "Stream %d" % st, False)
    t.meta("process_name", OVERLAP_PID, 0, "Overlap Analysis", False)
    for tid, n in enumerate(("Computing", "Communication", "Communication(Not Overlapped)", "Free")):
        t.meta("thread_name", OVERLAP_PID, tid, n, False)
    t.meta("process_name", HCCL_PID, 0, "HCCL", False)
    t.meta("thread_name", HCCL_PID, 0, "Group 0 Communication", False)
    if level > 0:
        t.meta("process_name", CANN_PID, 0, "CANN", False)
        t.meta("thread_name", CANN_PID, disp, "Thread %d" % disp, False)


def text_body(t, s, level, end=None):
    """The slices and flows of @s; the Free lane from @end (the previous
    piece's last task end); returns where this piece's tasks end."""
    pid = s["pid"]
    for i, (tid, ts, dur, name) in enumerate(s["ops"]):
        t.slice(pid, tid, ts, dur, name, 0, cat="python_function" if name.startswith("Profiler") else "cpu_op")
    for i, (ts, dur, st, name, _) in enumerate(s["busy"]):
        t.slice(DEV_PID, st, ts, dur, name, 1 + i % 2)
    for ts, dur, name, _ in s["comm"]:
        t.slice(HCCL_PID, 0, ts, dur, name, 2, ts_raw=us(ts))   # ts as a number
    # the profiler's own Free lane: where no task runs, between the first and the last
    spans = sorted((b[0], b[0] + b[1]) for b in s["busy"])
    if end is None:
        end = spans[0][1]
    for a, b in spans:
        if a > end:
            t.slice(OVERLAP_PID, 3, end, a - end, "Free", 2)
        end = max(end, b)
    for ts, dur, _, _, _ in s["busy"]:
        t.slice(OVERLAP_PID, 0, ts, dur, "Computing", 2)
    src = CANN_PID if level > 0 else L0_PID
    dev_of = {}
    for ts, dur, st, name, conn in s["busy"]:
        if conn is not None:
            dev_of.setdefault(conn, []).append((ts, DEV_PID, st))
    for ts, dur, name, conn in s["comm"]:
        dev_of.setdefault(conn, []).append((ts, HCCL_PID, 0))
    for n, (tid, ts, conn, _) in enumerate(s["launch"]):
        fid = conn if n % 2 else str(conn)     # numbers and strings of digits
        fid_f = str(conn) if n % 3 == 0 else fid  # and a pair of 263 and "263"
        if level > 0:
            t.slice(CANN_PID, tid, ts, 50000, "aclnnMatmul", 2)
        t.flow("s", "HostToDevice", fid, src, tid, ts, n % 2)
        for dts, dpid, dtid in dev_of[conn]:
            t.flow("f", "HostToDevice", fid_f, dpid, dtid, dts, (n + 1) % 2)
    for n, (tid, ts, conn) in enumerate(s["async"]):
        fid = str(100000 + conn) if n % 2 else 100000 + conn
        dts, dpid, dtid = min(dev_of[conn])
        t.flow("s", "async_npu", fid, pid, tid, ts, 0)
        t.flow("f", "async_npu", fid, dpid, dtid, dts, 1)
    return end


def write_text(path, s, level, rng, shuffle_keys):
    t = Text(rng)
    text_meta(t, s, level)
    text_body(t, s, level)
    first = s["busy"][0][0]
    t.put([("name", '"HBM"'), ("pid", str(COUNTER_PID)), ("tid", "0"),
           ("ts", json.dumps(us(first, 0))), ("args", '{"v": 1}'), ("ph", '"C"')])
    if not shuffle_keys:
        rng.shuffle(t.ev)      # metadata anywhere, flow ends in either order
    t.dump(path, shuffle_keys)


DB_SCHEMA = """
CREATE TABLE META_DATA (name TEXT, value TEXT);
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER, connectionId INTEGER,
  globalTaskId INTEGER, globalPid INTEGER, taskType INTEGER, contextId INTEGER,
  streamId INTEGER, taskId INTEGER, modelId INTEGER, depth INTEGER);
CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER PRIMARY KEY, blockDim INTEGER,
  mixBlockDim INTEGER, taskType INTEGER, opType INTEGER, inputFormats INTEGER,
  inputDataTypes INTEGER, inputShapes INTEGER, outputFormats INTEGER,
  outputDataTypes INTEGER, outputShapes INTEGER, attrInfo INTEGER);
CREATE TABLE CANN_API (startNs INTEGER, endNs INTEGER, type INTEGER, globalTid INTEGER,
  connectionId INTEGER, name INTEGER, depth INTEGER);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER,
  name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER,
  inputShapes INTEGER, callchainId INTEGER, type INTEGER, depth INTEGER);
CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);
CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);
CREATE TABLE COMMUNICATION_OP (opName INTEGER, startNs INTEGER, endNs INTEGER,
  connectionId INTEGER, groupName INTEGER, opId INTEGER PRIMARY KEY, relay INTEGER,
  retry INTEGER, dataType INTEGER, algType INTEGER, count NUMERIC, opType INTEGER);
CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE SESSION_TIME_INFO (startTimeNs INTEGER, endTimeNs INTEGER);
CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER);
CREATE TABLE NPU_INFO (id INTEGER, name TEXT);
CREATE TABLE HOST_INFO (hostUid TEXT, hostName TEXT);
"""


class Db:
    """The profiler DB, written in pieces (bench/npu_profiles.py) or at once."""

    def __init__(self, path, rank):
        if os.path.exists(path):
            os.unlink(path)
        self.db = sqlite3.connect(path)
        self.db.executescript(DB_SCHEMA)
        self.ids = {}
        self.rank = rank
        self.ntask = 0
        self.nops = 0
        self.first = self.last = None
        db = self.db
        db.execute("INSERT INTO META_DATA VALUES ('SCHEMA_VERSION', '1.0.0')")
        db.executemany("INSERT INTO ENUM_API_TYPE VALUES (?, ?)",
                       [(5000, "runtime"), (5500, "hccl"), (10000, "node"), (15000, "model"),
                        (20000, "acl"), (50001, "op"), (50002, "queue"), (50003, "trace"),
                        (50004, "mstx")])
        db.execute("INSERT INTO RANK_DEVICE_MAP VALUES (?, ?)", (rank, rank))
        db.execute("INSERT INTO NPU_INFO VALUES (?, 'Ascend910B')", (rank,))

    def sid(self, v):
        if v not in self.ids:
            self.ids[v] = len(self.ids) + 1
            self.db.execute("INSERT INTO STRING_IDS VALUES (?, ?)", (self.ids[v], v))
        return self.ids[v]

    def add(self, s):
        db, sid, rank = self.db, self.sid, self.rank
        gtid = lambda tid: s["pid"] << 32 | tid
        task, compute = [], []
        for ts, dur, st, name, conn in s["busy"]:
            gid = 7000 + self.ntask
            is_compute = name != "Notify_Wait"
            task_type = sid("AI_CORE") if is_compute else sid(name)
            task.append((ts, ts + dur, rank, conn, gid, DEV_PID, task_type, 4294967295, st,
                         self.ntask, 4294967295, 0))
            if is_compute:
                compute.append((sid(name), gid, task_type, sid("MatMul")))
            self.ntask += 1
        db.executemany("INSERT INTO TASK VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", task)
        db.executemany("INSERT INTO COMPUTE_TASK_INFO (name, globalTaskId, taskType, opType)"
                       " VALUES (?,?,?,?)", compute)
        db.executemany("INSERT INTO COMMUNICATION_OP (opName, startNs, endNs, connectionId,"
                       " groupName) VALUES (?,?,?,?,?)",
                       [(sid(name), ts, ts + dur, conn, sid("group0")) for ts, dur, name, conn in s["comm"]])
        cann = []
        for tid, ts, conn, _ in s["launch"]:
            # nested APIs share the id: the outer acl one starts earlier, the launch is the inner
            cann.append((ts - 20000, ts + 60000, 20000, gtid(tid), conn, sid("aclnnMatmul"), 0))
            cann.append((ts, ts + 50000, 10000, gtid(tid), conn, sid("launch"), 1))
        db.executemany("INSERT INTO CANN_API VALUES (?,?,?,?,?,?,?)", cann)
        async_of = {ts: conn for _, ts, conn in s["async"]}
        ops, conns = [], []
        for tid, ts, dur, name in s["ops"]:
            conn = None
            if tid == s["main"] and name.startswith("aten::") and ts in async_of:
                conn = 500 + self.nops
                conns.append((conn, async_of[ts]))
            ops.append((str(ts), str(ts + dur), gtid(tid), conn, sid(name), 50001, 0))
            self.nops += 1
        db.executemany("INSERT INTO CONNECTION_IDS VALUES (?, ?)", conns)
        db.executemany("INSERT INTO PYTORCH_API (startNs, endNs, globalTid, connectionId, name,"
                       " type, depth) VALUES (?,?,?,?,?,?,?)", ops)
        db.executemany("INSERT INTO STEP_TIME VALUES (?,?,?)",
                       [(num, ts, ts + dur) for num, ts, dur in s["steps"]])
        first = min(b[0] for b in s["busy"])
        last = max(b[0] + b[1] for b in s["busy"])
        self.first = first if self.first is None else min(self.first, first)
        self.last = last if self.last is None else max(self.last, last)

    def close(self):
        self.db.execute("INSERT INTO SESSION_TIME_INFO VALUES (?, ?)", (self.first, self.last))
        self.db.commit()
        self.db.close()


def write_db(path, s, rank):
    d = Db(path, rank)
    d.add(s)
    d.close()


def main():
    global DEV_PID
    ap = argparse.ArgumentParser()
    ap.add_argument("rank_dir")
    ap.add_argument("--t0-ns", type=int, required=True)
    ap.add_argument("--type", choices=("text", "db", "both"), default="text")
    ap.add_argument("--level", type=int, choices=(0, 1, 2), default=1)
    ap.add_argument("--rank", type=int, default=0)
    ap.add_argument("--pid", type=int, default=1)
    ap.add_argument("--main-tid", type=int, default=1)
    ap.add_argument("--disp-tid", type=int, default=3)
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--slow-step", type=int, default=None,
                    help="make step K (from 0) --slow-ms longer: one long gap before its last launch")
    ap.add_argument("--slow-ms", type=int, default=0)
    ap.add_argument("--async-lead-ms", type=float, default=0,
                    help="the main thread queues each launch's work this much before its op")
    ap.add_argument("--dev-pid", type=int, default=DEV_PID, help="the device process's pid")
    ap.add_argument("--shuffle", type=int, default=None,
                    help="shuffle every event's keys with this seed (the property test)")
    a = ap.parse_args()
    DEV_PID = a.dev_pid
    out = os.path.join(a.rank_dir, "ASCEND_PROFILER_OUTPUT")
    os.makedirs(out, exist_ok=True)
    s = scenario(a.t0_ns, a.steps, a.pid, a.main_tid, a.disp_tid, slow=a.slow_step, slow_ns=a.slow_ms * MS,
                 lead_ns=int(a.async_lead_ms * MS))
    rng = random.Random(a.shuffle if a.shuffle is not None else a.level * 7 + a.rank)
    if a.type in ("text", "both"):
        write_text(os.path.join(out, "trace_view.json"), s, a.level, rng, a.shuffle is not None)
    if a.type in ("db", "both"):
        write_db(os.path.join(out, "ascend_pytorch_profiler_%d.db" % a.rank), s, a.rank)


if __name__ == "__main__":
    main()
