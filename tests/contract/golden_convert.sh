#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Golden tests: real captures in tests/data convert to exactly the rows in
# tests/golden/*.slices (lane | name | ts | dur | args), and each DB agrees
# with libsqlite3 writing the same rows (sqlite_oracle.py). A change in the model
# shows up here as a diff to review; after a deliberate change regenerate with
#   FTS_REGEN=1 ctest -R golden_convert
source "$(dirname "$0")/lib.sh"
D=$SRC/tests/data
G=$SRC/tests/golden

# rows of the DB; $WHERE (optional) narrows them for large captures
dump() {
	sqlite3 -separator '|' "$1" "SELECT t.tid, s.name, s.timestamp, s.duration, s.args FROM slice s JOIN thread t ON t.track_id = s.track_id ${WHERE:+WHERE $WHERE} ORDER BY 1, 3, 2, 4, 5"
}

golden() {
	local name=$1 input=$2; shift 2
	mkdir -p "$WORK/$name"
	expect_ok "$name: convert" "$FTSCOPE" convert -q --input "$input" --output "$WORK/$name/ftrace_data.db" "$@"
	# the sink writes the bulk tables' pages itself: SQLite must find every
	# tree, index and page consistent (each index checked against its table)
	local check
	check=$(sqlite3 "$WORK/$name/ftrace_data.db" "PRAGMA integrity_check" 2>&1)
	if [ "$check" = ok ]; then
		pass "$name: integrity_check ok"
	else
		bad "$name: integrity_check: $(printf '%s' "$check" | head -5)"
	fi
	# libsqlite3 as the oracle: the same rows written through it compare
	# equal, value and storage class; every index scans in ORDER BY's order
	if python3 "$SRC/tests/contract/sqlite_oracle.py" "$WORK/$name/ftrace_data.db" "$WORK" > "$WORK/$name.oracle" 2>&1; then
		pass "$name: libsqlite3 oracle: $(grep -c '^ok' "$WORK/$name.oracle") checks ($(sed -n 's/.*: \([0-9]* rows in [0-9]* tables\).*/\1/p' "$WORK/$name.oracle"))"
	else
		bad "$name: libsqlite3 oracle: $(grep -v '^ok' "$WORK/$name.oracle" | head -3)"
	fi
	dump "$WORK/$name/ftrace_data.db" > "$WORK/$name.slices"
	if [ "${FTS_REGEN:-0}" = 1 ]; then
		cp "$WORK/$name.slices" "$G/$name.slices"
		pass "$name: regenerated ($(wc -l < "$G/$name.slices") rows)"
	elif diff -u "$G/$name.slices" "$WORK/$name.slices" > "$WORK/$name.diff"; then
		pass "$name: $(wc -l < "$G/$name.slices") rows as expected"
	else
		bad "$name: rows differ from $G/$name.slices"
		head -30 "$WORK/$name.diff"
	fi
}

golden hackbench "$D/hackbench/hackbench.dat"
golden irq "$D/irq/irq.txt"
golden lost_pipe "$D/lost/trace_pipe.txt"
golden lost_dat "$D/dat/lost.dat"
golden overwrite "$D/lost/overwrite.txt"
golden boot_padded "$D/boot_padded/idle.txt"
golden cross1000 "$D/boot_padded/cross1000.txt"
# the containerised model's threads (container pids 1-6), aligned with two cards
WHERE="t.pid = 'Process Scheduling' AND t.tid GLOB '*:[1-6]'" golden sample_aligned "$SRC/assets/sample/sample.txt" \
	--profiling_data "$SRC/assets/sample/profiling_2cards" --pid_mapping "$SRC/assets/sample/pid_mapping.json"
finish
