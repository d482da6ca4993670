#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 33, smaller defects around `record --flight`, as root on real tracefs:
# - usage errors exit 2, not 1: --flight --segment 0.1, --flight -o x.txt,
#   --flight --backend trace-cmd (refused by fts_record_probe, before anything);
# - every `ftscope record` example of the man pages parses (the hostbound page's
#   `record ... -- python3 train.py` did not: ftscope does not run a command);
# - "segments of 1.0 s", not "segments of 1" (the parsed length, with its unit);
# - a backgrounded `record --flight &` in an interactive shell draws no live block
#   over the shell (it is not in its terminal's foreground process group);
# - `preview` of the segment directory says which segments it read;
# - `convert` in the flight directory without -i says to give -i ., exit 2;
# - `record --tui --flight --segment 2s --keep 3 --trigger lost` opens the setup in
#   the flight recorder's mode with them (it was refused).
source "$(dirname "$0")/lib.sh" "$@"
command -v tmux > /dev/null || skip "tmux is not installed"
before=$(state)
pass=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }

# --- usage errors: exit 2 with the reason
usage() { # usage DESC PATTERN ARGS...
	local desc=$1 pat=$2 rc=0
	shift 2
	timeout 20 "$FTS" record "$@" > out 2>&1 < /dev/null || rc=$?
	[ $rc = 2 ] && grep -Eq -- "$pat" out && ok "$desc: exit 2" || fail "$desc: exit $rc: $(cat out)"
}
mkdir -p u
usage "--flight --segment 0.1" "at least 0.5 s" --flight --segment 0.1 -t 1 -o u/x.dat
usage "--flight -o x.txt" "choose a .dat output" --flight -t 1 -o u/x.txt
usage "--flight --backend trace-cmd" "needs the native backend" --flight --backend trace-cmd -t 1 -o u/x.dat
usage "--segment 0.1 without --flight" "belong to --flight" --segment 0.1 -t 1 -o u/x.dat
usage "--tui --flight --post_trigger 5" "post_trigger is not in the setup" --tui --flight --trigger lost --post_trigger 5
[ -z "$(ls u)" ] || fail "a usage error left files: $(ls u)"

# --- the man pages' record examples parse (--help after them: parsed whole, nothing run)
n=0
while IFS= read -r line; do
	args=${line#*ftscope record}
	args=${args%%#*}
	args=${args%%&*}                 # a job in the background: its words only
	help=--help; case $args in *--list-events*) help= ;; esac   # that one only lists
	# shellcheck disable=SC2086 # the example's words, as a shell splits them
	"$FTS" record $args $help > /dev/null 2> err || fail "a man page example does not parse: 'ftscope record$args': $(cat err)"
	n=$((n + 1))
done < <(python3 - "$SRC"/docs/man/*.scd <<'PY'
import re, sys
# each example line that runs `ftscope record`, its "\\" continuations (scd's escaped "\") joined
for path in sys.argv[1:]:
    text = re.sub(r"\\\\\n\s*", " ", open(path).read())
    for line in text.splitlines():
        if re.match(r"^(sudo )?ftscope record\b", line):
            print(line)
PY
)
[ $n -ge 3 ] && ok "the man pages' $n record examples parse" || fail "only $n record examples found"

# --- a flight recording in the background of an interactive shell
sock=fts-r3-$$
tmux -L "$sock" kill-server 2> /dev/null
cleanup_tmux() { tmux -L "$sock" kill-server 2> /dev/null; cleanup_ours; }
trap cleanup_tmux EXIT
tmux -L "$sock" new-session -d -x 100 -y 30 "env PS1='$ ' bash --norc -i"
sleep 0.3
tmux -L "$sock" send-keys "cd '$WORK' && mkdir -p fl && clear" Enter
sleep 0.3
tmux -L "$sock" send-keys "'$FTS' record --flight --segment 1 --keep 3 -t 4 -o fl/x.dat &" Enter
sleep 2.5
tmux -L "$sock" send-keys "echo still-mine" Enter
sleep 0.5
tmux -L "$sock" capture-pane -p > pane.bg
grep -q "segments of 1.0 s, keeping 3" pane.bg && ok "the start line says 'segments of 1.0 s'" ||
	fail "the start line: $(grep recording pane.bg)"
if grep -Eq "^ *cpu[0-9]+ |flight: [0-9]+ segments kept|events .* written" pane.bg; then
	fail "the backgrounded recorder drew its live block over the shell: $(cat pane.bg)"
fi
grep -q "^still-mine" pane.bg || fail "the shell's output is not there: $(cat pane.bg)"
ok "backgrounded: no live block over the shell"
for i in $(seq 100); do
	tmux -L "$sock" capture-pane -p | grep -q "recorded [0-9.]* s," && break
	sleep 0.1
done
tmux -L "$sock" capture-pane -p | grep -q "recorded [0-9.]* s," || fail "the background recording did not end"
nseg=$(ls fl/x.*.dat | wc -l)
[ "$nseg" -ge 2 ] || fail "only $nseg segments"

# --- preview of the segment directory names them; convert there without -i hints
"$FTS" preview fl --print 80x24 > /dev/null 2> prev.err || fail "preview of the segments: $(cat prev.err)"
grep -q "note: reading $nseg segments of fl as one trace, in time order: x.0" prev.err &&
	ok "preview says which segments it read: $(cat prev.err)" || fail "preview: [$(cat prev.err)]"
rc=0
(cd fl && "$FTS" convert > ../conv.out 2>&1) || rc=$?
[ $rc = 2 ] && grep -q "no trace.dat here, but $nseg flight-recorder segments (x.0.*): convert them as one trace with -i \." conv.out &&
	ok "convert in the flight directory: $(cat conv.out)" || fail "convert without -i: exit $rc: $(cat conv.out)"
[ ! -e fl/ftrace_data.db ] || fail "convert without -i wrote a DB"

# --- record --tui --flight: the setup in flight mode, with the flags
tmux -L "$sock" send-keys "'$FTS' record --tui --flight --segment 2s --keep 3 --trigger lost -o fl2/y.dat" Enter
for i in $(seq 50); do
	tmux -L "$sock" capture-pane -p -J | tr -d '\n' | grep -q -- "--flight --segment 2s --keep 3 --trigger lost" && break
	sleep 0.1
done
tmux -L "$sock" capture-pane -p -J > pane.tui
tr -d '\n' < pane.tui | grep -q -- "--flight --segment 2s --keep 3 --trigger lost" &&
	ok "record --tui --flight: the setup in flight mode with --segment 2s --keep 3 --trigger lost" ||
	fail "record --tui --flight: $(cat pane.tui)"
tmux -L "$sock" send-keys q
sleep 0.5
tmux -L "$sock" send-keys q
sleep 0.3
[ "$(state)" = "$before" ] || fail "tracing state changed: $(diff <(echo "$before") <(state))"
echo "$pass passed"
