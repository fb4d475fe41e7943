#!/usr/bin/env bash
# Motif significance benchmark: the time per random graph (randomise + count)
# of `warpmatch motifs GRAPH --size K --random N` against networkx in one
# process (nx.double_edge_swap with the same 10 attempted swaps per edge,
# then nx.triangles, the 3-vertex classes: networkx has no 4-vertex motif
# counter, so at size 4 its column is still swaps + triangles, a lower bound
# on what it would need).  Prints a table:
#   graph, size, N, ours s/graph (randomise, count), networkx s/graph, ratio
# ours is from the program's JSON (randomize_seconds_per_graph +
# count_seconds_per_graph: the random graphs made in parallel over the
# threads and counted one after another, or with --device gpu made and
# counted by each of --gpus GPUs, its share (the slowest GPU's time); the
# "made" column says where); networkx times
# --nx-graphs graphs (its swaps take seconds each) and reports their mean.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
bin=${WM_BIN:-$here/build/warpmatch}
graph=${WM_TEST_GRAPHS:-$here/datasets/real}/facebook_combined.txt
sizes="3 4"
random=20
nx_graphs=2
python=${PYTHON:-python3}
method=switch
device=auto
gpus=1

usage() {
  cat <<EOF
usage: scripts/bench-significance.sh [options]
  --bin PATH        warpmatch program (default: \$WM_BIN or build/warpmatch)
  --graph PATH      an undirected edge list (default: datasets/real/facebook_combined.txt)
  --sizes "3 4"     motif sizes (default "$sizes")
  --random N        random graphs per size (default $random)
  --method M        switch or curveball (default $method; networkx always swaps)
  --device D        auto, cpu or gpu (default $device): gpu makes switch graphs on the GPU too
  --gpus N          GPUs that share the random graphs (default $gpus)
  --nx-graphs K     random graphs networkx makes, 0 for none (default $nx_graphs)
  --python PATH     a Python with networkx (default: \$PYTHON or python3)
EOF
}

while [ $# -gt 0 ]; do
  case $1 in
  --bin) bin=$2; shift 2 ;;
  --graph) graph=$2; shift 2 ;;
  --sizes) sizes=$2; shift 2 ;;
  --random) random=$2; shift 2 ;;
  --method) method=$2; shift 2 ;;
  --device) device=$2; shift 2 ;;
  --gpus) gpus=$2; shift 2 ;;
  --nx-graphs) nx_graphs=$2; shift 2 ;;
  --python) python=$2; shift 2 ;;
  -h | --help) usage; exit 0 ;;
  *) echo "bench-significance: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done
[ -x "$bin" ] || { echo "bench-significance: no program at $bin (build first, or --bin)" >&2; exit 2; }
[ -f "$graph" ] || { echo "bench-significance: no graph at $graph" >&2; exit 2; }

# The JSON key's number, or string, from one line of JSON.
key() { sed -n "s/.*\"$1\":\([0-9.eE+-]*\).*/\1/p"; }
keystr() { sed -n "s/.*\"$1\":\"\([a-z]*\)\".*/\1/p"; }

# networkx's mean seconds per random graph (swaps + triangles), or "-".
nx_seconds() {
  if [ "$nx_graphs" -le 0 ]; then echo -; return; fi
  "$python" - "$graph" "$nx_graphs" 2>/dev/null <<'PY' || echo -
import sys, time
import networkx as nx
G = nx.read_edgelist(sys.argv[1], nodetype=int, comments="#")
G.remove_edges_from(list(nx.selfloop_edges(G)))
m, k = G.number_of_edges(), int(sys.argv[2])
t0 = time.perf_counter()
for i in range(k):
    H = G.copy()
    nx.double_edge_swap(H, nswap=10 * m, max_tries=100 * m, seed=i)
    sum(nx.triangles(H).values())
print(f"{(time.perf_counter() - t0) / k:.4f}")
PY
}

name=$(basename "$graph")
nx_s=$(nx_seconds) # the same for every size: networkx counts triangles only
printf "%-24s %4s %5s %10s %10s %5s %10s %12s %8s\n" graph size N ours_s randomise made count networkx_s ratio
for k in $sizes; do
  gpu_opts=()
  [ "$gpus" -gt 1 ] && gpu_opts=(--gpus "$gpus")
  json=$("$bin" motifs "$graph" --size "$k" --random "$random" --method "$method" --seed 1 --device "$device" \
    "${gpu_opts[@]}" --json --quiet) || {
    echo "bench-significance: warpmatch failed on size $k" >&2
    exit 1
  }
  r=$(echo "$json" | key randomize_seconds_per_graph)
  c=$(echo "$json" | key count_seconds_per_graph)
  made=$(echo "$json" | keystr randomize_device)
  ours=$(awk -v r="$r" -v c="$c" 'BEGIN { printf "%.4f", r + c }')
  ratio=$(awk -v o="$ours" -v n="$nx_s" 'BEGIN { if (n == "-" || o == 0) print "-"; else printf "%.0fx", n / o }')
  printf "%-24s %4s %5s %10s %10.4f %5s %10.4f %12s %8s\n" "$name" "$k" "$random" "$ours" "$r" "$made" "$c" "$nx_s" \
    "$ratio"
done
chain="10 swaps per edge"
[ "$method" = curveball ] && chain="10 rounds of trades"
echo "ours: $method, $chain, randomise + count per graph on $(nproc) cores (the graphs made in parallel;" \
  "made gpu: by the GPU's edge switching on $gpus GPU(s), graph i on GPU i mod $gpus)"
[ "$nx_graphs" -gt 0 ] && echo "networkx: double_edge_swap (10 per edge) + triangles in one process, mean of $nx_graphs graphs"
exit 0
