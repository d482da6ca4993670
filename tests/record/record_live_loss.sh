#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 15, the recorder's part: loss said through the one loss model.
#  1. A tiny buffer under hackbench: live loss lines are rate-limited (one per
#     5 s at most), in plain words, and the end summary's per-CPU numbers are
#     the CPUSTAT trace-cmd report --stat reads from the file; with --live_top
#     the advice names the event that dominates.
#  2. On a terminal a warning never lands inside the status block: the block
#     is cleared first; at 80 columns the block (live top included) stays in place.
#  3. SIGSTOP for 5 s: the loss is attributed to the stop, with its length.
#  4. Ctrl+Z (SIGTSTP) while recording: ignored, said once, nothing lost at the
#     default buffer, and the capture runs to its end.
#  5. --reader_nice sets the readers' (and the sampler's) nice.
source "$(dirname "$0")/lib.sh" "$@"
command -v hackbench >/dev/null || skip "hackbench is not installed"
bench() { # bench SECONDS: the load of the issue's walk
	setsid timeout "$1" hackbench -l 100000 -g 4 >/dev/null 2>&1 &
	LOAD_PIDS="$LOAD_PIDS $!"
}
# The per-CPU "lost" figures of trace-cmd report --stat: overrun + commit overrun + dropped.
stat_lost() {
	trace-cmd report --stat -i "$1" 2>/dev/null | awk '
		/^overrun:/ { o = $2 } /^commit overrun:/ { c = $3 }
		/^dropped events:/ { print o + c + $3 }'
}
# Ours: the summary's per-CPU lines, "  cpuN  EVENTS events  lost N ...".
our_lost() { sed -n 's/^  cpu[0-9]* *[0-9]* events  lost \([0-9]*\) .*/\1/p' "$1"; }

# 1. tiny buffer: counted lines, plain words, the file's numbers
bench 14
sleep 0.5
# The readers are slowed (20 ms per read) so the loss is sure even on a fast
# machine, where a 16 KB buffer alone may keep up.
FTSCOPE_TEST_READER_DELAY_MS=20 "$FTS" record --record_time 8 --bf_size 16 --live_top --output tiny.dat 2>log </dev/null || { cat log; fail "record failed"; }
n=$(grep -c '^ftscope record: lost ' log)
[ "$n" -ge 1 ] || { cat log; fail "a 16 KB buffer under hackbench lost nothing? no loss line"; }
[ "$n" -le 3 ] || { cat log; fail "$n loss lines in 8 s (at most one per 5 s: 2, 3 with rounding)"; }
grep -q 'LOST\|total_loss_counters' log && { cat log; fail "the old per-sample lines or an internal name are back"; }
grep -q 'try --bf_size [0-9]* (KB per CPU, now 16)' log || { cat log; fail "no buffer size advised"; }
grep -q '^warning: lost [0-9]* events (CPU' log || { cat log; fail "no final warning through the loss model"; }
# the live top decodes the events: the one that dominates is named (hackbench: sched_stat_runtime ~38%)
grep -q '^warning: .*([a-z_]* is [0-9]*% of the events: --events with -[a-z_]* leaves it out)' log ||
	{ cat log; fail "the dominant event is not named"; }
theirs=$(stat_lost tiny.dat | tr '\n' ' ')
ours=$(our_lost log | tr '\n' ' ')
echo "per-CPU loss: ours [$ours] trace-cmd --stat [$theirs]"
[ -n "$theirs" ] && [ "$ours" = "$theirs" ] || { cat log; fail "summary [$ours] != CPUSTAT [$theirs]"; }
[ "$theirs" != "0 0 " ] || fail "no loss in the file to compare"
grep -q '^  the readers waited for a CPU up to [0-9.]* s' log || { cat log; fail "the readers' wait is not measured"; }
echo "ok: $n loss lines in 8 s, summary = CPUSTAT"

# 2. on a terminal: each warning begins by clearing what the status drew
if command -v script >/dev/null; then
	bench 10
	sleep 0.5
	FTSCOPE_TEST_READER_DELAY_MS=20 script -qfec "'$FTS' record --record_time 6 --bf_size 16 --output tty.dat" tty.log >/dev/null 2>&1 ||
		{ cat -v tty.log; fail "record on a terminal failed"; }
	w=$(grep -c 'ftscope record: lost ' tty.log)
	clean=$(grep -c $'\r\033\\[Jftscope record: lost ' tty.log)
	[ "$w" -ge 1 ] || { cat -v tty.log; fail "no loss line on the terminal"; }
	[ "$w" = "$clean" ] || { cat -v tty.log | tail -20; fail "$((w - clean)) of $w warnings written into the status block"; }
	echo "ok: $w warnings on a terminal, each on a cleared line"
fi
# ... and at 80 columns the block, whose top lines are longer than that, stays in place
if command -v tmux >/dev/null; then
	sock=ftsrl-$$
	bench 12
	sleep 0.5
	tmux -L $sock new-session -d -x 80 -y 24 "LANG=C '$FTS' record --record_time 7 --bf_size 32 --live_top --output tm.dat; sleep 30"
	sleep 6
	tmux -L $sock capture-pane -p > pane.txt
	tmux -L $sock kill-server 2>/dev/null
	n=$(grep -c '^  cpu0 ' pane.txt)
	[ "$n" = 1 ] || { cat pane.txt; fail "at 80x24 the status block drifted: $n cpu0 lines on the screen"; }
	echo "ok: at 80x24 the status block with the live top stays in place"
fi

# 3. SIGSTOP for 5 s under load with 256 KB: the loss is the stop's
bench 16
sleep 0.5
"$FTS" record --record_time 11 --bf_size 256 --output stop.dat -q 2>log </dev/null &
rec=$!
sleep 3
kill -STOP $rec
sleep 5
kill -CONT $rec
wait $rec || { cat log; fail "record failed after SIGSTOP/SIGCONT"; }
cat log
line=$(grep -m1 'of them while ftscope was stopped for' log) || fail "no loss attributed to the stop"
s=$(sed -n 's/.*stopped for \([0-9.]*\) s.*/\1/p' <<<"$line" | head -1)
k=$(sed -n 's/.* \([0-9][0-9]*\) of them while ftscope was stopped.*/\1/p' <<<"$line" | head -1)
awk -v s="$s" 'BEGIN { exit !(s >= 4 && s <= 7) }' || fail "stopped for '$s' s, not about 5"
[ "${k:-0}" -gt 0 ] || fail "nothing attributed to the stop: $line"
echo "ok: $k events lost while stopped for $s s"

# 4. Ctrl+Z at the default buffer: ignored, said once, nothing lost, runs to the end
bench 12
sleep 0.5
start=$(date +%s%N)
"$FTS" record --record_time 6 --output tstp.dat -q 2>log </dev/null &
rec=$!
sleep 2
kill -TSTP $rec
sleep 1
st=$(awk '{ print $3 }' /proc/$rec/stat 2>/dev/null)
[ "$st" != T ] || { kill -CONT $rec; fail "SIGTSTP stopped the recorder"; }
kill -TSTP $rec
wait $rec || { cat log; fail "record failed after Ctrl+Z"; }
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$(grep -c 'Ctrl+Z is ignored while recording' log)" = 1 ] || { cat log; fail "Ctrl+Z not said exactly once"; }
grep -q '^recorded [0-9.]* s, .* lost none' log || { cat log; fail "Ctrl+Z lost events at the default buffer"; }
d=$(sed -n 's/^recorded \([0-9.]*\) s.*/\1/p' log)
awk -v d="$d" 'BEGIN { exit !(d >= 5.9) }' || fail "the capture did not go on after Ctrl+Z ($d s)"
echo "ok: Ctrl+Z ignored (state $st), capture ran $d s, nothing lost, $ms ms in all"

# 5. --reader_nice: the reader threads (fts-readN) and the sampler run at it
"$FTS" record --record_time 3 --reader_nice -17 --output nice.dat -q 2>log </dev/null &
rec=$!
sleep 1.5
nices=$(for t in /proc/$rec/task/*; do
	[[ "$(cat $t/comm)" == fts-read* || "$(cat $t/comm)" == fts-sampler ]] &&
		sed 's/.*) //' $t/stat | awk '{ print $17 }'
done | sort -u | tr '\n' ' ')
wait $rec || { cat log; fail "record --reader_nice failed"; }
[ "$nices" = "-17 " ] || fail "reader/sampler nice [$nices], want -17"
echo "ok: readers at nice $nices"
