#!/bin/bash
# SPDX-License-Identifier: MIT
# The reader pool (stream.c): FTSCOPE_READERS readers drain every recorded CPU,
# with one reader per CPU and with fewer readers than CPUs. Under load with a
# 256 KB buffer each CPU must stream many times its ring buffer while the
# capture runs (a CPU no reader owned would only get the final drain, at most
# one ring buffer), the pool must have the asked number of threads, and the
# file must hold each CPU's events minus its losses.
source "$(dirname "$0")/lib.sh" "$@"
trap cleanup_ours EXIT
ncpu=$(nproc)
ring=$((256 * 1024))
for k in 1 2 $((ncpu + 3)); do
	want=$((k < ncpu ? k : ncpu))
	load 8
	FTSCOPE_READERS=$k "$FTS" record --record_time 4 --bf_size 256 --output r$k.dat -q 2>log$k &
	rec=$!; REC_PIDS="$REC_PIDS $rec"
	sleep 2
	got=$(cat /proc/$rec/task/*/comm 2>/dev/null | grep -c '^fts-read')
	wait $rec || { cat log$k; fail "FTSCOPE_READERS=$k: record failed"; }
	for p in $LOAD_PIDS; do kill -TERM -- -"$p" 2>/dev/null; done
	[ "$got" = "$want" ] || fail "FTSCOPE_READERS=$k: $got reader threads, want $want"
	# cpuN  EVENTS events  lost L  SIZE UNIT streamed
	awk -v ring=$ring -v k=$k '$1 ~ /^cpu[0-9]/ && $NF == "streamed" {
		b = $(NF - 2) * ($(NF - 1) == "GiB" ? 2^30 : $(NF - 1) == "MiB" ? 2^20 : $(NF - 1) == "KiB" ? 2^10 : 1)
		n++
		if (b < 4 * ring) { printf "FTSCOPE_READERS=%d: %s streamed only %d B\n", k, $1, b; bad = 1 }
	} END { exit bad || n == 0 }' log$k || { cat log$k; fail "a CPU was not drained while recording"; }
	for c in $(seq 0 $((ncpu - 1))); do
		sum=$(awk -v c=cpu$c '$1 == c {print $2 - $5}' log$k)
		inf=$(trace-cmd report --cpu $c -i r$k.dat 2>/dev/null | grep -c '^ *.*\[[0-9]*\]')
		# The file also holds the clock markers (2 at most) that the counters count as well.
		[ "$inf" -ge $((sum - 2)) ] && [ "$inf" -le $((sum + 2)) ] ||
			fail "FTSCOPE_READERS=$k: cpu$c has $inf events in the file, the summary says $sum kept"
	done
	echo "ok: FTSCOPE_READERS=$k: $got readers for $ncpu CPUs; $(grep -c '^ *cpu' log$k) CPUs streamed and complete"
	rm -f r$k.dat
done
