#!/bin/bash
# SPDX-License-Identifier: MIT
# `ftscope record --list-events [GROUP...]`: the event table of event.h as
# "system/event" lines, per recorder group, in table order; the capture
# scripts' event set is that list. Needs neither root nor tracefs.
FTS=$1
SRC=$2
WORK=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
# The table as the header spells it: X(KIND, group, "system", "event", ...)
table=$(sed -n 's/^[[:space:]]*X([A-Z_]*, *\([a-z]*\), *"\([a-z_]*\)", *"\([a-z_]*\)".*/\1 \2\/\3/p' \
	"$SRC/include/ftscope/event.h")
[ "$(wc -l <<<"$table")" -ge 16 ] || fail "could not read the table from event.h: $table"
want() { awk -v g="$1" '$1 == g { print $2 }' <<<"$table"; }
out=$("$FTS" record --list-events) || fail "--list-events failed"
[ "$out" = "$(want sched; want irq)" ] || fail "default list is not sched then irq: $out"
out=$("$FTS" record --list-events futex) || fail "--list-events futex failed"
[ "$out" = "$(want futex)" ] || fail "futex list: $out"
[ "$out" = "$(printf 'syscalls/sys_enter_futex\nsyscalls/sys_exit_futex')" ] || fail "futex events: $out"
# table order, each event once, whatever order the groups come in
[ "$("$FTS" record --list-events irq sched irq)" = "$(want sched; want irq)" ] ||
	fail "groups given out of order or twice change the list"
out=$("$FTS" record --list-events nosuch 2>err); rc=$?
[ $rc = 2 ] || fail "an unknown group exits $rc, not 2"
[ -z "$out" ] || fail "an unknown group printed: $out"
grep -q "no event group 'nosuch'" err || fail "no message for an unknown group: $(cat err)"
# the capture scripts take their event set from the binary
evs=$(FTSCOPE="$FTS" bash -c "source '$SRC/scripts/capture_lib.sh' && echo \$FTS_EVENTS")
[ "$evs" = "$(echo $(want sched; want irq))" ] || fail "capture_lib.sh's events differ: $evs"
# a broken binary stops the script before it enables anything
out=$(FTSCOPE=/nonexistent bash -c "source '$SRC/scripts/capture_lib.sh'; echo sourced" 2>&1) &&
	fail "capture_lib.sh went on without an event list: $out"
grep -q 'list-events failed' <<<"$out" || fail "no message without a binary: $out"
echo "ok: --list-events matches event.h ($(wc -l <<<"$table") events)"
