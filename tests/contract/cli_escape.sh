#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 10, class 6: no raw control byte reaches the terminal. Arguments
# echoed back (command, option names and values, paths) and names read from
# a crafted trace.dat come out escaped; stdout and stderr carry no ESC, BEL,
# C1 control or invalid UTF-8 from the input.
source "$(dirname "$0")/lib.sh"
E=$'\e]0;pwn\a\e[31m\xc2\x9b\xff'
S=$SRC/assets/sample/sample.txt
mkdir -p "$WORK/o"

# clean FILE: only printable ASCII, tab, newline, CR and valid UTF-8 text
clean() {
	LC_ALL=C grep -q $'[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]' "$1" && return 1
	iconv -f UTF-8 -t UTF-8 "$1" > /dev/null 2>&1 || return 1
	LC_ALL=C grep -q $'\xc2[\x80-\x9f]' "$1" && return 1
	return 0
}

# check DESC WANT-EXIT CMD...: exit code and escaped output
check() {
	local desc=$1 want=$2; shift 2
	"$@" > "$WORK/out" 2>&1
	local rc=$?
	if [ "$rc" -ne "$want" ]; then
		bad "$desc: exit $rc, want $want"; cat -v "$WORK/out"
	elif ! clean "$WORK/out"; then
		bad "$desc: raw control bytes reached the terminal"; cat -v "$WORK/out"
	elif ! grep -q '\\x1b' "$WORK/out"; then
		bad "$desc: the hostile text is not shown escaped"; cat -v "$WORK/out"
	else
		pass "$desc"
	fi
}

check "unknown command" 2 "$FTSCOPE" "bogus$E"
check "unknown option" 2 "$FTSCOPE" convert "--in$E"
check "unknown short option" 2 "$FTSCOPE" convert "-$E"
check "stray argument" 2 "$FTSCOPE" convert "stray$E"
check "bad --format" 2 "$FTSCOPE" convert --input "$S" --format "x$E"
check "bad --output suffix" 2 "$FTSCOPE" convert --input "$S" --output "$WORK/o/x$E.txt"
check "missing input" 1 "$FTSCOPE" convert --input "$WORK/nope$E.dat" --output "$WORK/o/ftrace_data.db"
check "missing output dir" 1 "$FTSCOPE" convert --input "$S" --output "$WORK/nodir$E/ftrace_data.db"
check "non-Insight output name" 0 "$FTSCOPE" convert --input "$S" --output "$WORK/o/x$E.db"
check "pidmap bad interval" 2 "$FTSCOPE" pidmap --interval "1$E"
check "pidmap output dir missing" 1 "$FTSCOPE" pidmap --output "$WORK/nodir$E/pid_mapping.json"
check "record unknown option" 2 "$FTSCOPE" record "--x$E"

# a trace.dat whose buffer instance is named with escape sequences and whose
# data page is corrupt: the error names the buffer, escaped
tar -xJf "$SRC/tests/data/dat/small-v6.dat.tar.xz" -C "$WORK"
python3 "$SRC/tests/dat/corrupt_dat.py" "$WORK/small-v6.dat" "$WORK/bad.dat" commit > /dev/null
python3 - "$WORK/bad.dat" <<'PY'
import sys
p = sys.argv[1]
b = open(p, "rb").read()
evil = b"\x1b]0;x\x07\x9b\x1b[2J"          # same length as "ftstest-dat"
assert len(evil) == len(b"ftstest-dat")
open(p, "wb").write(b.replace(b"ftstest-dat", evil))
PY
check "crafted buffer name in a corrupt trace.dat" 1 "$FTSCOPE" convert --input "$WORK/bad.dat" --output "$WORK/o/ftrace_data.db"
finish
