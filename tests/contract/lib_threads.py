#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every library thread starts with every signal blocked (issue 34 item 3).

The caller owns the process (include/ftscope/record.h): a signal meant for
its handler must never land on a library thread. fts__thread_start
(src/core/util/thread.c) blocks them all around pthread_create; nothing else
under src/core or src/export may call pthread_create, checked in the sources
(comments and strings left out) and, given the build tree, in the library
objects' undefined symbols (only thread.c's object may need pthread_create).
Usage: lib_threads.py SRC_DIR [BUILD_DIR]
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib_no_env import LIB_DIRS, strip  # noqa: E402

ALLOWED = "src/core/util/thread.c"
CALL = re.compile(r"\bpthread_create\s*\(")


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    src, bad = sys.argv[1], []
    for d in LIB_DIRS:
        for root, _, files in os.walk(os.path.join(src, d)):
            for f in sorted(files):
                path = os.path.join(root, f)
                rel = os.path.relpath(path, src)
                if not f.endswith((".c", ".h")) or rel == ALLOWED:
                    continue
                with open(path, encoding="utf-8", errors="replace") as fh:
                    for no, line in enumerate(strip(fh.read()).split("\n"), 1):
                        if CALL.search(line):
                            bad.append("%s:%d: %s" % (rel, no, line.strip()))
    # the layers' own objects (libftscope.a is one prelinked object: it cannot tell thread.c apart)
    objs = []
    if len(sys.argv) == 3:
        for root, _, files in os.walk(os.path.join(sys.argv[2], "CMakeFiles")):
            if re.search(r"/fts_\w+_obj\.dir/src/(core|export)(/|$)", root):
                objs += [os.path.join(root, f) for f in files if f.endswith(".c.o")]
    for obj in sorted(objs):
        out = subprocess.run(["nm", "-u", obj], capture_output=True, text=True, check=True).stdout
        rel = obj.split(".dir/", 1)[1][:-2]
        if rel != ALLOWED and any(w.split("@")[0] == "pthread_create" for w in out.split()):
            bad.append("%s calls pthread_create" % rel)
    for b in bad:
        print("a library thread started without fts__thread_start (signals not blocked): " + b,
              file=sys.stderr)
    if bad:
        return 1
    print("ok: every library thread starts through fts__thread_start")
    return 0


if __name__ == "__main__":
    sys.exit(main())
