#!/bin/bash
# SPDX-License-Identifier: MIT
# --NSpid maps every thread of a process started in a new PID namespace
# after the recorder; `ftscope pidmap` writes the same shape.
source "$(dirname "$0")/lib.sh" "$@"
command -v unshare >/dev/null || skip "unshare not installed"
command -v python3 >/dev/null || skip "python3 not installed (used to start threads)"
# The interpreter itself, not a wrapper (pyenv's shim is a bash script that
# forks a while before python runs, so python would neither be pid 1 nor on time).
PY=$(python3 -c 'import sys; print(sys.executable)') || fail "cannot find the python interpreter"
"$FTS" record --record_time 6 --NSpid --output n.dat -q 2>log &
rec=$!
sleep 1
unshare --pid --fork "$PY" -c '
import threading, time, os
ts = [threading.Thread(target=time.sleep, args=(3.5,)) for _ in range(3)]
[t.start() for t in ts]
print(os.getpid(), flush=True)
time.sleep(3.5)' > inner.txt &
sleep 1.2
host=$(pgrep -f -n 'threading, time, os')
wait $rec || { cat log; fail "record --NSpid failed"; }
[ -n "$host" ] || fail "could not find the namespaced process"
[ -f pid_mapping.json ] || fail "no pid_mapping.json beside the output"
python3 - "$host" <<'PY' || fail "mapping incomplete"
import json, sys
m = json.load(open("pid_mapping.json"))
host = sys.argv[1]
e = m.get(host) or sys.exit("host pid %s missing" % host)
assert e["NSpid"] == "1", e
threads = [k for k, v in m.items() if v["Tgid"] == host]
assert len(threads) >= 4, threads
ns = [m[k]["NSpid"] for k in threads]
assert len(set(ns)) == len(ns) and all(x.isdigit() and int(x) < 1000 for x in ns), ns
for v in m.values():
    assert set(v) == {"NSpid", "name", "Tgid", "PPid"} and all(isinstance(x, str) for x in v.values())
print("ok: %d pids, host %s -> NSpid 1 with %d threads" % (len(m), host, len(threads)))
PY
"$FTS" pidmap --output pm.json || fail "pidmap failed"
python3 -c 'import json; m=json.load(open("pm.json")); assert "1" in m and m["1"]["Tgid"]=="1"' || fail "pidmap output bad"
ln -s /etc/passwd link.json
"$FTS" pidmap --output link.json 2>err && fail "pidmap wrote through a symlink"
grep -q 'symbolic link\|symlink' err || { cat err; fail "unclear symlink error"; }
echo "ok: pidmap"
