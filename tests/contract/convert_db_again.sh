#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 33, smaller defects: converting one of our own DBs or JSONs (the CLI,
# and the TUI's export, which calls the same fts_convert) kept its slices but
# dropped every wakeup link and the task summary tables without a word. Every table
# we write is carried over: the links paired by flow_id whatever their row
# order, the summary written again; a flow table that is not one is refused
# with the reason. Every input is made here.
source "$(dirname "$0")/lib.sh"
S=$SRC/assets/sample
O=$WORK/out
mkdir -p "$O"

# links DB: one canonical line per link: from tid | ts | to tid | ts | name
links() {
	sqlite3 -separator '|' "$1" "SELECT ts.tid, s.timestamp, tf.tid, f.timestamp, s.name
		FROM flow s JOIN flow f ON f.flow_id = s.flow_id AND f.type = 'f'
		JOIN thread ts ON ts.track_id = s.track_id JOIN thread tf ON tf.track_id = f.track_id
		WHERE s.type = 's' ORDER BY 1, 2, 3, 4"
}
count() { sqlite3 "$1" "SELECT count(*) FROM $2"; }

expect_ok "convert the sample" "$FTSCOPE" convert -q -i "$S/sample.dat" -o "$O/ftrace_data.db"
n=$(count "$O/ftrace_data.db" flow)
[ "$n" -gt 1000 ] && pass "the sample has $n flow rows" || bad "the sample has $n flow rows"

expect_ok "convert the DB again" "$FTSCOPE" convert -q -i "$O/ftrace_data.db" -o "$O/ftrace_data1.db"
if [ "$(count "$O/ftrace_data1.db" flow)" = "$n" ] &&
   [ "$(links "$O/ftrace_data.db" | md5sum)" = "$(links "$O/ftrace_data1.db" | md5sum)" ] &&
   [ "$(slices "$O/ftrace_data.db" | md5sum)" = "$(slices "$O/ftrace_data1.db" | md5sum)" ]; then
	pass "DB -> DB keeps every slice and every link ($n flow rows)"
else
	bad "DB -> DB: $(count "$O/ftrace_data1.db" flow) of $n flow rows, or other links or slices"
fi
[ "$(sqlite3 "$O/ftrace_data1.db" "SELECT seq FROM sqlite_sequence WHERE name = 'flow'")" = "$n" ] &&
	pass "sqlite_sequence says the flow table's last id" || bad "sqlite_sequence of the copy"
$CHECK "$O/ftrace_data1.db" > "$WORK/check.out" 2>&1 && pass "the copy passes the Insight contract check" ||
	{ bad "the copy fails the Insight contract check"; cat "$WORK/check.out"; }

expect_ok "DB -> JSON" "$FTSCOPE" convert -q -i "$O/ftrace_data.db" -o "$O/trace_view.json"
js=$(grep -o '"ph":"s"' "$O/trace_view.json" | wc -l)
[ $((js * 2)) = "$n" ] && pass "DB -> JSON writes every link ($js)" || bad "DB -> JSON: $js links for $n flow rows"

# our JSON read back: its "s"/"f" flow events are the same links
expect_ok "JSON -> DB" "$FTSCOPE" convert -q -i "$O/trace_view.json" -o "$O/ftrace_data7.db"
[ "$(links "$O/ftrace_data.db" | md5sum)" = "$(links "$O/ftrace_data7.db" | md5sum)" ] &&
	pass "JSON -> DB keeps every link" || bad "JSON -> DB: $(count "$O/ftrace_data7.db" flow) of $n flow rows"

# rows in another order (a tool that rewrote the table): still paired by flow_id
cp "$O/ftrace_data.db" "$WORK/shuffled.db"
sqlite3 "$WORK/shuffled.db" "CREATE TABLE f2 AS SELECT flow_id, name, cat, track_id, timestamp, type FROM flow;
	DELETE FROM flow; INSERT INTO flow (flow_id, name, cat, track_id, timestamp, type)
	SELECT * FROM f2 ORDER BY type DESC, CAST(flow_id AS INTEGER) DESC; DROP TABLE f2;"
expect_ok "convert a DB whose flow rows are reordered" "$FTSCOPE" convert -q -i "$WORK/shuffled.db" -o "$O/ftrace_data2.db"
[ "$(links "$O/ftrace_data.db" | md5sum)" = "$(links "$O/ftrace_data2.db" | md5sum)" ] &&
	pass "reordered flow rows: the same links" || bad "reordered flow rows: $(count "$O/ftrace_data2.db" flow) rows"

# a link with an end on no scheduling lane, or with one end only, is left out (as such a slice is)
cp "$O/ftrace_data.db" "$WORK/odd.db"
sqlite3 "$WORK/odd.db" "UPDATE flow SET track_id = 999999 WHERE flow_id = '1';
	DELETE FROM flow WHERE flow_id = '2' AND type = 'f'"
expect_ok "convert a DB with two broken links" "$FTSCOPE" convert -q -i "$WORK/odd.db" -o "$O/ftrace_data3.db"
[ "$(count "$O/ftrace_data3.db" flow)" = $((n - 4)) ] && pass "two broken links left out, the rest kept" ||
	bad "broken links: $(count "$O/ftrace_data3.db" flow) rows of $n"

# a flow view (it could run forever) or a flow table without the columns: refused with the reason
cp "$O/ftrace_data.db" "$WORK/view.db"
sqlite3 "$WORK/view.db" "ALTER TABLE flow RENAME TO f0; CREATE VIEW flow AS SELECT * FROM f0"
expect_fail "a flow view is refused" "its flow is a view, not a table" \
	"$FTSCOPE" convert -i "$WORK/view.db" -o "$O/ftrace_data4.db"
cp "$O/ftrace_data.db" "$WORK/cols.db"
sqlite3 "$WORK/cols.db" "DROP TABLE flow; CREATE TABLE flow (id INTEGER PRIMARY KEY, what TEXT)"
expect_fail "a flow table without its columns is refused" "its flow table is not an ftrace DB's.*wakeup links cannot be carried over" \
	"$FTSCOPE" convert -i "$WORK/cols.db" -o "$O/ftrace_data4.db"
[ ! -e "$O/ftrace_data4.db" ] && pass "no output after a refusal" || bad "an output after a refusal"

# the task summary tables: written again, the same
expect_ok "convert with --with_summary" "$FTSCOPE" convert -q --with_summary -i "$S/sample.dat" -o "$O/ftrace_data5.db"
expect_ok "convert that DB without the flag" "$FTSCOPE" convert -q -i "$O/ftrace_data5.db" -o "$O/ftrace_data6.db"
ok=1
for t in status_info trace_task_summary trace_irq_detail; do
	[ "$(sqlite3 "$O/ftrace_data5.db" "SELECT * FROM $t" | md5sum)" = \
	  "$(sqlite3 "$O/ftrace_data6.db" "SELECT * FROM $t" 2>&1 | md5sum)" ] || { ok=0; echo "differs: $t"; }
done
[ $ok = 1 ] && pass "the summary tables are carried over, the same" || bad "summary tables"
[ "$(sqlite3 "$O/ftrace_data1.db" "SELECT count(*) FROM sqlite_schema WHERE name = 'status_info'")" = 0 ] &&
	pass "a DB without them gets none" || bad "summary tables appeared"
finish
