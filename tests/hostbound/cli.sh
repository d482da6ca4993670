#!/bin/bash
# SPDX-License-Identifier: MIT
# `ftscope hostbound` on the bundled sample capture with a generated card in
# the profiler's shape (its clock files are the sample's): the formats, the
# pid mapping, -o, two cards; and the refusals: profiling files that are not
# the profiler's, streams without metadata, bad flags. Each
# failure is one line on stderr, exit 1 (2 for usage), and no output.
FTS=$1
SRC=$2
WORK=$3
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || fail "cannot create $WORK"
S=$SRC/assets/sample
cp -r "$S/profiling" prof
rank=$(ls -d prof/*_ascend_pt)
mkdir -p "$rank/ASCEND_PROFILER_OUTPUT"
# kernels of 2 ms every 10 ms from 50 ms into the window: 8 ms gaps, launched by
# container tid 3 (npu_dispatch, host 15237 in the sample's pid_mapping.json)
python3 - "$rank" <<'PY'
import json, sys
begin = json.load(open(__import__("glob").glob(sys.argv[1] + "/PROF_*/host/start_info")[0]))
t0 = int(begin["collectionTimeBegin"]) + 50000
ev = [{"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "Python"}},
      {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "Thread 1"}},
      {"ph": "M", "name": "thread_name", "pid": 1, "tid": 3, "args": {"name": "Thread 3"}},
      {"ph": "M", "name": "process_name", "pid": 77, "args": {"name": "Ascend Hardware"}}]
for i in range(200):
    ts = t0 + i * 10000
    ev.append({"ph": "X", "name": "K%d" % i, "pid": 77, "tid": 5, "ts": "%d.000" % ts, "dur": 2000})
    ev.append({"ph": "s", "cat": "HostToDevice", "id": i, "pid": 1, "tid": 3, "ts": "%d.000" % (ts - 30)})
    ev.append({"ph": "f", "bp": "e", "cat": "HostToDevice", "id": i, "pid": 77, "tid": 5, "ts": "%d.000" % ts})
open(sys.argv[1] + "/ASCEND_PROFILER_OUTPUT/trace_view.json", "w").write(json.dumps(ev))
PY
"$FTS" hostbound "$S/sample.dat" -p prof -m "$S/pid_mapping.json" -f json -o hb.json 2>err ||
	{ cat err; fail "hostbound json"; }
python3 - hb.json <<'PY' || fail "JSON report wrong"
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["cards"]) == 1
r = r["cards"][0]
assert r["card"] == "host01_1234_20261129000000000_ascend_pt", r["card"]
g = r["worst_gaps"]
assert r["gaps"] == 199 and len(g) == 199, (r["gaps"], len(g))
assert r["gap_source"] == "streams"
assert r["idle_ns"] == 199 * 8000000, r["idle_ns"]
for x in g:
    assert x["dur_ns"] == 8000000 and x["dispatch_tid"] == 3, x
    assert abs(sum(x["ns"].values()) - x["dur_ns"]) <= 2, x
known = sum(x["dur_ns"] - x["ns"]["unknown"] for x in g)
assert known > 0.5 * r["idle_ns"], "the pid mapping did not reach the dispatch thread"
names = {x["dispatch_thread"] for x in g}
assert all(n.endswith(":3") for n in names), names
print("ok: json", sorted(names), "known %.0f%%" % (100.0 * known / r["idle_ns"]))
PY
"$FTS" hostbound "$S/sample.dat" -p prof -m "$S/pid_mapping.json" -n 3 > hb.txt 2>err || { cat err; fail "text"; }
grep -q '^of 1.592 s NPU idle over 199 gaps >= 50 us' hb.txt || { cat hb.txt; fail "text totals line"; }
[ "$(grep -c '^  +' hb.txt)" = 3 ] || { cat hb.txt; fail "-n 3 did not give 3 gaps"; }
"$FTS" hostbound "$S/sample.dat" -p prof -m "$S/pid_mapping.json" -f csv > hb.csv || fail "csv"
[ "$(wc -l < hb.csv)" = 200 ] || fail "CSV: a header and 199 rows expected"
head -1 hb.csv | grep -q '^card,start_ns,dur_ns,dispatch_tid,dispatch_thread,verdict,running_ns' || fail "CSV header"
# without the pid mapping the container tid 3 is no thread of the capture: said
"$FTS" hostbound "$S/sample.dat" -p prof -f csv > nomap.csv 2>err || { cat err; fail "without -m"; }
grep -q "give its --pid_mapping" err || { cat err; fail "no hint about the pid mapping"; }
echo "ok: formats"

# refusals: one line, exit status, nothing written
refuse() { # refuse STATUS WORDS ARGS...
	local want=$1 words=$2
	shift 2
	rm -f out.txt
	"$FTS" hostbound "$@" -o out.txt > stdout 2> err
	local rc=$?
	[ "$rc" = "$want" ] || { cat err; fail "exit $rc, not $want: $*"; }
	grep -q -- "$words" err || { cat err; fail "no '$words' in: $(cat err)"; }
	[ "$(wc -l < err)" = 1 ] || { cat err; fail "not one line: $*"; }
	[ ! -e out.txt ] && [ ! -s stdout ] || fail "output left behind: $*"
}
tv=$rank/ASCEND_PROFILER_OUTPUT/trace_view.json
cp "$tv" good.json
refuse 2 "profiling_data DIR is needed" "$S/sample.dat"
refuse 2 "threshold" "$S/sample.dat" -p prof -t 0
refuse 2 "format must be" "$S/sample.dat" -p prof -f xml
refuse 1 "no ASCEND_PROFILER_OUTPUT" "$S/sample.dat" -p "$S/profiling"
printf 'not json at all' > "$tv"
refuse 1 "no '\['" "$S/sample.dat" -p prof
head -c 5000 good.json > "$tv"
refuse 1 "ends inside an event" "$S/sample.dat" -p prof
# streams without their process_name: no device known
python3 -c 'import json; print(json.dumps([{"ph":"X","name":"k","pid":77,"tid":5,"ts":"1.000","dur":1}]))' > "$tv"
refuse 1 'no "Ascend Hardware"' "$S/sample.dat" -p prof
cp good.json "$tv"
# several cards: one report each, from one pass over the capture
cp -r "$rank" "${rank%_ascend_pt}9_ascend_pt"
"$FTS" hostbound "$S/sample.dat" -p prof -m "$S/pid_mapping.json" -f json -n 1 > two.json 2>err ||
	{ cat err; fail "two cards"; }
python3 -c 'import json,sys; c=json.load(open("two.json"))["cards"]; assert len(c)==2 and c[0]["idle_ns"]==c[1]["idle_ns"]==199*8000000 and sum(x["card"].endswith("9_ascend_pt") for x in c) == 1, c' ||
	fail "two cards: two reports expected"
"$FTS" hostbound "$S/sample.dat" -p prof -m "$S/pid_mapping.json" -f csv > two.csv || fail "two cards csv"
[ "$(wc -l < two.csv)" = 399 ] && [ "$(grep -c '^card,' two.csv)" = 1 ] || fail "two cards: one CSV header and 2 x 199 rows"
"$FTS" hostbound "$S/sample.dat" -p prof -m "$S/pid_mapping.json" -n 1 > two.txt || fail "two cards text"
[ "$(grep -c '^card: ' two.txt)" = 2 ] || fail "two cards: two text reports"
# one card's file bad: the whole run refused
printf '[{"ph":"M"' > "${rank%_ascend_pt}9_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"
refuse 1 "9_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json: not an event array" "$S/sample.dat" -p prof
rm -rf "${rank%_ascend_pt}9_ascend_pt"
echo "ok: two cards"
ln -s /etc/passwd link.txt
"$FTS" hostbound "$S/sample.dat" -p prof -m "$S/pid_mapping.json" -o link.txt 2>err && fail "wrote through a symlink"
grep -q "not a regular file" err || { cat err; fail "unclear symlink refusal"; }
[ "$(head -c 5 /etc/passwd)" = "root:" ] || fail "/etc/passwd touched"
echo "ok: refusals"
