#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make_input.sh — build large, real-looking inputs for bench/convert.sh.
#
# What (all in the cache dir, default /tmp/ftscope-bench, or $FTSCOPE_BENCH_DIR):
#   trace.txt         a real tracefs text capture (default: assets/sample/sample.txt,
#                     or $BENCH_BASE_TXT) replicated until >= SIZE_MB MB. Copy k is the
#                     base with every timestamp shifted by k*(capture span + 1 us); the
#                     per-line format (column widths, 6 fractional digits) is kept, pids
#                     are unchanged (the same tasks keep running), header only once.
#   trace.txt.events  number of event lines in trace.txt (counted once with grep)
#   trace.dat         a long real capture: hackbench in a loop into a private instance
#                     (300000 KB per CPU, mono_raw) until it holds about as many events
#                     as trace.txt (or DAT_MAX_SECONDS), then `trace-cmd extract`.
#   trace.dat.events  events in trace.dat (sum of per-CPU `entries`, overrun must be 0)
#   trace192.txt      (WIDE=1) a synthetic wide host: 192 CPUs always busy, 100 k tasks,
#                     each CPU switching every 960 us (bench/make_wide.py; WIDE_CPUS,
#                     WIDE_TASKS, WIDE_STEPS: 192, 100000, 1200 = about 0.9 M events)
# How: sudo bench/make_input.sh [SIZE_MB]        (default 400; env SIZE_MB too)
#      env: FTSCOPE_BENCH_DIR, BENCH_BASE_TXT, DAT_KB (300000), DAT_MAX_SECONDS (60),
#           SKIP_DAT=1 (text only), FORCE=1 (rebuild even if cached),
#           WIDE=1 (also trace192.txt), ONLY_WIDE=1 (trace192.txt only)
# Cached files are reused when their recorded parameters match. The tracefs instance
# is removed on any exit (trap); global tracing files are never written.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
source "$REPO/scripts/capture_lib.sh"
SIZE_MB=${1:-${SIZE_MB:-400}}
DIR=${FTSCOPE_BENCH_DIR:-/tmp/ftscope-bench}
BASE=${BENCH_BASE_TXT:-$REPO/assets/sample/sample.txt}
DAT_KB=${DAT_KB:-300000}
DAT_MAX_SECONDS=${DAT_MAX_SECONDS:-60}
TRACEFS=/sys/kernel/tracing
INST="ftsbench-$$"; T="$TRACEFS/instances/$INST"
LOADPID=""
cleanup() {
    [ -n "$LOADPID" ] && kill "$LOADPID" 2>/dev/null || true
    if [ -d "$T" ]; then
        echo 0 2>/dev/null > "$T/tracing_on" || true
        rmdir "$T" 2>/dev/null || true
    fi
}
trap cleanup EXIT INT TERM
mkdir -p "$DIR"
[ -f "$BASE" ] || { echo "base text capture $BASE not found (run assets/sample/make_sample.sh)" >&2; exit 1; }

# ------------------------------------------------------------------ wide (issue 20)
if [ "${WIDE:-0}" = 1 ] || [ "${ONLY_WIDE:-0}" = 1 ]; then
    WIDE_KEY="cpus=${WIDE_CPUS:-192} tasks=${WIDE_TASKS:-100000} steps=${WIDE_STEPS:-1200} gen=$(cksum < "$REPO/bench/make_wide.py")"
    if [ "${FORCE:-0}" = 1 ] || [ ! -f "$DIR/trace192.txt.key" ] || [ "$(cat "$DIR/trace192.txt.key")" != "$WIDE_KEY" ]; then
        rm -f "$DIR/trace192.txt.key"
        python3 "$REPO/bench/make_wide.py" "$DIR/trace192.txt.tmp" "${WIDE_CPUS:-192}" "${WIDE_TASKS:-100000}" \
            "${WIDE_STEPS:-1200}"
        mv "$DIR/trace192.txt.tmp" "$DIR/trace192.txt"
        echo "$WIDE_KEY" > "$DIR/trace192.txt.key"
    fi
    echo "trace192.txt: $(( $(stat -c %s "$DIR/trace192.txt") / 1048576 )) MB"
    [ "${ONLY_WIDE:-0}" = 1 ] && exit 0
fi

# ------------------------------------------------------------------ text
TXT_KEY="size_mb=$SIZE_MB base=$BASE base_bytes=$(stat -c %s "$BASE")"
if [ "${FORCE:-0}" = 1 ] || [ ! -f "$DIR/trace.txt.key" ] || [ "$(cat "$DIR/trace.txt.key")" != "$TXT_KEY" ]; then
    echo "building $DIR/trace.txt (>= $SIZE_MB MB) from $BASE ..."
    rm -f "$DIR/trace.txt.key"
    python3 - "$BASE" "$DIR/trace.txt.tmp" "$SIZE_MB" <<'PY'
import re, sys
base, out, size_mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
# "<task>-<pid> [<cpu>] <flags> <sec>.<usec>: <event>..." (tracefs text; 6 fractional digits)
# seconds are right-aligned in a field (the kernel prints " %5llu.%06lu"): keep that
# field's width so a shift from 999 s to 1000 s eats a pad space, as the kernel would.
rx = re.compile(rb'^(.*?\[\d+\] +\S+)( +)(\d+)\.(\d{6})(: .*\n?)$', re.S)
header, lines = [], []
with open(base, "rb") as f:
    for ln in f:
        m = rx.match(ln) if not ln.startswith(b"#") else None
        if m is None:
            if not lines:
                header.append(ln)       # header comments before the first event
            elif not ln.startswith(b"#"):
                lines.append((ln, None, None, None))   # e.g. "CPU 1 buffer started": keep as is
            continue
        sec = m.group(3)
        us = int(sec) * 1000000 + int(m.group(4))
        lines.append((m.group(1) + b" ", us, len(m.group(2)) + len(sec) - 1, m.group(5)))
tss = [l[1] for l in lines if l[1] is not None]
span = max(tss) - min(tss)
step = span + 1
target = size_mb * 1024 * 1024
written = 0
copies = 0
with open(out, "wb", buffering=1 << 22) as o:
    for h in header:
        o.write(h); written += len(h)
    while written < target:
        off = copies * step
        buf = []
        for pre, us, w, post in lines:
            if us is None:
                buf.append(pre); continue
            t = us + off
            buf.append(b"%s%*d.%06d%s" % (pre, w, t // 1000000, t % 1000000, post))
        chunk = b"".join(buf)
        o.write(chunk); written += len(chunk)
        copies += 1
print(f"  {copies} copies of {len(lines)} lines, span {span} us, {written/1e6:.1f} MB")
PY
    mv "$DIR/trace.txt.tmp" "$DIR/trace.txt"
    grep -vc '^#' "$DIR/trace.txt" > "$DIR/trace.txt.events"
    echo "$TXT_KEY" > "$DIR/trace.txt.key"
fi
TXT_EVENTS=$(cat "$DIR/trace.txt.events")
echo "trace.txt: $(( $(stat -c %s "$DIR/trace.txt") / 1048576 )) MB, $TXT_EVENTS events"

# ------------------------------------------------------------------ dat
[ "${SKIP_DAT:-0}" = 1 ] && exit 0
DAT_KEY="events>=$TXT_EVENTS kb=$DAT_KB max_s=$DAT_MAX_SECONDS"
if [ "${FORCE:-0}" = 1 ] || [ ! -f "$DIR/trace.dat.key" ] || [ "$(cat "$DIR/trace.dat.key")" != "$DAT_KEY" ]; then
    echo "recording $DIR/trace.dat: hackbench until ~$TXT_EVENTS events or ${DAT_MAX_SECONDS}s ..."
    rm -f "$DIR/trace.dat.key"
    [ -d "$TRACEFS/instances" ] || mount -t tracefs nodev "$TRACEFS"
    mkdir "$T"
    fts_instance_setup "$T" "$DAT_KB"
    entries() { awk '/^entries:/ {s += $2} END {print s + 0}' "$T"/per_cpu/cpu*/stats; }
    echo 1 > "$T/tracing_on"
    ( while :; do hackbench -g 2 -l 200 >/dev/null 2>&1 || true; sleep 0.05; done ) & LOADPID=$!
    start=$SECONDS
    while [ $((SECONDS - start)) -lt "$DAT_MAX_SECONDS" ] && [ "$(entries)" -lt "$TXT_EVENTS" ]; do sleep 1; done
    echo 0 > "$T/tracing_on"
    kill "$LOADPID" 2>/dev/null || true; wait "$LOADPID" 2>/dev/null || true; LOADPID=""
    OVERRUN=$(awk '/^overrun:/ {s += $2} END {print s + 0}' "$T"/per_cpu/cpu*/stats)
    N=$(entries)
    [ "$OVERRUN" = 0 ] || { echo "overrun $OVERRUN: raise DAT_KB" >&2; exit 1; }
    echo "  $N events in $((SECONDS - start)) s, extracting ..."
    rm -f "$DIR/trace.dat"
    trace-cmd extract -B "$INST" -o "$DIR/trace.dat" >/dev/null 2>&1   # also removes the instance
    echo "$N" > "$DIR/trace.dat.events"
    echo "$DAT_KEY" > "$DIR/trace.dat.key"
fi
echo "trace.dat: $(( $(stat -c %s "$DIR/trace.dat") / 1048576 )) MB, $(cat "$DIR/trace.dat.events") events"
