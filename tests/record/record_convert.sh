#!/bin/bash
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
from collections import defaultdict
def rows(p):
    return [(n, int(t), int(d)) for n, t, d in (l.rstrip("\n").split("|") for l in open(p))]
a, b = rows("dat.rows"), rows("txt.rows")
assert len(a) > 100, "only %d slices from the dat" % len(a)
assert len(a) == len(b), "%d slices from dat, %d from txt" % (len(a), len(b))
# Text keeps microseconds: a slice matches when its start is within 1 us and
# its duration within 2 us (ties inside one microsecond may sort differently).
pool = defaultdict(list)
for n, t, d in b:
    pool[(n, t // 1000)].append((t, d))
bad = []
for n, t, d in a:
    for k in (t // 1000, t // 1000 - 1, t // 1000 + 1):
        c = [x for x in pool.get((n, k), []) if abs(x[0] - t) <= 1000 and abs(x[1] - d) <= 2000]
        if c:
            pool[(n, k)].remove(c[0])
            break
    else:
        bad.append((n, t, d))
# Events inside one microsecond keep their order in the dat but tie in the
# text, so a few very short slices may split differently: allow 1%.
assert len(bad) * 100 <= len(a), "%d dat slices have no txt twin, e.g. %s" % (len(bad), bad[:3])
print("ok: %d slices, %d agree between dat and txt within text rounding" % (len(a), len(a) - len(bad)))
PY
