#!/usr/bin/env bash
# make_fixtures.sh — record the small golden ftrace inputs under tests/data/.
#
# What: real captures on this kernel, each saved three ways from the same ring
# buffer contents: <name>.txt (tracefs `trace` text), <name>.dat (trace-cmd
# extract, v7/zstd as trace-cmd writes it, /proc/kallsyms hidden so the file
# stays small) and <name>.report (`trace-cmd report` of that .dat).
# How:  sudo tests/data/make_fixtures.sh [hackbench|irq|lost|boot_padded|bad|all]
# Every capture runs in a private instance instances/ftsdata-<pid>-N with the
# mono_raw clock; the global tracing files are never written. Instances are
# removed on any exit (trap). Needs: trace-cmd, hackbench (rt-tests), ping, python3.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/../../scripts/capture_lib.sh"
TRACEFS=/sys/kernel/tracing
[ -d "$TRACEFS/instances" ] || mount -t tracefs nodev "$TRACEFS"
SEQ=0
INSTANCES=()
BGPIDS=()
SCRATCH=$(mktemp -d /tmp/ftsfix.XXXXXX)

cleanup() {
    local p i
    for p in "${BGPIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
    for i in "${INSTANCES[@]:-}"; do
        [ -n "$i" ] || continue
        if [ -d "$TRACEFS/instances/$i" ]; then
            echo 0 2>/dev/null > "$TRACEFS/instances/$i/tracing_on" || true
            rmdir "$TRACEFS/instances/$i" 2>/dev/null || true
        fi
    done
    rm -rf "$SCRATCH"
}
trap cleanup EXIT INT TERM

# inst_new KB -> sets INST (name) and T (path)
inst_new() {
    SEQ=$((SEQ + 1)); INST="ftsdata-$$-$SEQ"; T="$TRACEFS/instances/$INST"
    mkdir "$T"; INSTANCES+=("$INST")
    fts_instance_setup "$T" "$1"
}
overrun_total() { awk '/^overrun:/ {s += $2} END {print s + 0}' "$T"/per_cpu/cpu*/stats; }
# extract with /proc/kallsyms hidden (private mount namespace) -> small .dat.
# Note: trace-cmd extract -B removes the instance itself when done.
extract_dat() {
    unshare --mount --propagation private sh -c \
        'mount --bind /dev/null /proc/kallsyms && exec trace-cmd extract -B "$1" -o "$2"' \
        sh "$INST" "$1" >/dev/null 2>&1
    trace-cmd report -i "$1" > "${1%.dat}.report"
}
inst_rm() { [ -d "$T" ] && rmdir "$T" 2>/dev/null || true; }
# save DIR/NAME : .txt + .dat + .report of the same buffer; refuses overruns
save_all() {
    local out=$1 ov; ov=$(overrun_total)
    if [ "$ov" != 0 ] && [ "${ALLOW_OVERRUN:-0}" != 1 ]; then
        echo "overrun $ov in $INST: buffer too small" >&2; exit 1
    fi
    cp "$T/trace" "$out.txt"; chmod 644 "$out.txt"
    extract_dat "$out.dat"
    inst_rm
    local n_txt n_rep
    n_txt=$(grep -vc '^#' "$out.txt" || true); n_rep=$(grep -vc '^cpus=' "$out.report" || true)
    echo "$(basename "$out"): $n_txt text events, $n_rep report lines, overrun $ov," \
         "sizes $(stat -c %s "$out.txt" "$out.dat" "$out.report" | tr '\n' ' ')"
}

do_hackbench() {
    mkdir -p "$HERE/hackbench"
    inst_new 8192
    echo 1 > "$T/tracing_on"
    # fork + exec (the hackbench binary) + exits; -f/-s keep it < 500 KB of text
    hackbench -g 1 -l 100 -f 4 -s 4096 >/dev/null
    echo 0 > "$T/tracing_on"
    save_all "$HERE/hackbench/hackbench"
}

do_irq() {
    mkdir -p "$HERE/irq"
    inst_new 8192
    echo 1 > "$T/tracing_on"
    # virtio disk irqs (fsync) + loopback NET_RX softirqs (ping)
    ping -q -c 20 -i 0.01 127.0.0.1 >/dev/null &
    local pp=$!
    for _ in 1 2 3; do dd if=/dev/zero of="$SCRATCH/dd.bin" bs=64k count=4 conv=fsync status=none; sleep 0.05; done
    wait "$pp"
    echo 0 > "$T/tracing_on"
    save_all "$HERE/irq/irq"
}

do_lost() {
    mkdir -p "$HERE/lost"
    # 1) slow text reader on trace_pipe while an 8 KB buffer overflows
    inst_new 8
    python3 - "$T/trace_pipe" "$HERE/lost/trace_pipe.txt" <<'PY' &
import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
out = open(sys.argv[2], "wb")
end = time.time() + 4.0
while time.time() < end:
    try:
        b = os.read(fd, 1024)      # small reads, slowly: the writer laps us
        if b: out.write(b)
    except BlockingIOError:
        pass
    time.sleep(0.1)
# drain the rest
while True:
    try:
        b = os.read(fd, 65536)
    except BlockingIOError:
        break
    if not b: break
    out.write(b)
out.close()
PY
    local rp=$!; BGPIDS+=("$rp")
    sleep 0.2
    echo 1 > "$T/tracing_on"
    for _ in 1 2 3; do hackbench -g 1 -l 60 -f 4 -s 4096 >/dev/null; sleep 0.4; done
    echo 0 > "$T/tracing_on"
    wait "$rp"
    grep -q 'LOST' "$HERE/lost/trace_pipe.txt" || echo "warning: no LOST line this time; run again" >&2
    echo "lost/trace_pipe.txt: $(grep -c 'LOST' "$HERE/lost/trace_pipe.txt" || true) LOST lines," \
         "$(grep -vc LOST "$HERE/lost/trace_pipe.txt" || true) event lines, overrun $(overrun_total)"
    inst_rm
    # 2) no reader at all: the ring overwrites itself; .txt/.dat/.report of what is left
    inst_new 8
    echo 1 > "$T/tracing_on"
    hackbench -g 1 -l 100 -f 4 -s 4096 >/dev/null
    echo 0 > "$T/tracing_on"
    [ "$(overrun_total)" -gt 0 ] || echo "warning: no overrun in $INST" >&2
    ALLOW_OVERRUN=1 save_all "$HERE/lost/overwrite"
}

do_boot_padded() {
    mkdir -p "$HERE/boot_padded"
    cat /proc/uptime > "$HERE/boot_padded/uptime_at_capture.txt"
    inst_new 4096
    echo 1 > "$T/tracing_on"
    for _ in 1 2 3 4 5; do sleep 0.05; /bin/true; done
    echo 0 > "$T/tracing_on"
    save_all "$HERE/boot_padded/idle"
}

# capture 0.8 s around mono_raw = 1000 s, where tracefs' "%5llu" seconds go from
# "  999.xxxxxx" to " 1000.xxxxxx" (only possible while the box is younger than that)
do_cross1000() {
    mkdir -p "$HERE/boot_padded"
    local now; now=$(python3 -c 'import time; print(time.clock_gettime(time.CLOCK_MONOTONIC_RAW))')
    if python3 -c "import sys; sys.exit(0 if $now < 999.0 else 1)"; then
        inst_new 8192
        python3 -c 'import time
while time.clock_gettime(time.CLOCK_MONOTONIC_RAW) < 999.6: time.sleep(0.01)'
        echo 1 > "$T/tracing_on"
        python3 -c 'import time
while time.clock_gettime(time.CLOCK_MONOTONIC_RAW) < 1000.4: time.sleep(0.02)'
        echo 0 > "$T/tracing_on"
        save_all "$HERE/boot_padded/cross1000"
    else
        echo "cross1000: mono_raw is already $now s (> 999 s); skipped" >&2
    fi
}

do_bad() {
    local b="$HERE/bad"; mkdir -p "$b"
    : > "$b/empty.txt"
    head -c 4096 /dev/urandom > "$b/garbage.txt"
    local d="$HERE/hackbench/hackbench.dat" t="$HERE/hackbench/hackbench.txt"
    [ -f "$d" ] || do_hackbench
    head -c $(( $(stat -c %s "$d") * 40 / 100 )) "$d" > "$b/truncated.dat"
    # cut 60% into the text, in the middle of an event line (no trailing newline)
    local cut; cut=$(( $(stat -c %s "$t") * 60 / 100 ))
    head -c "$cut" "$t" > "$b/half_line.txt"
    case "$(tail -c 1 "$b/half_line.txt" | od -An -c | tr -d ' ')" in
        '\n') head -c $((cut - 20)) "$t" > "$b/half_line.txt" ;;
    esac
    printf '{"12": {"NSpid": ' > "$b/malformed_pidmap.json"
    cat > "$b/pidmap_odd.json" <<'JSON'
{
  "100": {},
  "101": {"NSpid": ""},
  "102": {"NSpid": "7", "name": "python3", "Tgid": "102", "PPid": "1"},
  "103": {"NSpid": "8", "name": "worker:0-x", "Tgid": "102", "PPid": "1"},
  "104": {"NSpid": "9", "name": "python3", "Tgid": "104", "PPid": "102"},
  "105": {"NSpid": "10"},
  "106": {"NSpid": "11", "name": "a b\u001b[31m", "Tgid": "106", "PPid": "104"}
}
JSON
    printf 'collectionTimeBegin=1764374400000000\nclockMonotonicRaw: 612345678901\n' > "$b/start_info_bad"
    ls -la "$b"
}

what=${1:-all}
case "$what" in
    hackbench|irq|lost|boot_padded|cross1000|bad) "do_$what" ;;
    all) do_hackbench; do_irq; do_lost; do_boot_padded; do_cross1000; do_bad ;;
    *) echo "usage: $0 [hackbench|irq|lost|boot_padded|cross1000|bad|all]" >&2; exit 2 ;;
esac
