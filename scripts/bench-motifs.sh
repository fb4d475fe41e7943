#!/usr/bin/env bash
# Motif benchmark: `warpmatch motifs --size K` by formula and by enumeration,
# on the GPU and the CPU, on the real graphs, a graph with one large hub and
# Kronecker graphs (Graph500 generator, seed 1), with ESCAPE side by side
# when a built copy is given.  Prints a table and writes CSV
# ($WM_OUT/bench-motifs.csv):
#   graph, vertices, edges, wedges, dag_paths, size, device, method, total,
#   seconds, kernel_ms, paths_per_s, bound_share, escape_seconds, escape_check
# seconds is the median wall time of the motif call (`--trials`: an
# untimed warm-up, then N calls), graph loading excluded; kernel_ms the
# GPU kernels' time by CUDA events.  wedges is the sum of C(d, 2); dag_paths
# the formula's work (paths u-v-w below each top u).  bound_share is the
# time to read the CSR once at the copy bandwidth measured in the same run
# (`bfs --probe-bandwidth`), over kernel_ms.  ESCAPE (count_five of its
# public source, one thread) is timed by the wall clock of the whole
# program, its graph loading included; escape_check says whether its
# edge-induced 5-vertex counts (doubles) equal ours within 1e-12 relative.
# A run over --timeout is reported as "timeout", never left out.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
bin=${WM_BIN:-$here/build/warpmatch}
out=${WM_OUT:-.}
graphs="facebook hub kron-16"
sizes="4 5"
devices="gpu cpu"
methods="formula enumerate"
trials=5
timeout_s=300
escape=""
work=${TMPDIR:-/tmp}/warpmatch-bench-motifs
data=${WM_TEST_GRAPHS:-$here/datasets/real}

usage() {
  cat <<EOF
usage: scripts/bench-motifs.sh [options]
  --bin PATH         warpmatch program (default: \$WM_BIN or build/warpmatch)
  --graphs "..."     facebook, hub (10,670 vertices, 22,002 edges, one vertex of degree
                     2,312), kron-S (Kronecker scale S, edge factor 16, seed 1), or paths
                     (default "$graphs")
  --sizes "4 5"      motif sizes (default "$sizes")
  --devices "..."    gpu and/or cpu (default "$devices")
  --methods "..."    formula and/or enumerate (default "$methods")
  --trials N         timed calls after a warm-up (default $trials)
  --timeout S        seconds per call (default $timeout_s)
  --escape DIR       ESCAPE's source tree (its exe/count_five, built here with g++ -O3 when
                     missing), run on the same graphs for size 5
EOF
}

while [ $# -gt 0 ]; do
  case $1 in
  --bin) bin=$2; shift 2 ;;
  --graphs) graphs=$2; shift 2 ;;
  --sizes) sizes=$2; shift 2 ;;
  --devices) devices=$2; shift 2 ;;
  --methods) methods=$2; shift 2 ;;
  --trials) trials=$2; shift 2 ;;
  --timeout) timeout_s=$2; shift 2 ;;
  --escape) escape=$2; shift 2 ;;
  -h | --help) usage; exit 0 ;;
  *) echo "bench-motifs: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done

mkdir -p "$work" "$out"
if [ -n "$escape" ] && [ ! -x "$escape/exe/count_five" ]; then
  (cd "$escape" && g++ -O3 -std=c++11 -w -I. Graph.cpp GraphIO.cpp TriangleProgram.cpp exe/count_five.cpp \
    -o exe/count_five) || { echo "bench-motifs: could not build ESCAPE in $escape" >&2; exit 1; }
fi
csv=$out/bench-motifs.csv
echo "graph,vertices,edges,wedges,dag_paths,size,device,method,total,seconds,kernel_ms,paths_per_s,bound_share,escape_seconds,escape_check" >"$csv"

json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); v=d.get(sys.argv[2], ""); print(v)' "$@"; }

# The graph file for a name (generated graphs are made once in $work).
graph_path() {
  case $1 in
  facebook) echo "$data/facebook_combined.txt" ;;
  hub)
    local f=$work/hub.txt
    [ -f "$f" ] || python3 - "$f" <<'EOF'
import random, sys
rng = random.Random(1)
n, m, hub = 10670, 22002, 2312
edges = set()
for v in rng.sample(range(1, n), hub):
    edges.add((0, v))
w = [1.0 / (i + 1) ** 0.6 for i in range(n)]  # a heavy tail below the hub
while len(edges) < m:
    a, b = rng.choices(range(1, n), weights=w[1:], k=2)
    if a != b:
        edges.add((min(a, b), max(a, b)))
with open(sys.argv[1], "w") as f:
    f.write("# one hub of degree %d over a heavy-tailed graph, seed 1\n" % hub)
    for a, b in sorted(edges):
        f.write("%d %d\n" % (a, b))
EOF
    echo "$f" ;;
  kron-*)
    local s=${1#kron-} f=$work/$1.wmg
    [ -f "$f" ] || "$bin" gen kron --scale "$s" --seed 1 --output "$f" >/dev/null || return 1
    echo "$f" ;;
  *) echo "$1" ;;
  esac
}

# ESCAPE's input: "n m", then each undirected edge once, ids 0..n-1.
escape_input() {
  local g=$1 f=$2
  python3 - "$g" "$f" "$bin" <<'EOF'
import array, struct, subprocess, sys, tempfile
g, f, b = sys.argv[1:4]
# the CSR of the .wmg (header: n at byte 16, m at 24; offsets from 64, then adj)
if not g.endswith(".wmg"):
    tmp = tempfile.mktemp(suffix=".wmg")
    subprocess.run([b, "convert", g, tmp], check=True, stdout=subprocess.DEVNULL)
    g = tmp
data = open(g, "rb").read()
n, m = struct.unpack_from("<QQ", data, 16)
off = array.array("Q"); off.frombytes(data[64:64 + 8 * (n + 1)])
adj = array.array("I"); adj.frombytes(data[64 + 8 * (n + 1):64 + 8 * (n + 1) + 4 * m])
with open(f, "w") as out:
    out.write("%d %d\n" % (n, m // 2))
    for v in range(n):
        for i in range(off[v], off[v + 1]):
            if adj[i] > v:
                out.write("%d %d\n" % (v, adj[i]))
EOF
}

bandwidth=$("$bin" bfs "$(graph_path facebook)" --source 0 --probe-bandwidth --device gpu --json 2>/dev/null |
  python3 -c 'import json,sys; print(json.load(sys.stdin).get("bandwidth_gbps", ""))' 2>/dev/null || true)

printf '%-10s %4s %-4s %-9s %22s %10s %10s %9s %14s %9s %9s\n' graph size dev method total seconds kernel_ms bound "paths/s" escape check
for name in $graphs; do
  g=$(graph_path "$name") || { echo "$name: could not make the graph"; continue; }
  name=$(basename "$name")
  esc_s="" esc_ok=""
  if [ -n "$escape" ] && [[ " $sizes " == *" 5 "* ]]; then
    ein=$work/$name.escape
    [ -f "$ein" ] || escape_input "$g" "$ein"
    edir=$work/escape-$name
    mkdir -p "$edir"
    t0=$(date +%s.%N)
    if (cd "$edir" && timeout "$timeout_s" "$escape/exe/count_five" "$ein" >/dev/null 2>&1); then
      esc_s=$(python3 -c "print('%.3f' % ($(date +%s.%N) - $t0))")
    else
      esc_s=timeout
    fi
  fi
  for k in $sizes; do
    for dev in $devices; do
      for m in $methods; do
        j=$work/$name-$k-$dev-$m.json
        if ! timeout "$timeout_s" "$bin" motifs "$g" --size "$k" --device "$dev" --method "$m" \
          --trials "$trials" --json >"$j" 2>"$j.err"; then
          printf '%-10s %4s %-4s %-9s %22s\n' "$name" "$k" "$dev" "$m" "timeout/error"
          echo "$name,,,,,$k,$dev,$m,timeout,,,,,," >>"$csv"
          continue
        fi
        read -r nv ne wedges paths total secs kms <<<"$(python3 - "$j" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
print(d["vertices"], d["edges"], d["wedges"], d.get("dag_paths", 0), d["total"], d["seconds"], d.get("kernel_ms", 0))
EOF
)"
        bound="" rate=""
        if [ -n "$bandwidth" ] && [ "$dev" = gpu ]; then
          bound=$(python3 -c "b=(8*($nv+1)+8*$ne)/($bandwidth*1e9)*1e3; print('%.4f' % (b/$kms) if $kms>0 else '')")
        fi
        rate=$(python3 -c "print('%.3g' % ($paths/$secs) if $secs>0 and $paths>0 else '')")
        check=""
        if [ "$k" = 5 ] && [ -n "$esc_s" ] && [ "$esc_s" != timeout ] && [ "$m" = formula ]; then
          check=$(python3 - "$j" "$work/escape-$name/out.txt" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
ours = sorted(int(x["edge_induced_count"]) for x in d["motifs"])
esc = [float(x) for x in open(sys.argv[2]).read().split()[2:]]
theirs = sorted(esc[-21:])  # the 21 connected 5-vertex patterns close ESCAPE's table
ok = all(abs(a - b) <= 1e-12 * max(1.0, a) for a, b in zip(ours, theirs))
print("equal" if ok else "DIFFER")
EOF
)
        fi
        printf '%-10s %4s %-4s %-9s %22s %10.4f %10.3f %9s %14s %9s %9s\n' "$name" "$k" "$dev" "$m" "$total" "$secs" \
          "$kms" "${bound:--}" "${rate:--}" "${esc_s:--}" "${check:--}"
        echo "$name,$nv,$ne,$wedges,$paths,$k,$dev,$m,$total,$secs,$kms,$rate,$bound,$esc_s,$check" >>"$csv"
      done
    done
  done
done
echo "bandwidth: ${bandwidth:-?} GB/s (device-to-device copy); CSV: $csv"
