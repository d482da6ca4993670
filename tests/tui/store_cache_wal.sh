#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 33, smaller defects: the preview's store cache (src/export/preview/store_cache.c)
# - a WAL-mode DB whose new rows are only in its -wal (the main file untouched)
#   is a miss, not the stale store: the key holds the -wal's identity too;
# - a cache file whose task item names no string (FTS_STR_NONE), with both
#   checksums made right, is rejected on load, not a crash on the summary (s).
# usage: store_cache_wal.sh FTSCOPE SRCDIR WORKDIR
source "$(dirname "$0")/../contract/lib.sh"
FTSCOPE=$(readlink -f "$FTSCOPE")
TAMPER="python3 $SRC/tests/tui/cache_tamper.py"
export XDG_CACHE_HOME=$WORK/xdg
unset FTSCOPE_NO_CACHE
CDIR=$XDG_CACHE_HOME/ftscope
SIZE=100x30

# shot NAME INPUT [ARGS...]: the screen to $WORK/NAME.out, stderr to $WORK/NAME.err; $rc its exit
shot() {
	local name=$1 in=$2
	shift 2
	rc=0
	"$FTSCOPE" preview "$in" --print "$SIZE" "$@" > "$WORK/$name.out" 2> "$WORK/$name.err" || rc=$?
}

"$FTSCOPE" convert -q -i "$SRC/assets/sample/sample.txt" -o "$WORK/t.db" || { bad "convert the sample"; finish; exit 1; }
python3 -c "import sqlite3; c = sqlite3.connect('$WORK/t.db'); c.execute('PRAGMA journal_mode=WAL'); c.close()"
shot first "$WORK/t.db"
shot again "$WORK/t.db"
grep -q "from cache" "$WORK/again.err" && pass "a WAL-mode DB is cached" || bad "no cache hit: $(cat "$WORK/again.err")"

# new rows committed into the -wal only: a task lane "zzfresh:4242"
before=$(stat -c '%s %Y %Z' "$WORK/t.db")
python3 - "$WORK/t.db" <<'PY'
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA wal_autocheckpoint=0")
tid = c.execute("SELECT max(track_id) FROM thread").fetchone()[0] + 1
ts = c.execute("SELECT min(timestamp) FROM slice").fetchone()[0]
c.execute("BEGIN")
c.execute("INSERT INTO thread VALUES (?, 'zzfresh:4242', 'Process Scheduling', 'zzfresh:4242', 0)", (tid,))
c.execute("INSERT INTO slice (timestamp, duration, name, track_id, args, end_time)"
          " VALUES (?, 1000000, 'Running', ?, '{}', ?)", (ts, tid, ts + 1000000))
c.execute("COMMIT")
os._exit(0)  # no close: no checkpoint, the rows stay in the -wal
PY
[ -s "$WORK/t.db-wal" ] && [ "$(stat -c '%s %Y %Z' "$WORK/t.db")" = "$before" ] &&
	pass "the new rows are in the -wal, the main file untouched" || bad "the -wal setup"
shot fresh "$WORK/t.db" --keys '/zzfresh\n'
shot ref "$WORK/t.db" --no_cache --keys '/zzfresh\n'
if ! grep -q "from cache" "$WORK/fresh.err" && cmp -s "$WORK/fresh.out" "$WORK/ref.out" &&
   grep -q "zzfresh" "$WORK/ref.out"; then
	pass "rows in the -wal: a miss, the screen with them"
else
	bad "rows in the -wal: [$(cat "$WORK/fresh.err")]"; diff "$WORK/fresh.out" "$WORK/ref.out" | head -6
fi
shot fresh2 "$WORK/t.db" --keys '/zzfresh\n'
grep -q "from cache" "$WORK/fresh2.err" && cmp -s "$WORK/fresh2.out" "$WORK/ref.out" &&
	pass "then cached again, with them" || bad "second open with the -wal: [$(cat "$WORK/fresh2.err")]"

# a re-signed file whose task item names no string: rejected, the summary drawn from the input
rm -rf "$CDIR"
"$FTSCOPE" convert -q -i "$SRC/assets/sample/sample.txt" -o "$WORK/u.db"
shot u_ref "$WORK/u.db" --no_cache --keys s
shot u_first "$WORK/u.db"
f=$(find "$CDIR" -name '*.ftc' | head -1)
if [ -n "$f" ] && $TAMPER noname "$f" && $TAMPER check "$f" > /dev/null; then
	shot u_bad "$WORK/u.db" --keys s
	if [ $rc -eq 0 ] && grep -q "cache rejected: an item's kind or string" "$WORK/u_bad.err" &&
	   cmp -s "$WORK/u_bad.out" "$WORK/u_ref.out"; then
		pass "an item named by no string: rejected on load, the summary from the input"
	else
		bad "an item named by no string: exit $rc [$(head -c 300 "$WORK/u_bad.err")]"
	fi
else
	bad "no cache file to tamper with"
fi
finish
