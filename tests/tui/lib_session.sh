# SPDX-License-Identifier: MIT
# Shared helpers for the interactive session's tmux tests (sourced, not run).
# A test: source lib_session.sh "$@" -> FTS, SRC, WORK, T set, cwd = WORK.
FTS=$1
SRC=$2
WORK=$3
T=/sys/kernel/tracing
SOCK=fts-sess-$$
FTS_ARGS=("$@")
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; echo "--- screen:"; screen; exit 1; }
ok() { echo "ok: $*"; }
command -v tmux >/dev/null || skip "tmux is not installed"
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || { echo "cannot create $WORK"; exit 1; }

need_root_tracefs() {
	[ "$(id -u)" = 0 ] || skip "needs root to record through tracefs (run the tests as root)"
	if [ ! -d $T/instances ]; then
		mount -t tracefs nodev $T 2>/dev/null || skip "tracefs is not mounted and cannot be mounted at $T"
	fi
	[ -w $T/instances ] || skip "tracefs at $T has no writable instances/ directory"
	# the machine-wide tracefs lock, taken by the test itself (as
	# tests/record/lib.sh): run again holding it, at once when an ancestor does
	if [ "${FTS_LOCKED_PID:-}" != "$$" ]; then
		export FTS_LOCKED_PID=$$
		exec python3 "$SRC/scripts/tracefs_lock.py" bash "$0" "${FTS_ARGS[@]}"
	fi
}

# Global tracing state the session must leave as it found it. Other helpers'
# instances come and go concurrently: instances are checked per pid instead.
state() {
	for f in tracing_on current_tracer trace_clock buffer_size_kb tracing_cpumask set_event events/enable; do
		printf '%s: %s\n' "$f" "$(tr '\n' ' ' < $T/$f)"
	done
}

# start W H CMD...: run CMD in a fresh tmux server; the pane's shell records
# the exit status and the terminal modes before and after.
start() {
	local w=$1 h=$2 i=0; shift 2
	tmux -L $SOCK kill-server 2>/dev/null
	# a new server on the socket of one still exiting dies with it: wait
	while tmux -L $SOCK ls >/dev/null 2>&1 && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	sleep 0.2
	tmux -L $SOCK new-session -d -x "$w" -y "$h" -c "$WORK" \
		"stty -g > stty.before; $*; echo EXIT=\$? > exit.status; stty -g > stty.after; sleep 600"
	tmux -L $SOCK set-option -t 0 remain-on-exit on >/dev/null 2>&1
}
screen() { tmux -L $SOCK capture-pane -p -t 0 2>/dev/null; }
keys() { tmux -L $SOCK send-keys -t 0 "$@"; }
text() { tmux -L $SOCK send-keys -t 0 -l "$1"; }
resize() { tmux -L $SOCK resize-window -t 0 -x "$1" -y "$2" 2>/dev/null || tmux -L $SOCK resize-pane -t 0 -x "$1" -y "$2"; sleep 0.6; }
# wait_for PATTERN [SECONDS]: until the screen matches (extended regex)
wait_for() {
	local pat=$1 t=${2:-10} i=0
	while [ $i -lt $((t * 10)) ]; do
		screen | grep -Eq -- "$pat" && return 0
		sleep 0.1; i=$((i + 1))
	done
	fail "waited ${t}s for /$pat/"
}
# the pid of the program the pane's shell runs
app_pid() { pgrep -P "$(tmux -L $SOCK list-panes -t 0 -F '#{pane_pid}')" -x ftscope | head -1; }
# at80 WHAT PATTERN: resize to 80x24, the screen still shows PATTERN and nothing spills, then back
at80() {
	resize 80 24
	wait_for "$2" 5
	[ "$(screen | wc -l)" -le 24 ] || fail "$1 at 80x24: more than 24 rows"
	screen | python3 -c 'import sys; sys.exit(any(len(l.rstrip("\n")) > 80 for l in sys.stdin.read().split("\n")))' ||
		fail "$1 at 80x24: a row wider than 80"
	ok "$1 at 80x24 shows /$2/"
	resize 120 40
}
wait_exit() {
	local i=0
	while [ ! -s exit.status ] && [ $i -lt $((${1:-10} * 10)) ]; do sleep 0.1; i=$((i + 1)); done
	[ -s exit.status ] || fail "the program did not exit"
	cat exit.status
}
terminal_restored() {
	cmp -s stty.before stty.after || fail "terminal modes differ after exit"
	ok "terminal modes restored"
}
cleanup() {
	tmux -L $SOCK kill-server 2>/dev/null
	[ -n "${LOAD:-}" ] && kill -TERM -- -"$LOAD" 2>/dev/null
	return 0
}
trap cleanup EXIT
load() { # load SECONDS: hackbench in its own session
	setsid timeout "$1" hackbench -g 2 -l 100000000 >/dev/null 2>&1 &
	LOAD=$!
}
