#!/bin/bash
# SPDX-License-Identifier: MIT
# The live top (--live_top): under load the status shows the tasks waiting
# and running most and the worst wakeup latency, decoded from the streamed
# pages at a small CPU cost; task names (attacker-controlled) reach the
# terminal escaped; the capture itself is complete.
source "$(dirname "$0")/lib.sh" "$@"
command -v python3 >/dev/null || skip "python3 not installed (names a task)"
load 12
# A busy task whose name carries an escape sequence, on the recorded CPU.
taskset -c 0 python3 -c '
import ctypes, time
ctypes.CDLL(None).prctl(15, b"\x1b[31mevil", 0, 0, 0)
end = time.time() + 10
while time.time() < end: pass' &
evil=$!
LOAD_PIDS="$LOAD_PIDS $evil"
sleep 0.5
"$FTS" record --cpu 0 --record_time 6 --live_top --output t.dat 2>log </dev/null || { cat log; fail "record --live_top failed"; }
kill $evil 2>/dev/null
grep -q '^  top runnable: .*([0-9]*) [0-9.]*s' log || { cat log; fail "no Runnable top"; }
grep -q '^  top cpu: .*([0-9]*) [0-9.]*s' log || { cat log; fail "no CPU top"; }
grep -q '^  worst wakeup: .*([0-9]*) [0-9.]* ms' log || { cat log; fail "no worst wakeup latency"; }
LC_ALL=C grep -q $'\x1b' log && fail "a raw escape byte reached the output"
grep -q 'evil' log && { grep -q '\\x1b\[31mevil' log || fail "the hostile name is not escaped"; echo "ok: hostile task name shown escaped"; }
line=$(grep '^live top: decoded' log) || { cat log; fail "no live top summary"; }
n=$(sed 's/.*decoded \([0-9]*\) events.*/\1/' <<<"$line")
pct=$(sed 's/.*(\([0-9.]*\)% of one core).*/\1/' <<<"$line")
[ "$n" -gt 1000 ] || fail "the live top decoded only $n events"
# The top decodes and counts every event as `ftscope stats` does (about 2.5%
# of a core at this load); a sanitized build runs that code 2-3x slower.
limit=5
ldd "$REAL_FTS" 2>/dev/null | grep -q 'libasan\|libtsan' && limit=15
awk -v p="$pct" -v l="$limit" 'BEGIN { exit !(p < l) }' || fail "the live top cost $pct% of a core (limit $limit%)"
trace-cmd report -i t.dat 2>/dev/null | grep -c 'ftscope_clock' | grep -qx 2 || fail "the capture lost its clock markers"
echo "ok: live top ($line)"
# The live top's last figures are what `ftscope stats --window` says of the
# capture: the same pages replayed through the top's engine (fts_top_replay)
# give the live ranking, and agree with stats over the window they report.
REPLAY=$(dirname "$WORK")/fts_top_replay
if [ -x "$REPLAY" ] && ! grep -q 'skipped pages' log; then
	"$REPLAY" t.dat 5 > top.txt || fail "replaying t.dat through the top's engine failed"
	live=$(grep '^  top runnable:' log | tail -1 | sed 's/^  top runnable://')
	want=$(awk '$1 == "runnable" && n++ < 3 { printf " (%d) %.2fs", $2, $3 / 1e9 }' top.txt)
	got=$(sed 's/ [^ ]*(\([0-9]*\)) \([0-9.]*s\)/ (\1) \2/g' <<<"$live")
	[ "$got" = "$want" ] || fail "the live top's last ranking ($got) is not its replay's ($want)"
	read -r _ a _ < <(grep '^window ' top.txt)
	"$FTS" stats t.dat --window "${a}ns.." --format json --top 0 > stats.json || fail "stats --window failed"
	python3 "$SRC/tests/record/top_compare.py" top.txt stats.json || fail "the live top disagrees with ftscope stats"
	echo "ok: the live top's last figures are ftscope stats --window ${a}ns.. of the capture"
fi
grep -A3 'top runnable' log | tail -4
