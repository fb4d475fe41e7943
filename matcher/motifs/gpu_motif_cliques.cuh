/* Pass 4 of the GPU motif sums: 4-cliques per triangle and 5-cliques
 * (size 5), 4-cliques per edge (size 4).
 * Part of gpu_motif_sums.cu's translation unit, which includes it (one
 * unit, so that every kernel is compiled as before with its helpers inlined). */
#pragma once

#include "gpu_motif_device.cuh"

namespace {

/* ---- pass 4 ------------------------------------------------------------ */

/* Triangles w < u < v on the arc v->u at index i of v's row, found by the
 * lanes: v's row before i searched in u's row above u.  w's indices in the
 * two rows go to ia and ib (in no particular order).  Returns how many. */
__device__ uint32_t triangles_on_warp(const dev_graph &g, uint32_t v, uint64_t i, uint32_t u, uint32_t *ia,
                                      uint32_t *ib) {
  const int lane = threadIdx.x & 31;
  const uint32_t *rv = g.adj + g.off[v], *ru = g.adj + g.off[u];
  const uint64_t nu = lower_bound(ru, deg(g, u), u);
  uint32_t found = 0;
  for (uint64_t a0 = 0; a0 < i; a0 += 32) {
    const uint64_t a = a0 + lane;
    uint64_t b = 0;
    bool hit = false;
    if (a < i) {
      b = lower_bound(ru, nu, rv[a]);
      hit = b < nu && ru[b] == rv[a];
    }
    const unsigned mask = __ballot_sync(0xffffffffu, hit);
    if (hit) {
      const uint32_t at = found + __popc(mask & ((1u << lane) - 1));
      ia[at] = (uint32_t)a, ib[at] = (uint32_t)b;
    }
    found += __popc(mask);
  }
  __syncwarp();
  return found;
}

/* five_cliques_on of motif_sums_cpu.c: W = rv[ia[0..found)] is stamped
 * in_w; for each w in turn, its row above it stamped, the members of W in
 * that row listed (in xs), and their rows searched for a third. */
__device__ i128 five_cliques_on(const dev_graph &g, const uint32_t *rv, uint32_t found, const warp_scratch &x,
                                uint8_t *idx, uint32_t in_w, uint32_t &stamp) {
  const int lane = threadIdx.x & 31;
  i128 k5 = 0;
  for (uint32_t q = 0; q < found; q++) {
    const uint32_t w = rv[x.ia[q]], *rw = g.adj + g.off[w];
    const uint64_t above_w = lower_bound(rw, deg(g, w), w);
    const uint32_t of_w = fresh(stamp);
    uint32_t listed = 0;
    for (uint64_t j0 = 0; j0 < above_w; j0 += 32) {
      const uint64_t j = j0 + lane;
      bool in = false;
      if (j < above_w) {
        x.w_mark[rw[j]] = of_w;
        in = x.in_s[rw[j]] == in_w;
      }
      const unsigned mask = __ballot_sync(0xffffffffu, in);
      if (in) x.xs[listed + __popc(mask & ((1u << lane) - 1))] = rw[j];
      listed += __popc(mask);
    }
    __syncwarp();
    for_rows_above(g, x.xs, listed, 0, idx,
                   [&](uint32_t, uint32_t z) { k5 += x.in_s[z] == in_w && x.w_mark[z] == of_w; });
    __syncwarp();
  }
  return k5;
}

/* A warp per arc v->u (u < v) with triangles on it. */
__global__ void __launch_bounds__(kThreads, kBlocksPerSm) triangle_cliques(dev_graph g, uint64_t a0, uint64_t m,
                                                              const uint32_t *t, scratch_pool pool,
                                                              unsigned long long *next, i128 *slots, int *overflow) {
  __shared__ warp_counters counters[kWarpsPerBlock];
  __shared__ uint8_t idx[kWarpsPerBlock][32]; /* for_rows_above's */
  const int lane = threadIdx.x & 31;
  const unsigned warp = global_warp();
  volatile warp_counters *wc = &counters[threadIdx.x >> 5];
  const warp_scratch x = slice(pool, warp);
  uint32_t stamp = pool.stamps[warp];
  acc a;
  memset(&a, 0, sizeof a);
  for_wanted_arcs<1>(
      g, a0, m, next, [&](uint64_t arc) { return t[arc] > 0; }, [](uint64_t, uint32_t v, uint32_t u) { return u < v; },
      [&](uint64_t arc, uint32_t v, uint32_t u) {
        const uint64_t i = arc - g.off[v];
        const uint32_t *rv = g.adj + g.off[v], *ru = g.adj + g.off[u];
        const uint64_t dv = deg(g, v), du = deg(g, u);
        const uint32_t *tv = t + g.off[v];
        const uint32_t found = triangles_on_warp(g, v, i, u, x.ia, x.ib);
        if (!found) return;
        const uint32_t *sr = dv <= du ? rv : ru, *lr = dv <= du ? ru : rv;
        const uint64_t sl = dv <= du ? dv : du, ll = dv <= du ? du : dv;
        const uint32_t st = fresh(stamp);
        if (lane == 0) wc->nt = 0;
        __syncwarp();
        for (uint64_t z = lane; z < sl; z += 32)
          if (has(lr, ll, sr[z])) {
            x.in_s[sr[z]] = st;
            x.common[atomicAdd((unsigned *)&wc->nt, 1u)] = sr[z];
          }
        __syncwarp();
        const unsigned nc = wc->nt;
        for_rows_above(g, x.common, nc, 0, idx[threadIdx.x >> 5], [&](uint32_t y, uint32_t z) {
          if (x.in_s[z] == st) atomicAdd(&x.deg_s[y], 1u), atomicAdd(&x.deg_s[z], 1u);
        });
        __syncwarp();
        for (uint32_t q = lane; q < found; q += 32) {
          const uint32_t w = rv[x.ia[q]];
          const i128 kk = x.deg_s[w];
          const i128 tuv = tv[i], tvw = tv[x.ia[q]], tuw = t[g.off[u] + x.ib[q]];
          const i128 d_w = (i128)deg(g, w), d_u = (i128)du, d_v = (i128)dv;
          add(a, WM_SUM_K4X4, kk);
          add(a, WM_SUM_K5E, choose(kk, 2));
          add(a, WM_SUM_KITE, (d_w - 2) * (tuv - 1) + (d_u - 2) * (tvw - 1) + (d_v - 2) * (tuw - 1));
          add(a, WM_SUM_GEM, (tuw - 1) * (tvw - 1) + (tuw - 1) * (tuv - 1) + (tuv - 1) * (tvw - 1));
          add(a, WM_SUM_T4C, kk * (d_w + d_u + d_v - 9));
          add(a, WM_SUM_HOUSEX, kk * (tuv + tvw + tuw - 6));
        }
        __syncwarp();
        for (unsigned z = lane; z < nc; z += 32) x.deg_s[x.common[z]] = 0;
        if (found >= 3) {
          const uint32_t in_w = fresh(stamp);
          for (uint32_t q = lane; q < found; q += 32) x.in_s[rv[x.ia[q]]] = in_w;
          __syncwarp();
          add(a, WM_SUM_K5, five_cliques_on(g, rv, found, x, idx[threadIdx.x >> 5], in_w, stamp));
        }
        __syncwarp();
      });
  if (lane == 0) pool.stamps[warp] = stamp; /* a later launch (the next window) stamps above it */
  flush(a, slots, overflow, warp);
}

/* Size 4: a warp per arc v->u (u < v) with two or more triangles on it.
 * The common neighbours C of u and v ranked above u are listed (touched)
 * and stamped (in_s); each edge inside C closes a 4-clique, counted once,
 * at the arc between its two lowest-ranked vertices.  K4X4 gets 4 per
 * 4-clique, as pass 4 of size 5 gives it. */
__global__ void __launch_bounds__(kThreads, kBlocksPerSm) edge_cliques(dev_graph g, uint64_t a0, uint64_t m,
                                                          const uint32_t *t, scratch_pool pool,
                                                          unsigned long long *next, i128 *slots, int *overflow) {
  __shared__ warp_counters counters[kWarpsPerBlock];
  __shared__ uint8_t idx[kWarpsPerBlock][32]; /* for_rows_above's */
  const int lane = threadIdx.x & 31;
  const unsigned warp = global_warp();
  volatile warp_counters *wc = &counters[threadIdx.x >> 5];
  const warp_scratch x = slice(pool, warp);
  uint32_t stamp = pool.stamps[warp];
  uint64_t k4 = 0; /* below C(deg, 2) per arc, summed in 128 bits after each */
  i128 sum = 0;
  int wrapped = 0;
  for_wanted_arcs<1>(
      g, a0, m, next, [&](uint64_t arc) { return t[arc] >= 2; }, [](uint64_t, uint32_t v, uint32_t u) { return u < v; },
      [&](uint64_t arc, uint32_t v, uint32_t u) {
        const uint32_t *rv = g.adj + g.off[v], *ru = g.adj + g.off[u];
        const uint64_t i = arc - g.off[v], nu = lower_bound(ru, deg(g, u), u);
        const uint32_t in_c = fresh(stamp);
        if (lane == 0) wc->nt = 0;
        __syncwarp();
        for (uint64_t a = lane; a < i && nu; a += 32)
          if (has(ru, nu, rv[a])) {
            x.in_s[rv[a]] = in_c;
            x.touched[atomicAdd((unsigned *)&wc->nt, 1u)] = rv[a];
          }
        __syncwarp();
        const unsigned nc = wc->nt;
        if (nc >= 2)
          for_rows_above(g, x.touched, nc, 0, idx[threadIdx.x >> 5],
                         [&](uint32_t, uint32_t z) { k4 += x.in_s[z] == in_c; });
        checked_add(sum, (i128)k4, wrapped);
        k4 = 0;
        __syncwarp();
      });
  sum = warp_sum_checked(sum, wrapped);
  if (lane == 0) {
    pool.stamps[warp] = stamp;
    for (int q = 0; q < 4; q++) checked_add(slots[(uint64_t)warp * WM_SUM_COUNT + WM_SUM_K4X4], sum, wrapped);
  }
  if (__any_sync(0xffffffffu, wrapped) && lane == 0) atomicOr(overflow, 1);
}

}  // namespace
