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
 * Load balance: pivots come in two launches.  Light ones (small N+ and N-)
 * go a few consecutive pivots per warp with a small table per warp, so many
 * warps fit on an SM; heavy ones as (pivot, in-neighbour range) items, each
 * taken by a whole block around one large table.  Inside a pivot, 32
 * in-neighbours at a time: long prefixes are streamed by the whole warp,
 * short ones walked as one concatenation (tri_pivot).  A pivot whose N+
 * outgrows even the large table binary-searches its row in global memory
 * instead: slower, never wrong.
 *
 * On Kronecker scale 24 this took triangles from 2.06 s (stack kernel) to
 * 0.18 s; see BENCHMARKS.md.  The kernels are driven by gpu_dag.cu. */
#include "gpu_dag_util.cuh"

namespace {

#ifndef WM_TRI_UNROLL
#define WM_TRI_UNROLL 4 /* loads in flight per lane while probing */
#endif
constexpr int TRI_UNROLL = WM_TRI_UNROLL;
#ifndef WM_TRI_LONG
#define WM_TRI_LONG 32u /* prefixes this long are streamed by the whole warp */
#endif
constexpr uint32_t TRI_LONG = WM_TRI_LONG;

__device__ __forceinline__ bool tri_lower_contains(const uint32_t *p, uint32_t n, uint32_t x) {
  uint32_t i = dag_rank(p, n, x);
  return i < n && __ldg(p + i) == x;
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
  for (unsigned h = dag_hash(w, 32u - P.lg);; h = (h + 1u) & mask) {
    uint32_t x = P.tab[h];
    if (x == w) return true;
    if (x == DAG_EMPTY) return false;
  }
}

/* Fills the table with N+(v), by the warp or the whole block (or leaves it
 * unused when it would be more than half full). */
template <bool BLOCK>
__device__ void tri_build(Pivot &P, uint32_t *tab, unsigned slots) {
  P.tab = NULL;
  if (2u * P.d > slots) return;
  P.lg = dag_log_slots(P.d);
  P.tab = tab;
  dag_table_fill<BLOCK>(tab, NULL, P.lg, P.plus, P.d);
}

/* Where a warp's batch of 32 in-neighbours keeps the layout of its short
 * prefixes: lane l's are adj[row[l] ...], at [incl[l - 1], incl[l]) of their
 * concatenation. */
struct Batch {
  uint32_t incl[32];
  wm_u64 row[32];
};

/* Probes row[c + lane + 32 k], k < TRI_UNROLL, below n: the loads are all
 * issued before the first probe, so a lane waits for one load, not several. */
__device__ __forceinline__ wm_u64 tri_stream(const Pivot &P, const uint32_t *row, uint32_t n, int lane) {
  wm_u64 cnt = 0;
  for (uint32_t c = 0; c < n; c += 32u * TRI_UNROLL) {
    uint32_t w[TRI_UNROLL];
#pragma unroll
    for (int k = 0; k < TRI_UNROLL; k++) {
      uint32_t t = c + 32u * k + (uint32_t)lane;
      w[k] = t < n ? __ldg(row + t) : DAG_EMPTY;
    }
#pragma unroll
    for (int k = 0; k < TRI_UNROLL; k++)
      if (w[k] != DAG_EMPTY) cnt += tri_probe(P, w[k]);
  }
  return cnt;
}

/* Counts the triangles with pivot P.v and top vertex u in in[lo, hi), 32
 * in-neighbours at a time.  Each lane finds where v sits in its u's row:
 * the prefix below v is what is probed.  Prefixes of 32 or more are
 * streamed by the whole warp, one after the other (coalesced, every lane
 * busy); the shorter ones are walked as one concatenation, one element per
 * lane per step, each lane finding its element's owner in B. */
__device__ wm_u64 tri_pivot(const wm_dag_args &A, const Pivot &P, const uint32_t *in, uint32_t lo,
                            uint32_t hi, Batch *B, int lane) {
  wm_u64 cnt = 0;
  for (uint32_t i0 = lo; i0 < hi; i0 += 32) {
    uint32_t i = i0 + (uint32_t)lane, len = 0;
    wm_u64 row = 0;
    if (i < hi) {
      uint32_t u = __ldg(in + i);
      row = __ldg(A.off + u);
      len = dag_rank(A.adj + row, __ldg(A.dplus + u), P.v);
    }
    for (unsigned longs = __ballot_sync(DAG_FULL, len >= TRI_LONG); longs; longs &= longs - 1) {
      int l = __ffs(longs) - 1;
      wm_u64 r = __shfl_sync(DAG_FULL, row, l);
      cnt += tri_stream(P, A.adj + r, __shfl_sync(DAG_FULL, len, l), lane);
    }
    uint32_t incl = len < TRI_LONG ? len : 0;
    for (int d = 1; d < 32; d <<= 1) {
      uint32_t y = __shfl_up_sync(DAG_FULL, incl, d);
      if (lane >= d) incl += y;
    }
    const uint32_t total = __shfl_sync(DAG_FULL, incl, 31);
    if (total == 0) continue;
    __syncwarp();
    B->incl[lane] = incl;
    B->row[lane] = row;
    __syncwarp();
    for (uint32_t t0 = 0; t0 < total; t0 += 32u * TRI_UNROLL) {
      uint32_t w[TRI_UNROLL];
#pragma unroll
      for (int k = 0; k < TRI_UNROLL; k++) {
        uint32_t t = t0 + 32u * k + (uint32_t)lane;
        w[k] = DAG_EMPTY;
        if (t < total) {
          int l = 0; /* the first lane whose prefix ends after t */
          for (int step = 16; step; step >>= 1)
            if (B->incl[l + step - 1] <= t) l += step;
          uint32_t first = l ? B->incl[l - 1] : 0;
          w[k] = __ldg(A.adj + B->row[l] + (t - first));
        }
      }
#pragma unroll
      for (int k = 0; k < TRI_UNROLL; k++)
        if (w[k] != DAG_EMPTY) cnt += tri_probe(P, w[k]);
    }
  }
  return cnt;
}

__global__ void __launch_bounds__(WM_TRI_LIGHT_WARPS * 32) tri_light_kernel(wm_dag_args A) {
  extern __shared__ uint32_t smem[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  uint32_t *tab = smem + warp * WM_TRI_LIGHT_SLOTS;
  Batch *B = (Batch *)(smem + WM_TRI_LIGHT_WARPS * WM_TRI_LIGHT_SLOTS) + warp;
  wm_u64 cnt = 0;
  const wm_u64 chunks = ((wm_u64)A.n + A.light_chunk - 1) / A.light_chunk;
  for (wm_u64 t = dag_grab(A.next_light, A, lane); t < chunks; t = dag_grab(A.next_light, A, lane)) {
    uint32_t v0 = (uint32_t)(t * A.light_chunk);
    uint32_t v1 = v0 + A.light_chunk < A.n ? v0 + A.light_chunk : A.n;
    for (uint32_t v = v0; v < v1; v++) {
      uint32_t d = __ldg(A.dplus + v);
      wm_u64 b = __ldg(A.off + v), e = __ldg(A.off + v + 1);
      uint32_t din = (uint32_t)(e - b) - d;
      if (d == 0 || din == 0 || wm_tri_is_heavy(d, din, A.light_in)) continue;
      Pivot P;
      P.plus = A.adj + b;
      P.d = d;
      P.v = v;
      tri_build<false>(P, tab, WM_TRI_LIGHT_SLOTS);
      cnt += tri_pivot(A, P, A.adj + b + d, 0, din, B, lane);
      __syncwarp(); /* the table is rebuilt for the next pivot */
    }
  }
  dag_flush(A, cnt);
}

/* Heavy items: the whole block shares one table (a pivot's N+ is built
 * once per item, by all its warps), and its warps split the item's
 * in-neighbours, 32 at a time. */
/* Eight heavy blocks per SM: the kernel waits on memory (Nsight Compute:
 * 20 cycles per issued instruction), and at the compiler's 50 registers
 * only five fit.  32 registers and a few spills took kron-24 from 181 to
 * 153 ms. */
#ifndef WM_TRI_HEAVY_MINB
#define WM_TRI_HEAVY_MINB 8
#endif
__global__ void __launch_bounds__(WM_TRI_HEAVY_WARPS * 32, WM_TRI_HEAVY_MINB) tri_heavy_kernel(wm_dag_args A) {
  extern __shared__ uint32_t smem[];
  __shared__ wm_u64 item;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  uint32_t *tab = smem;
  Batch *B = (Batch *)(smem + WM_TRI_HEAVY_SLOTS) + warp;
  wm_u64 cnt = 0;
  for (;;) {
    if (threadIdx.x == 0) item = atomicAdd(A.next_heavy, 1ull) * A.ndev + A.dev;
    __syncthreads();
    const wm_u64 t = item;
    if (t >= A.n_items) break;
    const wm_dag_item it = A.items[t];
    const wm_u64 b = __ldg(A.off + it.v);
    Pivot P;
    P.plus = A.adj + b;
    P.d = __ldg(A.dplus + it.v);
    P.v = it.v;
    tri_build<true>(P, tab, WM_TRI_HEAVY_SLOTS);
    for (uint32_t lo = it.lo + 32u * (uint32_t)warp; lo < it.hi; lo += 32u * WM_TRI_HEAVY_WARPS)
      cnt += tri_pivot(A, P, A.adj + b + P.d, lo, lo + 32u < it.hi ? lo + 32u : it.hi, B, lane);
    __syncthreads(); /* the table and the item are replaced next */
  }
  dag_flush(A, cnt);
}

size_t light_smem(unsigned) { return (size_t)WM_TRI_LIGHT_WARPS * (WM_TRI_LIGHT_SLOTS * 4 + sizeof(Batch)); }
size_t heavy_smem(unsigned) { return (size_t)WM_TRI_HEAVY_SLOTS * 4 + WM_TRI_HEAVY_WARPS * sizeof(Batch); }

cudaError_t prepare(unsigned, int *light_per_sm, int *heavy_per_sm) {
  cudaError_t e = cudaFuncSetAttribute(tri_heavy_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       (int)heavy_smem(3));
  if (e == cudaSuccess)
    e = cudaFuncSetAttribute(tri_light_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)light_smem(3));
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(light_per_sm, tri_light_kernel,
                                                      WM_TRI_LIGHT_WARPS * 32, light_smem(3));
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(heavy_per_sm, tri_heavy_kernel,
                                                      WM_TRI_HEAVY_WARPS * 32, heavy_smem(3));
  return e;
}

cudaError_t launch_light(const wm_dag_args *a, unsigned blocks, cudaStream_t s) {
  tri_light_kernel<<<blocks, WM_TRI_LIGHT_WARPS * 32, light_smem(3), s>>>(*a);
  return cudaGetLastError();
}

cudaError_t launch_heavy(const wm_dag_args *a, unsigned blocks, cudaStream_t s) {
  if (!a->n_items) return cudaSuccess;
  tri_heavy_kernel<<<blocks, WM_TRI_HEAVY_WARPS * 32, heavy_smem(3), s>>>(*a);
  return cudaGetLastError();
}

}  // namespace

extern const wm_dag_kernels wm_triangle_kernels = {
    "triangle kernel (pivot hashing, ids by degree)", light_smem, heavy_smem, WM_TRI_LIGHT_WARPS,
    WM_TRI_HEAVY_WARPS, prepare, launch_light, launch_heavy};
