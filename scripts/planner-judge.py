#!/usr/bin/env python3
"""The planner judged offline (issue 44): the order `plan` takes now, against orders already timed.

    scripts/planner-judge.py --corpus DIR [--gpu] [--planner P] [--list] ORDERS.csv ...

ORDERS.csv: the per-run CSVs of scripts/bench-planner.sh (its -orders.csv files), best from a run
without --top, where every candidate order of each cell was timed.  For each cell (graph, pattern)
the program's `plan --graph GRAPH --pattern ... --json` (--gpu: the GPU's plan) is run with the
default planner (or --planner's) on DIR/GRAPH.wmg renumbered by degree as `count` numbers it (`convert
--relabel-degree` into a temporary directory: the probes' random roots, and so the choice, depend
on the numbering; plan renumbers so itself since 2026-11-30, builds before did not), and the order
it takes is looked up among the cell's timed orders
(`count --order` runs, the least matching time of each within a CSV; a cell that a later CSV
times again takes that CSV's times alone, so that a re-run of some cells after a change to the
executor replaces theirs).  The plan is
deterministic (the probes' reads, not a clock, bound them), so a change to the planner is judged
on the timings without the device they were taken on: the order's regret = its matching time /
the least of the cell's timed orders, and the probes' reads (plan's sampled_reads).  A cell whose
order was never timed counts as unknown.  Only the order is judged: the planning time on the
machine that runs the count is not (multiply the reads by the read time bench-planner.sh --split
printed there).  Patterns pN are patterns/stmatch/pN.txt; others are passed as they are.

Prints one summary line (cells, orders within 1.25x of the best, unknown, the worst regret, the
reads in all); --list also prints each cell.  Exit codes: 0 ok, 1 a plan failed, 2 usage.
"""
import argparse
import collections
import csv
import json
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed_orders(paths):
    cells, source = collections.defaultdict(dict), {}
    for i, path in enumerate(paths):
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if r["run"] == "order" and r["status"] == "ok":
                    cell = (r["graph"], r["pattern"])
                    if source.setdefault(cell, i) != i:  # timed again by a later file: its times alone
                        cells[cell], source[cell] = {}, i
                    times = cells[cell]
                    times[r["order"]] = min(times.get(r["order"], float("inf")), float(r["match_ms"]))
    return cells


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit("planner-judge: %s: %s" % (" ".join(cmd), r.stderr.strip()))
    return r.stdout


def sorted_copy(binary, corpus, graph, tmp):
    """DIR/GRAPH.wmg renumbered by degree in tmp (once)."""
    out = os.path.join(tmp, graph + ".wmg")
    if not os.path.exists(out):
        run([binary, "convert", os.path.join(corpus, graph + ".wmg"), out, "--relabel-degree", "--quiet"])
    return out


def planned(binary, graph_file, pattern, gpu, planner):
    pfile = os.path.join(here, "patterns", "stmatch", pattern + ".txt")
    cmd = [binary, "plan", "--graph", graph_file, "--pattern",
           pfile if os.path.exists(pfile) else pattern, "--json", "--quiet", "--planner", planner] + (["--gpu"] if gpu else [])
    j = json.loads(run(cmd))
    return "-".join(map(str, j["order"])), j.get("sampled_reads", 0.0) or 0.0


def main():
    ap = argparse.ArgumentParser(description="the planner's orders judged on orders already timed")
    ap.add_argument("--corpus", required=True, help="the corpus the times were taken on (DIR/NAME.wmg)")
    ap.add_argument("--gpu", action="store_true", help="the GPU's plan (plan --gpu)")
    ap.add_argument("--planner", default="auto", help="the planner judged (plan --planner; default auto)")
    ap.add_argument("--list", action="store_true", help="print every cell")
    ap.add_argument("csv", nargs="+", help="bench-planner.sh's -orders.csv files")
    a = ap.parse_args()
    binary = os.environ.get("WM_BIN", os.path.join(here, "build", "warpmatch"))
    cells = timed_orders(a.csv)
    within = unknown = 0
    worst, reads = 1.0, 0.0
    tmp = tempfile.TemporaryDirectory(prefix="planner-judge-")
    for (graph, pattern), times in sorted(cells.items()):
        order, r = planned(binary, sorted_copy(binary, a.corpus, graph, tmp.name), pattern, a.gpu, a.planner)
        reads += r
        t = times.get(order)
        regret = t / min(times.values()) if t is not None else None
        if regret is None:
            unknown += 1
        else:
            within += regret <= 1.25
            worst = max(worst, regret)
        if a.list:
            print("%-16s %-8s %-16s %8s %12.0f reads" % (graph, pattern, order,
                                                        "?" if regret is None else "%.2f" % regret, r))
    print("cells %d: within 1.25x of the best %d, unknown %d, worst %.2fx, probes' reads %.3g" %
          (len(cells), within, unknown, worst, reads))


if __name__ == "__main__":
    main()
