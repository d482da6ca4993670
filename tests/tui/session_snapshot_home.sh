#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 33, the interactive session's home: a flight snapshot directory
# (snapshot-*/ with manifest.json beside its segments) is listed as a
# "snapshot (one capture)", and Enter opens it in the preview as one trace,
# e exports it (the segments read as one capture, as `convert -i DIR`);
# before, Enter only went into it and e said "select a capture to export".
# Offline: the segment is a fixture trace.dat; no recording, no root.
# usage: session_snapshot_home.sh FTSCOPE SRCDIR WORKDIR
source "$(dirname "$0")/lib_session.sh" "$@"
export TZ=UTC
snap=snapshot-20261206T010203Z-signal
mkdir "$snap"
# a segment is an ftscope trace.dat (version 6), as the recorder writes them
tar -xJOf "$SRC/tests/data/dat/small-v6.dat.tar.xz" small-v6.dat >"$snap/t.000001.dat" || fail "cannot unpack the fixture"
printf '{"reason": "signal", "segments": [{"file": "t.000001.dat"}]}\n' >"$snap/manifest.json"

start 100 30 "TERM=xterm-256color LANG=C.UTF-8 $FTS"
wait_for "ftscope . home"
wait_for "snapshot +\(one capture\) +$snap/" 5
ok "the snapshot directory is listed as one capture"
keys Down
wait_for "ftscope preview $snap" 5
keys Enter
wait_for "^$snap \\| lost none \\| view" 30
wait_for "CPU 000 +440 items" 5
ok "Enter previews the snapshot as one trace"
keys q
wait_for "ftscope . home" 10
wait_for "ftscope preview $snap" 5
keys e
wait_for "ftscope . export" 10
screen | grep -q "select a capture to export" && fail "e on the snapshot was refused"
keys x
wait_for "o opens the written file in the preview" 60
[ -s ftrace_data.db ] || fail "no ftrace_data.db written from the snapshot"
ok "e exports the snapshot as one capture: ftrace_data.db ($(stat -c %s ftrace_data.db) bytes)"
keys q
wait_for "ftscope . home"
keys q
[ "$(wait_exit)" = EXIT=0 ] || fail "exit status $(cat exit.status), want 0"
terminal_restored
echo PASS
