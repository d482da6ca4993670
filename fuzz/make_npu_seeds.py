#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeds for fuzz_npu_db and fuzz_trace_view, written at configure time:
tests/profiling/gen.py's profiles (DB and text, Level0/1/2) and DBs cut down
the ways a hostile or foreign file is (tables missing, values of the wrong
type or range, a view). usage: make_npu_seeds.py OUTDIR"""
import glob
import os
import shutil
import sqlite3
import subprocess
import sys

out = sys.argv[1]
gen = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "profiling", "gen.py")
work = os.path.join(out, "work")
shutil.rmtree(out, ignore_errors=True)
for d in ("npu_db", "npu_text", work):
    os.makedirs(os.path.join(out, d) if d != work else d, exist_ok=True)
T0 = "1795968970952116000"
for lv in (0, 1, 2):
    rank = os.path.join(work, "r%d" % lv)
    subprocess.run([sys.executable, gen, rank, "--t0-ns", T0, "--type", "both", "--level", str(lv),
                    "--steps", "1"], check=True)
    shutil.copy(os.path.join(rank, "ASCEND_PROFILER_OUTPUT", "trace_view.json"),
                os.path.join(out, "npu_text", "level%d.json" % lv))
    shutil.copy(os.path.join(rank, "ASCEND_PROFILER_OUTPUT", "ascend_pytorch_profiler_0.db"),
                os.path.join(out, "npu_db", "level%d.db" % lv))
EDITS = {
    "no_task": "DROP TABLE TASK",
    "no_strings": "DROP TABLE STRING_IDS",
    "task_view": "ALTER TABLE TASK RENAME TO T2; CREATE VIEW TASK AS SELECT * FROM T2",
    "ts_text": "UPDATE TASK SET startNs = 'x'",
    "ts_huge": "UPDATE TASK SET endNs = 9223372036854775807",
    "backwards": "UPDATE TASK SET endNs = startNs - 1",
    "stream_big": "UPDATE TASK SET streamId = 4294967296",
    "gtid_big": "UPDATE CANN_API SET globalTid = 9223372036854775807",
    "pytorch_blob": "UPDATE PYTORCH_API SET startNs = x'00ff'",
    "names_missing": "DELETE FROM STRING_IDS",
    "no_compute": "DROP TABLE COMPUTE_TASK_INFO",
    "conn_null": "UPDATE TASK SET connectionId = NULL",
    "empty": "DELETE FROM TASK",
}
for name, sql in EDITS.items():
    p = os.path.join(out, "npu_db", name + ".db")
    shutil.copy(os.path.join(out, "npu_db", "level1.db"), p)
    db = sqlite3.connect(p)
    db.executescript(sql)
    db.commit()
    db.execute("VACUUM")
    db.close()
shutil.rmtree(work)
