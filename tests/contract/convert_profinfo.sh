#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 18: a profiling directory whose PROF_* raw data was removed (data
# simplification) aligns from profiler_info_<rank>.json: the same window and
# offset as the equivalent start_info/end_info give the same slices; the
# capture's clock pair converts its CLOCK_MONOTONIC end; the summary names
# each card's source and the format that joins the profiling; a malformed
# profiler_info is refused naming the file and field, with no output left.
source "$(dirname "$0")/lib.sh"
S=$SRC/assets/sample
O=$WORK/out
mkdir -p "$O"

# the sample's own offset; window [620, 630] s on its clock
python3 - "$WORK" <<'PY'
import os, sys, json
w = sys.argv[1]
off_ns = (1795968970902116 - 623805628706 // 1000) * 1000
s, e = 620 * 10**9, 630 * 10**9
d = os.path.join(w, "prof", "h_1_ascend_pt", "PROF_000001", "device_0")
os.makedirs(d)
open(os.path.join(d, "start_info"), "w").write('{"collectionTimeBegin": "%d", "clockMonotonicRaw": "%d"}' % ((s + off_ns) // 1000, s))
open(os.path.join(d, "end_info"), "w").write('{"clockMonotonicRaw": "%d"}' % e)
def info(path, typ, start, end_rt, end_mono):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    json.dump({"config": {"experimental_config": {"_export_type": typ, "_data_simplification": True}},
               "start_info": {"syscnt_enable": True, "freq": 100, "start_cnt": 1, "start_monotonic": start},
               "end_info": {"collectionTimeEnd": end_rt, "MonotonicTimeEnd": end_mono}, "rank_id": 0},
              open(path, "w"))
info(os.path.join(w, "pinfo", "h_1_ascend_pt", "profiler_info_0.json"), "text", s, e + off_ns, e)
os.makedirs(os.path.join(w, "pinfo", "h_1_ascend_pt", "ASCEND_PROFILER_OUTPUT"))
open(os.path.join(w, "pinfo", "h_1_ascend_pt", "ASCEND_PROFILER_OUTPUT", "trace_view.json"), "w").write("[]")
# small.txt's pair: realtime 1795968706681603992 at mono_raw 359850431659; MONOTONIC 2.5 ms ahead
off_raw = 1795968706681603992 - 359850431659
info(os.path.join(w, "ppair", "h_ascend_pt", "profiler_info_0.json"), ["text", "db"],
     359 * 10**9, 361 * 10**9 + off_raw, 361 * 10**9 + 2500000)
os.makedirs(os.path.join(w, "pbad", "h_ascend_pt"))
open(os.path.join(w, "pbad", "h_ascend_pt", "profiler_info_0.json"), "w").write(
    '{"start_info": {"start_monotonic": 5}, "end_info": {"collectionTimeEnd": 9}}')
PY

expect_ok "PROF_* card" "$FTSCOPE" convert -i "$S/sample.dat" -p "$WORK/prof" -o "$O/ftrace_data.db"
cp "$WORK/last.out" "$WORK/prof.out"
expect_ok "profiler_info card" "$FTSCOPE" convert -i "$S/sample.dat" -p "$WORK/pinfo" -o "$O/ftrace_data1.db"
cp "$WORK/last.out" "$WORK/pinfo.out"
slices "$O/ftrace_data.db" > "$WORK/a" && slices "$O/ftrace_data1.db" > "$WORK/b"
[ -s "$WORK/a" ] && cmp -s "$WORK/a" "$WORK/b" && pass "the same window and offset give the same $(wc -l < "$WORK/a") slices" ||
	bad "profiler_info slices differ from start_info's ($(wc -l < "$WORK/a") vs $(wc -l < "$WORK/b"))"
grep -q "device_0 (start_info/end_info)" "$WORK/prof.out" && pass "summary: the PROF_* card's source" ||
	{ bad "summary: PROF_* source"; cat "$WORK/prof.out"; }
grep -q "h_1_ascend_pt (profiler_info_0.json, no PROF_\* start_info/end_info; no clock pair in the capture: .* may be off by about 31.5 ms" "$WORK/pinfo.out" &&
	pass "summary: profiler_info source and its error bound (50 ppm of 630 s)" || { bad "summary: profiler_info source"; cat "$WORK/pinfo.out"; }
grep -q "^profiling text export type .*--format json joins it" "$WORK/pinfo.out" &&
	grep -q "^warning   an ftrace DB next to text-only profiling" "$WORK/pinfo.out" &&
	pass "text-only profiling: json suggested, the DB warned about" || { bad "summary: format"; cat "$WORK/pinfo.out"; }
expect_ok "profiler_info card, json" "$FTSCOPE" convert -i "$S/sample.dat" -p "$WORK/pinfo" -f json -o "$O/ftrace_data.json"
! grep -q "^warning   an ftrace DB" "$WORK/last.out" && pass "json next to text-only profiling: no warning" || { bad "json warned"; cat "$WORK/last.out"; }

expect_ok "profiler_info with the capture's clock pair" "$FTSCOPE" convert -i "$SRC/tests/data/dat/small.txt" -p "$WORK/ppair" -o "$O/ftrace_data2.db"
grep -q "converted by the capture's clock pair: MONOTONIC - MONOTONIC_RAW = +2.500 ms" "$WORK/last.out" &&
	grep -q "^profiling text and DB export type .*--format db joins it" "$WORK/last.out" &&
	pass "clock pair: MONOTONIC end converted, the measured difference said; both types: db" || { bad "clock pair summary"; cat "$WORK/last.out"; }

# a newer capture: MONOTONIC read with the pair at start and stop (+30 ppm over
# 1 s); the end is converted along the fitted line: MONOTONIC - RAW there is
# 2.5 ms + 30 ppm of the 1.1496 s since the start = 2.534 ms
{ echo "# ftscope_clock realtime_ns=1795968706681603992 mono_raw_ns=359850431659 mono_ns=359852931659 window_ns=100"
  echo "# ftscope_clock_stop realtime_ns=1795968707681603992 mono_raw_ns=360850431659 mono_ns=360852961659 window_ns=100"
  cat "$SRC/tests/data/dat/small.txt"; } > "$WORK/fit.txt"
expect_ok "profiler_info with start and stop clock samples" "$FTSCOPE" convert -i "$WORK/fit.txt" -p "$WORK/ppair" -o "$O/ftrace_data3.db"
grep -q "converted by the capture's start and stop clock samples, fitted: MONOTONIC - MONOTONIC_RAW = +2.534 ms, drifting +30.00 ppm; expected error about [0-9]* ns)" "$WORK/last.out" &&
	pass "start and stop samples: the MONOTONIC end converted along the fitted drift, its error said" || { bad "fitted summary"; cat "$WORK/last.out"; }
grep -v "^# ftscope_clock_stop" "$WORK/fit.txt" > "$WORK/start.txt"
expect_ok "profiler_info with a start clock sample only" "$FTSCOPE" convert -i "$WORK/start.txt" -p "$WORK/ppair" -o "$O/ftrace_data4.db"
grep -q "converted by the capture's start clock sample only, offset MONOTONIC - MONOTONIC_RAW = +2.500 ms; may be off by about .*, the drift at 50 ppm since the start)" "$WORK/last.out" &&
	pass "start sample only: its offset, with the 50 ppm bound" || { bad "start-only summary"; cat "$WORK/last.out"; }

# the stop sample as the capture's closing marker, after every event: the clock
# scan reads on past the start sample to find it (the same fit as above)
{ echo "# ftscope_clock realtime_ns=1795968706681603992 mono_raw_ns=359850431659 mono_ns=359852931659 window_ns=100"
  cat "$SRC/tests/data/dat/small.txt"
  echo "          rec.sh-4886    [000] ...1.   360.850433: tracing_mark_write: ftscope_clock_stop realtime_ns=1795968707681603992 mono_raw_ns=360850431659 mono_ns=360852961659 window_ns=100"; } > "$WORK/late_stop.txt"
expect_ok "profiler_info with the stop sample last" "$FTSCOPE" convert -i "$WORK/late_stop.txt" -p "$WORK/ppair" -o "$O/ftrace_data6.db"
grep -q "converted by the capture's start and stop clock samples, fitted: MONOTONIC - MONOTONIC_RAW = +2.534 ms, drifting +30.00 ppm" "$WORK/last.out" &&
	pass "a closing stop sample: found after the start sample, the same fit" || { bad "closing stop summary"; cat "$WORK/last.out"; }

expect_fail "malformed profiler_info" "profiler_info_0.json: end_info.MonotonicTimeEnd is missing" \
	"$FTSCOPE" convert -i "$S/sample.dat" -p "$WORK/pbad" -o "$O/ftrace_data5.db"
mkdir -p "$O/bad2"
"$FTSCOPE" convert -i "$S/sample.dat" -p "$WORK/pbad" -o "$O/bad2/ftrace_data.db" > /dev/null 2>&1
[ $? -eq 1 ] && [ -z "$(ls -A "$O/bad2")" ] && pass "malformed profiler_info: exit 1, nothing written" || bad "malformed: exit or output left"
finish
