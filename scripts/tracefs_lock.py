#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The machine-wide lock that keeps recordings on the real tracefs apart.

Tests that record (and the lead's and helpers' test runs) take
/tmp/fts-tracefs.lock, so two loaded recordings never judge each other's
timing. `flock /tmp/fts-tracefs.lock ctest ...` around a whole suite is the
documented way to hold it for everything inside; a test inside such a run must
not wait for it again (it would wait for its own ancestor, forever).

    tracefs_lock.py CMD [ARG...]   run CMD holding the lock (at once when an
                                   ancestor holds it already)
    import tracefs_lock; tracefs_lock.held_by_an_ancestor(fd)
"""
import fcntl
import os
import sys

LOCK = "/tmp/fts-tracefs.lock"


def _ancestors(pid):
    pids = set()
    while pid > 1:
        pids.add(pid)
        try:
            with open("/proc/%d/stat" % pid) as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return pids


def held_by_an_ancestor(fd):
    """True when the lock open on @fd is held by this process or one it descends from."""
    st = os.fstat(fd)
    inode = "%02x:%02x:%d" % (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
    ours = _ancestors(os.getpid())
    try:
        with open("/proc/locks") as f:
            for line in f:
                parts = line.split()
                # "1: FLOCK  ADVISORY  WRITE 1234 00:1f:5678 0 EOF"
                if len(parts) >= 6 and parts[1] == "FLOCK" and parts[5] == inode \
                        and int(parts[4]) in ours:
                    return True
    except (OSError, ValueError):
        pass
    return False


def main(argv):
    if len(argv) < 2:
        sys.stderr.write("usage: tracefs_lock.py CMD [ARG...]\n")
        return 2
    fd = os.open(LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    if not held_by_an_ancestor(fd):
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.set_inheritable(fd, True)   # held across exec, released when CMD ends
    try:
        os.execvp(argv[1], argv[1:])
    except OSError as e:
        sys.stderr.write("tracefs_lock.py: %s: %s\n" % (argv[1], e.strerror))
        return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv))
