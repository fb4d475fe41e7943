#!/usr/bin/env bash
# Runs the 5-vertex orbits' per-vertex walks on the GPU
# (matcher/orbits/gpu_orbit_walks5.cu, with device/gpu_check.cu and
# device/gpu_graph.cu) on the CPU emulator of scripts/bfs-emu/ and checks
# wm_o5n_walks_gpu against wm_o5n_walks_cpu (the oracle) value by value,
# exactly, and the non-induced counts with the walks on each
# (scripts/orbit-emu/check_walks.cpp says on which graphs).  As with
# motif-emu, this checks indexing, barriers, warp collectives and the host
# driver without a GPU, not races or speed: blocks run one by one, so the
# first block takes every vertex.
#
#   bash scripts/orbit-emu-walks.sh [EDGE_LIST ...]
# Environment: WM_EMU_BUILD (default build-orbit-emu-walks), EMU_SMS
# (emulated SMs, default 2), ORBIT_EMU_ONLY (check only the built graphs
# whose name holds it).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WM_EMU_BUILD:-$repo/build-orbit-emu-walks}"
emu="$repo/scripts/bfs-emu"
mkdir -p "$build/src" "$build/obj"

# The host library without CUDA (its stand-in wm_o5n_walks_gpu is not
# pulled in: the emulated one is linked ahead of it).
cmake -S "$repo" -B "$build/lib" -DWM_ENABLE_CUDA=OFF -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build "$build/lib" --target warpmatch_lib -j2 >/dev/null

# The launch rewrite of scripts/motif-emu.sh (which says why each part).
for f in matcher/orbits/gpu_orbit_walks5.cu device/gpu_check.cu device/gpu_graph.cu; do
  out="$build/src/$(basename "${f%.cu}").cpp"
  sed -z -E \
    -e 's/([A-Za-z_][A-Za-z_0-9]*(<[^<>;]*>)?)<<<([^;>]*)>>>\(([^;]*)\);/{ auto emu_k = \1; emu_params_t<decltype(emu_k)> emu_a(\4); emu_launch(emu_cfg(\3), [emu_k, emu_a]() { std::apply(emu_k, emu_a); }); }/g' \
    -e 's/extern __shared__ ([A-Za-z_0-9]+) ([A-Za-z_0-9]+)\[\];/\1 *\2 = (\1 *)emu_dyn_smem();/g' \
    -e 's/__shared__/static/g' \
    "$repo/$f" >"$out"
done
if grep -n '<<<' "$build"/src/*.cpp; then echo "orbit-emu-walks: a launch was not rewritten" >&2; exit 1; fi

san=(-fsanitize=address,undefined -fno-omit-frame-pointer)
inc=(-I"$emu/include" -I"$repo/matcher" -I"$repo/matcher/orbits" -I"$repo/device" -I"$repo/datasets" -I"$repo/base" -I"$repo/planner" -I"$repo/patterns")
objs=() pids=()
for f in "$build"/src/*.cpp "$emu/emu_runtime.cpp" "$emu/emu_stop.cpp" "$repo/scripts/orbit-emu/check_walks.cpp"; do
  o="$build/obj/$(basename "$f" .cpp).o"
  g++ -std=c++17 -O1 -g -w "${san[@]}" "${inc[@]}" -c "$f" -o "$o" &
  objs+=("$o") pids+=($!)
  if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p"; done
g++ "${san[@]}" -o "$build/check" "${objs[@]}" "$build/lib/libwarpmatch.a" $(pkg-config --libs libxxhash zlib) -fopenmp -lm

# ucontext stacks confuse ASan's stack-use-after-return bookkeeping; leaks of
# the harness are not the point here.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_stack_use_after_return=0:detect_leaks=0}"
export EMU_SMS="${EMU_SMS:-2}"
if "$build/check" "$@"; then echo "orbit-emu-walks: passes"; else echo "orbit-emu-walks: FAILED (see above)"; exit 1; fi
