#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The DB's ids follow the model's order: the SQLite sink inserts slices and
# wakeup links many per statement and per table pass, and must keep every
# table's rows (so slice.id and flow.id) in the order the JSON sink, which
# writes as it receives, has them. Inputs big enough for several batches and
# for both the many-row and the one-row statements.
source "$(dirname "$0")/lib.sh"

order() { # name input
	local name=$1 in=$2
	expect_ok "$name: DB" "$FTSCOPE" convert -q --input "$in" --output "$WORK/$name.db"
	expect_ok "$name: JSON" "$FTSCOPE" convert -q --input "$in" --output "$WORK/$name.json"
	if python3 - "$WORK/$name.db" "$WORK/$name.json" > "$WORK/$name.out" 2>&1 <<'PY'
import decimal, json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
ns = lambda us: int(decimal.Decimal(us) * 1000)
ev = json.load(open(sys.argv[2]), parse_float=str, parse_int=str)
want = [(e["tid"], e["name"], ns(e["ts"]), ns(e["dur"]), e.get("args", {})) for e in ev if e["ph"] == "X"]
got = [(tid, n, t, d, json.loads(a)) for tid, n, t, d, a in db.execute(
    "SELECT t.tid, s.name, s.timestamp, s.duration, s.args FROM slice s"
    " JOIN thread t ON t.track_id = s.track_id ORDER BY s.id")]
ids = [i for (i,) in db.execute("SELECT id FROM slice ORDER BY id")]
fwant = [(str(e["id"]), e["ph"], ns(e["ts"])) for e in ev if e["ph"] in ("s", "f")]
fgot = list(db.execute("SELECT flow_id, type, timestamp FROM flow ORDER BY id"))
bad = []
if ids != list(range(1, len(ids) + 1)):
    bad.append("slice ids are not 1..n")
if got != want:
    i = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    bad.append("slice %d of %d/%d: DB %r, JSON %r" % (i, len(got), len(want), got[i:i + 1], want[i:i + 1]))
if fgot != fwant:
    bad.append("flows differ: %d DB rows, %d JSON events" % (len(fgot), len(fwant)))
if len(want) < 3 * 32 or not fwant:
    bad.append("input too small to test (%d slices, %d flow rows)" % (len(want), len(fwant)))
print("; ".join(bad) or "%d slices, %d flow rows in order" % (len(want), len(fwant)))
sys.exit(1 if bad else 0)
PY
	then pass "$name: $(cat "$WORK/$name.out")"; else bad "$name: $(cat "$WORK/$name.out")"; fi
}

order hackbench "$SRC/tests/data/hackbench/hackbench.dat"
order sample "$SRC/assets/sample/sample.dat"
finish
