# SPDX-License-Identifier: MIT
"""Recorder: ftscope record as an object, for training scripts."""
import ctypes
import json
import logging
import os
import threading
import weakref

from . import _guard, _lib
from ._convert import cpu_list
from ._handle import FtscopeError, Handle, c_string, owner_value

log = logging.getLogger("ftscope")


class _Rec(Handle):
    kind = "rec"


# Every Recorder, so that a forked child gets fresh locks: one a parent thread held
# at fork (a stop draining) would otherwise never be released there.
_recorders = weakref.WeakSet()


def _forked_child():
    for r in list(_recorders):
        r._lock = threading.RLock()


os.register_at_fork(after_in_child=_forked_child)


class Recorder:
    """A capture of scheduler/irq events through a private tracefs instance.

    Options are those of `ftscope record` (reference defaults): @cpus "0-3,8" or
    a list of ints (None: all online CPUs), @output trace.dat (a .txt name gives
    kernel text), @bf_size KB per CPU, @backend auto/tracefs/debugfs/trace-cmd,
    @sched/@irq/@futex event groups, @exclude events to leave out, @nspid to
    keep pid_mapping.json up to date (@pid_mapping, @pidmap_interval),
    @duration seconds (None or <= 0: until stop), @live_top, @owner ("sudo":
    outputs go to the user who ran sudo; None: root keeps them; or (uid, gid)).
    @flight_segment seconds (None: off) makes it a flight recorder: trace.dat
    segments <stem>.NNNNNN.dat, the newest @flight_keep (default 4) kept;
    snapshot(reason) keeps them in a snapshot directory. @flight_triggers (a
    rule or a list of them, as `record --trigger`: "lost", "runnable>5ms:comm=python*",
    "wakeup>2ms") takes snapshots by itself, @post_trigger seconds after; at
    most @trigger_keep of them (default 10) and @trigger_bytes bytes (default
    4 GiB) stay on disk, the oldest removed first (`record --trigger_cap`).
    @readers reader threads (1..64; None: one per 16 CPUs); @exec_path where
    the trace-cmd backend looks for trace-cmd, ':'-separated (None: the usual
    root PATH; the library reads no environment, pass os.environ["PATH"] for
    this process's).

    Use as a context manager, or start()/stop(). Until stop, the capture is
    stopped and saved at interpreter exit and on SIGINT/SIGTERM (guard=False:
    not; the buffered events are drained first). Calls release the GIL;
    nothing forks the interpreter. A child forked while it runs (DataLoader,
    Pool workers) never touches it: its exit, its SIGTERM and its stop() leave
    the parent's capture alone. Methods may be called from several threads.
    """

    def __init__(self, output="trace.dat", cpus=None, bf_size=40960, backend="auto",
                 sched=True, irq=True, futex=False, exclude=None, nspid=False,
                 pid_mapping=None, pidmap_interval=None, duration=None, live_top=False,
                 owner="sudo", guard=True, flight_segment=None, flight_keep=None,
                 flight_triggers=None, post_trigger=2, trigger_keep=None, trigger_bytes=None,
                 readers=None, exec_path=None):
        self.options = {
            "output": output, "cpus": cpu_list(cpus), "bf_size": int(bf_size), "backend": backend,
            "sched": bool(sched), "irq": bool(irq), "futex": bool(futex), "exclude": exclude,
            "nspid": bool(nspid), "pid_mapping": pid_mapping, "pidmap_interval": pidmap_interval,
            "duration": duration if duration and duration > 0 else None,
            "live_top": bool(live_top), "owner": owner_value(owner),
            "flight_segment": flight_segment, "flight_keep": flight_keep,
            "flight_triggers": flight_triggers if flight_triggers is None or isinstance(flight_triggers, str)
            else ";".join(flight_triggers),
            "flight_post_trigger": post_trigger if flight_triggers else None,
            "flight_trigger_keep": trigger_keep, "flight_trigger_bytes": trigger_bytes,
            "readers": readers, "exec_path": exec_path}
        self.guard = guard
        self.output = None    # the file written, after stop
        self.summary = None   # stop's summary
        self._h = None
        # One lock around the handle's lifetime: stop() from two threads at once
        # freed it twice. Re-entrant: the guard's signal handler runs in the main
        # thread, maybe while that thread is inside health().
        self._lock = threading.RLock()
        _recorders.add(self)

    @property
    def running(self):
        """True while this process's capture runs (False in a forked child: it is the parent's)."""
        with self._lock:
            h = self._h
            return h is not None and h.mine() and bool(h._lib.fts_rec_running(h._h))

    def _live(self, what):
        """The running handle, under self._lock; raises when there is none or it is the parent's."""
        h = self._h
        if h is None:
            raise FtscopeError(-3, "not recording: %s" % what)
        h.check_mine()
        return h

    def start(self):
        """Start recording. Raises FtscopeError (e.g. errno EPERM: not root) with nothing left behind."""
        with self._lock:
            if self._h is not None and self._h.mine() and self._h._lib.fts_rec_running(self._h._h):
                raise FtscopeError(-16, "a capture already runs on this Recorder; stop it first")
            h = _Rec()
            try:
                h.set_all(self.options)
                h.check(h._lib.fts_rec_start(h._h))
            except BaseException:
                h.close()
                raise
            self._h, self.output, self.summary = h, None, None
        if self.guard:
            _guard.add(self)
        return self

    def health(self):
        """Live figures: {"events", "events_per_s", "lost", "lost_text", "cpus": [per-CPU dicts], ...}.

        "output_moved" > 0 when the output's directory was removed or renamed
        while recording; "output_note" then says where the capture goes.
        """
        with self._lock:
            h = self._live("start the capture first")
            ptr = h._lib.fts_rec_health_json(h._h)
            if not ptr:
                raise h.error(-3)
            return json.loads(_lib.take_string(h._lib, ptr))

    def snapshot(self, reason="manual", last=None):
        """Keep a flight recording's segments; returns the snapshot directory's path.

        Closes the segment being written, then hard-links the kept segments (those
        ending in the last @last seconds; None: all) and the pid mapping into
        snapshot-<UTC time>-<reason>/ beside the output, with manifest.json.
        Recording goes on. Raises FtscopeError (EINVAL: not a flight recording).
        """
        why = c_string("reason", str(reason))
        with self._lock:
            h = self._live("start the capture first")
            out = ctypes.c_void_p()
            rc = h._lib.fts_rec_snapshot(h._h, why, float(last or 0), ctypes.byref(out))
            path = _lib.take_string(h._lib, out.value)
            h.check(rc)
            return path

    def stop(self, mode="drain"):
        """Stop, restore the tracing state, write the output; returns (output path, summary dict).

        The path is where the file really is: elsewhere than asked when its
        directory was removed or renamed while recording (logged as a warning).

        @mode "drain" reads everything still buffered, "fast" skips that, "cut"
        also stops copying. The tracing state is restored even when writing
        fails (then FtscopeError is raised). Safe from several threads at once:
        one stops, the others wait and get "not recording".
        """
        how = c_string("mode", mode)
        with self._lock:
            h = self._live("nothing to stop")
            out = ctypes.c_void_p()
            try:
                rc = h._lib.fts_rec_stop(h._h, how, ctypes.byref(out))
                text = _lib.take_string(h._lib, out.value)
                if text:
                    self.summary = json.loads(text)
                    self.output = self.summary.get("output") or None
                    # The output's directory was removed or renamed while recording:
                    # the capture was saved elsewhere (self.output says where).
                    if self.summary.get("health", {}).get("output_moved"):
                        log.warning("saved elsewhere than asked: %s", self.summary["health"]["output_note"])
                h.check(rc)
            finally:
                self._h = None
                h.close()
                _guard.remove(self)
        return self.output, self.summary

    def _emergency_stop(self, reason):
        h = self._h
        if h is None or not h.mine():
            return  # stopped already, or a forked child's copy of the parent's capture
        try:
            output, summary = self.stop("drain")
            log.warning("capture stopped at %s; saved to %s (%s events, lost: %s)", reason, output,
                        summary["health"]["events"], summary["health"]["lost_text"])
        except FtscopeError as e:
            if e.errno != 3:  # another thread stopped it meanwhile
                log.error("capture stopped at %s; saving it failed: %s", reason, e)

    def __enter__(self):
        return self if self.running else self.start()

    def __exit__(self, *exc):
        h = self._h
        if h is not None and h.mine():
            self.stop("drain" if exc[0] is None else "fast")
        return False
