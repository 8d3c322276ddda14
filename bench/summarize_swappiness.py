#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The swappiness sweep's tables: per file order, the anon share of
reclaimed pages per arm and swappiness (median and range of the
repetitions), against swappiness/200, the pages swapped out and in (the
report's measure), how each type refaulted, then every run.

Usage: summarize_swappiness.py CSV...   (swappiness_sweep.sh's output)
"""
import csv
import statistics
import sys

from median_range import median_range


def main():
    rows = [r for f in sys.argv[1:] for r in csv.DictReader(open(f))]
    orders = list(dict.fromkeys(r["order"] for r in rows))
    for order in orders:
        sub = [r for r in rows if r["order"] == order]
        values = sorted({int(r["swappiness"]) for r in sub})
        arms = list(dict.fromkeys(r["arm"] for r in sub))
        reps = max(int(r["rep"]) for r in sub)
        what = {"random": "file pages at random, both types refault alike",
                "sequential": "the file read once: only anon refaults"}.get(order, order)
        print(f"File order **{order}** ({what}); anon share of reclaimed pages, "
              f"median (range) of {reps} runs:")
        print()
        print("| arm | " + " | ".join(f"swappiness {v}" for v in values) + " |")
        print("|---|" + "---|" * len(values))
        shares = {}
        for arm in arms:
            cells = []
            for v in values:
                s = [float(r["anon_share"]) for r in sub if r["arm"] == arm and int(r["swappiness"]) == v]
                shares[arm, v] = statistics.median(s) if s else None
                cells.append(median_range(s, digits=2))
            print(f"| {arm} | " + " | ".join(cells) + " |")
        print("| swappiness/200 | " + " | ".join(f"{v / 200:.2f}" for v in values) + " |")
        print()
        for counter in ("pswpout", "pswpin"):
            print(f"{counter} (pages), median (range) of {reps} runs:")
            print()
            print("| arm | " + " | ".join(f"swappiness {v}" for v in values) + " | largest / smallest median |")
            print("|---|" + "---|" * (len(values) + 1))
            for arm in arms:
                cells, meds = [], []
                for v in values:
                    c = [int(r[counter]) for r in sub if r["arm"] == arm and int(r["swappiness"]) == v]
                    cells.append(median_range(c))
                    if c:
                        meds.append(statistics.median(c))
                ratio = f"{max(meds) / min(meds):.2f}" if meds and min(meds) > 0 else "-"
                print(f"| {arm} | " + " | ".join(cells) + f" | {ratio} |")
            print()
        print("| arm | refault_anon / refault_file, median | virtual s per run, median | largest spread of one swappiness's runs |")
        print("|---|---|---|---|")
        for arm in arms:
            ratios = []
            for r in sub:
                if r["arm"] != arm:
                    continue
                ra, rf = int(r["refault_anon"]), int(r["refault_file"])
                ratios.append(ra / rf if rf else float("inf"))
            ns = [int(r["ns"]) / 1e9 for r in sub if r["arm"] == arm]
            spreads = []
            for v in values:
                t = [int(r["ns"]) for r in sub if r["arm"] == arm and int(r["swappiness"]) == v]
                if t:
                    spreads.append((max(t) - min(t)) / statistics.median(t))
            ratio = statistics.median(ratios)
            ratio = "no file refaults" if ratio == float("inf") else f"{ratio:.2f}"
            print(f"| {arm} | {ratio} | {statistics.median(ns):.3f} | {max(spreads) * 100:.2f}% |")
        print()
        for arm in arms:
            meds = [shares[arm, v] for v in values]
            if None in meds:
                continue
            rising = all(b > a for a, b in zip(meds, meds[1:]))
            off = max(abs(m - v / 200) for m, v in zip(meds, values))
            below = all(m < v / 200 for m, v in zip(meds, values))
            near = sum(abs(m - v / 200) <= 0.05 for m, v in zip(meds, values))
            print(f"- {arm}: {'rises' if rising else 'does not rise'} with swappiness; "
                  f"furthest from swappiness/200 by {off:.2f}; within 0.05 of it at {near} of {len(values)} values; "
                  f"{'below' if below else 'not below'} swappiness/200 at every value")
        print()
        print(f"Every run ({order}):")
        print()
        print("| arm | swappiness | run | anon share | pgscan | pgsteal anon | pgsteal file | "
              "refault anon | refault file | pswpout | pswpin | virtual s |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for r in sorted(sub, key=lambda r: (arms.index(r["arm"]), int(r["swappiness"]), int(r["rep"]))):
            print(f"| {r['arm']} | {r['swappiness']} | {r['rep']} | {r['anon_share']} | {r['pgscan']} | "
                  f"{r['pgsteal_anon']} | {r['pgsteal_file']} | {r['refault_anon']} | "
                  f"{r['refault_file']} | {r['pswpout']} | {r['pswpin']} | {int(r['ns']) / 1e9:.3f} |")
        print()


if __name__ == "__main__":
    main()
