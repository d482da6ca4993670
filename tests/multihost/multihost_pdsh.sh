#!/bin/bash
# SPDX-License-Identifier: MIT
# The many-host recipe end to end (docs/multihost.md): our own sshd on a free
# high port, key auth only, and two "hosts" as two logins to this machine
# (root@127.0.0.1 and root@localhost) writing to different directories;
# scripts/multihost.sh records on both at once through pdsh, converts each
# capture with that host's own (generated) profiling data into
# ftrace_data<N>.db plus the manifest, and `ftscope stats --manifest` sums
# them up. Root, tracefs, sshd and pdsh; skipped with the reason otherwise.
FTS=$1
SRC=$2
WORK=$3
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok   $*"; }
[ "$(id -u)" = 0 ] || skip "needs root (tracefs, and sshd logs in as root)"
for c in pdsh ssh ssh-keygen python3 flock; do
	command -v $c >/dev/null || skip "$c is not installed (scripts/deps.sh --all)"
done
[ -x /usr/sbin/sshd ] || skip "sshd is not installed (openssh-server)"
T=/sys/kernel/tracing
[ -d $T/instances ] || T=/sys/kernel/debug/tracing
[ -w $T/instances ] || skip "no tracefs with writable instances/ here"
rm -rf "$WORK" && mkdir -p "$WORK/ssh" || fail "cannot create $WORK"
cd "$WORK" || exit 1
W=$PWD
FTS=$(realpath "$FTS")

SSHD_PID=
LOAD_PIDS=
cleanup() {
	[ -n "$SSHD_PID" ] && kill "$SSHD_PID" 2>/dev/null
	for p in $LOAD_PIDS; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
}
trap cleanup EXIT

# ---- sshd: its own keys, config and port ----
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
ssh-keygen -q -t ed25519 -N '' -f ssh/host_key || fail "ssh-keygen (host key)"
ssh-keygen -q -t ed25519 -N '' -f ssh/id || fail "ssh-keygen (client key)"
cp ssh/id.pub ssh/authorized_keys
cat > ssh/sshd_config <<EOF
Port $PORT
ListenAddress 127.0.0.1
HostKey $W/ssh/host_key
PidFile $W/ssh/sshd.pid
AuthorizedKeysFile $W/ssh/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
LogLevel ERROR
EOF
cat > ssh/config <<EOF
Host *
  Port $PORT
  AddressFamily inet
  IdentityFile $W/ssh/id
  IdentitiesOnly yes
  BatchMode yes
  StrictHostKeyChecking accept-new
  UserKnownHostsFile $W/ssh/known_hosts
  GlobalKnownHostsFile /dev/null
  LogLevel ERROR
EOF
mkdir -p /run/sshd   # its privilege separation directory (the service makes it at boot)
/usr/sbin/sshd -D -e -f "$W/ssh/sshd_config" 2> ssh/sshd.log &
SSHD_PID=$!
export FTS_SSH="ssh -F $W/ssh/config" FTSCOPE=$FTS
for _ in $(seq 50); do
	$FTS_SSH root@127.0.0.1 true 2>/dev/null && break
	kill -0 $SSHD_PID 2>/dev/null || { cat ssh/sshd.log; fail "sshd did not start"; }
	sleep 0.1
done
$FTS_SSH root@localhost true || { cat ssh/sshd.log; fail "no key login to our sshd on port $PORT"; }
ok "sshd on 127.0.0.1:$PORT, key login as root@127.0.0.1 and root@localhost"
HOSTS=root@localhost,root@127.0.0.1
MH="$SRC/scripts/multihost.sh"

# ---- each host's profiling data: its own ranks, clocks read when "profiling" starts and ends ----
clock_file() { # FILE begin|end: the two clocks back to back, as the Ascend profiler writes them
	python3 - "$1" "$2" <<'PY'
import json, sys, time
m = time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW)
r = time.clock_gettime_ns(time.CLOCK_REALTIME)
key = "collectionTimeBegin" if sys.argv[2] == "begin" else "collectionTimeEnd"
json.dump({key: str(r // 1000), "clockMonotonicRaw": str(m)}, open(sys.argv[1], "w"))
PY
}
profiling() { # HOST RANK begin|end
	local d=$W/hosts/$1/prof/${1}_$2_ascend_pt
	mkdir -p "$d/PROF_000001/host"
	echo "{\"rank_id\": $2}" > "$d/profiler_info_$2.json"
	clock_file "$d/PROF_000001/host/$([ "$3" = begin ] && echo start || echo end)_info" "$3"
}
for r in 0 1; do profiling localhost $r begin; done
for r in 2 3; do profiling 127.0.0.1 $r begin; done

# ---- record on both at once, under the machine-wide tracefs lock ----
# (at once when an ancestor holds it: `flock /tmp/fts-tracefs.lock ctest ...`)
for _ in 1 2; do
	setsid timeout 12 sh -c 'while :; do :; done' >/dev/null 2>&1 &
	LOAD_PIDS="$LOAD_PIDS $!"
done
python3 "$SRC/scripts/tracefs_lock.py" bash "$MH" record -w $HOSTS -d "$W/hosts/%h" -t 3 -a 3 > rec.log 2>&1
rc=$?
for r in 0 1; do profiling localhost $r end; done
for r in 2 3; do profiling 127.0.0.1 $r end; done
[ $rc = 0 ] || { cat rec.log; fail "multihost.sh record failed (exit $rc)"; }
for h in localhost 127.0.0.1; do
	for f in $h.dat $h.pid_mapping.json $h.clock; do
		[ -s hosts/$h/$f ] || { cat rec.log; fail "no hosts/$h/$f"; }
	done
done
ok "record: hosts/<host>/<host>.dat, .pid_mapping.json and .clock on both hosts"

# Both captures cover the same window: they started at the same wall-clock time.
span() { "$FTS" stats "$1" --format json --top 1 | python3 -c 'import json, sys; w = json.load(sys.stdin)["window"]; print(w["begin_ns"], w["end_ns"])'; }
read -r a0 a1 <<<"$(span hosts/localhost/localhost.dat)"
read -r b0 b1 <<<"$(span hosts/127.0.0.1/127.0.0.1.dat)"
python3 - "$a0" "$a1" "$b0" "$b1" <<'PY' || fail "the two captures do not cover the same window"
import sys
a0, a1, b0, b1 = map(int, sys.argv[1:])
print("  windows: %.3f s and %.3f s long, starts %.1f ms apart" % ((a1 - a0) / 1e9, (b1 - b0) / 1e9, abs(a0 - b0) / 1e6))
# a loaded 2-CPU machine may start one recorder late; the common start keeps it to far less than this
assert abs(a0 - b0) < 1.5e9 and a1 - a0 > 2e9 and b1 - b0 > 2e9
PY
ok "record: both windows start together"

# ---- convert on both at once, with each host's own profiling data ----
bash "$MH" convert -w $HOSTS -d "$W/hosts/%h" -p "$W/hosts/%h/prof" -o "$W/out" > conv.log 2>&1 ||
	{ cat conv.log; fail "multihost.sh convert failed"; }
for f in out/* out/.[!.]*; do
	[ -e "$f" ] || continue
	[[ ${f#out/} =~ ^(ftscope-hosts\.json|ftrace_data[0-9]+\.db)$ ]] || fail "out/ holds $f (a temp file left?)"
done
python3 - "$W" <<'PY' || { cat conv.log; cat out/ftscope-hosts.json; fail "manifest or DBs wrong"; }
import json, sqlite3, sys, time
w = sys.argv[1]
m = json.load(open(w + "/out/ftscope-hosts.json"))
hosts = m["hosts"]
# N: the position in the host list sorted with sort -V, whatever the order given
assert [(h["host"], h["index"], h["db"]) for h in hosts] == [
    ("127.0.0.1", 0, "ftrace_data0.db"), ("localhost", 1, "ftrace_data1.db")], hosts
assert hosts[0]["ranks"] == "2,3" and hosts[1]["ranks"] == "0,1", hosts
now_off = time.clock_gettime_ns(time.CLOCK_REALTIME) - time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW)
for h in hosts:
    assert h["capture"] == h["host"] + ".dat"
    # realtime - mono_raw moves only by NTP's slewing in a few seconds
    # nanoseconds since 1970 need 61 bits: strings, which every JSON reader keeps exact
    assert abs(int(h["clock_offset_ns"]) - now_off) < 50e6, (h, now_off)
    assert abs(int(h["profiling_offset_ns"]) - now_off) < 50e6, (h, now_off)
    starts = [json.load(open("%s/hosts/%s/prof/%s_%d_ascend_pt/PROF_000001/host/start_info"
                             % (w, h["host"], h["host"], r))) for r in map(int, h["ranks"].split(","))]
    begin = min(int(s["collectionTimeBegin"]) * 1000 for s in starts)
    db = sqlite3.connect("%s/out/%s" % (w, h["db"]))
    lo, hi, n = db.execute("select min(timestamp), max(end_time), count(*) from slice").fetchone()
    # aligned with this host's profiling: epoch ns inside its window
    assert n > 100 and begin <= lo and hi < begin + 60e9, (h["host"], begin, lo, hi, n)
    tasks = db.execute("select count(*) from thread where tid like '%:%'").fetchone()[0]
    print("  %s -> %s: %d slices, %d task lanes" % (h["host"], h["db"], n, tasks))
PY
ok "convert: ftrace_data0.db (127.0.0.1, ranks 2,3) and ftrace_data1.db (localhost, ranks 0,1), aligned, with the manifest"

# ---- the cross-host summary ----
"$FTS" stats --manifest out/ftscope-hosts.json --format json --top 0 > all.json || fail "stats --manifest"
for n in 0 1; do
	"$FTS" stats out/ftrace_data$n.db --format json --top 0 > one$n.json || fail "stats ftrace_data$n.db"
done
python3 - <<'PY' || fail "cross-host stats disagree with each host's own"
import json
a = json.load(open("all.json"))
hosts = {h["host"]: h for h in a["hosts"]}
assert set(hosts) == {"127.0.0.1", "localhost"}, hosts
assert [h["runnable_ns"] for h in a["hosts"]] == sorted((h["runnable_ns"] for h in a["hosts"]), reverse=True)
for name, n in (("127.0.0.1", 0), ("localhost", 1)):
    one = json.load(open("one%d.json" % n))
    h = hosts[name]
    assert h["index"] == n and h["clock_offset_ns"] is not None
    assert h["runnable_ns"] == sum(t["runnable_ns"] for t in one["tasks"])
    assert h["involuntary"] == sum(t["involuntary"] for t in one["tasks"])
    assert h["tasks"] == len(one["tasks"])
    top = max(one["tasks"], key=lambda t: (t["runnable_ns"], [-ord(c) for c in t["task"]]))
    assert h["most_runnable"]["task"] == top["task"], (h["most_runnable"], top["task"])
    mine = [t for t in a["tasks"] if t["host"] == name]
    assert len(mine) == len(one["tasks"])
assert a["tasks"] == sorted(a["tasks"], key=lambda t: -t["runnable_ns"]) or \
    [t["runnable_ns"] for t in a["tasks"]] == sorted((t["runnable_ns"] for t in a["tasks"]), reverse=True)
print("  most waiting: host %s, task %s (%.1f ms)" % (a["tasks"][0]["host"], a["tasks"][0]["task"],
                                                    a["tasks"][0]["runnable_ns"] / 1e6))
PY
"$FTS" stats out/ftrace_data1.db out/ftrace_data0.db --manifest out/ftscope-hosts.json --top 5 > all.txt ||
	fail "stats FILE FILE --manifest"
grep -q '^localhost ' all.txt && grep -q '^127\.0\.0\.1 ' all.txt || { cat all.txt; fail "the table does not name the hosts"; }
"$FTS" stats --manifest out/ftscope-hosts.json --format csv --top 3 > all.csv || fail "stats --format csv"
python3 - <<'PY' || { cat all.csv; fail "CSV"; }
import csv
rows = list(csv.reader(open("all.csv")))
blank = rows.index([])
assert rows[0][0] == "host" and len(rows[1:blank]) == 2
assert rows[blank + 1][:2] == ["host", "task"] and len(rows[blank + 2:]) == 3
PY
ok "stats --manifest: per host (named, most waiting first) and per task across hosts, = each host's own numbers"
cat all.txt
