# SPDX-License-Identifier: MIT
# Sourced by tests/contract/lib.sh and tests/record/lib.sh: one measure of
# how loaded the machine is, for every time limit a test sets.
# time_scale: how many times slower than on an idle machine this one runs
# now (an integer >= 1), measured, not guessed: a fixed amount of CPU work
# (0.2 s of it) timed on the wall clock. On a quiet machine the two agree; at
# load 90 on 2 CPUs we get a slice of a CPU and the wall time stretches by
# that much. A time limit written for a quiet machine is multiplied by it
# (as record_load.sh judges its deadline only after timing a sleep under load).
# Measured at each call (a test takes it once: SCALE=$(time_scale));
# FTS_TIME_SCALE set in the environment overrides it.
time_scale() {
	if [ -z "${FTS_TIME_SCALE:-}" ]; then
		FTS_TIME_SCALE=$(python3 -c '
import math, time
w0, c0 = time.monotonic(), time.process_time()
while time.process_time() - c0 < 0.2 and time.monotonic() - w0 < 30:
    sum(range(1000))
wall, cpu = time.monotonic() - w0, time.process_time() - c0
print(max(1, math.ceil(wall / max(cpu, 1e-3))))')
		echo "time scale: x$FTS_TIME_SCALE (CPU work against the wall clock, load $(cut -d' ' -f1 /proc/loadavg))" >&2
	fi
	echo "$FTS_TIME_SCALE"
}
