# SPDX-License-Identifier: MIT
"""The Python package without root: loading, errors, convert/stats on the
bundled sample, the drop-ins' API against the reference's, install with pip."""
import ast
import inspect
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time

import pytest

from conftest import PYDIR, SAMPLE, env_for_child, run_py

import ftscope
import trace_convert
import trace_record

LIB = os.environ.get("FTSCOPE_LIBRARY")


def test_library_version_matches_headers():
    text = open(os.path.join(os.path.dirname(PYDIR), "include", "ftscope", "version.h")).read()
    nums = [line.split()[2] for line in text.splitlines()
            if line.startswith("#define FTS_VERSION_") and len(line.split()) == 3]
    assert ftscope.library_version() == ".".join(nums)
    assert ftscope.__version__ == ".".join(nums)


def test_missing_library_names_what_it_tried():
    r = run_py("import ftscope; ftscope.library_version()", FTSCOPE_LIBRARY="/nonexistent/libftscope.so.0")
    assert r.returncode != 0
    assert "LibraryNotFound" in r.stderr and "/nonexistent/libftscope.so.0" in r.stderr
    assert "FTSCOPE_LIBRARY" in r.stderr


def test_every_source_parses_as_python_3_8():
    files = [os.path.join(PYDIR, f) for f in ("trace_record.py", "trace_convert.py")]
    files += [os.path.join(PYDIR, "ftscope", f) for f in os.listdir(os.path.join(PYDIR, "ftscope"))
              if f.endswith(".py")]
    for path in files:
        ast.parse(open(path).read(), path, feature_version=(3, 8))


def test_convert_and_stats_on_the_sample(tmp_path):
    out = tmp_path / "ftrace_data.db"
    s = ftscope.convert(input=os.path.join(SAMPLE, "sample.dat"), output=str(out),
                        profiling_data=os.path.join(SAMPLE, "profiling"), owner=None)
    assert s["output"] == str(out) and s["format"] == "db" and s["aligned"]
    assert s["events"] > 10000 and s["cpu_lanes"] == 2 and s["task_lanes"] > 100
    with sqlite3.connect(str(out)) as db:
        assert db.execute("SELECT count(*) FROM slice").fetchone()[0] > 1000
    st = ftscope.stats(str(out), sort="switches", top=5)
    assert len(st["tasks"]) == 5 and len(st["cpus"]) == 2
    sw = [t["switches"] for t in st["tasks"]]
    assert sw == sorted(sw, reverse=True) and sw[0] > 0
    assert {"task", "pid", "running_ns", "runnable_ns", "wakeup_p99_ns", "top_preempter"} <= set(st["tasks"][0])


def test_loss_is_reported_through_the_loss_model(tmp_path):
    lost = os.path.join(os.path.dirname(PYDIR), "tests", "data", "lost", "overwrite.dat")
    s = ftscope.convert(input=lost, output=str(tmp_path / "l.db"))
    assert s["lost_any"] and s["lost_events"] > 0
    assert s["lost_text"].startswith("%d events (CPU " % s["lost_events"])
    st = ftscope.stats(str(tmp_path / "l.db"))
    assert st["info"]["lost_text"] == s["lost_text"]
    assert sum(c["lost_events"] for c in st["cpus"]) == s["lost_events"]
    assert all(c["lost_text"] == str(c["lost_events"]) for c in st["cpus"] if c["lost_exact"])
    r = subprocess.run([sys.executable, os.path.join(PYDIR, "trace_convert.py"), "-i", lost,
                        "-o", str(tmp_path / "l2.db")], env=env_for_child(), capture_output=True, text=True)
    assert "lost events: %s" % s["lost_text"] in r.stderr, r.stderr


def test_convert_json_and_suffix_rule(tmp_path):
    s = ftscope.convert(input=os.path.join(SAMPLE, "sample.txt"), output=str(tmp_path / "x.json"))
    assert s["format"] == "json" and s["input_format"] != "trace.dat"
    events = json.load(open(str(tmp_path / "x.json")))
    assert any(e.get("ph") == "X" for e in events)
    with pytest.raises(ftscope.FtscopeError) as e:
        ftscope.convert(input=os.path.join(SAMPLE, "sample.dat"), output=str(tmp_path / "x.txt"))
    assert e.value.errno == 22 and ".db" in str(e.value)
    assert not (tmp_path / "x.txt").exists()


def test_errors_carry_the_librarys_message(tmp_path):
    with pytest.raises(ftscope.FtscopeError) as e:
        ftscope.convert(input=str(tmp_path / "missing.dat"), output=str(tmp_path / "o.db"))
    assert "missing.dat" in str(e.value) and e.value.errno == 2
    assert not (tmp_path / "o.db").exists()
    with pytest.raises(ftscope.FtscopeError, match="sort: bad value 'bogus'"):
        ftscope.stats(os.path.join(SAMPLE, "sample.dat"), sort="bogus")
    with pytest.raises(ftscope.FtscopeError, match="record option bf_size: bad value '-1'"):
        ftscope.Recorder(bf_size=-1, guard=False).start()
    # what FTSCOPE_READERS once said to the library is a keyword (the library reads no environment)
    with pytest.raises(ftscope.FtscopeError, match="record option readers: bad value '65'"):
        ftscope.Recorder(readers=65, guard=False).start()
    with pytest.raises(ValueError):
        ftscope.Recorder(cpus=[0, -1])


def test_unknown_option_is_refused():
    from ftscope._record import _Rec
    h = _Rec()
    with pytest.raises(ftscope.FtscopeError, match="unknown record option 'colour'"):
        h.set("colour", "red")
    h.set("cpus", "0-1")
    h.set("cpus", "")  # back to the default
    h.close()


def test_health_and_stop_without_start():
    r = ftscope.Recorder(guard=False)
    with pytest.raises(ftscope.FtscopeError, match="not recording"):
        r.health()
    with pytest.raises(ftscope.FtscopeError, match="nothing to stop"):
        r.stop()


def test_convert_is_cancelled_by_keyboardinterrupt(tmp_path):
    # A 20 MB text trace (the sample, shifted and repeated by bench/make_input.sh);
    # SIGINT 0.3 s into it must cancel the run and leave no output (or, when it came
    # after the rename, say so with the whole output in place).
    r = subprocess.run(["bash", os.path.join(os.path.dirname(PYDIR), "bench", "make_input.sh"), "20"],
                       env=dict(os.environ, SKIP_DAT="1", FTSCOPE_BENCH_DIR=str(tmp_path / "in")),
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    big = tmp_path / "in" / "trace.txt"
    code = ("import os, signal, threading, ftscope\n"
            "threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()\n"
            "try:\n"
            "    ftscope.convert(input=%r, output=%r)\n"
            "    print('finished')\n"
            "except KeyboardInterrupt as e:\n"
            "    print('interrupted', *getattr(e, '__notes__', []))\n" % (str(big), str(tmp_path / "o.db")))
    r = run_py(code)
    assert r.returncode == 0, r.stderr
    if "finished" in r.stdout:
        pytest.skip("the conversion finished within 0.3 s; nothing to cancel")
    assert "interrupted" in r.stdout
    left = [p for p in os.listdir(str(tmp_path)) if p.startswith("o.db")]
    if "too late to cancel" in r.stdout:
        # Ctrl+C after the output was renamed into place: whole, and no temp file beside it
        assert left == ["o.db"], left
    else:
        assert not left, left


# The reference's documented API (ftrace_tools README): names, parameters, defaults.
REFERENCE = {
    "ftrace_record_start": "(cpu_mask=None, output='trace.dat', bf_size=40960, event_cfg=None, args=None, backend='auto')",
    "ftrace_record_stop": "(output=None)",
}


def test_dropin_signatures_match_the_reference():
    for name, sig in REFERENCE.items():
        assert str(inspect.signature(getattr(trace_record, name))) == sig, name
    assert trace_record.DEFAULT_TRACE_BUFFER_SIZE == 40960
    assert (trace_record.TRACE_BACKEND_AUTO, trace_record.TRACE_BACKEND_TRACE_CMD,
            trace_record.TRACE_BACKEND_DEBUGFS) == ("auto", "trace-cmd", "debugfs")
    assert str(inspect.signature(trace_record.TraceEventConfig)) == "(sched=1, irq=1, futex=0)"
    m = trace_record.ContainerPidMapper
    assert str(inspect.signature(m)) == "(output_file='pid_mapping.json')"
    assert str(inspect.signature(m.start)) == "(self, duration=None)"
    for meth in ("stop", "is_running", "get_pid_mapping"):
        assert str(inspect.signature(getattr(m, meth))) == "(self)"


def test_dropin_flags_match_the_reference():
    a = trace_record.parse_args([])
    # --output None: the backend's default (trace.dat; trace.txt for debugfs), as the reference
    assert (a.cpu, a.output, a.record_time, a.bf_size, a.backend, a.sched, a.irq, a.futex, a.NSpid) == \
        (None, None, 30, 40960, "auto", 1, 1, 0, False)
    a = trace_record.parse_args(["--record-time=5", "--cpu=0-3,8", "--NSpid", "--bf_size", "8192"])
    assert (a.record_time, a.cpu, a.NSpid, a.bf_size) == (5, "0-3,8", True, 8192)
    c = trace_convert.parse_args([])
    assert (c.input, c.output, c.format, c.profiling_data, c.pid_mapping) == (None, None, None, None, None)


def test_stop_without_start_returns_none_and_says_so(caplog):
    assert trace_record.ftrace_record_stop() is None
    assert "No recording found" in caplog.text
    assert "No trace data collected: output file does not exist" in caplog.text


def test_not_root_start_returns_false(nobody_can_read):
    code = ("import logging, trace_record, ftscope\n"
            "logging.basicConfig(level=logging.INFO)\n"
            "print('start', trace_record.ftrace_record_start(cpu_mask='0'))\n"
            "try:\n"
            "    ftscope.Recorder(output='/tmp/never.dat', guard=False).start()\n"
            "except ftscope.FtscopeError as e:\n"
            "    print('errno', e.errno, e)\n")
    r = run_py(code, user="nobody")
    assert "start False" in r.stdout, r.stdout + r.stderr
    assert "needs root" in r.stderr
    assert "errno 1 " in r.stdout, r.stdout


def test_trace_convert_script(tmp_path):
    out = tmp_path / "t.db"
    r = subprocess.run([sys.executable, os.path.join(PYDIR, "trace_convert.py"),
                        "--input=" + os.path.join(SAMPLE, "sample.dat"), "--output", str(out),
                        "--profiling-data", os.path.join(SAMPLE, "profiling")],
                       env=env_for_child(), capture_output=True, text=True, cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "import %s into MindStudio Insight" % out in r.stderr and out.exists()
    r = subprocess.run([sys.executable, os.path.join(PYDIR, "trace_convert.py"), "--input", "nope.dat"],
                       env=env_for_child(), capture_output=True, text=True, cwd=str(tmp_path))
    assert r.returncode == 1 and "nope.dat" in r.stderr
    assert not (tmp_path / "ftrace_data.db").exists()


def test_pip_install_and_isolated_import(tmp_path):
    """pip install ./python offline into a venv; python -I from / imports it;
    the library is found beside the package, and the error names what was tried."""
    if any(subprocess.run([sys.executable, "-c", "import " + m]).returncode for m in ("pip", "setuptools", "venv")):
        pytest.skip("pip, setuptools or venv missing for %s (python3-pip, python3-venv)" % sys.executable)
    src = tmp_path / "src"
    shutil.copytree(PYDIR, str(src), ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(venv)],
                   check=True)
    py = str(venv / "bin" / "python")
    r = subprocess.run([py, "-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-deps",
                        "-q", str(src)], capture_output=True, text=True, cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON") and k != "LD_LIBRARY_PATH"}
    probe = "import ftscope, trace_record, trace_convert; print(ftscope.__file__); print(ftscope.library_version())"
    r = subprocess.run([py, "-I", "-c", probe], env=env, capture_output=True, text=True, cwd="/")
    assert r.returncode == 0, r.stderr
    assert str(venv) in r.stdout.splitlines()[0]
    # without FTSCOPE_LIBRARY and nothing beside the package: a clear error
    env.pop("FTSCOPE_LIBRARY", None)
    r = subprocess.run([py, "-I", "-c", probe], env=env, capture_output=True, text=True, cwd="/")
    if r.returncode == 0:
        pytest.skip("a libftscope.so.0 is installed system-wide; cannot test the not-found message")
    assert "beside the package" in r.stderr and "the system loader" in r.stderr
    # beside the package
    pkgdir = os.path.dirname(r.stderr and subprocess.run(
        [py, "-I", "-c", "import importlib.util as u; print(u.find_spec('ftscope').origin)"],
        env=env, capture_output=True, text=True, cwd="/").stdout.strip())
    shutil.copy(LIB, os.path.join(pkgdir, "libftscope.so.0"))
    r = subprocess.run([py, "-I", "-c", probe], env=env, capture_output=True, text=True, cwd="/")
    assert r.returncode == 0, r.stderr


def test_nul_bytes_in_paths_raise_valueerror_as_open_does(tmp_path):
    """Issue 33 item 5: ctypes cut "a\\0b" to "a" without a word."""
    with pytest.raises(ValueError) as ref:
        open(str(tmp_path / "a\0b"), "w")
    assert "null byte" in str(ref.value)
    for call in (lambda: ftscope.Recorder(output=str(tmp_path / "t\0.dat"), guard=False).start(),
                 lambda: ftscope.convert(input=os.path.join(SAMPLE, "sample.dat"),
                                         output=str(tmp_path / "x.db\0.json")),
                 lambda: ftscope.stats(os.path.join(SAMPLE, "sample.dat\0")),
                 lambda: ftscope.pidmap(str(tmp_path / "p\0.json"))):
        with pytest.raises(ValueError) as e:
            call()
        assert "embedded null byte" in str(e.value)
    assert os.listdir(str(tmp_path)) == []


def test_a_forked_child_cannot_use_the_parents_objects(tmp_path):
    """Issue 33 item 4 without root: a PidMapper running in the parent is not the
    child's: running is False there, stop() is refused, and exiting frees nothing."""
    m = ftscope.PidMapper(str(tmp_path / "pid_mapping.json"), interval=0.1).start()
    try:
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            try:
                running = m.running
                try:
                    m.stop()
                    said = "stopped"
                except ftscope.FtscopeError as e:
                    said = str(e)
                os.write(w, ("%s|%s" % (running, said)).encode())
            finally:
                os._exit(0)
        os.close(w)
        answer = os.read(r, 4096).decode()
        os.close(r)
        assert os.waitpid(pid, 0)[1] == 0
        assert answer.startswith("False|this ftscope object belongs to process %d" % os.getpid()), answer
        assert m.running
    finally:
        m.stop()
        m.close()
    assert json.load(open(str(tmp_path / "pid_mapping.json")))


def test_a_forked_child_does_not_inherit_a_held_recorder_lock():
    """A parent thread inside stop() (holding the Recorder's lock) when a worker forks:
    the child gets a fresh lock, so its `running` answers instead of waiting for ever."""
    import threading
    rec = ftscope.Recorder(output="/nonexistent/t.dat", guard=False)
    held, done = threading.Event(), threading.Event()

    def hold():
        with rec._lock:
            held.set()
            done.wait(30)
    t = threading.Thread(target=hold)
    t.start()
    held.wait(10)
    try:
        pid = os.fork()
        if pid == 0:
            try:
                os._exit(0 if rec.running is False else 1)
            finally:
                os._exit(2)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            got, status = os.waitpid(pid, os.WNOHANG)
            if got:
                break
            time.sleep(0.05)
        else:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            pytest.fail("the child waited for the parent thread's lock")
        assert status == 0
    finally:
        done.set()
        t.join()
