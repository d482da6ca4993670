#!/bin/bash
# SPDX-License-Identifier: MIT
# Every shape of real torch_npu profiler output (gen.py: Level0/1/2, text and
# DB export types, a rank with both, two ranks) is read by `ftscope hostbound`
# and `preview -p` on the bundled sample capture; a text/DB pair of one run
# gives the same gaps and verdicts; shuffling every event's keys changes
# nothing; integers at the edge of their range are read or refused by name;
# hostile profiles (truncated, wrong types, huge numbers, garbage or foreign
# DBs) each get one line on stderr, exit 1 and no output file.
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

# mk NAME TYPE LEVEL [gen.py options]: a profiling directory with one rank
mk() {
	local name=$1 type=$2 level=$3
	shift 3
	rm -rf "$name" && cp -r "$S/profiling" "$name" || fail "copy"
	python3 "$GEN" "$name"/*_ascend_pt --t0-ns "$T0" --type "$type" --level "$level" "$@" ||
		fail "gen.py $name"
}
# hb NAME OUT: hostbound's JSON report of profiling directory NAME, without
# gap_source (the text type has the profiler's Free lane, the DB type not)
hb() {
	"$FTS" hostbound "$S/sample.dat" -p "$1" -m "$S/pid_mapping.json" -f json -o "$2.raw" 2>"$2.err" ||
		{ cat "$2.err"; fail "hostbound on $1"; }
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
for c in r["cards"]:
    c.pop("gap_source")
json.dump(r, open(sys.argv[2], "w"), indent=1, sort_keys=True)' "$2.raw" "$2" || fail "report of $1"
}

for lv in 0 1 2; do
	mk "t$lv" text $lv
	mk "d$lv" db $lv
	mk "b$lv" both $lv
	hb "t$lv" "t$lv.json"
	hb "d$lv" "d$lv.json"
	hb "b$lv" "b$lv.json"
	cmp -s "t$lv.json" "d$lv.json" || { diff "t$lv.json" "d$lv.json" | head -20; fail "Level$lv: text and DB disagree"; }
	cmp -s "t$lv.json" "b$lv.json" || fail "Level$lv: a rank with both types is not read as its text"
	grep -q '"gap_source": "free"' "b$lv.json.raw" || fail "Level$lv: both types: the text (Free lane) is not the one taken"
	python3 - "t$lv.json" <<'PY' || fail "Level$lv: report wrong"
import json, sys
r = json.load(open(sys.argv[1]))["cards"][0]
# 3 steps of 4 launches: 11 gaps of ~8 ms between tasks, one of 0.2 ms (the split task)
assert r["gaps"] == 12, r["gaps"]
assert all(g["dispatch_tid"] == 3 for g in r["worst_gaps"]), [g["dispatch_tid"] for g in r["worst_gaps"]]
PY
	echo "ok: Level$lv text, DB and both read alike"
done
"$FTS" preview "$S/sample.dat" -p d1 --print 120x30 > pv.txt 2>pv.err || { cat pv.err; fail "preview -p on a DB profile"; }
grep -q 'NPU (1 card' pv.txt || { cat pv.txt; fail "preview -p shows no NPU lanes from the DB"; }
"$FTS" preview "$S/sample.dat" -p t0 --print 120x30 > pv.txt 2>pv.err || { cat pv.err; fail "preview -p on a text profile"; }
grep -q 'NPU (1 card' pv.txt || fail "preview -p shows no NPU lanes from trace_view.json"
echo "ok: preview -p"

# two ranks side by side, one of each type
rm -rf two && cp -r "$S/profiling_2cards" two || fail "copy"
ranks=(two/*_ascend_pt)
python3 "$GEN" "${ranks[0]}" --t0-ns "$T0" --type text --level 0 --rank 0 || fail "gen rank 0"
python3 "$GEN" "${ranks[1]}" --t0-ns "$T0" --type db --level 2 --rank 1 || fail "gen rank 1"
hb two two.json
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert len(r["cards"]) == 2, r' two.json ||
	fail "two ranks: not two cards"
echo "ok: two ranks (text + DB)"

# property: any key order inside every object, the same report
for seed in 1 2 3 4 5; do
	mk "s$seed" text $((seed % 3)) --shuffle "$seed"
	hb "s$seed" "s$seed.json"
	cmp -s "s$seed.json" "t$((seed % 3)).json" || fail "keys shuffled (seed $seed): another report"
done
echo "ok: shuffled keys"

# property: integers at the edge of their range
mk big text 1 --dev-pid 9223372036854775807 --pid 2147483647 --main-tid 2147483646 --disp-tid 2147483647
"$FTS" hostbound "$S/sample.dat" -p big -f json -o big.json 2>err || { cat err; fail "pids at INT64_MAX / INT32_MAX"; }
mk bigdb db 1 --pid 2147483647 --main-tid 2147483646 --disp-tid 2147483647
"$FTS" hostbound "$S/sample.dat" -p bigdb -f json -o bigdb.json 2>err || { cat err; fail "DB: tids at INT32_MAX"; }
# refused: one line, exit 1, no output file
refused() {
	local what=$1 dir=$2 want=$3 rc
	rm -f out.json
	"$FTS" hostbound "$S/sample.dat" -p "$dir" -f json -o out.json 2>err
	rc=$?
	[ $rc = 1 ] || { cat err; fail "$what: exit $rc, not 1"; }
	[ "$(wc -l < err)" = 1 ] || { cat err; fail "$what: not one line"; }
	grep -q -- "$want" err || { cat err; fail "$what: no '$want'"; }
	grep -q "not a profiler" err && { cat err; fail "$what: a profiler file called not one"; }
	[ -e out.json ] && fail "$what: an output file was left"
	echo "ok: refused $what: $(cut -c1-150 err)"
}
mk over text 1 --dev-pid 9223372036854775808
refused "a device pid past INT64_MAX" over 'among the processes named: .*"Python"'
mk tidover text 1 --disp-tid 2147483648
refused "a host tid past INT32_MAX" tidover 'past 2^31 - 1'
mk tiddb db 1 --disp-tid 2147483648
refused "a DB globalTid with a tid past INT32_MAX" tiddb 'globalTid holds a pid or tid past'

TV=ASCEND_PROFILER_OUTPUT/trace_view.json
# text: edit the generated file with python, one hostile change each
hostile_text() {
	local name=$1 want=$2 code=$3
	mk "$name" text 1
	python3 -c "
import sys
p = sys.argv[1]
t = open(p).read()
$code
open(p, 'w').write(t)" "$name"/*_ascend_pt/$TV || fail "edit $name"
	refused "$name" "$name" "$want"
}
hostile_text truncated 'the file ends inside an event' 't = t[:len(t) // 2]'
hostile_text ts_type "ts is missing or not microseconds" 't = t.replace("\"ts\": \"", "\"ts\": true, \"x\": \"", 1)'
hostile_text ts_huge "ts is missing or not microseconds" 't = t.replace("\"ts\": \"", "\"ts\": \"9", 1)'
hostile_text ts_exp "ts is missing or not microseconds" 't = t.replace("\"ts\": \"", "\"ts\": \"1e400\", \"x\": \"", 1)'
hostile_text dur_type "dur is not microseconds" 't = t.replace("\"dur\": ", "\"dur\": [1], \"x\": ", 1)'
hostile_text dur_neg "dur is not microseconds" 't = t.replace("\"dur\": ", "\"dur\": -", 1)'
hostile_text dur_huge "dur is not microseconds" 't = t.replace("\"dur\": ", "\"dur\": 1e300, \"x\": ", 1)'
hostile_text no_device 'among the processes named' 't = t.replace("Ascend Hardware", "Ascend Hardwar")'
hostile_text no_meta 'no process_name metadata at all' 't = t.replace("process_name", "process_nam")'
hostile_text object 'a JSON object, not the array' 't = "{\"traceEvents\": " + t + "}"'

# DB: one hostile change each, with sqlite3 from python
hostile_db() {
	local name=$1 want=$2 sql=$3
	mk "$name" db 1
	python3 -c "
import sqlite3, sys, glob
db = sqlite3.connect(glob.glob(sys.argv[1] + '/*_ascend_pt/ASCEND_PROFILER_OUTPUT/*.db')[0])
db.executescript(sys.argv[2])
db.commit()" "$name" "$sql" || fail "edit $name"
	refused "$name" "$name" "$want"
}
hostile_db db_no_task 'no TASK table' 'DROP TABLE TASK;'
hostile_db db_no_strings 'no STRING_IDS table' 'DROP TABLE STRING_IDS;'
hostile_db db_no_column 'cannot read its TASK table' 'ALTER TABLE TASK DROP COLUMN streamId;'
hostile_db db_view 'TASK is not a plain table' 'ALTER TABLE TASK RENAME TO T2; CREATE VIEW TASK AS SELECT * FROM T2;'
hostile_db db_ts_type 'TASK row 1: startNs/endNs' "UPDATE TASK SET startNs = 'abc' WHERE rowid = 1;"
hostile_db db_ts_huge 'TASK row 1: startNs/endNs' 'UPDATE TASK SET startNs = 9223372036854775807 WHERE rowid = 1;'
hostile_db db_ts_real 'TASK row 1: startNs/endNs' 'UPDATE TASK SET startNs = 123.25 WHERE rowid = 1;'
hostile_db db_backwards 'endNs is before startNs' 'UPDATE TASK SET endNs = startNs - 1 WHERE rowid = 2;'
hostile_db db_stream 'streamId is not a stream' 'UPDATE TASK SET streamId = 4294967296 WHERE rowid = 1;'
hostile_db db_devices 'more than one device' 'UPDATE TASK SET deviceId = 7 WHERE rowid = 3;'
hostile_db db_empty 'TASK table has no rows' 'DELETE FROM TASK;'
hostile_db db_pytorch_text 'PYTORCH_API row 1: startNs/endNs' "UPDATE PYTORCH_API SET startNs = '12x' WHERE rowid = 1;"
hostile_db db_step 'STEP_TIME row 1: id is not a step' 'UPDATE STEP_TIME SET id = -1 WHERE rowid = 1;'
hostile_db db_gtid 'globalTid is not' "UPDATE CANN_API SET globalTid = 'x' WHERE rowid = 1;"
# garbage behind an SQLite header; a truncated DB
mk garbage db 1
db=$(ls garbage/*_ascend_pt/ASCEND_PROFILER_OUTPUT/*.db)
{ printf 'SQLite format 3\0'; head -c 8192 /dev/urandom; } > "$db"
refused "garbage DB" garbage 'not an SQLite database\|damaged\|malformed\|cannot read'
mk truncdb db 1
db=$(ls truncdb/*_ascend_pt/ASCEND_PROFILER_OUTPUT/*.db)
head -c 6000 "$db" > "$db.t" && mv "$db.t" "$db"
refused "truncated DB" truncdb 'damaged\|truncated\|malformed\|no TASK'
mk foreign db 1
db=$(ls foreign/*_ascend_pt/ASCEND_PROFILER_OUTPUT/*.db)
rm "$db" && python3 -c "import sqlite3,sys; d=sqlite3.connect(sys.argv[1]); d.execute('CREATE TABLE t(x)'); d.commit()" "$db"
refused "a foreign DB" foreign 'not a torch_npu profiler DB'
echo "ok: all"
