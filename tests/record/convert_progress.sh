#!/bin/bash
# SPDX-License-Identifier: MIT
# Defect 7 of issue 15 (CLI): convert's progress line must move from the first
# second to the end, and its ETA is a time or "?", never a size. The readers
# report every 2^18 lines and the finish stage (here --with_summary's SQL
# passes) not at all, so the line used to stand still for seconds; a ticker
# now redraws it every 250 ms with the time moved on. Needs `script` for a
# terminal; no root.
FTS=$1
SRC=$2
WORK=$3
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
command -v script >/dev/null || skip "script (util-linux) is not installed"
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
FTSCOPE="$FTS" FTSCOPE_BENCH_DIR=$WORK SKIP_DAT=1 bash "$SRC/bench/make_input.sh" 100 >make.log 2>&1 ||
	{ cat make.log; fail "cannot build the input"; }
script -qfec "'$FTS' convert --with_summary -i trace.txt -o ftrace_data.db" prog.log >/dev/null 2>&1 ||
	{ cat prog.log; fail "convert failed"; }
tr '\r' '\n' < prog.log | grep -E '^  (probe|clock|read|finish|index)' > lines
total=$(tr -d '\r' < prog.log | sed -n 's/^output .* in \([0-9.]*\) s$/\1/p')
[ -n "$total" ] || { cat -v prog.log | tail; fail "no summary"; }
# every redraw carries the time since the start, two spaces before it: "read  30.8 MiB of
# 102.3 MiB  0.4 s  263.0k events ..."; past a minute (a sanitizer build) "2m20s"
stamps=$(sed -E 's/  ETA .*//' lines | grep -oE '  ([0-9]+\.[0-9] s|[0-9]+m[0-9]{2}s)( |$)' | tr -d ' ' |
	awk '/m/ { split($0, a, "m"); print a[1] * 60 + substr(a[2], 1, 2); next } { sub(/s$/, ""); print }')
# whole seconds past a minute: a second more of slack
tol=1.0
grep -qE '  [0-9]+m[0-9]{2}s( |$)' lines && tol=2.0
[ "$(wc -l <<<"$stamps")" -ge 3 ] || { cat lines; fail "the progress lines carry no time"; }
if grep 'ETA' lines | grep -vqE 'ETA (\?|[0-9]+\.[0-9] s|[0-9]+m[0-9]{2}s|[0-9]+h[0-9]{2}m) *$'; then
	grep ETA lines | head; fail "an ETA that is not a time"
fi
# the line keeps moving until the end: the last redraw is close to it
last=$(tail -1 <<<"$stamps")
awk -v l="$last" -v t="$total" -v tol="$tol" 'BEGIN { exit !(t - l <= tol) }' ||
	{ cat lines | tail -5; fail "the line stood still from $last s to the end at $total s"; }
# and never stands still for long in between
gap=$(awk 'NR > 1 && $1 - p > g { g = $1 - p } { p = $1 } END { print g + 0 }' <<<"$stamps")
awk -v g="$gap" -v tol="$tol" 'BEGIN { exit !(g <= tol) }' || fail "the line stood still for $gap s"
echo "ok: $(wc -l < lines) redraws in $total s, longest gap $gap s, last at $last s"
