#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Seeds for fuzz_cache: real preview store cache files, made by FTSCOPE (the
# same build: the layout is the code's) from small captures of the tree, and
# a few of them damaged and re-signed (tests/tui/cache_tamper.py), among them
# the item named by no string that crashed the summary (issue 33).
# usage: make_cache_seeds.sh FTSCOPE SRCDIR OUTDIR ($FTS_EMU: see replay_cache.sh)
set -eu
ftscope=$1 src=$2 out=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
export XDG_CACHE_HOME=$work/xdg
unset FTSCOPE_NO_CACHE
${FTS_EMU:-} "$ftscope" convert -q -i "$src/tests/data/hackbench/hackbench.txt" -o "$work/h.db"
${FTS_EMU:-} "$ftscope" convert -q -i "$src/tests/data/hackbench/hackbench.txt" -o "$work/h.json"
for in in "$src/tests/data/hackbench/hackbench.txt" "$src/tests/data/lost/"*.txt "$work/h.db" "$work/h.json"; do
	[ -f "$in" ] || continue
	rm -rf "$XDG_CACHE_HOME"
	${FTS_EMU:-} "$ftscope" preview "$in" --print 80x24 > /dev/null 2>&1 || continue
	for f in "$XDG_CACHE_HOME"/ftscope/*.ftc; do
		[ -f "$f" ] && cp "$f" "$out/$(basename "$in").ftc"
	done
done
first=$(ls "$out"/*.ftc | head -1)
cp "$first" "$out/noname.ftc"
python3 "$src/tests/tui/cache_tamper.py" noname "$out/noname.ftc"
for i in 1 2 3 4; do
	cp "$first" "$out/resum$i.ftc"
	python3 "$src/tests/tui/cache_tamper.py" resum "$out/resum$i.ftc" $((i * 97 + 300)) $((i * 1009 + 2000))
done
