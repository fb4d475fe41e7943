#!/usr/bin/env bash
# Per-vertex orbit counts (warpmatch orbits) against ORCA: for each graph,
# size and device, one run of `warpmatch orbits --format orca`, its counting
# seconds (--json's `seconds`) and wall seconds; with ORCA_BIN (ORCA built
# from its public source: `orca node SIZE IN OUT`), ORCA's wall seconds on
# the same graph, its own count's seconds (the `total:` it prints: its
# stages, without reading and writing, by clock()) and whether its output
# equals ours byte for byte (cmp).
#
#   scripts/bench-orbits.sh [--graphs "G ..."] [--sizes "4 5"] [--devices "gpu cpu"] [--threads N] [--runs R]
#                           [--gpus N] [--totals] [--trials T]
# --runs R: ours R times per cell, the median count and wall reported (ORCA once).
# --trials T: each of our runs counts T times after an untimed warm-up
# (`orbits --trials T`): count_s is the median over the runs of each run's
# median, first_s that of each run's first call (the warm-up, which on the
# GPU also loads the kernels); with T = 1 (default) the two are the one call.
# --gpus N: on the GPU, devices 0..N-1 (orbits and totals alike).
# --totals: beside each cell, the motif totals of the same size on the same
# device (`motifs --size S --json`'s seconds, the median of R runs, after
# the cell's orbits), the orbits' count over them, and the orbits' count
# in ns per wedge (the graph's 2-paths, `motifs --size 3`'s wedges); at
# size 5 also the orbits' phases in s (WM_ORBIT_TRACE's aggregates / walks /
# clique sums and 5-cycles / solve, of the last run).
# A graph is a file (an edge list with ids 0..n-1, or .wmg) or kron:S (the
# Graph500 generator's graph of scale S, `warpmatch gen kron`).  Default:
# facebook and kron:14, size 4, devices gpu and cpu, all threads.
# Environment: WM_BUILD_DIR (default build), ORCA_BIN (optional).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=${WM_BUILD_DIR:-$repo/build}/warpmatch
graphs="$repo/datasets/real/facebook_combined.txt kron:14"
sizes=4
devices="gpu cpu"
threads=""
runs=1
trials=1
gpus=""
totals=0
while [ $# -gt 0 ]; do
  case $1 in
  --gpus) gpus=$2; shift 2 ;;
  --totals) totals=1; shift ;;
  --graphs) graphs=$2; shift 2 ;;
  --sizes) sizes=$2; shift 2 ;;
  --devices) devices=$2; shift 2 ;;
  --threads) threads=$2; shift 2 ;;
  --runs) runs=$2; shift 2 ;;
  --trials) trials=$2; shift 2 ;;
  *) echo "usage: scripts/bench-orbits.sh [--graphs \"G ...\"] [--sizes \"4 5\"] [--devices \"gpu cpu\"] [--threads N] [--runs R] [--gpus N] [--totals] [--trials T]" >&2
     exit 2 ;;
  esac
done
[ -x "$bin" ] || { echo "bench-orbits: build first ($bin)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ORCA's input: "n m", then each undirected edge once, 0-based, no loops or
# duplicates; n = the largest id + 1 (as our orca layout's rows).
orca_input() { # graph(.wmg or edge list) -> stdout
  python3 - "$1" <<'EOF'
import struct, sys
from array import array
path = sys.argv[1]
edges = set()
with open(path, 'rb') as f:
    head = f.read(64)
    if head[:8] == b'WMGRAPH\0':
        n, m = struct.unpack_from('<QQ', head, 16)
        has_ids = struct.unpack_from('<I', head, 32)[0]
        off, adj, ids = array('Q'), array('I'), array('I')
        off.fromfile(f, n + 1)
        adj.fromfile(f, m)
        if has_ids: ids.fromfile(f, n)
        name = (lambda v: ids[v]) if has_ids else (lambda v: v)
        top = max((name(v) for v in range(n)), default=-1)
        for v in range(n):
            for e in range(off[v], off[v + 1]):
                a, b = name(v), name(adj[e])
                if a < b: edges.add((a, b))
    else:
        f.seek(0)
        top = -1
        for line in f:
            t = line.split()
            if not t or t[0][:1] in (b'#', b'%'): continue
            a, b = int(t[0]), int(t[1])
            top = max(top, a, b)
            if a != b: edges.add((min(a, b), max(a, b)))
out = sys.stdout
out.write(f"{top + 1} {len(edges)}\n")
out.write(''.join(f"{a} {b}\n" for a, b in sorted(edges)))
EOF
}

json_field() { python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
median() { sort -g | awk '{v[NR] = $1} END {printf "%.4f", v[int((NR + 1) / 2)]}'; }

printf '%-28s %4s %6s %7s %10s %10s %10s %10s %12s %8s' graph size device threads count_s first_s wall_s orca_s orca_count_s \
  same
[ "$totals" = 1 ] && printf ' %10s %9s %9s  %s' totals_s x_totals ns_wedge 'phases_s(aggr/walks/cliques/solve)'
echo
for gspec in $graphs; do
  if [[ $gspec == kron:* ]]; then
    g=$work/kron${gspec#kron:}.wmg
    "$bin" gen kron --scale "${gspec#kron:}" --output "$g" --quiet >/dev/null
  else
    g=$gspec
  fi
  name=$(basename "$gspec")
  orca_s=- ; orca_count=- ; orca_out=
  wedges=0
  if [ "$totals" = 1 ]; then
    "$bin" motifs "$g" --size 3 --device cpu --json --quiet --no-cache >"$work/wedges.json"
    wedges=$(json_field wedges <"$work/wedges.json")
  fi
  for size in $sizes; do
    if [ -n "${ORCA_BIN:-}" ]; then
      orca_input "$g" >"$work/orca.in"
      t0=$(date +%s%N)
      "$ORCA_BIN" node "$size" "$work/orca.in" "$work/orca.out" >"$work/orca.log"
      t1=$(date +%s%N)
      orca_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", (b - a) / 1e9}')
      orca_count=$(awk '/^total:/ {print $2}' "$work/orca.log")
      orca_out=$work/orca.out
    fi
    for device in $devices; do
      walls=() secs_all=() firsts=()
      for ((r = 0; r < runs; r++)); do
        t0=$(date +%s%N)
        WM_ORBIT_TRACE=$totals "$bin" orbits "$g" --size "$size" --device "$device" ${threads:+--threads "$threads"} \
          --format orca ${gpus:+$([ "$device" = gpu ] && echo --gpus "$gpus")} --output "$work/ours.out" --json --quiet \
          --no-cache $([ "$trials" -gt 1 ] && echo --trials "$trials") >"$work/ours.json" 2>"$work/trace.txt" ||
          { cat "$work/trace.txt" >&2; exit 1; }
        t1=$(date +%s%N)
        walls+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f", (b - a) / 1e9}')")
        secs_all+=("$(json_field seconds <"$work/ours.json")")
        if [ "$trials" -gt 1 ]; then firsts+=("$(json_field first_seconds <"$work/ours.json")")
        else firsts+=("${secs_all[-1]}"); fi
      done
      first=$(printf '%s\n' "${firsts[@]}" | median)
      wall=$(printf '%s\n' "${walls[@]}" | median)
      secs=$(printf '%s\n' "${secs_all[@]}" | median)
      ran=$(json_field device <"$work/ours.json")
      same=-
      [ -n "$orca_out" ] && { cmp -s "$orca_out" "$work/ours.out" && same=yes || same=NO; }
      printf '%-28s %4s %6s %7s %10.4f %10.4f %10s %10s %12s %8s' "$name" "$size" "$ran" "${threads:-all}" "$secs" \
        "$first" "$wall" "$orca_s" "$orca_count" "$same"
      if [ "$totals" = 1 ]; then
        tot_all=()
        for ((r = 0; r < runs; r++)); do
          "$bin" motifs "$g" --size "$size" --device "$ran" ${threads:+--threads "$threads"} \
            ${gpus:+$([ "$ran" = gpu ] && echo --gpus "$gpus")} --json --quiet --no-cache >"$work/totals.json"
          tot_all+=("$(json_field seconds <"$work/totals.json")")
        done
        tot=$(printf '%s\n' "${tot_all[@]}" | median)
        awk -v c="$secs" -v t="$tot" -v w="$wedges" \
          'BEGIN {printf " %10.3f %8.2fx %9.3f", t, (t > 0 ? c / t : 0), (w > 0 ? 1e9 * c / w : 0)}'
        sed -n 's/^orbits (non-induced.*: aggregates \([0-9.]*\) ms.*, walks \([0-9.]*\) ms, clique sums and 5-cycles \([0-9.]*\) ms, solve \([0-9.]*\) ms$/\1 \2 \3 \4/p' \
          "$work/trace.txt" | awk '{printf "  %.3f / %.3f / %.3f / %.3f", $1 / 1e3, $2 / 1e3, $3 / 1e3, $4 / 1e3}'
      fi
      echo
    done
  done
done
