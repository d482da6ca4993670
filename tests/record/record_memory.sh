#!/bin/bash
# SPDX-License-Identifier: MIT
# --bf_size against memory (issue 21 item 13): buffers that do not fit in 7/8
# of MemAvailable are refused before anything is allocated, with the largest
# size that fits; that size records. Real when the largest --bf_size on every
# CPU exceeds this machine's MemAvailable; otherwise (a machine with more
# memory than CPUs x 4 GiB) through the FTSCOPE_TEST_MEMINFO hook, and the
# test says so.
source "$(dirname "$0")/lib.sh" "$@"
before=$(state)
ncpu=$(nproc)
avail_kb=$(awk '/^MemAvailable:/{print $2}' /proc/meminfo)
[ -n "$avail_kb" ] || skip "no MemAvailable in /proc/meminfo"
max_bf=4194304
if [ $((ncpu * (max_bf + 1024))) -gt $((avail_kb - avail_kb / 8)) ]; then
	bf=$max_bf
	echo "real: $ncpu CPUs x $bf KB exceeds 7/8 of MemAvailable $avail_kb kB"
else
	# 64 MiB "available": 2 CPUs x 40960 KB do not fit, 27 MiB per CPU does.
	printf 'MemTotal: 1048576 kB\nMemAvailable: 65536 kB\n' > meminfo
	export FTSCOPE_TEST_MEMINFO=$PWD/meminfo
	bf=40960
	echo "hook: $ncpu CPUs x $max_bf KB fit in MemAvailable $avail_kb kB; FTSCOPE_TEST_MEMINFO says 65536 kB"
fi
start=$(date +%s%N)
"$FTS" record --bf_size $bf --record_time 1 --output big.dat -q 2>err && fail "--bf_size $bf on $ncpu CPUs was accepted"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
cat err
[ "$(wc -l < err)" = 1 ] || fail "the refusal is not one line"
grep -q "per-CPU buffer of $bf KB on $ncpu CPUs needs .*(MemAvailable); at most [0-9]* KB per CPU fits" err ||
	fail "the refusal does not say what fits"
fit=$(sed -n 's/.*at most \([0-9]*\) KB per CPU fits.*/\1/p' err)
[ "$fit" -gt 0 ] && [ "$fit" -lt "$bf" ] || fail "'at most $fit KB' is not a smaller size"
[ $ms -lt 3000 ] || fail "the refusal took $ms ms (did it allocate?)"
[ -e big.dat ] && fail "a refused capture left big.dat"
ls -A | grep -q '^\.' && fail "temp files left: $(ls -A | grep '^\.')"
[ "$before" = "$(state)" ] || { diff <(echo "$before") <(state); fail "tracing state changed"; }
echo "ok: refused in $ms ms: $(cat err)"

# The size it names records (the hook's machine really has it; a real refusal's
# fit can be gigabytes, so record that case with one CPU's worth of a small buffer).
if [ -n "${FTSCOPE_TEST_MEMINFO:-}" ]; then
	"$FTS" record --bf_size "$fit" --record_time 1 --output fit.dat -q 2>log || { cat log; fail "--bf_size $fit (what fits) failed"; }
	trace-cmd report -i fit.dat >/dev/null 2>&1 || fail "fit.dat does not open"
	echo "ok: --bf_size $fit records"
	# The live top keeps pages too: the same buffer with it needs 8 MiB more per CPU.
	over=$(( (65536 - 65536 / 8) / ncpu - 1024 - 8192 + 1024 ))
	if [ "$over" -gt 0 ]; then
		"$FTS" record --bf_size "$over" --live_top --record_time 1 --output top.dat -q 2>err &&
			fail "--bf_size $over with --live_top was accepted"
		grep -q 'at most' err || { cat err; fail "no size that fits with --live_top"; }
		echo "ok: the live top's pages count: $(cat err)"
	fi
fi
[ "$before" = "$(state)" ] || { diff <(echo "$before") <(state); fail "tracing state changed"; }
