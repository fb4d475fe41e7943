/* The motif formulas' aggregates on the GPU: the passes of
 * motif_sums_cpu.c, which is their oracle, with a warp where the CPU has a
 * thread.
 *   1. triangles per edge: a warp per arc v->u (u < v), the lanes searching
 *      v's row before u in u's row above u; then copied to the arcs u->v;
 *      for size 5 also the 5-cycles' triangle term, from where each
 *      triangle's lowest vertex sits in the other two rows;
 *   2. vertex and edge sums: a warp per vertex, lanes over its row;
 *   3. 4-cycles: a warp per top u, with the per-vertex scratch of the CPU
 *      thread in device memory (one slice per warp; the number of warps is
 *      sized from the free memory); for size 5 it writes the pair lists S_uw
 *      (in chunks of tops that fit) and a bucket per list, which a second
 *      kernel takes a warp each, so that a hub's thousands of lists spread
 *      over the device;
 *   4. 4-cliques per triangle and 5-cliques: a warp per arc v->u (u < v),
 *      the lanes over its triangles and common neighbours.
 * Tops and vertices are handed out by an atomic counter, lowest id (the
 * highest degree) first; a top of many more paths than the warps' average
 * is swept by a block.  On one device alone, passes 1 and 2 run on a
 * stream of their own (start_early), beside the plan and pass 3.  Each
 * lane keeps 128-bit partial sums; a warp's go to its own slot (passes 1
 * and 2: side rows, atomically), and a last kernel adds them with
 * overflow checks, so that one row comes back.
 *
 * Over several GPUs (policy.gpus), each device holds the graph and runs
 * pass 1 (and the tops' path counts) whole, since every later pass reads
 * the triangles of every edge (device 0 alone adds the 5-cycles' triangle
 * term); the vertices of pass 2, the tops of pass 3 and the arcs of pass 4
 * come from counters in device 0's memory that every device grabs from
 * (system-scope atomics over peer access), so that each item is summed on
 * one device, whichever is free; each device writes and reads its own pair
 * lists (the lists of the tops it took); the heavy tops go to blocks on
 * every device, from a shared counter too (size 4's listed in ascending
 * order, the same on every device).  The host adds every device's row of
 * sums. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <mutex>

#include <cub/cub.cuh>

#include "support.h"
#include "gpu_check.h"
#include "motif_sums.h"

namespace {

typedef __int128 i128;
constexpr int kWarpsPerBlock = 4;
constexpr int kThreads = 32 * kWarpsPerBlock;
/* The passes wait on dependent loads (rows, stamps, tallies): 32 warps per
 * SM hide more of that than 16, at 64 registers a thread. */
constexpr int kBlocksPerSm = 8;

struct dev_graph {
  uint32_t n;
  const uint64_t *off;
  const uint32_t *adj;
};

/* One warp's slice of the scratch: arrays of n entries, then rows of the
 * largest degree (pass 4's common, ia and ib, and xs where no array holds
 * it).  Where the arrays of all kernels fit every warp the device runs, one
 * layout serves them all and the kernels share arrays (the sweeps leave cnt
 * and pos zeroed, as the tallies and deg_s need, and mark a top's
 * neighbours with even values where the stamps are odd).  Stamps mark
 * membership without clearing: a warp's stamp only grows, across the
 * kernels too (scratch_pool.stamps).  Where they do not fit, each kernel
 * lays out only the arrays it uses, over as many warps as fit, and the
 * scratch is zeroed between layouts: the fewer arrays, the more warps. */
struct warp_scratch {
  uint32_t *cnt;     /* paths u-v-w per w */
  uint32_t *touched; /* the w with cnt[w] > 0 */
  uint32_t *middle;  /* top_mark(u) for the top u's neighbours below it */
  uint32_t *pos;     /* where w's list goes, then its end */
  uint32_t *w_mark;  /* stamp: a neighbour of the list's w (or above w, pass 4) */
  uint32_t *deg_s;   /* per member: neighbours inside the list; shares pos (kLists: tally) */
  uint32_t *in_s;    /* stamp: in the current list (or row); shares middle */
  uint32_t *tally;   /* per x above the top: list members adjacent to x; shares cnt */
  uint32_t *xs;      /* the x with tally[x] > 0; shares touched, else rows */
  uint64_t xs_cap;   /* its entries */
  uint32_t *common;  /* N(u) & N(v), pass 4 */
  uint32_t *ia, *ib; /* a triangle's third vertex in the two rows, pass 4 */
};

/* Which n-array of a slice holds cnt, touched, middle, pos, w_mark and
 * deg_s (-1: none), how many rows of the largest degree follow, and where
 * touched has no array, the row xs starts at (it takes the rest). */
struct layout {
  signed char at[6];
  unsigned char arrays, rows, xs_row;
};

constexpr layout kAll = {{0, 1, 2, 3, 4, 3}, 5, 3, 0};          /* every kernel */
constexpr layout kFour = {{0, 1, 2, -1, -1, -1}, 3, 0, 0};      /* size 4's sweeps */
constexpr layout kSweeps = {{0, 1, 2, 3, 2, 3}, 4, 0, 0};       /* size 5's sweeps */
/* The pair lists stamp w's neighbours above the top and count the
 * vertices above it adjacent to the list (tally), and stamp the list's
 * members below the top and count their edges inside it (deg_s): never
 * the same vertex, so two arrays hold the four; xs gets three rows. */
constexpr layout kLists = {{0, -1, 1, -1, 1, 0}, 2, 3, 0};
constexpr layout kCliques = {{-1, -1, 0, -1, 2, 1}, 3, 4, 3};   /* pass 4: xs of at most a row */
constexpr layout kEdgeCliques = {{-1, 1, 0, -1, -1, -1}, 2, 0, 0}; /* size 4's 4-cliques per edge */

struct scratch_pool {
  uint32_t *base;
  uint32_t *stamps;  /* each warp's last stamp */
  uint64_t per_warp; /* words */
  uint64_t n, maxdeg;
  layout l;
};

__host__ __device__ uint64_t words_per_warp(const layout &l, uint64_t n, uint64_t maxdeg) {
  return l.arrays * n + l.rows * maxdeg;
}

__device__ warp_scratch slice(const scratch_pool &p, unsigned warp) {
  uint32_t *b = p.base + (uint64_t)warp * p.per_warp;
  warp_scratch s;
  uint32_t **arrays[] = {&s.cnt, &s.touched, &s.middle, &s.pos, &s.w_mark, &s.deg_s};
  for (int i = 0; i < 6; i++) *arrays[i] = p.l.at[i] < 0 ? NULL : b + (uint64_t)p.l.at[i] * p.n;
  s.tally = s.cnt, s.in_s = s.middle;
  s.common = b + (uint64_t)p.l.arrays * p.n;
  s.ia = s.common + p.maxdeg;
  s.ib = s.ia + p.maxdeg;
  s.xs = s.touched ? s.touched : s.common + (uint64_t)p.l.xs_row * p.maxdeg;
  s.xs_cap = s.touched ? p.n : (uint64_t)(p.l.rows - p.l.xs_row) * p.maxdeg;
  return s;
}

__device__ __forceinline__ uint64_t deg(const dev_graph &g, uint32_t v) { return g.off[v + 1] - g.off[v]; }

/* A top's mark on its neighbours (even) and a fresh stamp (odd): the two
 * share an array.  n < 2^31, so the marks do not wrap. */
__device__ __forceinline__ uint32_t top_mark(uint32_t u) { return 2 * (u + 1); }
__device__ __forceinline__ uint32_t fresh(uint32_t &stamp) { return 2 * ++stamp + 1; }

__device__ __forceinline__ uint64_t lower_bound(const uint32_t *row, uint64_t len, uint32_t x) {
  uint64_t lo = 0, hi = len;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (row[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* The same by doubling steps from the front: about 2 log2 of the answer's
 * position loads instead of log2 len.  For the rows of a heavy top's
 * middles, whose bound (the top, a low id) lies near their front: a block
 * sweeping a hub on a small graph is a chain of such searches. */
__device__ __forceinline__ uint64_t front_lower_bound(const uint32_t *row, uint64_t len, uint32_t x) {
  uint64_t below = 0, step = 1; /* row[0, below) < x */
  while (below + step <= len && row[below + step - 1] < x) below += step, step <<= 1;
  const uint64_t end = below + step - 1 < len ? below + step - 1 : len; /* row[end] >= x, or the end */
  return below + lower_bound(row + below, end - below, x);
}

__device__ __forceinline__ int has(const uint32_t *row, uint64_t len, uint32_t x) {
  uint64_t i = lower_bound(row, len, x);
  return i < len && row[i] == x;
}

__device__ __forceinline__ i128 choose(i128 x, int r) {
  if (x < r) return 0;
  if (r == 2) return x * (x - 1) / 2;
  if (r == 3) return x * (x - 1) * (x - 2) / 6;
  return x * (x - 1) * (x - 2) / 6 * (x - 3) / 4;
}

/* A lane's partial sums, with an overflow flag. */
struct acc {
  i128 s[WM_SUM_COUNT];
  int overflow;
};

/* s += x, wrapping, with overflow set where it wrapped. */
__device__ __forceinline__ void checked_add(i128 &s, i128 x, int &overflow) {
  const i128 y = (i128)((unsigned __int128)s + (unsigned __int128)x);
  if ((s >= 0) == (x >= 0) && (y >= 0) != (x >= 0)) overflow = 1;
  s = y;
}

__device__ __forceinline__ void add(acc &a, int which, i128 x) { checked_add(a.s[which], x, a.overflow); }

__device__ __forceinline__ i128 shfl_xor(i128 x, int m) {
  uint64_t lo = (uint64_t)x, hi = (uint64_t)((unsigned __int128)x >> 64);
  lo = __shfl_xor_sync(0xffffffffu, lo, m);
  hi = __shfl_xor_sync(0xffffffffu, hi, m);
  return (i128)(((unsigned __int128)hi << 64) | lo);
}

__device__ __forceinline__ i128 warp_sum(i128 x) {
  for (int m = 16; m; m >>= 1) x += shfl_xor(x, m);
  return x;
}

__device__ __forceinline__ uint64_t warp_sum_u64(uint64_t x) {
  for (int m = 16; m; m >>= 1) x += __shfl_xor_sync(0xffffffffu, x, m);
  return x;
}

/* The sum of the warp's lanes' x, on every lane; overflow set where a
 * partial sum wrapped. */
__device__ __forceinline__ i128 warp_sum_checked(i128 x, int &overflow) {
  for (int m = 16; m; m >>= 1) checked_add(x, shfl_xor(x, m), overflow);
  return x;
}

/* The warp's lanes add their partials, lane 0 writes them to the warp's slot. */
__device__ void flush(acc &a, i128 *slots, int *overflow, unsigned warp) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int i = 0; i < WM_SUM_COUNT; i++) {
    const i128 v = warp_sum_checked(a.s[i], a.overflow);
    if (lane == 0) slots[(uint64_t)warp * WM_SUM_COUNT + i] += v;
  }
  if (__any_sync(0xffffffffu, a.overflow) && lane == 0) atomicOr(overflow, 1);
}

/* Set on each device before its passes: 1 when some of the counters
 * are shared by several devices (device 0's memory), whose grabs must then
 * be atomic across the devices. */
__constant__ int c_system_scope;

/* The next item from a global counter, for the calling thread. */
__device__ __forceinline__ unsigned long long take_next(unsigned long long *next) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600
  return c_system_scope ? atomicAdd_system(next, 1ull) : atomicAdd(next, 1ull);
#else
  return atomicAdd(next, 1ull); /* never shared below sm_60 (no peer atomics) */
#endif
}

/* The next item for the warp. */
__device__ __forceinline__ unsigned long long grab64(unsigned long long *next) {
  unsigned long long x = 0;
  if ((threadIdx.x & 31) == 0) x = take_next(next);
  return __shfl_sync(0xffffffffu, x, 0);
}

/* The same for vertex ids, saturated so that it never wraps past n. */
__device__ __forceinline__ uint32_t grab(unsigned long long *next) {
  const unsigned long long x = grab64(next);
  return x < 0xFFFFFFFFull ? (uint32_t)x : 0xFFFFFFFFu;
}

__device__ __forceinline__ unsigned global_warp() { return (blockIdx.x * blockDim.x + threadIdx.x) >> 5; }

/* The row holding arc a: off[v] <= a < off[v + 1]. */
__device__ __forceinline__ uint32_t row_of(const dev_graph &g, unsigned long long a) {
  uint64_t lo = 0, hi = g.n;
  while (lo + 1 < hi) {
    const uint64_t mid = (lo + hi) / 2;
    if (g.off[mid] <= a) lo = mid;
    else hi = mid;
  }
  return (uint32_t)lo;
}

/* ---- pass 1 ------------------------------------------------------------ */

/* Adds x to *at, exactly modulo 2^128, where several warps may add. */
__device__ __forceinline__ void atomic_add_i128(i128 *at, i128 x) {
  unsigned long long *w = (unsigned long long *)at;
  const unsigned long long lo = (unsigned long long)x, hi = (unsigned long long)((unsigned __int128)x >> 64);
  const unsigned long long old = atomicAdd(&w[0], lo);
  atomicAdd(&w[1], hi + (old + lo < old ? 1ull : 0ull));
}

/* The calling warp takes the arcs of [a0, a1) Batch (at most 32) at a
 * time from next; lane l < Batch tests the l-th, first by pre(arc), then
 * by want(arc, v, u) with v its row and u its head, and f(arc, v, u) runs
 * for the wanted ones in turn, by the whole warp.  Where each arc's work
 * is short, a batch costs one atomic on the counter instead of one per arc
 * (the counter's contention was half of kron-20's triangles per edge), and
 * arcs that need no work take no turn; where it is long, a batch of one
 * keeps the warps' shares even. */
template <unsigned Batch, class P, class W, class F>
__device__ __forceinline__ void for_wanted_arcs(const dev_graph &g, uint64_t a0, uint64_t a1,
                                                unsigned long long *next, P pre, W want, F f) {
  static_assert(Batch >= 1 && Batch <= 32, "a batch is at most a warp's lanes");
  const unsigned lane = threadIdx.x & 31;
  for (uint64_t b = a0 + Batch * grab64(next); b < a1; b = a0 + Batch * grab64(next)) {
    const uint64_t arc = b + lane;
    uint32_t v = 0, u = 0;
    bool wanted = false;
    if (lane < Batch && arc < a1 && pre(arc)) v = row_of(g, arc), u = g.adj[arc], wanted = want(arc, v, u);
    for (unsigned mask = __ballot_sync(0xffffffffu, wanted); mask; mask &= mask - 1) {
      const int l = __ffs(mask) - 1;
      f(b + l, __shfl_sync(0xffffffffu, v, l), __shfl_sync(0xffffffffu, u, l));
    }
  }
}

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

/* flush where warps outnumber the slots: warp w adds the sums it has to
 * slot w % slots_n, atomically. */
__device__ void flush_shared(acc &a, i128 *slots, unsigned slots_n, int *overflow) {
  const int lane = threadIdx.x & 31;
  i128 *row = slots + (uint64_t)(global_warp() % slots_n) * WM_SUM_COUNT;
#pragma unroll
  for (int i = 0; i < WM_SUM_COUNT; i++) {
    if (!__any_sync(0xffffffffu, a.s[i] != 0)) continue;
    const i128 v = warp_sum_checked(a.s[i], a.overflow);
    if (lane == 0 && v) atomic_add_i128(&row[i], v);
  }
  if (__any_sync(0xffffffffu, a.overflow) && lane == 0) atomicOr(overflow, 1);
}

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

/* ---- pass 3 ------------------------------------------------------------ */

/* One list S_uw of c >= 2 members at buf[start..start + c). */
struct bucket {
  uint32_t u, w, c;
  uint32_t start; /* in the chunk's lists, fewer than 2^32 entries */
};

struct warp_counters {
  unsigned nt, nx;
};

/* Appends the lanes' records where `want`, one atomic per warp. */
__device__ __forceinline__ void append(bucket *out, unsigned long long *n, bool want, const bucket &b) {
  const unsigned mask = __ballot_sync(0xffffffffu, want);
  if (!mask) return;
  const int lane = threadIdx.x & 31, leader = __ffs(mask) - 1;
  unsigned long long base = 0;
  if (lane == leader) base = atomicAdd(n, (unsigned long long)__popc(mask));
  base = __shfl_sync(0xffffffffu, base, leader);
  if (want) out[base + __popc(mask & ((1u << lane) - 1))] = b;
}

/* The lanes' stretches of adjacency positions, [row, row + len) each,
 * laid end to end over the warp 32 positions at a time, so that short
 * stretches do not idle lanes and a long one does not hold one lane: each
 * window calls f(m, p, ok) on every lane (converged, for the caller's
 * shuffles), p the lane's position in lane m's stretch, ok false past
 * the end.  Each 32 positions, the lanes whose stretch starts among them
 * leave their number in idx (the warp's 32 bytes of shared memory) at
 * that offset; a position's lane is then the last start at or before it,
 * or the lane the last window ended in. */
template <class F>
__device__ __forceinline__ void over_stretches(uint64_t row, uint64_t len, uint8_t *idx, F f) {
  const int lane = threadIdx.x & 31;
  uint64_t incl = len;
  for (int m = 1; m < 32; m <<= 1) {
    const uint64_t o = __shfl_up_sync(0xffffffffu, incl, m);
    if (lane >= m) incl += o;
  }
  const uint64_t total = __shfl_sync(0xffffffffu, incl, 31);
  const uint64_t start = incl - len, rel = row - start;
  int cur = 0;
  for (uint64_t base = 0; base < total; base += 32) {
    const bool starts_here = len > 0 && start >= base && start < base + 32;
    if (starts_here) idx[start - base] = (uint8_t)lane;
    const unsigned starts = __reduce_or_sync(0xffffffffu, starts_here ? 1u << (unsigned)(start - base) : 0u);
    __syncwarp();
    const unsigned upto = starts & (0xffffffffu >> (31 - lane));
    const int m = upto ? idx[31 - __clz(upto)] : cur;
    cur = __shfl_sync(0xffffffffu, m, 31);
    const uint64_t at = base + lane, p = __shfl_sync(0xffffffffu, rel, m) + at;
    __syncwarp(); /* idx read before the next window writes it */
    f(m, p, at < total);
  }
}

/* Calls f(s, y) for each member s of S[0..c) and each y in s's row with
 * from <= y < s (neighbours ranked above s, below from), 32 members at a
 * time (over_stretches).  for_rows_between takes y < below too. */
template <class F>
__device__ __forceinline__ void for_rows_between(const dev_graph &g, const uint32_t *S, uint32_t c, uint32_t from,
                                                 uint32_t below, uint8_t *idx, F f) {
  const int lane = threadIdx.x & 31;
  for (uint32_t c0 = 0; c0 < c; c0 += 32) {
    uint32_t s = 0;
    uint64_t len = 0, row = 0;
    if (c0 + lane < c) {
      s = S[c0 + lane];
      const uint64_t d = deg(g, s), begin = from ? lower_bound(g.adj + g.off[s], d, from) : 0;
      row = g.off[s] + begin;
      const uint64_t end = lower_bound(g.adj + g.off[s], d, s < below ? s : below);
      len = end > begin ? end - begin : 0;
    }
    over_stretches(row, len, idx, [&](int m, uint64_t p, bool ok) {
      const uint32_t ms = __shfl_sync(0xffffffffu, s, m);
      if (ok) f(ms, g.adj[p]);
    });
  }
}

template <class F>
__device__ __forceinline__ void for_rows_above(const dev_graph &g, const uint32_t *S, uint32_t c, uint32_t from,
                                               uint8_t *idx, F f) {
  for_rows_between(g, S, c, from, 0xFFFFFFFFu, idx, f);
}

/* Calls f(i, v, j) for each path u-v-w of top u: v = ru[i] for i in
 * [first, du) (the warp takes 32 of them from first + offset, every
 * step), w = v's j-th neighbour, j past u.  Spread: the 32 rows past u
 * laid end to end over the lanes (over_stretches, idx the warp's 32
 * bytes), for a block's heavy top, whose warps' chains of dependent
 * loads are the pass's length on a small graph.  Else a lane takes each
 * short row and rows longer than 64 past u are taken by the whole warp in
 * turn, so that a hub among the middles does not hold one lane; a light
 * top's warp costs fewer instructions so, among many warps. */
template <bool Spread, class F>
__device__ __forceinline__ void for_paths(const dev_graph &g, uint32_t u, const uint32_t *ru, uint64_t first,
                                          uint64_t du, uint8_t *idx, F f, uint64_t offset = 0, uint64_t step = 32) {
  const int lane = threadIdx.x & 31;
  for (uint64_t i0 = first + offset; i0 < du; i0 += step) {
    const uint64_t i = i0 + lane;
    uint32_t v = 0;
    uint64_t j0 = 0, dv = 0, ov = 0;
    if (i < du) {
      v = ru[i];
      dv = deg(g, v);
      ov = g.off[v];
      j0 = Spread ? front_lower_bound(g.adj + ov, dv, u + 1) : lower_bound(g.adj + ov, dv, u + 1);
    }
    if (Spread) {
      over_stretches(ov + j0, dv - j0, idx, [&](int m, uint64_t p, bool ok) {
        const uint64_t mi = __shfl_sync(0xffffffffu, i, m), mo = __shfl_sync(0xffffffffu, ov, m);
        const uint32_t mv = __shfl_sync(0xffffffffu, v, m);
        if (ok) f(mi, mv, p - mo);
      });
      continue;
    }
    const bool wide = i < du && dv - j0 > 64;
    if (i < du && !wide)
      for (uint64_t j = j0; j < dv; j++) f(i, v, j);
    for (unsigned mask = __ballot_sync(0xffffffffu, wide); mask; mask &= mask - 1) {
      const int leader = __ffs(mask) - 1;
      const uint64_t wi = __shfl_sync(0xffffffffu, i, leader), wj0 = __shfl_sync(0xffffffffu, j0, leader),
                     wdv = __shfl_sync(0xffffffffu, dv, leader);
      const uint32_t wv = __shfl_sync(0xffffffffu, v, leader);
      for (uint64_t j = wj0 + lane; j < wdv; j += 32) f(wi, wv, j);
    }
  }
}

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
  for (uint32_t u = u0 + grab(next); u < u1; u = u0 + grab(next)) {
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
    if (threadIdx.x == 0) item = take_next(heavy_next), nt = 0;
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

/* The warps' slots and the side rows summed per sum, a block each,
 * overflow flagged: one row to copy back instead of a row per warp. */
constexpr int kReduceThreads = 256;

__global__ void __launch_bounds__(kReduceThreads) reduce_slots(const i128 *slots, unsigned warps, const i128 *side,
                                                               unsigned side_rows, i128 *total, int *overflow) {
  __shared__ i128 part[kReduceThreads / 32];
  __shared__ int bad;
  const int lane = threadIdx.x & 31;
  const unsigned which = blockIdx.x;
  if (threadIdx.x == 0) bad = 0;
  __syncthreads();
  i128 s = 0;
  int wrapped = 0;
  for (unsigned w = threadIdx.x; w < warps + side_rows; w += kReduceThreads) {
    const i128 *row = w < warps ? slots + (uint64_t)w * WM_SUM_COUNT : side + (uint64_t)(w - warps) * WM_SUM_COUNT;
    checked_add(s, row[which], wrapped);
  }
  s = warp_sum_checked(s, wrapped);
  if (lane == 0) part[threadIdx.x >> 5] = s;
  if (wrapped) bad = 1;
  __syncthreads();
  if (threadIdx.x) return;
  i128 t = 0;
  for (int i = 0; i < kReduceThreads / 32; i++) checked_add(t, part[i], wrapped);
  total[which] = t;
  if (wrapped || bad) atomicOr(overflow, 1);
}

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

constexpr int kCounters = 64;

/* The events of a run: the passes' starts and ends; the last chunk's
 * sweeps and pair lists (lists_pass); the fork of the early passes. */
enum ev {
  kEvTriangles,
  kEvSums,
  kEvSumsEnd,
  kEvSweeps,
  kEvSweepsEnd,
  kEvCliquesEnd,
  kEvChunk,
  kEvChunkSweeps,
  kEvChunkEnd,
  kEvFork,
  kEvEnd,
  kEvents
};

/* Rows of sums of the passes that add theirs atomically (flush_shared),
 * apart from the warps' slots, which another pass may hold meanwhile. */
constexpr unsigned kSideRows = 256;
/* Counters of the early passes beside the kernel launches' (counter): never
 * handed out again, so never zeroed while a pass on the early stream may
 * still grab from them. */
constexpr int kSideCounters = 2;

struct run {
  dev_graph g;
  uint64_t *off;
  uint32_t *adj, *t;
  uint32_t *scratch, *buf;
  bucket *buckets;
  uint64_t *prefix;
  i128 *slots;
  i128 *total; /* the slots and side rows summed (reduce_slots); in r.next's block */
  i128 *side;  /* kSideRows rows of passes 1 and 2, added atomically (flush_shared); the same */
  int *overflow;
  unsigned long long *next; /* kCounters counters, each kernel launch its own, then kSideCounters */
  unsigned used;            /* counters handed out */
  cudaError_t bad;          /* the first failed reset of a counter */
  uint64_t *prefix_host;    /* each top's first list entry, and the total (size 5 in chunks, over
                               several devices or with a share; size 4 with a share, as the
                               windows' weights), else NULL */
  uint64_t cap;             /* list entries per chunk */
  cudaEvent_t ev[kEvents]; /* between the passes (enum ev) */
  cudaStream_t early;       /* one device alone: passes 1 and 2's (start_early), else 0 */
  bool early_due;           /* start_early before the first wait on the tops' paths */
  float pass3[2];           /* ms of the 4-cycle sweeps and of the pair lists */
  bool pass3_pending;       /* the last chunk's not in pass3: its events read with the passes' end */
  uint32_t *up;             /* size 5: each vertex's neighbours above it */
  uint64_t paths;           /* the paths below all the tops (count_paths) */
  uint64_t most;            /* size 5: the paths below the top of most (most_paths, for chunks) */
  uint64_t heavy_paths;     /* paths that make a top heavy (policy, else heavy_share or kHeavyPaths) */
  uint32_t *heavy;          /* size 5, one device: the tops of more than heavy_paths paths */
  uint32_t *heavy_host;     /* the same, ascending, on the host */
  uint32_t heavy_end;       /* the leading vertices of rows longer than kHeavyRow (heavy_rows) */
  uint32_t nheavy;          /* heavy_host's */
  unsigned long long *nheavy_dev; /* size 5 in one chunk: r.heavy's tops, counted on the device */
  uint64_t n, maxdeg;       /* the slices' array lengths */
  uint64_t words;           /* the scratch, stamps not counted */
  size_t free_left;         /* the device's free memory after the scratch and slots (size_scratch) */
  unsigned want;            /* warps at most, and the slots' */
  bool tight;               /* a layout per kernel (size_scratch) */
  layout shared;            /* else the one for all */
  int layout_used;          /* the tight scratch's last layout, -1 none */
  wm_progress progress;     /* in steps: each chunk of tops, then the last passes */
  int dev;                  /* this run's device */
  bool multi;               /* one of several devices: queue without waits */
  bool heavy_split;         /* several: the heavy tops apart, to blocks on every device
                               from a shared counter */
  unsigned long long *sh;   /* several: device 0's shared counters, one per shared launch */
  unsigned sh_used, sh_n;
  double prepare_s;         /* one device: the scratch and the list plan, for WM_MOTIF_TRACE */
  double prepare_ms[3];     /* of which the tops' paths, the scratch, the list plan */
  const wm_gpu_graph *resident; /* policy.graph: g on the devices already, or NULL */
  bool borrowed;            /* off and adj are resident's, not this run's to free */
  cudaMemPool_t pool;       /* resident's pool on this device (take), or NULL */
  bool skip_k4;             /* size 4: no 4-cliques (policy.skip_k4) */
  const wm_share *share;    /* policy.share: passes 2-4 in windows shared with other processes */
  unsigned loop;            /* the share's counters of those passes' windows */
};

/* This run's device buffers: from the resident graph's pool where there is
 * one, which keeps them for the next call (on a small graph such as hub,
 * cudaMalloc and cudaFree take longer than the kernels), else cudaMalloc.
 * Both are ordered on the default stream, where every pass runs. */
template <class T>
cudaError_t take(const run &r, T **p, size_t bytes) {
  return r.pool ? cudaMallocFromPoolAsync((void **)p, bytes, r.pool, 0) : cudaMalloc((void **)p, bytes);
}

void give(const run &r, void *p) {
  if (!p) return;
  if (r.pool) cudaFreeAsync(p, 0);
  else cudaFree(p);
}

/* Waits for ev, the last work queued on the default stream, with the
 * progress line kept up meanwhile; one step done. */
int wait_step(run &r, cudaEvent_t ev, const char *what, wm_error *err) {
  int rc = wm_gpu_watch(0, &r.progress, NULL, NULL, err);
  if (rc) return rc;
  cudaError_t e = cudaEventSynchronize(ev);
  if (e != cudaSuccess) return wm_cuda_fail(err, e, what, __FILE__, __LINE__);
  wm_progress_add(&r.progress, 1);
  return WM_OK;
}

/* A zeroed counter for the next launch (the last one is the buckets'):
 * upload zeroed them all, so one is zeroed again only when handed out a
 * second time. */
unsigned long long *counter(run &r) {
  const unsigned i = r.used++;
  unsigned long long *c = r.next + i % (kCounters - 1);
  if (i < kCounters - 1) return c;
  cudaError_t e = cudaMemsetAsync(c, 0, sizeof *c);
  if (e != cudaSuccess && r.bad == cudaSuccess) r.bad = e;
  return c;
}

/* The counter of a launch whose items every device shares (passes 2-4):
 * the next of device 0's shared counters, zeroed before any device began;
 * this device's own with one device. */
unsigned long long *shared_counter(run &r) {
  if (!r.sh) return counter(r);
  if (r.sh_used >= r.sh_n) { /* never: sh_n counts the shared launches */
    if (r.bad == cudaSuccess) r.bad = cudaErrorInvalidValue;
    return r.sh;
  }
  return r.sh + r.sh_used++;
}

void release(run &r) {
  if (r.early) cudaStreamSynchronize(r.early); /* its passes use the buffers below (an error may skip the join) */
  if (!r.borrowed) give(r, r.off), give(r, r.adj);
  void *bufs[] = {r.t, r.scratch, r.slots, r.buf, r.buckets, r.prefix, r.next, r.up, r.heavy, r.nheavy_dev};
  for (void *b : bufs) give(r, b);
  free(r.heavy_host);
  free(r.prefix_host);
  for (int i = 0; i < kEvents; i++)
    if (r.ev[i]) cudaEventDestroy(r.ev[i]);
}

uint32_t heavy_rows(const wm_graph *g);

/* The graph (unless resident) and what passes 1 and 2 write: the
 * triangles per edge, the counters, the side rows and totals, and for size
 * 5 each vertex's neighbours above it. */
int upload(const wm_graph *g, unsigned k, run &r, wm_error *err) {
  r.borrowed = wm_gpu_graph_on(r.resident, g, r.dev, (void **)&r.off, (void **)&r.adj) != 0;
  r.pool = (cudaMemPool_t)wm_gpu_graph_pool(r.resident, r.dev);
  if (!r.borrowed) {
    WM_CU(take(r, &r.off, (g->n + 1) * sizeof *r.off));
    WM_CU(take(r, &r.adj, (g->m ? g->m : 1) * sizeof *r.adj));
    WM_CU(cudaMemcpy(r.off, g->offsets, (g->n + 1) * sizeof *r.off, cudaMemcpyHostToDevice));
    WM_CU(cudaMemcpy(r.adj, g->adj, g->m * sizeof *r.adj, cudaMemcpyHostToDevice));
  }
  WM_CU(take(r, &r.t, (g->m ? g->m : 1) * sizeof *r.t));
  WM_CU(cudaMemset(r.t, 0, (g->m ? g->m : 1) * sizeof *r.t));
  /* one zeroed block: the counters, the totals and the overflow flag
   * after them (collect copies both at once), the side rows */
  static_assert((kCounters + kSideCounters) * sizeof *r.next % sizeof(i128) == 0, "the totals stay aligned");
  const size_t counters = (kCounters + kSideCounters) * sizeof *r.next, totals = (WM_SUM_COUNT + 1) * sizeof(i128),
               bytes = counters + totals + kSideRows * WM_SUM_COUNT * sizeof(i128);
  WM_CU(take(r, &r.next, bytes));
  WM_CU(cudaMemset(r.next, 0, bytes));
  r.total = (i128 *)((char *)r.next + counters);
  r.overflow = (int *)(r.total + WM_SUM_COUNT);
  r.side = r.total + WM_SUM_COUNT + 1;
  if (k >= 5) WM_CU(take(r, &r.up, (g->n ? g->n : 1) * sizeof *r.up));
  for (int i = 0; i < kEvents; i++) WM_CU(cudaEventCreate(&r.ev[i]));
  r.g.n = g->n, r.g.off = r.off, r.g.adj = r.adj;
  r.heavy_end = heavy_rows(g);
  return WM_OK;
}

/* Warps for `paths` paths below the tops: one per kPathsPerWarp of them,
 * at least a block per multiprocessor and kHeavyWarps (the block kernels'
 * size), at most all the device runs.  On a small graph every warp costs
 * its scratch's zeroing and its sums' flush and reduction more than it
 * speeds the passes: hub (72,492 paths) took 1.14 ms a 5-motif call on 512
 * warps, 1.47 on 2,048 and 1.73 on 4,224. */
constexpr uint64_t kPathsPerWarp = 128;
/* The same where the scratch is kept with the graph (can_keep) and so
 * costs no clearing: more warps then shorten a small graph's passes until
 * their sums' flushes outweigh it (hub's kernels are shortest near one
 * warp per 32 paths). */
constexpr uint64_t kKeptPathsPerWarp = 32;

uint64_t warps_for(uint64_t paths, int sms) {
  const uint64_t most = (uint64_t)sms * kBlocksPerSm * kWarpsPerBlock;
  uint64_t least = (uint64_t)sms * kWarpsPerBlock;
  if (least < kHeavyWarps) least = kHeavyWarps;
  const uint64_t w = (paths / kPathsPerWarp + kHeavyWarps - 1) / kHeavyWarps * kHeavyWarps; /* whole blocks */
  return w < least ? least : w > most ? most : w;
}

/* A scratch is kept with a graph on the device (wm_gpu_graph_keep) for a
 * single device's call: every kernel leaves its arrays as the next needs
 * them (tallies zeroed, marks below each warp's stamps) under one layout
 * for all, so the next call of the same size and warps need not clear it. */
bool can_keep(const run &r) { return r.resident && r.borrowed && !r.multi; }

uint64_t scratch_tag(unsigned k, uint64_t warps) { return (uint64_t)k | warps << 8; }

/* The slices' array length: the arrays are indexed by neighbours only, so
 * the vertices of no edge at the end (where the degree order puts all of
 * them) need no entry.  On Kronecker graphs they are a third or more of the
 * vertices, and a tight scratch fits as many more warps. */
uint64_t indexed_vertices(const wm_graph *g) {
  uint64_t n = g->n;
  while (n && g->offsets[n] == g->offsets[n - 1]) n--;
  return n ? n : 1;
}

/* The scratch of passes 3 and 4 (struct layout): where every kernel's
 * arrays fit the warps (policy.warps, else warps_for r.paths) in the
 * budget, one layout for all (kAll; kFour for size 4); else the budget
 * whole, each kernel's layout over as many warps as fit.  The budget is
 * policy.scratch_words, or 75% of the free memory. */
int size_scratch(const wm_graph *g, unsigned k, const wm_motif_gpu_policy &policy, run &r, wm_error *err) {
  int dev = 0, sms = 0;
  WM_CU(cudaGetDevice(&dev));
  WM_CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  if (g->n >= 0x80000000u)
    return wm_fail(err, WM_EDEVICE, "motif aggregates on the GPU: at most 2^31 vertices (got %u)", g->n);
  r.n = indexed_vertices(g);
  r.maxdeg = wm_graph_max_degree(g) + 1;
  const layout &one = k >= 5 ? kAll : kFour;
  uint64_t want = policy.warps ? policy.warps : warps_for(r.paths, sms);
  /* a scratch kept with the graph costs no clearing: a warp per
   * kKeptPathsPerWarp paths */
  if (!policy.warps && can_keep(r)) {
    const uint64_t more = warps_for(r.paths * (kPathsPerWarp / kKeptPathsPerWarp), sms);
    if (more * (words_per_warp(one, r.n, r.maxdeg) + 1) * 4 <= WM_GPU_GRAPH_KEEP_BYTES) want = more;
  }
  want = (want + kWarpsPerBlock - 1) / kWarpsPerBlock * kWarpsPerBlock;
  uint64_t budget = policy.scratch_words;
  size_t free_b = 0, total_b = 0;
  WM_CU(cudaMemGetInfo(&free_b, &total_b));
  if (!budget) budget = (uint64_t)(0.75 * (double)free_b) / 4;
  budget = budget > want ? budget - want : 0; /* the stamps' */
  const uint64_t all = want * words_per_warp(one, r.n, r.maxdeg);
  r.tight = all > budget;
  r.words = r.tight ? budget : all;
  r.want = (unsigned)want;
  r.shared = one;
  const size_t bytes = (r.words + want) * 4;
  r.scratch = NULL;
  if (can_keep(r) && !r.tight)
    r.scratch = (uint32_t *)wm_gpu_graph_take(r.resident, r.dev, bytes, scratch_tag(k, want));
  if (!r.scratch) { /* none kept, or of another size or tag */
    WM_CU(take(r, &r.scratch, bytes));
    WM_CU(cudaMemset(r.scratch, 0, bytes));
    free_b = free_b > bytes ? free_b - bytes : 0;
  }
  r.layout_used = -1;
  const size_t slots = want * WM_SUM_COUNT * sizeof(i128);
  WM_CU(take(r, &r.slots, slots));
  WM_CU(cudaMemset(r.slots, 0, slots));
  r.free_left = free_b > slots ? free_b - slots : 0;
  return WM_OK;
}

/* The warps layout l runs on (use_layout), without touching the scratch. */
uint64_t layout_warps(const run &r, const layout &l) {
  uint64_t w = r.words / words_per_warp(r.tight ? l : r.shared, r.n, r.maxdeg);
  if (w > r.want) w = r.want;
  return w / kWarpsPerBlock * kWarpsPerBlock;
}

/* The pool of layout l (one of the k* constants, told apart by `which`)
 * and the warps it runs on.  In a tight scratch, a layout other than the
 * last one starts from zeroed memory and stamps. */
int use_layout(run &r, const layout &l, int which, scratch_pool &pool, unsigned &warps, wm_error *err) {
  const layout &eff = r.tight ? l : r.shared;
  pool.n = r.n, pool.maxdeg = r.maxdeg, pool.l = eff;
  pool.per_warp = words_per_warp(eff, r.n, r.maxdeg);
  pool.base = r.scratch;
  pool.stamps = r.scratch + r.words;
  const uint64_t w = layout_warps(r, l);
  if (w == 0)
    return wm_fail(err, WM_EDEVICE, "motif aggregates: one warp's scratch (%.1f MB) does not fit the GPU's free memory",
                   (double)pool.per_warp * kWarpsPerBlock * 4 / 1e6);
  warps = (unsigned)w;
  if (r.tight && r.layout_used != which) {
    if (r.layout_used >= 0) WM_CU(cudaMemsetAsync(r.scratch, 0, (r.words + r.want) * 4));
    r.layout_used = which;
  }
  return WM_OK;
}

/* The first item of window w of `windows` over n items; weight (n + 1
 * cumulative entries) weighs them, NULL counts each alike. */
uint64_t window_start(const uint64_t *weight, uint64_t n, uint64_t windows, uint64_t w) {
  if (w >= windows) return n;
  if (!weight) return (uint64_t)((unsigned __int128)n * w / windows);
  const uint64_t want = (uint64_t)((unsigned __int128)weight[n] * w / windows);
  return (uint64_t)(std::lower_bound(weight, weight + n, want) - weight);
}

/* Pass `which` (0..2) over items [0, n): f(a, b) queues the work of items
 * [a, b).  Alone, one call over them all; with a share (policy.share), the
 * windows of about equal work (WM_SHARE_WINDOWS per process) this process
 * takes, each waited for before the next is taken. */
template <class F>
int over_windows(run &r, unsigned which, uint64_t n, const uint64_t *weight, wm_error *err, F f) {
  if (!r.share) return f((uint64_t)0, n);
  const uint64_t windows = (uint64_t)WM_SHARE_WINDOWS * (uint64_t)r.share->processes;
  for (uint64_t w; (w = r.share->grab(r.share->ctx, r.loop + which, 1)) < windows;) {
    const uint64_t a = window_start(weight, n, windows, w), b = window_start(weight, n, windows, w + 1);
    if (a >= b) continue;
    int rc = f(a, b);
    if (rc) return rc;
    WM_CU(cudaStreamSynchronize(0));
  }
  return WM_OK;
}

/* Room for the pair lists (and their buckets, at most one per two
 * entries): all tops at once where 70% of the free memory (after the
 * scratch, size_scratch) holds them, else chunks of consecutive tops, each
 * top's lists whole. */
int most_paths(const wm_graph *g, run &r, wm_error *err);

int size_lists(const wm_graph *g, run &r, uint64_t room, uint64_t &cap, wm_error *err) {
  const uint64_t fit = (uint64_t)(0.7 * (double)r.free_left) / (4 + sizeof(bucket) / 2);
  cap = r.paths < fit ? r.paths : fit;
  if (cap < r.paths || room) { /* chunks, each top's lists whole */
    int rc = most_paths(g, r, err);
    if (rc) return rc;
  }
  if (cap > 0xFFFFFFFFull) cap = 0xFFFFFFFFull; /* bucket.start is 32 bits */
  if (room && room < cap) cap = room > r.most ? room : r.most; /* tests: many chunks */
  if (cap < r.most)
    return wm_fail(err, WM_EDEVICE, "motif aggregates: vertex lists of %llu paths do not fit the GPU's free memory",
                   (unsigned long long)r.most);
  if (cap == 0) cap = 1;
  WM_CU(take(r, &r.buf, cap * 4));
  WM_CU(take(r, &r.buckets, (cap / 2 + 1) * sizeof(bucket)));
  return WM_OK;
}

int sort_tops(run &r, const unsigned long long *ntops, wm_error *err);
unsigned small_blocks_of(run &r, wm_error *err);

/* The leading vertices of rows longer than kHeavyRow (vertex_and_edge_sums). */
uint32_t heavy_rows(const wm_graph *g) {
  uint32_t h = 0;
  while (h < g->n && g->offsets[h + 1] - g->offsets[h] > kHeavyRow) h++;
  return h;
}

int start_early(const wm_graph *g, unsigned k, run &r, wm_error *err);

/* start_early where it is due: after the tops' paths are queued, so
 * that their blocks, which the host waits for, go first. */
int start_due(const wm_graph *g, unsigned k, run &r, wm_error *err) {
  if (!r.early_due) return WM_OK;
  r.early_due = false;
  return start_early(g, k, r, err);
}

/* Each top's paths (r.prefix + 1, on the device) into r.prefix_host + 1,
 * after a 0. */
int paths_to_host(const wm_graph *g, run &r, wm_error *err) {
  r.prefix_host = (uint64_t *)malloc((g->n + 1) * sizeof *r.prefix_host);
  if (!r.prefix_host) return wm_fail(err, WM_EINPUT, "out of memory");
  WM_CU(cudaMemcpy(r.prefix_host + 1, r.prefix + 1, g->n * sizeof *r.prefix_host, cudaMemcpyDeviceToHost));
  r.prefix_host[0] = 0;
  return WM_OK;
}

/* Blocks of kThreads for a thread per vertex, at most `most`: on a small
 * graph, no warp whose only work is its atomics at the end. */
unsigned vertex_blocks(uint32_t n, unsigned most) {
  const uint64_t b = ((uint64_t)n + kThreads - 1) / kThreads;
  return b < 1 ? 1 : b > most ? most : (unsigned)b;
}

/* Each top's paths (arc_paths) at paths[0..n) and their total (r.paths);
 * the tops of more than `heavy` listed in tops (NULL: none), counted in
 * *ntops.  Size 5 scans them on the device into each top's first list
 * entry, and the total after them: one copy of the counters is the plan's
 * round trip, not the tops' paths to the host and back (plan_lists).  The
 * early passes start before it (start_due). */
int top_paths(const wm_graph *g, unsigned k, run &r, uint64_t *paths, uint64_t heavy, uint32_t *tops,
              unsigned long long *ntops, unsigned small_blocks, wm_error *err) {
  unsigned long long *total = counter(r);
  const unsigned blocks = vertex_blocks(g->n, small_blocks);
  WM_CU(cudaMemsetAsync(r.prefix, 0, (g->n + 1) * sizeof *r.prefix));
  arc_paths<<<blocks, kThreads>>>(r.g, paths, total, r.up);
  if (tops) path_stats<false><<<blocks, kThreads>>>(paths, g->n, heavy, tops, ntops, NULL);
  WM_CU(cudaGetLastError());
  if (k >= 5) {
    size_t bytes = 0;
    void *tmp = NULL;
    const int64_t items = (int64_t)g->n + 1;
    WM_CU(cub::DeviceScan::ExclusiveSum(tmp, bytes, r.prefix, r.prefix, items));
    WM_CU(take(r, &tmp, bytes > 16 ? bytes : 16)); /* a NULL tmp would ask for the size again */
    cudaError_t e = cub::DeviceScan::ExclusiveSum(tmp, bytes, r.prefix, r.prefix, items);
    give(r, tmp);
    if (e != cudaSuccess) return wm_cuda_fail(err, e, "the tops' paths' scan", __FILE__, __LINE__);
  }
  int rc = start_due(g, k, r, err);
  if (rc) return rc;
  unsigned long long t = 0;
  WM_CU(cudaMemcpy(&t, total, sizeof t, cudaMemcpyDeviceToHost));
  r.paths = t;
  return WM_OK;
}

/* Size 5: the paths of the top of most (r.most), where size_lists needs
 * it: the lists in chunks, each top's whole. */
int most_paths(const wm_graph *g, run &r, wm_error *err) {
  unsigned long long *most = counter(r), m = 0;
  const unsigned blocks = vertex_blocks(g->n, small_blocks_of(r, err));
  path_stats<true><<<blocks, kThreads>>>(r.prefix, g->n, 0, NULL, NULL, most);
  WM_CU(cudaGetLastError());
  WM_CU(cudaMemcpy(&m, most, sizeof m, cudaMemcpyDeviceToHost));
  r.most = m;
  return WM_OK;
}

/* Each top's paths (top_paths): size 5 scanned on the device; size 4
 * at r.prefix + 1, where several devices or processes share the tops
 * with the list of the heavy tops (in r.buf, of more than
 * r.heavy_paths, else kHeavyPaths), sorted, with a share on the host too,
 * and cumulative paths there, for the windows (else plan_four lists
 * them). */
int count_paths(const wm_graph *g, unsigned k, run &r, unsigned small_blocks, wm_error *err) {
  WM_CU(take(r, &r.prefix, (g->n + 1) * sizeof *r.prefix));
  if (k >= 5) return top_paths(g, k, r, r.prefix, 0, NULL, NULL, small_blocks, err);
  WM_CU(take(r, &r.buf, (g->n ? g->n : 1) * sizeof *r.buf));
  const bool shared = r.multi || r.share;
  unsigned long long *ntops = r.next + kCounters - 1;
  if (shared) {
    if (!r.heavy_paths) r.heavy_paths = kHeavyPaths; /* the same on every device, whatever its warps */
    WM_CU(cudaMemsetAsync(ntops, 0, sizeof *ntops));
  }
  int rc = top_paths(g, k, r, r.prefix + 1, r.heavy_paths, shared ? r.buf : NULL, ntops, small_blocks, err);
  if (rc) return rc;
  if (r.share) {
    if ((rc = paths_to_host(g, r, err))) return rc;
    for (uint32_t u = 0; u < g->n; u++) r.prefix_host[u + 1] += r.prefix_host[u];
  }
  return r.multi || r.share ? sort_tops(r, ntops, err) : WM_OK;
}

/* A top heavier than a warp's share of the paths, within [kHeavyMin,
 * kHeavyPaths]: its block's chains of loads are shorter than a warp's,
 * and the light tops' warps are not left waiting for it. */
uint64_t heavy_share(const run &r) {
  const uint64_t share = r.paths / (r.want ? r.want : 1);
  return share < kHeavyMin ? kHeavyMin : share > kHeavyPaths ? kHeavyPaths : share;
}

/* Before the timed passes, for size 4 on one device alone: the tops of
 * more than r.heavy_paths paths (a warp's share unless the policy says)
 * listed in r.buf, in any order, counted at ntops (four_cycle_pass); with
 * several devices or a share count_paths listed them.  At a fixed 32,768
 * paths, hub's sweeps waited 0.38 ms on its light tops' warps. */
int plan_four(const wm_graph *g, run &r, wm_error *err) {
  if (r.multi || r.share) return WM_OK;
  if (!r.heavy_paths) r.heavy_paths = heavy_share(r);
  unsigned long long *ntops = r.next + kCounters - 1;
  WM_CU(cudaMemsetAsync(ntops, 0, sizeof *ntops));
  const unsigned blocks = vertex_blocks(g->n, small_blocks_of(r, err));
  path_stats<false><<<blocks, kThreads>>>(r.prefix + 1, g->n, r.heavy_paths, r.buf, ntops, NULL);
  WM_CU(cudaGetLastError());
  return WM_OK;
}

/* Before the timed passes, for size 5: the room for the lists and the
 * heavy tops (of more than r.heavy_paths paths).  Where the lists go in
 * chunks, or several devices or processes share the tops, the tops' first
 * entries come to the host (r.prefix_host) and the heavy tops are listed
 * there, ascending (r.heavy_host, then r.heavy); else, in one chunk, the
 * device lists them (path_stats, r.nheavy_dev) in any order. */
int plan_lists(const wm_graph *g, run &r, uint64_t room, wm_error *err) {
  if (!r.heavy_paths && r.multi) /* the same on every device, whatever its warps */
    r.heavy_paths = kHeavyPaths;
  if (!r.heavy_paths) r.heavy_paths = heavy_share(r);
  int rc = size_lists(g, r, room, r.cap, err);
  if (rc) return rc;
  if (!r.multi && !r.share && r.paths <= r.cap) {
    WM_CU(take(r, &r.heavy, (g->n ? g->n : 1) * sizeof *r.heavy));
    WM_CU(take(r, &r.nheavy_dev, sizeof *r.nheavy_dev));
    WM_CU(cudaMemsetAsync(r.nheavy_dev, 0, sizeof *r.nheavy_dev));
    const unsigned blocks = vertex_blocks(g->n, small_blocks_of(r, err));
    path_stats<true><<<blocks, kThreads>>>(r.prefix, g->n, r.heavy_paths, r.heavy, r.nheavy_dev, NULL);
    WM_CU(cudaGetLastError());
    return WM_OK;
  }
  const uint64_t *prefix = r.prefix_host = (uint64_t *)malloc((g->n + 1) * sizeof *r.prefix_host);
  if (!prefix) return wm_fail(err, WM_EINPUT, "out of memory");
  WM_CU(cudaMemcpy(r.prefix_host, r.prefix, (g->n + 1) * sizeof *r.prefix_host, cudaMemcpyDeviceToHost));
  uint32_t nheavy = 0;
  for (uint32_t u = 0; u < g->n; u++) nheavy += prefix[u + 1] - prefix[u] > r.heavy_paths;
  if (!nheavy) return WM_OK;
  r.heavy_host = (uint32_t *)malloc(nheavy * sizeof *r.heavy_host);
  if (!r.heavy_host) return wm_fail(err, WM_EINPUT, "out of memory");
  for (uint32_t u = 0; u < g->n; u++)
    if (prefix[u + 1] - prefix[u] > r.heavy_paths) r.heavy_host[r.nheavy++] = u;
  WM_CU(take(r, &r.heavy, nheavy * sizeof *r.heavy));
  WM_CU(cudaMemcpy(r.heavy, r.heavy_host, nheavy * sizeof *r.heavy, cudaMemcpyHostToDevice));
  return WM_OK;
}

/* The end of the chunk of tops from u0 whose lists fit r.cap entries (at
 * least one top). */
uint32_t chunk_end(const run &r, uint32_t n, uint32_t u0) {
  if (!r.prefix_host) return n; /* one chunk (plan_lists) */
  uint32_t u1 = u0 + 1;
  while (u1 < n && r.prefix_host[u1 + 1] - r.prefix_host[u0] <= r.cap) u1++;
  return u1;
}

/* Pass 3 for size 5 over tops [ua, ub): in chunks whose lists fit
 * (plan_lists), each chunk's buckets then taken a warp each.  In a tight
 * scratch each chunk's sweep and pair lists have layouts of their own
 * (kSweeps, kLists), the scratch zeroed at each change. */
int lists_pass(run &r, uint32_t ua, uint32_t ub, wm_error *err) {
  scratch_pool pool, lists_pool;
  unsigned warps = 0, lists_warps = 0;
  int rc = use_layout(r, kSweeps, 1, pool, warps, err);
  if (rc) return rc;
  const unsigned blocks = warps / kWarpsPerBlock;
  cudaError_t e;
  unsigned long long *nbuckets = r.next + kCounters - 1;
  /* the heavy tops a block each; several devices agree on it (r.heavy_split)
   * and take the chunk's heavy tops from one shared counter, as the rest */
  const bool split = r.multi ? r.heavy_split : (r.nheavy || r.nheavy_dev) && warps >= kHeavyWarps;
  uint32_t h1 = (uint32_t)(std::lower_bound(r.heavy_host, r.heavy_host + r.nheavy, ua) - r.heavy_host);
  uint32_t h0 = h1;                                     /* the chunk's heavy tops */
  for (uint32_t u0 = ua, u1; u0 < ub && !rc; u0 = u1, h0 = h1) {
    u1 = chunk_end(r, ub, u0);
    while (h1 < r.nheavy && r.heavy_host[h1] < u1) h1++;
    /* back to the sweeps' layout after the last chunk's pair lists (a no-op the first time) */
    if ((rc = use_layout(r, kSweeps, 1, pool, warps, err))) break;
    if ((e = cudaMemsetAsync(nbuckets, 0, sizeof *nbuckets)) != cudaSuccess) {
      rc = wm_cuda_fail(err, e, "cudaMemsetAsync(nbuckets)", __FILE__, __LINE__);
      break;
    }
    float sweep = 0, lists = 0;
    if (!r.multi) cudaEventRecord(r.ev[kEvChunk]);
    /* Several devices: each takes tops of the chunk from the shared
     * counter and lists them in its own buffer and buckets. */
    unsigned long long *heavy_next = split ? shared_counter(r) : NULL; /* the same order on every device */
    if (split && warps >= kHeavyWarps)
      four_cycles_mixed<<<warps / kHeavyWarps, 32 * kHeavyWarps>>>(
          r.g, r.t, 5, pool, u0, u1, r.heavy + h0, h1 - h0, r.nheavy_dev, heavy_next, shared_counter(r), r.prefix, r.buf,
          r.buckets, nbuckets, NULL, r.heavy_paths, r.slots, r.overflow);
    else
      four_cycles<<<blocks, kThreads>>>(r.g, r.t, 5, pool, u0, u1, shared_counter(r), r.prefix, r.buf, r.buckets,
                                        nbuckets, NULL, split ? r.heavy_paths : 0, r.slots, r.overflow);
    if (!r.multi) cudaEventRecord(r.ev[kEvChunkSweeps]);
    /* in a tight scratch the pair lists lay out fewer arrays over more warps */
    if ((rc = use_layout(r, kLists, 5, lists_pool, lists_warps, err))) break;
    /* xs has a vertex's room unless the scratch is tight: the untight kernel needs neither
     * xs's bound nor the second walk */
    if (r.tight)
      pair_lists<true><<<lists_warps / kWarpsPerBlock, kThreads>>>(r.g, r.buckets, nbuckets, r.buf, lists_pool,
                                                                   counter(r), r.slots, r.overflow);
    else
      pair_lists<false><<<lists_warps / kWarpsPerBlock, kThreads>>>(r.g, r.buckets, nbuckets, r.buf, lists_pool,
                                                                    counter(r), r.slots, r.overflow);
    if (r.multi) continue; /* queued without waits: the chunks' times are not split */
    cudaEventRecord(r.ev[kEvChunkEnd]);
    /* the last chunk is waited for with the passes' end (pass_times):
     * a small graph's one chunk then costs no round trip to the host */
    if (u1 >= ub && !r.share) {
      r.pass3_pending = true;
      break;
    }
    if ((rc = wait_step(r, r.ev[kEvChunkEnd], "four_cycles/pair_lists", err))) break;
    cudaEventElapsedTime(&sweep, r.ev[kEvChunk], r.ev[kEvChunkSweeps]);
    cudaEventElapsedTime(&lists, r.ev[kEvChunkSweeps], r.ev[kEvChunkEnd]);
    r.pass3[0] += sweep, r.pass3[1] += lists;
  }
  return rc;
}

/* Size 4's 4-cycles over tops [ua, ub): tops of many paths a block each,
 * the rest a warp each.  With a share the heavy tops' list is sorted on
 * the host too (sort_tops), and a window takes those inside it. */
int four_cycle_pass(run &r, unsigned small_blocks, uint32_t ua, uint32_t ub, wm_error *err) {
  scratch_pool pool;
  unsigned warps = 0;
  int rc = use_layout(r, kFour, 0, pool, warps, err);
  if (rc) return rc;
  const unsigned blocks = warps / kWarpsPerBlock;
  /* Several devices agree on whether the heavy tops go apart
   * (r.heavy_split, from device 0's warps), and each takes shared counters
   * in the same order, whether it launches on them or not. */
  if (r.multi ? !r.heavy_split : warps < kHeavyWarps) {
    four_cycles<<<blocks, kThreads>>>(r.g, r.t, 4, pool, ua, ub, shared_counter(r), NULL, NULL, NULL, NULL,
                                      r.prefix + 1, 0, r.slots, r.overflow);
    return WM_OK;
  }
  unsigned long long *ntops = r.next + kCounters - 1, *heavy_next = shared_counter(r);
  /* a window's heavy tops: those of the sorted list inside it */
  const uint32_t *tops = r.buf;
  unsigned long long count = 0;
  if (r.share) {
    const uint32_t *h = r.heavy_host, *end = h + r.nheavy;
    const uint32_t *lo = std::lower_bound(h, end, ua), *hi = std::lower_bound(h, end, ub);
    tops = r.buf + (lo - h), count = (unsigned long long)(hi - lo), ntops = NULL;
  }
  if (warps >= kHeavyWarps)
    four_cycles_mixed<<<warps / kHeavyWarps, 32 * kHeavyWarps>>>(
        r.g, r.t, 4, pool, ua, ub, tops, count, ntops, heavy_next, shared_counter(r), NULL, NULL, NULL, NULL,
        r.prefix + 1, r.heavy_paths, r.slots, r.overflow);
  else
    four_cycles<<<blocks, kThreads>>>(r.g, r.t, 4, pool, ua, ub, shared_counter(r), NULL, NULL, NULL, NULL,
                                      r.prefix + 1, r.heavy_paths, r.slots, r.overflow);
  return WM_OK;
}

unsigned small_blocks_of(run &r, wm_error *err) {
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, r.dev) != cudaSuccess) return 0;
  (void)err;
  return (unsigned)sms * 16;
}

/* Several devices take size 4's heavy tops by index from one counter:
 * top_paths lists them in whatever order its warps finish, so the list is
 * sorted, the same on every device.  With a share the host keeps it
 * (heavy_host), for the windows. */
int sort_tops(run &r, const unsigned long long *ntops, wm_error *err) {
  unsigned long long n = 0;
  WM_CU(cudaMemcpy(&n, ntops, sizeof n, cudaMemcpyDeviceToHost));
  if (n < (r.share ? 1u : 2u)) return WM_OK;
  uint32_t *host = (uint32_t *)malloc(n * sizeof *host);
  if (!host) return wm_fail(err, WM_EINPUT, "out of memory");
  cudaError_t e = cudaMemcpy(host, r.buf, n * sizeof *host, cudaMemcpyDeviceToHost);
  if (e == cudaSuccess) {
    std::sort(host, host + n);
    e = cudaMemcpy(r.buf, host, n * sizeof *host, cudaMemcpyHostToDevice);
  }
  if (r.share) r.heavy_host = host, r.nheavy = (uint32_t)n, host = NULL;
  free(host);
  if (e != cudaSuccess) return wm_cuda_fail(err, e, "the heavy tops' list", __FILE__, __LINE__);
  return WM_OK;
}

/* Before the timed passes: the tops' paths (and size 4's heavy tops),
 * the scratch for as many warps as they need, and size 5's list plan (and
 * room for each vertex's neighbours above it). */
int prepare(const wm_graph *g, unsigned k, const wm_motif_gpu_policy &policy, run &r, wm_error *err) {
  const unsigned small_blocks = small_blocks_of(r, err);
  if (!small_blocks) WM_CU(cudaGetLastError());
  const double t0 = wm_now();
  r.heavy_paths = policy.heavy_paths;
  int rc = count_paths(g, k, r, small_blocks, err);
  const double t1 = wm_now();
  if (!rc) rc = size_scratch(g, k, policy, r, err);
  const double t2 = wm_now();
  r.prepare_ms[0] = 1e3 * (t1 - t0), r.prepare_ms[1] = 1e3 * (t2 - t1);
  if (rc) return rc;
  rc = k >= 5 ? plan_lists(g, r, policy.list_room, err) : plan_four(g, r, err);
  r.prepare_ms[2] = 1e3 * (wm_now() - t2);
  return rc;
}

/* The chunks of tops of size 5's lists (1 for size 4). */
uint64_t chunks_of(const wm_graph *g, unsigned k, const run &r) {
  uint64_t c = 0;
  if (k >= 5)
    for (uint32_t u0 = 0; u0 < g->n; u0 = chunk_end(r, g->n, u0)) c++;
  return c ? c : 1;
}

/* Passes 1 and 2 on stream s, between the events kEvTriangles, kEvSums
 * and kEvSumsEnd: they need no plan of the tops.  Their sums go to the
 * side rows, atomically, so that they may run beside pass 3. */
int queue_early(const wm_graph *g, unsigned k, run &r, cudaStream_t s, wm_error *err) {
  const unsigned small_blocks = small_blocks_of(r, err);
  if (!small_blocks) WM_CU(cudaGetLastError());
  unsigned long long *side = r.next + kCounters; /* kSideCounters of them */
  WM_CU(cudaEventRecord(r.ev[kEvTriangles], s));
  /* size 5: the 5-cycles' triangle term with the triangles, on one device */
  const uint32_t *up = k >= 5 && (!r.multi || r.dev == 0) && (!r.share || r.share->process == 0) ? r.up : NULL;
  edge_triangles<<<small_blocks, kThreads, 0, s>>>(r.g, g->m, r.t, s ? side : counter(r), up, r.side, kSideRows);
  fold_triangles<<<small_blocks, kThreads, 0, s>>>(r.g, g->m, r.t);
  WM_CU(cudaEventRecord(r.ev[kEvSums], s));
  int rc = over_windows(r, 0, g->n, g->offsets, err, [&](uint64_t a, uint64_t b) {
    /* several devices split the vertices by a shared counter alone */
    vertex_and_edge_sums<<<small_blocks, kThreads, 0, s>>>(r.g, r.t, r.multi ? 0 : r.heavy_end,
                                                           s ? side + 1 : shared_counter(r), (uint32_t)a, (uint32_t)b,
                                                           r.side, kSideRows, r.overflow);
    return WM_OK;
  });
  if (rc) return rc;
  WM_CU(cudaGetLastError());
  WM_CU(cudaEventRecord(r.ev[kEvSumsEnd], s));
  return WM_OK;
}

/* Arcs up to which the early passes start before the plan's round trip.
 * There they take about as long as the plan and both are mostly waits;
 * on a larger graph their blocks fill the device and hold up the tops'
 * scan, which the host waits for (kron-18: 0.6 ms became 5.7), so they
 * start after the plan, still beside pass 3. */
constexpr uint64_t kEarlyArcs = 1u << 20;

/* Device dev's stream for the early passes, made the first time and kept
 * for the process: making and freeing one costs as much as a kernel
 * launch.  Calls on one device at once share it, which orders their early
 * passes and nothing else. */
int early_stream(int dev, cudaStream_t *out, wm_error *err) {
  static std::mutex lock;
  static cudaStream_t streams[64];
  if (dev < 0 || dev >= 64) return wm_fail(err, WM_EDEVICE, "motif aggregates: device %d out of range", dev);
  std::lock_guard<std::mutex> hold(lock);
  if (!streams[dev]) WM_CU(cudaStreamCreateWithFlags(&streams[dev], cudaStreamNonBlocking));
  *out = streams[dev];
  return WM_OK;
}

/* One device alone: passes 1 and 2 on a stream of their own from here
 * (after the buffers they use and the tops' paths, which write r.up):
 * on a small graph while the lists are planned (kEarlyArcs), and beside
 * pass 3 (queue_passes joins them).  On hub they took a fifth of the
 * kernels' time, one after the other. */
int start_early(const wm_graph *g, unsigned k, run &r, wm_error *err) {
  int rc = early_stream(r.dev, &r.early, err);
  if (rc) return rc;
  WM_CU(cudaEventRecord(r.ev[kEvFork], 0));
  WM_CU(cudaStreamWaitEvent(r.early, r.ev[kEvFork], 0));
  return queue_early(g, k, r, r.early, err);
}

/* Until kEvEnd, on the device's default stream: passes 1 and 2 unless
 * start_early queued them, then passes 3 and 4, each after the triangles
 * it reads; waited for (with the progress line) unless r.multi. */
int queue_passes(const wm_graph *g, unsigned k, run &r, wm_error *err) {
  int rc;
  if (!r.early) {
    WM_CU(cudaDeviceSynchronize()); /* the passes' time starts on an idle device, the plans made */
    if ((rc = queue_early(g, k, r, 0, err))) return rc;
  } else if (k >= 5) /* size 5's sweeps read the triangles per edge */
    WM_CU(cudaStreamWaitEvent(0, r.ev[kEvSums], 0));
  const unsigned small_blocks = small_blocks_of(r, err);
  if (!small_blocks) WM_CU(cudaGetLastError());
  WM_CU(cudaEventRecord(r.ev[kEvSweeps]));
  rc = over_windows(r, 1, g->n, r.prefix_host, err, [&](uint64_t a, uint64_t b) {
    return k >= 5 ? lists_pass(r, (uint32_t)a, (uint32_t)b, err)
                  : four_cycle_pass(r, small_blocks, (uint32_t)a, (uint32_t)b, err);
  });
  if (rc) return rc;
  WM_CU(cudaEventRecord(r.ev[kEvSweepsEnd]));
  if (r.early && k < 5) WM_CU(cudaStreamWaitEvent(0, r.ev[kEvSums], 0)); /* size 4's cliques read them */
  if (k >= 5 || !r.skip_k4) {
    scratch_pool pool;
    unsigned warps = 0;
    if ((rc = use_layout(r, k >= 5 ? kCliques : kEdgeCliques, k >= 5 ? 3 : 4, pool, warps, err))) return rc;
    rc = over_windows(r, 2, g->m, NULL, err, [&](uint64_t a, uint64_t b) {
      if (k >= 5)
        triangle_cliques<<<warps / kWarpsPerBlock, kThreads>>>(r.g, a, b, r.t, pool, shared_counter(r), r.slots,
                                                               r.overflow);
      else
        edge_cliques<<<warps / kWarpsPerBlock, kThreads>>>(r.g, a, b, r.t, pool, shared_counter(r), r.slots,
                                                           r.overflow);
      return WM_OK;
    });
    if (rc) return rc;
  }
  WM_CU(cudaGetLastError());
  WM_CU(r.bad);
  WM_CU(cudaEventRecord(r.ev[kEvCliquesEnd]));
  if (r.early) WM_CU(cudaStreamWaitEvent(0, r.ev[kEvSumsEnd], 0)); /* the join */
  WM_CU(cudaEventRecord(r.ev[kEvEnd]));
  if (r.multi) return WM_OK;
  return wait_step(r, r.ev[kEvEnd], "the motif passes", err);
}

/* The passes' ms once they are done (ms as wm_motif_sums.pass_seconds),
 * each from its own events (passes 1 and 2 may run beside the others),
 * and *span from the first's start to the last's end; several devices do
 * not time the chunks apart: 4-cycles and pair lists go under 4-cycles
 * together. */
int pass_times(unsigned k, run &r, float ms[WM_MOTIF_PASSES], float *span, wm_error *err) {
  WM_CU(cudaEventElapsedTime(span, r.ev[kEvTriangles], r.ev[kEvEnd]));
  const int from[4] = {kEvTriangles, kEvSums, kEvSweeps, kEvSweepsEnd},
            to[4] = {kEvSums, kEvSumsEnd, kEvSweepsEnd, kEvCliquesEnd};
  float whole[4];
  for (int i = 0; i < 4; i++) WM_CU(cudaEventElapsedTime(&whole[i], r.ev[from[i]], r.ev[to[i]]));
  ms[0] = whole[0], ms[1] = whole[1], ms[4] = whole[3];
  if (k >= 5 && !r.multi) {
    float sweep = 0, lists = 0;
    if (r.pass3_pending) { /* the last chunk's (lists_pass) */
      WM_CU(cudaEventElapsedTime(&sweep, r.ev[kEvChunk], r.ev[kEvChunkSweeps]));
      WM_CU(cudaEventElapsedTime(&lists, r.ev[kEvChunkSweeps], r.ev[kEvChunkEnd]));
    }
    ms[2] = r.pass3[0] + sweep, ms[3] = r.pass3[1] + lists;
  } else ms[2] = whole[2], ms[3] = 0;
  return WM_OK;
}

/* One device: passes 1 and 2 started (alone, start_early), the rest
 * prepared, then the passes with the progress line in steps (each chunk
 * of tops, the last wait). */
int passes(const wm_graph *g, unsigned k, const wm_motif_gpu_policy &policy, run &r, float ms[WM_MOTIF_PASSES],
           float *span, wm_error *err) {
  const double t0 = wm_now();
  r.early_due = !r.share && g->m <= kEarlyArcs;
  int rc = prepare(g, k, policy, r, err);
  if (!rc && !r.share && !r.early) rc = start_early(g, k, r, err); /* a large graph's, after the plan */
  if (rc) return rc;
  r.prepare_s = wm_now() - t0;
  /* each chunk of tops but the last, whose wait is the passes' last */
  const uint64_t steps = k >= 5 ? chunks_of(g, k, r) : 1;
  wm_progress_init(&r.progress, "motif sums", steps, 1);
  if ((rc = queue_passes(g, k, r, err))) return rc;
  return pass_times(k, r, ms, span, err);
}

/* Adds r's slots to total (exactly, overflow flagged). */
int add_slots(const run &r, unsigned warps, wm_acc *total, int *overflow, wm_error *err) {
  reduce_slots<<<WM_SUM_COUNT, kReduceThreads>>>(r.slots, warps, r.side, kSideRows, r.total, r.overflow);
  WM_CU(cudaGetLastError());
  i128 row[WM_SUM_COUNT + 1]; /* the totals, then the overflow flag (upload) */
  WM_CU(cudaMemcpy(row, r.total, sizeof row, cudaMemcpyDeviceToHost));
  int flag = 0;
  memcpy(&flag, &row[WM_SUM_COUNT], sizeof flag);
  *overflow |= flag;
  for (int i = 0; i < WM_SUM_COUNT; i++) wm_acc_add(&total[i], row[i]);
  return WM_OK;
}

int collect(const run &r, unsigned warps, wm_motif_sums *out, wm_error *err) {
  int overflow = 0;
  wm_acc total[WM_SUM_COUNT];
  memset(total, 0, sizeof total);
  int rc = add_slots(r, warps, total, &overflow, err);
  if (rc) return rc;
  for (int i = 0; i < WM_SUM_COUNT; i++) {
    overflow |= total[i].overflow;
    out->s[i] = total[i].v;
  }
  if (overflow) return wm_fail(err, WM_EINPUT, "motif aggregates overflow 128 bits");
  return WM_OK;
}

/* With a share, every process's sums become their totals over the
 * processes. */
int share_sums(const wm_share *s, wm_motif_sums *out, wm_error *err) {
  int overflow = 0;
  if (s->sum_i128(s->ctx, out->s, WM_SUM_COUNT, &overflow))
    return wm_fail(err, WM_EDEVICE, "motif aggregates: adding the processes' sums failed");
  if (overflow) return wm_fail(err, WM_EINPUT, "motif aggregates overflow 128 bits");
  return WM_OK;
}

/* Sets the grabs' scope on the current device (c_system_scope). */
int set_scope(int system, wm_error *err) {
  WM_CU(cudaMemcpyToSymbol(c_system_scope, &system, sizeof system));
  return WM_OK;
}

/* The passes over ndev devices that share counters in device 0's memory
 * (peer access enabled): each prepared (the same chunks of tops on every
 * device: the smallest room), the shared counters zeroed, then every
 * device's passes queued and waited for at once; the sums of every
 * device's slots to out, and in ms and *span the passes of the slowest
 * device. */
int multi_passes(const wm_graph *g, unsigned k, const wm_motif_gpu_policy &policy, int ndev, run *R,
                 unsigned long long **sh, float ms[WM_MOTIF_PASSES], float *span, wm_motif_sums *out,
                 wm_error *err) {
  int rc;
  for (int i = 0; i < ndev; i++) {
    R[i].dev = i;
    R[i].multi = true;
    R[i].resident = policy.graph;
    R[i].skip_k4 = policy.skip_k4 != 0;
    WM_CUD(i, cudaSetDevice(i));
    if ((rc = wm_gpu_on_device(err, i, set_scope(1, err))) ||
        (rc = wm_gpu_on_device(err, i, upload(g, k, R[i], err))) ||
        (rc = wm_gpu_on_device(err, i, prepare(g, k, policy, R[i], err))))
      return rc;
  }
  if (k >= 5) {
    uint64_t cap = R[0].cap;
    for (int i = 1; i < ndev; i++) cap = R[i].cap < cap ? R[i].cap : cap;
    for (int i = 0; i < ndev; i++) R[i].cap = cap; /* each buffer holds at least that */
  }
  /* the vertex sums, each chunk of tops (its heavy tops, then its light
   * ones; size 4: one chunk) and pass 4 */
  const unsigned n_sh = (unsigned)(2 * chunks_of(g, k, R[0]) + 2);
  WM_CUD(0, cudaSetDevice(0));
  WM_CUD(0, cudaMalloc(sh, n_sh * sizeof **sh));
  WM_CUD(0, cudaMemset(*sh, 0, n_sh * sizeof **sh));
  WM_CUD(0, cudaDeviceSynchronize());
  const bool heavy_split = k >= 5 ? R[0].nheavy && layout_warps(R[0], kSweeps) >= kHeavyWarps
                                  : layout_warps(R[0], kFour) >= kHeavyWarps;
  for (int i = 0; i < ndev; i++) R[i].sh = *sh, R[i].sh_n = n_sh, R[i].heavy_split = heavy_split;
  wm_progress_init(&R[0].progress, "motif sums", 1, 1);
  for (int i = 0; i < ndev; i++) {
    WM_CUD(i, cudaSetDevice(i));
    if ((rc = wm_gpu_on_device(err, i, queue_passes(g, k, R[i], err)))) return rc;
  }
  int ids[16];
  cudaStream_t streams[16];
  for (int i = 0; i < ndev; i++) ids[i] = i, streams[i] = 0; /* each device's default stream */
  if ((rc = wm_gpu_watch_all(ndev, ids, streams, &R[0].progress, NULL, NULL, err))) return rc;
  wm_progress_add(&R[0].progress, 1);
  *span = -1;
  wm_acc total[WM_SUM_COUNT];
  memset(total, 0, sizeof total);
  int overflow = 0;
  for (int i = 0; i < ndev; i++) {
    float m[WM_MOTIF_PASSES] = {0, 0, 0, 0, 0};
    WM_CUD(i, cudaSetDevice(i));
    WM_CUD(i, cudaEventSynchronize(R[i].ev[kEvEnd]));
    float sp = 0;
    if ((rc = wm_gpu_on_device(err, i, pass_times(k, R[i], m, &sp, err))) ||
        (rc = wm_gpu_on_device(err, i, add_slots(R[i], R[i].want, total, &overflow, err))))
      return rc;
    if (sp > *span) *span = sp, memcpy(ms, m, sizeof m);
  }
  for (int i = 0; i < WM_SUM_COUNT; i++) {
    overflow |= total[i].overflow;
    out->s[i] = total[i].v;
  }
  if (overflow) return wm_fail(err, WM_EINPUT, "motif aggregates overflow 128 bits");
  return WM_OK;
}

} /* namespace */

extern "C" int wm_motif_sums_gpu(const wm_graph *g, unsigned k, const wm_motif_gpu_policy *policy,
                                 wm_motif_sums *out, double *kernel_ms, wm_error *err) {
  memset(out, 0, sizeof *out);
  out->k = k;
  if (k < 4 || k > 5) return wm_fail(err, WM_EUSAGE, "motif sums on the GPU: size must be 4 or 5 (got %u)", k);
  if (g->flags & WM_GRAPH_DIRECTED) return wm_fail(err, WM_EINPUT, "motif sums: the graph must be undirected");
  if (!wm_gpu_available()) return wm_fail(err, WM_EDEVICE, "no CUDA device");
  wm_motif_gpu_policy defaults;
  memset(&defaults, 0, sizeof defaults);
  const wm_motif_gpu_policy &pol = policy ? *policy : defaults;
  int ndev = pol.gpus > 1 ? (pol.gpus < 16 ? pol.gpus : 16) : 1, present = 0, shared = 0;
  WM_CU(cudaGetDeviceCount(&present));
  if (ndev > present)
    return wm_fail(err, WM_EDEVICE, "--gpus %d asks for more GPUs than the %d present", ndev, present);
  int rc = wm_gpu_share_counter(ndev, &shared, out->gpu_note, sizeof out->gpu_note, err);
  if (rc) return rc;
  if (ndev > 1 && !shared) ndev = 1; /* the note says why: one device does it all */
  if (ndev > 1 && pol.share) {       /* processes share the passes, a device each */
    ndev = 1;
    snprintf(out->gpu_note, sizeof out->gpu_note, "one GPU per process when processes share the work");
  }
  out->gpus = ndev;
  const double t0 = wm_now();
  float ms[WM_MOTIF_PASSES] = {0, 0, 0, 0, 0}, span = 0;
  run R[16];
  memset(R, 0, sizeof R);
  unsigned long long *sh = NULL;
  if (ndev > 1) {
    rc = multi_passes(g, k, pol, ndev, R, &sh, ms, &span, out, err);
    wm_progress_finish(&R[0].progress);
    /* every device's work ends before device 0's counters are freed */
    for (int i = 0; i < ndev; i++)
      if (cudaSetDevice(i) == cudaSuccess) cudaDeviceSynchronize();
    cudaGetLastError();
    for (int i = 0; i < ndev; i++)
      if (cudaSetDevice(i) == cudaSuccess) release(R[i]);
    if (sh && cudaSetDevice(0) == cudaSuccess) cudaFree(sh);
    cudaGetLastError();
    cudaSetDevice(0);
  } else {
    run &r = R[0];
    double at[5];
    WM_CU(cudaGetDevice(&r.dev));
    r.resident = pol.graph;
    r.skip_k4 = pol.skip_k4 != 0;
    r.share = pol.share;
    if (r.share) r.loop = r.share->loops(r.share->ctx, 3);
    rc = set_scope(0, err);
    at[0] = wm_now();
    if (!rc) rc = upload(g, k, r, err);
    at[1] = wm_now();
    if (!rc) rc = passes(g, k, pol, r, ms, &span, err);
    wm_progress_finish(&r.progress);
    at[2] = wm_now();
    if (!rc) rc = collect(r, r.want, out, err);
    if (!rc && r.share) rc = share_sums(r.share, out, err);
    at[3] = wm_now();
    /* collect waited for every kernel: the scratch is as the next call needs it */
    if (!rc && can_keep(r) && !r.tight &&
        wm_gpu_graph_keep(r.resident, r.dev, r.scratch, (r.words + r.want) * 4, scratch_tag(k, r.want)))
      r.scratch = NULL;
    release(r);
    at[4] = wm_now();
    if (wm_trace_on("WM_MOTIF_TRACE"))
      fprintf(stderr,
              "motif sums (GPU, size %u): upload %.3f ms, scratch and plans %.3f ms (paths %.3f, scratch %.3f, lists %.3f), "
              "passes %.3f ms (kernels' span %.3f: %.3f, %.3f, %.3f, %.3f, %.3f), collect %.3f ms, release %.3f ms; "
              "%u warps, scratch %.1f MB%s\n",
              k, 1e3 * (at[1] - at[0]), 1e3 * r.prepare_s, r.prepare_ms[0], r.prepare_ms[1], r.prepare_ms[2],
              1e3 * (at[2] - at[1] - r.prepare_s),
              span, ms[0], ms[1], ms[2], ms[3], ms[4],
              1e3 * (at[3] - at[2]), 1e3 * (at[4] - at[3]), r.want, (double)r.words * 4 / 1e6,
              r.tight ? " (a layout per kernel)" : "");
  }
  out->k4_counted = k >= 5 || !pol.skip_k4;
  out->seconds = wm_now() - t0;
  for (int i = 0; i < WM_MOTIF_PASSES; i++) out->pass_seconds[i] = ms[i] / 1e3;
  if (kernel_ms) *kernel_ms = span;
  return rc;
}
