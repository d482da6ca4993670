#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 33, the interactive session, on the real binary in tmux at 80x24:
# - o after an export whose file no longer previews (replaced after the
#   export) returned to the export form without a word: now it says why;
# - (root, tracefs) the saved screen of a flight recording with 3 snapshots
#   counted 1 of them and named the last segment alone: now it names the ring
#   (its segments, previewed as one trace) and every snapshot;
# usage: session_round3.sh FTSCOPE SRCDIR WORKDIR
source "$(dirname "$0")/lib_session.sh" "$@"
export TZ=UTC
cp "$SRC/assets/sample/sample.txt" .

# --- o after an export whose preview fails
start 80 24 "TERM=xterm-256color LANG=C.UTF-8 $FTS"
wait_for "ftscope . home"
keys e
wait_for "ftscope . export"
keys x
wait_for "o opens the written file in the preview" 60
echo garbage > ftrace_data.db
keys o
wait_for "cannot open it: ftrace_data.db: not a trace" 10
screen | grep -q "ftscope . export" || fail "not back on the export screen"
ok "o on a file that no longer previews: back on the export form, saying why"
keys q
wait_for "ftscope . home"
keys q
[ "$(wait_exit)" = EXIT=0 ] || fail "exit status $(cat exit.status), want 0"
terminal_restored

# --- the saved screen of a flight recording: the ring and the snapshots
need_root_tracefs
start 80 24 "TERM=xterm-256color LANG=C.UTF-8 $FTS record --tui --flight --segment 1 --keep 3 -o $WORK/f.dat"
wait_for "ftscope . setup"
keys r
wait_for "Ring [0-9]+ of 3 segments" 20
sleep 2
for i in 1 2 3; do keys s; wait_for "snapshot snapshot-.*-key kept" 5; sleep 1.1; done
keys S
wait_for "ftscope . saved" 30
wait_for "Saved the ring: [0-9]+ segments f.[0-9]{6}.dat .. f.[0-9]{6}.dat in /" 5
wait_for "Snapshots 3: snapshot-[0-9TZ]+-key, snapshot-" 5
[ "$(ls -d snapshot-*-key | wc -l)" = 3 ] || fail "not 3 snapshot directories: $(ls)"
ok "saved: the ring and 3 snapshots named"
screen | tr -d "\n" | grep -q "; snapshots: 3 " || fail "the status line does not count 3 snapshots"
keys Enter
# the title truncates a long path (a sanitizer build's work directory is
# longer), so the preview is known by its title and its status line
wait_for "ftscope preview +/" 20
wait_for "^$(basename "$WORK") [|] lost" 10
ok "Enter previews the ring's directory"
keys q
wait_for "ftscope . home" 10
keys q
[ "$(wait_exit)" = EXIT=0 ] || fail "exit status $(cat exit.status), want 0"
