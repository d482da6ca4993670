#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 15 in a real terminal (tmux on a private socket): a whole view stays
# whole when the terminal grows and shrinks (defect 6); help fits 80x24 and
# 200x50 and scrolls only over its lines, s ? q returns to the summary
# (defect 11); the holes of a lossy capture show '?' and x goes to the first
# loss with its details (defects 13 and "no data"), in UTF-8 and LANG=C.
# usage: tmux_preview_views.sh FTSCOPE SRCDIR WORKDIR
set -uo pipefail
bin=$(readlink -f "$1") src=$(readlink -f "$2") work=$3
command -v tmux > /dev/null || { echo "no tmux: skipped"; exit 77; }
rm -rf "$work"; mkdir -p "$work"
sock=ftsv$$
T() { tmux -L "$sock" "$@"; }
# one server per locale: a new server on a socket whose old one is still going away can die at once
trap 'for l in U C; do tmux -L ftsv$$$l kill-server 2> /dev/null; done' EXIT
fail=0
ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; echo "---- pane:"; T capture-pane -p; echo "----"; fail=1; }
# until the pane shows $1 (grep -E), up to 60 s: sanitized builds on a loaded machine are slow
wait_for() {
	for _ in $(seq 600); do
		T capture-pane -p | grep -qE -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
keys() { T send-keys "$@"; sleep 0.5; }
pane() { T capture-pane -p; }
resize() { T resize-window -x "$1" -y "$2"; sleep 0.8; }
# "view A of B" on the status line: prints A and B
viewspan() { pane | tail -1 | grep -oE 'view [^|]* of [^|]*' | sed 's/ *$//'; }

san=
for v in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
	[ -n "${!v:-}" ] && san+=" $v=${!v}"
done

for loc in C.UTF-8 C; do
	sock=ftsv$$${loc:0:1}
	[ "$loc" = C.UTF-8 ] && sock=ftsv$$U
	T -f /dev/null new-session -d -x 80 -y 24 "env -i PATH=$PATH HOME=$work PS1='$ ' TERM=xterm-256color LANG=$loc$san bash --norc --noprofile"
	T set-option -g set-titles off > /dev/null
	wait_for '^\$' || bad "$loc: no shell prompt"
	keys "cd $src && $bin preview assets/sample/sample.dat; echo EXIT=\$?" Enter
	wait_for 'Process Scheduling' || bad "$loc: did not open"

	# defect 6: whole at 80x24, still whole at 200x50 and back
	for sz in "200 50" "80 24" "120 40"; do
		# shellcheck disable=SC2086
		resize $sz
		v=$(viewspan)
		a=${v#view }; a=${a%% of *}; b=${v##* of }
		[ -n "$a" ] && [ "$a" = "$b" ] && ok "$loc ${sz/ /x}: $v" || bad "$loc ${sz/ /x}: not whole after a resize ('$v')"
	done
	keys - - -
	v=$(viewspan); a=${v#view }; a=${a%% of *}; b=${v##* of }
	[ "$a" = "$b" ] && ok "$loc: zoom out stops at the whole capture" || bad "$loc: zoomed out past the capture ('$v')"
	pane | grep -q 'the whole capture is shown' && ok "$loc: zoom out says it stops" || bad "$loc: no message at the whole"

	# defect 11: help fits, scrolls over real lines only, returns where it came from
	for sz in "80 24" "200 50"; do
		# shellcheck disable=SC2086
		resize $sz
		keys '?'
		for _ in $(seq 60); do T send-keys j; done
		sleep 0.6
		p=$(pane)
		w=${sz% *}
		[ "$(echo "$p" | wc -L)" -le "$w" ] && ok "$loc help ${sz/ /x}: within the width" || bad "$loc help ${sz/ /x}: wider than the terminal"
		echo "$p" | grep -q '[…~]$' && bad "$loc help ${sz/ /x}: a line is cut" || ok "$loc help ${sz/ /x}: nothing cut"
		echo "$p" | grep -q 'window\.$' && ok "$loc help ${sz/ /x}: scrolled to its last line" || bad "$loc help ${sz/ /x}: last line not shown"
		[ "$(echo "$p" | tail -1 | tr -d ' ')" != "" ] && ok "$loc help ${sz/ /x}: no blank rows scrolled in" || {
			echo "$p" | sed -n 2p | grep -q 'q Esc' && ok "$loc help ${sz/ /x}: fits whole" || bad "$loc help ${sz/ /x}: scrolled into blank rows"; }
		keys q
	done
	keys s
	keys '?'
	keys q
	pane | sed -n 1p | grep -q 'per-task summary' && ok "$loc: s ? q returns to the summary" || bad "$loc: s ? q did not return to the summary"
	keys q
	pane | grep -q 'CPU Scheduling' && ok "$loc: q from the summary: the lanes" || bad "$loc: no lanes after the summary"
	keys q
	wait_for 'EXIT=0' || bad "$loc: q did not exit 0"
	keys clear Enter

	# holes and x: the lossy capture
	resize 100 30
	keys "$bin preview tests/tui/lossy_holes.json; echo EXIT=\$?" Enter
	wait_for 'Process Scheduling' || bad "$loc: lossy capture did not open"
	pane | grep -E '^>?.CPU 000 !800' | grep -q '???' && ok "$loc: the hole shows '?'" || bad "$loc: no '?' in CPU 000's hole"
	pane | grep -q 'x:next loss' && ok "$loc: the key bar offers x" || bad "$loc: no x in the key bar"
	keys x
	pane | grep -q 'no data: hole of 50 ms on CPU 0, 500 events lost here; CPU 0 in all: 800' && ok "$loc: x: the hole's details" || bad "$loc: x did not show the hole"
	keys x x
	pane | grep -q 'lost events: 500 dropped here on CPU 0; CPU 0 in all: 800' && ok "$loc: the '!' under the cursor is in the details" || bad "$loc: the lost marker is not in the details"
	keys q
	wait_for 'EXIT=0' || bad "$loc: lossy: q did not exit 0"
	T kill-server 2> /dev/null
done
exit $fail
