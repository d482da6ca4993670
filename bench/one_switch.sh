#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# one_switch.sh - memory and time per task of `stats` and of the JSON sink
# with many tasks that each run once (issue 21 item 14).
#
# What: for each N (default 100000 300000 1000000) writes a kernel-text trace
#   in the bundled capture's line format where N distinct pids are each woken,
#   switched in and switched out once on CPU 0/1 (N task lanes), then times:
#     stats       ftscope stats FILE --top 5          (the statistics sink)
#     json        ftscope convert FILE -> ftrace_data.json
#     stats-json  ftscope stats ftrace_data.json      (its N lanes read back)
#   and prints N, case, wall seconds, CPU seconds (user + sys: steadier than
#   wall on a shared machine), CPU us per task, peak RSS (KB) and bytes per
#   task above the smallest N's RSS. Figures only, not pass/fail (a failed
#   run exits non-zero).
# How: bench/one_switch.sh [N...]     env: FTSCOPE (default build/ftscope),
#      CASES ("stats json stats-json"), KEEP=1 keeps the inputs
# Figures (2 shared CPUs, loaded: wall time is noise, CPU and RSS are not),
#   bytes/task above 100k, at 300k / 1M tasks, and CPU s at 1M:
#     case        before slabs and ids      now (branch modelmem)
#     stats       813 / 724 B, 7.0 s        449 / 423 B, 5.1 s   (714 -> 417 MB at 1M)
#     json        345 / 304 B, 9.8 s        295 / 202 B, 10.5 s  (304 -> 206 MB)
#     stats-json  584 / 539 B, 14.7 s       442 / 425 B, 14.1 s  (531 -> 420 MB)
#   Where a stats task's ~420 B go at 1M (the peak is stats' finish, the
#   model is freed by then): its record 136, its public row 208 (made at
#   finish), the tid string table ~40, sort keys and scratch 20, lane/order/
#   comm arrays ~20. JSON's ~200: the model's task 72 + lane entry 24 + pid
#   hash ~33 + two string tables ~58, the sink's tid arena and offsets ~26.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
FTSCOPE=${FTSCOPE:-$REPO/build/ftscope}
CASES=${CASES:-"stats json stats-json"}
[ -x "$FTSCOPE" ] || { echo "no ftscope binary at $FTSCOPE (set FTSCOPE or build first)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time missing: apt-get install time" >&2; exit 1; }
DIR=$(mktemp -d /tmp/ftscope-oneswitch.XXXXXX)
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$DIR"' EXIT
[ $# -gt 0 ] || set -- 100000 300000 1000000
echo "ftscope: $FTSCOPE; $(nproc) CPUs, $(date -u +%FT%TZ)"
printf '%-8s %-10s %9s %9s %9s %11s %11s\n' tasks case wall_s cpu_s cpu_us/task peakRSS_KB bytes/task
declare -A base
run() { # n case args...
	local n=$1 c=$2 sec usr sys rss; shift 2
	/usr/bin/time -f '%e %U %S %M' -o "$DIR/time" "$FTSCOPE" "$@" > "$DIR/out" 2> "$DIR/err" ||
		{ echo "$c ($n): failed" >&2; tail -3 "$DIR/err" >&2; exit 1; }
	read -r sec usr sys rss < <(tail -1 "$DIR/time")
	[ -n "${base[$c]:-}" ] || base[$c]="$n $rss"
	awk -v n="$n" -v c="$c" -v s="$sec" -v u="$usr" -v y="$sys" -v r="$rss" -v b="${base[$c]}" 'BEGIN {
		split(b, x, " "); per = "-"
		if (n > x[1]) per = sprintf("%.0f", (r - x[2]) * 1024 / (n - x[1]))
		printf "%-8d %-10s %9.2f %9.2f %11.2f %11d %11s\n", n, c, s, u + y, (u + y) * 1e6 / n, r, per }'
}
for n in "$@"; do
	awk -v n="$n" 'BEGIN {
		print "# tracer: nop"
		t = 1000000   # us
		for (i = 0; i < n; i++) {
			pid = 100 + i; c = i % 2
			printf "          <idle>-0       [%03d] d.h4.  %6d.%06d: sched_wakeup: comm=w%d pid=%d prio=120 target_cpu=%03d\n", c, t / 1000000, t % 1000000, i, pid, c; t++
			printf "          <idle>-0       [%03d] d..2.  %6d.%06d: sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=w%d next_pid=%d next_prio=120\n", c, t / 1000000, t % 1000000, c, i, pid; t++
			printf "             w%d-%d    [%03d] d..2.  %6d.%06d: sched_switch: prev_comm=w%d prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=swapper/%d next_pid=0 next_prio=120\n", i, pid, c, t / 1000000, t % 1000000, i, pid, c; t++
		}
	}' > "$DIR/t.txt"
	for c in $CASES; do
		case $c in
		stats) run "$n" stats stats "$DIR/t.txt" --top 5 ;;
		json) run "$n" json convert -q -i "$DIR/t.txt" -o "$DIR/ftrace_data.json" ;;
		stats-json)
			[ -f "$DIR/ftrace_data.json" ] || "$FTSCOPE" convert -q -i "$DIR/t.txt" -o "$DIR/ftrace_data.json"
			run "$n" stats-json stats "$DIR/ftrace_data.json" --top 5 ;;
		esac
	done
	rm -f "$DIR/ftrace_data.json"
done
