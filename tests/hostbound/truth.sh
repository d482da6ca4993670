#!/bin/bash
# SPDX-License-Identifier: MIT
# Ground truth for `ftscope hostbound`: sim.py runs a dispatch thread that
# launches fake kernels to a simulated device, sleeps on purpose twice and
# is preempted twice by a SCHED_FIFO busy loop ("hb_busy") pinned to its CPU,
# and writes the profiler's files with real clock values; `ftscope record`
# captures the host meanwhile. The gaps over the busy loops must be blamed
# on it (>= 90% of their idle time), the gaps over the sleeps on sleeping.
FTS=$1
SRC=$2
WORK=$3
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" = 0 ] || skip "needs root to record on tracefs"
[ -d /sys/kernel/tracing/instances ] || [ -d /sys/kernel/debug/tracing/instances ] ||
	skip "no tracefs with instances here"
command -v python3 >/dev/null || skip "python3 not installed"
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs (the busy loop takes one, the simulator's main thread the other)"
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || fail "cannot create $WORK"
cpu=$(($(nproc) - 1))

# Recording under the machine-wide lock, for about 5 s (30 s at most); the recorder
# is stopped (and waited for) whatever happens.
cat > rec.sh <<EOS
"$FTS" record --record_time 30 -q -o cap.dat 2>rec.log &
rec=\$!
trap 'kill -INT \$rec 2>/dev/null; wait \$rec' EXIT
sleep 2
timeout -s KILL 25 python3 "$SRC/tests/hostbound/sim.py" . $cpu > sim.log 2>&1 || { cat sim.log; exit 1; }
sleep 0.5
EOS
python3 "$SRC/scripts/tracefs_lock.py" bash rec.sh || fail "the recording or the simulator failed"
cat sim.log
[ -s cap.dat ] || { cat rec.log; fail "no capture"; }

"$FTS" hostbound cap.dat -p prof -t 2000 -f json -o hb.json 2>hb.err || { cat hb.err; fail "hostbound failed"; }
"$FTS" hostbound cap.dat -p prof -t 2000 -n 0 > hb.txt 2>>hb.err || { cat hb.err; fail "hostbound (text) failed"; }
cat hb.txt
grep -q 'preempted' hb.txt || fail "no preempted line in the text report"
grep -q 'hb_busy' hb.txt || fail "the text report does not name the busy loop"
python3 - truth.json hb.json <<'PY' || fail "attribution off (above)"
import json, sys
truth = json.load(open(sys.argv[1]))
hb = json.load(open(sys.argv[2]))["cards"][0]
gaps = hb["worst_gaps"]
assert hb["gap_source"] == "free", hb["gap_source"]
ok = True

def over(a, b):
    return [g for g in gaps if g["start_ns"] < b and g["start_ns"] + g["dur_ns"] > a]

for a, b, child in truth["preempt"]:
    gs = over(a, b)
    idle = sum(g["dur_ns"] for g in gs)
    blamed = sum(g["top_preempter_ns"] for g in gs
                 if (g["top_preempter"] or "").startswith("hb_busy:%d" % child))
    share = blamed / idle if idle else 0
    print("busy loop %d: %.1f ms stretch, %d gap(s), %.1f ms idle, %.1f%% blamed on it"
          % (child, (b - a) / 1e6, len(gs), idle / 1e6, 100 * share))
    if idle < 0.5 * (b - a) or share < 0.9:
        ok = False
    for g in gs:
        if g["dispatch_tid"] != truth["dispatch_tid"]:
            print("  gap at %d: dispatch tid %s, not %d" % (g["start_ns"], g["dispatch_tid"], truth["dispatch_tid"]))
            ok = False
for a, b in truth["sleep"]:
    gs = over(a, b)
    idle = sum(g["dur_ns"] for g in gs)
    slept = sum(g["ns"]["sleeping"] for g in gs)
    share = slept / idle if idle else 0
    print("sleep: %.1f ms stretch, %d gap(s), %.1f ms idle, %.1f%% sleeping, verdicts %s"
          % ((b - a) / 1e6, len(gs), idle / 1e6, 100 * share, [g["verdict"] for g in gs]))
    if idle < 0.5 * (b - a) or share < 0.8 or any(g["verdict"] != "sleeping" for g in gs):
        ok = False
sys.exit(0 if ok else 1)
PY
echo "ok: hostbound blames the busy loop and the sleeps"
