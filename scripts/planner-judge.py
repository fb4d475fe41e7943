#!/usr/bin/env python3
"""The planner judged on orders already timed (issue 44): the order it takes now, offline or online.

    scripts/planner-judge.py --corpus DIR [--gpu] [--planner P] [--list] ORDERS.csv ...
    scripts/planner-judge.py --corpus DIR --count cpu|gpu [--planner P] [--list] ORDERS.csv ...

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
order was never timed counts as unknown.  Patterns pN are patterns/stmatch/pN.txt; others are
passed as they are.

--count DEVICE judges the planner online instead, on the machine that runs it: each cell is
counted twice with the planner through scripts/bench-planner/bench_planner.c (built here against
the build's libwarpmatch.so; one process a graph: one load, one context, as bench-planner.sh
runs it), and the second, warm count is judged: the order it ran (where auto timed slices, their
winner), the planning time (plan_seconds: statistics, model, probes, slices) against the count's
matching time (the issue's budget: max(10 ms, 5%)), and its count against the timings' (a count
that differs fails).  A count past --timeout seconds is stopped and judged unknown.

Prints one summary line (cells, orders within 1.25x of the best, unknown, the worst regret, the
reads in all; online the planning within budget and the counts), with --split one line per half of
the corpus (the halves bench-planner.sh --split makes: fit on one, judge on the other), one line per pattern (cells,
worst and median regret, cells above 1.25x; online the planning within budget); --list also
prints each cell (online also the slices auto timed: each order's time on them).  Exit codes: 0
ok, 1 a plan or count failed or a count differs, 2 usage.
"""
import argparse
import collections
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(here, "scripts", "bench-planner"))
from driver import Driver  # noqa: E402 (the path above)


def timed_orders(paths):
    """{cell: {order: least match_ms}} and {cell: the counts its runs gave}."""
    cells, counts, source = collections.defaultdict(dict), collections.defaultdict(set), {}
    for i, path in enumerate(paths):
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if r["status"] != "ok":
                    continue
                cell = (r["graph"], r["pattern"])
                if r.get("count"):
                    counts[cell].add(int(r["count"]))
                if r["run"] == "order":
                    if source.setdefault(cell, i) != i:  # timed again by a later file: its times alone
                        cells[cell], source[cell] = {}, i
                    times = cells[cell]
                    times[r["order"]] = min(times.get(r["order"], float("inf")), float(r["match_ms"]))
    return cells, counts


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
    cmd = [binary, "plan", "--graph", graph_file, "--pattern", pattern_file(pattern), "--json", "--quiet",
           "--planner", planner] + (["--gpu"] if gpu else [])
    j = json.loads(run(cmd))
    return "-".join(map(str, j["order"])), j.get("sampled_reads", 0.0) or 0.0


def halves(corpus):
    """{graph: "train" or "test"}: corpus.tsv's 1st, 3rd, ... graphs train, as bench-planner.sh --split tags them."""
    path = os.path.join(corpus, "corpus.tsv")
    if not os.path.exists(path):
        sys.exit("planner-judge: --split: no %s" % path)
    with open(path) as f:
        names = [r["name"] for r in csv.DictReader(f, delimiter="\t")]
    return {n: "train" if i % 2 == 0 else "test" for i, n in enumerate(names)}


def pattern_file(pattern):
    pfile = os.path.join(here, "patterns", "stmatch", pattern + ".txt")
    return pfile if os.path.exists(pfile) else pattern


def build_driver(binary, tmp):
    """scripts/bench-planner/bench_planner.c against the build's library, as bench-planner.sh builds it."""
    build = os.path.dirname(os.path.abspath(binary))
    if not os.path.exists(os.path.join(build, "libwarpmatch.so")):
        sys.exit("planner-judge: no library at %s/libwarpmatch.so (the driver links to it)" % build)
    out = os.path.join(tmp, "bench_planner")
    run(["cc", "-O2", "-std=c11", "-I" + os.path.join(here, "api"), "-I" + os.path.join(build, "include"),
         os.path.join(here, "scripts", "bench-planner", "bench_planner.c"), "-o", out, "-L" + build, "-lwarpmatch",
         "-Wl,-rpath," + build, "-pthread"])
    return out


def counted(drv, pattern, planner, timeout):
    """The cell counted twice with the planner, the second judged: (order, plan_ms, match_ms, count, the
    timed slices as text), or None where a count was stopped at the timeout."""
    pfile = pattern_file(pattern)
    plan = drv.ask("plan %s %s" % (pfile, planner), timeout + 60)
    if not plan or plan.get("status") == "error":
        sys.exit("planner-judge: plan %s on %s: %s" % (pattern, drv.graph, plan and plan.get("message")))
    r = None
    for _ in range(2):
        r = drv.ask("count %s %s - %g" % (pfile, planner, timeout), timeout + 60)
        if r is None or r.get("status") == "timeout":
            return None
        if r.get("status") != "ok":
            sys.exit("planner-judge: count %s on %s: %s" % (pattern, drv.graph, r.get("message")))
    ran = r.get("ran_order") or plan["order"]
    stripes = ""
    if r.get("slice_orders"):
        stripes = "  slices of 1/%d: %s" % (r["slice_every"], ", ".join(
            "%s %.3f ms" % ("-".join(map(str, o)), ms) for o, ms in zip(r.get("slice_order", []), r["slice_ms"])))
    return "-".join(map(str, ran)), r["plan_seconds"] * 1e3, r["seconds"] * 1e3, int(r["count"]), stripes


def main():
    ap = argparse.ArgumentParser(description="the planner's orders judged on orders already timed")
    ap.add_argument("--corpus", required=True, help="the corpus the times were taken on (DIR/NAME.wmg)")
    ap.add_argument("--gpu", action="store_true", help="the GPU's plan (plan --gpu)")
    ap.add_argument("--planner", default="auto", help="the planner judged (plan --planner; default auto)")
    ap.add_argument("--count", choices=["cpu", "gpu"], help="judge online: count each cell on this device")
    ap.add_argument("--timeout", type=float, default=60.0, help="--count: seconds a count may take (default 60)")
    ap.add_argument("--split", action="store_true",
                    help="also a line per half of the corpus: DIR/corpus.tsv's 1st, 3rd, ... graphs train, the others test")
    ap.add_argument("--list", action="store_true", help="print every cell")
    ap.add_argument("csv", nargs="+", help="bench-planner.sh's -orders.csv files")
    a = ap.parse_args()
    if a.count and a.gpu and a.count != "gpu":
        ap.error("--gpu judges the GPU's plan: --count gpu")
    binary = os.environ.get("WM_BIN", os.path.join(here, "build", "warpmatch"))
    cells, counts = timed_orders(a.csv)
    within = unknown = in_budget = differ = 0
    worst, reads = 1.0, 0.0
    per = collections.defaultdict(list)  # pattern: (regret, graph, planning within budget)
    tmp = tempfile.TemporaryDirectory(prefix="planner-judge-")
    driver = build_driver(binary, tmp.name) if a.count else None
    drv, drv_graph = None, None  # the current graph's process (cells come graph by graph)
    for (graph, pattern), times in sorted(cells.items()):
        extra = ""
        if a.count:
            if drv_graph != graph:
                if drv:
                    drv.close()
                drv, drv_graph = Driver(driver, os.path.join(a.corpus, graph + ".wmg"), a.count), graph
            got = counted(drv, pattern, a.planner, a.timeout)
            if got is None:
                order, ok = "timeout", None
                extra = "  stopped at %g s" % a.timeout
            else:
                order, plan_ms, match_ms, count, stripes = got
                ok = plan_ms <= max(10.0, 0.05 * match_ms)
                in_budget += ok
                agree = not counts[(graph, pattern)] or count in counts[(graph, pattern)]
                differ += not agree
                extra = "  planning %.2f ms of %.2f (%s)  count %d %s%s" % (
                    plan_ms, match_ms, "within" if ok else "over", count,
                    "" if agree else "DIFFERS from the timings'", stripes)
        else:
            order, r = planned(binary, sorted_copy(binary, a.corpus, graph, tmp.name), pattern, a.gpu, a.planner)
            reads += r
            ok = None
            extra = " %12.0f reads" % r
        t = times.get(order)
        regret = t / min(times.values()) if t is not None else None
        if regret is None:
            unknown += 1
        else:
            within += regret <= 1.25
            worst = max(worst, regret)
            per[pattern].append((regret, graph, ok))
        if a.list:
            print("%-16s %-8s %-16s %8s%s" % (graph, pattern, order, "?" if regret is None else "%.2f" % regret, extra))
    if drv:
        drv.close()
    summary = "cells %d: within 1.25x of the best %d, unknown %d, worst %.2fx" % (len(cells), within, unknown, worst)
    if a.count:
        summary += ", planning within max(10 ms, 5%%) %d, counts differing %d" % (in_budget, differ)
    else:
        summary += ", probes' reads %.3g" % reads
    print(summary)
    if a.split:
        half = halves(a.corpus)
        for h in ("train", "test"):
            v = [x for p in per.values() for x in p if half.get(x[1]) == h]
            top = max(v) if v else (1.0, "-")
            print("%-8s cells %3d: within 1.25x of the best %d, worst %.2fx (%s)" % (
                h, len(v), sum(x[0] <= 1.25 for x in v), top[0], top[1]))
    for pattern in sorted(per, key=lambda p: (len(p), p)):
        v = per[pattern]
        top = max(v)
        line = "%-8s cells %3d: worst %.2fx (%s), median %.2fx, above 1.25x %d" % (
            pattern, len(v), top[0], top[1], statistics.median(x[0] for x in v), sum(x[0] > 1.25 for x in v))
        if a.count:
            line += ", planning within budget %d" % sum(1 for x in v if x[2])
        print(line)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
