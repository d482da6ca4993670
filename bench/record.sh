#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/record.sh - recorder throughput and cost under a fixed load.
#
#   bench/record.sh [ftscope-binary] [seconds] [outdir]
#
# For --bf_size 256, 4096 and 40960 KB: runs the load (BENCH_LOAD) for the
# whole capture and reports events/s captured, events lost (kernel overrun +
# commit overrun + dropped) and the recorder's own CPU time (user+sys,
# including assembling the trace.dat at stop) per million events. Needs root.
#
# BENCH_LOAD is the load's command line, default `hackbench -g 2 -p` (pipes:
# 330-520 k events/s on the 2-CPU VM, where `hackbench -g 4` over sockets gave
# ~130 k/s, so the recorder's fixed cost per second dominated the per-event
# figure). It runs in its own session and is killed as a group; e.g.
# BENCH_LOAD="sh -c 'for i in 1 2 3 4; do perf bench sched pipe -l 100000000 & done; wait'"
# gave this machine's highest rate (2.3-2.8 M events/s).
#
# Then (BENCH_SCALE=0 skips) the figures that decide how the recorder scales
# with CPUs, at the default buffer:
#   idle / load, live top off / on: threads, the readers' wakeups per second
#   and per recorded CPU (voluntary + involuntary context switches of the
#   fts-read* threads from /proc/PID/task/*/status, from 1 s after the start,
#   or once a reader runs, to 3 s before the end, clear of the stop), the whole
#   process's wakeups/s, CPU s per million events and lost events; with the
#   live top, the share of the recorded events it decoded (it samples pages
#   within its CPU budget and skips them when it falls behind) and its CPU s
#   per million decoded events.
#   trace-cmd on the same load: `trace-cmd record` where it works; where this
#   kernel refuses it ("Can't enable ftrace") the same events into a private
#   instance of the same size, then `trace-cmd extract -B` (its CPU and the
#   instance's overrun counters), which is said on the line.
# FTSCOPE_READERS=N (the reader pool's size, docs/record.md) is passed on to ftscope.
# BENCH_CASES picks the scale cases ("idle:0: load:1: load_top:1:--live_top").
# BENCH_TC=0 skips trace-cmd.
# BENCH_LOCK=FILE takes that flock around each capture (the tests' tracefs lock).
FTS=${1:-$(dirname "$0")/../build/ftscope}
SECS=${2:-10}
OUT=${3:-/tmp/ftscope-bench}
[ "$(id -u)" = 0 ] || { echo "bench/record.sh: needs root"; exit 1; }
command -v hackbench >/dev/null || { echo "bench/record.sh: needs hackbench (rt-tests)"; exit 1; }
mkdir -p "$OUT" || exit 1
NCPU=$(nproc)
RARGS=
TRACEFS=/sys/kernel/tracing

lock() { [ -n "${BENCH_LOCK:-}" ] && { exec 9>"$BENCH_LOCK"; flock 9; }; return 0; }
unlock() { [ -n "${BENCH_LOCK:-}" ] && flock -u 9; return 0; }
LOAD=${BENCH_LOAD:-hackbench -g 2 -p -l 1000000000}
# shellcheck disable=SC2086
load_start() { setsid sh -c "exec $LOAD" >/dev/null 2>&1 & load=$!; sleep 0.5; }
load_stop() { [ -n "${load:-}" ] && { kill -TERM -- -"$load" 2>/dev/null; wait "$load" 2>/dev/null; }; load=; }
trap 'load_stop' EXIT

# ctxsw PID [COMMPREFIX]: "tid switches cpu_ns" for each thread of the process
# (whose name starts with COMMPREFIX); switches = voluntary + involuntary,
# cpu_ns = time on a CPU (schedstat).
ctxsw() {
	local t c
	for t in /proc/"$1"/task/*; do
		c=$(cat "$t/comm" 2>/dev/null) || continue
		[ -n "${2:-}" ] && [[ $c != "$2"* ]] && continue
		awk -v tid="${t##*/}" -v ns="$(cut -d' ' -f1 "$t/schedstat" 2>/dev/null)" \
			'/^voluntary_ctxt_switches/ {v=$2} /^nonvoluntary_ctxt_switches/ {nv=$2}
			END {if (NR) print tid, v + nv, ns + 0}' "$t/status" 2>/dev/null
	done
}

# rate BEFORE AFTER SECONDS: switches/s of the threads present in both lists,
# their count, and their CPU in us per switch.
rate() {
	awk -v d="$3" 'NR == FNR {b[$1] = $2; c[$1] = $3; next} ($1 in b) {s += $2 - b[$1]; ns += $3 - c[$1]; n++}
		END {printf "%.0f %d %.1f\n", (d > 0 ? s / d : 0), n, (s > 0 ? ns / s / 1000 : 0)}' <(echo "$1") <(echo "$2")
}

# run_one LABEL LOAD(0|1) ARGS...: one capture; sets ev lost cpu dur top rd_w all_w nthr nrd
run_one() {
	local label=$1 withload=$2; shift 2
	lock
	[ "$withload" = 1 ] && load_start
	local t0 t1 pid rc
	TIMEFORMAT='%U %S'
	# shellcheck disable=SC2086
	{ time "$FTS" record --record_time "$SECS" --output "$OUT/bench-$label.dat" -q $RARGS "$@" \
		2>"$OUT/bench-$label.log" ; } 2>"$OUT/bench-$label.time" &
	local tp=$! start
	start=$(date +%s.%N)
	sleep 1
	# the oldest match is ftscope itself (anything it starts inherits its command line)
	pid=$(pgrep -o -f -- "--output $OUT/bench-$label.dat" || true)
	# under load the buffers' allocation can take more than a second: wait for a reader
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ -n "$(ctxsw "$pid" fts-read)" ] && break
		sleep 0.2
	done
	local b_all b_rd
	b_all=$(ctxsw "$pid"); b_rd=$(ctxsw "$pid" fts-read)
	t0=$(date +%s.%N)
	nthr=$(ls /proc/"$pid"/task 2>/dev/null | wc -l)
	sleep "$(awk -v s="$start" -v n="$(date +%s.%N)" -v d="$SECS" 'BEGIN { w = s + d - 3 - n; print (w > 0.5 ? w : 0.5) }')"
	local e_all e_rd
	e_all=$(ctxsw "$pid"); e_rd=$(ctxsw "$pid" fts-read)
	t1=$(date +%s.%N)
	wait "$tp"; rc=$?
	load_stop
	unlock
	read -r user sys <"$OUT/bench-$label.time"
	ev=$(awk '$1 ~ /^cpu[0-9]/ && $3 == "events" {s += $2} END {print s + 0}' "$OUT/bench-$label.log")
	lost=$(awk '$1 ~ /^cpu[0-9]/ && $5 == "lost" {s += $4} END {print s + 0}' "$OUT/bench-$label.log")
	dur=$(sed -n 's/^recorded \([0-9.]*\) s.*/\1/p' "$OUT/bench-$label.log")
	top=$(sed -n 's/^live top: decoded [0-9]* events with \([0-9.]*\) s of CPU.*/\1/p' "$OUT/bench-$label.log")
	topev=$(sed -n 's/^live top: decoded \([0-9]*\) events with.*/\1/p' "$OUT/bench-$label.log")
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}')
	local dt; dt=$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')
	read -r rd_w nrd rd_us <<<"$(rate "$b_rd" "$e_rd" "$dt")"
	read -r all_w _ <<<"$(rate "$b_all" "$e_all" "$dt")"
	[ "$rc" = 0 ] || echo "  ($label: ftscope record exited $rc, see $OUT/bench-$label.log)"
	rm -f "$OUT/bench-$label.dat"
}

[ -n "${BENCH_SIZES+x}" ] && [ -z "$BENCH_SIZES" ] || printf '%-8s %12s %12s %10s %14s %10s %14s\n' bf_size_KB events events/s lost cpu_s/Mev file_MiB top_cpu_s/Mev
for bf in ${BENCH_SIZES-256 4096 40960}; do
	lock
	load_start
	TIMEFORMAT='%U %S'
	# shellcheck disable=SC2086
	t=$( { time "$FTS" record --record_time "$SECS" --bf_size $bf --output "$OUT/bench-$bf.dat" -q \
		$RARGS $BENCH_ARGS 2>"$OUT/bench-$bf.log" ; } 2>&1 )
	load_stop
	unlock
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

[ "${BENCH_SCALE:-1}" = 1 ] || exit 0
[ "$SECS" -ge 5 ] || { echo "bench/record.sh: the scale figures need >= 5 s"; exit 0; }
echo
echo "scale: $NCPU CPUs, default buffer, load: $LOAD (idle: no load); wakeups are context switches"
printf '%-14s %7s %8s %10s %12s %10s %12s %10s %8s %10s %12s\n' case threads readers rd_wake/s rd_wake/s/cpu rd_us/wake proc_wake/s events lost cpu_s cpu_s/Mev
for c in ${BENCH_CASES:-idle:0: load:1: load_top:1:--live_top}; do
	IFS=: read -r label wl extra <<<"$c"
	# shellcheck disable=SC2086
	run_one "$label" "$wl" $extra
	awk -v l="$label" -v th="$nthr" -v nr="$nrd" -v rw="$rd_w" -v n="$NCPU" -v us="$rd_us" -v aw="$all_w" -v ev="$ev" -v lost="$lost" -v c="$cpu" \
		'BEGIN { printf "%-14s %7d %8d %10d %12.1f %10.1f %12d %10d %8d %10.3f %12s\n", l, th, nr, rw, rw / n, us, aw, ev, lost, c, (ev > 100000 ? sprintf("%.3f", c / (ev / 1e6)) : "-") }'
	[ -n "$top" ] && awk -v t="$top" -v d="${topev:-0}" -v ev="$ev" \
		'BEGIN { printf "  live top thread: %s s of CPU; decoded %d of %d events (%.0f%%), %s s per decoded Mev\n", t, d, ev, ev ? 100 * d / ev : 0, d ? sprintf("%.3f", t / (d / 1e6)) : "-" }'
done

# trace-cmd on the same load, in the same run.
[ "${BENCH_TC:-1}" = 1 ] || exit 0
command -v trace-cmd >/dev/null || { echo "trace-cmd: not installed"; exit 0; }
lock
load_start
tc=$( { TIMEFORMAT='%U %S'; time timeout -s INT "$SECS" trace-cmd record -C mono_raw -b 40960 -e sched -e irq \
	-o "$OUT/tc.dat" >"$OUT/tc.log" 2>&1 ; } 2>&1 )
if grep -q "Can't enable ftrace\|Operation not permitted" "$OUT/tc.log"; then
	inst="$TRACEFS/instances/ftsbench-tc-$$"
	mkdir "$inst"
	echo 40960 >"$inst/buffer_size_kb"; echo mono_raw >"$inst/trace_clock"
	echo 1 >"$inst/events/sched/enable"; echo 1 >"$inst/events/irq/enable"
	echo 1 >"$inst/tracing_on"
	sleep "$SECS"
	echo 0 >"$inst/tracing_on"
	load_stop
	tcev=0; tclost=0
	for s in "$inst"/per_cpu/cpu*/stats; do
		tcev=$((tcev + $(awk '/^entries:/ {print $2}' "$s")))
		tclost=$((tclost + $(awk '/^overrun:/ {o=$2} /^commit overrun:/ {c=$2} /^dropped events:/ {d=$2} END {print o + c + d}' "$s")))
	done
	tc=$( { TIMEFORMAT='%U %S'; time trace-cmd extract -B "ftsbench-tc-$$" -o "$OUT/tc.dat" >"$OUT/tc.log" 2>&1 ; } 2>&1 )
	rmdir "$inst" 2>/dev/null
	how="trace-cmd extract -B (trace-cmd record: Can't enable ftrace on this kernel); events kept = what fit the buffer"
else
	load_stop
	tcev=$(trace-cmd report --stat -i "$OUT/tc.dat" 2>/dev/null | awk '/^entries:/ {s += $2} END {print s + 0}')
	tclost=$(trace-cmd report --stat -i "$OUT/tc.dat" 2>/dev/null | awk '/^overrun:/ {s += $2} END {print s + 0}')
	how="trace-cmd record"
fi
unlock
read -r user sys <<<"$tc"
awk -v ev="$tcev" -v lost="$tclost" -v u="$user" -v s="$sys" -v how="$how" \
	'BEGIN { printf "%-14s %10d events %8d lost %8.3f cpu_s %10s cpu_s/Mev  (%s)\n", "trace-cmd", ev, lost, u + s, ev ? sprintf("%.3f", (u + s) / (ev / 1e6)) : "-", how }'
rm -f "$OUT/tc.dat"
