#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# npu_profiles.sh — time and peak RSS of `ftscope hostbound` and of
# `ftscope preview -p ... --print` on a large torch_npu profile of each export
# type: a trace_view.json and an ascend_pytorch_profiler_0.db of about the same
# size (default 500 MB), written by bench/npu_profiles.py from
# tests/profiling/gen.py's scenario (device pids past 2^31, every key-order
# shape, flows of both id kinds, steps), against the bundled sample capture.
# Figures only, not pass/fail.
# How: bench/npu_profiles.sh [MB] [LEVEL]
#      env: FTSCOPE (default <repo>/build/ftscope), FTSCOPE_BENCH_DIR
#           (default /tmp/ftscope-bench), KEEP_OUTPUTS=1 keeps the profiles.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
FTSCOPE=${FTSCOPE:-$REPO/build/ftscope}
DIR=${FTSCOPE_BENCH_DIR:-/tmp/ftscope-bench}/npu_profiles
MB=${1:-500}
LEVEL=${2:-1}
[ -x "$FTSCOPE" ] || { echo "no ftscope binary at $FTSCOPE" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time missing: apt-get install time" >&2; exit 1; }
S=$REPO/assets/sample
rm -rf "$DIR" && mkdir -p "$DIR"
cleanup() { [ "${KEEP_OUTPUTS:-0}" = 1 ] || rm -rf "$DIR"; }
trap cleanup EXIT INT TERM
T0=$(python3 -c "import json,glob;print(int(json.load(open(glob.glob('$S/profiling/*/PROF_*/host/start_info')[0]))['collectionTimeBegin'])*1000+50000000)")
for type in text db; do
	cp -r "$S/profiling" "$DIR/$type"
	python3 "$REPO/bench/npu_profiles.py" "$(ls -d "$DIR/$type"/*_ascend_pt)" "$type" "$MB" "$T0" "$LEVEL"
done
echo "ftscope: $FTSCOPE; host: $(uname -r), $(nproc) CPUs"
printf '%-6s %-9s %8s %8s %8s %8s %12s\n' type command input_MB wall_s cpu_s MB/s peakRSS_KB
for type in text db; do
	f=$(find "$DIR/$type" -path '*/ASCEND_PROFILER_OUTPUT/*' -type f | head -1)
	in_mb=$(( $(stat -c %s "$f") >> 20 ))
	for cmd in hostbound preview; do
		if [ $cmd = hostbound ]; then
			args=(hostbound "$S/sample.dat" -p "$DIR/$type" -m "$S/pid_mapping.json" -f json -n 3)
		else
			args=(preview "$S/sample.dat" -p "$DIR/$type" -m "$S/pid_mapping.json" --no_cache --print 160x50)
		fi
		/usr/bin/time -f '%e %U %S %M' -o "$DIR/time" "$FTSCOPE" "${args[@]}" > "$DIR/out.$type.$cmd" 2> "$DIR/err" ||
			{ cat "$DIR/err"; exit 1; }
		read -r wall user sys rss < "$DIR/time"
		awk -v t="$type" -v c="$cmd" -v mb="$in_mb" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" \
			'BEGIN { printf "%-6s %-9s %8d %8.2f %8.2f %8.1f %12d\n", t, c, mb, w, u + s, mb / (w > 0 ? w : 0.01), r }'
	done
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["cards"][0]; print("  %s: gaps %d, idle %.1f ms" % (sys.argv[2], r["gaps"], r["idle_ns"]/1e6))' \
		"$DIR/out.$type.hostbound" "$type"
done
