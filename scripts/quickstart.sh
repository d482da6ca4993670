#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One command on a fresh Debian 12 machine: install dependencies, build, and
# run ftscope on the bundled sample capture (a real trace with Ascend-style
# profiling clock files and a container pid mapping): convert it for
# MindStudio Insight, then open it in the terminal previewer (one printed
# screen when not on a terminal).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/deps.sh"
"$top/scripts/build.sh"
S=$top/assets/sample
out=${TMPDIR:-/tmp}/ftscope-quickstart
mkdir -p "$out"
echo
echo "== ftscope convert (bundled sample -> $out/ftrace_data.db) =="
"$top/build/ftscope" convert --input "$S/sample.dat" --profiling_data "$S/profiling" \
	--pid_mapping "$S/pid_mapping.json" --output "$out/ftrace_data.db"
echo
echo "Import $out/ftrace_data.db into MindStudio Insight next to the profiling data."
prev=("$top/build/ftscope" preview "$S/sample.dat" --profiling_data "$S/profiling"
	--pid_mapping "$S/pid_mapping.json")
if [ -t 0 ] && [ -t 1 ] && [ "${TERM:-dumb}" != dumb ] && [ -z "${CI:-}" ]; then
	echo "Opening the sample in the terminal previewer (q quits, ? lists the keys)..."
	sleep 1
	"${prev[@]}"
	echo "Next: 'sudo $top/build/ftscope' opens the interactive session (record, preview, export)."
else
	echo
	echo "== ftscope preview (one screen; on a terminal it is interactive) =="
	"${prev[@]}" --print 120x30
fi
