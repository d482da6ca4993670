#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""python_pipe.py - what the wheel's backend costs: the static binary over a pipe vs ctypes.

  bench/python_pipe.py LIBFTSCOPE_SO STATIC_FTSCOPE [WHEEL...]

Prints, for each backend (ctypes over LIBFTSCOPE_SO; the pipe to
STATIC_FTSCOPE api-serve): `import ftscope` (a fresh interpreter, median of
5), the first call (ftscope.library_version(): ctypes loads the library, the
pipe starts a server), 1000 fts_rec_running() calls on one handle (the
per-call round trip), a handle made and freed (x20: the pipe starts and
reaps a process per handle), ftscope.convert of the bundled sample (x3).
Then each WHEEL's size. Each backend runs in its own interpreter
(FTSCOPE_LIBRARY or FTSCOPE_BACKEND=binary), alternating, on this machine.
"""
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)
PROBE = r"""
import os, sys, time
t0 = time.perf_counter()
import ftscope
t1 = time.perf_counter()
ftscope.library_version()
t2 = time.perf_counter()
lib = ftscope._lib.load()
h = lib.fts_rec_new()
t3 = time.perf_counter()
for _ in range(1000):
    lib.fts_rec_running(h)
t4 = time.perf_counter()
lib.fts_rec_free(h)
t5 = time.perf_counter()
for _ in range(20):
    lib.fts_conv_free(lib.fts_conv_new())
t6 = time.perf_counter()
conv = []
for i in range(3):
    a = time.perf_counter()
    ftscope.convert(input=sys.argv[1], output=sys.argv[2], owner=None)
    conv.append(time.perf_counter() - a)
print(t1 - t0, t2 - t1, (t4 - t3) / 1000, (t6 - t5) / 20, min(conv))
"""


def env_for(kind, lib, binary):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FTSCOPE_", "PYTHON"))}
    env["PYTHONPATH"] = os.path.join(SRC, "python")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if kind == "ctypes":
        env["FTSCOPE_LIBRARY"] = lib
    else:
        env["FTSCOPE_BACKEND"] = "binary"
        env["FTSCOPE_BINARY"] = binary
    return env


def import_time(env):
    runs = []
    for _ in range(5):
        out = subprocess.run([sys.executable, "-c", "import time; t = time.perf_counter(); import ftscope; "
                              "print(time.perf_counter() - t)"], env=env, capture_output=True, text=True,
                             check=True).stdout
        runs.append(float(out))
    return statistics.median(runs)


def fmt(t):
    return "%.1f us" % (t * 1e6) if t < 1e-3 else "%.1f ms" % (t * 1e3)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip().splitlines()[2])
    lib, binary, wheels = sys.argv[1], sys.argv[2], sys.argv[3:]
    sample = os.path.join(SRC, "assets", "sample", "sample.dat")
    out = "/tmp/fts-bench-pipe.%d.db" % os.getpid()
    res = {}
    for kind in ("ctypes", "binary", "ctypes", "binary"):
        env = env_for(kind, lib, binary)
        r = subprocess.run([sys.executable, "-c", PROBE, sample, out], env=env, capture_output=True,
                           text=True)
        if r.returncode:
            sys.exit("%s: %s" % (kind, r.stderr.strip()))
        vals = [float(x) for x in r.stdout.split()]
        vals[0] = import_time(env)
        old = res.get(kind)
        res[kind] = vals if old is None else [min(a, b) for a, b in zip(old, vals)]
    os.unlink(out)
    print("%-34s %12s %12s" % ("(best of 2 runs)", "ctypes", "pipe"))
    names = ["import ftscope (median of 5)", "first call (load / start server)",
             "one call (fts_rec_running)", "handle new+free", "convert sample.dat -> DB"]
    for i, name in enumerate(names):
        c, p = res["ctypes"][i], res["binary"][i]
        print("%-34s %12s %12s   x%.1f" % (name, fmt(c), fmt(p), p / c if c else 0))
    for w in wheels:
        print("wheel %s: %.2f MB" % (os.path.basename(w), os.path.getsize(w) / 1e6))


if __name__ == "__main__":
    main()
