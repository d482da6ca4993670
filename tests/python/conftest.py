# SPDX-License-Identifier: MIT
"""Shared fixtures of the Python binding's tests (run by ctest through pytest).

ctest passes FTSCOPE_LIBRARY (build/lib/libftscope.so.0), FTSCOPE_BINARY,
FTS_SRC and PYTHONPATH=<src>/python. A session where every test was skipped
exits 77, which ctest reports as skipped.
"""
import fcntl
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from tracefs_lock import LOCK, held_by_an_ancestor  # noqa: E402  (one rule for every test that records)

SRC = os.environ.get("FTS_SRC", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
PYDIR = os.path.join(SRC, "python")
SAMPLE = os.path.join(SRC, "assets", "sample")
_outcomes = {"skipped": 0, "other": 0}


def pytest_runtest_logreport(report):
    if report.when == "call" or (report.when == "setup" and report.skipped):
        _outcomes["skipped" if report.skipped else "other"] += 1


def pytest_sessionfinish(session, exitstatus):
    if exitstatus == 0 and _outcomes["skipped"] and not _outcomes["other"]:
        session.exitstatus = 77


# Which tracefs instances are ours: a recorder names its instance
# ftscope-<pid>[-n] after the process that started it, this interpreter or a
# child a test started (every child goes through subprocess.Popen). Another
# process's instance (another user's recorder, SIGKILLed beside us) is not
# ours to judge.
STARTED = {os.getpid()}
_popen_init = subprocess.Popen.__init__


def _noting_init(self, *args, **kwargs):
    _popen_init(self, *args, **kwargs)
    STARTED.add(self.pid)


subprocess.Popen.__init__ = _noting_init


def ours(instance):
    """True when tracefs instance @instance was made by this session or a child of it."""
    pid = instance[len("ftscope-"):].split("-")[0]
    return pid.isdigit() and int(pid) in STARTED


def env_for_child(**extra):
    """The environment a child Python needs to import the package from the tree."""
    env = dict(os.environ)
    env["PYTHONPATH"] = PYDIR
    env.update({k: v for k, v in extra.items() if v is not None})
    return env


def run_py(code, *, user=None, timeout=120, **env):
    """Run @code in a fresh interpreter (as user 65534 with user="nobody")."""
    cmd = [sys.executable, "-c", code]
    if user == "nobody":
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + cmd
    return subprocess.run(cmd, env=env_for_child(**env), capture_output=True, text=True,
                          timeout=timeout, cwd="/")


def tracing_dir():
    for d in ("/sys/kernel/tracing", "/sys/kernel/debug/tracing"):
        if os.path.isdir(os.path.join(d, "instances")):
            return d
    return None


@pytest.fixture(scope="session")
def tracefs():
    """Root, tracefs with instances, and the lock other recording tests take."""
    if os.geteuid() != 0:
        pytest.skip("needs root to reach tracefs")
    d = tracing_dir()
    if d is None:
        subprocess.run(["mount", "-t", "tracefs", "nodev", "/sys/kernel/tracing"],
                       capture_output=True)
        d = tracing_dir()
    if d is None or not os.access(os.path.join(d, "instances"), os.W_OK):
        pytest.skip("tracefs with writable instances/ is not available")
    with open(LOCK, "a") as lock:
        if not held_by_an_ancestor(lock.fileno()):
            fcntl.flock(lock, fcntl.LOCK_EX)  # other recorders (tests, helpers) wait for us
        yield d


@pytest.fixture
def nobody_can_read():
    """User 65534 must be able to read the tree and the library for not-root tests."""
    lib = os.environ.get("FTSCOPE_LIBRARY", "")
    r = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                        "test", "-r", os.path.join(PYDIR, "trace_record.py"), "-a", "-r", lib],
                       capture_output=True)
    if r.returncode != 0:
        pytest.skip("user 65534 cannot read %s or %s (or setpriv is missing)" % (PYDIR, lib))
