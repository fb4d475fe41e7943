#!/usr/bin/env bash
# The MPI path's overhead on one host: the same count, motifs and bfs run
# as a plain process, under `mpirun -np 1` and under `mpirun -np 2`, each
# the median of N runs.  Two times per run: wall, the whole process as the
# shell sees it (start-up, MPI_Init, graph load, the work, MPI_Finalize),
# and work, the command's own figure from --json (count and motifs:
# "seconds", the match or the motif sums; bfs: the search).  The threads
# are the host's cores in every case: all of them for one process, split
# evenly between the ranks for -np 2, so the columns compare the same
# hardware; mpirun runs with --bind-to none, so that its default binding of
# a rank to one core does not crowd that rank's threads onto it.  Prints a
# table; WM_OUT/bench-mpi.csv gets the same rows.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
bin=${WM_BIN:-$here/build/warpmatch}
out=${WM_OUT:-.}
runs=5
data=${WM_TEST_GRAPHS:-$here/datasets/real}
scale=16

usage() {
  cat <<EOF
usage: scripts/bench-mpi.sh [options]
  --bin PATH     warpmatch built with MPI (default: \$WM_BIN or build/warpmatch)
  --runs N       runs per case, the median reported (default $runs)
  --scale S      the Kronecker graph of the bfs case (default $scale)
EOF
}
while [ $# -gt 0 ]; do
  case $1 in
  --bin) bin=$2; shift 2 ;;
  --runs) runs=$2; shift 2 ;;
  --scale) scale=$2; shift 2 ;;
  -h|--help) usage; exit 0 ;;
  *) usage >&2; exit 2 ;;
  esac
done
command -v mpirun >/dev/null || { echo "bench-mpi: mpirun not found (apt install openmpi-bin libopenmpi-dev)" >&2; exit 1; }
[ -x "$bin" ] || { echo "bench-mpi: no program at $bin (scripts/setup.sh builds it)" >&2; exit 1; }

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 WM_PROGRESS=0
cores=$(nproc)
half=$(( cores / 2 > 0 ? cores / 2 : 1 ))
work=${TMPDIR:-/tmp}/warpmatch-bench-mpi
mkdir -p "$work" "$out"
fb=$data/facebook_combined.txt
kron=$work/kron-$scale.wmg
[ -s "$kron" ] || "$bin" gen kron --scale "$scale" --output "$kron" --quiet >/dev/null
# the text graph's cache, once, outside the timings
"$bin" info "$fb" >/dev/null 2>&1 || { echo "bench-mpi: cannot read $fb" >&2; exit 1; }

# The command's own time from its JSON answer.
work_seconds() {
  python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["variants"][0]["runs"][0]["seconds"] if "variants" in d else d["seconds"])'
}

median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

# one MODE ARGS...: "wall work" of one run; MODE plain, np1 or np2.
one() {
  local mode=$1; shift
  local t0 t1 json
  t0=$(date +%s.%N)
  case $mode in
  plain) json=$(OMP_NUM_THREADS=$cores "$bin" "$@" --json) ;;
  np1) json=$(OMP_NUM_THREADS=$cores mpirun --oversubscribe --bind-to none -np 1 "$bin" "$@" --json) ;;
  np2) json=$(OMP_NUM_THREADS=$half mpirun --oversubscribe --bind-to none -np 2 "$bin" "$@" --json) ;;
  esac
  t1=$(date +%s.%N)
  echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}') $(echo "$json" | work_seconds)"
}

csv=$out/bench-mpi.csv
echo "case,mode,runs,wall_s,work_s" >"$csv"
printf "%-32s %21s %21s %21s\n" "median of $runs: wall / work s" "plain, $cores threads" "mpirun -np 1" \
  "-np 2, $half thread each"
bench() {
  local name=$1; shift
  local row w k
  row=$(printf "%-32s" "$name")
  for mode in plain np1 np2; do
    local walls=() works=()
    for ((i = 0; i < runs; i++)); do
      read -r w k < <(one "$mode" "$@")
      walls+=("$w") works+=("$k")
    done
    w=$(printf "%s\n" "${walls[@]}" | median)
    k=$(printf "%s\n" "${works[@]}" | median)
    echo "$name,$mode,$runs,$w,$k" >>"$csv"
    row+=$(printf " %9.3f / %9.4f" "$w" "$k")
  done
  echo "$row"
}

bench "count facebook triangle" count "$fb" --pattern triangle
bench "count facebook 4-cycle (plan)" count "$fb" --pattern 4-cycle --method enumerate
bench "motifs facebook size 4" motifs "$fb" --size 4
bench "motifs facebook size 5" motifs "$fb" --size 5
bench "bfs facebook" bfs "$fb" --source 0
bench "bfs kron-$scale" bfs "$kron" --source 1
echo "(wall: the whole process; work: the command's own seconds from --json; CSV: $csv)"
