#!/usr/bin/env bash
# BFS benchmark on the GPU: GTEPS on Graph500 Kronecker graphs (scales
# 20-25, edge factor 16), a 2-D grid (high diameter) and the real graph,
# each with the ablation of the GPU pipeline, and the share of the memory-
# bandwidth bound measured in the same run.
#
# One `warpmatch bfs GRAPH --sources N --ablation --probe-bandwidth --json`
# per graph: the graph is loaded and uploaded once, the N roots (random,
# non-zero degree, fixed seed) are searched by every variant:
#   baseline        status-array BFS (a thread per vertex scans the status
#                   array each level), direction-optimising
#   +queue-gen      two-step frontier queues (Enterprise)
#   +classify       Small/Middle/Large/Extreme queues, concurrent kernels
#   +hub-cache      shared-memory hub cache in bottom-up steps
#   +small-kernel   small-level kernel on one block: several small levels a launch
#   +small-grid     ... and its grid tier over every SM
#   +cluster-kernel a small graph's whole search in one launch of a block
#                   cluster (= everything on)
#   top-down only   everything on but direction optimisation
# GTEPS: harmonic mean over the roots; edges counted the Graph500 way
# (undirected input edges in the traversed component); time excludes the
# graph upload and the copy of the result back to the host.
# Bandwidth share: bytes a search must move at least (8 B per vertex offset,
# 4 B per adjacency entry of the reached vertices, 4 B status + 4 B parent
# per vertex) at the bandwidth of a device-to-device copy measured in the
# same process, divided by the measured time; above 100% means the search
# read fewer edges than a top-down pass would (bottom-up steps stop early).
#
# Environment: WM_BIN (default build/warpmatch), WM_OUT (default bench-out),
# BFS_SCALES ("20 21 22 23 24 25"), BFS_ABLATION_SCALES ("20 24": the scales
# that run every variant; the others run all techniques on), BFS_ROOTS (64), BFS_GRID (2048: side of
# the grid), BFS_GRID_ROOTS (16: the grid's searches are long), BFS_VALIDATE
# (1: also run the Graph500 checks on every search), WM_TEST_GRAPHS
# (folder of facebook_combined.txt; default datasets/real).  Writes
# $WM_OUT/bfs.csv and the raw JSON beside it.
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin=${WM_BIN:-$repo/build/warpmatch}
out=${WM_OUT:-bench-out}
scales=${BFS_SCALES:-20 21 22 23 24 25}
# Kronecker scales that also run the ablation (the others: all techniques on)
ablation_scales=${BFS_ABLATION_SCALES:-20 24}
roots=${BFS_ROOTS:-64}
grid=${BFS_GRID:-2048}
grid_roots=${BFS_GRID_ROOTS:-16}
extra=()
[ "${BFS_VALIDATE:-0}" = 1 ] && extra+=(--validate)
data=${WM_TEST_GRAPHS:-$repo/datasets/real}

mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-bfs.XXXXXX")
trap 'rm -rf "$work"' EXIT
csv="$out/bfs.csv"
echo "graph,vertices,edges,variant,roots,gteps_hmean,median_ms,min_ms,max_ms,bandwidth_gbps,bandwidth_share" >"$csv"
status=0

log() { printf '== %s %s\n' "$(date +%T)" "$*" >&2; }

# One number from the one-line JSON: json_num KEY FILE
json_num() { grep -o "\"$1\":[-0-9.eE+]*" "$2" | head -1 | cut -d: -f2; }

# Runs the ablation on one graph and appends its rows to the CSV.
run_graph() {
  local name=$1 path=$2 nroots=$3 ablation=$4
  shift 4
  local json="$out/bfs-$name.json" t0=$SECONDS
  log "$name: bfs --sources $nroots $ablation"
  if ! "$bin" bfs "$path" --sources "$nroots" $ablation --probe-bandwidth --device gpu --json "${extra[@]}" "$@" \
    >"$json" 2>"$work/$name.err"; then
    echo "bench-bfs: $name failed:" >&2
    tail -5 "$work/$name.err" >&2
    status=1
    return
  fi
  local n m bw
  n=$(json_num vertices "$json")
  m=$(json_num edges "$json")
  bw=$(json_num bandwidth_gbps "$json")
  # each variant object up to its "runs" array: {"name":"...","gteps":...,...
  grep -o '{"name":"[^"]*"[^[]*' "$json" | while read -r obj; do
    local variant gteps med mn mx share
    variant=$(echo "$obj" | sed -E 's/^\{"name":"([^"]*)".*/\1/')
    gteps=$(echo "$obj" | json_num gteps -)
    med=$(echo "$obj" | json_num median_ms -)
    mn=$(echo "$obj" | json_num min_ms -)
    mx=$(echo "$obj" | json_num max_ms -)
    share=$(echo "$obj" | json_num bandwidth_share -)
    echo "$name,$n,$m,$variant,$nroots,$gteps,$med,$mn,$mx,$bw,$share" >>"$csv"
  done
  log "$name: $((SECONDS - t0)) s"
}

[ -x "$bin" ] || { echo "bench-bfs: $bin is not built" >&2; exit 1; }

for s in $scales; do
  g="$work/kron-$s.wmg"
  log "generating Kronecker scale $s"
  if ! "$bin" gen kron --scale "$s" --seed 1 --output "$g" >"$work/gen-$s.log" 2>&1; then
    echo "bench-bfs: gen kron --scale $s failed:" >&2
    tail -3 "$work/gen-$s.log" >&2
    status=1
    continue
  fi
  abl=
  case " $ablation_scales " in *" $s "*) abl=--ablation ;; esac
  run_graph "kron$s" "$g" "$roots" "$abl"
  rm -f "$g"
done

log "generating a ${grid}x${grid} grid"
awk -v n="$grid" 'BEGIN { for (r = 0; r < n; r++) for (c = 0; c < n; c++) { v = r * n + c;
  if (c + 1 < n) print v, v + 1; if (r + 1 < n) print v, v + n } }' >"$work/grid.txt"
run_graph "grid$grid" "$work/grid.txt" "$grid_roots" --ablation

if [ -f "$data/facebook_combined.txt" ]; then
  run_graph facebook "$data/facebook_combined.txt" "$roots" --ablation --no-cache
else
  echo "bench-bfs: $data/facebook_combined.txt not found; skipped" >&2
fi

# The table: one row per graph and variant.
awk -F, 'NR == 1 { printf "%-12s %-20s %10s %10s %10s %10s %9s\n", "graph", "variant", "vertices", "GTEPS(hm)", "median ms", "max ms", "bw share"; next }
  { share = ($11 == "" ? "-" : sprintf("%.1f%%", 100 * $11));
    printf "%-12s %-20s %10d %10.3f %10.3f %10.3f %9s\n", $1, $4, $2, $6, $7, $9, share }' "$csv"
bw=$(awk -F, 'NR > 1 && $10 != "" { print $10; exit }' "$csv")
echo "bandwidth: ${bw:-?} GB/s (device-to-device copy, read + write); CSV: $csv"
awk -F, '$1 == "kron24" && $4 == "+cluster-kernel" {
  printf "target: Kronecker scale 24, all optimisations, %s roots: %.1f GTEPS (goal >= 100): %s\n", $5, $6, ($6 >= 100 ? "met" : "NOT met") }' "$csv"
exit $status
