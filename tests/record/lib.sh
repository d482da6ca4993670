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

# Everything `record` promises to leave as it was.
state() {
	for f in tracing_on current_tracer trace_clock buffer_size_kb buffer_total_size_kb \
		 tracing_cpumask set_event events/enable; do
		printf '%s: %s\n' "$f" "$(cat $T/$f | tr '\n' ' ')"
	done
	# Leaked instances: ones nobody holds open. A running recorder (another
	# test, another user) holds its own, and is not ours to judge.
	local held leaked=""
	held=$(ls -l /proc/[0-9]*/fd 2>/dev/null | sed -n 's|.*/instances/\(ftscope-[^/]*\)/.*|\1|p' | sort -u)
	for i in $(ls $T/instances | grep '^ftscope-'); do
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
	# A failing run must not leave our instances behind.
	for d in $T/instances/ftscope-*; do
		[ -d "$d" ] || continue
		pid=${d##*/ftscope-}; pid=${pid%%-*}
		kill -0 "$pid" 2>/dev/null || rmdir "$d" 2>/dev/null
	done
}
trap cleanup_ours EXIT

# Number of events in a trace.dat as trace-cmd sees it.
dat_events() { trace-cmd report -i "$1" 2>/dev/null | grep -c ': ' ; }
