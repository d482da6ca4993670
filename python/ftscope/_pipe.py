# SPDX-License-Identifier: MIT
"""The binding API over a pipe to `ftscope api-serve`: what the wheel uses.

The wheel cannot carry libftscope.so (it needs a recent glibc and seven
shared libraries); it carries the static ftscope binary instead, and this
object stands in for the ctypes library: the same function names, taking
and returning what the ctypes declarations in _lib.py do, so the rest of the
package cannot tell. Each handle is one server process (`ftscope api-serve
KIND PID`, src/cli/cmd_api.c) calling the very C function named here; a
request and its reply are one line each, fields percent-encoded, so any
bytes but NUL pass exactly. Handles and returned strings are small integers
standing for pointers (ctypes.c_void_p holds them as it would a pointer).

fts_conv_cancel signals the server (SIGUSR2), again every 50 ms until the
run returns, since a cancel that reaches the library before the run began
would be forgotten by it. When this process dies the server sees its stdin
end (or PR_SET_PDEATHSIG once the process is gone, if a forked child still
holds the pipe) and stops a running capture as the guard would, saving it.
"""
import ctypes
import errno
import itertools
import os
import select
import signal
import subprocess
import threading
from urllib.parse import unquote_to_bytes

PROTO = b"ftscope-api 1"
_ENC = [bytes([c]) if 0x21 <= c < 0x7f and c not in b"%~" else b"%%%02X" % c for c in range(256)]


def _enc(value):
    if value is None:
        return b"~"
    if isinstance(value, str):
        value = value.encode()
    if b"\0" in value:
        raise ValueError("embedded null byte")
    return b"".join([_ENC[c] for c in value])


def _dec(field):
    return None if field == b"~" else unquote_to_bytes(field)


class _Server:
    """One `ftscope api-serve` process: one handle of @kind."""

    def __init__(self, binary, kind):
        self.kind = kind
        self.pid_owner = os.getpid()
        self.lock = threading.Lock()
        self.cancelled = False
        self.dead = None  # the message once the server is gone
        self.proc = subprocess.Popen([binary, "api-serve", kind, str(os.getpid())],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        hello = self.proc.stdout.readline().split(b" ")
        if b" ".join(hello[:2]) != PROTO or len(hello) != 3:
            self.proc.stdin.close()
            self.proc.wait()
            raise OSError(errno.ENOEXEC, "%s does not serve ftscope's binding API (api-serve: %s)"
                          % (binary, self._status()))
        self.version = _dec(hello[2].rstrip(b"\n"))

    def _status(self):
        rc = self.proc.poll()
        if rc is None:
            return "still running"
        if rc < 0:
            return "killed by %s" % signal.Signals(-rc).name
        return "exit status %d" % rc

    def _gone(self):
        try:
            self.proc.wait(2)
        except subprocess.TimeoutExpired:
            pass
        self.dead = ("the ftscope server (pid %d, %s) ended: %s"
                     % (self.proc.pid, self.kind, self._status()))

    def _wait_reply(self):
        """Block until the reply is readable, re-sending a pending cancel meanwhile."""
        fd = self.proc.stdout.fileno()
        while not select.select([fd], [], [], 0.05)[0]:
            if self.cancelled:
                self.signal(signal.SIGUSR2)

    def call(self, *fields, blocking=False):
        """Send one request; the reply's fields: [rc, text?]. None when the server is gone."""
        line = b" ".join(_enc(f) for f in fields) + b"\n"
        with self.lock:
            if self.dead:
                return None
            try:
                self.proc.stdin.write(line)
                self.proc.stdin.flush()
                if blocking:
                    self._wait_reply()
                reply = self.proc.stdout.readline()
            except (BrokenPipeError, ValueError, OSError):
                reply = b""
            if not reply.endswith(b"\n"):
                self._gone()
                return None
            parts = reply[:-1].split(b" ")
            return [int(parts[0])] + [_dec(p) for p in parts[1:]]

    def signal(self, sig):
        if self.proc.poll() is None:
            try:
                os.kill(self.proc.pid, sig)
            except ProcessLookupError:
                pass

    def close(self):
        """fts_X_free: the server frees the handle and exits."""
        if not self.dead:
            self.call("free")
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _key(h):
    return h.value if isinstance(h, ctypes.c_void_p) else h


def _out(ref):
    """The c_void_p behind ctypes.byref(x) (or a POINTER(c_void_p)); None when NULL was passed."""
    if ref is None:
        return None
    obj = getattr(ref, "_obj", None)
    return obj if obj is not None else ref.contents


class PipeLibrary:
    """The ctypes library's functions (those _lib.py declares), served by @binary."""

    def __init__(self, binary):
        self.path = binary
        self._servers = {}
        self._strings = {}
        self._ids = itertools.count(1)
        self._version = None
        os.register_at_fork(after_in_child=self._forked_child)
        for kind in ("rec", "conv", "st", "pm"):
            for verb in ("new", "set", "error", "free"):
                setattr(self, "fts_%s_%s" % (kind, verb), self._bind(verb, kind))

    def _forked_child(self):
        # The servers are the parent's: a child never calls them (Handle.mine()),
        # and must not wait on a lock a parent thread held at fork.
        for s in self._servers.values():
            s.lock = threading.Lock()

    def _bind(self, verb, kind):
        fn = getattr(self, "_" + verb)
        return lambda *args: fn(kind, *args)

    # -- handles ---------------------------------------------------------
    def _new(self, kind):
        srv = _Server(self.path, kind)
        self._version = self._version or srv.version
        hid = next(self._ids)
        self._servers[hid] = srv
        return hid

    def _srv(self, h):
        return self._servers[_key(h)]

    def _int(self, h, *fields, blocking=False):
        r = self._srv(h).call(*fields, blocking=blocking)
        return -errno.EPIPE if r is None else r[0]

    def _text(self, h, out, *fields, blocking=False):
        """A call with a string out-parameter (a char ** in C)."""
        r = self._srv(h).call(*fields, blocking=blocking)
        o = _out(out)
        if o is not None:
            o.value = self._keep(r[1]) if r is not None else None
        return -errno.EPIPE if r is None else r[0]

    def _keep(self, text):
        if text is None:
            return None
        sid = next(self._ids)
        self._strings[sid] = text
        return sid

    def _set(self, kind, h, key, value):
        return self._int(h, "set", key, value)

    def _error(self, kind, h):
        srv = self._srv(h)
        if srv.dead:
            return srv.dead.encode()
        r = srv.call("error")
        return srv.dead.encode() if r is None else r[1]

    def _free(self, kind, h):
        srv = self._servers.pop(_key(h), None)
        if srv is not None and srv.pid_owner == os.getpid():
            srv.close()

    # -- the calls ---------------------------------------------------------
    def fts_version(self):
        if self._version is None:
            self._free("conv", self._new("conv"))
        return self._version

    def fts_api_free(self, ptr):
        self._strings.pop(ptr, None)

    def take(self, ptr):
        """The string @ptr stands for (what take_string reads), forgotten."""
        return self._strings.pop(ptr, None)

    def fts_rec_start(self, h):
        return self._int(h, "start")

    def fts_rec_running(self, h):
        return max(self._int(h, "running"), 0)

    def fts_rec_health_json(self, h):
        r = self._srv(h).call("health")
        return None if r is None else self._keep(r[1])

    def fts_rec_stop(self, h, mode, out):
        return self._text(h, out, "stop", mode)

    def fts_rec_snapshot(self, h, reason, last, out):
        return self._text(h, out, "snapshot", reason, repr(float(last)))

    def fts_conv_run(self, h, out):
        srv = self._srv(h)
        srv.cancelled = False
        return self._text(h, out, "run", blocking=True)

    def fts_conv_cancel(self, h):
        srv = self._srv(h)
        srv.cancelled = True
        srv.signal(signal.SIGUSR2)

    def fts_st_run(self, h, out):
        return self._text(h, out, "run")

    def fts_pm_start(self, h):
        return self._int(h, "start")

    def fts_pm_running(self, h):
        return max(self._int(h, "running"), 0)

    def fts_pm_stop(self, h):
        return self._int(h, "stop")
