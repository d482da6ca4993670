#!/bin/bash
# SPDX-License-Identifier: MIT
# The live top and `ftscope stats` cannot disagree: a capture's pages replayed
# through the top's engine (fts_top_replay: the recorder's decoder, model and
# per-second fts_stats), all at once and as a recorder streams them (full
# pages every 200 ms of trace time), give the figures `ftscope stats
# --window` gives over the window the top reports. No root needed.
FTS=$1
SRC=$2
WORK=$3
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
REPLAY=$(dirname "$WORK")/fts_top_replay
[ -x "$REPLAY" ] || skip "fts_top_replay not built"
command -v python3 >/dev/null || skip "python3 not installed"
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1

# compare FILE WINDOW_S [TICK_MS]
compare() {
	"$REPLAY" "$1" "$2" ${3:-} > top.txt || fail "replay of $1 failed"
	read -r _ a b < <(grep '^window ' top.txt)
	read -r _ _ _ late _ corrupt < <(grep '^records ' top.txt)
	[ "$late" = 0 ] && [ "$corrupt" = 0 ] || fail "$1: $late late records, $corrupt corrupt ones"
	"$FTS" stats "$1" --window "${a}ns.." --format json --top 0 > stats.json ||
		fail "ftscope stats --window ${a}ns.. failed"
	python3 "$SRC/tests/record/top_compare.py" top.txt stats.json ||
		{ cat top.txt; fail "$1, ${2} s window${3:+, ${3} ms ticks}: the top and stats disagree"; }
	echo "ok: $1 window ${2} s${3:+ paced ${3} ms} ($a..$b ns)"
}

tar -xJf "$SRC/tests/data/dat/small-v6.dat.tar.xz" || fail "cannot unpack small-v6.dat"
compare small-v6.dat 5
compare small-v6.dat 1 100
# a window shorter than the capture: only its last seconds count
if command -v trace-cmd >/dev/null &&
   trace-cmd convert -i "$SRC/assets/sample/sample.dat" -o sample-v6.dat --file-version 6 \
	--compression none >/dev/null 2>&1; then
	compare sample-v6.dat 2
	compare sample-v6.dat 2 200
	read -r _ a b < <(grep '^window ' top.txt)
	[ "$a" -gt 0 ] || fail "the 2 s window of a 3.8 s capture starts at the beginning"
else
	echo "note: trace-cmd convert unavailable: the multi-second sample is not compared"
fi
