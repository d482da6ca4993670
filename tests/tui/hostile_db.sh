#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 21, items 1 and 3: crafted DBs (tests/tui/make_hostile_db.py) the
# previewer must open, draw and navigate in bounded time.
# - wrap: slices at 1000 ns, near 9.2e18 ns and one ending near 2^64: the
#   axis's tick loop wrapped and spun for ever on the first frame or the
#   first zoom-out key (saturating time arithmetic in the view);
# - equal: 40k slices with one start and long, distinct durations: opening
#   took 4.7 s (fts_store_dur walked back over equal starts) and each frame
#   1.2 s (every item walked through every column it covers).
# usage: hostile_db.sh FTSCOPE SRCDIR WORKDIR
set -euo pipefail
bin=$(readlink -f "$1") src=$(readlink -f "$2") work=$3
rm -rf "$work"; mkdir -p "$work"
gen=$src/tests/tui/make_hostile_db.py
fail=0
# generous: a loaded 2-core machine, or a sanitizer build (several times slower)
limit=${FTS_HOSTILE_LIMIT_S:-20}

# run NAME DB WxH KEYS: --print --keys must finish within the limit, exit 0, draw a screen
run() {
	local name=$1 db=$2 size=$3 keys=$4 t0 t1 rc=0
	t0=$(date +%s%N)
	timeout "$limit" "$bin" preview "$db" --print "$size" --keys "$keys" --timing \
		> "$work/$name.screen" 2> "$work/$name.err" || rc=$?
	t1=$(date +%s%N)
	last_ms=$(( (t1 - t0) / 1000000 ))
	if [ $rc -eq 124 ]; then
		echo "FAIL $name: still running after ${limit}s (a hang)"; fail=1; return
	elif [ $rc -ne 0 ]; then
		echo "FAIL $name: exit status $rc"; cat "$work/$name.err"; fail=1; return
	elif ! grep -q "ftscope preview" "$work/$name.screen"; then
		echo "FAIL $name: no screen"; fail=1; return
	fi
	echo "ok $name: $last_ms ms; $(grep -E '^(loaded|frames .* cpu)' "$work/$name.err" | tr '\n' ' ')"
}

python3 "$gen" "$work/wrap.db" wrap 1
zoom_out='-'
for _ in 1 2 3 4 5 6; do zoom_out+='-'; done
run wrap_first_frame "$work/wrap.db" 80x24 'j'
run wrap_zoom_out "$work/wrap.db" 100x20 "$zoom_out"
run wrap_zoom_in_out "$work/wrap.db" 100x20 "++++++++<End>${zoom_out}<Home>LLLHHH"
run wrap_navigate "$work/wrap.db" 132x43 ']]][[[rRxXm<End>m-w0<S-Right><S-Left><Enter>'
run wrap_narrow "$work/wrap.db" 20x6 "${zoom_out}+++<End>--"
# every width from 20 to 140: the tick step and the viewport's end change with it
for w in $(seq 20 7 140); do
	if ! timeout "$limit" "$bin" preview "$work/wrap.db" --print "${w}x12" --keys "+-${zoom_out}<End>-" > /dev/null 2>&1; then
		echo "FAIL wrap_width_$w: hang or error"; fail=1
	fi
done

python3 "$gen" "$work/equal.db" equal 40000
last_ms=
run equal_40k "$work/equal.db" 120x30 '<Right><Right>++--jk]]['
# open + 11 frames took about 18 s before (4.7 s to open, 1.2 s a frame); 5 s
# is the bound on a loaded machine (more under a sanitizer: FTS_EQUAL_LIMIT_MS)
bound=${FTS_EQUAL_LIMIT_MS:-5000}
if [ -n "$last_ms" ] && [ "$last_ms" -gt "$bound" ]; then
	echo "FAIL equal_40k: ${last_ms} ms to open and draw 11 frames (bound $bound ms)"; fail=1
fi
exit $fail
