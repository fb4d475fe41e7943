/* The 5-cycles through each vertex on the GPU: the walk of
 * orbit_cycles5.c (its oracle; its comment says what each pass counts)
 * with a warp where the CPU has a thread, on g by ascending degree
 * (wm_orbit_ranked_init, on the host):
 *   1. the a = e terms, a warp per lowest vertex p of its triangles: the
 *      rows above p's upper neighbours q laid over the lanes (row_walk),
 *      each triangle's takings subtracted and its marks added atomically;
 *   2. the marks summed along each row above its vertex, a thread a row;
 *   3. a warp per top h, from the highest rank down (the hubs first; the
 *      tops of more than kHeavyDegree neighbours a block each): the
 *      wedges W from L(h)'s rows, the edges below h between touched
 *      vertices (their products credited to h, b and c, Z summed), then
 *      the paths from L(h); each in the warp's (or block's) scratch (W,
 *      in_l, touched, Z, Y: n each), left zeroed for its next top.
 * Each vertex's count is two words, as on the CPU: the sum modulo 2^64
 * and a carry word that takes +1 per add past 2^64 - 1, -1 per subtraction
 * below 0 and the high words of 128-bit credits, all by atomics, so that
 * the count (start + its 5-cycles) is exact in any order of the adds and
 * one past 2^64 - 1 is found at the end, never wrapped.  The warps are as
 * many as fit 3/4 of the free memory.
 * Over several devices (gpu_orbit_devices.cuh) each holds the ranked graph
 * and takes its part of pass 1's p and pass 3's tops (the same heavy ones
 * on every device: those of the device with the fewest warps); between the
 * passes the host adds the devices' marks and gives every device the sums,
 * and at the end adds their counts (the start in device 0's alone), each
 * low word's wraps to its carry, as the processes do (orbit_cycles5.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "device.h"
#include "orbit_cycles5.h"
#include "orbit_ranked.h"
#include "gpu_orbit_warps.cuh"
#include "gpu_orbit_devices.cuh"

namespace {

/* The ranked graph on the device: off (n + 1), up (n: where a row's
 * neighbours above its vertex start), adj. */
struct ranked_dev {
  uint32_t n;
  const uint64_t *off, *up;
  const uint32_t *adj;
};

/* Each vertex's count: low + 2^64 carry (carry as two's complement). */
struct counts {
  ull *low, *carry;
};

__device__ __forceinline__ void carry(const counts &c, uint32_t x, long long by) {
  atomicAdd(&c.carry[x], (ull)by);
}

__device__ __forceinline__ void credit_add(const counts &c, uint32_t x, ull v) {
  if (v && atomicAdd(&c.low[x], v) > ~0ull - v) carry(c, x, 1);
}

__device__ __forceinline__ void credit_sub(const counts &c, uint32_t x, ull v) {
  if (v && atomicAdd(&c.low[x], 0ull - v) < v) carry(c, x, -1);
}

/* v = hi 2^64 + lo (lo unsigned), either sign. */
__device__ __forceinline__ void credit(const counts &c, uint32_t x, i128 v) {
  credit_add(c, x, (ull)v);
  const long long hi = (long long)(v >> 64);
  if (hi) carry(c, x, hi);
}

/* A warp's tally word: a wrap goes to x's carry. */
__device__ __forceinline__ void tally(const counts &c, ull *at, uint32_t x, ull v) {
  if (v && atomicAdd(at, v) > ~0ull - v) carry(c, x, 1);
}

/* One warp's slice of the scratch, zero between tops. */
struct cycle_scratch {
  uint32_t *W;       /* |L(h) & N(v)| (pass 1: p's upper neighbours' index + 1) */
  uint32_t *in_l;    /* dU(a) + 1 for a in L(h) */
  uint32_t *touched; /* the v with W[v] > 0 */
  ull *Z;            /* sum of W over v's neighbours below h */
  ull *Y;            /* the edges' credits to v */
};

__host__ __device__ inline uint64_t cycle_words(uint64_t n) { return (3 + 2 * 2) * n + (n & 1); }

__device__ cycle_scratch cycle_slice(uint32_t *base, uint64_t n, uint64_t warp) {
  uint32_t *b = base + warp * cycle_words(n);
  cycle_scratch s;
  s.W = b, s.in_l = b + n, s.touched = b + 2 * n;
  s.Z = (ull *)(b + 3 * n + (n & 1)); /* 8-byte aligned */
  s.Y = s.Z + n;
  return s;
}

/* 1: the triangles p < q < t from their lowest vertex p (triangle_terms
 * of orbit_cycles5.c), a warp per p, from next (this device's deal of it). */
__global__ void __launch_bounds__(kThreads, kBlocksPerSm)
    triangle_terms(ranked_dev r, uint32_t *scratch, unsigned long long *next, o5_deal deal, counts c, ull *marks) {
  const int lane = threadIdx.x & 31;
  const cycle_scratch s = cycle_slice(scratch, r.n, global_warp());
  uint32_t *local = s.W;
  for (uint64_t p = o5_dealt(deal, grab64(next)); p < r.n; p = o5_dealt(deal, grab64(next))) {
    const uint64_t k = r.off[p + 1] - r.up[p];
    if (k < 2) continue;
    const uint32_t *out = r.adj + r.up[p], last = out[k - 1];
    for (uint64_t i = lane; i < k; i += 32) local[out[i]] = (uint32_t)i + 1;
    __syncwarp();
    i128 at_p = 0;
    row_walk(
        k - 1,
        [&](uint64_t i, uint64_t &b, uint64_t &e) {
          const uint32_t q = out[i];
          b = r.up[q];
          e = b + lower_bound(r.adj + b, r.off[q + 1] - b, last + 1); /* adj[f] <= last */
        },
        [&](uint64_t i, uint64_t f) -> i128 {
          const uint32_t q = out[i], t = r.adj[f], j = local[t]; /* t's index in out, plus one */
          if (!j) return 0;
          const ull kp = k - j, kq = r.off[q + 1] - f - 1, kt = r.off[t + 1] - r.up[t], all = kp + kq + kt;
          at_p += all + kp;
          credit_sub(c, t, all + kt);
          if (kp) atomicAdd(&marks[r.up[p] + j], 1ull);
          if (kq) atomicAdd(&marks[f + 1], 1ull);
          if (kt) atomicAdd(&marks[r.up[t]], 1ull);
          return all + kq;
        },
        [&](uint64_t i, i128 at_q) { credit(c, out[i], -at_q); });
    at_p = warp_sum(at_p);
    if (lane == 0) credit(c, (uint32_t)p, -at_p);
    __syncwarp();
    for (uint64_t i = lane; i < k; i += 32) local[out[i]] = 0;
    __syncwarp();
  }
}

/* 2: the marks' sums along each row above its vertex. */
__global__ void sum_marks(ranked_dev r, ull *marks) {
  for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < r.n; v += (uint64_t)gridDim.x * blockDim.x) {
    ull run = 0;
    for (uint64_t f = r.up[v]; f < r.off[v + 1]; f++) marks[f] = run += marks[f];
  }
}

/* Heavy tops (of more than kHeavyDegree neighbours: the last ranks) are
 * walked by a block of kHeavyWarps warps each, in the slice of the block's
 * first warp, so that a hub's rows do not hold one warp while the device
 * idles; the others by a warp each. */
constexpr int kHeavyWarps = 32;
constexpr uint64_t kHeavyDegree = 512;

/* A group of G warps (gw: this warp's index in it; G = 1 a warp, else the
 * block) at top h: its three passes, each a walk of rows over the group
 * (row_walk), a barrier between them; *nt (the group's, in shared
 * memory) counts the touched vertices.  Each warp credits its share of h's
 * count itself. */
template <int G>
__device__ void cycles_at(const ranked_dev &r, const cycle_scratch &s, const counts &c, const ull *marks, uint32_t h,
                          unsigned *nt) {
  const unsigned lane = threadIdx.x & 31, gw = G == 1 ? 0 : threadIdx.x >> 5, t = 32 * gw + lane;
  const uint32_t *lower = r.adj + r.off[h];
  const uint64_t nl = r.up[h] - r.off[h];
  /* pass 1: in_l per a in L(h) (and h's a = e terms), then W from L(h)'s rows below h */
  i128 x_h = 0, at_h = 0;
  if (t == 0) *nt = 0;
  for (uint64_t e = t; e < nl; e += 32 * G) {
    const uint32_t a = lower[e];
    /* h lies above a: its position in a's row, past a's lower neighbours */
    const uint64_t at = r.up[a] - r.off[a] + lower_bound(r.adj + r.up[a], r.off[a + 1] - r.up[a], h);
    s.in_l[a] = (uint32_t)at + 1;
    x_h += marks[r.off[a] + at];
  }
  group_barrier<G>();
  auto from_l = [&](uint64_t e, uint64_t &b, uint64_t &end) {
    const uint32_t a = lower[e];
    b = r.off[a], end = b + s.in_l[a] - 1;
  };
  row_walk(
      nl, from_l,
      [&](uint64_t, uint64_t f) -> i128 {
        const uint32_t y = r.adj[f];
        if (atomicAdd(&s.W[y], 1u) == 0) s.touched[atomicAdd(nt, 1u)] = y;
        return 0;
      },
      [](uint64_t, i128) {}, gw, G);
  group_barrier<G>();
  const uint32_t all = *(volatile unsigned *)nt;
  /* pass 2: the edges b-c below h with both ends touched, each once from its lower end */
  row_walk(
      all,
      [&](uint64_t i, uint64_t &b, uint64_t &e) {
        const uint32_t v = s.touched[i];
        b = r.up[v], e = b + lower_bound(r.adj + b, r.off[v + 1] - b, h);
      },
      [&](uint64_t i, uint64_t f) -> i128 {
        const uint32_t b = s.touched[i], cc = r.adj[f];
        const ull wc = s.W[cc];
        if (!wc) return 0;
        /* each factor >= 0: c in L is in N(b), so W[b] >= 1 (and the same for b) */
        const ull wb = s.W[b], q = (wb - (s.in_l[cc] != 0)) * (wc - (s.in_l[b] != 0));
        atomicAdd(&s.Z[cc], wb); /* below d(b) d(h) < 2^64 */
        tally(c, &s.Y[b], b, q);
        tally(c, &s.Y[cc], cc, q);
        at_h += q;
        return wc;
      },
      [&](uint64_t i, i128 zb) { atomicAdd(&s.Z[s.touched[i]], (ull)zb); }, gw, G);
  group_barrier<G>();
  /* pass 3: each a in L(h) its paths a-b-c-e */
  row_walk(
      nl, from_l,
      [&](uint64_t, uint64_t f) -> i128 {
        const uint32_t b = r.adj[f], lb = s.in_l[b];
        /* b in L next to a below h: in_l[b] >= 2 */
        return (i128)s.Z[b] - (i128)((ull)lb - 2u * (lb != 0));
      },
      [&](uint64_t e, i128 z) {
        const uint32_t a = lower[e];
        credit(c, a, z - (i128)((ull)s.W[a] * (s.in_l[a] - 1)));
      },
      gw, G);
  group_barrier<G>();
  for (uint32_t q = t; q < all; q += 32 * G) {
    const uint32_t v = s.touched[q];
    credit_add(c, v, s.Y[v]);
    s.W[v] = 0, s.Z[v] = 0, s.Y[v] = 0;
  }
  for (uint64_t e = t; e < nl; e += 32 * G) s.in_l[lower[e]] = 0;
  at_h = warp_sum(at_h - x_h);
  if (lane == 0) credit(c, h, at_h);
  group_barrier<G>();
}

/* 3: the heavy tops, the last `heavy` ranks, a block each (from
 * heavy_next); then, in the same launch, the others a warp each (from
 * next), the highest rank first: the blocks that find no heavy top left
 * walk light ones while a hub's block is still at its top.  Each counter
 * by this device's deal. */
__global__ void __launch_bounds__(32 * kHeavyWarps)
    cycles_from(ranked_dev r, uint32_t *scratch, uint32_t heavy, unsigned long long *heavy_next,
                unsigned long long *next, o5_deal deal, counts c, const ull *marks) {
  __shared__ unsigned long long item;
  __shared__ unsigned block_nt;
  __shared__ unsigned warp_nt[kHeavyWarps];
  const cycle_scratch first = cycle_slice(scratch, r.n, blockIdx.x * kHeavyWarps);
  for (;;) {
    if (threadIdx.x == 0) item = o5_dealt(deal, take_long(heavy_next));
    __syncthreads();
    const unsigned long long it = item;
    __syncthreads(); /* every thread read it before thread 0 takes the next */
    if (it >= heavy) break;
    cycles_at<kHeavyWarps>(r, first, c, marks, (uint32_t)(r.n - 1 - it), &block_nt);
  }
  const cycle_scratch s = cycle_slice(scratch, r.n, global_warp());
  for (uint64_t i = heavy + o5_dealt(deal, grab64(next)); i < r.n; i = heavy + o5_dealt(deal, grab64(next))) {
    const uint32_t h = (uint32_t)(r.n - 1 - i);
    if (r.up[h] == r.off[h]) continue; /* no lower neighbour, no cycle with top h (nor a term) */
    cycles_at<1>(r, s, c, marks, h, &warp_nt[threadIdx.x >> 5]);
  }
}

__global__ void fill(ull *low, uint64_t n, ull start) {
  for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += (uint64_t)gridDim.x * blockDim.x)
    low[v] = start;
}

/* The device's side of a call. */
struct ybufs {
  uint64_t *off, *up;
  uint32_t *adj, *scratch;
  ull *low, *carry, *marks, *next;
  cudaEvent_t start, end;
  cudaEvent_t mid, resume; /* over several devices: the marks' exchange between the passes */
};

void release(ybufs &b) {
  void *p[] = {b.off, b.up, b.adj, b.scratch, b.low, b.carry, b.marks, b.next};
  for (void *x : p)
    if (x) cudaFree(x);
  if (b.start) cudaEventDestroy(b.start);
  if (b.end) cudaEventDestroy(b.end);
  if (b.mid) cudaEventDestroy(b.mid);
  if (b.resume) cudaEventDestroy(b.resume);
  cudaGetLastError();
}

/* The ranked graph and the counts' words on the device, every buffer
 * before the timed window. */
int prepare(ybufs &b, const wm_orbit_ranked &rk, uint64_t m, uint64_t start, unsigned *warps, wm_error *err) {
  const uint64_t n = rk.n, per_warp = cycle_words(n) * sizeof(uint32_t);
  WM_CU(cudaMalloc(&b.off, (n + 1) * sizeof *b.off));
  WM_CU(cudaMalloc(&b.up, n * sizeof *b.up));
  WM_CU(cudaMalloc(&b.adj, (m ? m : 1) * sizeof *b.adj));
  WM_CU(cudaMalloc(&b.low, n * sizeof *b.low));
  WM_CU(cudaMalloc(&b.carry, n * sizeof *b.carry));
  WM_CU(cudaMalloc(&b.marks, (m ? m : 1) * sizeof *b.marks));
  WM_CU(cudaMalloc(&b.next, 3 * sizeof *b.next));
  /* the scratch last: its warps are sized by what the rest left free */
  if (!(*warps = warps_fitting(per_warp, n, "5-cycles", err))) return err->code;
  if (*warps >= kHeavyWarps) *warps -= *warps % kHeavyWarps; /* whole blocks of the heavy tops' */
  WM_CU(cudaMalloc(&b.scratch, *warps * per_warp));
  WM_CU(cudaMemcpy(b.off, rk.offsets, (n + 1) * sizeof *b.off, cudaMemcpyHostToDevice));
  WM_CU(cudaMemcpy(b.up, rk.up, n * sizeof *b.up, cudaMemcpyHostToDevice));
  if (m) WM_CU(cudaMemcpy(b.adj, rk.adj, m * sizeof *b.adj, cudaMemcpyHostToDevice));
  WM_CU(cudaMemset(b.carry, 0, n * sizeof *b.carry));
  WM_CU(cudaMemset(b.marks, 0, (m ? m : 1) * sizeof *b.marks));
  WM_CU(cudaMemset(b.next, 0, 3 * sizeof *b.next));
  WM_CU(cudaMemset(b.scratch, 0, *warps * per_warp));
  fill<<<(unsigned)((n + 255) / 256 < 1024 ? (n + 255) / 256 : 1024), 256>>>(b.low, n, start);
  WM_CU(cudaGetLastError());
  WM_CU(cudaDeviceSynchronize());
  return WM_OK;
}

/* The heavy tops: the last ranks, of more than kHeavyDegree neighbours;
 * none where the warps are fewer than a block of kHeavyWarps. */
uint32_t heavy_tops(const wm_orbit_ranked &rk, unsigned warps) {
  if (warps < kHeavyWarps) return 0;
  uint32_t lo = 0, hi = rk.n; /* the first rank of more: degrees ascend */
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (rk.offsets[mid + 1] - rk.offsets[mid] > kHeavyDegree) hi = mid;
    else lo = mid + 1;
  }
  return rk.n - lo;
}

int passes(ybufs &b, const wm_orbit_ranked &rk, unsigned warps, double *kernel_ms, wm_error *err) {
  const ranked_dev r = {rk.n, b.off, b.up, b.adj};
  const uint32_t heavy = heavy_tops(rk, warps);
  const unsigned per_block = warps >= kHeavyWarps ? kHeavyWarps : kWarpsPerBlock;
  const counts c = {b.low, b.carry};
  int rc = set_stop(err);
  if (rc) return rc;
  WM_CU(cudaEventCreate(&b.start));
  WM_CU(cudaEventCreate(&b.end));
  WM_CU(cudaEventRecord(b.start, 0));
  triangle_terms<<<warps / kWarpsPerBlock, kThreads>>>(r, b.scratch, b.next, o5_deal{0, 1}, c, b.marks);
  WM_CU(cudaGetLastError());
  sum_marks<<<(unsigned)((rk.n + 255) / 256 < 1024 ? (rk.n + 255) / 256 : 1024), 256>>>(r, b.marks);
  WM_CU(cudaGetLastError());
  cycles_from<<<warps / per_block, 32 * per_block>>>(r, b.scratch, heavy, b.next + 1, b.next + 2, o5_deal{0, 1}, c,
                                                     b.marks);
  WM_CU(cudaGetLastError());
  float ms = 0;
  rc = wm_gpu_end_timed(b.start, b.end, "orbits", &ms, kernel_ms, err);
  if (rc) return rc;
  if (wm_trace_on("WM_ORBIT_TRACE"))
    fprintf(stderr, "orbits (5-cycles, GPU): %u warps, %u tops of more than %llu neighbours by blocks, kernels %.3f ms\n",
            warps, heavy, (unsigned long long)kHeavyDegree, ms);
  return WM_OK;
}

int cycles5(const wm_graph *g, const wm_orbit_ranked &rk, uint64_t start, uint64_t *c5, double *kernel_ms,
            wm_error *err) {
  ybufs b;
  memset(&b, 0, sizeof b);
  unsigned warps = 0;
  int rc = prepare(b, rk, g->m, start, &warps, err);
  if (!rc) rc = passes(b, rk, warps, kernel_ms, err);
  ull *host = rc ? NULL : (ull *)malloc(2 * (size_t)rk.n * sizeof *host);
  if (!rc && !host) rc = wm_fail(err, WM_EINPUT, "orbits: out of memory for the 5-cycles (%u vertices)", g->n);
  cudaError_t e = cudaSuccess;
  if (!rc && (e = cudaMemcpy(host, b.low, rk.n * sizeof *host, cudaMemcpyDeviceToHost)) == cudaSuccess)
    e = cudaMemcpy(host + rk.n, b.carry, rk.n * sizeof *host, cudaMemcpyDeviceToHost);
  if (!rc && e != cudaSuccess) rc = wm_cuda_fail(err, e, "copying the 5-cycles back", __FILE__, __LINE__);
  if (!rc) rc = wm_orbit_cycles5_back(g, &rk, (const uint64_t *)host, (const int64_t *)(host + rk.n), c5, err);
  free(host);
  release(b);
  return rc;
}

/* ---- over several devices -------------------------------------------- */

/* Each device's counters: device 0's where the devices share them (sh),
 * else its own. */
ull *counters(const o5_devices &D, ybufs &b, ull *sh) { return D.shared ? sh : b.next; }

ranked_dev on_device(const wm_orbit_ranked &rk, const ybufs &b) { return ranked_dev{rk.n, b.off, b.up, b.adj}; }

/* Pass 1 on device d, between its events start and mid. */
int start_triangles(ybufs &b, int d, const o5_devices &D, ull *sh, const wm_orbit_ranked &rk, unsigned warps,
                    wm_error *err) {
  WM_CUD(d, cudaSetDevice(d));
  int rc = set_stop(err, D.shared);
  if (rc) return rc;
  WM_CU(cudaEventCreate(&b.start));
  WM_CU(cudaEventCreate(&b.mid));
  WM_CU(cudaEventCreate(&b.resume));
  WM_CU(cudaEventCreate(&b.end));
  WM_CU(cudaEventRecord(b.start, 0));
  triangle_terms<<<warps / kWarpsPerBlock, kThreads>>>(on_device(rk, b), b.scratch, counters(D, b, sh),
                                                        o5_deal_of(D, d), counts{b.low, b.carry}, b.marks);
  WM_CU(cudaGetLastError());
  WM_CU(cudaEventRecord(b.mid, 0));
  return WM_OK;
}

/* The devices' marks added up (counts of triangles: far below 2^64) and
 * the sums given to every device; sum and tmp: m words each. */
int add_marks(ybufs *b, int n, uint64_t m, ull *sum, ull *tmp, wm_error *err) {
  if (!m) return WM_OK;
  for (int d = 0; d < n; d++) {
    WM_CUD(d, cudaSetDevice(d));
    WM_CUD(d, cudaMemcpy(d ? tmp : sum, b[d].marks, m * sizeof *sum, cudaMemcpyDeviceToHost));
    if (d) o5_add_words(sum, tmp, m);
  }
  for (int d = 0; d < n; d++) {
    WM_CUD(d, cudaSetDevice(d));
    WM_CUD(d, cudaMemcpy(b[d].marks, sum, m * sizeof *sum, cudaMemcpyHostToDevice));
  }
  return WM_OK;
}

/* Passes 2 and 3 on device d, between its events resume and end. */
int start_tops(ybufs &b, int d, const o5_devices &D, ull *sh, const wm_orbit_ranked &rk, unsigned warps,
               uint32_t heavy, wm_error *err) {
  WM_CUD(d, cudaSetDevice(d));
  const ranked_dev r = on_device(rk, b);
  const unsigned per_block = warps >= kHeavyWarps ? kHeavyWarps : kWarpsPerBlock;
  ull *next = counters(D, b, sh);
  WM_CU(cudaEventRecord(b.resume, 0));
  sum_marks<<<(unsigned)((rk.n + 255) / 256 < 1024 ? (rk.n + 255) / 256 : 1024), 256>>>(r, b.marks);
  WM_CU(cudaGetLastError());
  cycles_from<<<warps / per_block, 32 * per_block>>>(r, b.scratch, heavy, next + 1, next + 2, o5_deal_of(D, d),
                                                     counts{b.low, b.carry}, b.marks);
  WM_CU(cudaGetLastError());
  WM_CU(cudaEventRecord(b.end, 0));
  return WM_OK;
}

/* The slowest device's pass 1 plus the slowest's passes 2 and 3. */
int span(ybufs *b, int n, float *ms, wm_error *err) {
  cudaEvent_t s[WM_MAX_GPUS], e[WM_MAX_GPUS];
  float first = 0, second = 0;
  for (int d = 0; d < n; d++) s[d] = b[d].start, e[d] = b[d].mid;
  int rc = o5_slowest(n, s, e, &first, err);
  for (int d = 0; d < n; d++) s[d] = b[d].resume, e[d] = b[d].end;
  if (!rc) rc = o5_slowest(n, s, e, &second, err);
  *ms = first + second;
  return rc;
}

/* Each device's counts (low + 2^64 carry, either sign) added into
 * host's: low (n words) then carry (n), exactly: the carries added, each
 * low's 2^64s to its carry.  tmp: 2n words. */
int add_counts(ybufs *b, int ndev, uint32_t n, ull *host, ull *tmp, wm_error *err) {
  for (int d = 0; d < ndev; d++) {
    ull *to = d ? tmp : host;
    WM_CUD(d, cudaSetDevice(d));
    WM_CUD(d, cudaMemcpy(to, b[d].low, n * sizeof *to, cudaMemcpyDeviceToHost));
    WM_CUD(d, cudaMemcpy(to + n, b[d].carry, n * sizeof *to, cudaMemcpyDeviceToHost));
    for (uint32_t v = 0; d && v < n; v++) {
      host[n + v] += tmp[n + v];
      if (__builtin_add_overflow(host[v], tmp[v], &host[v])) host[n + v]++;
    }
  }
  return WM_OK;
}

/* The passes over D's devices (the start in device 0's counts alone),
 * every device's work queued, then waited for, between the passes and at
 * the end; host gets the counts' words (low, carry; 2n), scratch 2 max(m,
 * n) words. */
int passes_over(ybufs *b, const o5_devices &D, ull **sh, const wm_orbit_ranked &rk, uint64_t m, uint64_t start,
                ull *host, ull *scratch, double *kernel_ms, wm_error *err) {
  unsigned warps[WM_MAX_GPUS], fewest = ~0u;
  int rc;
  for (int d = 0; d < D.n; d++) {
    WM_CUD(d, cudaSetDevice(d));
    if ((rc = wm_gpu_on_device(err, d, prepare(b[d], rk, m, d ? 0 : start, &warps[d], err)))) return rc;
    fewest = warps[d] < fewest ? warps[d] : fewest;
  }
  const uint32_t heavy = heavy_tops(rk, fewest); /* the same items on every device */
  if (D.shared) {
    WM_CUD(0, cudaSetDevice(0));
    WM_CUD(0, cudaMalloc(sh, 3 * sizeof **sh));
    WM_CUD(0, cudaMemset(*sh, 0, 3 * sizeof **sh));
  }
  for (int d = 0; d < D.n; d++)
    if ((rc = wm_gpu_on_device(err, d, start_triangles(b[d], d, D, *sh, rk, warps[d], err)))) return rc;
  if ((rc = o5_wait_all(D.n, err)) || (rc = add_marks(b, D.n, m, scratch, scratch + m, err))) return rc;
  for (int d = 0; d < D.n; d++)
    if ((rc = wm_gpu_on_device(err, d, start_tops(b[d], d, D, *sh, rk, warps[d], heavy, err)))) return rc;
  if ((rc = o5_wait_all(D.n, err))) return rc;
  float ms = 0;
  if ((rc = span(b, D.n, &ms, err))) return rc;
  if (kernel_ms) *kernel_ms += ms;
  if (wm_trace_on("WM_ORBIT_TRACE"))
    fprintf(stderr, "orbits (5-cycles, %d GPUs, %s): %u warps on the fewest, %u tops of more than %llu neighbours "
            "by blocks, kernels %.3f ms (the slowest device's, each pass)\n", D.n, o5_how(D), fewest, heavy,
            (unsigned long long)kHeavyDegree, ms);
  return add_counts(b, D.n, rk.n, host, scratch, err);
}

/* cycles5 over D's devices: every buffer freed and the caller's device
 * current again on every path. */
int cycles5_over(const o5_devices &D, const wm_graph *g, const wm_orbit_ranked &rk, uint64_t start, uint64_t *c5,
                 double *kernel_ms, wm_error *err) {
  int was = 0;
  WM_CU(cudaGetDevice(&was));
  const size_t words = 2 * (g->m > rk.n ? (size_t)g->m : (size_t)rk.n);
  ull *host = (ull *)malloc(2 * (size_t)rk.n * sizeof *host), *scratch = (ull *)malloc(words * sizeof *scratch);
  int rc = host && scratch ? WM_OK
                           : wm_fail(err, WM_EINPUT, "orbits: out of memory for the 5-cycles (%u vertices)", g->n);
  ybufs b[WM_MAX_GPUS];
  memset(b, 0, sizeof b);
  ull *sh = NULL;
  if (!rc) rc = passes_over(b, D, &sh, rk, g->m, start, host, scratch, kernel_ms, err);
  o5_release_all(D, b, sh, was, [](ybufs &x) { release(x); });
  if (!rc) rc = wm_orbit_cycles5_back(g, &rk, (const uint64_t *)host, (const int64_t *)(host + rk.n), c5, err);
  free(host), free(scratch);
  return rc;
}

}  // namespace

int wm_orbit_cycles5_gpu(const wm_graph *g, const struct wm_gpu_graph *gg, int gpus, uint64_t start, uint64_t *c5,
                         double *kernel_ms, wm_error *err) {
  (void)gg; /* the walk reads g by degree order, its own upload */
  if (g->flags & WM_GRAPH_DIRECTED) return wm_fail(err, WM_EUSAGE, "orbits: the 5-cycles need an undirected graph");
  if (!g->n) return WM_OK;
  o5_devices D;
  if (o5_devices_open(gpus, D, err)) return err->code;
  wm_orbit_ranked rk;
  if (wm_orbit_ranked_init(g, 0, &rk))
    return wm_fail(err, WM_EINPUT, "orbits: out of memory for the 5-cycles' walk (%u vertices, %llu arcs)", g->n,
                   (unsigned long long)g->m);
  const int rc = D.n > 1 ? cycles5_over(D, g, rk, start, c5, kernel_ms, err) : cycles5(g, rk, start, c5, kernel_ms, err);
  wm_orbit_ranked_free(&rk);
  return rc;
}
