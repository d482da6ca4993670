#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 19: the arm64 ftscope, run under qemu-user, records this machine's
# tracefs. The kernel is x86_64, so the raw ring-buffer pages are its layout,
# cut into pages and written by arm64 code. Checked: the trace.dat header says
# the kernel's page layout (long size = header_page's commit word, page size =
# its sub-buffer), trace-cmd (native) reads every event the recorder counted,
# per CPU, and the arm64 convert reads them all into CPU lanes. Then again with
# a 64K-page user space (QEMU_PAGESIZE=65536) on this 4K-page kernel: the pages
# must still be the kernel's.
# Registered in cross builds only (tests/arm64/CMakeLists.txt): $1 runs the
# arm64 binary through qemu-user.
source "$(dirname "$0")/../record/lib.sh" "$@"
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
command -v python3 >/dev/null || skip "python3 not installed"
grep -q qemu "$REAL_FTS" 2>/dev/null || skip "$REAL_FTS does not run through qemu-user (not a cross build)"

# header_page as the kernel says it: "commit_size subbuf_size"
layout() {
	python3 - "$1" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
f = {m[1]: (int(m[2]), int(m[3])) for m in
     re.finditer(r"field:[^;]*?(\w+);\s*offset:(\d+);\s*size:(\d+);", t)}
print(f["commit"][1], f["data"][0] + f["data"][1])
PY
}
# the trace.dat's fixed header: "endian long_size page_size"
dat_header() {
	python3 - "$1" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read(64)
assert b[:10] == b"\x17\x08Dtracing", "not a trace.dat"
v = b.index(b"\0", 10)
print(b[v + 1], b[v + 2], struct.unpack("<I", b[v + 3:v + 7])[0])
PY
}
read -r commit subbuf < <(layout $T/events/header_page) || fail "cannot read $T/events/header_page"

# A light load on every online CPU: a loop of short sleeps pinned there
# (switches, wakeups, forks), so each CPU has events; hackbench's hundreds of
# thousands of events would only make the emulated convert slow.
light_load() {
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		setsid timeout "$1" taskset -c "$cpu" sh -c 'while :; do sleep 0.01; done' >/dev/null 2>&1 &
		LOAD_PIDS="$LOAD_PIDS $!"
	done
}

# one capture: $1 = name, then environment for qemu
capture() {
	local name=$1
	shift
	light_load 4
	env "$@" "$FTS" record --record_time 2 --output "$name.dat" 2>"$name.log" ||
		{ cat "$name.log"; fail "$name: record under qemu-user failed"; }
	read -r endian longsz page < <(dat_header "$name.dat") || fail "$name: unreadable trace.dat header"
	[ "$endian" = 0 ] || fail "$name: trace.dat says big endian"
	[ "$longsz" = "$commit" ] || fail "$name: long size $longsz, the kernel's commit word is $commit bytes"
	[ "$page" = "$subbuf" ] || fail "$name: page size $page, the kernel's sub-buffer is $subbuf"
	# the recorder's per-CPU counts ("  cpuN   123 events") = what trace-cmd reads
	trace-cmd report -i "$name.dat" > "$name.report" 2>"$name.tclog" ||
		{ cat "$name.tclog"; fail "$name: trace-cmd report cannot read the trace.dat"; }
	sed -n 's/^ *cpu\([0-9]*\) *\([0-9]*\) events.*/\1 \2/p' "$name.log" > "$name.rec"
	[ -s "$name.rec" ] || { cat "$name.log"; fail "$name: no per-CPU summary"; }
	# trace-cmd pads the timestamp to a width: "[001]  8090.959087:" on a host up for less than 10,000 s
	grep -o '\[[0-9]*\] *[0-9.]*: [a-z_]*:' "$name.report" |
		awk '{ c = substr($1, 2, length($1) - 2) + 0; n[c]++ } END { for (c in n) print c, n[c] }' |
		sort -n > "$name.tc"
	sort -n "$name.rec" | diff - "$name.tc" > /dev/null ||
		{ paste "$name.rec" "$name.tc"; fail "$name: per-CPU events recorded (left) != read by trace-cmd (right)"; }
	while read -r cpu n; do
		[ "$n" -gt 0 ] || fail "$name: no event on CPU $cpu in 2 s under load"
		grep -q "\[$(printf %03d "$cpu")\] *[0-9.]*: sched_switch:" "$name.report" ||
			fail "$name: no sched_switch on CPU $cpu"
	done < "$name.rec"
	# the arm64 convert reads them all: per kind as trace-cmd, and nothing
	# else but ftrace's own (trace_marker) events
	"$FTS" convert --input "$name.dat" --output "$name.db" > "$name.clog" 2>&1 ||
		{ cat "$name.clog"; fail "$name: convert under qemu-user failed"; }
	grep -o '\[[0-9]*\] *[0-9.]*: [a-z_]*:' "$name.report" | awk '{ print $3 }' | tr -d : |
		sort | uniq -c | awk '{ print $2, $1 }' | grep -Ev '^(print|bprint|bputs) ' > "$name.tckinds"
	sed -n 's/^events *[0-9]*: //p' "$name.clog" | tr ' ' '\n' | paste -d' ' - - | sort > "$name.kinds"
	[ -s "$name.kinds" ] || { cat "$name.clog"; fail "$name: no events line in the convert summary"; }
	diff "$name.kinds" "$name.tckinds" ||
		fail "$name: events per kind read by convert (<) and trace-cmd (>) differ"
	local total
	total=$(awk '{ s += $2 } END { print s }' "$name.tc")
	for cpu in $(cut -d' ' -f1 "$name.rec"); do
		[ "$(sqlite3 "$name.db" "select count(*) from slice s join thread t on s.track_id = t.track_id
			where t.thread_name = printf('CPU %03d', $cpu)")" -gt 0 ] ||
			fail "$name: no slice on the lane of CPU $cpu"
	done
	echo "ok: $name: $total events on $(wc -l < "$name.rec") CPUs, page $page, long $longsz; trace-cmd and convert agree"
}
capture q
capture q64k QEMU_PAGESIZE=65536
