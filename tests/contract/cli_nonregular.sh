#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 10, classes 7, 8 and 13: FIFOs, devices, directories and symlinks
# where a file is read (input, pid mapping, start_info/end_info) fail at once
# with a line saying what the path is; crafted profiling clocks are refused
# with the file and the field named; nothing is left behind.
source "$(dirname "$0")/lib.sh"
S=$SRC/assets/sample
O=$WORK/out
mkdir -p "$O"
no_output() {
	if [ -n "$(ls -A "$O")" ]; then bad "$1: left files behind: $(ls -A "$O")"; rm -rf "${O:?}"/* "$O"/.[!.]*; else pass "$1: nothing left behind"; fi
}
# fast_fail DESC PATTERN CMD...: must fail within 10 s (a hang is a failure)
fast_fail() {
	local desc=$1 pat=$2; shift 2
	timeout 10 "$@" > "$WORK/last.out" 2>&1
	local rc=$?
	if [ "$rc" -eq 124 ]; then bad "$desc: hung"
	elif [ "$rc" -ne 1 ]; then bad "$desc: exit $rc, want 1"; cat "$WORK/last.out"
	elif ! grep -Eq -- "$pat" "$WORK/last.out"; then bad "$desc: want /$pat/"; cat "$WORK/last.out"
	else pass "$desc"; fi
	no_output "$desc"
}

mkfifo "$WORK/fifo"
fast_fail "FIFO as input" "fifo: is a FIFO, not a regular file" "$FTSCOPE" convert --input "$WORK/fifo" --output "$O/ftrace_data.db"
fast_fail "FIFO as pid mapping" "fifo: is a FIFO" "$FTSCOPE" convert --input "$S/sample.txt" --pid_mapping "$WORK/fifo" --output "$O/ftrace_data.db"
fast_fail "device as input" "is a device" "$FTSCOPE" convert --input /dev/zero --output "$O/ftrace_data.db"
fast_fail "directory as input" "is a directory" "$FTSCOPE" convert --input "$WORK" --output "$O/ftrace_data.db"
fast_fail "directory as pid mapping" "is a directory" "$FTSCOPE" convert --input "$S/sample.txt" --pid_mapping "$WORK" --output "$O/ftrace_data.db"

# profiling directories made from the bundled real one
prof() { # NAME: a copy of the sample's profiling tree, its host dir in $H
	rm -rf "${WORK:?}/$1"; cp -r "$S/profiling" "$WORK/$1"
	H=$(dirname "$(find "$WORK/$1" -name start_info | head -1)")
}
prof good
expect_ok "the bundled profiling data converts" "$FTSCOPE" convert -q --input "$S/sample.txt" --profiling_data "$WORK/good" --output "$O/ftrace_data.db"
rm -f "$O"/*
prof fifo_end; rm "$H/end_info"; mkfifo "$H/end_info"
fast_fail "FIFO end_info" "end_info: is a FIFO, not a regular file" "$FTSCOPE" convert --input "$S/sample.txt" --profiling_data "$WORK/fifo_end" --output "$O/ftrace_data.db"
prof link_end; mv "$H/end_info" "$WORK/real_end_info"; ln -s "$WORK/real_end_info" "$H/end_info"
fast_fail "symlinked end_info" "end_info: is a symbolic link; not followed" "$FTSCOPE" convert --input "$S/sample.txt" --profiling_data "$WORK/link_end" --output "$O/ftrace_data.db"
# a card whose end_info is not written yet (profiling still running) is
# skipped and counted beside a usable one; alone it is an error naming it
prof no_end; rm "$H/end_info"
expect_ok "start_info without end_info beside a good card" "$FTSCOPE" convert --input "$S/sample.txt" --profiling_data "$WORK/no_end" --output "$O/ftrace_data.db"
grep -q "1 start_info without an end_info beside it ignored" "$WORK/last.out" && pass "the skipped card is reported" || bad "the skipped card is not reported"
rm -f "$O"/*
rm -rf "$WORK/no_end_only"; mkdir -p "$WORK/no_end_only"; cp "$H/start_info" "$WORK/no_end_only/"
fast_fail "start_info without end_info alone" "no_end_only/end_info: cannot open" "$FTSCOPE" convert --input "$S/sample.txt" --profiling_data "$WORK/no_end_only" --output "$O/ftrace_data.db"
prof huge_mono; python3 - "$H/start_info" <<'PY'
import json, sys
p = sys.argv[1]; d = json.load(open(p)); d["clockMonotonicRaw"] = "99999999999999999999"; json.dump(d, open(p, "w"))
PY
fast_fail "clockMonotonicRaw past int64" "start_info: clockMonotonicRaw is out of range" "$FTSCOPE" convert --input "$S/sample.txt" --profiling_data "$WORK/huge_mono" --output "$O/ftrace_data.db"
prof huge_begin; python3 - "$H/start_info" <<'PY'
import json, sys
p = sys.argv[1]; d = json.load(open(p)); d["collectionTimeBegin"] = 9.3e15; json.dump(d, open(p, "w"))
PY
fast_fail "collectionTimeBegin that overflows in ns" "start_info: collectionTimeBegin is out of range" "$FTSCOPE" convert --input "$S/sample.txt" --profiling_data "$WORK/huge_begin" --output "$O/ftrace_data.db"
prof rev; python3 - "$H/end_info" <<'PY'
import json, sys
p = sys.argv[1]; d = json.load(open(p)); d["clockMonotonicRaw"] = "1"; json.dump(d, open(p, "w"))
PY
fast_fail "end_info before start_info" "end_info: clockMonotonicRaw 1 is before start_info" "$FTSCOPE" convert --input "$S/sample.txt" --profiling_data "$WORK/rev" --output "$O/ftrace_data.db"
finish
