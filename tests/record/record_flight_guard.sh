#!/bin/bash
# SPDX-License-Identifier: MIT
# The flight recorder as root under "sudo" (SUDO_UID/SUDO_GID of nobody, who
# owns the output directory), against that user (issue 33, items 1-3 and 10):
#  A: the user swaps each new snapshot directory for a symlink to a root-only
#     directory (a loop polling for them): the race must never win, i.e. the
#     root-only directory is never chowned to the user nor written into.
#  B: the user renames the output directory away and puts a symlink to a
#     root-only directory holding root files named like the segments: none of
#     them (nor a pid_mapping.json, with --NSpid) is replaced or pruned, nothing
#     is written there; the segments and the mapping go on in the renamed directory.
#  C: a forged pid file naming a plain `record` (the user's, and one of
#     root's) is refused before any signal; SIGUSR1 sent to a plain `record`,
#     a `pidmap` and a `preview` does not end them.
#  D: a FIFO as the pid file or as a request file hangs neither `snapshot`
#     nor `record --flight`; a request with last_s=1e300 keeps every segment.
#  E: two flight recorders started together on one output: never both run (a loop).
#  F: an empty stem (-o DIR/.dat) is a usage error, nothing written.
#  G: the trace-cmd backend's scratch directory swapped for a symlink to a
#     root-only directory: nothing there is written or removed.
# the machine-wide tracefs lock (scripts/tracefs_lock.py), as every recording test run takes it
if [ -z "$FTS_GUARD_LOCKED" ] && [ -f "$2/scripts/tracefs_lock.py" ]; then
	FTS_GUARD_LOCKED=1 exec python3 "$2/scripts/tracefs_lock.py" bash "$0" "$@"
fi
source "$(dirname "$0")/lib.sh" "$@"
command -v python3 >/dev/null || skip "python3 not installed (the user's side of the races)"
command -v setpriv >/dev/null || skip "setpriv not installed (runs the user's side as nobody)"
id nobody >/dev/null 2>&1 || skip "no user nobody"
U=$(id -u nobody)
G=$(id -g nobody)
before=$(state)
chmod 755 .
as_user() { setpriv --reuid="$U" --regid="$G" --clear-groups "$@"; }
export SUDO_UID=$U SUDO_GID=$G
starttime() { awk '{ sub(/.*\) /, ""); print $20 }' /proc/$1/stat; }

# ---- A: the snapshot directory swapped while it is made ---------------------
mkdir u rootonly && chown "$U:$G" u && chmod 700 rootonly
"$FTS" record --flight --segment 1s --keep 2 --cpu 0 --bf_size 1024 -o u/t.dat -q 2>A.log &
rec=$!
REC_PIDS="$REC_PIDS $rec"
sleep 2.5
cat > swap.py <<'PY'
import os, sys, time
d, target, stop = sys.argv[1], sys.argv[2], sys.argv[3]
seen, won = set(), 0
while not os.path.exists(stop):
    for e in os.scandir(d):
        if e.name.startswith("snapshot-") and e.name not in seen and not e.is_symlink():
            seen.add(e.name)
            try:
                os.rename(os.path.join(d, e.name), os.path.join(d, "moved-" + e.name))
                os.symlink(target, os.path.join(d, e.name))
                won += 1
            except OSError:
                pass
print(won)
PY
as_user python3 swap.py u "$PWD/rootonly" "$PWD/stop.a" >swaps.out 2>&1 &
att=$!
ok=0
for i in $(seq 1 10); do
	"$FTS" snapshot --dir u --reason "race$i" >>snapA.out 2>>snapA.err && ok=$((ok + 1))
done
touch stop.a
wait $att
kill -INT $rec
wait $rec || { cat A.log; fail "A: the flight recording failed"; }
swaps=$(cat swaps.out)
echo "A: $swaps snapshot directories swapped for a symlink, $ok of 10 snapshots taken"
[ "$swaps" -ge 5 ] || { cat snapA.err; fail "A: the user's loop swapped only '$swaps' directories (the race was not run)"; }
[ "$(stat -c %u:%g rootonly)" = "0:0" ] || fail "A: the root-only directory was given to the user: $(stat -c %U rootonly)"
[ -z "$(ls -A rootonly)" ] || fail "A: root wrote into the swapped-in directory: $(ls -A rootonly | tr '\n' ' ')"
# what was taken is in the directories moved away (written through the descriptor), the user's
for m in u/moved-snapshot-*; do
	[ -f "$m/manifest.json" ] || continue
	[ "$(stat -c %u "$m")" = "$U" ] || fail "A: $m is not handed to the sudo user"
done
grep -q "was replaced while it was being made\|cannot create\|No such file\|Too many levels" snapA.err ||
	[ "$ok" = 10 ] || { cat snapA.err; fail "A: a failed snapshot does not say why"; }

# ---- B: the output directory swapped for a symlink ----------------------------
mkdir -p home/v rootonly2 && chown -R "$U:$G" home && chmod 700 rootonly2
for n in $(seq 1 12); do echo precious >rootonly2/t.$(printf %06d "$n").dat; done
echo precious >rootonly2/pid_mapping.json
"$FTS" record --flight --segment 1s --keep 2 --cpu 0 --bf_size 1024 -o home/v/t.dat -q -t 7 --NSpid 2>B.log &
rec=$!
REC_PIDS="$REC_PIDS $rec"
sleep 2.5
as_user mv home/v home/v.old || fail "B: the user cannot rename the directory"
as_user ln -s "$PWD/rootonly2" home/v || fail "B: the user cannot make the symlink"
wait $rec; rc=$?
[ "$rc" = 0 ] || [ "$rc" = 3 ] || { cat B.log; fail "B: the recording failed (exit $rc)"; }
[ "$(ls rootonly2 | wc -l)" = 13 ] || fail "B: the root-only directory changed: $(ls rootonly2 | tr '\n' ' ')"
for f in rootonly2/*; do
	[ "$(cat "$f")" = precious ] || fail "B: $f was replaced through the symlink"
done
grep -q '"NSpid"' home/v.old/pid_mapping.json || fail "B: the pid mapping is not kept in the renamed directory"
n=$(ls home/v.old | grep -c '^t\.[0-9]\{6\}\.dat$')
[ "$n" -ge 2 ] || { ls -la home/v.old; cat B.log; fail "B: only $n segments in the renamed directory"; }
for s in $(ls home/v.old | grep '^t\.[0-9]\{6\}\.dat$'); do
	[ "$(dat_events home/v.old/$s)" -gt 0 ] || fail "B: home/v.old/$s reads no events"
done
echo "B: the 13 root files (segment names, pid_mapping.json) untouched; $n segments and the mapping kept in the renamed directory"

# ---- C: forged pid files, SIGUSR1 that nobody asked for -------------------------
"$FTS" record --record_time 0 --cpu 0 --bf_size 1024 -o plain.dat -q 2>C.log &
plain=$!
REC_PIDS="$REC_PIDS $plain"
sleep 1.5
mkdir w w2 && chown "$U:$G" w
as_user sh -c "echo '$plain $(starttime $plain)' > w/ftscope-flight.pid"
"$FTS" snapshot --dir w 2>forged1.err && fail "C: the user's forged pid file was believed"
grep -q "not trusted" forged1.err || { cat forged1.err; fail "C: no reason for the user's pid file"; }
echo "$plain $(starttime $plain)" > w2/ftscope-flight.pid && chmod 600 w2/ftscope-flight.pid
"$FTS" snapshot --dir w2 2>forged2.err && fail "C: a pid file naming a plain record was believed"
grep -q "does not hold it open" forged2.err || { cat forged2.err; fail "C: no reason for the forged pid file"; }
kill -0 $plain 2>/dev/null || fail "C: the plain recorder was signalled through a forged pid file"
kill -USR1 $plain
sleep 0.5
kill -0 $plain 2>/dev/null || fail "C: SIGUSR1 ended a plain record"
kill -INT $plain
wait $plain || { cat C.log; fail "C: the plain record failed after SIGUSR1"; }
[ "$(dat_events plain.dat)" -gt 0 ] || fail "C: the plain record saved nothing"
"$FTS" pidmap --interval 1 --duration 4 --output pm.json &
pm=$!
sleep 0.5
kill -USR1 $pm
sleep 0.3
kill -0 $pm 2>/dev/null || fail "C: SIGUSR1 ended a pidmap"
wait $pm || fail "C: the pidmap failed after SIGUSR1"
# a preview on a terminal: alive after SIGUSR1 (dying would leave the terminal raw)
python3 - "$FTS" plain.dat <<'PY' || fail "C: SIGUSR1 ended a preview"
import os, pty, select, signal, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.environ["TERM"] = "xterm"
    os.execv(sys.argv[1], [sys.argv[1], "preview", sys.argv[2], "--no_cache"])
def drain(t):
    stop = time.time() + t
    while time.time() < stop:
        if not select.select([fd], [], [], 0.1)[0]:
            continue
        try:
            os.read(fd, 65536)
        except OSError:
            return
drain(3)
os.kill(pid, signal.SIGUSR1)
drain(1)
done, status = os.waitpid(pid, os.WNOHANG)
if done:
    print("preview ended by SIGUSR1: status", status)
    sys.exit(1)
os.write(fd, b"q")
drain(1)
os.kill(pid, signal.SIGTERM)
os.waitpid(pid, 0)
PY
echo "C: forged pid files refused; record, pidmap and preview survive SIGUSR1"

# ---- D: FIFOs, and a request's huge last_s ----------------------------------------
mkdir x && mkfifo x/ftscope-flight.pid
timeout 10 "$FTS" snapshot --dir x 2>fifo1.err; rc=$?
[ "$rc" != 124 ] || fail "D: snapshot hung on a FIFO pid file"
[ "$rc" = 1 ] || { cat fifo1.err; fail "D: snapshot with a FIFO pid file exited $rc"; }
grep -q "not a regular file" fifo1.err || { cat fifo1.err; fail "D: no reason for the FIFO pid file"; }
timeout 20 "$FTS" record --flight --cpu 0 -o x/t.dat -q -t 1 2>fifo2.err; rc=$?
[ "$rc" != 124 ] || fail "D: record --flight hung on a FIFO pid file"
[ "$rc" = 1 ] || { cat fifo2.err; fail "D: record --flight with a FIFO pid file exited $rc"; }
rm x/ftscope-flight.pid
"$FTS" record --flight --segment 1s --keep 3 --cpu 0 --bf_size 1024 -o x/t.dat -q 2>D.log &
rec=$!
REC_PIDS="$REC_PIDS $rec"
sleep 4.5
mkfifo x/ftscope-flight.request.1
timeout 30 "$FTS" snapshot --dir x --reason afterfifo >fifo3.out 2>fifo3.err; rc=$?
[ "$rc" = 0 ] || { cat fifo3.err D.log; fail "D: a FIFO request file broke the snapshot (exit $rc)"; }
kill -0 $rec 2>/dev/null || fail "D: the recorder died on a FIFO request file"
printf 'last_s=1e300\nhuge' > x/ftscope-flight.request.2
kill -USR1 $rec
for i in $(seq 1 100); do [ -s x/ftscope-flight.done.2 ] && break; sleep 0.1; done
huge=$(cat x/ftscope-flight.done.2 2>/dev/null)
case $huge in x/snapshot-*-huge) ;; *) cat D.log; fail "D: last_s=1e300 gave '$huge'";; esac
kill -INT $rec
wait $rec || { cat D.log; fail "D: the flight recording failed"; }
n=$(ls "$huge" | grep -c '^t\.[0-9]\{6\}\.dat$')
[ "$n" = 3 ] || fail "D: last_s=1e300 kept $n segments, not all 3"
echo "D: FIFOs refused at once; last_s=1e300 kept all $n segments"

# ---- E: two flight recorders at once, never both ----------------------------------
mkdir y
both=0
for i in $(seq 1 8); do
	"$FTS" record --flight --cpu 0 --bf_size 1024 -o y/t.dat -q -t 1 2>y1.err & p1=$!
	"$FTS" record --flight --cpu 0 --bf_size 1024 -o y/t.dat -q -t 1 2>y2.err & p2=$!
	wait $p1; r1=$?
	wait $p2; r2=$?
	if [ "$r1" = 0 ] && [ "$r2" = 0 ]; then
		both=$((both + 1))
	elif [ "$r1" = 0 ] || [ "$r2" = 0 ]; then
		cat y1.err y2.err | grep -q "already records into" || { cat y1.err y2.err; fail "E: the refusal does not say why"; }
	else
		cat y1.err y2.err
		fail "E: neither recorder ran"
	fi
done
[ "$both" = 0 ] || fail "E: two flight recorders ran on one output $both times of 8"
[ ! -e y/ftscope-flight.pid ] || fail "E: a pid file was left behind"
echo "E: 8 of 8 pairs: one ran, one was refused"

# ---- F: an empty stem ---------------------------------------------------------------
mkdir z
for o in z/.dat z/..dat; do
	"$FTS" record --flight -o "$o" -t 1 2>F.err; rc=$?
	[ "$rc" = 2 ] || { cat F.err; fail "F: -o $o exited $rc, not 2"; }
	grep -q "needs a name before .dat" F.err || { cat F.err; fail "F: no reason for -o $o"; }
done
[ -z "$(ls -A z)" ] || fail "F: something was written: $(ls -A z)"
echo "F: an empty stem is a usage error"

# ---- G: the trace-cmd backend's scratch directory swapped ----------------------------
# This kernel may refuse a real `trace-cmd record` ("Can't enable ftrace"): a stand-in
# on PATH plays it, as in record_tracecmd.sh (it writes a real trace.dat to -o at SIGINT).
"$FTS" record --record_time 1 --cpu 0 --bf_size 1024 --output real.dat -q 2>G.log || { cat G.log; fail "G: native capture failed"; }
mkdir -p bin home3 rootonly3 && chown "$U:$G" home3 && chmod 700 rootonly3
# trace-cmd runs with none of ftscope's environment (the library reads none): its paths are written in
cat > bin/trace-cmd <<SH
#!/bin/bash
[ "\$1" = record ] || exit 1
out=
while [ \$# -gt 0 ]; do [ "\$1" = -o ] && out=\$2; shift; done
trap 'cp "$PWD/real.dat" "\$out"; exit 0' INT
while :; do sleep 0.1; done
SH
chmod +x bin/trace-cmd
touch rootonly3/keep1 rootonly3/keep2 rootonly3/keep3
PATH=$PWD/bin:$PATH "$FTS" record --backend trace-cmd --cpu 0 -o home3/t.dat -t 3 -q 2>G.log &
rec=$!
REC_PIDS="$REC_PIDS $rec"
for i in $(seq 1 30); do ls -d home3/.ftscope-tc.* >/dev/null 2>&1 && break; sleep 0.1; done
sleep 0.5
for d in home3/.ftscope-tc.*; do
	as_user mv "$d" home3/moved-tc || fail "G: the user cannot rename $d"
	as_user ln -s "$PWD/rootonly3" "$d" || fail "G: the user cannot make the symlink"
done
wait $rec; rc=$?
[ "$(ls -A rootonly3 | tr '\n' ' ')" = "keep1 keep2 keep3 " ] ||
	fail "G: the root-only directory changed: $(ls -A rootonly3 | tr '\n' ' ')"
[ "$rc" = 0 ] || { cat G.log; fail "G: the trace-cmd recording failed (exit $rc)"; }
cmp -s home3/t.dat real.dat || fail "G: the capture was not moved to the output"
echo "G: the trace-cmd scratch directory's swap changed nothing; the capture saved"

after=$(state)
[ "$before" = "$after" ] || { diff <(echo "$before") <(echo "$after"); fail "the tracing state changed"; }
echo "PASS"
