# SPDX-License-Identifier: MIT
"""Finding libftscope: the shared library through ctypes, or the bundled binary.

Search order: $FTSCOPE_LIBRARY (a path; when set, nothing else is tried),
libftscope.so.0 in the package's own directory, the static ftscope binary
the wheel puts there (bin/ftscope: the binding API over a pipe, _pipe.py),
then the system loader (ld.so.cache, LD_LIBRARY_PATH).
$FTSCOPE_BACKEND forces one: "ctypes" (the library only) or "binary" (the
pipe, to $FTSCOPE_BINARY, else the bundled binary, else `ftscope` on PATH).
Every function used is declared here with its C signature (ftscope/api.h);
ctypes releases the GIL around each call, as the pipe's reads do.
"""
import ctypes
import os
import shutil

SONAME = "libftscope.so.0"
BUNDLED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "ftscope")
_lib = None


class LibraryNotFound(ImportError):
    """libftscope.so.0 could not be loaded; the message lists every place tried."""


def bundled_binary():
    """The wheel's static ftscope beside the package, or None."""
    return BUNDLED if os.access(BUNDLED, os.X_OK) else None


def _candidates():
    """(where, kind, path) to try in order; kind "lib" (ctypes) or "bin" (the pipe)."""
    env = os.environ.get("FTSCOPE_LIBRARY")
    if env:
        return [("$FTSCOPE_LIBRARY", "lib", env)]
    backend = os.environ.get("FTSCOPE_BACKEND", "")
    here = os.path.dirname(os.path.abspath(__file__))
    libs = [("beside the package", "lib", os.path.join(here, SONAME)),
            ("the system loader", "lib", SONAME)]
    if backend == "ctypes":
        return libs
    bins = [("the bundled binary", "bin", BUNDLED)]
    if backend == "binary":
        prog = os.environ.get("FTSCOPE_BINARY")
        if prog:
            return [("$FTSCOPE_BINARY", "bin", prog)]
        return bins + [("ftscope on PATH", "bin", shutil.which("ftscope") or "ftscope")]
    if backend:
        raise LibraryNotFound("FTSCOPE_BACKEND is %r; it takes ctypes or binary" % backend)
    return libs[:1] + bins + libs[1:]


def _declare(lib):
    c_int, c_char_p, c_void_p = ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p
    lib.fts_version.restype = c_char_p
    lib.fts_version.argtypes = []
    lib.fts_api_free.restype = None
    lib.fts_api_free.argtypes = [c_void_p]
    for obj in ("rec", "conv", "st", "pm"):
        getattr(lib, "fts_%s_new" % obj).restype = c_void_p
        getattr(lib, "fts_%s_new" % obj).argtypes = []
        getattr(lib, "fts_%s_set" % obj).restype = c_int
        getattr(lib, "fts_%s_set" % obj).argtypes = [c_void_p, c_char_p, c_char_p]
        getattr(lib, "fts_%s_error" % obj).restype = c_char_p
        getattr(lib, "fts_%s_error" % obj).argtypes = [c_void_p]
        getattr(lib, "fts_%s_free" % obj).restype = None
        getattr(lib, "fts_%s_free" % obj).argtypes = [c_void_p]
    out = ctypes.POINTER(c_void_p)
    for name, res, args in (
            ("fts_rec_start", c_int, [c_void_p]),
            ("fts_rec_running", c_int, [c_void_p]),
            ("fts_rec_health_json", c_void_p, [c_void_p]),
            ("fts_rec_stop", c_int, [c_void_p, c_char_p, out]),
            ("fts_rec_snapshot", c_int, [c_void_p, c_char_p, ctypes.c_double, out]),
            ("fts_conv_run", c_int, [c_void_p, out]),
            ("fts_conv_cancel", None, [c_void_p]),
            ("fts_st_run", c_int, [c_void_p, out]),
            ("fts_pm_start", c_int, [c_void_p]),
            ("fts_pm_running", c_int, [c_void_p]),
            ("fts_pm_stop", c_int, [c_void_p])):
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    return lib


def load():
    """The loaded library (loaded once); raises LibraryNotFound naming what it tried."""
    global _lib
    if _lib is not None:
        return _lib
    tried = []
    for where, kind, path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append("%s: %s (no such file)" % (where, path))
            continue
        if kind == "bin":
            from ._pipe import PipeLibrary
            if not os.access(path, os.X_OK) or os.path.isdir(path):
                tried.append("%s: %s (not an executable file)" % (where, path))
                continue
            _lib = PipeLibrary(path)
            return _lib
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s: %s (%s)" % (where, path, e))
            continue
        try:
            _lib = _declare(lib)
        except AttributeError as e:
            tried.append("%s: %s (not libftscope's binding API: %s)" % (where, path, e))
            continue
        return _lib
    raise LibraryNotFound("cannot load %s; tried %s. Install ftscope (cmake --install), "
                          "or set FTSCOPE_LIBRARY to the library's path"
                          % (SONAME, "; ".join(tried)))


def backend():
    """("ctypes" or "binary", the library's or the binary's path) of the loaded backend."""
    lib = load()
    return ("binary", lib.path) if hasattr(lib, "take") else ("ctypes", lib._name)


def take_string(lib, ptr):
    """The text of a string the library allocated, then freed; None for NULL."""
    if not ptr:
        return None
    if hasattr(lib, "take"):  # the pipe: @ptr stands for a string it holds
        text = lib.take(ptr)
        return None if text is None else text.decode("utf-8", "surrogateescape")
    try:
        return ctypes.string_at(ptr).decode("utf-8", "surrogateescape")
    finally:
        lib.fts_api_free(ptr)
