#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 33 item 7: two runs in one directory are never joined. Numbering goes
# on across runs, and each segment carries its run's id (its CPUSTAT: `ftscope
# run:`, also the snapshot manifest's "run"); readers of the directory read
# the newest run and say so in their one-line note. Two 3 s runs 8 s apart,
# a CPU hog in both: stats, convert and preview of the directory cover the
# second run only (the old readers joined them: the hog ran through the gap,
# 8 s of invented Running time). A segment copied under another number
# (item 10) is read once.
source "$(dirname "$0")/lib.sh" "$@"
before=$(state)
mkdir d
setsid timeout 25 sh -c 'while :; do :; done' >/dev/null 2>&1 &
LOAD_PIDS="$LOAD_PIDS $!"
"$FTS" record --flight --segment 1s --keep 100 -t 3 -o d/t.dat -q >r1.out 2>&1 || { cat r1.out; fail "run 1 failed"; }
sleep 8
"$FTS" record --flight --segment 1s --keep 100 -t 3 -o d/t.dat -q >r2.out 2>&1 || { cat r2.out; fail "run 2 failed"; }
last=$(ls d | grep '^t\.[0-9]*\.dat$' | tail -1)
n=${last#t.}; n=$((10#${n%.dat} + 1))
cp "d/$last" "d/t.$(printf %06d $n).dat"   # a duplicate: the same segment under another number
"$FTS" stats d --format json --top 5 >st.json 2>st.err || { cat st.err; fail "stats of the directory failed"; }
cat st.err
python3 - <<'PY' || fail "the runs were joined"
import json, sys
st = json.load(open("st.json"))
w = (st["window"]["end_ns"] - st["window"]["begin_ns"]) / 1e9
run = max(t["running_ns"] for t in st["tasks"]) / 1e9
print("window %.2f s, the busiest task ran %.2f s" % (w, run))
if w > 5:
    sys.exit("the window spans %.1f s: both runs and the gap between them" % w)
if run > w + 0.01:
    sys.exit("a task ran %.1f s in a %.1f s window" % (run, w))
PY
grep -q "the newest of 2 recording runs here" st.err || fail "stats does not say it read the newest run"
grep -q "found again under another number, read once" st.err || fail "stats does not say the duplicate was read once"
one=$("$FTS" stats "d/$last" --format json --top 0 2>/dev/null | python3 -c 'import json,sys; print(sum(c["switches"] for c in json.load(sys.stdin)["cpus"]))')
both=$(python3 -c 'import json; print(sum(c["switches"] for c in json.load(open("st.json"))["cpus"]))')
"$FTS" convert -i d -o d.json --format json >conv.out 2>&1 || { cat conv.out; fail "convert of the directory failed"; }
grep -q "the newest of 2 recording runs here" conv.out || { cat conv.out; fail "convert does not say it read the newest run"; }
"$FTS" preview d --print 120x30 >prev.out 2>&1 || { cat prev.out; fail "preview of the directory failed"; }
grep -q "the newest of 2 recording runs here" prev.out || fail "preview does not say it read the newest run"
echo "switches: last segment $one, the newest run $both"
runs=$(for s in d/t.*.dat; do trace-cmd report --stat -i "$s" 2>/dev/null | sed -n 's/^ftscope run: //p'; done | sort -u | wc -l)
[ "$runs" = 2 ] || fail "the segments name $runs runs, not 2"
after=$(state)
[ "$before" = "$after" ] || { diff <(echo "$before") <(echo "$after"); fail "the tracing state changed"; }
echo "PASS: runs kept apart, the newest read and said; a duplicate read once"
