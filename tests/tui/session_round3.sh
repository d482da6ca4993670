#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 33, the interactive session, on the real binary in tmux at 80x24:
# - o after an export whose file no longer previews (replaced after the
#   export) returned to the export form without a word: now it says why;
# usage: session_round3.sh FTSCOPE SRCDIR WORKDIR
source "$(dirname "$0")/lib_session.sh" "$@"
export TZ=UTC
cp "$SRC/assets/sample/sample.txt" .

# --- o after an export whose preview fails
start 80 24 "TERM=xterm-256color LANG=C.UTF-8 $FTS"
wait_for "ftscope . home"
keys e
wait_for "ftscope . export"
keys x
wait_for "o opens the written file in the preview" 60
echo garbage > ftrace_data.db
keys o
wait_for "cannot open it: ftrace_data.db: not a trace" 10
screen | grep -q "ftscope . export" || fail "not back on the export screen"
ok "o on a file that no longer previews: back on the export form, saying why"
keys q
wait_for "ftscope . home"
keys q
[ "$(wait_exit)" = EXIT=0 ] || fail "exit status $(cat exit.status), want 0"
terminal_restored
