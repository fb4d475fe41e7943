#!/usr/bin/env bash
# The GPU kernels on the CPU emulator (scripts/bfs-emu/), a short run of each
# emulator for CI, where no GPU runs them: the motif aggregates on one
# emulated device under every policy of tests/matcher/test_gpu_motifs.c,
# and shared by two processes of which one is interrupted (motif-emu.sh,
# runs 0 and 5), the orbits' aggregates and the 5-vertex orbits' clique
# sums, 5-cycles and per-vertex walks (orbit-emu.sh, quick: on an
# Erdos-Renyi graph, two hub graphs whose tops and edges go to blocks, K12,
# two triangles and the 2-vertex graph; then a hub graph and two triangles
# with the 5-vertex pieces dealt over two emulated devices), the triangle, clique and diamond kernels with tiny
# policy constants on one device and as two processes of two devices,
# one of them interrupted too (dag-emu.sh, DAG_EMU_QUICK=1), and the BFS
# suites' small graphs on one and three emulated GPUs and two processes of
# which one is interrupted, the small-level kernel's tiers by turns and
# interrupted (bfs-emu.sh with a filter), the deep-level kernel's exits
# (with 64 KiB of shared memory a block), and the GPU's edge switching
# (rand-emu.sh, whole: a few minutes).  Each checks indexing,
# barriers, warp collectives and the host drivers against brute force or the
# CPU, not races or speed; the full runs are the scripts themselves.
#
#   bash scripts/emu-smoke.sh
# Environment: WM_EMU_BUILD (a folder for the builds; default
# build-emu-smoke).  Exits non-zero when a build or a check fails.
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
base="${WM_EMU_BUILD:-$repo/build-emu-smoke}"
mkdir -p "$base"
status=0
STAGE_PREFIX=emu-smoke
# shellcheck source=scripts/stage.sh
. "$repo/scripts/stage.sh"
step() {
  local name=$1; shift
  stage_quiet "$name" "$base/$name.log" "$@"
}
# Two lanes, for two cores (the emulated kernels run on one thread each):
# the densest orbit graph, the two-device run (one build folder between
# them, so one after the other) and the BFS runs beside the rest, with the
# other orbit graphs in a build of their own; the orbit
# runs quick (ORBIT_EMU_QUICK=1: the blocks' and the walks' runs on each
# graph as built only), and hub(700) on two devices only.  A script's second
# run on a build folder compiles only what changed (emu_cc, emu_lib.sh).
# Seen on two cores (CI, 2026-12-02): orbit dense 334 s, two devices 150,
# BFS 77 + 11; other orbits 160, motifs 180, DAG kernels 194, edge
# switching 30.
orbit_lane() {
  local rc=0
  step orbit-emu-dense env WM_EMU_BUILD="$base/orbit" ORBIT_EMU_QUICK=1 ORBIT_EMU_ONLY="2 hubs over" \
    bash "$repo/scripts/orbit-emu.sh" || rc=1
  step orbit-emu-2gpus env WM_EMU_BUILD="$base/orbit" ORBIT_EMU_QUICK=1 EMU_DEVICES=2 EMU_P2P=0 \
    ORBIT_EMU_ONLY="hub(700|two triangles" bash "$repo/scripts/orbit-emu.sh" || rc=1
  step bfs-emu env WM_EMU_BUILD="$base/bfs" bash "$repo/scripts/bfs-emu.sh" \
    --filter 'gpu_bfs*/@(er_connected|powerlaw|grid|path|er|hub|tiny|processes_interrupted|layers|interrupted)' || rc=1
  # shared memory enough for the deep-level kernel's bitmap (the default 24 KiB holds no graph's)
  step bfs-emu-deep env WM_EMU_BUILD="$base/bfs" EMU_SMEM_OPTIN=65536 bash "$repo/scripts/bfs-emu.sh" \
    --filter 'gpu_bfs/@(grid|path|target|interrupted|deep*)' || rc=1
  return $rc
}
other_lane() {
  local rc=0
  step orbit-emu env WM_EMU_BUILD="$base/orbit-b" ORBIT_EMU_QUICK=1 \
    ORBIT_EMU_ONLY="er(40|powerlaw(400, 2 hubs|K12|two triangles|edge(2)" bash "$repo/scripts/orbit-emu.sh" || rc=1
  step motif-emu env WM_EMU_BUILD="$base/motif" MOTIF_EMU_RUNS="0 5" bash "$repo/scripts/motif-emu.sh" || rc=1
  step dag-emu env WM_EMU_BUILD="$base/dag" DAG_EMU_QUICK=1 bash "$repo/scripts/dag-emu.sh" || rc=1
  step rand-emu env WM_EMU_BUILD="$base/rand" bash "$repo/scripts/rand-emu.sh" || rc=1
  return $rc
}
# The host library without CUDA, built once for every run (bfs-emu/emu_lib.sh).
step lib env -u WM_EMU_LIB bash -c '. "$1/scripts/bfs-emu/emu_lib.sh" && repo=$1 && emu_lib "$2"' emu-lib "$repo" "$base" || exit 1
export WM_EMU_LIB="$base/lib"
orbit_lane &
orbit_pid=$!
other_lane || status=1
wait "$orbit_pid" || status=1
exit $status
