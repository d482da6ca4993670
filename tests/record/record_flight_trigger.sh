#!/bin/bash
# SPDX-License-Identifier: MIT
# The flight recorder's scheduling triggers (issue 17) on the real tracefs:
# a victim thread made to wait Runnable behind a pinned SCHED_FIFO hog (3
# spins of 30 ms, bounded) fires --trigger 'runnable>15ms:comm=ftsvict*'
# once (rate-limited: one per ring, 10 s at least, while the hog spins three
# times a second apart); the snapshot's manifest names the rule, the task
# and the wait; converting the snapshot shows that Runnable slice, its
# length the manifest's, ending at the trigger's time, while ftshog ran.
# The same with 'wakeup>15ms:comm=ftsvictim' (the wait after its wakeup) and
# --live_top, whose decoder follows the rotated streams: it decodes >= 90% of
# the whole run's events, not the first segment's.
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
# one_case DIR KIND RULE DIRSUFFIX: a recording with RULE (and an unreachable
# wakeup>5s) around the hog; its one snapshot checked against the converted trace
one_case() {
	local d=$1 kind=$2 rule=$3 suffix=$4 rec hrc snaps
	mkdir "$d"
	"$FTS" record --flight --segment 2s --keep 4 --trigger "$rule" $EXTRA \
		--trigger 'wakeup>5s' --post_trigger 1 -o "$d/t.dat" -q 2>"$d.log" &
	rec=$!
	REC_PIDS="$REC_PIDS $rec"
	sleep 1.5
	python3 "$HOG" "$cpu" 30 3 1 >"$d.hog" 2>"$d.hogerr"
	hrc=$?
	[ $hrc = 77 ] && { kill -INT $rec; wait $rec; skip "no SCHED_FIFO here: $(cat "$d.hog")"; }
	[ $hrc = 0 ] || { cat "$d.hogerr"; fail "the workload failed"; }
	# the top decodes within a second or two; then post_trigger 1 s
	for i in $(seq 1 40); do
		ls "$d"/snapshot-*/manifest.json >/dev/null 2>&1 && break
		sleep 0.25
	done
	sleep 1
	kill -INT $rec
	wait $rec || { cat "$d.log"; fail "the flight recording failed"; }
	cat "$d.log"
	snaps=$(ls -d "$d"/snapshot-* 2>/dev/null)
	[ -n "$snaps" ] || { cat "$d.log" "$d.hog"; fail "$kind: no snapshot: the trigger did not fire"; }
	[ "$(echo "$snaps" | wc -l)" = 1 ] || fail "$kind: the trigger was not rate-limited: $snaps"
	case $snaps in *-"$suffix") ;; *) fail "$kind: snapshot directory name '$snaps'";; esac
	grep -qF "trigger $rule (ftsvictim:" "$d.log" && grep -q "waited [0-9.]* ms): snapshot $snaps" "$d.log" ||
		fail "$kind: the trigger snapshot was not said"
	"$FTS" convert -i "$snaps" -o "$d.json" -f json 2>"$d.conv" || { cat "$d.conv"; fail "the snapshot does not convert"; }
	python3 - "$snaps/manifest.json" "$d.json" "$d.hog" "$kind" "$rule" <<'PY' || fail "$kind: the snapshot does not show the trigger's wait"
import json, sys
m = json.load(open(sys.argv[1]))
kind, rule = sys.argv[4], sys.argv[5]
t = m["trigger"]
assert m["reason"] == rule, m["reason"]
assert t["rule"] == rule and t["kind"] == kind, t
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
print("%s: victim waited %.3f ms (manifest %.3f ms, reason %s), ending %.3f ms from the manifest's trigger time"
      % (kind, best["dur"] / 1e3, t["value_ns"] / 1e6, best["args"].get("reason"), off_ms))
# the manifest's realtime is mono_raw mapped at snapshot time; convert maps by the clock marker
assert abs(off_ms) < 20, off_ms
assert abs(best["dur"] * 1e3 - t["value_ns"]) < 2000, (best, t)
if kind == "wakeup":
    assert best["args"].get("reason") in ("wakeup", "new"), best
# the hog ran during the wait (its Running slice overlaps it)
hog = [e for e in ev if e.get("ph") == "X" and e.get("name") == "Running" and str(e.get("tid", "")).startswith("ftshog:")]
lo, hi = best["ts"], best["ts"] + best["dur"]
assert any(h["ts"] < hi and h["ts"] + h["dur"] > lo for h in hog), "ftshog did not run during the wait"
# and the trigger's time falls in a spin (mono_raw, as the hog printed it)
assert any(a - 1e6 <= t["event_mono_raw_ns"] <= b + 5e6 for a, b in spins), (t["event_mono_raw_ns"], spins)
PY
	ls "$d" | grep -q 'wakeup_5s' && fail "the unreached wakeup>5s trigger took a snapshot"
	for s in $(ls "$d" | grep '^t\.[0-9]\{6\}\.dat$'); do
		"$FTS" stats "$d/$s" >/dev/null 2>stats.err || { cat stats.err; fail "ftscope stats cannot read $s"; }
	done
}
EXTRA= one_case a runnable 'runnable>15ms:comm=ftsvict*' 'runnable_15ms_comm_ftsvict_'
# with the live top shown: it follows the rotations, so it decodes the whole run
EXTRA=--live_top one_case b wakeup 'wakeup>15ms:comm=ftsvictim' 'wakeup_15ms_comm_ftsvictim'
total=$(awk '$1 ~ /^cpu[0-9]/ && $3 == "events" {s += $2} END {print s + 0}' b.log)
decoded=$(sed -n 's/^live top: decoded \([0-9]*\) events.*/\1/p' b.log)
echo "live top over the flight recording: decoded $decoded of $total events"
[ -n "$decoded" ] && [ "$total" -gt 0 ] || fail "no live top or event count in b.log"
[ $((decoded * 10)) -ge $((total * 9)) ] || fail "the live top decoded $decoded of $total events: it lost the rotated streams"
after=$(state)
[ "$before" = "$after" ] || { diff <(echo "$before") <(echo "$after"); fail "tracing state changed"; }
echo "PASS"
