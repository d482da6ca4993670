#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cmake --install puts the man pages in <prefix>/share/man/man1 and the
# completion in <prefix>/share/bash-completion/completions/ftscope (the paths
# debian/ packages); the pages render without a roff warning, and the
# installed completion loads in a clean bash.
source "$(dirname "$0")/../contract/lib.sh"
BUILD=${FTS_BUILD_DIR:?}
STAGE=$WORK/stage

expect_ok "cmake --install into a staging prefix" cmake --install "$BUILD" --prefix "$STAGE"
comp=$STAGE/share/bash-completion/completions/ftscope
if [ -f "$comp" ]; then pass "completion at share/bash-completion/completions/ftscope"; else bad "no $comp"; fi
if bash --norc --noprofile -c "source '$comp' && complete -p ftscope" > "$WORK/complete.out" 2>&1 &&
	grep -q -- '-F _ftscope ftscope' "$WORK/complete.out"; then
	pass "the installed completion registers _ftscope"
else
	bad "the installed completion: $(cat "$WORK/complete.out")"
fi

if [ -z "${FTS_SCDOC:-}" ] || [[ $FTS_SCDOC == *NOTFOUND ]]; then
	echo "skip: built without scdoc, so without man pages"
	finish
	exit
fi
for src in "$SRC"/docs/man/*.1.scd; do
	page=$(basename "$src" .scd)
	man1=$STAGE/share/man/man1/$page
	if [ ! -f "$man1" ]; then
		bad "$page not installed in share/man/man1"
		continue
	fi
	# -ww: every warning; -k: the UTF-8 glyphs (the preview's lane symbols)
	if groff -k -man -Tutf8 -ww -z "$man1" > "$WORK/groff.out" 2>&1 && [ ! -s "$WORK/groff.out" ]; then
		pass "$page installed, renders without a warning"
	else
		bad "$page: groff says: $(head -3 "$WORK/groff.out")"
	fi
done
# what the user types
if command -v man > /dev/null; then
	if MANPATH=$STAGE/share/man MANWIDTH=80 man -P cat ftscope-record 2> "$WORK/man.err" | grep -q -- '--record_time SECS'; then
		pass "man ftscope-record finds the installed page"
	else
		bad "man ftscope-record: $(head -3 "$WORK/man.err")"
	fi
fi
finish
