#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# preview_tui.sh - what a user of `ftscope preview` waits for on a big capture.
#
# What: `ftscope preview FILE --print COLSxROWS --keys SESSION --timing` on the
#   ~10 M-slice capture of bench/preview.sh (its ftrace_data.db, and its text
#   trace with LOAD_TEXT=1), where SESSION is 1,000 scripted keys: zoom in and
#   out around the cursor, cursor moves, half-screen pans, lane moves and pages,
#   next/previous item, next run of the task, search, filter, pin, marker,
#   details, whole capture, start/end. Prints the load time and peak RSS
#   (/usr/bin/time), the first frame, and p50/p99/max of key+redraw (each
#   frame is the key's handling plus a full redraw of COLS x ROWS cells), as wall
#   time and as the process's CPU time (a frame asks for its rows on two threads;
#   on a shared machine, wall time includes waiting for a core; CPU time is the
#   frame's own cost, plus the store cache's writer on a first open).
#   Figures only, not a pass/fail test.
# How: bench/preview_tui.sh [COLS ROWS]   env: FTSCOPE (default build/ftscope),
#      FTSCOPE_BENCH_DIR (default /tmp/ftscope-bench-10m; run bench/preview.sh once
#      to make the inputs), LOAD_TEXT=1 to time the text trace as well.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
FTSCOPE=${FTSCOPE:-$REPO/build/ftscope}
DIR=${FTSCOPE_BENCH_DIR:-/tmp/ftscope-bench-10m}
COLS=${1:-240}; ROWS=${2:-70}
[ -f "$DIR/ftrace_data.db" ] || { echo "no $DIR/ftrace_data.db: run bench/preview.sh first" >&2; exit 1; }

# 1,000 keys: 20 rounds of 50
round='++++++llllllhhhjjjjkk]]][[n<PgDn><PgUp>LLH----/python\nfpfm\n\n'
session=
for _ in $(seq 20); do session+=$round; done
echo "host: $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); screen ${COLS}x${ROWS}"
inputs=("$DIR/ftrace_data.db")
[ "${LOAD_TEXT:-0}" = 1 ] && inputs+=("$DIR/trace.txt")
for in in "${inputs[@]}"; do
	echo
	echo "== $in ($(du -h "$in" | cut -f1))"
	/usr/bin/time -f "wall %e s, peak RSS %M KB" env LANG=C.UTF-8 "$FTSCOPE" preview "$in" \
		--print "${COLS}x${ROWS}" --keys "$session" --timing > /dev/null
done
