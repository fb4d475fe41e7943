#!/usr/bin/env bash
# Motif significance benchmark: the time per random graph (randomise + count)
# of `warpmatch motifs GRAPH --size K --random N` against two peers, each in
# one process doing the same: networkx (nx.double_edge_swap with the same 10
# attempted swaps per edge, then nx.triangles, the 3-vertex classes:
# networkx has no 4- or 5-vertex motif counter, so there its column is still
# swaps + triangles, a lower bound on what it would need) and igraph
# (Graph.rewire with 10 trials per edge, then motifs_randesu of the size:
# the same classes as ours).  The peers run on the host's last core while
# ours runs (pinned apart with taskset where it exists), each graph's count
# under --peer-timeout seconds ("over T" when it runs past).  Prints a table:
#   graph, size, N, ours s/graph (randomise, count), networkx s/graph,
#   igraph s/graph, ratios
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
ig_graphs=1
peer_timeout=300
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
  --ig-graphs K     random graphs igraph makes per size, 0 for none (default $ig_graphs)
  --peer-timeout S  seconds a peer may take per size before it is stopped (default $peer_timeout)
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
  --ig-graphs) ig_graphs=$2; shift 2 ;;
  --peer-timeout) peer_timeout=$2; shift 2 ;;
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

# A peer pinned to the host's last core (ours keeps the others), stopped
# after --peer-timeout seconds: its output, "over T" or "-" (failed).
last_core=$(($(nproc) - 1))
pinned() {
  local pin=()
  command -v taskset >/dev/null && pin=(taskset -c "$last_core")
  timeout "$peer_timeout" "${pin[@]}" "$python" "$@" 2>/dev/null
  local rc=$?
  [ $rc -eq 124 ] && echo "over $peer_timeout"
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && echo -
  return 0
}

# networkx's mean seconds per random graph (swaps + triangles).
nx_seconds() {
  pinned - "$graph" "$nx_graphs" <<'PY'
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

# igraph's mean seconds per random graph of size $1 (rewire + motifs_randesu).
ig_seconds() {
  pinned - "$graph" "$ig_graphs" "$1" <<'PY'
import sys, time, random
import igraph as ig
edges = [tuple(map(int, l.split()[:2])) for l in open(sys.argv[1]) if l.strip() and l[0] not in "#%"]
G = ig.Graph(edges=edges, directed=False)
G.simplify()
m, k, size = G.ecount(), int(sys.argv[2]), int(sys.argv[3])
t0 = time.perf_counter()
for i in range(k):
    random.seed(i)
    H = G.copy()
    H.rewire(n=10 * m)  # the default keeps the graph simple
    H.motifs_randesu(size=size)
print(f"{(time.perf_counter() - t0) / k:.4f}")
PY
}

name=$(basename "$graph")
peers=$(mktemp -d)
trap 'rm -rf "$peers"' EXIT
# The peers, one after another on the last core, while ours runs.
(
  if [ "$nx_graphs" -gt 0 ]; then nx_seconds >"$peers/nx"; else echo - >"$peers/nx"; fi
  for k in $sizes; do
    if [ "$ig_graphs" -gt 0 ]; then ig_seconds "$k" >"$peers/ig$k"; else echo - >"$peers/ig$k"; fi
  done
) &
peer_pid=$!

ratio() { awk -v o="$1" -v n="$2" 'BEGIN { if (n == "-" || o == 0) print "-"; else if (n ~ /^over/) printf "over %.0fx", substr(n, 6) / o; else printf "%.0fx", n / o }'; }
ours_pin=()
command -v taskset >/dev/null && [ "$last_core" -gt 0 ] && ours_pin=(taskset -c "0-$((last_core - 1))")
rows=()
for k in $sizes; do
  gpu_opts=()
  [ "$gpus" -gt 1 ] && gpu_opts=(--gpus "$gpus")
  json=$("${ours_pin[@]}" "$bin" motifs "$graph" --size "$k" --random "$random" --method "$method" --seed 1 --device "$device" \
    "${gpu_opts[@]}" --json --quiet) || {
    echo "bench-significance: warpmatch failed on size $k" >&2
    kill "$peer_pid" 2>/dev/null
    exit 1
  }
  r=$(echo "$json" | key randomize_seconds_per_graph)
  c=$(echo "$json" | key count_seconds_per_graph)
  made=$(echo "$json" | keystr randomize_device)
  rows+=("$k $r $c $made")
done
wait "$peer_pid"
nx_s=$(cat "$peers/nx") # the same for every size: networkx counts triangles only
printf "%-24s %4s %5s %10s %10s %5s %10s %12s %10s %14s %10s\n" graph size N ours_s randomise made count networkx_s \
  nx_ratio igraph_s ig_ratio
for row in "${rows[@]}"; do
  read -r k r c made <<<"$row"
  ig_s=$(cat "$peers/ig$k")
  ours=$(awk -v r="$r" -v c="$c" 'BEGIN { printf "%.4f", r + c }')
  printf "%-24s %4s %5s %10s %10.4f %5s %10.4f %12s %10s %14s %10s\n" "$name" "$k" "$random" "$ours" "$r" "$made" "$c" \
    "$nx_s" "$(ratio "$ours" "$nx_s")" "$ig_s" "$(ratio "$ours" "$ig_s")"
done
cores=$(nproc)
[ ${#ours_pin[@]} -gt 0 ] && cores="$last_core of $cores"
chain="10 swaps per edge"
[ "$method" = curveball ] && chain="10 rounds of trades"
echo "ours: $method, $chain, randomise + count per graph on $cores cores (the graphs made in parallel;" \
  "made gpu: by the GPU's edge switching on $gpus GPU(s), graph i on GPU i mod $gpus)"
[ "$nx_graphs" -gt 0 ] && echo "networkx: double_edge_swap (10 per edge) + triangles in one process, mean of $nx_graphs graphs"
[ "$ig_graphs" -gt 0 ] && echo "igraph: rewire (10 trials per edge) + motifs_randesu(size) in one process, mean of $ig_graphs graphs"
[ -n "$(command -v taskset)" ] && echo "peers pinned to core $last_core, each stopped after $peer_timeout s per size"
exit 0
