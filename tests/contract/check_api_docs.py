#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every function declared in the public headers carries a kernel-doc block.

As libtracefs's check-manpages.sh does for its API: a prototype in
include/ftscope/*.h must be preceded by a /** ... */ block that starts with
"name - summary", names every parameter as "@param:" and says what it returns
("Returns ..."; void functions are exempt). Prints one line per offence and
exits 1 when there is any.
"""
import re
import sys
from pathlib import Path

PROTO = re.compile(r'^[A-Za-z_][\w \t\*]*?\b(fts_\w+)\s*\(([^;{]*?)\)\s*(__attribute__\s*\(\(.*?\)\))?\s*;',
                   re.S | re.M)


def params(arglist):
    names = []
    for a in arglist.split(','):
        a = a.strip()
        if a in ('', 'void', '...'):
            continue
        m = re.search(r'\(\s*\*\s*(\w+)\s*\)', a)  # function pointer
        if not m:
            m = re.search(r'(\w+)\s*(\[[^\]]*\])*\s*$', a)
        if m:
            names.append(m.group(1))
    return names


def check(path):
    text = path.read_text()
    bad = []
    for m in PROTO.finditer(text):
        name = m.group(1)
        start = m.start()
        decl = text[start:m.end()]
        if 'typedef' in decl:
            continue
        before = text[:start].rstrip()
        if not before.endswith('*/'):
            bad.append(f'{path.name}: {name}: no doc block')
            continue
        open_at = before.rfind('/**')
        other = before.rfind('/*', 0, len(before) - 1)
        if open_at < 0 or other > open_at + 1:
            bad.append(f'{path.name}: {name}: doc block must open with /**')
            continue
        block = before[open_at:]
        if not re.search(r'\b' + re.escape(name) + r'\s+-\s+\S', block):
            bad.append(f'{path.name}: {name}: doc block lacks "{name} - summary"')
        for p in params(m.group(2)):
            if not re.search(r'@' + re.escape(p) + r'\b', block):
                bad.append(f'{path.name}: {name}: parameter @{p} undocumented')
        returns_void = re.match(r'^\s*(FTS_API\s+)?(static\s+)?(inline\s+)?void\s+' + re.escape(name), decl)
        if not returns_void and not re.search(r'\bReturns?\b', block):
            bad.append(f'{path.name}: {name}: no "Returns" sentence')
    return bad


def main():
    top = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]
    headers = sorted((top / 'include' / 'ftscope').glob('*.h'))
    if not headers:
        print('check_api_docs: no headers under include/ftscope')
        return 1
    bad = []
    count = 0
    for h in headers:
        count += len(PROTO.findall(h.read_text()))
        bad += check(h)
    for b in bad:
        print(b)
    print(f'check_api_docs: {count} public functions in {len(headers)} headers, {len(bad)} problems')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
