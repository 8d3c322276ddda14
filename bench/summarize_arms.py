#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarize the runs of a side-by-side workload: each arm over its runs.

Usage: summarize_arms.py --column SPEC... [--compare A/B]... CSV...
Each CSV is one run (file_anon_mix.sh's mix.csv, db_readmostly.sh's
db.csv): a row per arm, an "arm" and an "oom_kill" column among them; rows
of the same arm in several CSVs are its repetitions.
SPEC is COLUMN:TITLE[:BETTER[:DIGITS]], BETTER "+" when more is better,
"-" when less is, empty for neither; a COLUMN ending in _us is printed in
ms. --compare A/B prints the ratio of A's median to B's for every column
with a BETTER, and a verdict only when the two arms' runs do not overlap.
Prints Markdown: a table of medians with their ranges, the ratios, then
every run: a row per arm and run, the run named by its CSV's directory
(relative to the runs' common directory).
"""
import argparse
import csv
import os
import statistics

from median_range import median_range


def column(spec):
    parts = spec.split(":")
    if len(parts) < 2 or len(parts) > 4:
        raise argparse.ArgumentTypeError(f"bad column spec '{spec}'")
    col, title = parts[0], parts[1]
    better = parts[2] if len(parts) > 2 else ""
    digits = int(parts[3]) if len(parts) > 3 else 0
    return col, title, better, digits


def value(row, col):
    v = float(row.get(col) or 0)
    return v / 1000 if col.endswith("_us") else v


def killed(row):
    return int(row.get("oom_kill") or 0) > 0


# Fewer runs than this per arm can put two ranges apart by chance.
MIN_RUNS = 5


def verdict(better, a, b, a_name, b_name):
    """better or worse only when the runs' ranges do not overlap, and only
    a lead, not a result, with fewer than MIN_RUNS runs per arm"""
    if min(a) > max(b):
        word = "better" if better == "+" else "worse"
    elif max(a) < min(b):
        word = "worse" if better == "+" else "better"
    else:
        return "within the runs' spread"
    runs = f"{len(a)} and {len(b)} runs"
    if min(len(a), len(b)) < MIN_RUNS:
        return f"{a_name} {word} than {b_name} in all {runs}, too few to call: repeat"
    return f"{a_name} {word} than {b_name} in all {runs}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--column", type=column, action="append", required=True)
    ap.add_argument("--compare", action="append", default=[])
    ap.add_argument("csv", nargs="+")
    args = ap.parse_args()
    arms = {}
    runs = []
    top = os.path.commonpath([os.path.dirname(os.path.abspath(p)) for p in args.csv])
    for path in args.csv:
        run = os.path.relpath(os.path.dirname(os.path.abspath(path)), top)
        with open(path) as f:
            for row in csv.DictReader(f):
                arms.setdefault(row["arm"], []).append(row)
                runs.append((row["arm"], run, row))
    cols = args.column
    print("| arm | runs | runs with an OOM kill | " + " | ".join(c[1] for c in cols) + " |")
    print("|---|---|---|" + "---|" * len(cols))
    for arm, rows in arms.items():
        cells = [median_range([value(r, c) for r in rows], digits=d) for c, _, _, d in cols]
        print(f"| {arm} | {len(rows)} | {sum(map(killed, rows))} | " + " | ".join(cells) + " |")
    for pair in args.compare:
        a_name, b_name = pair.split("/")
        if a_name not in arms or b_name not in arms:
            continue
        print()
        for col, title, better, _ in cols:
            if not better:
                continue
            a = [value(r, col) for r in arms[a_name]]
            b = [value(r, col) for r in arms[b_name]]
            said = verdict(better, a, b, a_name, b_name)
            if statistics.median(b):
                ratio = statistics.median(a) / statistics.median(b)
                print(f"{a_name} / {b_name}, {title} (medians): {ratio:.2f}, {said}  ")
            else:
                # an arm OOM-killed in most runs reports 0: no ratio
                print(f"{a_name} / {b_name}, {title}: {b_name}'s median is 0, no ratio; {said}  ")
    print()
    print("Every run:")
    print()
    print("| arm | run | OOM kill | " + " | ".join(c[1] for c in cols) + " |")
    print("|---|---|---|" + "---|" * len(cols))
    for arm, run, row in sorted(runs, key=lambda r: (list(arms).index(r[0]), r[1])):
        cells = [f"{value(row, c):.{d}f}" for c, _, _, d in cols]
        print(f"| {arm} | {run} | {'yes' if killed(row) else 'no'} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
