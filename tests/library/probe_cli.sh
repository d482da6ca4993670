#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The trace.dat probe's helper belongs to the CLI: "ftscope __probe-dat FILE",
# not in help; the library no longer answers FTSCOPE_DAT_PROBE before main
# (that constructor let an environment variable take over any program).
# A library message names no flag; the CLI adds it.
. "$2/tests/contract/lib.sh"
D=$SRC/tests/data

"$FTSCOPE" help > "$WORK/help.out" 2>&1
grep -q "probe-dat" "$WORK/help.out" && bad "helper listed in help" || pass "helper not in help"
env FTSCOPE_DAT_PROBE="$D/dat/small.dat" "$FTSCOPE" version > "$WORK/v.out" 2>&1 &&
	grep -q "^ftscope " "$WORK/v.out" && pass "FTSCOPE_DAT_PROBE takes nothing over" ||
	bad "FTSCOPE_DAT_PROBE changed how the program starts"
"$FTSCOPE" __probe-dat > /dev/null 2>&1
[ $? -eq 2 ] && pass "helper without a file: usage" || bad "helper without a file"
# fd 3 is the answer pipe: the byte comes only after a clean open
"$FTSCOPE" __probe-dat "$D/dat/small.dat" 3> "$WORK/answer" 2> "$WORK/err"
[ $? -eq 0 ] && [ "$(cat "$WORK/answer")" = k ] && [ ! -s "$WORK/err" ] &&
	pass "helper answers on fd 3, silently" || bad "helper answer"
"$FTSCOPE" __probe-dat "$D/bad/libtracecmd_crash2.dat" 3> "$WORK/answer2" 2> "$WORK/err2"
rc=$?
[ $rc -ne 0 ] && [ ! -s "$WORK/answer2" ] && pass "helper does not answer for a crashing header ($rc)" ||
	bad "helper answered for a crashing header"
# converting a header that crashes libtracecmd goes through the helper
# ("crashed reading its headers"; an ASan helper exits 1: "truncated or corrupt")
expect_fail "crashing header reported" "trace.dat is corrupt|truncated or corrupt" \
	"$FTSCOPE" convert --input "$D/bad/libtracecmd_crash2.dat" --output "$WORK/ftrace_data.db"
[ ! -e "$WORK/ftrace_data.db" ] && pass "no output" || bad "output left"

finish
