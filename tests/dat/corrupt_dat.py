#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""corrupt_dat.py - make a corrupt copy of a real v6 trace.dat (for the hardening tests).

corrupt_dat.py IN OUT MODE [CPU] [PAGE]

v6 files: walks the layout (man 5 trace-cmd.dat.v6) to the per-CPU data extents
and damages page PAGE (default 1, i.e. the second) of CPU CPU
(default: the first CPU, over the top buffer then the instances, with
more than PAGE + 1 pages):
  commit    the page header's commit (size) field is set far past the page
  reclen    the first record's header claims a length far past the page
  loop      the first record's length wraps 32 bits (kbuffer would loop back)
  short     a sched_switch record is cut to 12 bytes (header says so), as if the
            page was damaged inside it; the rest of its page is padding
Prints "cpu=N offset=O" (file offset of the damaged page) on stdout.

v7 zstd files (trace-cmd extract's default, the bundled sample): modes commit
and reclen only. The CPU's first chunk is decompressed with the zstd tool,
page PAGE of it damaged, recompressed and padded with a zstd skippable frame
to its old size, so no offset in the file moves. Prints "cpu=N offset=O
page=P" (O = the chunk's file offset, P = the page inside it).
"""
import subprocess
import struct
import sys


def walk_v6(b):
    if b[:10] != b"\x17\x08Dtracing":
        sys.exit("not a trace.dat")
    p = 10
    ver_end = b.index(b"\0", p)
    if b[p:ver_end] != b"6":
        sys.exit("only v6 files (ftscope's own recordings are v6)")
    p = ver_end + 1
    if b[p] != 0:
        sys.exit("big endian file")
    long_size = b[p + 1]
    page_size = struct.unpack_from("<I", b, p + 2)[0]
    p += 6
    p += 12
    n = struct.unpack_from("<Q", b, p)[0]
    header_page = b[p + 8:p + 8 + n].decode()
    p += 8 + n
    p += 13
    n = struct.unpack_from("<Q", b, p)[0]
    p += 8 + n
    cnt = struct.unpack_from("<I", b, p)[0]
    p += 4
    formats = {}
    for _ in range(cnt):
        n = struct.unpack_from("<Q", b, p)[0]
        p += 8 + n
    systems = struct.unpack_from("<I", b, p)[0]
    p += 4
    for _ in range(systems):
        e = b.index(b"\0", p)
        p = e + 1
        cnt = struct.unpack_from("<I", b, p)[0]
        p += 4
        for _ in range(cnt):
            n = struct.unpack_from("<Q", b, p)[0]
            text = b[p + 8:p + 8 + n].decode(errors="replace")
            p += 8 + n
            name = text.split("\n", 1)[0].split(":", 1)[-1].strip()
            for line in text.splitlines():
                if line.startswith("ID:"):
                    formats[name] = int(line[3:])
    for fmt in ("<I", "<I", "<Q"):          # kallsyms, printk, cmdlines
        n = struct.unpack_from(fmt, b, p)[0]
        p += struct.calcsize(fmt) + n
    cpus = struct.unpack_from("<I", b, p)[0]
    p += 4
    tag_end = b.index(b"\0", p)
    tag = b[p:tag_end]
    p = tag_end + 1
    bufs = []
    if tag.startswith(b"options"):
        while True:
            oid = struct.unpack_from("<H", b, p)[0]
            p += 2
            if oid == 0:
                break
            sz = struct.unpack_from("<I", b, p)[0]
            if oid == 3:                       # BUFFER: u64 offset, name
                bufs.append(struct.unpack_from("<Q", b, p + 4)[0])
            p += 4 + sz
        tag_end = b.index(b"\0", p)
        tag = b[p:tag_end]
        p = tag_end + 1
    if tag != b"flyrecord":
        sys.exit("no flyrecord section")
    ext = []
    for at in [p] + bufs:                      # the top buffer, then instances
        if b[at:at + 10] == b"flyrecord\0":
            at += 10
        for c in range(cpus):
            off, size = struct.unpack_from("<QQ", b, at + 16 * c)
            ext.append((off, size))
    commit = 8 if "local_t commit;\toffset:8;\tsize:8" in header_page or long_size == 8 else 4
    return page_size, commit, ext, formats, cpus


def first_switch(b, page, hdr, commit_len, switch_id):
    """Offset in b of a sched_switch record header in this page, or None."""
    p = page + hdr
    end = p + commit_len
    while p + 4 <= end:
        h = struct.unpack_from("<I", b, p)[0]
        tl = h & 0x1f
        if tl == 0:
            ln = struct.unpack_from("<I", b, p + 4)[0] - 4
            data = p + 8
        elif tl <= 28:
            ln = tl * 4
            data = p + 4
        elif tl == 29:
            return None
        else:
            p += 8
            continue
        if struct.unpack_from("<H", b, data)[0] == switch_id:
            return p
        p = data + ln
    return None


def v7_buffers(b):
    """(page_size, [(cpu id, off, size)...]) of every BUFFER option of a v7 zstd file."""
    p = 10
    e = b.index(b"\0", p)
    p = e + 1
    if b[p] != 0:
        sys.exit("big endian file")
    page_size = struct.unpack_from("<I", b, p + 2)[0]
    p += 6
    e = b.index(b"\0", p)
    if b[p:e] != b"zstd":
        sys.exit("only zstd-compressed v7 files")
    p = b.index(b"\0", e + 1) + 1
    off = struct.unpack_from("<Q", b, p)[0]
    cpus = []
    while off:
        sid, flags, _, size = struct.unpack_from("<HHIQ", b, off)
        d = b[off + 16:off + 16 + size]
        if flags & 1:
            cs = struct.unpack_from("<I", d, 0)[0]
            d = unzstd(d[8:8 + cs])
        off, q = 0, 0
        while q + 6 <= len(d):
            oid, sz = struct.unpack_from("<HI", d, q)
            q += 6
            if oid == 0:
                off = struct.unpack_from("<Q", d, q)[0] if sz >= 8 else 0
                break
            if oid == 3:
                r = d[q + 8:q + sz]
                r = r[r.index(b"\0") + 1:]           # name
                r = r[r.index(b"\0") + 1:]           # clock
                n = struct.unpack_from("<I", r, 4)[0]
                for i in range(n):
                    cpus.append(struct.unpack_from("<IQQ", r, 8 + 20 * i))
            q += sz
    return page_size, cpus


def unzstd(data):
    return subprocess.run(["zstd", "-d", "-c", "-q"], input=data, check=True,
                          capture_output=True).stdout


def corrupt_v7(b, mode, want_cpu, page_no):
    page_size, cpus = v7_buffers(b)
    for cid, off, size in cpus:
        if size == 0 or (want_cpu >= 0 and cid != want_cpu):
            continue
        at = off + 4                                   # past the chunk count
        cs, rs = struct.unpack_from("<II", b, at)
        raw = bytearray(unzstd(b[at + 8:at + 8 + cs]))
        if len(raw) < page_size * (page_no + 1):
            continue
        pg = page_size * page_no
        if mode == "commit":
            struct.pack_into("<Q", raw, pg + 8, page_size * 64)
        elif mode == "reclen":
            h = struct.unpack_from("<I", raw, pg + 16)[0]
            struct.pack_into("<II", raw, pg + 16, h & ~0x1f, 0x00100000)
        else:
            sys.exit("v7: modes commit and reclen only")
        for level in ("-19", "-3", "-1", "--fast=5"):
            z = subprocess.run(["zstd", "-c", "-q", "--no-check", level], input=bytes(raw),
                               check=True, capture_output=True).stdout
            gap = cs - len(z)
            if gap == 0 or gap >= 8:
                break
        else:
            sys.exit("cannot recompress the chunk into its old size")
        if gap:                                        # skippable frame: magic, size, payload
            z += struct.pack("<II", 0x184D2A50, gap - 8) + bytes(gap - 8)
        b[at + 8:at + 8 + cs] = z
        return "cpu=%d offset=%d page=%d" % (cid, at, page_no)
    sys.exit("no CPU with a chunk of %d pages" % (page_no + 1))


def main():
    src, dst, mode = sys.argv[1:4]
    want_cpu = int(sys.argv[4]) if len(sys.argv) > 4 else -1
    page_no = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    b = bytearray(open(src, "rb").read())
    if b[10:12] == b"7\0":
        where = corrupt_v7(b, mode, want_cpu, page_no)
        open(dst, "wb").write(b)
        print(where)
        return
    page_size, commit, ext, formats, cpus = walk_v6(b)
    hdr = 8 + commit
    # CPU numbers count on through the instances' CPUs (top buffer first)
    cpu = want_cpu
    if cpu < 0:
        cpu = next(c for c, (o, s) in enumerate(ext) if s > page_size * (page_no + 1))
    off, size = ext[cpu]
    cpu %= cpus
    page = off + page_size * page_no
    if page + page_size > off + size:
        sys.exit("cpu %d has no page %d" % (cpu, page_no))
    clen = struct.unpack_from("<Q" if commit == 8 else "<I", b, page + 8)[0] & 0xfffffff
    if mode == "commit":
        struct.pack_into("<Q" if commit == 8 else "<I", b, page + 8, page_size * 64)
    elif mode in ("reclen", "loop"):
        rec = page + hdr
        h = struct.unpack_from("<I", b, rec)[0]
        struct.pack_into("<I", b, rec, h & ~0x1f)      # type_len 0: length in array[0]
        struct.pack_into("<I", b, rec + 4, 0x00100000 if mode == "reclen" else 0xfffffff0)
    elif mode == "short":
        rec = first_switch(b, page, hdr, clen, formats.get("sched_switch", -1))
        if rec is None:
            sys.exit("no sched_switch in that page")
        h = struct.unpack_from("<I", b, rec)[0]
        # 12 data bytes (type_len 3): common header + a little; then padding to the end
        struct.pack_into("<I", b, rec, (h & ~0x1f) | 3)
        pad = rec + 4 + 12
        rest = page + hdr + clen - pad
        if rest >= 8:
            struct.pack_into("<II", b, pad, 29, rest - 4)   # type_len 29: padding
            b[pad + 8:page + hdr + clen] = bytes(rest - 8)
        elif rest > 0:
            b[pad:page + hdr + clen] = bytes(rest)
    else:
        sys.exit("unknown mode " + mode)
    open(dst, "wb").write(b)
    print("cpu=%d offset=%d" % (cpu, page))


main()
