#!/usr/bin/env bash
# CPU benchmark of the matcher: every pattern of the issue's list on a
# Kronecker graph (Graph500 generator) and on the real graphs, with 1 and 2
# threads, with and without code motion.  Prints a table and writes CSV:
#   graph, pattern, threads, motion, count, seconds, matches/s, set ops
# "seconds" is the matching phase only (no load, relabel or plan).  A run
# that exceeds --timeout is reported as "timeout" rather than left out; when
# the run with code motion timed out, the same run without it (never less
# work) is not started and is reported as "skipped".
# "4-motifs" is the six connected 4-vertex patterns counted vertex-induced
# one after another (count, seconds and set ops summed), which is what
# `warpmatch motifs --size 4 --method enumerate` runs, but with
# --no-code-motion available.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
bin=${WARPMATCH:-$here/build/warpmatch}
scale=18
threads="1 2"
graphs="kron facebook"
patterns="triangle 4-clique 5-clique 4-cycle diamond tailed-triangle house 4-motifs"
timeout_s=300
csv=bench-cpu.csv
work=${TMPDIR:-/tmp}/warpmatch-bench
data=${WM_TEST_GRAPHS:-$here/datasets/real}

usage() {
  cat <<EOF
usage: scripts/bench-cpu.sh [options]
  --bin PATH          warpmatch program (default: \$WARPMATCH or build/warpmatch)
  --scale S           Kronecker scale (default $scale)
  --threads "1 2"     thread counts (default "$threads")
  --graphs "..."      kron and/or facebook, or paths of graph files (default "$graphs")
  --patterns "..."    (default "$patterns")
  --timeout S         per run (default $timeout_s)
  --csv FILE          where to write the CSV (default $csv)
  --workdir DIR       generated and converted graphs (default $work)
EOF
}

while [ $# -gt 0 ]; do
  case $1 in
    --bin) bin=$2; shift 2 ;;
    --scale) scale=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --graphs) graphs=$2; shift 2 ;;
    --patterns) patterns=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --csv) csv=$2; shift 2 ;;
    --workdir) work=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "bench-cpu: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done

[ -x "$bin" ] || { echo "bench-cpu: no program at $bin (build first, or --bin)" >&2; exit 2; }
mkdir -p "$work"

# A graph name -> a .wmg path (generated or converted once, kept in $work).
graph_file() {
  case $1 in
    kron)
      local f=$work/kron$scale.wmg
      [ -s "$f" ] || "$bin" gen kron --scale "$scale" --seed 1 --output "$f" >&2
      echo "$f" ;;
    facebook)
      local f=$work/facebook.wmg
      [ -s "$f" ] || "$bin" convert "$data/facebook_combined.txt" "$f" --no-cache >&2
      echo "$f" ;;
    *) echo "$1" ;;
  esac
}

# This benchmark measures the CPU executor's plans: where count defaults to
# the motif formulas (--method), it asks for the plans.
enumerate=""
"$bin" count --help 2>&1 | grep -q -- "--method" && enumerate="--method enumerate"

# Pulls a number out of the one-line JSON of `count --json`.
field() { sed -n "s/.*\"$1\":\\([0-9.eE+-]*\\).*/\\1/p" <<<"$2"; }

# One count; prints "count seconds set_ops" or "timeout" / "error".
run_count() {
  local g=$1 p=$2 t=$3 motion=$4 extra=${5:-} out rc
  local flags="--threads $t --device cpu --json"
  [ "$motion" = off ] && flags="$flags --no-code-motion"
  set +e
  out=$(timeout "$timeout_s" "$bin" count "$g" --pattern "$p" $flags $extra $enumerate 2>&1)
  rc=$?
  set -e
  if [ $rc -eq 124 ]; then echo timeout; return; fi
  if [ $rc -ne 0 ]; then echo "error: $out" >&2; echo error; return; fi
  echo "$(field count "$out") $(field seconds "$out") $(field set_ops "$out")"
}

run_motifs4() {
  local g=$1 t=$2 motion=$3 c=0 s=0 o=0 r
  for p in 4-path 4-star 4-cycle tailed-triangle diamond 4-clique; do
    r=$(run_count "$g" "$p" "$t" "$motion" --induced)
    case $r in timeout|error) echo "$r"; return ;; esac
    set -- $r
    c=$((c + $1)); o=$((o + $3))
    s=$(awk -v a="$s" -v b="$2" 'BEGIN { printf "%.6f", a + b }')
  done
  echo "$c $s $o"
}

count=
echo "graph,pattern,threads,motion,count,seconds,matches_per_second,set_ops" >"$csv"
printf "%-12s %-16s %7s %6s %16s %10s %12s %14s\n" graph pattern threads motion count seconds "matches/s" "set ops"
for gname in $graphs; do
  g=$(graph_file "$gname")
  for p in $patterns; do
    for t in $threads; do
      for motion in on off; do
        if [ "$motion" = off ] && [ "$count" = timeout ]; then r=skipped
        elif [ "$p" = 4-motifs ]; then r=$(run_motifs4 "$g" "$t" "$motion")
        else r=$(run_count "$g" "$p" "$t" "$motion"); fi
        case $r in
          timeout|error|skipped) count=$r; secs=; rate=; ops= ;;
          *) set -- $r; count=$1; ops=$3
             secs=$(awk -v s="$2" 'BEGIN { printf "%.4f", s }')
             rate=$(awk -v c="$count" -v s="$2" 'BEGIN { if (s > 0) printf "%.4g", c / s; else print "" }') ;;
        esac
        label=$(basename "$gname" .wmg)
        printf "%-12s %-16s %7s %6s %16s %10s %12s %14s\n" "$label" "$p" "$t" "$motion" "$count" \
          "${secs:--}" "${rate:--}" "${ops:--}"
        echo "$label,$p,$t,$motion,$count,$secs,$rate,$ops" >>"$csv"
      done
    done
  done
done
echo "wrote $csv" >&2
