/* Pass 3 of the GPU motif sums: the 4-cycle sweeps from each top, which
 * for size 5 also write the pair lists and the 5-cycles' first term;
 * heavy tops by blocks.
 * Part of gpu_motif_sums.cu's translation unit, which includes it (one
 * unit, so that every kernel is compiled as before with its helpers inlined). */
#pragma once

#include "gpu_motif_device.cuh"

namespace {

/* A group of G warps (this one its gw-th; G = 1 a warp, else the block)
 * sweeps top u: the paths u-v-w (v, w > u) tallied per w, the 4-cycle
 * sums, and for size 5 the lists S_uw written to buf (at the top's place,
 * prefix[u] - prefix[u0]), a bucket per list of two or more, and the first
 * term of the 5-cycles (five_cycles_from of motif_sums_cpu.c).  *nt (zero
 * on entry) counts the touched w; each warp takes a stretch of them, and
 * stretch[G] in shared memory holds each stretch's tallies for the scan
 * that places the lists. */
template <int G>
__device__ __forceinline__ void group_sync() {
  if (G == 1) __syncwarp();
  else __syncthreads();
}

template <int G>
__device__ void sweep_top(const dev_graph &g, const uint32_t *t, int k, const warp_scratch &x, uint32_t u,
                          uint32_t u0, const uint64_t *prefix, uint32_t *buf, bucket *buckets,
                          unsigned long long *nbuckets, unsigned *nt, uint32_t *stretch, uint8_t *idx, acc &a) {
  const int lane = threadIdx.x & 31;
  const int gw = G == 1 ? 0 : (int)(threadIdx.x >> 5);
  const uint32_t *ru = g.adj + g.off[u];
  const uint64_t du = deg(g, u), first = lower_bound(ru, du, u + 1);
  uint64_t paths = 0;
  for (uint64_t i = first + 32 * gw + lane; i < du; i += 32 * G) x.middle[ru[i]] = top_mark(u);
  uint8_t *widx = idx + 32 * gw;
  for_paths<(G > 1)>(
      g, u, ru, first, du, widx,
      [&](uint64_t, uint32_t v, uint64_t j) {
        const uint32_t w = g.adj[g.off[v] + j];
        if (atomicAdd(&x.cnt[w], 1u) == 0) x.touched[atomicAdd(nt, 1u)] = w;
        paths++;
      },
      32 * gw, 32 * G);
  group_sync<G>();
  const unsigned all = *(volatile unsigned *)nt, per = (all + G - 1) / G;
  const unsigned lo = gw * per < all ? gw * per : all, hi = lo + per < all ? lo + per : all;
  i128 cycles = 0, banner = 0, house = 0, c5 = 0;
  if (k < 5) { /* size 4 needs the 4-cycles alone */
    for (unsigned q = lo + lane; q < hi; q += 32) {
      cycles += choose(x.cnt[x.touched[q]], 2);
      x.cnt[x.touched[q]] = 0;
    }
    add(a, WM_SUM_PATHS, (i128)paths);
    add(a, WM_SUM_C4, cycles);
    return;
  }
  if (!all) return;
  uint32_t sum = 0; /* this warp's stretch of the tallies */
  for (unsigned q = lo + lane; q < hi; q += 32) {
    const uint32_t w = x.touched[q], c = x.cnt[w];
    const i128 c2 = choose(c, 2);
    cycles += c2;
    banner += c2 * ((i128)deg(g, w) - 2);
    sum += c;
  }
  sum = (uint32_t)warp_sum_u64(sum);
  if (lane == 0) stretch[gw] = sum;
  /* the warps' shares of the cycles times (du - 2) add up to the top's term */
  const i128 warp_cycles = warp_sum(cycles);
  if (lane == 0) banner += warp_cycles * ((i128)du - 2);
  group_sync<G>();
  uint32_t base = 0; /* exclusive scan of cnt over touched, 32 at a time */
  for (int j = 0; j < G; j++) base += j < (int)gw ? stretch[j] : 0;
  for (unsigned q0 = lo; q0 < hi; q0 += 32) {
    const unsigned q = q0 + lane;
    const uint32_t c = q < hi ? x.cnt[x.touched[q]] : 0;
    uint32_t incl = c;
    for (int m = 1; m < 32; m <<= 1) {
      const uint32_t o = __shfl_up_sync(0xffffffffu, incl, m);
      if (lane >= m) incl += o;
    }
    if (q < hi) x.pos[x.touched[q]] = base + incl - c;
    base += __shfl_sync(0xffffffffu, incl, 31);
  }
  group_sync<G>();
  uint32_t *list = buf + (prefix[u] - prefix[u0]);
  for_paths<(G > 1)>(
      g, u, ru, first, du, widx,
      [&](uint64_t i, uint32_t v, uint64_t j) {
        const uint32_t w = g.adj[g.off[v] + j];
        const i128 c = (i128)x.cnt[w] - 1;
        banner += c * ((i128)deg(g, v) - 2);
        house += c * ((i128)t[g.off[u] + i] + t[g.off[v] + j]);
        list[atomicAdd(&x.pos[w], 1u)] = v;
      },
      32 * gw, 32 * G);
  group_sync<G>();
  for (unsigned q0 = lo; q0 < hi; q0 += 32) {
    const unsigned q = q0 + lane;
    bucket b = {u, 0, 0, 0};
    bool want = false;
    if (q < hi) {
      b.w = x.touched[q];
      b.c = x.cnt[b.w];
      b.start = (uint32_t)((prefix[u] - prefix[u0]) + x.pos[b.w] - b.c);
      want = b.c >= 2;
    }
    append(buckets, nbuckets, want, b);
  }
  /* the touched r's rows between u and r, laid over the lanes: a row of
   * many such neighbours does not hold one lane */
  for_rows_above(g, x.touched + lo, hi - lo, u + 1, widx, [&](uint32_t r, uint32_t sv) {
    if (!x.cnt[sv]) return;
    const i128 cr = x.cnt[r], mr = x.middle[r] == top_mark(u);
    c5 += (cr - (x.middle[sv] == top_mark(u))) * ((i128)x.cnt[sv] - mr);
  });
  add(a, WM_SUM_PATHS, (i128)paths);
  add(a, WM_SUM_C4, cycles);
  add(a, WM_SUM_BANNER, banner);
  add(a, WM_SUM_HOUSE, house);
  add(a, WM_SUM_C5, c5);
  group_sync<G>();
  for (unsigned q = lo + lane; q < hi; q += 32) x.cnt[x.touched[q]] = 0, x.pos[x.touched[q]] = 0;
}

/* The calling warp sweeps tops u in [u0, u1) from next, one at a time
 * (sweep_top), in its own slice; tops of more than `heavy` paths (0:
 * none) are left to blocks (four_cycles_mixed).  wc and stretch are the
 * warp's in shared memory. */
__device__ void light_tops(const dev_graph &g, const uint32_t *t, int k, const scratch_pool &pool, uint32_t u0,
                           uint32_t u1, unsigned long long *next, const uint64_t *prefix, uint32_t *buf,
                           bucket *buckets, unsigned long long *nbuckets, const uint64_t *paths_of, uint64_t heavy,
                           warp_counters *wc, uint32_t *stretch, uint8_t *idx, acc &a) {
  const int lane = threadIdx.x & 31;
  const warp_scratch x = slice(pool, global_warp());
  /* in 64 bits: a stopped take (kStopped) lies past u1, not wrapped below it */
  for (uint64_t at = u0 + grab64(next); at < u1; at = u0 + grab64(next)) {
    const uint32_t u = (uint32_t)at;
    if (paths_of || prefix) {
      const uint64_t paths = paths_of ? paths_of[u] : prefix[u + 1] - prefix[u];
      if (heavy && paths > heavy) continue;
      if (paths < 2) { /* no cycle, list or 5-cycle: a hub's leaves, most tops of a small graph */
        if (lane == 0) add(a, WM_SUM_PATHS, (i128)paths);
        continue;
      }
    }
    if (lane == 0) wc->nt = 0;
    __syncwarp();
    sweep_top<1>(g, t, k, x, u, u0, prefix, buf, buckets, nbuckets, &wc->nt, stretch, idx, a);
    __syncwarp();
  }
}

/* Tops u in [u0, u1) a warp each (light_tops), where no top goes to a
 * block. */
__global__ void __launch_bounds__(kThreads, kBlocksPerSm)
    four_cycles(dev_graph g, const uint32_t *t, int k, scratch_pool pool, uint32_t u0, uint32_t u1,
                unsigned long long *next, const uint64_t *prefix, uint32_t *buf, bucket *buckets,
                unsigned long long *nbuckets, const uint64_t *paths_of, uint64_t heavy, i128 *slots,
                int *overflow) {
  __shared__ warp_counters counters[kWarpsPerBlock];
  __shared__ uint32_t stretch[kWarpsPerBlock];
  __shared__ uint8_t idx[kWarpsPerBlock][32]; /* for_rows_above's */
  const unsigned wib = threadIdx.x >> 5;
  acc a;
  memset(&a, 0, sizeof a);
  light_tops(g, t, k, pool, u0, u1, next, prefix, buf, buckets, nbuckets, paths_of, heavy, &counters[wib],
             &stretch[wib], idx[wib], a);
  flush(a, slots, overflow, global_warp());
}

/* Heavy tops (of more than run.heavy_paths paths)
 * are swept by a block of kHeavyWarps warps each, in the slice of the
 * block's first warp, so that a hub's chain of dependent loads does not
 * hold one warp while the device idles (four_cycles_mixed). */
constexpr int kHeavyWarps = 32;
/* Paths below a top that make it heavy: at most this on one device, this
 * where several devices or processes share the tops (the policy aside). */
constexpr uint64_t kHeavyPaths = 32768;
/* One device: a top of more paths than the warps' average share, and
 * more than this, is swept by a block: one warp's chain of dependent loads
 * over a few hundred paths and their tallies outlasts a small graph's
 * whole pass (hub's light tops held its sweeps at 1,024). */
constexpr uint64_t kHeavyMin = 256;

/* Size 4's heavy top u by the calling block: the paths u-v-w (v, w > u)
 * tallied per w in the slice x (of the block's first warp), then the
 * 4-cycles; *nt (zero on entry, shared) counts the touched w. */
__device__ void heavy_four_cycles(const dev_graph &g, const warp_scratch &x, uint32_t u, unsigned *nt, uint8_t *idx,
                                  acc &a) {
  const unsigned wib = threadIdx.x >> 5;
  const uint32_t *ru = g.adj + g.off[u];
  const uint64_t du = deg(g, u), first = lower_bound(ru, du, u + 1);
  uint64_t paths = 0;
  for_paths<true>(
      g, u, ru, first, du, idx + 32 * wib,
      [&](uint64_t, uint32_t v, uint64_t j) {
        const uint32_t w = g.adj[g.off[v] + j];
        if (atomicAdd(&x.cnt[w], 1u) == 0) x.touched[atomicAdd(nt, 1u)] = w;
        paths++;
      },
      32 * wib, 32 * kHeavyWarps);
  __syncthreads();
  i128 cycles = 0;
  for (unsigned q = threadIdx.x; q < *nt; q += blockDim.x) {
    cycles += choose(x.cnt[x.touched[q]], 2);
    x.cnt[x.touched[q]] = 0;
  }
  add(a, WM_SUM_PATHS, (i128)paths);
  add(a, WM_SUM_C4, cycles);
}

/* The heavy tops tops[0..count) (count from *count_at where given), taken
 * from heavy_next, a block each (size 5: sweep_top; size 4:
 * heavy_four_cycles); then, in the same launch, the light tops of [u0, u1)
 * from next a warp each (light_tops, skipping those of more than `heavy`
 * paths).  The blocks that find no heavy top left sweep light ones while a
 * hub's block is still at its top: on hub the hub's top took 0.18 ms and
 * the light tops 0.29 ms in two launches, one after the other.  Several
 * devices take both kinds from shared counters. */
__global__ void __launch_bounds__(32 * kHeavyWarps)
    four_cycles_mixed(dev_graph g, const uint32_t *t, int k, scratch_pool pool, uint32_t u0, uint32_t u1,
                      const uint32_t *tops, unsigned long long count, const unsigned long long *count_at,
                      unsigned long long *heavy_next, unsigned long long *next, const uint64_t *prefix,
                      uint32_t *buf, bucket *buckets, unsigned long long *nbuckets, const uint64_t *paths_of,
                      uint64_t heavy, i128 *slots, int *overflow) {
  __shared__ unsigned long long item;
  __shared__ unsigned nt;
  __shared__ uint32_t stretch[kHeavyWarps];
  __shared__ warp_counters counters[kHeavyWarps];
  __shared__ uint8_t idx[kHeavyWarps][32]; /* for_rows_above's */
  const unsigned wib = threadIdx.x >> 5;
  acc a;
  memset(&a, 0, sizeof a);
  if (count_at) count = *count_at;
  const warp_scratch x = slice(pool, blockIdx.x * kHeavyWarps);
  for (;;) {
    if (threadIdx.x == 0) item = take_long(heavy_next), nt = 0;
    __syncthreads();
    const unsigned long long it = item;
    if (it >= count) break;
    if (k >= 5)
      sweep_top<kHeavyWarps>(g, t, 5, x, tops[it], u0, prefix, buf, buckets, nbuckets, &nt, stretch, idx[0], a);
    else heavy_four_cycles(g, x, tops[it], &nt, idx[0], a);
    __syncthreads();
  }
  light_tops(g, t, k, pool, u0, u1, next, prefix, buf, buckets, nbuckets, paths_of, heavy, &counters[wib],
             &stretch[wib], idx[wib], a);
  flush(a, slots, overflow, global_warp());
}

}  // namespace
