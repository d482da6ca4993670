#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/flight_soak.sh - the flight recorder left on a training host (issue 33's acceptance).
#
#   bench/flight_soak.sh [ftscope-binary] [seconds] [snapshot-every] [fs-size]
#
# SECONDS (default 3600) of `record --flight` (10 s segments, 3 kept) under `hackbench -g 2`,
# writing into a filesystem of its own (tmpfs of FS-SIZE, default 512M, so a full disk is
# near), with a scheduling trigger (runnable>5ms, which hackbench trips often) capped at 4
# snapshots and 128 MiB, and `ftscope snapshot --last 10` every SNAPSHOT-EVERY seconds
# (default 60), the manual snapshots older than 2 minutes removed as an operator's cron would.
# Midway, another writer fills the disk to its last byte for 10 s. Then:
#   disk      the filesystem's peak use, sampled every second, against its size; the
#             recorder must run to its end (exit 0), never stopped by a full disk, and
#             says what the short disk cost (segments and trigger snapshots removed early,
#             segments and pages not written)
#   triggers  trigger snapshots on disk at the end <= the cap; each manifest holds its
#             trigger or says trigger_not_held
#   segments  every segment on disk (the ring and every snapshot) converted alone: on the
#             wall clock by its own clock pair, and its loss (stats) equal to the figure its
#             snapshot manifest gives it
# Prints the figures and "soak: ok" or the first failure (exit 1). Needs root, tracefs,
# hackbench. Holds no lock: run it alone.
# First run (2026-12-06, 150 s, a snapshot every 30 s, 384M): the disk filled at 95 s
# (ring 67 MiB, 3 trigger snapshots, 2 manual ones, the streaming segment) and the
# recorder ended with status 3: a full disk ended a flight recording. Since then the
# flight thread keeps room free (flight.c, keep_room) and a refused write holds a reader.
# The hour (2026-12-06, defaults, load average ~60 on 2 CPUs): exit 0 after 3601 s; disk peak
# 487 of 512 MiB; 402.2M events, 17.5 GiB streamed, kernel loss 0; 111 trigger snapshots
# taken, 28 segments or trigger snapshots removed early, 0 segments and 2 pages not written
# (the 10 s the disk was full); at the end 1 trigger snapshot on disk, holding its trigger,
# and 8 snapshot segments each on the wall clock with its manifest's loss.
FTS=$(readlink -f "${1:-$(dirname "$0")/../build/ftscope}")
SECS=${2:-3600}
EVERY=${3:-60}
SIZE=${4:-512M}
[ "$(id -u)" = 0 ] || { echo "flight_soak: needs root"; exit 1; }
command -v hackbench >/dev/null || { echo "flight_soak: needs hackbench (rt-tests)"; exit 1; }
mnt=$(mktemp -d /tmp/ftscope-soak.XXXXXX)
work=$(mktemp -d /tmp/ftscope-soak-work.XXXXXX)
load=
cleanup() {
	[ -n "$load" ] && kill -- -"$load" 2>/dev/null
	[ -n "$rec" ] && kill -INT "$rec" 2>/dev/null && wait "$rec" 2>/dev/null
	umount "$mnt" 2>/dev/null
	rmdir "$mnt" 2>/dev/null
}
trap cleanup EXIT
mount -t tmpfs -o size="$SIZE" ftscope-soak "$mnt" || { echo "flight_soak: cannot mount a tmpfs"; exit 1; }
fail() { echo "soak: FAIL $* (logs in $work)"; exit 1; }

setsid hackbench -g 2 -l 1000000000 >/dev/null 2>&1 &
load=$!
sleep 0.5
"$FTS" record --flight --segment 10s --keep 3 --trigger 'runnable>5ms' --trigger_cap 4,128M \
	--record_time "$SECS" -q -o "$mnt/t.dat" 2>"$work/record.log" &
rec=$!
start=$(date +%s)
peak=0
filled=
next_snap=$((start + EVERY))
while kill -0 "$rec" 2>/dev/null; do
	sleep 1
	used=$(df -k --output=used "$mnt" | tail -1)
	[ "$used" -gt "$peak" ] && peak=$used
	now=$(date +%s)
	# midway, another writer takes every byte left for 10 s
	if [ -z "$filled" ] && [ $((now - start)) -ge $((SECS / 2)) ]; then
		dd if=/dev/zero of="$mnt/filler" bs=64k >/dev/null 2>&1
		filled=$(df -k --output=avail "$mnt" | tail -1)
		sleep 10
		rm -f "$mnt/filler"
		echo "filler: the disk full for 10 s at +$((now - start)) s ($filled KiB left)" >>"$work/figures"
	fi
	# (a snapshot asked as the recorder ends is not a failure: it is no longer there to ask)
	if [ "$now" -ge "$next_snap" ] && kill -0 "$rec" 2>/dev/null; then
		"$FTS" snapshot --dir "$mnt" --reason soak --last 10 >>"$work/snap.log" 2>&1 ||
			{ kill -0 "$rec" 2>/dev/null && echo "snapshot at +$((now - start)) s failed" >>"$work/snap.fail"; }
		next_snap=$((now + EVERY))
		find "$mnt" -maxdepth 1 -name 'snapshot-*-soak' -mmin +2 -exec rm -rf {} + 2>/dev/null
	fi
done
wait "$rec"
rc=$?
rec=
kill -- -"$load" 2>/dev/null
load=
size_k=$(df -k --output=size "$mnt" | tail -1)
echo "disk: peak $((peak / 1024)) MiB of $((size_k / 1024)) MiB; recorder exit $rc after $(($(date +%s) - start)) s"
cat "$work/figures" 2>/dev/null
grep -c "disk low\|disk full" "$work/record.log" | sed 's/^/notes on a short disk: /'
grep -v '^$' "$work/record.log" | tail -6
[ "$rc" = 0 ] || fail "the recorder ended with status $rc (see above)"
[ -s "$work/snap.fail" ] && { cat "$work/snap.fail"; fail "a manual snapshot failed"; }

# triggers held or said not, the cap; each snapshot segment alone on the wall clock with its manifest's loss
bash "$(dirname "$0")/../tests/record/flight_check.sh" "$FTS" "$mnt" 4 "$work/check" || fail "the snapshots"
echo "soak: ok"
rm -rf "$work"
