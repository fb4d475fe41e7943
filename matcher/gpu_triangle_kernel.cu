/* Triangle counting kernel: one warp per pivot, hashing the pivot's higher
 * neighbours in shared memory.
 *
 * With ids ordered by degree (count's default renumbering), each triangle
 * w < v < u is found once, at its middle vertex v (the pivot): w lies in
 * N+(v) = {w in N(v) : w < v}, the prefix of v's sorted row, and u in
 * N-(v), the rest of the row.  The warp hashes N+(v) into its shared table
 * once, then every in-neighbour u scans its own row from the start up to v
 * (exactly the w < v of u's row) and probes the table.  The work is
 * sum over u of d+(u)(d+(u)-1)/2 probes, a quarter of the usual
 * "hash N+(u), scan every N+(v)" on Kronecker graphs, and each probe is one
 * shared-memory read.
 *
 * Load balance: a lane scans up to LANE_SCAN elements of its u alone; rows
 * longer than that are finished by the whole warp, 32 elements a step (the
 * bottom-up BFS kernel's scheme).  Pivots come in two launches: light ones
 * (small N+ and N-) by vertex chunks with a small table, so many warps fit
 * on an SM; heavy ones as (pivot, in-neighbour range) items with a large
 * table.  A pivot whose N+ outgrows even that table binary-searches its row
 * in global memory instead: slower, never wrong. */
#include "gpu_triangles.h"

#define TRI_FULL 0xFFFFFFFFu
#define TRI_EMPTY 0xFFFFFFFFu /* no vertex has this id (ids < 2^32 - 1) */

namespace {

constexpr int LANE_SCAN = 8;

__device__ __forceinline__ unsigned tri_hash(uint32_t w, unsigned shift) {
  return (w * 0x9E3779B1u) >> shift;
}

/* Smallest power of two >= 2 d (at least 32), as log2. */
__device__ __forceinline__ unsigned tri_log_slots(uint32_t d) {
  unsigned lg = 5;
  while ((1u << lg) < 2u * d) lg++;
  return lg;
}

__device__ __forceinline__ bool tri_lower_contains(const uint32_t *p, uint32_t n, uint32_t x) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = (lo + hi) >> 1;
    if (__ldg(p + mid) < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && __ldg(p + lo) == x;
}

struct Pivot {
  const uint32_t *plus; /* N+(v): plus[0, d) */
  uint32_t d, v;
  uint32_t *tab;        /* this warp's table, or NULL: search plus in global memory */
  unsigned lg;          /* log2 of the table's slots */
};

__device__ __forceinline__ bool tri_probe(const Pivot &P, uint32_t w) {
  if (!P.tab) return tri_lower_contains(P.plus, P.d, w);
  const unsigned mask = (1u << P.lg) - 1u;
  for (unsigned h = tri_hash(w, 32u - P.lg);; h = (h + 1u) & mask) {
    uint32_t x = P.tab[h];
    if (x == w) return true;
    if (x == TRI_EMPTY) return false;
  }
}

/* Fills the table with N+(v) (or leaves it unused when it would be more
 * than half full). */
__device__ void tri_build(Pivot &P, uint32_t *tab, unsigned slots, int lane) {
  P.tab = NULL;
  if (2u * P.d > slots) return;
  P.lg = tri_log_slots(P.d);
  P.tab = tab;
  const unsigned n = 1u << P.lg, mask = n - 1u;
  for (unsigned k = lane; k < n; k += 32) tab[k] = TRI_EMPTY;
  __syncwarp();
  for (unsigned k = lane; k < P.d; k += 32) {
    uint32_t w = __ldg(P.plus + k);
    unsigned h = tri_hash(w, 32u - P.lg);
    while (atomicCAS(tab + h, TRI_EMPTY, w) != TRI_EMPTY) h = (h + 1u) & mask;
  }
  __syncwarp();
}

/* Counts the triangles with pivot P.v and top vertex u in in[lo, hi). */
__device__ wm_u64 tri_pivot(const wm_tri_args &A, const Pivot &P, const uint32_t *in, uint32_t lo,
                            uint32_t hi, int lane) {
  wm_u64 cnt = 0;
  for (uint32_t i0 = lo; i0 < hi; i0 += 32) {
    uint32_t i = i0 + (uint32_t)lane;
    wm_u64 j = 0, e = 0;
    bool open = i < hi;
    if (open) {
      uint32_t u = __ldg(in + i);
      j = __ldg(A.off + u);
      e = __ldg(A.off + u + 1);
    }
    /* v is in u's row, so the scan ends there at the latest. */
    for (int s = 0; s < LANE_SCAN && open; s++) {
      if (j >= e) {
        open = false;
        break;
      }
      uint32_t w = __ldg(A.adj + j);
      if (w >= P.v) {
        open = false;
        break;
      }
      cnt += tri_probe(P, w);
      j++;
    }
    unsigned pending = __ballot_sync(TRI_FULL, open);
    while (pending) {
      int leader = __ffs(pending) - 1;
      pending &= pending - 1;
      wm_u64 lj = __shfl_sync(TRI_FULL, j, leader), le = __shfl_sync(TRI_FULL, e, leader);
      for (wm_u64 c = lj; c < le; c += 32) {
        wm_u64 k = c + (wm_u64)lane;
        uint32_t w = k < le ? __ldg(A.adj + k) : TRI_EMPTY;
        unsigned stop = __ballot_sync(TRI_FULL, w >= P.v); /* k >= le reads as TRI_EMPTY */
        bool mine = stop ? lane < __ffs(stop) - 1 : true;
        if (mine) cnt += tri_probe(P, w);
        if (stop) break;
      }
    }
  }
  return cnt;
}

/* Next item index of this device (items are dealt round-robin over the
 * devices), broadcast to the warp; >= n when none is left. */
__device__ __forceinline__ wm_u64 tri_grab(wm_u64 *next, const wm_tri_args &A, int lane) {
  wm_u64 t = 0;
  if (lane == 0) t = atomicAdd(next, 1ull) * A.ndev + A.dev;
  return __shfl_sync(TRI_FULL, t, 0);
}

__device__ __forceinline__ void tri_flush(const wm_tri_args &A, wm_u64 cnt) {
  for (int d = 16; d; d >>= 1) cnt += __shfl_xor_sync(TRI_FULL, cnt, d);
  if ((threadIdx.x & 31) == 0 && cnt) atomicAdd(A.count, cnt);
}

__global__ void __launch_bounds__(WM_TRI_LIGHT_WARPS * 32) tri_light_kernel(wm_tri_args A) {
  extern __shared__ uint32_t smem[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  uint32_t *tab = smem + warp * WM_TRI_LIGHT_SLOTS;
  wm_u64 cnt = 0;
  const wm_u64 chunks = ((wm_u64)A.n + WM_TRI_LIGHT_CHUNK - 1) / WM_TRI_LIGHT_CHUNK;
  for (wm_u64 t = tri_grab(A.next_light, A, lane); t < chunks; t = tri_grab(A.next_light, A, lane)) {
    uint32_t v0 = (uint32_t)(t * WM_TRI_LIGHT_CHUNK);
    uint32_t v1 = v0 + WM_TRI_LIGHT_CHUNK < A.n ? v0 + WM_TRI_LIGHT_CHUNK : A.n;
    for (uint32_t v = v0; v < v1; v++) {
      uint32_t d = __ldg(A.dplus + v);
      wm_u64 b = __ldg(A.off + v), e = __ldg(A.off + v + 1);
      uint32_t din = (uint32_t)(e - b) - d;
      if (d == 0 || din == 0 || wm_tri_is_heavy(d, din)) continue;
      Pivot P;
      P.plus = A.adj + b;
      P.d = d;
      P.v = v;
      tri_build(P, tab, WM_TRI_LIGHT_SLOTS, lane);
      cnt += tri_pivot(A, P, A.adj + b + d, 0, din, lane);
      __syncwarp(); /* the table is rebuilt for the next pivot */
    }
  }
  tri_flush(A, cnt);
}

__global__ void __launch_bounds__(WM_TRI_HEAVY_WARPS * 32) tri_heavy_kernel(wm_tri_args A) {
  extern __shared__ uint32_t smem[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  uint32_t *tab = smem + warp * WM_TRI_HEAVY_SLOTS;
  wm_u64 cnt = 0;
  uint32_t built = TRI_EMPTY; /* pivot whose table is built (items of one pivot are adjacent) */
  Pivot P;
  P.tab = NULL;
  for (wm_u64 t = tri_grab(A.next_heavy, A, lane); t < A.n_heavy; t = tri_grab(A.next_heavy, A, lane)) {
    wm_tri_item it = A.heavy[t];
    wm_u64 b = __ldg(A.off + it.v);
    if (it.v != built) {
      __syncwarp();
      P.plus = A.adj + b;
      P.d = __ldg(A.dplus + it.v);
      P.v = it.v;
      tri_build(P, tab, WM_TRI_HEAVY_SLOTS, lane);
      built = it.v;
    }
    cnt += tri_pivot(A, P, A.adj + b + P.d, it.lo, it.hi, lane);
  }
  tri_flush(A, cnt);
}

}  // namespace

size_t wm_tri_light_smem(void) { return (size_t)WM_TRI_LIGHT_WARPS * WM_TRI_LIGHT_SLOTS * 4; }
size_t wm_tri_heavy_smem(void) { return (size_t)WM_TRI_HEAVY_WARPS * WM_TRI_HEAVY_SLOTS * 4; }

cudaError_t wm_tri_prepare(int *light_per_sm, int *heavy_per_sm) {
  cudaError_t e = cudaFuncSetAttribute(tri_heavy_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       (int)wm_tri_heavy_smem());
  if (e == cudaSuccess)
    e = cudaFuncSetAttribute(tri_light_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int)wm_tri_light_smem());
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(light_per_sm, tri_light_kernel,
                                                      WM_TRI_LIGHT_WARPS * 32, wm_tri_light_smem());
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(heavy_per_sm, tri_heavy_kernel,
                                                      WM_TRI_HEAVY_WARPS * 32, wm_tri_heavy_smem());
  return e;
}

cudaError_t wm_tri_launch(const wm_tri_args *a, unsigned light_blocks, unsigned heavy_blocks,
                          cudaStream_t light, cudaStream_t heavy) {
  if (a->n_heavy && heavy_blocks)
    tri_heavy_kernel<<<heavy_blocks, WM_TRI_HEAVY_WARPS * 32, wm_tri_heavy_smem(), heavy>>>(*a);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return e;
  tri_light_kernel<<<light_blocks, WM_TRI_LIGHT_WARPS * 32, wm_tri_light_smem(), light>>>(*a);
  return cudaGetLastError();
}
