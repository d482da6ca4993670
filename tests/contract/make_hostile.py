#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Hostile read-back inputs for readback_hostile.sh (issue 21): make_hostile.py KIND OUT [SRC].

DBs are made with python3's sqlite3 from scratch or from SRC (a real
conversion); JSON from SRC (our Chrome JSON of a real conversion).

  view_slice / view_thread / view_bigstr   recursive-CTE views named slice / thread
  cpu_range                                a CPU lane "CPU 65536"
  truncated SRC                            SRC cut to half its size
  notdb                                    the SQLite magic, then garbage
  hot SRC                                  SRC with a hot -journal (a writer killed mid-write)
  wal SRC                                  SRC in WAL mode, without side files
  wal_live SRC                             SRC in WAL mode with committed pages only in its
                                           -wal (100 slices renamed XXRENAMED) and a -shm
  lock SRC                                 (runs) copy SRC to OUT, hold an exclusive lock on it,
                                           touch OUT.locked, wait for OUT.unlock
  json_one_line SRC                        SRC re-serialised on one line
  json_keys SRC                            SRC with 17 keys before every "ph"
  json_long_tids                           two lanes whose tids differ only after byte 1100
  text_bad_utf8 SRC                        ftrace text SRC with "bash" spelled in invalid UTF-8
"""
import json
import os
import shutil
import sqlite3
import sys
import time

SCHEMA = """
CREATE TABLE process (pid TEXT PRIMARY KEY, process_name TEXT, label TEXT, process_sort_index INTEGER);
CREATE TABLE thread_t (track_id INTEGER PRIMARY KEY, tid TEXT, pid TEXT, thread_name TEXT,
  thread_sort_index INTEGER);
CREATE TABLE slice_t (id INTEGER PRIMARY KEY, timestamp INTEGER, duration INTEGER, name TEXT,
  depth INTEGER, track_id INTEGER, cat TEXT, args TEXT, cname TEXT, end_time INTEGER, flag_id TEXT);
INSERT INTO thread_t VALUES (1, 'CPU 000', 'CPU Scheduling', 'CPU 000', 0);
INSERT INTO slice_t (timestamp, duration, name, track_id, args, end_time)
  VALUES (1000, 10, 'a:1', 1, '{}', 1010);
"""
ENDLESS = ("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n AS rowid,"
           " n AS id, 1 AS track_id, n AS timestamp, 1 AS duration, {name} AS name, NULL AS args,"
           " 'CPU ' || n AS tid, 'CPU Scheduling' AS pid FROM r")


def fresh(path, sql):
    for p in (path, path + '-journal', path + '-wal', path + '-shm'):
        if os.path.exists(p):
            os.remove(p)
    c = sqlite3.connect(path)
    c.executescript(sql)
    c.commit()
    c.close()


def copy(src, out):
    fresh(out, '')
    shutil.copy(src, out)


def views(kind, out):
    name = "printf('%.*c', 1000000, 'x')" if kind == 'view_bigstr' else "'x'"
    endless = ENDLESS.format(name=name)
    if kind == 'view_thread':
        sql = SCHEMA + 'CREATE VIEW thread AS ' + endless + ';' + \
            'CREATE VIEW slice AS SELECT * FROM slice_t;'
    else:
        sql = SCHEMA + 'CREATE VIEW thread AS SELECT * FROM thread_t;' + \
            'CREATE VIEW slice AS ' + endless + ';'
    fresh(out, sql)


def hot(src, out):
    copy(src, out)
    c = sqlite3.connect(out, isolation_level=None)
    c.execute('PRAGMA cache_size=1')   # spill: the journal and the file are both written
    c.execute('BEGIN')
    c.execute("UPDATE slice SET name = name || 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz'")
    os._exit(0)                        # killed mid-transaction: no rollback, no cleanup


def wal_live(src, out):
    copy(src, out + '.tmp')
    c = sqlite3.connect(out + '.tmp')
    c.execute('PRAGMA journal_mode=WAL')
    c.execute('PRAGMA wal_autocheckpoint=0')
    c.execute("UPDATE slice SET name = 'XXRENAMED' WHERE id IN"
              " (SELECT id FROM slice WHERE name = 'Running' LIMIT 100)")
    c.commit()
    # copied while the writer is open: closing would checkpoint and remove the -wal
    for suffix in ('', '-wal', '-shm'):
        shutil.copy(out + '.tmp' + suffix, out + suffix)
    c.close()
    os.remove(out + '.tmp')


def lock(src, out):
    copy(src, out)
    c = sqlite3.connect(out, isolation_level=None)
    c.execute('BEGIN EXCLUSIVE')
    c.execute("UPDATE slice SET name = 'z' WHERE id < 10")
    open(out + '.locked', 'w').close()
    for _ in range(600):
        if os.path.exists(out + '.unlock'):
            break
        time.sleep(0.1)
    c.execute('ROLLBACK')
    c.close()


def main():
    kind, out = sys.argv[1], sys.argv[2]
    src = sys.argv[3] if len(sys.argv) > 3 else None
    if kind.startswith('view_'):
        views(kind, out)
    elif kind == 'cpu_range':
        fresh(out, SCHEMA.replace('thread_t', 'thread').replace('slice_t', 'slice')
              .replace('CPU 000', 'CPU 65536'))
    elif kind == 'truncated':
        copy(src, out)
        with open(out, 'r+b') as f:
            f.truncate(os.path.getsize(out) // 2)
    elif kind == 'notdb':
        with open(out, 'wb') as f:
            f.write(b'SQLite format 3\0' + bytes(range(256)) * 16)
    elif kind == 'hot':
        hot(src, out)
    elif kind == 'wal':
        copy(src, out)
        c = sqlite3.connect(out)
        c.execute('PRAGMA journal_mode=WAL')
        c.close()                       # the last connection removes -wal and -shm
    elif kind == 'wal_live':
        wal_live(src, out)
    elif kind == 'lock':
        lock(src, out)
    elif kind == 'json_one_line':
        with open(out, 'w') as f:
            json.dump(json.load(open(src)), f, separators=(',', ':'))
    elif kind == 'json_keys':
        events = [dict({'k%02d' % i: i for i in range(17)}, **e) for e in json.load(open(src))]
        with open(out, 'w') as f:
            f.write('[\n' + ',\n'.join(json.dumps(e) for e in events) + '\n]\n')
    elif kind == 'json_long_tids':
        base = 't' * 1100
        events = [{'name': 'Running', 'ph': 'X', 'pid': 'Process Scheduling', 'tid': base + tail,
                   'ts': ts, 'dur': 1, 'args': {}} for ts, tail in ((1, 'a:1'), (2, 'b:2'))]
        with open(out, 'w') as f:
            json.dump(events, f)
    elif kind == 'text_bad_utf8':
        with open(src, 'rb') as f, open(out, 'wb') as o:
            o.write(f.read().replace(b'bash', b'b\xff\xc3h'))
    else:
        sys.exit('unknown kind ' + kind)


if __name__ == '__main__':
    main()
