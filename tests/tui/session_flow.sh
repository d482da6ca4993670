#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 8, the whole loop in a real terminal as root on real tracefs:
# home -> setup (CPU 0, sched only, 5 s: room to check the live table, the
# live top and 80x24 while it runs on a loaded machine) -> probe -> recording under
# hackbench with the live table -> the saved summary -> the preview -> export to
# ftrace_data.db with profiling data -> insight_check.py passes; global
# tracing state unchanged and our instance gone; every screen at 80x24; one
# Ctrl+Z while recording warns instead of stopping.
source "$(dirname "$0")/lib_session.sh" "$@"
need_root_tracefs
command -v hackbench >/dev/null || skip "hackbench (rt-tests) is not installed"
before=$(state)
cp "$SRC/assets/sample/sample.txt" old_capture.txt

start 120 40 "$FTS"
wait_for "Captures and DBs here"
wait_for "old_capture.txt"
screen | grep -q "Recording: ready" || fail "home does not say recording is ready as root"
at80 "home" "Captures and DBs"
keys '?'; wait_for "Keys: home"; keys x; sleep 0.3

keys r; wait_for "ftscope . setup"
keys c; text "0"; keys Enter
wait_for "1 of [0-9]+ selected: 0 "
keys j; sleep 0.2; keys j; sleep 0.2; keys Space   # focus: CPUs -> sched -> irq; irq off
wait_for '\$ ftscope record --cpu 0 --sched 1 --irq 0 --record_time 30 --live_top'
keys j j j; sleep 0.2; keys Enter; keys C-u; text 5; keys Enter  # futex -> buffer -> duration
wait_for '\$ ftscope record --cpu 0 --sched 1 --irq 0 --record_time 5 --live_top$'
ok "setup: CPU 0, sched only, 5 s, and the equivalent command line shows it"
at80 "setup" "Buffer +40960 KB per CPU x 1"

keys p
wait_for "Probe: .* in total" 10
ls /tmp | grep -q "^ftscope-probe-" && fail "the probe left its temporary directory"
ok "probe: $(screen | grep 'Probe:' | sed 's/^ *//')"

# both clocks in one process, so the cards' offset matches the recorder's clock pair
read -r t0_mono t0_us < <(python3 -c 'import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW), time.time_ns() // 1000)')
load 20
sleep 0.5
keys r
wait_for "REC .* / 5.0 s" 5
wait_for "^ cpu0 +[0-9.]+k?/s" 5
wait_for "Live top: last .* events decoded" 5
wait_for "Waiting Runnable +wait +On CPU" 5
ok "live top: $(screen | grep -A1 'Waiting Runnable' | tail -1 | sed 's/^ *//;s/  */ /g')"
pid=$(app_pid)
[ -n "$pid" ] && [ -d $T/instances/ftscope-$pid ] || fail "no private instance ftscope-$pid while recording"
ok "recording in instance ftscope-$pid: $(screen | grep '^ Events' | sed 's/^ *//')"
# one Ctrl+Z while recording only warns: stopped readers would let the ring buffers overflow
keys C-z
wait_for "Ctrl\+Z again within 5 s suspends" 3
[ "$(ps -o stat= -p "$pid" | cut -c1)" != T ] || fail "one Ctrl+Z stopped the recording"
ok "Ctrl+Z while recording warns and keeps recording"
resize 80 24; screen | grep -Eq "^ cpu0" || fail "record at 80x24: no cpu0 row"; ok "record at 80x24"; resize 120 40

wait_for "ftscope . saved" 30   # the summary after the capture; Enter previews
wait_for "^ Lost +none" 5
keys Enter
wait_for "ftscope preview +trace.dat" 30
wait_for "CPU Scheduling" 20
kill -TERM -- -"$LOAD" 2>/dev/null; LOAD=
t1_mono=$(python3 -c 'import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW))')
[ -d $T/instances/ftscope-$pid ] && fail "instance ftscope-$pid still there after the capture was saved"
[ -s trace.dat ] || fail "no trace.dat"
n=$(trace-cmd report -i trace.dat 2>/dev/null | grep -c sched_switch)
[ "$n" -gt 100 ] || fail "trace.dat has only $n sched_switch events"
trace-cmd report -i trace.dat 2>/dev/null | grep -q irq_handler_entry && fail "irq events recorded although irq was off"
ok "trace.dat: $n sched_switch events, no irq events"
at80 "preview" "CPU Scheduling"

# A profiling run around the capture: the bundled sample's layout with this run's clocks.
rm -rf prof && cp -r "$SRC/assets/sample/profiling" prof
for d in $(find prof -name start_info -printf '%h\n'); do
	printf '{"collectionTimeBegin": "%s", "clockMonotonicRaw": "%s"}\n' "$t0_us" "$t0_mono" > "$d/start_info"
	printf '{"collectionTimeEnd": "%s", "clockMonotonicRaw": "%s"}\n' \
		"$((t0_us + (t1_mono - t0_mono) / 1000))" "$t1_mono" > "$d/end_info"
done

keys e; wait_for "ftscope . export"
wait_for "Output +ftrace_data.db"
keys j j; sleep 0.2; keys Enter; text "$SRC/assets/sample/profiling"; keys Enter
wait_for "1 device card \(device_0\) and the host's window" 5
wait_for "the capture starts .* after the profiling window ends: recorded on another boot or host" 20
ok "the bundled sample's window (another day, another boot) is flagged as not overlapping"
keys Enter C-u; text "$WORK/prof"; keys Enter
wait_for "all of the capture is inside the profiling window" 20
at80 "export" "capture +"
# the export goes through fts_convert, so it offers --with_summary too
keys j j Space; wait_for "Summary +yes" 5
keys x
wait_for "Exported" 60
wait_for "Next: copy it with the profiling data" 5
[ -s ftrace_data.db ] || fail "no ftrace_data.db"
python3 "$SRC/tests/contract/insight_check.py" ftrace_data.db || fail "ftrace_data.db fails insight_check.py"
ok "ftrace_data.db passes insight_check.py"
[ "$(sqlite3 ftrace_data.db 'select count(*) from trace_task_summary')" -gt 0 ] ||
	fail "the export's --with_summary wrote no trace_task_summary rows"
ok "the export wrote Insight's task summary tables (--with_summary)"
at80 "export summary" "Exported"
keys o; wait_for "ftscope preview +ftrace_data.db" 20; wait_for "CPU Scheduling" 10
keys q; wait_for "ftscope . export" 5
keys q; wait_for "ftscope . home" 5
wait_for " trace.dat" 5
keys q
[ "$(wait_exit)" = EXIT=0 ] || fail "exit status $(cat exit.status), want 0"
terminal_restored
[ "$before" = "$(state)" ] || { diff <(echo "$before") <(state); fail "global tracing state changed"; }
[ -d $T/instances/ftscope-$pid ] && fail "instance ftscope-$pid left behind"
ok "global tracing state unchanged, instance ftscope-$pid removed"
echo "PASS"
