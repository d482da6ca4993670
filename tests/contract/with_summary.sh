#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# convert --with-summary (issue 9, deliverable 3): the DB carries Insight's
# Ftrace Task Summary tables with the server's schema, the four FTRACE_* keys
# at FINISH, no cpu -1 marker rows, and numbers equal to what the server's
# units compute from the same slices (re-derived in insight_check.py), with
# context switches counted per CPU lane. With JSON output it is a usage error
# that leaves no file.
source "$(dirname "$0")/lib.sh"
S=$SRC/assets/sample
D=$SRC/tests/data

conv() { # name input [extra args]
	local name=$1 in=$2; shift 2
	mkdir -p "$WORK/$name"
	expect_ok "convert --with-summary $name" "$FTSCOPE" convert -q --with-summary --input "$in" \
		--output "$WORK/$name/ftrace_data.db" "$@"
}
conv sample "$S/sample.txt" --profiling_data "$S/profiling" --pid_mapping "$S/pid_mapping.json"
conv sample_dat "$S/sample.dat" --profiling_data "$S/profiling" --pid_mapping "$S/pid_mapping.json"
conv hackbench "$D/hackbench/hackbench.txt"
conv irq "$D/irq/irq.txt"

for name in sample sample_dat hackbench irq; do
	db=$WORK/$name/ftrace_data.db
	[ -f "$db" ] || continue
	expect_ok "$name: summary equals the server's computation (per-CPU switches)" $CHECK "$db" --expect-cs
	n=$(sqlite3 "$db" "SELECT COUNT(*) FROM status_info WHERE key IN ('FTRACE_TIME_STATISTICS','FTRACE_IRQ_STATISTICS','FTRACE_SCHED_STATISTICS','FTRACE_IRQ_AGGREGATION') AND value = 'FINISH'")
	[ "$n" = 4 ] && pass "$name: four FINISH rows" || bad "$name: $n FINISH rows"
	n=$(sqlite3 "$db" "SELECT COUNT(*) FROM trace_task_summary WHERE cpu_id = -1")
	[ "$n" = 0 ] && pass "$name: no cpu -1 rows" || bad "$name: $n cpu -1 rows"
	n=$(sqlite3 "$db" "SELECT COUNT(*) FROM slice WHERE name IN ('Running','Runnable','Sleeping') AND json_extract(args, '\$.cpu') IS NULL OR json_extract(args, '\$.cpu') = '-1'")
	[ "$n" = 0 ] && pass "$name: no marker slices" || bad "$name: $n marker slices"
	# per-CPU switches, counted straight from the CPU lanes in SQL
	diff <(sqlite3 "$db" "SELECT json_extract(s.args,'\$.prev_comm'), CAST(json_extract(s.args,'\$.prev_pid') AS INTEGER), CAST(substr(t.tid,5) AS INTEGER), COUNT(*) FROM slice s JOIN thread t USING (track_id) WHERE s.name = 'sched_switch' AND json_extract(s.args,'\$.prev_comm') NOT LIKE '%kworker%' AND json_extract(s.args,'\$.prev_comm') NOT LIKE '%swapper%' AND json_extract(s.args,'\$.prev_comm') NOT LIKE '%migration%' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3") \
	     <(sqlite3 "$db" "SELECT comm, pid, cpu_id, cs_count FROM trace_task_summary WHERE cs_count > 0 ORDER BY 1, 2, 3") > "$WORK/$name.csdiff" \
		&& pass "$name: cs_count = sched_switch markers per CPU lane" \
		|| { bad "$name: cs_count differs from the markers"; head "$WORK/$name.csdiff"; }
	diff <(sqlite3 "$db" "SELECT s.name, COUNT(*) FROM slice s JOIN thread t USING (track_id) WHERE s.name IN ('irq','softirq') AND json_extract(s.args,'\$.task') <> '<idle>' AND json_extract(s.args,'\$.task') NOT LIKE '%kworker%' AND json_extract(s.args,'\$.task') NOT LIKE '%swapper%' AND json_extract(s.args,'\$.task') NOT LIKE '%migration%' GROUP BY 1 ORDER BY 1") \
	     <(sqlite3 "$db" "SELECT irq_type, SUM(count) FROM trace_irq_detail GROUP BY 1 ORDER BY 1") > "$WORK/$name.irqdiff" \
		&& pass "$name: irq detail counts = irq slices" \
		|| { bad "$name: irq detail counts differ"; cat "$WORK/$name.irqdiff"; }
done
n=$(sqlite3 "$WORK/sample/ftrace_data.db" "SELECT SUM(cs_count) FROM trace_task_summary WHERE running_ns > 0")
[ "${n:-0}" -gt 0 ] && pass "switches land on rows with running time ($n)" || bad "no switch on a running row"

# default stays the marker rows, and no summary tables
mkdir -p "$WORK/plain"
expect_ok "default convert" "$FTSCOPE" convert -q --input "$D/hackbench/hackbench.txt" --output "$WORK/plain/ftrace_data.db"
n=$(sqlite3 "$WORK/plain/ftrace_data.db" "SELECT COUNT(*) FROM sqlite_master WHERE name IN ('trace_task_summary','trace_irq_detail','status_info')")
[ "$n" = 0 ] && pass "default: no summary tables" || bad "default: $n summary tables"

# the checker catches a wrong number and a half-written summary
db=$WORK/hackbench/ftrace_data.db
cp "$db" "$WORK/broken.db"
sqlite3 "$WORK/broken.db" "UPDATE trace_task_summary SET cs_count = cs_count + 1 WHERE rowid = 1"
expect_fail "checker catches a wrong cs_count" "trace_task_summary" $CHECK "$WORK/broken.db"
cp "$db" "$WORK/broken.db"
sqlite3 "$WORK/broken.db" "DELETE FROM status_info WHERE key = 'FTRACE_IRQ_AGGREGATION'"
expect_fail "checker catches a missing FINISH key" "FINISH keys" $CHECK "$WORK/broken.db"

# JSON: a clean usage error, nothing written
mkdir -p "$WORK/json"
"$FTSCOPE" convert -q --with-summary --input "$D/hackbench/hackbench.txt" --output "$WORK/json/ftrace_data.json" > "$WORK/json.out" 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q 'with-summary' "$WORK/json.out" && pass "--with-summary with json: exit 2" || { bad "json: exit $rc"; cat "$WORK/json.out"; }
[ -z "$(ls -A "$WORK/json")" ] && pass "json: no file left" || bad "json: $(ls -A "$WORK/json")"
finish
