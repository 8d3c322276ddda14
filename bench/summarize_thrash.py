#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarize madv_random_thrash runs: one row per arm, side by side.

Usage: summarize_thrash.py DIR COLD_AT ARM...
Reads DIR/ARM.csv (t,iops,majflt_s,refault_s,activate_s,vec_mb,cold_mb),
prints a Markdown table and writes DIR/summary.md and DIR/thrash.png.
"""
import csv
import os
import subprocess
import sys


def load(path):
    with open(path) as f:
        rows = [{k: int(v) for k, v in row.items()} for row in csv.DictReader(f)]
    # fio has stopped by the last sample: it logged no reads in that window
    while rows and rows[-1]["iops"] == 0:
        rows.pop()
    return rows


# The target: back to 70% of the pre-read rate (classic LRU's
# recovery in the seed's reproducer).
RECOVERED = 0.7


def mean(values):
    return sum(values) / len(values) if values else 0


def summarize(rows, cold_at):
    before = [r["iops"] for r in rows if cold_at - 20 < r["t"] <= cold_at]
    after = rows[-6:]
    base = mean(before)
    recovered = "never"
    for r in rows:
        # recovered: back to RECOVERED of the IOPS it had before the cold read
        if r["t"] > cold_at + 5 and base and r["iops"] >= RECOVERED * base:
            recovered = f"{r['t'] - cold_at} s"
            break
    return {
        "before": base,
        "after": mean([r["iops"] for r in after]),
        "recover": recovered,
        "refault_after": mean([r["refault_s"] for r in after]),
        "cold_mb": rows[-1]["cold_mb"] if rows else 0,
        "vec_mb": rows[-1]["vec_mb"] if rows else 0,
    }


def plot(out_dir, arms, cold_at):
    script = os.path.join(out_dir, "thrash.gp")

    def series(column):
        return ", ".join(
            f"'{out_dir}/{arm}.csv' using 1:{column} every ::1 with linespoints title '{arm}'"
            for arm in arms)

    # reads/s on top, the file refaults behind them below, same time axis
    with open(script, "w") as f:
        f.write(f"""set datafile separator ','
set terminal pngcairo size 900,750 noenhanced
set output '{out_dir}/thrash.png'
set multiplot layout 2,1 title 'MADV_RANDOM readers, cold file read at t={cold_at} s (madv_random_thrash)'
set xlabel 'time (s)'
set arrow from {cold_at}, graph 0 to {cold_at}, graph 1 nohead dashtype 2
set key top right
set ylabel 'vec reads/s (fio, all jobs)'
plot {series(2)}
set ylabel 'file refaults/s (memcg)'
plot {series(4)}
unset multiplot
""")
    try:
        subprocess.run(["gnuplot", script], check=True)
        return f"{out_dir}/thrash.png"
    except (OSError, subprocess.CalledProcessError):
        return None


def main():
    out_dir, cold_at, arms = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    lines = [
        "| arm | reads/s before cold read | reads/s at the end | recovers in | "
        "file refaults/s at the end | cold MB cached | vec MB cached |",
        "|---|---|---|---|---|---|---|",
    ]
    for arm in arms:
        s = summarize(load(os.path.join(out_dir, f"{arm}.csv")), cold_at)
        lines.append(
            f"| {arm} | {s['before']:.0f} | {s['after']:.0f} | {s['recover']} | "
            f"{s['refault_after']:.0f} | {s['cold_mb']} | {s['vec_mb']} |")
    table = "\n".join(lines)
    png = plot(out_dir, arms, cold_at)
    with open(os.path.join(out_dir, "summary.md"), "w") as f:
        f.write(table + "\n")
    print(table)
    if png:
        print(f"\nplot: {png}")


if __name__ == "__main__":
    main()
