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
q="select name, timestamp/1000, duration/1000 from slice order by 1,2,3"
sqlite3 dat.db "$q" > dat.rows || fail "no slice table in dat.db"
sqlite3 txt.db "$q" > txt.rows || fail "no slice table in txt.db"
n=$(wc -l < dat.rows)
[ "$n" -gt 100 ] || fail "only $n slices from the dat"
# Durations computed from µs-rounded ends may differ by 1 µs: compare name+start exactly, count too.
cut -d'|' -f1,2 dat.rows > a; cut -d'|' -f1,2 txt.rows > b
cmp -s a b || { diff a b | head; fail "dat and txt slices differ"; }
echo "ok: $n identical slices from dat and txt"
