#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The release binaries: one fully static ftscope per architecture (x86_64,
# aarch64 cross-built with Debian's toolchain), built from a clean clone of
# HEAD into dist/, and their RPMs when rpmbuild is installed (docs/static.md).
#   scripts/release.sh [dist-dir]        default dist/
# Needs scripts/deps.sh --all (the .a files of libtracefs, libtraceevent,
# sqlite3, ncursesw/tinfo, zstd for amd64 and arm64; gcc-aarch64-linux-gnu).
# Each binary is checked before it is kept: no NEEDED entry, no interpreter,
# and `--version` says static (the aarch64 one run under qemu-aarch64-static
# with an empty sysroot when it is installed).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dist=$(mkdir -p "${1:-$top/dist}" && cd "${1:-$top/dist}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -z "$(git -C "$top" status --porcelain --untracked-files=no)" ] ||
	echo "release: note: the worktree has uncommitted changes; the release is built from HEAD ($(git -C "$top" rev-parse --short HEAD))" >&2
git clone --quiet --no-hardlinks "$top" "$tmp/src"
ver=$(sed -n 's/^#define FTS_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' "$tmp/src/include/ftscope/version.h" | paste -sd.)

# build ARCH STRIP [cmake args...]
build() {
	local arch=$1 strip=$2 out=$dist/ftscope-$ver-linux-$1
	shift 2
	cmake -S "$tmp/src" -B "$tmp/$arch" -DCMAKE_BUILD_TYPE=Release -DFTS_STATIC=ON -DBUILD_TESTING=OFF "$@" \
		> "$tmp/$arch.configure.log" 2>&1 || { cat "$tmp/$arch.configure.log"; exit 1; }
	cmake --build "$tmp/$arch" -j "$(nproc)" --target ftscope man > "$tmp/$arch.build.log" 2>&1 ||
		{ cat "$tmp/$arch.build.log"; exit 1; }
	"$strip" -o "$out" "$tmp/$arch/ftscope"
	if readelf -d "$out" | grep -q NEEDED || readelf -l "$out" | grep -q 'program interpreter'; then
		echo "release: $out is not static" >&2
		exit 1
	fi
	echo "$out"
}

build x86_64 strip
build aarch64 aarch64-linux-gnu-strip -DCMAKE_TOOLCHAIN_FILE="$top/cmake/toolchain-aarch64-linux-gnu.cmake"
mkdir -p "$tmp/empty"
"$dist/ftscope-$ver-linux-x86_64" --version | grep -q '^build: static' ||
	{ echo "release: the x86_64 binary does not say it is static" >&2; exit 1; }
if command -v qemu-aarch64-static > /dev/null; then
	qemu-aarch64-static -L "$tmp/empty" "$dist/ftscope-$ver-linux-aarch64" --version | grep -q '^build: static' ||
		{ echo "release: the aarch64 binary does not run under qemu with an empty sysroot" >&2; exit 1; }
fi
# the RPMs (rpm/ftscope.spec), when rpmbuild is installed
rpms=()
if command -v rpmbuild > /dev/null; then
	for arch in x86_64 aarch64; do
		"$top/scripts/rpm.sh" "$tmp/$arch" "$dist" > /dev/null
	done
	rpms=("ftscope-$ver-1.x86_64.rpm" "ftscope-$ver-1.aarch64.rpm")
else
	echo "release: rpmbuild missing (apt-get install rpm): no RPMs" >&2
fi
(cd "$dist" && sha256sum "ftscope-$ver-linux-x86_64" "ftscope-$ver-linux-aarch64" "${rpms[@]}" > "SHA256SUMS-$ver")
ls -l "$dist"
