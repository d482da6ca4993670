#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The real binary in a real terminal: tmux on a private socket, keys sent,
# the pane captured. Open a capture, search, zoom, details, help, resize to
# 80x24, quit (exit 0, terminal restored); SIGTERM, SIGHUP, Ctrl+C, SIGSEGV and
# bad input restore it too; a
# task named with escape sequences shows escaped and the pane title stays;
# Ctrl+Z then fg gives drag-to-pan back; an unknown TERM exits 2.
# usage: tmux_preview.sh FTSCOPE SRCDIR WORKDIR
set -uo pipefail
bin=$(readlink -f "$1") src=$(readlink -f "$2") work=$3
command -v tmux > /dev/null || { echo "no tmux: skipped"; exit 77; }
rm -rf "$work"; mkdir -p "$work"
sock=fts$$
T() { tmux -L "$sock" "$@"; }
trap 'T kill-server 2> /dev/null' EXIT
fail=0
ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; echo "---- pane:"; T capture-pane -p; echo "----"; fail=1; }

# wait until the pane shows $1 (a grep -E pattern), up to 20 s
wait_for() {
	for _ in $(seq 200); do
		T capture-pane -p | grep -qE -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
keys() { T send-keys "$@"; sleep 0.4; }
pane() { T capture-pane -p; }
flag() { T display -p "#{$1}"; }

# a clean environment, but the sanitizers' settings (suppressions) come along
san=
for v in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
	[ -n "${!v:-}" ] && san+=" $v=${!v}"
done
T -f /dev/null new-session -d -x 120 -y 40 "env -i PATH=$PATH HOME=$work PS1='$ ' TERM=xterm-256color LANG=C.UTF-8$san bash --norc --noprofile"
T set-option -g set-titles off > /dev/null
T select-pane -T origtitle
sleep 0.3

# --- open, search, zoom, details, help, resize, quit ---
keys "cd $src && $bin preview assets/sample/sample.dat; echo EXIT=\$?" Enter
wait_for 'Process Scheduling' && ok "opens" || bad "the lanes never showed"
[ "$(flag alternate_on)" = 1 ] && ok "alternate screen while running" || bad "not on the alternate screen"
before=$(pane | grep -oE '[0-9.]+ [mµn]?s/col' | head -1)
keys / d l _ w o r k e r Enter
pane | grep -qE '^>dl_worker:15236' && ok "search selects dl_worker" || bad "search did not select dl_worker"
pane | grep -q "1 task match 'dl_worker'" && ok "search says how many match" || bad "no match count"
keys + +
after=$(pane | grep -oE '[0-9.]+ [mµn]?s/col' | head -1)
[ -n "$before" ] && [ "$before" != "$after" ] && ok "zoom: $before -> $after" || bad "zoom did not change the scale ($before -> $after)"
keys ]
keys Enter
pane | grep -q 'Details (Enter: smaller)' && ok "details pane opens" || bad "no big details pane"
pane | grep -qE 'task dl_worker:15236' && ok "details name the task" || bad "details do not name the task"
keys Enter
keys '?'
pane | grep -q 'zoom in around the cursor' && ok "help lists the keys" || bad "no help"
keys q
T resize-window -x 80 -y 24
sleep 0.6
p=$(pane)
echo "$p" | grep -q 'CPU Scheduling' && ok "redrawn at 80x24" || bad "not redrawn at 80x24"
[ "$(echo "$p" | wc -L)" -le 80 ] && ok "nothing wider than 80 columns" || bad "a line wider than 80"
echo "$p" | sed -n 24p | grep -q 'sample.dat' && ok "status line on the last row" || bad "status line not on row 24"
keys q
wait_for 'EXIT=0' && ok "q exits 0" || bad "q did not exit 0"
[ "$(flag alternate_on)" = 0 ] && ok "alternate screen left" || bad "still on the alternate screen"
[ "$(flag cursor_flag)" = 1 ] && ok "cursor visible again" || bad "cursor still hidden"
[ "$(flag mouse_any_flag)$(flag mouse_button_flag)$(flag mouse_standard_flag)" = 000 ] && ok "mouse reporting off" || bad "mouse reporting still on"
T resize-window -x 120 -y 40
keys clear Enter

# --- a task named with escape sequences (OSC 0 sets a title; CSI clears) ---
printf '%s\n' '# tracer: nop' \
"          <idle>-0       [001] d..2.   100.001000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=x"$'\e]0;PWNED\a\e[2J'" next_pid=300 next_prio=120" \
"x"$'\e]0;PWNED\a\e[2J'"-300     [001] d..2.   100.008000: sched_switch: prev_comm=x"$'\e]0;PWNED\a\e[2J'" prev_pid=300 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120" \
> "$work/evil.txt"
keys "$bin preview $work/evil.txt; echo EXIT=\$?" Enter
wait_for 'Process Scheduling' || bad "evil capture did not open"
keys / P W N Enter
pane | grep -qF 'x^[]0;PWNED^G^[[2J:300' && ok "escape sequences shown escaped" || bad "escaped name not shown"
[ "$(flag pane_title)" = origtitle ] && ok "pane title unchanged" || bad "pane title changed to '$(flag pane_title)'"
keys q
wait_for 'EXIT=0' || bad "evil: q did not exit 0"
keys clear Enter

# --- SIGTERM and Ctrl+C: the terminal is restored, the signal is re-raised ---
keys "$bin preview assets/sample/sample.dat; echo EXIT=\$?" Enter
wait_for 'Process Scheduling' || bad "did not open for SIGTERM"
pid=$(pgrep -P "$(flag pane_pid)" -x ftscope)
[ -n "$pid" ] && kill -TERM "$pid"
wait_for 'EXIT=143' && ok "SIGTERM: exit 143" || bad "SIGTERM did not end it with 143"
[ "$(flag alternate_on)$(flag cursor_flag)" = 01 ] && ok "SIGTERM: terminal restored" || bad "SIGTERM left the terminal in curses mode"
keys clear Enter
keys "$bin preview assets/sample/sample.dat; echo EXIT=\$?" Enter
wait_for 'Process Scheduling' || bad "did not open for SIGHUP"
pid=$(pgrep -P "$(flag pane_pid)" -x ftscope)
[ -n "$pid" ] && kill -HUP "$pid"
wait_for 'EXIT=129' && ok "SIGHUP: exit 129" || bad "SIGHUP did not end it with 129"
[ "$(flag alternate_on)$(flag cursor_flag)" = 01 ] && ok "SIGHUP: terminal restored" || bad "SIGHUP left the terminal in curses mode"
keys clear Enter
keys "$bin preview assets/sample/sample.dat; echo EXIT=\$?" Enter
wait_for 'Process Scheduling' || bad "did not open for Ctrl+C"
pid=$(pgrep -P "$(flag pane_pid)" -x ftscope)
keys C-c
# an interactive bash drops the rest of the line when its child dies of SIGINT: no EXIT= to read
sleep 0.5
[ -n "$pid" ] && ! kill -0 "$pid" 2> /dev/null && ok "Ctrl+C: ended" || bad "Ctrl+C did not end it"
[ "$(flag alternate_on)$(flag cursor_flag)" = 01 ] && ok "Ctrl+C: terminal restored" || bad "Ctrl+C left the terminal in curses mode"
keys clear Enter

# --- a crash (SIGSEGV): restored, then it dies of the signal ---
keys "$bin preview assets/sample/sample.dat; echo EXIT=\$?" Enter
wait_for 'Process Scheduling' || bad "did not open for SIGSEGV"
pid=$(pgrep -P "$(flag pane_pid)" -x ftscope)
[ -n "$pid" ] && kill -SEGV "$pid"
wait_for 'EXIT=139' && ok "SIGSEGV: exit 139" || bad "SIGSEGV did not end it with 139"
[ "$(flag alternate_on)$(flag cursor_flag)" = 01 ] && ok "SIGSEGV: terminal restored" || bad "SIGSEGV left the terminal in curses mode"
keys clear Enter

# --- bad input on a terminal: the terminal is given back, then one error line, exit 1 ---
keys "$bin preview tests/data/bad/garbage.txt; echo EXIT=\$?" Enter
wait_for 'EXIT=1' && ok "bad input: exit 1" || bad "bad input did not exit 1"
pane | grep -q 'ftscope preview: tests/data/bad/garbage.txt: not a trace' && ok "bad input: the error is on the restored terminal" || bad "bad input: no error line"
[ "$(flag alternate_on)$(flag cursor_flag)" = 01 ] && ok "bad input: terminal restored" || bad "bad input left the terminal in curses mode"
keys clear Enter

# --- Ctrl+Z then fg: the modes ftscope sets itself come back, and drag-to-pan works ---
# (no "; echo" after the command: bash runs it as soon as the job stops)
drag() { # drag FROM_COL TO_COL on row 10, as SGR mouse reports
	T send-keys -l $'\e[<0;'"$1"';10M'; sleep 0.2
	T send-keys -l $'\e[<32;'"$2"';10M'; sleep 0.2
	T send-keys -l $'\e[<0;'"$2"';10m'; sleep 0.5
}
keys "$bin preview assets/sample/sample.dat" Enter
wait_for 'Process Scheduling' || bad "did not open for Ctrl+Z"
[ "$(flag mouse_button_flag)" = 1 ] && ok "button-event mouse tracking on" || bad "mouse_button_flag=$(flag mouse_button_flag) before Ctrl+Z"
keys C-z
wait_for 'Stopped' && ok "Ctrl+Z suspends" || bad "Ctrl+Z did not suspend"
[ "$(flag alternate_on)$(flag mouse_button_flag)" = 00 ] && ok "suspended: terminal given back" || bad "suspended with alternate_on=$(flag alternate_on) mouse_button_flag=$(flag mouse_button_flag)"
keys fg Enter
wait_for 'Process Scheduling' && ok "fg: the lanes are back" || bad "fg did not repaint"
sleep 0.3
[ "$(flag mouse_button_flag)" = 1 ] && ok "fg: button-event mouse tracking on again" || bad "fg: mouse_button_flag=$(flag mouse_button_flag) standard=$(flag mouse_standard_flag)"
before=$(pane | sed -n 3p)
drag 80 40
after=$(pane | sed -n 3p)
[ -n "$before" ] && [ "$before" != "$after" ] && ok "fg: drag-to-pan moves the axis" || bad "fg: drag did not pan (axis '$before')"
keys q
keys 'echo EXIT=$?' Enter
wait_for 'EXIT=0' && ok "after fg: q exits 0" || bad "after fg: q did not exit 0"
[ "$(flag alternate_on)$(flag cursor_flag)$(flag mouse_button_flag)" = 010 ] && ok "after fg: terminal restored" || bad "after fg: terminal not restored"
keys clear Enter

# --- a TERM terminfo does not know: one line, exit 2 (not curses' own exit 1) ---
keys "TERM=xyzzy-unknown $bin preview assets/sample/sample.dat; echo EXIT=\$?" Enter
wait_for 'EXIT=2' && ok "unknown TERM: exit 2" || bad "unknown TERM did not exit 2"
pane | grep -q -- 'ftscope preview: unknown terminal type TERM=xyzzy-unknown (no terminfo entry); use --print WxH' && ok "unknown TERM: says so" || bad "unknown TERM message"
keys clear Enter

# --- TERM=dumb: one line pointing at --print, exit 2 ---
keys "TERM=dumb $bin preview assets/sample/sample.dat; echo EXIT=\$?" Enter
wait_for 'EXIT=2' && ok "TERM=dumb: exit 2" || bad "TERM=dumb did not exit 2"
pane | grep -q -- 'use --print WxH' && ok "TERM=dumb points at --print" || bad "TERM=dumb message"
exit $fail
