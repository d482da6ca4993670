#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build and run every test (ctest: cmocka units, golden and contract tests,
# real-tracefs recording tests when root). scripts/test.sh --asan runs the
# same suite built with AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/build
args=(-DFTS_WERROR=ON)
if [ "${1:-}" = "--asan" ]; then
	dir=$top/build-asan
	args+=(-DFTS_SANITIZE=ON)
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
	export LSAN_OPTIONS=suppressions=$top/tests/lsan.supp:print_suppressions=0
	export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
"$top/scripts/build.sh" "$dir" "${args[@]}"
cd "$dir"
ctest --output-on-failure -j 2
