#!/usr/bin/env python3
"""How far the probes' measured work predicts the GPU's time (issue 44): pairs of timed orders.

    scripts/planner-pairs.py --corpus DIR [--min-ms T] ORDERS.csv ...

ORDERS.csv: the per-run CSVs of scripts/bench-planner.sh (its -orders.csv files), as for
scripts/planner-judge.py (a later file's cell replaces an earlier one's).  Each timed order of each
cell is measured as `plan --order O --planner sampled --gpu` measures it (every probe, with the
GPU's op latency) on DIR/GRAPH.wmg renumbered by degree.  For each pair of orders of a cell whose
slower run took at least T ms (default 5), the one of less work is called right where it ran
faster; pairs are grouped by how far apart the probes put them.  Prints, per band of that ratio:
the pairs, the share called right, and the median time ratio of the right calls and of the wrong.
A margin is worth its band where the right calls' gain outweighs the wrong ones' loss.

Exit codes: 0 ok, 1 a plan failed, 2 usage.
"""
import argparse
import collections
import json
import math
import os
import statistics
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
judge = __import__("planner-judge")

BANDS = [(1.0, 1.1), (1.1, 1.25), (1.25, 1.5), (1.5, 2.0), (2.0, 4.0), (4.0, math.inf)]


def measured(binary, graph_file, pattern, order):
    pfile = os.path.join(judge.here, "patterns", "stmatch", pattern + ".txt")
    cmd = [binary, "plan", "--graph", graph_file, "--pattern", pfile if os.path.exists(pfile) else pattern,
           "--order", order.replace("-", ","), "--planner", "sampled", "--gpu", "--json", "--quiet"]
    return json.loads(judge.run(cmd)).get("sampled_cost", 0.0)


def main():
    ap = argparse.ArgumentParser(description="pairs of timed orders: the probes' work against the GPU's time")
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--min-ms", type=float, default=5.0)
    ap.add_argument("--binary", default=os.path.join(judge.here, "build", "warpmatch"))
    ap.add_argument("orders", nargs="+")
    a = ap.parse_args()
    cells = judge.timed_orders(a.orders)
    tmp = tempfile.TemporaryDirectory()
    bands = collections.defaultdict(lambda: ([], []))  # band -> (right gains, wrong losses)
    for (graph, pattern), times in sorted(cells.items()):
        g = judge.sorted_copy(a.binary, a.corpus, graph, tmp.name)
        work = {o: measured(a.binary, g, pattern, o) for o in times}
        orders = [o for o in times if work[o] > 0.0]
        for i, x in enumerate(orders):
            for y in orders[i + 1:]:
                if max(times[x], times[y]) < a.min_ms:
                    continue
                lo, hi = (x, y) if work[x] <= work[y] else (y, x)
                q = work[hi] / work[lo]
                band = next(b for b in BANDS if b[0] <= q < b[1])
                right, wrong = bands[band]
                r = times[hi] / times[lo]
                (right if r >= 1.0 else wrong).append(r if r >= 1.0 else 1.0 / r)
    print("%-12s %7s %8s %14s %14s" % ("work ratio", "pairs", "right", "gain if right", "loss if wrong"))
    for b in BANDS:
        right, wrong = bands[b]
        n = len(right) + len(wrong)
        if not n:
            continue
        med = lambda v: "%.2fx" % statistics.median(v) if v else "-"
        print("%-12s %7d %7.0f%% %14s %14s" % ("%.2f-%s" % (b[0], "%.2f" % b[1] if b[1] < math.inf else "inf"), n,
                                                100.0 * len(right) / n, med(right), med(wrong)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
