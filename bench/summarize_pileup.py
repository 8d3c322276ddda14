#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarize isolation_pileup runs: each arm over its runs per shape, each
policy against stock, then every run.

Usage: summarize_pileup.py PILEUP_CSV...
Each CSV is one run of isolation_pileup.sh (arm,threads,touches,oom_kill,
oom,throttles,pgscan,pgsteal,memcg_mb); runs of the same arm, thread count
and memcg size are its repetitions. Prints Markdown tables.
"""
import csv
import statistics
import sys

from median_range import median_range


def shape_of(r):
    return int(r["threads"]), int(r.get("memcg_mb") or 0)


def mib(mb):
    return f"{mb} MiB" if mb else "?"


def touches(runs):
    return [int(r["touches"]) for r in runs]


def verdict(policy, base, name, base_name):
    """how the policy's runs stand against the base arm's: every run, or not"""
    if min(policy) > max(base):
        return f"{name} above {base_name} in every run"
    if max(policy) < min(base):
        return f"{name} below {base_name} in every run"
    return "within the runs' spread"


def main():
    rows = [r for path in sys.argv[1:] for r in csv.DictReader(open(path))]
    groups = {}
    for r in rows:
        groups.setdefault(shape_of(r) + (r["arm"],), []).append(r)
    order = sorted(groups, key=lambda g: (-g[0], g[1], g[2]))
    print("| threads | memcg | arm | runs | runs with an OOM kill | touches (median, range) | "
          "throttles | pgscan | pgsteal |")
    print("|---|---|---|---|---|---|---|---|---|")
    for threads, mb, arm in order:
        runs = groups[threads, mb, arm]

        def col(name):
            return [int(r[name]) for r in runs]
        killed = sum(1 for r in runs if int(r["oom_kill"]) > 0)
        print(f"| {threads} | {mib(mb)} | {arm} | {len(runs)} | {killed} | "
              f"{median_range(col('touches'))} | {median_range(col('throttles'))} | "
              f"{median_range(col('pgscan'))} | {median_range(col('pgsteal'))} |")
    print()
    for threads, mb in sorted({g[:2] for g in groups}, key=lambda s: (-s[0], s[1])):
        arms = sorted(a for t, m, a in groups if (t, m) == (threads, mb))
        kills = ", ".join(f"{a} in {sum(1 for r in groups[threads, mb, a] if int(r['oom_kill']) > 0)} "
                          f"of {len(groups[threads, mb, a])}" for a in arms)
        print(f"{threads} threads in {mib(mb)}, runs OOM-killed: {kills}  ")
        # each policy against stock; combined also against the part it
        # holds for this workload
        pairs = [(a, "stock") for a in arms if a != "stock"]
        if "combined" in arms and "isolation_throttle" in arms:
            pairs.append(("combined", "isolation_throttle"))
        for arm, base in pairs:
            if (threads, mb, base) not in groups:
                continue
            b, p = touches(groups[threads, mb, base]), touches(groups[threads, mb, arm])
            if statistics.median(b):
                ratio = statistics.median(p) / statistics.median(b)
                print(f"{threads} threads in {mib(mb)}, {arm} / {base} touches (medians): "
                      f"{ratio:.2f}, {verdict(p, b, arm, base)}  ")
    print()
    print("Every run (a run is one pass over the arms, in the order listed; an OOM-killed "
          "run reports no touches):")
    print()
    print("| threads | memcg | arm | run | OOM kills | touches | throttles | pgscan | pgsteal |")
    print("|---|---|---|---|---|---|---|---|---|")
    for threads, mb, arm in order:
        for i, r in enumerate(groups[threads, mb, arm], 1):
            print(f"| {threads} | {mib(mb)} | {arm} | {i} | {r['oom_kill']} | {r['touches']} | "
                  f"{r['throttles']} | {r['pgscan']} | {r['pgsteal']} |")


if __name__ == "__main__":
    main()
