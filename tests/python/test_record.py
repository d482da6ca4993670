# SPDX-License-Identifier: MIT
"""The Python package recording on the real tracefs (root; holds /tmp/fts-tracefs.lock).

Around a workload the capture holds its switches; health() counts grow; the
global tracing state and the instance list are as before; a SIGKILLed
interpreter leaves nothing the next ftscope does not clean; SIGTERM and
interpreter exit save the capture and call the script's own handler; the
drop-in refuses a second start; a removed output directory is reported at
once and the capture saved where health() said; ContainerPidMapper maps the threads of a
process in a new PID namespace.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from conftest import env_for_child, ours

import ftscope
import trace_record

STATE_FILES = ("tracing_on", "current_tracer", "trace_clock", "buffer_size_kb",
               "buffer_total_size_kb", "tracing_cpumask", "set_event", "events/enable")


def state(t):
    """What recording promises to leave as it was; our instances nobody holds open are leaked."""
    s = {f: open(os.path.join(t, f)).read() for f in STATE_FILES}
    held = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            for fd in os.listdir("/proc/%s/fd" % pid):
                target = os.readlink("/proc/%s/fd/%s" % (pid, fd))
                if "/instances/ftscope-" in target:
                    held.add(target.split("/instances/")[1].split("/")[0])
        except OSError:
            continue
    s["leaked"] = sorted(i for i in os.listdir(os.path.join(t, "instances"))
                         if i.startswith("ftscope-") and ours(i) and i not in held)
    return s


def workload(seconds):
    """hackbench when installed (rt-tests), else a shell that sleeps in a loop."""
    if shutil.which("hackbench"):
        return subprocess.Popen(["timeout", str(seconds), "hackbench", "-g", "1", "-l", "100000000"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), "hackbench"
    return subprocess.Popen(["timeout", str(seconds), "sh", "-c", "while :; do sleep 0.01; done"],
                            stdout=subprocess.DEVNULL), "sleep"


def grown(rec, before, timeout=20):
    """The next health snapshot with more events than @before (the recorder samples
    on its own tick, so a loaded machine may take a while)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        h = rec.health()
        if h["events"] > before["events"]:
            return h
        time.sleep(0.2)
    return h


def test_record_around_a_workload(tracefs, tmp_path):
    before = state(tracefs)
    out = str(tmp_path / "trace.dat")
    with ftscope.Recorder(output=out, bf_size=4096, owner=None) as rec:
        first = rec.health()
        load, comm = workload(3)
        mid = grown(rec, first)
        last = grown(rec, mid)
        load.wait()
    assert mid["events"] > first["events"] and last["events"] > mid["events"]
    assert last["cpus"] and {"cpu", "events", "lost", "lost_text", "fill"} <= set(last["cpus"][0])
    assert rec.output == out and os.path.getsize(out) > 0
    assert rec.summary["health"]["events"] >= last["events"]
    st = ftscope.stats(out)
    switches = sum(t["switches"] for t in st["tasks"] if t["comm"] == comm)
    assert switches > 10, "the capture holds no %s switches" % comm
    s = ftscope.convert(input=out, output=str(tmp_path / "ftrace_data.db"), owner=None)
    assert s["cpu_slices"] > 0
    assert state(tracefs) == before


def _child(code, tmp_path):
    return subprocess.Popen([sys.executable, "-c", code], env=env_for_child(), cwd=str(tmp_path),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(p, timeout):
    """The child's output; a child still running after @timeout s is killed and the test fails."""
    try:
        return p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        pytest.fail("the child hung (killed after %d s): %s %s" % (timeout, out, err))


def _wait_line(p, word, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = p.stdout.readline()
        if word in line:
            return
        if not line and p.poll() is not None:
            break
    pytest.fail("the child never said %r: %s" % (word, p.stderr.read()))


def test_sigkill_leaves_nothing_a_later_ftscope_does_not_clean(tracefs, tmp_path):
    before = state(tracefs)
    p = _child("import time, ftscope\n"
               "r = ftscope.Recorder(output='k.dat', bf_size=1024).start()\n"
               "print('started', flush=True)\n"
               "time.sleep(60)\n", tmp_path)
    _wait_line(p, "started")
    p.kill()
    p.wait()
    # the killed recorder's instance is left, unheld; the next recorder sweeps it
    binary = os.environ.get("FTSCOPE_BINARY")
    r = subprocess.run([binary, "record", "--record_time", "1", "--bf_size", "1024",
                        "--output", str(tmp_path / "next.dat")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert state(tracefs) == before


def test_sigterm_saves_and_chains_the_scripts_handler(tracefs, tmp_path):
    before = state(tracefs)
    p = _child("import signal, sys, time, logging, trace_record\n"
               "logging.basicConfig(level=logging.INFO)\n"
               "def mine(sig, frame):\n"
               "    print('script handler', flush=True)\n"
               "    sys.exit(3)\n"
               "signal.signal(signal.SIGTERM, mine)\n"
               "assert trace_record.ftrace_record_start(output='t.dat', bf_size=1024)\n"
               "print('started', flush=True)\n"
               "time.sleep(60)\n", tmp_path)
    _wait_line(p, "started")
    time.sleep(0.5)
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 3 and "script handler" in out, err
    assert "capture stopped at signal SIGTERM; saved to" in err
    assert ftscope.stats(str(tmp_path / "t.dat"))["info"]["items"] > 0
    assert state(tracefs) == before


def test_interpreter_exit_saves_an_unstopped_capture(tracefs, tmp_path):
    before = state(tracefs)
    p = _child("import trace_record, time\n"
               "assert trace_record.ftrace_record_start(output='e.dat', bf_size=1024, cpu_mask=[0])\n"
               "time.sleep(0.5)\n", tmp_path)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert "capture stopped at interpreter exit" in err
    assert os.path.getsize(str(tmp_path / "e.dat")) > 0
    assert state(tracefs) == before


def test_dropin_second_start_and_stop(tracefs, tmp_path, caplog):
    before = state(tracefs)
    out = str(tmp_path / "d.dat")
    cfg = trace_record.TraceEventConfig(sched=1, irq=0)
    assert trace_record.ftrace_record_start(cpu_mask=[0], output=out, bf_size=1024, event_cfg=cfg)
    assert not trace_record.ftrace_record_start(output=str(tmp_path / "other.dat"))
    assert "already running" in caplog.text
    time.sleep(0.3)
    moved = str(tmp_path / "moved.dat")
    assert trace_record.ftrace_record_stop(output=moved) == moved
    assert os.path.getsize(moved) > 0 and not os.path.exists(out)
    assert trace_record.ftrace_record_stop() is None
    assert state(tracefs) == before


def test_pid_mapper_maps_threads_in_a_new_pid_namespace(tracefs, tmp_path):
    if not shutil.which("unshare"):
        pytest.skip("unshare (util-linux) is not installed")
    marker = "fts-pidns-%d" % os.getpid()
    inner = ("import sys, threading, time\n"
             "[threading.Thread(target=time.sleep, args=(30,), daemon=True).start() for _ in range(3)]\n"
             "print('ready', flush=True)\n"
             "time.sleep(30)\n")
    p = subprocess.Popen(["unshare", "--pid", "--fork", sys.executable, "-c", inner, marker],
                         stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "ready"
        def proc(pid, name):
            # a process of the loaded machine may exit between listdir and open
            try:
                with open("/proc/%s/%s" % (pid, name), "rb") as f:
                    return f.read().decode(errors="replace")
            except OSError:
                return ""
        host = [pid for pid in filter(str.isdigit, os.listdir("/proc"))
                if marker in proc(pid, "cmdline") and proc(pid, "comm").startswith("python")]
        assert len(host) == 1, host
        tids = os.listdir("/proc/%s/task" % host[0])
        assert len(tids) == 4
        m = trace_record.ContainerPidMapper(str(tmp_path / "pid_mapping.json"))
        m.start(0.2)
        assert m.is_running()
        time.sleep(0.5)
        m.stop()
        assert not m.is_running()
        mapping = json.load(open(str(tmp_path / "pid_mapping.json")))
        assert {int(t) for t in tids} <= set(m.pid_dict)
        ns = sorted(mapping[t]["NSpid"] for t in tids)
        assert ns == ["1", "2", "3", "4"], ns
        assert mapping[host[0]]["Tgid"] == host[0]
    finally:
        p.kill()
        p.wait()


def test_example_train_with_ftrace(tracefs, tmp_path):
    example = os.path.join(os.environ["FTS_SRC"], "examples", "train_with_ftrace.py")
    r = subprocess.run([sys.executable, example, "--steps", "6", "--warmup", "1",
                        "--output", str(tmp_path / "t.dat"), "--db", str(tmp_path / "t.db")],
                       env=env_for_child(), capture_output=True, text=True, timeout=300, cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "Import %s into MindStudio Insight" % (tmp_path / "t.db") in r.stdout
    assert "waited longest for a CPU:" in r.stdout and (tmp_path / "t.db").exists()


def test_output_directory_removed_while_recording(tracefs, tmp_path, caplog):
    """Issue 21 item 7: health() says at once where the capture goes; stop() saves it there."""
    before = state(tracefs)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    rec = ftscope.Recorder(output=str(out_dir / "trace.dat"), bf_size=1024, owner=None).start()
    try:
        assert rec.health()["output_moved"] == 0 and rec.health()["output_note"] == ""
        shutil.rmtree(str(out_dir))
        deadline = time.monotonic() + 2
        while not rec.health()["output_moved"] and time.monotonic() < deadline:
            time.sleep(0.05)
        h = rec.health()
        assert h["output_moved"] and not h["failed"], h
        assert "was removed while recording" in h["output_note"]
    finally:
        output, summary = rec.stop()
    assert output != str(out_dir / "trace.dat") and output in h["output_note"]
    assert os.path.dirname(output).startswith(str(tmp_path) + "/ftscope-saved-")
    assert os.path.getsize(output) > 0
    assert any("saved elsewhere than asked" in r.getMessage() for r in caplog.records)
    s = ftscope.convert(input=output, output=str(tmp_path / "ftrace_data.db"), owner=None)
    assert s["cpu_slices"] > 0
    assert state(tracefs) == before


def test_flight_recorder_snapshot(tracefs, tmp_path):
    """A flight recording from Python: Recorder.snapshot(reason) keeps the segments in a
    snapshot directory whose manifest names the reason; the ring keeps flight_keep."""
    import glob
    import json
    before = state(tracefs)
    out = str(tmp_path / "trace.dat")
    rec = ftscope.Recorder(output=out, bf_size=1024, owner=None, flight_segment=1, flight_keep=2).start()
    try:
        load, _ = workload(5)
        time.sleep(3.5)
        path = rec.snapshot("step 12 slow/python")
        h = rec.health()
        load.wait()
    finally:
        rec.stop()
    assert os.path.basename(path).endswith("-step_12_slow_python"), path
    m = json.load(open(os.path.join(path, "manifest.json")))
    assert m["reason"] == "step 12 slow/python"
    assert 1 <= len(m["segments"]) <= 2
    for s in m["segments"]:
        assert os.path.getsize(os.path.join(path, s["file"])) == s["bytes"] > 0
    assert h["flight_segments"] >= 1 and h["flight_disk_bytes"] > 0
    kept = glob.glob(str(tmp_path / "trace.[0-9]*.dat"))
    assert 1 <= len(kept) <= 2, kept
    assert rec.output in kept
    st = ftscope.stats(rec.output)
    assert st["tasks"]
    # a normal recording has no snapshots
    with ftscope.Recorder(output=str(tmp_path / "n.dat"), bf_size=1024, owner=None) as plain:
        with pytest.raises(ftscope.FtscopeError):
            plain.snapshot("x")
    assert state(tracefs) == before


def test_flight_triggers(tracefs, tmp_path):
    """Scheduling triggers from Python: a bad rule is refused at start with the
    library's reason and nothing written; good ones (a list) record, and
    health() counts their snapshots."""
    bad = ftscope.Recorder(output=str(tmp_path / "b.dat"), owner=None, flight_segment=1,
                           flight_triggers=["wakeup>2ms", "runnable>5"])
    with pytest.raises(ftscope.FtscopeError) as e:
        bad.start()
    assert "needs a threshold with a unit" in str(e.value), str(e.value)
    assert not os.listdir(tmp_path)
    before = state(tracefs)
    rec = ftscope.Recorder(output=str(tmp_path / "t.dat"), bf_size=1024, owner=None, flight_segment=1,
                           flight_triggers=["wakeup>30s", "runnable>30s:comm=nobody"], post_trigger=0).start()
    try:
        time.sleep(1.5)
        h = rec.health()
    finally:
        rec.stop()
    assert h["flight_triggered"] == 0 and h["flight_trigger_hits"] == 0, h
    assert h["flight_trigger_note"] == ""
    assert state(tracefs) == before



def test_flight_trigger_fires(tracefs, tmp_path):
    """Every trigger is the library's (issue 34 item 1): "lost" is taken as
    record --trigger takes it, and a trigger set from Python fires and writes
    its snapshot, whose manifest carries the decoder's delay and the trigger
    snapshots' cap (trigger_keep, issue 33 item 9)."""
    before = state(tracefs)
    load = subprocess.Popen(["sh", "-c", "yes | head -c 3000000000 >/dev/null"], start_new_session=True)
    try:
        rec = ftscope.Recorder(output=str(tmp_path / "t.dat"), bf_size=1024, owner=None, irq=False,
                               flight_segment=1, flight_triggers=["lost", "runnable>1us"], post_trigger=0,
                               trigger_keep=2, trigger_bytes=1 << 30).start()
        try:
            for _ in range(100):
                if rec.health()["flight_triggered"] >= 1:
                    break
                time.sleep(0.1)
            h = rec.health()
        finally:
            rec.stop()
    finally:
        os.killpg(load.pid, signal.SIGKILL)
        load.wait()
    assert h["flight_triggered"] == 1, h
    snaps = [d for d in os.listdir(tmp_path) if d.startswith("snapshot-")]
    assert len(snaps) == 1, snaps
    m = json.load(open(tmp_path / snaps[0] / "manifest.json"))
    assert m["trigger"]["kind"] in ("runnable", "lost"), m["trigger"]
    assert m["trigger_held"] is True, m
    assert m["trigger_snapshots"]["keep"] == 2 and m["trigger_snapshots"]["max_bytes"] == 1 << 30, m
    if m["trigger"]["kind"] == "runnable":
        assert m["trigger"]["delay_ms"] >= 0, m["trigger"]
    assert state(tracefs) == before


FORK_SCRIPT = r'''
import multiprocessing, os, signal, sys, time, ftscope

def reap(pid, timeout=60):
    """The child's wait status, or 'hung' (then SIGKILLed) after @timeout s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got, status = os.waitpid(pid, os.WNOHANG)
        if got:
            return status
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return "hung"

def square(x):
    return x * x

rec = ftscope.Recorder(output="f.dat", bf_size=1024, owner=None).start()
# a child that ends normally: interpreter exit runs the atexit hook
pid = os.fork()
if pid == 0:
    assert not rec.running
    try:
        rec.stop()
    except ftscope.FtscopeError as e:
        print("child stop refused:", e, flush=True)
    sys.exit(0)
print("exit", reap(pid), flush=True)
# a child SIGTERMed: the guard's handler runs in it
pid = os.fork()
if pid == 0:
    time.sleep(30)
    os._exit(0)
time.sleep(0.3)
os.kill(pid, signal.SIGTERM)
print("term", reap(pid), flush=True)
# Pool workers (fork), ended by terminate() = SIGTERM
pool = multiprocessing.get_context("fork").Pool(2)
print("pool", sum(pool.map(square, range(100))), flush=True)
pool.terminate()
pool.join()
print("running", rec.running, flush=True)
first = rec.health()["events"]
deadline = time.monotonic() + 40
while rec.health()["events"] <= first and time.monotonic() < deadline:
    time.sleep(0.2)  # the capture still counts after the children are gone
print("grew", rec.health()["events"] > first, flush=True)
out, summary = rec.stop()
print("events", summary["health"]["events"], flush=True)
'''


def test_forked_children_leave_the_capture_alone(tracefs, tmp_path):
    """Issue 33 item 4: DataLoader/Pool workers forked while recording exit, or get
    SIGTERM, without touching the parent's capture (they hung in
    pthread_cond_destroy, and the saved file had no events)."""
    before = state(tracefs)
    p = _child(FORK_SCRIPT, tmp_path)
    out, err = _finish(p, 300)
    assert p.returncode == 0, out + err
    lines = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    assert lines["exit"] == "0", out + err                       # no hang, exit status 0
    assert lines["term"] == str(signal.SIGTERM), out + err       # killed by SIGTERM, no hang
    assert lines["pool"] == str(sum(x * x for x in range(100)))
    assert lines["running"] == "True", out + err
    assert "child stop refused: this ftscope object belongs to process" in out
    assert "capture stopped at" not in err, err                  # no child saved anything
    assert lines["grew"] == "True" and int(lines["events"]) > 0, out
    assert ftscope.stats(str(tmp_path / "f.dat"))["info"]["items"] > 0
    assert state(tracefs) == before


STOP_RACE = r'''
import threading, ftscope
for round in range(8):
    rec = ftscope.Recorder(output="s%d.dat" % round, bf_size=1024, owner=None).start()
    go = threading.Barrier(6)
    results = []
    def stopper():
        go.wait()
        try:
            results.append(rec.stop()[0])
        except ftscope.FtscopeError as e:
            results.append("refused: %s" % e)
    ts = [threading.Thread(target=stopper) for _ in range(6)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    saved = [r for r in results if not r.startswith("refused")]
    assert saved == [rec.output], results
    assert all("not recording" in r for r in results if r.startswith("refused")), results
print("ok", flush=True)
'''


def test_stop_from_several_threads_at_once(tracefs, tmp_path):
    """Issue 33 item 5: six threads stop one Recorder together (it segfaulted 1 in 6
    or hung): one saves the capture, the others are told it is not recording."""
    before = state(tracefs)
    p = _child(STOP_RACE, tmp_path)
    out, err = _finish(p, 300)
    assert p.returncode == 0 and out.strip() == "ok", (p.returncode, out, err)
    assert state(tracefs) == before
