#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The source tree's layering, checked: includes run one way.

  util <- trace <- model <- export <- pipeline;  record uses util and trace.
  front, cli and tui use the public API (<ftscope/...>) and their own or
  front's headers, never a library layer's private header.
  include/ftscope/*.h include only each other and system headers.

Prints each offending include and exits 1 when there is any.
"""
import re
import sys
from pathlib import Path

LIB_ALLOWED = {
    'util': {'util'},
    'trace': {'util', 'trace'},
    'model': {'util', 'trace', 'model'},
    'export': {'util', 'trace', 'model', 'export'},
    'pipeline': {'util', 'trace', 'model', 'export', 'pipeline'},
    'record': {'util', 'trace', 'record'},
}
FRONT_ENDS = {'front', 'cli', 'tui'}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def check_file(layer, path, problems):
    for kind, target in INCLUDE.findall(path.read_text(errors='replace')):
        head = target.split('/')[0] if '/' in target else None
        if layer in LIB_ALLOWED:
            if kind == '"' and head and head != 'ftscope' and head not in LIB_ALLOWED[layer]:
                problems.append(f'{path}: {layer} must not include "{target}"')
        elif layer in FRONT_ENDS:
            if kind == '"' and head and head != 'ftscope':
                problems.append(f'{path}: {layer} may use only the public API and front, not "{target}"')
            if kind == '<' and head in LIB_ALLOWED:
                problems.append(f'{path}: {layer} reaches into the library: <{target}>')
        else:
            problems.append(f'{path}: src/{layer} is not a known layer')
            return


def main():
    top = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]
    problems = []
    files = 0
    for path in sorted((top / 'src').rglob('*.[ch]')):
        rel = path.relative_to(top / 'src')
        if len(rel.parts) < 2:
            problems.append(f'{path}: source files live in a layer folder')
            continue
        files += 1
        check_file(rel.parts[0], path, problems)
    for path in sorted((top / 'include' / 'ftscope').glob('*.h')):
        files += 1
        for kind, target in INCLUDE.findall(path.read_text()):
            if kind == '"' and '/' in target:
                problems.append(f'{path}: public headers include only each other, not "{target}"')
            if kind == '"' and not (top / 'include' / 'ftscope' / target).exists():
                problems.append(f'{path}: includes "{target}", which is not a public header')
    for p in problems:
        print(p)
    print(f'check_layers: {files} files, {len(problems)} problems')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
