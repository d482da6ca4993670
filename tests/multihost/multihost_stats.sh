#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `ftscope stats` over several hosts' DBs, no root: two real captures as two
# hosts, their manifest written by `scripts/multihost.sh manifest` from the
# lines each host prints (the Slurm and Ansible forms), then: per-host totals
# equal each DB's own per-task numbers summed, the most waiting host and task
# come first, --task/--sort/--top work across hosts, host names are escaped,
# and bad input (a manifest that is not one, a missing DB, per-host flags)
# gives one clear line, a non-zero exit and nothing on stdout.
source "$(dirname "$0")/../contract/lib.sh"
S=$SRC/assets/sample
D=$SRC/tests/data
MH=$SRC/scripts/multihost.sh
cd "$WORK" || exit 1
mkdir out
"$FTSCOPE" convert -q -i "$S/sample.dat" -p "$S/profiling" -m "$S/pid_mapping.json" -o out/ftrace_data0.db ||
	{ bad "convert sample"; finish; exit 1; }
"$FTSCOPE" convert -q -i "$D/lost/trace_pipe.txt" -o out/ftrace_data1.db || { bad "convert lossy"; finish; exit 1; }

# The manifest from the per-host lines, out of order as a launcher prints them.
printf '%s\n' \
	'node-b: FTSCOPE_HOST host=node-b index=1 ranks=8,9 clock_offset_ns=1796089509977992210 profiling_offset_ns=' \
	'FTSCOPE_HOST host=node-a index=0 ranks=0,1 clock_offset_ns= profiling_offset_ns=1796089509977996174' |
	sed 's/^[^:]*: //' | bash "$MH" manifest out > mf.log 2>&1 || { bad "multihost.sh manifest"; cat mf.log; }
expect_ok "the manifest is JSON with both hosts in index order" python3 -c '
import json
m = json.load(open("out/ftscope-hosts.json"))
assert [(h["host"], h["index"], h["db"], h["ranks"]) for h in m["hosts"]] == [
    ("node-a", 0, "ftrace_data0.db", "0,1"), ("node-b", 1, "ftrace_data1.db", "8,9")], m
assert m["hosts"][1]["clock_offset_ns"] == "1796089509977992210" and "clock_offset_ns" not in m["hosts"][0]
'
echo 'FTSCOPE_HOST host=bad"name index=2' | bash "$MH" manifest bad_out > /dev/null 2>&1 &&
	bad "a host name with a quote went into the manifest"
[ -e bad_out/ftscope-hosts.json ] && bad "a refused manifest was left behind" || pass "multihost.sh manifest refuses odd host names, leaves nothing"

# ---- numbers ----
"$FTSCOPE" stats --manifest out/ftscope-hosts.json --format json --top 0 > all.json 2> all.err ||
	bad "stats --manifest"
for n in 0 1; do "$FTSCOPE" stats out/ftrace_data$n.db --format json --top 0 > one$n.json 2>/dev/null; done
expect_ok "per host: the sums of its own rows, the most waiting host first" python3 -c '
import json
a = json.load(open("all.json"))
assert [h["runnable_ns"] for h in a["hosts"]] == sorted((h["runnable_ns"] for h in a["hosts"]), reverse=True)
by = {h["host"]: h for h in a["hosts"]}
for name, n in (("node-a", 0), ("node-b", 1)):
    one, h = json.load(open("one%d.json" % n)), by[name]
    t = one["tasks"]
    assert h["index"] == n and h["input"] == "out/ftrace_data%d.db" % n
    for k in ("running_ns", "runnable_ns", "sleeping_ns", "blocked_ns", "unknown_ns", "switches",
              "involuntary", "migrations", "wakeups"):
        assert h[k] == sum(x[k] for x in t), (name, k)
    assert h["tasks"] == len(t) and h["cpus"] == len(one["cpus"])
    assert h["lost_events"] == sum(c["lost_events"] for c in one["cpus"])
    assert h["lost_exact"] == all(c["lost_exact"] for c in one["cpus"])
    assert h["wakeup_max_ns"] == max(x["wakeup_max_ns"] for x in t)
    assert h["wakeup_p99_max_ns"] == max(x["wakeup_p99_ns"] for x in t)
    top = min(t, key=lambda x: (-x["runnable_ns"], x["task"]))
    assert h["most_runnable"] == {"task": top["task"], "runnable_ns": top["runnable_ns"]}, name
    pre = min(t, key=lambda x: (-x["involuntary"], x["task"]))
    assert h["most_preempted"] == {"task": pre["task"], "involuntary": pre["involuntary"]}, name
    assert sorted(x["task"] for x in a["tasks"] if x["host"] == name) == sorted(x["task"] for x in t)
assert by["node-b"]["clock_offset_ns"] == 1796089509977992210 and by["node-a"]["clock_offset_ns"] is None
assert by["node-a"]["ranks"] == "0,1"
r = [x["runnable_ns"] for x in a["tasks"]]
assert r == sorted(r, reverse=True) and a["tasks_matching"] == len(a["tasks"])
'
grep -q '^host node-b:' all.err && grep -q 'warning: events were lost' all.err &&
	pass "the lossy host's warning is named, on stderr with --format json" ||
	{ bad "no named loss warning"; cat all.err; }

"$FTSCOPE" stats out/ftrace_data1.db out/ftrace_data0.db --manifest out/ftscope-hosts.json \
	--task 'dataloader*' --sort wakeup_max_ns --top 3 --format json > some.json || bad "stats --task --sort --top"
expect_ok "--task, --sort and --top across hosts; totals over the kept tasks" python3 -c '
import json
a = json.load(open("some.json"))
assert a["tasks_matching"] == 2 and len(a["tasks"]) == 2, a["tasks_matching"]
assert all(t["comm"].startswith("dataloader") for t in a["tasks"])
w = [t["wakeup_max_ns"] for t in a["tasks"]]
assert w == sorted(w, reverse=True)
by = {h["host"]: h for h in a["hosts"]}
assert by["node-a"]["tasks"] == 2 and by["node-b"]["tasks"] == 0
assert by["node-a"]["runnable_ns"] == sum(t["runnable_ns"] for t in a["tasks"])
'
"$FTSCOPE" stats out/ftrace_data0.db out/ftrace_data1.db --top 4 > plain.txt || bad "stats A B"
if grep -q '^ftrace_data0 ' plain.txt && grep -q '^ftrace_data1 ' plain.txt && ! grep -q node- plain.txt &&
	grep -q '^host ftrace_data1:' plain.txt; then
	pass "without a manifest, each input is named by its file name (the loss warning too, on stdout)"
else
	bad "names without a manifest"; cat plain.txt
fi
mkdir -p a b && cp out/ftrace_data0.db a/x.db && cp out/ftrace_data0.db b/x.db
"$FTSCOPE" stats a/x.db b/x.db --format csv > same.csv || bad "stats a/x.db b/x.db"
expect_ok "two inputs with one file name are told apart by their paths; CSV has both sections" python3 -c '
import csv
rows = list(csv.reader(open("same.csv")))
blank = rows.index([])
assert sorted(r[0] for r in rows[1:blank]) == ["a/x.db", "b/x.db"], rows[1:blank]
assert rows[blank + 1][:3] == ["host", "task", "pid"] and len(rows) - blank - 2 == 20
'

# ---- hostile names and bad input ----
python3 -c '
import json
json.dump({"hosts": [{"host": "evil\u001b]0;owned\u0007\u009b", "index": 0, "db": "ftrace_data0.db"},
                     {"host": "ok", "index": 1, "db": "ftrace_data1.db"}]}, open("out/evil.json", "w"))'
for f in table csv json; do
	"$FTSCOPE" stats --manifest out/evil.json --format $f > evil.$f 2>&1 || bad "evil manifest, $f"
	if LC_ALL=C grep -q $'[\x1b\x07]' evil.$f || grep -q $'\xc2\x9b' evil.$f; then
		bad "a raw control character from a host name reached the output ($f)"
	else
		pass "a hostile host name is escaped ($f)"
	fi
done
nothing_out() { # DESC PATTERN EXIT CMD...: that exit, the message, nothing on stdout
	local desc=$1 pat=$2 want=$3; shift 3
	"$@" > stdout.txt 2> stderr.txt
	local rc=$?
	if [ $rc != "$want" ] || [ -s stdout.txt ] || ! grep -Eq -- "$pat" stderr.txt || [ "$(wc -l < stderr.txt)" != 1 ]; then
		bad "$desc (exit $rc)"; cat stdout.txt stderr.txt
	else
		pass "$desc"
	fi
}
nothing_out "--profiling_data with several hosts is a usage error" 'belong to one host' 2 \
	"$FTSCOPE" stats out/ftrace_data0.db out/ftrace_data1.db --profiling_data "$S/profiling"
nothing_out "a missing DB: exit 1, nothing printed" 'nope\.db' 1 \
	"$FTSCOPE" stats out/ftrace_data0.db out/nope.db
echo '{"hosts": 3}' > out/notone.json
nothing_out "not a manifest" 'not a host manifest' 1 "$FTSCOPE" stats --manifest out/notone.json
echo '{"hosts": [{"host": "a", "db": "x.db"}, {"host": "a", "db": "y.db"}]}' > out/dup.json
nothing_out "a host twice" 'name the same host' 1 "$FTSCOPE" stats --manifest out/dup.json
echo '{"hosts": [{"host": "a", "db": "../../etc/x.db"}]}' > out/slash.json
nothing_out "a DB path in the manifest" "without '/'" 1 "$FTSCOPE" stats --manifest out/slash.json
echo '{"hosts": [{"host": "a", "db": "ftrace_data0.db", "clock_offset_ns": "12x"}]}' > out/clk.json
nothing_out "a bad clock offset" 'clock_offset_ns' 1 "$FTSCOPE" stats --manifest out/clk.json
echo '{"hosts": []}' > out/empty.json
nothing_out "an empty manifest" 'no host' 1 "$FTSCOPE" stats --manifest out/empty.json
nothing_out "--task matching nothing on any host" 'no host has a task' 1 \
	"$FTSCOPE" stats out/ftrace_data0.db out/ftrace_data1.db --task no_such_task
"$FTSCOPE" stats --help > help.txt && grep -q -- '--manifest FILE' help.txt &&
	pass "--help names --manifest" || bad "--help"
finish
