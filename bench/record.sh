#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/record.sh - recorder throughput and cost under a fixed load.
#
#   bench/record.sh [ftscope-binary] [seconds] [outdir]
#
# For --bf_size 256, 4096 and 40960 KB: runs `hackbench -g 4` for the whole
# capture and reports events/s captured, events lost (kernel overrun + commit
# overrun + dropped) and the recorder's own CPU time (user+sys, including
# assembling the trace.dat at stop) per million events. Needs root.
FTS=${1:-$(dirname "$0")/../build/ftscope}
SECS=${2:-10}
OUT=${3:-/tmp/ftscope-bench}
[ "$(id -u)" = 0 ] || { echo "bench/record.sh: needs root"; exit 1; }
command -v hackbench >/dev/null || { echo "bench/record.sh: needs hackbench (rt-tests)"; exit 1; }
mkdir -p "$OUT" || exit 1
printf '%-8s %12s %12s %10s %14s %10s %14s\n' bf_size_KB events events/s lost cpu_s/Mev file_MiB top_cpu_s/Mev
for bf in ${BENCH_SIZES:-256 4096 40960}; do
	setsid hackbench -g 4 -l 1000000000 >/dev/null 2>&1 &
	load=$!
	sleep 0.5
	TIMEFORMAT='%U %S'
	t=$( { time "$FTS" record --record_time "$SECS" --bf_size $bf --output "$OUT/bench-$bf.dat" -q \
		$BENCH_ARGS 2>"$OUT/bench-$bf.log" ; } 2>&1 )
	kill -TERM -- -$load 2>/dev/null; wait $load 2>/dev/null
	read -r user sys <<<"$t"
	events=$(awk '$1 ~ /^cpu[0-9]/ && $3 == "events" {s += $2} END {print s + 0}' "$OUT/bench-$bf.log")
	lost=$(awk '$1 ~ /^cpu[0-9]/ && $5 == "lost" {s += $4} END {print s + 0}' "$OUT/bench-$bf.log")
	dur=$(sed -n 's/^recorded \([0-9.]*\) s.*/\1/p' "$OUT/bench-$bf.log")
	size=$(stat -c %s "$OUT/bench-$bf.dat" 2>/dev/null || echo 0)
	top=$(sed -n 's/^live top: decoded [0-9]* events with \([0-9.]*\) s of CPU.*/\1/p' "$OUT/bench-$bf.log")
	awk -v bf=$bf -v ev="$events" -v lost="$lost" -v u="$user" -v s="$sys" -v d="${dur:-$SECS}" -v sz="$size" -v top="$top" \
		'BEGIN { printf "%-8s %12d %12.0f %10d %14.3f %10.1f %14s\n", bf, ev, ev / d, lost, ev ? (u + s) / (ev / 1e6) : 0, sz / 1048576, top == "" ? "-" : sprintf("%.3f", ev ? top / (ev / 1e6) : 0) }'
	rm -f "$OUT/bench-$bf.dat"
done
