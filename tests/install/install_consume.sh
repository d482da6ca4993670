#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install ftscope into a staging prefix and consume it as another project would.
source "$(dirname "$0")/../contract/lib.sh"
BUILD=${FTS_BUILD_DIR:?}
STAGE=$WORK/stage
for tool in pkg-config cc cmake nm; do
	command -v $tool > /dev/null || { echo "skip: no $tool"; exit 77; }
done

expect_ok "cmake --install into a staging prefix" cmake --install "$BUILD" --prefix "$STAGE"
pc=$(find "$STAGE" -name ftscope.pc | head -1)
so=$(find "$STAGE" -name 'libftscope.so.0' | head -1)
[ -n "$pc" ] && pass "ftscope.pc installed ($pc)" || bad "no ftscope.pc under $STAGE"
[ -n "$so" ] && pass "libftscope.so.0 installed" || { bad "no libftscope.so.0 under $STAGE"; finish; exit; }
libdir=$(dirname "$so")
soname=$(objdump -p "$so" | awk '$1 == "SONAME" { print $2 }')
[ "$soname" = libftscope.so.0 ] && pass "SONAME libftscope.so.0" || bad "SONAME is '$soname'"

# Exported: exactly the functions the public headers mark FTS_API.
nm -D --defined-only "$so" | awk '$2 == "T" { print $3 }' | sort > "$WORK/exported"
sed -n 's/.*FTS_API[^(]*[ *]\(fts_[a-z0-9_]*\) *(.*/\1/p' "$SRC"/include/ftscope/*.h | sort -u > "$WORK/declared"
if [ -s "$WORK/exported" ] && cmp -s "$WORK/exported" "$WORK/declared"; then
	pass "exported symbols = FTS_API declarations ($(wc -l < "$WORK/exported"))"
else
	bad "exported symbols differ from the FTS_API declarations (< exported, > declared)"
	diff "$WORK/exported" "$WORK/declared" | head -20
fi
nm -D --defined-only "$so" | awk '{ print $3 }' | grep -Ev '^fts_[a-z]' > "$WORK/foreign"
[ ! -s "$WORK/foreign" ] && pass "no internal symbol exported" ||
	{ bad "internal symbols exported: $(head -5 "$WORK/foreign" | tr '\n' ' ')"; }

# pkg-config
export PKG_CONFIG_PATH=$(dirname "$pc")
[ "$(pkg-config --variable=includedir ftscope)" -ef "$STAGE/include" ] &&
	pass "pkg-config includedir is the staged include/" || bad "includedir $(pkg-config --variable=includedir ftscope)"
extra=()
extra=("$SRC"/examples/*.c)  # the C examples use the public API only
for c in "$SRC/tests/install/consumer/version_check.c" "${extra[@]}"; do
	name=$(basename "$c" .c)
	# shellcheck disable=SC2046
	if cc -std=c11 -Wall -Wextra -Werror -o "$WORK/pc_$name" "$c" $(pkg-config --cflags --libs ftscope) \
		-Wl,-rpath,"$libdir" 2> "$WORK/cc.err"; then
		pass "pkg-config build of $name"
	else
		bad "pkg-config build of $name"; cat "$WORK/cc.err"
	fi
done
out=$("$WORK/pc_version_check" 2>&1) && pass "pkg-config program runs on the staged library ($out)" ||
	bad "pkg-config program: $out"

# find_package(ftscope)
if cmake -S "$SRC/tests/install/consumer" -B "$WORK/cm" -DCMAKE_PREFIX_PATH="$STAGE" \
	-DCMAKE_BUILD_RPATH="$libdir" "-DFTS_EXTRA_SOURCES=$(IFS=';'; echo "${extra[*]}")" > "$WORK/cm.log" 2>&1 &&
	cmake --build "$WORK/cm" >> "$WORK/cm.log" 2>&1; then
	pass "find_package(ftscope) build"
else
	bad "find_package(ftscope) build"; tail -30 "$WORK/cm.log"
fi
out=$("$WORK/cm/version_check" 2>&1) && pass "find_package program runs ($out)" || bad "find_package program: $out"
ldd "$WORK/cm/version_check" | grep -q "$libdir/libftscope.so.0" &&
	pass "it loads the staged libftscope.so.0" || { bad "not linked to the staged library"; ldd "$WORK/cm/version_check"; }

# ftscope.pc for a Debian package: prefix /usr, multiarch libdir. Configure
# only; place the generated file where it would be installed and ask pkg-config.
if cmake -S "$SRC" -B "$WORK/usr" -DCMAKE_INSTALL_PREFIX=/usr -DBUILD_TESTING=OFF -DFTS_TUI=OFF \
	> "$WORK/usr.log" 2>&1; then
	ml=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$WORK/usr/CMakeCache.txt")
	fake=$WORK/fakeroot/usr
	mkdir -p "$fake/$ml/pkgconfig" "$fake/include"
	cp "$WORK/usr/ftscope.pc" "$fake/$ml/pkgconfig/"
	got_inc=$(PKG_CONFIG_PATH=$fake/$ml/pkgconfig pkg-config --variable=includedir ftscope)
	got_lib=$(PKG_CONFIG_PATH=$fake/$ml/pkgconfig pkg-config --variable=libdir ftscope)
	if [ "$got_inc" -ef "$fake/include" ] && [ "$(cd "$got_lib" && pwd -P)" = "$(cd "$fake/$ml" && pwd -P)" ]; then
		pass "ftscope.pc with prefix /usr, libdir $ml: -I<prefix>/include, -L<prefix>/$ml"
	else
		bad "ftscope.pc with prefix /usr, libdir $ml: includedir $got_inc libdir $got_lib"
	fi
else
	bad "configure with prefix /usr"; tail -20 "$WORK/usr.log"
fi
finish
