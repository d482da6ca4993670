#!/usr/bin/env bash
# make_sample.sh — record the demo/sample capture in assets/sample/.
#
# What: ~3 s of a host that looks like an AI training box:
#   * "model": python3 inside a new PID namespace (unshare --pid --fork --mount-proc)
#     with named threads (npu_dispatch, dataloader0/1, hccl_watchdog) doing
#     compute + sleeps, plus one forked worker process (dl_worker);
#   * hackbench noise; dd ... conv=fsync (virtio disk irqs); ping on loopback (NET_RX).
# Writes (into OUT, default: this script's directory):
#   sample.txt     tracefs `trace` text of the instance
#   sample.dat     `trace-cmd extract -B <instance>` of the same buffer
#   sample.report  `trace-cmd report -i sample.dat`
#   pid_mapping.json  {"<host pid>": {"NSpid","name","Tgid","PPid"}} from
#                  /proc/*/task/*/status, scanned every 0.2 s while recording
#   profiling/...  Ascend-shaped card 0 with start_info/end_info from the real clocks
#   profiling_2cards/  card 0 (copy) + card 1 with a slightly narrower window
# How: sudo assets/sample/make_sample.sh [OUT]
# The capture uses a private instance instances/ftsdata-<pid> (mono_raw clock,
# 20 MB per CPU so nothing is overwritten); global tracing files are never
# written; the instance is removed on any exit (trap).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/../../scripts/capture_lib.sh"
OUT=$(mkdir -p "${1:-$HERE}" && cd "${1:-$HERE}" && pwd)
TRACEFS=/sys/kernel/tracing
[ -d "$TRACEFS/instances" ] || mount -t tracefs nodev "$TRACEFS"
INST="ftsdata-$$"; T="$TRACEFS/instances/$INST"
SCRATCH=$(mktemp -d /tmp/ftssample.XXXXXX)
BGPIDS=()
cleanup() {
    local p
    for p in "${BGPIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
    if [ -d "$T" ]; then
        echo 0 2>/dev/null > "$T/tracing_on" || true
        rmdir "$T" 2>/dev/null || true
    fi
    rm -rf "$SCRATCH"
}
trap cleanup EXIT INT TERM

# ---------------------------------------------------------------- helpers
# the real interpreter, not a pyenv/venv shim script (shims fork a dozen shells)
PY=$(python3 -c 'import os, sys; print(os.path.realpath(sys.executable))')
cat > "$SCRATCH/clockpair.py" <<'PY'
# print "<mono_raw ns> <realtime us>", read back to back
import time
r = time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW)
w = time.time_ns() // 1000
print(r, w)
PY
cat > "$SCRATCH/pidscan.py" <<'PY'
# scan /proc/*/task/*/status every 0.2 s until SIGTERM; keep every pid ever seen
import glob, json, signal, sys, time
out = sys.argv[1]
seen = {}
stop = False
def on_term(*_):
    global stop
    stop = True
signal.signal(signal.SIGTERM, on_term)
def scan():
    for path in glob.glob("/proc/[0-9]*/task/[0-9]*/status"):
        try:
            with open(path, "rb") as f:
                txt = f.read().decode("utf-8", "replace")
        except OSError:
            continue
        d = {}
        for line in txt.splitlines():
            k, _, v = line.partition(":")
            d[k] = v.strip()
        pid = d.get("Pid")
        if not pid or "NSpid" not in d:
            continue
        seen[pid] = {"NSpid": d["NSpid"].split()[-1], "name": d.get("Name", ""),
                     "Tgid": d.get("Tgid", ""), "PPid": d.get("PPid", "")}
while not stop:
    scan()
    time.sleep(0.2)
scan()
with open(out, "w") as f:
    json.dump(dict(sorted(seen.items(), key=lambda kv: int(kv[0]))), f, indent=1)
    f.write("\n")
PY
cat > "$SCRATCH/model.py" <<'PY'
# a fake "model" process: named threads that compute and sleep, plus a forked worker
import math, os, threading, time
DUR = 2.6
def set_comm(name):
    with open(f"/proc/self/task/{threading.get_native_id()}/comm", "w") as f:
        f.write(name)
def burn(ms):
    end = time.perf_counter() + ms / 1000
    x = 0.0
    while time.perf_counter() < end:
        x += math.sqrt(x + 1.0)
def loop(name, work_ms, sleep_ms):
    set_comm(name)
    end = time.time() + DUR
    while time.time() < end:
        burn(work_ms)
        time.sleep(sleep_ms / 1000)
set_comm("model_main")
pid = os.fork()
if pid == 0:
    set_comm("dl_worker")
    loop("dl_worker", 3, 7)
    os._exit(0)
ts = [threading.Thread(target=loop, args=a) for a in
      [("npu_dispatch", 2, 5), ("dataloader0", 5, 10), ("dataloader1", 5, 10),
       ("hccl_watchdog", 0.2, 50)]]
for t in ts: t.start()
loop("model_main", 1, 20)
for t in ts: t.join()
os.waitpid(pid, 0)
PY
clockpair() { "$PY" "$SCRATCH/clockpair.py"; }
write_info() { # file kind(start|end) "raw us"
    local raw=${3% *} us=${3#* }
    if [ "$2" = start ]; then
        printf '{"collectionTimeBegin": "%s", "clockMonotonicRaw": "%s"}\n' "$us" "$raw" > "$1"
    else
        printf '{"collectionTimeEnd": "%s", "clockMonotonicRaw": "%s"}\n' "$us" "$raw" > "$1"
    fi
}
make_card() { # root_dir ascend_pt_name prof_name device rank start_pair end_pair
    local d="$1/$2/$3"
    mkdir -p "$d/host" "$d/device_$4"
    for sub in host "device_$4"; do
        write_info "$d/$sub/start_info" start "$6"
        write_info "$d/$sub/end_info" end "$7"
    done
    printf '{"rank_id": %s}\n' "$5" > "$1/$2/profiler_info_$5.json"
}

# ---------------------------------------------------------------- capture
mkdir "$T"
fts_instance_setup "$T" 20000

"$PY" "$SCRATCH/pidscan.py" "$SCRATCH/pid_mapping.json" & SCAN=$!; BGPIDS+=("$SCAN")
sleep 0.3                                   # first scan done before the workload
UPTIME_START=$(cut -d' ' -f1 /proc/uptime)
echo 1 > "$T/tracing_on"
sleep 0.2
unshare --pid --fork --mount-proc "$PY" "$SCRATCH/model.py" & MODEL=$!
sleep 0.1
START0=$(clockpair)                         # card 0 window opens ~0.3 s in
( sleep 0.2; hackbench -g 1 -l 80 -f 4 -s 4096 >/dev/null;
  sleep 0.6; hackbench -g 1 -l 50 -f 4 -s 2048 >/dev/null ) & HB=$!
( for _ in 1 2 3 4 5 6; do dd if=/dev/zero of="$SCRATCH/ckpt.bin" bs=64k count=8 conv=fsync status=none; sleep 0.3; done ) & DD=$!
ping -q -c 50 -i 0.01 127.0.0.1 >/dev/null & PING=$!
sleep 0.2
START1=$(clockpair)                         # card 1 window opens 0.2 s later
wait "$HB" "$DD" "$PING" "$MODEL"
END1=$(clockpair)                           # card 1 window closes first
sleep 0.1
END0=$(clockpair)                           # card 0 window closes ~0.3 s before stop
sleep 0.3
echo 0 > "$T/tracing_on"
kill -TERM "$SCAN"; wait "$SCAN" || true

OVERRUN=$(awk '/^overrun:/ {s += $2} END {print s + 0}' "$T"/per_cpu/cpu*/stats)
[ "$OVERRUN" = 0 ] || { echo "overrun $OVERRUN: raise buffer_size_kb" >&2; exit 1; }
cp "$T/trace" "$OUT/sample.txt"; chmod 644 "$OUT/sample.txt"
trace-cmd extract -B "$INST" -o "$OUT/sample.dat" >/dev/null 2>&1   # removes the instance too
trace-cmd report -i "$OUT/sample.dat" > "$OUT/sample.report"
cp "$SCRATCH/pid_mapping.json" "$OUT/pid_mapping.json"

# ---------------------------------------------------------------- profiling dirs
rm -rf "$OUT/profiling" "$OUT/profiling_2cards"
C0=host01_1234_20261129000000000_ascend_pt; P0=PROF_000001_20261129000000000_ABCDEFG
C1=host01_1235_20261129000000000_ascend_pt; P1=PROF_000001_20261129000000000_HIJKLMN
make_card "$OUT/profiling" "$C0" "$P0" 0 0 "$START0" "$END0"
mkdir -p "$OUT/profiling_2cards"
cp -r "$OUT/profiling/$C0" "$OUT/profiling_2cards/"
make_card "$OUT/profiling_2cards" "$C1" "$P1" 1 1 "$START1" "$END1"

N=$(grep -vc '^#' "$OUT/sample.txt")
[ "$(stat -c %s "$OUT/sample.txt")" -lt 3000000 ] || echo "warning: sample.txt >= 3 MB (busy box?); run again" >&2
echo "sample: $N events, overrun 0, uptime at start $UPTIME_START s"
echo "card0 window raw ${START0% *}..${END0% *}; card1 ${START1% *}..${END1% *}"
ls -la "$OUT"
