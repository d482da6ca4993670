#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 33 item 10, the rest:
#  A: segment numbers past 999999 (7-digit names) are neither overwritten by
#     the next run nor skipped by readers: run 2 numbers on after t.1000000.dat.
#  B: `--pid_mapping DIR/manifest.json`: a snapshot keeps the mapping (under
#     pid_mapping.json, named in its manifest), the manifest does not replace it.
#  C: reading a directory of many segments holds a bounded number of files
#     open and bounded memory: 40 segments read under `ulimit -n 40` (the old
#     reader held two descriptors per segment), peak memory within 1.5 MB a
#     segment of one segment's read (the old reader's handles took ~2 MB each).
#  D: the output directory removed mid-run: said in one line, and the
#     segments go on in the ftscope-saved-* directory made for it, the one
#     streaming at the removal included, exit 3 as a plain recording's (the
#     recording failed, the segment was lost and the directory left empty).
source "$(dirname "$0")/lib.sh" "$@"
before=$(state)

# ---- A ----
mkdir a
"$FTS" record --flight --segment 1s --keep 100 -t 2 -o a/t.dat -q >A1.log 2>&1 || { cat A1.log; fail "A: run 1 failed"; }
last=$(ls a | grep '^t\.[0-9]*\.dat$' | tail -1)
mv "a/$last" a/t.1000000.dat
sum=$(md5sum <a/t.1000000.dat)
"$FTS" record --flight --segment 1s --keep 100 -t 2 -o a/t.dat -q >A2.log 2>&1 || { cat A2.log; fail "A: run 2 failed"; }
[ "$(md5sum <a/t.1000000.dat)" = "$sum" ] || fail "A: run 2 overwrote t.1000000.dat"
new=$(ls a | grep -c '^t\.100000[1-9]\.dat$')
[ "$new" -ge 2 ] || { ls a; fail "A: run 2 did not number on after t.1000000.dat"; }
"$FTS" stats a --top 0 >A.out 2>A.err || { cat A.err; fail "A: stats of the directory failed"; }
grep -q "reading $new segments of a as one trace, in time order: t.1000001.dat .. t.100000$new.dat" A.err ||
	{ cat A.err; fail "A: the readers do not read run 2's 7-digit segments"; }
echo "A: run 2 numbered t.1000001.dat .. t.100000$new.dat; t.1000000.dat intact"

# ---- B ----
mkdir b
"$FTS" record --flight --segment 1s --keep 10 -t 4 --NSpid --pid_mapping b/manifest.json -o b/t.dat -q >B.log 2>&1 &
rec=$!
REC_PIDS="$REC_PIDS $rec"
sleep 2.5
kill -USR1 $rec
wait $rec || { cat B.log; fail "B: the recording failed"; }
snap=$(ls -d b/snapshot-* | head -1)
[ -n "$snap" ] || { cat B.log; fail "B: no snapshot"; }
python3 - "$snap" <<'PY' || fail "B: the snapshot lost the pid mapping"
import json, os, sys
snap = sys.argv[1]
man = json.load(open(snap + "/manifest.json"))
if not man.get("segments"):
    sys.exit("manifest.json is not the snapshot's manifest")
pm = man.get("pid_mapping")
if not pm or pm == "manifest.json":
    sys.exit("the manifest names the mapping %r" % pm)
m = json.load(open(os.path.join(snap, pm)))
if "segments" in m or not m:
    sys.exit("%s is not the pid mapping" % pm)
print("B: the snapshot keeps the mapping as", pm)
PY

# ---- C ----
mkdir c
"$FTS" record --flight --segment 0.5s --keep 100 -t 21 -o c/t.dat -q >C.log 2>&1 || { cat C.log; fail "C: the recording failed"; }
n=$(ls c | grep -c '^t\.[0-9]*\.dat$')
[ "$n" -ge 35 ] || fail "C: only $n segments"
one=$(ls c | grep '^t\.[0-9]*\.dat$' | sed -n 5p)
/usr/bin/time -f %M -o one.rss "$FTS" stats c/$one --top 0 >/dev/null 2>&1 || fail "C: stats of one segment failed"
( ulimit -n 40; /usr/bin/time -f %M -o all.rss "$FTS" stats c --top 0 >C.out 2>C.err ) ||
	{ cat C.err; fail "C: $n segments cannot be read under ulimit -n 40"; }
r1=$(tail -1 one.rss); ra=$(tail -1 all.rss)
echo "C: $n segments read under ulimit -n 40; peak RSS $ra KB (one segment: $r1 KB)"
# The old reader held every segment's libtracecmd handles at once: ~2 MB a segment here (89 MB
# for 40, 8.7 MB for one). What grows now is the model's (tasks, CPUs), not the segments': allow 1.5 MB each.
# (not in a sanitizer build: ASan keeps freed memory in its quarantine, up to 256 MB)
if ldd "$REAL_FTS" 2>/dev/null | grep -q 'libasan\|libtsan'; then
	echo "C: the memory bound is not judged in a sanitizer build"
else
	[ "$ra" -lt $((r1 + n * 1536)) ] || fail "C: reading $n segments took $ra KB, one takes $r1 KB"
fi
# ---- D ----
mkdir -p e/d
"$FTS" record --flight --segment 1s --keep 10 -t 6 -o e/d/t.dat -q >D.log 2>&1 &
rec=$!
REC_PIDS="$REC_PIDS $rec"
sleep 2.5
rm -rf e/d
wait $rec
rc=$?
# 3: saved, but not where asked (as a plain recording whose directory went, record_moved.sh)
[ $rc = 3 ] || { cat D.log; fail "D: exit $rc (not 3: saved elsewhere) when the directory was removed"; }
[ "$(grep -c 'was removed while recording; .* recording goes on' D.log)" = 1 ] ||
	{ cat D.log; fail "D: the removal is not said in one line"; }
saved=$(ls -d e/ftscope-saved-* 2>/dev/null)
k=$(ls "$saved" 2>/dev/null | grep -c '^t\.[0-9]*\.dat$')
[ "$k" -ge 3 ] || { ls -la e "$saved"; cat D.log; fail "D: $k segments kept after the removal"; }
first=$(ls "$saved" | grep '^t\.[0-9]*\.dat$' | head -1)
"$FTS" stats "$saved/$first" --top 0 >/dev/null 2>D.err || { cat D.err; fail "D: the first kept segment does not read"; }
echo "D: $k segments kept in ${saved#e/} after the removal, from $first"
after=$(state)
[ "$before" = "$after" ] || { diff <(echo "$before") <(echo "$after"); fail "the tracing state changed"; }
echo "PASS: 7-digit segments, the mapping in snapshots, bounded files and memory"
