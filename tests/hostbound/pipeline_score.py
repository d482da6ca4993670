#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Score `ftscope hostbound -f json` against pipeline.c's ground truth.

    pipeline_score.py [--own] [--lost] [--card=S] TRUTH_JSON HOSTBOUND_JSON [MIN_PERCENT]

Each injected stretch is matched with the idle time of the gaps inside it
(each gap's overlap with it). A gap's causes are a split of its time, not a
timeline, so when a gap spans two stretches (a sleep, then a wait behind a
spinner) each stretch takes from the gap's split only the time of its own
category, up to its overlap:
  right category  the stretch's category ("runnable": preempted or waiting,
                  "sleeping", "io": blocked or running the reads, "irq") in the
                  gap's cause_ns; for "io" out of the reads' own share of the
                  stretch (less the time the thread waited for a CPU, which
                  the workload measured itself: the load's doing); for
                  "irq" out of the share of the dispatch CPU's ticks in
                  softirq meanwhile (/proc/stat);
  right culprit   "runnable": the time the gap's culprits of that comm held
                  the CPU, out of what the culprit really ran meanwhile (the
                  CPU time it measured itself, spread evenly over its
                  stretch): a hog sharing its CPU with another cgroup's task
                  is not the whole story, and the score does not pretend it
                  is; "sleeping" / "io": the sleeping, blocked and running
                  pieces of the gap that name the stretch's op; "irq": the
                  irq pieces that name its vector ("softirq NET_RX ...").
The stretches are already cut to what their injection caused (pipeline_prof.py).
Prints a line per stretch and per kind, and the totals; exits 1 when a total
is below MIN_PERCENT (default 90), or the stretches made too little idle time.
--own scores what hostbound said before it followed causes: the dispatch
thread's own state (ns), its top preempter, and the op over the whole gap.
--lost (a capture that lost events): the time the report calls unknown is not
wrong; it passes when right category + unknown reach MIN_PERCENT.
"""
import json
import sys

CATS = {"runnable": ("preempted", "waiting"), "sleeping": ("sleeping",), "io": ("blocked", "running"),
        "irq": ("irq",)}
OWN = "--own" in sys.argv
LOST = "--lost" in sys.argv
CARD = next((a[len("--card="):] for a in sys.argv[1:] if a.startswith("--card=")), None)
ARGS = [a for a in sys.argv[1:] if a not in ("--own", "--lost") and not a.startswith("--card=")]


def comm(task):
    """The comm of "comm:pid" (with a pid mapping, a host-only task is "host:comm:pid")."""
    return task[5:].split(":")[0] if task.startswith("host:") else task.split(":")[0]


def own_pools(g):
    """The states-only answer: the dispatch thread's own split, its top preempter, the gap's op."""
    p = {k: sum(g["ns"][c] for c in cats) for k, cats in CATS.items()}
    p["unknown"] = g["ns"]["unknown"]
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
    p["unknown"] = g["cause_ns"]["unknown"]
    for c in g["culprits"]:
        key = "task:" + comm(c["task"])
        p[key] = p.get(key, 0) + c["ns"]
    for part in g["parts"]:
        if part["category"] in ("sleeping", "blocked", "running") and part["op"]:
            key = "op:" + part["op"]
            p[key] = p.get(key, 0) + part["ns"]
        elif part["category"] == "irq" and part["culprit"]:
            # "softirq NET_RX [in ksoftirqd/1:24]", "irq 24 (eth0)": the vector or the irq
            key = "irq:" + part["culprit"].split()[1]
            p[key] = p.get(key, 0) + part["culprit_ns"]
    return p


def take(pool, key, want):
    got = min(pool.get(key, 0), want)
    pool[key] = pool.get(key, 0) - got
    return got


def score(truth, gaps):
    res = [{"idle": 0.0, "cat": 0.0, "catwant": 0.0, "want": 0.0, "cul": 0.0, "unk": 0.0} for _ in truth]
    for g in gaps:
        pool = pools(g)
        g0, g1 = g["start_ns"], g["start_ns"] + g["dur_ns"]
        for st, r in zip(truth, res):
            a, b = st["ns"]
            ov = min(b, g1) - max(a, g0)
            if ov <= 0:
                continue
            r["idle"] += ov
            # io: the reads' own share of the stretch (not the waits for a CPU under load)
            # irq: the share of the dispatch CPU the softirq took (the rest is the thread's or the load's)
            catwant = st["cpu_share"] * ov if st["category"] in ("io", "irq") else ov
            got = take(pool, st["category"], catwant)
            r["cat"] += got
            r["catwant"] += catwant
            r["unk"] += take(pool, "unknown", catwant - got)
            if st["category"] == "runnable":
                want = st["cpu_share"] * ov
                r["cul"] += take(pool, "task:" + st["culprit"], want)
            elif st["category"] == "irq":
                want = catwant
                r["cul"] += take(pool, "irq:" + st["culprit"], want)
            else:
                want = catwant
                r["cul"] += take(pool, "op:" + st["culprit"], want)
            r["want"] += want
    return res


def pc(a, b):
    return 100.0 * a / b if b else 0.0


def main():
    whole = json.load(open(ARGS[0]))
    truth = whole["stretches"]
    cards = json.load(open(ARGS[1]))["cards"]
    # --card=S: the card whose path holds S (a rank's directory), else the only one
    card = next((c for c in cards if CARD in c["card"]), None) if CARD else cards[0]
    if card is None:
        sys.exit("pipeline_score.py: no card matching %s" % CARD)
    gaps = card["worst_gaps"]
    need = float(ARGS[2]) if len(ARGS) > 2 else 90.0
    res = score(truth, gaps)
    kinds = {}
    for st, r in zip(truth, res):
        print("  %-12s %-9s %-20s %6.1f ms stretch, %6.1f ms idle: category %5.1f%%, culprit %5.1f%% of %.1f ms"
              % (st["kind"], st["category"], st["culprit"], (st["ns"][1] - st["ns"][0]) / 1e6, r["idle"] / 1e6,
                 pc(r["cat"], r["catwant"]), pc(r["cul"], r["want"]), r["want"] / 1e6))
        k = kinds.setdefault(st["kind"] + "/" + st["category"], dict.fromkeys(r, 0.0))
        for x in r:
            k[x] += r[x]
    tot = dict.fromkeys(res[0], 0.0) if res else {"idle": 0, "cat": 0, "catwant": 0, "want": 0, "cul": 0, "unk": 0}
    for name, k in sorted(kinds.items()):
        print("  by kind %-22s %7.1f ms idle: category %5.1f%%, culprit %5.1f%%"
              % (name, k["idle"] / 1e6, pc(k["cat"], k["catwant"]), pc(k["cul"], k["want"])))
        for x in k:
            tot[x] += k[x]
    injected = sum(st["ns"][1] - st["ns"][0] for st in truth)
    cat, cul = pc(tot["cat"], tot["catwant"]), pc(tot["cul"], tot["want"])
    print("total: %.1f ms injected, %.1f ms of it caused by the injection, %.1f ms idle in that: right category "
          "%.1f%%, right culprit %.1f%% (%.1f%% of the idle time)"
          % (whole.get("injected_ns", injected) / 1e6, injected / 1e6, tot["idle"] / 1e6, cat, cul,
             pc(tot["cul"], tot["idle"])))
    unk = pc(tot["unk"], tot["catwant"])
    print("unknown (lost events, no trace): %.1f%% of the idle time; a wrong cause: %.1f%%"
          % (unk, 100.0 - cat - unk))
    if LOST:
        # lossy capture: what was lost is unknown, never a wrong cause
        ok = truth and tot["idle"] >= 0.5 * injected and cat + unk >= need
    else:
        ok = truth and tot["idle"] >= 0.5 * injected and cat >= need and cul >= need
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
