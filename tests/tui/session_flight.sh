#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 17, the flight recorder in the interactive session, as root on real
# tracefs: the setup's Mode row set to "1s 2" (Enter on it) starts a flight
# recording whose record screen shows the ring filling to 2 segments; s takes a
# snapshot (reason "key": a directory with manifest.json, named on the screen)
# and recording goes on; S stops and saves, the segments stay beside the
# output, and no tracefs instance is left. The ring and snapshot rows are
# looked at in 80x24 and 160x48 too: no row spills, no figure cut.
# The Trigger row refuses a bad rule with why and arms a good one (on the
# command line as --trigger, lost among them); the Snapshot row takes "last N s"; while it
# records, `ftscope snapshot --dir fl` reaches the session through the same
# ftscope-flight.pid as a CLI recorder's, and the file goes at the stop; a
# plain SIGUSR1 takes a snapshot (reason "signal") as record --flight does.
source "$(dirname "$0")/lib_session.sh" "$@"
need_root_tracefs
before=$(state)
mkdir fl

start 160 48 "$FTS"
wait_for "Captures and DBs here" 15
keys r
wait_for "ftscope . setup" 15
wait_for "Mode +capture" 10
keys c; text "0"; keys Enter   # CPU 0 only: small segments on a shared machine
wait_for "1 of [0-9]+ selected: 0 " 5
keys BTab            # from the CPU grid, the field above wraps to the last: Mode
keys Enter
wait_for "Enter accept" 5
keys C-u; text "1s 2"; keys Enter
wait_for "Mode +flight recorder: 1s segments, keep 2" 5
# a wrong value stays in the editor with the reason
keys Enter; keys C-u; text "1s 0"; keys Enter
wait_for "the segments kept are a number, 1..100000, not '0'" 5
keys C-u; text "1s 2"; keys Enter
wait_for "Mode +flight recorder: 1s segments, keep 2" 5
# the output: a .dat in fl/ (Output is four fields above Mode)
keys BTab BTab BTab BTab
wait_for "Output " 5
keys Enter; keys C-u; text "fl/run.dat"; keys Enter
wait_for "Keeps the last 2 segments as .*/fl/run.NNNNNN.dat" 5
wait_for '\$ ftscope record .*--flight --segment 1s --keep 2 --live_top -o fl/run.dat' 5
screen | grep '\$ ftscope record' | grep -q -- '--record_time' && fail "a flight command line with --record_time"
screen | grep '\$ ftscope record' | grep -q -- '--live_top' || fail "the live top left out of a flight recording"
# the Trigger row (Output -> Pid map -> Live top -> Backend -> Mode -> Trigger)
keys Tab Tab Tab Tab Tab
wait_for "Trigger +none" 5
keys Enter; keys C-u; text "wakeup>5"; keys Enter
wait_for "the trigger 'wakeup>5' needs a threshold with a unit" 5
keys C-u; text "wakeup>20s; lost"; keys Enter
wait_for "Trigger +wakeup>20s;lost: snapshot 2 s after" 5
wait_for "trigger .?wakeup>20s.? --trigger lost" 5
keys Tab Enter; keys C-u; text "30"; keys Enter
wait_for "Snapshot +s keeps the last 30 s" 5
ok "trigger and snapshot rows: $(screen | grep -m1 'Trigger ' | sed 's/^ *//')"
ok "setup: $(screen | grep '\$ ftscope record' | sed 's/^ *//')"

keys r
wait_for "REC .*until stopped" 15
wait_for "s snapshot .*S stop and save" 5
pid=$(app_pid)
[ -n "$pid" ] && [ -d $T/instances/ftscope-$pid ] || fail "no private instance ftscope-$pid while recording"
wait_for "Ring 2 of 2 segments of 1\.0 s" 30
ok "the ring: $(screen | grep -m1 'Ring ' | sed 's/^ *//')"
at80 "the ring" "Ring [0-9]+ of 2 segments of 1\.0 s, [0-9.]+ [KMG]?i?B on disk"
resize 160 48

keys s
wait_for "snapshot snapshot-[^ ]*-key kept in fl" 30
name=$(screen | tr -d '\n' | grep -Eo 'snapshot-[0-9A-Za-z._-]*-key' | head -1)
[ -n "$name" ] || fail "no snapshot name on the screen"
[ -d "fl/$name" ] || fail "the screen names fl/$name, which does not exist"
[ -s "fl/$name/manifest.json" ] || fail "no manifest.json in fl/$name"
python3 - "fl/$name/manifest.json" <<'PY' || fail "fl/$name/manifest.json: not the key's snapshot of 1+ segments"
import json, sys
m = json.load(open(sys.argv[1]))
sys.exit(not (m.get("reason") == "key" and len(m.get("segments", [])) >= 1))
PY
ls "fl/$name"/*.dat >/dev/null 2>&1 || fail "no segment in fl/$name"
wait_for "last snapshot $name" 5
ok "snapshot fl/$name with manifest.json, named on the screen"
# recording goes on: the elapsed time keeps moving
t1=$(screen | grep -Eo 'REC [^ ]+' | head -1)
sleep 2.5
t2=$(screen | grep -Eo 'REC [^ ]+' | head -1)
[ -n "$t1" ] && [ "$t1" != "$t2" ] || fail "recording did not go on after the snapshot ($t1 -> $t2)"
[ -d $T/instances/ftscope-$pid ] || fail "the instance went away after the snapshot"
ok "recording goes on after the snapshot ($t1 -> $t2)"
# ftscope snapshot finds the session by its pid file, as a CLI recorder
[ -s fl/ftscope-flight.pid ] || fail "the session wrote no fl/ftscope-flight.pid"
[ "$(cut -d' ' -f1 fl/ftscope-flight.pid)" = "$pid" ] || fail "fl/ftscope-flight.pid names $(cat fl/ftscope-flight.pid), not $pid"
sdir=$(timeout 60 "$FTS" snapshot --dir fl --reason fromcli 2>snap.err) || { cat snap.err; fail "ftscope snapshot did not reach the session"; }
case $sdir in fl/snapshot-*-fromcli) ;; *) fail "ftscope snapshot printed '$sdir'";; esac
python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); sys.exit(not (m["reason"] == "fromcli" and m["segments"]))' \
	"$sdir/manifest.json" || fail "$sdir/manifest.json is not the request's snapshot"
wait_for "asked by ftscope snapshot" 5
ok "ftscope snapshot reached the session: $sdir"
# a plain SIGUSR1 (kill -USR1, not through ftscope snapshot): a snapshot as record --flight takes one
kill -USR1 "$pid"
wait_for "snapshot snapshot-[^ ]*-signal .on SIGUSR1. kept in fl" 15
ls -d fl/snapshot-*-signal >/dev/null 2>&1 || fail "SIGUSR1 made no fl/snapshot-*-signal"
[ -d $T/instances/ftscope-$pid ] || fail "the session's recording ended on SIGUSR1"
ok "a plain SIGUSR1 took $(ls -d fl/snapshot-*-signal), recording goes on"
resize 80 24
wait_for "snapshot snapshot-|last snapshot|Ring " 5
[ "$(screen | wc -l)" -le 24 ] || fail "record screen at 80x24: more than 24 rows"
screen | grep -E 'Ring ' | grep -Eq 'on disk( of ~?[0-9.]+ [KMG]?i?B)?( \(keep x segment\))?($|;| *$)' ||
	fail "the ring row at 80x24 is cut: $(screen | grep 'Ring ')"
ok "80x24: $(screen | grep -m1 'Ring ' | sed 's/^ *//')"
resize 160 48

keys S
wait_for "ftscope . saved" 60
screen | tr -d '\n' | grep -Eq "flight: [0-9]+ segments kept \([^)]*\) as run.NNNNNN.dat in fl" ||
	fail "the saved screen does not say where the segments stay"
nseg=$(ls fl/run.[0-9][0-9][0-9][0-9][0-9][0-9].dat 2>/dev/null | wc -l)
[ "$nseg" -ge 2 ] || fail "$nseg segments in fl/, want 2 or more"
for f in fl/run.[0-9][0-9][0-9][0-9][0-9][0-9].dat; do
	"$FTS" stats "$f" >/dev/null 2>&1 || fail "segment $f does not read"
done
ok "stopped: $nseg segments in fl/ read; $(screen | tr -d '\n' | grep -Eo 'flight: [0-9]+ segments kept \([^)]*\)')"
[ -e fl/ftscope-flight.pid ] && fail "a pid file was left in fl/"
keys q; sleep 0.3; keys q
[ "$(wait_exit 15)" = EXIT=0 ] || fail "exit status $(cat exit.status), want 0"
[ -d $T/instances/ftscope-$pid ] && fail "instance ftscope-$pid left behind"
[ "$before" = "$(state)" ] || fail "the tracing state changed"
ok "no instance left, tracing state as before"
