#!/bin/bash
# SPDX-License-Identifier: MIT
# Ground truth for `ftscope hostbound`'s causes at light load: pipeline.c runs a
# torch_npu-like two-level pipeline (main thread -> bounded queue -> dispatch
# thread -> simulated device) and injects, at logged times, a SCHED_FIFO
# spinner on the dispatch CPU and one on the main CPU, CFS hogs on the main
# CPU, a DataLoader-like sleep of the main thread, a wake-up behind a
# spinner, a lock held by another thread, and loopback UDP whose softirq RPS
# steers to the dispatch CPU; `ftscope record` captures the host meanwhile. At least MIN% (90) of
# the injected idle time must get the right category and the right culprit
# (pipeline_score.py), the upstream ones through the wake-up chain.
# The workload starts as a shell that execs it mid-capture, as `bash -c python
# train.py` does: its main thread (the process's first) is "bash", then
# "pipeline", then "pt_main"; the report names it as it was at each gap, and
# its role as it last was, never by the shell's comm.
# The same run under heavy load, with a lossy capture (FTS_TRUTH_REC), with two
# ranks (FTS_TRUTH_RANKS=2) and in a container (FTS_TRUTH_CONTAINER=1):
# bench/hostbound_truth.sh.
# usage: pipeline.sh FTSCOPE SRCDIR WORKDIR
FTS=$1
SRC=$2
WORK=$3
MIN=${FTS_TRUTH_MIN:-90}
# a lossy capture (bench/hostbound_truth.sh): record options, and lost time counts as
# right when the report calls it unknown (pipeline_score.py --lost)
REC_OPTS=${FTS_TRUTH_REC:-}
LOST=${FTS_TRUTH_REC:+--lost}
# two ranks (FTS_TRUTH_RANKS=2): a second pipeline beside the first, its CPUs
# swapped, with its own profile; -p given both, then the second alone
RANKS=${FTS_TRUTH_RANKS:-1}
# the injected kinds (pipeline.c); "all" adds odirect, whose truth (the reads' own
# share, from schedstat) holds at light load only: the bench runs it
PLAN=${FTS_TRUTH_PLAN:-fifo_disp,fifo_main,hogs,dataloader,wake_behind,mutex,udp}
# in a container (FTS_TRUTH_CONTAINER=1): the workload in its own pid namespace
# (unshare --pid --fork), the profile in its pids, ftscope pidmap's mapping as -m
CONT=${FTS_TRUTH_CONTAINER:-}
if [ -n "$CONT" ]; then
	command -v unshare >/dev/null || skip "no unshare"
	WRAP="unshare --pid --fork --mount-proc"
	MAP="-m pid_mapping.json"
else
	WRAP= MAP=
fi
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" = 0 ] || skip "needs root to record on tracefs (and for SCHED_FIFO spinners)"
[ -d /sys/kernel/tracing/instances ] || [ -d /sys/kernel/debug/tracing/instances ] ||
	skip "no tracefs with instances here"
command -v python3 >/dev/null || skip "python3 not installed"
command -v cc >/dev/null || skip "no C compiler for the workload"
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs (a main and a dispatch CPU)"
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || fail "cannot create $WORK"
# udp steers lo's receive side to the dispatch CPU (RPS) and puts it back; so does
# this, whatever happens to the workload
RPS=/sys/class/net/lo/queues/rx-0/rps_cpus
if [ ! -w $RPS ] && [ "$PLAN" != all ]; then
	echo "note: no RPS on lo ($RPS): the udp kind left out"
	PLAN=$(echo ",$PLAN," | sed 's/,udp,/,/; s/^,//; s/,$//')
fi
rps_was=$(cat $RPS 2>/dev/null)
trap '[ -z "$rps_was" ] || echo "$rps_was" > $RPS' EXIT
cc -O2 -pthread -o pipeline "$SRC/tests/hostbound/pipeline.c" || fail "cannot build the workload"
main_cpu=$(($(nproc) - 2))
disp_cpu=$(($(nproc) - 1))

cat > rec.sh <<EOS
"$FTS" record --record_time 40 -q $REC_OPTS -o cap.dat 2>rec.log &
rec=\$!
trap 'kill -INT \$rec 2>/dev/null; wait \$rec' EXIT
sleep 2
r1=
[ $RANKS = 2 ] && { timeout -s KILL 50 ./pipeline run1.log $disp_cpu $main_cpu 2 $PLAN > sim1.log 2>&1 & r1=\$!; }
pm=
[ -n "$CONT" ] && { "$FTS" pidmap --interval 0.2 --duration 45 -o pid_mapping.json 2>pidmap.log & pm=\$!; sleep 0.3; }
timeout -s KILL 50 $WRAP bash -c 'sleep 0.5; exec ./pipeline run.log $main_cpu $disp_cpu 2 $PLAN' > sim.log 2>&1 ||
	{ cat sim.log; exit 1; }
[ -z "\$r1" ] || wait \$r1 || { cat sim1.log; exit 1; }
[ -z "\$pm" ] || { kill -TERM \$pm; wait \$pm; }
sleep 0.5
EOS
python3 "$SRC/scripts/tracefs_lock.py" bash rec.sh || fail "the recording or the workload failed"
[ -s cap.dat ] || { cat rec.log; fail "no capture"; }
python3 "$SRC/tests/hostbound/pipeline_prof.py" run.log . || fail "pipeline_prof.py"
pid=$(awk '$1 == "pid" { print $2 }' run.log)
card=--card=host_${pid}_0_
if [ $RANKS = 2 ]; then
	python3 "$SRC/tests/hostbound/pipeline_prof.py" run1.log . 1 || fail "pipeline_prof.py (rank 1)"
fi
"$FTS" hostbound cap.dat -p prof $MAP -f json -o hb.json 2>hb.err || { cat hb.err; fail "hostbound failed"; }
"$FTS" hostbound cap.dat -p prof $MAP -n 12 > hb.txt 2>>hb.err || { cat hb.err; fail "hostbound (text) failed"; }
cat hb.txt
if [ -z "$CONT" ]; then
	"$FTS" convert -i cap.dat -o cap.json --format json >/dev/null 2>&1 || fail "convert failed"
	grep -q "\"bash:$pid\"" cap.json || fail "the capture holds no bash:$pid lane: the exec was not captured"
else
	# the report in the container's pids: its main thread is the namespace's first process
	[ "$pid" = 1 ] || fail "the workload's pid is $pid, not 1 in its namespace"
	grep -q '"host:' hb.json || fail "no host-only task marked host: with -m"
fi
grep -Eq "^  dispatch thread npu_dispatch:[0-9]+, main thread pt_main:$pid\$" hb.txt ||
	fail "the roles line does not name the main thread pt_main:$pid"
! grep -Eq "(bash|timeout):$pid\b" hb.txt hb.json || fail "the report names the main thread by its comm before the exec"
echo "the dispatch thread's own state and top preempter (states, not causes), for comparison:"
python3 "$SRC/tests/hostbound/pipeline_score.py" --own $card truth.json hb.json 0 | grep '^total'
echo "the causes:"
grep -q "lost none" rec.log || grep "^recorded" rec.log
python3 "$SRC/tests/hostbound/pipeline_score.py" $LOST $card truth.json hb.json "$MIN" | tee score.txt
[ "${PIPESTATUS[0]}" = 0 ] || fail "attribution below $MIN% (above)"
if [ $RANKS = 2 ]; then
	pid1=$(awk '$1 == "pid" { print $2 }' run1.log)
	echo "rank 1 (pid $pid1, its main and dispatch CPUs swapped):"
	python3 "$SRC/tests/hostbound/pipeline_score.py" $LOST --card=host_${pid1}_1_ truth_1.json hb.json "$MIN" ||
		fail "rank 1: attribution below $MIN% (above)"
	# one card alone says what it says beside the other
	"$FTS" hostbound cap.dat -p prof/host_${pid1}_1_ascend_pt $MAP -f json -o hb1.json 2>>hb.err ||
		{ cat hb.err; fail "hostbound (rank 1 alone) failed"; }
	python3 - hb.json hb1.json "host_${pid1}_1_" <<'EOP' || fail "rank 1 alone differs from rank 1 beside rank 0"
import json, sys
both = [c for c in json.load(open(sys.argv[1]))["cards"] if sys.argv[3] in c["card"]]
alone = json.load(open(sys.argv[2]))["cards"]
strip = lambda c: {k: v for k, v in c.items() if k != "card"}
sys.exit(len(both) != 1 or len(alone) != 1 or strip(both[0]) != strip(alone[0]))
EOP
fi
# the upstream cause named in the text, when the spinner on the main CPU made gaps
# (on a loaded machine the dispatch thread may itself be starved, with work queued,
# while the spinner runs: then the spinner caused nothing and the truth says so)
# (MIN 0: figures only, as bench/hostbound_truth.sh asks)
if [ "$MIN" != 0 ] &&
	python3 -c 'import json,sys; sys.exit(not any(s["kind"] == "fifo_main" for s in json.load(open("truth.json"))["stretches"]))'; then
	"$FTS" hostbound cap.dat -p prof $MAP -n 0 > hb_all.txt 2>>hb.err || fail "hostbound (all gaps) failed"
	grep -Eq 'no work queued.*main thread pt_main:[0-9]* (preempted|waiting) .* behind hb_fifo_m:' hb_all.txt ||
		fail "no gap blamed upstream on the FIFO spinner on the main thread's CPU"
fi
# the lock: the dispatch thread waited for the saver, not for work
if [ "$MIN" != 0 ] && grep -q '^stretch mutex ' run.log; then
	[ -s hb_all.txt ] || "$FTS" hostbound cap.dat -p prof $MAP -n 0 > hb_all.txt 2>>hb.err ||
		fail "hostbound (all gaps) failed"
	grep -Eq 'dispatch idle: waited for another thread .*; thread pt_saver:[0-9]+ sleeping .* in aten::save' hb_all.txt ||
		fail "no gap blamed on the saver thread that held the lock"
fi
# the softirq: named by its vector (in ksoftirqd, when the kernel deferred it there),
# when it made gaps while the dispatch thread had work (its sender on the main CPU
# may instead have made them all upstream: then the truth scores none)
if [ "$MIN" != 0 ] && awk '$1 == "by" && $3 == "udp/irq" && $4 + 0 >= 2 { f = 1 } END { exit !f }' score.txt; then
	[ -s hb_all.txt ] || "$FTS" hostbound cap.dat -p prof $MAP -n 0 > hb_all.txt 2>>hb.err ||
		fail "hostbound (all gaps) failed"
	grep -Eq 'dispatch thread npu_dispatch:[0-9]+ irq .* from softirq NET_RX' hb_all.txt ||
		fail "no gap blamed on softirq NET_RX on the dispatch CPU"
fi
echo "ok: causes and culprits match the injected truth"
