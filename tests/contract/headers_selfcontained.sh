#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every installed header compiles on its own, as C11 and as C++ (extern "C"),
# from include/ alone: no internal header leaks into the public API.
source "$(dirname "$0")/lib.sh"
command -v c++ > /dev/null || { echo "skip: no C++ compiler"; exit 77; }
for h in "$SRC"/include/ftscope/*.h; do
	name=ftscope/$(basename "$h")
	if printf '#include <%s>\nint main(void) { return 0; }\n' "$name" |
		cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I "$SRC/include" -x c - 2> "$WORK/c.err"; then
		pass "$name compiles alone as C11"
	else
		bad "$name as C11"; cat "$WORK/c.err"
	fi
	if printf '#include <%s>\nint main() { return 0; }\n' "$name" |
		c++ -Wall -Werror -fsyntax-only -I "$SRC/include" -x c++ - 2> "$WORK/cxx.err"; then
		pass "$name compiles alone as C++"
	else
		bad "$name as C++"; cat "$WORK/cxx.err"
	fi
done
finish
