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
# (scripts/bench-bfs-gpus.sh).  Logs and CSVs go to $OUT
# (or ./gpu-out) and a short table is printed last.
# The real graphs are read from $WM_SHARED_DATASETS (default .gpu-data, a
# git-ignored copy of ../shared/datasets carried with the call, since the
# folder beside the checkout does not travel).
set -uo pipefail
out=${OUT:-gpu-out}
mkdir -p "$out"
build=${WM_BUILD_DIR:-build-gpu-host}
data=${WM_SHARED_DATASETS:-$PWD/.gpu-data}
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
      -DWM_SHARED_DATASETS="$data" >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
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
    WM_BUILD_DIR="$build" WM_OUT="$out" WM_SHARED_DATASETS="$data" bash scripts/bench-api.sh --device gpu 2>&1 |
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
  *)
    echo "gpu-check: unknown stage '$stage'" >&2
    exit 2
    ;;
  esac
done
exit $status
