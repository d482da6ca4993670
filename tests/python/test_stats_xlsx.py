# SPDX-License-Identifier: MIT
"""`ftscope stats --format xlsx` (issue 36): the reference trace_analyze.py's
report, read back with openpyxl, on the bundled sample and on a lossy capture:
sheets in the reference's order with its column names and units, charts in
the zip, every number equal to `stats --format csv` on the same input; the
command's refusals; and the drop-in python/trace_analyze.py's CLI and DB tables.
"""
import csv
import io
import os
import re
import sqlite3
import subprocess
import sys
import zipfile

import pytest

openpyxl = pytest.importorskip("openpyxl", reason="apt-get install python3-openpyxl")

SRC = os.environ.get("FTS_SRC", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
FTSCOPE = os.environ.get("FTSCOPE_BINARY", os.path.join(SRC, "build", "ftscope"))
SAMPLE = os.path.join(SRC, "assets", "sample", "sample.dat")
LOSSY = os.path.join(SRC, "tests", "data", "lost", "overwrite.dat")       # drops, no holes
HOLES = os.path.join(SRC, "tests", "data", "lost", "trace_pipe.txt")      # drops and holes
ANALYZE = os.path.join(SRC, "python", "trace_analyze.py")

REF_SHEETS = ["task_summary_by_comm", "task_summary_by_pid", "task_summary", "proc_irq_detail"]
REF_HEAD = {
    "task_summary_by_comm": ["comm", "running_us", "sleeping_us", "runnable_us", "cs_count",
                             "cs_involuntary_count"],
    "task_summary_by_pid": ["comm", "pid", "running_us", "sleeping_us", "runnable_us", "cs_count",
                            "cs_involuntary_count"],
    "task_summary": ["comm", "pid", "cpu_id", "running_us", "sleeping_us", "runnable_us",
                     "cs_count", "cs_involuntary_count"],
    "proc_irq_detail": ["comm", "pid", "cpu_id", "irq_type", "irq_name", "count", "time_us",
                        "label"],
}


def run(*args, **kw):
    return subprocess.run([FTSCOPE, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, errors="replace", check=False, **kw)


def have_xlsx():
    r = run("stats", SAMPLE, "--format", "xlsx", "-o", "/nonexistent-dir/x.xlsx")
    return "built without libxlsxwriter" not in r.stderr


pytestmark = pytest.mark.skipif(not have_xlsx(), reason="ftscope built without libxlsxwriter")


def ns(us):
    return int(round(us * 1000))


def stats_csv(inp, *extra):
    r = run("stats", inp, "--format", "csv", "--top", "0", *extra)
    assert r.returncode == 0, r.stderr
    tasks_part, cpus_part = r.stdout.split("\n\n", 1)
    tasks = {t["task"]: t for t in csv.DictReader(io.StringIO(tasks_part))}
    cpus = {int(c["cpu"]): c for c in csv.DictReader(io.StringIO(cpus_part))}
    return tasks, cpus


def rows(ws):
    it = ws.iter_rows(values_only=True)
    head = [h for h in next(it) if h is not None]
    return head, [dict(zip(head, r)) for r in it if r[0] is not None]


@pytest.fixture(scope="module", params=[SAMPLE, LOSSY, HOLES],
                ids=["sample", "lossy", "holes"])
def report(request, tmp_path_factory):
    out = tmp_path_factory.mktemp("xlsx") / "report.xlsx"
    r = run("stats", request.param, "--format", "xlsx", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout == ""
    tasks, cpus = stats_csv(request.param)
    return {"input": request.param, "path": str(out), "wb": openpyxl.load_workbook(str(out)),
            "tasks": tasks, "cpus": cpus, "stderr": r.stderr}


def test_sheets_in_the_reference_order(report):
    names = report["wb"].sheetnames
    assert names[:4] == REF_SHEETS
    assert names[4:] == ["wait_latency", "preempters", "cpu_summary", "no_data", "info"]
    for name, head in REF_HEAD.items():
        got, _ = rows(report["wb"][name])
        assert got[:len(head)] == head, name
        assert "label" not in got or name == "proc_irq_detail"
        assert report["wb"][name].freeze_panes == "A2"


def test_charts(report):
    wb = report["wb"]
    assert len(wb["task_summary_by_comm"]._charts) == 1
    assert len(wb["task_summary"]._charts) == 0
    assert len(wb["proc_irq_detail"]._charts) == 2
    with zipfile.ZipFile(report["path"]) as z:
        names = z.namelist()
        charts = [n for n in names if re.fullmatch(r"xl/charts/chart\d+\.xml", n)]
        assert len(charts) >= 3
        rels = "".join(z.read(n).decode() for n in names
                       if re.fullmatch(r"xl/drawings/_rels/drawing\d+\.xml\.rels", n))
        for c in charts:
            assert "../charts/" + os.path.basename(c) in rels
        sheet_rels = "".join(z.read(n).decode() for n in names
                             if n.startswith("xl/worksheets/_rels/"))
        assert "../drawings/drawing" in sheet_rels
        titles = "".join(z.read(c).decode() for c in charts)
    for title in ("Top10 Running Time", "Top10 IRQ Time", "Top10 IRQ Count"):
        assert title in titles
    assert "task_summary_by_comm!$A$2:$A$" in titles
    assert "proc_irq_detail!$J$2:$J$" in titles and "proc_irq_detail!$M$2:$M$" in titles


def test_by_pid_equals_csv(report):
    _, got = rows(report["wb"]["task_summary_by_pid"])
    assert {r["task"] for r in got} == set(report["tasks"])
    for r in got:
        t = report["tasks"][r["task"]]
        assert (r["comm"], r["pid"]) == (t["task"].rsplit(":", 1)[0], int(t["pid"]))
        assert ns(r["running_us"]) == int(t["running_ns"])
        assert ns(r["runnable_us"]) == int(t["runnable_ns"])
        assert ns(r["sleeping_us"]) == int(t["sleeping_ns"]) + int(t["blocked_ns"])
        assert ns(r["blocked_us"]) == int(t["blocked_ns"])
        assert ns(r["unknown_us"]) == int(t["unknown_ns"])
        assert r["cs_count"] == int(t["switches"])
        assert r["cs_involuntary_count"] == int(t["involuntary"])
        assert r["migrations"] == int(t["migrations"])
    run_ns = [ns(r["running_us"]) for r in got]
    assert run_ns == sorted(run_ns, reverse=True)


def test_by_comm_sums_the_tasks(report):
    _, got = rows(report["wb"]["task_summary_by_comm"])
    want = {}
    for t in report["tasks"].values():
        w = want.setdefault(t["task"].rsplit(":", 1)[0], [0, 0, 0, 0, 0])
        w[0] += int(t["running_ns"])
        w[1] += int(t["sleeping_ns"]) + int(t["blocked_ns"])
        w[2] += int(t["runnable_ns"])
        w[3] += int(t["switches"])
        w[4] += int(t["involuntary"])
    assert {r["comm"] for r in got} == set(want)
    for r in got:
        assert [ns(r["running_us"]), ns(r["sleeping_us"]), ns(r["runnable_us"]), r["cs_count"],
                r["cs_involuntary_count"]] == want[r["comm"]], r["comm"]


def test_per_cpu_rows_sum_to_the_tasks(report):
    _, got = rows(report["wb"]["task_summary"])
    sums = {}
    for r in got:
        assert r["cpu_id"] is not None, r   # every slice of these captures names its CPU
        s = sums.setdefault(f'{r["comm"]}:{r["pid"]}', [0] * 6)
        for i, k in enumerate(("running_us", "sleeping_us", "runnable_us", "unknown_us")):
            s[i] += ns(r[k])
        s[4] += r["cs_count"]
        s[5] += r["cs_involuntary_count"]
    assert set(sums) == set(report["tasks"])
    for tid, s in sums.items():
        t = report["tasks"][tid]
        assert s == [int(t["running_ns"]), int(t["sleeping_ns"]) + int(t["blocked_ns"]),
                     int(t["runnable_ns"]), int(t["unknown_ns"]), int(t["switches"]),
                     int(t["involuntary"])], tid
    assert len({r["cpu_id"] for r in got}) > 1


def test_irq_detail_sums_to_the_tasks(report):
    _, got = rows(report["wb"]["proc_irq_detail"])
    sums = {}
    for r in got:
        assert r["label"] == f'{r["comm"]}:{r["pid"]}@{r["cpu_id"]}'
        assert r["irq_type"] in ("irq", "softirq")
        s = sums.setdefault(f'{r["comm"]}:{r["pid"]}', {"irq": [0, 0], "softirq": [0, 0]})
        s[r["irq_type"]][0] += r["count"]
        s[r["irq_type"]][1] += ns(r["time_us"])
    for tid, t in report["tasks"].items():
        s = sums.get(tid, {"irq": [0, 0], "softirq": [0, 0]})
        assert s["irq"] == [int(t["irq_count"]), int(t["irq_ns"])], tid
        assert s["softirq"] == [int(t["softirq_count"]), int(t["softirq_ns"])], tid
    times = [r["time_us"] for r in got]
    assert times == sorted(times, reverse=True)
    # the charts' data: each comm:pid@cpu once, every irq name summed, top 10 by time and count
    by_label = {}
    for r in got:
        v = by_label.setdefault(r["label"], [0, 0])
        v[0] += ns(r["time_us"])
        v[1] += r["count"]
    ws = report["wb"]["proc_irq_detail"]
    top_t = [(a, ns(b)) for a, b in ws.iter_rows(min_row=2, max_row=11, min_col=10, max_col=11,
                                                 values_only=True) if a is not None]
    top_c = [(a, b) for a, b in ws.iter_rows(min_row=2, max_row=11, min_col=13, max_col=14,
                                             values_only=True) if a is not None]
    assert len(top_t) == len(top_c) == min(10, len(by_label))
    assert [b for _, b in top_t] == sorted((v[0] for v in by_label.values()), reverse=True)[:10]
    assert [b for _, b in top_c] == sorted((v[1] for v in by_label.values()), reverse=True)[:10]
    assert all(by_label[a][0] == b for a, b in top_t) and all(by_label[a][1] == b for a, b in top_c)


def test_own_sheets_equal_csv(report):
    _, lat = rows(report["wb"]["wait_latency"])
    assert {r["task"] for r in lat} == {k for k, t in report["tasks"].items() if int(t["wakeups"])}
    for r in lat:
        t = report["tasks"][r["task"]]
        assert r["wakeups"] == int(t["wakeups"])
        assert [ns(r["wakeup_p50_us"]), ns(r["wakeup_p99_us"]), ns(r["wakeup_max_us"])] == \
            [int(t["wakeup_p50_ns"]), int(t["wakeup_p99_ns"]), int(t["wakeup_max_ns"])]
    _, pre = rows(report["wb"]["preempters"])
    assert {r["task"] for r in pre} == {k for k, t in report["tasks"].items() if t["top_preempter"]}
    for r in pre:
        t = report["tasks"][r["task"]]
        assert r["top_preempter"] == t["top_preempter"]
        assert ns(r["top_preempter_us"]) == int(t["top_preempter_ns"])
    _, cpus = rows(report["wb"]["cpu_summary"])
    assert {r["cpu_id"] for r in cpus} == set(report["cpus"])
    for r in cpus:
        c = report["cpus"][r["cpu_id"]]
        assert abs(r["util_pct"] / 100 - float(c["util"])) < 1e-6
        assert [ns(r["busy_us"]), ns(r["wall_us"]), r["irq_count"], ns(r["irq_us"]),
                r["softirq_count"], ns(r["softirq_us"]), r["cs_count"], r["lost_events"],
                int(r["lost_exact"]), ns(r["no_data_us"])] == \
            [int(c[k]) for k in ("busy_ns", "wall_ns", "irq_count", "irq_ns", "softirq_count",
                                 "softirq_ns", "switches", "lost_events", "lost_exact",
                                 "nodata_ns")]


def test_lossy_capture_shows_its_loss(report):
    _, holes = rows(report["wb"]["no_data"])
    info = {r["key"]: r["value"] for r in rows(report["wb"]["info"])[1]}
    lost = sum(int(c["lost_events"]) for c in report["cpus"].values())
    nodata = sum(int(c["nodata_ns"]) for c in report["cpus"].values())
    assert sum(ns(h["duration_us"]) for h in holes) == nodata
    if report["input"] != SAMPLE:
        assert lost > 0
        assert info["lost_events"] != "none"
        assert "events were lost" in report["stderr"]
    if report["input"] == HOLES:
        assert len(holes) == 2 and nodata > 0
        _, tasks = rows(report["wb"]["task_summary_by_pid"])
        assert sum(ns(t["unknown_us"]) for t in tasks) > 0
    if report["input"] == SAMPLE:
        assert lost == 0 and not holes and info["lost_events"] == "none"


def test_window_and_task_filter_equal_csv(tmp_path):
    out = tmp_path / "w.xlsx"
    r = run("stats", SAMPLE, "--format", "xlsx", "-o", str(out), "--window", "1s..2s",
            "--task", "python*")
    assert r.returncode == 0, r.stderr
    tasks, _ = stats_csv(SAMPLE, "--window", "1s..2s", "--task", "python*")
    wb = openpyxl.load_workbook(str(out))
    _, got = rows(wb["task_summary_by_pid"])
    assert {x["task"] for x in got} == set(tasks) and tasks
    _, per_cpu = rows(wb["task_summary"])
    for tid, t in tasks.items():
        run_ns = sum(ns(x["running_us"]) for x in per_cpu if f'{x["comm"]}:{x["pid"]}' == tid)
        assert run_ns == int(t["running_ns"]), tid


def test_cpu_filter_equals_csv(tmp_path):
    out = tmp_path / "c.xlsx"
    r = run("stats", SAMPLE, "--format", "xlsx", "-o", str(out), "--cpu", "1")
    assert r.returncode == 0, r.stderr
    tasks, cpus = stats_csv(SAMPLE, "--cpu", "1")
    wb = openpyxl.load_workbook(str(out))
    _, per_cpu = rows(wb["task_summary"])
    _, irqs = rows(wb["proc_irq_detail"])
    assert {x["cpu_id"] for x in per_cpu} == {x["cpu_id"] for x in irqs} == set(cpus) == {1}
    for tid, t in tasks.items():
        mine = [x for x in per_cpu if f'{x["comm"]}:{x["pid"]}' == tid]
        assert sum(ns(x["running_us"]) for x in mine) == int(t["running_ns"]), tid
        assert sum(x["cs_count"] for x in mine) == int(t["switches"]), tid
        assert sum(x["count"] for x in irqs if f'{x["comm"]}:{x["pid"]}' == tid) == \
            int(t["irq_count"]) + int(t["softirq_count"]), tid


def test_refusals_leave_no_file(tmp_path):
    out = tmp_path / "r.xlsx"
    r = run("stats", SAMPLE, "--format", "xlsx")
    assert r.returncode == 2 and "-o" in r.stderr
    r = run("stats", SAMPLE, "-o", str(out))
    assert r.returncode == 2 and not out.exists()
    r = run("stats", SAMPLE, SAMPLE, "--format", "xlsx", "-o", str(out))
    assert r.returncode == 2 and not out.exists()
    victim = tmp_path / "victim"
    victim.write_text("keep")
    os.symlink(victim, out)
    r = run("stats", SAMPLE, "--format", "xlsx", "-o", str(out))
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert victim.read_text() == "keep" and os.path.islink(out)
    r = run("stats", SAMPLE, "--format", "xlsx", "-o", str(tmp_path / "nodir" / "r.xlsx"))
    assert r.returncode == 1 and not (tmp_path / "nodir").exists()
    bad = tmp_path / "bad.txt"
    bad.write_text("not a trace\n")
    r = run("stats", str(bad), "--format", "xlsx", "-o", str(tmp_path / "b.xlsx"))
    assert r.returncode == 1 and not (tmp_path / "b.xlsx").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


# ---- the drop-in python/trace_analyze.py ----

def analyze(*args, cwd=None):
    env = dict(os.environ, FTSCOPE_BINARY=FTSCOPE)
    return subprocess.run([sys.executable, ANALYZE, *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, check=False, env=env, cwd=cwd)


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory):
    d = tmp_path_factory.mktemp("db")
    db = d / "ftrace_data.db"
    r = run("convert", "-q", "--input", SAMPLE, "--output", str(db))
    assert r.returncode == 0, r.stderr
    return db


def test_dropin_default_output_and_db_tables(sample_db):
    r = analyze("-i", str(sample_db))
    assert r.returncode == 0, r.stderr
    out = sample_db.parent / "ftrace_data_report.xlsx"
    wb = openpyxl.load_workbook(str(out))
    assert wb.sheetnames[:4] == REF_SHEETS
    conn = sqlite3.connect(str(sample_db))
    cols = [c[1] for c in conn.execute("PRAGMA table_info(trace_task_summary)")]
    assert cols == ["comm", "pid", "cpu_id", "running_ns", "sleeping_ns", "runnable_ns",
                    "cs_count", "cs_involuntary_count"]
    cols = [c[1] for c in conn.execute("PRAGMA table_info(trace_irq_detail)")]
    assert cols == ["comm", "pid", "cpu_id", "irq_type", "irq_name", "count", "time_ns"]
    tasks, _ = stats_csv(str(sample_db))
    got = {}
    for comm, pid, run_ns, n in conn.execute(
            "SELECT comm, pid, SUM(running_ns), SUM(cs_count) FROM trace_task_summary GROUP BY comm, pid"):
        got[f"{comm}:{pid}"] = (run_ns, n)
    assert got == {k: (int(t["running_ns"]), int(t["switches"])) for k, t in tasks.items()}
    irq = dict(((c, p), (n, s)) for c, p, n, s in conn.execute(
        "SELECT comm, pid, SUM(count), SUM(time_ns) FROM trace_irq_detail WHERE irq_type='softirq' GROUP BY comm, pid"))
    for k, t in tasks.items():
        comm, pid = k.rsplit(":", 1)
        assert irq.get((comm, int(pid)), (0, 0)) == (int(t["softirq_count"]), int(t["softirq_ns"]))
    n1 = conn.execute("SELECT COUNT(*) FROM trace_task_summary").fetchone()[0]
    conn.close()
    r = analyze("--input", str(sample_db), "--output", str(sample_db.parent / "again.xlsx"))
    assert r.returncode == 0, r.stderr
    assert (sample_db.parent / "again.xlsx").exists()
    conn = sqlite3.connect(str(sample_db))
    assert conn.execute("SELECT COUNT(*) FROM trace_task_summary").fetchone()[0] == n1
    conn.close()


def test_dropin_cli(tmp_path, sample_db):
    r = analyze("--help")
    assert r.returncode == 0 and "--input" in r.stdout and "-o" in r.stdout
    r = analyze("-i", str(tmp_path / "missing.db"))
    assert r.returncode == 1 and "missing.db" in r.stderr
    assert not (tmp_path / "missing_report.xlsx").exists()
    r = analyze("-i", SAMPLE, "-o", str(tmp_path / "from_dat.xlsx"))
    assert r.returncode == 0, r.stderr
    assert "not a DB" in r.stderr and (tmp_path / "from_dat.xlsx").exists()
    copy = tmp_path / "copy.db"
    assert run("convert", "-q", "--input", SAMPLE, "--output", str(copy)).returncode == 0
    r = analyze("-i", str(copy), "--no_db_write")
    assert r.returncode == 0, r.stderr
    conn = sqlite3.connect(str(copy))
    names = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.close()
    assert "trace_irq_detail" not in names and (tmp_path / "copy_report.xlsx").exists()
    sys.path.insert(0, os.path.dirname(ANALYZE))
    import trace_analyze
    assert trace_analyze.build_arg_parser().parse_args([]).input == trace_analyze.DB_PATH_DEFAULT
    assert trace_analyze.DB_PATH_DEFAULT == os.path.join(os.path.dirname(ANALYZE), "ftrace_data.db")
    assert trace_analyze.parse_tid("WatchParentPid::2581884") == ("WatchParentPid:", 2581884)
    assert trace_analyze.parse_tid("CPU 000") == ("CPU 000", None)
    assert trace_analyze.parse_cpu_from_tid("CPU 031") == 31
    assert trace_analyze.parse_cpu_from_tid("<idle>:0") is None


def test_hostile_task_names(tmp_path):
    """Task names are the traced program's bytes: controls, invalid UTF-8, a
    formula's '=', XML's <&, and U+FFFE (valid UTF-8 that XML 1.0 refuses)."""
    src = open(os.path.join(SRC, "assets", "sample", "sample.txt"), "rb").read()
    hostile = tmp_path / "hostile.txt"
    # five bytes for five: the text's columns stay where they were
    hostile.write_bytes(src.replace(b"cmake", b"=<&\x01\xff").replace(b"ftscope", b"\xef\xbf\xbeab<a"))
    out = tmp_path / "hostile.xlsx"
    r = run("stats", str(hostile), "--format", "xlsx", "-o", str(out))
    assert r.returncode == 0, r.stderr
    wb = openpyxl.load_workbook(str(out))
    comms = {x["comm"] for x in rows(wb["task_summary_by_comm"])[1]}
    assert "=<&\\x01\\xff" in comms and "\\uFFFEab<a" in comms
    labels = {x["label"] for x in rows(wb["proc_irq_detail"])[1]}
    assert all("\x01" not in lab for lab in labels)


# ---- -p: the Host Bound sheets, equal to `ftscope hostbound -f json` ----

SAMPLE_DIR = os.path.join(SRC, "assets", "sample")
GEN = os.path.join(SRC, "tests", "profiling", "gen.py")
CATS = ["running", "preempted", "waiting", "sleeping", "blocked", "irq", "unknown"]


def make_profile(dest, typ):
    """tests/hostbound/advice.sh's card: 5 steps on the sample capture, the third 25 ms slower."""
    import glob
    import json
    import shutil
    start = glob.glob(os.path.join(SAMPLE_DIR, "profiling", "*", "PROF_*", "host", "start_info"))[0]
    t0 = int(json.load(open(start))["collectionTimeBegin"]) * 1000 + 50000000
    shutil.copytree(os.path.join(SAMPLE_DIR, "profiling"), dest)
    rank = glob.glob(os.path.join(dest, "*_ascend_pt"))
    subprocess.run([sys.executable, GEN, *rank, "--t0-ns", str(t0), "--type", typ, "--steps", "5",
                    "--slow-step", "2", "--slow-ms", "25"], check=True)
    return dest


@pytest.mark.parametrize("typ", ["text", "db"])
def test_hostbound_sheets_equal_hostbound_json(tmp_path, typ):
    import json
    prof = make_profile(str(tmp_path / "prof"), typ)
    pidmap = os.path.join(SAMPLE_DIR, "pid_mapping.json")
    out = tmp_path / "hb.xlsx"
    r = run("stats", SAMPLE, "-p", prof, "-m", pidmap, "--format", "xlsx", "-o", str(out))
    assert r.returncode == 0, r.stderr
    h = run("hostbound", SAMPLE, "-p", prof, "-m", pidmap, "-f", "json")
    assert h.returncode == 0, h.stderr
    card = json.loads(h.stdout)["cards"][0]
    wb = openpyxl.load_workbook(str(out))
    assert wb.sheetnames[-2:] == ["hostbound_steps", "hostbound_gaps"]
    info = {k: v for k, v in wb["info"].iter_rows(min_row=2, values_only=True)}
    t0 = info["window_begin_ns"]
    head, got = rows(wb["hostbound_steps"])
    assert head == ["step", "start_s", "step_us", "npu_idle_us", "gaps", "cause"] + \
        [c + "_us" for c in CATS] + ["top_culprit", "top_culprit_cpu", "top_culprit_us", "slowest", "card"]
    want = card["steps"]
    assert len(want) >= 5 and len(got) == len(want)
    for g, w in zip(got, want):
        if w["step"] is None:
            assert g["step"] == "outside" and g["start_s"] is None and g["step_us"] is None
        else:
            assert g["step"] == w["step"]
            assert abs(g["start_s"] * 1e9 + t0 - w["start_ns"]) < 1000, (g, w)
            assert ns(g["step_us"]) == w["dur_ns"]
        assert abs(g["npu_idle_us"] * 1000 - w["idle_ns"]) <= 1, (g, w)
        assert g["gaps"] == w["gaps"]
        assert g["cause"] == (w["cause"] if w["idle_ns"] > 0 else None)
        for c in CATS:
            assert abs(g[c + "_us"] * 1000 - w["cause_ns"][c]) <= 1, (c, g, w)
        assert (g["top_culprit"] or "") == w["culprit"]
        if w["culprit"]:
            assert g["top_culprit_cpu"] == (w["culprit_cpu"] if w["culprit_cpu"] >= 0 else None)
            assert abs(g["top_culprit_us"] * 1000 - w["culprit_ns"]) <= 1
        assert g["slowest"] is w["slowest"] and g["card"] == card["card"]
    assert [g["step"] for g in got if g["slowest"]] == [52]
    head, gaps = rows(wb["hostbound_gaps"])
    assert head == ["start_s", "idle_us", "dispatch_thread", "cause", "cause_thread", "why", "card"]
    want = card["worst_gaps"]
    assert len(gaps) == len(want) == card["gaps"] > 0
    for g, w in zip(gaps, want):
        assert abs(g["start_s"] * 1e9 + t0 - w["start_ns"]) < 1000
        assert ns(g["idle_us"]) == w["dur_ns"]
        assert g["dispatch_thread"] == (w["dispatch_thread"] if w["dispatch_tid"] >= 0
                                        else "(the Python threads)")
        assert g["cause"] == w["cause"] and g["why"] == w["explanation"] and g["card"] == card["card"]


def test_hostbound_unreadable_profiling(tmp_path):
    out = tmp_path / "bad.xlsx"
    missing = str(tmp_path / "no_such_profiling")
    r = run("stats", SAMPLE, "-p", missing, "--format", "xlsx", "-o", str(out))
    h = run("hostbound", SAMPLE, "-p", missing)
    assert r.returncode == 1 and not out.exists()
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("ftscope stats: ")
    assert r.stderr.split(": ", 1)[1] == h.stderr.split(": ", 1)[1]
    assert os.listdir(tmp_path) == []


def test_hostbound_sheets_per_card(tmp_path):
    """Two cards: a pair of sheets each, named by card (or by place when the cut names clash)."""
    import glob
    import json
    import shutil
    prof = make_profile(str(tmp_path / "prof"), "text")
    rank = glob.glob(os.path.join(prof, "*_ascend_pt"))[0]
    two = tmp_path / "two"
    two.mkdir()
    shutil.copytree(rank, str(two / "a_ascend_pt"))
    shutil.copytree(rank, str(two / "b_ascend_pt"))
    pidmap = os.path.join(SAMPLE_DIR, "pid_mapping.json")
    out = tmp_path / "two.xlsx"
    r = run("stats", SAMPLE, "-p", str(two), "-m", pidmap, "--format", "xlsx", "-o", str(out))
    assert r.returncode == 0, r.stderr
    h = run("hostbound", SAMPLE, "-p", str(two), "-m", pidmap, "-f", "json")
    cards = json.loads(h.stdout)["cards"]
    wb = openpyxl.load_workbook(str(out))
    assert wb.sheetnames[9:] == ["hostbound_steps_a_ascend_pt", "hostbound_gaps_a_ascend_pt",
                                 "hostbound_steps_b_ascend_pt", "hostbound_gaps_b_ascend_pt"]
    for c in cards:
        _, got = rows(wb["hostbound_steps_" + c["card"]])
        assert {g["card"] for g in got} == {c["card"]}
        assert len(got) == len(c["steps"])
        for g, s in zip(got, c["steps"]):
            assert abs(g["npu_idle_us"] * 1000 - s["idle_ns"]) <= 1 and g["gaps"] == s["gaps"]
    shutil.move(str(two / "b_ascend_pt"), str(two / "a_ascend_ptx_with_a_much_longer_name_ascend_pt"))
    shutil.move(str(two / "a_ascend_pt"), str(two / "a_ascend_ptx_with_a_much_longer_name_too_ascend_pt"))
    r = run("stats", SAMPLE, "-p", str(two), "-m", pidmap, "--format", "xlsx", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert openpyxl.load_workbook(str(out)).sheetnames[9:] == [
        "hostbound_steps_0", "hostbound_gaps_0", "hostbound_steps_1", "hostbound_gaps_1"]


def test_hostbound_db_input_warns(tmp_path, sample_db):
    """A DB (read back as it is: no clock to align) gets the workbook without the Host Bound sheets."""
    prof = make_profile(str(tmp_path / "prof"), "text")
    out = tmp_path / "db.xlsx"
    r = run("stats", str(sample_db), "-p", prof, "--format", "xlsx", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert "no hostbound sheets" in r.stderr and r.stderr.count("\n") == 1
    assert not any(n.startswith("hostbound") for n in openpyxl.load_workbook(str(out)).sheetnames)
