#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/flight.sh - the flight recorder's disk and CPU against a normal recording.
#
#   bench/flight.sh [ftscope-binary] [seconds] [segment] [keep] [outdir]
#
# Under `hackbench -g 2` for SECONDS (default 20): a normal recording, then
# `record --flight --segment SEGMENT --keep KEEP` (default 2s, 3), then the same
# with a scheduling trigger armed (TRIGGER, default 'runnable>5ms:comm=no-such-task':
# the live top's decoder runs over every page; a comm nobody has here, so the
# cost is the decoding, not snapshots). For each: events,
# the recorder's CPU time (user+sys, with the assembly) per million events and per
# hour-equivalent, and wall time. For the flight run also the disk its directory
# used, sampled every 0.5 s (peak), against keep x segment bytes (the mean
# segment), and the disk written per hour at this load. Needs root. Holds no lock:
# run it alone (it records on the real tracefs).
FTS=${1:-$(dirname "$0")/../build/ftscope}
SECS=${2:-20}
SEG=${3:-2s}
KEEP=${4:-3}
OUT=${5:-/tmp/ftscope-bench-flight}
TRIGGER=${TRIGGER:-'runnable>5ms:comm=no-such-task'}
[ "$(id -u)" = 0 ] || { echo "bench/flight.sh: needs root"; exit 1; }
command -v hackbench >/dev/null || { echo "bench/flight.sh: needs hackbench (rt-tests)"; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT/normal" "$OUT/flight" "$OUT/trigger" || exit 1
TIMEFORMAT='%U %S %R'

events_of() { awk '$1 ~ /^cpu[0-9]/ && $3 == "events" {s += $2} END {print s + 0}' "$1"; }

run() { # run NAME ARGS...: one recording under load; prints "user sys wall" into $OUT/NAME.time
	local name=$1; shift
	setsid hackbench -g 2 -l 1000000000 >/dev/null 2>&1 &
	local load=$!
	sleep 0.5
	{ time "$FTS" record --record_time "$SECS" -q "$@" 2>"$OUT/$name.log" ; } 2>"$OUT/$name.time" &
	local rec=$!
	local peak=0
	while kill -0 $rec 2>/dev/null; do
		sleep 0.5
		# the directory's files, plus the recorder's open unlinked streams (which du cannot see)
		local d p s=0
		d=$(du -sb "$OUT/$name" 2>/dev/null | cut -f1)
		p=$(pgrep -n -x ftscope)
		if [ -n "$p" ]; then
			s=$(for fd in /proc/$p/fd/*; do
				case $(readlink "$fd") in "$OUT/$name/"*"(deleted)") stat -L -c %b "$fd" 2>/dev/null;; esac
			done | awk '{s += $1 * 512} END {print s + 0}')
		fi
		local tot=$((d + s))
		[ "$tot" -gt "$peak" ] && peak=$tot
	done
	wait $rec
	kill -TERM -- -$load 2>/dev/null; wait $load 2>/dev/null
	echo "$peak" > "$OUT/$name.peak"
}

run normal --output "$OUT/normal/trace.dat"
run flight --flight --segment "$SEG" --keep "$KEEP" --output "$OUT/flight/trace.dat"
run trigger --flight --segment "$SEG" --keep "$KEEP" --trigger "$TRIGGER" --output "$OUT/trigger/trace.dat"

printf '%-7s %10s %9s %9s %12s %14s %12s\n' mode events cpu_s wall_s cpu_s/Mev cpu_s/hour peak_disk_MiB
for m in normal flight trigger; do
	read -r u s w < "$OUT/$m.time"
	ev=$(events_of "$OUT/$m.log")
	awk -v m=$m -v ev="$ev" -v u="$u" -v s="$s" -v w="$w" -v secs="$SECS" -v pk="$(cat "$OUT/$m.peak")" \
		'BEGIN { printf "%-7s %10d %9.2f %9.1f %12.3f %14.0f %12.1f\n", m, ev, u + s, w,
			 ev ? (u + s) / (ev / 1e6) : 0, (u + s) * 3600 / secs, pk / 1048576 }'
done
segs=$(ls "$OUT/flight" | grep -c '^trace\.[0-9]\{6\}\.dat$')
bytes=$(cat "$OUT"/flight/trace.[0-9]*.dat 2>/dev/null | wc -c)
last=$(ls "$OUT/flight" | grep '^trace\.[0-9]\{6\}\.dat$' | tail -1)
# the newest segment is cut short by the stop: the mean of the others is the segment size
mean=$(ls -l "$OUT"/flight/trace.[0-9]*.dat | grep -v "$last" | awk '{s += $5; n++} END {print n ? s / n : 0}')
total=$(awk '/MiB streamed|KiB streamed|GiB streamed/ {v=$(NF-2); u=$(NF-1); m = u == "GiB" ? 1024 : u == "KiB" ? 1/1024 : 1; s += v * m} END {print s}' "$OUT/flight.log")
awk -v n="$segs" -v b="$bytes" -v mean="$mean" -v keep="$KEEP" -v pk="$(cat "$OUT/flight.peak")" -v tot="$total" -v secs="$SECS" \
	'BEGIN { printf "flight: %d segments kept (%.1f MiB); mean segment %.1f MiB; peak disk %.1f MiB = %.2f x (keep x segment = %.1f MiB)\n",
		 n, b / 1048576, mean / 1048576, pk / 1048576, mean ? pk / (keep * mean) : 0, keep * mean / 1048576;
		 printf "disk written per hour at this load: %.1f GiB (%.1f MiB streamed in %d s)\n", tot * 3600 / secs / 1024, tot, secs }'
grep -h 'scheduling triggers took' "$OUT/trigger.log" | sed 's/^/trigger: /'
