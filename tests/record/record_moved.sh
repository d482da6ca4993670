#!/bin/bash
# SPDX-License-Identifier: MIT
# The output's directory removed or renamed while recording (issue 21 item 7),
# under hackbench: a warning within 2 s saying where the capture goes, the
# recording goes on, and at the end the capture (and the pid mapping) is
# saved exactly there, converts, and the exit status is 3 (saved, but not
# where asked). Also a relative output whose working directory is removed.
source "$(dirname "$0")/lib.sh" "$@"
before=$(state)
# Each stderr line with the ms since the epoch in front.
stamp() { while IFS= read -r l; do printf '%s %s\n' "$(date +%s%3N)" "$l"; done; }

# run LABEL ACTION OUTPUT [record flags]: record until SIGINT, ACTION 1 s in,
# stop 3 s later; sets $log, $rc and $gone_ms (when ACTION ran).
run() {
	local label=$1 action=$2 out=$3
	shift 3
	log=$label.log
	"$FTS" record --record_time 0 --cpu 0 --bf_size 2048 --output "$out" "$@" 2> >(stamp > "$log") &
	local pid=$!
	REC_PIDS="$REC_PIDS $pid"
	sleep 1
	gone_ms=$(date +%s%3N)
	eval "$action" || fail "$label: '$action' failed"
	sleep 3
	kill -INT $pid
	wait $pid; rc=$?
	sleep 0.2   # the stamp reader drains
}

# said_within LABEL: the warning came within 2 s of the action; prints the target path.
said_within() {
	local line at
	line=$(grep -m1 'warning: the directory .* while recording; .* goes to ' "$log") ||
		{ cat "$log"; fail "$1: no warning that the directory went"; }
	at=${line%% *}
	[ $((at - gone_ms)) -le 2000 ] || { cat "$log"; fail "$1: warned $((at - gone_ms)) ms after, not within 2 s"; }
	grep -q 'recording goes on' <<<"$line" || fail "$1: the warning does not say recording goes on"
	echo "ok: $1: warned $((at - gone_ms)) ms after" >&2
	sed -n 's/.* goes to \([^;]*\);.*/\1/p' <<<"$line" | head -1
}

load 40

# Removed: saved in a new directory beside the old one, with the pid mapping.
mkdir out
# (retried: a recorder still starting under load may be adding a file as rm empties it)
gone() { for _ in 1 2 3 4 5 6 7 8 9 10; do rm -rf "$1" 2>/dev/null && return 0; sleep 0.1; done; rm -rf "$1"; }
run removed 'gone out' out/trace.dat --NSpid
[ $rc = 3 ] || { cat "$log"; fail "removed: exit $rc, not 3"; }
target=$(said_within removed)
case $target in "$PWD"/ftscope-saved-*/trace.dat) ;; *) fail "removed: saved to '$target', not beside the old directory";; esac
[ -s "$target" ] || { cat "$log"; fail "removed: nothing at $target"; }
grep -q "saved elsewhere than asked: .*$target" "$log" || fail "removed: the end does not say where it went"
grep -q "recorded .* events.*$target" "$log" || fail "removed: the summary names another file"
[ -s "$(dirname "$target")/pid_mapping.json" ] || fail "removed: the pid mapping did not go beside it"
[ -e out ] && fail "removed: the old directory came back"
"$FTS" convert -q -i "$target" -o removed.db || fail "removed: the saved capture does not convert"
n=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from slice").fetchone()[0])' removed.db)
[ "$n" -gt 1000 ] || fail "removed: only $n slices from the saved capture"
echo "ok: removed: saved to $target, converted to $n slices"

# Renamed: saved in the directory under its new name (kernel text this time).
mkdir out2
run renamed 'mv out2 moved2' out2/trace.txt
[ $rc = 3 ] || { cat "$log"; fail "renamed: exit $rc, not 3"; }
target=$(said_within renamed)
[ "$target" = "$PWD/moved2/trace.txt" ] || fail "renamed: saved to '$target', not moved2/trace.txt"
grep -q ' sched_switch: prev_comm=' moved2/trace.txt || fail "renamed: no events in moved2/trace.txt"
[ -e out2 ] && fail "renamed: out2 exists again"
"$FTS" convert -q -i moved2/trace.txt -o renamed.db || fail "renamed: the saved text does not convert"
echo "ok: renamed: saved to $target, converted"

# A relative output in a working directory that is removed.
mkdir -p rel/sub
(cd rel/sub && exec "$FTS" record --record_time 3 --cpu 0 --bf_size 1024 --output trace.dat -q) 2>rel.log &
pid=$!
REC_PIDS="$REC_PIDS $pid"
sleep 1
gone rel/sub
wait $pid; rc=$?
[ $rc = 3 ] || { cat rel.log; fail "relative: exit $rc, not 3"; }
target=$(sed -n 's/.*saved elsewhere than asked: .* goes to \([^;]*\)$/\1/p' rel.log)
case $target in "$PWD"/rel/ftscope-saved-*/trace.dat) ;; *) cat rel.log; fail "relative: saved to '$target'";; esac
[ -s "$target" ] || fail "relative: nothing at $target"
echo "ok: relative: saved to $target"

# Nothing moved: exit 0 and no word about it.
"$FTS" record --record_time 1 --bf_size 1024 --output plain.dat -q 2>log || { cat log; fail "a plain capture failed"; }
grep -q 'elsewhere\|while recording' log && { cat log; fail "a plain capture says it moved"; }
[ "$before" = "$(state)" ] || { diff <(echo "$before") <(state); fail "tracing state changed"; }
