#!/usr/bin/env bash
# BFS over several GPUs of one host: GTEPS of `bfs --gpus N` (the 1-D
# partition, frontier bitmaps or lists exchanged through NCCL) against the one-GPU
# pipeline (`--gpus 1`), on Graph500 Kronecker graphs, in one run on one
# machine.
#
# Per scale the graph is generated once (`gen kron --scale S --seed 1`, edge
# factor 16) and each GPU count searches the same R random roots (non-zero
# degree, fixed seed) with `bfs --sources R --device gpu --gpus N --json`:
# GTEPS is the harmonic mean over the roots (Graph500 edges: undirected
# input edges in the traversed component), times exclude the graph upload
# and the copy of the levels back to the host.  The first V roots of each
# count are also checked with the Graph500 rules in a separate run
# (--validate, on the CPU).
#
# Environment: WM_BIN (default build/warpmatch), WM_OUT (default bench-out),
# BFS_GPU_SCALES ("24 25 26"), BFS_GPU_COUNTS (default: 1 2 4 8 up to the
# GPUs present), BFS_ROOTS (32), BFS_VALIDATE_ROOTS (4; 0: none).  Writes
# $WM_OUT/bfs-gpus.csv and the raw JSON beside it.
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin=${WM_BIN:-$repo/build/warpmatch}
out=${WM_OUT:-bench-out}
scales=${BFS_GPU_SCALES:-24 25 26}
roots=${BFS_ROOTS:-32}
vroots=${BFS_VALIDATE_ROOTS:-4}
present=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
counts=${BFS_GPU_COUNTS:-}
if [ -z "$counts" ]; then
  for k in 1 2 4 8; do [ "$k" -le "${present:-1}" ] && counts="$counts $k"; done
fi

mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-bfs-gpus.XXXXXX")
trap 'rm -rf "$work"' EXIT
csv="$out/bfs-gpus.csv"
echo "graph,vertices,edges,gpus,roots,gteps_hmean,median_ms,min_ms,max_ms,validated" >"$csv"
status=0
log() { printf '== %s %s\n' "$(date +%T)" "$*" >&2; }
json_num() { grep -o "\"$1\":[-0-9.eE+]*" "$2" | head -1 | cut -d: -f2; }

[ -x "$bin" ] || { echo "bench-bfs-gpus: $bin is not built" >&2; exit 1; }
for s in $scales; do
  g="$work/kron-$s.wmg"
  log "generating Kronecker scale $s"
  if ! "$bin" gen kron --scale "$s" --seed 1 --output "$g" --quiet >"$work/gen.log" 2>&1; then
    echo "bench-bfs-gpus: gen kron --scale $s failed:" >&2
    tail -3 "$work/gen.log" >&2
    status=1
    continue
  fi
  for k in $counts; do
    json="$out/bfs-gpus-kron$s-$k.json"
    log "kron$s: bfs --sources $roots --gpus $k"
    if ! "$bin" bfs "$g" --sources "$roots" --device gpu --gpus "$k" --json >"$json" 2>"$work/err"; then
      echo "bench-bfs-gpus: kron$s on $k GPUs failed:" >&2
      tail -5 "$work/err" >&2
      status=1
      continue
    fi
    valid=-
    if [ "$vroots" -gt 0 ]; then
      vjson="$work/valid.json"
      if "$bin" bfs "$g" --sources "$vroots" --device gpu --gpus "$k" --validate --json >"$vjson" 2>"$work/err"; then
        valid="$(json_num valid "$vjson")/$vroots"
      else
        valid="FAILED"
        tail -3 "$work/err" >&2
        status=1
      fi
    fi
    echo "kron$s,$(json_num vertices "$json"),$(json_num edges "$json"),$k,$roots,$(json_num gteps "$json"),$(json_num median_ms "$json"),$(json_num min_ms "$json"),$(json_num max_ms "$json"),$valid" >>"$csv"
  done
  rm -f "$g"
done

awk -F, 'NR == 1 { printf "%-8s %5s %10s %10s %10s %9s %9s\n", "graph", "GPUs", "GTEPS(hm)", "median ms", "max ms", "speed-up", "valid"; next }
  { if ($4 == 1) base[$1] = $6;
    up = (base[$1] > 0 ? sprintf("%.2fx", $6 / base[$1]) : "-");
    printf "%-8s %5d %10.2f %10.3f %10.3f %9s %9s\n", $1, $4, $6, $7, $9, up, $10 }' "$csv"
echo "CSV: $csv (1 GPU: the one-GPU pipeline; N > 1: the 1-D partition over N GPUs)"
exit $status
