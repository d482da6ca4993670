# SPDX-License-Identifier: MIT
"""Drop-in for the reference trace_analyze.py, on `ftscope stats --format xlsx`.

    python trace_analyze.py -i ftrace_data.db [-o report.xlsx]

The reference's flags and defaults: --input/-i (default ftrace_data.db beside
this script), --output/-o (default <input without suffix>_report.xlsx). The
report is ftscope's (`ftscope stats FILE --format xlsx -o OUT`): the
reference's four sheets and three charts with its column names and units,
then ftscope's own sheets (docs/man/ftscope-stats.1.scd). As the reference
does, the per task/CPU and per irq numbers are then written into the DB's
tables trace_task_summary and trace_irq_detail (replacing what was there);
--no_db_write leaves the DB alone. The input may also be a trace.dat or text
capture ftscope reads; there is no DB to write then.

The ftscope program is $FTSCOPE_BINARY, else `ftscope` on PATH. Only the
standard library is needed (the report is read back with zipfile).
"""
import argparse
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile

log = logging.getLogger("trace_analyze")

DB_PATH_DEFAULT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ftrace_data.db")

TASK_COLUMNS = ("comm", "pid", "cpu_id", "running_ns", "sleeping_ns", "runnable_ns",
                "cs_count", "cs_involuntary_count")
IRQ_COLUMNS = ("comm", "pid", "cpu_id", "irq_type", "irq_name", "count", "time_ns")

_NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
       "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
       "rel": "http://schemas.openxmlformats.org/package/2006/relationships"}


def parse_tid(tid_str):
    """"comm:pid" -> (comm, pid); (tid_str, None) when it does not end in ":<digits>"."""
    if not tid_str:
        return tid_str, None
    comm, sep, pid = tid_str.rpartition(":")
    if sep and pid.isdigit():
        return comm, int(pid)
    return tid_str, None


def parse_cpu_from_tid(tid_str):
    """"CPU 003" -> 3; None for anything else."""
    if not tid_str or not tid_str.startswith("CPU "):
        return None
    try:
        return int(tid_str[4:].strip())
    except ValueError:
        return None


def default_output(db_path):
    """<input without its suffix>_report.xlsx, as the reference names it."""
    return os.path.splitext(db_path)[0] + "_report.xlsx"


def build_arg_parser():
    p = argparse.ArgumentParser(prog="trace_analyze.py",
                                description="Excel report of a converted ftrace DB (ftscope stats --format xlsx).")
    p.add_argument("--input", "-i", default=DB_PATH_DEFAULT,
                   help=f"ftrace DB (or a capture ftscope reads) (default: {DB_PATH_DEFAULT})")
    p.add_argument("--output", "-o", default=None,
                   help="the Excel report (default: <input>_report.xlsx)")
    p.add_argument("--no_db_write", "--no-db-write", action="store_true",
                   help="do not write trace_task_summary / trace_irq_detail into the DB")
    return p


def find_ftscope():
    return os.environ.get("FTSCOPE_BINARY") or shutil.which("ftscope")


def make_report(input_path, output_path):
    """Run ftscope stats --format xlsx; raises RuntimeError with ftscope's message."""
    exe = find_ftscope()
    if not exe:
        raise RuntimeError("no ftscope program: install ftscope or set FTSCOPE_BINARY")
    r = subprocess.run([exe, "stats", input_path, "--format", "xlsx", "-o", output_path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                       check=False)
    for line in r.stderr.splitlines():
        if r.returncode == 0 and line.strip():
            log.warning("%s", line)
    if r.returncode != 0:
        lines = [line for line in r.stderr.splitlines() if line.strip()]
        raise RuntimeError(lines[-1] if lines else f"ftscope stats failed (status {r.returncode})")


def _col_index(ref):
    n = 0
    for ch in ref:
        if not ch.isalpha():
            break
        n = n * 26 + (ord(ch.upper()) - 64)
    return n - 1


def _cell_value(c, strings):
    t = c.get("t")
    v = c.find("m:v", _NS)
    if t == "inlineStr":
        return "".join(x.text or "" for x in c.iter(f"{{{_NS['m']}}}t"))
    if v is None:
        return None
    if t == "s":
        return strings[int(v.text)]
    if t == "b":
        return v.text == "1"
    if t == "str":
        return v.text
    f = float(v.text)
    return int(f) if f.is_integer() else f


def read_sheet(xlsx_path, name):
    """Rows of sheet @name as dicts by the header row (the report's own file)."""
    with zipfile.ZipFile(xlsx_path) as z:
        strings = []
        if "xl/sharedStrings.xml" in z.namelist():
            for si in ET.fromstring(z.read("xl/sharedStrings.xml")).findall("m:si", _NS):
                strings.append("".join(x.text or "" for x in si.iter(f"{{{_NS['m']}}}t")))
        wb = ET.fromstring(z.read("xl/workbook.xml"))
        rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
        target = {r.get("Id"): r.get("Target") for r in rels.findall("rel:Relationship", _NS)}
        rid = None
        for s in wb.find("m:sheets", _NS).findall("m:sheet", _NS):
            if s.get("name") == name:
                rid = s.get(f"{{{_NS['r']}}}id")
        if rid is None:
            raise KeyError(f"{xlsx_path}: no sheet {name}")
        path = target[rid].lstrip("/")
        path = path if path.startswith("xl/") else "xl/" + path
        sheet = ET.fromstring(z.read(path))
    rows = []
    for row in sheet.iter(f"{{{_NS['m']}}}row"):
        vals = {}
        for c in row.findall("m:c", _NS):
            vals[_col_index(c.get("r"))] = _cell_value(c, strings)
        width = max(vals) + 1 if vals else 0
        rows.append([vals.get(i) for i in range(width)])
    if not rows:
        return []
    head = rows[0]
    return [{h: (r[i] if i < len(r) else None) for i, h in enumerate(head) if h}
            for r in rows[1:]]


def _ns(us):
    return int(round(float(us or 0) * 1000))


def task_rows_from_report(xlsx_path):
    """The task_summary sheet as trace_task_summary rows (ns, as the reference stores)."""
    return [(r["comm"], r["pid"], r["cpu_id"], _ns(r["running_us"]), _ns(r["sleeping_us"]),
             _ns(r["runnable_us"]), r["cs_count"], r["cs_involuntary_count"])
            for r in read_sheet(xlsx_path, "task_summary")]


def irq_rows_from_report(xlsx_path):
    """The proc_irq_detail sheet as trace_irq_detail rows."""
    return [(r["comm"], r["pid"], r["cpu_id"], r["irq_type"], r["irq_name"], r["count"],
             _ns(r["time_us"]))
            for r in read_sheet(xlsx_path, "proc_irq_detail") if r.get("comm") is not None]


def _create_result_tables(conn):
    conn.execute("""CREATE TABLE IF NOT EXISTS trace_task_summary (
        comm TEXT, pid INTEGER, cpu_id INTEGER,
        running_ns INTEGER DEFAULT 0, sleeping_ns INTEGER DEFAULT 0, runnable_ns INTEGER DEFAULT 0,
        cs_count INTEGER DEFAULT 0, cs_involuntary_count INTEGER DEFAULT 0,
        PRIMARY KEY (comm, pid, cpu_id))""")
    conn.execute("""CREATE TABLE IF NOT EXISTS trace_irq_detail (
        comm TEXT, pid INTEGER, cpu_id INTEGER, irq_type TEXT, irq_name TEXT,
        count INTEGER DEFAULT 0, time_ns INTEGER DEFAULT 0,
        PRIMARY KEY (comm, pid, cpu_id, irq_type, irq_name))""")


def write_results_to_db(conn, task_rows, irq_rows):
    """Replace the two tables' rows, in one transaction."""
    with conn:
        _create_result_tables(conn)
        conn.execute("DELETE FROM trace_task_summary")
        conn.execute("DELETE FROM trace_irq_detail")
        conn.executemany("INSERT INTO trace_task_summary VALUES (?, ?, ?, ?, ?, ?, ?, ?)", task_rows)
        conn.executemany("INSERT INTO trace_irq_detail VALUES (?, ?, ?, ?, ?, ?, ?)", irq_rows)


def is_sqlite(path):
    try:
        with open(path, "rb") as f:
            return f.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def main(argv=None):
    logging.basicConfig(level=logging.INFO, format="[%(asctime)s] [%(levelname)s]:%(message)s")
    args = build_arg_parser().parse_args(argv)
    output = args.output or default_output(args.input)
    if not os.path.exists(args.input):
        log.error("input not found: %s", args.input)
        return 1
    try:
        make_report(args.input, output)
    except (RuntimeError, OSError) as e:
        log.error("%s", e)
        return 1
    log.info("Report saved to: %s", output)
    if args.no_db_write:
        return 0
    if not is_sqlite(args.input):
        log.info("%s is not a DB: no trace_task_summary / trace_irq_detail tables written", args.input)
        return 0
    try:
        tasks, irqs = task_rows_from_report(output), irq_rows_from_report(output)
        conn = sqlite3.connect(args.input)
        try:
            write_results_to_db(conn, tasks, irqs)
        finally:
            conn.close()
    except (sqlite3.Error, OSError, KeyError, ValueError, zipfile.BadZipFile, ET.ParseError) as e:
        log.error("the report is written, but the DB tables are not: %s: %s", args.input, e)
        return 1
    log.info("Wrote %d task rows and %d irq rows into %s (trace_task_summary, trace_irq_detail)",
             len(tasks), len(irqs), args.input)
    return 0


if __name__ == "__main__":
    sys.exit(main())
