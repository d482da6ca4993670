#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""cache_tamper.py - damage a preview store cache file (src/export/preview/store_cache.c).

  cache_tamper.py check FILE              the stored checksums match ours (exit 1 if not)
  cache_tamper.py flip FILE OFF...        flip one byte at each offset (negative: from the end)
  cache_tamper.py resum FILE OFF...       flip, then fix both checksums: only the index checks are left
  cache_tamper.py noname FILE             the first task item's name id made FTS_STR_NONE, re-summed
  cache_tamper.py truncate FILE BYTES     cut the file to BYTES
  cache_tamper.py fuzz FILE N SEED REF CMD...
                                          N times: restore FILE, flip 1-4 random bytes (every
                                          other round re-summed), run CMD; fail on a crash
                                          (signal, exit >= 128, a sanitizer report), a non-zero
                                          exit, no screen, or, in a round not re-summed (the
                                          checksum must reject it), a screen other than REF's

The checksum is the file's: xxh64's round over four lanes of 8-byte words,
then the tail and a fold (sum_all in store_cache.c), written again here so a
test can make a file whose checksums pass and whose contents lie.
"""
import os
import random
import struct
import subprocess
import sys

M = (1 << 64) - 1
P1 = 0x9E3779B185EBCA87
P2 = 0xC2B2AE3D27D4EB4F
P3 = 0x165667B19E3779F9
# struct hdr: magic, format, hdr_bytes, version[32], build[20] (+4 padding), input, pidmap and wal
# (5 u64 each), payload_bytes, nstrs, nlanes, items, sum, hdr_sum
HDR = struct.Struct("<8sII32s20s4x15QQQQQQQ")
SUM_AT = HDR.size - 16


def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M


def sum_all(b):
    n = len(b)
    v = [(P1 + P2) & M, P2, 0, (-P1) & M]
    whole = n & ~31
    words = struct.unpack_from("<%dQ" % (whole // 8), b, 0)
    for i in range(0, len(words), 4):
        for k in range(4):
            v[k] = (rotl((v[k] + words[i + k] * P2) & M, 31) * P1) & M
    r = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & M
    r ^= (n * P3) & M
    p, t = whole, n - whole
    while t >= 8:
        w = struct.unpack_from("<Q", b, p)[0]
        r = (rotl(r ^ ((w * P2) & M), 27) * P1 + P3) & M
        p += 8
        t -= 8
    while t:
        r = (rotl(r ^ ((b[p] * P3) & M), 11) * P1) & M
        p += 1
        t -= 1
    r ^= r >> 33
    r = (r * P2) & M
    r ^= r >> 29
    r = (r * P3) & M
    return r ^ (r >> 32)


def resum(b):
    """Both checksums made right for the bytes as they are."""
    b[SUM_AT:SUM_AT + 8] = struct.pack("<Q", sum_all(bytes(b[HDR.size:])))
    b[SUM_AT + 8:SUM_AT + 16] = struct.pack("<Q", sum_all(bytes(b[:SUM_AT + 8])))


def write(path, b):
    # in place: the file keeps its owner and mode (0600), as the cache wrote it
    with open(path, "r+b") as f:
        f.write(b)
        f.truncate(len(b))


def flip(b, offs):
    for o in offs:
        o = o % len(b)
        b[o] ^= 0xFF if b[o] in (0, 0xFF) else (1 << random.randrange(8))


def pad8(n):
    return (8 - n % 8) % 8


def task_name_at(b):
    """The offset of the first task lane's first item's name id (struct layouts of store_cache.c)."""
    p = HDR.size + 88                              # struct fts_store_info
    ncpu = struct.unpack_from("<Q", b, p)[0]
    p += 8 + 80 * ncpu                             # struct fts_loss_cpu each
    n, ln = struct.unpack_from("<QQ", b, p)
    p += 16 + 8 * n + ln + pad8(ln)
    nl = struct.unpack_from("<Q", b, p)[0]
    p += 8
    for _ in range(nl):
        group = struct.unpack_from("<i", b, p)[0]
        nitems = struct.unpack_from("<Q", b, p + 24)[0]
        flags = struct.unpack_from("<Q", b, p + 48)[0]
        p += 56
        powr = nbig = 0
        if flags & 1:
            _, powr, nbig = struct.unpack_from("<QQQ", b, p)
            p += 24
        aux, aux2 = group == 0, bool(flags & 2)
        if group == 1 and nitems:
            return p + 12 * nitems                 # past ts (8) and dur (4)
        if nitems:
            k = 4 * (3 + aux + aux2) + 1
            p += 8 * nitems + k * nitems + pad8(k * nitems)
        p += 16 * nbig + 2 * powr * 32
    raise SystemExit("no task lane with items")


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    b = bytearray(open(path, "rb").read())
    if cmd == "check":
        ok = (struct.unpack_from("<Q", b, SUM_AT)[0] == sum_all(bytes(b[HDR.size:])) and
              struct.unpack_from("<Q", b, SUM_AT + 8)[0] == sum_all(bytes(b[:SUM_AT + 8])))
        print("checksums match" if ok else "checksums differ")
        return 0 if ok else 1
    if cmd in ("flip", "resum"):
        flip(b, [int(x) for x in sys.argv[3:]])
        if cmd == "resum":
            resum(b)
        write(path, b)
        return 0
    if cmd == "noname":
        # a task item named by no string (FTS_STR_NONE), both checksums fixed
        struct.pack_into("<I", b, task_name_at(b), 0xFFFFFFFF)
        resum(b)
        write(path, b)
        return 0
    if cmd == "truncate":
        write(path, b[:int(sys.argv[3])])
        return 0
    if cmd == "fuzz":
        n, seed, run = int(sys.argv[3]), int(sys.argv[4]), sys.argv[6:]
        ref = open(sys.argv[5], "rb").read()
        good = bytes(b)
        rng = random.Random(seed)
        random.seed(seed)
        for i in range(n):
            t = bytearray(good)
            # half the time inside the header and the first lanes, where the counts live
            span = len(t) if rng.random() < 0.5 else min(len(t), 4096)
            offs = [rng.randrange(span) for _ in range(rng.randint(1, 4))]
            flip(t, offs)
            if i % 2:
                resum(t)
            write(path, t)
            p = subprocess.run(run, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            err = p.stderr.decode(errors="replace")
            if p.returncode != 0 or "Sanitizer" in err or not p.stdout or \
                    (i % 2 == 0 and p.stdout != ref):
                print("FAIL round %d (offsets %s, resummed %d): exit %d\n%s" %
                      (i, offs, i % 2, p.returncode, err[-3000:]))
                return 1
        print("fuzz: %d rounds, no crash" % n)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
