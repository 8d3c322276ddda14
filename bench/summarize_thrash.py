#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarize madv_random_thrash runs: every run, then each arm over its runs.

Usage: summarize_thrash.py [--compare A/B[+C...]]... COLD_AT PLOT RUN_DIR...
Each RUN_DIR holds one run's ARM.csv (t,reads_s,refault_s,vec_mb,cold_mb)
and ARM.result files; runs of the same arm in several RUN_DIRs are its
repetitions. Prints Markdown tables; writes PLOT (PNG) from the first
RUN_DIR that has each arm. --compare A/B+C prints when A's readers were
back to 70% against the runs of B and C taken together, with a verdict
only when the runs do not overlap.
"""
import argparse
import csv
import glob
import os
import statistics
import subprocess

from median_range import median_range

# The target: back to 70% of the pre-read rate (classic LRU's
# recovery in the seed's reproducer).
RECOVERED = 0.7
# the pre-read rate: the mean over this many seconds before the cold read
BEFORE_S = 10
# a recovery must hold for this long (or to the end of the run)
HOLD_S = 1.0


def load(path):
    with open(path) as f:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]


def result(path):
    values = {}
    if os.path.exists(path):
        for line in open(path):
            key, _, value = line.partition(" ")
            values[key] = int(value)
    return values


def mean(values):
    return sum(values) / len(values) if values else 0


def summarize(rows, cold_at):
    """The run's figures; recover is seconds after the cold read or None."""
    before = mean([r["reads_s"] for r in rows if cold_at - BEFORE_S < r["t"] <= cold_at])
    after = [r for r in rows if r["t"] > cold_at]
    low = [i for i, r in enumerate(after) if r["reads_s"] < RECOVERED * before]
    recover = 0.0 if not low else None
    if low:
        for i in range(low[0], len(after)):
            window = [r for r in after[i:] if r["t"] < after[i]["t"] + HOLD_S]
            if all(r["reads_s"] >= RECOVERED * before for r in window):
                recover = after[i]["t"] - cold_at
                break
    end = [r for r in rows if r["t"] > rows[-1]["t"] - 5] if rows else []
    return {
        "before": before,
        "end": mean([r["reads_s"] for r in end]),
        "trough": min((r["reads_s"] for r in after), default=0),
        "recover": recover,
        "refault_end": mean([r["refault_s"] for r in end]),
        "cold_mb": rows[-1]["cold_mb"] if rows else 0,
        "vec_mb": rows[-1]["vec_mb"] if rows else 0,
        "duration": rows[-1]["t"] if rows else 0,
    }


def runs(run_dirs, cold_at):
    """(arm, run_dir, summary, result) for every arm of every run, in order."""
    found = []
    for d in run_dirs:
        for path in sorted(glob.glob(os.path.join(d, "*.csv"))):
            arm = os.path.basename(path)[:-4]
            found.append((arm, d, summarize(load(path), cold_at),
                          result(os.path.join(d, arm + ".result"))))
    return found


def fmt_recover(s):
    return "never" if s is None else f"{s:.2f} s"


def plot(path, series, cold_at):
    script = path[:-4] + ".gp"

    def lines(column):
        return ", ".join(f"'{csv_path}' using 1:{column} every ::1 with lines title '{arm}'"
                         for arm, csv_path in series)

    with open(script, "w") as f:
        f.write(f"""set datafile separator ','
set terminal pngcairo size 900,750 noenhanced
set output '{path}'
set multiplot layout 2,1 title 'MADV_RANDOM readers, cold file read at t={cold_at:g} s (madv_random_thrash, first run of each arm)'
set xlabel 'virtual time (s)'
set arrow from {cold_at}, graph 0 to {cold_at}, graph 1 nohead dashtype 2
set key top right
set ylabel 'vec reads/s (all readers)'
plot {lines(2)}
set ylabel 'file refaults/s (memcg)'
plot {lines(3)}
unset multiplot
""")
    try:
        subprocess.run(["gnuplot", script], check=True)
        return path
    except (OSError, subprocess.CalledProcessError):
        return None


def compare(found, pair):
    """A's recovery against the pooled runs of B, C, ..."""
    a_name, others = pair.split("/")
    b_names = others.split("+")
    a = [s["recover"] for arm, _, s, _ in found if arm == a_name]
    b = [s["recover"] for arm, _, s, _ in found if arm in b_names]
    if not a or not b:
        return
    if None in a or None in b:
        verdict = "some runs never back"
    elif max(a) < min(b):
        verdict = f"{a_name} earlier in every run"
    elif min(a) > max(b):
        verdict = f"{a_name} later in every run"
    elif max(a) <= min(b):
        verdict = f"{a_name} no later in any run"
    else:
        verdict = "within the runs' spread"
    back = [x for x in a if x is not None], [x for x in b if x is not None]
    print(f"{a_name} against {' and '.join(b_names)} ({len(b)} run{'s' if len(b) != 1 else ''}), back to 70%: "
          f"{median_range(back[0], ' s', 2)} against {median_range(back[1], ' s', 2)}, {verdict}  ")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compare", action="append", default=[])
    ap.add_argument("cold_at", type=float)
    ap.add_argument("png")
    ap.add_argument("run_dirs", nargs="+")
    args = ap.parse_args()
    cold_at, png, run_dirs = args.cold_at, args.png, args.run_dirs
    found = runs(run_dirs, cold_at)
    print("| arm | run | reads/s before | lowest after | reads/s at the end | back to 70% | "
          "file refaults/s at the end | cold MiB cached | vec MiB cached | OOM kills |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    arms = []
    for arm, d, s, r in found:
        if arm not in arms:
            arms.append(arm)
        print(f"| {arm} | {os.path.relpath(d, os.path.dirname(run_dirs[0].rstrip('/')))} | "
              f"{s['before']:.0f} | {s['trough']:.0f} | {s['end']:.0f} | {fmt_recover(s['recover'])} | "
              f"{s['refault_end']:.0f} | {s['cold_mb']:.0f} | {s['vec_mb']:.0f} | {r.get('oom_kill', '?')} |")
    print()
    print("| arm | runs | back to 70% (median, range) | never back | end / before | "
          "cold MiB cached at the end | OOM kills |")
    print("|---|---|---|---|---|---|---|")
    for arm in arms:
        mine = [(s, r) for a, _, s, r in found if a == arm]
        back = [s["recover"] for s, _ in mine if s["recover"] is not None]
        ratio = [s["end"] / s["before"] for s, _ in mine if s["before"]]
        ratio_text = (f"{statistics.median(ratio):.2f} ({min(ratio):.2f}-{max(ratio):.2f})"
                      if ratio else "-")
        print(f"| {arm} | {len(mine)} | {median_range(back, ' s', 2)} | {len(mine) - len(back)} | "
              f"{ratio_text} | {median_range([s['cold_mb'] for s, _ in mine], ' MiB')} | "
              f"{sum(r.get('oom_kill', 0) for _, r in mine)} |")
    if args.compare:
        print()
    for pair in args.compare:
        compare(found, pair)
    series = []
    for arm in arms:
        first = next(d for a, d, _, _ in found if a == arm)
        series.append((arm, os.path.join(first, arm + ".csv")))
    if plot(png, series, cold_at):
        repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        print(f"\nplot: `{os.path.relpath(png, repo)}`, written by the run "
              "on the machine that ran it (build/ is not in the repository)")


if __name__ == "__main__":
    main()
