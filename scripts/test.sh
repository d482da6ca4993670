#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build and run every test (ctest: cmocka units, golden and contract tests,
# real-tracefs recording tests when root).
#   scripts/test.sh          the whole suite, warnings as errors: the quick tier
#                            first (stops there on a failure), then the rest
#   scripts/test.sh --quick  the quick tier alone: ctest label "offline" (no root,
#                            no tracefs, no recording; a few minutes)
#   scripts/test.sh --asan   the same suite under AddressSanitizer + UndefinedBehaviorSanitizer,
#                            but for what a sanitizer adds nothing to in the second tier:
#                            the tmux-driven session flows (tui_session_*: the TUI's code
#                            runs under ASan in the quick tier's TUI tests, the recorder's
#                            in record_*), record_load (rates) and multihost_pdsh (ssh)
#   scripts/test.sh --tsan   the tests that run the threads docs/threads.md lists
#                            (ctest label "threads": the recorder's readers,
#                            sampler, top, flight and pid mapper, the SQLite page
#                            writer and JSON writer, the readers beside the
#                            pipeline, the store cache writer, the TUI's workers,
#                            cancellation by signal) under ThreadSanitizer
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/build
args=(-DFTS_WERROR=ON)
select=()
rest=()
tiered=1
case "${1:-}" in
--quick)
	select=(-L '^offline$')
	tiered=0
	;;
--asan)
	dir=$top/build-asan
	args+=(-DFTS_SANITIZE=ON)
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
	export LSAN_OPTIONS=suppressions=$top/tests/lsan.supp:print_suppressions=0
	export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
	rest=(-E '^(tui_session_.*|record_load|multihost_pdsh)$')
	;;
--tsan)
	dir=$top/build-tsan
	args+=(-DFTS_TSAN=ON)
	export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
	# by label, set beside each test (docs/threads.md says which test runs
	# which thread); record_top measures its own CPU cost, which TSan
	# multiplies: the live top runs under TSan in test_record_api instead
	tiered=0
	select=(-L '^threads$')
	;;
"") ;;
*)
	echo "usage: scripts/test.sh [--quick|--asan|--tsan]" >&2
	exit 2
	;;
esac
"$top/scripts/build.sh" "$dir" "${args[@]}"
cd "$dir"
if [ $tiered = 1 ]; then
	# The same tests as one run, in two: what needs no machine first, so a
	# broken build fails in minutes; then recording (ctest's RESOURCE_LOCK and
	# each test's own tracefs lock keep those apart) and the slow ones.
	ctest --output-on-failure -j "$(nproc)" -L '^offline$'
	ctest --output-on-failure -j "$(nproc)" -LE '^offline$' "${rest[@]}"
else
	ctest --output-on-failure -j "$(nproc)" "${select[@]}"
fi
