# SPDX-License-Identifier: MIT
# Sourced by the scripts that make real captures (assets/sample/make_sample.sh,
# tests/data/make_fixtures.sh, bench/make_input.sh): the event set ftscope
# records and the setup of a private tracefs instance. Never the global files.
# The event set comes from the binary (`ftscope record --list-events`, the
# table in include/ftscope/event.h), so it cannot drift from what `ftscope
# record` enables. The binary is $FTSCOPE, else the tree's build/ftscope, else
# ftscope on PATH; there is no hand-kept fallback list: every script that
# sources this (fixtures, sample, bench input) runs next to a build.
fts_capture_bin() {
	local top
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	if [ -n "${FTSCOPE:-}" ]; then echo "$FTSCOPE"
	elif [ -x "$top/build/ftscope" ]; then echo "$top/build/ftscope"
	elif command -v ftscope >/dev/null; then command -v ftscope
	else return 1; fi
}
FTS_BIN=$(fts_capture_bin) || { echo "capture_lib.sh: no ftscope binary (build one, or set FTSCOPE)" >&2; exit 1; }
FTS_EVENTS=$("$FTS_BIN" record --list-events sched irq) || { echo "capture_lib.sh: $FTS_BIN record --list-events failed" >&2; exit 1; }

# fts_instance_setup DIR BUFFER_KB: tracing off, mono_raw clock, buffer size, events on
fts_instance_setup() {
	echo 0 > "$1/tracing_on"            # a new instance starts with tracing_on=1
	echo mono_raw > "$1/trace_clock"
	echo "$2" > "$1/buffer_size_kb"
	local e
	for e in $FTS_EVENTS; do echo 1 > "$1/events/$e/enable"; done
}
