#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A DB past 1 GiB (issue 34 item 4; ctest label "slow", not in the quick
# tier): SQLite's lock-byte page sits at 1 GiB and no page may use it. A real
# convert of a replicated capture (bench/make_input.sh, text only) writes a
# DB of more than 1 GiB with --with_summary; libsqlite3 then finds every page
# consistent (PRAGMA quick_check), reads the last rows (stored past the lock
# page) and counts the same slices through each index as through the table.
# The inputs and the DB (about 2 GB together) are removed at the end. About
# 40 s on 2 CPUs (convert 23 s, quick_check 3 s).
source "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
trap 'rm -rf "$WORK"/trace.txt* "$WORK"/big.db' EXIT
# the DB is about 1.5 times the text: 800 MB of text make about 1.2 GB
if ! FTSCOPE="$FTSCOPE" FTSCOPE_BENCH_DIR=$WORK SKIP_DAT=1 bash "$SRC/bench/make_input.sh" 800 > make.log 2>&1; then
	cat make.log; bad "cannot build the input"; finish; exit 1
fi
start=$SECONDS
expect_ok "convert of $(($(stat -c %s trace.txt) >> 20)) MB of text" \
	"$FTSCOPE" convert -q --with_summary -i trace.txt -o big.db
size=$(stat -c %s big.db 2>/dev/null || echo 0)
echo "convert: $((SECONDS - start)) s, DB $((size >> 20)) MB"
if [ "$size" -gt $((1 << 30)) ]; then pass "the DB is past the lock-byte page ($size bytes)"
else bad "the DB is only $size bytes, not past 1 GiB"; fi
start=$SECONDS
if python3 - big.db > check.out 2>&1 <<'PY'
import sqlite3, subprocess, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
got = [r[0] for r in db.execute("PRAGMA quick_check")]
assert got == ["ok"], "quick_check: %s" % got[:5]
# the rows written last live past the lock-byte page: read them through the
# table and through each index
last = db.execute("SELECT id, timestamp, duration, name FROM slice ORDER BY id DESC LIMIT 100").fetchall()
assert len(last) == 100 and all(r[2] >= 0 for r in last), last[:3]
for idx in ("track_id_timestamp_end_time_index", "track_id_cat_index"):
    n = db.execute("SELECT count(*) FROM slice INDEXED BY %s WHERE track_id IS NOT NULL OR track_id IS NULL" % idx).fetchone()[0]
    assert n == db.execute("SELECT count(*) FROM slice NOT INDEXED").fetchone()[0], idx
print("quick_check ok;", db.execute("SELECT count(*) FROM slice").fetchone()[0], "slices")
PY
then pass "libsqlite3: $(cat check.out) ($((SECONDS - start)) s)"
else bad "libsqlite3 on the big DB: $(tail -3 check.out)"; fi
finish
