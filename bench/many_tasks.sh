#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# many_tasks.sh - time `ftscope convert` on traces with many distinct live tasks.
#
# What: for each N (default 100000 200000 400000) writes a kernel-text trace in
#   the bundled capture's exact line format (assets/sample/sample.txt) where N
#   distinct pids are woken (sched_waking + sched_wakeup) and every 8th one runs
#   on CPU 0/1 for 1 us; none exits, so all N stay in the sched model's task
#   table. Prints N, lines, wall seconds, seconds per 100k tasks, peak RSS.
#   Figures only, not pass/fail. (Issue 10 class 11: a fixed 4096-bucket table
#   took 33 s for 400k tasks and grew faster than linearly.)
# How: bench/many_tasks.sh [N...]     env: FTSCOPE (default build/ftscope), KEEP=1
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
FTSCOPE=${FTSCOPE:-$REPO/build/ftscope}
DIR=$(mktemp -d /tmp/ftscope-tasks.XXXXXX)
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$DIR"' EXIT
[ $# -gt 0 ] || set -- 100000 200000 400000
printf '%-8s %10s %9s %14s %11s\n' tasks lines seconds s_per_100k peakRSS_KB
for n in "$@"; do
	awk -v n="$n" 'BEGIN {
		print "# tracer: nop"
		t = 1000000   # us
		for (i = 0; i < n; i++) {
			pid = 100 + i; c = i % 2
			printf "          <idle>-0       [%03d] d.h5.  %6d.%06d: sched_waking: comm=w%d pid=%d prio=120 target_cpu=%03d\n", c, t / 1000000, t % 1000000, i, pid, c; t++
			printf "          <idle>-0       [%03d] d.h4.  %6d.%06d: sched_wakeup: comm=w%d pid=%d prio=120 target_cpu=%03d\n", c, t / 1000000, t % 1000000, i, pid, c; t++
			if (i % 8 == 0) {
				printf "          <idle>-0       [%03d] d..2.  %6d.%06d: sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=w%d next_pid=%d next_prio=120\n", c, t / 1000000, t % 1000000, c, i, pid; t++
				printf "             w%d-%d    [%03d] d..2.  %6d.%06d: sched_switch: prev_comm=w%d prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=swapper/%d next_pid=0 next_prio=120\n", i, pid, c, t / 1000000, t % 1000000, i, pid, c; t++
			}
		}
	}' > "$DIR/t$n.txt"
	lines=$(wc -l < "$DIR/t$n.txt")
	/usr/bin/time -f '%e %M' -o "$DIR/time" "$FTSCOPE" convert -q --input "$DIR/t$n.txt" --output "$DIR/ftrace_data.db"
	read -r sec rss < "$DIR/time"
	awk -v n="$n" -v l="$lines" -v s="$sec" -v r="$rss" 'BEGIN { printf "%-8d %10d %9.2f %14.2f %11d\n", n, l, s, s * 100000 / n, r }'
	rm -f "$DIR/ftrace_data.db"
done
