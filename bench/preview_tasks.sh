#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# preview_tasks.sh - `ftscope preview` on captures with very many tasks (issue 21 item 14).
#
# What: for each N (default 100000 300000 1000000) writes a kernel-text trace in
#   the bundled capture's line format where N distinct tasks each run once on
#   CPU 0 or 1 (one sched_switch in, one out: 2 N switches, N task lanes), then
#   renders one screen with `ftscope preview FILE --print 160x48 --timing`
#   (load, index, first frame). Prints N, wall and CPU seconds, wall seconds
#   per 100k tasks, peak RSS, RSS bytes per task, bytes per task over a
#   1 k-task run of the same kind (the issue's "a few hundred bytes per
#   task"), and the store's own count. Figures only, not pass/fail. (Before issue 21:
#   1.1 / 4.0 / 22.3 s and 3.5 GB at 1 M, superlinear past 300 k.) Item 14's
#   store work, old and new binaries side by side on 2 shared, busy cores
#   (CPU s for 100 k / 300 k / 1 M; peak MB; store after indexing):
#     before: 1.24 / 4.24 / 14.8 s, 166 / 523 / 1580 MB, 858 MiB (150 B/item)
#     after:  0.72 / 2.98 / 10.4 s, 103 / 310 /  941 MB, 262 MiB (46 B/item)
#     FORMAT=db 1 M: 19.7 -> 12.5 s, 1483 -> 798 MB
#   At 1 M the store is 275 B/task (lane 72 B; 3 task items in a 64 B slab
#   block; 3 CPU-lane items, 75 B; strings ~55 B); the rest of the peak,
#   ~650 B/task, is the sched model and the statistics behind the summary
#   (src/core/model). Issue 20/21 item 14, statistics rows made on demand
#   (a page at a time) instead of all 1 M at finish, old and new binaries
#   back to back: 1 M tasks 702 -> 621 MB peak (736 -> 651 B/task), CPU
#   10.8 -> 10.2 s (load average ~40 on 2 cores: wall time is noise).
#   Branch taskmem: the summary's statistics made from the store when the
#   table is opened (fts_store_stats), no collector fed during the load; the
#   model's pid hash and lane keys in 4-byte-slot task indexes. 1 M tasks,
#   old and new binaries back to back (CPU s; peak MB; B/task over 1 k):
#     text:                 8.4 -> 7.4 s, 621 -> 414 MB, 647 -> 430 B/task
#     db:                  10.5 -> 8.6 s, 533 -> 411 MB, 552 -> 424 B/task
#     text, KEYS=s:         8.5 -> 9.0 s, 621 -> 484 MB, 647 -> 503 B/task
#   (`s` costs ~1.6 s CPU at 1 M tasks: one pass over the store's 6 M items;
#   the statistics then sit beside the store, which is that case's peak.)
#   What is left at the load's end (the peak), per task: the sched model
#   ~135 B (task record 64, comms 24, lane entries 22 + comm ids 4, the two
#   task indexes 16) and the store ~290 B (lanes 72, strings 64, small
#   lanes' slab 73, CPU lanes' columns ~75, producer map 4).
# How: bench/preview_tasks.sh [N...]   env: FTSCOPE (default build/ftscope), KEEP=1,
#      FORMAT=db (convert first and preview the DB instead of the text),
#      KEYS=s (open the per-task summary before the frame: its statistics are made then)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
FTSCOPE=${FTSCOPE:-$REPO/build/ftscope}
DIR=$(mktemp -d /tmp/ftscope-ptasks.XXXXXX)
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$DIR"' EXIT
[ $# -gt 0 ] || set -- 100000 300000 1000000
printf '%-8s %9s %8s %11s %12s %13s %13s  %s\n' tasks seconds cpu_s s_per_100k peakRSS_MB RSS_B_per_task B_over_1k store
base_kb=
for n in 1000 "$@"; do
	awk -v n="$n" 'BEGIN {
		print "# tracer: nop"
		t = 1000000   # us
		for (i = 0; i < n; i++) {
			pid = 1000 + i; c = i % 2
			printf "          <idle>-0       [%03d] d..2.  %6d.%06d: sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=t%d next_pid=%d next_prio=120\n", c, t / 1000000, t % 1000000, c, i, pid; t++
			printf "             t%d-%d    [%03d] d..2.  %6d.%06d: sched_switch: prev_comm=t%d prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=swapper/%d next_pid=0 next_prio=120\n", i, pid, c, t / 1000000, t % 1000000, i, pid, c; t++
		}
	}' > "$DIR/t.txt"
	in=$DIR/t.txt
	if [ "${FORMAT:-text}" = db ]; then
		"$FTSCOPE" convert -q --input "$in" --output "$DIR/ftrace_data.db"
		in=$DIR/ftrace_data.db
	fi
	/usr/bin/time -f '%e %M %U %S' -o "$DIR/time" "$FTSCOPE" preview "$in" --print 160x48 --timing \
		${KEYS:+--keys "$KEYS"} > /dev/null 2> "$DIR/err"
	read -r sec rss usr sys < "$DIR/time"
	# the 1 k-task run is the baseline (binary, libraries, one screen), not a figure
	[ -n "$base_kb" ] || { base_kb=$rss; continue; }
	store=$(sed -n 's/^loaded *[0-9]* items in [0-9.]* s, store \([^,]*\),.*/\1/p' "$DIR/err")
	awk -v n="$n" -v s="$sec" -v r="$rss" -v c="$usr" -v k="$sys" -v st="$store" -v b="$base_kb" 'BEGIN {
		printf "%-8d %9.2f %8.2f %11.2f %12.0f %13.0f %13.0f  %s\n", n, s, c + k, s * 100000 / n, r / 1024, r * 1024 / n,
			(r - b) * 1024 / (n - 1000), st }'
	rm -f "$DIR"/t.txt "$DIR"/ftrace_data.db
done
