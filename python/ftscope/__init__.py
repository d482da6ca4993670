# SPDX-License-Identifier: MIT
"""ftscope for Python: record, convert and analyse scheduler traces from a training script.

Pure Python over libftscope: ctypes and libftscope.so.0 (the Debian package,
a source install), or the static ftscope binary the wheel carries, driven
over a pipe with the same calls (see _lib.py for the search order and
backend()). No compiler needed.

    import ftscope
    with ftscope.Recorder(output="trace.dat", cpus="0-15") as rec:
        train()
        print(rec.health()["events"])
    summary = ftscope.convert(input=rec.output, profiling_data="result_dir")

Errors are ftscope.FtscopeError carrying the library's one-line message.
"""
from ._convert import convert, default_input, stats
from ._handle import FtscopeError
from ._lib import LibraryNotFound
from ._pidmap import PidMapper, pidmap
from ._record import Recorder

__version__ = "0.2.0"


def library_version():
    """The version of the libftscope.so (or bundled binary) actually used ("0.2.0")."""
    from . import _lib
    return _lib.load().fts_version().decode()


def backend():
    """("ctypes", the library's path) or ("binary", the ftscope program's path): what calls go through."""
    from . import _lib
    return _lib.backend()


__all__ = ["Recorder", "convert", "stats", "pidmap", "PidMapper", "default_input",
           "FtscopeError", "LibraryNotFound", "library_version", "backend"]
