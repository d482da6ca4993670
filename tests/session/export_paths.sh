#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The export screen's output paths (issue 21 items 8 and 18), drawn without a
# terminal (screen_shot): a capture in a directory so deep that the default
# output beside it does not fit is given no default and told why (it was cut
# short and named another file); an output that is the input by another
# spelling is refused on the form, not only the same string.
# usage: export_paths.sh FTSCOPE SRCDIR WORKDIR
set -euo pipefail
src=$(readlink -f "$2") work=$3
shot=$(dirname "$(readlink -f "$work")")/screen_shot
fix=$src/tests/session/fixtures
rm -rf "$work"; mkdir -p "$work"; work=$(readlink -f "$work")
export TZ=UTC LANG=C.UTF-8 LC_ALL=C.UTF-8
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# a directory whose path with its '/' is 4084 bytes: trace.dat fits in 4095, ftrace_data.db does not
deep=$work
# 200-byte components, then a last one of 10 to 210 bytes that makes it exact
while [ $(( ${#deep} + 201 + 11 )) -le 4083 ]; do deep=$deep/$(printf 'd%.0s' $(seq 200)); done
deep=$deep/$(printf 'e%.0s' $(seq $(( 4082 - ${#deep} ))))
mkdir -p "$deep"
[ $(( ${#deep} + 1 )) -eq 4084 ] || bad "the deep directory is $(( ${#deep} + 1 )) bytes, not 4084"
cp "$src/assets/sample/sample.dat" "$deep/trace.dat"
(cd "$work" && "$shot" export 160x48 "$fix" '' "$deep/trace.dat") > "$work/deep.screen" 2> "$work/deep.err" ||
	{ bad "deep: screen_shot failed"; cat "$work/deep.err"; }
if grep -q "no default output: the capture's directory path is too long (4084 bytes)" "$work/deep.screen" &&
   ! grep -q "ftrace_data" "$work/deep.screen"; then
	ok "a capture 4 KB deep: no default output, and why"
else
	bad "deep: the output row"; grep -n "Output\|output" "$work/deep.screen" || true
fi

# a text capture named cap.db; the output edited to the same file by another spelling
mkdir -p "$work/d"
cp "$src/assets/sample/sample.txt" "$work/d/cap.db"
(cd "$work" && "$shot" export 160x48 "$fix" 'j\n<C-u>d/./cap.db\n' d/cap.db) > "$work/same.screen" 2> "$work/same.err" ||
	{ bad "same: screen_shot failed"; cat "$work/same.err"; }
grep -q "the output d/./cap.db is the input d/cap.db (the same file)" "$work/same.screen" &&
	ok "output d/./cap.db for input d/cap.db: refused on the form" ||
	{ bad "same file: no refusal"; grep -n "cap.db" "$work/same.screen" || true; }
cmp -s "$src/assets/sample/sample.txt" "$work/d/cap.db" && ok "the input is untouched" || bad "the input changed"
# a text capture named ftrace_data.db: the default is the next name, not the input
cp "$src/assets/sample/sample.txt" "$work/d/ftrace_data.db"
(cd "$work" && "$shot" export 160x48 "$fix" '' d/ftrace_data.db) > "$work/dflt.screen" 2> "$work/dflt.err" ||
	{ bad "default: screen_shot failed"; cat "$work/dflt.err"; }
grep -q "d/ftrace_data1.db" "$work/dflt.screen" && ok "the default output is d/ftrace_data1.db" ||
	{ bad "default output"; grep -n "Output" "$work/dflt.screen" || true; }
exit $fail
