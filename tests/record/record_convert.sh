#!/bin/bash
# SPDX-License-Identifier: MIT
# A real capture converts, and the .dat and .txt forms of one native capture
# convert to the same slices (text has microsecond timestamps, so slices are
# compared at microsecond precision).
source "$(dirname "$0")/lib.sh" "$@"
DAT2TXT=$(dirname "$WORK")/fts_dat2txt
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
[ -x "$DAT2TXT" ] || skip "fts_dat2txt not built"
"$FTS" convert --help >/dev/null 2>&1 || skip "ftscope convert not available in this build"
load 4
"$FTS" record --record_time 2 --bf_size 4096 --output c.dat -q 2>log || { cat log; fail "record failed"; }
"$DAT2TXT" c.dat > c.txt || fail "cannot render c.dat as text"
"$FTS" convert --input c.dat --output dat.db >clog 2>&1 || { cat clog; fail "convert of the dat failed"; }
"$FTS" convert --input c.txt --output txt.db >clog 2>&1 || { cat clog; fail "convert of the text failed"; }
q="select name, timestamp, duration from slice order by 1,2,3"
sqlite3 dat.db "$q" > dat.rows || fail "no slice table in dat.db"
sqlite3 txt.db "$q" > txt.rows || fail "no slice table in txt.db"
python3 - <<'PY' || fail "dat and txt slices differ"
import bisect
from collections import defaultdict
def rows(p):
    return [(n, int(t), int(d)) for n, t, d in (l.rstrip("\n").split("|") for l in open(p))]
# A task state under 1 us may round to 0 in the text, and the model writes no
# zero-length state slice: compare the states that last at least 1 us.
STATES = ("Running", "Runnable", "Sleeping")
def keep(r):
    return not (r[0] in STATES and r[2] < 1000)
a, b = [r for r in rows("dat.rows") if keep(r)], [r for r in rows("txt.rows") if keep(r)]
assert len(a) > 100, "only %d slices from the dat" % len(a)
# Under hackbench, events of two CPUs inside one microsecond reach the text
# model in another order than their nanoseconds (a wakeup before the switch
# that put the task to sleep), which splits a few Sleeping stretches
# differently: 0.11% more txt slices in one CI run (base bb0b66a alike on the
# same file). Counts may differ by 0.3%; the slices themselves by 0.1% below.
assert abs(len(a) - len(b)) * 1000 <= 3 * len(a), "%d slices from dat, %d from txt" % (len(a), len(b))
# Text keeps microseconds: a dat slice matches an unused txt slice of the same
# name whose start is within 1 us and duration within 2 us, taken in time
# order so slices that tie inside one microsecond pair up one to one.
by = defaultdict(list)
for n, t, d in b:
    by[n].append((t, d))
for v in by.values():
    v.sort()
used = {n: [False] * len(v) for n, v in by.items()}
bad = []
for n, t, d in sorted(a):
    v = by.get(n, [])
    i = bisect.bisect_left(v, (t - 1000, -1))
    while i < len(v) and v[i][0] <= t + 1000:
        if not used[n][i] and abs(v[i][1] - d) <= 2000:
            used[n][i] = True
            break
        i += 1
    else:
        bad.append((n, t, d))
# A handful of very short slices may split differently when several events
# share one microsecond in the text: allow 0.1%.
assert len(bad) * 1000 <= len(a), "%d dat slices have no txt twin, e.g. %s" % (len(bad), bad[:3])
print("ok: %d slices, %d agree between dat and txt within text rounding" % (len(a), len(a) - len(bad)))
PY
