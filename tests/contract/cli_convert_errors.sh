#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Bad input gets one clear line, a non-zero exit and no output left behind;
# outputs are replaced atomically and never written through a symlink.
source "$(dirname "$0")/lib.sh"
D=$SRC/tests/data
S=$SRC/assets/sample
O=$WORK/out
mkdir -p "$O"

no_output() {
	if [ -n "$(ls -A "$O")" ]; then bad "$1: left files behind: $(ls -A "$O")"; rm -rf "${O:?}"/* "$O"/.[!.]*; else pass "$1: nothing left behind"; fi
}

expect_fail "missing input" "cannot open" "$FTSCOPE" convert --input "$WORK/nope.dat" --output "$O/ftrace_data.db"; no_output missing
expect_fail "empty input" "empty|not a trace" "$FTSCOPE" convert --input "$D/bad/empty.txt" --output "$O/ftrace_data.db"; no_output empty
expect_fail "garbage input" "not a trace" "$FTSCOPE" convert --input "$D/bad/garbage.txt" --output "$O/ftrace_data.db"; no_output garbage
expect_fail "truncated trace.dat" "truncated|corrupt|cannot" "$FTSCOPE" convert --input "$D/bad/truncated.dat" --output "$O/ftrace_data.db"; no_output truncated
# corrupt headers that crash libtracecmd itself: reported, not crashed on
for f in "$D"/bad/libtracecmd_crash*.dat; do
	expect_fail "corrupt trace.dat $(basename "$f")" "corrupt" "$FTSCOPE" convert --input "$f" --output "$O/ftrace_data.db"; no_output "$(basename "$f")"
done
head -c 20000 "$S/sample.dat" > "$WORK/cut.dat"
expect_fail "trace.dat cut at 20 KB" "truncated|corrupt|cannot" "$FTSCOPE" convert --input "$WORK/cut.dat" --output "$O/ftrace_data.db"; no_output cut
expect_fail "malformed pid mapping" "not valid JSON" "$FTSCOPE" convert --input "$S/sample.txt" --pid_mapping "$D/bad/malformed_pidmap.json" --output "$O/ftrace_data.db"; no_output pidmap
echo '[1,2]' > "$WORK/array.json"
expect_fail "pid mapping of the wrong shape" "top level must be an object" "$FTSCOPE" convert --input "$S/sample.txt" --pid_mapping "$WORK/array.json" --output "$O/ftrace_data.db"; no_output pidmap_shape
mkdir -p "$WORK/noprof/sub"
expect_fail "profiling dir without start_info" "no start_info/end_info" "$FTSCOPE" convert --input "$S/sample.txt" --profiling_data "$WORK/noprof" --output "$O/ftrace_data.db"; no_output noprof
mkdir -p "$WORK/badprof/PROF_1/host"; cp "$D/bad/start_info_bad" "$WORK/badprof/PROF_1/host/start_info"; echo '{"clockMonotonicRaw":"1"}' > "$WORK/badprof/PROF_1/host/end_info"
expect_fail "unparsable start_info" "PROF_1/host/start_info: not a JSON object" "$FTSCOPE" convert --input "$S/sample.txt" --profiling_data "$WORK/badprof" --output "$O/ftrace_data.db"; no_output badprof
# a window far from the trace: an error, not an empty file
mkdir -p "$WORK/farprof/PROF_1/host"
echo '{"collectionTimeBegin":"1700000000000000","clockMonotonicRaw":"99000000000000"}' > "$WORK/farprof/PROF_1/host/start_info"
echo '{"collectionTimeEnd":"1700000001000000","clockMonotonicRaw":"99001000000000"}' > "$WORK/farprof/PROF_1/host/end_info"
expect_fail "profiling window misses the trace" "no event falls inside the profiling window.*entirely before" "$FTSCOPE" convert --input "$S/sample.txt" --profiling_data "$WORK/farprof" --output "$O/ftrace_data.db"; no_output farprof
expect_fail "wrong output suffix" "must end in .json" "$FTSCOPE" convert --input "$S/sample.txt" --format json --output "$O/ftrace_data.db"; no_output suffix
expect_fail "bad --format" "must be db or json" "$FTSCOPE" convert --input "$S/sample.txt" --format xml; no_output format
expect_fail "unknown flag" "unknown option" "$FTSCOPE" convert --inptu x; no_output flag
expect_fail "output directory missing" "cannot create output" "$FTSCOPE" convert --input "$S/sample.txt" --output "$WORK/nodir/ftrace_data.db"

# symlinked output: refused, the link and its target untouched
echo precious > "$WORK/target"
ln -s "$WORK/target" "$O/ftrace_data.db"
expect_fail "output is a symlink" "symbolic link.*write elsewhere\) \(choose another --output\)" "$FTSCOPE" convert --input "$S/sample.txt" --output "$O/ftrace_data.db"
[ "$(cat "$WORK/target")" = precious ] && [ -L "$O/ftrace_data.db" ] && pass "symlink target untouched" || bad "symlink target changed"
rm -f "$O/ftrace_data.db"

# an existing output and its -wal/-shm are replaced
echo old > "$O/ftrace_data.db"; echo old > "$O/ftrace_data.db-wal"; echo old > "$O/ftrace_data.db-shm"
expect_ok "overwrite existing output" "$FTSCOPE" convert -q --input "$S/sample.txt" --output "$O/ftrace_data.db"
[ ! -e "$O/ftrace_data.db-wal" ] && [ ! -e "$O/ftrace_data.db-shm" ] && pass "stale -wal/-shm removed" || bad "stale -wal/-shm kept"
[ "$(sqlite3 "$O/ftrace_data.db" 'SELECT COUNT(*) FROM process')" = 2 ] && pass "new DB in place" || bad "DB not replaced"
[ -z "$(ls -A "$O" | grep tmp)" ] && pass "no temp files left" || bad "temp files left"
rm -f "$O"/*

# run through sudo, the output belongs to the user who asked (Insight refuses
# files owned by someone else)
if [ "$(id -u)" = 0 ]; then
	expect_ok "convert under sudo" env SUDO_UID=65534 SUDO_GID=65534 "$FTSCOPE" convert -q --input "$S/sample.txt" --output "$O/ftrace_data.db"
	[ "$(stat -c %u:%g "$O/ftrace_data.db")" = 65534:65534 ] && pass "output handed to the sudo user" || bad "output owned by $(stat -c %u:%g "$O/ftrace_data.db")"
	rm -f "$O"/*
fi

# paths Insight's import refuses are pointed out before the work is done
mkdir -p "$WORK/a&b"
expect_ok "output under a directory with '&'" "$FTSCOPE" convert --input "$S/sample.txt" --output "$WORK/a&b/ftrace_data.db"
grep -q "Insight refuses paths containing" "$WORK/last.out" && pass "unsafe path pointed out" || bad "unsafe path not pointed out"
rm -f "$O"/*

# a full disk: stop with a clear error, no partial file
if [ "$(id -u)" = 0 ] && mkdir -p "$WORK/tiny" && mount -t tmpfs -o size=256k tmpfs "$WORK/tiny" 2>/dev/null; then
	expect_fail "disk full (DB)" "No space|full|disk" "$FTSCOPE" convert --input "$S/sample.txt" --output "$WORK/tiny/ftrace_data.db"
	[ -z "$(ls -A "$WORK/tiny")" ] && pass "disk full: nothing left (DB)" || bad "disk full left: $(ls -A "$WORK/tiny")"
	expect_fail "disk full (JSON)" "No space|full|disk" "$FTSCOPE" convert --input "$S/sample.txt" --output "$WORK/tiny/ftrace_data.json"
	[ -z "$(ls -A "$WORK/tiny")" ] && pass "disk full: nothing left (JSON)" || bad "disk full left: $(ls -A "$WORK/tiny")"
	umount "$WORK/tiny"
	# room for SQLite's schema (about 0.7 MB) but not the rows: the page writer's own write fails
	if mount -t tmpfs -o size=2m tmpfs "$WORK/tiny" 2>/dev/null; then
		expect_fail "disk full in the rows (DB)" "cannot write: No space" "$FTSCOPE" convert --input "$S/sample.txt" --output "$WORK/tiny/ftrace_data.db"
		[ -z "$(ls -A "$WORK/tiny")" ] && pass "disk full in the rows: nothing left" || bad "disk full in the rows left: $(ls -A "$WORK/tiny")"
		umount "$WORK/tiny"
	fi
else
	echo "skip disk-full checks: needs root to mount a small tmpfs"
fi

# garbage lines inside a real trace are counted and skipped, never fatal
{ head -200 "$S/sample.txt"; echo 'this is not a trace line'; head -c 3000 /dev/urandom | tr -d '\000'; echo; sed -n '201,$p' "$S/sample.txt"; } > "$WORK/mixed.txt"
expect_ok "garbage lines skipped" "$FTSCOPE" convert --input "$WORK/mixed.txt" --output "$O/ftrace_data.db"
grep -q "not understood and skipped" "$WORK/last.out" && pass "skips reported" || bad "skips not reported"
if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$WORK/last.out"; then bad "control bytes reached the terminal"; else pass "summary free of control bytes"; fi
rm -f "$O"/*

# a profiling directory named with an escape sequence (any user can make one):
# the summary shows it escaped
evil="$WORK/evil/$(printf 'a\033[31mRED')/PROF_1/host"
mkdir -p "$evil" && cp "$(find "$S/profiling" -name start_info | head -1)" "$(find "$S/profiling" -name end_info | head -1)" "$evil/"
expect_ok "escape sequence in a card path" "$FTSCOPE" convert --input "$S/sample.txt" --profiling_data "$WORK/evil" --output "$O/ftrace_data.db"
if LC_ALL=C grep -q $'\x1b' "$WORK/last.out"; then bad "escape sequence reached the terminal"; else pass "card path escaped"; fi
grep -qF 'a\x1b[31mRED' "$WORK/last.out" && pass "escaped form shown" || bad "escaped form missing"
rm -f "$O"/*

# no --input: trace.dat, else trace.txt, and the newer of both, said aloud
mkdir -p "$WORK/cwd"; cd "$WORK/cwd"
cp "$S/sample.txt" trace.txt
expect_ok "default input falls back to trace.txt" "$FTSCOPE" convert
grep -q "trace.dat not found; converting trace.txt" "$WORK/last.out" && pass "fallback announced" || bad "fallback not announced"
cp "$S/sample.dat" trace.dat; touch -d '1 hour ago' trace.dat
expect_ok "both: newer trace.txt wins" "$FTSCOPE" convert
grep -q "converting the newer, trace.txt" "$WORK/last.out" && pass "newer txt announced" || bad "newer txt not announced"
touch trace.dat
expect_ok "both: newer trace.dat wins" "$FTSCOPE" convert
grep -q "converting the newer, trace.dat" "$WORK/last.out" && pass "newer dat announced" || bad "newer dat not announced"
[ -f ftrace_data.db ] && pass "default output ftrace_data.db" || bad "no ftrace_data.db"
expect_ok "--profiling-data spelling" "$FTSCOPE" convert -q --input trace.dat --profiling-data "$S/profiling" --pid-mapping "$S/pid_mapping.json" --format=json
[ -f ftrace_data.json ] && pass "json default name" || bad "no ftrace_data.json"
cd - > /dev/null
finish
