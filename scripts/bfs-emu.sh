#!/usr/bin/env bash
# Runs the GPU BFS (traversal/*.cu) and its test suites (tests/traversal/test_gpu_bfs.c,
# and tests/traversal/test_gpu_bfs_gpus.c over EMU_DEVICES emulated GPUs joined by an
# emulated NCCL)
# on a CPU emulator of the CUDA features the kernels use (scripts/bfs-emu/):
# every CUDA thread is a coroutine, __syncthreads() and warp collectives are
# real barriers (a missing lane or a divergent collective aborts), blocks
# run one by one in random order (a cooperative launch's all together, for
# its grid-wide barrier), device memory starts as garbage, and the
# emulated code is built with AddressSanitizer and UBSan.  It checks the
# kernels' indexing, barriers and the host's level loop without a GPU; it
# does not exercise races between blocks nor measure speed.
#
#   bash scripts/bfs-emu.sh [criterion options, e.g. --filter 'gpu_bfs/grid']
# Environment: WM_EMU_BUILD (default build-bfs-emu), EMU_SMS (emulated SMs,
# default 2), EMU_SEED (block and thread order), EMU_COOPERATIVE (0: no
# cooperative launches), WM_BFS_TEST_MAX_SCALE
# (largest Kronecker scale of the suite, default here 14), WM_BFS_TEST_QUICK
# (smaller deep graphs, default here 1), EMU_SMEM_OPTIN (shared memory per
# block, default here 24 KiB), EMU_CLUSTER (most blocks of a cluster, default
# 8), EMU_FREE_BYTES (device memory reported free),
# EMU_DEVICES (emulated GPUs, default here 3: three unequal parts).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WM_EMU_BUILD:-$repo/build-bfs-emu}"
emu="$repo/scripts/bfs-emu"
mkdir -p "$build/src" "$build/obj"

# The host library without CUDA (bfs-emu/emu_lib.sh).
. "$repo/scripts/bfs-emu/emu_lib.sh"
lib=$(emu_lib "$build")

# k<<<g, b, smem, stream>>>(args);  ->  emu_launch(emu_cfg(g, b, smem, stream), [&]() { k(args); });
for f in "$repo"/traversal/*.cu; do
  sed -E \
    -e 's/^([[:space:]]*)([A-Za-z_][A-Za-z_0-9]*(<[^<>]*>)?)<<<(.*)>>>\((.*)\);/\1emu_launch(emu_cfg(\4), [\&]() { \2(\5); });/' \
    -e 's/extern __shared__ ([A-Za-z_0-9]+) ([A-Za-z_0-9]+)\[\];/\1 *\2 = (\1 *)emu_dyn_smem();/' \
    -e 's/__shared__/static/g' \
    "$f" | emu_put "$build/src/$(basename "$f" .cu).cpp"
done
if grep -n '<<<' "$build"/src/*.cpp; then echo "bfs-emu: a launch was not rewritten" >&2; exit 1; fi

san=(-fsanitize=address,undefined -fno-omit-frame-pointer)
inc=(-I"$emu/include" -I"$repo/traversal" -I"$repo/device" -I"$repo/datasets" -I"$repo/base" -I"$repo/matcher" -I"$repo/planner" -I"$repo/patterns")
objs=()
for f in "$build"/src/*.cpp "$emu/emu_runtime.cpp" "$emu/emu_nccl.cpp" "$emu/emu_fault.cpp" "$emu/emu_stop.cpp"; do
  o="$build/obj/$(basename "$f" .cpp).o"
  emu_cc "$o" g++ -std=c++17 -DWM_HAVE_NCCL=1 -DWM_BFS_CLUSTER_BLOCK=256 -O1 -g -Wall -Wno-unused-function -Wno-unknown-pragmas "${san[@]}" "${inc[@]}" -c "$f" -o "$o"
  objs+=("$o")
done
for f in traversal/test_gpu_bfs traversal/test_gpu_bfs_gpus testutil gpu_main; do
  emu_cc "$build/obj/t_${f##*/}.o" gcc -std=c11 -O1 -g -Wall "${san[@]}" "${inc[@]}" -I"$repo/tests" \
    -DWM_TEST_GRAPHS="\"$repo/datasets/real\"" -DWM_TEST_PATTERNS="\"$repo/patterns\"" -DWM_SOURCE_DIR="\"$repo\"" -DWM_BIN="\"/bin/false\"" \
    -c "$repo/tests/$f.c" -o "$build/obj/t_${f##*/}.o"
  objs+=("$build/obj/t_${f##*/}.o")
done
g++ "${san[@]}" -o "$build/test_gpu_bfs_emu" "${objs[@]}" "$lib" \
  $(pkg-config --libs criterion libxxhash zlib) -fopenmp -lm

export WM_BFS_TEST_MAX_SCALE="${WM_BFS_TEST_MAX_SCALE:-14}" WM_BFS_TEST_QUICK="${WM_BFS_TEST_QUICK:-1}"
# 24 KiB of shared memory per block: the small-level kernel's frontier holds
# ~450 vertices, so the quick graphs still overflow it.  A cooperative launch
# (the small-level kernel's grid tier) runs one block per emulated SM
# (EMU_SMS), all of them interleaved; EMU_COOPERATIVE=0: a device without.
export EMU_SMEM_OPTIN="${EMU_SMEM_OPTIN:-24576}" EMU_DEVICES="${EMU_DEVICES:-3}"
# Clusters of at most 8 blocks (the cluster search's), of 256 threads
# (-DWM_BFS_CLUSTER_BLOCK above): the emulated threads of a launch, all
# interleaved, switch at every barrier of the quick graphs' hundreds of
# levels; at 8 blocks a graph of up to about 7,000 vertices (facebook's
# 4,039) fits 24 KiB a block.
export EMU_CLUSTER="${EMU_CLUSTER:-8}"
# ucontext stacks confuse ASan's stack-use-after-return bookkeeping; leaks of
# the test harness are not the point here.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_stack_use_after_return=0:detect_leaks=0}"
exec "$build/test_gpu_bfs_emu" --jobs="${EMU_JOBS:-2}" "$@"
