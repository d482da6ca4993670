# SPDX-License-Identifier: MIT
"""Stop running captures when the interpreter exits or gets SIGINT/SIGTERM.

The kernel keeps tracing into a private instance until someone stops it, so a
script that dies without calling stop must not leave it running. Handlers are
installed while a capture runs (from the main thread only, where Python
allows it), and chain to what was installed before: the script's own handler
is called after the capture is saved, Python's default SIGINT handler still
raises KeyboardInterrupt, and a default SIGTERM still ends the process. A
signal the script ignores (SIG_IGN) stays ignored and stops nothing.

A forked child (DataLoader, multiprocessing Pool workers) inherits the
handlers and the atexit hook but not the captures: they are the parent's.
At fork the child's list is emptied (os.register_at_fork), so its exit or
SIGTERM stops nothing and the signal goes on to what was installed before.
"""
import atexit
import logging
import os
import signal
import threading

log = logging.getLogger("ftscope")
_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_active = []
_prev = {}
# Re-entrant: a signal handler runs in the main thread, maybe while it holds the lock.
_lock = threading.RLock()
_atexit_done = False


def _forked_child():
    """In a new child: guard nothing of the parent's, and a lock no parent thread holds."""
    global _lock
    _lock = threading.RLock()
    del _active[:]


os.register_at_fork(after_in_child=_forked_child)


def _install():
    if threading.current_thread() is not threading.main_thread():
        return  # Python lets only the main thread set handlers; atexit still covers us
    for sig in _SIGNALS:
        if sig in _prev:
            continue
        prev = signal.getsignal(sig)
        try:
            signal.signal(sig, _on_signal)
        except (ValueError, OSError):
            continue
        _prev[sig] = prev


def _restore():
    if threading.current_thread() is not threading.main_thread():
        return
    for sig, prev in list(_prev.items()):
        if signal.getsignal(sig) is _on_signal:  # leave a handler the script set since
            signal.signal(sig, prev if prev is not None else signal.SIG_DFL)
        del _prev[sig]


def add(recorder):
    """Guard @recorder until remove()."""
    global _atexit_done
    with _lock:
        if recorder not in _active:
            _active.append(recorder)
        if not _atexit_done:
            atexit.register(_at_exit)
            _atexit_done = True
        _install()


def remove(recorder):
    """Stop guarding @recorder (it was stopped)."""
    with _lock:
        if recorder in _active:
            _active.remove(recorder)
        if not _active:
            _restore()


def stop_all(reason):
    """Stop every guarded capture quickly (the file stays valid), saying why."""
    with _lock:
        recorders = list(_active)
    for r in recorders:
        r._emergency_stop(reason)


def _at_exit():
    stop_all("interpreter exit")


def _on_signal(signum, frame):
    prev = _prev.get(signum, signal.SIG_DFL)
    if prev == signal.SIG_IGN:
        return
    stop_all("signal %s" % signal.Signals(signum).name)
    if callable(prev):
        prev(signum, frame)
    else:  # SIG_DFL (or unknown, set outside Python): what the default does
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
