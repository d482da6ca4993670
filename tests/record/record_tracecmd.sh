#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 10 class 5, the trace-cmd backend: killing ftscope does not orphan
# `trace-cmd record` for longer than until the next ftscope run, which stops
# it (SIGINT) and repairs the global state it saved; the output is never written through
# a symlink; AUTO falls back to trace-cmd only when the native backend is
# unavailable, never on unrelated errors. This kernel refuses a real
# `trace-cmd record`, so a stand-in on PATH plays its part: it waits for
# SIGINT, then writes a real trace.dat (made by the native backend) to -o.
source "$(dirname "$0")/lib.sh" "$@"
before=$(state)
check_state() {
	[ "$before" = "$(state)" ] || { diff <(echo "$before") <(state); fail "tracing state changed after $1"; }
}
"$FTS" record --record_time 1 --output real.dat -q 2>log || { cat log; fail "native capture failed"; }
mkdir bin
# trace-cmd runs with none of ftscope's environment (the library reads none): its paths are written in
cat > bin/trace-cmd <<SH
#!/bin/bash
[ "\$1" = record ] || exit 1
out=
while [ \$# -gt 0 ]; do [ "\$1" = -o ] && out=\$2; shift; done
echo \$\$ > '$PWD/child.pid'
trap 'cp "$PWD/real.dat" "\$out"; exit 0' INT
while :; do sleep 0.1; done
SH
chmod +x bin/trace-cmd
export PATH=$PWD/bin:$PATH

# A normal run: the file appears, nothing is left beside it or in /run/ftscope.
"$FTS" record --backend trace-cmd --record_time 1 --output tc.dat -q 2>log || { cat log; fail "trace-cmd backend failed"; }
cmp -s tc.dat real.dat || fail "trace-cmd's file was not moved to the output"
ls -A | grep -q '^\.ftscope-tc' && fail "scratch directory left"
ls /run/ftscope/tracecmd-* 2>/dev/null && fail "state file left after a normal stop"
echo "ok: trace-cmd backend run"

# Never through a symlink.
ln -s /etc/passwd link.dat
"$FTS" record --backend trace-cmd --record_time 1 --output link.dat -q 2>err && fail "wrote through a symlink"
grep -q 'symbolic link' err || { cat err; fail "unclear symlink error"; }
grep -q root /etc/passwd || fail "symlink target damaged"
echo "ok: symlinked output refused"

# SIGKILL: the next run stops the orphan (posix_spawn has no parent-death signal,
# and the library may not fork), repairs and cleans up.
rm -f child.pid
"$FTS" record --backend trace-cmd --record_time 0 --output killed.dat -q 2>log &
rec=$!
for i in $(seq 50); do [ -s child.pid ] && break; sleep 0.1; done
child=$(cat child.pid 2>/dev/null)
[ -n "$child" ] || { cat log; fail "trace-cmd stand-in did not start"; }
[ -f /run/ftscope/tracecmd-$rec.state ] || fail "no state file for the repair"
kill -KILL $rec; wait $rec 2>/dev/null
ls -d .ftscope-tc.* >/dev/null 2>&1 || fail "expected the killed run's scratch directory"
# Any next run stops the orphan and repairs, the native backend's too.
"$FTS" record --record_time 1 --output after.dat -q 2>log || { cat log; fail "run after a kill failed"; }
for i in $(seq 30); do kill -0 "$child" 2>/dev/null || break; sleep 0.1; done
kill -0 "$child" 2>/dev/null && { kill -KILL "$child"; fail "trace-cmd still recording after the next run"; }
echo "ok: the next run stopped the orphaned trace-cmd"
[ -f /run/ftscope/tracecmd-$rec.state ] && fail "the killed run's state was not repaired"
ls -d .ftscope-tc.* >/dev/null 2>&1 && fail "the killed run's scratch directory was not removed"
check_state "trace-cmd backend"
echo "ok: the next run repaired the killed run's state"

# AUTO does not fall back on unrelated errors: one line, no trace-cmd, nothing left.
rm -f child.pid
for bad in "--output no/such/dir/t.dat" "--NSpid --pid_mapping no/such/pm.json --output ok.dat"; do
	"$FTS" record --backend auto --record_time 1 $bad -q 2>err && fail "auto $bad succeeded"
	[ "$(wc -l < err)" = 1 ] || { cat err; fail "auto $bad: not one line"; }
	grep -q 'trace-cmd' err && { cat err; fail "auto $bad fell back to trace-cmd"; }
	[ -e child.pid ] && fail "auto $bad started trace-cmd"
	[ -e ok.dat ] && fail "auto $bad left a stray file"
done
echo "ok: auto does not fall back on unrelated errors"
check_state "auto errors"
