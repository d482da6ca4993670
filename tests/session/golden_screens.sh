#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Golden screens of the interactive session's four screens, drawn without a
# terminal or root (screen_shot: a fake machine, keys through each screen's
# handler), at 80x24 and 160x48, compared with tests/session/golden/*.screen.
# usage: golden_screens.sh FTSCOPE SRCDIR WORKDIR   (FTS_UPDATE_GOLDEN=1 rewrites them)
set -euo pipefail
bin=$(readlink -f "$1") src=$(readlink -f "$2") work=$3
shot=$(dirname "$(readlink -f "$work")")/screen_shot
gold=$src/tests/session/golden fix=$src/tests/session/fixtures
rm -rf "$work"; mkdir -p "$work"; work=$(readlink -f "$work")
fail=0
export TZ=UTC LANG=C.UTF-8 LC_ALL=C.UTF-8
unset NO_COLOR

# the home screen's directory: captures of each kind with fixed times
home=$work/captures
mkdir -p "$home"
cp "$src/assets/sample/sample.dat" "$home/trace.dat"
cp "$src/tests/data/lost/trace_pipe.txt" "$home/trace_pipe.txt"
# the list reads only their heads (a DB's magic, a Chrome trace's keys): fixed
# files of fixed sizes, so the screens do not follow the converter's output
{ printf 'SQLite format 3\0'; head -c 1048560 /dev/zero; } > "$home/ftrace_data.db"
cp "$home/ftrace_data.db" "$home/other.db"
printf '{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":1}]}\n' > "$home/lost.json"
touch -d '2026-03-01 10:00' "$home/trace.dat"
touch -d '2026-03-01 11:00' "$home/trace_pipe.txt"
touch -d '2026-03-01 12:00' "$home/ftrace_data.db"
touch -d '2026-03-01 13:00' "$home/other.db"
touch -d '2026-03-01 14:00' "$home/lost.json"

# name screen WxH keys [arg]; run from DIR (cwd)
check() {
	local name=$1 scr=$2 size=$3 keys=$4 arg=${5:-} out=$work/$1.screen
	if ! (cd "$dir" && "$shot" "$scr" "$size" "$fix" "$keys" $arg) > "$out" 2> "$work/$name.err"; then
		echo "FAIL $name: exit status"; cat "$work/$name.err"; fail=1; return
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

dir=$work
for sz in 80x24 160x48; do
	check home_$sz home $sz 'jj' captures
	check home_help_$sz home $sz '?' captures
	check setup_$sz setup $sz ''
	check record_$sz record $sz ''
done
# setup: the cursor moved down the grid (the rows scroll), single events, a field edited
check setup_keys_80x24 setup 80x24 'jjjjlx<Tab><Tab><Tab><Tab><Tab><Tab><Tab>\n'
check setup_help_80x24 setup 80x24 '?'
# issue 33: the help wraps its words and scrolls at 80x24 (PgDn to its end; the record screen's too)
check setup_help_end_80x24 setup 80x24 '?<PgDn>'
check record_help_80x24 record 80x24 '?'
# setup in flight mode: Mode on, a trigger armed, snapshots of the last 10 s (issue 17)
ten='<Tab><Tab><Tab><Tab><Tab><Tab><Tab><Tab><Tab><Tab>'
check setup_flight_80x24 setup 80x24 "$ten <Tab>\\nrunnable>5ms:comm=python*\\n<Tab>\\n10\\n"
# a bad trigger: refused with why, left in the editor to be fixed
check setup_trigger_bad_80x24 setup 80x24 "$ten <Tab>\\nrunnable>5\\n"
check setup_probe_160x48 setup 160x48 'p'
check record_stop_80x24 record 80x24 'q'
# a 2-CPU host: the rows the CPU table leaves blank go to the live top (8 tasks)
FTS_SHOT_NCPUS=2 FTS_SHOT_TOPN=8 check record_2cpu_80x24 record 80x24 ''
dir=$src
for sz in 80x24 160x48; do
	check export_$sz export $sz "jj\\nassets/sample/profiling\\n" assets/sample/sample.dat
done
check export_json_80x24 export 80x24 ' ' assets/sample/sample.dat
exit $fail
