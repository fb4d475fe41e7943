/* Diamond counting kernel: the diamond (two triangles sharing an edge)
 * counted as a subgraph is the sum over edges e of C(t(e), 2), t(e) the
 * triangles on e, since each diamond is one pair of triangles on its
 * middle edge.  So one pass of per-edge triangle counts replaces the stack
 * kernel's four-level search.
 *
 * Each edge v < u is taken once, at its lower id v (the pivot): v's whole
 * row N(v) goes into shared memory (a bitmap of every id when the graph is
 * small enough, else a hash table), and each u in N-(v), the part of v's
 * row above v, scans its own whole row against it: t(vu) = |N(u) & N(v)|.
 * With ids by descending degree the scanned rows are the short ends of
 * their edges and the tables the long ones.
 *
 * Load balance as in the triangle kernel (gpu_triangle_kernel.cu): light
 * pivots go a few consecutive ones per warp, heavy ones as (pivot, range of
 * N-) items taken by a whole block around one large table.  A heavy row
 * too large for the block's table when the graph's ids outnumber its bits
 * sets bits in a bitmap of every id in device memory, one per block, which
 * it clears again after the item.  32 rows at a time: rows of DIA_LONG or
 * more are streamed by the whole warp, one after the other; shorter ones
 * are walked as one concatenation, each hit added to its row's counter in
 * shared memory.
 *
 * BENCHMARKS.md compares it with the stack kernel's diamond plan. */
#include "gpu_dag_util.cuh"

namespace {

#ifndef WM_DIA_UNROLL
#define WM_DIA_UNROLL 4 /* loads in flight per lane while probing */
#endif
constexpr int DIA_UNROLL = WM_DIA_UNROLL;
#ifndef WM_DIA_LONG
#define WM_DIA_LONG 32u /* rows this long are streamed by the whole warp */
#endif
constexpr uint32_t DIA_LONG = WM_DIA_LONG;

enum { DIA_BITS, DIA_HASH };

struct Table {
  uint32_t *tab; /* a bitmap of every id (shared or device memory), or N(v) hashed */
  unsigned lg;   /* log2 of the hash table's slots */
};

template <int M>
__device__ __forceinline__ bool dia_probe(const Table &P, uint32_t w) {
  if (M == DIA_BITS) return (P.tab[w >> 5] >> (w & 31u)) & 1u;
  const unsigned mask = (1u << P.lg) - 1u;
  for (unsigned h = dag_hash(w, 32u - P.lg);; h = (h + 1u) & mask) {
    uint32_t x = P.tab[h];
    if (x == w) return true;
    if (x == DAG_EMPTY) return false;
  }
}

/* Sets row[0, d)'s bits in the zeroed bitmap tab, or clears them again,
 * by the warp or the whole block, which it leaves synchronised. */
template <bool BLOCK, bool SET>
__device__ void dia_bits(uint32_t *tab, const uint32_t *row, uint32_t d) {
  const unsigned tid = BLOCK ? threadIdx.x : (threadIdx.x & 31u), step = BLOCK ? blockDim.x : 32u;
  if (!SET) dag_sync<BLOCK>(); /* every probe of the pivot is done */
  for (unsigned k = tid; k < d; k += step) {
    const uint32_t w = __ldg(row + k);
    if (SET)
      atomicOr(tab + (w >> 5), 1u << (w & 31u));
    else
      tab[w >> 5] = 0;
  }
  dag_sync<BLOCK>();
}

/* Zeroes words [0, n) of a bitmap, by the warp or the block. */
template <bool BLOCK>
__device__ void dia_zero(uint32_t *tab, uint32_t n) {
  const unsigned tid = BLOCK ? threadIdx.x : (threadIdx.x & 31u), step = BLOCK ? blockDim.x : 32u;
  for (unsigned k = tid; k < n; k += step) tab[k] = 0;
  dag_sync<BLOCK>();
}

/* A warp's batch of 32 rows: lane l's short row is adj[row[l] ...], at
 * [incl[l - 1], incl[l]) of their concatenation, and hits[l] its count. */
struct Batch {
  uint32_t incl[32], hits[32];
  wm_u64 row[32];
};

__device__ __forceinline__ wm_u64 pairs_of(uint32_t t) { return (wm_u64)t * (t - 1) / 2; }

/* Hits of row[0, n) in the table, n >= DIA_LONG, DIA_UNROLL loads per lane
 * in flight; the warp's total on every lane. */
template <int M>
__device__ __forceinline__ uint32_t dia_stream(const Table &P, const uint32_t *row, uint32_t n, int lane) {
  uint32_t hits = 0;
  for (uint32_t c = 0; c < n; c += 32u * DIA_UNROLL) {
    uint32_t w[DIA_UNROLL];
#pragma unroll
    for (int k = 0; k < DIA_UNROLL; k++) {
      uint32_t t = c + 32u * k + (uint32_t)lane;
      w[k] = t < n ? __ldg(row + t) : DAG_EMPTY;
    }
#pragma unroll
    for (int k = 0; k < DIA_UNROLL; k++)
      if (w[k] != DAG_EMPTY) hits += dia_probe<M>(P, w[k]);
  }
  return __reduce_add_sync(DAG_FULL, hits);
}

/* Sum of C(t(vu), 2) over u in in[lo, hi), 32 rows at a time.  A lane's
 * sum goes through wm_partial_add: one edge adds up to C(2^32, 2), so a
 * partial, unlike the triangles' and cliques', could pass 2^64. */
template <int M>
__device__ wm_u64 dia_edges(const wm_dag_args &A, const Table &P, const uint32_t *in, uint32_t lo, uint32_t hi,
                            Batch *B, int lane) {
  wm_u64 cnt = 0;
  for (uint32_t i0 = lo; i0 < hi; i0 += 32) {
    const uint32_t i = i0 + (uint32_t)lane;
    uint32_t len = 0, du = 0;
    wm_u64 row = 0;
    if (i < hi) {
      const uint32_t u = __ldg(in + i);
      row = __ldg(A.off + u);
      du = (uint32_t)(__ldg(A.off + u + 1) - row);
    }
    const bool lng = du >= DIA_LONG;
    if (!lng) len = du;
    for (unsigned longs = __ballot_sync(DAG_FULL, lng); longs; longs &= longs - 1) {
      const int l = __ffs(longs) - 1;
      const wm_u64 r = __shfl_sync(DAG_FULL, row, l);
      const uint32_t t = dia_stream<M>(P, A.adj + r, __shfl_sync(DAG_FULL, du, l), lane);
      if (lane == l) wm_partial_add(&cnt, pairs_of(t), A.count);
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
    B->hits[lane] = 0;
    __syncwarp();
    for (uint32_t t0 = 0; t0 < total; t0 += 32u * DIA_UNROLL) {
      uint32_t w[DIA_UNROLL];
      int owner[DIA_UNROLL];
#pragma unroll
      for (int k = 0; k < DIA_UNROLL; k++) {
        const uint32_t t = t0 + 32u * k + (uint32_t)lane;
        w[k] = DAG_EMPTY;
        owner[k] = 0;
        if (t < total) {
          int l = 0; /* the first lane whose row ends after t */
          for (int step = 16; step; step >>= 1)
            if (B->incl[l + step - 1] <= t) l += step;
          const uint32_t first = l ? B->incl[l - 1] : 0;
          w[k] = __ldg(A.adj + B->row[l] + (t - first));
          owner[k] = l;
        }
      }
#pragma unroll
      for (int k = 0; k < DIA_UNROLL; k++)
        if (w[k] != DAG_EMPTY && dia_probe<M>(P, w[k])) atomicAdd(B->hits + owner[k], 1u);
    }
    __syncwarp();
    if (len) wm_partial_add(&cnt, pairs_of(B->hits[lane]), A.count);
  }
  return cnt;
}

__global__ void __launch_bounds__(WM_TRI_LIGHT_WARPS * 32) dia_light_kernel(wm_dag_args A) {
  extern __shared__ uint32_t smem[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  Table P;
  P.tab = smem + warp * WM_TRI_LIGHT_SLOTS;
  Batch *B = (Batch *)(smem + WM_TRI_LIGHT_WARPS * WM_TRI_LIGHT_SLOTS) + warp;
  const bool bits = wm_dia_light_bits(A.n);
  if (bits) dia_zero<false>(P.tab, (A.n + 31u) >> 5);
  wm_u64 cnt = 0;
  uint32_t v0, v1;
  while (dag_grab_light(A, lane, v0, v1)) {
    for (uint32_t v = v0; v < v1; v++) {
      const uint32_t dplus = __ldg(A.dplus + v);
      const wm_u64 b = __ldg(A.off + v);
      const uint32_t d = (uint32_t)(__ldg(A.off + v + 1) - b), din = d - dplus;
      if (din == 0 || wm_dia_is_heavy(A.n, d, din, A.light_in)) continue;
      const uint32_t *row = A.adj + b;
      if (bits) {
        dia_bits<false, true>(P.tab, row, d);
        wm_partial_add(&cnt, dia_edges<DIA_BITS>(A, P, row + dplus, 0, din, B, lane), A.count);
        dia_bits<false, false>(P.tab, row, d);
      } else {
        P.lg = dag_log_slots(d);
        dag_table_fill<false>(P.tab, NULL, P.lg, row, d);
        wm_partial_add(&cnt, dia_edges<DIA_HASH>(A, P, row + dplus, 0, din, B, lane), A.count);
        __syncwarp(); /* the table is refilled for the next pivot */
      }
    }
  }
  dag_flush(A, cnt);
}

/* Heavy items: the block builds the pivot's table once, and its warps
 * split the item's range of N-, 32 rows at a time.  The table is a bitmap
 * of every id in shared memory when the ids fit it, else N(v) hashed when
 * half the table holds it, else a bitmap in device memory (A.pool, n bits
 * per block). */
__global__ void __launch_bounds__(WM_TRI_HEAVY_WARPS * 32) dia_heavy_kernel(wm_dag_args A) {
  extern __shared__ uint32_t smem[];
  __shared__ wm_u64 item;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  Batch *B = (Batch *)(smem + WM_TRI_HEAVY_SLOTS) + warp;
  const bool bits = wm_dia_heavy_bits(A.n);
  const uint32_t words = (A.n + 31u) >> 5;
  uint32_t *global_bits = A.pool ? A.pool + (wm_u64)blockIdx.x * words : NULL;
  if (bits) dia_zero<true>(smem, words);
  wm_u64 cnt = 0;
  for (;;) {
    if (threadIdx.x == 0) item = dag_take(A.next_heavy, A);
    __syncthreads();
    const wm_u64 t = item;
    if (t >= A.n_items) break;
    const wm_dag_item it = A.items[t];
    const wm_u64 b = __ldg(A.off + it.v);
    const uint32_t d = (uint32_t)(__ldg(A.off + it.v + 1) - b);
    const uint32_t *row = A.adj + b, *in = row + __ldg(A.dplus + it.v);
    Table P;
    if (bits || 2u * d > WM_TRI_HEAVY_SLOTS) {
      P.tab = bits ? smem : global_bits;
      dia_bits<true, true>(P.tab, row, d);
      for (uint32_t lo = it.lo + 32u * (uint32_t)warp; lo < it.hi; lo += 32u * WM_TRI_HEAVY_WARPS)
        wm_partial_add(&cnt, dia_edges<DIA_BITS>(A, P, in, lo, lo + 32u < it.hi ? lo + 32u : it.hi, B, lane), A.count);
      dia_bits<true, false>(P.tab, row, d);
    } else {
      P.tab = smem;
      P.lg = dag_log_slots(d);
      dag_table_fill<true>(P.tab, NULL, P.lg, row, d);
      for (uint32_t lo = it.lo + 32u * (uint32_t)warp; lo < it.hi; lo += 32u * WM_TRI_HEAVY_WARPS)
        wm_partial_add(&cnt, dia_edges<DIA_HASH>(A, P, in, lo, lo + 32u < it.hi ? lo + 32u : it.hi, B, lane), A.count);
    }
    __syncthreads(); /* the table and the item are replaced next */
  }
  dag_flush(A, cnt);
}

size_t light_smem(unsigned) { return (size_t)WM_TRI_LIGHT_WARPS * (WM_TRI_LIGHT_SLOTS * 4 + sizeof(Batch)); }
size_t heavy_smem(unsigned) { return (size_t)WM_TRI_HEAVY_SLOTS * 4 + WM_TRI_HEAVY_WARPS * sizeof(Batch); }

cudaError_t prepare(unsigned, int *light_per_sm, int *heavy_per_sm) {
  return dag_prepare(dia_light_kernel, WM_TRI_LIGHT_WARPS * 32, light_smem(4), dia_heavy_kernel,
                     WM_TRI_HEAVY_WARPS * 32, heavy_smem(4), light_per_sm, heavy_per_sm);
}

cudaError_t launch_light(const wm_dag_args *a, unsigned blocks, cudaStream_t s) {
  dia_light_kernel<<<blocks, WM_TRI_LIGHT_WARPS * 32, light_smem(4), s>>>(*a);
  return cudaGetLastError();
}

cudaError_t launch_heavy(const wm_dag_args *a, unsigned blocks, cudaStream_t s) {
  if (!a->n_items) return cudaSuccess;
  dia_heavy_kernel<<<blocks, WM_TRI_HEAVY_WARPS * 32, heavy_smem(4), s>>>(*a);
  return cudaGetLastError();
}

int split(const wm_graph *g, unsigned, uint64_t warps, wm_dag_split *s, wm_error *err) {
  return wm_dag_split_diamonds(g, warps, s, err);
}

/* The heavy blocks' bitmaps of every id in device memory, for heavy rows
 * too long for a shared table when the ids outnumber a shared bitmap
 * (dia_heavy_kernel); the kernel clears what it sets. */
size_t scratch_bytes(const wm_graph *g, const wm_dag_split *s, unsigned heavy_blocks) {
  if (wm_dia_heavy_bits(g->n) || 2ull * s->max_heavy_d <= WM_TRI_HEAVY_SLOTS) return 0;
  return (size_t)heavy_blocks * ((g->n + 31) / 32) * 4;
}

}  // namespace

/* A 4-clique holds six diamonds (one per edge left out), none of them
 * induced. */
extern const wm_dag_kernels wm_diamond_kernels = {
    "diamond kernel (triangles per edge, ids by degree)", light_smem, heavy_smem, WM_TRI_LIGHT_WARPS,
    WM_TRI_HEAVY_WARPS, prepare, NULL, launch_light, launch_heavy, split, scratch_bytes, 0, 0, 6};
