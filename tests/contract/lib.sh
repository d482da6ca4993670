# SPDX-License-Identifier: MIT
# Shared helpers for the shell tests: sourced, not run.
# Every test gets: $1 ftscope binary, $2 source dir, $3 scratch dir.
set -u
FTSCOPE=$1
SRC=$2
WORK=$3
rm -rf "$WORK"
mkdir -p "$WORK"
CHECK="python3 $SRC/tests/contract/insight_check.py"
failures=0
passes=0

pass() { passes=$((passes + 1)); echo "ok   $*"; }
bad() { failures=$((failures + 1)); echo "FAIL $*"; }

# expect_ok DESC CMD...: the command must exit 0
expect_ok() {
	local desc=$1; shift
	if "$@" > "$WORK/last.out" 2>&1; then pass "$desc"; else bad "$desc (exit $?)"; cat "$WORK/last.out"; fi
}

# expect_fail DESC PATTERN CMD...: non-zero exit and stderr/stdout matching PATTERN
expect_fail() {
	local desc=$1 pat=$2; shift 2
	if "$@" > "$WORK/last.out" 2>&1; then
		bad "$desc (exit 0)"; cat "$WORK/last.out"
	elif ! grep -Eq -- "$pat" "$WORK/last.out"; then
		bad "$desc (message does not match /$pat/)"; cat "$WORK/last.out"
	else
		pass "$desc"
	fi
}

# slices DB: one canonical line per slice: lane tid | name | ts | dur
slices() {
	sqlite3 -separator '|' "$1" "SELECT t.tid, s.name, s.timestamp, s.duration FROM slice s JOIN thread t ON t.track_id = s.track_id ORDER BY 1, 3, 2, 4"
}

# time_scale: how many times slower this machine runs now (tests/time_scale.sh)
source "$SRC/tests/contract/time_scale.sh"

finish() {
	echo "$passes passed, $failures failed"
	[ "$failures" -eq 0 ]
}
