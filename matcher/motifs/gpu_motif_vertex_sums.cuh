/* Pass 2 of the GPU motif sums: the vertex and edge sums, a warp per
 * vertex and a block per heavy row.
 * Part of gpu_motif_sums.cu's translation unit, which includes it (one
 * unit, so that every kernel is compiled as before with its helpers inlined). */
#pragma once

#include "gpu_motif_device.cuh"

namespace {

/* Vertices [0, heavy_end) have rows of more than kHeavyRow (the degree
 * order puts them first): the per-vertex passes without scratch give each
 * a block, so that a hub's row is not one warp's chain of loads. */
constexpr uint64_t kHeavyRow = 1024;

/* x summed over the block (kThreads), in every thread. */
__device__ i128 block_sum(i128 x, i128 (&part)[kWarpsPerBlock]) {
  x = warp_sum(x);
  __syncthreads(); /* part free from the last call */
  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = x;
  __syncthreads();
  i128 s = 0;
  for (int w = 0; w < kWarpsPerBlock; w++) s += part[w];
  return s;
}

/* ---- pass 2 ------------------------------------------------------------ */

/* Vertex v's sums and its edges' (each edge from its higher id) by the
 * lanes of the calling warp (G = 1) or block (G = kWarpsPerBlock), the
 * vertex's own terms in lane 0 (thread 0). */
template <int G>
__device__ void vertex_sums(const dev_graph &g, const uint32_t *t, uint32_t v, acc &a, i128 (&part)[kWarpsPerBlock]) {
  const unsigned me = G == 1 ? threadIdx.x & 31 : threadIdx.x;
  const i128 d = (i128)deg(g, v);
  const uint32_t *rv = g.adj + g.off[v];
  const uint32_t *tv = t + g.off[v];
  i128 s = 0, t2 = 0, dsum = 0;
  for (uint64_t i = me; i < (uint64_t)d; i += 32 * G) {
    const uint32_t u = rv[i];
    const i128 du = (i128)deg(g, u), te = tv[i];
    s += du - 1;
    t2 += te;
    dsum += choose(te, 2);
    if (u > v) continue;
    add(a, WM_SUM_T3, te);
    add(a, WM_SUM_P4, (d - 1) * (du - 1));
    add(a, WM_SUM_DIAMOND, choose(te, 2));
    add(a, WM_SUM_TD, te * (d + du - 2));
    add(a, WM_SUM_BULL, te * ((d - 2) * (du - 2) - te + 1));
    add(a, WM_SUM_BOOK, choose(te, 3));
  }
  if (G == 1) s = warp_sum(s), t2 = warp_sum(t2), dsum = warp_sum(dsum);
  else s = block_sum(s, part), t2 = block_sum(t2, part), dsum = block_sum(dsum, part);
  if (me) return;
  const i128 tri = t2 / 2;
  if (s >= ((i128)1 << 62)) a.overflow = 1; /* s^2 would pass 2^124 */
  add(a, WM_SUM_D2, choose(d, 2));
  add(a, WM_SUM_D3, choose(d, 3));
  add(a, WM_SUM_D4, choose(d, 4));
  add(a, WM_SUM_PAW, tri * (d - 2));
  add(a, WM_SUM_FORK, choose(d - 1, 2) * s);
  add(a, WM_SUM_S2, s * s);
  add(a, WM_SUM_DDD, d * (d - 1) * (d - 1));
  add(a, WM_SUM_CRICKET, tri * choose(d - 2, 2));
  add(a, WM_SUM_LTT, tri * (s - 2 * d + 2));
  add(a, WM_SUM_BOWTIE, choose(tri, 2));
  add(a, WM_SUM_DART, (d - 3) * dsum);
}

/* Vertices [v0, v1): those below heavy_end (rows of more than kHeavyRow)
 * a block each, the rest a warp each, on more warps than the slots
 * (slots_n): the pass needs no scratch, and a small graph's vertices a few
 * each take less than one warp's chain of them. */
__global__ void __launch_bounds__(kThreads) vertex_and_edge_sums(dev_graph g, const uint32_t *t, uint32_t heavy_end,
                                                                 unsigned long long *next, uint32_t v0, uint32_t v1,
                                                                 i128 *slots, unsigned slots_n, int *overflow) {
  __shared__ i128 part[kWarpsPerBlock];
  acc a;
  memset(&a, 0, sizeof a);
  const uint32_t h1 = heavy_end < v1 ? heavy_end : v1, l0 = v0 > h1 ? v0 : h1;
  for (uint32_t v = v0 + blockIdx.x; v < h1; v += gridDim.x) vertex_sums<kWarpsPerBlock>(g, t, v, a, part);
  for (uint64_t x = l0 + grab64(next); x < v1; x = l0 + grab64(next)) vertex_sums<1>(g, t, (uint32_t)x, a, part);
  flush_shared(a, slots, slots_n, overflow);
}

}  // namespace
