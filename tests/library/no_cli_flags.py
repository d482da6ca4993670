#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""no_cli_flags.py SRC - no C string literal of the library names a CLI flag.

The library (src/core, src/export) serves more than one front end: a message
that says "use --output" is wrong in the TUI and in a program linking the
library. This reads every .c and .h under those folders, skips comments and
character constants, joins adjacent string literals (a message split over
lines) and fails on any literal holding "--" followed by a lower-case letter.
"""
import pathlib
import re
import sys

FLAG = re.compile(r"--[a-z]")
LIB_DIRS = ("src/core", "src/export")


def literals(text):
    """Yields (line, literal) for every string literal, adjacent ones joined."""
    i, n, line = 0, len(text), 1
    pending, pending_line = None, 0
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += text.count("\n", i, j)
            i = j
            continue
        elif c == "'":
            j = i + 1
            while j < n and text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        elif c == '"':
            j, buf = i + 1, []
            while j < n and text[j] != '"':
                if text[j] == "\\":
                    buf.append(text[j:j + 2])
                    j += 2
                else:
                    buf.append(text[j])
                    j += 1
            if pending is None:
                pending, pending_line = "", line
            pending += "".join(buf)
            i = j + 1
            continue
        elif c.isspace():
            i += 1
            continue
        else:
            i += 1
        if pending is not None and not c.isspace():
            yield pending_line, pending
            pending = None
    if pending is not None:
        yield pending_line, pending


def main():
    top = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    bad, files = 0, 0
    for d in LIB_DIRS:
        for f in sorted((top / d).rglob("*")):
            if f.suffix not in (".c", ".h"):
                continue
            files += 1
            for line, lit in literals(f.read_text(errors="replace")):
                if FLAG.search(lit):
                    print(f"{f.relative_to(top)}:{line}: names a CLI flag: \"{lit}\"")
                    bad += 1
    if files == 0:
        print(f"no sources under {top}: wrong SRC?")
        return 2
    print(f"{files} files, {bad} literal(s) naming a flag")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
