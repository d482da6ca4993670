#!/bin/bash
# SPDX-License-Identifier: MIT
# A fresh machine (CI) has no tracefs mounted: `ftscope record` mounts it
# itself, and the record tests' lib.sh mounts it too instead of skipping.
# Both are checked in a private mount namespace with tracefs and debugfs
# unmounted, so the host's mounts are not touched.
FTS=$1 SRC=$2 WORK=$3
if [ -z "$FTS_IN_NS" ]; then
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
	command -v unshare >/dev/null || { echo "SKIP: unshare not installed"; exit 77; }
	# the tracefs lock first (as lib.sh takes it), held across the exec below
	if [ "${FTS_LOCKED_PID:-}" != "$$" ]; then
		export FTS_LOCKED_PID=$$
		exec python3 "$SRC/scripts/tracefs_lock.py" bash "$0" "$@"
	fi
	FTS_IN_NS=1 exec unshare --mount --propagation private bash "$0" "$@"
fi
umount /sys/kernel/tracing 2>/dev/null
umount -l /sys/kernel/debug 2>/dev/null
if grep -qE ' (tracefs|debugfs) ' /proc/mounts; then
	echo "SKIP: cannot unmount tracefs in a private namespace"; exit 77
fi
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
"$FTS" record --record_time 1 --output m.dat -q 2>log || { cat log; echo "FAIL: record without tracefs mounted"; exit 1; }
grep -q ' tracefs ' /proc/mounts || { echo "FAIL: record did not mount tracefs"; exit 1; }
echo "ok: record mounted tracefs and recorded $(stat -c %s m.dat) bytes"
umount /sys/kernel/tracing
# (FTS_LOCKED_PID: this test holds the tracefs lock already)
out=$(bash -c 'FTS_LOCKED_PID=$$; source "$1/tests/record/lib.sh" "$2" "$1" "$3/lib"; echo "T=$T"' _ "$SRC" "$FTS" "$WORK")
rc=$?
[ $rc = 0 ] || { echo "$out"; echo "FAIL: lib.sh skipped or failed ($rc) without tracefs mounted"; exit 1; }
grep -q '^mounted tracefs' <<<"$out" || { echo "$out"; echo "FAIL: lib.sh did not mount tracefs"; exit 1; }
echo "ok: lib.sh mounted tracefs ($(tail -1 <<<"$out"))"
