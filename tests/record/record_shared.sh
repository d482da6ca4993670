#!/bin/bash
# SPDX-License-Identifier: MIT
# A shared host (issue 34 item 7): record_state's checks pass while other
# recorders start, run and get SIGKILLed beside them. The others are
# `ftscope record` run without this test's pid wrapper (as another user's
# would be): their instances, left behind by SIGKILL until some recorder
# sweeps them, are not this test's leaks. The churn is bounded in time and
# every instance it caused is removed at the end.
source "$(dirname "$0")/lib.sh" "$@"

CHURN_LIMIT=${FTS_CHURN_SECONDS:-600}
CHURN=$WORK/churn
mkdir -p "$CHURN"
# churn: recorders started one after another, each SIGKILLed after 0.1-1.5 s
# (some before their instance exists, most while it records), until
# churn/stop appears, this script ends, or CHURN_LIMIT seconds pass.
churn() {
	local end=$((SECONDS + CHURN_LIMIT)) n=0 p
	while [ ! -e "$CHURN/stop" ] && [ $SECONDS -lt $end ] && kill -0 $$ 2>/dev/null; do
		n=$((n + 1))
		"$REAL_FTS" record --record_time 0 --bf_size 256 --output "$CHURN/c$((n % 4)).dat" -q \
			2>/dev/null </dev/null &
		p=$!
		echo "$p" >>"$CHURN/pids"
		sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 0.1 + 1.4 * r / 32767 }')"
		[ -d "$T/instances/ftscope-$p" ] && echo "$p" >>"$CHURN/mid"
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
}
# churned NAME: 0 when instance NAME belongs to a churn recorder
churned() {
	local pid=${1#ftscope-}
	pid=${pid%%-*}
	[ -s "$CHURN/pids" ] && grep -qx -- "$pid" "$CHURN/pids"
}
stop_churn() {
	touch "$CHURN/stop"
	[ -n "${churner:-}" ] && wait "$churner" 2>/dev/null
	churner=""
	for d in "$T"/instances/ftscope-*; do
		[ -d "$d" ] && churned "${d##*/}" && rmdir "$d" 2>/dev/null
	done
}
trap 'stop_churn; cleanup_ours' EXIT

: >"$CHURN/pids"
: >"$CHURN/mid"
churn &
churner=$!
# Let the first ones start, so the checks meet a churn already running.
sleep 2
rc=0
bash "$SRC/tests/record/record_state.sh" "$REAL_FTS" "$SRC" "$WORK/state" || rc=$?
stop_churn
started=$(wc -l <"$CHURN/pids")
mid=$(wc -l <"$CHURN/mid")
echo "churn: $started recorders started beside the checks, $mid SIGKILLed while their instance existed"
[ $rc = 0 ] || fail "record_state's checks failed beside the churn (exit $rc)"
[ "$mid" -ge 3 ] || fail "only $mid churn recorders were killed mid-recording: the churn did not run beside the checks"
for d in "$T"/instances/ftscope-*; do
	[ -d "$d" ] && churned "${d##*/}" && fail "the churn's instance ${d##*/} is still there"
done
echo "ok: record_state's checks pass beside $started recorders started and SIGKILLed; none of their instances left"
