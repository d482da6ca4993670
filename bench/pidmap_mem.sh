#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pidmap_mem.sh - peak memory of `ftscope convert --pid_mapping` with a large mapping.
#
# What: writes a pid_mapping.json of about SIZE_MB MB (default 200; the loader's
#   cap is 256 MB) by repeating the entry shape of assets/sample/pid_mapping.json
#   with fresh pids (half of them mapped to another pid), converts the bundled
#   sample with and without it, and prints file MB, peak RSS KB of both runs,
#   and (RSS with - RSS without) / file size. Figures only, not pass/fail.
#   (Issue 10 class 11: the cJSON tree took about 9x the file.)
# How: bench/pidmap_mem.sh [SIZE_MB]   env: FTSCOPE (default build/ftscope)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
FTSCOPE=${FTSCOPE:-$REPO/build/ftscope}
SIZE_MB=${1:-200}
DIR=$(mktemp -d /tmp/ftscope-pidmap.XXXXXX)
trap 'rm -rf "$DIR"' EXIT
python3 - "$DIR/pid_mapping.json" "$SIZE_MB" <<'PY'
import sys
path, mb = sys.argv[1], int(sys.argv[2])
with open(path, "w") as f:
    f.write("{\n")
    pid, size, first = 1, 0, True
    while size < mb * 1048576:
        ns = pid if pid % 2 else pid % 100000 + 1
        s = '%s "%d": {\n  "NSpid": "%d",\n  "name": "python3-worker-%d",\n  "Tgid": "%d",\n  "PPid": "1"\n }' % (
            "" if first else ",\n", pid, ns, pid % 977, pid)
        f.write(s)
        size += len(s)
        pid += 1
        first = False
    f.write("\n}\n")
PY
S=$REPO/assets/sample/sample.txt
mb=$(du -m "$DIR/pid_mapping.json" | cut -f1)
/usr/bin/time -f '%M' -o "$DIR/t0" "$FTSCOPE" convert -q --input "$S" --output "$DIR/ftrace_data.db"
/usr/bin/time -f '%M' -o "$DIR/t1" "$FTSCOPE" convert -q --input "$S" --pid_mapping "$DIR/pid_mapping.json" --output "$DIR/ftrace_data.db"
r0=$(tail -1 "$DIR/t0"); r1=$(tail -1 "$DIR/t1")
printf '%-10s %14s %14s %12s\n' file_MB rss_without_KB rss_with_KB x_file_size
awk -v m="$mb" -v a="$r0" -v b="$r1" 'BEGIN { printf "%-10d %14d %14d %12.2f\n", m, a, b, (b - a) / (m * 1024) }'
