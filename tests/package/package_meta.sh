#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# debian/ agrees with the sources: one version everywhere, the symbols file
# lists exactly the FTS_API functions, every build dependency is in
# scripts/deps.sh (what CI installs). No root, no packaging tools needed.
source "$(dirname "$0")/../contract/lib.sh"
ver() { sed -n "s/^#define FTS_VERSION_$1 \([0-9]*\)$/\1/p" "$SRC/include/ftscope/version.h"; }
version=$(ver MAJOR).$(ver MINOR).$(ver PATCH)
deb=$(sed -n '1s/^ftscope (\([^)]*\)).*/\1/p' "$SRC/debian/changelog")
py=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$SRC/python/pyproject.toml")
[ "$deb" = "$version" ] && pass "debian/changelog is at $version (include/ftscope/version.h)" ||
	bad "debian/changelog says '$deb', include/ftscope/version.h $version"
[ "$py" = "$version" ] && pass "python/pyproject.toml is at $version" ||
	bad "python/pyproject.toml says '$py', include/ftscope/version.h $version"
want=$(sed -n 's/^find_package(ftscope \([0-9.]*\) .*/\1/p' "$SRC/tests/install/consumer/CMakeLists.txt")
[ "$want" = "$(ver MAJOR).$(ver MINOR)" ] && pass "the example consumer asks find_package for $want (this minor)" ||
	bad "tests/install/consumer asks find_package(ftscope '$want'), the version is $version (0.x: a minor breaks the ABI)"
soname=$(sed -n '1s/^\(libftscope\.so\.[0-9]*\) \(libftscope[0-9]*\) .*/\1 \2/p' "$SRC/debian/libftscope0.symbols")
[ "$soname" = "libftscope.so.$(ver MAJOR) libftscope$(ver MAJOR)" ] && [ -f "$SRC/debian/libftscope$(ver MAJOR).install" ] &&
	grep -qx "Package: libftscope$(ver MAJOR)" "$SRC/debian/control" &&
	pass "the library package is named after the SONAME ($soname)" || bad "SONAME vs package name: '$soname'"
expect_ok "debian/libftscope0.symbols = the FTS_API declarations (debian/symbols.sh --check)" \
	bash "$SRC/debian/symbols.sh" --check

# Build-Depends names (versions, arch qualifiers and build profiles dropped)
sed -n '/^Build-Depends:/,/^[A-Z]/p' "$SRC/debian/control" | sed '1s/^Build-Depends://; /^[A-Z]/d' |
	tr ',' '\n' | sed 's/[(<\[].*//; s/:.*//; s/[[:space:]]//g' | grep -v '^$' | sort -u > "$WORK/bdeps"
bash -c 'source <(sed -n "/^PKGS=(/,/^)/p; /^EXTRA=(/,/^)/p" "$1"); printf "%s\n" "${PKGS[@]}" "${EXTRA[@]}"' _ \
	"$SRC/scripts/deps.sh" | sort -u > "$WORK/deps"
missing=$(comm -23 "$WORK/bdeps" "$WORK/deps" | grep -v '^debhelper-compat$' | tr '\n' ' ')
[ -z "$missing" ] && pass "every Build-Depends is in scripts/deps.sh ($(wc -l < "$WORK/bdeps"))" ||
	bad "Build-Depends missing from scripts/deps.sh: $missing"
# the completion file is installed for bash-completion to load (issue 33): ftscope recommends it
if [ -f "$SRC/completion/ftscope.bash" ]; then
	sed -n '/^Package: ftscope$/,/^$/p' "$SRC/debian/control" | grep -Eq '^Recommends:.*\bbash-completion\b' &&
		pass "the ftscope package recommends bash-completion (it ships completion/ftscope.bash)" ||
		bad "the ftscope package ships a bash completion but does not recommend bash-completion"
fi
finish
