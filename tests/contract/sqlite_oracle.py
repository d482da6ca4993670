#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An oracle for our SQLite page writer (issue 34 item 4).

    sqlite_oracle.py DB [SCRATCH_DIR]

Our sink writes the bulk tables' b-tree pages itself; libsqlite3 is the
oracle. For DB:
  - PRAGMA integrity_check and quick_check say ok;
  - the same content written through libsqlite3: a fresh DB made with DB's
    own schema (sqlite_master's SQL, in order), every row inserted by
    libsqlite3, which applies each column's affinity as it stores; then both
    compared row by row, value and storage class (typeof), by rowid;
  - every index scanned in its order (INDEXED BY, no sort step, checked in
    the query plan) gives the rows, rowids included, that ORDER BY on its
    columns gives without it, in our DB and in libsqlite3's, and the two
    agree.
Prints one line per check; exit 1 at the first difference, naming it.
"""
import os
import sqlite3
import sys
import tempfile


def fail(msg):
    print("FAIL " + msg)
    sys.exit(1)


def q(name):
    return '"' + name.replace('"', '""') + '"'


def pragma_ok(db, pragma, path):
    got = [r[0] for r in db.execute("PRAGMA " + pragma)]
    if got != ["ok"]:
        fail("%s: PRAGMA %s: %s" % (path, pragma, "; ".join(map(str, got[:5]))))


def tables(db):
    return [r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")]


def rows(db, table):
    """Every row with its rowid, each value paired with its storage class."""
    cols = [r[1] for r in db.execute("PRAGMA table_info(%s)" % q(table))]
    sel = ", ".join("%s, typeof(%s)" % (q(c), q(c)) for c in cols)
    return db.execute("SELECT rowid, %s FROM %s ORDER BY rowid" % (sel, q(table)))


def rebuild(ours, path):
    """The same schema and rows, written by libsqlite3 into a new file at @path."""
    ref = sqlite3.connect(path)
    ref.execute("PRAGMA journal_mode=OFF")
    schema = ours.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")
    for kind, name, sql in schema:
        if kind == "table" and not name.startswith("sqlite_"):
            ref.execute(sql)
    for t in tables(ours):
        cols = [r[1] for r in ours.execute("PRAGMA table_info(%s)" % q(t))]
        ins = "INSERT INTO %s (rowid, %s) VALUES (?%s)" % (q(t), ", ".join(map(q, cols)), ", ?" * len(cols))
        ref.executemany(ins, ours.execute("SELECT rowid, %s FROM %s ORDER BY rowid" % (", ".join(map(q, cols)), q(t))))
    # indexes last, as a bulk load does: libsqlite3 builds each by its own sort
    for kind, name, sql in ours.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid"):
        if kind in ("index", "view", "trigger"):
            ref.execute(sql)
    ref.commit()
    return ref


def compare_rows(ours, ref, path):
    if tables(ours) != tables(ref):
        fail("%s: tables %s, libsqlite3's copy has %s" % (path, tables(ours), tables(ref)))
    total = 0
    # sqlite_sequence too: libsqlite3 keeps AUTOINCREMENT's high mark as it inserts
    seq = ["sqlite_sequence"] if ours.execute(
        "SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").fetchone() else []
    for t in tables(ours) + seq:
        a, b = rows(ours, t), rows(ref, t)
        n = 0
        for ra, rb in zip(a, b):
            if ra != rb:
                fail("%s: table %s, row %d (rowid %s): ours %r, libsqlite3's %r" % (path, t, n, ra[0], ra, rb))
            n += 1
        if a.fetchone() is not None or b.fetchone() is not None:
            fail("%s: table %s: row counts differ after %d rows" % (path, t, n))
        total += n
    print("ok   %s: %d rows in %d tables equal libsqlite3's, value and storage class" % (path, total, len(tables(ours))))


def index_scan(db, table, index, cols, path):
    key = ", ".join(map(q, cols))
    by_index = "SELECT rowid, %s FROM %s INDEXED BY %s ORDER BY %s, rowid" % (key, q(table), q(index), key)
    plan = " ".join(str(r[-1]) for r in db.execute("EXPLAIN QUERY PLAN " + by_index))
    if "TEMP B-TREE" in plan or index not in plan:
        fail("%s: index %s: the scan is not in index order (plan: %s)" % (path, index, plan))
    sorted_ = "SELECT rowid, %s FROM %s NOT INDEXED ORDER BY %s, rowid" % (key, q(table), key)
    a, b = db.execute(by_index), db.execute(sorted_)
    out = []
    for ra, rb in zip(a, b):
        if ra != rb:
            fail("%s: index %s, position %d: the index gives %r, ORDER BY gives %r" % (path, index, len(out), ra, rb))
        out.append(ra[0])
    if a.fetchone() is not None or b.fetchone() is not None:
        fail("%s: index %s holds a different number of entries than its table" % (path, index))
    return out


def compare_indexes(ours, ref, path):
    idx = ours.execute("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").fetchall()
    for index, table in idx:
        cols = [r[2] for r in ours.execute("PRAGMA index_info(%s)" % q(index))]
        mine = index_scan(ours, table, index, cols, path)
        theirs = index_scan(ref, table, index, cols, path + " (libsqlite3's copy)")
        if mine != theirs:
            fail("%s: index %s orders rows otherwise than libsqlite3's" % (path, index))
        print("ok   %s: index %s (%s) scanned in order = ORDER BY, %d entries, as libsqlite3's" % (path, index, ", ".join(cols), len(mine)))


def main(argv):
    if len(argv) not in (2, 3):
        sys.stderr.write("usage: sqlite_oracle.py DB [SCRATCH_DIR]\n")
        return 2
    path = argv[1]
    ours = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    pragma_ok(ours, "integrity_check", path)
    pragma_ok(ours, "quick_check", path)
    with tempfile.TemporaryDirectory(dir=argv[2] if len(argv) == 3 else None) as d:
        ref = rebuild(ours, os.path.join(d, "oracle.db"))
        pragma_ok(ref, "integrity_check", path + " (libsqlite3's copy)")
        compare_rows(ours, ref, path)
        compare_indexes(ours, ref, path)
        ref.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
