#!/usr/bin/env bash
# Per-call cost of small calls from Python: N `g.bfs(0)` and N
# `g.count("triangle", device="cpu")` on small graphs (G(500, 2000) from a
# fixed seed, and facebook), for each thread setting of --threads (default
# "default 1": the library's own count and set_threads(1)), timed one call
# at a time on the host's wall clock after 5 warm-up calls.  Each package
# under test is a pair NAME=PYTHONPATH:LIBRARY (its python/ folder and its libwarpmatch.so), so
# that an older build can stand beside today's in the same run.  Prints a
# table (package, graph, call, threads, median us, total ms for N calls) and
# writes CSV to $WM_OUT/bench-calls.csv (through a temporary name).
#
#   scripts/bench-calls.sh [--calls N] [--threads LIST] [--package NAME=PYPATH:LIB]...
# Default package: today=python:build/libwarpmatch.so.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
graph=${WM_TEST_GRAPHS:-$here/datasets/real}/facebook_combined.txt
out=${WM_OUT:-.}
calls=200
threads="default 1"
packages=()

usage() {
  echo "usage: scripts/bench-calls.sh [--calls N] [--threads LIST] [--graph FILE] [--package NAME=PYTHONPATH:LIBRARY]..." >&2
}
while [ $# -gt 0 ]; do
  case $1 in
  --calls) calls=$2; shift 2 ;;
  --threads) threads=$2; shift 2 ;;
  --graph) graph=$2; shift 2 ;;
  --package) packages+=("$2"); shift 2 ;;
  -h | --help) usage; exit 0 ;;
  *) echo "bench-calls: unknown option $1" >&2; usage; exit 2 ;;
  esac
done
[ ${#packages[@]} -gt 0 ] || packages=("today=$here/python:${WM_BUILD_DIR:-$here/build}/libwarpmatch.so")
[ -f "$graph" ] || { echo "bench-calls: no graph at $graph" >&2; exit 2; }

rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
for p in "${packages[@]}"; do
  name=${p%%=*} rest=${p#*=}
  pypath=${rest%%:*} lib=${rest#*:}
  [ -e "$lib" ] || { echo "bench-calls: $name: no library at $lib" >&2; exit 2; }
  WARPMATCH_LIBRARY=$lib PYTHONPATH=$pypath "$python" - "$name" "$calls" "$graph" "$threads" >> "$rows" <<'EOF'
import inspect, statistics, sys, time
import numpy as np
import warpmatch as wm

name, calls, fb, settings = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4].split()
rng = np.random.default_rng(1)
pairs = set()
while len(pairs) < 2000:
    u, v = (int(x) for x in rng.integers(0, 500, 2))
    if u != v:
        pairs.add((min(u, v), max(u, v)))
graphs = {"gnm-500-2000": wm.Graph.from_edges(np.array(sorted(pairs), dtype=np.int64), n=500),
          "facebook": wm.load(fb, cache=False)}
quiet = {"progress": False} if "progress" in inspect.signature(wm.Graph.count).parameters else {}
for gname, g in graphs.items():
    tri = g.count("triangle", device="cpu", **quiet)
    for threads in settings:
        g.set_threads(0 if threads == "default" else int(threads))
        for call, fn in (("bfs", lambda: g.bfs(0, device="cpu")),
                         ("count", lambda: g.count("triangle", device="cpu", **quiet))):
            for _ in range(5):
                fn()
            took = []
            for _ in range(calls):
                t0 = time.perf_counter()
                r = fn()
                took.append(time.perf_counter() - t0)
            if call == "count":
                assert r == tri, (r, tri)
            print(f"{name},{gname},{call},{threads},{statistics.median(took) * 1e6:.1f},{sum(took) * 1e3:.2f}")
EOF
done
csv=$out/bench-calls.csv
{ echo "package,graph,call,threads,median_us,total_ms"; cat "$rows"; } > "$csv.tmp" && mv "$csv.tmp" "$csv"
echo "$calls calls each, one at a time (wall clock, after 5 warm-up calls), on $(nproc) cores:"
printf '%-10s %-14s %-6s %-8s %12s %14s\n' package graph call threads "median us" "total ms"
while IFS=, read -r a b c d e f; do printf '%-10s %-14s %-6s %-8s %12s %14s\n' "$a" "$b" "$c" "$d" "$e" "$f"; done < "$rows"
