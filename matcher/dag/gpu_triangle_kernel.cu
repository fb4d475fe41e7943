/* Triangle counting kernel: one warp (or block) per pivot, with the
 * pivot's higher neighbours in shared memory.
 *
 * With ids ordered by degree (count's default renumbering), each triangle
 * w < v < u is found once, at its middle vertex v (the pivot): w lies in
 * N+(v) = {w in N(v) : w < v}, the prefix of v's sorted row, and u in
 * N-(v), the rest of the row.  N+(v) goes into shared memory once (a
 * bitmap of the ids below v when it fits, else a hash table), then every
 * in-neighbour u scans its own row from the start up to v (exactly the
 * w < v of u's row) and probes it.  The work is sum over u of
 * d+(u)(d+(u)-1)/2 probes, fewer than the usual "hash N+(u), scan every
 * N+(v)" on Kronecker graphs, and each probe is one shared-memory read.
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
 * BENCHMARKS.md compares it with the stack kernel and measures the bitmaps,
 * the prefixes found without a full search, the 16-bit rows and the CUDA
 * graph replay.  The kernels are driven by gpu_dag.cu. */
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
/* Most words a pivot's bitmap may take (ids below 32 times this): all of
 * the heavy table; for a light pivot, about what hashing would clear. */
#ifndef WM_TRI_HEAVY_BITS
#define WM_TRI_HEAVY_BITS WM_TRI_HEAVY_SLOTS
#endif
#ifndef WM_TRI_LIGHT_BITS
#define WM_TRI_LIGHT_BITS 128u
#endif
/* Pivots below this whose table is a bitmap read their in-neighbours'
 * rows as 16-bit ids (A.adj16): every id probed is below the pivot, and
 * larger ids read there (past the prefix) are clamped to WM_TRI_NARROW - 1,
 * which is not below it.  On Kronecker graphs they carry most of the
 * probes, so reading half the bytes there pays. */
#ifndef WM_TRI_NARROW
#define WM_TRI_NARROW 65536u
#endif
static_assert(WM_TRI_NARROW <= 65536u, "narrow ids are 16-bit");
static_assert(WM_TRI_HEAVY_BITS <= WM_TRI_HEAVY_SLOTS && WM_TRI_LIGHT_BITS <= WM_TRI_LIGHT_SLOTS,
              "a bitmap must fit its table");

__device__ __forceinline__ bool tri_lower_contains(const uint32_t *p, uint32_t n, uint32_t x) {
  uint32_t i = dag_rank(p, n, x);
  return i < n && __ldg(p + i) == x;
}

/* How a pivot's N+ is looked up.  Every w probed is below the pivot v, so
 * when v's ids fit the shared buffer as bits (on Kronecker graphs most
 * probes have a pivot below 131,072, which the heavy table holds), a probe
 * is one shared load with no hashing and no probe chain for the warp to
 * wait on.
 * Otherwise a hash table, and past that a search of N+ in global memory. */
enum { TRI_BITS, TRI_HASH, TRI_SEARCH };

struct Pivot {
  const uint32_t *plus; /* N+(v): plus[0, d) */
  uint32_t d, v;
  uint32_t *tab;        /* bitmap of ids below v, or hash table of N+(v) */
  unsigned lg;          /* log2 of the hash table's slots */
};

template <int M>
__device__ __forceinline__ bool tri_probe(const Pivot &P, uint32_t w) {
  if (M == TRI_BITS) return (P.tab[w >> 5] >> (w & 31u)) & 1u;
  if (M == TRI_SEARCH) return tri_lower_contains(P.plus, P.d, w);
  const unsigned mask = (1u << P.lg) - 1u;
  for (unsigned h = dag_hash(w, 32u - P.lg);; h = (h + 1u) & mask) {
    uint32_t x = P.tab[h];
    if (x == w) return true;
    if (x == DAG_EMPTY) return false;
  }
}

/* Fills tab (`slots` words) with N+(v), by the warp or the whole block, as
 * bits when v's ids take at most bits_words words, else hashed when the
 * table would be at most half full; returns the mode the probes use. */
template <bool BLOCK>
__device__ int tri_build(Pivot &P, uint32_t *tab, unsigned slots, unsigned bits_words) {
  P.tab = tab;
  const uint32_t words = (P.v + 31u) >> 5;
  if (words <= bits_words) {
    const unsigned tid = BLOCK ? threadIdx.x : (threadIdx.x & 31u), step = BLOCK ? blockDim.x : 32u;
    for (unsigned k = tid; k < words; k += step) tab[k] = 0;
    dag_sync<BLOCK>();
    for (unsigned k = tid; k < P.d; k += step) {
      const uint32_t w = __ldg(P.plus + k);
      atomicOr(tab + (w >> 5), 1u << (w & 31u));
    }
    dag_sync<BLOCK>();
    return TRI_BITS;
  }
  if (2u * P.d > slots) return TRI_SEARCH;
  P.lg = dag_log_slots(P.d);
  dag_table_fill<BLOCK>(tab, NULL, P.lg, P.plus, P.d);
  return TRI_HASH;
}

/* Where a warp's batch of 32 in-neighbours keeps the layout of its short
 * prefixes: lane l's are adj[row[l] ...], at [incl[l - 1], incl[l]) of their
 * concatenation. */
struct Batch {
  uint32_t incl[32];
  wm_u64 row[32];
};

/* Probes the prefix of row[0, n) below v, 32 TRI_UNROLL elements at a time
 * with every load issued before the first probe, so a lane waits for one
 * load, not several.  The prefix's length is not searched for: the walk
 * stops at the first chunk that reaches v, which the row holds. */
template <int M, typename T>
__device__ __forceinline__ wm_u64 tri_stream(const Pivot &P, const T *row, uint32_t n, int lane) {
  wm_u64 cnt = 0;
  for (uint32_t c = 0;; c += 32u * TRI_UNROLL) {
    uint32_t w[TRI_UNROLL];
#pragma unroll
    for (int k = 0; k < TRI_UNROLL; k++) {
      uint32_t t = c + 32u * k + (uint32_t)lane;
      w[k] = t < n ? (uint32_t)__ldg(row + t) : DAG_EMPTY;
    }
#pragma unroll
    for (int k = 0; k < TRI_UNROLL; k++)
      if (w[k] < P.v) cnt += tri_probe<M>(P, w[k]);
    if (__shfl_sync(DAG_FULL, w[TRI_UNROLL - 1], 31) >= P.v) break;
  }
  return cnt;
}

/* Counts the triangles with pivot P.v and top vertex u in in[lo, hi), 32
 * in-neighbours at a time.  What is probed is the prefix of u's row below
 * v.  Prefixes of TRI_LONG or more (seen from one element, the
 * TRI_LONG-th) are streamed by the whole warp, one after the other
 * (coalesced, every lane busy); the shorter ones, whose length a search
 * of TRI_LONG elements finds, are walked as one concatenation, one element
 * per lane per step, each lane finding its element's owner in B.  A full
 * search of the row for v would be a large share of the work on Kronecker
 * graphs. */
template <int M, typename T>
__device__ wm_u64 tri_pivot(const wm_dag_args &A, const T *adj, const Pivot &P, const uint32_t *in,
                            uint32_t lo, uint32_t hi, Batch *B, int lane) {
  wm_u64 cnt = 0;
  for (uint32_t i0 = lo; i0 < hi; i0 += 32) {
    uint32_t i = i0 + (uint32_t)lane, len = 0, du = 0;
    wm_u64 row = 0;
    bool lng = false;
    if (i < hi) {
      uint32_t u = __ldg(in + i);
      row = __ldg(A.off + u);
      du = __ldg(A.dplus + u);
      const T *r = adj + row;
      lng = du > TRI_LONG && __ldg(r + TRI_LONG - 1) < P.v;
      if (!lng) len = dag_rank(r, du < TRI_LONG ? du : TRI_LONG, P.v);
    }
    for (unsigned longs = __ballot_sync(DAG_FULL, lng); longs; longs &= longs - 1) {
      int l = __ffs(longs) - 1;
      wm_u64 r = __shfl_sync(DAG_FULL, row, l);
      cnt += tri_stream<M>(P, adj + r, __shfl_sync(DAG_FULL, du, l), lane);
    }
    uint32_t incl = len;
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
          w[k] = __ldg(adj + B->row[l] + (t - first));
        }
      }
#pragma unroll
      for (int k = 0; k < TRI_UNROLL; k++)
        if (w[k] != DAG_EMPTY) cnt += tri_probe<M>(P, w[k]);
    }
  }
  return cnt;
}

/* One pivot's in-neighbours in[lo, hi), by the probe mode of its table
 * and, for a bitmap, the width of the ids it reads. */
__device__ __forceinline__ wm_u64 tri_pivot_any(int mode, const wm_dag_args &A, const Pivot &P, const uint32_t *in,
                                                uint32_t lo, uint32_t hi, Batch *B, int lane) {
  if (mode == TRI_BITS && A.adj16 && P.v < WM_TRI_NARROW)
    return tri_pivot<TRI_BITS>(A, A.adj16, P, in, lo, hi, B, lane);
  if (mode == TRI_BITS) return tri_pivot<TRI_BITS>(A, A.adj, P, in, lo, hi, B, lane);
  if (mode == TRI_HASH) return tri_pivot<TRI_HASH>(A, A.adj, P, in, lo, hi, B, lane);
  return tri_pivot<TRI_SEARCH>(A, A.adj, P, in, lo, hi, B, lane);
}

/* adj16[e] = min(adj[e], WM_TRI_NARROW - 1). */
__global__ void tri_narrow_kernel(const uint32_t *adj, uint16_t *adj16, wm_u64 m) {
  for (wm_u64 e = (wm_u64)blockIdx.x * blockDim.x + threadIdx.x; e < m; e += (wm_u64)gridDim.x * blockDim.x) {
    const uint32_t w = __ldg(adj + e);
    adj16[e] = (uint16_t)(w < WM_TRI_NARROW ? w : WM_TRI_NARROW - 1u);
  }
}

__global__ void __launch_bounds__(WM_TRI_LIGHT_WARPS * 32) tri_light_kernel(wm_dag_args A) {
  extern __shared__ uint32_t smem[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  uint32_t *tab = smem + warp * WM_TRI_LIGHT_SLOTS;
  Batch *B = (Batch *)(smem + WM_TRI_LIGHT_WARPS * WM_TRI_LIGHT_SLOTS) + warp;
  wm_u64 cnt = 0;
  uint32_t v0, v1;
  while (dag_grab_light(A, lane, v0, v1)) {
    for (uint32_t v = v0; v < v1; v++) {
      uint32_t d = __ldg(A.dplus + v);
      wm_u64 b = __ldg(A.off + v), e = __ldg(A.off + v + 1);
      uint32_t din = (uint32_t)(e - b) - d;
      if (d == 0 || din == 0 || wm_tri_is_heavy(d, din, A.light_in)) continue;
      Pivot P;
      P.plus = A.adj + b;
      P.d = d;
      P.v = v;
      const int mode = tri_build<false>(P, tab, WM_TRI_LIGHT_SLOTS, WM_TRI_LIGHT_BITS);
      cnt += tri_pivot_any(mode, A, P, A.adj + b + d, 0, din, B, lane);
      __syncwarp(); /* the table is rebuilt for the next pivot */
    }
  }
  dag_flush(A, cnt);
}

/* Heavy items: the whole block shares one table (a pivot's N+ is built
 * once per item, by all its warps), and its warps split the item's
 * in-neighbours, 32 at a time. */
/* Eight heavy blocks per SM: the kernel waits on memory (Nsight Compute
 * shows many cycles per issued instruction), and at the compiler's 50
 * registers only five fit.  The extra blocks gain more than the few spills
 * of 32 registers cost (BENCHMARKS.md). */
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
    if (threadIdx.x == 0) item = dag_take(A.next_heavy, A);
    __syncthreads();
    const wm_u64 t = item;
    if (t >= A.n_items) break;
    const wm_dag_item it = A.items[t];
    const wm_u64 b = __ldg(A.off + it.v);
    Pivot P;
    P.plus = A.adj + b;
    P.d = __ldg(A.dplus + it.v);
    P.v = it.v;
    const int mode = tri_build<true>(P, tab, WM_TRI_HEAVY_SLOTS, WM_TRI_HEAVY_BITS);
    for (uint32_t lo = it.lo + 32u * (uint32_t)warp; lo < it.hi; lo += 32u * WM_TRI_HEAVY_WARPS)
      cnt += tri_pivot_any(mode, A, P, A.adj + b + P.d, lo, lo + 32u < it.hi ? lo + 32u : it.hi, B, lane);
    __syncthreads(); /* the table and the item are replaced next */
  }
  dag_flush(A, cnt);
}

size_t light_smem(unsigned) { return (size_t)WM_TRI_LIGHT_WARPS * (WM_TRI_LIGHT_SLOTS * 4 + sizeof(Batch)); }
size_t heavy_smem(unsigned) { return (size_t)WM_TRI_HEAVY_SLOTS * 4 + WM_TRI_HEAVY_WARPS * sizeof(Batch); }

cudaError_t prepare(unsigned, int *light_per_sm, int *heavy_per_sm) {
  return dag_prepare(tri_light_kernel, WM_TRI_LIGHT_WARPS * 32, light_smem(3), tri_heavy_kernel, WM_TRI_HEAVY_WARPS * 32,
                     heavy_smem(3), light_per_sm, heavy_per_sm);
}

cudaError_t launch_light(const wm_dag_args *a, unsigned blocks, cudaStream_t s) {
  tri_light_kernel<<<blocks, WM_TRI_LIGHT_WARPS * 32, light_smem(3), s>>>(*a);
  return cudaGetLastError();
}

/* The 16-bit rows, which light pivots read as well as heavy ones: both
 * kernels start after it (launched concurrently, a light kernel could read
 * rows still being written and miss triangles). */
cudaError_t launch_first(const wm_dag_args *a, unsigned blocks, cudaStream_t s) {
  if (!a->adj16) return cudaSuccess;
  tri_narrow_kernel<<<blocks, 256, 0, s>>>(a->adj, a->adj16, a->m);
  return cudaGetLastError();
}

cudaError_t launch_heavy(const wm_dag_args *a, unsigned blocks, cudaStream_t s) {
  if (!a->n_items) return cudaSuccess;
  tri_heavy_kernel<<<blocks, WM_TRI_HEAVY_WARPS * 32, heavy_smem(3), s>>>(*a);
  return cudaGetLastError();
}

int split(const wm_graph *g, unsigned, uint64_t warps, wm_dag_split *s, wm_error *err) {
  return wm_dag_split_triangles(g, warps, s, err);
}

}  // namespace

extern const wm_dag_kernels wm_triangle_kernels = {
    "triangle kernel (pivot hashing, ids by degree)", light_smem, heavy_smem, WM_TRI_LIGHT_WARPS,
    WM_TRI_HEAVY_WARPS, prepare, launch_first, launch_light, launch_heavy, split, NULL, 1, 0, 0};
