/* The orbit formula's heavy aggregates on the GPU (orbit_formula.c's
 * passes, which are their oracle, with a warp where the CPU has a thread):
 *   1. triangles per arc: a warp per arc v->u, the lanes over the shorter
 *      of the two rows, searching the longer (both directions of each
 *      edge, each counted on its own);
 *   2. (k >= 4) the degree orientation (u before w by degree, then index:
 *      out-degrees at most sqrt(2m)), its offsets summed by CUB's scan;
 *   3. (k >= 4) 4-cliques per vertex: a warp per oriented arc a->b, a lane
 *      per c in N+(a) & N+(b), walking N+(c) for the d in both: each
 *      4-clique a < b < c < d found once and credited to its four vertices
 *      with 64-bit atomics whose wrap is flagged (the CPU's add_k4);
 *   4. (k >= 4) per vertex v the two-hop sums: a warp per vertex (from an
 *      atomic counter; 32 neighbours' rows walked as one flattened range),
 *      with a slice of n counters of its own: the walks
 *      v-u-w count common(v, w) into cnt[w] and add the diamonds' term
 *      tri(u, w) - 1 where w is a neighbour of v above u; a second walk
 *      takes each cnt[w] back to 0 (atomicExch: one lane reads it) and adds
 *      C(cnt, 2).  The sums are 128-bit per lane and per vertex, exact.
 *      The warps are as many as the device runs at once (and no more than
 *      the vertices), fewer where their slices would not fit in 3/4 of the
 *      free memory.
 * The fixed cost is kept out of the way, as the motif sums do: the graph
 * the context keeps on the device (wm_gpu_graph, made before the call's
 * timer, with the CUDA context) is read where it holds g instead of an
 * upload; the small buffers come from its memory pool; the two-hop
 * counters, which pass 4 leaves zeroed, stay with it for the next call
 * (wm_gpu_graph_keep) instead of a new allocation and a memset; the SM
 * count is one attribute, not cudaGetDeviceProperties.  Every buffer is
 * allocated before the start event, so that kernel_ms is the kernels'.
 * Every buffer is freed (or kept) on every path (release). */
#include <cub/cub.cuh>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "gpu_check.h"
#include "gpu_stop.cuh"
#include "orbits.h"

namespace {

typedef __int128 i128;
static_assert(sizeof(i128) == sizeof(wm_i128), "the host's 128-bit sums are the device's");

constexpr int kWarpsPerBlock = 4;
constexpr int kThreads = 32 * kWarpsPerBlock;
constexpr int kWarpsPerSm = 64; /* resident on sm_80 and sm_90: 2048 threads */

struct bufs {
  const wm_gpu_graph *gg; /* the context's graph on the device, or NULL */
  int dev;
  cudaMemPool_t pool;     /* gg's pool on dev, or NULL: cudaMalloc */
  const uint64_t *off;    /* g's CSR on the device: gg's, or own_off and own_adj */
  const uint32_t *adj;
  uint64_t *own_off, *ooff;
  uint32_t *own_adj, *oadj, *tri, *scratch;
  unsigned long long *k4, *next;
  i128 *n8, *n12;
  int *overflow;
  void *scan_tmp;
  size_t scan_bytes, scratch_bytes;
  uint64_t tag;           /* the scratch's (scratch_tag) */
  bool scratch_clean;     /* pass 4 ran to its end: every counter is back to 0 */
  cudaEvent_t start, end;
};

/* The two-hop counters' tag among the buffers a wm_gpu_graph keeps. */
uint64_t scratch_tag(unsigned warps) { return 0x0B17ull << 48 | warps; }

template <class T>
cudaError_t take(bufs &b, T **p, size_t bytes) {
  *p = NULL;
  void *q = NULL;
  const cudaError_t e = b.pool ? cudaMallocFromPoolAsync(&q, bytes ? bytes : 1, b.pool, 0)
                               : cudaMalloc(&q, bytes ? bytes : 1);
  *p = (T *)q;
  return e;
}

void give(const bufs &b, void *p) {
  if (!p) return;
  if (b.pool) cudaFreeAsync(p, 0);
  else cudaFree(p);
}

void release(bufs &b) {
  void *p[] = {b.own_off, b.own_adj, b.ooff, b.oadj, b.tri, b.k4, b.next, b.n8, b.n12, b.overflow, b.scan_tmp};
  for (void *x : p) give(b, x);
  /* the counters: kept clean with gg for the next call, else freed (cudaMalloc'd: gg frees what it keeps) */
  if (b.scratch && !(b.scratch_clean && wm_gpu_graph_keep(b.gg, b.dev, b.scratch, b.scratch_bytes, b.tag)))
    cudaFree(b.scratch);
  if (b.start) cudaEventDestroy(b.start);
  if (b.end) cudaEventDestroy(b.end);
  if (b.pool) cudaStreamSynchronize(0); /* the pool's frees are done before the call returns */
  cudaGetLastError();
}

__device__ __forceinline__ uint64_t deg(const uint64_t *off, uint32_t v) { return off[v + 1] - off[v]; }

__device__ __forceinline__ bool has(const uint32_t *row, uint64_t len, uint32_t x) {
  uint64_t lo = 0, hi = len;
  while (lo < hi) {
    const uint64_t mid = (lo + hi) / 2;
    if (row[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo < len && row[lo] == x;
}

/* The row holding arc `arc`: the last v with off[v] <= arc (off[n] > arc). */
__device__ __forceinline__ uint32_t row_of(const uint64_t *off, uint32_t n, uint64_t arc) {
  uint32_t lo = 0, hi = n - 1;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo + 1) / 2;
    if (off[mid] <= arc) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

__device__ __forceinline__ uint64_t warp_sum(uint64_t x) {
  for (int d = 16; d; d >>= 1) x += __shfl_xor_sync(0xffffffffu, x, d);
  return x;
}

__device__ __forceinline__ i128 warp_sum128(i128 x) {
  for (int d = 16; d; d >>= 1) {
    const uint64_t lo = __shfl_xor_sync(0xffffffffu, (uint64_t)x, d);
    const uint64_t hi = __shfl_xor_sync(0xffffffffu, (uint64_t)((unsigned __int128)x >> 64), d);
    x += (i128)(((unsigned __int128)hi << 64) | lo);
  }
  return x;
}

__device__ __forceinline__ uint64_t global_warp() { return ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5; }
__device__ __forceinline__ uint64_t warps_in_grid() { return ((uint64_t)gridDim.x * blockDim.x) >> 5; }

/* 1: tri[e] = |N(v) & N(u)| for every arc e = v->u. */
__global__ void arc_triangles(const uint64_t *off, const uint32_t *adj, uint32_t n, uint64_t m, uint32_t *tri) {
  const int lane = threadIdx.x & 31;
  for (uint64_t e = global_warp(); e < m; e += warps_in_grid()) {
    const uint32_t v = row_of(off, n, e), u = adj[e];
    const uint64_t dv = deg(off, v), du = deg(off, u);
    const uint32_t *s = adj + off[dv <= du ? v : u], *l = adj + off[dv <= du ? u : v];
    const uint64_t sl = dv <= du ? dv : du, ll = dv <= du ? du : dv;
    uint64_t t = 0;
    for (uint64_t i = lane; i < sl; i += 32) t += has(l, ll, s[i]);
    t = warp_sum(t);
    if (lane == 0) tri[e] = (uint32_t)t;
  }
}

__device__ __forceinline__ bool before(const uint64_t *off, uint32_t u, uint32_t w) {
  const uint64_t du = deg(off, u), dw = deg(off, w);
  return du < dw || (du == dw && u < w);
}

/* 2: out-degrees into ooff[v] (ooff[n] is 0; the exclusive scan makes
 * them offsets), then the rows. */
__global__ void out_degrees(const uint64_t *off, const uint32_t *adj, uint32_t n, uint64_t *ooff) {
  for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += (uint64_t)gridDim.x * blockDim.x) {
    uint64_t d = 0;
    for (uint64_t e = off[v]; e < off[v + 1]; e++) d += before(off, (uint32_t)v, adj[e]);
    ooff[v] = d;
  }
}

__global__ void out_rows(const uint64_t *off, const uint32_t *adj, uint32_t n, const uint64_t *ooff, uint32_t *oadj) {
  for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += (uint64_t)gridDim.x * blockDim.x) {
    uint64_t o = ooff[v];
    for (uint64_t e = off[v]; e < off[v + 1]; e++)
      if (before(off, (uint32_t)v, adj[e])) oadj[o++] = adj[e];
  }
}

__device__ __forceinline__ void add_k4(unsigned long long *k4, uint32_t v, unsigned long long x, int *overflow) {
  if (!x) return;
  const unsigned long long old = atomicAdd(&k4[v], x);
  if (old + x < old) atomicOr(overflow, 1);
}

/* 3: a warp per oriented arc a->b; rows of the orientation stay sorted. */
__global__ void vertex_cliques(const uint64_t *ooff, const uint32_t *oadj, uint32_t n, uint64_t mo,
                               unsigned long long *k4, int *overflow) {
  const int lane = threadIdx.x & 31;
  for (uint64_t e = global_warp(); e < mo; e += warps_in_grid()) {
    const uint32_t a = row_of(ooff, n, e), b = oadj[e];
    const uint32_t *ra = oadj + ooff[a], *rb = oadj + ooff[b];
    const uint64_t la = ooff[a + 1] - ooff[a], lb = ooff[b + 1] - ooff[b];
    uint64_t at_ab = 0; /* the 4-cliques on a->b, credited to a and b */
    for (uint64_t i = lane; i < lb; i += 32) {
      const uint32_t c = rb[i];
      if (!has(ra, la, c)) continue;
      uint64_t at_c = 0;
      for (uint64_t f = ooff[c]; f < ooff[c + 1]; f++) {
        const uint32_t d = oadj[f];
        if (has(ra, la, d) && has(rb, lb, d)) at_c++, add_k4(k4, d, 1, overflow);
      }
      add_k4(k4, c, at_c, overflow);
      at_ab += at_c;
    }
    at_ab = warp_sum(at_ab);
    if (lane == 0) add_k4(k4, a, at_ab, overflow), add_k4(k4, b, at_ab, overflow);
  }
}

/* Whole warp: step(u, f) for every walk v-u-w, f the arc u->w.  The rows
 * of 32 neighbours u at a time are walked as one range (their lengths'
 * prefix across the lanes, each lane finding its row by a search over the
 * lanes), so that many short rows keep the lanes as busy as one long row. */
template <class Step>
__device__ __forceinline__ void for_two_hops(const uint64_t *off, const uint32_t *adj, uint32_t v, Step step) {
  const int lane = threadIdx.x & 31;
  for (uint64_t e0 = off[v]; e0 < off[v + 1]; e0 += 32) {
    uint32_t u = 0;
    uint64_t start = 0, len = 0;
    if (e0 + lane < off[v + 1]) u = adj[e0 + lane], start = off[u], len = off[u + 1] - start;
    uint64_t incl = len;
    for (int d = 1; d < 32; d <<= 1) {
      const uint64_t y = __shfl_up_sync(0xffffffffu, incl, d);
      if (lane >= d) incl += y;
    }
    const uint64_t excl = incl - len, total = __shfl_sync(0xffffffffu, incl, 31);
    for (uint64_t i = lane; i - lane < total; i += 32) {
      int j = 0; /* the last lane whose range starts at or before i */
      for (int s = 16; s; s >>= 1)
        if (__shfl_sync(0xffffffffu, excl, j + s) <= i) j += s;
      const uint32_t uj = __shfl_sync(0xffffffffu, u, j);
      const uint64_t at = __shfl_sync(0xffffffffu, start, j) + (i - __shfl_sync(0xffffffffu, excl, j));
      if (i < total) step(uj, at);
    }
  }
}

/* 4: the walks v-u-w of each vertex v, twice (two_hop of orbit_formula.c). */
__global__ void two_hop(const uint64_t *off, const uint32_t *adj, uint32_t n, const uint32_t *tri, uint32_t *scratch,
                        unsigned long long *next, i128 *n8, i128 *n12, wm_stop *stop) {
  const int lane = threadIdx.x & 31;
  uint32_t *cnt = scratch + global_warp() * (uint64_t)n;
  for (;;) {
    unsigned long long v = 0;
    /* a warp that sees the stop quits; the counters stay clean */
    if (lane == 0) {
      v = atomicAdd(next, 1ull);
      if (wm_stop_asked(stop)) v = ~0ull;
    }
    v = __shfl_sync(0xffffffffu, v, 0);
    if (v >= n) return;
    const uint32_t *rv = adj + off[v];
    const uint64_t dv = deg(off, (uint32_t)v);
    i128 diamonds = 0, cycles = 0;
    /* a w in N(v) has v among its common neighbours with u: tri >= 1, and
     * the term tri - 1 is 0 unless tri >= 2, so only then is N(v) searched */
    for_two_hops(off, adj, (uint32_t)v, [&](uint32_t u, uint64_t f) {
      const uint32_t w = adj[f];
      if (w == v) return;
      atomicAdd(&cnt[w], 1u);
      if (w > u && tri[f] >= 2 && has(rv, dv, w)) diamonds += (i128)tri[f] - 1;
    });
    __syncwarp();
    for_two_hops(off, adj, (uint32_t)v, [&](uint32_t, uint64_t f) {
      const uint32_t w = adj[f];
      if (w == v) return;
      const uint64_t c = atomicExch(&cnt[w], 0u); /* the first lane to come back reads it */
      if (c >= 2) cycles += (i128)(c * (c - 1) / 2);
    });
    __syncwarp();
    diamonds = warp_sum128(diamonds);
    cycles = warp_sum128(cycles);
    if (lane == 0) n8[v] = cycles, n12[v] = diamonds;
  }
}

/* Blocks for a warp per item, at most 32 per SM (the kernels stride). */
unsigned grid_for(uint64_t warp_items, int sms) {
  const uint64_t want = (warp_items + kWarpsPerBlock - 1) / kWarpsPerBlock;
  const uint64_t most = (uint64_t)sms * 32;
  return (unsigned)(want < 1 ? 1 : want < most ? want : most);
}

/* The two-hop counters, n per warp: as many warps as the device runs at
 * once and no more than the vertices, fewer where their slices would pass
 * 3/4 of the free memory; at least one.  A clean scratch of the full width
 * kept with gg is taken as it is; a new one is zeroed. */
int two_hop_scratch(bufs &b, const wm_graph *g, int sms, unsigned *warps, wm_error *err) {
  const uint64_t slice = (uint64_t)g->n * sizeof(uint32_t);
  uint64_t w = (uint64_t)sms * kWarpsPerSm;
  if (w > g->n) w = g->n;
  if (w > kWarpsPerBlock) w -= w % kWarpsPerBlock; /* whole blocks */
  b.scratch = (uint32_t *)wm_gpu_graph_take(b.gg, b.dev, w * slice, scratch_tag((unsigned)w));
  if (!b.scratch) {
    size_t free_b = 0, total_b = 0;
    WM_CU(cudaMemGetInfo(&free_b, &total_b));
    const uint64_t fit = (uint64_t)(0.75 * (double)free_b) / (slice ? slice : 1);
    if (w > fit) w = fit > kWarpsPerBlock ? fit - fit % kWarpsPerBlock : fit;
    if (!w)
      return wm_fail(err, WM_EDEVICE, "orbits: device out of memory: one warp's %llu counters (%zu bytes free)",
                     (unsigned long long)g->n, free_b);
    WM_CU(cudaMalloc(&b.scratch, w * slice));
    WM_CU(cudaMemsetAsync(b.scratch, 0, w * slice, 0));
  }
  b.scratch_bytes = w * slice, b.tag = scratch_tag((unsigned)w);
  *warps = (unsigned)w;
  return WM_OK;
}

/* Every buffer of the passes, before the timed window: the graph (gg's,
 * or uploaded), and for k >= 4 the orientation's (each edge is oriented
 * once: m/2 arcs), the scan's temporary, the per-vertex sums and the
 * two-hop counters (two_hop_scratch). */
int prepare(bufs &b, const wm_graph *g, unsigned k, int sms, unsigned *warps, wm_error *err) {
  void *off = NULL, *adj = NULL;
  if (wm_gpu_graph_on(b.gg, g, b.dev, &off, &adj)) {
    b.off = (const uint64_t *)off, b.adj = (const uint32_t *)adj;
  } else {
    WM_CU(take(b, &b.own_off, ((size_t)g->n + 1) * sizeof(uint64_t)));
    WM_CU(take(b, &b.own_adj, g->m * sizeof(uint32_t)));
    WM_CU(cudaMemcpy(b.own_off, g->offsets, ((size_t)g->n + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice));
    if (g->m) WM_CU(cudaMemcpy(b.own_adj, g->adj, g->m * sizeof(uint32_t), cudaMemcpyHostToDevice));
    b.off = b.own_off, b.adj = b.own_adj;
  }
  WM_CU(take(b, &b.tri, g->m * sizeof(uint32_t)));
  if (k < 4) return WM_OK;
  const size_t n = g->n;
  WM_CU(take(b, &b.next, sizeof *b.next));
  WM_CU(take(b, &b.overflow, sizeof *b.overflow));
  WM_CU(take(b, &b.ooff, (n + 1) * sizeof(uint64_t)));
  WM_CU(take(b, &b.oadj, g->m / 2 * sizeof(uint32_t)));
  WM_CU(take(b, &b.k4, n * sizeof *b.k4));
  WM_CU(take(b, &b.n8, n * sizeof *b.n8));
  WM_CU(take(b, &b.n12, n * sizeof *b.n12));
  WM_CU(cub::DeviceScan::ExclusiveSum(NULL, b.scan_bytes, b.ooff, b.ooff, n + 1));
  WM_CU(take(b, &b.scan_tmp, b.scan_bytes));
  WM_CU(cudaMemsetAsync(b.next, 0, sizeof *b.next, 0));
  WM_CU(cudaMemsetAsync(b.overflow, 0, sizeof *b.overflow, 0));
  WM_CU(cudaMemsetAsync(b.ooff + n, 0, sizeof(uint64_t), 0));
  WM_CU(cudaMemsetAsync(b.k4, 0, n * sizeof *b.k4, 0));
  return two_hop_scratch(b, g, sms, warps, err);
}

/* 2-4 in the timed window: the orientation (out-degrees, their scan, the
 * rows), the 4-cliques, the two-hop sums. */
int four_vertex_passes(bufs &b, const wm_graph *g, int sms, unsigned warps, wm_error *err) {
  wm_stop *stop = NULL;
  int rc = wm_gpu_stop_word(wm_monitor_current(), &stop, err);
  if (rc) return rc;
  const uint64_t mo = g->m / 2;
  const unsigned blocks = grid_for(g->n / 32 + 1, sms);
  out_degrees<<<blocks, kThreads>>>(b.off, b.adj, g->n, b.ooff);
  WM_CU(cudaGetLastError());
  WM_CU(cub::DeviceScan::ExclusiveSum(b.scan_tmp, b.scan_bytes, b.ooff, b.ooff, (size_t)g->n + 1));
  out_rows<<<blocks, kThreads>>>(b.off, b.adj, g->n, b.ooff, b.oadj);
  WM_CU(cudaGetLastError());
  if (mo) vertex_cliques<<<grid_for(mo, sms), kThreads>>>(b.ooff, b.oadj, g->n, mo, b.k4, b.overflow);
  WM_CU(cudaGetLastError());
  const unsigned per_block = warps < kWarpsPerBlock ? warps : kWarpsPerBlock;
  two_hop<<<warps / per_block, 32 * per_block>>>(b.off, b.adj, g->n, b.tri, b.scratch, b.next, b.n8, b.n12, stop);
  WM_CU(cudaGetLastError());
  return WM_OK;
}

int copy_back(const bufs &b, const wm_graph *g, unsigned k, wm_orbit_aggregates *a, wm_error *err) {
  if (g->m) WM_CU(cudaMemcpy(a->tri, b.tri, g->m * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  if (k < 4) return WM_OK;
  int overflow = 0;
  WM_CU(cudaMemcpy(&overflow, b.overflow, sizeof overflow, cudaMemcpyDeviceToHost));
  if (overflow) return wm_fail(err, WM_EINPUT, "orbits: a vertex's 4-cliques pass 2^64 - 1");
  WM_CU(cudaMemcpy(a->k4, b.k4, (size_t)g->n * sizeof *a->k4, cudaMemcpyDeviceToHost));
  WM_CU(cudaMemcpy(a->n8, b.n8, (size_t)g->n * sizeof *a->n8, cudaMemcpyDeviceToHost));
  WM_CU(cudaMemcpy(a->n12, b.n12, (size_t)g->n * sizeof *a->n12, cudaMemcpyDeviceToHost));
  return WM_OK;
}

int aggregates(bufs &b, const wm_graph *g, unsigned k, wm_orbit_aggregates *a, double *kernel_ms, wm_error *err) {
  int sms = 0;
  WM_CU(cudaGetDevice(&b.dev));
  WM_CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, b.dev));
  b.pool = (cudaMemPool_t)wm_gpu_graph_pool(b.gg, b.dev);
  unsigned warps = 0;
  int rc = prepare(b, g, k, sms, &warps, err);
  if (rc) return rc;
  WM_CU(cudaEventCreate(&b.start));
  WM_CU(cudaEventCreate(&b.end));
  WM_CU(cudaEventRecord(b.start, 0));
  if (g->m) arc_triangles<<<grid_for(g->m, sms), kThreads>>>(b.off, b.adj, g->n, g->m, b.tri);
  WM_CU(cudaGetLastError());
  if (k >= 4) {
    rc = four_vertex_passes(b, g, sms, warps, err);
    if (rc) return rc;
  }
  WM_CU(cudaEventRecord(b.end, 0));
  WM_CU(cudaEventSynchronize(b.end));
  WM_CU(cudaDeviceSynchronize()); /* a kernel's fault, reported here */
  b.scratch_clean = k >= 4; /* a stopped pass 4 too: each vertex clears what it counted */
  if (wm_monitor_stopped(wm_monitor_current())) return wm_interrupted(err, "orbits");
  float ms = 0;
  WM_CU(cudaEventElapsedTime(&ms, b.start, b.end));
  if (kernel_ms) *kernel_ms = ms;
  return copy_back(b, g, k, a, err);
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
