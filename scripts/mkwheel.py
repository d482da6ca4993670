#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write ftscope's wheel by hand (no `wheel`/`build` package, no index): scripts/wheel.sh runs it.

  mkwheel.py --binary FILE --arch x86_64|aarch64 --src TREE --out DIR

The wheel holds the Python package (TREE/python/ftscope), the drop-in
modules (trace_record, trace_convert, trace_analyze), the static ftscope at
ftscope/bin/ftscope (mode 0755, kept by pip from the zip's external_attr),
and the dist-info: METADATA (long description: python/README.md), WHEEL
(Root-Is-Purelib: false, the platform tags below), entry_points.txt (the
`ftscope` command, which execs the bundled binary, and the scripts of
python/pyproject.toml), RECORD (sha256 of every file). Prints the wheel's path.

Tags: the binary needs no libc at all (glibc is linked in), so the wheel
claims the oldest tags each pip understands: manylinux1/2010 for the pip
19.2 a fresh Python 3.8.0 venv brings (x86_64 only: no such aarch64 tags),
manylinux_2_17/manylinux2014 for later pips and aarch64, musllinux_1_1 for
Alpine-like hosts.
"""
import argparse
import base64
import hashlib
import os
import re
import sys
import zipfile

TAGS = {
    "x86_64": ["manylinux1_x86_64", "manylinux2010_x86_64", "manylinux_2_17_x86_64",
               "manylinux2014_x86_64", "musllinux_1_1_x86_64"],
    "aarch64": ["manylinux_2_17_aarch64", "manylinux2014_aarch64", "musllinux_1_1_aarch64"],
}
ELF_MACHINE = {"x86_64": 62, "aarch64": 183}
MODULES = ["trace_record.py", "trace_convert.py", "trace_analyze.py"]
# A fixed date: the same inputs give the same wheel, byte for byte.
DATE = (2020, 1, 1, 0, 0, 0)


def fail(msg):
    sys.exit("mkwheel: " + msg)


def pyproject(src):
    """name, version, summary, requires-python and [project.scripts] of python/pyproject.toml
    (read by line: tomllib is 3.11+)."""
    meta, scripts, section = {}, {}, None
    with open(os.path.join(src, "python", "pyproject.toml"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^\[(.*)\]\s*$", line)
            if m:
                section = m.group(1)
                continue
            m = re.match(r'^([\w-]+)\s*=\s*"(.*)"\s*$', line)
            if m and section == "project":
                meta[m.group(1)] = m.group(2)
            elif m and section == "project.scripts":
                scripts[m.group(1)] = m.group(2)
    for k in ("name", "version", "description", "requires-python"):
        if k not in meta:
            fail("python/pyproject.toml has no project.%s" % k)
    return meta, scripts


def check_binary(path, arch):
    """A static ELF executable for @arch: refuse anything else (a wrong file would install fine)."""
    with open(path, "rb") as f:
        head = f.read(64)
    if head[:4] != b"\x7fELF" or head[4] != 2:
        fail("%s is not a 64-bit ELF file" % path)
    machine = int.from_bytes(head[18:20], "little")
    if machine != ELF_MACHINE[arch]:
        fail("%s is not an %s binary (ELF machine %d)" % (path, arch, machine))
    with open(path, "rb") as f:
        data = f.read()
    # No program interpreter: PT_INTERP in the program headers.
    phoff, phentsize, phnum = (int.from_bytes(data[32:40], "little"),
                               int.from_bytes(data[54:56], "little"), int.from_bytes(data[56:58], "little"))
    for i in range(phnum):
        if int.from_bytes(data[phoff + i * phentsize:phoff + i * phentsize + 4], "little") == 3:
            fail("%s is dynamically linked (it has a program interpreter)" % path)
    return data


def metadata(meta, src):
    with open(os.path.join(src, "python", "README.md"), encoding="utf-8") as f:
        readme = f.read()
    head = ["Metadata-Version: 2.1", "Name: " + meta["name"], "Version: " + meta["version"],
            "Summary: " + meta["description"], "License: MIT", "Requires-Python: " + meta["requires-python"],
            "Classifier: Operating System :: POSIX :: Linux",
            "Classifier: Programming Language :: Python :: 3",
            "Description-Content-Type: text/markdown"]
    return ("\n".join(head) + "\n\n" + readme).encode()


def entry_points(scripts):
    lines = ["[console_scripts]", "ftscope = ftscope._cli:main"]
    lines += ["%s = %s" % kv for kv in sorted(scripts.items())]
    return ("\n".join(lines) + "\n").encode()


def add(zf, record, name, data, mode=0o644):
    info = zipfile.ZipInfo(name, DATE)
    info.external_attr = (0o100000 | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    zf.writestr(info, data, compresslevel=9)
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    record.append("%s,sha256=%s,%d" % (name, digest, len(data)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--arch", required=True, choices=sorted(TAGS))
    ap.add_argument("--src", required=True, help="the source tree whose python/ goes in")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    meta, scripts = pyproject(a.src)
    with open(os.path.join(a.src, "python", "ftscope", "__init__.py"), encoding="utf-8") as f:
        m = re.search(r'^__version__ = "(.*)"$', f.read(), re.M)
    if not m or m.group(1) != meta["version"]:
        fail("python/pyproject.toml says version %s, ftscope/__init__.py %s"
             % (meta["version"], m.group(1) if m else "nothing"))
    binary = check_binary(a.binary, a.arch)
    name, ver = meta["name"], meta["version"]
    di = "%s-%s.dist-info" % (name, ver)
    tag = "py3-none-" + ".".join(TAGS[a.arch])
    wheel = os.path.join(a.out, "%s-%s-%s.whl" % (name, ver, tag))
    pkg = os.path.join(a.src, "python", "ftscope")
    files = [("ftscope/" + f, os.path.join(pkg, f)) for f in sorted(os.listdir(pkg)) if f.endswith(".py")]
    files += [(m, os.path.join(a.src, "python", m)) for m in MODULES]
    record = []
    tmp = wheel + ".part"
    with zipfile.ZipFile(tmp, "w") as zf:
        for arc, path in files:
            with open(path, "rb") as f:
                add(zf, record, arc, f.read())
        add(zf, record, "ftscope/bin/ftscope", binary, 0o755)
        add(zf, record, di + "/METADATA", metadata(meta, a.src))
        add(zf, record, di + "/WHEEL", ("Wheel-Version: 1.0\nGenerator: ftscope scripts/mkwheel.py\n"
                                        "Root-Is-Purelib: false\n"
                                        + "".join("Tag: py3-none-%s\n" % t for t in TAGS[a.arch])).encode())
        add(zf, record, di + "/entry_points.txt", entry_points(scripts))
        add(zf, record, di + "/top_level.txt", b"ftscope\ntrace_analyze\ntrace_convert\ntrace_record\n")
        with open(os.path.join(a.src, "LICENSE"), "rb") as f:
            add(zf, record, di + "/LICENSE", f.read())
        record.append(di + "/RECORD,,")
        add_record = zipfile.ZipInfo(di + "/RECORD", DATE)
        add_record.external_attr = 0o100644 << 16
        add_record.compress_type = zipfile.ZIP_DEFLATED
        zf.writestr(add_record, "\n".join(record) + "\n")
    os.replace(tmp, wheel)
    print(wheel)


if __name__ == "__main__":
    main()
