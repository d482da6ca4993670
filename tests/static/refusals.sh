#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the static build leaves to libtracecmd is refused with one clear line,
# exit 1 and no output file: a v6 trace.dat with a DATE option (trace-cmd
# record --date: libtracecmd shifts every time stamp) made from the test
# trace, and a latency trace; the unmodified file still converts.
#   refusals.sh STATIC_FTSCOPE SRC WORK
set -u
BIN=$1 SRC=$2 WORK=$3
fails=0
pass() { echo "ok   $*"; }
bad() { fails=$((fails + 1)); echo "FAIL $*"; }
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK" || exit 1
tar xJf "$SRC/tests/data/dat/small-v6.dat.tar.xz"
python3 - small-v6.dat <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
at = d.index(b'options  \0') + 10
# the first option (TRACECLOCK) renamed DATE in place, so every offset stays right
assert int.from_bytes(d[at:at + 2], 'little') == 4
open('date.dat', 'wb').write(d[:at] + (1).to_bytes(2, 'little') + d[at + 2:])
# a latency trace: the flyrecord tag becomes "latency  " (same length)
fly = d.index(b'flyrecord\0')
open('latency.dat', 'wb').write(d[:fly] + b'latency  \0' + d[fly + 10:])
PY
"$BIN" convert -q -i small-v6.dat -o ok.json > ok.log 2>&1 && [ -s ok.json ] &&
	pass "the test trace converts" || bad "the test trace: $(cat ok.log)"
for f in date:'time offsets or conversions' latency:'a latency trace'; do
	name=${f%%:*} want=${f#*:}
	"$BIN" convert -q -i "$name.dat" -o "$name.json" > "$name.log" 2>&1
	rc=$?
	if [ "$rc" = 1 ] && grep -q "cannot read $want" "$name.log" &&
		grep -q "convert the file with a dynamically linked ftscope" "$name.log" &&
		[ "$(wc -l < "$name.log")" = 1 ] && [ ! -e "$name.json" ]; then
		pass "$name: refused in one line: $(cat "$name.log")"
	else
		bad "$name: exit $rc, $(cat "$name.log"), output $(ls "$name.json" 2> /dev/null || echo none)"
	fi
done
echo "$fails failure(s)"
[ "$fails" = 0 ]
