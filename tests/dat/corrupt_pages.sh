#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 10, classes 1 and 2: corrupt data pages in a real trace.dat.
# Every page and record length is checked before libtracecmd sees it: a bad
# one gives one line naming the CPU and the file offset, exit 1, no output
# left behind, never a crash or a hang. A record cut shorter than its event's
# format is refused too (no field is read past a record's end).
source "$(dirname "$0")/../contract/lib.sh"
O=$WORK/out
mkdir -p "$O"
tar -xJf "$SRC/tests/data/dat/small-v6.dat.tar.xz" -C "$WORK"
IN=$WORK/small-v6.dat

no_output() {
	if [ -n "$(ls -A "$O")" ]; then bad "$1: left files behind: $(ls -A "$O")"; rm -rf "${O:?}"/* "$O"/.[!.]*; else pass "$1: nothing left behind"; fi
}

expect_ok "intact v6 file converts" "$FTSCOPE" convert -q --input "$IN" --output "$O/ftrace_data.db"
rm -f "$O"/*

declare -A why=(
	[commit]="size field is larger than the page"
	[reclen]="record runs past the end of its page"
	[loop]="record length is out of range"
	[short]="sched_switch record of 12 bytes, its format needs"
)
# (each convert parses this file's 2 MB of event formats: keep the list short)
for case in commit:0 commit:1 commit:3 reclen:1 loop:2 short:1; do
	mode=${case%:*}
	for page in ${case#*:}; do
		where=$(python3 "$SRC/tests/dat/corrupt_dat.py" "$IN" "$WORK/$mode.dat" "$mode" -1 "$page") ||
			{ bad "corrupt_dat.py $mode $page"; continue; }
		off=${where#*offset=}
		cpu=${where%% *}; cpu=${cpu#cpu=}
		# "short" names the record, which sits inside the damaged page
		pat="CPU $cpu, (data|record) at offset ${off:0:4}[0-9]*.*${why[$mode]}"
		timeout 600 "$FTSCOPE" convert --input "$WORK/$mode.dat" --output "$O/ftrace_data.db" > "$WORK/last.out" 2>&1
		rc=$?
		if [ "$rc" -ne 1 ]; then
			bad "$mode page $page: exit $rc, want 1"; cat "$WORK/last.out"
		elif [ "$(wc -l < "$WORK/last.out")" -ne 1 ] || ! grep -Eq -- "$pat" "$WORK/last.out"; then
			bad "$mode page $page: want one line /$pat/"; cat "$WORK/last.out"
		else
			pass "$mode page $page: $(cut -c1-150 "$WORK/last.out")"
		fi
		no_output "$mode page $page"
	done
done
# v7 with zstd chunks (the bundled sample, as trace-cmd extract writes it): the
# chunk is recompressed into its old size by corrupt_dat.py (needs zstd)
if command -v zstd > /dev/null; then
	for mode in commit reclen; do
		where=$(python3 "$SRC/tests/dat/corrupt_dat.py" "$SRC/assets/sample/sample.dat" "$WORK/v7$mode.dat" "$mode" -1 1) ||
			{ bad "corrupt_dat.py v7 $mode"; continue; }
		off=${where#*offset=}; off=${off%% *}
		cpu=${where%% *}; cpu=${cpu#cpu=}
		expect_fail "v7 $mode" "CPU $cpu, data at offset $off \(page 1 of the chunk\): .*${why[$mode]}" \
			"$FTSCOPE" convert --input "$WORK/v7$mode.dat" --output "$O/ftrace_data.db"
		no_output "v7 $mode"
	done
else
	echo "skip: no zstd tool for the v7 cases"
fi

# the JSON sink cleans up the same way
timeout 600 "$FTSCOPE" convert -q --format json --input "$WORK/commit.dat" --output "$O/trace.json" > /dev/null 2>&1
rc=$?
[ "$rc" -eq 1 ] && pass "corrupt page as json: exit 1" || bad "corrupt page as json: exit $rc"
no_output "corrupt page as json"
finish
