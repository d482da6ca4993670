#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# hostbound_advice.sh - does `ftscope hostbound`'s advice work? The ground-truth
# pipeline (tests/hostbound/pipeline.c) with only its "fifo_long" interference (a
# SCHED_FIFO spinner on the dispatch thread's CPU, 120 ms, ROUNDS times), recorded
# twice: as is, then with the advice hostbound printed for it applied (its
# `chrt -o -p 0 PID`: the spinner runs SCHED_OTHER; the spinners live 30 ms, so
# the workload starts them that way rather than the command changing them
# later; the spinner must be the task that held the CPU most, so it spins long
# enough to beat what else loads a shared machine). Prints the NPU idle time hostbound attributes to the spinner (its
# culprit time) and the total NPU idle time in the spinners' stretches, before
# and after, and the share removed; exits 1 when the first run's advice does not
# name the spinner with that command, or less than 80% of its time went away.
# Root (tracefs, SCHED_FIFO); holds the tracefs lock while recording.
# How: bench/hostbound_advice.sh [ROUNDS]   (default 2)
#      env: FTSCOPE (default <repo>/build/ftscope), FTSCOPE_BENCH_DIR (default /tmp/ftscope-bench)
set -uo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
FTSCOPE=${FTSCOPE:-$REPO/build/ftscope}
DIR=${FTSCOPE_BENCH_DIR:-/tmp/ftscope-bench}/hostbound_advice
ROUNDS=${1:-2}
[ "$(id -u)" = 0 ] || { echo "needs root (tracefs, SCHED_FIFO)" >&2; exit 1; }
[ "$(nproc)" -ge 2 ] || { echo "needs 2 CPUs" >&2; exit 1; }
rm -rf "$DIR" && mkdir -p "$DIR" && cd "$DIR" || exit 1
cc -O2 -pthread -o pipeline "$REPO/tests/hostbound/pipeline.c" || exit 1
main_cpu=$(($(nproc) - 2))
disp_cpu=$(($(nproc) - 1))

# run MODE (fifo | normal): record the pipeline, write its profile, hostbound's JSON
run() {
	mkdir -p "$1" && cd "$1" || return 1
	cat > rec.sh <<EOS
"$FTSCOPE" record --record_time 40 -q -o cap.dat 2>rec.log &
rec=\$!
trap 'kill -INT \$rec 2>/dev/null; wait \$rec' EXIT
sleep 2
timeout -s KILL 50 ../pipeline run.log $main_cpu $disp_cpu $ROUNDS fifo_long $1 > sim.log 2>&1 || { cat sim.log; exit 1; }
sleep 0.5
EOS
	python3 "$REPO/scripts/tracefs_lock.py" bash rec.sh || { echo "$1: the recording or the workload failed"; return 1; }
	python3 "$REPO/tests/hostbound/pipeline_prof.py" run.log . >/dev/null || return 1
	"$FTSCOPE" hostbound cap.dat -p prof -f json -o hb.json 2>hb.err || { cat hb.err; return 1; }
	"$FTSCOPE" hostbound cap.dat -p prof -n 3 > hb.txt 2>>hb.err
	cd ..
}

# figures MODE: the spinner's culprit time and the idle time inside its stretches (ms)
figures() {
	python3 - "$1/run.log" "$1/hb.json" "$1/truth.json" <<'PY'
import json, sys
hb = json.load(open(sys.argv[2]))["cards"][0]
st = [s["ns"] for s in json.load(open(sys.argv[3]))["stretches"]]
def comm(t):
    return t[5:].split(":")[0] if t.startswith("host:") else t.split(":")[0]
spin = idle = 0.0
for g in hb["worst_gaps"]:
    spin += sum(c["ns"] for c in g["culprits"] if comm(c["task"]) == "hb_fifo_d")
    a, b = g["start_ns"], g["start_ns"] + g["dur_ns"]
    idle += sum(max(0, min(b, y) - max(a, x)) for x, y in st)
print("%.2f %.2f" % (spin / 1e6, idle / 1e6))
PY
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
run fifo || exit 1
sed -n '/^advice:/,$p' fifo/hb.txt
python3 - fifo/hb.json <<'PY' || { echo "FAIL: no advice making the real-time spinner normal"; exit 1; }
import json, sys
a = json.load(open(sys.argv[1]))["cards"][0]["advice"]
sys.exit(not any(x["kind"] == "task" and "hb_fifo_d:" in x["text"] and (x["command"] or "").startswith("chrt -o -p 0 ")
                 for x in a))
PY
run normal || exit 1
read -r b_spin b_idle < <(figures fifo)
read -r a_spin a_idle < <(figures normal)
echo "before (SCHED_FIFO spinner): ${b_spin} ms of NPU idle attributed to hb_fifo_d; ${b_idle} ms NPU idle in its stretches"
echo "after  (chrt -o: SCHED_OTHER): ${a_spin} ms attributed to hb_fifo_d; ${a_idle} ms NPU idle in its stretches"
python3 - "$b_spin" "$a_spin" "$b_idle" "$a_idle" <<'PY'
import sys
b, a, bi, ai = map(float, sys.argv[1:])
gone = 100.0 * (b - a) / b if b > 0 else 0.0
print("removed: %.1f%% of the idle time attributed to the spinner (%.1f%% of the idle time in its stretches)"
      % (gone, 100.0 * (bi - ai) / bi if bi > 0 else 0.0))
sys.exit(0 if b > 0 and gone >= 80 else 1)
PY
