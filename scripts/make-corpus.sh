#!/usr/bin/env bash
# Writes the planner's corpus (issue 44): graphs of many shapes, each made
# by the project and deterministic by seed, from 10^4 to 10^7 edges:
# facebook (the repository's copy), Kronecker and R-MAT at three skews,
# Chung-Lu power laws with exponents 2.1, 2.5 and 3, Barabasi-Albert, one
# huge hub over a sparse tail, stochastic block models with dense
# communities, random regular graphs, a grid and a road-like grid.
#
#   scripts/make-corpus.sh DIR          # the corpus into DIR (minutes; about 40 M edges in all)
#   SMALL=1 scripts/make-corpus.sh DIR  # the same shapes at 10^3-10^4 edges (seconds), for tests
#   ONLY="kron-14 hub" scripts/make-corpus.sh DIR  # only these graphs of it
#
# DIR gets NAME.wmg for each graph and corpus.tsv: name, generator and
# options, vertices, edges, max degree, mean degree.  The table is also
# printed.  The program is build/warpmatch unless WM_BIN names one.
# Exit codes: 0 ok, 1 a graph failed, 2 usage.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${WM_BIN:-$repo/build/warpmatch}"
small="${SMALL:-0}"
only=" ${ONLY:-} "

if [[ $# -ne 1 || "$1" == -* ]]; then
  echo "usage: [SMALL=1] $(basename "$0") DIR   write the planner's corpus into DIR" >&2
  exit 2
fi
out="$1"
if [[ ! -x "$bin" ]]; then
  echo "$(basename "$0"): no program at $bin (build it, or set WM_BIN)" >&2
  exit 2
fi
mkdir -p "$out"

# name | full-size arguments of `warpmatch gen` | SMALL=1 arguments.
# Every seed is fixed: the corpus is the same on every machine.
corpus="\
kron-14|kron --scale 14 --seed 1|kron --scale 9 --seed 1
kron-18|kron --scale 18 --seed 1|kron --scale 10 --seed 1
rmat-16-flat|rmat --scale 16 --a 0.35 --b 0.2 --c 0.2 --seed 2|rmat --scale 9 --a 0.35 --b 0.2 --c 0.2 --seed 2
rmat-16|rmat --scale 16 --seed 2|rmat --scale 9 --seed 2
rmat-16-steep|rmat --scale 16 --a 0.65 --b 0.12 --c 0.12 --seed 2|rmat --scale 9 --a 0.65 --b 0.12 --c 0.12 --seed 2
cl-2.1-small|chung-lu --vertices 10000 --mean-degree 4 --exponent 2.1 --seed 3|chung-lu --vertices 2000 --mean-degree 4 --exponent 2.1 --seed 3
cl-2.1|chung-lu --vertices 1000000 --mean-degree 10 --exponent 2.1 --seed 3|chung-lu --vertices 2000 --mean-degree 8 --exponent 2.1 --seed 3
cl-2.5|chung-lu --vertices 200000 --mean-degree 16 --exponent 2.5 --seed 3|chung-lu --vertices 1000 --mean-degree 12 --exponent 2.5 --seed 3
cl-3.0|chung-lu --vertices 50000 --mean-degree 8 --exponent 3 --seed 3|chung-lu --vertices 1000 --mean-degree 8 --exponent 3 --seed 3
ba-small|ba --vertices 2600 --attach 4 --seed 4|ba --vertices 500 --attach 2 --seed 4
ba|ba --vertices 500000 --attach 8 --seed 4|ba --vertices 1000 --attach 6 --seed 4
hub-small|hub --vertices 20000 --hub-fraction 0.9 --mean-degree 2 --seed 5|hub --vertices 2000 --hub-fraction 0.9 --mean-degree 2 --seed 5
hub|hub --vertices 1000000 --hub-fraction 0.5 --mean-degree 4 --seed 5|hub --vertices 2000 --hub-fraction 0.5 --mean-degree 4 --seed 5
sbm-dense|sbm --vertices 200000 --communities 2000 --degree-in 20 --degree-out 2 --seed 6|sbm --vertices 2000 --communities 40 --degree-in 10 --degree-out 1 --seed 6
sbm|sbm --vertices 100000 --communities 10 --degree-in 12 --degree-out 4 --seed 6|sbm --vertices 1000 --communities 4 --degree-in 8 --degree-out 3 --seed 6
regular-small|regular --vertices 10000 --degree 4 --seed 7|regular --vertices 1000 --degree 4 --seed 7
regular|regular --vertices 1000000 --degree 8 --seed 7|regular --vertices 1000 --degree 10 --seed 7
grid|grid --width 1000 --height 1000 --seed 8|grid --width 40 --height 40 --seed 8
road|grid --width 2000 --height 2000 --shortcuts 0.001 --seed 8|grid --width 60 --height 60 --shortcuts 0.01 --seed 8"

# A number from the program's one-line JSON.
field() { sed -n "s/.*\"$2\":\([0-9.e+-]*\).*/\1/p" <<<"$1"; }

table="$out/corpus.tsv"
tmp="$table.tmp"
printf 'name\tgenerator\tvertices\tedges\tmax_degree\tmean_degree\n' >"$tmp"
row() { # name, what made it, the program's JSON
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$(field "$3" vertices)" "$(field "$3" edges)" \
    "$(field "$3" max_degree)" "$(field "$3" mean_degree)" >>"$tmp"
}

# facebook: the repository's copy (88,234 edges) at full size; SMALL=1
# leaves it out (it is already small, but it is the one graph not generated).
wanted() { [[ "$only" == "  " || "$only" == *" $1 "* ]]; }
if [[ "$small" != 1 ]] && wanted facebook; then
  "$bin" convert "$repo/datasets/real/facebook_combined.txt" "$out/facebook.wmg" --no-cache --quiet >/dev/null
  row facebook "convert datasets/real/facebook_combined.txt" "$("$bin" info "$out/facebook.wmg" --json)"
fi

while IFS='|' read -r name full little; do
  wanted "$name" || continue
  args="$full"
  [[ "$small" == 1 ]] && args="$little"
  # shellcheck disable=SC2086 # the options are words
  if ! json="$("$bin" gen $args --output "$out/$name.wmg" --json)"; then
    echo "$(basename "$0"): $name: warpmatch gen $args failed" >&2
    rm -f "$tmp"
    exit 1
  fi
  row "$name" "gen $args" "$json"
done <<<"$corpus"

mv "$tmp" "$table"
column -t -s $'\t' "$table" 2>/dev/null || cat "$table"
