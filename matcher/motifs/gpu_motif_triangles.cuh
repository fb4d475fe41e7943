/* Pass 1 of the GPU motif sums: triangles per edge (and size 5's
 * 5-cycle triangle term), then copied to the reverse arcs.
 * Part of gpu_motif_sums.cu's translation unit, which includes it (one
 * unit, so that every kernel is compiled as before with its helpers inlined). */
#pragma once

#include "gpu_motif_device.cuh"

namespace {

/* Arcs per batch of the triangles per edge (for_wanted_arcs): few enough
 * that facebook's longest batch is near a warp's average share. */
constexpr unsigned kTriangleBatch = 8;

/* A warp per arc v->u (u < v) past v's first: the lanes search v's row
 * before u in u's row above u, each hit a triangle w < u < v.  With up
 * (size 5, on one device), also the 5-cycles' triangle term
 * (five_cycles_from of motif_sums_cpu.c, which sums it top by top): each
 * triangle T is counted once for every arc u->p with p in T and u below
 * all of T, which is up[w] + (w's index in u's row) + (w's index in v's
 * row), w = min T; minus that sum goes to the C5 slots (slots_n of them,
 * shared). */
__global__ void edge_triangles(dev_graph g, uint64_t m, uint32_t *t, unsigned long long *next, const uint32_t *up,
                               i128 *slots, unsigned slots_n) {
  const int lane = threadIdx.x & 31;
  i128 c5 = 0;
  for_wanted_arcs<kTriangleBatch>(
      g, 0, m, next, [](uint64_t) { return true; },
      [&](uint64_t arc, uint32_t v, uint32_t u) { return u < v && arc > g.off[v]; },
      [&](uint64_t arc, uint32_t v, uint32_t u) {
        const uint64_t i = arc - g.off[v];
        const uint32_t *rv = g.adj + g.off[v], *ru = g.adj + g.off[u];
        const uint64_t nu = lower_bound(ru, deg(g, u), u);
        uint32_t found = 0;
        for (uint64_t a = lane; a < i && nu; a += 32) {
          const uint64_t b = lower_bound(ru, nu, rv[a]);
          if (b < nu && ru[b] == rv[a]) {
            atomicAdd(&t[g.off[v] + a], 1u);
            atomicAdd(&t[g.off[u] + b], 1u);
            found++;
            if (up) c5 += (i128)up[rv[a]] + (i128)a + (i128)b;
          }
        }
        found = (uint32_t)warp_sum_u64(found);
        if (found && lane == 0) atomicAdd(&t[arc], found);
      });
  if (!up) return;
  c5 = warp_sum(c5);
  if (lane == 0 && c5) atomic_add_i128(&slots[(uint64_t)(global_warp() % slots_n) * WM_SUM_COUNT + WM_SUM_C5], -c5);
}

/* Each arc v->u (u < v) copies its triangles to u->v: a thread per run of
 * kFoldRun arcs, which finds their row once. */
constexpr int kFoldRun = 4;

__global__ void fold_triangles(dev_graph g, uint64_t m, uint32_t *t) {
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x * kFoldRun;
  for (uint64_t a0 = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) * kFoldRun; a0 < m; a0 += stride) {
    uint32_t v = row_of(g, a0);
    for (uint64_t arc = a0; arc < a0 + kFoldRun && arc < m; arc++) {
      while (g.off[v + 1] <= arc) v++;
      const uint32_t u = g.adj[arc];
      if (u < v) t[g.off[u] + lower_bound(g.adj + g.off[u], deg(g, u), v)] = t[arc];
    }
  }
}

}  // namespace
