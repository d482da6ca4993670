#!/bin/bash
# SPDX-License-Identifier: MIT
# Bad input gives one clear line and a non-zero exit, and leaves nothing behind.
source "$(dirname "$0")/lib.sh" "$@"
before=$(state)
expect() { # expect "pattern" args...
	pat=$1; shift
	"$FTS" record "$@" >out 2>err && fail "record $* succeeded"
	grep -q "$pat" err || { cat err; fail "record $*: no '$pat' in the error"; }
}
expect 'not online' --cpu 4000 --record_time 1
expect 'descending' --cpu 3-1 --record_time 1
expect 'bad CPU list' --cpu=-1 --record_time 1
expect 'no events' --sched 0 --irq 0 --record_time 1
expect 'bf_size' --bf_size abc
expect 'backend' --backend nope
expect 'unknown option' --bogus
ln -s /etc/passwd evil.dat
"$FTS" record --record_time 1 --output evil.dat -q 2>err && fail "wrote through a symlink"
grep -q 'symbolic link' err || { cat err; fail "unclear symlink error"; }
grep -q root /etc/passwd || fail "symlink target damaged"
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$FTS" record --record_time 1 --output /tmp/x.dat 2>err && fail "ran as nobody"
	grep -q 'root' err || { cat err; fail "unclear not-root error"; }
fi
# trace-cmd cannot record on some kernels: one line, and auto uses the native backend.
"$FTS" record --backend trace-cmd --record_time 1 --output tc.dat -q 2>err
rc=$?
if [ $rc != 0 ]; then
	[ "$(wc -l < err)" -le 2 ] || { cat err; fail "trace-cmd failure is not one line"; }
	grep -q 'trace-cmd' err || fail "trace-cmd failure does not say so"
	echo "ok: trace-cmd backend unavailable here: $(cat err)"
else
	trace-cmd report -i tc.dat >/dev/null 2>&1 || fail "trace-cmd backend file does not open"
fi
[ "$before" = "$(state)" ] || { diff <(echo "$before") <(state); fail "tracing state changed"; }
ls -A | grep -q '^\.' && fail "temp files left: $(ls -A | grep '^\.')"
echo "ok: errors"
