#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/wide.sh - convert, stats and preview on a 192-CPU, 100 k-task trace (issue 20).
#
#   bench/wide.sh [ftscope-binary]
#
# Builds (or reuses) $FTSCOPE_BENCH_DIR/trace192.txt with `bench/make_input.sh`
# (ONLY_WIDE=1; WIDE_CPUS/WIDE_TASKS/WIDE_STEPS pass through), then times with
# /usr/bin/time: convert to a DB, stats (top 20), and the preview's first screen
# at 200x60 of the text and of the DB (`preview --print`, which loads it whole).
# Prints one line per case: wall s, CPU s (user+sys), peak RSS MiB, and the
# preview screens' first rows. Needs no root. Figures, not a pass/fail test.
FTS=$(readlink -f "${1:-$(dirname "$0")/../build/ftscope}")
DIR=${FTSCOPE_BENCH_DIR:-/tmp/ftscope-bench}
REPO=$(cd "$(dirname "$0")/.." && pwd)
command -v /usr/bin/time >/dev/null || { echo "bench/wide.sh: needs /usr/bin/time"; exit 1; }
ONLY_WIDE=1 FTSCOPE_BENCH_DIR=$DIR bash "$REPO/bench/make_input.sh" || exit 1
IN=$DIR/trace192.txt
ev=$(grep -vc '^#' "$IN")
echo "input: $IN, $(( $(stat -c %s "$IN") / 1048576 )) MB, $ev events, $(nproc) CPUs here"
printf '%-22s %8s %8s %9s %10s  %s\n' case wall_s cpu_s rss_MiB ns/event note
# run NAME NOTE CMD...: time it, print its line
run() {
	local name=$1 note=$2; shift 2
	/usr/bin/time -f '%e %U %S %M' -o "$DIR/wide-$name.time" "$@" > "$DIR/wide-$name.out" 2> "$DIR/wide-$name.err"
	local rc=$?
	read -r wall u s rss < "$DIR/wide-$name.time"
	awk -v n="$name" -v w="$wall" -v u="$u" -v s="$s" -v r="$rss" -v ev="$ev" -v note="$note" -v rc=$rc \
		'BEGIN { printf "%-22s %8.2f %8.2f %9.1f %10.0f  %s%s\n", n, w, u + s, r / 1024, (u + s) * 1e9 / ev, note, (rc ? " (exit " rc ")" : "") }'
}
rm -f "$DIR/wide.db"
run convert_db "text -> ftrace_data.db" "$FTS" convert -i "$IN" -o "$DIR/wide.db"
run stats "top 20 tasks, all CPUs" "$FTS" stats "$IN" --top 20
run preview_txt_200x60 "first screen of the text" "$FTS" preview "$IN" --print 200x60
run preview_db_200x60 "first screen of the DB" "$FTS" preview "$DIR/wide.db" --print 200x60
run preview_txt_80x24 "first screen of the text" "$FTS" preview "$IN" --print 80x24
echo
echo "stats (head):"; head -5 "$DIR/wide-stats.out" | cut -c1-150
echo "preview of the text at 80x24:"; cat "$DIR/wide-preview_txt_80x24.out"
echo "preview of the DB at 200x60 (first 16 rows): $DIR/wide-preview_db_200x60.out"; head -16 "$DIR/wide-preview_db_200x60.out" | cut -c1-200
rm -f "$DIR/wide.db"
