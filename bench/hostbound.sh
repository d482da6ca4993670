#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# hostbound.sh — time and peak RSS of `ftscope hostbound` on a large generated
# trace_view.json (default 500 MB), against the bundled sample capture.
#
# What: writes a card in the profiler's shape (shared/docs/ascend-profiling.md)
#   into the sample's profiling window: per step one device task, one
#   HostToDevice flow (s + f), four Python cpu_op slices with args and one
#   counter (the bulk a real file carries and the reader must skip), a 60 us
#   device gap every 100 steps; then runs `ftscope hostbound -f json` once and
#   prints wall seconds, user+sys CPU seconds, peak RSS (KB) and MB/s.
#   Figures only, not pass/fail.
# How: bench/hostbound.sh [MB]
#      env: FTSCOPE (default <repo>/build/ftscope), FTSCOPE_BENCH_DIR
#           (default /tmp/ftscope-bench), KEEP_OUTPUTS=1 keeps the generated card.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
FTSCOPE=${FTSCOPE:-$REPO/build/ftscope}
DIR=${FTSCOPE_BENCH_DIR:-/tmp/ftscope-bench}/hostbound
MB=${1:-500}
[ -x "$FTSCOPE" ] || { echo "no ftscope binary at $FTSCOPE" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time missing: apt-get install time" >&2; exit 1; }
S=$REPO/assets/sample
rm -rf "$DIR" && mkdir -p "$DIR"
cleanup() { [ "${KEEP_OUTPUTS:-0}" = 1 ] || rm -rf "$DIR"; }
trap cleanup EXIT INT TERM
cp -r "$S/profiling" "$DIR/prof"
rank=$(ls -d "$DIR"/prof/*_ascend_pt)
mkdir -p "$rank/ASCEND_PROFILER_OUTPUT"
tv=$rank/ASCEND_PROFILER_OUTPUT/trace_view.json
python3 - "$rank" "$tv" "$MB" <<'PY'
import glob, json, sys
rank, out, mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
t0 = int(json.load(open(glob.glob(rank + "/PROF_*/host/start_info")[0]))["collectionTimeBegin"]) * 1000
limit = mb << 20
with open(out, "w") as f:
    f.write('[{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"Python"}},\n'
            '{"ph":"M","name":"thread_name","pid":1,"tid":3,"args":{"name":"Thread 3"}},\n'
            '{"ph":"M","name":"process_name","pid":77,"tid":0,"args":{"name":"Ascend Hardware"}},\n'
            '{"ph":"M","name":"process_name","pid":78,"tid":0,"args":{"name":"HBM"}}')
    size, i, t = 0, 0, t0
    while size < limit:
        t += 8000 + (60000 if i % 100 == 99 else 0)
        us = "%d.%03d" % (t // 1000, t % 1000)
        h = "%d.%03d" % ((t - 4000) // 1000, (t - 4000) % 1000)
        chunk = (',\n{"ph":"X","name":"MatMulV2_%d","pid":77,"tid":5,"ts":"%s","dur":5.0,'
                 '"args":{"Model Id":4294967295,"Task Type":"AI_CORE","Physic Stream Id":5,"Task Id":%d,"Batch Id":0,"Subtask Id":4294967295,"connection_id":%d}}'
                 ',\n{"ph":"s","cat":"HostToDevice","name":"HostToDevice","id":"%d","pid":1,"tid":3,"ts":"%s"}'
                 ',\n{"ph":"f","bp":"e","cat":"HostToDevice","name":"HostToDevice","id":"%d","pid":77,"tid":5,"ts":"%s"}'
                 % (i % 50, us, i, i, i, h, i, us))
        for k in range(4):
            chunk += (',\n{"ph":"X","name":"aten::linear_%d","pid":1,"tid":3,"ts":"%s","dur":1.5,"cat":"cpu_op",'
                      '"args":{"Sequence number":%d,"Fwd thread id":0,"Input Dims":[[32,1024],[1024,1024]],"Input type":["float","float"],"Call stack":"model.py(12): forward"}}'
                      % (k, h, i))
        chunk += ',\n{"ph":"C","name":"HBM 0","pid":78,"tid":0,"ts":"%s","args":{"Read(MB/s)":123.4,"Write(MB/s)":56.7}}' % us
        f.write(chunk)
        size += len(chunk)
        i += 1
    f.write("\n]\n")
print("generated %d steps" % i)
PY
in_mb=$(( $(stat -c %s "$tv") >> 20 ))
echo "ftscope: $FTSCOPE; host: $(uname -r), $(nproc) CPUs; trace_view.json $in_mb MB"
/usr/bin/time -f '%e %U %S %M' -o "$DIR/time" "$FTSCOPE" hostbound "$S/sample.dat" -p "$DIR/prof" \
	-m "$S/pid_mapping.json" -f json -n 3 > "$DIR/out.json"
read -r wall user sys rss < "$DIR/time"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["cards"][0]; print("gaps %d, idle %.1f ms" % (r["gaps"], r["idle_ns"]/1e6))' "$DIR/out.json"
printf '%-10s %8s %8s %8s %12s\n' input_MB wall_s cpu_s MB/s peakRSS_KB
awk -v mb="$in_mb" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" \
	'BEGIN { printf "%-10d %8.2f %8.2f %8.1f %12d\n", mb, w, u + s, mb / w, r }'
