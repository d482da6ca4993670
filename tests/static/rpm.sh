#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The RPM of the static build (scripts/rpm.sh, rpm/ftscope.spec): `rpm -qpl`
# lists the binary, every man page and the completion, it requires no
# library, and `rpm -i --nodeps --root` into an empty root gives a binary that
# runs there with chroot (--version, a conversion of the bundled sample).
#   rpm.sh STATIC_BUILD_DIR SRC WORK
set -u
BDIR=$1 SRC=$2 WORK=$3
fails=0
pass() { echo "ok   $*"; }
bad() { fails=$((fails + 1)); echo "FAIL $*"; }
[ "$(id -u)" = 0 ] || { echo "skip: rpm -i --root and chroot need root"; exit 77; }
command -v rpmbuild > /dev/null || { echo "skip: rpmbuild missing (apt-get install rpm)"; exit 77; }
rm -rf "$WORK"
mkdir -p "$WORK/out" "$WORK/root"
bash "$SRC/scripts/rpm.sh" "$BDIR" "$WORK/out" > "$WORK/build.log" 2>&1 ||
	{ cat "$WORK/build.log"; echo "FAIL scripts/rpm.sh"; exit 1; }
pkg=$(ls "$WORK"/out/ftscope-*.rpm)
rpm -qpl "$pkg" > "$WORK/list"
want=(/usr/bin/ftscope /usr/share/bash-completion/completions/ftscope /usr/share/man/man1/ftscope.1)
for scd in "$SRC"/docs/man/*.scd; do
	want+=("/usr/share/man/man1/$(basename "$scd" .scd)")
done
missing=0
for f in "${want[@]}"; do
	grep -qx -- "$f" "$WORK/list" || { bad "rpm -qpl: $f missing"; missing=1; }
done
[ "$missing" = 0 ] && pass "rpm -qpl: the binary, $(grep -c man1 "$WORK/list") man pages, the completion"
if rpm -qpR "$pkg" | grep -qv '^rpmlib('; then
	bad "the package requires more than rpm itself: $(rpm -qpR "$pkg" | grep -v '^rpmlib(' | tr '\n' ' ')"
else
	pass "no Requires beyond rpmlib features"
fi
rpm -qp --qf '%{PAYLOADCOMPRESSOR}\n' "$pkg" | grep -qx xz && pass "xz payload (rpm 4.11 reads it)" ||
	bad "payload compressor: $(rpm -qp --qf '%{PAYLOADCOMPRESSOR}' "$pkg")"
R=$WORK/root
if rpm --root "$R" --initdb && rpm -i --nodeps --root "$R" "$pkg" > "$WORK/install.log" 2>&1; then
	pass "rpm -i --nodeps --root into an empty root"
else
	bad "rpm -i: $(cat "$WORK/install.log")"
fi
mkdir -p "$R/data" "$R/proc" "$R/dev"
cp "$SRC/assets/sample/sample.dat" "$R/data/"
cp -a /dev/null "$R/dev/"
mount -t proc proc "$R/proc" || { echo "skip: cannot mount proc"; exit 77; }
trap 'umount "$R/proc" 2> /dev/null' EXIT
CHROOT=$(command -v chroot)
out=$(env -i PATH=/usr/bin "$CHROOT" "$R" /usr/bin/ftscope --version 2>&1)
[[ "$out" == *"build: static"* ]] && pass "the installed binary runs in the root: $(echo "$out" | head -1)" ||
	bad "--version in the root: $out"
env -i PATH=/usr/bin "$CHROOT" "$R" /usr/bin/ftscope convert -q -i /data/sample.dat -o /data/ftrace_data.db \
	> "$WORK/conv.log" 2>&1 && pass "convert of the sample in the root" || bad "convert: $(cat "$WORK/conv.log")"
echo "$fails failure(s)"
[ "$fails" = 0 ]
