#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Cross build for arm64 (Kunpeng) with Debian's cross toolchain, and its tests
# run under qemu-user (issue 19; docs/arm64.md).
#   scripts/cross-arm64.sh [build-dir]     default build-arm64/
# Needs scripts/deps.sh --all (gcc-aarch64-linux-gnu, qemu-user-static, the
# arm64 -dev packages). libtracecmd is the exception: Debian 12's libtracecmd1
# and libtracecmd-dev are not Multi-Arch: same, so installing the arm64 ones
# removes the host's. Their arm64 .debs (the host's version) are fetched with
# apt-get download and unpacked into <build-dir>/arm64-overlay, which
# pkg-config and qemu-user (-L) are pointed at (cmake/toolchain-aarch64-linux-gnu.cmake).
#
# Runs what makes sense under qemu-user without binfmt_misc: every test except
# the ones that record on the real tracefs under their own timing (record_*,
# test_record_api, tui_session_*), convert_progress (a 100 MB conversion
# whose progress-line check assumes it ends within a minute; emulated it takes
# five) and the tmux tests (tui_tmux*: their waits are sized for native speed,
# and under qemu-user SIGTERM/SIGHUP did not end the preview with 143/129;
# not investigated further) and the fuzz corpora replays (crash checks, which
# the sanitizer builds run; left out to keep CI near 40 minutes). The Python
# tests and install_consume skip (the host's python3 and cc
# cannot load or build arm64 code). Then, as root with tracefs, arm64_record
# (one recording by the arm64 binary, checked) under the machine's tracefs lock.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build-arm64}
ov=$dir/arm64-overlay
mkdir -p "$dir"

# libtracecmd's arm64 files, unpacked once per build directory.
if [ ! -e "$ov/usr/lib/aarch64-linux-gnu/libtracecmd.so.1" ]; then
	ver=$(dpkg-query -W -f='${Version}' libtracecmd1) ||
		{ echo "cross-arm64: libtracecmd1 is not installed (scripts/deps.sh --all)" >&2; exit 1; }
	dl=$(mktemp -d)
	trap 'rm -rf "$dl"' EXIT
	(cd "$dl" && apt-get download -q "libtracecmd1:arm64=$ver" "libtracecmd-dev:arm64=$ver" > /dev/null) ||
		{ echo "cross-arm64: cannot download libtracecmd:arm64 $ver (dpkg --add-architecture arm64; apt-get update)" >&2; exit 1; }
	rm -rf "$ov"
	for deb in "$dl"/*.deb; do
		dpkg-deb -x "$deb" "$ov"
	done
	sed -i "s|=/usr|=$ov/usr|" "$ov/usr/lib/aarch64-linux-gnu/pkgconfig/libtracecmd.pc"
fi

"$top/scripts/build.sh" "$dir" -DFTS_WERROR=ON \
	-DCMAKE_TOOLCHAIN_FILE="$top/cmake/toolchain-aarch64-linux-gnu.cmake" -DFTS_ARM64_OVERLAY="$ov"
cd "$dir"
ctest --output-on-failure -j "$(nproc)" -E '^(record_|test_record_api$|tui_session_|tui_tmux|fuzz_replay_|convert_progress$|arm64_record$)'
# One recording by the arm64 binary on this machine's tracefs (skips without root).
python3 "$top/scripts/tracefs_lock.py" ctest --output-on-failure -R '^arm64_record$'
