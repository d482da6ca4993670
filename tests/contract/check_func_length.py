#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""No function in src/ is longer than 80 lines (docs/STYLE.md: functions that do one thing).

A function's length runs from the first line of its definition (the return
type, or the name) to its closing brace, both counted. The tree's style
(kernel style, checked by review) puts both braces of a function alone in
column 0, which is what this finds; a brace in column 0 opens nothing else
here.

ALLOW names a function that may stay longer, with the reason; keep it empty.

usage: check_func_length.py SRC_DIR [--list N]   (--list: the N longest, no check)
"""
import re
import sys
from pathlib import Path

LIMIT = 80
# "path from src/:function": why it may be longer
ALLOW = {}
NAME = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def functions(path):
    """(name, first line, length) of every function body in @path."""
    lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
    out = []
    i = 0
    while i < len(lines):
        if lines[i] != "{":
            i += 1
            continue
        # the signature: the lines above the brace back to a blank line, a
        # closing brace, a comment's end or a preprocessor line
        j = i
        while j > 0 and lines[j - 1].strip() and not lines[j - 1].startswith(("}", "#")) \
                and not lines[j - 1].rstrip().endswith("*/"):
            j -= 1
        m = NAME.search(" ".join(lines[j:i]))
        k = i + 1
        while k < len(lines) and lines[k] != "}":
            k += 1
        out.append((m.group(1) if m else "?", j + 1, k - j + 1))
        i = k + 1
    return out


def main():
    args = sys.argv[1:]
    if not args or (len(args) != 1 and (len(args) != 3 or args[1] != "--list")):
        sys.exit(__doc__.strip().splitlines()[-1])
    src = Path(args[0])
    found = []
    for p in sorted(list(src.rglob("*.c")) + list(src.rglob("*.h"))):
        rel = p.relative_to(src).as_posix()
        found += [(n, rel, name, line) for name, line, n in functions(p)]
    if len(args) == 3:
        for n, rel, name, line in sorted(found, reverse=True)[:int(args[2])]:
            print("%4d  %s:%d %s" % (n, rel, line, name))
        return
    bad = [(n, rel, name, line) for n, rel, name, line in found
           if n > LIMIT and "%s:%s" % (rel, name) not in ALLOW]
    stale = sorted(set(ALLOW) - {"%s:%s" % (rel, name) for n, rel, name, _ in found if n > LIMIT})
    for n, rel, name, line in sorted(bad, reverse=True):
        print("FAIL src/%s:%d: %s is %d lines (more than %d): split it by job" % (rel, line, name, n, LIMIT))
    for key in stale:
        print("FAIL ALLOW lists %s, which is no longer over %d lines (or gone): drop it" % (key, LIMIT))
    if not bad and not stale:
        print("ok: %d functions in src/, none over %d lines (%d allowed)" % (len(found), LIMIT, len(ALLOW)))
    sys.exit(1 if bad or stale else 0)


if __name__ == "__main__":
    main()
