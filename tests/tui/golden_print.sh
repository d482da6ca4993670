#!/usr/bin/env bash
# Golden screens: `ftscope preview --print` of real captures at 80x24 and
# 160x48, compared with tests/tui/golden/*.screen.
# usage: golden_print.sh FTSCOPE SRCDIR WORKDIR   (FTS_UPDATE_GOLDEN=1 rewrites them)
set -euo pipefail
bin=$(readlink -f "$1") src=$(readlink -f "$2") work=$3
gold=$src/tests/tui/golden
rm -rf "$work"; mkdir -p "$work"
cd "$src"
fail=0

# name WxH locale file [preview args...]
check() {
	local name=$1 size=$2 loc=$3 file=$4; shift 4
	local out=$work/$name.screen
	if ! env -u NO_COLOR LANG=$loc LC_ALL=$loc "$bin" preview "$file" --print "$size" "$@" > "$out" 2> "$work/$name.err"; then
		echo "FAIL $name: exit status $?"; cat "$work/$name.err"; fail=1; return
	fi
	if [ "${FTS_UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$out" "$gold/$name.screen"; echo "updated $name"; return
	fi
	if ! diff -u "$gold/$name.screen" "$out"; then
		echo "FAIL $name: screen differs from $gold/$name.screen"; fail=1
	else
		echo "ok $name"
	fi
}

S=assets/sample
check sample_80x24 80x24 C.UTF-8 $S/sample.dat
check sample_160x48 160x48 C.UTF-8 $S/sample.dat --profiling_data $S/profiling \
	--pid_mapping $S/pid_mapping.json --keys 'w/dl_worker\n+++]\n'
check sample_ascii_80x24 80x24 C $S/sample.dat --keys '/npu\n+++'
check sample_help_80x24 80x24 C.UTF-8 $S/sample.dat --keys '?'
check sample_summary_160x48 160x48 C.UTF-8 $S/sample.dat --profiling_data $S/profiling --keys 's'
check lost_80x24 80x24 C.UTF-8 tests/data/lost/trace_pipe.txt
check lost_160x48 160x48 C.UTF-8 tests/data/lost/overwrite.dat --keys '+j]'
# issue 15: holes after lost events ("no data" slices, as the model writes them) shown as
# unknown, the cursor sent to the first loss (x) and its details
check holes_80x24 80x24 C.UTF-8 tests/tui/lossy_holes.json --keys 'x'
check holes_ascii_100x20 100x20 C tests/tui/lossy_holes.json --keys 'xx'

# a DB read back: ours (no reference-converter DB is checked in); the title
# shows the path, so convert into the work dir and preview from there
"$bin" convert -q -i "$src/$S/sample.dat" -o "$work/ftrace_data.db" \
	--profiling_data "$src/$S/profiling" --pid_mapping "$src/$S/pid_mapping.json"
for sz in 80x24 160x48; do
	name=db_$sz out=$work/$name.screen
	(cd "$work" && env -u NO_COLOR LANG=C.UTF-8 LC_ALL=C.UTF-8 "$bin" preview ftrace_data.db \
		--print $sz --keys '/dataloader\n++' > "$out")
	if [ "${FTS_UPDATE_GOLDEN:-}" = 1 ]; then cp "$out" "$gold/$name.screen"; echo "updated $name"
	elif ! diff -u "$gold/$name.screen" "$out"; then echo "FAIL $name"; fail=1
	else echo "ok $name"; fi
done

# --color: ANSI colours, and NO_COLOR wins over --color
LANG=C.UTF-8 "$bin" preview $S/sample.dat --print 80x24 --color > "$work/color.screen"
grep -q $'\033\\[' "$work/color.screen" || { echo "FAIL --color wrote no SGR"; fail=1; }
NO_COLOR=1 LANG=C.UTF-8 "$bin" preview $S/sample.dat --print 80x24 --color > "$work/nocolor.screen"
if grep -q $'\033' "$work/nocolor.screen"; then echo "FAIL NO_COLOR still coloured"; fail=1; fi

# bad input: one error line, non-zero exit, nothing on stdout
for bad in tests/data/bad/garbage.txt tests/data/bad/empty.txt tests/data/bad/truncated.dat /nonexistent; do
	set +e
	"$bin" preview "$bad" --print 80x24 > "$work/bad.out" 2> "$work/bad.err"; rc=$?
	set -e
	if [ $rc = 0 ] || [ -s "$work/bad.out" ] || [ "$(wc -l < "$work/bad.err")" != 1 ]; then
		echo "FAIL $bad: rc=$rc, stdout $(wc -c < "$work/bad.out") bytes, stderr:"; cat "$work/bad.err"; fail=1
	else
		echo "ok bad input $bad: $(cat "$work/bad.err")"
	fi
done
set +e
"$bin" preview $S/sample.dat --print 80x24 --keys '<Nope>' > /dev/null 2>&1; [ $? = 2 ] || { echo "FAIL bad key name"; fail=1; }
"$bin" preview $S/sample.dat --print 80 > /dev/null 2>&1; [ $? = 2 ] || { echo "FAIL bad size"; fail=1; }
# not a terminal: one line pointing at --print, exit 2
"$bin" preview $S/sample.dat < /dev/null > "$work/notty.out" 2>&1; rc=$?
set -e
if [ $rc != 2 ] || ! grep -q -- '--print' "$work/notty.out" || [ "$(wc -l < "$work/notty.out")" != 1 ]; then
	echo "FAIL not a terminal: rc=$rc"; cat "$work/notty.out"; fail=1
fi
exit $fail
