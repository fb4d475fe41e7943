/* What the GPU motif passes share: the graph and scratch on the device,
 * 128-bit sums and their flush, work counters, and the warp's walks over
 * rows and paths.
 * Part of gpu_motif_sums.cu's translation unit, which includes it (one
 * unit, so that every kernel is compiled as before with its helpers inlined). */
#pragma once

#include "gpu_stop.cuh"
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

/* The call's stop word on the current device (device/gpu_stop.cuh), set
 * with c_system_scope before the passes; NULL: no stop. */
__constant__ wm_stop *c_stop;

/* What a take answers once the call is stopped: past every counter's end
 * (items are vertices, arcs or lists, all below 2^40), and small enough
 * that a caller's a0 + 32 * it does not wrap. */
constexpr unsigned long long kStopped = 1ull << 40;

/* The next item from a global counter, for the calling thread. */
__device__ __forceinline__ unsigned long long take_any(unsigned long long *next) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600
  return c_system_scope ? atomicAdd_system(next, 1ull) : atomicAdd(next, 1ull);
#else
  return atomicAdd(next, 1ull); /* never shared below sm_60 (no peer atomics) */
#endif
}

/* The same, kStopped once the call is stopped (a check of device memory
 * per take: gpu_stop.cuh); a thread that sees it set quits. */
__device__ __forceinline__ unsigned long long take_next(unsigned long long *next) {
  const unsigned long long x = take_any(next);
  return wm_stop_asked(c_stop) ? kStopped : x;
}

/* A long item (a heavy top, a block's): the word read at every take. */
__device__ __forceinline__ unsigned long long take_long(unsigned long long *next) {
  return wm_stop_asked(c_stop) ? kStopped : take_any(next);
}

/* The next item for the warp. */
__device__ __forceinline__ unsigned long long grab64(unsigned long long *next) {
  unsigned long long x = 0;
  if ((threadIdx.x & 31) == 0) x = take_next(next);
  return __shfl_sync(0xffffffffu, x, 0);
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

}  // namespace
