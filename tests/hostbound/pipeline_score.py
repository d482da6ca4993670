#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Score `ftscope hostbound -f json` against pipeline.c's ground truth.

    pipeline_score.py [--own] TRUTH_JSON HOSTBOUND_JSON [MIN_PERCENT]

Each injected stretch is matched with the idle time of the gaps inside it
(each gap's overlap with it). A gap's causes are a split of its time, not a
timeline, so when a gap spans two stretches (a sleep, then a wait behind a
spinner) each stretch takes from the gap's split only the time of its own
category, up to its overlap:
  right category  the stretch's category ("runnable": preempted or waiting,
                  "sleeping") in the gap's cause_ns;
  right culprit   "runnable": the time the gap's culprits of that comm held
                  the CPU, out of what the culprit really ran meanwhile (the
                  CPU time it measured itself, spread evenly over its
                  stretch): a hog sharing its CPU with another cgroup's task
                  is not the whole story, and the score does not pretend it
                  is; "sleeping" / "blocked": the sleeping and blocked pieces
                  of the gap that name the stretch's op.
The stretches are already cut to what their injection caused (pipeline_prof.py).
Prints a line per stretch and per kind, and the totals; exits 1 when a total
is below MIN_PERCENT (default 90), or the stretches made too little idle time.
--own scores what hostbound said before it followed causes: the dispatch
thread's own state (ns), its top preempter, and the op over the whole gap.
"""
import json
import sys

CATS = {"runnable": ("preempted", "waiting"), "sleeping": ("sleeping",), "blocked": ("blocked",)}
OWN = "--own" in sys.argv
ARGS = [a for a in sys.argv[1:] if a != "--own"]


def comm(task):
    """The comm of "comm:pid" (with a pid mapping, a host-only task is "host:comm:pid")."""
    return task[5:].split(":")[0] if task.startswith("host:") else task.split(":")[0]


def own_pools(g):
    """The states-only answer: the dispatch thread's own split, its top preempter, the gap's op."""
    p = {k: sum(g["ns"][c] for c in cats) for k, cats in CATS.items()}
    if g["top_preempter"]:
        p["task:" + comm(g["top_preempter"])] = g["top_preempter_ns"]
    if g["op"]:
        p["op:" + g["op"]] = g["ns"]["sleeping"] + g["ns"]["blocked"]
    return p


def pools(g):
    """What a gap offers the stretches inside it: time by category, culprit and op."""
    if OWN:
        return own_pools(g)
    p = {k: sum(g["cause_ns"][c] for c in cats) for k, cats in CATS.items()}
    for c in g["culprits"]:
        key = "task:" + comm(c["task"])
        p[key] = p.get(key, 0) + c["ns"]
    for part in g["parts"]:
        if part["category"] in ("sleeping", "blocked") and part["op"]:
            key = "op:" + part["op"]
            p[key] = p.get(key, 0) + part["ns"]
    return p


def take(pool, key, want):
    got = min(pool.get(key, 0), want)
    pool[key] = pool.get(key, 0) - got
    return got


def score(truth, gaps):
    res = [{"idle": 0.0, "cat": 0.0, "want": 0.0, "cul": 0.0} for _ in truth]
    for g in gaps:
        pool = pools(g)
        g0, g1 = g["start_ns"], g["start_ns"] + g["dur_ns"]
        for st, r in zip(truth, res):
            a, b = st["ns"]
            ov = min(b, g1) - max(a, g0)
            if ov <= 0:
                continue
            r["idle"] += ov
            r["cat"] += take(pool, st["category"], ov)
            if st["category"] == "runnable":
                want = st["cpu_share"] * ov
                r["cul"] += take(pool, "task:" + st["culprit"], want)
            else:
                want = ov
                r["cul"] += take(pool, "op:" + st["culprit"], want)
            r["want"] += want
    return res


def pc(a, b):
    return 100.0 * a / b if b else 0.0


def main():
    whole = json.load(open(ARGS[0]))
    truth = whole["stretches"]
    gaps = json.load(open(ARGS[1]))["cards"][0]["worst_gaps"]
    need = float(ARGS[2]) if len(ARGS) > 2 else 90.0
    res = score(truth, gaps)
    kinds = {}
    for st, r in zip(truth, res):
        print("  %-12s %-9s %-20s %6.1f ms stretch, %6.1f ms idle: category %5.1f%%, culprit %5.1f%% of %.1f ms"
              % (st["kind"], st["category"], st["culprit"], (st["ns"][1] - st["ns"][0]) / 1e6, r["idle"] / 1e6,
                 pc(r["cat"], r["idle"]), pc(r["cul"], r["want"]), r["want"] / 1e6))
        k = kinds.setdefault(st["kind"] + "/" + st["category"], dict.fromkeys(r, 0.0))
        for x in r:
            k[x] += r[x]
    tot = dict.fromkeys(res[0], 0.0) if res else {"idle": 0, "cat": 0, "want": 0, "cul": 0}
    for name, k in sorted(kinds.items()):
        print("  by kind %-22s %7.1f ms idle: category %5.1f%%, culprit %5.1f%%"
              % (name, k["idle"] / 1e6, pc(k["cat"], k["idle"]), pc(k["cul"], k["want"])))
        for x in k:
            tot[x] += k[x]
    injected = sum(st["ns"][1] - st["ns"][0] for st in truth)
    cat, cul = pc(tot["cat"], tot["idle"]), pc(tot["cul"], tot["want"])
    print("total: %.1f ms injected, %.1f ms of it caused by the injection, %.1f ms idle in that: right category "
          "%.1f%%, right culprit %.1f%% (%.1f%% of the idle time)"
          % (whole.get("injected_ns", injected) / 1e6, injected / 1e6, tot["idle"] / 1e6, cat, cul,
             pc(tot["cul"], tot["idle"])))
    sys.exit(0 if truth and tot["idle"] >= 0.5 * injected and cat >= need and cul >= need else 1)


if __name__ == "__main__":
    main()
