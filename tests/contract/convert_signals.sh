#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 10, class 3: an interrupted convert leaves no temp file, and the next
# convert to the same directory removes temp files of dead writers (SIGKILL)
# but never one a live writer still holds. SIGINT and SIGTERM cancel through
# the library's progress callback (-ECANCELED: the library removes its own
# output and the command says so); the other signals remove it from the
# handler. Either way the command then dies by the signal.
source "$(dirname "$0")/lib.sh"
O=$WORK/out
mkdir -p "$O"
# a real capture replicated with shifted times, so a convert runs for a while
FTSCOPE="$FTSCOPE" SKIP_DAT=1 FTSCOPE_BENCH_DIR="$WORK/in" "$SRC/bench/make_input.sh" 20 > /dev/null 2>&1 ||
	{ echo "cannot build the input"; exit 1; }
IN=$WORK/in/trace.txt

temps() { ls -A "$O" | grep -c '^\.ftrace_data\.db\.tmp-' ; }

# Job control on: a non-interactive shell starts background jobs with SIGINT
# and SIGQUIT ignored (and ftscope keeps an ignored signal ignored).
set -m

# start_convert FMT: runs convert in the background once its temp file exists
start_convert() {
	local ext=$1
	"$FTSCOPE" convert -q --input "$IN" --output "$O/ftrace_data.$ext" > /dev/null 2> "$WORK/err" &
	pid=$!
	for _ in $(seq 200); do
		ls -A "$O" | grep -q "^\.ftrace_data\.$ext\.tmp-" && return 0
		sleep 0.02
	done
	return 1
}

for case in INT:db INT:json TERM:db TERM:json HUP:db QUIT:db PIPE:db XFSZ:json; do
	sig=${case%:*}
	for ext in ${case#*:}; do
		if ! start_convert $ext; then
			wait $pid; bad "SIG$sig $ext: no temp file seen (convert too fast?)"; continue
		fi
		kill -s $sig $pid
		wait $pid
		rc=$?
		left=$(ls -A "$O")
		if [ "$rc" -ne $((128 + $(kill -l $sig))) ]; then
			bad "SIG$sig $ext: exit $rc, want death by the signal"
		elif [ -n "$left" ]; then
			bad "SIG$sig $ext: left $left"
		elif [ "$sig" = INT ] || [ "$sig" = TERM ]; then
			if grep -q "interrupted by SIG$sig; nothing was written" "$WORK/err"; then
				pass "SIG$sig $ext: cancelled through the callback, died by the signal, nothing left"
			else
				bad "SIG$sig $ext: not cancelled through the callback: $(cat "$WORK/err")"
			fi
		else
			pass "SIG$sig $ext: died by the signal, nothing left"
		fi
		rm -rf "${O:?}"/* "$O"/.[!.]*
	done
done

# SIGKILL cannot be caught: the next convert removes the orphan
start_convert db || bad "SIGKILL: no temp file seen"
kill -KILL $pid; wait $pid 2> /dev/null
orphan=$(temps)
[ "$orphan" -eq 1 ] && pass "SIGKILL leaves one temp file" || bad "SIGKILL left $orphan temp files"
# a live writer's temp file (flock held, as ftscope holds it) must survive
live=$O/.ftrace_data.db.tmp-1-live
: > "$live"
flock "$live" sleep 60 &
holder=$!
sleep 2.2   # temp files younger than 2 s are never judged
expect_ok "convert after SIGKILL" "$FTSCOPE" convert -q --input "$SRC/assets/sample/sample.txt" --output "$O/ftrace_data.db"
if [ -e "$live" ] && [ "$(temps)" -eq 1 ]; then
	pass "the dead writer's temp file is removed, the live one kept"
else
	bad "after the next convert: $(ls -A "$O")"
fi
kill $holder 2> /dev/null; wait $holder 2> /dev/null
finish
