#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# stats.sh — time and peak RSS of `ftscope stats` on the large inputs of bench/make_input.sh,
# next to what it costs only to read and model the file, and to convert it to a DB.
#
# What: for each input size (SIZES, default "100 400" MB of real text replicated by
#   make_input.sh, text only), prints per case: input MB, wall seconds, MB/s, events/s,
#   peak RSS (KB, /usr/bin/time -f %M):
#     stats       ftscope stats FILE --top 20           (read + model + statistics)
#     stats-win   ftscope stats FILE --window 1s..2s    (two passes: span, then stats)
#     model-only  ftscope convert to a JSON on /dev/null is not possible, so the floor is
#                 `ftscope stats --cpu 8191` (reads and models, counts nothing)
#     convert-db  ftscope convert FILE -> ftrace_data.db (for comparison)
#   Memory should stay flat from 100 to 400 MB; stats should cost about model-only and
#   well under convert-db. Figures only, never pass/fail (exit non-zero only when a run fails).
# How: bench/stats.sh                 env: FTSCOPE (default <repo>/build/ftscope),
#      SIZES ("100 400"), FTSCOPE_BENCH_ROOT (/tmp/fts-stats-bench; inputs in -<size>),
#      SKIP_CONVERT=1 to leave out convert-db.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
FTSCOPE=${FTSCOPE:-$REPO/build/ftscope}
ROOT=${FTSCOPE_BENCH_ROOT:-/tmp/fts-stats-bench}
SIZES=${SIZES:-"100 400"}
[ -x "$FTSCOPE" ] || { echo "no ftscope binary at $FTSCOPE (set FTSCOPE or build first)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time missing: apt-get install time" >&2; exit 1; }
OUT=$(mktemp -d /tmp/fts-stats-bench-out.XXXXXX)
trap 'rm -rf "$OUT"' EXIT INT TERM

echo "ftscope: $FTSCOPE"
echo "host: $(uname -r), $(nproc) CPUs, $(date -u +%FT%TZ)"
printf '%-6s %-11s %9s %9s %9s %12s %11s\n' size case input_MB seconds MB/s events/s peakRSS_KB
rc=0
run() { # size name input events [ftscope args...]
    local size=$1 name=$2 in=$3 ev=$4; shift 4
    if ! /usr/bin/time -f '%e %M' -o "$OUT/$name.time" "$FTSCOPE" "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"; then
        echo "$name: failed:" >&2; tail -3 "$OUT/$name.err" >&2; rc=1; return
    fi
    local sec rss; read -r sec rss < <(tail -1 "$OUT/$name.time")
    awk -v z="$size" -v n="$name" -v b="$(stat -c %s "$in")" -v s="$sec" -v e="$ev" -v r="$rss" 'BEGIN {
        mb = b / 1048576; if (s <= 0) s = 0.01
        printf "%-6s %-11s %9.1f %9.2f %9.1f %12.0f %11d\n", z, n, mb, s, mb / s, e / s, r }'
}
for size in $SIZES; do
    dir="$ROOT-$size"
    if [ ! -f "$dir/trace.txt.events" ]; then
        SKIP_DAT=1 FTSCOPE_BENCH_DIR="$dir" "$REPO/bench/make_input.sh" "$size" >&2
    fi
    in="$dir/trace.txt"; ev=$(cat "$dir/trace.txt.events")
    cat "$in" > /dev/null # every case starts from the page cache
    run "$size" model-only "$in" "$ev" stats "$in" --cpu 8191 --format csv
    run "$size" stats "$in" "$ev" stats "$in" --top 20
    run "$size" stats-win "$in" "$ev" stats "$in" --top 20 --window 1s..2s
    if [ "${SKIP_CONVERT:-0}" != 1 ]; then
        run "$size" convert-db "$in" "$ev" convert -q --input "$in" --output "$OUT/ftrace_data.db"
        rm -f "$OUT/ftrace_data.db"
    fi
done
exit $rc
