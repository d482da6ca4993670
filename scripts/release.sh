#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The release binaries: one fully static ftscope per architecture (x86_64,
# aarch64 cross-built with Debian's toolchain), built from a clean clone of
# HEAD into dist/, their wheels (scripts/wheel.sh, docs/wheel.md), and their
# RPMs when rpmbuild is installed (docs/static.md).
#   scripts/release.sh [--arch x86_64|aarch64]... [--binaries-only] [dist-dir]
# default: both architectures, into dist/; --binaries-only: no wheel, RPM or
# SHA256SUMS (what scripts/wheel.sh asks for).
# Needs scripts/deps.sh --all (the .a files of libtracefs, libtraceevent,
# sqlite3, ncursesw/tinfo, zstd for amd64 and arm64; gcc-aarch64-linux-gnu).
# Each binary is checked before it is kept: no NEEDED entry, no interpreter,
# and `--version` says static (the aarch64 one run under qemu-aarch64-static
# with an empty sysroot when it is installed).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
arches=() only_bins=0
while [ $# -gt 0 ]; do
	case $1 in
	--arch) [ "${2:-}" = x86_64 ] || [ "${2:-}" = aarch64 ] ||
			{ echo "release: --arch takes x86_64 or aarch64, not '${2:-}'" >&2; exit 2; }
		arches+=("$2"); shift 2 ;;
	--binaries-only) only_bins=1; shift ;;
	-*) echo "release: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ ${#arches[@]} -gt 0 ] || arches=(x86_64 aarch64)
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

mkdir -p "$tmp/empty"
for arch in "${arches[@]}"; do
	if [ "$arch" = x86_64 ]; then
		build x86_64 strip
		"$dist/ftscope-$ver-linux-x86_64" --version | grep -q '^build: static' ||
			{ echo "release: the x86_64 binary does not say it is static" >&2; exit 1; }
	else
		build aarch64 aarch64-linux-gnu-strip -DCMAKE_TOOLCHAIN_FILE="$top/cmake/toolchain-aarch64-linux-gnu.cmake"
		if command -v qemu-aarch64-static > /dev/null; then
			qemu-aarch64-static -L "$tmp/empty" "$dist/ftscope-$ver-linux-aarch64" --version | grep -q '^build: static' ||
				{ echo "release: the aarch64 binary does not run under qemu with an empty sysroot" >&2; exit 1; }
		fi
	fi
done
[ "$only_bins" = 0 ] || exit 0
# the wheels (scripts/wheel.sh): the binaries and the same clone's python/
wheels=()
for arch in "${arches[@]}"; do
	w=$("$top/scripts/wheel.sh" --binary "$dist/ftscope-$ver-linux-$arch" --src "$tmp/src" --out "$dist" "$arch")
	wheels+=("$(basename "$w")")
done
# the RPMs (rpm/ftscope.spec), when rpmbuild is installed
rpms=()
if command -v rpmbuild > /dev/null; then
	for arch in "${arches[@]}"; do
		"$top/scripts/rpm.sh" "$tmp/$arch" "$dist" > /dev/null
		rpms+=("ftscope-$ver-1.$arch.rpm")
	done
else
	echo "release: rpmbuild missing (apt-get install rpm): no RPMs" >&2
fi
(cd "$dist" && sha256sum "${arches[@]/#/ftscope-$ver-linux-}" "${wheels[@]}" "${rpms[@]}" > "SHA256SUMS-$ver")
ls -l "$dist"
