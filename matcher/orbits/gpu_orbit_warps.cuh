/* What the 5-vertex orbits' clique and 5-cycle kernels share
 * (gpu_orbit_cliques5.cu, gpu_orbit_cycles5.cu), over the motif passes'
 * device helpers (gpu_motif_device.cuh: rows, searches, warp sums, work
 * counters): a warp's walk over many rows at once, exact 64-bit credits
 * with the wrap caught, and the host's sizing of the warps' scratch and
 * the call's stop word.  Included by each of the two (one translation
 * unit each). */
#pragma once

#include "gpu_check.h"
#include "gpu_motif_device.cuh"

namespace {

typedef unsigned long long ull;

/* Calls term(i, f) for each item i < count and each position f of its
 * stretch [b, e) (range(i, b, e)), and fin(i, s) with s the sum of its
 * terms, by the calling warp: a lane takes each short stretch, and those
 * longer than 64 are taken by the whole warp in turn (then fin on lane
 * 0), so that a hub's row does not hold one lane while the others idle.
 * A warp gw of a group of G takes the items from 32 gw, 32 G at a time. */
template <class Range, class Term, class Fin>
__device__ __forceinline__ void row_walk(uint64_t count, Range range, Term term, Fin fin, unsigned gw = 0,
                                         unsigned G = 1) {
  const int lane = threadIdx.x & 31;
  for (uint64_t i0 = 32 * (uint64_t)gw; i0 < count; i0 += 32 * (uint64_t)G) {
    const uint64_t i = i0 + lane;
    uint64_t b = 0, e = 0;
    if (i < count) range(i, b, e);
    const bool wide = i < count && e - b > 64;
    if (i < count && !wide) {
      i128 s = 0;
      for (uint64_t f = b; f < e; f++) s += term(i, f);
      fin(i, s);
    }
    for (unsigned mask = __ballot_sync(0xffffffffu, wide); mask; mask &= mask - 1) {
      const int leader = __ffs(mask) - 1;
      const uint64_t wi = __shfl_sync(0xffffffffu, i, leader), wb = __shfl_sync(0xffffffffu, b, leader),
                     we = __shfl_sync(0xffffffffu, e, leader);
      i128 s = 0;
      for (uint64_t f = wb + lane; f < we; f += 32) s += term(wi, f);
      s = warp_sum(s);
      if (lane == 0) fin(wi, s);
      __syncwarp();
    }
  }
}

/* A barrier of a group of G warps: the warp, or the block. */
template <int G>
__device__ __forceinline__ void group_barrier() {
  if (G == 1) __syncwarp();
  else __syncthreads();
}

/* *at += x where several warps add; a wrap past 2^64 - 1 sets *overflow
 * (every credit is >= 0, so a wrap anywhere is a total past 2^64 - 1,
 * whatever the order of the adds). */
__device__ __forceinline__ void credit_u64(ull *at, ull x, int *overflow) {
  if (x && atomicAdd(at, x) > ~0ull - x) atomicOr(overflow, 1);
}

/* The same for a sum of several credits, which may pass 2^64 - 1 itself. */
__device__ __forceinline__ void credit_sum(ull *at, i128 x, int *overflow) {
  if (x > (i128)~0ull) atomicOr(overflow, 1);
  else credit_u64(at, (ull)x, overflow);
}

/* Warps for per_warp bytes of scratch each: as many as the device runs
 * (kBlocksPerSm blocks of kWarpsPerBlock per SM) and no more than items
 * need, fewer where they would pass 3/4 of the free memory; whole blocks.
 * 0 with err set where not one block fits. */
inline unsigned warps_fitting(uint64_t per_warp, uint64_t items, const char *what, wm_error *err) {
  int dev = 0, sms = 0;
  size_t free_b = 0, total_b = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) ||
      cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    wm_fail(err, WM_EDEVICE, "orbits (%s): the device's size and free memory could not be read", what);
    return 0;
  }
  uint64_t w = (uint64_t)sms * kBlocksPerSm * kWarpsPerBlock;
  uint64_t need = (items + kWarpsPerBlock - 1) / kWarpsPerBlock * kWarpsPerBlock;
  if (need < kWarpsPerBlock) need = kWarpsPerBlock;
  if (w > need) w = need;
  const uint64_t fit = (uint64_t)(0.75 * (double)free_b) / (per_warp ? per_warp : 1);
  if (w > fit) w = fit;
  w -= w % kWarpsPerBlock;
  if (!w)
    wm_fail(err, WM_EDEVICE, "orbits (%s): device out of memory: %d warps' scratch (%.1f MB each; %.1f MB free)",
            what, kWarpsPerBlock, (double)per_warp / 1e6, (double)free_b / 1e6);
  return (unsigned)w;
}

/* The call's stop word for the work counters (c_stop of gpu_motif_device.cuh)
 * on the current device, and their scope (c_system_scope): system-wide
 * where the devices take from counters in device 0's memory. */
inline int set_stop(wm_error *err, int system = 0) {
  wm_stop *stop = NULL;
  int rc = wm_gpu_stop_word(wm_monitor_current(), &stop, err);
  if (rc) return rc;
  WM_CU(cudaMemcpyToSymbol(c_system_scope, &system, sizeof system));
  WM_CU(cudaMemcpyToSymbol(c_stop, &stop, sizeof stop));
  return WM_OK;
}

}  // namespace
