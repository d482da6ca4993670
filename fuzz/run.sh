#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run the libFuzzer targets: fuzz/run.sh [seconds-per-target, default 60] [target...]
# (targets: text json dat dat_pages rb_db rb_json trace_view npu_db cache preview_keys; default all)
# Builds with clang into build-fuzz (needs clang and libclang-rt-14-dev);
# new crashes land in build-fuzz/crash-*; the corpora grow in build-fuzz/corpus-*
# (seeded from fuzz/corpus/, which holds only the hand-written seeds).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(text json dat dat_pages rb_db rb_json trace_view npu_db cache preview_keys)
CC=clang cmake -S "$top" -B "$top/build-fuzz" -DFTS_FUZZ=ON -DFTS_SANITIZE=ON -DFTS_WERROR=OFF > /dev/null
jobs=$(nproc); [ "$jobs" -le 2 ] || jobs=2
# ftscope too: it writes the cache target's seeds (fuzz/make_cache_seeds.sh)
cmake --build "$top/build-fuzz" -j "$jobs" --target "${targets[@]/#/fuzz_}" ftscope > /dev/null
cd "$top/build-fuzz"
for t in "${targets[@]}"; do
	mkdir -p "corpus-$t"
	[ ! -d "$top/fuzz/corpus/$t" ] || cp -n "$top/fuzz/corpus/$t"/* "corpus-$t"/
	seeds=("corpus-$t")
	extra=()
	case $t in
	text) seeds+=("$top/tests/data/hackbench" "$top/tests/data/lost") ;;
	dat) seeds+=("$top/tests/data/dat") ;;
	dat_pages) seeds+=("fuzz/dat_pages/seeds") ;;   # cut from the real v6 capture
	rb_db | rb_json) seeds+=("fuzz/rb_seeds/$t") ;;  # fuzz/make_rb_seeds.py
	npu_db) seeds+=("fuzz/npu_seeds/npu_db") ;;      # fuzz/make_npu_seeds.py
	trace_view) seeds+=("fuzz/npu_seeds/npu_text" "fuzz/npu_seeds/npu_db") ;;
	# real cache files of this build, some damaged and re-signed; the target re-signs every input
	cache) bash "$top/fuzz/make_cache_seeds.sh" ./ftscope "$top" fuzz/cache_seeds; seeds+=("fuzz/cache_seeds") ;;
	# crafted stores and keys (make_preview_seeds.py); a hang is what it looks for
	preview_keys) seeds+=("fuzz/preview_keys_seeds"); extra+=(-timeout=60) ;;
	esac
	echo "== fuzz_$t for ${secs}s"
	# full malloc stacks: libtracecmd has no frame pointers, and the suppressions
	# for its own leaks name functions below it
	ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 \
		LSAN_OPTIONS=suppressions=$top/tests/lsan.supp:print_suppressions=0 \
		./fuzz/fuzz_$t -max_total_time="$secs" -max_len=65536 \
		-rss_limit_mb=1024 -print_final_stats=1 ${extra[@]+"${extra[@]}"} "${seeds[@]}" 2>&1 |
		grep -E "^(Done|stat::number_of_executed_units|stat::peak_rss)|ERROR|SUMMARY|crash-" || true
done
