#!/bin/bash
# usage: rec.sh <name> <buffer_kb> <hackbench args...>
set -e
name=$1; kb=$2; shift 2
T=/sys/kernel/tracing/instances/ftstest-dat
EV="sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_wakeup_new sched/sched_migrate_task sched/sched_stat_runtime sched/sched_process_fork sched/sched_process_exec sched/sched_process_exit irq/irq_handler_entry irq/irq_handler_exit irq/softirq_raise irq/softirq_entry irq/softirq_exit syscalls/sys_enter_futex syscalls/sys_exit_futex"
mkdir $T
trap '[ -d $T ] && { echo 0 > $T/tracing_on; rmdir $T; }; true' EXIT
echo mono_raw > $T/trace_clock
echo $kb > $T/buffer_size_kb
eopts=""
for e in $EV; do echo 1 > $T/events/$e/enable; eopts="$eopts -e ${e#*/}"; done
echo 1 > $T/tracing_on
rt=$(date +%s%N); mr=$(python3 -c 'import time;print(time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW))')
echo "ftscope_clock realtime_ns=$rt mono_raw_ns=$mr" > $T/trace_marker
echo "hello other marker" > $T/trace_marker
"$@" >/dev/null
echo 0 > $T/tracing_on
cat $T/trace > /tmp/dat/$name.txt
unshare -m sh -c "mount --bind /dev/null /proc/kallsyms && trace-cmd extract -B ftstest-dat -o /tmp/dat/$name.dat" > /tmp/dat/$name.extract.log 2>&1
# Fixtures in this directory were made with (output in /tmp/dat):
#   ./record.sh small 1024 hackbench -g 1 -f 2 -l 20
#   ./record.sh lost 8 hackbench -g 1 -f 4 -l 30          # tiny buffer: overwritten pages -> lost events
#   trace-cmd report -i small.dat > small.report; trace-cmd report -i lost.dat > lost.report
#   trace-cmd convert -i small.dat -o small-v6.dat --file-version 6 && tar -cJf small-v6.dat.tar.xz small-v6.dat
# /proc/kallsyms is hidden inside a private mount namespace so the files stay small.
# Note: trace-cmd extract -B removes the instance itself.
