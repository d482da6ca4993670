#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build the Debian packages (ftscope, libftscope0, libftscope-dev,
# python3-ftscope) out of tree:
#   scripts/package.sh [--lintian] [OUTDIR]
# The source (git's tracked and untracked-but-not-ignored files, so work in
# progress is packaged as it is) is copied to OUTDIR/src/ftscope-VERSION and
# built there with dpkg-buildpackage -us -uc -b. The .deb, .changes and
# .buildinfo files land in OUTDIR, the -dbgsym packages in OUTDIR/dbgsym.
# OUTDIR defaults to build-deb/ in the repository (git ignores it); its path
# is the last line printed. The repository and its parent are left alone.
# DEB_BUILD_OPTIONS passes through (nocheck skips the package's offline
# tests; parallel defaults to the number of CPUs).
# --lintian runs lintian on the result and fails on an error.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
lint=0
if [ "${1:-}" = --lintian ]; then
	lint=1
	shift
fi
case "${1:-}" in
-*)
	echo "usage: scripts/package.sh [--lintian] [OUTDIR]" >&2
	exit 2
	;;
esac
out=${1:-$top/build-deb}
for tool in dpkg-buildpackage dh dpkg-parsechangelog; do
	command -v $tool > /dev/null ||
		{ echo "package: $tool not found: install the packaging tools (scripts/deps.sh --all)" >&2; exit 1; }
done
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
mkdir -p "$out"
out=$(cd "$out" && pwd)
case "$out/" in
"$top"/debian/* | "$top"/src/* | "$top"/include/*)
	echo "package: OUTDIR $out is inside the sources it would copy" >&2
	exit 2
	;;
esac
tree=$out/src/ftscope-$version
rm -rf "$out/src"
rm -rf "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo "$out"/build.log "$out"/lintian.log "$out"/dbgsym
mkdir -p "$tree"
if git -C "$top" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	# a tracked file deleted in the work tree is simply not there
	git -C "$top" ls-files -z --cached --others --exclude-standard |
		tar -C "$top" --null -T - --ignore-failed-read -cf - 2> /dev/null | tar -C "$tree" -xf -
else
	tar -C "$top" --exclude='./build*' --exclude=./.git -cf - . | tar -C "$tree" -xf -
fi
opts=${DEB_BUILD_OPTIONS:-}
case " $opts " in
*" parallel="*) ;;
*) opts="${opts:+$opts }parallel=$(nproc)" ;;
esac
log=$out/build.log
# Debian's own tools and Python (/usr/bin/python3): a pyenv or virtualenv
# interpreter first on PATH would otherwise build the Python package
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
unset PYTHONPATH PYTHONHOME VIRTUAL_ENV PKG_CONFIG_PATH
echo "package: building ftscope $version in $tree (DEB_BUILD_OPTIONS='$opts')"
start=$(date +%s)
if ! (cd "$tree" && DEB_BUILD_OPTIONS=$opts dpkg-buildpackage -us -uc -b) > "$log" 2>&1; then
	tail -40 "$log"
	echo "package: dpkg-buildpackage failed; the log is $log, the tree $tree" >&2
	exit 1
fi
echo "package: built in $(($(date +%s) - start)) s"
mv "$out"/src/*.deb "$out"/src/*.changes "$out"/src/*.buildinfo "$out"/
rm -rf "$out/src"
changes=$(ls "$out"/ftscope_"$version"_*.changes)
if [ $lint = 1 ]; then
	command -v lintian > /dev/null || { echo "package: lintian not found" >&2; exit 1; }
	# warnings are printed and kept (see debian/README.packaging); errors fail
	lintian --fail-on error --suppress-tags-from-file /dev/null "$changes" | tee "$out/lintian.log" ||
		{ echo "package: lintian reports errors (above)" >&2; exit 1; }
fi
# the debug symbols apart, so that "apt-get install ./*.deb" takes the four packages
mkdir -p "$out/dbgsym"
rm -f "$out"/dbgsym/*.deb
mv "$out"/*-dbgsym_*.deb "$out/dbgsym/" 2> /dev/null || true
(cd "$out" && ls -1 ./*.deb)
echo "$out"
