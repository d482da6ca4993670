#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 10 class 4 and the recorder's class 13: a bad output is refused
# before anything is recorded (one line, exit 1, at once, nothing left); bad
# arguments exit 2; a disk full during a .txt capture keeps what was
# recorded; a second and third Ctrl+C during the stop skip the drain, then
# cut the file short, still valid.
source "$(dirname "$0")/lib.sh" "$@"
before=$(state)
SCALE=$(time_scale)
check_state() {
	[ "$before" = "$(state)" ] || { diff <(echo "$before") <(state); fail "tracing state changed after $1"; }
}

# refused "what" "pattern" args...: exit 1 within 5 s (scaled) although 10 s were asked
# (sanitizer builds on a loaded machine take a second or two to start).
refused() {
	what=$1 pat=$2; shift 2
	start=$(date +%s%N)
	"$FTS" record --record_time 10 -q "$@" >out 2>err; rc=$?
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	[ $rc = 1 ] || { cat err; fail "$what: exit $rc, want 1"; }
	[ "$(wc -l < err)" = 1 ] || { cat err; fail "$what: not one line"; }
	grep -qi "$pat" err || { cat err; fail "$what: no '$pat' in: $(cat err)"; }
	[ $ms -lt $((5000 * SCALE)) ] || fail "$what: refused only after $ms ms (after recording?)"
	echo "ok: $what refused at once ($ms ms): $(cat err)"
}
mkdir adir.dat
refused "an existing directory" "directory" -o adir.dat
ln -s /etc/passwd link.dat
refused "a symlink" "symbolic link" -o link.dat
grep -q root /etc/passwd || fail "symlink target damaged"
refused "a device" "not a regular file" -o /dev/null
mkfifo fifo.dat
refused "a FIFO" "not a regular file" -o fifo.dat
long=$(printf 'x%.0s' $(seq 1 240)).dat
refused "a name too long for its temp name" "too long" -o "$long"
refused "a missing directory" "no/such" -o no/such/dir/t.dat
refused "a bad pid mapping path" "no/such" --NSpid --pid_mapping no/such/pm.json -o ok.dat
[ -e ok.dat ] && fail "a refused capture left its output"
if mkdir small && mount -t tmpfs -o size=8m tmpfs small 2>/dev/null; then
	refused "a disk smaller than the reserve" "free" -o small/t.dat
	umount small
fi
ls -A | grep -q '^\.' && fail "temp files left: $(ls -A | grep '^\.')"
check_state "refused outputs"

# Bad arguments: exit 2 and one line.
usage_err() {
	"$FTS" "$@" >out 2>err; rc=$?
	[ $rc = 2 ] || { cat err; fail "$*: exit $rc, want 2"; }
	echo "ok: $* -> 2: $(head -1 err)"
}
usage_err record --cpu 3-1 --record_time 1
usage_err record --cpu abc --record_time 1
usage_err record --cpu=-1 --record_time 1
usage_err record --cpu 4000 --record_time 1
usage_err record -o "" --record_time 1
usage_err record --output= --record_time 1
usage_err pidmap --interval nan
usage_err pidmap --interval inf
usage_err pidmap --duration nan
check_state "bad arguments"

# Disk full during a .txt capture: exit 3, and the text holds what was recorded.
if mkdir -p full && mount -t tmpfs -o size=24m tmpfs full 2>/dev/null; then
	load 10
	"$FTS" record --record_time 20 --output full/f.txt -q 2>log; rc=$?
	ok=1
	[ $rc = 3 ] || { cat log; echo "txt disk full: exit $rc, want 3"; ok=0; }
	grep -q 'disk full' log || { cat log; ok=0; }
	head -1 full/f.txt 2>/dev/null | grep -q '^# ftscope_clock realtime_ns=' || { echo "txt disk full: no clock header"; ok=0; }
	n=$(grep -c ' sched_switch: ' full/f.txt 2>/dev/null)
	[ "${n:-0}" -gt 100 ] || { echo "txt disk full: only ${n:-0} sched_switch lines kept"; ok=0; }
	[ -z "$(tail -c 1 full/f.txt)" ] || { echo "txt disk full: last line cut"; ok=0; }
	ls -A full | grep -q '^\.' && { echo "txt disk full: temp files left"; ok=0; }
	umount full || umount -l full
	[ $ok = 1 ] || fail "disk full during a text capture"
	echo "ok: disk full during a .txt capture keeps $n sched_switch lines, exit 3"
	check_state "text disk full"
fi

# Ctrl+C during the stop: the 2nd skips the drain, the 3rd cuts the file short.
load 12
"$FTS" record --record_time 3 --bf_size 8192 --output ref.dat -q 2>/dev/null
FTSCOPE_TEST_STOP_DELAY_MS=400 "$FTS" record --record_time 0 --bf_size 8192 --output cut.dat -q 2>log &
pid=$!
sleep 3
kill -INT $pid; sleep 0.6
kill -INT $pid; sleep 0.6
kill -INT $pid
wait $pid; rc=$?
[ $rc = 0 ] || { cat log; fail "Ctrl+C x3: exit $rc"; }
grep -q 'skipping the rest of the drain' log || { cat log; fail "2nd Ctrl+C during the stop did nothing"; }
grep -q 'cutting the file short' log || { cat log; fail "3rd Ctrl+C during the stop did nothing"; }
grep -q 'cut short on request' log || { cat log; fail "the summary does not say the file was cut"; }
trace-cmd report -i cut.dat >/dev/null 2>&1 || fail "the cut file does not open"
n=$(dat_events cut.dat); full=$(dat_events ref.dat)
[ "$n" -gt 0 ] || fail "the cut file is empty"
echo "ok: Ctrl+C x3 during the stop: valid cut file with $n events (an uncut 3 s capture: $full)"
check_state "Ctrl+C during the stop"
