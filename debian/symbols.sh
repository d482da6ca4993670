#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# debian/libftscope0.symbols from the public headers: every function marked
# FTS_API is an exported symbol (the shared library is built with hidden
# visibility). A symbol already listed keeps the version it appeared in (raised
# to this minor's x.y.0 when older: a 0.x minor breaks the ABI); a new one gets
# the version in include/ftscope/version.h.
#   debian/symbols.sh          rewrite the file
#   debian/symbols.sh --check  exit 1 (and show the difference) if it is stale
# The build itself (DPKG_GENSYMBOLS_CHECK_LEVEL=4 in debian/rules) then fails
# when the library exports anything else.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
file=$top/debian/libftscope0.symbols
ver() { sed -n "s/^#define FTS_VERSION_$1 \([0-9]*\)$/\1/p" "$top/include/ftscope/version.h"; }
version=$(ver MAJOR).$(ver MINOR).$(ver PATCH)
major=$(ver MAJOR)
# 0.x: a minor release may break the ABI under the same SONAME (the CMake
# package says SameMinorVersion), so a program built now also needs a
# library older than the next minor.
next_minor=$(ver MAJOR).$(($(ver MINOR) + 1))
declared=$(sed -n 's/.*FTS_API[^(]*[ *]\(fts_[a-z0-9_]*\) *(.*/\1/p' "$top"/include/ftscope/*.h | sort -u)
[ -n "$declared" ] || { echo "symbols.sh: no FTS_API declaration found under include/ftscope" >&2; exit 1; }
new=$(mktemp)
trap 'rm -f "$new"' EXIT
{
	echo "libftscope.so.$major libftscope0 #MINVER#, libftscope0 (<< $next_minor~)"
	echo "* Build-Depends-Package: libftscope-dev"
	# keep the version a listed symbol already has, unless it is from an
	# older minor: 0.x minors break the ABI, so no symbol may say a library
	# of an older minor will do (a program built now would get that library)
	echo "$declared" | awk -v v="$version" -v floor="$(ver MAJOR).$(ver MINOR).0" '
		function older(a, b,   x, y, i) {
			split(a, x, "."); split(b, y, ".")
			for (i = 1; i <= 3; i++) if (x[i] + 0 != y[i] + 0) return x[i] + 0 < y[i] + 0
			return 0
		}
		FILENAME != "-" { if (/^ fts_/) { split($1, s, "@"); seen[s[1]] = $2 } next }
		{ w = $1 in seen ? seen[$1] : v; if (older(w, floor)) w = floor; print " " $1 "@Base " w }' \
		"$( [ -f "$file" ] && echo "$file" || echo /dev/null )" -
} > "$new"
if [ "${1:-}" = --check ]; then
	if ! diff -u "$file" "$new"; then
		echo "symbols.sh: debian/libftscope0.symbols is stale: run debian/symbols.sh" >&2
		exit 1
	fi
	exit 0
fi
cp "$new" "$file"
echo "wrote $file ($(echo "$declared" | wc -l) symbols, version $version)"
