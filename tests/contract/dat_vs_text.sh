#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The trace.dat and the text (tracefs `trace` and `trace-cmd report`) of the
# same capture convert to the same slices, up to the text's microsecond
# rounding: text times are the dat's nanoseconds rounded to microseconds (the kernel prints ns2usecs(ts), which rounds).
source "$(dirname "$0")/lib.sh"

# slices with times rounded to µs as the kernel does (start and end, so durations agree too);
# a task state that rounds to 0 µs is left out: the text lost it (the model writes no
# zero-length state slice), the dat kept its few hundred ns
ROUNDED_AWAY="(t.pid = 'Process Scheduling' AND s.duration > 0 AND (s.timestamp + 500) / 1000 = (s.timestamp + s.duration + 500) / 1000)"
us_slices() {
	sqlite3 -separator '|' "$1" "SELECT t.tid, s.name, (s.timestamp + 500) / 1000, (s.timestamp + s.duration + 500) / 1000 FROM slice s JOIN thread t ON t.track_id = s.track_id WHERE NOT $ROUNDED_AWAY ORDER BY 1, 3, 2, 4"
}

compare() {
	local name=$1 dir=$2 base=$3
	for kind in dat txt report; do
		mkdir -p "$WORK/$name/$kind"
		expect_ok "$name: convert .$kind" "$FTSCOPE" convert -q --input "$dir/$base.$kind" \
			--output "$WORK/$name/$kind/ftrace_data.db"
		us_slices "$WORK/$name/$kind/ftrace_data.db" > "$WORK/$name/$kind.slices"
	done
	n=$(wc -l < "$WORK/$name/dat.slices")
	[ "$n" -gt 100 ] && pass "$name: $n slices" || bad "$name: only $n slices"
	for kind in txt report; do
		if diff -q "$WORK/$name/dat.slices" "$WORK/$name/$kind.slices" > /dev/null; then
			pass "$name: .dat and .$kind give the same slices"
		else
			bad "$name: .dat and .$kind differ"
			diff "$WORK/$name/dat.slices" "$WORK/$name/$kind.slices" | head -20
		fi
	done
	# the args agree too between dat and kernel text (the report's sched_switch
	# plugin prints its own state letters, so it is left out here)
	for kind in dat txt; do
		sqlite3 "$WORK/$name/$kind/ftrace_data.db" "SELECT t.tid, s.name, (s.timestamp + 500) / 1000, s.args FROM slice s JOIN thread t ON t.track_id = s.track_id WHERE s.name IN ('sched_switch','Sleeping','irq','softirq') AND NOT $ROUNDED_AWAY ORDER BY 1, 3, 2, 4" > "$WORK/$name/$kind.args"
	done
	if diff -q "$WORK/$name/dat.args" "$WORK/$name/txt.args" > /dev/null; then
		pass "$name: same args (prev_state letters, irq names, tasks)"
	else
		bad "$name: args differ"
		diff "$WORK/$name/dat.args" "$WORK/$name/txt.args" | head -10
	fi
}

compare sample "$SRC/assets/sample" sample
compare hackbench "$SRC/tests/data/hackbench" hackbench
compare irq "$SRC/tests/data/irq" irq
finish
