#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 20: the setup and record screens on a 192-CPU machine (rec_shot with
# REC_SHOT_NCPUS=192: two NUMA nodes; a feed where every 16th CPU from 5 on
# and CPU 1 lose events, fills and rates vary), at 80x24 and 200x60: the worst
# CPUs first, the totals always on screen, PgDn/PgUp scrolling the CPU table,
# a line that says what the rows out of sight lost (never "all healthy" when
# some lost), grid cells that never run into each other and rows that fit.
# Compared with tests/session/golden/rec192_*.screen and checked for those
# properties, so a changed golden still has to keep them.
# usage: rec192_screens.sh FTSCOPE SRCDIR WORKDIR   (FTS_UPDATE_GOLDEN=1 rewrites them)
set -uo pipefail
src=$(readlink -f "$2") work=$3
rm -rf "$work"; mkdir -p "$work"; work=$(readlink -f "$work")
shot=$(dirname "$work")/rec_shot fix=$src/tests/session/fixtures gold=$src/tests/session/golden
export TZ=UTC LANG=C.UTF-8 LC_ALL=C.UTF-8 REC_SHOT_OPTS=$work/opts REC_SHOT_NCPUS=192
unset NO_COLOR REC_SHOT_CPUS REC_SHOT_OUTPUT REC_SHOT_LOSSLESS REC_SHOT_FAIL
fail=0
# shot NAME SCREEN SIZE KEYS: draw it, compare it with its golden, check it fits
shot() {
	local out=$work/$1.screen
	"$shot" "$2" "$3" "$fix" "$4" > "$out" 2> "$work/$1.err" || { echo "FAIL $1: exit status"; cat "$work/$1.err"; fail=1; return; }
	python3 - "$out" "${3%x*}" <<'PY' || { echo "FAIL $1: a row wider than the screen"; fail=1; }
import sys
w = int(sys.argv[2])
sys.exit(any(len(l) > w for l in open(sys.argv[1], encoding="utf-8").read().split("\n")))
PY
	if [ "${FTS_UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$out" "$gold/$1.screen"; echo "updated $1"
	elif ! diff -u "$gold/$1.screen" "$out" > "$work/$1.diff"; then
		echo "FAIL $1: differs from its golden:"; cat "$work/$1.diff"; fail=1
	else
		echo "ok $1 (golden)"
	fi
}

# The record screen: totals, worst first, the footer's arithmetic, scrolling to the end.
check_record() { # NAME FIRST LAST: the table shows rows FIRST..LAST of 192
	python3 - "$work/$1.screen" "$2" "$3" <<'PY'
import re, sys
rows = open(sys.argv[1], encoding="utf-8").read().split("\n")
first, last = int(sys.argv[2]), int(sys.argv[3])
tot = [r for r in rows if r.startswith(" Events ")]
assert tot, "no totals line"
m = re.search(r"lost (\d+) events", tot[0])
assert m, tot[0]
total_lost = int(m.group(1))
cpu = [r for r in rows if re.match(r"^ cpu\d+ ", r)]
assert len(cpu) == last - first + 1, (len(cpu), first, last)
lost = []
for r in cpu:
    f = r.split()
    # ... fill% lost [+new]: the lost column is the first field after the fill
    i = next(k for k, x in enumerate(f) if x.endswith("%"))
    lost.append(int(f[i + 1]))
foot = [r for r in rows if re.match(r"^ CPUs \d+-\d+ of 192, worst first", r)]
assert foot, "no footer line"
fm = re.match(r"^ CPUs (\d+)-(\d+) of 192, worst first; (?:(\d+) not shown lost (\d+) events|those not shown lost nothing) \((PgDn|PgUp|PgUp/PgDn)\)$", foot[0])
assert fm, foot[0]
assert (int(fm.group(1)), int(fm.group(2))) == (first, last), foot[0]
hidden = int(fm.group(4) or 0)
assert sum(lost) + hidden == total_lost, (lost, hidden, total_lost)
if first == 1:  # the worst first: the lost column never rises down the table while it is non-zero
    nz = [x for x in lost if x]
    assert nz == sorted(nz, reverse=True) and lost[:len(nz)] == nz, lost
keys = fm.group(5)
assert keys == ("PgDn" if first == 1 else "PgUp" if last == 192 else "PgUp/PgDn"), keys
assert "all healthy" not in "\n".join(rows)
PY
	if [ $? = 0 ]; then echo "ok $1: rows $2-$3, totals, worst first, the footer adds up"; else echo "FAIL $1"; fail=1; fi
}

shot rec192_record_80x24 record 80x24 ''
check_record rec192_record_80x24 1 5
shot rec192_record_pgdn_80x24 record 80x24 '<PgDn>'
check_record rec192_record_pgdn_80x24 6 10
shot rec192_record_pgup_80x24 record 80x24 '<PgDn><PgDn><PgUp>'
check_record rec192_record_pgup_80x24 6 10
shot rec192_record_200x60 record 200x60 ''
check_record rec192_record_200x60 1 41
shot rec192_record_end_200x60 record 200x60 '<PgDn><PgDn><PgDn><PgDn><PgDn><PgDn>'
check_record rec192_record_end_200x60 152 192

# The setup's grid: cells apart, node shown, scrolls with the cursor.
check_grid() { # NAME
	python3 - "$work/$1.screen" <<'PY'
import re, sys
rows = [r for r in open(sys.argv[1], encoding="utf-8").read().split("\n") if re.match(r"^  \[[x ]\] +\d+ ", r)]
assert rows, "no grid rows"
for r in rows:
    cells = re.findall(r"\[[x ]\] +\d+ +(?:\?|\d+)% n\d+", r)
    assert cells and len("  ".join(cells)) <= len(r.strip()) + 1, r
    assert not re.search(r"\d\[|n\d+\[|%n", r), r
PY
	if [ $? = 0 ]; then echo "ok $1: grid cells apart"; else echo "FAIL $1: grid cells run together"; fail=1; fi
}
shot rec192_setup_80x24 setup 80x24 ''
check_grid rec192_setup_80x24
shot rec192_setup_200x60 setup 200x60 ''
check_grid rec192_setup_200x60
shot rec192_setup_scroll_80x24 setup 80x24 "$(printf '<Down>%.0s' $(seq 1 40))"
check_grid rec192_setup_scroll_80x24
grep -q '\[x\] 160 ' "$work/rec192_setup_scroll_80x24.screen" && echo "ok the cursor scrolled the grid to CPU 160" ||
	{ echo "FAIL: the grid did not scroll with the cursor"; cat "$work/rec192_setup_scroll_80x24.screen"; fail=1; }
exit $fail
