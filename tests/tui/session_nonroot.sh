#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 8: without root the home screen still opens (preview and export
# work) and the record action says why it cannot; no terminal -> usage, exit 2.
source "$(dirname "$0")/lib_session.sh" "$@"
"$FTS" < /dev/null > out 2> err; rc=$?
[ $rc = 2 ] && grep -q "usage: ftscope" err || fail "no terminal: exit $rc, want 2 with the usage"
ok "not a terminal: usage, exit 2"
cp "$SRC/assets/sample/sample.dat" trace.dat
chmod 755 "$WORK"; chmod 644 trace.dat
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null || skip "setpriv is not installed (util-linux)"
	# the unprivileged user must reach the binary and the work directory
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$FTS" ||
		skip "user nobody cannot run $FTS (a parent directory is not world-searchable)"
	chmod 777 "$WORK"
	as="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
	as=""
fi
start 100 30 "$as $FTS tui"
wait_for "ftscope . home"
wait_for "Recording: unavailable - .*root"
wait_for " trace.dat"
keys r
wait_for "cannot record: .*root"
screen | grep -q "ftscope . setup" && fail "setup opened without root"
ok "non-root: home opens, record says: $(screen | grep 'cannot record' | sed 's/^ *//')"
at80 "home (non-root)" "Recording: unavailable"
keys Enter
wait_for "ftscope preview +trace.dat" 20
wait_for "CPU Scheduling" 20
ok "non-root: the preview opens"
keys q; wait_for "ftscope . home"
keys q
[ "$(wait_exit)" = EXIT=0 ] || fail "exit status $(cat exit.status), want 0"
terminal_restored

# record --tui without root: the setup opens, says why, and neither probes nor records
rm -f exit.status
start 100 30 "$as $FTS record --tui --cpu 0"
wait_for "ftscope . setup"
wait_for "recording needs root"
keys p; wait_for "cannot probe: .*root"
keys r; wait_for "cannot record: .*root"
screen | grep -q "REC" && fail "recording started without root"
[ -e trace.dat.tmp ] && fail "a temporary output was left"
ok "non-root record --tui: setup says why, r and p refuse"
keys q; wait_for "ftscope . home"
keys q
[ "$(wait_exit)" = EXIT=0 ] || fail "exit status $(cat exit.status), want 0"
terminal_restored
echo "PASS"
