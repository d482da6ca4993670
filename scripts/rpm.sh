#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The RPM of the static ftscope (rpm/ftscope.spec), with rpmbuild from
# Debian's `rpm` package:
#   scripts/rpm.sh STATIC_BUILD_DIR [OUT_DIR]     default OUT_DIR: dist/
# STATIC_BUILD_DIR is a built -DFTS_STATIC=ON tree (scripts/release.sh
# builds one; any static tree will do): its binary (stripped), man pages and
# the bash completion, packaged for that binary's architecture.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bdir=$(cd "$1" && pwd)
out=$(mkdir -p "${2:-$top/dist}" && cd "${2:-$top/dist}" && pwd)
command -v rpmbuild > /dev/null || { echo "rpm.sh: rpmbuild missing (apt-get install rpm)" >&2; exit 1; }
grep -q '^FTS_STATIC:BOOL=ON' "$bdir/CMakeCache.txt" || { echo "rpm.sh: $bdir is not a static build" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# staged by hand: the tree's install would want the whole library built too
cmake --build "$bdir" --target ftscope man > /dev/null
st=$tmp/stage/usr
mkdir -p "$st/bin" "$st/share/man/man1" "$st/share/bash-completion/completions"
cp "$bdir/ftscope" "$st/bin/ftscope"
cp "$bdir"/man/*.1 "$st/share/man/man1/"
cp "$top/completion/ftscope.bash" "$st/share/bash-completion/completions/ftscope"
case $(file -b "$tmp/stage/usr/bin/ftscope") in
	*aarch64*) arch=aarch64 strip=aarch64-linux-gnu-strip ;;
	*x86-64*) arch=x86_64 strip=strip ;;
	*) echo "rpm.sh: unknown architecture of $tmp/stage/usr/bin/ftscope" >&2; exit 1 ;;
esac
"$strip" "$tmp/stage/usr/bin/ftscope"
ver=$(sed -n 's/^#define FTS_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' "$top/include/ftscope/version.h" | paste -sd.)
rpmbuild -bb --quiet --target "$arch" --define "_topdir $tmp/top" --define "stage $tmp/stage" \
	--define "fts_version $ver" --define "_build_id_links none" "$top/rpm/ftscope.spec" > "$tmp/rpmbuild.log" 2>&1 ||
	{ cat "$tmp/rpmbuild.log"; exit 1; }
cp "$tmp"/top/RPMS/*/ftscope-"$ver"-1.*.rpm "$out/"
ls "$out"/ftscope-"$ver"-1.*.rpm
