#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs/threads.md is the list of threads, and the TSan set follows it (issue 34 item 3).

  - every source file under src/ that starts a thread (fts__thread_start,
    fts__thread_start_fifo, pthread_create; util/thread.c aside) is named there;
  - the tests its "Under ThreadSanitizer" table names are exactly the tests
    of this build with the ctest label "threads" (what scripts/test.sh --tsan
    runs); a named test this build does not define (no TUI) is let be.
Usage: threads_doc.py SRC_DIR BUILD_DIR
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib_no_env import strip  # noqa: E402

START = re.compile(r"\b(?:fts__thread_start(?:_fifo)?|pthread_create)\s*\(")
SKIP = {"src/core/util/thread.c", "src/core/internal.h"}


def starters(src):
    out = []
    for root, _, files in os.walk(os.path.join(src, "src")):
        for f in sorted(files):
            path = os.path.join(root, f)
            rel = os.path.relpath(path, src)
            if f.endswith((".c", ".h")) and rel not in SKIP:
                with open(path, encoding="utf-8", errors="replace") as fh:
                    if START.search(strip(fh.read())):
                        out.append(rel)
    return out


def doc_tests(doc):
    part = doc.split("## Under ThreadSanitizer", 1)
    if len(part) != 2:
        return None
    names = set()
    for line in part[1].splitlines():
        cells = line.split("|")
        if len(cells) >= 4 and not set(cells[2].strip()) <= set("-") and "Tests" not in cells[2]:
            names.update(re.findall(r"`([A-Za-z0-9_]+)`", cells[2]))
    return names


def ctest_names(build, *args):
    out = subprocess.run(["ctest", "-N", *args], cwd=build, capture_output=True, text=True,
                         check=True).stdout
    return set(re.findall(r"Test +#\d+: (\S+)", out))


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    src, build = sys.argv[1], sys.argv[2]
    with open(os.path.join(src, "docs", "threads.md"), encoding="utf-8") as fh:
        doc = fh.read()
    bad = []
    for rel in starters(src):
        base = os.path.basename(rel)
        if not re.search(r"[`/ ]" + re.escape(base) + r"[` ]", doc):
            bad.append("%s starts a thread and docs/threads.md does not name it" % rel)
    named = doc_tests(doc)
    if not named:
        bad.append("docs/threads.md has no 'Under ThreadSanitizer' table of tests")
        named = set()
    defined = ctest_names(build)
    labelled = ctest_names(build, "-L", "^threads$")
    for t in sorted(named & defined - labelled):
        bad.append("%s is in docs/threads.md's TSan table but lacks the ctest label threads" % t)
    for t in sorted(labelled - named):
        bad.append("%s has the ctest label threads but docs/threads.md's TSan table does not name it" % t)
    for t in sorted(named - defined):
        print("note: %s is not defined in this build" % t)
    for b in bad:
        print(b, file=sys.stderr)
    if bad:
        return 1
    print("ok: %d thread-starting files named, %d tests labelled threads" %
          (len(starters(src)), len(labelled)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
