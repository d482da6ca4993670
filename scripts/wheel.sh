#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The wheels: ftscope-<ver>-py3-none-<linux tags>.whl per architecture, the
# Python package driving the static ftscope it carries (docs/wheel.md).
#   scripts/wheel.sh [x86_64|aarch64|all]       default all, into dist/
#   scripts/wheel.sh --binary FILE [--src TREE] [--out DIR] x86_64|aarch64
# Without --binary, the static binaries are built by scripts/release.sh
# --binaries-only from a clean clone of HEAD, and the Python files are HEAD's.
# With --binary, that file goes in (checked: a static ELF of that
# architecture) with TREE's python/ (default: this worktree, as it is).
# Written by scripts/mkwheel.py with Python's zipfile: no `wheel` or `build`
# package, no index. Prints each wheel's path.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
binary='' src='' out=$top/dist
usage() { echo "usage: scripts/wheel.sh [--binary FILE [--src TREE]] [--out DIR] [x86_64|aarch64|all]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--binary) [ $# -ge 2 ] || usage; binary=$2; shift 2 ;;
	--src) [ $# -ge 2 ] || usage; src=$2; shift 2 ;;
	--out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
	-h|--help) usage ;;
	-*) echo "wheel: unknown option '$1'" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -le 1 ] || usage
case ${1:-all} in
x86_64|aarch64) arches=("${1}") ;;
all) arches=(x86_64 aarch64) ;;
*) echo "wheel: the architecture is x86_64, aarch64 or all, not '$1'" >&2; exit 2 ;;
esac
mkdir -p "$out"
if [ -n "$binary" ]; then
	[ ${#arches[@]} = 1 ] || { echo "wheel: --binary FILE makes one architecture's wheel: name it" >&2; exit 2; }
	[ -f "$binary" ] || { echo "wheel: --binary $binary: no such file" >&2; exit 1; }
	exec python3 "$top/scripts/mkwheel.py" --binary "$binary" --arch "${arches[0]}" --src "${src:-$top}" --out "$out"
fi
[ -z "$src" ] || { echo "wheel: --src goes with --binary (otherwise HEAD's files are used)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$top/scripts/release.sh" ${arches[@]/#/--arch } --binaries-only "$tmp/bin" >&2
mkdir "$tmp/src"
git -C "$top" archive HEAD python LICENSE | tar -x -C "$tmp/src"
for arch in "${arches[@]}"; do
	python3 "$top/scripts/mkwheel.py" --binary "$(ls "$tmp/bin"/ftscope-*-linux-"$arch")" --arch "$arch" \
		--src "$tmp/src" --out "$out"
done
