#!/usr/bin/env bash
# GPU benchmark of the matcher, run on the GPU host (scripts/gpu-check.sh
# calls it with WM_BIN and WM_OUT): the issue's patterns on Kronecker graphs
# (Graph500 generator, seed 1) and the real graphs, with the ablation
#   default      two-level stealing, U = default, code motion
#   steal-none   no stealing          (--steal none)
#   steal-block  intra-block only     (--steal block)
#   U1           no unrolling         (--unroll 1)
#   no-motion    plan without code motion (--no-code-motion)
#   vertices     the first level handed out as vertices, not edges (--level0 vertices)
#   no-pairs     the last two positions iterated, not counted as pairs of one set
#                (--no-pair-count; "n/a" for patterns whose plan has no pairs)
#   no-table     the stack kernel binary-searches rows instead of probing its
#                warp's table of the row every member reads (--gpu-table 0)
#   stack-kernel triangles, cliques and diamonds (and the motifs' triangle /
#                4-clique) on the general stack kernel instead of the dedicated
#                triangle, clique and diamond kernels (--stack-kernel; "n/a"
#                for patterns that have no dedicated kernel)
# The steal, U1, no-motion, vertices and no-table variants are the stack
# kernel's knobs: they run with --stack-kernel, so default vs stack-kernel is
# the dedicated kernels' gain and the others are ablations of the stack
# kernel.  The CPU executor runs with all cores on the real graphs, for the
# ratio of matches/s.  Prints a table and writes CSV
# ($WM_OUT/bench-gpu-match.csv):
#   graph, pattern, variant, count, kernel_ms, seconds, matches_per_second,
#   lane_util, cpu_seconds, speedup
# matches/s is count / kernel time; speedup compares the matching phases
# (`seconds` of both executors: GPU kernel plus its launch, no transfers).
# When `count --help` lists --trials, kernel_ms and seconds are medians
# (GAP-style: an untimed warm-up, then 5 timed GPU runs or 3 CPU runs).
# "3-motifs" / "4-motifs" are `warpmatch motifs --size 3|4` with --method
# enumerate where the program has it (every connected 3- / 4-vertex pattern,
# one vertex-induced plan each; times are the plans' summed), with the
# ablation flags; the no-motion variant, which motifs lacks, and a
# warpmatch whose motifs has no --trials count the patterns one by one.
# A run over --timeout is reported as "timeout", never left out; when a
# pattern's default run timed out its other variants are "skipped".
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
bin=${WM_BIN:-${WARPMATCH:-$here/build/warpmatch}}
out=${WM_OUT:-.}
scales="20 22"
target_scale=24
graphs="kron facebook"
patterns="triangle 4-clique 5-clique 4-cycle diamond tailed-triangle house 3-motifs 4-motifs"
target_patterns="triangle 4-clique 5-clique"
variants="default steal-none steal-block U1 no-motion vertices no-pairs no-table stack-kernel"
timeout_s=120
gpu_trials=5
work=${TMPDIR:-/tmp}/warpmatch-bench-gpu
data=${WM_TEST_GRAPHS:-$here/datasets/real}

usage() {
  cat <<EOF
usage: scripts/bench-gpu-match.sh [options]
  --bin PATH           warpmatch program (default: \$WM_BIN, \$WARPMATCH or build/warpmatch)
  --scales "20 22"     Kronecker scales for the full table (default "$scales")
  --target-scale S     scale of the issue's targets: $target_patterns, default variant (default $target_scale; 0: none)
  --graphs "..."       kron and/or facebook, or paths of graph files (default "$graphs")
  --patterns "..."     (default "$patterns")
  --variants "..."     (default "$variants")
  --timeout S          per run (default $timeout_s)
  --gpu-trials N       timed GPU trials after the warm-up (default $gpu_trials; CPU: 3)
  --out DIR            where the CSV goes (default \$WM_OUT or .)
  --workdir DIR        generated and converted graphs (default $work)
EOF
}

while [ $# -gt 0 ]; do
  case $1 in
    --bin) bin=$2; shift 2 ;;
    --scales) scales=$2; shift 2 ;;
    --target-scale) target_scale=$2; shift 2 ;;
    --graphs) graphs=$2; shift 2 ;;
    --patterns) patterns=$2; shift 2 ;;
    --variants) variants=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --gpu-trials) gpu_trials=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --workdir) work=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "bench-gpu-match: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done

[ -x "$bin" ] || { echo "bench-gpu-match: no program at $bin (build first, or --bin)" >&2; exit 2; }
mkdir -p "$work" "$out"
csv=$out/bench-gpu-match.csv
count_help=$("$bin" count --help 2>&1 || true)
# This benchmark measures the matcher's plans: where count and motifs
# default to the motif formulas (--method), it asks for the plans.
enumerate=""
grep -q -- "--method" <<<"$count_help" && enumerate="--method enumerate"

# A graph name -> a .wmg path (generated or converted once, kept in $work).
graph_file() {
  case $1 in
    kron*)
      local s=${1#kron} f
      f=$work/kron$s.wmg
      [ -s "$f" ] || "$bin" gen kron --scale "$s" --seed 1 --output "$f" >&2
      echo "$f" ;;
    facebook)
      local f=$work/facebook.wmg
      [ -s "$f" ] || "$bin" convert "$data/facebook_combined.txt" "$f" --no-cache >&2
      echo "$f" ;;
    *) echo "$1" ;;
  esac
}

# Pulls a number out of the one-line JSON of `count --json` ("" if absent).
field() { sed -n "s/.*\"$1\":\\([0-9.eE+-]*\\).*/\\1/p" <<<"$2" | head -1; }

# Flags of a variant; "unsupported" when this warpmatch lacks the option.
# The ablations are the stack kernel's knobs, so they run every pattern on
# it (--stack-kernel: cliques too); default takes the dedicated kernels.
variant_flags() {
  local need= flags=
  case $1 in
    default) ;;
    steal-none) need=--steal; flags="--steal none" ;;
    steal-block) need=--steal; flags="--steal block" ;;
    U1) need=--unroll; flags="--unroll 1" ;;
    no-motion) need=--no-code-motion; flags="--no-code-motion" ;;
    vertices) need=--level0; flags="--level0 vertices" ;;
    no-pairs) need=--no-pair-count; flags="--no-pair-count" ;;
    no-table) need=--gpu-table; flags="--gpu-table 0" ;;
    stack-kernel) need=--stack-kernel ;;
    *) echo unsupported; return ;;
  esac
  if [ -n "$need" ] && ! grep -q -- "$need" <<<"$count_help"; then echo unsupported; return; fi
  if [ "$1" != default ] && grep -q -- --stack-kernel <<<"$count_help"; then flags="$flags --stack-kernel"; fi
  echo "$flags"
}

# Patterns whose plan counts its last two positions as pairs.
has_pairs() {
  case $1 in *-motifs) return 1 ;; esac
  "$bin" plan --pattern "$1" --json 2>/dev/null | grep -q '"pair_count":"[a-z]*ordered"'
}

# Patterns that have a dedicated kernel (or contain one, for motifs).
has_dedicated() {
  case $1 in triangle|*-clique|diamond|3-motifs|4-motifs) return 0 ;; *) return 1 ;; esac
}

# Median-of-trials timing where this warpmatch has --trials (else nothing).
trial_flags() {
  grep -q -- --trials <<<"$count_help" || return 0
  if [ "$1" = gpu ]; then echo "--trials $gpu_trials"; else echo "--trials 3"; fi
}

# One count; prints "count kernel_ms seconds lane_util" or timeout / error.
run_count() {
  local g=$1 p=$2 device=$3 flags=$4 out rc
  flags="$flags $(trial_flags "$device")"
  set +e
  out=$(timeout "$timeout_s" "$bin" count "$g" --pattern "$p" --device "$device" --json $flags $enumerate 2>&1)
  rc=$?
  set -e
  if [ $rc -eq 124 ]; then echo timeout; return; fi
  if [ $rc -ne 0 ]; then echo "bench-gpu-match: $p on $g: $out" >&2; echo error; return; fi
  local km lu
  km=$(field kernel_ms "$out"); lu=$(field lane_util "$out")
  echo "$(field count "$out") ${km:-0} $(field seconds "$out") ${lu:--}"
}

# The k-motifs: every connected k-vertex pattern, vertex-induced, summed.
motif_names() {
  case $1 in
    3) echo "3-path triangle" ;;
    4) echo "4-path 4-star 4-cycle tailed-triangle diamond 4-clique" ;;
  esac
}

# `motifs --size K`: prints "total kernel_ms seconds -" or timeout / error.
run_motifs() {
  local g=$1 k=$2 device=$3 flags=$4 out rc trials=3
  [ "$device" = gpu ] && trials=$gpu_trials
  set +e
  out=$(timeout "$timeout_s" "$bin" motifs "$g" --size "$k" --device "$device" --json --trials "$trials" $flags \
    $enumerate 2>&1)
  rc=$?
  set -e
  if [ $rc -eq 124 ]; then echo timeout; return; fi
  if [ $rc -ne 0 ]; then echo "bench-gpu-match: motifs $k on $g: $out" >&2; echo error; return; fi
  local km
  km=$(field kernel_ms "$out")
  echo "$(field total "$out") ${km:-0} $(field seconds "$out") -"
}
motifs_help=$("$bin" motifs --help 2>&1 || true)

run_pattern() {
  local g=$1 p=$2 device=$3 flags=$4
  case $p in
    3-motifs|4-motifs)
      if grep -q -- --trials <<<"$motifs_help" && ! grep -q -- --no-code-motion <<<"$flags"; then
        run_motifs "$g" "${p%-motifs}" "$device" "$flags"
        return
      fi
      local c=0 km=0 s=0 r names
      names=$(motif_names "${p%-motifs}")
      for q in $names; do
        r=$(run_count "$g" "$q" "$device" "$flags --induced")
        case $r in timeout|error) echo "$r"; return ;; esac
        set -- $r
        c=$((c + $1))
        km=$(awk -v a="$km" -v b="$2" 'BEGIN { printf "%.6f", a + b }')
        s=$(awk -v a="$s" -v b="$3" 'BEGIN { printf "%.6f", a + b }')
      done
      echo "$c $km $s -" ;;
    *) run_count "$g" "$p" "$device" "$flags" ;;
  esac
}

fmt() { awk -v x="$1" -v f="$2" 'BEGIN { if (x == "" || x == "-") print "-"; else if (x !~ /^[0-9.eE+-]+$/) print x; else printf f, x }'; }

echo "graph,pattern,variant,count,kernel_ms,seconds,matches_per_second,lane_util,cpu_seconds,speedup" >"$csv"
printf "%-10s %-16s %-12s %16s %11s %10s %11s %5s %10s %8s\n" graph pattern variant count "kernel ms" seconds \
  "matches/s" util "cpu s" speedup

# One graph: every pattern x variant, and the CPU with all cores when asked.
bench_graph() {
  local gname=$1 with_cpu=$2 pats=$3 vars=$4 g label
  g=$(graph_file "$gname")
  label=$(basename "$gname" .wmg)
  for p in $pats; do
    local cpu_s=
    if [ "$with_cpu" = yes ]; then
      local rc
      rc=$(run_pattern "$g" "$p" cpu "")
      case $rc in timeout|error) cpu_s=$rc ;; *) set -- $rc; cpu_s=$3 ;; esac
    fi
    local default_state=
    for v in $vars; do
      local flags r count km secs util rate speed
      flags=$(variant_flags "$v")
      if [ "$flags" = unsupported ]; then r=unsupported
      elif [ "$v" = stack-kernel ] && ! has_dedicated "$p"; then r=n/a
      elif [ "$v" = no-pairs ] && ! has_pairs "$p"; then r=n/a
      elif [ "$v" != default ] && [ "$default_state" = timeout ]; then r=skipped
      else r=$(run_pattern "$g" "$p" gpu "$flags"); fi
      [ "$v" = default ] && default_state=$r
      case $r in
        timeout|error|skipped|unsupported|n/a) count=$r; km=; secs=; util=; rate=; speed= ;;
        *) set -- $r; count=$1; km=$2; secs=$3; util=$4
           rate=$(awk -v c="$count" -v k="$km" 'BEGIN { if (k > 0) printf "%.4g", c / (k / 1e3) }')
           speed=$(awk -v c="$cpu_s" -v s="$secs" 'BEGIN { if (c ~ /^[0-9.eE+-]+$/ && s > 0) printf "%.1f", c / s }') ;;
      esac
      printf "%-10s %-16s %-12s %16s %11s %10s %11s %5s %10s %8s\n" "$label" "$p" "$v" "$count" \
        "$(fmt "$km" %.2f)" "$(fmt "$secs" %.4f)" "${rate:--}" "$(fmt "$util" %.2f)" \
        "$(fmt "$cpu_s" %.4f)" "${speed:--}"
      echo "$label,$p,$v,$count,$km,$secs,$rate,$util,$cpu_s,$speed" >>"$csv"
    done
  done
}

for gname in $graphs; do
  case $gname in
    kron) for s in $scales; do bench_graph "kron$s" no "$patterns" "$variants"; done ;;
    *) bench_graph "$gname" yes "$patterns" "$variants" ;;
  esac
done
if [ "$target_scale" != 0 ]; then
  echo "-- targets: Kronecker scale $target_scale (edge factor 16)"
  bench_graph "kron$target_scale" no "$target_patterns" default
fi
echo "wrote $csv" >&2
