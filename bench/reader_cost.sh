#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/reader_cost.sh - the recorder's readers extrapolated to N CPUs (issue 20).
#
#   bench/reader_cost.sh [NCPUS]        (default 192; needs root and libtracefs' headers)
#
# Builds bench/reader_cost.c, runs it on a private instance with no event
# enabled and NCPUS trace_pipe_raw descriptors, and prints the CPU time of a
# wakeup and of one buffer check, then what the readers cost per second at
# NCPUS idle CPUs (checks every 10 ms, as stream.c's POLL_NS): one thread per
# CPU (the old design) against the pool (one reader per 16 CPUs). The pool's
# poll() over its CPUs is counted too. Busy CPUs add the pages' copy, the same
# in both designs. BENCH_LOCK=FILE takes that flock around the instance's use.
N=${1:-192}
[ "$(id -u)" = 0 ] || { echo "bench/reader_cost.sh: needs root"; exit 1; }
T=/sys/kernel/tracing
bin=$(mktemp /tmp/reader_cost.XXXXXX)
cc -O2 -o "$bin" "$(dirname "$0")/reader_cost.c" || exit 1
inst=$T/instances/ftsbench-rc-$$
[ -n "${BENCH_LOCK:-}" ] && { exec 9>"$BENCH_LOCK"; flock 9; }
mkdir "$inst" || exit 1
trap 'rmdir "$inst" 2>/dev/null; rm -f "$bin"' EXIT
out=$("$bin" "$inst" "$N" 2000) || exit 1
read -r wake check pl <<<"$out"
echo "per wakeup: $wake us CPU; per empty buffer check (splice): $check us; per descriptor in poll(): $pl us"
awk -v n="$N" -v w="$wake" -v c="$check" -v p="$pl" 'BEGIN {
	hz = 100; per = 16; k = int((n + per - 1) / per)
	thr = n * hz * (w + c)
	pool = k * hz * (w + per * (c + p))
	printf "at %d idle CPUs, 100 checks/s each:\n", n
	printf "  thread per CPU: %4d threads, %6d wakeups/s, %7.1f ms CPU per s (%.2f%% of one core)\n", n, n * hz, thr / 1000, thr / 1e4
	printf "  pool (1 per %d): %3d threads, %6d wakeups/s, %7.1f ms CPU per s (%.2f%% of one core)\n", per, k, k * hz, pool / 1000, pool / 1e4
}'
