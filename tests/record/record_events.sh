#!/bin/bash
# SPDX-License-Identifier: MIT
# `record --events LIST` (issue 15): groups, one event added, one removed, in
# both backends, checked against what ftscope records and the kernel has;
# `--list-events LIST` prints the same selection.
source "$(dirname "$0")/lib.sh" "$@"
# --list-events takes the same lists
out=$("$FTS" record --list-events sched,-sched:sched_stat_runtime,irq:irq_handler_entry) || fail "--list-events LIST failed"
grep -qx sched/sched_switch <<<"$out" || fail "sched/sched_switch missing: $out"
grep -q sched_stat_runtime <<<"$out" && fail "removed event listed: $out"
[ "$(grep -c '^irq/' <<<"$out")" = 1 ] || fail "one irq event added, got: $out"
[ "$("$FTS" record --list-events sched,-sched_stat_runtime)" = "$("$FTS" record --list-events sched,-sched/sched_stat_runtime)" ] ||
	fail "-event and -system/event differ"
# Bad lists: usage errors (2), a clear message, nothing recorded
bad() { # bad WANT-IN-MESSAGE ARGS...
	local want=$1; shift
	rm -f bad.dat
	"$FTS" record --record_time 1 --output bad.dat "$@" 2>err; rc=$?
	[ $rc = 2 ] || { cat err; fail "'$*' exits $rc, not 2"; }
	grep -q -- "$want" err || { cat err; fail "'$*': no '$want' in the message"; }
	[ ! -e bad.dat ] || fail "'$*' left an output"
}
bad "no event group 'sched:nosuch'" --events sched,sched:nosuch
bad "no event group 'sched:sched_process_free'" --events sched:sched_process_free
bad "empty entry" --events sched,,irq
bad "selects no events" --events sched,-sched
bad "replaces --sched" --events sched --irq 1
bad "reader_nice takes" --reader_nice 3
# A short native recording without the removed event, with the others
load 6
"$FTS" record --record_time 2 --output ev.dat -q --events sched,irq,-sched:sched_stat_runtime 2>log ||
	{ cat log; fail "record --events failed"; }
trace-cmd report -i ev.dat 2>/dev/null > ev.txt
grep -q ' sched_switch:' ev.txt || fail "no sched_switch recorded"
grep -q ' sched_stat_runtime:' ev.txt && fail "sched_stat_runtime was recorded though removed"
trace-cmd report --events -i ev.dat 2>/dev/null | grep -q 'name: sched_stat_runtime' &&
	fail "sched_stat_runtime's format is in the file though it was not recorded"
echo "ok: native --events left sched_stat_runtime out ($(grep -c ' sched_switch:' ev.txt) switches)"
# Only one event: sched_switch alone
"$FTS" record --record_time 1 --output one.dat -q --events sched:sched_switch 2>log || { cat log; fail "one event failed"; }
others=$(trace-cmd report -i one.dat 2>/dev/null | grep -v ' sched_switch:\| print:\|tracing_mark_write:' | grep -c ': ')
[ "$others" = 0 ] || fail "$others events other than sched_switch recorded"
# The trace-cmd backend gets the same list (a stand-in records its arguments).
mkdir bin
# trace-cmd runs with none of ftscope's environment (the library reads none): its paths are written in
cat > bin/trace-cmd <<SH
#!/bin/bash
[ "\$1" = record ] || exit 1
echo "\$@" > '$PWD/args'
out=
while [ \$# -gt 0 ]; do [ "\$1" = -o ] && out=\$2; shift; done
trap 'cp "$PWD/ev.dat" "\$out"; exit 0' INT
while :; do sleep 0.1; done
SH
chmod +x bin/trace-cmd
PATH=$PWD/bin:$PATH "$FTS" record --backend trace-cmd --record_time 1 \
	--output tc.dat -q --events sched,-sched:sched_stat_runtime 2>log || { cat log; fail "trace-cmd backend failed"; }
grep -q 'sched:sched_switch' args || fail "trace-cmd was not given sched_switch: $(cat args)"
grep -q 'sched_stat_runtime' args && fail "trace-cmd was given the removed event: $(cat args)"
echo "ok: trace-cmd got $(grep -o -- '-e [^ ]*' args | wc -l) events, without sched_stat_runtime"
