#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/tui_record.sh - what the interactive session costs while it records.
#
#   bench/tui_record.sh [ftscope-binary] [seconds] [outdir]
#
# Under `hackbench -g 4` (the load of bench/record.sh; LOAD_CMD overrides), all CPUs, the default
# 40960 KB buffer:
#   1. `ftscope record` (CLI) for reference: events/s, lost, CPU s per million
#      events (whole process, assembly at stop included);
#   2. `ftscope record --tui` driven in tmux (120x40), with the live top on
#      (the session's default: the recorder decodes the streamed pages) and off
#      (the setup's Live top field): the recorder's threads' CPU per million events
#      while recording, the UI thread's CPU (health sampled and the screen
#      redrawn 4 times a second) as % of one core, and the events and losses
#      the session reports when it saves.
# Per-thread CPU comes from /proc/PID/task/TID/schedstat (ns on CPU), sampled
# every 0.2 s; the last sample taken while the screen still showed the live
# table is used.
# Prints figures; not a pass/fail test. Needs root, tmux and hackbench.
FTS=$(readlink -f "${1:-$(dirname "$0")/../build/ftscope}")
SECS=${2:-10}
OUT=${3:-/tmp/ftscope-bench-tui}
[ "$(id -u)" = 0 ] || { echo "bench/tui_record.sh: needs root"; exit 1; }
for c in tmux hackbench; do command -v $c >/dev/null || { echo "bench/tui_record.sh: needs $c"; exit 1; }; done
rm -rf "$OUT" && mkdir -p "$OUT" && cd "$OUT" || exit 1
HZ=1000000000 # schedstat counts ns
SOCK=fts-bench-$$
# LOAD="stress-ng --switch 4" (or any command) replaces the default load
load_start() { setsid ${LOAD_CMD:-hackbench -g 4 -l 1000000000} >/dev/null 2>&1 & LOAD=$!; sleep 0.5; }
load_stop() { kill -TERM -- -"$LOAD" 2>/dev/null; wait "$LOAD" 2>/dev/null; }
trap 'load_stop; tmux -L $SOCK kill-server 2>/dev/null' EXIT

# --- 1. the CLI, same load, without and with --live_top ---
for extra in "" --live_top; do
	load_start
	TIMEFORMAT='%U %S'
	t=$( { time "$FTS" record --record_time "$SECS" --output cli.dat $extra -q 2>cli.log; } 2>&1 )
	load_stop
	read -r u s <<<"$t"
	cli_ev=$(awk '$1 ~ /^cpu[0-9]/ && $3 == "events" {n += $2} END {print n + 0}' cli.log)
	cli_lost=$(awk '$1 ~ /^cpu[0-9]/ && $5 == "lost" {n += $4} END {print n + 0}' cli.log)
	awk -v ev="$cli_ev" -v lost="$cli_lost" -v u="$u" -v s="$s" -v d="$SECS" -v x="${extra:-(no live top)}" 'BEGIN {
		printf "CLI  record %s: %d events (%.0f/s), lost %d, %.3f CPU s per million events (process, incl. assembly)\n",
		       x, ev, ev / d, lost, ev ? (u + s) / (ev / 1e6) : 0 }'
	rm -f cli.dat
done

# --- 2. the session, with the live top (default) and without (t) ---
screen() { tmux -L $SOCK capture-pane -p -t 0; }
ticks() { awk '{ print $1 }' "$1" 2>/dev/null; } # ns on CPU of one thread (schedstat)
run_tui() { # run_tui on|off
	rm -f tui.dat
	tmux -L $SOCK kill-server 2>/dev/null; sleep 0.3
	tmux -L $SOCK new-session -d -x 120 -y 40 -c "$OUT" "$FTS record --tui --record_time $SECS -o tui.dat; sleep 600"
	for _ in $(seq 50); do screen | grep -q "ftscope . setup" && break; sleep 0.1; done
	pid=$(pgrep -P "$(tmux -L $SOCK list-panes -t 0 -F '#{pane_pid}')" -x ftscope)
	if [ "$1" = off ]; then # the setup's Live top field (9th) off
		tmux -L $SOCK send-keys -t 0 j j j j j j j j Space
		for _ in $(seq 30); do screen | grep -q "Live top  off" && break; sleep 0.1; done
	fi
	load_start
	tmux -L $SOCK send-keys -t 0 r
	for _ in $(seq 50); do screen | grep -q "REC" && break; sleep 0.1; done
	ui0=$(ticks /proc/$pid/task/$pid/schedstat); t0=$(date +%s.%N)
	ui1=$ui0; rec1=0; t1=$t0; el=$SECS
	while screen | grep -q "REC .* left"; do
		u=$(ticks /proc/$pid/task/$pid/schedstat)
		r=0
		for f in /proc/$pid/task/*/schedstat; do
			[ "$f" = /proc/$pid/task/$pid/schedstat ] && continue
			r=$((r + $(ticks "$f" || echo 0)))
		done
		# only while the table is still live (not yet stopping)
		screen | grep -q "REC .* left" || break
		ui1=$u; rec1=$r; t1=$(date +%s.%N); el=$(screen | sed -n 's|.*REC \([0-9.]*\) s / .*|\1|p')
		sleep 0.2
	done
	for _ in $(seq 300); do screen | grep -q "ftscope preview" && break; sleep 0.1; done
	load_stop
	tmux -L $SOCK send-keys -t 0 q
	for _ in $(seq 50); do screen | grep -q "saved tui.dat" && break; sleep 0.1; done
	saved=$(screen | grep "saved tui.dat" | sed 's/^ *//')
	ev=$(echo "$saved" | sed -n 's/.*s, \([0-9.]*[kMG]*\) events.*/\1/p' | awk '{ v = $1; m = 1; if (v ~ /k$/) m = 1e3; if (v ~ /M$/) m = 1e6; if (v ~ /G$/) m = 1e9; sub(/[kMG]$/, "", v); print v * m }')
	lost=$(echo "$saved" | sed -n 's/.* \([0-9]*\) lost.*/\1/p')
	threads=$(ls -d /proc/[0-9]*/task/[0-9]* 2>/dev/null | wc -l)
	echo "TUI  (live top $1) $saved"
	awk -v ui0="$ui0" -v ui1="$ui1" -v rec="$rec1" -v t0="$t0" -v t1="$t1" -v hz="$HZ" -v ev="$ev" -v el="${el:-$SECS}" -v d="$SECS" -v top="$1" -v th="$threads" 'BEGIN {
		wall = t1 - t0; ev_at = ev * el / d
		printf "TUI  (live top %s) recorder threads: %.2f CPU s over %.1f s = %.3f CPU s per million events (%.0f events/s)\n",
		       top, rec / hz, el, ev_at ? (rec / hz) / (ev_at / 1e6) : 0, ev / d
		printf "TUI  (live top %s) UI thread: %.3f CPU s over %.1f s = %.2f%% of one core (%d threads on the host)\n",
		       top, (ui1 - ui0) / hz, wall, wall ? 100 * (ui1 - ui0) / hz / wall : 0, th }'
	echo "TUI  (live top $1) lost events at the default buffer (40960 KB): ${lost:-?}"
	rm -f tui.dat
}
run_tui on
run_tui off
