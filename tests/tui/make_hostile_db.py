#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a crafted ftrace_data.db for the previewer's hardening tests (issue 21).

make_hostile_db.py OUT KIND [N]
  wrap    two slices, at 1000 ns and near 9.2e18 ns: the time axis spans
          nearly the whole signed 64-bit range (item 1); with N > 0 also
          one at 2^63 - 1001 lasting 2^63 - 1 ns (ends near 2^64)
  equal   N slices on one CPU lane, all starting at the same ns, with long
          and distinct durations (item 3)
  tasks   N task lanes with one switch each (a Running then a Sleeping slice)
          and the CPU run slices behind them (item 14)
Only what the reader needs: thread(track_id, tid, pid) and slice(...).
"""
import sqlite3
import sys

CPU, TASK = "CPU Scheduling", "Process Scheduling"


def create(path):
    db = sqlite3.connect(path)
    db.executescript("""
        PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
        CREATE TABLE thread(track_id INTEGER PRIMARY KEY, tid TEXT, pid TEXT);
        CREATE TABLE slice(id INTEGER PRIMARY KEY, timestamp INTEGER, duration INTEGER,
                           name TEXT, track_id INTEGER, cat TEXT, args TEXT, end_time INTEGER);
    """)
    return db


def slices(db, rows):
    db.executemany("INSERT INTO slice(timestamp, duration, name, track_id, args, end_time)"
                   " VALUES (?, ?, ?, ?, ?, ?)",
                   ((ts, d, n, t, a, min(ts + d, 2**63 - 1)) for ts, d, n, t, a in rows))


def wrap(db, n):
    db.execute("INSERT INTO thread VALUES (1, 'CPU 000', ?)", (CPU,))
    db.execute("INSERT INTO thread VALUES (2, 'model:100', ?)", (TASK,))
    far, top = 9_200_000_000_000_000_000, 2**63 - 1
    slices(db, [(1000, 500, "model:100", 1, '{"end_state": "S"}'),
                (far, 1000, "model:100", 1, '{"end_state": "S"}'),
                (1000, 500, "Running", 2, '{"cpu": "0"}'),
                (far, 1000, "Running", 2, '{"cpu": "0"}')])
    if n:  # and one that ends past 2^64 - 2^32: every sum near the end must saturate
        slices(db, [(top - 1000, top, "model:100", 1, '{"end_state": "S"}'),
                    (top - 1000, top, "Sleeping", 2, '{"cpu": "0", "state": "S"}')])


def equal(db, n):
    db.execute("INSERT INTO thread VALUES (1, 'CPU 000', ?)", (CPU,))
    base = 1_000_000_000
    slices(db, ((base, 10_000_000_000 + i, "t%d:%d" % (i % 7, i), 1, '{"end_state": "S"}')
                for i in range(n)))


def tasks(db, n):
    db.execute("INSERT INTO thread VALUES (1, 'CPU 000', ?)", (CPU,))
    db.executemany("INSERT INTO thread VALUES (?, ?, ?)",
                   ((2 + i, "task%d:%d" % (i % 1000, 1000 + i), TASK) for i in range(n)))
    base = 1_000_000_000

    def rows():
        for i in range(n):
            ts, tid = base + i * 1000, "task%d:%d" % (i % 1000, 1000 + i)
            yield (ts, 1000, tid, 1, '{"end_state": "S", "prio": "120"}')
            yield (ts, 1000, "Running", 2 + i, '{"cpu": "0"}')
            yield (ts + 1000, 5000, "Sleeping", 2 + i, '{"cpu": "0", "state": "S"}')
    slices(db, rows())


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in ("wrap", "equal", "tasks"):
        sys.exit(__doc__)
    db = create(sys.argv[1])
    globals()[sys.argv[2]](db, int(sys.argv[3]) if len(sys.argv) > 3 else 0)
    db.commit()
    db.close()


if __name__ == "__main__":
    main()
