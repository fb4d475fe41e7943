#!/usr/bin/env bash
# STMatch comparison: the 24 query patterns of STMatch's evaluation (SC'22,
# its data/pattern/N.g), edge-induced and unlabeled, counted by
# `warpmatch count --trials N --json` on each graph, and, when a built
# STMatch is given (--stmatch DIR), by its binary on the same CSR, written
# in its own format (SNAP.meta.txt, .vertex.bin, .edge.bin, .label.bin) in
# a temporary folder.  Prints a markdown table and writes CSV (--csv, by
# default $WM_OUT/bench-stmatch.csv, written to a temporary name and renamed):
#   graph, vertices, edges, max_degree, pattern, k, pattern_edges, aut, device,
#   count, embeddings, ms, ms_is, bound_share, stmatch_embeddings, stmatch_ms,
#   ratio, check
# count is ours (each subgraph once); embeddings = count x |Aut|, what
# STMatch prints.  ms is our GPU kernel time (kernel_ms, CUDA events) where
# the JSON has it, else the median matching time (seconds, the CPU); ms_is
# says which.  stmatch_ms is the median over the trials of the kernel time
# its program prints (CUDA events around its one launch; it has no warm-up).
# ratio = stmatch_ms / ms (above 1: warpmatch is faster).  check says
# whether the embeddings agree.  bound_share (GPU only) is the time to read
# the CSR once at the copy bandwidth measured in the same run
# (`bfs --probe-bandwidth`), over ms.  A run over --timeout is reported as
# "timeout", never left out.  With --stmatch-limit X, STMatch runs at most
# X times our time plus --stmatch-setup seconds (its loading and set-up),
# within --timeout: a run stopped there is reported as "over" with the
# ratio "> X" (its kernel alone took longer than X times ours), which is
# all a target of X needs, at a bounded cost in device time.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
bin=${WM_BIN:-$here/build/warpmatch}
out=${WM_OUT:-.}
graphs="facebook"
patterns_dir=$here/patterns/stmatch
only=$(seq -s ' ' 1 24)
device=auto
planner=""
trials=3
timeout_s=300
stmatch=""
stmatch_bin=table_edge_ulb.exe
stmatch_limit=""
stmatch_setup=10
csv=""
work=""
data=${WM_TEST_GRAPHS:-$here/datasets/real}

usage() {
  cat <<EOF
usage: scripts/bench-stmatch.sh [options]
  --bin PATH          warpmatch program (default: \$WM_BIN or build/warpmatch)
  --graphs "..."      facebook, kron-S (Kronecker scale S, edge factor 16, seed 1), or paths
                      of graph files (default "$graphs")
  --patterns DIR      our copies of the patterns: pN.txt, else STMatch's N.g (default
                      patterns/stmatch)
  --only "1 2 ..."    pattern numbers (default 1-24)
  --device D          auto, cpu or gpu, for warpmatch (default $device)
  --planner P         warpmatch's --planner (model or sampled; default: the program's own)
  --trials N          timed runs of each (warpmatch: after a warm-up) (default $trials)
  --timeout S         seconds per run (default $timeout_s)
  --stmatch DIR       a built STMatch checkout: runs DIR/bin/$stmatch_bin on DIR/data/pattern/N.g
  --stmatch-bin NAME  its program under DIR/bin (default $stmatch_bin: edge-induced, unlabeled)
  --stmatch-limit X   stop STMatch at X times our time plus the set-up allowance (ratio "> X")
  --stmatch-setup S   seconds allowed for STMatch's loading and set-up (default $stmatch_setup)
  --csv FILE          where the CSV goes (default \$WM_OUT/bench-stmatch.csv)
  --workdir DIR       generated and converted graphs (default: a temporary folder, removed)
EOF
}

while [ $# -gt 0 ]; do
  case $1 in
  --bin) bin=$2; shift 2 ;;
  --graphs) graphs=$2; shift 2 ;;
  --patterns) patterns_dir=$2; shift 2 ;;
  --only) only=$2; shift 2 ;;
  --device) device=$2; shift 2 ;;
  --planner) planner=$2; shift 2 ;;
  --trials) trials=$2; shift 2 ;;
  --timeout) timeout_s=$2; shift 2 ;;
  --stmatch) stmatch=$2; shift 2 ;;
  --stmatch-bin) stmatch_bin=$2; shift 2 ;;
  --stmatch-limit) stmatch_limit=$2; shift 2 ;;
  --stmatch-setup) stmatch_setup=$2; shift 2 ;;
  --csv) csv=$2; shift 2 ;;
  --workdir) work=$2; shift 2 ;;
  -h | --help) usage; exit 0 ;;
  *) echo "bench-stmatch: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done

[ -x "$bin" ] || { echo "bench-stmatch: no program at $bin (build first, or --bin)" >&2; exit 2; }
[ -d "$patterns_dir" ] || { echo "bench-stmatch: no pattern folder $patterns_dir (--patterns)" >&2; exit 2; }
if [ -n "$stmatch" ] && [ ! -x "$stmatch/bin/$stmatch_bin" ]; then
  echo "bench-stmatch: no STMatch program at $stmatch/bin/$stmatch_bin (build it with make there)" >&2
  exit 2
fi
[ -n "$csv" ] || csv=$out/bench-stmatch.csv
mkdir -p "$(dirname "$csv")"
keep_work=1
[ -n "$work" ] || { work=$(mktemp -d "${TMPDIR:-/tmp}/warpmatch-bench-stmatch.XXXXXX"); keep_work=0; }
mkdir -p "$work"
tmp_csv=$csv.tmp.$$
cleanup() {
  rm -f "$tmp_csv"
  [ "$keep_work" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT

# A graph name -> a .wmg path (generated or converted once, kept in $work).
graph_file() {
  case $1 in
  facebook)
    local f=$work/facebook.wmg
    [ -s "$f" ] || "$bin" convert "$data/facebook_combined.txt" "$f" --no-cache >/dev/null || return 1
    echo "$f" ;;
  kron-*)
    local f=$work/$1.wmg
    [ -s "$f" ] || "$bin" gen kron --scale "${1#kron-}" --seed 1 --output "$f" >/dev/null || return 1
    echo "$f" ;;
  *.wmg) echo "$1" ;;
  *)
    local f
    f=$work/$(basename "$1").wmg
    [ -s "$f" ] || "$bin" convert "$1" "$f" --no-cache >/dev/null || return 1
    echo "$f" ;;
  esac
}

# The CSR of a .wmg: prints "n edges max_degree"; with a prefix, also writes
# it as STMatch's graph PREFIX.*: the same offsets (int64) and rows (int32),
# meta "n arcs 4 max_degree", and labels 0 (read by its labeled builds only).
csr_stats() {
  python3 - "$@" <<'EOF'
import array, struct, sys
data = open(sys.argv[1], "rb").read()
n, m = struct.unpack_from("<QQ", data, 16)  # the .wmg header: n at 16, arcs at 24, CSR from 64
off = array.array("Q"); off.frombytes(data[64:64 + 8 * (n + 1)])
maxdeg = max((off[v + 1] - off[v] for v in range(n)), default=0)
if len(sys.argv) > 2:
    prefix = sys.argv[2]
    open(prefix + ".vertex.bin", "wb").write(off.tobytes())
    open(prefix + ".edge.bin", "wb").write(data[64 + 8 * (n + 1):64 + 8 * (n + 1) + 4 * m])
    open(prefix + ".label.bin", "wb").write(bytes(4 * n))
    open(prefix + ".meta.txt", "w").write("%d\n%d\n4\n%d\n" % (n, m, maxdeg))
print(n, m // 2, maxdeg)
EOF
}

# |Aut| of a pattern given as "0-1 0-2 ..." on k vertices (brute force, k <= 8).
automorphisms() {
  python3 - "$1" "$2" <<'EOF'
import itertools, sys
k = int(sys.argv[1])
edges = {tuple(sorted(map(int, e.split("-")))) for e in sys.argv[2].split()}
print(sum(all(tuple(sorted((p[a], p[b]))) in edges for a, b in edges)
          for p in itertools.permutations(range(k))))
EOF
}

# One `count` (more options after the pattern); prints "count ms ms_is k aut pattern_edges" or timeout / error.
run_ours() {
  local g=$1 p=$2 j rc
  j=$work/count.json
  timeout "$timeout_s" "$bin" count "$g" --pattern "$p" --device "$device" --trials "$trials" --json "${@:3}" \
    >"$j" 2>"$j.err"
  rc=$?
  if [ $rc -eq 124 ]; then echo timeout; return; fi
  if [ $rc -ne 0 ]; then echo "bench-stmatch: $p on $g: $(cat "$j.err")" >&2; echo error; return; fi
  local fields
  fields=$(python3 - "$j" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
km = d.get("kernel_ms") or 0
ms, how = (km, "kernel") if km > 0 else (d["seconds"] * 1e3, "match")
print(d["count"], "%.4f" % ms, how, d["k"], d["pattern_edges"].replace(" ", ","))
EOF
) || { echo error; return; }
  local f
  read -r -a f <<<"$fields"
  echo "${f[0]} ${f[1]} ${f[2]} ${f[3]} $(automorphisms "${f[3]}" "${f[4]//,/ }") ${f[4]}"
}

# STMatch on the graph prefix: its count and median ms, or timeout / over
# (stopped at the --stmatch-limit) / error.  $3: our ms, or "".
run_stmatch() {
  local prefix=$1 n=$2 ours=${3:-} o=$work/stmatch.out times=() count="" t rc fields limit=$timeout_s over=0
  if [ -n "$stmatch_limit" ] && [ -n "$ours" ]; then
    limit=$(python3 -c "import math; print(min($timeout_s, math.ceil($stmatch_limit * $ours / 1e3 + $stmatch_setup)))")
    [ "$limit" -lt "$timeout_s" ] && over=1
  fi
  for ((t = 0; t < trials; t++)); do
    timeout "$limit" "$stmatch/bin/$stmatch_bin" "$prefix" "$stmatch/data/pattern/$n.g" >"$o" 2>"$o.err"
    rc=$?
    if [ $rc -eq 124 ] && [ $over -eq 1 ]; then echo over; return; fi
    if [ $rc -eq 124 ]; then echo timeout; return; fi
    if [ $rc -ne 0 ]; then echo "bench-stmatch: STMatch, pattern $n: $(tail -3 "$o.err")" >&2; echo error; return; fi
    # its one line: PATTERN <tab> MS <tab> EMBEDDINGS
    read -r -a fields <<<"$(tail -1 "$o")"
    [ ${#fields[@]} -eq 3 ] || { echo "bench-stmatch: STMatch printed '${fields[*]}'" >&2; echo error; return; }
    [ -z "$count" ] || [ "$count" = "${fields[2]}" ] ||
      { echo "bench-stmatch: STMatch's count changed between runs" >&2; echo error; return; }
    times+=("${fields[1]}")
    count=${fields[2]}
  done
  echo "$count $(printf '%s\n' "${times[@]}" | sort -g | awk '{ a[NR] = $1 } END { printf "%.4f", a[int((NR + 1) / 2)] }')"
}

# The copy bandwidth of the GPU (GB/s), once, on the first graph; "" on the CPU.
bandwidth=unknown
probe_bandwidth() {
  [ "$bandwidth" = unknown ] || return 0
  bandwidth=""
  [ "$device" != cpu ] || return 0
  bandwidth=$("$bin" bfs "$1" --source 0 --probe-bandwidth --device gpu --json 2>/dev/null |
    python3 -c 'import json,sys; print(json.load(sys.stdin).get("bandwidth_gbps", ""))' 2>/dev/null || true)
}

echo "graph,vertices,edges,max_degree,pattern,k,pattern_edges,aut,device,count,embeddings,ms,ms_is,bound_share,stmatch_embeddings,stmatch_ms,ratio,check" >"$tmp_csv"
echo "| graph | pattern | k | \|Aut\| | count | embeddings | ms | STMatch embeddings | STMatch ms | STMatch/ours | check |"
echo "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|"
for name in $graphs; do
  g=$(graph_file "$name") || { echo "bench-stmatch: could not make graph $name" >&2; continue; }
  label=$(basename "$name")
  label=${label%.wmg}
  probe_bandwidth "$g"
  gdir=$work/stmatch-$label
  if [ -n "$stmatch" ]; then
    mkdir -p "$gdir"
    read -r nv ne maxdeg <<<"$(csr_stats "$g" "$gdir/snap.txt")"
    limit=$(sed -n 's/.*GRAPH_DEGREE *= *\([0-9]*\).*/\1/p' "$stmatch/src/config.h" 2>/dev/null | head -1)
    if [ -n "$limit" ] && [ "$maxdeg" -gt "$limit" ]; then
      echo "bench-stmatch: $label has a vertex of degree $maxdeg, over STMatch's GRAPH_DEGREE $limit: its counts may be wrong" >&2
    fi
  else
    read -r nv ne maxdeg <<<"$(csr_stats "$g")"
  fi
  for n in $only; do
    p=$patterns_dir/p$n.txt extra=()
    # STMatch's own files label vertex i with i; its unlabeled builds ignore that
    [ -f "$p" ] || { p=$patterns_dir/$n.g; extra=(--ignore-labels); }
    [ -f "$p" ] || { echo "bench-stmatch: no p$n.txt or $n.g in $patterns_dir" >&2; continue; }
    [ -z "$planner" ] || extra+=(--planner "$planner")
    r=$(run_ours "$g" "$p" "${extra[@]}")
    count=$r emb="" ms="" how="" k="" aut="" pedges="" bound=""
    case $r in
    timeout | error) ;;
    *)
      read -r count ms how k aut pedges <<<"$r"
      emb=$(python3 -c "print($count * $aut)")
      if [ -n "$bandwidth" ] && [ "$how" = kernel ]; then
        bound=$(python3 -c "b=(8*($nv+1)+8*$ne)/($bandwidth*1e9)*1e3; print('%.4f' % (b/$ms) if $ms>0 else '')")
      fi ;;
    esac
    s_emb="" s_ms="" ratio="" check=""
    if [ -n "$stmatch" ]; then
      s=$(run_stmatch "$gdir/snap.txt" "$n" "$ms")
      case $s in
      over) s_emb=over ratio="> $stmatch_limit" ;;
      timeout | error) s_emb=$s ;;
      *)
        read -r s_emb s_ms <<<"$s"
        if [ -n "$emb" ]; then
          [ "$emb" = "$s_emb" ] && check=agree || check=DIFFER
          ratio=$(python3 -c "print('%.2f' % ($s_ms / $ms) if $ms > 0 else '')")
        fi ;;
      esac
    fi
    echo "| $label | p$n | ${k:--} | ${aut:--} | $count | ${emb:--} | ${ms:--} | ${s_emb:--} | ${s_ms:--} | ${ratio:--} | ${check:--} |"
    echo "$label,$nv,$ne,$maxdeg,p$n,$k,${pedges//,/ },$aut,$device,$count,$emb,$ms,$how,$bound,$s_emb,$s_ms,$ratio,$check" >>"$tmp_csv"
  done
done
mv "$tmp_csv" "$csv"
echo "bandwidth: ${bandwidth:-n/a} GB/s (device-to-device copy); CSV: $csv" >&2
