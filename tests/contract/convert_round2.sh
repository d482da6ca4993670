#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 21, items 6, 8, 16 and 17: every profiling card is used or the run is
# refused with the reason; an output that is an input (by device and inode)
# is refused and the input left as it was; a DB or JSON input gets real
# counts and refuses maps that cannot apply; counts near 2^64 saturate, and
# a malformed --cpu is a usage error. Every input is made here.
source "$(dirname "$0")/lib.sh"
S=$SRC/assets/sample
O=$WORK/out
mkdir -p "$O"

# cards ROOT N START END: N cards (rank_<i>), window [START, END] s on the
# sample's clock, the sample's own offset (so times equal one card's)
cards() {
	python3 - "$@" <<'EOF'
import os, sys
root, n, start, end, first = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
off_us = 1795968970902116 - 623805628706 // 1000     # collectionTimeBegin - clockMonotonicRaw (us)
for i in range(first, first + n):
    d = os.path.join(root, "rank_%03d_ascend_pt" % i, "PROF_000001", "device_0")
    os.makedirs(d, exist_ok=True)
    s_ns, e_ns = int(start * 1e9), int(end * 1e9)
    with open(os.path.join(d, "start_info"), "w") as f:
        f.write('{"collectionTimeBegin": "%d", "clockMonotonicRaw": "%d"}' % (s_ns // 1000 + off_us, s_ns - s_ns % 1000))
    with open(os.path.join(d, "end_info"), "w") as f:
        f.write('{"clockMonotonicRaw": "%d"}' % e_ns)
EOF
}

# --- item 6: 100 cards, 64 covering one window and 36 the next ---
cards "$WORK/p100" 64 620 625 0
cards "$WORK/p100" 36 625 630 64
cards "$WORK/p1" 1 620 630 0
expect_ok "convert with 100 cards" "$FTSCOPE" convert -i "$S/sample.dat" -p "$WORK/p100" -o "$O/ftrace_data100.db"
cp "$WORK/last.out" "$WORK/p100.out"
expect_ok "convert with the one card of their union" "$FTSCOPE" convert -i "$S/sample.dat" -p "$WORK/p1" -o "$O/ftrace_data1.db"
grep -q "aligned with 100 profiling cards, window 10.000000 s" "$WORK/p100.out" &&
	grep -q "and 36 more cards (all used for the window)" "$WORK/p100.out" &&
	! grep -q "ignored" "$WORK/p100.out" && pass "100 cards: all used, none called unreadable" ||
	{ bad "100 cards: summary"; cat "$WORK/p100.out"; }
if [ "$(slices "$O/ftrace_data100.db" | md5sum)" = "$(slices "$O/ftrace_data1.db" | md5sum)" ] &&
   [ "$(sqlite3 "$O/ftrace_data100.db" 'SELECT count(*) FROM slice')" = 25045 ]; then
	pass "100 cards give every slice of the union window (25045, as one card over it)"
else
	bad "100 cards: $(sqlite3 "$O/ftrace_data100.db" 'SELECT count(*) FROM slice') slices, one card: $(sqlite3 "$O/ftrace_data1.db" 'SELECT count(*) FROM slice')"
fi
rm -f "$O"/*

# a card whose path is over 1023 bytes is used
long=$WORK/plong
for i in 1 2 3 4 5; do long=$long/$(printf 'd%.0s' $(seq 230)); done
mkdir -p "$long" && cards "$long" 1 620 630 0
expect_ok "a card under a 1,200-byte path" "$FTSCOPE" convert -i "$S/sample.dat" -p "$WORK/plong" -o "$O/ftrace_data.db"
grep -q "aligned with 1 profiling card" "$WORK/last.out" && pass "the long-path card is used" || { bad "long path"; cat "$WORK/last.out"; }
rm -f "$O"/*
# a card deeper than 12 levels: refused with the reason, not skipped
deep=$WORK/pdeep; for i in $(seq 13); do deep=$deep/d; done
cards "$WORK/pdeep" 1 620 630 0
mkdir -p "$deep" && cp -r "$WORK/pdeep/rank_000_ascend_pt" "$deep/"
expect_fail "a card 13+ levels down" "more than 12 directory levels below" "$FTSCOPE" convert -i "$S/sample.dat" -p "$WORK/pdeep" -o "$O/ftrace_data.db"
# a symlinked card directory: refused with the reason, not skipped
mkdir -p "$WORK/plink" && ln -s "$WORK/p1/rank_000_ascend_pt" "$WORK/plink/rank_000_ascend_pt"
expect_fail "a symlinked card directory" "is a symbolic link to a directory, not followed" "$FTSCOPE" convert -i "$S/sample.dat" -p "$WORK/plink" -o "$O/ftrace_data.db"
# a key twice with different values: refused (readers disagree on which counts)
cards "$WORK/pdup" 1 620 630 0
si=$WORK/pdup/rank_000_ascend_pt/PROF_000001/device_0/start_info
sed 's/}$/, "clockMonotonicRaw": "1"}/' "$si" > "$si.x" && mv "$si.x" "$si"
expect_fail "clockMonotonicRaw twice" "clockMonotonicRaw is given twice with different values" "$FTSCOPE" convert -i "$S/sample.dat" -p "$WORK/pdup" -o "$O/ftrace_data.db"
# a start_info whose end_info is not there yet: said so, by that name
cards "$WORK/pend" 2 620 630 0
rm "$WORK/pend/rank_001_ascend_pt/PROF_000001/device_0/end_info"
expect_ok "a card without end_info" "$FTSCOPE" convert -i "$S/sample.dat" -p "$WORK/pend" -o "$O/ftrace_data.db"
grep -q "1 start_info without an end_info beside it ignored" "$WORK/last.out" && pass "the missing end_info is named" || { bad "missing end_info"; cat "$WORK/last.out"; }
[ -z "$(ls -A "$O" | grep -v '^ftrace_data.db$')" ] && pass "refused runs leave nothing" || bad "left: $(ls -A "$O")"
rm -f "$O"/*

# --- item 8: convert onto its own input, by any spelling ---
mkdir -p "$WORK/x" && ln -s "$WORK/x" "$WORK/y"
"$FTSCOPE" convert -q -i "$S/sample.dat" -o "$WORK/x/ftrace_data.db" || bad "make the input DB"
ln "$WORK/x/ftrace_data.db" "$WORK/x/hard.db"
sum0=$(md5sum < "$WORK/x/ftrace_data.db")
flows0=$(sqlite3 "$WORK/x/ftrace_data.db" 'SELECT count(*) FROM flow')
expect_fail "output through a symlinked dir" "is the input .* \(the same file\)" "$FTSCOPE" convert -i "$WORK/x/ftrace_data.db" -o "$WORK/y/ftrace_data.db"
"$FTSCOPE" convert -i "$WORK/x/ftrace_data.db" -o "$WORK/x/../x/./ftrace_data.db" > /dev/null 2>&1
[ $? -eq 2 ] && pass "output spelled x/../x/./: exit 2" || bad "output spelled x/../x/./: not exit 2"
expect_fail "output a hard link of the input" "is the input" "$FTSCOPE" convert -i "$WORK/x/hard.db" -o "$WORK/y/ftrace_data.db"
cp "$S/sample.txt" "$WORK/x/trace.json"
expect_fail "a text trace named .json onto itself" "is the input" "$FTSCOPE" convert -i "$WORK/x/trace.json" -o "$WORK/y/trace.json"
cmp -s "$S/sample.txt" "$WORK/x/trace.json" && pass "the text input is untouched" || bad "the text input changed"
cp "$S/pid_mapping.json" "$WORK/x/pm.json"
expect_fail "output the pid mapping" "is the pid mapping" "$FTSCOPE" convert -i "$S/sample.dat" --pid_mapping "$WORK/x/pm.json" -o "$WORK/y/pm.json"
cmp -s "$S/pid_mapping.json" "$WORK/x/pm.json" && pass "the pid mapping is untouched" || bad "the pid mapping changed"
[ "$(md5sum < "$WORK/x/ftrace_data.db")" = "$sum0" ] &&
	[ "$(sqlite3 "$WORK/x/ftrace_data.db" 'SELECT count(*) FROM flow')" = "$flows0" ] && [ "$flows0" -gt 0 ] &&
	pass "the input DB is untouched ($flows0 flow rows kept)" || bad "the input DB changed"
[ -z "$(ls -A "$WORK/x" | grep -v '^\(ftrace_data.db\|hard.db\|trace.json\|pm.json\)$')" ] && pass "no temp file left beside the input" || bad "left: $(ls -A "$WORK/x")"

# --- item 16: a DB or JSON input gets real counts; maps that cannot apply are refused ---
"$FTSCOPE" convert -q -i "$WORK/x/ftrace_data.db" -o "$WORK/x/ftrace_data.json" || bad "DB -> JSON"
for in in ftrace_data.db ftrace_data.json; do
	kind=$([ "$in" = ftrace_data.db ] && echo "ftrace DB" || echo "Chrome JSON")
	expect_ok "convert $in" "$FTSCOPE" convert -i "$WORK/x/$in" -o "$O/ftrace_data2.db"
	rows=$(sqlite3 "$O/ftrace_data2.db" 'SELECT count(*) FROM slice')
	lanes=$(sqlite3 "$O/ftrace_data2.db" "SELECT count(*) FROM thread t JOIN process p ON p.pid = t.pid WHERE p.process_name = 'Process Scheduling'")
	if grep -q "($kind, read back, [1-9][0-9.]* MB)" "$WORK/last.out" && grep -q "^read      $rows rows" "$WORK/last.out" &&
	   grep -q "Process Scheduling: $lanes lanes" "$WORK/last.out" && grep -q "^          $rows items in all" "$WORK/last.out" &&
	   [ "$rows" = 25045 ] && ! grep -q "unknown, 0.0 MB\|^events    0\| 0 lanes, 0 items" "$WORK/last.out"; then
		pass "$in: the summary counts what was written ($rows rows, $lanes task lanes)"
	else
		bad "$in: summary"; cat "$WORK/last.out"
	fi
	rm -f "$O"/*
	expect_fail "$in with --profiling_data" "is an? (ftrace DB|Chrome JSON): .*profiling data cannot apply" "$FTSCOPE" convert -i "$WORK/x/$in" -p "$WORK/p1" -o "$O/ftrace_data2.db"
	expect_fail "$in with --pid_mapping" "a pid mapping cannot apply" "$FTSCOPE" convert -i "$WORK/x/$in" -m "$S/pid_mapping.json" -o "$O/ftrace_data2.db"
	"$FTSCOPE" convert -i "$WORK/x/$in" -m "$S/pid_mapping.json" -o "$O/ftrace_data2.db" > /dev/null 2>&1
	[ $? -eq 2 ] && pass "$in with a map: exit 2 (bad arguments)" || bad "$in with a map: not exit 2"
done
[ -z "$(ls -A "$O")" ] && pass "refused read-back runs leave nothing" || bad "left: $(ls -A "$O")"
markers=$(sqlite3 "$WORK/x/ftrace_data.db" "SELECT count(*) FROM slice WHERE json_extract(args, '$.cpu') = '-1'")
expect_ok "a DB with --no_cs_rows" "$FTSCOPE" convert -i "$WORK/x/ftrace_data.db" -o "$O/ftrace_data2.db" --no_cs_rows
grep -q "note      --no_cs_rows does not remove what the input already holds: its $markers context-switch marker rows were copied" "$WORK/last.out" &&
	pass "--no_cs_rows on a DB: said that its $markers markers stay" || { bad "--no_cs_rows note"; cat "$WORK/last.out"; }
rm -f "$O"/*
expect_ok "a DB named ftrace_data_2.db" "$FTSCOPE" convert -i "$S/sample.dat" -o "$O/ftrace_data_2.db"
grep -q "only recognises DBs named ftrace_data.db or ftrace_data<digits>.db; 'ftrace_data_2.db'" "$WORK/last.out" &&
	pass "the name note states the rule applied" || { bad "name note"; cat "$WORK/last.out"; }
rm -f "$O"/*

# --- item 17: counts near 2^64 saturate; a malformed --cpu is exit 2 ---
python3 - "$SRC/tests/data/hackbench/hackbench.txt" "$WORK/lost.txt" <<'EOF'
import sys
lines = open(sys.argv[1]).read().splitlines()
hdr = [l for l in lines if l.startswith('#')]
ev = [l for l in lines if not l.startswith('#')]
big = 'CPU:0 [LOST 9223372036854775807 EVENTS]'
q = len(ev) // 4
out = hdr + ev[:q] + [big] + ev[q:2 * q] + [big] + ev[2 * q:3 * q] + [big, 'CPU:1 [LOST 9223372036854775807 EVENTS]'] + ev[3 * q:]
open(sys.argv[2], 'w').write('\n'.join(out) + '\n')
EOF
expect_ok "stats with 3 x (2^63-1) lost on CPU 0" "$FTSCOPE" stats "$WORK/lost.txt"
grep -Eq "^ +0 .* 18446744073709551615 " "$WORK/last.out" &&
	grep -q "events were lost: 18446744073709551615 events (CPU 0: 18446744073709551615, CPU 1: 9223372036854775807)" "$WORK/last.out" &&
	pass "lost counts saturate at 2^64-1, per CPU and in all" || { bad "lost counts"; cat "$WORK/last.out"; }
"$FTSCOPE" stats "$WORK/lost.txt" --format json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [c["lost_events"] for c in d["cpus"]] == [2**64 - 1, 2**63 - 1], d["cpus"]' &&
	pass "stats JSON: the saturated counts" || bad "stats JSON lost counts"
expect_ok "convert it" "$FTSCOPE" convert -i "$WORK/lost.txt" -o "$O/ftrace_data.db"
grep -q "the kernel lost 18446744073709551615 events" "$WORK/last.out" && pass "convert: the saturated total" || { bad "convert total"; cat "$WORK/last.out"; }
"$FTSCOPE" stats "$O/ftrace_data.db" | grep -Eq "^ +0 .* 18446744073709551615 " && pass "its DB reads back the same count" || bad "DB lost count"
rm -f "$O"/*
# two Running slices of 5e18 ns on one lane and CPU: their sum does not fit in int64
cp "$WORK/x/ftrace_data.db" "$WORK/huge.db"
python3 - "$WORK/huge.db" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
lane, cpu = db.execute("SELECT track_id, json_extract(args, '$.cpu') FROM slice WHERE name = 'Running' "
                       "GROUP BY 1, 2 HAVING count(*) >= 2 LIMIT 1").fetchone()
for (i,) in db.execute("SELECT id FROM slice WHERE name = 'Running' AND track_id = ? AND json_extract(args, '$.cpu') = ? "
                       "ORDER BY timestamp LIMIT 2", (lane, cpu)).fetchall():
    db.execute("UPDATE slice SET duration = 5000000000000000000, end_time = timestamp + 5000000000000000000 WHERE id = ?", (i,))
db.commit()
EOF
expect_ok "--with_summary over durations summing past 2^63" "$FTSCOPE" convert -i "$WORK/huge.db" -o "$O/ftrace_data.db" --with_summary
got=$(sqlite3 "$O/ftrace_data.db" "SELECT group_concat(DISTINCT typeof(running_ns)) || ' ' || max(running_ns) FROM trace_task_summary")
[ "$got" = "integer 9223372036854775807" ] && pass "the summary saturates at 2^63-1, every value an INTEGER" || bad "summary: $got"
rm -f "$O"/*
"$FTSCOPE" stats "$S/sample.dat" --cpu x > /dev/null 2> "$WORK/err.txt"
[ $? -eq 2 ] && grep -q "^ftscope stats: --cpu: bad CPU list 'x'" "$WORK/err.txt" && pass "stats --cpu x: exit 2, one line" || { bad "stats --cpu x"; cat "$WORK/err.txt"; }
"$FTSCOPE" stats "$S/sample.dat" --cpu 3-1 --window 1s.. > /dev/null 2>&1
[ $? -eq 2 ] && pass "stats --cpu 3-1 (with --window): exit 2 before reading" || bad "stats --cpu 3-1: not exit 2"
finish
