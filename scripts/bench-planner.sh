#!/usr/bin/env bash
# The planner judged on a corpus (issue 44): for each graph of the corpus
# (scripts/make-corpus.sh) and each pattern, the time of the plan each
# planner policy picks (`count --planner auto|model|sampled --method
# enumerate`), the time of every order the planner weighed (the model's
# shortlists, which `plan --json` lists as candidate_orders, each run with
# `count --order`), the best of them all, and each policy's regret = its
# time / the best.
#
#   scripts/bench-planner.sh --corpus DIR [options]
#   SMALL=1 scripts/bench-planner.sh --corpus /tmp/c --device cpu --patterns "p1 p5 p13 p20"
#
# Every run of a graph goes through one process of the library
# (scripts/bench-planner/bench_planner.c, built here against the build's
# libwarpmatch.so): the graph loaded once, one context (on the GPU one CUDA
# context and one upload), so a run costs its planning and matching only.
# Time: a run's planning (graph statistics and the order's choice, the
# result's plan_seconds) plus its matching (seconds: the median of --trials
# runs after a warm-up; on the GPU the count's own seconds), in ms.
# Loading and renumbering are the same for every run of a graph and left
# out.  A run over --timeout is stopped by interrupting the context and is
# "timeout" (regret infinite); a candidate order stopped by --order-limit
# is "over" (slower than that bound, so never the best).  Every run's count
# must agree: check says "agree" or DIFFER.
#
# Prints a markdown table per cell (graph, pattern, vertices, edges, each
# policy's ms, the best order and its ms, the regrets), then a summary per
# pattern over the graphs: the default's (auto's) worst and median regret,
# its cells above 1.25x, and the worst of model and sampled (with --split,
# one summary per half: the corpus's graphs alternate train, test, ... in
# corpus.tsv's order).  Writes CSV (--csv, default $WM_OUT/bench-planner.csv,
# written to a temporary name and renamed):
#   graph, split, vertices, edges, pattern, k, device, count, executor,
#   auto_ms, auto_plan_ms, auto_order, model_ms, model_plan_ms, model_order,
#   sampled_ms, sampled_plan_ms, sampled_order, orders_scored, orders_timed,
#   best_ms, best_order, best_by, regret_auto, regret_model, regret_sampled, check
# and one row per run beside it (FILE with -orders.csv for .csv): graph,
# pattern, run (auto, model, sampled or order), order, model_cost,
# sampled_cost, sampled_reads (a policy's probes: elements read), plan_ms,
# match_ms, ms, count, status: the data a planner's model is fitted to.
# With --split it also prints the unit conversion the auto planner weighs
# probes with (matcher/engine.c), fitted on the train half: the count's ns
# per unit of sampled work (runs matching 30 ms or more: below, the
# executor's fixed start-up, several ms, dominates), the probes' ns per
# element read (auto's planning beyond model's, where it read 2e6 or
# more: as auto reads, a few orders at a time; sampled, measuring every
# order at once, reads faster), medians, and their ratio.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
bin=${WM_BIN:-$here/build/warpmatch}
out=${WM_OUT:-.}
corpus=""
graphs=""
patterns=""
catalogue=0
device=cpu
trials=3
timeout_s=120
order_limit=""
top=""
split=0
csv=""

usage() {
  cat <<EOF
usage: [SMALL=1] scripts/bench-planner.sh --corpus DIR [options]
  --corpus DIR        the corpus: DIR/corpus.tsv and DIR/NAME.wmg; made there by
                      scripts/make-corpus.sh (SMALL=1: its small version) when DIR has none
  --graphs "..."      only these of the corpus's graphs (default: all, in corpus.tsv's order)
  --patterns "..."    pN (STMatch's patterns/stmatch/pN.txt), catalogue names or pattern files
                      (default: STMatch's 24)
  --catalogue         also the catalogue's connected 4- and 5-vertex patterns
  --device D          cpu or gpu (default $device)
  --trials N          timed runs of each count after a warm-up; the median counts (default $trials)
  --timeout S         seconds per count (default $timeout_s); a run over it is "timeout"
  --order-limit X     stop a candidate order's run at X times the fastest policy's whole run
                      (plus 2 s): "over" (default: --timeout only)
  --top N             time only the N cheapest candidates by the model and the N least by the
                      sampled work (default: every candidate listed, at most 19)
  --split             tag the graphs train and test alternately; a summary for each half
  --csv FILE          where the CSV goes (default \$WM_OUT/bench-planner.csv)
EOF
}

while [ $# -gt 0 ]; do
  case $1 in
  --corpus) corpus=${2-}; shift 2 ;;
  --graphs) graphs=${2-}; shift 2 ;;
  --patterns) patterns=${2-}; shift 2 ;;
  --catalogue) catalogue=1; shift ;;
  --device) device=${2-}; shift 2 ;;
  --trials) trials=${2-}; shift 2 ;;
  --timeout) timeout_s=${2-}; shift 2 ;;
  --order-limit) order_limit=${2-}; shift 2 ;;
  --top) top=${2-}; shift 2 ;;
  --split) split=1; shift ;;
  --csv) csv=${2-}; shift 2 ;;
  -h | --help) usage; exit 0 ;;
  *) echo "bench-planner: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac || { echo "bench-planner: $1 needs a value" >&2; exit 2; }
done

bad() { echo "bench-planner: $*" >&2; exit 2; }
[ -n "$corpus" ] || { usage >&2; exit 2; }
[ -x "$bin" ] || bad "no program at $bin (build first, or set WM_BIN)"
case $device in cpu | gpu) ;; *) bad "--device $device: expected cpu or gpu" ;; esac
[[ $trials =~ ^[0-9]+$ ]] && [ "$trials" -ge 1 ] && [ "$trials" -le 1000 ] || bad "--trials $trials: expected 1-1000"
[[ $timeout_s =~ ^[0-9]+$ ]] && [ "$timeout_s" -ge 1 ] || bad "--timeout $timeout_s: expected whole seconds >= 1"
[ -z "$top" ] || [[ $top =~ ^[1-9][0-9]*$ ]] || bad "--top $top: expected a count >= 1"
[ -z "$order_limit" ] || [[ $order_limit =~ ^[0-9]+([.][0-9]+)?$ ]] || bad "--order-limit $order_limit: expected a number"
if [ ! -s "$corpus/corpus.tsv" ]; then
  echo "bench-planner: no corpus in $corpus: making one (SMALL=${SMALL:-0})" >&2
  WM_BIN=$bin "$here/scripts/make-corpus.sh" "$corpus" >&2 || { echo "bench-planner: make-corpus.sh failed" >&2; exit 1; }
fi
[ -n "$patterns" ] || patterns=$(seq -f 'p%g' -s ' ' 1 24)
if [ "$catalogue" = 1 ]; then
  patterns+=" $("$bin" patterns --json | python3 -c '
import json, sys
print(" ".join(p["name"] for p in json.load(sys.stdin)["patterns"] if p["vertices"] in (4, 5)))')" ||
    { echo "bench-planner: warpmatch patterns failed" >&2; exit 1; }
fi
[ -n "$csv" ] || csv=$out/bench-planner.csv
mkdir -p "$(dirname "$csv")"

# The driver that runs every count of a graph in one process.
build=$(dirname "$bin")
[ -e "$build/libwarpmatch.so" ] || bad "no library at $build/libwarpmatch.so (the driver links to it)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -std=c11 -I"$here/api" -I"$build/include" "$here/scripts/bench-planner/bench_planner.c" \
  -o "$work/bench_planner" -L"$build" -lwarpmatch -Wl,-rpath,"$build" -pthread ||
  { echo "bench-planner: the driver did not build" >&2; exit 1; }

python3 - "$bin" "$work/bench_planner" "$here/scripts/bench-planner/driver.py" "$corpus" "$graphs" "$patterns" "$here/patterns/stmatch" "$device" "$trials" "$timeout_s" \
  "$order_limit" "$top" "$split" "$csv" <<'EOF'
import csv, json, math, os, statistics, subprocess, sys, time

(bin_, driver_bin, driver_py, corpus, only_graphs, pattern_args, stmatch_dir, device, trials, timeout_s, order_limit,
 top, split, csv_path) = sys.argv[1:]
trials, timeout_s, split = int(trials), int(timeout_s), split == "1"
order_limit = float(order_limit) if order_limit else None
top = int(top) if top else None
sys.path.insert(0, os.path.dirname(driver_py))
from driver import Driver
POLICIES = ("auto", "model", "sampled")
errors = []  # the runs that failed


def fail(msg, code=1):
    print("bench-planner: " + msg, file=sys.stderr)
    sys.exit(code)


def corpus_graphs():
    with open(os.path.join(corpus, "corpus.tsv")) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    order = [r["name"] for r in rows]
    if only_graphs.split():
        names = {r["name"] for r in rows}
        for n in only_graphs.split():
            if n not in names:
                fail("--graphs: %s is not in %s/corpus.tsv" % (n, corpus))
        rows = [r for r in rows if r["name"] in only_graphs.split()]
    # the split is by the corpus's order, not the selection's, so that a
    # graph keeps its half whichever graphs are run
    for r in rows:
        r["split"] = ("train" if order.index(r["name"]) % 2 == 0 else "test") if split else ""
        r["path"] = os.path.join(corpus, r["name"] + ".wmg")
        if not os.path.isfile(r["path"]):
            fail("no graph file %s" % r["path"])
    return rows


def pattern_path(p):
    if p[0] == "p" and p[1:].isdigit():
        f = os.path.join(stmatch_dir, p + ".txt")
        if not os.path.isfile(f):
            fail("no STMatch pattern %s" % f)
        return f
    r = subprocess.run([bin_, "plan", "--pattern", p, "--json"], capture_output=True, text=True)  # checks it
    if r.returncode != 0:
        fail("--patterns: %s" % r.stderr.strip(), 2)
    return p  # a catalogue name or a pattern file


def plan(drv, pattern, policy):
    """The plan JSON a policy makes (its order and candidate_orders), or {}."""
    r = drv.ask("plan %s %s" % (pattern, policy), timeout_s + 60)
    if r is None or r.get("status") == "error":
        print("bench-planner: plan %s %s on %s: %s" % (pattern, policy, drv.graph, r and r["message"]),
              file=sys.stderr)
        errors.append((drv.graph, pattern, policy))
        return {}
    return r


def count(drv, pattern, policy, order, limit):
    """One count: its JSON, or the status 'timeout' / 'over' / 'error', and the run's wall."""
    t0 = time.monotonic()
    # the context is interrupted at the limit; the driver is killed where it does not stop
    r = drv.ask("count %s %s %s %.3f" % (pattern, policy, ",".join(map(str, order)) if order else "-", limit),
                limit + 60)
    wall = time.monotonic() - t0
    if r is None or r["status"] == "timeout":
        return ("timeout" if limit >= timeout_s else "over"), wall
    if r["status"] != "ok":
        print("bench-planner: count %s %s on %s: %s" % (pattern, policy, drv.graph, r["message"]), file=sys.stderr)
        errors.append((drv.graph, pattern, policy))
        return "error", wall
    r["count"] = int(r["count"])
    return r, wall


def ms(run):
    return (run["plan_seconds"] + run["seconds"]) * 1e3


def order_str(order):
    return "-".join(map(str, order)) if order else ""


def fmt(x):
    if isinstance(x, str):
        return x
    return "%.3f" % x if x < 100 else "%.1f" % x


def fmt_regret(x):
    return "inf" if x == math.inf else "%.2f" % x


def cell(g, drv, pname, out_rows, order_rows):
    pattern = paths[pname]
    runs, walls, plans = {}, {}, {}
    for policy in POLICIES:
        plans[policy] = plan(drv, pattern, policy)
        runs[policy], walls[policy] = count(drv, pattern, policy, None, timeout_s)
        if not isinstance(runs[policy], str):
            runs[policy]["plan"] = dict(plans[policy])
            if runs[policy]["ran_order"]:  # auto's slices picked another order than its plan's
                runs[policy]["plan"]["order"] = runs[policy]["ran_order"]
    listed = next((plans[p] for p in ("sampled", "model", "auto") if plans[p]), {})
    cands = listed.get("candidate_orders", [])
    chosen = cands
    if top:
        by_model = cands[:top]
        by_sampled = sorted((c for c in cands if c.get("sampled_cost") is not None), key=lambda c: c["sampled_cost"])
        chosen = [c for c in cands if c in by_model or c in by_sampled[:top]]
    done = [walls[p] for p in POLICIES if not isinstance(runs[p], str)]
    limit = timeout_s
    if order_limit and done:
        limit = min(timeout_s, order_limit * min(done) + 2)
    timed = []
    for c in chosen:
        r, _ = count(drv, pattern, "model", c["order"], limit)
        timed.append((c, r))
    good = [r for r in list(runs.values()) + [r for _, r in timed] if not isinstance(r, str)]
    counts = {r["count"] for r in good}
    best_ms, best_order, best_by = math.inf, None, ""
    for p in POLICIES:
        if not isinstance(runs[p], str) and ms(runs[p]) < best_ms:
            best_ms, best_order, best_by = ms(runs[p]), runs[p]["plan"]["order"], p
    for c, r in timed:
        if not isinstance(r, str) and ms(r) < best_ms:
            best_ms, best_order, best_by = ms(r), c["order"], "order"
    regret = {p: (ms(runs[p]) / best_ms if not isinstance(runs[p], str) and best_ms > 0 else
                  (1.0 if not isinstance(runs[p], str) else math.inf)) for p in POLICIES}
    first = good[0] if good else {}
    row = {"graph": g["name"], "split": g["split"], "vertices": g["vertices"], "edges": g["edges"],
           "pattern": pname, "k": first.get("k", ""), "device": device,
           "count": first.get("count", ""), "executor": first.get("executor", ""),
           "orders_scored": listed.get("orders_scored", ""), "orders_timed": len(timed),
           "best_ms": fmt(best_ms) if best_ms < math.inf else "", "best_order": order_str(best_order),
           "best_by": best_by,
           "check": "agree" if len(counts) == 1 else ("DIFFER" if counts else "")}
    for p in POLICIES:
        r = runs[p]
        row[p + "_ms"] = r if isinstance(r, str) else fmt(ms(r))
        row[p + "_plan_ms"] = "" if isinstance(r, str) else fmt(r["plan_seconds"] * 1e3)
        row[p + "_order"] = "" if isinstance(r, str) else order_str(r["plan"]["order"])
        row["regret_" + p] = fmt_regret(regret[p])
    out_rows.append((row, regret, runs))
    listed_by_order = {order_str(c["order"]): c for c in cands}
    every = [(p, order_str(r["plan"]["order"]) if not isinstance(r, str) else "", r) for p, r in runs.items()]
    every += [("order", order_str(c["order"]), r) for c, r in timed]
    for name, o, r in every:
        c, ok = listed_by_order.get(o, {}), not isinstance(r, str)
        order_rows.append({"graph": g["name"], "pattern": pname, "run": name, "order": o,
                           "model_cost": c.get("model_cost", ""),
                           "sampled_cost": "" if c.get("sampled_cost") is None else c["sampled_cost"],
                           "sampled_reads": r["plan"].get("sampled_reads", "") if ok and name != "order" else "",
                           "plan_ms": fmt(r["plan_seconds"] * 1e3) if ok else "",
                           "match_ms": fmt(r["seconds"] * 1e3) if ok else "", "ms": fmt(ms(r)) if ok else "",
                           "count": r["count"] if ok else "", "status": "ok" if ok else r})
    return row


def summary(title, rows):
    print("\n%s\n" % title)
    print("| pattern | cells | auto worst | auto median | auto > 1.25x | model worst | sampled worst |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    by = {}
    for row, regret, _ in rows:
        by.setdefault(row["pattern"], []).append(regret)
    every = []
    for p, regrets in list(by.items()) + [("all", None)]:
        rs = regrets if regrets is not None else every
        if regrets is not None:
            every.extend(regrets)
        if not rs:
            continue
        auto = [r["auto"] for r in rs]
        print("| %s | %d | %s | %s | %d | %s | %s |" % (
            p, len(rs), fmt_regret(max(auto)), fmt_regret(statistics.median(auto)),
            sum(a > 1.25 for a in auto), fmt_regret(max(r["model"] for r in rs)),
            fmt_regret(max(r["sampled"] for r in rs))))


fields = ["graph", "split", "vertices", "edges", "pattern", "k", "device", "count", "executor",
          "auto_ms", "auto_plan_ms", "auto_order", "model_ms", "model_plan_ms", "model_order",
          "sampled_ms", "sampled_plan_ms", "sampled_order", "orders_scored", "orders_timed",
          "best_ms", "best_order", "best_by", "regret_auto", "regret_model", "regret_sampled", "check"]
order_fields = ["graph", "pattern", "run", "order", "model_cost", "sampled_cost", "sampled_reads", "plan_ms",
                "match_ms", "ms", "count", "status"]
orders_path = csv_path[:-4] + "-orders.csv" if csv_path.endswith(".csv") else csv_path + "-orders.csv"


def write_csvs():
    """Both CSVs as they stand (after every cell: a run cut short keeps its cells)."""
    for path, fs, data in ((csv_path, fields, [r for r, _, _ in rows]), (orders_path, order_fields, order_rows)):
        tmp = "%s.tmp.%d" % (path, os.getpid())
        with open(tmp, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fs)
            w.writeheader()
            w.writerows(data)
        os.replace(tmp, path)


graphs = corpus_graphs()
patterns = pattern_args.split()
paths = {p: pattern_path(p) for p in patterns}  # each checked before any run
rows, order_rows = [], []
print("| graph |%s pattern | vertices | edges | auto ms | model ms | sampled ms | best order | best ms | by "
      "| regret auto | model | sampled | orders | check |" % (" split |" if split else ""))
print("|---|%s---|--:|--:|--:|--:|--:|---|--:|---|--:|--:|--:|--:|---|" % ("---|" if split else ""))
for g in graphs:
    drv = Driver(driver_bin, g["path"], device, trials)
    for p in patterns:
        r = cell(g, drv, p, rows, order_rows)
        print("| %s |%s %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s/%s | %s |" % (
            r["graph"], " %s |" % r["split"] if split else "", r["pattern"], r["vertices"], r["edges"],
            r["auto_ms"], r["model_ms"], r["sampled_ms"], r["best_order"] or "-", r["best_ms"] or "-",
            r["best_by"] or "-", r["regret_auto"], r["regret_model"], r["regret_sampled"], r["orders_timed"],
            r["orders_scored"], r["check"] or "-"), flush=True)
        write_csvs()
    drv.close()


def calibration(cells):
    """The count's ns per sampled work unit and the probes' ns per read, medians over the cells' runs."""
    per_unit, per_read = [], []
    for row, _, runs in cells:
        mine = [o for o in order_rows if o["graph"] == row["graph"] and o["pattern"] == row["pattern"]]
        for o in mine:
            if o["status"] == "ok" and o["sampled_cost"] and float(o["match_ms"]) >= 30:
                per_unit.append(float(o["match_ms"]) * 1e6 / float(o["sampled_cost"]))
        a, m = runs["auto"], runs["model"]
        if not isinstance(a, str) and not isinstance(m, str) and a["plan"].get("sampled_reads", 0) >= 2e6:
            per_read.append((a["plan_seconds"] - m["plan_seconds"]) * 1e9 / a["plan"]["sampled_reads"])
    if per_unit and per_read:
        u, r = statistics.median(per_unit), statistics.median(per_read)
        print("\ncalibration (train half): the count %.3g ns per work unit (%d runs), the probes %.3g ns per "
              "read (%d runs): read cost %.3g work units" % (u, len(per_unit), r, len(per_read), r / u))


if split:
    calibration([r for r in rows if r[0]["split"] == "train"])
    summary("train half (regret = the policy's ms / the best ms)", [r for r in rows if r[0]["split"] == "train"])
    summary("test half", [r for r in rows if r[0]["split"] == "test"])
else:
    summary("summary (regret = the policy's ms / the best ms)", rows)
print("\nCSV: %s; every run: %s" % (csv_path, orders_path), file=sys.stderr)
# counts that differ between orders, or a run that failed, fail the benchmark
sys.exit(1 if errors or any(r[0]["check"] == "DIFFER" for r in rows) else 0)
EOF
