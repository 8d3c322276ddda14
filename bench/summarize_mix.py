#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarize file_anon_mix runs: each arm over its runs, side by side.

Usage: summarize_mix.py MIX_CSV...
Each CSV is one run of file_anon_mix.sh; rows of the same arm in several
CSVs are its repetitions. Prints a Markdown table of medians with their
ranges, and budget against stock.
"""
import csv
import statistics
import sys

from median_range import median_range

COLUMNS = [
    ("file_batches", "file batches"),
    ("anon_iterations", "anon iterations"),
    ("refault_file", "file refaults"),
    ("max_events", "limit hits"),
    ("psi_full_us", "PSI full (ms)"),
    ("pgscan", "pgscan"),
    ("pgsteal", "pgsteal"),
]


def value(row, col):
    v = int(row.get(col) or 0)
    return v / 1000 if col == "psi_full_us" else v


def main():
    arms = {}
    for path in sys.argv[1:]:
        for row in csv.DictReader(open(path)):
            arms.setdefault(row["arm"], []).append(row)
    print("| arm | runs | runs with an OOM kill | " + " | ".join(t for _, t in COLUMNS) + " |")
    print("|---|---|---|" + "---|" * len(COLUMNS))
    for arm, rows in arms.items():
        killed = sum(1 for r in rows if int(r["oom_kill"] or 0) > 0)
        cells = [median_range([value(r, c) for r in rows]) for c, _ in COLUMNS]
        print(f"| {arm} | {len(rows)} | {killed} | " + " | ".join(cells) + " |")
    if "stock" in arms and "budget" in arms:
        print()
        for col, title in COLUMNS[:5]:
            s = [value(r, col) for r in arms["stock"]]
            b = [value(r, col) for r in arms["budget"]]
            if statistics.median(s):
                print(f"budget / stock, {title} (medians): "
                      f"{statistics.median(b) / statistics.median(s):.2f}, {verdict(col, s, b)}  ")


def verdict(col, stock, budget):
    """better or worse only when the runs' ranges do not overlap"""
    more_is_better = col in ("file_batches", "anon_iterations")
    if min(budget) > max(stock):
        return "better than stock in every run" if more_is_better else "worse than stock in every run"
    if max(budget) < min(stock):
        return "worse than stock in every run" if more_is_better else "better than stock in every run"
    return "within the runs' spread"


if __name__ == "__main__":
    main()
