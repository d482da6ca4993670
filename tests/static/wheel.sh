#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The wheel (issue 35; docs/wheel.md), as a user on an old-glibc host gets it:
# made by scripts/wheel.sh from the static ftscope, installed with
# `pip install --no-index` from the wheel file alone into a fresh venv
# (python3 -m venv: ensurepip's bundled pip, offline), then used there with
# no PYTHONPATH and no FTSCOPE_* variable: import (the bundled binary as the
# backend), the drop-ins' signatures, the sample converted to DB and JSON
# (identical to the dynamic build's), the `ftscope` command (version, exit
# statuses), and as root with tracefs a 2 s recording through the drop-ins
# and a recorder whose Python process is killed while a forked worker holds
# its pipe (the server stops the capture on PR_SET_PDEATHSIG: its tracefs
# instance removed, the file saved, tracing_on as found).
#   wheel.sh STATIC_FTSCOPE SRC WORK [DYNAMIC_FTSCOPE]
set -u
BIN=$1 SRC=$2 WORK=$3 REF=${4:-}
fails=0
pass() { echo "ok   $*"; }
bad() { fails=$((fails + 1)); echo "FAIL $*"; }
PY=${FTS_WHEEL_PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=$(command -v python3)

rm -rf "$WORK"
mkdir -p "$WORK/dist"
if ! "$PY" -c 'import ensurepip, venv' 2> /dev/null; then
	echo "skip: $PY has no venv/ensurepip (apt-get install python3-venv)"
	exit 77
fi
whl=$(bash "$SRC/scripts/wheel.sh" --binary "$BIN" --src "$SRC" --out "$WORK/dist" x86_64) ||
	{ echo "FAIL scripts/wheel.sh"; exit 1; }
pass "wheel: $(basename "$whl") ($(stat -c %s "$whl") bytes)"

# The archive itself: RECORD's hashes, the tags, the binary's mode bits.
"$PY" - "$whl" << 'EOF' && pass "wheel: RECORD hashes, WHEEL tags, bin/ftscope 0755" || bad "wheel contents"
import base64, hashlib, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = set(z.namelist())
di = [n.split("/")[0] for n in names if n.endswith(".dist-info/RECORD")][0]
rec = {}
for line in z.read(di + "/RECORD").decode().splitlines():
    path, h, size = line.rsplit(",", 2)
    rec[path] = (h, size)
assert set(rec) == names, names ^ set(rec)
for n in names:
    if n.endswith("/RECORD"):
        continue
    data = z.read(n)
    h = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    assert rec[n] == (h, str(len(data))), n
wheel = z.read(di + "/WHEEL").decode()
assert "Root-Is-Purelib: false" in wheel and "Tag: py3-none-manylinux_2_17_x86_64" in wheel, wheel
info = z.getinfo("ftscope/bin/ftscope")
assert (info.external_attr >> 16) & 0o777 == 0o755, oct(info.external_attr >> 16)
assert z.read("ftscope/bin/ftscope")[:4] == b"\x7fELF"
assert "ftscope = ftscope._cli:main" in z.read(di + "/entry_points.txt").decode()
EOF

venv=$WORK/venv
"$PY" -m venv "$venv" > "$WORK/venv.log" 2>&1 || { cat "$WORK/venv.log"; echo "FAIL python3 -m venv"; exit 1; }
if "$venv/bin/pip" install --no-index --no-cache-dir --disable-pip-version-check -q "$whl" > "$WORK/pip.log" 2>&1; then
	pass "pip install --no-index of the wheel file alone into a fresh venv ($("$venv/bin/python" -V))"
else
	cat "$WORK/pip.log"
	echo "FAIL pip install"
	exit 1
fi

# pip takes the wheel for a glibc host of any manylinux level, and for a musl host
# (--platform: the tag pip would match on such a host; a real host also accepts lower levels)
for plat in manylinux1_x86_64 manylinux_2_17_x86_64 musllinux_1_1_x86_64; do
	rm -rf "$WORK/dl"
	if "$venv/bin/pip" download -q --no-index --find-links "$WORK/dist" --only-binary=:all: --no-deps \
		--disable-pip-version-check --platform "$plat" --python-version 3.8 -d "$WORK/dl" ftscope > /dev/null 2>&1 &&
		[ -f "$WORK/dl/$(basename "$whl")" ]; then
		pass "pip accepts the wheel for a $plat host (Python 3.8)"
	else
		bad "pip refuses the wheel for a $plat host"
	fi
done

# Everything below runs in the venv with a clean environment: nothing of the tree is reachable.
vrun() { (cd "$WORK" && env -i PATH="$venv/bin:/usr/sbin:/usr/bin:/sbin:/bin" HOME="$WORK" LANG=C.UTF-8 "$@"); }
ver=$(sed -n 's/^#define FTS_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' "$SRC/include/ftscope/version.h" | paste -sd.)
out=$(vrun python -I - "$venv" "$ver" << 'EOF' 2>&1
import inspect, os, sys
import ftscope, ftscope._lib as L
from trace_record import ftrace_record_start, ftrace_record_stop
venv, ver = sys.argv[1], sys.argv[2]
kind, path = L.backend()
assert kind == "binary" and path.startswith(venv + "/") and os.access(path, os.X_OK), (kind, path)
assert ftscope.library_version() == ver == ftscope.__version__, ftscope.library_version()
assert str(inspect.signature(ftrace_record_start)) == \
    "(cpu_mask=None, output='trace.dat', bf_size=40960, event_cfg=None, args=None, backend='auto')"
assert str(inspect.signature(ftrace_record_stop)) == "(output=None)"
print("backend", path)
EOF
) && pass "import ftscope (backend: the bundled binary), library_version $ver, drop-in signatures" ||
	bad "import and signatures: $out"

in=$SRC/assets/sample/sample.dat
if vrun python -I -c '
import sys, ftscope
import os
for f in ("db", "json"):
    s = ftscope.convert(input=sys.argv[1], output="wheel." + f, owner=None)
    assert s["events"] > 0 and s["format"] == f, s
# any bytes but NUL cross the pipe as they are: a space, a newline, %, ~ and a byte that is not UTF-8
odd = os.fsdecode(b"odd %41~ name\n\xff.db")
s = ftscope.convert(input=sys.argv[1], output=odd, owner=None)
assert os.fsencode(odd) in os.listdir(b"."), os.listdir(b".")
os.unlink(odd)
' "$in" > "$WORK/convert.log" 2>&1; then
	pass "ftscope.convert of the bundled sample to DB and JSON; an output name with a newline, % and a non-UTF-8 byte kept exact"
	if [ -n "$REF" ]; then
		"$REF" convert -q -i "$in" -o "$WORK/ref.db" && "$REF" convert -q -i "$in" -o "$WORK/ref.json"
		cmp -s "$WORK/ref.json" "$WORK/wheel.json" && pass "JSON identical to the dynamic build's" ||
			bad "JSON differs from the dynamic build's"
		[ "$(sqlite3 "$WORK/ref.db" .dump)" = "$(sqlite3 "$WORK/wheel.db" .dump)" ] &&
			pass "DB identical to the dynamic build's (sqlite3 .dump)" || bad "DB differs from the dynamic build's"
	fi
else
	bad "ftscope.convert: $(cat "$WORK/convert.log")"
fi

v=$(vrun ftscope --version 2>&1)
case $v in
*"build: static"*) pass "the ftscope command: --version says static" ;;
*) bad "ftscope --version: $v" ;;
esac
vrun ftscope convert -q -i /nonexistent -o "$WORK/x.db" 2> /dev/null
rc1=$?
vrun ftscope no-such-command 2> /dev/null
rc2=$?
[ "$rc1" = 1 ] && [ "$rc2" = 2 ] && pass "the ftscope command keeps exit statuses (1 failed, 2 usage)" ||
	bad "ftscope exit statuses: $rc1 $rc2 (want 1 2)"

T=/sys/kernel/tracing
if [ "$(id -u)" != 0 ] || [ ! -e "$T/instances" ]; then
	echo "skip: the recordings need root and tracefs at $T"
	exit "$fails"
fi
on=$(cat "$T/tracing_on")
# drop-ins: a 2 s recording, converted; then a capture whose Python process is killed
rec=$(vrun python3 "$SRC/scripts/tracefs_lock.py" python -I - << 'EOF' 2>&1
import os, signal, subprocess, sys, time
import ftscope
from trace_record import ftrace_record_start, ftrace_record_stop
assert ftrace_record_start(cpu_mask="0", output=os.path.abspath("rec.dat")), "start failed"
time.sleep(2)
path = ftrace_record_stop()
s = ftscope.convert(input=path, output="rec.json", owner=None)
print("recorded", path, s["events"])
assert s["events"] > 0
# A Recorder's process killed, while a forked worker (a DataLoader's) still
# holds the pipe, so the server's stdin does not end: PR_SET_PDEATHSIG must
# make it stop the capture, saving it, within 10 s (the worker lives 60 s).
child = subprocess.Popen([sys.executable, "-I", "-c", """
import os, signal, sys, time, ftscope
r = ftscope.Recorder(output="killed.dat", cpus="0", guard=False).start()
lib = r._h._lib
worker = os.fork()
if worker == 0:
    fd = os.open(os.devnull, os.O_RDWR)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    time.sleep(60)
    os._exit(0)
print(lib._servers[r._h._h.value].proc.pid, worker, flush=True)
time.sleep(0.5)
os.kill(os.getpid(), signal.SIGKILL)
"""], stdout=subprocess.PIPE)
server, worker = map(int, child.stdout.readline().split())
child.wait()
try:
    for _ in range(100):
        if not os.path.exists("/sys/kernel/tracing/instances/ftscope-%d" % server):
            break
        time.sleep(0.1)
    else:
        sys.exit("the killed recorder's instance ftscope-%d is still there" % server)
    def alive(pid):  # an exited server nobody reaped yet (PID 1 of a container may not) is a zombie
        try:
            with open("/proc/%d/stat" % pid) as f:
                return f.read().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            return False
    for _ in range(100):
        if not alive(server):
            break
        time.sleep(0.1)
    else:
        sys.exit("the killed recorder's server %d still runs" % server)
    assert os.path.getsize("killed.dat") > 0
finally:
    os.kill(worker, signal.SIGKILL)
print("killed", server)
EOF
)
case $rec in
*recorded*killed*) pass "as root: a 2 s recording through the drop-ins, and a killed recorder's capture stopped and saved" ;;
*) bad "recording: $rec" ;;
esac
[ "$(cat "$T/tracing_on")" = "$on" ] && pass "tracing_on as found ($on)" || bad "tracing_on changed"
exit "$fails"
