/* The clique sums of the 5-vertex orbits on the GPU: the sums of
 * orbit_cliques5.c (its oracle) with a warp where the CPU has a thread, on
 * gs, g ranked by descending degree on the device (gpu_orbit_rank.cuh; g
 * itself, gg's copy where it holds it, when g's ids are in that order
 * already), where each triangle w < u < v is met once, from its top edge
 * v-u:
 *   1. triangles per arc: each triangle found once, from its top edge
 *      (a warp per arc v->u, u < v: the shorter of v's row below u and u's
 *      row below u searched in the other), its three arcs from their
 *      higher ends credited, then copied to their reverses;
 *   2. a warp per arc v->u (u < v) with a triangle, from a work counter
 *      (those of more than kHeavyCommon triangles a block each, listed
 *      first), in three steps:
 *      a. C = N(u) & N(v) listed with W = C & [0, u), the triangles' w,
 *         first (found as in 1, then the rows' parts above u, the shorter
 *         searched in the longer), each member marked with its index;
 *      b. each member y's row below both y and u, laid over the lanes
 *         (over_stretches): an entry z there lies below u, so it is in C
 *         exactly when it is in W, and the inner edge y-z is a bit of y's
 *         row of the edge's bitmap (a bit per member of W) and one of w_T
 *         (z's inner degree, W's counters); inside W also the reverse bit;
 *      c. a thread per member y: its bitmap row holds the T = (z, u, v)
 *         whose L_T it is in, so its sums over them (66, 70) are its own
 *         to add, once; a member of W also takes its triangle's credits
 *         (61, 71, the 4-cliques on its edges) and its 5-cliques, the
 *         triangles of W's bitmap through it (popcounts of two rows).
 *      The bitmap is C x W bits, at most m/32 + |C| words for any edge (a
 *      w outranks u, so |W| |C| <= the degrees of the vertices above u),
 *      and W's rows are what the 5-cliques need: no row of the graph is
 *      walked twice, and no credit goes through an atomic of the scratch.
 *      The bitmap and W's counters are in shared memory where they fit
 *      (every light edge of |W| up to 128; a block's edge takes its
 *      warps' together), else in global memory.
 *   Every add to the sums is a 64-bit atomic whose wrap sets the overflow
 *   flag (every credit is >= 0, so a wrap is a sum past 2^64 - 1, as the
 *   CPU finds it).
 * A warp's scratch: the marks (n words) and rows of the largest degree
 * (C, W's row indices and t-sums, W's inner degrees where they are not in
 * shared memory), and its part of the global bitmaps (a block's are its
 * warps' together), sized once the heavy edges' largest is known; the
 * warps are as many as fit 3/4 of the free memory.  A last kernel takes
 * the sums back to g's labels (to_g).  Two windows are timed: the ranking,
 * the triangles and the heavy edges' list; then, the scratch sized, the
 * rest.  Over several devices (below), each ranks g and counts the
 * triangles itself and takes its part of the top edges. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "device.h"
#include "orbit_cliques5.h"
#include "gpu_orbit_warps.cuh"
#include "gpu_orbit_rank.cuh"
#include "gpu_orbit_devices.cuh"

namespace {

/* The sums by gs's ids and arcs, on the device, and the overflow flag. */
struct clique_sums {
  ull *s61, *s66, *s70, *s71, *k5, *k4e;
  int *overflow;
};

/* Top edges whose triangle count (|C|) passes kHeavyCommon are walked by a
 * block of kHeavyWarps warps each (heavy_arcs), the others by a warp each.
 * WM_TEST_ORBIT_HEAVY=1 sends every top edge to the blocks, so that the
 * tests see both ways on small graphs. */
constexpr int kHeavyWarps = 32;
constexpr uint32_t kHeavyCommon = 256;

uint32_t heavy_common_now() {
  const char *v = getenv("WM_TEST_ORBIT_HEAVY");
  return v && *v == '1' ? 0 : kHeavyCommon;
}

/* Bitmap words of an edge of c common neighbours, f of them in W. */
constexpr __host__ __device__ uint64_t bitmap_words(uint64_t c, uint64_t f) { return c * ((f + 31) / 32); }

/* One warp's slice of the scratch. */
struct clique_scratch {
  ull *tsum;       /* per index in W: t_uw + t_vw */
  uint32_t *mark;  /* per vertex: base + its index in C while in the edge's C (mark_base) */
  uint32_t *common; /* C, W first */
  uint32_t *ia, *ib; /* per index in W: w's place in v's row and in u's */
  uint32_t *degw;  /* per index in W: w's neighbours in C (w_T), where shared memory is too small */
};

/* 32-bit words of a slice: tsum first (8-byte aligned, the word count even). */
__host__ __device__ inline uint64_t clique_words(uint64_t n, uint64_t maxdeg) {
  return (2 * maxdeg + n + 4 * maxdeg + 1) / 2 * 2;
}

__device__ clique_scratch clique_slice(uint32_t *base, uint64_t n, uint64_t maxdeg, uint64_t warp) {
  uint32_t *b = base + warp * clique_words(n, maxdeg);
  clique_scratch x;
  x.tsum = (ull *)b, x.mark = b + 2 * maxdeg;
  x.common = x.mark + n, x.ia = x.common + maxdeg, x.ib = x.ia + maxdeg, x.degw = x.ib + maxdeg;
  return x;
}

/* The calling group of G warps (gw this warp's index, G = 1 a warp, else
 * the block) and this thread's index in it. */
template <int G>
struct group {
  unsigned gw, t;
  __device__ group() : gw(G == 1 ? 0 : threadIdx.x >> 5), t(G == 1 ? (threadIdx.x & 31) : threadIdx.x) {}
};

/* The group's count in *cnt (shared), read by every thread once all added. */
template <int G>
__device__ __forceinline__ uint32_t counted(unsigned *cnt) {
  group_barrier<G>();
  const uint32_t c = *(volatile unsigned *)cnt;
  group_barrier<G>(); /* read by all before the next count zeroes it */
  return c;
}

/* hit(a, b) for each w < u adjacent to both v and u, a its place in v's
 * row and b in u's, by the group's threads: the shorter of v's row before
 * i (u's place there) and u's row below u walked, the other searched. */
template <int G, class Hit>
__device__ __forceinline__ void each_below(const dev_graph &g, uint32_t v, uint64_t i, uint32_t u, Hit hit) {
  const uint32_t *rv = g.adj + g.off[v], *ru = g.adj + g.off[u];
  const uint64_t nu = lower_bound(ru, deg(g, u), u);
  const bool walk_v = i <= nu;
  const uint32_t *wr = walk_v ? rv : ru, *sr = walk_v ? ru : rv;
  const uint64_t wl = walk_v ? i : nu, sl = walk_v ? nu : i;
  for (uint64_t a = group<G>().t; a < wl; a += 32 * G) {
    const uint64_t b = lower_bound(sr, sl, wr[a]);
    if (b < sl && sr[b] == wr[a]) hit(walk_v ? a : b, walk_v ? b : a);
  }
}

/* 1: t[e] for every arc e: each triangle w < u < v found once, from its
 * top edge v->u (each_below), its three arcs from their higher ends
 * credited (32-bit atomics: a count is below n); the arcs 32 per take of
 * next.  t starts zeroed. */
__global__ void __launch_bounds__(kThreads) down_triangles(dev_graph g, uint64_t m, unsigned long long *next,
                                                            uint32_t *t) {
  for_wanted_arcs<32>(
      g, 0, m, next, [](uint64_t) { return true; },
      [&](uint64_t e, uint32_t v, uint32_t u) { return u < v && e > g.off[v]; }, /* a w needs a place before u */
      [&](uint64_t e, uint32_t v, uint32_t u) {
        uint64_t c = 0;
        each_below<1>(g, v, e - g.off[v], u, [&](uint64_t a, uint64_t b) {
          atomicAdd(&t[g.off[v] + a], 1u), atomicAdd(&t[g.off[u] + b], 1u), c++;
        });
        c = warp_sum_u64(c);
        if ((threadIdx.x & 31) == 0 && c) atomicAdd(&t[e], (uint32_t)c);
      });
}

/* 1b: each arc u->v to a higher id takes its reverse's count. */
__global__ void up_triangles(dev_graph g, uint64_t m, uint32_t *t) {
  for (uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; e < m; e += (uint64_t)gridDim.x * blockDim.x) {
    const uint32_t u = row_of(g, e), v = g.adj[e];
    if (v > u) t[e] = t[g.off[v] + lower_bound(g.adj + g.off[v], deg(g, v), u)];
  }
}

/* f(p, z) for each member p of common[first, first + count) (count at most
 * 32) and each z in its row below both it and `below`: the rows' parts, a
 * prefix of each, laid over the warp's lanes (over_stretches). */
template <class F>
__device__ __forceinline__ void rows_below(const dev_graph &g, const uint32_t *common, uint32_t first, uint32_t count,
                                           uint32_t below, uint8_t *idx, F f) {
  const unsigned lane = threadIdx.x & 31;
  uint64_t row = 0, len = 0;
  if (lane < count) {
    const uint32_t y = common[first + lane];
    row = g.off[y];
    len = lower_bound(g.adj + row, deg(g, y), y < below ? y : below);
  }
  over_stretches(row, len, idx, [&](int m, uint64_t p, bool ok) {
    if (ok) f(first + (uint32_t)m, g.adj[p]);
  });
}

/* rows_below for every member of common[0, nc), dealt over the group's
 * warps in equal chunks of at most 32. */
template <int G, class F>
__device__ __forceinline__ void for_member_rows(const dev_graph &g, const uint32_t *common, uint32_t nc,
                                                uint32_t below, uint8_t *idx, F f) {
  const group<G> me;
  const uint32_t per = (nc + G - 1) / G, chunk = per < 1 ? 1 : per > 32 ? 32 : per;
  for (uint32_t c0 = me.gw * chunk; c0 < nc; c0 += G * chunk)
    rows_below(g, common, c0, nc - c0 < chunk ? nc - c0 : chunk, below, idx, f);
}

/* The triangles w < u < v on the arc v->u at index i of v's row
 * (each_below), w's places in the two rows to ia and ib (in no particular
 * order); returns how many. */
template <int G>
__device__ uint32_t triangles_below(const dev_graph &g, uint32_t v, uint64_t i, uint32_t u, const clique_scratch &x,
                                    unsigned *cnt) {
  if (group<G>().t == 0) *cnt = 0;
  group_barrier<G>();
  each_below<G>(g, v, i, u, [&](uint64_t a, uint64_t b) {
    const unsigned at = atomicAdd(cnt, 1u);
    x.ia[at] = (uint32_t)a, x.ib[at] = (uint32_t)b;
  });
  return counted<G>(cnt);
}

/* The rest of C, its members above u (the shorter of the two rows' parts
 * above u searched in the longer), listed after W's `found` and marked;
 * returns |C|. */
template <int G>
__device__ uint32_t common_above(const dev_graph &g, uint64_t arc, uint32_t v, uint32_t u, uint32_t found,
                                 uint32_t base, const clique_scratch &x, unsigned *cnt) {
  const group<G> me;
  const uint32_t *ru = g.adj + g.off[u];
  const uint64_t v0 = arc + 1, v1 = g.off[v + 1], u1 = g.off[u + 1], u0 = g.off[u] + lower_bound(ru, deg(g, u), u);
  const bool walk_v = v1 - v0 <= u1 - u0;
  const uint64_t w0 = walk_v ? v0 : u0, w1 = walk_v ? v1 : u1, s0 = walk_v ? u0 : v0, s1 = walk_v ? u1 : v1;
  if (me.t == 0) *cnt = 0;
  group_barrier<G>();
  for (uint64_t z = w0 + me.t; z < w1; z += 32 * G) {
    const uint32_t y = g.adj[z];
    if (!has(g.adj + s0, s1 - s0, y)) continue;
    const uint32_t at = found + atomicAdd(cnt, 1u);
    x.common[at] = y, x.mark[y] = base + at;
  }
  return found + counted<G>(cnt);
}

/* The edge's shared state: where C's marks start, |W|, |C|, the bitmap
 * (nc rows of `stride` words) and W's inner degrees. */
struct edge_state {
  uint32_t base, found, nc, stride;
  uint32_t *bits, *degw;
};

/* Step b: each inner edge y-z with z below u (and below y), y's bit z and
 * z's count; within W also z's bit y and y's count. */
template <int G>
__device__ void inner_edges(const dev_graph &g, uint32_t u, const clique_scratch &x, const edge_state &e,
                            uint8_t *idx) {
  for_member_rows<G>(g, x.common, e.nc, u, idx, [&](uint32_t p, uint32_t z) {
    const uint32_t q = x.mark[z] - e.base; /* past |W| where z is not in C (an old or no mark) */
    if (q >= e.found) return;
    atomicOr(&e.bits[(uint64_t)p * e.stride + q / 32], 1u << (q & 31));
    atomicAdd(&e.degw[q], 1u);
    if (p < e.found) {
      atomicOr(&e.bits[(uint64_t)q * e.stride + p / 32], 1u << (p & 31));
      atomicAdd(&e.degw[p], 1u);
    }
  });
}

/* x += y, where a wrap sets *wrapped: every credit is >= 0, so a partial
 * sum past 2^64 - 1 is a total past it (64-bit sums where 128-bit ones
 * spill registers). */
__device__ __forceinline__ void add_checked(ull &x, ull y, bool &wrapped) {
  x += y;
  wrapped |= x < y;
}

/* Step c, member p's sums: over the T = (w_q, u, v) whose L_T it is in
 * (its bits q), w_T - 1 (70) and T's t - 6 (66); for p in W, the triangles
 * of W's bitmap through it, twice each (both), and those whose highest
 * index is p, once (tops). */
struct member_terms {
  ull s70, s66, both, tops;
};

__device__ __forceinline__ member_terms member_sums(const clique_scratch &x, const edge_state &e, uint32_t p,
                                                    ull tuv, bool &wrapped) {
  const uint32_t *ap = e.bits + (uint64_t)p * e.stride;
  member_terms r = {0, 0, 0, 0};
  for (uint32_t j = 0; j < e.stride; j++)
    for (uint32_t word = ap[j]; word; word &= word - 1) {
      const uint32_t q = 32 * j + __ffs(word) - 1;
      r.s70 += e.degw[q] - 1ull;                     /* q's inner degree counts p; below |W| |C| in all */
      add_checked(r.s66, x.tsum[q] + tuv - 6, wrapped); /* each t here is at least 2 */
      if (p >= e.found) continue;
      const uint32_t *aq = e.bits + (uint64_t)q * e.stride;
      for (uint32_t k = 0; k < e.stride; k++) { /* below |W|^2 each */
        const uint32_t both = ap[k] & aq[k];
        r.both += __popc(both);
        if (q < p && k <= q / 32) r.tops += __popc(k < q / 32 ? both : both & ((1u << (q & 31)) - 1));
      }
    }
  return r;
}

/* Step c by the group's threads, a member each; u's, v's and the arc's
 * credits summed over each warp. */
template <int G>
__device__ void member_credits(const dev_graph &g, const uint32_t *t, uint64_t arc, uint32_t v, uint32_t u,
                               const clique_scratch &x, const edge_state &e, const clique_sums &s) {
  const group<G> me;
  const ull tuv = t[arc];
  ull k_vu = 0, pairs = 0, s61_u = 0, s61_v = 0, k5_uv = 0;
  bool wrapped = false;
  for (uint32_t p = me.t; p < e.nc; p += 32 * G) {
    const uint32_t y = x.common[p];
    const member_terms r = member_sums(x, e, p, tuv, wrapped);
    credit_u64(&s.s70[y], r.s70, s.overflow);
    credit_u64(&s.s66[y], r.s66, s.overflow);
    if (p >= e.found) continue;
    /* y = w of the triangle (w, u, v): its edges' 4-cliques, 61 and 71, and its 5-cliques */
    const ull k = e.degw[p], tvw = t[g.off[v] + x.ia[p]], tuw = t[g.off[u] + x.ib[p]];
    const ull c2 = k * (k - (k > 0)) / 2; /* C(k, 2) */
    credit_u64(&s.k4e[g.off[v] + x.ia[p]], k, s.overflow);
    credit_u64(&s.k4e[g.off[u] + x.ib[p]], k, s.overflow);
    credit_u64(&s.s71[y], c2, s.overflow);
    credit_u64(&s.s61[y], (tuw - 1) * (tvw - 1) - k, s.overflow);
    credit_u64(&s.k5[y], r.both / 2, s.overflow);
    add_checked(k_vu, k, wrapped), add_checked(pairs, c2, wrapped);
    add_checked(s61_u, (tuw - 1) * (tuv - 1) - k, wrapped), add_checked(s61_v, (tvw - 1) * (tuv - 1) - k, wrapped);
    add_checked(k5_uv, r.tops, wrapped);
  }
  if (__any_sync(0xffffffffu, wrapped) && (threadIdx.x & 31) == 0) atomicOr(s.overflow, 1);
  const i128 k_all = warp_sum((i128)k_vu), pairs_all = warp_sum((i128)pairs), s61_u_all = warp_sum((i128)s61_u),
             s61_v_all = warp_sum((i128)s61_v), k5_all = warp_sum((i128)k5_uv);
  if ((threadIdx.x & 31) == 0) {
    credit_sum(&s.k4e[arc], k_all, s.overflow);
    credit_sum(&s.s71[u], pairs_all, s.overflow), credit_sum(&s.s71[v], pairs_all, s.overflow);
    credit_sum(&s.s61[u], s61_u_all, s.overflow), credit_sum(&s.s61[v], s61_v_all, s.overflow);
    credit_sum(&s.k5[u], k5_all, s.overflow), credit_sum(&s.k5[v], k5_all, s.overflow);
  }
}

/* Marks at most this leave room for an edge's (one per member of C). */
constexpr uint32_t kMarkLimit = 0x7FFFFFFFu;

/* The first mark of an edge of nc members; marks only grow (those of
 * earlier edges lie below), until they near their end and the marks are
 * cleared.  `stamp` is the same on every thread of the group. */
template <int G>
__device__ uint32_t mark_base(const dev_graph &g, const clique_scratch &x, uint32_t nc, uint32_t &stamp) {
  if (stamp > kMarkLimit - nc) {
    for (uint64_t y = group<G>().t; y < g.n; y += 32 * G) x.mark[y] = 0;
    stamp = 0;
    group_barrier<G>();
  }
  const uint32_t base = stamp + 1; /* 0 is no mark */
  stamp += nc;
  return base;
}

/* Where a group's edge keeps its bitmap and W's inner degrees: in shared
 * memory where they fit (the group's warps' parts together), else in
 * global memory (degw: the slice's). */
struct edge_room {
  uint32_t *bits, *degw; /* shared */
  uint32_t bits_cap, degw_cap;
  uint32_t *global_bits; /* bitmap_per words a warp */
};

/* The arc v->u (u < v, arc) by a group of G warps, in the scratch x (the
 * group's first warp's slice) and room (its bitmap and degrees, zero, and
 * left zero).  *cnt is the group's counter in shared memory, idx the
 * warp's 32 bytes. */
template <int G>
__device__ void top_edge(const dev_graph &g, const uint32_t *t, uint64_t arc, uint32_t v, uint32_t u,
                         const clique_scratch &x, const edge_room &room, uint32_t &stamp, unsigned *cnt,
                         uint8_t *idx, const clique_sums &s) {
  const group<G> me;
  edge_state e;
  e.found = triangles_below<G>(g, v, arc - g.off[v], u, x, cnt);
  if (!e.found) return; /* no triangle below u: no L_T, no 5-clique either */
  e.base = mark_base<G>(g, x, t[arc], stamp);
  const uint32_t *rv = g.adj + g.off[v];
  for (uint32_t q = me.t; q < e.found; q += 32 * G) {
    const uint32_t w = rv[x.ia[q]];
    x.common[q] = w, x.mark[w] = e.base + q;
    x.tsum[q] = (ull)t[g.off[v] + x.ia[q]] + t[g.off[u] + x.ib[q]];
  }
  e.nc = common_above<G>(g, arc, v, u, e.found, e.base, x, cnt); /* its barriers publish W's too */
  const uint64_t words = bitmap_words(e.nc, e.found);
  e.stride = (e.found + 31) / 32;
  e.bits = words <= room.bits_cap ? room.bits : room.global_bits;
  e.degw = e.found <= room.degw_cap ? room.degw : x.degw;
  inner_edges<G>(g, u, x, e, idx);
  group_barrier<G>();
  member_credits<G>(g, t, arc, v, u, x, e, s);
  group_barrier<G>();
  for (uint64_t z = me.t; z < words; z += 32 * G) e.bits[z] = 0;
  for (uint32_t q = me.t; q < e.found; q += 32 * G) e.degw[q] = 0;
  /* the next edge's first barrier (triangles_below) orders these before its use */
}

/* 2b: the top edges of more than `heavy` triangles, listed, and the
 * largest bitmap one of them may need (in words, *most): |W| is below the
 * triangles, the arc's place in v's row and u's neighbours below u. */
__global__ void heavy_arcs(dev_graph g, uint64_t m, const uint32_t *t, uint32_t heavy, uint64_t *list,
                           unsigned long long *count, unsigned long long *most) {
  for (uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; e < m; e += (uint64_t)gridDim.x * blockDim.x) {
    if (t[e] <= heavy) continue;
    const uint32_t v = row_of(g, e), u = g.adj[e];
    if (u > v) continue;
    list[atomicAdd(count, 1ull)] = e;
    const uint64_t below_u = lower_bound(g.adj + g.off[u], deg(g, u), u), before = e - g.off[v];
    uint64_t f = t[e] < before ? t[e] : before;
    f = f < below_u ? f : below_u;
    atomicMax(most, (unsigned long long)bitmap_words(t[e], f));
  }
}

/* A warp's shared memory (dynamic), where the device has it: W's inner
 * degrees for a light edge, then bitmap words, enough for a light edge of
 * |W| up to 128; a block's heavy edge takes its warps' together. */
constexpr uint32_t kSharedBits = bitmap_words(kHeavyCommon, 128);

/* 2: the heavy top edges (list[0..*count)) a block each, from heavy_next;
 * then, in the same launch, every other arc v->u (u < v) with a triangle
 * a warp each, from next (heavy: the light edges' largest triangle count,
 * where the heavy ones were listed, else none).  The blocks that find no
 * heavy edge left walk light ones while a hub's block is still at its
 * edge.  bits: each warp's bitmap_per words in global memory, a block's
 * together, for the edges whose bitmap shared memory cannot hold. */
__global__ void __launch_bounds__(32 * kHeavyWarps)
    top_edges(dev_graph g, uint64_t m, const uint32_t *t, uint32_t *scratch, uint64_t maxdeg, uint32_t *bits,
              uint64_t bitmap_per, uint32_t shared_degw, uint32_t shared_bits, bool blocks, uint32_t heavy,
              const uint64_t *list, const unsigned long long *count, unsigned long long *heavy_next,
              unsigned long long *next, clique_sums s) {
  __shared__ unsigned long long item;
  __shared__ unsigned block_cnt, warp_cnt[kHeavyWarps];
  __shared__ uint8_t idx[kHeavyWarps][32]; /* over_stretches' */
  extern __shared__ uint32_t room_words[]; /* shared_degw, then shared_bits words a warp */
  const unsigned wib = threadIdx.x >> 5, warps = blockDim.x >> 5;
  uint32_t *degw_all = room_words, *bits_all = room_words + warps * shared_degw;
  for (uint32_t i = threadIdx.x; i < warps * (shared_degw + shared_bits); i += blockDim.x) room_words[i] = 0;
  __syncthreads();
  const clique_scratch x = clique_slice(scratch, g.n, maxdeg, global_warp());
  uint32_t stamp = 0; /* the scratch starts zeroed */
  const unsigned long long heavy_n = blocks ? *count : 0;
  if (heavy_n) {
    const clique_scratch first = clique_slice(scratch, g.n, maxdeg, (uint64_t)blockIdx.x * kHeavyWarps);
    const edge_room room = {bits_all, degw_all, kHeavyWarps * shared_bits, kHeavyWarps * shared_degw,
                            bits + (uint64_t)blockIdx.x * kHeavyWarps * bitmap_per};
    for (;;) {
      if (threadIdx.x == 0) item = take_long(heavy_next);
      __syncthreads();
      const unsigned long long it = item;
      __syncthreads(); /* every thread read it before thread 0 takes the next */
      if (it >= heavy_n) break;
      const uint64_t arc = list[it];
      top_edge<kHeavyWarps>(g, t, arc, row_of(g, arc), g.adj[arc], first, room, stamp, &block_cnt, idx[wib], s);
    }
  }
  const edge_room room = {bits_all + wib * shared_bits, degw_all + wib * shared_degw, shared_bits, shared_degw,
                          bits + (uint64_t)global_warp() * bitmap_per};
  for_wanted_arcs<1>(
      g, 0, m, next, [&](uint64_t arc) { return t[arc] > 0 && (!blocks || t[arc] <= heavy); },
      [](uint64_t, uint32_t v, uint32_t u) { return u < v; },
      [&](uint64_t arc, uint32_t v, uint32_t u) {
        top_edge<1>(g, t, arc, v, u, x, room, stamp, &warp_cnt[wib], idx[wib], s);
      });
}

/* 3: the sums by g's labels (orbit_cliques5.c's back_to_g), a thread per
 * vertex and per arc of gs: an edge's k4e is on its arc from the higher
 * id, twice (from both of its triangles through the edge); old and g_arc
 * (NULL where gs is g) name g's vertex and arc. */
__global__ void to_g(dev_graph gs, const uint32_t *old, const ull *g_arc, const ull *sums, ull *out) {
  const uint64_t n = gs.n, m = gs.off[n], at = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x,
                 step = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t x = at; x < n; x += step)
    for (int i = 0; i < 5; i++) out[i * n + (old ? old[x] : x)] = sums[i * n + x];
  for (uint64_t q = at; q < m; q += step) {
    const uint32_t a = row_of(gs, q), b = gs.adj[q];
    const uint64_t p = b < a ? q : gs.off[b] + lower_bound(gs.adj + gs.off[b], deg(gs, b), a);
    out[5 * n + (g_arc ? g_arc[q] : q)] = sums[5 * n + p] / 2;
  }
}

constexpr int kCounters = 5;

/* The device's side of a call. */
struct cbufs {
  const wm_gpu_graph *gg;
  int dev;
  uint64_t *g_off; /* g uploaded, where gg does not hold it */
  uint32_t *g_adj;
  ranking rk;      /* gs: g by descending degree, where g is not in that order already */
  uint32_t *t, *scratch, *bits;
  uint64_t *heavy; /* the heavy top edges (heavy_arcs) */
  ull *sums, *out, *next; /* next: the light arcs', the heavy ones', their count, their largest bitmap, 1's arcs */
  int *overflow;
  cudaEvent_t ev[4]; /* the ranking and triangles' start and end, the rest's */
};

/* The ranking's sorting buffers, freed (or never taken) once gs is made. */
void release_sorts(ranking &r) {
  void *p[] = {r.keys, r.sorted, r.arcs, r.tmp, r.rank};
  for (void *x : p)
    if (x) cudaFree(x);
  r.keys = r.sorted = r.arcs = NULL, r.tmp = NULL, r.rank = NULL;
}

void release(cbufs &b) {
  release_sorts(b.rk);
  void *p[] = {b.g_off, b.g_adj, b.rk.off, b.rk.adj, b.rk.old, b.rk.g_arc, b.t, b.scratch, b.bits, b.heavy, b.sums,
               b.out, b.next, b.overflow};
  for (void *x : p)
    if (x) cudaFree(x);
  for (cudaEvent_t e : b.ev)
    if (e) cudaEventDestroy(e);
  cudaGetLastError();
}

/* g on the device: gg's copy where it holds g, else uploaded. */
int upload(cbufs &b, const wm_graph *g, dev_graph &dg, wm_error *err) {
  void *o = NULL, *a = NULL;
  dg.n = g->n;
  if (wm_gpu_graph_on(b.gg, g, b.dev, &o, &a)) {
    dg.off = (const uint64_t *)o, dg.adj = (const uint32_t *)a;
    return WM_OK;
  }
  WM_CU(cudaMalloc(&b.g_off, ((size_t)g->n + 1) * sizeof *b.g_off));
  WM_CU(cudaMalloc(&b.g_adj, (g->m ? g->m : 1) * sizeof *b.g_adj));
  WM_CU(cudaMemcpy(b.g_off, g->offsets, ((size_t)g->n + 1) * sizeof *b.g_off, cudaMemcpyHostToDevice));
  if (g->m) WM_CU(cudaMemcpy(b.g_adj, g->adj, g->m * sizeof *b.g_adj, cudaMemcpyHostToDevice));
  dg.off = b.g_off, dg.adj = b.g_adj;
  return WM_OK;
}

/* The ranking's buffers (gpu_orbit_rank.cuh), gs's off and adj among them. */
int take_ranking(ranking &r, uint64_t n, uint64_t m, uint64_t maxdeg, dev_graph &ds, wm_error *err) {
  const uint64_t most = n > m ? n : m;
  WM_CU(cudaMalloc(&r.keys, most * sizeof *r.keys));
  WM_CU(cudaMalloc(&r.sorted, most * sizeof *r.sorted));
  WM_CU(cudaMalloc(&r.arcs, (m ? m : 1) * sizeof *r.arcs));
  WM_CU(cudaMalloc(&r.g_arc, (m ? m : 1) * sizeof *r.g_arc));
  WM_CU(cudaMalloc(&r.off, (n + 1) * sizeof *r.off));
  WM_CU(cudaMalloc(&r.adj, (m ? m : 1) * sizeof *r.adj));
  WM_CU(cudaMalloc(&r.old, n * sizeof *r.old));
  WM_CU(cudaMalloc(&r.rank, n * sizeof *r.rank));
  WM_CU(rank_space(n, m, maxdeg, &r.tmp_bytes));
  WM_CU(cudaMalloc(&r.tmp, r.tmp_bytes ? r.tmp_bytes : 1));
  ds.n = (uint32_t)n, ds.off = r.off, ds.adj = r.adj;
  return WM_OK;
}

/* Every buffer but the warps' scratch, before the timed windows: g, gs's
 * (none where same: gs is g), the triangles, the sums (by gs, then by g),
 * the heavy edges' list and the counters. */
int prepare(cbufs &b, const wm_graph *g, bool same, uint64_t maxdeg, dev_graph &dg, dev_graph &ds, wm_error *err) {
  const uint64_t n = g->n, m = g->m;
  int rc = upload(b, g, dg, err);
  if (rc) return rc;
  ds = dg;
  if (!same && (rc = take_ranking(b.rk, n, m, maxdeg, ds, err))) return rc;
  WM_CU(cudaMalloc(&b.t, (m ? m : 1) * sizeof *b.t));
  WM_CU(cudaMalloc(&b.sums, (5 * n + m) * sizeof *b.sums));
  WM_CU(cudaMalloc(&b.out, (5 * n + m) * sizeof *b.out));
  WM_CU(cudaMalloc(&b.heavy, (m / 2 ? m / 2 : 1) * sizeof *b.heavy));
  WM_CU(cudaMalloc(&b.next, kCounters * sizeof *b.next));
  WM_CU(cudaMalloc(&b.overflow, sizeof *b.overflow));
  WM_CU(cudaMemset(b.t, 0, (m ? m : 1) * sizeof *b.t));
  WM_CU(cudaMemset(b.sums, 0, (5 * n + m) * sizeof *b.sums));
  WM_CU(cudaMemset(b.next, 0, kCounters * sizeof *b.next));
  WM_CU(cudaMemset(b.overflow, 0, sizeof *b.overflow));
  for (cudaEvent_t &e : b.ev) WM_CU(cudaEventCreate(&e));
  return set_stop(err);
}

/* The warps' scratch and bitmaps, zeroed (between the timed windows: their
 * size waits for the heavy edges' largest bitmap, `most` words).  A light
 * edge's bitmap is at most heavy x ceil(heavy / 32) words; a heavy one
 * takes its block's warps' together, or where the warps are fewer than a
 * block, a warp's own.  *blocks: whether the heavy edges go to blocks. */
int scratch_for(cbufs &b, uint64_t n, uint64_t m, uint64_t maxdeg, uint32_t heavy, uint64_t most, unsigned *warps,
                uint64_t *bitmap_per, bool *blocks, wm_error *err) {
  const uint64_t light = bitmap_words(heavy, heavy), slice = clique_words(n, maxdeg);
  uint64_t per = light > (most + kHeavyWarps - 1) / kHeavyWarps ? light : (most + kHeavyWarps - 1) / kHeavyWarps;
  *warps = warps_fitting((slice + per) * sizeof(uint32_t), m / 2, "clique sums", err);
  if (!*warps) return err->code;
  *blocks = *warps >= kHeavyWarps;
  if (*blocks) {
    *warps -= *warps % kHeavyWarps; /* whole blocks of the heavy edges' */
  } else if (most > per) {
    per = most;
    if (!(*warps = warps_fitting((slice + per) * sizeof(uint32_t), m / 2, "clique sums", err))) return err->code;
  }
  *bitmap_per = per;
  WM_CU(cudaMalloc(&b.scratch, *warps * slice * sizeof(uint32_t)));
  WM_CU(cudaMalloc(&b.bits, *warps * per * sizeof(uint32_t)));
  WM_CU(cudaMemset(b.scratch, 0, *warps * slice * sizeof(uint32_t)));
  WM_CU(cudaMemset(b.bits, 0, *warps * per * sizeof(uint32_t)));
  return WM_OK;
}

/* top_edges' dynamic shared memory for a block of per_block warps of degw
 * + bits words each, and a word a warp beside (shared_room). */
size_t room_bytes(unsigned per_block, uint32_t degw, uint32_t bits) {
  return (size_t)per_block * (degw + bits + 1) * sizeof(uint32_t);
}

/* A warp's shared words (top_edges' dynamic shared memory) for W's
 * inner degrees and for the bitmap: kHeavyCommon and kSharedBits where
 * the device's shared memory holds them for a block of per_block warps,
 * else what it holds (the rest in global memory). */
int shared_room(int dev, unsigned per_block, uint32_t *degw, uint32_t *bits, wm_error *err) {
  int optin = 0;
  cudaFuncAttributes fa;
  WM_CU(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  WM_CU(cudaFuncGetAttributes(&fa, top_edges));
  size_t words = (size_t)optin > fa.sharedSizeBytes ? (optin - fa.sharedSizeBytes) / 4 / per_block : 0;
  words -= words > 0; /* one word a warp beside: a launch never asks for none */
  *degw = (uint32_t)(words < kHeavyCommon ? words : kHeavyCommon);
  *bits = (uint32_t)(words - *degw < kSharedBits ? words - *degw : kSharedBits);
  WM_CU(cudaFuncSetAttribute(top_edges, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int)room_bytes(per_block, *degw, *bits)));
  return WM_OK;
}

/* Window 1's kernels queued on the current device: gs ranked (unless
 * same), its triangles per arc, and where `list`, the heavy edges listed
 * with their largest bitmap (next[2], next[3]). */
int queue_triangles(cbufs &b, const dev_graph &dg, const dev_graph &ds, uint64_t m, uint64_t maxdeg, bool same,
                    uint32_t heavy, bool list, wm_error *err) {
  int sms = 0;
  WM_CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, b.dev));
  const unsigned free_blocks = (unsigned)(sms > 0 ? sms : 1) * kBlocksPerSm;
  const int rc = same ? WM_OK : rank_by_degree(dg, m, maxdeg, true, b.rk, err);
  if (rc || !m) return rc;
  down_triangles<<<free_blocks, kThreads>>>(ds, m, b.next + 4, b.t);
  WM_CU(cudaGetLastError());
  up_triangles<<<grid_of(m), 256>>>(ds, m, b.t);
  WM_CU(cudaGetLastError());
  if (list) {
    heavy_arcs<<<grid_of(m), 256>>>(ds, m, b.t, heavy, b.heavy, b.next + 2, b.next + 3);
    WM_CU(cudaGetLastError());
  }
  return WM_OK;
}

/* Window 1: gs ranked (unless same), its triangles per arc, and the heavy
 * edges listed with their largest bitmap (found: the two); *ms its time. */
int ranked_triangles(cbufs &b, const dev_graph &dg, const dev_graph &ds, uint64_t m, uint64_t maxdeg, bool same,
                     uint32_t heavy, unsigned long long found[2], float *ms, double *kernel_ms, wm_error *err) {
  WM_CU(cudaEventRecord(b.ev[0], 0));
  int rc = queue_triangles(b, dg, ds, m, maxdeg, same, heavy, true, err);
  if (rc) return rc;
  if ((rc = wm_gpu_end_timed(b.ev[0], b.ev[1], "orbits", ms, kernel_ms, err))) return rc;
  release_sorts(b.rk); /* their memory to the scratch */
  WM_CU(cudaMemcpy(found, b.next + 2, 2 * sizeof *found, cudaMemcpyDeviceToHost));
  return WM_OK;
}

/* The passes on gs, the sums by g's labels into s. */
int run_passes(cbufs &b, const wm_graph *g, bool same, wm_orbit_clique_sums *s, double *kernel_ms, wm_error *err) {
  const uint64_t n = g->n, m = g->m, maxdeg = wm_graph_max_degree(g) ? wm_graph_max_degree(g) : 1;
  const uint32_t heavy = heavy_common_now();
  dev_graph dg, ds;
  int rc = prepare(b, g, same, maxdeg, dg, ds, err);
  if (rc) return rc;
  unsigned long long found[2] = {0, 0}; /* the heavy edges, their largest bitmap */
  float ms[2] = {0, 0};
  if ((rc = ranked_triangles(b, dg, ds, m, maxdeg, same, heavy, found, &ms[0], kernel_ms, err))) return rc;
  unsigned warps = 0;
  uint64_t bitmap_per = 0;
  bool blocks = false;
  if (m && (rc = scratch_for(b, n, m, maxdeg, heavy, found[1], &warps, &bitmap_per, &blocks, err))) return rc;
  const clique_sums cs = {b.sums, b.sums + n, b.sums + 2 * n, b.sums + 3 * n, b.sums + 4 * n, b.sums + 5 * n,
                          b.overflow};
  const unsigned per_block = blocks ? kHeavyWarps : kWarpsPerBlock;
  uint32_t shared_degw = 0, shared_bits = 0;
  if (m && (rc = shared_room(b.dev, per_block, &shared_degw, &shared_bits, err))) return rc;
  WM_CU(cudaEventRecord(b.ev[2], 0));
  if (m) {
    const size_t room = room_bytes(per_block, shared_degw, shared_bits);
    top_edges<<<warps / per_block, 32 * per_block, room>>>(ds, m, b.t, b.scratch, maxdeg, b.bits, bitmap_per,
                                                            shared_degw, shared_bits, blocks, heavy, b.heavy,
                                                            b.next + 2, b.next + 1, b.next, cs);
    WM_CU(cudaGetLastError());
  }
  const unsigned back_blocks = grid_of(n > m ? n : m);
  to_g<<<back_blocks, 256>>>(ds, same ? NULL : b.rk.old, same ? NULL : b.rk.g_arc, b.sums, b.out);
  WM_CU(cudaGetLastError());
  if ((rc = wm_gpu_end_timed(b.ev[2], b.ev[3], "orbits", &ms[1], kernel_ms, err))) return rc;
  if (wm_trace_on("WM_ORBIT_TRACE"))
    fprintf(stderr, "orbits (clique sums, GPU): %u warps, g %s, %llu top edges of more than %u triangles by %s "
            "(bitmaps of up to %llu words; shared memory a warp: %u + %u words), kernels %.3f ms: ranking, "
            "triangles and heavy edges %.3f, clique sums and back %.3f\n", warps,
            same ? "in degree order (read as it is)" : "ranked by degree on the device", found[0], heavy,
            blocks ? "blocks" : "warps", found[1], shared_degw, shared_bits, ms[0] + ms[1], ms[0], ms[1]);
  int overflow = 0;
  WM_CU(cudaMemcpy(&overflow, b.overflow, sizeof overflow, cudaMemcpyDeviceToHost));
  if (overflow) return wm_fail(err, WM_EINPUT, "orbits: a sum over the 4-cliques at a vertex or an edge passes 2^64 - 1");
  uint64_t *to[6] = {s->s61, s->s66, s->s70, s->s71, s->k5, s->k4e};
  for (int i = 0; i < 6; i++)
    if (i < 5 || m) WM_CU(cudaMemcpy(to[i], b.out + i * n, (i < 5 ? n : m) * sizeof(ull), cudaMemcpyDeviceToHost));
  return WM_OK;
}

/* Whether g's ids are in descending degree order already (ties by index,
 * as the ranking has them): then gs is g. */
bool in_degree_order(const wm_graph *g) {
  for (uint32_t v = 0; v + 1 < g->n; v++)
    if (g->offsets[v + 1] - g->offsets[v] < g->offsets[v + 2] - g->offsets[v + 1]) return false;
  return true;
}

/* ---- over several devices -------------------------------------------- */

/* Over devices that reach device 0 with peer atomics, each ranks g and
 * counts the triangles per arc on its own copy (pass 1 whole: every top
 * edge reads every arc's triangles), then takes the top edges from two
 * counters in device 0's memory (sh: the light arcs', the heavy ones').
 * The ranking's keys, (degree, index), are all distinct, so every device
 * makes the same gs, arc for arc: an arc's index, and the triangles on
 * it, are the same everywhere.  The heavy edges are listed once, on device
 * 0, and that list and its largest bitmap given to every device, so that
 * an index names one edge everywhere and every device sizes its scratch
 * for them; where a light edge's bitmap and counters go (shared memory or
 * global) is each device's own.  Every credit is >= 0, so the devices'
 * sums added pass 2^64 - 1 exactly where one device's total would: the
 * host adds them (by gs's ids, before k4e is halved: an edge's two
 * triangles may be on two devices) and device 0 takes the total back to
 * g's labels through its ranking. */
struct cliques_over {
  cbufs b[WM_MAX_GPUS];
  dev_graph ds[WM_MAX_GPUS], dg[WM_MAX_GPUS];
  unsigned warps[WM_MAX_GPUS];
  uint64_t bitmap_per[WM_MAX_GPUS];
  uint32_t shared_degw[WM_MAX_GPUS], shared_bits[WM_MAX_GPUS]; /* shared_room's */
  bool blocks;                 /* the heavy edges go to blocks (on every device alike) */
  unsigned long long found[2]; /* the heavy edges, their largest bitmap (words) */
  ull *sh;
};

/* Every device's buffers, its counters' scope system-wide, and device 0's
 * shared counters zeroed. */
int prepare_all(cliques_over &C, int ndev, const wm_gpu_graph *gg, const wm_graph *g, bool same, uint64_t maxdeg,
                wm_error *err) {
  for (int d = 0; d < ndev; d++) {
    cbufs &b = C.b[d];
    b.gg = gg, b.dev = d;
    WM_CUD(d, cudaSetDevice(d));
    int rc = wm_gpu_on_device(err, d, prepare(b, g, same, maxdeg, C.dg[d], C.ds[d], err));
    if (!rc) rc = wm_gpu_on_device(err, d, set_stop(err, 1));
    if (rc) return rc;
  }
  WM_CUD(0, cudaSetDevice(0));
  WM_CUD(0, cudaMalloc(&C.sh, 2 * sizeof *C.sh));
  WM_CUD(0, cudaMemset(C.sh, 0, 2 * sizeof *C.sh));
  return WM_OK;
}

/* Window 1 on every device (its own ranking and pass-1 counter), device 0
 * listing the heavy edges; then that list given to the others. */
int triangles_all(cliques_over &C, int ndev, uint64_t m, uint64_t maxdeg, bool same, uint32_t heavy,
                  wm_error *err) {
  for (int d = 0; d < ndev; d++) {
    cbufs &b = C.b[d];
    WM_CUD(d, cudaSetDevice(d));
    WM_CUD(d, cudaEventRecord(b.ev[0], 0));
    const int rc = queue_triangles(b, C.dg[d], C.ds[d], m, maxdeg, same, heavy, d == 0, err);
    if (rc) return wm_gpu_on_device(err, d, rc);
    WM_CUD(d, cudaEventRecord(b.ev[1], 0));
  }
  WM_CUD(0, cudaSetDevice(0));
  WM_CUD(0, cudaMemcpy(C.found, C.b[0].next + 2, sizeof C.found, cudaMemcpyDeviceToHost));
  const unsigned long long count = C.found[0];
  uint64_t *list = (uint64_t *)malloc((count ? count : 1) * sizeof *list);
  if (!list) return wm_fail(err, WM_EINPUT, "orbits: out of memory for the heavy top edges (%llu)", count);
  cudaError_t e = cudaMemcpy(list, C.b[0].heavy, count * sizeof *list, cudaMemcpyDeviceToHost);
  int d = 0;
  for (d = 1; e == cudaSuccess && d < ndev; d++)
    if ((e = cudaSetDevice(d)) == cudaSuccess &&
        (e = cudaMemcpy(C.b[d].heavy, list, count * sizeof *list, cudaMemcpyHostToDevice)) == cudaSuccess)
      e = cudaMemcpy(C.b[d].next + 2, &count, sizeof count, cudaMemcpyHostToDevice);
  free(list);
  if (e != cudaSuccess) return wm_cuda_fail_dev(err, d - 1, e, "sharing the heavy top edges", __FILE__, __LINE__);
  return WM_OK;
}

/* Every device's scratch for the bitmaps of device 0's heavy edges (its
 * ranking's sorts freed first, their memory to it); *alike 0 where the
 * devices would not all send them to blocks (or all not), which the
 * shared counters need. */
int scratch_all(cliques_over &C, int ndev, uint64_t n, uint64_t m, uint64_t maxdeg, uint32_t heavy, bool *alike,
                wm_error *err) {
  *alike = true;
  for (int d = 0; d < ndev; d++) {
    bool blocks = false;
    WM_CUD(d, cudaSetDevice(d));
    release_sorts(C.b[d].rk);
    if (!m) continue;
    int rc = scratch_for(C.b[d], n, m, maxdeg, heavy, C.found[1], &C.warps[d], &C.bitmap_per[d], &blocks, err);
    if (rc) return wm_gpu_on_device(err, d, rc);
    if (d && blocks != C.blocks) *alike = false;
    C.blocks = blocks;
  }
  return WM_OK;
}

/* Pass 2 on every device from device 0's counters, each with the shared
 * memory it has, then everything waited for; *ms the slowest device's
 * windows. */
int top_edges_all(cliques_over &C, int ndev, uint64_t n, uint64_t m, uint64_t maxdeg, uint32_t heavy, float *ms,
                  wm_error *err) {
  const unsigned per_block = C.blocks ? kHeavyWarps : kWarpsPerBlock;
  for (int d = 0; d < ndev; d++) {
    cbufs &b = C.b[d];
    const clique_sums cs = {b.sums, b.sums + n, b.sums + 2 * n, b.sums + 3 * n, b.sums + 4 * n, b.sums + 5 * n,
                            b.overflow};
    WM_CUD(d, cudaSetDevice(d));
    if (m) {
      const int rc = shared_room(d, per_block, &C.shared_degw[d], &C.shared_bits[d], err);
      if (rc) return wm_gpu_on_device(err, d, rc);
    }
    WM_CUD(d, cudaEventRecord(b.ev[2], 0));
    if (m) {
      const size_t room = room_bytes(per_block, C.shared_degw[d], C.shared_bits[d]);
      top_edges<<<C.warps[d] / per_block, 32 * per_block, room>>>(
          C.ds[d], m, b.t, b.scratch, maxdeg, b.bits, C.bitmap_per[d], C.shared_degw[d], C.shared_bits[d], C.blocks,
          heavy, b.heavy, b.next + 2, C.sh + 1, C.sh, cs);
    }
    WM_CUD(d, cudaGetLastError());
    WM_CUD(d, cudaEventRecord(b.ev[3], 0));
  }
  int rc = o5_wait_all(ndev, err);
  cudaEvent_t s[WM_MAX_GPUS], e[WM_MAX_GPUS];
  float first = 0, second = 0;
  for (int d = 0; d < ndev; d++) s[d] = C.b[d].ev[0], e[d] = C.b[d].ev[1];
  if (!rc) rc = o5_slowest(ndev, s, e, &first, err);
  for (int d = 0; d < ndev; d++) s[d] = C.b[d].ev[2], e[d] = C.b[d].ev[3];
  if (!rc) rc = o5_slowest(ndev, s, e, &second, err);
  *ms = first + second;
  return rc;
}

/* The devices' sums (5n + m words by gs) added into total, exactly (tmp:
 * as many words); 1 in *over where one device's or the total passed
 * 2^64 - 1. */
int add_sums(cliques_over &C, int ndev, uint64_t words, ull *total, ull *tmp, int *over, wm_error *err) {
  for (int d = 0; d < ndev; d++) {
    int of = 0;
    WM_CUD(d, cudaSetDevice(d));
    WM_CUD(d, cudaMemcpy(&of, C.b[d].overflow, sizeof of, cudaMemcpyDeviceToHost));
    WM_CUD(d, cudaMemcpy(d ? tmp : total, C.b[d].sums, words * sizeof *total, cudaMemcpyDeviceToHost));
    *over |= of;
    for (uint64_t i = 0; d && i < words; i++) *over |= __builtin_add_overflow(total[i], tmp[i], &total[i]);
  }
  return WM_OK;
}

/* total (by gs) to g's labels on device 0 (to_g, through its ranking
 * unless same), into s; *ms its time. */
int back_to_g(cliques_over &C, uint64_t n, uint64_t m, bool same, const ull *total, wm_orbit_clique_sums *s,
              float *ms, wm_error *err) {
  cbufs &b = C.b[0];
  WM_CUD(0, cudaSetDevice(0));
  WM_CUD(0, cudaMemcpy(b.sums, total, (5 * n + m) * sizeof *total, cudaMemcpyHostToDevice));
  WM_CUD(0, cudaEventRecord(b.ev[2], 0));
  const unsigned back_blocks = grid_of(n > m ? n : m);
  to_g<<<back_blocks, 256>>>(C.ds[0], same ? NULL : b.rk.old, same ? NULL : b.rk.g_arc, b.sums, b.out);
  WM_CUD(0, cudaGetLastError());
  WM_CUD(0, cudaEventRecord(b.ev[3], 0));
  WM_CUD(0, cudaEventSynchronize(b.ev[3]));
  WM_CUD(0, cudaEventElapsedTime(ms, b.ev[2], b.ev[3]));
  uint64_t *to[6] = {s->s61, s->s66, s->s70, s->s71, s->k5, s->k4e};
  for (int i = 0; i < 6; i++)
    if (i < 5 || m) WM_CUD(0, cudaMemcpy(to[i], b.out + i * n, (i < 5 ? n : m) * sizeof(ull), cudaMemcpyDeviceToHost));
  return WM_OK;
}

/* The passes over D's devices into s; *alone where they cannot share them
 * (then s is untouched and the caller counts on one device). */
int sums_over(cliques_over &C, const o5_devices &D, const wm_gpu_graph *gg, const wm_graph *g, bool same,
              wm_orbit_clique_sums *s, double *kernel_ms, bool *alone, wm_error *err) {
  const uint64_t n = g->n, m = g->m, maxdeg = wm_graph_max_degree(g) ? wm_graph_max_degree(g) : 1;
  const uint64_t words = 5 * n + m;
  const uint32_t heavy = heavy_common_now();
  float ms = 0, back_ms = 0;
  bool alike = true;
  int rc = prepare_all(C, D.n, gg, g, same, maxdeg, err);
  if (!rc) rc = triangles_all(C, D.n, m, maxdeg, same, heavy, err);
  if (!rc) rc = scratch_all(C, D.n, n, m, maxdeg, heavy, &alike, err);
  if (!rc && !alike) {
    if (wm_trace_on("WM_ORBIT_TRACE")) /* too little memory on some for a block per heavy edge */
      fprintf(stderr, "orbits (clique sums): on one GPU of %d (the devices' scratch differs)\n", D.n);
    *alone = true;
    return WM_OK;
  }
  if (!rc) rc = top_edges_all(C, D.n, n, m, maxdeg, heavy, &ms, err);
  if (rc) return rc;
  ull *total = (ull *)malloc(2 * words * sizeof *total);
  if (!total) return wm_fail(err, WM_EINPUT, "orbits: out of memory for adding the devices' clique sums");
  int over = 0;
  rc = add_sums(C, D.n, words, total, total + words, &over, err);
  if (!rc && over)
    rc = wm_fail(err, WM_EINPUT, "orbits: a sum over the 4-cliques at a vertex or an edge passes 2^64 - 1");
  if (!rc) rc = back_to_g(C, n, m, same, total, s, &back_ms, err);
  free(total);
  if (rc) return rc;
  if (kernel_ms) *kernel_ms += ms + back_ms;
  if (wm_trace_on("WM_ORBIT_TRACE"))
    fprintf(stderr, "orbits (clique sums, %d GPUs, %s): %u warps on device 0, g %s, %llu top edges of more than %u "
            "triangles by %s (bitmaps of up to %llu words; shared memory a warp on device 0: %u + %u words), "
            "kernels %.3f ms (the slowest device's, each window)\n",
            D.n, o5_how(D), C.warps[0], same ? "in degree order (read as it is)" : "ranked by degree on each device",
            C.found[0], heavy, C.blocks ? "blocks" : "warps", C.found[1], C.shared_degw[0], C.shared_bits[0],
            ms + back_ms);
  return WM_OK;
}

/* sums_over with every buffer freed and the caller's device current again,
 * on every path. */
int run_over(const o5_devices &D, const wm_gpu_graph *gg, const wm_graph *g, bool same, wm_orbit_clique_sums *s,
             double *kernel_ms, bool *alone, wm_error *err) {
  int was = 0;
  WM_CU(cudaGetDevice(&was));
  cliques_over *C = (cliques_over *)calloc(1, sizeof *C);
  if (!C) return wm_fail(err, WM_EINPUT, "orbits: out of memory for the devices' clique sums");
  const int rc = sums_over(*C, D, gg, g, same, s, kernel_ms, alone, err);
  o5_release_all(D, C->b, C->sh, was, [](cbufs &x) { release(x); });
  free(C);
  return rc;
}

}  // namespace

int wm_orbit_clique_sums_gpu(const wm_graph *g, const struct wm_gpu_graph *gg, int gpus, wm_orbit_clique_sums *s,
                             double *kernel_ms, wm_error *err) {
  if (!g->n) return WM_OK;
  o5_devices D;
  if (o5_devices_open(gpus, D, err)) return err->code;
  if (D.n > 1 && !D.shared && wm_trace_on("WM_ORBIT_TRACE")) /* the kernels take their counters whole */
    fprintf(stderr, "orbits (clique sums): on one GPU of %d (%s)\n", D.n, D.why);
  const bool same = in_degree_order(g);
  bool alone = D.n == 1 || !D.shared;
  int rc = alone ? WM_OK : run_over(D, gg, g, same, s, kernel_ms, &alone, err);
  if (!rc && alone) {
    cbufs b;
    memset(&b, 0, sizeof b);
    b.gg = gg;
    rc = cudaGetDevice(&b.dev) == cudaSuccess ? WM_OK : wm_fail(err, WM_EDEVICE, "orbits: no CUDA device");
    if (!rc) rc = run_passes(b, g, same, s, kernel_ms, err);
    release(b);
  }
  return rc;
}
