#!/usr/bin/env bash
# Runs the GPU motif aggregates (matcher/motifs/gpu_motif_sums.cu and the
# gpu_motif_*.cuh it includes, with device/gpu_check.cu) on the CPU
# emulator of scripts/bfs-emu/ and checks wm_motif_sums_gpu against
# wm_motif_sums_cpu (the oracle) sum by sum, exactly, for sizes 4 and 5
# (scripts/motif-emu/check.cpp): small
# Erdos-Renyi graphs, a power-law graph, a hub over a sparse graph, a star,
# K12, an empty graph, 2- and 3-vertex graphs and any edge-list files given,
# each renumbered by degree; with the policies of tests/matcher/test_gpu_motifs.c
# (the defaults, 4 warps with the pair lists in chunks, a tight scratch with
# a layout per kernel, heavy tops of 64 paths and of 1 swept by 32-warp
# blocks; then the defaults (twice: the second call takes the scratch the
# first kept with the graph) and the tight scratch with the graph kept on the
# devices, whose memory pools hand the second its blocks back as the first
# left them), on one emulated device, then with --gpus 2 on two (work counters
# shared) with device 0 first and again with device 1 first
# (EMU_DEFER_DEVICE=0 holds device 0's work until the host waits on it),
# then on two without peer atomics (one device, with a note), then split
# between 2 and 3 processes (policy.share: windows of each pass, the
# processes run one after another, each taking every P-th window; their
# sums added must equal the CPU's), then 2 such processes with process 1
# interrupted (before the call, at a window): both must return
# interrupted, make the same sums and process 0 take no window after
# process 1 halted them (scripts/bfs-emu/include/emu_stop_share.h).  As
# with bfs-emu and dag-emu, this checks indexing, barriers, warp collectives
# and the host driver without a GPU, not races or speed: blocks run one by
# one, so the first block to grab from a counter takes its every item, and
# of two devices the first to run takes every shared item.
#
#   bash scripts/motif-emu.sh [EDGE_LIST ...]
# Environment: WM_EMU_BUILD (default build-motif-emu), EMU_SMS (emulated
# SMs, default 2: the defaults then run 32 to 64 warps, enough for the 32-warp
# block kernels), MOTIF_EMU_WARPS (a cap on the warps of the policies that
# leave them to the device; default none), MOTIF_EMU_RUNS (the runs to make, by
# index into the list above: default "0 1 2 3 4 5").
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WM_EMU_BUILD:-$repo/build-motif-emu}"
emu="$repo/scripts/bfs-emu"
mkdir -p "$build/src" "$build/obj"

# The host library without CUDA (bfs-emu/emu_lib.sh).
. "$repo/scripts/bfs-emu/emu_lib.sh"
lib=$(emu_lib "$build")

# The CUDA sources as C++ (bfs-emu/emu_rewrite.sh says how); the .cuh
# beside gpu_motif_sums.cu go through the same rewrite, into $build/src,
# where its #include "..." finds them first.
. "$emu/emu_rewrite.sh"
rm -f "$build"/src/*.cuh
for f in matcher/motifs/gpu_motif_sums.cu device/gpu_check.cu device/gpu_graph.cu "$repo"/matcher/motifs/gpu_motif_*.cuh; do
  f=${f#"$repo/"}
  out="$build/src/$(basename "$f")"
  case $f in *.cu) out="${out%.cu}.cpp" ;; esac
  emu_rewrite "$repo/$f" "$out"
done
if grep -n '<<<' "$build"/src/*.cpp "$build"/src/*.cuh; then echo "motif-emu: a launch was not rewritten" >&2; exit 1; fi

san=(-fsanitize=address,undefined -fno-omit-frame-pointer)
inc=(-I"$emu/include" -I"$repo/matcher" -I"$repo/matcher/motifs" -I"$repo/device" -I"$repo/datasets" -I"$repo/base" -I"$repo/planner" -I"$repo/patterns")
objs=() pids=()
for f in "$build"/src/*.cpp "$emu/emu_runtime.cpp" "$emu/emu_stop.cpp" "$repo/scripts/motif-emu/check.cpp"; do
  o="$build/obj/$(basename "$f" .cpp).o"
  g++ -std=c++17 -O1 -g -w "${san[@]}" "${inc[@]}" -c "$f" -o "$o" &
  objs+=("$o") pids+=($!)
  if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p"; done
g++ "${san[@]}" -o "$build/check" "${objs[@]}" "$lib" $(pkg-config --libs libxxhash zlib) -fopenmp -lm

# ucontext stacks confuse ASan's stack-use-after-return bookkeeping; leaks of
# the harness are not the point here.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_stack_use_after_return=0:detect_leaks=0}"
export EMU_SMS="${EMU_SMS:-2}"
# Four runs, two at a time (the emulator is single-threaded); each run's
# lines are printed once the pair is done.
names=("one device"
       "--gpus 2 on two devices, work counters shared (device 0 takes every shared item)"
       "--gpus 2 on two devices, device 0's work held until the host waits on it (device 1 takes every shared item)"
       "--gpus 2 on two devices without peer atomics: one device, with a note"
       "processes sharing the passes in windows (2 and 3, run one after another)"
       "2 processes sharing the passes, one interrupted: both end interrupted")
envs=("MOTIF_EMU_SET=one"
      "EMU_DEVICES=2 MOTIF_EMU_SET=two"
      "EMU_DEVICES=2 EMU_DEFER_DEVICE=0 MOTIF_EMU_SET=two"
      "EMU_DEVICES=2 EMU_P2P=0 MOTIF_EMU_SET=fallback"
      "MOTIF_EMU_SET=shared"
      "MOTIF_EMU_SET=interrupt")
# MOTIF_EMU_RUNS: the runs to make, by index (default all; CI's smoke run takes 0 and 5)
runs=" ${MOTIF_EMU_RUNS:-0 1 2 3 4 5} "
bad=0
for pair in "0 2" "1 3" "4 5"; do
  pids=()
  for i in $pair; do
    [[ "$runs" == *" $i "* ]] || continue
    echo "== running: ${names[$i]}"
    env ${envs[$i]} "$build/check" "$@" >"$build/run$i.log" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || bad=1; done
done
for i in $runs; do
  echo "== ${names[$i]}"
  cat "$build/run$i.log"
done
if [ $bad -ne 0 ]; then echo "motif-emu: FAILED (see above)"; exit 1; fi
echo "motif-emu: every run passes"
