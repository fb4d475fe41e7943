#!/usr/bin/env bash
# Runs the orbits' GPU aggregates (matcher/orbits/gpu_orbit_sums.cu: the
# triangles per arc, 4-cliques, 4-cycle and diamond sums per vertex), the
# 5-vertex orbits' GPU clique sums and 5-cycles
# (matcher/orbits/gpu_orbit_cliques5.cu, gpu_orbit_cycles5.cu, with the
# gpu_motif_*.cuh, gpu_orbit_warps.cuh, gpu_orbit_rank.cuh and
# gpu_orbit_devices.cuh they include) and their per-vertex walks
# (gpu_orbit_walks5.cu), with device/gpu_check.cu, device/gpu_graph.cu and
# device/gpu_stage.cu (the walks' copies, in chunks of 333 bytes here),
# on the CPU emulator of scripts/bfs-emu/ and checks
# them against their CPU oracles exactly (scripts/orbit-emu/check.cpp says on
# which graphs; check_walks.cpp the walks value by value and the 5-vertex
# counts with every piece on the emulated GPU).  As motif-emu.sh: the .cu files are rewritten by
# sed (launches into emu_launch, __shared__ into statics), and what this
# checks is indexing, barriers, warp collectives and the host side, not
# races or speed (blocks run one after another).
#
#   bash scripts/orbit-emu.sh [EDGE_LIST ...]
# Environment: WM_EMU_BUILD (default build-orbit-emu), EMU_SMS (emulated
# SMs, default 2), ORBIT_EMU_ONLY=TEXT|TEXT|... (only the built graphs whose
# name holds one of them), ORBIT_EMU_QUICK=1 (the runs with every top on
# the blocks, and the walks, on each graph as built only: check.cpp),
# EMU_DEVICES=N (the 5-vertex pieces over N
# emulated devices; EMU_P2P=0: dealt statically, without shared counters;
# EMU_DEFER_DEVICE=0: device 0's work held back until waited for, so that
# the others take the shared counters' items first).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WM_EMU_BUILD:-$repo/build-orbit-emu}"
emu="$repo/scripts/bfs-emu"
mkdir -p "$build/src" "$build/obj"

# The host library without CUDA (bfs-emu/emu_lib.sh).
. "$repo/scripts/bfs-emu/emu_lib.sh"
lib=$(emu_lib "$build")

# The CUDA sources as C++ (bfs-emu/emu_rewrite.sh), into $build/src, where
# the .cu files' #include "..." find the rewritten headers first.
. "$emu/emu_rewrite.sh"
kept=" "
for f in matcher/orbits/gpu_orbit_cliques5.cu matcher/orbits/gpu_orbit_cycles5.cu matcher/orbits/gpu_orbit_sums.cu \
         matcher/orbits/gpu_orbit_walks5.cu device/gpu_check.cu device/gpu_graph.cu device/gpu_stage.cu \
         matcher/orbits/gpu_orbit_warps.cuh \
         matcher/orbits/gpu_orbit_devices.cuh matcher/orbits/gpu_orbit_rank.cuh \
         "$repo"/matcher/motifs/gpu_motif_*.cuh; do
  f=${f#"$repo/"}
  out="$build/src/$(basename "$f")"
  case $f in *.cu) out="${out%.cu}.cpp" ;; esac
  emu_rewrite "$repo/$f" "$out"
  kept+="$out "
done
for f in "$build"/src/*.cpp "$build"/src/*.cuh; do [[ $kept == *" $f "* ]] || rm -f "$f"; done
if grep -n '<<<' "$build"/src/*.cpp "$build"/src/*.cuh; then echo "orbit-emu: a launch was not rewritten" >&2; exit 1; fi

san=(-fsanitize=address,undefined -fno-omit-frame-pointer)
inc=(-I"$emu/include" -I"$repo/matcher" -I"$repo/matcher/motifs" -I"$repo/matcher/orbits" -I"$repo/device"
     -I"$repo/datasets" -I"$repo/base" -I"$repo/planner" -I"$repo/patterns")
objs=() pids=()
for f in "$build"/src/*.cpp "$emu/emu_runtime.cpp" "$emu/emu_stop.cpp" "$repo"/scripts/orbit-emu/check*.cpp; do
  o="$build/obj/$(basename "$f" .cpp).o"
  emu_cc "$o" g++ -std=c++17 -O1 -g -w "${san[@]}" "${inc[@]}" -c "$f" -o "$o" &
  objs+=("$o") pids+=($!)
  if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p"; done
g++ "${san[@]}" -o "$build/check" "${objs[@]}" "$lib" $(pkg-config --libs libxxhash zlib) -fopenmp -lm

# ucontext stacks confuse ASan's stack-use-after-return bookkeeping; leaks of
# the harness are not the point here.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_stack_use_after_return=0:detect_leaks=0}"
export EMU_SMS="${EMU_SMS:-2}"
# the walks' copies through the stage in chunks of a few hundred bytes
# (device/gpu_stage.cu: every chunk, the odd ends, both halves in turn)
export WM_TEST_STAGE_CHUNK="${WM_TEST_STAGE_CHUNK:-333}"
"$build/check" "$@"
