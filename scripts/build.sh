#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Configure and build ftscope: scripts/build.sh [build-dir] [extra cmake args...]
# Quiet when all is well; configure warnings and build errors are printed.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build}
shift || true
mkdir -p "$dir"
cmake -S "$top" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" > "$dir/configure.log" 2>&1 ||
	{ cat "$dir/configure.log"; exit 1; }
if grep -q 'CMake Warning' "$dir/configure.log"; then
	sed -n '/CMake Warning/,/^$/p' "$dir/configure.log" >&2
fi
cmake --build "$dir" -j "$(nproc)" > "$dir/build.log" 2>&1 || { cat "$dir/build.log"; exit 1; }
echo "built $dir/ftscope"
