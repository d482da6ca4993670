#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 10 class 10: under heavy load `--record_time 3` stops at ~3 s (the
# recorder ends the capture on its own thread, at the readers' priority);
# the status block is printed also when stderr is not a terminal; loss is
# reported live within one status period.
source "$(dirname "$0")/lib.sh" "$@"
ncpu=$(nproc)
heavy() { # heavy SECONDS: several hackbench groups per CPU
	for i in $(seq $((ncpu * 2))); do load "$1"; done
}
# What this machine can do under that load: if a plain 3 s sleep already
# stretches (a VM whose host starves it, seen here: base and main alike then
# "recorded" 5-12 s), the recorder's timing cannot be judged here.
calibrate() {
	local cal
	cal=$(date +%s%N); sleep 3; cal=$(( ($(date +%s%N) - cal) / 1000000 ))
	echo "under load: a 3 s sleep took $cal ms"
	[ $cal -le 3300 ] || skip "this machine is too starved under load to judge a 3 s deadline (a 3 s sleep took $cal ms)"
}
stop_load() {
	for p in $LOAD_PIDS; do kill -TERM -- -"$p" 2>/dev/null; done
	LOAD_PIDS=""
}
# One try: 0 when the capture stopped at ~3 s and the command was not slow.
try_deadline() {
	local start ms
	heavy 25
	sleep 0.5
	calibrate
	start=$(date +%s%N)
	"$FTS" record --record_time 3 --bf_size 4096 --output l.dat -q 2>log || { cat log; fail "record under load failed"; }
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	dur=$(sed -n 's/^recorded \([0-9.]*\) s.*/\1/p' log)
	echo "under load: recorded ${dur} s, the command took $ms ms"
	stop_load
	awk -v d="$dur" 'BEGIN { exit !(d >= 2.9 && d <= 3.3) }' || { why="--record_time 3 recorded $dur s"; return 1; }
	# Wall time includes start-up and assembly (slow in sanitizer builds); the
	# capture itself is what must not stretch (checked above and below).
	[ $ms -lt 15000 ] || { why="--record_time 3 took $ms ms under load"; return 1; }
}
# This shared 2-CPU VM sometimes stalls for seconds under hackbench (base
# bb0b66a alike): three tries, each with a fresh load and calibration.
ok=0
for t in 1 2 3; do
	if try_deadline; then ok=1; break; fi
	echo "try $t: $why"
done
[ $ok = 1 ] || fail "$why (3 tries)"
first=$(trace-cmd report -i l.dat 2>/dev/null | grep -m1 -o ' [0-9]*\.[0-9]*: ' | tr -d ' :')
last=$(trace-cmd report -i l.dat 2>/dev/null | tail -1 | grep -o ' [0-9]*\.[0-9]*: ' | tr -d ' :')
awk -v a="$first" -v b="$last" 'BEGIN { exit !(b - a <= 3.3) }' || fail "the events span $first..$last (more than 3 s)"
echo "ok: --record_time 3 under load stops at ${dur} s (events span $first..$last)"

# Not a terminal: a status block at the start and every 5 s (0, 5, 10).
"$FTS" record --record_time 11 --bf_size 4096 --output s.dat 2>log </dev/null || { cat log; fail "record failed"; }
n=$(grep -c ' events .* written  lost ' log)
[ "$n" -ge 3 ] || { cat log; fail "only $n status blocks in 11 s with stderr not a terminal"; }
echo "ok: $n status blocks in 11 s with stderr to a file"

# Loss, under the same load (started again: the first may have run out on a
# slow machine), is reported within a status period of when it starts.
heavy 10
sleep 0.5
stamp() { while IFS= read -r l; do echo "$(date +%s%N) $l"; done; }
start=$(date +%s%N)
FTSCOPE_TEST_READER_DELAY_MS=300 "$FTS" record --record_time 4 --bf_size 16 --output slow.dat -q 2> >(stamp > slowlog)
sleep 0.5
first_loss=$(grep -m1 'ftscope record: lost [0-9]* events' slowlog | cut -d' ' -f1)
[ -n "$first_loss" ] || { cat slowlog; fail "no live loss report under load"; }
# From the capture's start (its "recording ..." line): starting up a process
# on a starved 2-CPU machine can itself take seconds, and is not the question.
began=$(grep -m1 ' recording [0-9]* CPU' slowlog | cut -d' ' -f1)
[ -n "$began" ] || began=$start
ms=$(( (first_loss - began) / 1000000 ))
[ $ms -lt 2500 ] || fail "first loss reported $ms ms after the capture started ($(( (began - start) / 1000000 )) ms to start)"
echo "ok: loss reported live $ms ms after the capture started ($(( (began - start) / 1000000 )) ms to start)"
