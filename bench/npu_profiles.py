#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a large torch_npu profile of tests/profiling/gen.py's scenario, in
pieces (never all in memory): TYPE text -> RANK/ASCEND_PROFILER_OUTPUT/
trace_view.json, TYPE db -> .../ascend_pytorch_profiler_0.db, until the file
reaches MB megabytes. usage: npu_profiles.py RANK TYPE MB T0_NS LEVEL"""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "profiling"))
import gen  # noqa: E402

rank, kind, mb, t0, level = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
out = os.path.join(rank, "ASCEND_PROFILER_OUTPUT")
os.makedirs(out, exist_ok=True)
limit = mb << 20
PIECE = 300   # steps per piece
k = 0
if kind == "text":
    path = os.path.join(out, "trace_view.json")
    rng = random.Random(1)
    with open(path, "w") as f:
        t = gen.Text(rng)
        s = gen.scenario(t0, 1, 1, 1, 3)
        gen.text_meta(t, s, level)
        f.write("[\n" + ",\n".join(t.lines(False)))
        end = None
        while f.tell() < limit:
            s = gen.scenario(t0, PIECE, 1, 1, 3, first=k)
            t = gen.Text(rng)
            end = gen.text_body(t, s, level, end)
            f.write(",\n" + ",\n".join(t.lines(False)))
            k += PIECE
        f.write("\n]\n")
else:
    path = os.path.join(out, "ascend_pytorch_profiler_0.db")
    d = gen.Db(path, 0)
    while os.path.getsize(path) < limit:
        for _ in range(10):
            d.add(gen.scenario(t0, PIECE, 1, 1, 3, first=k))
            k += PIECE
        d.db.commit()
    d.close()
print("%s: %d steps, %d MB" % (path, k, os.path.getsize(path) >> 20))
