#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarize isolation_pileup runs: every run, then each arm over its runs.

Usage: summarize_pileup.py PILEUP_CSV...
Each CSV is one run of isolation_pileup.sh (arm,threads,touches,oom_kill,
oom,throttles,pgscan,pgsteal); runs of the same arm and thread count are
its repetitions. Prints Markdown tables.
"""
import csv
import statistics
import sys

from median_range import median_range


def main():
    rows = [r for path in sys.argv[1:] for r in csv.DictReader(open(path))]
    groups = {}
    for r in rows:
        groups.setdefault((int(r["threads"]), r["arm"]), []).append(r)
    print("| threads | arm | runs | runs with an OOM kill | touches (median, range) | "
          "throttles | pgscan | pgsteal |")
    print("|---|---|---|---|---|---|---|---|")
    for (threads, arm), runs in sorted(groups.items(), key=lambda g: (-g[0][0], g[0][1])):
        def col(name):
            return [int(r[name]) for r in runs]
        killed = sum(1 for r in runs if int(r["oom_kill"]) > 0)
        print(f"| {threads} | {arm} | {len(runs)} | {killed} | {median_range(col('touches'))} | "
              f"{median_range(col('throttles'))} | {median_range(col('pgscan'))} | {median_range(col('pgsteal'))} |")
    for threads in sorted({t for t, _ in groups}, reverse=True):
        stock = groups.get((threads, "stock"))
        policy = groups.get((threads, "isolation_throttle"))
        if stock and policy:
            s = statistics.median(int(r["touches"]) for r in stock)
            p = statistics.median(int(r["touches"]) for r in policy)
            if s:
                print(f"\n{threads} threads, isolation_throttle / stock touches (medians): {p / s:.2f}",
                      end="")
    print()


if __name__ == "__main__":
    main()
