#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 33 item 6: every flight segment converts on the wall clock on its own,
# under load. A segment's clock marker must come among its first events in
# time order (the clock scan reads the first 200,000), not after the previous
# segment's assembly (seconds under hackbench: hundreds of thousands of
# events). For each segment: where its marker is in time order (printed, the
# figure), and `convert` of it alone says it is placed on the wall clock.
if [ -z "$FTS_CLOCK_LOCKED" ] && [ -f "$2/scripts/tracefs_lock.py" ]; then
	FTS_CLOCK_LOCKED=1 exec python3 "$2/scripts/tracefs_lock.py" bash "$0" "$@"
fi
source "$(dirname "$0")/lib.sh" "$@"
before=$(state)
mkdir d
load 14
"$FTS" record --flight --segment 2s --keep 100 -t 10 -o d/t.dat -q 2>d.log || { cat d.log; fail "the recording failed"; }
segs=$(ls d | grep '^t\.[0-9]\{6\}\.dat$')
[ "$(echo "$segs" | wc -l)" -ge 4 ] || { cat d.log; fail "fewer than 4 segments in 10 s of 2 s segments"; }
worst=0
worst_ms=0
for s in $segs; do
	# the marker's position among the segment's events, in time order (trace-cmd report sorts them)
	# and how long after the segment's first event it was written (ms)
	read -r at ms < <(trace-cmd report -i d/$s 2>/dev/null | awk '
		match($0, /\] +[0-9]+\.[0-9]+: +[a-z_]+:/) {
			n++; t = substr($0, RSTART + 1, RLENGTH); sub(/^ +/, "", t); sub(/:.*/, "", t)
			if (n == 1) first = t }
		/ftscope_clock realtime_ns=/ { printf "%d %.1f\n", n, (t - first) * 1000; exit }')
	n=$(dat_events d/$s)
	[ -n "$at" ] || fail "$s has no ftscope_clock marker"
	echo "$s: $n events, its clock marker is event $at, $ms ms after the first"
	[ "$at" -gt "$worst" ] && worst=$at
	ms_i=${ms%.*}
	[ "$ms_i" -gt "$worst_ms" ] && worst_ms=$ms_i
	"$FTS" convert -i d/$s -o $s.json --format json >conv.out 2>&1 || { cat conv.out; fail "convert $s failed"; }
	grep -q "placed on the wall clock by the recorder's clock pair" conv.out ||
		{ cat conv.out; fail "$s alone is not on the wall clock (its marker is event $at of $n)"; }
	rm -f $s.json
done
echo "worst: the clock marker is event $worst of its segment; $worst_ms ms after its first event"
[ "$worst" -lt 200000 ] || fail "a marker after the clock scan's 200,000 events"
after=$(state)
[ "$before" = "$after" ] || { diff <(echo "$before") <(echo "$after"); fail "the tracing state changed"; }
echo PASS
