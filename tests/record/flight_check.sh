#!/bin/bash
# SPDX-License-Identifier: MIT
# flight_check.sh FTSCOPE DIR TRIGGER_CAP SCRATCH - what a flight recording left in DIR
# keeps its promises (issue 33's acceptance; record_flight_disk.sh, bench/flight_soak.sh):
#   triggers  trigger snapshots (snapshot-* not ending -soak or -operator) <= TRIGGER_CAP;
#             each manifest holds its trigger or says trigger_not_held
#   segments  every snapshot's segment converted alone: on the wall clock by its own clock
#             pair, and its loss (stats) the figure its snapshot's manifest gives it
# Prints the figures; exit 1 and the first failure otherwise.
FTS=$1 DIR=$2 CAP=$3 W=$4
fail() { echo "flight_check: FAIL $*"; exit 1; }
mkdir -p "$W" || fail "cannot create $W"

python3 - "$DIR" "$CAP" <<'PY' || fail "trigger snapshots"
import glob, json, sys
trig = [d for d in glob.glob(sys.argv[1] + "/snapshot-*") if not d.endswith(("-soak", "-operator"))]
held = not_held = 0
for d in trig:
    m = json.load(open(d + "/manifest.json"))
    if m.get("trigger_held") is False:
        if "trigger_not_held" not in m:
            sys.exit("%s: not held, and no trigger_not_held" % d)
        not_held += 1
    else:
        held += 1
print("triggers: %d trigger snapshots on disk (cap %s): %d hold their trigger, %d say they do not"
      % (len(trig), sys.argv[2], held, not_held))
if len(trig) > int(sys.argv[2]):
    sys.exit("more trigger snapshots than the cap")
PY

n=0
for man in "$DIR"/snapshot-*/manifest.json; do
	[ -f "$man" ] || continue
	for seg in "$(dirname "$man")"/*.dat; do
		[ -f "$seg" ] || continue
		"$FTS" convert -i "$seg" -o "$W/one.json" --format json >"$W/conv.out" 2>&1 ||
			{ cat "$W/conv.out"; fail "convert of $seg"; }
		grep -q "placed on the wall clock by the recorder's clock pair" "$W/conv.out" ||
			{ cat "$W/conv.out"; fail "$seg alone is not on the wall clock"; }
		"$FTS" stats "$seg" --format json --top 0 >"$W/st.json" 2>"$W/st.err" ||
			{ cat "$W/st.err"; fail "stats of $seg"; }
		python3 - "$man" "$seg" "$W/st.json" <<'PY' || fail "loss of $seg"
import json, os, sys
man, seg, st = json.load(open(sys.argv[1])), os.path.basename(sys.argv[2]), json.load(open(sys.argv[3]))
want = [s["lost_events"] for s in man["segments"] if os.path.basename(s["file"]) == seg]
got = sum(c["lost_events"] for c in st["cpus"])
if want and want[0] != got:
    sys.exit("%s: manifest %d lost, stats %d" % (seg, want[0], got))
PY
		n=$((n + 1))
	done
done
echo "segments: $n snapshot segments converted alone, each on the wall clock with its manifest's loss"
[ "$n" -gt 0 ] || fail "no snapshot segments to check"
rm -f "$W/one.json" "$W/conv.out" "$W/st.json" "$W/st.err"
