#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarize reclaim_overhead runs (selftests/workloads/reclaim_overhead.sh).

Usage: summarize_overhead.py cost CSV...     the cost table, arm by load
       summarize_overhead.py scaling CSV...  cost against siblings and depth
       summarize_overhead.py hooks CSV...    a policy's cost part by part
       summarize_overhead.py place PAGES CSV...  what placing costs per
                                             page added (PAGES: the pages
                                             each run reads into its memcg)
       summarize_overhead.py bed DIR...      the bed itself: the same arm
                                             in different boots, and what a
                                             virtual second costs (DIR: one
                                             guest's results, with its wall
                                             seconds in DIR/wall)
       summarize_overhead.py smp DIR...      identical runs with N vCPUs
                                             (DIR: one guest, its vCPU
                                             count in DIR/smp)

Every figure is virtual time on the instruction-clocked bed: with
shift 0 one virtual ns is one guest instruction. Costs are per scanned
and per reclaimed page, so that runs which scan a different number of
pages compare; each is the median of the repetitions, with their spread
((max - min) / median).
"""
import csv
import glob
import os
import statistics
import sys


def read(paths):
    rows = []
    for p in paths:
        with open(p) as f:
            rows += list(csv.DictReader(f))
    for r in rows:
        for k in ("ns", "pgscan", "pgsteal", "calls", "refused", "depth", "siblings"):
            r[k] = int(r[k] or 0)
    return rows


class Cell:
    """The repetitions of one arm on one load."""

    def __init__(self, rows):
        self.rows = rows
        self.n = len(rows)
        self.per_scan = [r["ns"] / r["pgscan"] for r in rows if r["pgscan"]]
        self.per_steal = [r["ns"] / r["pgsteal"] for r in rows if r["pgsteal"]]
        self.scan = statistics.median(r["pgscan"] for r in rows)
        self.ns = statistics.median(r["ns"] for r in rows)
        self.calls = statistics.median(r["calls"] for r in rows)
        self.refused = sum(r["refused"] for r in rows)

    @staticmethod
    def spread(v):
        m = statistics.median(v)
        return (max(v) - min(v)) / m * 100 if m else 0.0

    def scan_cost(self):
        return statistics.median(self.per_scan)

    def steal_cost(self):
        return statistics.median(self.per_steal)


def cells(rows, key):
    out = {}
    for r in rows:
        out.setdefault(key(r), []).append(r)
    return {k: Cell(v) for k, v in out.items()}


def fmt_ratio(a, b):
    return f"{a / b:.4f}" if b else "-"


def spread_of(v):
    return f"{Cell.spread(v):.2f}%"


def cost(rows):
    arms = list(dict.fromkeys(r["arm"] for r in rows))
    loads = list(dict.fromkeys(r["load"] for r in rows))
    c = cells(rows, lambda r: (r["arm"], r["load"]))
    print("| load | kernel / policy | runs | virtual ms per run (spread) | ns per scanned page (spread) "
          "| ns per reclaimed page (spread) | / unpatched, per run; per page | / none, per run; per page "
          "| pages scanned (spread) | hook calls per 1000 pages |")
    print("|---|---|---|---|---|---|---|---|---|---|")

    def ratios(x, b):
        if not b or x is b:
            return "-"
        return f"{x.ns / b.ns:.4f}; {x.scan_cost() / b.scan_cost():.4f}"

    for load in loads:
        for arm in arms:
            x = c.get((arm, load))
            if not x or not x.per_scan:
                continue
            calls = f"{1000 * x.calls / x.scan:.1f}" if x.calls else "-"
            print(f"| {load} | {arm} | {x.n} | {x.ns / 1e6:.2f} ({spread_of([r['ns'] for r in x.rows])}) "
                  f"| {x.scan_cost():.1f} ({spread_of(x.per_scan)}) "
                  f"| {x.steal_cost():.1f} ({spread_of(x.per_steal)}) "
                  f"| {ratios(x, c.get(('unpatched', load)))} | {ratios(x, c.get(('none', load)))} "
                  f"| {x.scan:.0f} ({spread_of([r['pgscan'] for r in x.rows])}) | {calls} |")
    print()
    # One hook call: what passthrough adds to a run of fixed work, over the
    # calls it made.
    for load in loads:
        p, n = c.get(("passthrough", load)), c.get(("none", load))
        if p and n and p.calls and (len(modes(p.rows)) > 1 or len(modes(n.rows)) > 1):
            print(f"- {load}: the cost of one hook call is not resolved here: the runs take several paths")
        elif p and n and p.calls:
            print(f"- {load}: one hook call (passthrough - none, per run) costs {(p.ns - n.ns) / p.calls:.0f} "
                  f"instructions ({p.calls:.0f} calls per run)")
    refused = sum(x.refused for x in c.values())
    print(f"- answers refused by the kernel in these runs: {refused}")
    # A policy that answers what stock would decide: the same pages
    # scanned and reclaimed as no policy, repetition by repetition.
    for load in loads:
        n = c.get(("none", load))
        for arm in ("passthrough", "budget"):
            x = c.get((arm, load))
            if not x or not n:
                continue
            base = {r["rep"]: decisions(r) for r in n.rows}
            same = sum(base.get(r["rep"]) == decisions(r) for r in x.rows)
            print(f"- {load}: {arm} scanned and reclaimed exactly what no policy did in {same} "
                  f"of {x.n} repetitions")
    for load in loads:
        u, n, p = c.get(("unpatched", load)), c.get(("none", load)), c.get(("passthrough", load))
        for a, b, what, target in ((n, u, "patched, no policy / unpatched", "0.1%"),
                                   (p, n, "passthrough / no policy", "0.5%")):
            if not a or not b:
                continue
            line = (f"- {load}: {what} = {a.ns / b.ns:.4f} per run, "
                    f"{a.scan_cost() / b.scan_cost():.4f} per scanned page (target within {target})")
            same = same_mode(a.rows, b.rows)
            if len(modes(a.rows)) > 1 or len(modes(b.rows)) > 1:
                line += "; the runs take several paths, so within a path: " + (
                    ", ".join(same) if same else "no path common to both")
            print(line)
    print()
    print("The runs (virtual ms / pages scanned / pages reclaimed), in the order they ran; where the")
    print("runs of one arm took different paths (pages scanned more than 0.5% apart), each mode with its")
    print("runs and median:")
    print()
    for load in loads:
        for arm in arms:
            x = c.get((arm, load))
            if not x:
                continue
            runs = ", ".join(f"{r['ns'] / 1e6:.2f}/{r['pgscan']}/{r['pgsteal']}" for r in x.rows)
            found = modes(x.rows)
            line = f"- {load}, {arm}: {runs}"
            if len(found) > 1:
                line += "; modes: " + ", ".join(
                    f"{len(m)} runs at ~{statistics.median(r['pgscan'] for r in m):.0f} pages, "
                    f"{statistics.median(r['ns'] for r in m) / 1e6:.2f} ms" for m in found)
            print(line)


def decisions(r):
    """What a run decided: the pages it scanned and reclaimed."""
    return (r["pgscan"], r["pgsteal"])


def same_mode(a_rows, b_rows):
    """Ratios of the median run time of A to B within each path both took."""
    out = []
    for ma in modes(a_rows):
        sa = statistics.median(r["pgscan"] for r in ma)
        for mb in modes(b_rows):
            sb = statistics.median(r["pgscan"] for r in mb)
            if abs(sa - sb) <= 0.005 * sb:
                ra = statistics.median(r["ns"] for r in ma)
                rb = statistics.median(r["ns"] for r in mb)
                out.append(f"{ra / rb:.4f} at ~{sb:.0f} pages ({len(ma)} and {len(mb)} runs)")
    return out


def modes(rows):
    """Group runs whose page counts lie within 0.5% of their neighbours'."""
    out = []
    for r in sorted(rows, key=lambda r: r["pgscan"]):
        if out and r["pgscan"] <= out[-1][-1]["pgscan"] * 1.005:
            out[-1].append(r)
        else:
            out.append([r])
    return out


def scaling(rows):
    c = cells(rows, lambda r: (r["arm"], r["load"], r["siblings"], r["depth"]))
    configs = sorted({(k[1], k[2], k[3]) for k in c})
    print("| load | policies attached | depth below the policy | none: ns per scanned page (spread) "
          "| passthrough: ns per scanned page (spread) | passthrough / none | none / first row |")
    print("|---|---|---|---|---|---|---|")
    first = None
    for load, sib, depth in configs:
        n, p = c.get(("none", load, sib, depth)), c.get(("passthrough", load, sib, depth))
        if not n:
            continue
        first = first or n
        pcol = f"{p.scan_cost():.1f} ({spread_of(p.per_scan)}, {p.n} runs)" if p else "-"
        ratio = f"{p.scan_cost() / n.scan_cost():.4f}" if p else "-"
        print(f"| {load} | {sib} | {depth} | {n.scan_cost():.1f} ({spread_of(n.per_scan)}, {n.n} runs) | {pcol} "
              f"| {ratio} | {n.scan_cost() / first.scan_cost():.4f} |")
    print()
    print("`none` with more than one policy attached is a memcg without a policy of its own while its")
    print("siblings have one: reclaim looks the policy up and finds none. The last column is what the")
    print("kernel itself pays for the memcg's depth, with or without mglru_ext.")


def hooks(rows):
    c = cells(rows, lambda r: r["arm"])
    need = ("none", "stock_no_hooks", "stock_isolate_only", "stock_no_budget", "passthrough", "passthrough_lru")
    missing = [a for a in need if a not in c]
    if missing:
        print("summarize_overhead: hooks needs the arms " + ", ".join(missing), file=sys.stderr)
        sys.exit(1)
    none, nohooks, iso, nobudget, passthrough, filled = (c[a] for a in need)
    print("| arm | runs | virtual ms per run (spread) | pages scanned | hook calls per run | / none |")
    print("|---|---|---|---|---|---|")
    for a in need:
        x = c[a]
        print(f"| {a} | {x.n} | {x.ns / 1e6:.2f} ({spread_of([r['ns'] for r in x.rows])}) | {x.scan:.0f} "
              f"| {x.calls:.0f} | {x.ns / none.ns:.4f} |")
    passes = iso.calls  # the isolate hook is asked once per batch, and a pass here is one batch

    def resolved(a, b):
        """a - b is a result only when it is larger than either arm's range of runs"""
        rng = max(max(r["ns"] for r in x.rows) - min(r["ns"] for r in x.rows) for x in (a, b))
        if abs(a.ns - b.ns) > rng:
            return ""
        return f"; inside the runs' range of {rng / 1e3:.0f} us per run, so not resolved"

    print()
    print(f"- a pass with a policy attached, before any hook: {(nohooks.ns - none.ns) / passes:.0f} instructions "
          f"(stock_no_hooks - none, over {passes:.0f} batches, one per pass on this load"
          f"{resolved(nohooks, none)})")
    print(f"- the first hook of a batch: {(iso.ns - nohooks.ns) / iso.calls:.0f} instructions "
          f"(stock_isolate_only - stock_no_hooks{resolved(iso, nohooks)})")
    extra = nobudget.calls - iso.calls
    call = (nobudget.ns - iso.ns) / extra if extra else 0
    print(f"- each further hook of the batch: {call:.0f} instructions "
          f"(stock_no_budget - stock_isolate_only, over the calls it adds{resolved(nobudget, iso)})")
    extra = passthrough.calls - nobudget.calls
    if extra:
        print(f"- the budget hook (on 6.12 it also turns the pass into the budgeted loop): "
              f"{(passthrough.ns - nobudget.ns) / extra:.0f} instructions per call (passthrough - stock_no_budget)")
    print(f"- passthrough in all: {100 * (passthrough.ns / none.ns - 1):+.3f}% per run of this load")
    print(f"- ctx->lru filled before the first hook of each batch, for a policy without MGLRU_EXT_OPS_NO_LRU: "
          f"{(filled.ns - passthrough.ns) / passes:.0f} instructions a batch "
          f"(passthrough_lru - passthrough{resolved(filled, passthrough)}); "
          f"such a policy's hooks in all: {100 * (filled.ns / none.ns - 1):+.3f}% per run")


def place(pages, rows):
    c = cells(rows, lambda r: r["arm"])
    need = ("none", "none_placing", "no_place_hook", "passthrough_place")
    missing = [a for a in need if a not in c]
    if missing:
        print("summarize_overhead: place needs the arms " + ", ".join(missing), file=sys.stderr)
        sys.exit(1)
    none = c["none"]
    read = none.ns / pages
    rng = max(r["ns"] for r in none.rows) - min(r["ns"] for r in none.rows)
    print("| arm | runs | virtual ms per run (spread) | instructions per page added | more than none, per page "
          "| of a page's buffered read | hook calls per run | pages scanned |")
    print("|---|---|---|---|---|---|---|---|")
    for a in need:
        x = c[a]
        extra = (x.ns - none.ns) / pages
        print(f"| {a} | {x.n} | {x.ns / 1e6:.2f} ({spread_of([r['ns'] for r in x.rows])}) | {x.ns / pages:.0f} "
              f"| {extra:+.1f} | {100 * extra / read:+.3f}% | {x.calls:.0f} | {x.scan:.0f} |")
    print()
    print(f"A page's buffered read under no policy: {read:.0f} instructions (none's runs span "
          f"{rng / pages:.1f} per page; a difference below that is not resolved).")


def bed(dirs):
    print("| guest | wall s | virtual s since boot | virtual s of measured runs | wall s per measured virtual s "
          "| none, file: ns per scanned page (spread) | none, anon: ns per scanned page (spread) |")
    print("|---|---|---|---|---|---|---|")
    per_boot = {}
    for d in dirs:
        csvs = sorted(glob.glob(os.path.join(d, "**", "overhead.csv"), recursive=True))
        ups = [float(open(u).read().split()[0])
               for u in glob.glob(os.path.join(d, "**", "uptime"), recursive=True)]
        try:
            wall = float(open(os.path.join(d, "wall")).read())
        except OSError:
            wall = None
        every = read(csvs)
        measured = sum(r["ns"] for r in every) / 1e9
        rows = [r for r in every if r["siblings"] == 1 and r["depth"] == 1]
        arm = "none" if any(r["arm"] == "none" for r in rows) else "unpatched"
        c = cells([r for r in rows if r["arm"] == arm], lambda r: r["load"])
        figs = []
        for load in ("file", "anon"):
            x = c.get(load)
            figs.append(f"{x.scan_cost():.1f} ({spread_of(x.per_scan)}, {x.n} runs)" if x else "-")
            if x:
                per_boot.setdefault((arm, load), []).append(x.scan_cost())
        up = f"{max(ups):.1f}" if ups else "-"
        wall_s = f"{wall:.0f}" if wall else "-"
        ratio = f"{wall / measured:.1f}" if wall and measured else "-"
        print(f"| {os.path.basename(d.rstrip('/'))} | {wall_s} | {up} | {measured:.1f} | {ratio} "
              f"| {figs[0]} | {figs[1]} |")
    print()
    print("Wall s per measured virtual s counts everything a guest did for its runs (boot, loading")
    print("policies, settling, the warm-up round, waiting for the flush worker) against the virtual time")
    print("of the recorded runs alone; idle guest time costs no wall time on the instruction clock.")
    print()
    for (arm, load), v in per_boot.items():
        if len(v) > 1:
            print(f"- {arm}, {load}: the medians of {len(v)} boots spread by {Cell.spread(v):.2f}%")


def smp(dirs):
    print("| vCPUs | load | runs | virtual ms per run, each run | spread of virtual ms | pages scanned, each run "
          "| spread of ns per scanned page | same decisions: runs each | spread of virtual ms in the largest group "
          "| wall s per measured virtual s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for d in dirs:
        n = open(os.path.join(d, "smp")).read().strip()
        every = read(sorted(glob.glob(os.path.join(d, "**", "overhead.csv"), recursive=True)))
        try:
            wall = float(open(os.path.join(d, "wall")).read())
        except OSError:
            wall = None
        measured = sum(r["ns"] for r in every) / 1e9
        ratio = f"{wall / measured:.1f}" if wall and measured else "-"
        for load, x in cells(every, lambda r: r["load"]).items():
            runs = ", ".join(f"{r['ns'] / 1e6:.2f}" for r in x.rows)
            scans = ", ".join(str(r["pgscan"]) for r in x.rows)
            ns = [r["ns"] for r in x.rows]
            same = {}
            for r in x.rows:
                same.setdefault(decisions(r), []).append(r)
            groups = sorted(same.values(), key=len, reverse=True)
            largest = groups[0]
            inner = (f"{Cell.spread([r['ns'] for r in largest]):.3f}% ({len(largest)} runs)"
                     if len(largest) > 1 else "-")
            print(f"| {n} | {load} | {x.n} | {runs} | {Cell.spread(ns):.3f}% | {scans} "
                  f"| {Cell.spread(x.per_scan):.3f}% | {', '.join(str(len(g)) for g in groups)} "
                  f"| {inner} | {ratio} |")
    print()
    print("Same decisions: the runs that scanned and reclaimed exactly the same numbers of pages.")
    print("Wall s per measured virtual s: the guest's whole wall time (boot, warm-up, every load) over")
    print("the virtual time of its recorded runs.")


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    # place takes the page count before its CSVs
    first = 3 if mode == "place" else 2
    if mode not in ("cost", "scaling", "hooks", "place", "bed", "smp") or len(sys.argv) <= first:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    if mode in ("bed", "smp"):
        {"bed": bed, "smp": smp}[mode](sys.argv[2:])
        return
    rows = read(sys.argv[first:])
    if not rows:
        print("summarize_overhead: no runs in " + " ".join(sys.argv[first:]), file=sys.stderr)
        sys.exit(1)
    if mode == "place":
        place(int(sys.argv[2]), rows)
        return
    {"cost": cost, "scaling": scaling, "hooks": hooks}[mode](rows)


if __name__ == "__main__":
    main()
