#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 15, the session's home and export screens, on the real binary in tmux
# (no root, no tracefs): defects 5 (a DB is not re-exported), 7 (progress
# moves, ETA a time), 8 (Insight's name rule ftrace_data[0-9]*.db), 9 (bars and
# words agree; another boot), 10 (whose pid map), 14 (home: directories,
# report files, position, selection kept, Esc asks, mouse), 17 (export keys,
# cancel feedback, cards, Tab completion) and the loss line (the one model).
source "$(dirname "$0")/lib_session.sh" "$@"
command -v python3 >/dev/null || skip "python3 is not installed"
export TZ=UTC
S=$SRC/assets/sample
run() { rm -f exit.status stty.after; start "$1" "$2" "TERM=xterm-256color LANG=C.UTF-8 $FTS"; wait_for "ftscope . home"; }
quit() {
	local i=0
	keys q; [ "$(wait_exit)" = EXIT=0 ] || fail "exit status $(cat exit.status), want 0"
	# the pane's shell writes stty.after just after exit.status
	while [ ! -s stty.after ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	terminal_restored
}
# a row's text by its label (first match)
row() { screen | grep -m1 -- "$1"; }
click() { # press and release as two writes (tmux drops them sent as one)
	tmux -L $SOCK send-keys -t 0 -l $'\e[<0;'"$1"';'"$2"'M'; sleep 0.05
	tmux -L $SOCK send-keys -t 0 -l $'\e[<0;'"$1"';'"$2"'m'; sleep 0.05
}
# select NAME with the keys: from the top, down until the command line names it
select_name() {
	local i=0
	keys g
	while ! screen | grep -q "ftscope preview $1\$" && [ $i -lt 20 ]; do keys j; sleep 0.2; i=$((i + 1)); done
	screen | grep -q "ftscope preview $1\$" || fail "cannot select $1"
}
# a click's escape sequence may reach curses in pieces on a loaded machine
# (its Esc then reads as a key): undo the quit question and try again
click_until() { # click_until X Y PATTERN [CLICKS]
	local i=0
	while [ $i -lt 5 ]; do
		click "$1" "$2"; [ "${4:-1}" = 2 ] && click "$1" "$2"
		for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do screen | grep -Eq -- "$3" && return 0; sleep 0.2; done
		screen | grep -q "Quit ftscope" && keys n
		i=$((i + 1))
	done
	fail "clicks at $1,$2 never gave /$3/"
}

# --- defect 8: the name rule, in the CLI's help and note ---
"$FTS" convert --help > help.txt 2>&1
grep -q 'ftrace_data\.db or ftrace_data<digits>\.db' help.txt || fail "convert --help does not state ftrace_data.db or ftrace_data<digits>.db"
grep -q 'ftrace_data\*\.db\|ftrace_data\[0-9\]\*\.db' help.txt && fail "convert --help still states a glob (read as 'anything')"
"$FTS" convert -i "$S/sample.dat" -o ftrace_data_kill.db > conv.out 2>&1 || fail "convert to ftrace_data_kill.db failed"
grep -q "named ftrace_data\.db or ftrace_data<digits>\.db; 'ftrace_data_kill.db' will not import" conv.out || fail "convert's note: $(grep -i insight conv.out)"
ok "convert: the name rule is ftrace_data.db or ftrace_data<digits>.db"
rm -f ftrace_data_kill.db

# --- the directory: a capture, a report (what preview opens), a DB, a subdirectory ---
cp "$S/sample.dat" trace.dat
cp "$S/sample.report" run.report
"$FTS" convert -q -i "$S/sample.dat" -o ftrace_data.db || fail "convert failed"
mkdir -p runs/old
touch -d '2026-03-01 10:00' trace.dat
touch -d '2026-03-01 11:00' run.report
touch -d '2026-03-01 12:00' ftrace_data.db

# --- defect 14: every kind listed, position, directories, selection kept, Esc asks, mouse ---
run 100 30
wait_for " run.report"
row " run.report" | grep -q '^  text ' || fail "the trace-cmd report is not listed as text: $(row run.report)"
wait_for "runs/"
wait_for "3 files  3/5"     # .., runs/, then the newest file selected
ok "home: a trace-cmd report is listed; position 3/5 on the first file"
keys j; wait_for "3 files  4/5"
row "4/5" >/dev/null
cp trace.dat zz_new.dat     # a new capture appears, newest first
wait_for "4 files  5/6" 10  # the list grew above the selection ...
screen | grep -q '^ \$ ftscope preview run.report' || fail "the selection left run.report: $(screen | grep '\$ ftscope')"
ok "home: a new file shows up and the selection stays on run.report"
keys Escape; wait_for "Quit ftscope\? y"
keys n; sleep 0.3
screen | grep -q "ftscope . home" || fail "n after Esc left home"
ok "home: Esc asks, another key stays"
# directories: into runs/ (Enter), down to old/, back up (Backspace) with runs/ selected
keys g j Enter; wait_for "Directory: .*/runs$"
wait_for "old/"
keys BSpace; wait_for "Directory: .*[^s]$"
wait_for "4 files  2/6"
ok "home: Enter goes into a directory, Backspace comes back to it"
# d: a typed path, Tab completes
keys d; wait_for "Go to directory: "
text "ru"; keys Tab; wait_for "Go to directory: runs/_"
keys Tab; wait_for "Go to directory: runs/old/_"
keys Enter; wait_for "Directory: .*/runs/old$"
keys BSpace BSpace; wait_for "4 files"
ok "home: d with Tab completion goes to runs/old"
# mouse: a click selects, a second click opens
y=$(screen | grep -n ' trace.dat$' | head -1 | cut -d: -f1)
[ -n "$y" ] || fail "trace.dat not on screen"
click_until 20 "$y" "ftscope preview trace.dat"
ok "home: a click selects trace.dat"
click_until 20 "$y" "CPU Scheduling" 2
ok "home: a double click opens it"
keys q; wait_for "ftscope . home"
at80 "home" "files  [0-9]+/[0-9]+"
resize 200 50; wait_for "files  [0-9]+/[0-9]+"; ok "home at 200x50"
resize 100 30

# --- defect 5: a DB is not offered for export ---
select_name ftrace_data.db
keys e; wait_for "this DB is already an export: its times and pids were fixed"
screen | grep -q "ftscope . export" && fail "export opened for a DB"
ok "home: e on a DB says why it is not exported"
quit

# --- defects 10, 17, 8 on the export form ---
touch -d '2026-02-28 07:00' pid_mapping.json.tmp; cp "$S/pid_mapping.json" pid_mapping.json
touch -d '2026-03-01 07:00' pid_mapping.json   # 3 h before trace.dat: another run's
run 100 30
select_name trace.dat; keys e
wait_for "ftscope . export"
wait_for "Pid map +\(none: host pids\)"
wait_for "pid_mapping.json here is from 2026-03-01 07:00, 3h00m before this capture"
ok "export: an older run's pid map is named, not used"
keys j; wait_for "Output"
keys Space; sleep 0.3
screen | grep -q "Output +ftrace_data.db_" && fail "Space opened the editor on Output"
wait_for "Space switches Format and Summary; Enter edits"
keys f; wait_for "Format +json"; keys f; wait_for "Format +db"
ok "export: Space does not edit Output; f switches the format from any field"
keys Enter C-u; text "ftrace_data_kill.db"; keys Enter
wait_for "Insight only recognises DBs named ftrace_data\.db or"
ok "export: ftrace_data_kill.db flagged with the rule ftrace_data.db or ftrace_data<digits>.db"
keys Enter C-u; text "ru"; keys Tab; wait_for "Output +run_"
wait_for "2 matches: run.report runs"
keys C-u; text "ftrace_data.db"; keys Enter
keys j; keys Enter; text "$S/prof"; keys Tab
wait_for "2 matches: profiling"
keys Enter; wait_for "1 device card \(device_0\) and the host's window"
ok "export: Tab completes paths; cards: device_0 and the host's window"
y=$(screen | grep -n '^  Summary ' | head -1 | cut -d: -f1)
click_until 5 "$y" "Summary +yes: Insight's Ftrace Task Summary" 2
ok "export: a click focuses a field, a second click switches it"
keys Escape; wait_for "ftscope . home"
quit
rm -f pid_mapping.json.tmp

# --- defect 9: a capture from another boot: bars, words and the export agree ---
# small.dat's recorder clock pair: realtime 1795968706.681603992 s at mono 359.850431659 s.
# The card: mono 400 s..410 s (the capture lies ~40 s before it on the trace
# clock), collection begin an hour before the capture's wall clock.
mkdir -p other/PROF_1/device_0
printf '{"collectionTimeBegin": "1795965106681603", "clockMonotonicRaw": "400000000000"}\n' > other/PROF_1/device_0/start_info
printf '{"collectionTimeEnd": "1795965116681603", "clockMonotonicRaw": "410000000000"}\n' > other/PROF_1/device_0/end_info
cp "$SRC/tests/data/dat/small.dat" small.dat
run 120 30
keys d; text "."; keys Enter   # the list again, newest first: small.dat
wait_for "ftscope preview small.dat"
keys e; wait_for "ftscope . export"
keys j j Enter; text "other"; keys Enter
wait_for "device_0 " 30
wait_for "the capture ends .* before the profiling window starts: recorded on another boot or host" 30
cap=$(row "^  capture ") dev=$(row "^  device_0 ")
python3 - "$cap" "$dev" <<'EOF' || fail "bars disagree with the words: capture '$cap' device '$dev'"
import sys
cap, dev = sys.argv[1], sys.argv[2]
c = [i for i, ch in enumerate(cap) if ch == "\u2588"]
d = [i for i, ch in enumerate(dev) if ch == "\u2588"]
sys.exit(0 if c and d and max(c) < min(d) else 1)
EOF
ok "export: the capture's bar ends before the card's, as the words say"
keys x; wait_for "export failed: .*entirely before it" 30
ok "export: the export's own check says before too"
keys Escape; wait_for "ftscope . home"
quit

# --- defect 7 and 17: progress moves, ETA is a time, q does not cancel, Esc does at once ---
python3 - "$S/sample.txt" big.txt 40 <<'EOF'
import re, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = open(src, encoding="utf-8", errors="surrogateescape").read().split("\n")
head = [l for l in lines if l.startswith("#")]
body = [l for l in lines if l and not l.startswith("#")]
ts = re.compile(r"(\s)(\d+)\.(\d{6}):")
first = last = None
for l in body:
    m = ts.search(l)
    if m:
        v = int(m.group(2)) * 1000000 + int(m.group(3))
        first = v if first is None else first
        last = v
span = last - first + 1
with open(dst, "w", encoding="utf-8", errors="surrogateescape") as f:
    f.write("\n".join(head) + "\n")
    for k in range(n):
        def sh(m):
            v = int(m.group(2)) * 1000000 + int(m.group(3)) + k * span
            return "%s%d.%06d:" % (m.group(1), v // 1000000, v % 1000000)
        for l in body:
            f.write(ts.sub(sh, l, count=1) + "\n")
EOF
touch -d '2027-01-01 00:00' big.txt
# paced (1.5 s per progress report, about 6 of them): a quiet machine exports big.txt
# in under 2 s, before the keys below land
start 120 30 "TERM=xterm-256color LANG=C.UTF-8 FTSCOPE_TEST_EXPORT_PACE_MS=1500 $FTS"; wait_for "ftscope . home"
wait_for "ftscope preview big.txt"
keys e; wait_for "ftscope . export"
keys x; wait_for "Exporting" 10
# the clocks move between the library's reports: the line changes while the
# stage stays (a loaded machine may take a while to draw again)
l1=$(screen | grep -E 'so far' | head -1) l2=$l1 i=0
[ -n "$l1" ] || fail "no progress line with the time so far"
while [ "$l2" = "$l1" ] && [ $i -lt 200 ]; do sleep 0.1; l2=$(screen | grep -E 'so far' | head -1); i=$((i + 1)); done
[ "$l2" != "$l1" ] || fail "the progress line did not move in 20 s: '$l1'"
ok "export: progress moves ('$l1' -> '$l2')"
screen | grep -E 'ETA [0-9.]+ ?[KMG]?i?B' && fail "an ETA printed as a size"
keys q; wait_for "exporting: Esc cancels"
screen | grep -q "Exporting" || fail "q cancelled the export"
ok "export: q does not cancel (only Esc is shown)"
keys Escape; wait_for "Cancelling|cancelling the export" 2
ok "export: Esc shows the cancel at once"
# the commit at the end does not stop: an Esc that late says so
wait_for "export cancelled; nothing was written|too late to cancel" 120
if screen | grep -q "export cancelled"; then
	[ -e ftrace_data.db ] && [ ftrace_data.db -nt big.txt ] && fail "a cancelled export left ftrace_data.db"
	ok "export: cancelled, nothing left behind"
else
	ok "export: the Esc came during the commit, and the screen says so"
fi
keys q; wait_for "ftscope . home"
quit

# --- the loss line: the one loss model, as the preview counts it ---
cp "$SRC/tests/data/dat/lost.dat" lossy.dat
touch -d '2027-02-01 00:00' lossy.dat
run 120 30
wait_for "ftscope preview lossy.dat"
keys e; wait_for "ftscope . export"; keys j j j   # no profiling: keep it simple
keys x; wait_for "Exported" 60
wait_for "the kernel lost [0-9]+ events \(CPU" 5
got=$(row "the kernel lost")
screen | grep -q "lost 0 events" && fail "lost 0 printed for a lossy capture"
ok "export: $(echo "$got" | sed 's/^ *//')"
keys q; wait_for "ftscope . home"
quit
echo "PASS"
