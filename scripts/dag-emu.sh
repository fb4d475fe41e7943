#!/usr/bin/env bash
# Runs the GPU triangle, clique and diamond kernels (matcher/dag/gpu_*_kernel.cu, one per
# row of dag_kernels.def, driven by gpu_dag.cu) on the CPU emulator of
# scripts/bfs-emu/ and checks every count against brute force
# (scripts/dag-emu/check.cpp): k = 3..DAG_EMU_KMAX on graphs the checker
# builds and on any edge-list files given, in file order and by degree.
# Two builds: the real policy constants, and tiny ones that reach every
# path on small graphs (heavy items, rows searched without a table,
# matrices and level sets in device memory); the tiny build also runs with
# little "device memory", so that the clique pool goes in batches and a
# pivot too large for it is declined, on two devices, and as processes
# sharing the work (o.share: one static deal over every process's
# devices, the processes run one after another, their counts added; and
# two of them with one interrupted, which must end both interrupted, with
# the same sums made: scripts/bfs-emu/include/emu_stop_share.h).  As
# with bfs-emu, this checks indexing, barriers and the host driver without
# a GPU, not races or speed.
#
#   bash scripts/dag-emu.sh [EDGE_LIST ...]
# Environment: WM_EMU_BUILD (default build-dag-emu), DAG_EMU_KMAX (default 6),
# DAG_EMU_QUICK (1: the tiny build alone, two runs side by side).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WM_EMU_BUILD:-$repo/build-dag-emu}"
emu="$repo/scripts/bfs-emu"

# The host library without CUDA (bfs-emu/emu_lib.sh).
. "$repo/scripts/bfs-emu/emu_lib.sh"
lib=$(emu_lib "$build")

san=(-fsanitize=address,undefined -fno-omit-frame-pointer)
inc=(-I"$emu/include" -I"$repo/matcher" -I"$repo/matcher/dag" -I"$repo/device" -I"$repo/datasets" -I"$repo/base" -I"$repo/planner" -I"$repo/patterns")
tiny=(-DWM_CLQ_LIGHT_D=4 -DWM_CLQ_ROWS=3 -DWM_CLQ_BUILD_SLOTS=64 -DWM_CLQ_SMEM_D=8 -DWM_CLQ_STACK_D=32
      -DWM_TRI_SPLIT=4 -DWM_TRI_LIGHT_SLOTS=32 -DWM_TRI_HEAVY_SLOTS=64 -DWM_TRI_LIGHT_IN=4 -DWM_TRI_LIGHT_IN_MIN=2
      -DWM_TRI_LIGHT_BITS=4 -DWM_TRI_HEAVY_BITS=8 -DWM_TRI_NARROW=200u -DWM_TRI_NARROW_MIN_ARCS=0
      -DWM_DIA_SPLIT=4 -DWM_DIA_LONG=8u)

# One checker binary; $1 names it, the rest are -D flags for every source
# (the host split must see the same constants as the kernels).
build_checker() {
  local name=$1; shift
  local out="$build/$name"
  mkdir -p "$out/src" "$out/obj"
  # every kernel family (dag_kernels.def's rows, one gpu_<family>_kernel.cu each), their driver
  local kernels
  kernels=$(cd "$repo" && ls matcher/dag/gpu_*_kernel.cu | sed 's/\.cu$//')
  for f in $kernels matcher/dag/gpu_dag device/gpu_check; do
    # k<<<g, b, smem, stream>>>(args);  ->  emu_launch(emu_cfg(g, b, smem, stream), <k(args)>);
    # the arguments copied at the launch, as CUDA does: a captured launch runs later.
    sed -E \
      -e 's/^([[:space:]]*)([A-Za-z_][A-Za-z_0-9]*(<[^<>]*>)?)<<<(.*)>>>\((.*)\);/\1emu_launch(emu_cfg(\4), [emu_args = std::make_tuple(\5)]() { std::apply([](auto... x) { \2(x...); }, emu_args); });/' \
      -e 's/extern __shared__ ([A-Za-z_0-9]+) ([A-Za-z_0-9]+)\[\];/\1 *\2 = (\1 *)emu_dyn_smem();/' \
      -e 's/__shared__/static/g' \
      "$repo/$f.cu" >"$out/src/$(basename "$f").cpp"
  done
  if grep -n '<<<' "$out"/src/*.cpp; then echo "dag-emu: a launch was not rewritten" >&2; exit 1; fi
  local objs=()
  for f in "$out"/src/*.cpp "$emu/emu_runtime.cpp" "$emu/emu_stop.cpp" "$repo/scripts/dag-emu/check.cpp" "$repo/scripts/dag-emu/hold.cpp"; do
    local o="$out/obj/$(basename "$f" .cpp).o"
    g++ -std=c++17 -O1 -g -w "$@" "${san[@]}" "${inc[@]}" -c "$f" -o "$o"
    objs+=("$o")
  done
  # Linked ahead of the library, so its own dag_split.o (default constants) is not pulled in.
  gcc -std=c11 -O1 -g -fopenmp "$@" "${san[@]}" "${inc[@]}" -c "$repo/matcher/dag/dag_split.c" -o "$out/obj/dag_split.o"
  g++ "${san[@]}" -o "$out/check" "${objs[@]}" "$out/obj/dag_split.o" "$lib" \
    $(pkg-config --libs libxxhash zlib) -fopenmp -lm
}

# DAG_EMU_QUICK=1: the tiny build alone, once on one device (k up to 5, the
# counts starting at 2^64 - 3 so that they carry into their high words) and
# once as 2 processes of --gpus 2 with little memory (k up to 4), side by
# side (CI's smoke run, scripts/emu-smoke.sh)
quick=${DAG_EMU_QUICK:-0}
[ "$quick" = 1 ] || build_checker real
build_checker tiny "${tiny[@]}"

# ucontext stacks confuse ASan's stack-use-after-return bookkeeping; leaks of
# the harness are not the point here.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_stack_use_after_return=0:detect_leaks=0}"
export EMU_SMEM_OPTIN="${EMU_SMEM_OPTIN:-262144}" # the real count kernel takes ~56 KiB
if [ "$quick" = 1 ]; then # the two runs side by side, k up to 5 and 4
  # the first with the device counts starting at 2^64 - 3 (exact_count.h), so that they carry
  WM_TEST_COUNT_START=18446744073709551613 DAG_EMU_KMAX=5 "$build/tiny/check" "$@" >"$build/quick1.log" 2>&1 &
  one=$!
  DAG_EMU_KMAX=4 EMU_DEVICES=2 DAG_EMU_GPUS=2 DAG_EMU_PROCS=2 EMU_FREE_BYTES=4000 "$build/tiny/check" "$@" \
    >"$build/quick2.log" 2>&1 &
  two=$!
  bad=0
  wait $one || bad=1
  wait $two || bad=1
  echo "== tiny constants, k up to 5, counts from 2^64 - 3"
  cat "$build/quick1.log"
  echo "== tiny constants, 2 processes of --gpus 2 each, 4 KB of device memory, k up to 4"
  cat "$build/quick2.log"
  exit $bad
fi
echo "== real constants"
"$build/real/check" "$@"
echo "== tiny constants"
"$build/tiny/check" "$@"
echo "== tiny constants, 4 KB of device memory (pool batches, declined pivots)"
EMU_FREE_BYTES=4000 "$build/tiny/check" "$@"
# Two emulated devices run one after the other: the first takes every chunk
# of a shared counter, so these check the indexing of both deals (the
# shared counters and the round-robin one), not their interleaving.
echo "== tiny constants, --gpus 2, work counters shared by the devices"
EMU_DEVICES=2 DAG_EMU_GPUS=2 "$build/tiny/check" "$@"
echo "== tiny constants, --gpus 2, no peer atomics (static deal)"
EMU_DEVICES=2 EMU_P2P=0 DAG_EMU_GPUS=2 "$build/tiny/check" "$@"
echo "== tiny constants, --gpus 2, 4 KB of device memory (pool batches over two devices)"
EMU_DEVICES=2 DAG_EMU_GPUS=2 EMU_FREE_BYTES=4000 "$build/tiny/check" "$@"
# Processes sharing the work (o.share), run one after the other: each takes
# its place in one static deal over every process's devices, and their
# counts must add up; with little memory their pool batches are cut apart
# from the deal.
echo "== tiny constants, 3 processes sharing the deal"
DAG_EMU_PROCS=3 "$build/tiny/check" "$@"
echo "== tiny constants, 2 processes of --gpus 2 each, 4 KB of device memory"
EMU_DEVICES=2 DAG_EMU_GPUS=2 DAG_EMU_PROCS=2 EMU_FREE_BYTES=4000 "$build/tiny/check" "$@"
