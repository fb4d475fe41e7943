/* Pass 3 of the GPU motif sums, its second kernel: a warp per pair list
 * S_uw (K2,3, W4 and W4 less a spoke).
 * Part of gpu_motif_sums.cu's translation unit, which includes it (one
 * unit, so that every kernel is compiled as before with its helpers inlined). */
#pragma once

#include "gpu_motif_device.cuh"

namespace {

/* How a list finds the edges among its members (list_sums):
 *   kListPairs  (at most kPairMembers): a lane per pair of members, by a
 *               search of the shorter row; the members' rows are then read
 *               only above the top, for the tallies;
 *   kListTable  (at most kListSlots / 2): the members' rows are read to
 *               the members, and each y below the top is looked up in the
 *               warp's open-addressed table of the members in shared memory;
 *   kListStamps (the others): looked up in the stamps of the warp's scratch.
 * The members' rows are read once per list they are in, and most of what
 * they reach lies below the top, where each look-up in global memory was a
 * random access of its own; a short list's pairs are fewer than that. */
enum { kListPairs, kListTable, kListStamps };
constexpr uint32_t kPairMembers = 16;
constexpr int kListSlots = 256;
constexpr uint32_t kNoKey = 0xFFFFFFFFu;

__device__ __forceinline__ int list_mode(uint32_t c) {
  return c <= kPairMembers ? kListPairs : c <= kListSlots / 2 ? kListTable : kListStamps;
}

__device__ __forceinline__ uint32_t list_slot(uint32_t key) { return (key * 0x9E3779B1u) >> 24; }
static_assert(kListSlots == 256, "list_slot keeps 8 bits");

/* v's slot in the warp's table, or -1 where v is not in it. */
__device__ __forceinline__ int find_in_list(const uint32_t *keys, uint32_t v) {
  for (uint32_t h = list_slot(v);; h = (h + 1) & (kListSlots - 1)) {
    const uint32_t k = keys[h];
    if (k == v) return (int)h;
    if (k == kNoKey) return -1;
  }
}

/* Pair p of a list's members, p < C(c, 2) (c at most kPairMembers): (i, j)
 * with j < i. */
__device__ __forceinline__ void pair_of(uint32_t p, uint32_t &i, uint32_t &j) {
  i = 1;
  while (i * (i + 1) / 2 <= p) i++;
  j = p - i * (i - 1) / 2;
}

/* A list's three sums (list_sums). */
struct list_terms {
  i128 k23, w4, w4s;
};

/* pair_list_sums of motif_sums_cpu.c for the list b, by the calling warp
 * (Mode: how it finds the edges among the members; kdeg and keys the
 * warp's in shared memory).  Not inlined: each mode's body gets registers
 * of its own (one kernel with the three inlined spills).  The vertices
 * above the top that the members' rows reach are listed in xs as first
 * tallied; where xs (rows of the largest degree, in a tight scratch) is
 * too short for them, the rows are walked again and each tally is taken
 * by whichever lane zeroes it first. */
template <bool Tight, int Mode>
__device__ __noinline__ list_terms list_sums(const dev_graph g, const bucket b, const uint32_t *buf,
                                             const warp_scratch x, uint32_t st, uint32_t *keys, uint32_t *kdeg,
                                             volatile warp_counters *wc, uint8_t *idx) {
  const int lane = threadIdx.x & 31;
  const uint32_t u = b.u, w = b.w, c = b.c, *S = buf + b.start;
  const uint32_t *ru = g.adj + g.off[u], *rw = g.adj + g.off[w];
  const uint64_t du = deg(g, u), up_u = lower_bound(ru, du, u), up_w = lower_bound(rw, deg(g, w), u);
  uint64_t up = 0, e = 0;
  for (uint64_t i = lane; i < up_w; i += 32) {
    x.w_mark[rw[i]] = st;
    up += has(ru, up_u, rw[i]);
  }
  if (Mode == kListPairs) {
    for (uint32_t p = lane; p < c * (c - 1) / 2; p += 32) {
      uint32_t i, j;
      pair_of(p, i, j);
      const uint32_t si = S[i], sj = S[j];
      const uint64_t di = deg(g, si), dj = deg(g, sj);
      if (di <= dj ? has(g.adj + g.off[si], di, sj) : has(g.adj + g.off[sj], dj, si)) {
        e++;
        atomicAdd(&kdeg[i], 1u);
        atomicAdd(&kdeg[j], 1u);
      }
    }
  }
  for (uint32_t i = lane; i < c && Mode != kListPairs; i += 32) {
    if (Mode == kListTable) {
      uint32_t h = list_slot(S[i]);
      while (atomicCAS(&keys[h], kNoKey, S[i]) != kNoKey) h = (h + 1) & (kListSlots - 1);
    } else {
      x.in_s[S[i]] = st;
    }
  }
  if (lane == 0) wc->nx = 0;
  __syncwarp();
  /* each member s's row above it (kListPairs: above u): y above u
   * tallied, y inside S an edge */
  auto visit = [&](uint32_t s, uint32_t y) {
    if (y < u) {
      if (atomicAdd(&x.tally[y], 1u) == 0) {
        const unsigned at = atomicAdd((unsigned *)&wc->nx, 1u);
        if (!Tight || at < x.xs_cap) x.xs[at] = y;
      }
    } else if (Mode == kListTable && y > u) {
      const int sy = find_in_list(keys, y);
      if (sy < 0) return;
      e++;
      atomicAdd(&kdeg[sy], 1u);
      atomicAdd(&kdeg[find_in_list(keys, s)], 1u);
    } else if (Mode == kListStamps && y > u && x.in_s[y] == st) {
      e++;
      atomicAdd(&x.deg_s[s], 1u);
      atomicAdd(&x.deg_s[y], 1u);
    }
  };
  for_rows_between(g, S, c, 0, Mode == kListPairs ? u : 0xFFFFFFFFu, idx, visit);
  __syncwarp();
  i128 w4 = 0, k23 = 0, w4s = 0;
  if (Mode == kListPairs) { /* kdeg left zeroed for the next list */
    for (uint32_t i = lane; i < c; i += 32) {
      w4 += choose(kdeg[i], 2);
      kdeg[i] = 0;
    }
  } else if (Mode == kListTable) { /* the table left empty */
    for (int j = lane; j < kListSlots; j += 32) {
      if (keys[j] == kNoKey) continue;
      w4 += choose(kdeg[j], 2);
      keys[j] = kNoKey, kdeg[j] = 0;
    }
  } else {
    for (uint32_t i = lane; i < c; i += 32) {
      w4 += choose(x.deg_s[S[i]], 2);
      x.deg_s[S[i]] = 0;
    }
  }
  const i128 uw = has(ru + up_u, du - up_u, w), cc = c;
  /* y above u adjacent to kx members, written out in both branches: a
   * lambda shared by them compiles the first into a loop 2.4 times as
   * slow (kron-18) */
  const unsigned nx = wc->nx;
  if (!Tight || nx <= x.xs_cap) {
    for (unsigned i = lane; i < nx; i += 32) {
      const uint32_t y = x.xs[i];
      const i128 kx = x.tally[y], k2 = choose(kx, 2);
      x.tally[y] = 0;
      const i128 A = has(ru, up_u, y), B = x.w_mark[y] == st;
      k23 += k2;
      w4 += A * B * k2;
      w4s += uw * k2 + A * B * kx * (cc - 1) + A * k2 + B * k2;
    }
  } else {
    for_rows_between(g, S, c, 0, u, idx, [&](uint32_t, uint32_t y) {
      const i128 kx = atomicExch(&x.tally[y], 0u), k2 = choose(kx, 2);
      if (!kx) return;
      const i128 A = has(ru, up_u, y), B = x.w_mark[y] == st;
      k23 += k2;
      w4 += A * B * k2;
      w4s += uw * k2 + A * B * kx * (cc - 1) + A * k2 + B * k2;
    });
  }
  const i128 up_all = (i128)warp_sum_u64(up), e_all = (i128)warp_sum_u64(e);
  if (lane == 0) {
    k23 += choose(cc, 3) + choose(cc, 2) * up_all;
    w4s += e_all * (cc - 2) + e_all * up_all;
  }
  return {k23, w4, w4s};
}

/* A warp per list (list_sums). */
template <bool Tight>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm)
    pair_lists(dev_graph g, const bucket *buckets, const unsigned long long *nbuckets, const uint32_t *buf,
               scratch_pool pool, unsigned long long *next, i128 *slots, int *overflow) {
  __shared__ warp_counters counters[kWarpsPerBlock];
  __shared__ uint8_t idx[kWarpsPerBlock][32]; /* for_rows_between's */
  __shared__ uint32_t list_keys[kWarpsPerBlock][kListSlots], list_deg[kWarpsPerBlock][kListSlots];
  const int lane = threadIdx.x & 31, wib = threadIdx.x >> 5;
  const unsigned warp = global_warp();
  uint32_t *keys = list_keys[wib], *kdeg = list_deg[wib];
  for (int j = lane; j < kListSlots; j += 32) keys[j] = kNoKey, kdeg[j] = 0;
  const warp_scratch x = slice(pool, warp);
  uint32_t stamp = pool.stamps[warp];
  const unsigned long long nb = *nbuckets;
  acc a;
  memset(&a, 0, sizeof a);
  for (unsigned long long bi = grab64(next); bi < nb; bi = grab64(next)) {
    const bucket b = buckets[bi];
    const uint32_t st = fresh(stamp);
    __syncwarp();
    list_terms t;
    if (list_mode(b.c) == kListPairs)
      t = list_sums<Tight, kListPairs>(g, b, buf, x, st, keys, kdeg, &counters[wib], idx[wib]);
    else if (list_mode(b.c) == kListTable)
      t = list_sums<Tight, kListTable>(g, b, buf, x, st, keys, kdeg, &counters[wib], idx[wib]);
    else
      t = list_sums<Tight, kListStamps>(g, b, buf, x, st, keys, kdeg, &counters[wib], idx[wib]);
    add(a, WM_SUM_K23, t.k23);
    add(a, WM_SUM_W4, t.w4);
    add(a, WM_SUM_W4S, t.w4s);
  }
  if (lane == 0) pool.stamps[warp] = stamp;
  flush(a, slots, overflow, warp);
}

}  // namespace
