/* Before the passes: each top's paths below it, added up from the
 * middles' rows, and their statistics (the heavy tops, the largest).
 * Part of gpu_motif_sums.cu's translation unit, which includes it (one
 * unit, so that every kernel is compiled as before with its helpers inlined). */
#pragma once

#include "gpu_motif_device.cuh"

namespace {

/* Each top's paths u-v-w (v, w > u), added from the middles' rows: the
 * arc from v to a top u < v at position i of v's row (sorted) leaves the
 * deg(v) - i - 1 neighbours past u, so a thread walks the front of v's
 * row, below v, adding to each top's count (zero on entry), and their
 * total to *total; where up is given, the neighbours it walked, v's
 * above it, go to up[v] (size 5's triangle term, edge_triangles).  No
 * search, and the adds need no answer: on hub, a warp per top searching
 * its middles' rows took 39 us, its chains of dependent loads longer than
 * the whole pass. */
__global__ void __launch_bounds__(kThreads) arc_paths(dev_graph g, uint64_t *paths, unsigned long long *total,
                                                      uint32_t *up) {
  uint64_t sum = 0;
  for (uint32_t v = blockIdx.x * blockDim.x + threadIdx.x; v < g.n; v += gridDim.x * blockDim.x) {
    const uint64_t o = g.off[v], d = g.off[v + 1] - o;
    uint64_t i = 0;
    for (; i < d; i++) {
      const uint32_t u = g.adj[o + i];
      if (u >= v) break;
      atomicAdd((unsigned long long *)&paths[u], (unsigned long long)(d - i - 1));
      sum += d - i - 1;
    }
    if (up) up[v] = (uint32_t)i;
  }
  sum = warp_sum_u64(sum);
  if ((threadIdx.x & 31) == 0 && sum) atomicAdd(total, (unsigned long long)sum);
}

__device__ __forceinline__ uint64_t warp_max_u64(uint64_t x) {
  for (int m = 16; m; m >>= 1) {
    const uint64_t o = __shfl_xor_sync(0xffffffffu, x, m);
    x = o > x ? o : x;
  }
  return x;
}

/* The largest of the tops' paths to *most (NULL: none), and where tops is
 * given, the tops of more than `heavy` listed there, counted in *ntops.
 * Scanned: paths holds each top's first list entry, then the total. */
template <bool Scanned>
__global__ void __launch_bounds__(kThreads) path_stats(const uint64_t *paths, uint32_t n, uint64_t heavy,
                                                       uint32_t *tops, unsigned long long *ntops,
                                                       unsigned long long *most) {
  uint64_t top = 0;
  for (uint32_t u = blockIdx.x * blockDim.x + threadIdx.x; u < n; u += gridDim.x * blockDim.x) {
    const uint64_t p = Scanned ? paths[u + 1] - paths[u] : paths[u];
    top = p > top ? p : top;
    if (tops && p > heavy) tops[atomicAdd(ntops, 1ull)] = u;
  }
  top = warp_max_u64(top);
  if (most && (threadIdx.x & 31) == 0 && top) atomicMax(most, (unsigned long long)top);
}

}  // namespace
