#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `ftscope stats` on real captures: its numbers agree with the DB convert writes
# for the same capture (stats_check.py re-derives them in SQL), the trace and
# the DB give identical output, a window and a CPU filter only ever shrink the
# numbers, and bad input gives one clear line and a non-zero exit.
source "$(dirname "$0")/lib.sh"
D=$SRC/tests/data
S=$SRC/assets/sample
SCHECK="python3 $SRC/tests/contract/stats_check.py"

same_stats() {
	python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d["info"].pop("items")
    d["info"].pop("items_counted")
sys.exit(a != b)
PY
}
consistent() {
	local name=$1 input=$2; shift 2
	mkdir -p "$WORK/$name"
	expect_ok "$name: convert" "$FTSCOPE" convert -q --input "$input" --output "$WORK/$name/ftrace_data.db" "$@"
	"$FTSCOPE" stats "$input" "$@" --format json --top 0 > "$WORK/$name/trace.json" 2> "$WORK/$name/err" ||
		{ bad "$name: stats failed"; cat "$WORK/$name/err"; return; }
	expect_ok "$name: numbers agree with the DB" $SCHECK "$WORK/$name/trace.json" "$WORK/$name/ftrace_data.db"
	"$FTSCOPE" stats "$WORK/$name/ftrace_data.db" --format json --top 0 > "$WORK/$name/db.json" 2> "$WORK/$name/dberr"
	# every statistic the same; "info.items" counts what was read (a DB holds more rows: flows)
	if same_stats "$WORK/$name/trace.json" "$WORK/$name/db.json" && cmp -s "$WORK/$name/err" "$WORK/$name/dberr"; then
		pass "$name: the trace and its DB give the same statistics"
	else
		bad "$name: trace and DB statistics differ"; diff <(tr , '\n' < "$WORK/$name/trace.json") <(tr , '\n' < "$WORK/$name/db.json") | head -8
	fi
}

consistent sample_txt "$S/sample.txt" --profiling_data "$S/profiling" --pid_mapping "$S/pid_mapping.json"
consistent hackbench "$D/hackbench/hackbench.dat"
consistent cross1000 "$D/boot_padded/cross1000.txt"
consistent lost_pipe "$D/lost/trace_pipe.txt"
consistent irq "$D/irq/irq.txt"

# a window and a CPU filter only shrink the numbers; the window's wall time is its length
"$FTSCOPE" stats "$D/irq/irq.txt" --format json --top 0 --window 10ms..20ms > "$WORK/win.json" 2>&1 || bad "window run failed"
"$FTSCOPE" stats "$D/irq/irq.txt" --format json --top 0 --cpu 1 > "$WORK/cpu1.json" 2>&1 || bad "cpu run failed"
python3 - "$WORK/irq/trace.json" "$WORK/win.json" "$WORK/cpu1.json" <<'PY' && pass "window and --cpu shrink every number" || bad "window / --cpu numbers"
import json, sys
full, win, cpu1 = (json.load(open(p)) for p in sys.argv[1:4])
f = {t["task"]: t for t in full["tasks"]}
for part in (win, cpu1):
    for t in part["tasks"]:
        for k in ("running_ns", "runnable_ns", "sleeping_ns", "blocked_ns", "switches", "irq_count", "softirq_count", "wakeups"):
            assert t[k] <= f[t["task"]][k], (t["task"], k)
w = win["window"]
assert w["end_ns"] - w["begin_ns"] == 10**7, w
assert all(c["wall_ns"] == 10**7 and c["busy_ns"] <= 10**7 for c in win["cpus"])
assert [c["cpu"] for c in cpu1["cpus"]] == [1]
assert sum(t["running_ns"] for t in win["tasks"]) < sum(t["running_ns"] for t in full["tasks"])
PY

# table and csv: the same rows; --task, --top, --sort
expect_ok "table" "$FTSCOPE" stats "$D/hackbench/hackbench.dat"
grep -q "^task .*run_ms.*top_preempter" "$WORK/last.out" && pass "table header" || bad "table header"
"$FTSCOPE" stats "$D/hackbench/hackbench.dat" --format csv --top 3 --sort switches > "$WORK/top3.csv"
[ "$(sed -n '/^$/q;p' "$WORK/top3.csv" | wc -l)" = 4 ] && pass "--top 3 gives 3 rows" || bad "--top 3: $(wc -l < "$WORK/top3.csv") lines"
python3 - "$WORK/top3.csv" <<'PY' && pass "--sort switches orders the rows" || bad "--sort switches"
import csv, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if l.strip() and not l.startswith("cpu,") and "," in l and not l[0].isdigit()))
v = [int(r["switches"]) for r in rows]
assert v == sorted(v, reverse=True) and len(v) == 3, v
PY
expect_ok "the file after the options" "$FTSCOPE" stats --top 2 --format csv "$SRC/tests/data/stats/irq_excerpt.txt"
grep -q '^kdamond.0:77,77,940000,' "$WORK/last.out" && pass "file last: same numbers" || bad "file last"
expect_fail "an option's value is not the file" 'which file' "$FTSCOPE" stats --top 2
expect_ok "--task by pid" "$FTSCOPE" stats "$D/hackbench/hackbench.dat" --task 15 --format csv
[ "$(grep -c '^rcu_preempt:15,' "$WORK/last.out")" = 1 ] && pass "--task 15 keeps rcu_preempt:15" || bad "--task 15"
# several tasks: the flag repeated, a comma list, a shell pattern (issue 15 defect 18)
rows() { sed -n '2,/^$/p' "$WORK/last.out" | grep -v '^$' | cut -d, -f1 | sort | tr '\n' ' '; }
expect_ok "--task twice" "$FTSCOPE" stats "$D/hackbench/hackbench.dat" --task 15 --task rcu_preempt --top 0 --format csv
[ "$(rows)" = "rcu_preempt:15 " ] && pass "--task 15 --task rcu_preempt: one task, both matched" || bad "--task twice: $(rows)"
expect_ok "--task a list" "$FTSCOPE" stats "$D/hackbench/hackbench.dat" --task 15,migration/0 --top 0 --format csv
[ "$(rows)" = "migration/0:18 rcu_preempt:15 " ] && pass "--task 15,migration/0 keeps both" || bad "--task list: $(rows)"
expect_ok "--task a pattern" "$FTSCOPE" stats "$D/hackbench/hackbench.dat" --task 'bash*' --top 0 --format csv
[ "$(rows)" = "bash:14312 bash:14319 " ] && pass "--task 'bash*' keeps every bash" || bad "--task pattern: $(rows)"
expect_fail "--task an empty entry" 'task wants' "$FTSCOPE" stats "$D/hackbench/hackbench.dat" --task a,,b

# hostile task names reach the terminal escaped, and CSV/JSON stay parseable
printf '%s\n' \
 $'          a\033]0;x\a-100   [000] d..2.   100.000001: sched_switch: prev_comm=a\033]0;x\a prev_pid=100 prev_prio=120 prev_state=R ==> next_comm==cmd|x next_pid=101 next_prio=120' \
 $'          =cmd|x-101   [000] d..2.   100.000009: sched_switch: prev_comm==cmd|x prev_pid=101 prev_prio=120 prev_state=R ==> next_comm=a\033]0;x\a next_pid=100 next_prio=120' \
 > "$WORK/hostile.txt"
"$FTSCOPE" stats "$WORK/hostile.txt" > "$WORK/hostile.table" 2>&1
if grep -q $'\033' "$WORK/hostile.table"; then bad "raw ESC in the table"; else pass "table escapes task names"; fi
grep -q 'a\\x1b]0;x\\x07:100' "$WORK/hostile.table" && pass "escape shown as \\x1b" || bad "escaped name not found"
"$FTSCOPE" stats "$WORK/hostile.txt" --format json > "$WORK/hostile.json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert any(t['comm']=='a\x1b]0;x\x07' for t in d['tasks'])" "$WORK/hostile.json" &&
	pass "JSON keeps the name, escaped" || bad "hostile JSON"
"$FTSCOPE" stats "$WORK/hostile.txt" --format csv > "$WORK/hostile.csv"
grep -q "^\"'=cmd|x:101\"" "$WORK/hostile.csv" && pass "CSV defuses a formula" || bad "CSV formula not defused"

# bad input: one line, non-zero, nothing on stdout
expect_fail "missing file" 'ftscope stats: .*nope' "$FTSCOPE" stats "$WORK/nope.dat"
expect_fail "garbage" 'ftscope stats: ' "$FTSCOPE" stats "$D/bad/garbage.txt"
expect_fail "no file" 'which file' "$FTSCOPE" stats
expect_fail "bad sort" 'no column' "$FTSCOPE" stats "$D/irq/irq.txt" --sort bogus
expect_fail "bad window" 'window wants' "$FTSCOPE" stats "$D/irq/irq.txt" --window 2s..1s
expect_fail "window past the end" 'after the end' "$FTSCOPE" stats "$D/irq/irq.txt" --window 100s..
expect_fail "bad cpu list" 'ftscope stats: --cpu' "$FTSCOPE" stats "$D/irq/irq.txt" --cpu 3-1
expect_fail "unknown task" 'no task' "$FTSCOPE" stats "$D/irq/irq.txt" --task nosuchtask
expect_fail "bad format" 'table, csv, json or xlsx' "$FTSCOPE" stats "$D/irq/irq.txt" --format xml
# --format xlsx: written (tests/python/test_stats_xlsx.py reads it back), or, in a
# build without libxlsxwriter, refused saying so, status 1, no file
no_xlsx=0
if "$FTSCOPE" stats "$D/irq/irq.txt" --format xlsx -o "$WORK/irq.xlsx" > "$WORK/last.out" 2>&1; then
	[ -s "$WORK/irq.xlsx" ] && [ ! -s "$WORK/last.out" ] && pass "xlsx written, nothing printed" || bad "xlsx"
else
	rc=$?
	no_xlsx=1
	grep -q "built without libxlsxwriter" "$WORK/last.out" && [ $rc = 1 ] && [ ! -e "$WORK/irq.xlsx" ] &&
		pass "xlsx refused: built without libxlsxwriter" || { bad "xlsx failed ($rc)"; cat "$WORK/last.out"; }
fi
# without -o: where xlsx cannot be written at all (the arm64 cross build), that comes first
if [ $no_xlsx = 1 ]; then want='built without libxlsxwriter'; else want='give it with -o'; fi
expect_fail "xlsx wants -o" "$want" "$FTSCOPE" stats "$D/irq/irq.txt" --format xlsx
expect_fail "-o is for xlsx" '-o is for --format xlsx' "$FTSCOPE" stats "$D/irq/irq.txt" -o "$WORK/x.xlsx"
for bad_run in "$WORK/nope.dat" "$D/bad/garbage.txt"; do
	out=$("$FTSCOPE" stats "$bad_run" 2>/dev/null | wc -c)
	[ "$out" = 0 ] && pass "no partial output for $(basename "$bad_run")" || bad "partial output for $bad_run"
done
finish
