#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Produced files import the way MindStudio Insight reads them (insight_check.py),
# for text and trace.dat input, DB and JSON output, and the checker itself
# rejects files that break the contract.
source "$(dirname "$0")/lib.sh"
mkdir -p "$WORK"/{lost,lostdat,raw,hostile}
S=$SRC/assets/sample
D=$SRC/tests/data

for in in sample.txt sample.dat sample.report; do
	for fmt in db json; do
		out=$WORK/${in%%.*}_${in##*.}/ftrace_data.$fmt
		mkdir -p "$(dirname "$out")"
		expect_ok "convert $in -> $fmt" "$FTSCOPE" convert -q --input "$S/$in" --format $fmt \
			--profiling_data "$S/profiling" --pid_mapping "$S/pid_mapping.json" --output "$out"
		expect_ok "contract $in -> $fmt" $CHECK "$out" --expect-irq --expect-cs
	done
done

# lost events become markers, in both readers
expect_ok "convert trace_pipe with LOST lines" "$FTSCOPE" convert -q --input "$D/lost/trace_pipe.txt" --output "$WORK/lost/ftrace_data.db"
expect_ok "lost markers present" $CHECK "$WORK/lost/ftrace_data.db" --expect-lost
expect_ok "convert dat with missed pages" "$FTSCOPE" convert -q --input "$D/dat/lost.dat" --output "$WORK/lostdat/ftrace_data.db"
expect_ok "lost markers from trace.dat" $CHECK "$WORK/lostdat/ftrace_data.db" --expect-lost
n=$(sqlite3 "$WORK/lostdat/ftrace_data.db" "SELECT SUM(json_extract(args,'$.count')) FROM slice WHERE name='lost events'")
[ "${n:-0}" -gt 0 ] && pass "lost count summed ($n)" || bad "lost count $n"

# without profiling data the times stay on the trace clock: the first slice
# starts at the first event's time
expect_ok "raw time convert" "$FTSCOPE" convert -q --input "$D/hackbench/hackbench.txt" --output "$WORK/raw/ftrace_data.db"
first=$(grep -m1 -oE '[0-9]+\.[0-9]{6}: sched_' "$D/hackbench/hackbench.txt" | tr -d '.:a-z_ ')
min=$(sqlite3 "$WORK/raw/ftrace_data.db" "SELECT MIN(timestamp) FROM slice")
[ "$min" = "${first}000" ] && pass "raw times kept ($min)" || bad "raw min $min, first event ${first}000"

# profiling alignment: every slice inside the window, mapped to the epoch
si=$(find "$S/profiling" -name start_info | sort | head -1)
mono=$(python3 -c "import json,sys;print(json.load(open(sys.argv[1]))['clockMonotonicRaw'])" "$si")
beg=$(python3 -c "import json,sys;print(json.load(open(sys.argv[1]))['collectionTimeBegin'])" "$si")
min=$(sqlite3 "$WORK/sample_txt/ftrace_data.db" "SELECT MIN(timestamp) FROM slice")
lo=$(python3 -c "print(min($mono, *[int(__import__('json').load(open(p))['clockMonotonicRaw']) for p in __import__('sys').argv[1:]]) - $mono + $beg*1000)" $(find "$S/profiling" -name start_info))
[ "$min" -ge "$lo" ] && pass "slices start inside the window ($min >= $lo)" || bad "slice before window: $min < $lo"

# the checker is not a rubber stamp: break a copy in each way it must catch
db=$WORK/sample_txt/ftrace_data.db
breakit() {
	local desc=$1 sql=$2 pat=${3:-FAIL}
	cp "$db" "$WORK/broken.db"
	sqlite3 "$WORK/broken.db" "$sql"
	expect_fail "checker catches $desc" "$pat" $CHECK "$WORK/broken.db"
}
breakit "end_time mismatch" "UPDATE slice SET end_time = end_time + 1 WHERE id = 5"
breakit "numeric arg" "UPDATE slice SET args = json_set(args, '$.cpu', 3) WHERE id = (SELECT MIN(id) FROM slice WHERE name = 'Running')"
breakit "overlap" "UPDATE slice SET duration = duration + 1000, end_time = end_time + 1000 WHERE id = (SELECT MIN(id) FROM slice WHERE name = 'Running' AND duration > 0)"
breakit "missing counter table" "DROP TABLE counter"
breakit "bad cpu lane name" "UPDATE thread SET tid = 'CPU0' WHERE tid = 'CPU 000'"
breakit "process pid != name" "UPDATE process SET pid = 'x' WHERE pid = 'CPU Scheduling'"
# what the real server drew badly (issue 11)
marker="(SELECT MIN(id) FROM slice WHERE name = 'Sleeping' AND duration = 0)"
breakit "a marker at its lane's first start (second row)" \
	"UPDATE slice SET timestamp = (SELECT MIN(s.timestamp) FROM slice s WHERE s.track_id = slice.track_id AND s.duration > 0), end_time = (SELECT MIN(s.timestamp) FROM slice s WHERE s.track_id = slice.track_id AND s.duration > 0) WHERE id = $marker" \
	'with 2 rows'
breakit "a marker strictly inside a slice" \
	"UPDATE slice SET timestamp = (SELECT MIN(s.timestamp) + 1 FROM slice s WHERE s.track_id = slice.track_id AND s.duration > 1), end_time = (SELECT MIN(s.timestamp) + 1 FROM slice s WHERE s.track_id = slice.track_id AND s.duration > 1) WHERE id = $marker" \
	'with 2 rows'
breakit "a marker without cpu" "UPDATE slice SET args = json_remove(args, '\$.cpu') WHERE id = $marker" 'args.cpu'
breakit "a marker for a task with no counted switch" \
	"INSERT INTO slice (timestamp, duration, end_time, name, track_id, args) SELECT MAX(s.end_time), 0, MAX(s.end_time), 'Sleeping', t.track_id, '{\"cpu\":\"-1\"}' FROM slice s JOIN thread t ON t.track_id = s.track_id WHERE t.tid GLOB 'kworker*' GROUP BY t.track_id LIMIT 1" \
	'counts no switch'
breakit "idle interrupts as <idle>:0" \
	"UPDATE slice SET args = json_set(args, '\$.task', '<idle>:0') WHERE id = (SELECT MIN(id) FROM slice WHERE json_extract(args, '\$.task') = '<idle>')" \
	'idle filter'
n=$(sqlite3 "$db" "SELECT COUNT(*) FROM slice WHERE json_extract(args, '\$.task') = '<idle>'")
[ "$n" -gt 0 ] && pass "idle interrupts written as <idle> ($n)" || bad "no irq/softirq with task <idle>"

# JSON: every event has "ph" and no raw brace in a string, even for hostile comms
printf '%s\n' \
 '            a{b}-100   [000] d..2.   100.000001: sched_switch: prev_comm=a{b} prev_pid=100 prev_prio=120 prev_state=S ==> next_comm="ph" x next_pid=101 next_prio=120' \
 '      "ph" x-101   [000] d..2.   100.000009: sched_switch: prev_comm="ph" x prev_pid=101 prev_prio=120 prev_state=R ==> next_comm=a{b} next_pid=100 next_prio=120' \
 > "$WORK/hostile.txt"
expect_ok "convert hostile comms to json" "$FTSCOPE" convert -q --input "$WORK/hostile.txt" --output "$WORK/hostile/ftrace_data.json"
expect_ok "hostile json passes the splitter rules" $CHECK "$WORK/hostile/ftrace_data.json"
grep -q 'a\\u007bb\\u007d' "$WORK/hostile/ftrace_data.json" && pass "braces escaped" || bad "braces not escaped"

finish
