#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 33's acceptance, a few minutes' worth: a flight recording whose output
# directory is a small filesystem (a 48 MiB tmpfs) under hackbench, with a
# scheduling trigger and an operator's snapshot, goes on to its end (exit 0):
#  - the ring outgrows the disk: the recorder removes its oldest segments
#    (and trigger snapshots) early to keep room free, and says so;
#  - then another writer fills the disk to the last byte for 4 s: the readers
#    are refused, hold, and go on once it is gone; the pages refused are
#    counted, and the summary says what the short disk cost;
#  - the operator's snapshot is never removed;
#  - every segment left (the ring's and the snapshots') is a whole trace.dat
#    that trace-cmd and ftscope read, on the wall clock; each trigger snapshot
#    holds its trigger or says why not, and each snapshot segment's loss is
#    its manifest's (flight_check.sh, as bench/flight_soak.sh checks the hour).
source "$(dirname "$0")/lib.sh" "$@"
before=$(state)
mkdir d
mount -t tmpfs -o size=48M ftscope-test-disk d || skip "cannot mount a tmpfs"
trap 'cleanup_ours; umount "$WORK/d" 2>/dev/null' EXIT
load 40
"$FTS" record --flight --segment 1s --keep 30 --trigger 'runnable>5ms' --trigger_cap 3,64M \
	--record_time 20 -q -o d/t.dat >rec.out 2>rec.err &
rec=$!
REC_PIDS="$REC_PIDS $rec"
sleep 3
"$FTS" snapshot --dir d --reason operator --last 2 >snap.out 2>snap.err || { cat snap.err; fail "the snapshot failed"; }
op=$(cat snap.out)
sleep 5
# another writer takes every byte left, for 4 s
dd if=/dev/zero of=d/filler bs=64k >/dev/null 2>&1
[ "$(df -k --output=avail d | tail -1)" -lt 64 ] || fail "the filler did not fill the disk"
sleep 4
rm -f d/filler
wait "$rec" || { cat rec.err; fail "the recorder ended with status $? (a full disk must not end a flight recording)"; }
cat rec.err
# the notes as they come (one note at a time: the status shows the newest)
grep -Eq "^ftscope record: disk (low|full)" rec.err || fail "no note on the short disk"
line=$(grep "^flight: the disk was short: " rec.err) || fail "the summary does not say what the short disk cost"
removed=$(sed 's/.*short: \([0-9]*\) segments or trigger snapshots removed early.*/\1/' <<<"$line")
refused=$(sed 's/.*segments and \([0-9]*\) pages not written.*/\1/' <<<"$line")
[ "$removed" -gt 0 ] || fail "nothing was removed early: $line"
[ "$refused" -gt 0 ] || fail "the full disk refused no page write: $line"
[ -f "$op/manifest.json" ] || fail "the operator's snapshot $op was removed"
n=0
for s in d/t.*.dat d/snapshot-*/t.*.dat; do
	[ -f "$s" ] || continue
	trace-cmd report --stat -i "$s" >/dev/null 2>tc.err || { cat tc.err; fail "trace-cmd cannot read $s"; }
	[ "$(dat_events "$s")" -gt 0 ] || fail "$s holds no event"
	"$FTS" convert -i "$s" -o one.json --format json >conv.out 2>&1 || { cat conv.out; fail "convert of $s"; }
	grep -q "placed on the wall clock by the recorder's clock pair" conv.out ||
		{ cat conv.out; fail "$s alone is not on the wall clock"; }
	n=$((n + 1))
done
[ $n -ge 2 ] || fail "only $n segments left to check"
echo "ok: $n segments read whole; $removed removed early, $refused page writes refused"
bash "$SRC/tests/record/flight_check.sh" "$FTS" d 3 check || fail "the snapshots do not keep their promises"
"$FTS" stats d --format json --top 0 >ring.json 2>ring.err || { cat ring.err; fail "stats of the ring failed"; }
umount d || fail "the tmpfs is still busy"
after=$(state)
[ "$before" = "$after" ] || fail "tracing state changed: $(diff <(echo "$before") <(echo "$after"))"
echo PASS
