#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 10, classes 8 and 9, from the bundled real capture:
# - two captures joined, or a reordered file: time goes backwards on a CPU;
#   convert refuses with one line naming the CPU and the times, exit 1,
#   nothing written (it used to write a DB that failed the contract checker)
# - crafted numbers (a pid wider than int32, a time stamp of 10^14 s, a
#   clock marker that would wrap) are refused or ignored, never wrapped; the
#   summary's counts equal what the DB holds and the DB passes the checker
source "$(dirname "$0")/lib.sh"
S=$SRC/assets/sample/sample.txt
O=$WORK/out
mkdir -p "$O"
no_output() {
	if [ -n "$(ls -A "$O")" ]; then bad "$1: left files behind: $(ls -A "$O")"; rm -rf "${O:?}"/* "$O"/.[!.]*; else pass "$1: nothing left behind"; fi
}

cat "$S" "$S" > "$WORK/joined.txt"
expect_fail "two captures joined" "time goes backwards on CPU [0-9]+ \(" "$FTSCOPE" convert --input "$WORK/joined.txt" --output "$O/ftrace_data.db"
no_output joined
{ grep '^#' "$S"; grep -v '^#' "$S" | tac; } > "$WORK/reversed.txt"
expect_fail "reversed capture" "time goes backwards on CPU" "$FTSCOPE" convert --input "$WORK/reversed.txt" --output "$O/ftrace_data.db"
no_output reversed
expect_fail "two captures joined, as JSON" "time goes backwards" "$FTSCOPE" convert --format json --input "$WORK/joined.txt" --output "$O/trace.json"
no_output joined_json

# summary_matches OUT DB: the summary's lane and item counts are the DB's
summary_matches() {
	local items lanes slices threads
	items=$(grep -Eo '[0-9]+ items' "$1" | awk '{s += $1} END {print s}')
	lanes=$(grep -Eo '[0-9]+ lanes' "$1" | awk '{s += $1} END {print s}')
	slices=$(sqlite3 "$2" "SELECT count(*) FROM slice")
	threads=$(sqlite3 "$2" "SELECT count(*) FROM thread")
	[ "$items" = "$slices" ] && [ "$lanes" = "$threads" ] && [ "$slices" -gt 0 ]
}

crafted() { # DESC SED-EXPR: convert a modified copy; summary = DB; DB passes the checker
	local desc=$1
	sed -E "$2" "$S" > "$WORK/crafted.txt"
	if ! "$FTSCOPE" convert --input "$WORK/crafted.txt" --output "$O/ftrace_data.db" > "$WORK/sum.out" 2>&1; then
		bad "$desc: convert failed"; cat "$WORK/sum.out"; return
	fi
	summary_matches "$WORK/sum.out" "$O/ftrace_data.db" && pass "$desc: summary = DB" ||
		{ bad "$desc: the summary disagrees with the DB"; cat "$WORK/sum.out"; }
	$CHECK "$O/ftrace_data.db" > "$WORK/check.out" 2>&1 && pass "$desc: contract checker" ||
		{ bad "$desc: contract checker"; tail -5 "$WORK/check.out"; }
	rm -f "$O"/*
}
crafted "pid wider than int32" '0,/sched_switch/s/(sched_switch: prev_comm=[^ ]* prev_pid=)[0-9]+/\14294967297/'
crafted "pid of 30 digits" '0,/sched_waking/s/(sched_waking: comm=[^ ]* pid=)[0-9]+/\1999999999999999999999999999999/'
crafted "time stamp of 10^14 s" '0,/sched_switch/s/ [0-9]+\.([0-9]{6}): sched_switch/ 99999999999999.\1: sched_switch/'
# a marker that would move every time before 1970 or wrap: ignored, raw times kept
awk '!done && /sched_switch/ { print; sub(/: sched_switch.*/, ": tracing_mark_write: ftscope_clock realtime_ns=5 mono_raw_ns=9000000000000000000"); done = 1 } { print }' "$S" > "$WORK/marker.txt"
grep -q "ftscope_clock realtime_ns=5 " "$WORK/marker.txt" || bad "the crafted marker was not inserted"
if "$FTSCOPE" convert --input "$WORK/marker.txt" --output "$O/ftrace_data.db" > "$WORK/sum.out" 2>&1 &&
	grep -q "no recorder clock pair" "$WORK/sum.out" && summary_matches "$WORK/sum.out" "$O/ftrace_data.db"; then
	pass "implausible clock marker ignored, summary = DB"
else
	bad "implausible clock marker"; cat "$WORK/sum.out"
fi
finish
