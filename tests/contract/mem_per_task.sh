#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Memory per task (issue 21 item 14): many tasks that each run once cost
# `stats`, the JSON export and the preview a few hundred bytes each. Peak RSS of two runs,
# 20k and 100k tasks (bench/one_switch.sh's trace), the difference over the
# 80k tasks added. The bounds sit above today's figures (stats ~445, json
# ~190) and below those before the slabs and string ids (stats ~740, json
# ~295). Memory, not time: the load on the machine does not move it; a
# sanitizer's does, so CMake leaves the test out of those builds.
source "$(dirname "$0")/lib.sh"

gen() { # N FILE: N pids, each woken, switched in and out once
	awk -v n="$1" 'BEGIN {
		print "# tracer: nop"
		t = 1000000
		for (i = 0; i < n; i++) {
			pid = 100 + i; c = i % 2
			printf "          <idle>-0       [%03d] d.h4.  %6d.%06d: sched_wakeup: comm=w%d pid=%d prio=120 target_cpu=%03d\n", c, t / 1000000, t % 1000000, i, pid, c; t++
			printf "          <idle>-0       [%03d] d..2.  %6d.%06d: sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=w%d next_pid=%d next_prio=120\n", c, t / 1000000, t % 1000000, c, i, pid; t++
			printf "             w%d-%d    [%03d] d..2.  %6d.%06d: sched_switch: prev_comm=w%d prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=swapper/%d next_pid=0 next_prio=120\n", i, pid, c, t / 1000000, t % 1000000, i, pid, c; t++
		}
	}' > "$2"
}

# peak RSS (KB) of one run: wait4's rusage is that child's alone
rss() {
	python3 -c 'import os, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, ru = os.wait4(p.pid, 0)
sys.exit(1) if status else print(ru.ru_maxrss)' "$@"
}

per_task() { # NAME LIMIT CMD... (with @IN@ and @OUT@ for the input and output)
	local name=$1 limit=$2 a b n1=20000 n2=100000; shift 2
	a=$(rss "${@//@IN@/$WORK/t$n1.txt}") && b=$(rss "${@//@IN@/$WORK/t$n2.txt}") ||
		{ bad "$name: a run failed"; return; }
	local per=$(( (b - a) * 1024 / (n2 - n1) ))
	if [ "$per" -gt 0 ] && [ "$per" -le "$limit" ]; then
		pass "$name: $per bytes/task (<= $limit)"
	else
		bad "$name: $per bytes/task (peak RSS $a KB at $n1 tasks, $b KB at $n2; bound $limit)"
	fi
}

gen 20000 "$WORK/t20000.txt"
gen 100000 "$WORK/t100000.txt"
per_task stats 600 "$FTSCOPE" stats @IN@ --top 5
per_task json 250 "$FTSCOPE" convert -q -i @IN@ -o "$WORK/ftrace_data.json"
# The preview: one screen, then with the per-task summary opened (its
# statistics made from the store then, none fed while loading): ~445 and
# ~520 B/task now, 675 for both when a collector was fed during the load.
per_task preview 520 "$FTSCOPE" preview @IN@ --print 80x24
per_task preview-summary 580 "$FTSCOPE" preview @IN@ --print 80x24 --keys s
rm -f "$WORK"/t*.txt "$WORK/ftrace_data.json"
finish
