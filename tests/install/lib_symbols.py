#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The installed libraries export the public API's names and nothing else.

A program linking libftscope.a statically shares one global namespace with
it: an internal helper left global (rec_stream_open, hb_settle...) would
collide with the program's own function of that name. Every global symbol
defined in libftscope.a and libftscope.so must carry the fts_ prefix (fts__
for internals, though none should be left global), and the archive must
export exactly what the shared library exports.

usage: lib_symbols.py NM ARCHIVE [SHARED]
"""
import subprocess
import sys


def defined_globals(nm, path):
    out = subprocess.run([nm, "-g", "--defined-only", path], check=True,
                         capture_output=True, text=True).stdout
    # "<value> <type> <name>" lines; archive member headers ("x.o:") and blanks skip
    return {f[2] for f in (line.split() for line in out.splitlines()) if len(f) == 3}


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip().splitlines()[-1])
    nm, archive = sys.argv[1], sys.argv[2]
    bad = 0
    libs = {archive: defined_globals(nm, archive)}
    if len(sys.argv) == 4:
        libs[sys.argv[3]] = defined_globals(nm, sys.argv[3])
    for path, syms in libs.items():
        if not syms:
            print(f"FAIL {path}: no global symbol at all")
            bad += 1
        leaks = sorted(s for s in syms if not s.startswith("fts_"))
        if leaks:
            print(f"FAIL {path}: {len(leaks)} global symbols without the fts_ prefix: "
                  + " ".join(leaks[:20]) + (" ..." if len(leaks) > 20 else ""))
            bad += 1
        else:
            print(f"ok {path}: {len(syms)} global symbols, all fts_")
    if len(libs) == 2:
        a, so = libs.values()
        if a != so:
            print("FAIL the archive and the shared library export different names: only in the "
                  f"archive: {' '.join(sorted(a - so)[:20])}; only in the .so: {' '.join(sorted(so - a)[:20])}")
            bad += 1
        else:
            print("ok the archive exports what the shared library exports")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
