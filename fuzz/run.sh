#!/usr/bin/env bash
# Run the libFuzzer targets: fuzz/run.sh [seconds-per-target, default 60]
# Builds with clang into build-fuzz (needs clang and libclang-rt-14-dev);
# new crashes land in build-fuzz/crash-*; the corpora grow in build-fuzz/corpus-*
# (seeded from fuzz/corpus/, which holds only the hand-written seeds).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
CC=clang cmake -S "$top" -B "$top/build-fuzz" -DFTS_FUZZ=ON -DFTS_SANITIZE=ON -DFTS_WERROR=OFF > /dev/null
cmake --build "$top/build-fuzz" -j "$(nproc)" --target fuzz_text fuzz_json fuzz_dat > /dev/null
cd "$top/build-fuzz"
for t in text json dat; do
	mkdir -p "corpus-$t"
	cp -n "$top/fuzz/corpus/$t"/* "corpus-$t"/
	seeds=("corpus-$t")
	case $t in
	text) seeds+=("$top/tests/data/hackbench" "$top/tests/data/lost") ;;
	dat) seeds+=("$top/tests/data/dat") ;;
	esac
	echo "== fuzz_$t for ${secs}s"
	ASAN_OPTIONS=detect_leaks=1 ./fuzz/fuzz_$t -max_total_time="$secs" -max_len=65536 \
		-rss_limit_mb=1024 "${seeds[@]}" 2>&1 | tail -3
done
