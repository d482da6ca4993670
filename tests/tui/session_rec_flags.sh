#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 21, `ftscope record --tui` in a real terminal as root on real tracefs:
# item 10, every record flag reaches the setup and the capture (the pid
# mapping goes to --pid_mapping, not beside the output; --reader_nice, the
# buffer, the events, the output, the duration); item 7, the output's
# directory removed while recording is said at once and the capture saved
# where it says; item 13, buffers over MemAvailable (FTSCOPE_TEST_MEMINFO:
# this machine has more than CPUs x 4 GiB) are refused with the size that fits.
source "$(dirname "$0")/lib_session.sh" "$@"
need_root_tracefs
command -v hackbench >/dev/null || skip "hackbench (rt-tests) is not installed"
before=$(state)
mkdir caps maps
echo '{}' > caps/pid_mapping.json   # must stay as it is: the mapping goes to maps/my.json

start 220 40 "$FTS record --tui --cpu 0 --NSpid --pid_mapping maps/my.json --record_time 4 --bf_size 2048" \
	"--reader_nice -12 --events sched,-sched:sched_stat_runtime --output caps/run.dat"
wait_for "ftscope . setup"
wait_for "Pid map +on: maps/my.json"
cmd='\$ ftscope record --cpu 0 --events sched,-sched:sched_stat_runtime --record_time 4 --bf_size 2048 --NSpid'
cmd="$cmd --pid_mapping maps/my.json --live_top --reader_nice -12 -o caps/run.dat"
wait_for "$cmd"
ok "setup pre-filled: $(screen | grep '\$ ftscope record' | sed 's/^ *//')"

load 20
sleep 0.5
keys r
wait_for "REC .* / 4.0 s" 5
pid=$(app_pid)
[ -d $T/instances/ftscope-$pid ] || fail "no private instance ftscope-$pid while recording"
nice=$(ps -L -o nice=,comm= -p "$pid" | awk '$2 ~ /^fts-read/ {print $1; exit}')
[ "$nice" = -12 ] || fail "the readers run at nice '$nice', not --reader_nice -12"
ok "the readers run at nice $nice"
gone=$(date +%s%3N)
rm -rf caps
# the message may wrap: look at the screen as one line
i=0
until screen | tr -d '\n' | grep -Eq "directory .*/caps was removed while recording; run.dat goes to .*ftscope-saved-"; do
	[ $i -lt 20 ] || fail "no word of the removed directory within 2 s"
	sleep 0.1; i=$((i + 1))
done
ok "the removed directory said within $(( $(date +%s%3N) - gone )) ms"
wait_for "ftscope . saved" 30
target=$(ls -d "$WORK"/ftscope-saved-*/run.dat 2>/dev/null | head -1)
[ -s "$target" ] || fail "no capture saved in ftscope-saved-*/"
screen | tr -d '\n' | grep -q "ftscope-saved-" || fail "the saved screen does not name the new place"
[ -s maps/my.json ] || fail "the pid mapping was not written to --pid_mapping maps/my.json"
python3 -c 'import json,sys; m=json.load(open("maps/my.json")); sys.exit(not m)' || fail "maps/my.json is empty"
[ -e "$(dirname "$target")/pid_mapping.json" ] && fail "a pid mapping was written beside the output too"
"$FTS" convert -q -i "$target" -o saved.db || fail "the saved capture does not convert"
trace-cmd report -i "$target" 2>/dev/null | grep -q 'sched_stat_runtime:' && fail "--events left-out sched_stat_runtime was recorded"
ok "saved to $target (converts), the pid mapping in maps/my.json"
keys q; sleep 0.3; keys q
[ "$(wait_exit 10)" = EXIT=0 ] || fail "exit status $(cat exit.status), want 0"
[ -d $T/instances/ftscope-$pid ] && fail "instance ftscope-$pid left behind"

# Item 13: 64 MiB "available": 2 CPUs x 40960 KB refused, with the size that fits.
printf 'MemTotal: 1048576 kB\nMemAvailable: 65536 kB\n' > meminfo
start 120 40 "FTSCOPE_TEST_MEMINFO=$WORK/meminfo $FTS record --tui --cpu 0-1 --bf_size 40960 --output big.dat"
wait_for "ftscope . setup"
wait_for "The buffers need more than 7/8 of the memory available: at most 19456 KB per CPU fits"
keys r
wait_for "at most 19456 KB per CPU fits \(Buffer: Enter sets it\)" 3
screen | grep -q "REC " && fail "recorded although the buffers do not fit"
ok "too big a buffer refused: $(screen | grep -m1 'at most' | sed 's/^ *//')"
keys q; sleep 0.3
[ "$(wait_exit 10)" = EXIT=0 ] || fail "exit status $(cat exit.status), want 0"
[ -e big.dat ] && fail "a refused capture left big.dat"
[ "$before" = "$(state)" ] || fail "the tracing state changed"
