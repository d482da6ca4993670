#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A thread made to wait Runnable: on one CPU, a victim ("ftsvictim",
SCHED_FIFO 10, so that other load on a busy machine does not delay it) wakes
every 20 ms and a SCHED_FIFO 50 hog ("ftshog") spins SPIN ms, a few times, so
the victim's wakeup waits about that long, and only then. Bounded: the hog spins at most
ROUNDS x SPIN ms in all, then both exit.

usage: flight_hog.py CPU SPIN_MS ROUNDS DELAY_S
Prints one line per spin: "spin MONO_RAW_NS_START MONO_RAW_NS_END"."""
import os
import sys
import time

cpu, spin_ms, rounds, delay = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
os.sched_setaffinity(0, {cpu})


def name(comm):
    with open("/proc/self/comm", "w") as f:
        f.write(comm)


total = delay + rounds * 1.0 + 1.0
pid = os.fork()
if pid == 0:
    name("ftsvictim")
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
    except OSError:
        os.nice(-20)
    end = time.monotonic() + total
    while time.monotonic() < end:
        time.sleep(0.02)
    os._exit(0)
name("ftshog")
time.sleep(delay)
try:
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(50))
except OSError as e:
    os.kill(pid, 9)
    print("nofifo %s" % e, flush=True)
    sys.exit(77)
raw = time.CLOCK_MONOTONIC_RAW
for _ in range(rounds):
    t0 = time.clock_gettime_ns(raw)
    while time.clock_gettime_ns(raw) - t0 < spin_ms * 1e6:
        pass
    print("spin %d %d" % (t0, time.clock_gettime_ns(raw)), flush=True)
    time.sleep(1.0)
os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
os.waitpid(pid, 0)
