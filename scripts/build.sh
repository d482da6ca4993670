#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Configure and build ftscope: scripts/build.sh [build-dir] [extra cmake args...]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build}
shift || true
cmake -S "$top" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" > /dev/null
cmake --build "$dir" -j "$(nproc)" > "$dir/build.log" 2>&1 || { cat "$dir/build.log"; exit 1; }
echo "built $dir/ftscope"
