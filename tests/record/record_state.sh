#!/bin/bash
# SPDX-License-Identifier: MIT
# A real capture under load opens in trace-cmd report; text output holds the
# same capture; global tracing state and the instance list are unchanged after
# normal stops and after SIGINT, SIGTERM, SIGHUP (and a double Ctrl+C)
# mid-capture; two captures at once do not disturb each other.
source "$(dirname "$0")/lib.sh" "$@"

before=$(state)
check_state() {
	after=$(state)
	[ "$before" = "$after" ] || { diff <(echo "$before") <(echo "$after"); fail "tracing state changed after $1"; }
}

load 22
"$FTS" record --record_time 2 --bf_size 4096 --output a.dat -q 2>log || { cat log; fail "record failed"; }
check_state "a normal capture"
n=$(dat_events a.dat); [ "$n" -gt 1000 ] || fail "a.dat has only $n events"
trace-cmd report -i a.dat 2>/dev/null | grep -q 'sched_switch:' || fail "no sched_switch in a.dat"
[ "$(trace-cmd report -i a.dat 2>/dev/null | grep -c 'ftscope_clock realtime_ns=')" = 2 ] || fail "clock markers missing"
grep -q 'recorded .* events' log || fail "no summary"
echo "ok: dat with $n events"

"$FTS" record --record_time 2 --bf_size 4096 --output b.txt -q 2>log || { cat log; fail "text record failed"; }
check_state "a text capture"
head -1 b.txt | grep -q '^# ftscope_clock realtime_ns=[0-9]* mono_raw_ns=[0-9]* mono_ns=[0-9]* window_ns=[0-9]*$' || fail "no clock header"
sed -n 2p b.txt | grep -q '^# ftscope_clock_stop realtime_ns=[0-9]* mono_raw_ns=[0-9]* mono_ns=[0-9]* window_ns=[0-9]*$' || fail "no stop clock line"
grep -q ' sched_switch: prev_comm=' b.txt || fail "no kernel-format sched_switch in b.txt"
echo "ok: text with $(grep -c ': ' b.txt) lines"

for sig in INT TERM HUP; do
	"$FTS" record --record_time 0 --bf_size 1024 --output sig$sig.dat -q 2>log &
	pid=$!
	sleep 1.5
	kill -$sig $pid
	wait $pid; rc=$?
	[ $rc = 0 ] || { cat log; fail "SIG$sig: exit $rc"; }
	check_state "SIG$sig"
	n=$(dat_events sig$sig.dat); [ "$n" -gt 100 ] || fail "SIG$sig: only $n events saved"
	echo "ok: SIG$sig saved $n events, state restored"
done

# Second Ctrl+C skips draining and still leaves a valid file and no instance.
"$FTS" record --record_time 0 --output fast.dat -q 2>log &
pid=$!
sleep 1.2
kill -INT $pid; kill -INT $pid
wait $pid || { cat log; fail "double Ctrl+C: exit $?"; }
check_state "double Ctrl+C"
trace-cmd report -i fast.dat >/dev/null 2>&1 || fail "fast.dat does not open"
echo "ok: double Ctrl+C"

# Two recorders at once: each gets its own instance and a full capture.
pair() {
	rc1=0 rc2=0
	"$FTS" record --record_time 2 --cpu 0 --output c1.dat -q 2>log1 &
	p1=$!
	"$FTS" record --record_time 2 --output c2.txt -q 2>log2 &
	p2=$!
	wait $p1 || rc1=1
	wait $p2 || rc2=1
}
pair
[ $rc1 = 0 ] || { cat log1; fail "concurrent capture 1 failed"; }
[ $rc2 = 0 ] || { cat log2; fail "concurrent capture 2 failed"; }
check_state "two concurrent captures"
[ "$(trace-cmd report -i c1.dat 2>/dev/null | grep -c 'ftscope_clock')" = 2 ] || fail "c1 lost its markers"
trace-cmd report -i c1.dat 2>/dev/null | awk '/ \[00[1-9]\] /{bad=1} END{exit bad}' || fail "c1 (--cpu 0) has other CPUs"
[ "$(grep -c 'tracing_mark_write: ftscope_clock' c2.txt)" = 2 ] || fail "c2 lost its markers"
echo "ok: two captures at once"

# Stale-instance liveness: an instance is live while a process holds one of
# its files open (as every recorder does), whatever its name says. A dead
# owner's instance goes; so does one whose pid was reused (named after a live
# pid, held by nobody); one held open stays, even under a name whose pid is
# not visible (another pid namespace), and the sweep does not wait on it.
sh -c 'exit 0' & dead=$!; wait $dead
while kill -0 "$dead" 2>/dev/null; do dead=$((dead + 1)); done
mkdir "$T/instances/ftscope-$dead" || fail "cannot make a stale instance"
mkdir "$T/instances/ftscope-$$" || fail "cannot make a reused-pid instance"
mkdir "$T/instances/ftscope-999999999" || fail "cannot make a live instance"
sleep 60 9<"$T/instances/ftscope-999999999/tracing_on" &
holder=$!
cleanup_held() { kill $holder 2>/dev/null; wait $holder 2>/dev/null; rmdir "$T/instances/ftscope-999999999" 2>/dev/null; }
"$FTS" record --record_time 1 --output d.dat -q 2>log || { cat log; cleanup_held; fail "record with stale instances failed"; }
[ -d "$T/instances/ftscope-$dead" ] && { cleanup_held; rmdir "$T/instances/ftscope-$dead"; fail "stale instance ftscope-$dead kept"; }
[ -d "$T/instances/ftscope-$$" ] && { cleanup_held; rmdir "$T/instances/ftscope-$$"; fail "reused-pid instance ftscope-$$ kept"; }
[ -d "$T/instances/ftscope-999999999" ] || { cleanup_held; fail "a live (held) instance was removed"; }
echo "ok: dead and reused-pid instances removed, held one kept"
if command -v unshare >/dev/null && unshare --pid --fork --mount-proc true 2>/dev/null; then
	start=$(date +%s%N)
	unshare --pid --fork --mount-proc "$FTS" record --record_time 1 --output ns.dat -q 2>log ||
		{ cat log; cleanup_held; fail "record in a pid namespace failed"; }
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	[ -d "$T/instances/ftscope-999999999" ] || { cleanup_held; fail "a recorder in a pid namespace removed a live instance"; }
	[ $ms -lt $((4000 * $(time_scale))) ] || { cleanup_held; fail "a recorder in a pid namespace took $ms ms (retrying a live instance?)"; }
	trace-cmd report -i ns.dat >/dev/null 2>&1 || { cleanup_held; fail "ns.dat does not open"; }
	echo "ok: a recorder in a pid namespace keeps the host's live instance ($ms ms)"
fi
cleanup_held
[ -d "$T/instances/ftscope-999999999" ] && fail "cannot remove the test's own instance"
check_state "stale instance cleanup"
