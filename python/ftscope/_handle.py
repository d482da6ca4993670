# SPDX-License-Identifier: MIT
"""One opaque handle of ftscope/api.h: created, set by key, freed; errors raised."""
import ctypes
import errno as _errno
import os

from . import _lib


class FtscopeError(Exception):
    """A library call failed. str() is the library's one-line message; .errno is positive."""

    def __init__(self, code, message):
        super().__init__(message)
        self.errno = -code if code < 0 else code
        self.message = message

    @property
    def errname(self):
        return _errno.errorcode.get(self.errno, str(self.errno))


def to_bytes(value):
    """A setter's value as the C string the library wants."""
    if value is None:
        return None
    if isinstance(value, bool):
        return b"1" if value else b"0"
    if isinstance(value, (int, float)):
        return str(value).encode()
    if isinstance(value, bytes):
        return value
    return os.fsencode(value)


def sudo_owner():
    """'UID:GID' of the user who ran sudo when running as root under sudo, else None.

    MindStudio Insight refuses files owned by another user, so the CLI gives
    root's outputs to that user; the same rule as ftscope's front ends.
    """
    uid, gid = os.environ.get("SUDO_UID", ""), os.environ.get("SUDO_GID", "")
    if os.geteuid() != 0 or not uid.isdigit() or not gid.isdigit() or int(uid) <= 0:
        return None
    return "%d:%d" % (int(uid), int(gid))


def owner_value(owner):
    """The "owner" key's value: "sudo" (the rule above), None (the writer's), or (uid, gid)."""
    if owner == "sudo":
        return sudo_owner()
    if owner is None:
        return None
    uid, gid = owner
    return "%d:%d" % (int(uid), int(gid))


def c_string(name, value):
    """@value as the C string the library wants; a NUL byte raises ValueError, as open() does.

    ctypes would cut the string at the NUL without a word (a path "a\\0b" became "a").
    """
    b = to_bytes(value)
    if b is not None and b"\0" in b:
        raise ValueError("%s: embedded null byte" % name)
    return b


class Handle:
    """fts_<kind>_new/set/error/free around one C handle.

    The handle belongs to the process that made it. A forked child (a
    DataLoader or Pool worker) has a copy of its memory but none of its
    threads: it must never call the library on it, not even free it (that
    stops the parent's capture, or hangs on the missing threads), so close()
    in a child only forgets the pointer, and mine() says whose it is.
    """

    kind = None  # "rec", "conv", "st", "pm"

    def __init__(self):
        self._lib = _lib.load()
        self._pid = os.getpid()
        ptr = self._fn("new")()
        if not ptr:
            raise MemoryError("fts_%s_new: out of memory" % self.kind)
        self._h = ctypes.c_void_p(ptr)

    def mine(self):
        """True in the process that created the handle, False in a forked child."""
        return self._pid == os.getpid()

    def check_mine(self):
        if not self.mine():
            raise FtscopeError(-_errno.EPERM, "this ftscope object belongs to process %d; "
                               "a forked child (pid %d) cannot use it" % (self._pid, os.getpid()))

    def _fn(self, verb):
        return getattr(self._lib, "fts_%s_%s" % (self.kind, verb))

    def error(self, code):
        msg = self._fn("error")(self._h)
        text = msg.decode("utf-8", "replace") if msg else ""
        return FtscopeError(code, text or os.strerror(-code))

    def check(self, code):
        if code < 0:
            raise self.error(code)
        return code

    def set(self, key, value):
        self.check(self._fn("set")(self._h, key.encode(), c_string(key, value)))

    def set_all(self, options):
        for key, value in options.items():
            if value is not None:
                self.set(key, value)

    def close(self):
        h, self._h = getattr(self, "_h", None), None
        if h and self.mine():
            self._fn("free")(h)

    def __del__(self):
        self.close()


FtscopeError.__module__ = "ftscope"
