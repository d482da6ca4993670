#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Put FTS_API on every function declared in the public headers (include/ftscope/*.h).

libftscope.so is built with -fvisibility=hidden: a public function without
FTS_API is missing from the shared library. Mechanical and idempotent, so it
can be rerun after a merge adds declarations:

  scripts/mark_api.py          mark every unmarked declaration, include "export.h"
  scripts/mark_api.py --check  list unmarked declarations; exit 1 if any (a ctest)
"""
import re
import sys
from pathlib import Path

# A declaration starts at column 0 with its return type (as check_api_docs.py reads them).
PROTO = re.compile(r'^(?!typedef\b|static\b|extern\b|#|FTS_API\b)([A-Za-z_][\w \t\*]*?\b(fts_\w+)\s*\([^;{]*?\)'
                   r'\s*(?:__attribute__\s*\(\(.*?\)\))?\s*;)', re.S | re.M)
INCLUDE = '#include "export.h"\n'


def unmarked(text):
    return [m for m in PROTO.finditer(text)]


def mark(path):
    text = path.read_text()
    found = unmarked(text)
    if not found:
        return 0
    for m in reversed(found):
        text = text[:m.start()] + 'FTS_API ' + text[m.start():]
    if INCLUDE not in text:
        # after the last #include (every public header has one), else after the guard
        incs = list(re.finditer(r'^#include .*\n', text, re.M))
        at = incs[-1].end() if incs else re.search(r'^#define FTS_\w+_H\n', text, re.M).end()
        text = text[:at] + ('' if incs else '\n') + INCLUDE + text[at:]
    path.write_text(text)
    return len(found)


def main():
    top = Path(__file__).resolve().parent.parent
    headers = sorted((top / 'include' / 'ftscope').glob('*.h'))
    if sys.argv[1:] == ['--check']:
        bad = [(h.name, m.group(2)) for h in headers for m in unmarked(h.read_text())]
        for name, fn in bad:
            print(f'{name}: {fn} is public but not FTS_API (run scripts/mark_api.py)')
        print(f'mark_api: {len(headers)} headers, {len(bad)} unmarked')
        return 1 if bad else 0
    n = sum(mark(h) for h in headers)
    print(f'mark_api: marked {n} declarations')
    return 0


if __name__ == '__main__':
    sys.exit(main())
