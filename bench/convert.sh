#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# convert.sh — time `ftscope convert` on the large inputs from bench/make_input.sh.
#
# What: runs txt->db, txt->db --with-summary (the added time of Insight's summary
#   tables), txt->json and dat->db once each and prints, per case:
#   input MB, wall seconds, CPU seconds (user+sys, all threads: the machine may be
#   shared, and wall time alone then says little), MB/s, events/s, peak RSS (KB,
#   /usr/bin/time -f %M), output MB. Events = event lines of trace.txt (counted once with grep by
#   make_input.sh) and the per-CPU entry count recorded for trace.dat.
#   Figures only; this is not a pass/fail test (exit status is non-zero only if
#   the inputs are missing or a convert fails).
# How: bench/convert.sh            (builds inputs first via make_input.sh if missing)
#      env: FTSCOPE (default: <repo>/build/ftscope), FTSCOPE_BENCH_DIR
#           (default /tmp/ftscope-bench), KEEP_OUTPUTS=1 to keep the outputs.
# Touches no tracefs instance itself (make_input.sh cleans up its own).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
FTSCOPE=${FTSCOPE:-$REPO/build/ftscope}
DIR=${FTSCOPE_BENCH_DIR:-/tmp/ftscope-bench}
OUT="$DIR/out"
[ -x "$FTSCOPE" ] || { echo "no ftscope binary at $FTSCOPE (set FTSCOPE or build first)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time missing: apt-get install time" >&2; exit 1; }
if [ ! -f "$DIR/trace.txt.events" ] || [ ! -f "$DIR/trace.dat.events" ]; then
    "$REPO/bench/make_input.sh"
fi
mkdir -p "$OUT"
cleanup() { [ "${KEEP_OUTPUTS:-0}" = 1 ] || rm -rf "$OUT"; }
trap cleanup EXIT INT TERM

echo "ftscope: $FTSCOPE"
echo "host: $(uname -r), $(nproc) CPUs"
printf '%-12s %9s %9s %9s %9s %12s %11s %9s\n' case input_MB seconds cpu_s MB/s events/s peakRSS_KB out_MB
run() { # name input events output [extra args...]
    local name=$1 in=$2 ev=$3 outf=$4; shift 4
    rm -f "$outf"
    if ! /usr/bin/time -f '%e %M %U %S' -o "$OUT/$name.time" \
            "$FTSCOPE" convert --input "$in" --output "$outf" "$@" > "$OUT/$name.log" 2>&1; then
        echo "$name: ftscope convert failed; log:" >&2; tail -5 "$OUT/$name.log" >&2
        return 1
    fi
    local sec rss us ss; read -r sec rss us ss < <(tail -1 "$OUT/$name.time")
    awk -v n="$name" -v b="$(stat -c %s "$in")" -v s="$sec" -v e="$ev" -v r="$rss" -v c="$us" -v cs="$ss" \
        -v o="$(stat -c %s "$outf" 2>/dev/null || echo 0)" 'BEGIN {
        mb = b / 1048576; if (s <= 0) s = 0.01
        printf "%-12s %9.1f %9.2f %9.2f %9.1f %12.0f %11d %9.1f\n", n, mb, s, c + cs, mb / s, e / s, r, o / 1048576 }'
}
rc=0
run txt-db   "$DIR/trace.txt" "$(cat "$DIR/trace.txt.events")" "$OUT/txt.db" || rc=1
run txt-db-sum "$DIR/trace.txt" "$(cat "$DIR/trace.txt.events")" "$OUT/txt-sum.db" --with-summary || rc=1
run txt-json "$DIR/trace.txt" "$(cat "$DIR/trace.txt.events")" "$OUT/txt.json" --format json || rc=1
run dat-db   "$DIR/trace.dat" "$(cat "$DIR/trace.dat.events")" "$OUT/dat.db" || rc=1
exit $rc
