#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The static build's checks, for CI to wire in (docs/static.md):
#   scripts/test-static.sh [dynamic-build-dir]     default build/
# 1. build-static/ (-DFTS_STATIC=ON, tests on) and its tests that exercise
#    what differs from the dynamic build: the own trace.dat reader (dat tests,
#    golden conversions, the probe, the fuzz replays), the JSON tree
#    (profinfo, timemap, hosts, pid map), and static_chroot (the binary alone
#    in an empty root, compared with the dynamic build's ftscope; root only)
#    and static_rpm (the RPM listed, installed into an empty root, run there);
#    the wheel: static_wheel (made from this tree, pip-installed into a fresh
#    venv, used there) and the Python suites over the static binary's pipe
#    (python_binding_pipe, python_record_pipe).
# 2. When the arm64 cross toolchain is installed: the aarch64 static binary
#    under qemu-aarch64-static with an empty sysroot (-L), converting the
#    bundled sample's text to JSON and DB byte-identically to x86_64.
#    trace.dat input is not converted there: its headers are opened in a
#    helper process (/proc/self/exe), which qemu-user cannot start without
#    binfmt_misc (the dynamic arm64 pass uses an LD_PRELOAD shim a static
#    binary cannot load). The aarch64 wheel: its binary is an aarch64
#    static ELF, mode 0755, and says --version under qemu.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dyn=${1:-$top/build}
st=$top/build-static
[ -x "$dyn/ftscope" ] || { echo "test-static: build the dynamic ftscope first (scripts/build.sh $dyn)" >&2; exit 1; }
"$top/scripts/build.sh" "$st" -DFTS_WERROR=ON -DFTS_STATIC=ON -DFTS_REFERENCE_BIN="$dyn/ftscope"
(cd "$st" && ctest --output-on-failure -R '^(static_chroot|static_rpm|static_refusals|static_wheel|python_binding_pipe|python_record_pipe|test_dat_read|test_dat_detect|dat_corrupt_pages|test_dat_pages|golden_convert|contract_dat_vs_text|test_probe|fuzz_replay_dat|fuzz_replay_dat_pages|unit_timemap|unit_profinfo|unit_pidmap|test_stats_hosts|test_pidscan|convert_profinfo)$')

if ! command -v aarch64-linux-gnu-gcc > /dev/null || ! command -v qemu-aarch64-static > /dev/null; then
	echo "test-static: no arm64 cross toolchain or qemu-aarch64-static: the aarch64 pass is skipped"
	exit 0
fi
a64=$top/build-static-arm64
mkdir -p "$a64"
cmake -S "$top" -B "$a64" -DFTS_WERROR=ON -DFTS_STATIC=ON -DBUILD_TESTING=OFF \
	-DCMAKE_TOOLCHAIN_FILE="$top/cmake/toolchain-aarch64-linux-gnu.cmake" > "$a64/configure.log" 2>&1 ||
	{ cat "$a64/configure.log"; exit 1; }
cmake --build "$a64" -j "$(nproc)" --target ftscope > "$a64/build.log" 2>&1 || { cat "$a64/build.log"; exit 1; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
mkdir "$w/empty"
q() { qemu-aarch64-static -L "$w/empty" "$a64/ftscope" "$@"; }
fails=0
q --version | grep -q '^build: static' && echo "ok   aarch64 --version under qemu, empty sysroot" ||
	{ echo "FAIL aarch64 --version"; fails=1; }
in=$top/assets/sample/sample.txt
for f in json db; do
	"$st/ftscope" convert -q -i "$in" -o "$w/x86.$f" && q convert -q -i "$in" -o "$w/arm.$f" ||
		{ echo "FAIL convert to $f"; fails=1; continue; }
	if [ "$f" = db ]; then
		same=$([ "$(sqlite3 "$w/x86.db" .dump)" = "$(sqlite3 "$w/arm.db" .dump)" ] && echo 1 || echo 0)
	else
		same=$(cmp -s "$w/x86.json" "$w/arm.json" && echo 1 || echo 0)
	fi
	[ "$same" = 1 ] && echo "ok   the sample as $f: aarch64 identical to x86_64" ||
		{ echo "FAIL the sample as $f differs between aarch64 and x86_64"; fails=1; }
done
if whl=$("$top/scripts/wheel.sh" --binary "$a64/ftscope" --out "$w/whl" aarch64) &&
	python3 - "$whl" "$w/arm-whl" << 'EOF'; then
import os, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
info = z.getinfo("ftscope/bin/ftscope")
assert (info.external_attr >> 16) & 0o777 == 0o755
assert "Tag: py3-none-manylinux2014_aarch64" in z.read(sorted(n for n in z.namelist() if n.endswith("/WHEEL"))[0]).decode()
z.extract(info, sys.argv[2])
os.chmod(os.path.join(sys.argv[2], info.filename), 0o755)
EOF
	if qemu-aarch64-static -L "$w/empty" "$w/arm-whl/ftscope/bin/ftscope" --version | grep -q '^build: static'; then
		echo "ok   the aarch64 wheel: a static aarch64 ftscope, mode 0755, runs under qemu ($(stat -c %s "$whl") bytes)"
	else
		echo "FAIL the aarch64 wheel's binary does not run under qemu"; fails=1
	fi
else
	echo "FAIL the aarch64 wheel"; fails=1
fi
LANG=C.UTF-8 "$st/ftscope" preview "$in" --no_cache --print 100x30 > "$w/x86.screen"
LANG=C.UTF-8 q preview "$in" --no_cache --print 100x30 > "$w/arm.screen"
cmp -s "$w/x86.screen" "$w/arm.screen" && echo "ok   preview --print: aarch64 identical to x86_64" ||
	{ echo "FAIL preview --print differs between aarch64 and x86_64"; fails=1; }
exit "$fails"
