#!/usr/bin/env bash
# Per-query overhead of the library against the command line: N queries of
# each kind (count triangle, count 4-cycle, motifs of size 4) on one graph,
# through libwarpmatch with the graph loaded once (scripts/bench-api/
# bench_api.c, linked to the build's libwarpmatch.so), and as N runs of the
# program, each loading the graph's .wmg again.  Both are timed on the host's
# wall clock per query (the library: around the call; the program: around
# the process).  Prints a table and writes CSV ($WM_OUT/bench-api.csv,
# through a temporary name):
#   kind, queries, device, library_ms, cli_ms, overhead_ms, library_load_ms, result
# library_ms / cli_ms are medians; overhead_ms = cli_ms - library_ms.
#
#   scripts/bench-api.sh [--graph FILE] [--queries N] [--cli-runs N] [--device auto|cpu|gpu]
# --cli-runs (default: the queries) bounds the program's runs, whose median
# settles long before N where each run pays seconds of device start-up.
# Environment: WM_BUILD_DIR (default build), WM_OUT (default .).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${WM_BUILD_DIR:-$repo/build}
out=${WM_OUT:-.}
graph=${WM_TEST_GRAPHS:-$repo/datasets/real}/facebook_combined.txt
queries=100
cli_runs=""
device=auto
while [ $# -gt 0 ]; do
  case $1 in
  --graph) graph=$2; shift 2 ;;
  --queries) queries=$2; shift 2 ;;
  --cli-runs) cli_runs=$2; shift 2 ;;
  --device) device=$2; shift 2 ;;
  *) echo "usage: scripts/bench-api.sh [--graph FILE] [--queries N] [--cli-runs N] [--device auto|cpu|gpu]" >&2; exit 2 ;;
  esac
done
bin=$build/warpmatch
lib=$build/libwarpmatch.so
[ -x "$bin" ] && [ -e "$lib" ] || { echo "bench-api: build first ($bin, $lib)" >&2; exit 2; }
[ -f "$graph" ] || { echo "bench-api: no graph $graph" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Both sides read the same binary graph.
"$bin" convert "$graph" "$work/g.wmg" >/dev/null
cc -O2 -std=c11 -I"$repo/api" -I"$build/include" "$repo/scripts/bench-api/bench_api.c" -o "$work/bench_api" \
  -L"$build" -lwarpmatch -Wl,-rpath,"$build"
"$work/bench_api" "$work/g.wmg" "$queries" "$device" >"$work/lib.csv"

# Median wall ms of N runs of the program.
cli_median() {
  local i t0 t1
  for ((i = 0; i < ${cli_runs:-$queries}; i++)); do
    t0=$(date +%s%N)
    "$bin" "$@" --device "$device" --json --quiet >/dev/null
    t1=$(date +%s%N)
    echo "$(((t1 - t0) / 1000))"
  done | sort -n | awk '{a[NR] = $1} END {printf "%.3f", a[int(NR / 2) + 1] / 1000}'
}

csv="$out/bench-api.csv"
tmp="$csv.tmp.$$"
echo "kind,queries,device,library_ms,cli_ms,overhead_ms,library_load_ms,result" >"$tmp"
printf '| query | library ms | command line ms | overhead ms |\n|---|---:|---:|---:|\n'
while IFS=, read -r kind n load med mean min result; do
  case $kind in
  motifs-4) cli=$(cli_median motifs "$work/g.wmg" --size 4) ;;
  *) cli=$(cli_median count "$work/g.wmg" --pattern "$kind") ;;
  esac
  over=$(awk -v c="$cli" -v l="$med" 'BEGIN {printf "%.3f", c - l}')
  echo "$kind,$n,$device,$med,$cli,$over,$load,$result" >>"$tmp"
  printf '| %s | %s | %s | %s |\n' "$kind" "$med" "$cli" "$over"
done <"$work/lib.csv"
mv "$tmp" "$csv"
echo "($queries library queries and ${cli_runs:-$queries} program runs each, device $device, graph $(basename "$graph"); CSV: $csv)"
