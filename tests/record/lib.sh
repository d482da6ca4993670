# SPDX-License-Identifier: MIT
# Shared helpers for the recorder's end-to-end tests (sourced).
# Usage in a test: source lib.sh "$@"  -> FTS, SRC, WORK set; skips without root/tracefs.
FTS=$1
SRC=$2
WORK=$3
T=/sys/kernel/tracing
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" = 0 ] || skip "needs root to reach tracefs"
# The machine-wide tracefs lock, taken by the test itself: ctest's
# RESOURCE_LOCK keeps one ctest run's recording tests apart, not another
# process's (a helper's run, a user's recorder started through the same
# lock). tracefs_lock.py runs us again holding it (at once when an ancestor,
# such as `flock ... ctest`, holds it); FTS_LOCKED_PID says this process
# (the same pid after exec) already went through it.
if [ "${FTS_LOCKED_PID:-}" != "$$" ]; then
	export FTS_LOCKED_PID=$$
	exec python3 "$SRC/scripts/tracefs_lock.py" bash "$0" "$@"
fi
# A fresh machine (CI) may not have tracefs mounted yet; `ftscope record`
# mounts it itself, and so do we, so the recorder is exercised there too.
if [ ! -d $T/instances ]; then
	if [ -d /sys/kernel/debug/tracing/instances ]; then
		T=/sys/kernel/debug/tracing
	else
		mount -t tracefs nodev $T 2>/dev/null ||
			skip "tracefs is not mounted and cannot be mounted at $T (kernel without CONFIG_FTRACE, or no mount permission)"
		echo "mounted tracefs at $T"
	fi
fi
[ -w $T/instances ] || skip "tracefs at $T has no writable instances/ directory"
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed (needed to check trace.dat files)"
rm -rf "$WORK" && mkdir -p "$WORK" || fail "cannot create $WORK"
cd "$WORK" || exit 1

# Which instances are ours: a recorder names its instance ftscope-<pid>[-n]
# after its own pid, so every ftscope this test runs goes through a wrapper
# that notes its pid and execs the binary (same pid). An instance of another
# process (another user's recorder, SIGKILLed beside us) is not ours to judge.
# (beside $WORK, not in it: tests list what is left in their directories)
rm -rf "$WORK.own" && mkdir -p "$WORK.own" || fail "cannot create $WORK.own"
OUR_PIDS=$WORK.own/pids
REAL_FTS=$FTS
FTS=$WORK.own/ftscope
printf '#!/bin/sh\necho $$ >>%q\nexec %q "$@"\n' "$OUR_PIDS" "$REAL_FTS" >"$FTS" && chmod +x "$FTS" ||
	fail "cannot write the ftscope wrapper"
: >"$OUR_PIDS"
# ours NAME: 0 when instance NAME was made by one of this test's processes
# (a recorder, or the test itself: a stale instance it made on purpose)
ours() {
	local pid=${1#ftscope-}
	pid=${pid%%-*}
	[ "$pid" = $$ ] || grep -qx -- "$pid" "$OUR_PIDS"
}

# time_scale: how many times slower this machine runs now; limits in ms
# written for a quiet machine are multiplied by it.
source "$SRC/tests/contract/time_scale.sh"

# Everything `record` promises to leave as it was.
state() {
	for f in tracing_on current_tracer trace_clock buffer_size_kb buffer_total_size_kb \
		 tracing_cpumask set_event events/enable; do
		printf '%s: %s\n' "$f" "$(cat $T/$f | tr '\n' ' ')"
	done
	# Leaked instances: ours (see ours()) that nobody holds open. Another
	# process's, running or killed, is not ours to judge.
	local held leaked=""
	held=$(ls -l /proc/[0-9]*/fd 2>/dev/null | sed -n 's|.*/instances/\(ftscope-[^/]*\)/.*|\1|p' | sort -u)
	for i in $(ls $T/instances | grep '^ftscope-'); do
		ours "$i" || continue
		grep -qx "$i" <<<"$held" || leaked="$leaked$i "
	done
	printf 'leaked instances: %s\n' "$leaked"
}

LOAD_PIDS=""
load() { # load SECONDS: hackbench in the background
	# Own session, so cleanup can stop hackbench's children too.
	if command -v hackbench >/dev/null; then
		setsid timeout "$1" hackbench -g 2 -l 100000000 >/dev/null 2>&1 &
	else
		setsid timeout "$1" sh -c 'while :; do :; done' >/dev/null 2>&1 &
	fi
	LOAD_PIDS="$LOAD_PIDS $!"
}
# Recorders a test started in the background: stopped if it fails midway,
# or the test would wait for them until its timeout.
REC_PIDS=""
cleanup_ours() {
	for p in $LOAD_PIDS; do kill -TERM -- -"$p" 2>/dev/null; done
	for p in $REC_PIDS; do kill -INT "$p" 2>/dev/null; done
	# A failing run must not leave our instances behind (and leaves others').
	for d in $T/instances/ftscope-*; do
		[ -d "$d" ] || continue
		ours "${d##*/}" || continue
		pid=${d##*/ftscope-}; pid=${pid%%-*}
		kill -0 "$pid" 2>/dev/null || rmdir "$d" 2>/dev/null
	done
}
trap cleanup_ours EXIT

# Number of events in a trace.dat as trace-cmd sees it.
dat_events() { trace-cmd report -i "$1" 2>/dev/null | grep -c ': ' ; }
