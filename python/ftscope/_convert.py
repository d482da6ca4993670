# SPDX-License-Identifier: MIT
"""convert() and stats(): ftscope convert and ftscope stats as calls."""
import ctypes
import json
import logging
import os
import shutil
import threading

from . import _lib
from ._handle import FtscopeError, Handle, owner_value

log = logging.getLogger("ftscope")


def probe_helper():
    """The program that opens a trace.dat's headers in isolation: $FTSCOPE_BINARY, else
    the wheel's bundled binary, else `ftscope` on PATH; None (headers parsed in this
    process) when there is none."""
    return os.environ.get("FTSCOPE_BINARY") or _lib.bundled_binary() or shutil.which("ftscope")


def default_input(directory="."):
    """The CLI's default input: trace.dat; if missing, trace.txt; if both, the newer."""
    dat, txt = os.path.join(directory, "trace.dat"), os.path.join(directory, "trace.txt")
    have_dat, have_txt = os.path.exists(dat), os.path.exists(txt)
    if have_dat and have_txt:
        newer = dat if os.stat(dat).st_mtime >= os.stat(txt).st_mtime else txt
        log.warning("both trace.dat and trace.txt exist; converting the newer, %s", newer)
        return newer
    return txt if have_txt and not have_dat else dat


class _Conv(Handle):
    kind = "conv"


class _Stats(Handle):
    kind = "st"


def _wait_out(done):
    """Wait for a cancelled run to return, whatever more Ctrl+C's come meanwhile."""
    while True:
        try:
            done.wait()
            return
        except KeyboardInterrupt:
            continue


def _run_cancellable(handle, run, cancel):
    """Run @run in a thread so Ctrl+C reaches Python: it cancels the run, then re-raises.

    The run's end is an Event, not Thread.join(): after Ctrl+C interrupted
    a join, the next join returned at once with the run still going (seen
    with Python 3.11), and the process then exited under a run still writing.
    """
    result = {}
    done = threading.Event()

    def body():
        try:
            result["rc"] = run()
        finally:
            done.set()

    t = threading.Thread(target=body, name="ftscope-" + handle.kind, daemon=True)
    t.start()
    try:
        while not done.wait(0.2):
            pass
    except BaseException as e:
        cancel()
        _wait_out(done)
        if result.get("rc") == 0 and hasattr(e, "add_note"):
            e.add_note("ftscope: too late to cancel; the output is complete and in place")
        raise
    return result["rc"]


def convert(input=None, output=None, format=None, profiling_data=None, pid_mapping=None,
            cs_rows=True, with_summary=False, owner="sudo"):
    """Convert a trace (trace.dat or text) to Insight's ftrace DB or Chrome JSON.

    The same options and defaults as `ftscope convert`; returns the summary
    dict (events, lanes, slices, alignment, ...). Raises FtscopeError with the
    library's message; nothing is left at @output then. Ctrl+C cancels cleanly.
    """
    h = _Conv()
    try:
        h.set_all({"input": input if input is not None else default_input(),
                   "output": output, "format": format, "profiling_data": profiling_data,
                   "pid_mapping": pid_mapping, "cs_rows": bool(cs_rows),
                   "with_summary": bool(with_summary), "probe_helper": probe_helper(),
                   "owner": owner_value(owner)})
        out = ctypes.c_void_p()
        rc = _run_cancellable(h, lambda: h._lib.fts_conv_run(h._h, ctypes.byref(out)),
                              lambda: h._lib.fts_conv_cancel(h._h))
        h.check(rc)
        return json.loads(_lib.take_string(h._lib, out.value))
    finally:
        h.close()


def stats(input, profiling_data=None, pid_mapping=None, cpus=None, sort="runnable_ns", top=0):
    """`ftscope stats` as data: {"info": {...}, "tasks": [row, ...], "cpus": [row, ...]}.

    Task rows carry every column of the CLI under its name (running_ns,
    runnable_ns, switches, wakeup_p99_ns, top_preempter, ...), sorted by @sort,
    largest first, at most @top of them (0: all).
    """
    h = _Stats()
    try:
        h.set_all({"input": input, "profiling_data": profiling_data, "pid_mapping": pid_mapping,
                   "cpus": cpu_list(cpus), "sort": sort, "top": int(top),
                   "probe_helper": probe_helper()})
        out = ctypes.c_void_p()
        h.check(h._lib.fts_st_run(h._h, ctypes.byref(out)))
        return json.loads(_lib.take_string(h._lib, out.value))
    finally:
        h.close()


def cpu_list(cpus):
    """"0-3,8" as is; a list of ints as "0,1,2"; None for all CPUs."""
    if cpus is None or isinstance(cpus, str):
        return cpus or None
    items = list(cpus)
    for c in items:
        if isinstance(c, bool) or not isinstance(c, int) or c < 0:
            raise ValueError("CPU numbers must be non-negative integers, not %r" % (c,))
    return ",".join(str(c) for c in sorted(set(items))) or None


__all__ = ["convert", "stats", "default_input", "probe_helper", "cpu_list", "FtscopeError"]
