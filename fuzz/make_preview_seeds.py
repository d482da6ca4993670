#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeds for fuzz_preview_keys: a 12-byte store recipe, then keys.

make_preview_seeds.py OUTDIR
The recipe's layout and the key alphabet are fuzz_preview_keys.c's (struct
recipe, key_of); each seed is one crafted store the review broke the view
with (issue 21) and a key sequence over it.
"""
import os
import struct
import sys

BOUND = "?hlkjHL+=-0gGw[]rRxXnNfpoms/"
SPECIAL = ["<Up>", "<Down>", "<Left>", "<Right>", "<S-Left>", "<S-Right>", "<PgUp>", "<PgDn>",
           "<Home>", "<End>", "<S-Tab>", "<Tab>", "<Enter>", "<Esc>", "<BS>", "<C-l>", "<C-u>"]
R_MANY, R_EQUAL, R_NOITEMS, R_LOSS, R_NAMES, R_SPAN = 1, 2, 4, 8, 16, 32


def keys(spec):
    """'+-<End>' -> bytes; '@' is a resize; other printable characters go as search text."""
    out, i = bytearray(), 0
    while i < len(spec):
        tok = next((t for t in SPECIAL if spec.startswith(t, i)), None)
        if tok:
            out.append(len(BOUND) + SPECIAL.index(tok))
            i += len(tok)
            continue
        c = spec[i]
        if c == "@":
            out.append(0xFF)
        elif c in BOUND:
            out.append(BOUND.index(c))
        else:
            out.append(_printable(c))
        i += 1
    return bytes(out)


def _printable(c):
    # key_of: b' = b - len(BOUND) past the specials maps to 0x20 + b' % 0x5f
    base = len(BOUND) + len(SPECIAL)
    for b in range(base, 256):
        if 0x20 + (b - len(BOUND)) % 0x5F == ord(c):
            return b
    raise ValueError(c)


def recipe(ncpu, ntask, items, flags, base, dur, size, seed):
    return struct.pack("<8BI", ncpu, ntask, items, flags, base, dur, size, 0, seed)


SEEDS = {
    # the axis that wrapped: starts near 0 and near 2^63, durations to 2^63
    "wrap_first_frame": (recipe(1, 1, 2, R_SPAN, 1, 2, 1, 7), ""),
    "wrap_zoom_out": (recipe(2, 2, 3, R_SPAN, 6, 5, 1, 7), "+-" + "-" * 8 + "<End>--0"),
    "wrap_pan": (recipe(2, 2, 3, R_SPAN, 5, 4, 2, 11), "+++" + "L" * 6 + "H" * 6 + "G-g-"),
    "wrap_nav": (recipe(3, 3, 6, R_LOSS | R_SPAN, 6, 5, 3, 13), "x]r[XR-m-G<Enter>+0w"),
    "far_times": (recipe(2, 2, 8, 0, 6, 5, 1, 7), "-" * 8 + "<End>--0"),
    # equal starts, long durations
    "equal": (recipe(1, 1, 200, R_EQUAL, 2, 3, 1, 5), "+" * 10 + "]" * 5 + "[-0jl"),
    "equal_many": (recipe(2, 4, 40, R_EQUAL | R_MANY, 3, 4, 2, 9), "++--jjjj][0"),
    # many lanes, search, filter, pins, sort, summary
    "many_lanes": (recipe(8, 40, 3, R_MANY | R_NAMES, 2, 6, 1, 3),
                   "/t1<Enter>nNfpojjjp<PgDn><PgDn>s<Down><Down><Enter>q@@"),
    "no_items": (recipe(4, 5, 0, R_NOITEMS, 0, 0, 0, 1), "+-0gGhl[]rRxX/a<Enter>nfs<Tab><Enter>q"),
    "no_lanes": (recipe(0, 0, 0, 0, 0, 0, 4, 1), "+-0[]xX?<PgDn>q"),
    "names": (recipe(2, 9, 5, R_NAMES | R_LOSS, 1, 2, 5, 17), "/<Esc>/red<Enter>ffjjp?<End>qs"),
    "tiny_size": (recipe(3, 3, 20, R_LOSS, 4, 5, 4, 23), "-" * 5 + "L" * 5 + "x" * 3 + "@-@+"),
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, (hdr, spec) in SEEDS.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(hdr + keys(spec))


if __name__ == "__main__":
    main()
