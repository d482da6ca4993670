#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 8: a dropped SSH session (SIGHUP) or SIGTERM while the session
# records leaves a complete, valid capture, the tracing state restored, our
# instance removed and the terminal restored; the process dies of the signal.
source "$(dirname "$0")/lib_session.sh" "$@"
need_root_tracefs
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed (needed to check trace.dat files)"
before=$(state)

for sig in HUP TERM; do
	rm -f cap.dat exit.status
	start 100 30 "$FTS record --tui --record_time 0 --cpu 0 -o cap.dat"
	wait_for "ftscope . setup"
	wait_for "until stopped"
	keys r
	wait_for "REC .* \\(until stopped\\)" 5
	sleep 2
	pid=$(app_pid)
	[ -n "$pid" ] && [ -d $T/instances/ftscope-$pid ] || fail "no instance while recording"
	kill -$sig "$pid"
	st=$(wait_exit 30)
	want=$((128 + $(kill -l $sig)))
	[ "$st" = "EXIT=$want" ] || fail "SIG$sig: $st, want EXIT=$want (died of the signal)"
	terminal_restored
	[ -d $T/instances/ftscope-$pid ] && fail "SIG$sig: instance ftscope-$pid left behind"
	[ "$before" = "$(state)" ] || { diff <(echo "$before") <(state); fail "SIG$sig: tracing state changed"; }
	n=$(trace-cmd report -i cap.dat 2>/dev/null | grep -c sched_switch)
	[ "$n" -gt 0 ] || fail "SIG$sig: cap.dat holds no sched_switch (trace-cmd report)"
	"$FTS" convert -q -i cap.dat -o ftrace_data.db || fail "SIG$sig: cap.dat does not convert"
	ls -A | grep -q '^\.' && fail "SIG$sig: temporary files left: $(ls -A | grep '^\.')"
	ok "SIG$sig while recording: valid cap.dat ($n sched_switch), state and terminal restored, $st"
done
echo "PASS"
