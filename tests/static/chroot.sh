#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The static ftscope copied alone into an empty root (only /proc, /sys, a few
# /dev nodes and one terminfo entry; no libc, no loader, no shell) and run
# there with chroot: --version, convert of the bundled sample (the same bytes
# as the dynamic build's), preview --print, and a real 2 s record on the
# host's tracefs. readelf shows no NEEDED entry and no interpreter.
#   chroot.sh STATIC_FTSCOPE SRC WORK [DYNAMIC_FTSCOPE]
set -u
BIN=$1 SRC=$2 WORK=$3 REF=${4:-}
fails=0
pass() { echo "ok   $*"; }
bad() { fails=$((fails + 1)); echo "FAIL $*"; }

[ "$(id -u)" = 0 ] || { echo "skip: chroot and mounts need root"; exit 77; }
command -v chroot > /dev/null && command -v readelf > /dev/null ||
	{ echo "skip: chroot or readelf missing"; exit 77; }

rm -rf "$WORK"
R=$WORK/root
mkdir -p "$R"/{proc,sys,dev,tmp,data} "$R/usr/share/terminfo/x"
cleanup() {
	umount -R "$R/sys" 2> /dev/null
	umount "$R/proc" 2> /dev/null
}
trap cleanup EXIT

if readelf -d "$BIN" | grep -q NEEDED || readelf -l "$BIN" | grep -q 'program interpreter'; then
	bad "readelf: the binary needs shared libraries: $(readelf -d "$BIN" | grep NEEDED | tr -s ' ' | tr '\n' ';')"
else
	pass "readelf: no NEEDED entry, no interpreter"
fi

cp "$BIN" "$R/ftscope"
cp "$SRC/assets/sample/sample.dat" "$R/data/"
cp -a /dev/null /dev/zero /dev/urandom "$R/dev/"
for ti in /etc/terminfo /lib/terminfo /usr/share/terminfo; do
	[ -e "$ti/x/xterm-256color" ] && { cp "$ti/x/xterm-256color" "$R/usr/share/terminfo/x/"; break; }
done
# glibc's C.UTF-8 is files, not built in: the one locale of the root, as a host would have it
[ -d /usr/lib/locale/C.utf8 ] && mkdir -p "$R/usr/lib/locale" && cp -r /usr/lib/locale/C.utf8 "$R/usr/lib/locale/"
mount -t proc proc "$R/proc" || { echo "skip: cannot mount proc"; exit 77; }
# recursive, so tracefs under /sys/kernel/tracing comes along; slave, so nothing propagates back
mount --rbind /sys "$R/sys" && mount --make-rslave "$R/sys" || { echo "skip: cannot bind /sys"; exit 77; }
CHROOT=$(command -v chroot)
# en_US.UTF-8 is not in the root: the static build falls back to C.UTF-8 (tui/widgets/locale.c)
run() { env -i TERM=xterm-256color LANG=en_US.UTF-8 PATH=/ "$CHROOT" "$R" /ftscope "$@"; }

out=$(run --version 2>&1)
[[ "$out" == *"build: static"* ]] && pass "--version: $(echo "$out" | sed -n 2p)" || bad "--version: $out"

if run convert -q -i /data/sample.dat -o /data/sample.json > "$WORK/conv.log" 2>&1 &&
	run convert -q -i /data/sample.dat -o /data/ftrace_data.db >> "$WORK/conv.log" 2>&1; then
	pass "convert of the bundled sample (JSON and DB) in the empty root"
else
	bad "convert: $(cat "$WORK/conv.log")"
fi
if [ -n "$REF" ] && [ -x "$REF" ]; then
	"$REF" convert -q -i "$SRC/assets/sample/sample.dat" -o "$WORK/ref.json" &&
		"$REF" convert -q -i "$SRC/assets/sample/sample.dat" -o "$WORK/ftrace_data.db" ||
		bad "the dynamic build could not convert the sample"
	cmp -s "$WORK/ref.json" "$R/data/sample.json" && pass "JSON byte-identical to the dynamic build's" ||
		bad "JSON differs from the dynamic build's"
	if command -v sqlite3 > /dev/null; then
		[ "$(sqlite3 "$WORK/ftrace_data.db" .dump)" = "$(sqlite3 "$R/data/ftrace_data.db" .dump)" ] &&
			pass "DB content identical to the dynamic build's" || bad "DB differs from the dynamic build's"
	fi
	# the same relative name as inside (the title shows it): chroot starts in /
	(cd "$R" && LANG=C.UTF-8 "$REF" preview data/sample.dat --no_cache --print 120x30) > "$WORK/ref.screen" 2>&1
else
	echo "note: no dynamic ftscope given: the byte comparisons are skipped"
fi

if run preview data/sample.dat --no_cache --print 120x30 > "$WORK/screen" 2>&1 && [ -s "$WORK/screen" ]; then
	pass "preview --print"
	if [ -s "$WORK/ref.screen" ]; then
		cmp -s "$WORK/ref.screen" "$WORK/screen" && pass "the printed screen is the dynamic build's" ||
			bad "the printed screen differs: $(diff "$WORK/ref.screen" "$WORK/screen" | head -5)"
	fi
else
	bad "preview --print: $(head -3 "$WORK/screen")"
fi

# The TUI with no terminfo entry in the root at all: the built-in one
# (tui/term/ti_fallback.c) must give it a screen (smcup, 256 colours), 'q'
# ends it, and its private terminfo directory is gone afterwards.
if command -v script > /dev/null; then
	mv "$R/usr/share/terminfo" "$WORK/terminfo.away"
	(sleep 2; printf q) | timeout 30 script -qec "env -i TERM=xterm-256color LANG=C.UTF-8 $CHROOT $R /ftscope preview data/sample.dat --no_cache" /dev/null > "$WORK/tui.out" 2>&1
	rc=$?
	mv "$WORK/terminfo.away" "$R/usr/share/terminfo"
	if [ "$rc" = 0 ] && grep -q $'\e\[?1049h' "$WORK/tui.out" && grep -q '38;5;' "$WORK/tui.out" &&
		[ -z "$(ls -A "$R/tmp")" ]; then
		pass "TUI without any terminfo in the root: the built-in xterm-256color, cleaned up after"
	else
		bad "TUI without terminfo (exit $rc): $(tr -cd '[:print:]\n' < "$WORK/tui.out" | head -3)"
	fi
fi

if [ -d /sys/kernel/tracing/events ] || [ -d /sys/kernel/debug/tracing/events ]; then
	if python3 "$SRC/scripts/tracefs_lock.py" env -i PATH=/ "$CHROOT" "$R" /ftscope record -q -t 2 \
		-o /data/rec.dat > "$WORK/rec.log" 2>&1 &&
		run convert -i /data/rec.dat -o /data/rec.json > "$WORK/rec-conv.log" 2>&1; then
		ev=$(grep -o '[0-9.]*k\? events' "$WORK/rec.log" | head -1)
		grep -q '"ph"' "$R/data/rec.json" && pass "a 2 s record in the empty root ($ev), converted there" ||
			bad "the recording converted to no events"
	else
		bad "record: $(cat "$WORK/rec.log" "$WORK/rec-conv.log" 2> /dev/null | tail -5)"
	fi
else
	echo "note: no tracefs here: the record step is skipped"
fi

echo "$fails failure(s)"
[ "$fails" = 0 ]
