#!/usr/bin/env bash
# Per-vertex orbit counts (warpmatch orbits) against ORCA: for each graph,
# size and device, one run of `warpmatch orbits --format orca`, its counting
# seconds (--json's `seconds`) and wall seconds; with ORCA_BIN (ORCA built
# from its public source: `orca node SIZE IN OUT`), ORCA's wall seconds on
# the same graph and whether its output equals ours byte for byte (cmp).
#
#   scripts/bench-orbits.sh [--graphs "G ..."] [--sizes "4 5"] [--devices "gpu cpu"] [--threads N] [--runs R]
# --runs R: ours R times per cell, the median count and wall reported (ORCA once).
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
while [ $# -gt 0 ]; do
  case $1 in
  --graphs) graphs=$2; shift 2 ;;
  --sizes) sizes=$2; shift 2 ;;
  --devices) devices=$2; shift 2 ;;
  --threads) threads=$2; shift 2 ;;
  --runs) runs=$2; shift 2 ;;
  *) echo "usage: scripts/bench-orbits.sh [--graphs \"G ...\"] [--sizes \"4 5\"] [--devices \"gpu cpu\"] [--threads N] [--runs R]" >&2
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

printf '%-28s %4s %6s %7s %10s %10s %10s %8s\n' graph size device threads count_s wall_s orca_s same
for gspec in $graphs; do
  if [[ $gspec == kron:* ]]; then
    g=$work/kron${gspec#kron:}.wmg
    "$bin" gen kron --scale "${gspec#kron:}" --output "$g" --quiet >/dev/null
  else
    g=$gspec
  fi
  name=$(basename "$gspec")
  orca_s=- ; orca_out=
  for size in $sizes; do
    if [ -n "${ORCA_BIN:-}" ]; then
      orca_input "$g" >"$work/orca.in"
      t0=$(date +%s%N)
      "$ORCA_BIN" node "$size" "$work/orca.in" "$work/orca.out" >/dev/null
      t1=$(date +%s%N)
      orca_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", (b - a) / 1e9}')
      orca_out=$work/orca.out
    fi
    for device in $devices; do
      walls=() secs_all=()
      for ((r = 0; r < runs; r++)); do
        t0=$(date +%s%N)
        "$bin" orbits "$g" --size "$size" --device "$device" ${threads:+--threads "$threads"} --format orca \
          --output "$work/ours.out" --json --quiet --no-cache >"$work/ours.json"
        t1=$(date +%s%N)
        walls+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f", (b - a) / 1e9}')")
        secs_all+=("$(json_field seconds <"$work/ours.json")")
      done
      wall=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{v[NR] = $1} END {printf "%.4f", v[int((NR + 1) / 2)]}')
      secs=$(printf '%s\n' "${secs_all[@]}" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
      ran=$(json_field device <"$work/ours.json")
      same=-
      [ -n "$orca_out" ] && { cmp -s "$orca_out" "$work/ours.out" && same=yes || same=NO; }
      printf '%-28s %4s %6s %7s %10.3f %10s %10s %8s\n' "$name" "$size" "$ran" "${threads:-all}" "$secs" "$wall" "$orca_s" "$same"
    done
  done
done
