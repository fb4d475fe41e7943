/* The orbit formula's heavy aggregates on the GPU: the ranked, oriented
 * walks of orbit_aggregates_cpu.c (its oracle; its comment says why they
 * cost about the sum of d(u) d+(u) where the unoriented walks cost the sum
 * of d(u)^2), with warps where the CPU has threads, on g by ascending
 * degree (rank r before s when d(r) < d(s), ties by index, as
 * wm_orbit_ranked_init has it), rows sorted by rank so that a vertex's
 * neighbours above it are the end of its row:
 *   0. the ranking, on the device from g there (gpu_orbit_rank.cuh);
 *   1. triangles per arc: a warp per arc a->b with a < b (32 arcs per take
 *      of a work counter), the lanes over the shorter of a's row past b and
 *      b's row above b, searching the other: each triangle a < b < c found
 *      once, from its lowest edge, and its three arcs credited by 32-bit
 *      atomics (an arc's count is below n);
 *   2. (k >= 4) 4-cliques and diamond sums, the same walk once every arc's
 *      count is in (an arc per take): the c of the arc a->b listed in the
 *      warp's scratch (ascending) and marked with their index; each c walks
 *      the cheaper of the list past it (searching c's row above c) and c's
 *      row above c (looking up the marks) for the d closing a 4-clique a, b, c, d
 *      (row_walk: a lane per short stretch, the warp per long one), the
 *      d's credits gathered per index and added once per arc; the diamond
 *      terms (each corner of a triangle takes the far edge's triangles less
 *      one) to a and b summed over the warp, to each c as it is listed; the
 *      arcs of more than kHeavyTriangles triangles a block each;
 *   3. (k >= 4) 4-cycles, from each one's highest vertex v (Chiba and
 *      Nishizeki's order): the paths v-u-w with u and w below v (each row's
 *      part below v a prefix) counted per w in the warp's counters, the
 *      middles' terms on a second walk, then C(c, 2) to v and w for each
 *      touched w, which is cleared; the highest ranks first, the tops of
 *      more than kHeavyDegree neighbours (the last ranks) a block each;
 *   4. the triangles back to g's arcs (a thread per arc by rank: the arc
 *      a->b above a holds the count, the arc b->a finds it by a search of
 *      b's row above b).
 * Every per-vertex credit is a 64-bit atomic whose wrap sets a flag (every
 * credit is >= 0, so a wrap is a total past 2^64 - 1, as the CPU finds it,
 * and the error is the CPU's).  The vertices' sums go back to g's labels on
 * the host (n words).
 * The fixed cost is kept out of the way: g is read from the graph the
 * context keeps on the device (wm_gpu_graph) where it holds g, else
 * uploaded; the other buffers are one allocation (carve); the warps' scratch,
 * which passes 2 and 3 leave zeroed, stays with it for the next call
 * (wm_gpu_graph_keep).  Every buffer is allocated (and g uploaded) before
 * the start event, so that kernel_ms is the kernels', the ranking's
 * included; every buffer is freed (or kept) on every path (release). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "device.h"
#include "orbits.h"
#include "gpu_orbit_warps.cuh"
#include "gpu_orbit_rank.cuh"

namespace {

static_assert(sizeof(i128) == sizeof(wm_i128), "the host's 128-bit sums are the device's");

/* Tops of more than kHeavyDegree neighbours (the last ranks: degrees
 * ascend; pass 3) and arcs of more than kHeavyTriangles triangles (pass 2)
 * are walked by a block of kHeavyWarps warps each (or of kWarpsPerBlock,
 * where the warps are fewer).  WM_TEST_ORBIT_HEAVY=1 sends every top and
 * every arc with a triangle to the blocks, so that the tests see both
 * ways on small graphs. */
constexpr int kHeavyWarps = 16;
constexpr uint64_t kHeavyDegree = 256;
constexpr uint32_t kHeavyTriangles = 256;

struct heavy_limits {
  uint64_t degree;
  uint32_t triangles;
};

heavy_limits heavy_limits_now() {
  const char *v = getenv("WM_TEST_ORBIT_HEAVY");
  if (v && *v == '1') return {0, 0};
  return {kHeavyDegree, kHeavyTriangles};
}

/* The ranked graph on the device: off (n + 1), up (n: where a row's
 * neighbours above its vertex start), adj. */
struct ranked_dev {
  uint32_t n;
  const uint64_t *off, *up;
  const uint32_t *adj;
};

/* The sums by rank, and the overflow flag. */
struct vertex_sums {
  ull *k4, *n8, *n12;
  int *overflow;
};

/* One warp's slice of the scratch, zero between uses: per vertex a counter
 * (pass 3's paths; pass 2's marks, index + 1 in the list) and the touched
 * list (pass 3), then maxout entries (a bound on a row above its vertex:
 * the largest degree) for the list of an arc's c (pass 2) and their
 * 4-clique credits. */
struct aggr_scratch {
  uint32_t *cnt, *touched, *list, *tally;
};

__host__ __device__ inline uint64_t aggr_words(uint64_t n, uint64_t maxout) { return 2 * n + 2 * maxout; }

__device__ aggr_scratch aggr_slice(uint32_t *base, uint64_t n, uint64_t maxout, uint64_t warp) {
  uint32_t *b = base + warp * aggr_words(n, maxout);
  return {b, b + n, b + 2 * n, b + 2 * n + maxout};
}

/* The arcs a->b with a < b, Batch per take from next, each by the whole
 * warp in turn (for_wanted_arcs): f(e, a, b); those of more than `heavy`
 * triangles (tri, where given) are left out. */
template <unsigned Batch = 32, class F>
__device__ __forceinline__ void for_up_arcs(const ranked_dev &r, unsigned long long *next, uint32_t heavy,
                                            const uint32_t *tri, F f) {
  const dev_graph g = {r.n, r.off, r.adj};
  const uint64_t m = r.off[r.n];
  for_wanted_arcs<Batch>(
      g, 0, m, next, [&](uint64_t e) { return !tri || (tri[e] && tri[e] <= heavy); },
      [&](uint64_t e, uint32_t a, uint32_t b) {
        /* a triangle needs a's row past b and b's row above b */
        return b > a && e + 1 < r.off[a + 1] && r.up[b] < r.off[b + 1];
      },
      f);
}

/* hit(i, j, c) for each c above b adjacent to both, i its arc from a and j
 * its arc from b, by the lanes of the calling warp (converged: the lanes
 * walk the shorter row 32 entries a round, searching the longer). */
template <class Hit>
__device__ __forceinline__ void common_above(const ranked_dev &r, uint64_t e, uint32_t a, uint32_t b, Hit hit) {
  const int lane = threadIdx.x & 31;
  const uint64_t a0 = e + 1, a1 = r.off[a + 1], b0 = r.up[b], b1 = r.off[b + 1];
  const bool walk_a = a1 - a0 <= b1 - b0;
  const uint64_t w0 = walk_a ? a0 : b0, w1 = walk_a ? a1 : b1, s0 = walk_a ? b0 : a0, s1 = walk_a ? b1 : a1;
  for (uint64_t x0 = w0; x0 < w1; x0 += 32) {
    const uint64_t x = x0 + lane;
    bool found = false;
    uint64_t y = 0;
    uint32_t c = 0;
    if (x < w1) {
      c = r.adj[x];
      y = s0 + lower_bound(r.adj + s0, s1 - s0, c);
      found = y < s1 && r.adj[y] == c;
    }
    hit(found, walk_a ? x : y, walk_a ? y : x, c);
  }
}

/* 1: tri[e] for every arc e = a->b with a < b. */
__global__ void __launch_bounds__(kThreads) up_triangles(ranked_dev r, unsigned long long *next, uint32_t *tri) {
  const int lane = threadIdx.x & 31;
  for_up_arcs(r, next, 0, NULL, [&](uint64_t e, uint32_t a, uint32_t b) {
    unsigned t = 0;
    common_above(r, e, a, b, [&](bool found, uint64_t i, uint64_t j, uint32_t) {
      if (!found) return;
      atomicAdd(&tri[i], 1u), atomicAdd(&tri[j], 1u);
      t++;
    });
    t = (unsigned)warp_sum_u64(t);
    if (lane == 0 && t) atomicAdd(&tri[e], t);
  });
}

/* The 4-cliques a, b, c = list[i], d on the arc a->b (c < d): c's stretch
 * [b, e) is the list past i (d searched in c's row above c) where that is
 * cheaper than c's row above c (d looked up in the marks); positions past
 * nc are the latter's, offset by nc.  clique_term: whether position f
 * closes one (1 or 0), d's credit added in tally at its index in the list
 * (c's, the sum of its terms, by the caller). */
__device__ __forceinline__ void clique_stretch(const ranked_dev &r, const uint32_t *list, uint32_t nc, uint64_t i,
                                               uint64_t &b, uint64_t &e) {
  const uint32_t c = list[i];
  const uint64_t past = nc - i - 1, out = r.off[c + 1] - r.up[c];
  const uint64_t search = past * (uint64_t)(64 - __clzll((long long)(out | 1))); /* loads of the searches */
  if (search <= out) b = i + 1, e = nc;
  else b = nc + r.up[c], e = nc + r.off[c + 1];
}

__device__ __forceinline__ i128 clique_term(const ranked_dev &r, const aggr_scratch &x, uint32_t nc, uint64_t i,
                                            uint64_t f) {
  uint64_t at = 0;
  if (f < nc) {
    const uint32_t c = x.list[i];
    if (!has(r.adj + r.up[c], r.off[c + 1] - r.up[c], x.list[f])) return 0;
    at = f;
  } else {
    const uint32_t mark = x.cnt[r.adj[f - nc]]; /* index + 1 in the list; d > c, so d's index is past i */
    if (!mark) return 0;
    at = mark - 1;
  }
  atomicAdd(&x.tally[at], 1u);
  return 1;
}

/* 2: arc a->b's 4-cliques and diamond sums by a group of G warps (this one
 * its gw-th; G = 1 a warp, else the block), in the slice x: its first warp
 * lists the c (with the diamond terms), then the group walks their
 * stretches; *nc_at (the group's) holds the list's length between them. */
template <int G>
__device__ void arc_sums(const ranked_dev &r, const aggr_scratch &x, const uint32_t *tri, const vertex_sums &s,
                         uint64_t e, uint32_t a, uint32_t b, uint32_t *nc_at) {
  const int lane = threadIdx.x & 31;
  const unsigned gw = G == 1 ? 0 : threadIdx.x >> 5;
  if (gw == 0) {
    const ull far = tri[e] - 1ull; /* each c's term: the triangles of a-b less one */
    i128 to_a = 0, to_b = 0;
    uint32_t nc = 0;
    common_above(r, e, a, b, [&](bool found, uint64_t i, uint64_t j, uint32_t c) {
      const unsigned mask = __ballot_sync(0xffffffffu, found);
      if (found) {
        const uint32_t at = nc + __popc(mask & ((1u << lane) - 1));
        x.list[at] = c, x.cnt[c] = at + 1;
        to_a += (i128)tri[j] - 1, to_b += (i128)tri[i] - 1;
        credit_u64(&s.n12[c], far, s.overflow);
      }
      nc += __popc(mask);
    });
    to_a = warp_sum(to_a), to_b = warp_sum(to_b);
    if (lane == 0) {
      credit_sum(&s.n12[a], to_a, s.overflow), credit_sum(&s.n12[b], to_b, s.overflow);
      *nc_at = nc;
    }
  }
  group_barrier<G>();
  const uint32_t nc = *(volatile uint32_t *)nc_at;
  i128 at_ab = 0;
  if (nc >= 2)
    row_walk(
        nc, [&](uint64_t i, uint64_t &b0, uint64_t &e0) { clique_stretch(r, x.list, nc, i, b0, e0); },
        [&](uint64_t i, uint64_t f) { return clique_term(r, x, nc, i, f); },
        [&](uint64_t i, i128 t) {
          if (t) atomicAdd(&x.tally[i], (uint32_t)t), at_ab += t;
        },
        gw, G);
  group_barrier<G>();
  for (uint32_t q = 32 * gw + lane; q < nc; q += 32 * G) {
    const uint32_t c = x.list[q];
    credit_u64(&s.k4[c], x.tally[q], s.overflow);
    x.tally[q] = 0, x.cnt[c] = 0;
  }
  at_ab = warp_sum(at_ab);
  if (lane == 0) credit_sum(&s.k4[a], at_ab, s.overflow), credit_sum(&s.k4[b], at_ab, s.overflow);
  group_barrier<G>(); /* the list read before the next arc writes it */
}

/* The arcs a->b (a < b) of more than `heavy` triangles, listed for pass 2's
 * blocks. */
__global__ void heavy_arcs(ranked_dev r, const uint32_t *tri, uint32_t heavy, ull *list, ull *count) {
  const uint64_t m = r.off[r.n];
  for (uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; e < m; e += (uint64_t)gridDim.x * blockDim.x)
    if (tri[e] > heavy) list[atomicAdd(count, 1ull)] = e; /* pass 1 counts on the arcs a->b with a < b alone */
}

/* 2: the arcs of more than `heavy` triangles (heavy_arcs' list) a block of
 * G warps each, from heavy_next; then, in the same launch, the others a
 * warp each (one per take from next): an arc of the dense core, whose c
 * walk rows of thousands, does not hold one warp while the rest idle, nor
 * do the arcs of a dense community, which taken 32 together one warp
 * walks in turn while the others have none. */
template <int G>
__global__ void __launch_bounds__(32 * G)
    cliques_and_diamonds(ranked_dev r, unsigned long long *next, const uint32_t *tri, uint32_t *scratch,
                         uint64_t maxout, vertex_sums s, uint32_t heavy, const ull *list, const ull *count,
                         unsigned long long *heavy_next) {
  __shared__ unsigned long long item;
  __shared__ uint32_t block_nc;
  __shared__ uint32_t warp_nc[G];
  const dev_graph g = {r.n, r.off, r.adj};
  const aggr_scratch first = aggr_slice(scratch, r.n, maxout, (uint64_t)blockIdx.x * G);
  const unsigned long long heavies = *count;
  for (;;) {
    if (threadIdx.x == 0) item = take_long(heavy_next);
    __syncthreads();
    const unsigned long long it = item;
    __syncthreads(); /* every thread read it before thread 0 takes the next */
    if (it >= heavies) break;
    const uint64_t e = list[it];
    arc_sums<G>(r, first, tri, s, e, row_of(g, e), r.adj[e], &block_nc);
  }
  const aggr_scratch own = aggr_slice(scratch, r.n, maxout, global_warp());
  for_up_arcs<1>(r, next, heavy, tri, [&](uint64_t e, uint32_t a, uint32_t b) {
    arc_sums<1>(r, own, tri, s, e, a, b, &warp_nc[threadIdx.x >> 5]);
  });
}

/* The middles u of top v (its row below v) and each one's row below v. */
__device__ __forceinline__ void middle_row(const ranked_dev &r, uint32_t v, uint64_t i, uint64_t &b, uint64_t &e) {
  const uint32_t u = r.adj[r.off[v] + i];
  b = r.off[u];
  e = r.up[u] + lower_bound(r.adj + r.up[u], r.off[u + 1] - r.up[u], v); /* v's own place in u's row */
}

/* 3: top v's 4-cycles by a group of G warps (this one its gw-th; G = 1 a
 * warp, else the block) in the counters x (zero on entry and on return);
 * *nt (zero on entry) counts the touched w. */
template <int G>
__device__ void cycles_at(const ranked_dev &r, const aggr_scratch &x, uint32_t v, unsigned *nt, ull *n8,
                          int *overflow) {
  const int lane = threadIdx.x & 31;
  const unsigned gw = G == 1 ? 0 : threadIdx.x >> 5;
  const uint64_t middles = r.up[v] - r.off[v];
  auto range = [&](uint64_t i, uint64_t &b, uint64_t &e) { middle_row(r, v, i, b, e); };
  row_walk(
      middles, range,
      [&](uint64_t, uint64_t f) {
        const uint32_t w = r.adj[f];
        if (atomicAdd(&x.cnt[w], 1u) == 0) x.touched[atomicAdd(nt, 1u)] = w;
        return (i128)0;
      },
      [](uint64_t, i128) {}, gw, G);
  group_barrier<G>();
  /* each middle u: c - 1 for each of its w (the other middles of v and w) */
  row_walk(
      middles, range, [&](uint64_t, uint64_t f) { return (i128)x.cnt[r.adj[f]] - 1; },
      [&](uint64_t i, i128 t) { credit_sum(&n8[r.adj[r.off[v] + i]], t, overflow); }, gw, G);
  group_barrier<G>();
  const unsigned all = *(volatile unsigned *)nt;
  i128 at_v = 0;
  for (unsigned q = 32 * gw + lane; q < all; q += 32 * G) {
    const uint32_t w = x.touched[q];
    const ull c = x.cnt[w], pairs = c * (c - 1) / 2;
    credit_u64(&n8[w], pairs, overflow);
    at_v += pairs;
    x.cnt[w] = 0;
  }
  at_v = warp_sum(at_v);
  if (lane == 0) credit_sum(&n8[v], at_v, overflow);
  group_barrier<G>();
  if ((G == 1 ? lane : (int)threadIdx.x) == 0) *nt = 0;
  group_barrier<G>();
}

/* 3: the heavy tops, the last `heavy` ranks, a block of G warps each (from
 * heavy_next, the highest first); then, in the same launch, the others a
 * warp each (from next), the highest rank first: the blocks that find no
 * heavy top left walk light ones while a hub's block is still at its top. */
template <int G>
__global__ void __launch_bounds__(32 * G) four_cycles(ranked_dev r, uint32_t *scratch, uint64_t maxout,
                                                       uint32_t heavy, unsigned long long *heavy_next,
                                                       unsigned long long *next, ull *n8, int *overflow) {
  __shared__ unsigned long long item;
  __shared__ unsigned block_nt;
  __shared__ unsigned warp_nt[G];
  const aggr_scratch first = aggr_slice(scratch, r.n, maxout, (uint64_t)blockIdx.x * G);
  if (threadIdx.x == 0) block_nt = 0;
  if ((threadIdx.x & 31) == 0) warp_nt[threadIdx.x >> 5] = 0;
  __syncthreads();
  for (;;) {
    if (threadIdx.x == 0) item = take_long(heavy_next);
    __syncthreads();
    const unsigned long long it = item;
    __syncthreads(); /* every thread read it before thread 0 takes the next */
    if (it >= heavy) break;
    cycles_at<G>(r, first, (uint32_t)(r.n - 1 - it), &block_nt, n8, overflow);
  }
  const aggr_scratch own = aggr_slice(scratch, r.n, maxout, global_warp());
  for (uint64_t i = heavy + grab64(next); i < r.n; i = heavy + grab64(next)) {
    const uint32_t v = (uint32_t)(r.n - 1 - i);
    if (r.up[v] - r.off[v] < 2) continue; /* fewer than two lower neighbours: no 4-cycle with top v */
    cycles_at<1>(r, own, v, &warp_nt[threadIdx.x >> 5], n8, overflow);
  }
}

#define EACH(i, count) \
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (count); i += (uint64_t)gridDim.x * blockDim.x)

/* 0: where each ranked row's neighbours above its vertex start. */
__global__ void ups(const uint64_t *off, const uint32_t *adj, uint32_t n, uint64_t *up) {
  EACH(s, n) up[s] = off[s] + lower_bound(adj + off[s], off[s + 1] - off[s], (uint32_t)s + 1);
}

/* 4: each arc's count to the g arc it came from (g_arc). */
__global__ void triangles_to_g(ranked_dev r, const uint32_t *tri, const ull *g_arc, uint32_t *out) {
  const dev_graph g = {r.n, r.off, r.adj};
  const uint64_t m = r.off[r.n];
  EACH(e, m) {
    const uint32_t a = row_of(g, e), b = r.adj[e];
    uint64_t at = e;
    if (b < a) at = r.up[b] + lower_bound(r.adj + r.up[b], r.off[b + 1] - r.up[b], a);
    out[g_arc[e]] = tri[at];
  }
}

constexpr int kEvents = 6;

/* The device's side of a call. */
struct bufs {
  const wm_gpu_graph *gg; /* the context's graph on the device, or NULL */
  int dev;
  void *block;            /* every buffer below but the scratch (carve) */
  dev_graph g;            /* g on the device: gg's, or own_off and own_adj */
  uint64_t *own_off, *off, *up;
  uint32_t *own_adj, *adj, *old, *rank, *tri, *tri_g, *scratch;
  ull *keys, *sorted, *arcs, *g_arc; /* the sorts' (g_arc: each ranked arc's index in g) */
  void *sort_tmp;
  size_t sort_bytes;
  ull *sums;  /* k4, n8, n12 by rank: 3n */
  ull *heavy; /* pass 2's heavy arcs */
  ull *next; /* work counters */
  int *overflow;
  size_t scratch_bytes;
  uint64_t tag;       /* the scratch's (scratch_tag) */
  bool scratch_clean; /* passes 2 and 3 ran (to their end, or stopped between items): every word is 0 */
  cudaEvent_t ev[kEvents]; /* before pass 0, after each pass (WM_ORBIT_TRACE's times) */
  double prep[5];          /* WM_ORBIT_TRACE: prepare's steps' ends (stamp) */
  bool trace;
  unsigned long long heavy_arcs; /* pass 2's, for the trace */
};

constexpr int kCounters = 6; /* 1's arcs, 2's light arcs, 3's heavy and light tops, 2's heavy arcs (count, takes) */

/* The warps' scratch's tag among the buffers a wm_gpu_graph keeps. */
uint64_t scratch_tag(unsigned warps) { return 0x0B18ull << 48 | warps; }

/* The call's buffers are carved from one cudaMalloc: the first allocation
 * from a memory pool costs a process 7-10 ms (the stream-ordered
 * allocator's start, on an H200), about a small graph's whole count, where
 * one cudaMalloc and its free take 0.07 ms.  A carver with no base only
 * measures. */
struct carver {
  char *base;
  size_t at;
};

template <class T>
void carve(carver &c, T **p, size_t count) {
  c.at = (c.at + 255) / 256 * 256; /* CUB's and the loads' alignment */
  *p = c.base ? (T *)(c.base + c.at) : NULL;
  c.at += (count ? count : 1) * sizeof(T);
}

/* g's copy where gg lacks it, the ranking's, the triangles, the counters,
 * and for k >= 4 the sums and the heavy arcs. */
size_t layout(bufs &b, char *base, size_t n, size_t m, unsigned k, bool own_graph) {
  carver c = {base, 0};
  const size_t most = n > m ? n : m;
  if (own_graph) carve(c, &b.own_off, n + 1), carve(c, &b.own_adj, m);
  carve(c, &b.off, n + 1), carve(c, &b.up, n), carve(c, &b.adj, m), carve(c, &b.old, n), carve(c, &b.rank, n);
  carve(c, &b.keys, most), carve(c, &b.sorted, most), carve(c, &b.arcs, m), carve(c, &b.g_arc, m);
  carve(c, &b.tri, m), carve(c, &b.tri_g, m), carve(c, &b.next, kCounters), carve(c, &b.overflow, 1);
  carve(c, (char **)&b.sort_tmp, b.sort_bytes);
  if (k >= 4) carve(c, &b.sums, 3 * n), carve(c, &b.heavy, m / 2 + 1);
  return c.at;
}

void release(bufs &b) {
  cudaFree(b.block);
  /* the scratch: kept clean with gg for the next call, else freed (cudaMalloc'd: gg frees what it keeps) */
  if (b.scratch && !(b.scratch_clean && wm_gpu_graph_keep(b.gg, b.dev, b.scratch, b.scratch_bytes, b.tag)))
    cudaFree(b.scratch);
  for (cudaEvent_t e : b.ev)
    if (e) cudaEventDestroy(e);
  cudaGetLastError();
}

/* The warps' scratch: as many warps as the device runs and the vertices
 * need, fewer where their slices would pass 3/4 of the free memory (whole
 * blocks of the heavy tops' where there are that many); a clean scratch of
 * that size kept with gg is taken as it is, a new one zeroed. */
int warps_scratch(bufs &b, uint64_t n, uint64_t maxout, unsigned *warps, wm_error *err) {
  const uint64_t per_warp = aggr_words(n, maxout) * sizeof(uint32_t);
  unsigned w = warps_fitting(per_warp, n, "aggregates", err);
  if (!w) return err->code;
  if (w >= kHeavyWarps) w -= w % kHeavyWarps;
  b.scratch_bytes = w * per_warp, b.tag = scratch_tag(w);
  *warps = w;
  b.scratch = (uint32_t *)wm_gpu_graph_take(b.gg, b.dev, b.scratch_bytes, b.tag);
  if (b.scratch) return WM_OK;
  WM_CU(cudaMalloc(&b.scratch, b.scratch_bytes));
  WM_CU(cudaMemsetAsync(b.scratch, 0, b.scratch_bytes, 0));
  return WM_OK;
}

/* WM_ORBIT_TRACE: the end of prepare's step i, its device work done. */
void stamp(bufs &b, int i) {
  if (!b.trace) return;
  cudaDeviceSynchronize();
  b.prep[i] = wm_now();
}

/* Every buffer, before the timed window (layout; g uploaded where gg
 * lacks it), and for k >= 4 the warps' scratch (warps_scratch). */
int prepare(bufs &b, const wm_graph *g, unsigned k, uint64_t maxdeg, unsigned *warps, wm_error *err) {
  const size_t n = g->n, m = g->m;
  void *off = NULL, *adj = NULL;
  const bool own_graph = !wm_gpu_graph_on(b.gg, g, b.dev, &off, &adj);
  stamp(b, 0);
  WM_CU(rank_space(n, m, maxdeg, &b.sort_bytes));
  stamp(b, 1);
  WM_CU(cudaMalloc(&b.block, layout(b, NULL, n, m, k, own_graph)));
  layout(b, (char *)b.block, n, m, k, own_graph);
  b.g.n = g->n;
  if (own_graph) {
    WM_CU(cudaMemcpy(b.own_off, g->offsets, (n + 1) * sizeof *b.own_off, cudaMemcpyHostToDevice));
    if (m) WM_CU(cudaMemcpy(b.own_adj, g->adj, m * sizeof *b.own_adj, cudaMemcpyHostToDevice));
    b.g.off = b.own_off, b.g.adj = b.own_adj;
  } else {
    b.g.off = (const uint64_t *)off, b.g.adj = (const uint32_t *)adj;
  }
  WM_CU(cudaMemsetAsync(b.tri, 0, m * sizeof *b.tri, 0));
  WM_CU(cudaMemsetAsync(b.next, 0, kCounters * sizeof *b.next, 0));
  WM_CU(cudaMemsetAsync(b.overflow, 0, sizeof *b.overflow, 0));
  if (k >= 4) WM_CU(cudaMemsetAsync(b.sums, 0, 3 * n * sizeof *b.sums, 0));
  stamp(b, 2);
  const int rc = k >= 4 ? warps_scratch(b, n, maxdeg, warps, err) : WM_OK;
  stamp(b, 3);
  const int stop_rc = rc ? rc : set_stop(err);
  stamp(b, 4);
  return stop_rc;
}

/* The heavy tops: the vertices of more than `degree` neighbours (the last
 * ranks). */
uint32_t heavy_tops(const wm_graph *g, uint64_t degree) {
  uint32_t heavy = 0;
  for (uint32_t v = 0; v < g->n; v++) heavy += g->offsets[v + 1] - g->offsets[v] > degree;
  return heavy;
}

/* 0: g ranked into b.off, b.up, b.adj (and b.old, b.g_arc). */
int rank_graph(bufs &b, uint64_t n, uint64_t m, uint64_t maxdeg, wm_error *err) {
  const ranking r = {b.keys, b.sorted, b.arcs, b.sort_tmp, b.sort_bytes, b.off, b.adj, b.old, b.rank, b.g_arc};
  const int rc = rank_by_degree(b.g, m, maxdeg, false, r, err);
  if (rc) return rc;
  ups<<<grid_of(n), 256>>>(b.off, b.adj, (uint32_t)n, b.up);
  WM_CU(cudaGetLastError());
  return WM_OK;
}

/* Blocks of kThreads for a pass without scratch: as many as the device runs. */
unsigned free_blocks(int sms) { return (unsigned)(sms > 0 ? sms : 1) * kBlocksPerSm; }

/* Passes 2 and 3 (k >= 4): blocks of kHeavyWarps warps where there are
 * that many, else of kWarpsPerBlock. */
template <int G>
int four_vertex_passes(const bufs &b, const ranked_dev &r, uint64_t m, uint64_t maxout, unsigned warps,
                       const heavy_limits &lim, uint32_t heavy_tops_n, wm_error *err) {
  const vertex_sums s = {b.sums, b.sums + r.n, b.sums + 2 * (uint64_t)r.n, b.overflow};
  if (m) {
    heavy_arcs<<<grid_of(m), 256>>>(r, b.tri, lim.triangles, b.heavy, b.next + 4);
    WM_CU(cudaGetLastError());
    cliques_and_diamonds<G><<<warps / G, 32 * G>>>(r, b.next + 1, b.tri, b.scratch, maxout, s, lim.triangles,
                                                   b.heavy, b.next + 4, b.next + 5);
    WM_CU(cudaGetLastError());
  }
  WM_CU(cudaEventRecord(b.ev[3], 0));
  four_cycles<G><<<warps / G, 32 * G>>>(r, b.scratch, maxout, heavy_tops_n, b.next + 2, b.next + 3, s.n8,
                                        b.overflow);
  WM_CU(cudaGetLastError());
  return WM_OK;
}

/* Passes 0-4 in the timed window; ms[i] the time of pass i. */
int passes(bufs &b, const wm_graph *g, unsigned k, uint64_t maxout, unsigned warps, int sms, float *ms,
           uint32_t *heavy_out, wm_error *err) {
  const ranked_dev r = {g->n, b.off, b.up, b.adj};
  const uint64_t m = g->m;
  const heavy_limits lim = heavy_limits_now();
  const uint32_t heavy = k >= 4 ? heavy_tops(g, lim.degree) : 0;
  *heavy_out = heavy;
  for (cudaEvent_t &e : b.ev) WM_CU(cudaEventCreate(&e));
  WM_CU(cudaEventRecord(b.ev[0], 0));
  int rc = rank_graph(b, g->n, m, maxout, err);
  if (rc) return rc;
  WM_CU(cudaEventRecord(b.ev[1], 0));
  if (m) up_triangles<<<free_blocks(sms), kThreads>>>(r, b.next, b.tri);
  WM_CU(cudaGetLastError());
  WM_CU(cudaEventRecord(b.ev[2], 0));
  if (k >= 4 && warps >= kHeavyWarps) rc = four_vertex_passes<kHeavyWarps>(b, r, m, maxout, warps, lim, heavy, err);
  else if (k >= 4) rc = four_vertex_passes<kWarpsPerBlock>(b, r, m, maxout, warps, lim, heavy, err);
  else WM_CU(cudaEventRecord(b.ev[3], 0));
  if (rc) return rc;
  WM_CU(cudaEventRecord(b.ev[4], 0));
  if (m) triangles_to_g<<<grid_of(m), 256>>>(r, b.tri, b.g_arc, b.tri_g);
  WM_CU(cudaGetLastError());
  WM_CU(cudaEventRecord(b.ev[5], 0));
  WM_CU(cudaEventSynchronize(b.ev[5]));
  WM_CU(cudaDeviceSynchronize()); /* a kernel's fault, reported here */
  b.scratch_clean = true;         /* a stopped pass too: each item clears what it used */
  if (wm_monitor_stopped(wm_monitor_current())) return wm_interrupted(err, "orbits");
  for (int i = 0; i + 1 < kEvents; i++) WM_CU(cudaEventElapsedTime(&ms[i], b.ev[i], b.ev[i + 1]));
  if (k >= 4) WM_CU(cudaMemcpy(&b.heavy_arcs, b.next + 4, sizeof b.heavy_arcs, cudaMemcpyDeviceToHost));
  return WM_OK;
}

/* The triangles, and for k >= 4 the sums by rank into g's labels. */
int copy_back(const bufs &b, const wm_graph *g, unsigned k, wm_orbit_aggregates *a, wm_error *err) {
  if (g->m) WM_CU(cudaMemcpy(a->tri, b.tri_g, g->m * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  if (k < 4) return WM_OK;
  int overflow = 0;
  WM_CU(cudaMemcpy(&overflow, b.overflow, sizeof overflow, cudaMemcpyDeviceToHost));
  if (overflow)
    return wm_fail(err, WM_EINPUT, "orbits: a vertex's 4-cliques, 4-cycles or diamond sums pass 2^64 - 1");
  const size_t n = g->n;
  ull *host = (ull *)malloc(3 * n * sizeof *host);
  uint32_t *old = (uint32_t *)malloc(n * sizeof *old);
  cudaError_t e = cudaSuccess;
  if (host && old && (e = cudaMemcpy(host, b.sums, 3 * n * sizeof *host, cudaMemcpyDeviceToHost)) == cudaSuccess)
    e = cudaMemcpy(old, b.old, n * sizeof *old, cudaMemcpyDeviceToHost);
  int rc = !host || !old ? wm_fail(err, WM_EINPUT, "orbits: out of memory for the aggregates (%u vertices)", g->n)
           : e != cudaSuccess ? wm_cuda_fail(err, e, "copying the aggregates back", __FILE__, __LINE__)
                              : WM_OK;
  for (uint32_t s = 0; !rc && s < g->n; s++) {
    const uint32_t v = old[s];
    a->k4[v] = host[s], a->n8[v] = (wm_i128)host[n + s], a->n12[v] = (wm_i128)host[2 * n + s];
  }
  free(host);
  free(old);
  return rc;
}

int aggregates(bufs &b, const wm_graph *g, unsigned k, wm_orbit_aggregates *a, double *kernel_ms, wm_error *err) {
  double at[3] = {wm_now()};
  const uint64_t maxdeg = wm_graph_max_degree(g) ? wm_graph_max_degree(g) : 1; /* bounds a row above its vertex */
  int sms = 0;
  unsigned warps = 0;
  uint32_t heavy = 0;
  float ms[kEvents - 1] = {0};
  WM_CU(cudaGetDevice(&b.dev));
  WM_CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, b.dev));
  b.trace = wm_trace_on("WM_ORBIT_TRACE");
  int rc = prepare(b, g, k, maxdeg, &warps, err);
  at[1] = wm_now();
  if (!rc) rc = passes(b, g, k, maxdeg, warps, sms, ms, &heavy, err);
  const float all = ms[0] + ms[1] + ms[2] + ms[3] + ms[4];
  if (!rc && kernel_ms) *kernel_ms = all;
  const double passed = wm_now();
  if (!rc) rc = copy_back(b, g, k, a, err);
  at[2] = wm_now();
  if (b.trace)
    fprintf(stderr, "orbits (aggregates, GPU, size %u): g %s, buffers %.3f ms (start %.3f, sizes %.3f, block and "
            "upload %.3f, scratch of %.1f MB %.3f, stop word %.3f); kernels %.3f ms (%u warps with scratch): ranking "
            "%.3f, triangles %.3f, 4-cliques and diamonds %.3f (%llu arcs by blocks), 4-cycles %.3f (%u tops by "
            "blocks), back %.3f; kernels and copies back %.3f ms (copies %.3f)\n", k,
            b.own_off ? "uploaded" : "the context's", 1e3 * (at[1] - at[0]), 1e3 * (b.prep[0] - at[0]),
            1e3 * (b.prep[1] - b.prep[0]), 1e3 * (b.prep[2] - b.prep[1]), b.scratch_bytes / 1e6,
            1e3 * (b.prep[3] - b.prep[2]), 1e3 * (b.prep[4] - b.prep[3]), all, warps, ms[0], ms[1], ms[2],
            b.heavy_arcs, ms[3], heavy, ms[4], 1e3 * (at[2] - at[1]), 1e3 * (at[2] - passed));
  return rc;
}

}  // namespace

int wm_orbit_aggregates_gpu(const wm_graph *g, unsigned k, const struct wm_gpu_graph *gg, wm_orbit_aggregates *a,
                            double *kernel_ms, wm_error *err) {
  if (kernel_ms) *kernel_ms = 0;
  if (!g->n) return WM_OK;
  bufs b;
  memset(&b, 0, sizeof b);
  b.gg = gg;
  const int rc = aggregates(b, g, k, a, kernel_ms, err);
  release(b);
  return rc;
}
