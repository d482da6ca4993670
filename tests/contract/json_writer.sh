#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The JSON sink's writer thread (issue 20): a JSON of several times the
# writer's queue (1 MiB batches, four in flight) arrives whole and in order,
# with the same slices as the DB of the same trace; a write that fails on the
# writer thread fails the run (exit 1, the file named) and leaves no output
# and no temp file.
source "$(dirname "$0")/lib.sh"
IN=$SRC/assets/sample/sample.txt
O=$WORK/out
mkdir -p "$O"

expect_ok "json: convert" "$FTSCOPE" convert -q --input "$IN" --output "$O/t.json"
expect_ok "db: convert" "$FTSCOPE" convert -q --input "$IN" --output "$O/t.db"
size=$(stat -c %s "$O/t.json" 2>/dev/null || echo 0)
if [ "$size" -gt $((5 * 1048576)) ]; then pass "json: $size bytes, more than the queue holds"
else bad "json: $size bytes: too small to cycle the writer's queue"; fi

# the same rows both ways: lane tid | name | ts | dur (JSON us with 3 decimals -> ns)
slices "$O/t.db" > "$O/db.rows"
python3 - "$O/t.json" > "$O/json.rows" <<'PY' || bad "json: does not parse"
import json, sys
# the numbers as written (exactly 3 decimals), never through a float; sorted as slices() sorts
ev = json.load(open(sys.argv[1], encoding="utf-8"), parse_float=str, parse_int=str)
ns = lambda us: int(us.replace(".", "")) if "." in us else int(us) * 1000
for r in sorted((e["tid"], ns(e["ts"]), e["name"], ns(e["dur"])) for e in ev if e.get("ph") == "X"):
    print("%s|%s|%d|%d" % (r[0], r[2], r[1], r[3]))
PY
if [ -s "$O/db.rows" ] && diff -q "$O/db.rows" "$O/json.rows" > /dev/null; then
	pass "json: the DB's $(wc -l < "$O/db.rows") slices, the same"
else
	bad "json: slices differ from the DB's"; diff "$O/db.rows" "$O/json.rows" | head -5
fi

# a write that fails on the writer thread: a 2 MiB file size limit (EFBIG; SIGXFSZ ignored)
rm -f "$O/big.json"
expect_fail "json: failed write is an error" "big.json.*write failed" \
	bash -c 'trap "" XFSZ; ulimit -f 2048; exec "$0" convert -q --input "$1" --output "$2"' \
	"$FTSCOPE" "$IN" "$O/big.json"
left=$(find "$O" -maxdepth 1 -name '*big.json*' | head -1)
if [ -n "$left" ]; then
	bad "json: failed write left $left"
else
	pass "json: failed write left no output and no temp file"
fi
finish
