# SPDX-License-Identifier: MIT
"""Finding and declaring libftscope.so.0 for ctypes.

Search order: $FTSCOPE_LIBRARY (a path; when set, nothing else is tried), the
package's own directory, then the system loader (ld.so.cache, LD_LIBRARY_PATH).
Every function used is declared here with its C signature (ftscope/api.h);
ctypes releases the GIL around each call.
"""
import ctypes
import os

SONAME = "libftscope.so.0"
_lib = None


class LibraryNotFound(ImportError):
    """libftscope.so.0 could not be loaded; the message lists every place tried."""


def _candidates():
    env = os.environ.get("FTSCOPE_LIBRARY")
    if env:
        return [("$FTSCOPE_LIBRARY", env)]
    here = os.path.dirname(os.path.abspath(__file__))
    return [("beside the package", os.path.join(here, SONAME)),
            ("the system loader", SONAME)]


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
    for where, path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append("%s: %s (no such file)" % (where, path))
            continue
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


def take_string(lib, ptr):
    """The text of a string the library allocated, then freed; None for NULL."""
    if not ptr:
        return None
    try:
        return ctypes.string_at(ptr).decode("utf-8", "surrogateescape")
    finally:
        lib.fts_api_free(ptr)
