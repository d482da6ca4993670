#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/trigger_delay.sh - how late a flight trigger fires under load.
#
#   bench/trigger_delay.sh [ftscope-binary] [seconds] [hackbench-groups] [outdir]
#
# Under `hackbench -g GROUPS` (default 4) for SECONDS (default 120): a flight
# recording (--segment 2s --keep 4, so one trigger snapshot per 10 s at
# most) with the live top shown and TRIGGER (default 'runnable>5ms', which
# hackbench's own tasks reach at once on a loaded machine), --post_trigger 0
# and a cap of 100 snapshots. For each trigger snapshot: the decoder's delay
# (manifest trigger.delay_ms: from the wait's end to the flight thread
# taking the hit) and whether its segments hold the event (trigger_held);
# then their median and worst, the load average, and how many of the
# recorded events the triggers' decoder saw (live top: decoded N). Needs
# root. Holds the tracefs lock (scripts/tracefs_lock.py) while it records.
FTS=${1:-$(dirname "$0")/../build/ftscope}
SECS=${2:-120}
GROUPS_=${3:-4}
OUT=${4:-/tmp/ftscope-bench-trigger}
TRIGGER=${TRIGGER:-'runnable>5ms'}
SRC=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" = 0 ] || { echo "bench/trigger_delay.sh: needs root"; exit 1; }
command -v hackbench >/dev/null || { echo "bench/trigger_delay.sh: needs hackbench (rt-tests)"; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT" || exit 1

setsid timeout $((SECS + 5)) hackbench -g "$GROUPS_" -l 100000000 >/dev/null 2>&1 &
load=$!
sleep 2
python3 "$SRC/scripts/tracefs_lock.py" "$FTS" record --flight --segment 2s --keep 4 --live_top \
	--trigger "$TRIGGER" --post_trigger 0 --trigger_cap 100 -t "$SECS" -o "$OUT/t.dat" -q 2>"$OUT/rec.log"
rc=$?
loadavg=$(cut -d' ' -f1-3 /proc/loadavg)
kill -TERM -- -"$load" 2>/dev/null
wait "$load" 2>/dev/null
[ $rc = 0 ] || { cat "$OUT/rec.log"; echo "bench/trigger_delay.sh: the recording failed"; exit 1; }
total=$(awk '$1 ~ /^cpu[0-9]/ && $3 == "events" {s += $2} END {print s + 0}' "$OUT/rec.log")
decoded=$(sed -n 's/^live top: decoded \([0-9]*\) events.*/\1/p' "$OUT/rec.log")
python3 - "$OUT" "$loadavg" "$total" "${decoded:-0}" "$SECS" "$GROUPS_" "$TRIGGER" <<'PY'
import json, os, statistics, sys
out, loadavg, total, decoded, secs, groups, trig = sys.argv[1:8]
rows = []
for d in sorted(x for x in os.listdir(out) if x.startswith("snapshot-")):
    m = json.load(open(os.path.join(out, d, "manifest.json")))
    t = m.get("trigger") or {}
    if "delay_ms" in t:
        rows.append((t["delay_ms"], m.get("trigger_held"), t.get("value_ms", 0), d))
print("trigger %s under hackbench -g %s for %s s, load average %s" % (trig, groups, secs, loadavg))
for delay, held, wait, d in rows:
    print("  %-60s wait %8.1f ms  delay %8.1f ms  held %s" % (d[:60], wait, delay, held))
if rows:
    ds = [r[0] for r in rows]
    print("%d trigger snapshots: delay median %.0f ms, worst %.0f ms; %d of them hold their trigger"
          % (len(rows), statistics.median(ds), max(ds), sum(1 for r in rows if r[1])))
else:
    print("no trigger snapshot")
t, dc = int(total), int(decoded)
print("the triggers' decoder saw %d of %d events (%.2f%%)" % (dc, t, 100.0 * dc / t if t else 0))
PY
