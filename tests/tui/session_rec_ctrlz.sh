#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 15 in a real terminal as root on real tracefs:
# - record --tui --cpu 0-999 opens a working setup with the CPU list marked
#   wrong; a fixes it, home and back keeps the setup working (defect 2);
# - Ctrl+Z while recording at the default buffer under hackbench asks instead
#   of stopping (the session's choice: a second Ctrl+Z within 5 s suspends):
#   the recorder keeps running, nothing is lost, and the saved screen after s
#   says so with the kernel's counters (Lost none), its own keys, help that
#   returns to it, and Enter opens the preview.
source "$(dirname "$0")/lib_session.sh" "$@"
need_root_tracefs
command -v hackbench >/dev/null || skip "hackbench (rt-tests) is not installed"
before=$(state)

start 120 40 "$FTS record --tui --cpu 0-999 --record_time 0 -o cz.dat"
wait_for "ftscope . setup"
wait_for "CPU list wrong: CPU [0-9]+ is not online"
wait_for "Buffer +40960 KB per CPU"
keys r; wait_for "the CPU list is wrong" 3
screen | grep -q "REC " && fail "recorded with a wrong CPU list"
keys a; wait_for "selected: 0-" 3
ok "a wrong preset CPU list opens a working setup; a fixes it"
keys q; wait_for "ftscope . home" 5
keys r; wait_for "ftscope . setup" 5
wait_for "Buffer +40960 KB per CPU" 3
ok "home and back: the setup still works"

load 40
sleep 0.5
keys r
wait_for "REC .* \\(until stopped\\)" 10
sleep 2
pid=$(app_pid)
[ -n "$pid" ] || fail "no ftscope process"
t0=$(screen | grep -Eo 'REC [0-9.]+ s' | grep -Eo '[0-9.]+')
keys C-z
wait_for "Ctrl\\+Z again within 5 s suspends" 3
sleep 6   # past the 5 s window: this Ctrl+Z is forgotten
[ "$(ps -o stat= -p "$pid" | cut -c1)" != T ] || fail "Ctrl+Z stopped the recording"
t1=$(screen | grep -Eo 'REC [0-9.]+ s' | grep -Eo '[0-9.]+')
python3 -c "import sys; sys.exit(0 if float('$t1') >= float('$t0') + 5 else 1)" ||
	fail "the recording did not go on after Ctrl+Z ($t0 s -> $t1 s)"
screen | grep -Eq "in total; lost none" || fail "events lost after Ctrl+Z at the default buffer"
ok "Ctrl+Z while recording asked and the recording went on ($t0 s -> $t1 s), lost none"
keys s
wait_for "ftscope . saved" 60
kill -TERM -- -"$LOAD" 2>/dev/null; LOAD=
wait_for "^ Lost +none" 3
wait_for "^ Enter preview  b record again  d discard  q home" 3
screen | grep -q "s stop and save" && fail "the saved screen shows the recording's keys"
[ -d $T/instances/ftscope-$pid ] && fail "instance ftscope-$pid still there after the capture was saved"
at80 "saved" "Lost +none"
keys '?'; wait_for "Keys: saved" 3
keys x; wait_for "ftscope . saved" 3
screen | grep -q "Keys: saved" && fail "help did not close back to the saved screen"
ok "help on the saved screen returns to it"
keys Enter
wait_for "ftscope preview +cz.dat" 30
wait_for "CPU Scheduling" 30
keys q; wait_for "ftscope . home" 10
keys q
[ "$(wait_exit)" = EXIT=0 ] || fail "exit status $(cat exit.status), want 0"
terminal_restored
[ "$before" = "$(state)" ] || { diff <(echo "$before") <(state); fail "global tracing state changed"; }
echo "PASS"
