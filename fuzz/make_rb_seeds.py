#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeds for the read-back fuzz targets: make_rb_seeds.py OUTDIR.

OUTDIR/rb_db/: small ftrace DBs (512-byte pages, so each is a few KB) in our
schema and the reference's, and hostile ones (views, a WAL header, a CPU lane
past the model's range, invalid UTF-8); OUTDIR/rb_json/: our Chrome JSON in
its own layout, re-serialised on one line, with many keys before "ph", long
tids, escapes and nested args. Generated, not checked in.
"""
import json
import os
import sqlite3
import sys

SCHEMA = """
PRAGMA page_size=512;
CREATE TABLE process (pid TEXT PRIMARY KEY, process_name TEXT, label TEXT, process_sort_index INTEGER);
CREATE TABLE thread (track_id INTEGER PRIMARY KEY, tid TEXT, pid TEXT, thread_name TEXT, thread_sort_index INTEGER);
CREATE TABLE slice (id INTEGER PRIMARY KEY, timestamp INTEGER, duration INTEGER, name TEXT, depth INTEGER,
  track_id INTEGER, cat TEXT, args TEXT, cname TEXT, end_time INTEGER, flag_id TEXT);
INSERT INTO process VALUES ('CPU Scheduling', 'CPU Scheduling', NULL, 0);
INSERT INTO process VALUES ('Process Scheduling', 'Process Scheduling', NULL, 1);
"""

LANES = [(1, 'CPU 000', 'CPU Scheduling'), (2, 'CPU 001', 'CPU Scheduling'),
         (3, 'model:100', 'Process Scheduling'), (4, 'worker:101', 'Process Scheduling')]
ROWS = [
    (1000, 500, 'model:100', 1, '{"host_pid":"100","end_state":"S","prio":"120"}'),
    (1500, 0, 'sched_switch', 1, '{"prev_comm":"model","prev_pid":"100","prev_state":"S"}'),
    (1600, 40, 'irq', 2, '{"irq":"24","name":"eth0","ret":"handled"}'),
    (1000, 500, 'Running', 3, '{"cpu":"0","host_pid":"100"}'),
    (1500, 900, 'Sleeping', 3, '{"cpu":"0","state":"D"}'),
    (1200, 300, 'Runnable', 4, '{"cpu":"1","reason":"wakeup","waker":"model:100"}'),
    (2400, 0, 'Sleeping', 4, '{"cpu":"-1","note":"context switches"}'),
    (3000, 10, 'lost events', 2, '{"count":"12","kernel_lost":"12"}'),
]


def db(path, extra='', lanes=LANES, rows=ROWS, wal=False):
    if os.path.exists(path):
        os.remove(path)
    c = sqlite3.connect(path)
    c.executescript(SCHEMA)
    c.executemany('INSERT INTO thread VALUES (?, ?, ?, ?, 0)', [(i, t, p, t) for i, t, p in lanes])
    c.executemany('INSERT INTO slice (timestamp, duration, name, track_id, args, end_time) '
                  'VALUES (?, ?, ?, ?, ?, ?)', [(ts, d, n, tr, a, ts + d) for ts, d, n, tr, a in rows])
    if extra:
        c.executescript(extra)
    c.commit()
    if wal:
        c.execute('PRAGMA journal_mode=WAL')
    c.close()


def main():
    out = sys.argv[1]
    dbs, jsons = os.path.join(out, 'rb_db'), os.path.join(out, 'rb_json')
    os.makedirs(dbs, exist_ok=True)
    os.makedirs(jsons, exist_ok=True)
    db(os.path.join(dbs, 'ours.db'))
    db(os.path.join(dbs, 'wal.db'), wal=True)
    db(os.path.join(dbs, 'reference.db'),
       rows=[(ts, d, n, tr, a.replace('"120"', '120')) for ts, d, n, tr, a in ROWS])
    db(os.path.join(dbs, 'cpu_range.db'), lanes=LANES + [(5, 'CPU 65536', 'CPU Scheduling')])
    db(os.path.join(dbs, 'utf8.db'),
       extra="INSERT INTO thread VALUES (5, CAST(x'ff3a37' AS TEXT), 'Process Scheduling', NULL, 0);"
             "INSERT INTO slice (timestamp, duration, name, track_id, args, end_time) VALUES"
             " (4000, 5, CAST(x'fffe3a37' AS TEXT), 5, '{}', 4005);")
    db(os.path.join(dbs, 'view.db'),
       extra='ALTER TABLE slice RENAME TO slice_t; CREATE VIEW slice AS WITH RECURSIVE r(n) AS '
             '(SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n AS id, 1 AS track_id, n AS timestamp,'
             ' 1 AS duration, \'x\' AS name, NULL AS args FROM r;')
    # wakeup links (issue 33): paired in and out of order, one end only, an end on no lane, a view
    flow = ('CREATE TABLE flow (id INTEGER PRIMARY KEY AUTOINCREMENT, flow_id TEXT, name TEXT, cat TEXT,'
            ' track_id INTEGER, timestamp INTEGER, type TEXT);'
            "INSERT INTO flow (flow_id, name, cat, track_id, timestamp, type) VALUES"
            " ('1', 'wakeup', 'wakeup', 3, 1100, 's'), ('1', 'wakeup', 'wakeup', 4, 1500, 'f'),"
            " ('2', 'wakeup', 'wakeup', 4, 1600, 'f'), ('3', 'wakeup', 'wakeup', 4, 1200, 's'),"
            " ('2', 'wakeup', 'wakeup', 3, 1400, 's'), ('4', 'wakeup', 'wakeup', 99, 1000, 's'),"
            " ('4', 'wakeup', 'wakeup', 3, 1700, 'f'), ('5', NULL, NULL, 3, 0, 's'), ('5', NULL, NULL, 4, 9, 'f');")
    db(os.path.join(dbs, 'flows.db'), extra=flow)
    db(os.path.join(dbs, 'flow_view.db'),
       extra=flow + 'ALTER TABLE flow RENAME TO flow_t; CREATE VIEW flow AS SELECT * FROM flow_t;')
    events = [{'name': n, 'ph': 'X', 'pid': p, 'tid': t, 'ts': ts / 1000, 'dur': d / 1000,
               'args': json.loads(a)}
              for ts, d, n, tr, a in ROWS for i, t, p in LANES if i == tr]
    events.insert(0, {'name': 'process_name', 'ph': 'M', 'pid': 'CPU Scheduling',
                      'tid': 'CPU 000', 'args': {'name': 'CPU Scheduling'}})
    with open(os.path.join(jsons, 'ours.json'), 'w') as f:
        f.write('[\n' + ',\n'.join(json.dumps(e, separators=(',', ':')) for e in events) + '\n]\n')
    links = [{'name': 'wakeup', 'cat': 'wakeup', 'ph': 's', 'id': 1, 'ts': 1.1, 'pid': 'Process Scheduling',
              'tid': 'model:100'},
             {'name': 'wakeup', 'cat': 'wakeup', 'ph': 'f', 'bp': 'e', 'id': 1, 'ts': 1.5,
              'pid': 'Process Scheduling', 'tid': 'worker:101'},
             {'name': 'wakeup', 'cat': 'wakeup', 'ph': 'f', 'bp': 'e', 'id': 2, 'ts': 1.6,
              'pid': 'Process Scheduling', 'tid': 'worker:101'},
             {'name': 'wakeup', 'cat': 'other', 'ph': 's', 'id': 2, 'ts': 'x', 'pid': 'Process Scheduling',
              'tid': 'model:100'}]
    with open(os.path.join(jsons, 'flows.json'), 'w') as f:
        json.dump(events + links, f)
    with open(os.path.join(jsons, 'one_line.json'), 'w') as f:
        json.dump(events, f, separators=(',', ':'))
    many = [dict({'k%02d' % i: i for i in range(20)}, **e) for e in events]
    with open(os.path.join(jsons, 'many_keys.json'), 'w') as f:
        json.dump(many, f, indent=1)
    long_tids = [dict(e, tid='t' * 1100 + e['tid']) for e in events]
    with open(os.path.join(jsons, 'long_tids.json'), 'w') as f:
        json.dump(long_tids, f)
    with open(os.path.join(jsons, 'escapes.json'), 'w') as f:
        f.write('[{"name":"a\\u007bb\\"c\\\\:1","ph":"X","pid":"Process Scheduling",'
                '"tid":"x\\u00ff:1","ts":1.5,"dur":2,"args":{"n":{"deep":[1,{"x":"}"}]}}}]')


if __name__ == '__main__':
    main()
