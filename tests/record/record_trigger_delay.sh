#!/bin/bash
# SPDX-License-Identifier: MIT
# A trigger sees every event and fires within a bounded delay, under load
# (issue 33 item 9). Under hackbench, a flight recording with the live top
# shown and --trigger 'runnable>5ms' (hackbench's tasks wait that long all
# the time on a loaded machine): each trigger snapshot's manifest holds its
# event (trigger_held) and says the decoder's delay (trigger.delay_ms, from
# the wait's end to the flight thread taking the hit), which must be within
# DELAY_MS (2 s: the top's 0.5 s tick, its 1 s merge lag, the flight
# thread's 0.1 s) times the measured load (time_scale); the live top (the
# triggers' decoder) decodes every event recorded but those the merge drops
# as late, and skips no page (the old code sampled pages: with the top on,
# 5 of 9 long waits were never tested, and triggers fired 2.5-15.5 s late).
# Also: --trigger_cap refusals, and the cap with `--trigger_cap 1`: one
# trigger snapshot left of two, the second's manifest naming the first as
# removed. The tracing state is left as found.
source "$(dirname "$0")/lib.sh" "$@"
command -v python3 >/dev/null || skip "python3 not installed (the checks)"
command -v hackbench >/dev/null || skip "hackbench not installed (the load)"
before=$(state)
SCALE=$(time_scale)
DELAY_MS=2000

# ---- refused before recording ------------------------------------------------
for c in 0 x 1,0 1,5x 100001 ,1G; do
	"$FTS" record --flight --trigger lost --trigger_cap "$c" -o bad.dat -q -t 1 2>bad.err &&
		fail "--trigger_cap '$c' was accepted"
	grep -q -- "--trigger_cap takes" bad.err || { cat bad.err; fail "the refusal of --trigger_cap '$c' does not say why"; }
done
"$FTS" record --flight --trigger_cap 3 -o bad.dat -q -t 1 2>bad.err && fail "--trigger_cap without --trigger was accepted"
grep -q "belong to --trigger" bad.err || { cat bad.err; fail "--trigger_cap without --trigger: no reason"; }
ls bad* 2>/dev/null | grep -qv '^bad.err$' && fail "a refused --trigger_cap left files: $(ls bad*)"

# ---- under load: every snapshot holds its trigger, within the bound ------------
mkdir a
load 20
sleep 1
"$FTS" record --flight --segment 1s --keep 3 --live_top --trigger 'runnable>5ms' --post_trigger 0 \
	--trigger_cap 1 -t 13 -o a/t.dat -q 2>a.log || { cat a.log; fail "the flight recording failed"; }
cat a.log
python3 - a "$DELAY_MS" "$SCALE" <<'PY' || fail "the trigger snapshots"
import json, os, sys
d, bound, scale = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
snaps = sorted(x for x in os.listdir(d) if x.startswith("snapshot-"))
assert len(snaps) == 1, ("--trigger_cap 1 keeps one", snaps)
m = json.load(open(os.path.join(d, snaps[0], "manifest.json")))
t = m["trigger"]
print("trigger %s: %s waited %.1f ms; seen %.0f ms after the wait ended (bound %.0f ms x%d); held %s"
      % (t["rule"], t["task"], t["value_ms"], t["delay_ms"], bound, scale, m["trigger_held"]))
assert m["trigger_held"] is True, m
assert t["delay_ms"] <= bound * scale, (t["delay_ms"], bound * scale)
cap = m["trigger_snapshots"]
assert cap["keep"] == 1 and cap["max_bytes"] == 4 << 30, cap
log = open(d + ".log").read()
# 13 s at one per ring (10 s at least): a first, then a second that removed it
if "the triggers took 2 snapshots" in log:
    assert cap["dropped"] and cap["dropped"][0]["removed"] is True, cap
    assert cap["dropped"][0]["dir"] not in snaps, cap
    print("the second trigger snapshot removed the first:", cap["dropped"][0]["dir"])
else:
    print("one trigger snapshot in 13 s (the second came too late for the run)")
PY
# the decoder saw every event: decoded = recorded, less the merge's late ones (< 0.5%)
total=$(awk '$1 ~ /^cpu[0-9]/ && $3 == "events" {s += $2} END {print s + 0}' a.log)
decoded=$(sed -n 's/^live top: decoded \([0-9]*\) events.*/\1/p' a.log)
echo "live top with a trigger under load: decoded $decoded of $total events"
[ -n "$decoded" ] && [ "$total" -gt 0 ] || fail "no live top or event count in a.log"
[ $((decoded * 1000)) -ge $((total * 995)) ] || fail "the triggers' decoder saw $decoded of $total events: it sampled"
after=$(state)
[ "$before" = "$after" ] || { diff <(echo "$before") <(echo "$after"); fail "tracing state changed"; }
echo "PASS"
