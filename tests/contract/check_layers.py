#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The source tree's layering, checked on what the objects really call.

The library (src/core, src/export):
  core:   util < trace < model < readback < pipeline < hostbound;  record uses util, trace, model
  export: sink, preview use core;  export (convert.c) uses core, sink, preview
  core/api: the opaque-handle binding API (ftscope/api.h) over all of the above
The programs (src/app, src/tui, src/cli):
  app:    the public API (include/ftscope/) and the internal kit (src/core/internal.h)
  tui:    widgets < term;  widgets < preview < session;  loop uses them all
  cli:    app, the public API, the kit, and tui/tui.h only

Two checks:
  symbols  every undefined symbol of every object (nm) that some in-tree
           object defines must be defined in the object's own folder or in
           one it may use; a front end may reach the library only through a
           function declared in a public header or in the kit.
  includes every quoted include is a full path from src/ ("core/util/buf.h")
           or a public header ("ftscope/x.h"), and names a folder the
           including folder may use (cli: only "tui/tui.h" from tui).

Usage: check_layers.py SRC_DIR BUILD_DIR. Prints each problem; exit 1 if any.
"""
import re
import subprocess
import sys
from pathlib import Path

CORE = ['core/util', 'core/trace', 'core/model', 'core/readback', 'core/pipeline', 'core/hostbound',
        'core/record']
LIB = CORE + ['export/sink', 'export/preview', 'export', 'core/api']
# folder -> the folders whose symbols it may use (its own is always allowed)
USES = {
    'core/util': [],
    'core/trace': ['core/util'],
    'core/model': ['core/util', 'core/trace'],
    'core/readback': ['core/util', 'core/trace', 'core/model'],
    'core/pipeline': ['core/util', 'core/trace', 'core/model', 'core/readback'],
    'core/hostbound': ['core/util', 'core/trace', 'core/model', 'core/readback', 'core/pipeline'],
    'core/record': ['core/util', 'core/trace', 'core/model'],
    'export/sink': CORE,
    'export/preview': CORE,
    'export': CORE + ['export/sink', 'export/preview'],
    'core/api': CORE + ['export/sink', 'export/preview', 'export'],
    'app': LIB,
    'tui/widgets': LIB + ['app'],
    'tui/term': LIB + ['app', 'tui/widgets'],
    'tui/preview': LIB + ['app', 'tui/widgets'],
    'tui/session': LIB + ['app', 'tui/widgets', 'tui/preview'],
    'tui/loop': LIB + ['app', 'tui/widgets', 'tui/preview', 'tui/session', 'tui/term'],
    'tui': LIB + ['app', 'tui/widgets'],
    'cli': LIB + ['app', 'tui/widgets', 'tui/preview', 'tui/session', 'tui/loop'],
}
FRONTS = {f for f in USES if f not in LIB}
# headers that are not in a folder of their own
# tui/tui.h is the TUI's front door: any tui folder and cli may include it
HEADER_FOLDERS = {'tui/tui.h': 'tui', 'core/internal.h': 'internal'}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
DECL = re.compile(r'\b(fts_\w+|fts__\w+)\s*\(')


def folder_of(rel):
    """'core/util/buf.c' -> 'core/util'; 'export/convert.c' -> 'export'."""
    parent = str(Path(rel).parent)
    return HEADER_FOLDERS.get(rel, parent)


def declared(paths):
    names = set()
    for p in paths:
        names.update(DECL.findall(p.read_text(errors='replace')))
    return names


def nm(obj, *flags):
    out = subprocess.run(['nm', '-P', *flags, str(obj)], capture_output=True, text=True, check=True)
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            yield parts[0], parts[1]


def objects(src, build):
    """(folder, object) for each object compiled from src/ in the build tree."""
    for obj in sorted(build.glob('CMakeFiles/*.dir/src/**/*.c.o')):
        rel = obj.as_posix().split('.dir/src/', 1)[1][:-2]
        if 'linkcheck' in obj.as_posix() or not (src / rel).is_file():
            continue  # a link check's copy, or a stale object of a removed source
        yield folder_of(rel), obj


def check_symbols(src, build, problems):
    defined, undefined = {}, []
    nobj = 0
    for folder, obj in objects(src, build):
        nobj += 1
        for name, kind in nm(obj, '--defined-only', '-g'):
            if kind in 'TDBRCVW':
                defined.setdefault(name, folder)
        for name, _ in nm(obj, '-u'):
            undefined.append((folder, obj, name))
    if nobj == 0:
        problems.append(f'{build}: no objects found (build the tree first)')
        return 0
    public = declared((src.parent / 'include' / 'ftscope').glob('*.h'))
    kit = declared([src / 'core' / 'internal.h']) if (src / 'core' / 'internal.h').exists() else set()
    tui_api = declared([src / 'tui' / 'tui.h'])
    for folder, obj, name in undefined:
        owner = defined.get(name)
        if owner is None or owner == folder:
            continue
        where = obj.as_posix().split('.dir/', 1)[1]
        if folder not in USES:
            problems.append(f'{where}: src/{folder} is not a known folder')
        elif owner not in USES[folder]:
            problems.append(f'{where}: {folder} calls {name} from {owner}, a folder it may not use')
        elif folder in FRONTS and owner in LIB and name not in public and name not in kit:
            problems.append(f'{where}: {folder} calls {name}, which is neither public API nor in the kit')
        elif folder == 'cli' and owner.startswith('tui') and name not in tui_api:
            problems.append(f'{where}: cli calls {name} from {owner}; cli uses only tui/tui.h')
    return nobj


def check_includes(src, problems):
    files = 0
    for path in sorted(src.rglob('*.[ch]')):
        rel = path.relative_to(src).as_posix()
        folder = folder_of(rel)
        if folder == '.':
            problems.append(f'{path}: source files live in a folder')
            continue
        files += 1
        if folder not in USES and folder not in ('internal', 'tui'):
            problems.append(f'{path}: src/{folder} is not a known folder')
            continue
        for target in INCLUDE.findall(path.read_text(errors='replace')):
            if target.startswith('ftscope/'):
                continue
            if not (src / target).is_file():
                problems.append(f'{path}: "{target}" is not a path from src/ (write the full path)')
                continue
            tfolder = folder_of(target)
            if tfolder in (folder, 'internal') or (tfolder == 'tui' and folder.split('/')[0] in ('tui', 'cli')):
                continue
            if folder.split('/')[0] in ('app', 'cli', 'tui') and tfolder in LIB:
                problems.append(f'{path}: {folder} includes the library\'s private "{target}" '
                                '(programs use include/ftscope/ and src/core/internal.h)')
            elif folder == 'cli' and tfolder.startswith('tui/') and target != 'tui/tui.h':
                problems.append(f'{path}: cli includes "{target}"; it may include only "tui/tui.h"')
            elif folder == 'internal' or tfolder not in USES.get(folder, []):
                problems.append(f'{path}: {folder} must not include "{target}"')
    return files


def check_public(top, problems):
    files = 0
    for path in sorted((top / 'include' / 'ftscope').glob('*.h')):
        files += 1
        for target in INCLUDE.findall(path.read_text()):
            if '/' in target or not (top / 'include' / 'ftscope' / target).exists():
                problems.append(f'{path}: public headers include only each other, not "{target}"')
    return files


def main():
    if len(sys.argv) != 3:
        print('usage: check_layers.py SRC_DIR BUILD_DIR', file=sys.stderr)
        return 2
    top, build = Path(sys.argv[1]), Path(sys.argv[2])
    src = top / 'src'
    problems = []
    files = check_includes(src, problems) + check_public(top, problems)
    nobj = check_symbols(src, build, problems)
    for p in problems:
        print(p)
    print(f'check_layers: {files} files, {nobj} objects, {len(problems)} problems')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
