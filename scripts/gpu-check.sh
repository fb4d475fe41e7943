#!/usr/bin/env bash
# Runs on the GPU host (through the device tool), from the checkout root:
#   . .gpu-deps/env.sh && bash scripts/gpu-check.sh [STAGE...]
# Stages (default: build test bench): build = configure + compile for sm_90;
# test = every ctest test labelled gpu (and the CPU ones with `test-all`);
# bench = the GPU matcher and BFS benchmarks; motifs = the motif benchmark
# (scripts/bench-motifs.sh, with ESCAPE where .gpu-data/escape holds its
# source); python = the Python package's tests on this build's library (its
# GPU cases run where a GPU is usable); api = the library's per-query overhead against the program's
# (scripts/bench-api.sh); bfs-gpus = BFS over every GPU of the host against one
# (scripts/bench-bfs-gpus.sh); planner = the planner judged online on the
# corpus's timed cells (scripts/planner-judge.py --count gpu; the corpus made
# in $WM_PLANNER_CORPUS, default /tmp/wm-corpus); significance = the time per random graph made on
# the CPU and on the GPUs (scripts/bench-significance.sh); multi = --gpus 1 against 2, 4 and 8 up to the GPUs of the host
# (triangles and 4-cliques, 3 trials, and 4-motifs on Kronecker scale 24;
# 5-motifs on scale 20, where one GPU takes ~68 s for them: the motifs run
# one trial, since --trials repeats the whole run after a warm-up); graphs
# under $WM_MULTI_WORK, default /tmp/wm-multi; scales from WM_MULTI_SCALE
# and WM_MULTI_SCALE5.  Logs and CSVs go to $OUT
# (or ./gpu-out) and a short table is printed last.
set -uo pipefail
out=${OUT:-gpu-out}
mkdir -p "$out"
build=${WM_BUILD_DIR:-build-gpu-host}
stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(build test bench)
status=0

log() { printf '== %s %s\n' "$(date +%T)" "$*"; }

for stage in "${stages[@]}"; do
  case $stage in
  build)
    log "configure + build ($build)"
    nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv | tee "$out/gpu.txt"
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
      >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
    cmake --build "$build" -j"$(nproc)" >"$out/build.log" 2>&1 || { grep -E "error|Error" "$out/build.log" | head -40; exit 1; }
    grep -ci warning "$out/build.log" | sed 's/^/build warnings: /'
    ;;
  test | test-all)
    label=(-L gpu)
    [ "$stage" = test-all ] && label=()
    log "ctest ${label[*]}"
    ctest --test-dir "$build" "${label[@]}" --output-on-failure --timeout 900 2>&1 | tee "$out/ctest.log" | tail -25
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    ;;
  bench)
    for b in scripts/bench-gpu-match.sh scripts/bench-bfs.sh; do
      [ -x "$b" ] || [ -f "$b" ] || continue
      log "$b"
      WM_BIN="$build/warpmatch" WM_OUT="$out" bash "$b" 2>&1 | tee "$out/$(basename "$b" .sh).log" | tail -40
    done
    ;;
  python)
    log "python/tests on the build's libwarpmatch.so"
    WARPMATCH_LIBRARY="$PWD/$build/libwarpmatch.so" PYTHONPATH="$PWD/python" python3 -m pytest python/tests -q \
      2>&1 | tee "$out/pytest.log" | tail -5
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    ;;
  api)
    log "scripts/bench-api.sh"
    WM_BUILD_DIR="$build" WM_OUT="$out" bash scripts/bench-api.sh --device gpu 2>&1 |
      tee "$out/bench-api.log" | tail -8
    ;;
  bfs-gpus)
    log "scripts/bench-bfs-gpus.sh"
    WM_BIN="$build/warpmatch" WM_OUT="$out" bash scripts/bench-bfs-gpus.sh 2>&1 |
      tee "$out/bench-bfs-gpus.log" | tail -20
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    ;;
  motifs)
    log "scripts/bench-motifs.sh"
    esc=()
    [ -d .gpu-data/escape ] && esc=(--escape "$PWD/.gpu-data/escape")
    WM_BIN="$build/warpmatch" WM_OUT="$out" bash scripts/bench-motifs.sh "${esc[@]}" 2>&1 |
      tee "$out/bench-motifs.log" | tail -40
    ;;
  planner)
    # the planner online on the corpus's timed cells (issue 44): the graphs the
    # newest timings name, made here, then planner-judge.py --count gpu
    timings=scripts/bench-planner/timings-h200-2026-11-30
    corpus=${WM_PLANNER_CORPUS:-/tmp/wm-corpus}
    log "planner: scripts/make-corpus.sh $corpus"
    ONLY="$(cut -f1 "$timings/corpus.tsv" | tail -n +2 | tr '\n' ' ')" WM_BIN="$build/warpmatch" \
      bash scripts/make-corpus.sh "$corpus" >"$out/corpus.log" 2>&1 || { tail -5 "$out/corpus.log"; status=1; continue; }
    log "planner: scripts/planner-judge.py --count gpu"
    WM_BIN="$build/warpmatch" python3 scripts/planner-judge.py --corpus "$corpus" --count gpu --list \
      "$timings"/*-orders.csv scripts/bench-planner/timings-h200-2026-12-01/*-orders.csv \
      scripts/bench-planner/timings-h200-2026-12-02/*-orders.csv 2>&1 |
      tee "$out/planner-judge.log" | tail -11
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    ;;
  significance)
    # per random graph: the CPU's chains against the GPU's edge switching (1 GPU, then every GPU)
    ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
    for dev in "cpu 1" "gpu 1" "gpu $ngpu"; do
      read -r d n <<<"$dev"
      log "scripts/bench-significance.sh --device $d --gpus $n"
      WM_BIN="$build/warpmatch" bash scripts/bench-significance.sh --device "$d" --gpus "$n" --nx-graphs 0 2>&1 |
        tee "$out/bench-significance-$d-$n.log" | tail -5
      [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    done
    ;;
  multi)
    bin="$build/warpmatch"
    ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
    if [ "$ngpu" -lt 2 ]; then
      log "multi: $ngpu GPU(s) here, 2 needed: skipped"
      continue
    fi
    work=${WM_MULTI_WORK:-/tmp/wm-multi} # the graphs are GBs: not under $OUT, which comes back
    s24=${WM_MULTI_SCALE:-24}
    s5=${WM_MULTI_SCALE5:-20}
    mkdir -p "$work" "$out/multi"
    for s in "$s24" "$s5"; do
      [ -f "$work/kron-$s.wmg" ] && continue
      log "multi: gen kron --scale $s"
      "$bin" gen kron --scale "$s" --seed 1 --output "$work/kron-$s.wmg" >"$out/multi/gen-$s.log" 2>&1 ||
        { tail -5 "$out/multi/gen-$s.log"; status=1; continue 2; }
    done
    counts=1 # 1, 2, 4, 8 up to the GPUs present
    for k in 2 4 8; do [ "$k" -le "$ngpu" ] && counts="$counts $k"; done
    # label | graph | command and its options (each run adds --gpus N --json --quiet)
    runs=("triangle|kron-$s24|count --pattern triangle --trials 3 --dump-plan"
      "4-clique|kron-$s24|count --pattern 4-clique --trials 3 --dump-plan"
      "5-motifs|kron-$s5|motifs --size 5 --trials 1"
      "4-motifs|kron-$s24|motifs --size 4 --trials 1")
    for r in "${runs[@]}"; do
      IFS='|' read -r label graph cmd <<<"$r"
      for n in $counts; do
        log "multi: $label on $graph, --gpus $n"
        # shellcheck disable=SC2086 # cmd is a word list
        "$bin" $cmd "$work/$graph.wmg" --device gpu --gpus "$n" --json --quiet \
          >"$out/multi/$label-$n.json" 2>"$out/multi/$label-$n.err" ||
          { echo "multi: $label --gpus $n failed (exit $?):"; tail -5 "$out/multi/$label-$n.err"; status=1; }
      done
    done
    python3 - "$out/multi" "$counts" "${runs[@]}" <<'PY' | tee "$out/multi.txt" || status=1
import json, sys
d, counts, runs = sys.argv[1], [int(c) for c in sys.argv[2].split()], sys.argv[3:]
def load(label, n):
    try:
        return json.load(open(f"{d}/{label}-{n}.json"))
    except Exception:
        return None
def counts(j):  # count: the count; motifs: every class's count
    return j.get("count") if "count" in j else [m["count"] for m in j.get("motifs", [])]
def split(j):  # how the work went over the GPUs, from the launch description
    plan = j.get("plan")
    how = j.get("how", "") + (plan.get("launch", "") if isinstance(plan, dict) else "")
    return "dynamic" if "dynamically" in how else "static" if "statically" in how else "-"
print(f"{'pattern':10} {'graph':9} {'GPUs':>4} {'kernel ms':>12} {'speed-up':>8}  counts equal  split")
bad = 0
for r in runs:
    label, graph = r.split("|")[:2]
    one = load(label, 1)
    for n in counts:
        j = load(label, n)
        if not j or not one:
            print(f"{label:10} {graph:9} {n:>4} {'failed':>12}")
            bad = 1
            continue
        same = counts(j) == counts(one)
        bad |= not same
        up = one["kernel_ms"] / j["kernel_ms"] if j.get("kernel_ms") else 0
        print(f"{label:10} {graph:9} {n:>4} {j['kernel_ms']:>12.1f} {up:>7.2f}x  {'yes' if same else 'NO':12}  {split(j)}")
sys.exit(bad)
PY
    ;;
  *)
    echo "gpu-check: unknown stage '$stage'" >&2
    exit 2
    ;;
  esac
done
exit $status
