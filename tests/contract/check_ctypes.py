#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""python/ftscope/_lib.py declares the binding API exactly as its headers do.

ctypes believes what it is told: a restype of c_char_p on a string the
library allocates loses the pointer fts_api_free needs, a missing argument
passes garbage, a function renamed in C fails only when Python first calls it.
This check runs _lib._declare on a recording stand-in for the library (no
library is loaded: offline, any build) and compares every declaration with
the FTS_API prototype of include/ftscope/api.h (and version.h for
fts_version): same names both ways, restype and argtypes by the C types.

usage: check_ctypes.py SRC_DIR
"""
import ctypes
import importlib.util
import re
import sys
from pathlib import Path

HEADERS = ("api.h", "version.h")
PROTO = re.compile(r"FTS_API\s+([^;(]*?)\b(fts_\w+)\s*\(([^)]*)\)\s*;", re.S)


def ctype_of(c, ret):
    """The ctypes type a C type is declared as in the binding (None: void)."""
    c = " ".join(c.replace("*", " * ").split())
    if c == "void":
        return None
    if c in ("int", "const int"):
        return ctypes.c_int
    if c == "double":
        return ctypes.c_double
    if c == "size_t":
        return ctypes.c_size_t
    if c == "const char *":
        return ctypes.c_char_p
    if c == "char *":
        # a string the library allocates (returned) or takes back (fts_api_free):
        # its address must survive, so c_void_p, never c_char_p
        return ctypes.c_void_p
    if c == "char * *":
        return ctypes.POINTER(ctypes.c_void_p)
    if re.fullmatch(r"(const )?struct fts_\w+ \*", c):
        return ctypes.c_void_p
    raise ValueError("no ctypes rule for the C type '%s'%s" % (c, " (return)" if ret else ""))


def prototypes(inc):
    out = {}
    for h in HEADERS:
        text = re.sub(r"/\*.*?\*/", " ", (inc / h).read_text(), flags=re.S)
        for ret, name, args in PROTO.findall(text):
            params = [] if args.strip() in ("", "void") else [
                re.sub(r"\s*\b\w+$", "", a.strip()) for a in args.split(",")]
            out[name] = (ret.strip(), params)
    return out


class Fn:
    """One function of the stand-in library: remembers what ctypes is told."""

    def __init__(self):
        self.restype = "unset"
        self.argtypes = "unset"


class FakeLib:
    def __init__(self):
        self.fns = {}

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return self.fns.setdefault(name, Fn())


def tname(t):
    return "None" if t is None else getattr(t, "__name__", repr(t))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_ctypes.py SRC_DIR")
    src = Path(sys.argv[1])
    spec = importlib.util.spec_from_file_location("ftscope_lib_under_test", src / "python/ftscope/_lib.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    fake = FakeLib()
    mod._declare(fake)
    protos = prototypes(src / "include/ftscope")
    api = {n for n in prototypes(src / "include/ftscope") if n != "fts_version"}
    bad = []
    for name, fn in sorted(fake.fns.items()):
        if name not in protos:
            bad.append("%s: declared in _lib.py, no FTS_API prototype in %s" % (name, " or ".join(HEADERS)))
            continue
        ret, params = protos[name]
        try:
            want_res = ctype_of(ret, True)
            want_args = [ctype_of(p, False) for p in params]
        except ValueError as e:
            bad.append("%s: %s" % (name, e))
            continue
        if fn.restype == "unset" or fn.restype != want_res:
            bad.append("%s: restype %s, the header returns '%s' (%s)" % (
                name, tname(fn.restype) if fn.restype != "unset" else "not set", ret, tname(want_res)))
        if fn.argtypes == "unset" or list(fn.argtypes) != want_args:
            got = "not set" if fn.argtypes == "unset" else "[%s]" % ", ".join(map(tname, fn.argtypes))
            bad.append("%s: argtypes %s, the header takes (%s) = [%s]" % (
                name, got, ", ".join(params) or "void", ", ".join(map(tname, want_args))))
    for name in sorted(api - set(fake.fns)):
        bad.append("%s: in api.h but not declared in _lib.py (Python would call it undeclared)" % name)
    for b in bad:
        print("FAIL " + b)
    if not bad:
        print("ok: %d functions declared in _lib.py match their prototypes" % len(fake.fns))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
