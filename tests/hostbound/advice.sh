#!/bin/bash
# SPDX-License-Identifier: MIT
# `ftscope hostbound`'s per-step table and advice (no root):
# - steps: gen.py's card with 5 steps, the third 25 ms slower (one long gap),
#   on the bundled sample capture, text and DB types: the steps' idle time and
#   causes add up to the totals, the slow step (52) alone is marked, in JSON,
#   CSV (--steps) and text;
# - advice: a synthetic 4-CPU text capture (advice_trace.py) where a
#   real-time hog preempts the dispatch thread on CPU 0, irq 42 hits it there
#   and CPUs 2-3 stay idle: the advice names those CPUs, that task with its
#   priority and that irq.
FTS=$1
SRC=$2
WORK=$3
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
python3 -c 'import sqlite3' 2>/dev/null || { echo "SKIP: python3 has no sqlite3"; exit 77; }
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || fail "cannot create $WORK"
S=$SRC/assets/sample
GEN=$SRC/tests/profiling/gen.py
T0=$(python3 -c "import json,glob;print(int(json.load(open(glob.glob('$S/profiling/*/PROF_*/host/start_info')[0]))['collectionTimeBegin'])*1000+50000000)")

# mk NAME [gen.py options]: a profiling directory with one rank
mk() {
	local name=$1
	shift
	rm -rf "$name" && cp -r "$S/profiling" "$name" || fail "copy"
	python3 "$GEN" "$name"/*_ascend_pt --t0-ns "$T0" "$@" || fail "gen.py $name"
}

for type in text db; do
	mk "s$type" --type "$type" --steps 5 --slow-step 2 --slow-ms 25
	"$FTS" hostbound "$S/sample.dat" -p "s$type" -m "$S/pid_mapping.json" -f json -o "s$type.json" 2>err ||
		{ cat err; fail "$type: hostbound json"; }
	python3 - "s$type.json" <<'PY' || fail "$type: steps wrong"
import json, sys
r = json.load(open(sys.argv[1]))["cards"][0]
st = r["steps"]
nums = [s["step"] for s in st]
assert nums[:5] == [50, 51, 52, 53, 54] and nums[5:] in ([], [None]), nums
assert [s["step"] for s in st if s["slowest"]] == [52], st
assert st[2]["dur_ns"] == st[0]["dur_ns"] + 25000000, (st[0]["dur_ns"], st[2]["dur_ns"])
# the slow step holds the long gap: the most idle time
assert max(st, key=lambda s: s["idle_ns"])["step"] == 52, [s["idle_ns"] for s in st]
n = len(st)
assert abs(sum(s["idle_ns"] for s in st) - r["idle_ns"]) <= n, (sum(s["idle_ns"] for s in st), r["idle_ns"])
for c, v in r["cause_totals_ns"].items():
    got = sum(s["cause_ns"][c] for s in st)
    assert abs(got - v) <= n, (c, got, v)
for s in st:
    assert abs(sum(s["cause_ns"].values()) - s["idle_ns"]) <= 8, s
    if s["idle_ns"] > 0:
        assert s["cause_ns"][s["cause"]] == max(s["cause_ns"].values()), s
assert sum(s["gaps"] for s in st) >= r["gaps"], (sum(s["gaps"] for s in st), r["gaps"])
print("ok: steps sum to the totals, 52 the slowest:", [(s["step"], s["idle_ns"]) for s in st])
PY
	"$FTS" hostbound "$S/sample.dat" -p "s$type" -m "$S/pid_mapping.json" -f csv --steps > "s$type.csv" ||
		fail "$type: csv --steps"
	head -1 "s$type.csv" | grep -q '^card,step,start_ns,dur_ns,idle_ns,gaps,cause,cause_running_ns' ||
		fail "$type: steps CSV header"
	python3 - "s$type.csv" "s$type.json" <<'PY' || fail "$type: steps CSV differs from JSON"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
st = json.load(open(sys.argv[2]))["cards"][0]["steps"]
assert len(rows) == len(st), (len(rows), len(st))
for r, s in zip(rows, st):
    assert r["step"] == (str(s["step"]) if s["step"] is not None else "outside"), (r, s)
    assert int(r["idle_ns"]) == s["idle_ns"] and int(r["slowest"]) == s["slowest"], (r, s)
PY
	"$FTS" hostbound "$S/sample.dat" -p "s$type" -m "$S/pid_mapping.json" > "s$type.txt" || fail "$type: text"
	grep -q '^per step (\* the slowest):' "s$type.txt" || { cat "s$type.txt"; fail "$type: no step table"; }
	[ "$(grep -c '^\* ' "s$type.txt")" = 1 ] && grep -q '^\* 52 ' "s$type.txt" ||
		{ cat "s$type.txt"; fail "$type: step 52 not the one marked"; }
	echo "ok: $type steps"
done
# -m: one pid namespace, the container's; the host's own tasks marked "host:"
python3 - stext.json "$S/pid_mapping.json" <<'PY' || fail "-m: pid namespaces mixed"
import json, sys
r = json.load(open(sys.argv[1]))["cards"][0]
m = json.load(open(sys.argv[2]))
inner = {}   # container pid -> host pid, for the tasks in a container (NSpid: the innermost pid)
for host, e in m.items():
    ns = str(e.get("NSpid", "")).split()
    if ns and ns[-1] != host:
        inner[int(ns[-1])] = int(host)
tasks = {c["task"] for g in r["worst_gaps"] for c in g["culprits"]} | {p["task"] for p in r["preempters"]}
host = {t for t in tasks if t.startswith("host:")}
cont = tasks - host
assert host and cont, tasks
for t in cont:
    assert int(t.rsplit(":", 1)[1]) in inner, ("a host pid left unmarked", t)
for t in host:
    pid = int(t.rsplit(":", 1)[1])
    assert str(pid) not in m or str(m[str(pid)].get("NSpid", "")).split()[-1:] == [str(pid)], ("a container task marked host", t)
print("ok: -m: %d container tasks, %d host tasks" % (len(cont), len(host)))
PY
"$FTS" hostbound "$S/sample.dat" -p stext -f json 2>/dev/null | grep -q '"host:' && fail "host: marks without -m"
# the default fixture (3 steps of one length): none marked
mk even --steps 3
"$FTS" hostbound "$S/sample.dat" -p even -m "$S/pid_mapping.json" > even.txt || fail "even text"
grep -q '^per step' even.txt && ! grep -q '^\* ' even.txt || { cat even.txt; fail "steps of one length: none is the slowest"; }
# --steps is a CSV table
"$FTS" hostbound "$S/sample.dat" -p even --steps > out 2>err && fail "--steps without -f csv accepted"
grep -q -- "--steps is for -f csv" err || { cat err; fail "unclear --steps refusal"; }

# advice on the synthetic capture
# (the main thread queued each launch's work 8 ms ahead: the dispatch thread had work through the gaps)
mk adv --pid 4000 --main-tid 4000 --disp-tid 4003 --async-lead-ms 8
python3 "$SRC/tests/hostbound/advice_trace.py" cap.txt || fail "advice_trace.py"
"$FTS" hostbound cap.txt -p adv > adv.txt 2>err || { cat err; fail "advice: text"; }
sed -n '/^advice:/,$p' adv.txt
grep -q '^  preempted .* behind hog:4100 on CPU 0' adv.txt || { cat adv.txt; fail "the capture is not read as built"; }
grep -q '^      taskset -cp 2-3 4003$' adv.txt || fail "no taskset onto CPUs 2-3 for the dispatch thread"
grep -q '^      taskset -cp 2-3 4000$' adv.txt || fail "no taskset onto CPUs 2-3 for the main thread"
grep -q 'hog:4100 held CPU 0 .* real-time (SCHED_FIFO or SCHED_RR) priority 50' adv.txt || fail "the preempter and its priority"
grep -q '^      chrt -o -p 0 4100$' adv.txt || fail "no chrt line making the real-time preempter normal"
grep -q 'irq 42 (eth0-rx) hit the host threads on CPU 0' adv.txt || fail "the irq"
grep -q '^      echo 1-3 > /proc/irq/42/smp_affinity_list$' adv.txt || fail "the irq's affinity line"
"$FTS" hostbound cap.txt -p adv -f json > adv.json || fail "advice: json"
python3 - adv.json <<'PY' || fail "advice: JSON wrong"
import json, sys
a = json.load(open(sys.argv[1]))["cards"][0]["advice"]
k = [(x["kind"], x["cause"], x["command"]) for x in a]
assert k == [("cpus", "preempted", "taskset -cp 2-3 4003"), ("cpus", "preempted", "taskset -cp 2-3 4000"),
             ("task", "preempted", "chrt -o -p 0 4100"), ("irq", "irq", "echo 1-3 > /proc/irq/42/smp_affinity_list")], k
assert all(x["cause_ns"] > 0 for x in a), a
print("ok: advice", k)
PY
echo "ok: advice"
