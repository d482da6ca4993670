#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare top_replay's figures with `ftscope stats --format json` over the same window.

Usage: top_compare.py REPLAY_OUTPUT STATS_JSON. The top ranks 8 tasks by
Runnable and by CPU time: each ranked (pid, ns) must be a stats row's, the
ranked values must be the 8 largest stats has, and the worst wakeup must be
stats' largest wakeup_max_ns. Prints what differs; exit 1 if anything does.
"""
import json
import sys

N = 8


def main():
    top = {'runnable': [], 'cpu': [], 'worst': None}
    for line in open(sys.argv[1]):
        f = line.split()
        if f and f[0] in ('runnable', 'cpu'):
            top[f[0]].append((int(f[1]), int(f[2])))
        elif f and f[0] == 'worst':
            top['worst'] = (int(f[1]), int(f[2]))
    tasks = json.load(open(sys.argv[2]))['tasks']
    bad = []
    for key, col in (('runnable', 'runnable_ns'), ('cpu', 'running_ns')):
        rows = {(t['pid'], t[col]) for t in tasks}
        best = sorted((t[col] for t in tasks if t[col] > 0), reverse=True)[:N]
        for pid, ns in top[key]:
            if (pid, ns) not in rows:
                bad.append(f'{key}: top says pid {pid} {ns} ns, stats has no such row')
        if [ns for _, ns in top[key]] != best:
            bad.append(f'{key}: top ranks {[ns for _, ns in top[key]]}, stats {best}')
    worst = max((t['wakeup_max_ns'] for t in tasks), default=0)
    if top['worst'] is None or top['worst'][1] != worst:
        bad.append(f'worst wakeup: top {top["worst"]}, stats {worst}')
    elif worst and not any(t['pid'] == top['worst'][0] and t['wakeup_max_ns'] == worst for t in tasks):
        bad.append(f'worst wakeup: pid {top["worst"][0]} has no {worst} ns wakeup in stats')
    for b in bad:
        print('DIFF:', b)
    n = len(top['runnable']) + len(top['cpu'])
    print(f'{"differs" if bad else "agrees"}: {n} ranked tasks, worst wakeup {worst} ns')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
