#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 15: Ctrl+Z pressed twice while recording does stop ftscope (readers
# included); loss that happens while it is stopped is attributed to the stop
# in the message, and the capture goes on after SIGCONT. A small buffer under
# hackbench, so the 3 s stop overflows it.
source "$(dirname "$0")/lib_session.sh" "$@"
need_root_tracefs
command -v hackbench >/dev/null || skip "hackbench (rt-tests) is not installed"

# an interactive shell with job control, so Ctrl+Z stops ftscope and fg continues it
start 120 40 "env PS1='$ ' bash --norc --noprofile -i"
sleep 0.5
text "$FTS record --tui --cpu 0 --record_time 0 --bf_size 1024 -o sus.dat"; keys Enter
wait_for "ftscope . setup"
load 40
sleep 0.5
keys r
wait_for "REC .* \\(until stopped\\)" 10
sleep 2
# ftscope runs under the pane's interactive bash
sh_pid=$(pgrep -P "$(tmux -L $SOCK list-panes -t 0 -F '#{pane_pid}')" -x bash | head -1)
pid=$(pgrep -P "$sh_pid" -x ftscope | head -1)
[ -n "$pid" ] || fail "no ftscope process"
keys C-z
sleep 0.5   # the first only asks (a loss message may take the status line first)
[ "$(ps -o stat= -p "$pid" | cut -c1)" != T ] || fail "one Ctrl+Z stopped the recording"
keys C-z
i=0; while [ "$(ps -o stat= -p "$pid" | cut -c1)" != T ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(ps -o stat= -p "$pid" | cut -c1)" = T ] || fail "the second Ctrl+Z did not stop ftscope"
sleep 3
text fg; keys Enter
wait_for "LOST .* while ftscope was stopped by Ctrl\\+Z for [0-9.]+ s" 10
ok "loss during the stop is attributed to it: $(screen | grep -Eo 'LOST .*' | head -1)"
t0=$(screen | grep -Eo 'REC [0-9.]+ s' | grep -Eo '[0-9.]+')
sleep 2
t1=$(screen | grep -Eo 'REC [0-9.]+ s' | grep -Eo '[0-9.]+')
[ "$t0" != "$t1" ] || fail "the recording did not go on after SIGCONT"
ok "the capture goes on after SIGCONT ($t0 s -> $t1 s)"
keys s
wait_for "ftscope . saved" 60
kill -TERM -- -"$LOAD" 2>/dev/null; LOAD=
wait_for "^ Lost +[0-9]+ events \\(CPU 0: [0-9]+\\)" 3
ok "the saved screen: $(screen | grep -E '^ Lost')"
keys q; wait_for "ftscope . home" 10
keys q
i=0; while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 "$pid" 2>/dev/null && fail "ftscope did not exit"
text 'echo RC=$?'; keys Enter   # after fg, $? is the job's exit status
wait_for "^RC=0" 5
ok "exit status 0"
echo "PASS"
