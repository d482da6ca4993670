#!/bin/bash
# SPDX-License-Identifier: MIT
# The flight recorder's scheduling triggers (issue 17) on the real tracefs:
# a victim thread made to wait Runnable behind a pinned SCHED_FIFO hog (3
# spins of 30 ms, bounded) fires --trigger 'runnable>15ms:comm=ftsvict*'
# once (rate-limited: one per ring, 10 s at least, while the hog spins three
# times a second apart); the snapshot's manifest names the rule, the task
# and the wait; converting the snapshot shows that Runnable slice, its
# length the manifest's, ending at the trigger's time, while ftshog ran.
# Also: a bad trigger is refused before recording; a wakeup trigger that
# nothing reaches takes no snapshot. The tracing state is left as found.
source "$(dirname "$0")/lib.sh" "$@"
command -v python3 >/dev/null || skip "python3 not installed (the workload and the checks)"
before=$(state)
HOG="$SRC/tests/record/flight_hog.py"

# ---- refused before recording, nothing written --------------------------------
mkdir bad
for t in 'runnable>5' 'runnable>5ms:uid=0' 'sleep>5ms' 'wakeup>0ms'; do
	"$FTS" record --flight --segment 1s --trigger "$t" -o bad/t.dat -q -t 2 2>bad.err &&
		fail "--trigger '$t' was accepted"
	grep -q -- "--trigger takes" bad.err || { cat bad.err; fail "the refusal of '$t' does not say why"; }
done
[ -z "$(ls bad)" ] || fail "a refused trigger left files: $(ls bad)"

# ---- the trigger fires, once, and the snapshot shows the wait --------------------
ncpu=$(nproc)
cpu=$((ncpu - 1))
mkdir a
"$FTS" record --flight --segment 2s --keep 4 --trigger 'runnable>15ms:comm=ftsvict*' \
	--trigger 'wakeup>5s' --post_trigger 1 -o a/t.dat -q 2>a.log &
rec=$!
REC_PIDS="$REC_PIDS $rec"
sleep 1.5
python3 "$HOG" "$cpu" 30 3 1 >hog.out 2>hog.err
hrc=$?
[ $hrc = 77 ] && { kill -INT $rec; wait $rec; skip "no SCHED_FIFO here: $(cat hog.out)"; }
[ $hrc = 0 ] || { cat hog.err; fail "the workload failed"; }
# the top decodes within a second or two; then post_trigger 1 s
for i in $(seq 1 40); do
	ls -d a/snapshot-* >/dev/null 2>&1 && [ -e "$(ls -d a/snapshot-* | head -1)/manifest.json" ] && break
	sleep 0.25
done
sleep 1
kill -INT $rec
wait $rec || { cat a.log; fail "the flight recording failed"; }
cat a.log
snaps=$(ls -d a/snapshot-* 2>/dev/null)
[ -n "$snaps" ] || { cat a.log hog.out; fail "no snapshot: the trigger did not fire"; }
[ "$(echo "$snaps" | wc -l)" = 1 ] || fail "the trigger was not rate-limited: $snaps"
case $snaps in *-runnable_15ms_comm_ftsvict_) ;; *) fail "snapshot directory name '$snaps'";; esac
grep -q "trigger runnable>15ms:comm=ftsvict\* (ftsvictim:[0-9]* waited [0-9.]* ms): snapshot $snaps" a.log ||
	fail "the trigger snapshot was not said"
"$FTS" convert -i "$snaps" -o snap.json -f json 2>conv.err || { cat conv.err; fail "the snapshot does not convert"; }
python3 - "$snaps/manifest.json" snap.json hog.out <<'PY' || fail "the snapshot does not show the trigger's wait"
import json, sys
m = json.load(open(sys.argv[1]))
t = m["trigger"]
assert m["reason"] == "runnable>15ms:comm=ftsvict*", m["reason"]
assert t["rule"] == m["reason"] and t["kind"] == "runnable", t
assert t["task"].startswith("ftsvictim:"), t
assert t["value_ns"] > 15e6 and t["threshold_ns"] == 15000000, t
assert t["hits"] >= 1, t
spins = [tuple(map(int, l.split()[1:])) for l in open(sys.argv[3]) if l.startswith("spin ")]
assert len(spins) == 3, spins
ev = json.load(open(sys.argv[2]))
ev = ev["traceEvents"] if isinstance(ev, dict) else ev
end_us = t["event_realtime_ns"] / 1e3
slices = [e for e in ev if e.get("ph") == "X" and e.get("name") == "Runnable" and e.get("tid") == t["task"]]
assert slices, "no Runnable slice of " + t["task"]
best = min(slices, key=lambda e: abs(e["ts"] + e["dur"] - end_us))
off_ms = (best["ts"] + best["dur"] - end_us) / 1e3
print("victim waited %.3f ms (manifest %.3f ms), ending %.3f ms from the manifest's trigger time"
      % (best["dur"] / 1e3, t["value_ns"] / 1e6, off_ms))
# the manifest's realtime is mono_raw mapped at snapshot time; convert maps by the clock marker
assert abs(off_ms) < 20, off_ms
assert abs(best["dur"] * 1e3 - t["value_ns"]) < 2000, (best, t)
# the hog ran during the wait (its Running slice overlaps it)
hog = [e for e in ev if e.get("ph") == "X" and e.get("name") == "Running" and str(e.get("tid", "")).startswith("ftshog:")]
lo, hi = best["ts"], best["ts"] + best["dur"]
assert any(h["ts"] < hi and h["ts"] + h["dur"] > lo for h in hog), "ftshog did not run during the wait"
# and the trigger's time falls in a spin (mono_raw, as the hog printed it)
assert any(a - 1e6 <= t["event_mono_raw_ns"] <= b + 5e6 for a, b in spins), (t["event_mono_raw_ns"], spins)
PY
grep -q 'wakeup' <(ls a) && fail "the unreached wakeup>5s trigger took a snapshot"
for s in $(ls a | grep '^t\.[0-9]\{6\}\.dat$'); do
	"$FTS" stats a/$s >/dev/null 2>stats.err || { cat stats.err; fail "ftscope stats cannot read $s"; }
done
after=$(state)
[ "$before" = "$after" ] || { diff <(echo "$before") <(echo "$after"); fail "tracing state changed"; }
echo "PASS"
