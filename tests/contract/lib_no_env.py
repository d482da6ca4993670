#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The library reads no environment (DESIGN; issue 34 item 2).

A Python host's environment is not the library's business: user settings are
options the programs fill (src/app/env.c), test hooks go through
fts__test_control. Checked twice:
  - the sources under src/core and src/export, comments and strings left
    out: no getenv/secure_getenv/environ, no setenv/putenv/unsetenv/clearenv,
    no exec or spawn that searches $PATH (execvp, execlp, execvpe,
    posix_spawnp), no system/popen (a shell reads it all);
  - when the build tree is given, the library archive's undefined symbols:
    none of those either (code in an #ifdef the scan reads past, a macro).
Usage: lib_no_env.py SRC_DIR [BUILD_DIR]
"""
import os
import re
import subprocess
import sys

CALLS = ["getenv", "secure_getenv", "setenv", "putenv", "unsetenv", "clearenv",
         "execvp", "execlp", "execvpe", "posix_spawnp", "system", "popen"]
WORDS = ["environ", "__environ"]
SOURCE = re.compile(r"\b(?:%s)\s*\(|\b(?:%s)\b" % ("|".join(CALLS), "|".join(WORDS)))
LIB_DIRS = ["src/core", "src/export"]


def strip(text):
    """C source without comments, string and character literals (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def scan_sources(src):
    bad = []
    for d in LIB_DIRS:
        for root, _, files in os.walk(os.path.join(src, d)):
            for f in sorted(files):
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.join(root, f)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    code = strip(fh.read())
                for no, line in enumerate(code.split("\n"), 1):
                    m = SOURCE.search(line)
                    if m:
                        bad.append("%s:%d: %s" % (os.path.relpath(path, src), no, line.strip()))
    return bad


def scan_archive(build):
    lib = os.path.join(build, "libftscope.a")
    if not os.path.exists(lib):
        return None
    out = subprocess.run(["nm", "-u", "-A", lib], capture_output=True, text=True, check=True).stdout
    bad = []
    for line in out.splitlines():
        sym = line.split()[-1].split("@")[0]
        if sym in CALLS or sym in WORDS:
            bad.append("%s uses %s" % (line.split(":")[1] if ":" in line else lib, sym))
    return bad


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    bad = scan_sources(sys.argv[1])
    linked = scan_archive(sys.argv[2]) if len(sys.argv) == 3 else None
    bad += linked or []
    for b in bad:
        print("the library reads the environment: " + b, file=sys.stderr)
    if bad:
        print("move it to the programs (src/app/env.c) as an option, or behind fts__test_control",
              file=sys.stderr)
        return 1
    print("ok: no environment in src/core, src/export%s" %
          ("" if linked is None else " nor in libftscope.a's symbols"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
