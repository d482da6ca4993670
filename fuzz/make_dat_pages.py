#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make_dat_pages.py - the template and seeds for fuzz_dat_pages, cut from a real capture.

make_dat_pages.py CAPTURE.dat OUTDIR

CAPTURE is a v6 trace.dat (tests/data/dat/small-v6.dat.tar.xz unpacked). Writes
  OUTDIR/template.dat   its headers cut down to the sched and irq event formats
                        (a few KB, so libtracecmd opens it in microseconds), with
                        its cmdlines and CPU count, ending just before the
                        flyrecord CPU table; fuzz_dat_pages appends the table
                        and the fuzzed pages
  OUTDIR/seeds/*        fuzz inputs: byte 0 = pages of CPU 0, then real pages
                        of the capture's CPUs (the buffer that holds the data)
"""
import os
import struct
import sys


def main():
    src, out = sys.argv[1:3]
    b = open(src, "rb").read()
    assert b[:10] == b"\x17\x08Dtracing"
    p = 10
    e = b.index(b"\0", p)
    assert b[p:e] == b"6", "v6 capture expected"
    p = e + 1
    assert b[p] == 0, "little-endian capture expected"
    page_size = struct.unpack_from("<I", b, p + 2)[0]
    head = bytearray(b[:p + 6])
    p += 6
    for tag_len in (12, 13):                   # header_page, header_event
        n = struct.unpack_from("<Q", b, p + tag_len)[0]
        head += b[p:p + tag_len + 8 + n]
        p += tag_len + 8 + n
    cnt = struct.unpack_from("<I", b, p)[0]    # ftrace formats: dropped
    p += 4
    for _ in range(cnt):
        p += 8 + struct.unpack_from("<Q", b, p)[0]
    head += struct.pack("<I", 0)
    systems = struct.unpack_from("<I", b, p)[0]
    p += 4
    kept = []
    for _ in range(systems):
        e = b.index(b"\0", p)
        name = b[p:e]
        p = e + 1
        cnt = struct.unpack_from("<I", b, p)[0]
        p += 4
        fmts = []
        for _ in range(cnt):
            n = struct.unpack_from("<Q", b, p)[0]
            fmts.append(b[p:p + 8 + n])
            p += 8 + n
        if name in (b"sched", b"irq"):
            kept.append(name + b"\0" + struct.pack("<I", len(fmts)) + b"".join(fmts))
    head += struct.pack("<I", len(kept)) + b"".join(kept)
    for fmt in ("<I", "<I"):                   # kallsyms, printk formats: dropped
        p += 4 + struct.unpack_from(fmt, b, p)[0]
        head += struct.pack("<I", 0)
    n = struct.unpack_from("<Q", b, p)[0]      # cmdlines: kept
    head += b[p:p + 8 + n]
    p += 8 + n
    cpus = struct.unpack_from("<I", b, p)[0]
    p += 4
    head += struct.pack("<I", cpus) + b"options  \0" + struct.pack("<H", 0) + b"flyrecord\0"
    # the data: the top buffer's CPUs, or the first buffer instance holding some
    e = b.index(b"\0", p)
    tag = b[p:e]
    p = e + 1
    bufs = []
    if tag.startswith(b"options"):
        while True:
            oid = struct.unpack_from("<H", b, p)[0]
            p += 2
            if oid == 0:
                break
            sz = struct.unpack_from("<I", b, p)[0]
            if oid == 3:
                bufs.append(struct.unpack_from("<Q", b, p + 4)[0])
            p += 4 + sz
        e = b.index(b"\0", p)
        p = e + 1
    tables = [p] + [o + (10 if b[o:o + 10] == b"flyrecord\0" else 0) for o in bufs]
    ext = None
    for t in tables:
        cand = [struct.unpack_from("<QQ", b, t + 16 * c) for c in range(cpus)]
        if any(s for _, s in cand):
            ext = cand
            break
    assert ext, "no data in the capture"
    os.makedirs(os.path.join(out, "seeds"), exist_ok=True)
    open(os.path.join(out, "template.dat"), "wb").write(head)
    pages = [[b[o + i * page_size:o + (i + 1) * page_size] for i in range(s // page_size)]
             for o, s in ext]
    seeds = 0
    for k in (1, 2, 3, 5):                     # k pages of CPU 0, then of CPU 1
        for start in (0, 4, 9):
            a = pages[0][start:start + k]
            c = pages[1][start:start + k] if len(pages) > 1 else []
            if not a:
                continue
            data = bytes([len(a)]) + b"".join(a) + b"".join(c)
            open(os.path.join(out, "seeds", "pages-%d-%d" % (k, start)), "wb").write(data)
            seeds += 1
    print("template %d bytes, page size %d, %d CPUs, %d seeds" % (len(head), page_size, cpus, seeds))


main()
