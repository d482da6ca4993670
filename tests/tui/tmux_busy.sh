#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 21 item 1: a preview busy in a heavy step is never deaf. The step is
# FTS_TEST_BUSY_MS (every lane row of a frame spins that long, polling as real
# work does), so a frame takes minutes; while it runs:
# - q quits (exit 0), SIGTERM and SIGINT end it (died of the signal), the
#   terminal restored;
# - the terminal hangs up (tmux kills the pane, as a dropped SSH session
#   does): the process is gone within seconds, not left spinning as an orphan.
# usage: tmux_busy.sh FTSCOPE SRCDIR WORKDIR
set -uo pipefail
bin=$(readlink -f "$1") src=$(readlink -f "$2") work=$3
command -v tmux > /dev/null || { echo "no tmux: skipped"; exit 77; }
rm -rf "$work"; mkdir -p "$work"
# One tmux server per case: a server still shutting down from the last case
# while a new one starts on the same socket makes the new one exit at once
# ("server exited unexpectedly", seen under ASan on a loaded CI machine).
socks=()
sock=
T() { tmux -L "$sock" "$@"; }
trap 'for sock in "${socks[@]}"; do T kill-server 2> /dev/null; done; [ -z "${pid:-}" ] || kill -9 "$pid" 2> /dev/null' EXIT
fail=0
ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; T capture-pane -p 2> /dev/null | tail -5; fail=1; }
san=
for v in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
	[ -n "${!v:-}" ] && san+=" $v=${!v}"
done
cap=$src/assets/sample/sample.dat

# the preview's pid, once it runs
find_pid() {
	for _ in $(seq 300); do
		pid=$(pgrep -f -- "^$bin preview $cap\$" | head -1)
		[ -n "$pid" ] && return 0
		sleep 0.1
	done
	return 1
}
# wait until the process is busy in its frame: its CPU time grows
wait_busy() {
	local t0 t1
	sleep 2
	t0=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2> /dev/null) || return 1
	sleep 1
	t1=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2> /dev/null) || return 1
	[ "$t1" -gt "$t0" ]
}
# gone within $1 s
gone_within() {
	for _ in $(seq $(($1 * 10))); do
		kill -0 "$pid" 2> /dev/null || return 0
		sleep 0.1
	done
	return 1
}
start() {
	[ -z "$sock" ] || T kill-server 2> /dev/null
	sock=ftsb$$-$1; socks+=("$sock")
	rm -f "$work/status"
	T -f /dev/null new-session -d -x 100 -y 30 "env -i PATH=$PATH HOME=$work TERM=xterm-256color LANG=C.UTF-8 FTS_TEST_BUSY_MS=60000$san bash --norc --noprofile -c '$bin preview $cap; echo EXIT=\$? > $work/status; sleep 60'"
	find_pid || { bad "$1: the preview did not start"; return 1; }
	wait_busy || { bad "$1: the preview is not busy"; return 1; }
}
status() { for _ in $(seq 100); do [ -s "$work/status" ] && break; sleep 0.1; done; cat "$work/status" 2> /dev/null; }

if start q; then
	T send-keys q
	if gone_within 10; then ok "q quits a busy preview: $(status)"; else bad "q: still running after 10 s"; fi
	[ "$(status)" = "EXIT=0" ] || bad "q: $(status), want EXIT=0"
fi
for sig in TERM INT; do
	if start "SIG$sig"; then
		kill -$sig "$pid"
		want=EXIT=$((128 + $(kill -l $sig)))
		if gone_within 10; then ok "SIG$sig ends a busy preview: $(status)"; else bad "SIG$sig: still running after 10 s"; fi
		[ "$(status)" = "$want" ] || bad "SIG$sig: $(status), want $want"
	fi
done
if start hangup; then
	T kill-server   # the terminal goes away: SIGHUP to the pane's processes
	if gone_within 10; then ok "a hung-up terminal ends a busy preview"; else bad "hang-up: pid $pid still running after 10 s (an orphan)"; fi
fi
exit $fail
