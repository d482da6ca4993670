#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# preview.sh — the preview lane store on a capture of ~10 million slices.
#
# What: loads the capture into the store (the library call `ftscope preview` makes)
#   from ftrace_data.db and from the text trace, and prints per input: items, load
#   seconds, M items/s and MB/s, memory per item (the store's own count of its heap,
#   and the RSS growth of the process across the load), peak RSS, then the cost of
#   frames of COLS x ROWS buckets (default 240 x 70) at zooms 1/1 .. 1/10^6 of the
#   capture (20 random viewports each: mean us per bucket, mean and worst ms/frame).
#   For the DB also issue 20's anchor: a bare SQLite scan of the same columns in
#   the same run, and the ratio of the load to it; and, with a store that has the
#   loading overview (fts_sketch), when its first frame with lanes came.
#   Issue 20 (10 M-slice DB, old and new back to back, load average ~10-18):
#     before: load 6.04 s wall, 5.74 s CPU on one thread; scan 3.06 s: 1.97x wall;
#             nothing on screen until loaded
#     after:  load 3.60-4.14 s wall, 6.2-6.6 s CPU on two threads (3.41 / 3.21 s);
#             scan 2.73-2.94 s: 1.32-1.41x wall, critical path 1.26x; first
#             overview with lanes 0.055 s in (1.1 GB text: 0.128 s); 26.1 B/item
#   Then the reopen (issue 20: under 1 s at 10 M slices): `ftscope preview DB --print`
#   with the store cache off, on a first open (which writes the cache from a second
#   thread), and on a reopen (from the cache), each with wall, CPU and peak RSS, and the
#   cache file's size per slice. 2026-12-02, 10.0 M-slice DB, load average 4-15:
#     uncached 11.6 s wall (7.5 s CPU), peak RSS 267 MB; reopen 0.82-0.98 s wall
#     (0.81-0.84 s CPU), peak RSS 260 MB; cache file 260 MB, 26.1 B/slice; writing it
#     took 0.25-0.8 s in its own thread (the first frame came 43-75 ms after the load).
#     Once the summary's statistics were made from the store on demand (no replay on a
#     hit), quiet machine 09:48: first open 3.34 s wall (6.0 s CPU), reopen 0.25-0.27 s
#     wall (0.24-0.27 s CPU), 258 MB
#   Figures only, not a pass/fail test.
# Inputs (cached in $FTSCOPE_BENCH_DIR, default /tmp/ftscope-bench-10m):
#   trace.txt        bench/make_input.sh's replicated real capture (assets/sample/sample.txt
#                    copied with shifted timestamps), SIZE_MB (default 1140) MB: the sample
#                    gives ~8,400 slices per MB, so ~10 M slices
#   ftrace_data.db   `ftscope convert` of trace.txt (made once)
# How: bench/preview.sh [COLS ROWS]     env: FTSCOPE (default build/ftscope), SIZE_MB,
#      FTSCOPE_BENCH_DIR, BUILD (default build; must hold libftscope.a)
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
FTSCOPE=${FTSCOPE:-$BUILD/ftscope}
DIR=${FTSCOPE_BENCH_DIR:-/tmp/ftscope-bench-10m}
SIZE_MB=${SIZE_MB:-1140}
COLS=${1:-240}; ROWS=${2:-70}
[ -x "$FTSCOPE" ] && [ -f "$BUILD/libftscope.a" ] || { echo "build first (scripts/build.sh)" >&2; exit 1; }
mkdir -p "$DIR"

FTSCOPE_BENCH_DIR="$DIR" SKIP_DAT=1 "$REPO/bench/make_input.sh" "$SIZE_MB"
if [ ! -f "$DIR/ftrace_data.db" ] || [ "$DIR/trace.txt" -nt "$DIR/ftrace_data.db" ]; then
    echo "converting trace.txt -> ftrace_data.db ..."
    "$FTSCOPE" convert -q --input "$DIR/trace.txt" --output "$DIR/ftrace_data.db"
fi

BENCH="$BUILD/preview_bench"
if [ ! -x "$BENCH" ] || [ "$REPO/bench/preview_bench.c" -nt "$BENCH" ] || [ "$BUILD/libftscope.a" -nt "$BENCH" ]; then
    # the first-frame figure needs the sketch (issue 20): a build from before has none
    # (grep reads all of nm's output: with -q, nm's SIGPIPE fails the pipe under pipefail)
    SKETCH=; nm "$BUILD/libftscope.a" 2> /dev/null | grep ' T fts_sketch_new$' > /dev/null && SKETCH=-DFTS_BENCH_SKETCH
    # shellcheck disable=SC2046
    cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra $SKETCH -I"$REPO/include" "$REPO/bench/preview_bench.c" \
        "$BUILD/libftscope.a" $(pkg-config --libs sqlite3 libcjson libtracecmd libtracefs libtraceevent) \
        $(pkg-config --libs libzstd 2> /dev/null) -lpthread -lm -o "$BENCH"
fi

echo "host: $(uname -r), $(nproc) CPUs; frame ${COLS}x${ROWS} buckets"
for in in "$DIR/ftrace_data.db" "$DIR/trace.txt"; do
    echo
    "$BENCH" "$in" "$COLS" "$ROWS"
done

# ---- reopen: the same DB again, from the store cache (a private cache directory)
DB=$DIR/ftrace_data.db
XDG=$(mktemp -d)
# run NAME ARGS...: one --print screen, "NAME  W s wall (C s CPU), peak RSS R MB"
run() {
    local name=$1
    shift
    XDG_CACHE_HOME=$XDG /usr/bin/time -f '%e %U %S %M' "$FTSCOPE" preview "$DB" --print 200x50 --timing "$@" \
        > /dev/null 2> "$XDG/err"
    # shellcheck disable=SC2046
    set -- $(tail -1 "$XDG/err")
    awk -v n="$name" -v w="$1" -v u="$2" -v s="$3" -v m="$4" \
        'BEGIN { printf "%-18s %.2f s wall (%.2f s CPU), peak RSS %.0f MB\n", n, w, u + s, m / 1024 }'
}
echo
echo "reopen (store cache, $DB, --print 200x50)"
run "uncached" --no_cache
run "first (writes)"
run "reopen"
grep -q "from cache" "$XDG/err" || echo "(the reopen was not from the cache: $(head -1 "$XDG/err"))"
items=$(sed -n 's/^loaded *\([0-9]*\) items.*/\1/p' "$XDG/err")
bytes=$(find "$XDG/ftscope" -name '*.ftc' -printf '%s\n' | head -1)
awk -v b="${bytes:-0}" -v n="${items:-0}" 'BEGIN { printf "cache file         %.1f MB, %.1f B/slice\n", b / 1e6, n ? b / n : 0 }'
rm -rf "$XDG"
