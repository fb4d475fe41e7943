/* k-clique counting kernels, k = 4..WM_CLQ_KMAX, on the degree DAG.
 *
 * Each k-clique is counted once, at its top vertex v (the largest id), as a
 * (k-1)-clique of the subgraph induced by N+(v) = x_0 < ... < x_{d-1}.  That
 * subgraph is held as a lower-triangular bit matrix: row i has bit j (j < i)
 * when x_j is in N+(x_i).  Counting is then AND and popcount over rows:
 * with T = row i (the common neighbours of v and x_i below x_i),
 *   k = 4:  sum over l in T of popc(T & row l)     (edges inside T),
 *   k = 5:  sum over j in T of edges inside T & row j, and so on,
 * so the last level never enumerates: one popcount counts 32 cliques.  This
 * is the bitmap form of the k-clique listing of Chiba and Nishizeki on the
 * degree ordering (as in Danisch et al., WWW'18, and the binary-encoded GPU
 * counting of Almasri et al., ICS'22).
 *
 * Where the time goes and how it is spread:
 *  - Light pivots (|N+| <= WM_CLQ_LIGHT_D): one warp builds the matrix in
 *    its own shared memory and counts it (clq_light_kernel).
 *  - Heavy pivots: clq_build_kernel builds each matrix once into a device
 *    pool (a block per pivot, rows over the warps); clq_count_kernel then
 *    takes items of at most WM_CLQ_ROWS rows, a block per item, copying the
 *    matrix's rows [0, hi) into shared memory when they fit.  A block's
 *    warps take the item's rows, the heaviest (last) rows first.
 *  - Sets are indexed (struct Set): the list of their nonzero words with
 *    prefix popcounts, so that ANDs touch only nonzero words and the last
 *    level deals one element per lane, 32 at a time, however sparse the
 *    set, rather than scanning every word of a sparse set (BENCHMARKS.md
 *    has the comparison).
 * A matrix row is built either by streaming N+(x_i) through a hash table
 * of N+(v) (shared atomics), or, when N+(x_i) is long against i, by each
 * lane binary-searching an x_j in N+(x_i) and one ballot writing 32 bits. */
#include <climits>

#include "gpu_dag_util.cuh"

namespace {

constexpr int WARPS = WM_CLQ_WARPS;

/* Four count blocks per SM: with WM_CLQ_SMEM_D at 800 their shared memory
 * allows it (k <= 5), and 64 registers is what the compiler takes anyway.
 * Four blocks with smaller matrices in shared memory beat three with
 * larger ones, and the light kernel's registers are left uncapped, as a
 * cap for more blocks does not pay (chosen by measurement on the H100;
 * see BENCHMARKS.md). */
#ifndef WM_CLQ_COUNT_MINB
#define WM_CLQ_COUNT_MINB 4
#endif

__host__ __device__ constexpr uint32_t words_below(uint32_t i) { return (i + 31u) >> 5; }
constexpr uint32_t pow2_at_least(uint32_t x) {
  uint32_t p = 32;
  while (p < x) p <<= 1;
  return p;
}
__device__ __forceinline__ uint32_t row_off(uint32_t i) { return (uint32_t)WM_CLQ_ROW_OFFSET(i); }

/* Light warp's shared memory, in words: table keys and values, matrix,
 * level sets. */
constexpr uint32_t LIGHT_SLOTS = pow2_at_least(2 * WM_CLQ_LIGHT_D);
constexpr uint32_t LIGHT_MAT = WM_CLQ_ROW_OFFSET(WM_CLQ_LIGHT_D);
constexpr uint32_t LIGHT_STK = words_below(WM_CLQ_LIGHT_D);
constexpr uint32_t LIGHT_WORDS = 2 * LIGHT_SLOTS + LIGHT_MAT + WM_CLQ_STACK_WORDS(WM_CLQ_KMAX, LIGHT_STK);
/* Build block: table keys and values, a row buffer per warp. */
constexpr uint32_t BUILD_ROW = WM_CLQ_BUILD_SLOTS / 64;
constexpr uint32_t BUILD_WORDS = 2 * WM_CLQ_BUILD_SLOTS + WARPS * BUILD_ROW;
/* Count block: the matrix, then each warp's sets (WM_CLQ_STACK_WORDS(k,
 * STK) words). */
constexpr uint32_t SMEM_MAT = WM_CLQ_ROW_OFFSET(WM_CLQ_SMEM_D);
constexpr uint32_t STK = words_below(WM_CLQ_STACK_D);

/* N+(v) hashed: vertex -> its index in N+(v). */
struct Table {
  uint32_t *keys, *vals; /* keys NULL: no table */
  unsigned lg;
};

__device__ __forceinline__ uint32_t clq_lookup(const Table &t, uint32_t y) {
  const unsigned mask = (1u << t.lg) - 1u;
  for (unsigned h = dag_hash(y, 32u - t.lg);; h = (h + 1u) & mask) {
    uint32_t x = t.keys[h];
    if (x == y) return t.vals[h];
    if (x == DAG_EMPTY) return DAG_EMPTY;
  }
}

/* Row i of the matrix of N+(v) = plus[0, d) into out[0, words_below(i)).
 * Only N+(x_i) from x_0 on can meet N+(v).  Streaming costs one step per
 * such element, searching log2 of their number per j < i: the cheaper is
 * taken (and searching whenever there is no table). */
__device__ void clq_build_row(const wm_dag_args &A, const uint32_t *plus, const Table &t,
                              uint32_t i, uint32_t *out, int lane) {
  const uint32_t x = __ldg(plus + i);
  const uint32_t *row = A.adj + __ldg(A.off + x);
  const uint32_t n = __ldg(A.dplus + x);
  const uint32_t s = dag_rank(row, n, __ldg(plus));
  const uint32_t len = n - s, W = words_below(i);
  row += s;
  const uint32_t lg = 32u - (uint32_t)__clz((int)(len | 1u));
  if (!t.keys || (uint64_t)i * lg * 4u < len) {
    for (uint32_t c = 0; c < W; c++) {
      const uint32_t j = c * 32u + (uint32_t)lane;
      bool f = false;
      if (j < i) {
        const uint32_t xj = __ldg(plus + j), r = dag_rank(row, len, xj);
        f = r < len && __ldg(row + r) == xj;
      }
      const uint32_t word = __ballot_sync(DAG_FULL, f);
      if (lane == 0) out[c] = word;
    }
  } else {
    for (uint32_t c = (uint32_t)lane; c < W; c += 32) out[c] = 0;
    __syncwarp();
    for (uint32_t q = (uint32_t)lane; q < len; q += 32) {
      const uint32_t j = clq_lookup(t, __ldg(row + q));
      if (j != DAG_EMPTY) atomicOr(out + (j >> 5), 1u << (j & 31u));
    }
  }
  __syncwarp();
}

/* A set of matrix indices as the counting sees it: its words (only those
 * listed are ever read), the indices of its nonzero words L[0, n) in
 * ascending order, and P[t], the elements in words L[0..t]. */
struct Set {
  const uint32_t *words;
  uint32_t *L, *P;
  uint32_t n;
};

/* Appends to S.L / S.P the words c of x (one per lane, `valid` lanes) that
 * are nonzero; returns the new S.n. */
__device__ __forceinline__ uint32_t set_append(Set &S, uint32_t c, uint32_t x, uint32_t total_before,
                                               int lane) {
  const uint32_t nz = __ballot_sync(DAG_FULL, x != 0);
  uint32_t inc = (uint32_t)__popc(x);
  for (int d = 1; d < 32; d <<= 1) {
    uint32_t y = __shfl_up_sync(DAG_FULL, inc, d);
    if (lane >= d) inc += y;
  }
  if (x) {
    const uint32_t at = S.n + (uint32_t)__popc(nz & ((1u << lane) - 1u));
    S.L[at] = c;
    S.P[at] = total_before + inc;
  }
  return S.n + (uint32_t)__popc(nz);
}

/* Indexes row T (W words) into S. */
__device__ void set_index(Set &S, const uint32_t *T, uint32_t W, int lane) {
  S.words = T;
  S.n = 0;
  uint32_t total = 0;
  for (uint32_t c0 = 0; c0 < W; c0 += 32) {
    const uint32_t c = c0 + (uint32_t)lane, x = c < W ? T[c] : 0u;
    const uint32_t n = set_append(S, c, x, total, lane);
    total += __reduce_add_sync(DAG_FULL, (uint32_t)__popc(x));
    S.n = n;
  }
  __syncwarp();
}

/* C = S & row j, below j (words < Wj), into C's own words; returns |C|. */
__device__ uint32_t set_and(Set &C, uint32_t *cwords, const Set &S, const uint32_t *Rj, uint32_t Wj,
                            int lane) {
  C.words = cwords;
  C.n = 0;
  uint32_t total = 0;
  for (uint32_t t0 = 0; t0 < S.n; t0 += 32) {
    const uint32_t t = t0 + (uint32_t)lane;
    uint32_t c = 0, x = 0;
    if (t < S.n) {
      c = S.L[t];
      if (c < Wj) {
        x = S.words[c] & Rj[c];
        cwords[c] = x;
      }
    }
    const uint32_t n = set_append(C, c, x, total, lane);
    total += __reduce_add_sync(DAG_FULL, (uint32_t)__popc(x));
    C.n = n;
    if (__shfl_sync(DAG_FULL, c, 31) >= Wj) break; /* L ascends: the rest lie above j */
  }
  __syncwarp();
  return total;
}

/* The edges inside S: sum over l in S of popc(S & row l).  The elements
 * are dealt one per lane, 32 at a time, over S's nonzero words: a lane
 * finds its element's word by binary search in P, then ANDs row l with the
 * m nonzero words of S below l, starting at word (lane mod m) so that
 * lanes on rows of equal stride do not hit the same bank. */
__device__ wm_u64 clq_edges(const uint32_t *M, const Set &S, int lane) {
  if (!S.n) return 0;
  const uint32_t total = S.P[S.n - 1];
  wm_u64 acc = 0;
  for (uint32_t e0 = 0; e0 < total; e0 += 32) {
    const uint32_t e = e0 + (uint32_t)lane;
    if (e >= total) break;
    uint32_t lo = 0, hi = S.n - 1; /* the first t with P[t] > e */
    while (lo < hi) {
      const uint32_t mid = (lo + hi) >> 1;
      if (S.P[mid] > e)
        hi = mid;
      else
        lo = mid + 1;
    }
    const uint32_t t = lo, c = S.L[t], r = e - (t ? S.P[t - 1] : 0u);
    const uint32_t pos = __fns(S.words[c], 0, (int)r + 1);
    const uint32_t m = t + (pos > 0), l = c * 32u + pos;
    if (!m) continue;
    const uint32_t *R = M + row_off(l);
    uint32_t u = (uint32_t)lane % m;
    for (uint32_t k = 0; k < m; k++) {
      const uint32_t w = S.L[u];
      acc += (unsigned)__popc(S.words[w] & R[w]);
      if (++u == m) u = 0;
    }
  }
  return acc;
}

/* The R-cliques inside S, R >= 3: for each j in S (the whole warp), the
 * (R-1)-cliques inside S & row j, kept in the next level of stk. */
template <int R>
__device__ wm_u64 clq_descend(const uint32_t *M, const Set &S, uint32_t *stk, uint32_t stride, int lane) {
  wm_u64 acc = 0;
  Set C;
  C.L = stk + stride;
  C.P = stk + 2 * stride;
  for (uint32_t t = 0; t < S.n; t++) {
    const uint32_t c = S.L[t];
    uint32_t bits = S.words[c];
    while (bits) {
      const uint32_t j = c * 32u + (uint32_t)__ffs((int)bits) - 1u;
      bits &= bits - 1u;
      if (j + 1u < (uint32_t)R) continue; /* fewer than R - 1 rows below j */
      const uint32_t size = set_and(C, stk, S, M + row_off(j), words_below(j), lane);
      if (size + 1u >= (uint32_t)R) {
        if constexpr (R == 3)
          acc += clq_edges(M, C, lane);
        else
          acc += clq_descend<R - 1>(M, C, stk + 3 * stride, stride, lane);
      }
      __syncwarp(); /* C is rewritten for the next j */
    }
  }
  return acc;
}

/* The k-cliques whose two top vertices are v and x_i: (k-2)-cliques inside
 * row i.  stk: WM_CLQ_STACK_WORDS(k, stride) words. */
__device__ wm_u64 clq_count_row(const uint32_t *M, uint32_t i, uint32_t k, uint32_t *stk,
                                uint32_t stride, int lane) {
  Set S;
  S.L = stk;
  S.P = stk + stride;
  set_index(S, M + row_off(i), words_below(i), lane);
  uint32_t *below = stk + 2 * stride;
  switch (k) {
    case 4: return clq_edges(M, S, lane);
    case 5: return clq_descend<3>(M, S, below, stride, lane);
    case 6: return clq_descend<4>(M, S, below, stride, lane);
    case 7: return clq_descend<5>(M, S, below, stride, lane);
    case 8: return clq_descend<6>(M, S, below, stride, lane);
    default: return 0;
  }
}
static_assert(WM_CLQ_KMAX == 8, "clq_count_row dispatches k = 4..8");

__global__ void __launch_bounds__(WARPS * 32) clq_light_kernel(wm_dag_args A) {
  extern __shared__ uint32_t smem[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  uint32_t *mine = smem + warp * LIGHT_WORDS;
  Table t;
  t.keys = mine;
  t.vals = mine + LIGHT_SLOTS;
  uint32_t *M = mine + 2 * LIGHT_SLOTS, *stk = M + LIGHT_MAT;
  wm_u64 cnt = 0;
  unsigned last = 0; /* lane 0's clock at its last read of the stop word */
  uint32_t v0, v1;
  while (dag_grab_light(A, lane, v0, v1)) {
    for (uint32_t v = v0; v < v1; v++) {
      const uint32_t d = __ldg(A.dplus + v);
      if (d + 1u < A.k || d > WM_CLQ_LIGHT_D) continue;
      /* a grab is many pivots, and a grab reads the word only at its SM's
       * pace: per pivot too (a 6-clique count on Kronecker 19 answered 0.6 s
       * late) */
      bool stop = false;
      if (lane == 0) stop = wm_stop_due_every(A.stop, &last, WM_STOP_POLL_CYCLES_HOT);
      if (__shfl_sync(DAG_FULL, stop, 0)) break;
      const uint32_t *plus = A.adj + __ldg(A.off + v);
      t.lg = dag_log_slots(d);
      dag_table_fill<false>(t.keys, t.vals, t.lg, plus, d);
      for (uint32_t i = 1; i < d; i++) clq_build_row(A, plus, t, i, M + row_off(i), lane);
      for (uint32_t i = d - 1; i + 2u >= A.k; i--) cnt += clq_count_row(M, i, A.k, stk, LIGHT_STK, lane);
      __syncwarp(); /* the table and matrix are rebuilt for the next pivot */
    }
  }
  dag_flush(A, cnt);
}

/* A block per heavy pivot of the batch: its matrix into the pool. */
__global__ void __launch_bounds__(WARPS * 32) clq_build_kernel(wm_dag_args A) {
  extern __shared__ uint32_t smem[];
  __shared__ wm_u64 pick;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  uint32_t *buf = smem + 2 * WM_CLQ_BUILD_SLOTS + warp * BUILD_ROW;
  for (;;) {
    /* Static deal even over shared counters: the count kernel of every
     * device reads the items of the pivots this device builds.  Pivot p is
     * device p % ndev's whatever the batches, which processes sharing the
     * deal may cut apart. */
    if (threadIdx.x == 0)
      pick = wm_stop_asked(A.stop) ? A.p1
                                   : A.p0 + (A.dev + A.ndev - A.p0 % A.ndev) % A.ndev + atomicAdd(A.next_heavy, 1ull) * A.ndev;
    __syncthreads();
    const wm_u64 p = pick;
    if (p >= A.p1) break;
    const uint32_t v = __ldg(A.pivots + p), d = __ldg(A.dplus + v);
    const uint32_t *plus = A.adj + __ldg(A.off + v);
    Table t;
    t.keys = NULL;
    if (2u * d <= WM_CLQ_BUILD_SLOTS) {
      t.keys = smem;
      t.vals = smem + WM_CLQ_BUILD_SLOTS;
      t.lg = dag_log_slots(d);
      dag_table_fill<true>(t.keys, t.vals, t.lg, plus, d);
    }
    uint32_t *M = A.pool + (__ldg(A.base + p) - __ldg(A.base + A.p0));
    for (uint32_t i = 1 + (uint32_t)warp; i < d; i += WARPS) {
      uint32_t *dst = M + row_off(i);
      if (!t.keys) {
        clq_build_row(A, plus, t, i, dst, lane); /* searches: writes whole words */
        continue;
      }
      clq_build_row(A, plus, t, i, buf, lane);
      for (uint32_t c = (uint32_t)lane; c < words_below(i); c += 32) dst[c] = buf[c];
      __syncwarp();
    }
    __syncthreads(); /* the table and `pick` are replaced next */
  }
}

/* A block per item (rows [lo, hi) of a heavy pivot of this batch). */
__global__ void __launch_bounds__(WARPS * 32, WM_CLQ_COUNT_MINB) clq_count_kernel(wm_dag_args A) {
  extern __shared__ uint32_t smem[];
  __shared__ wm_u64 item;
  __shared__ unsigned next_row;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  wm_u64 cnt = 0;
  unsigned last = 0;
  for (;;) {
    if (threadIdx.x == 0) {
      item = wm_stop_asked(A.stop) ? A.n_items : atomicAdd(A.next_count, 1ull);
      next_row = 0;
    }
    __syncthreads();
    const wm_u64 t = item;
    if (t >= A.n_items) break;
    const wm_dag_item it = A.items[t];
    if (it.v % A.ndev != A.dev) {
      __syncthreads();
      continue;
    }
    const uint32_t d = __ldg(A.dplus + __ldg(A.pivots + it.v));
    const uint32_t *M = A.pool + (__ldg(A.base + it.v) - __ldg(A.base + A.p0));
    const uint32_t words = row_off(it.hi);
    if (words <= SMEM_MAT) {
      for (uint32_t w = threadIdx.x; w < words; w += blockDim.x) smem[w] = __ldg(M + w);
      M = smem;
    }
    __syncthreads();
    uint32_t *stk = smem + SMEM_MAT + warp * WM_CLQ_STACK_WORDS(A.k, STK), stride = STK;
    if (words_below(d) > STK) {
      stride = words_below(d);
      stk = A.stacks + ((wm_u64)blockIdx.x * WARPS + warp) * A.stack_words;
    }
    for (;;) {
      unsigned r = 0;
      if (lane == 0) r = wm_stop_due_every(A.stop, &last, WM_STOP_POLL_CYCLES_HOT) ? UINT_MAX : atomicAdd(&next_row, 1u); /* an item is many rows */
      r = __shfl_sync(DAG_FULL, r, 0);
      if (r >= it.hi - it.lo) break;
      const uint32_t i = it.hi - 1u - r;
      if (i + 2u < A.k) break; /* so are the rows after it */
      cnt += clq_count_row(M, i, A.k, stk, stride, lane);
    }
    __syncthreads(); /* the matrix and the item are replaced next */
  }
  dag_flush(A, cnt);
}

size_t light_smem(unsigned) { return (size_t)WARPS * LIGHT_WORDS * 4; }
size_t build_smem(void) { return (size_t)BUILD_WORDS * 4; }
size_t count_smem(unsigned k) { return ((size_t)SMEM_MAT + (size_t)WARPS * WM_CLQ_STACK_WORDS(k, STK)) * 4; }
size_t heavy_smem(unsigned k) { return count_smem(k) > build_smem() ? count_smem(k) : build_smem(); }

cudaError_t prepare(unsigned k, int *light_per_sm, int *heavy_per_sm) {
  cudaError_t e = cudaFuncSetAttribute(clq_light_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       (int)light_smem(k));
  if (e == cudaSuccess)
    e = cudaFuncSetAttribute(clq_build_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)build_smem());
  if (e == cudaSuccess)
    e = cudaFuncSetAttribute(clq_count_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)count_smem(k));
  int build = 0, count = 0;
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(light_per_sm, clq_light_kernel, WARPS * 32, light_smem(k));
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&build, clq_build_kernel, WARPS * 32, build_smem());
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&count, clq_count_kernel, WARPS * 32, count_smem(k));
  *heavy_per_sm = build < count ? build : count;
  return e;
}

cudaError_t launch_light(const wm_dag_args *a, unsigned blocks, cudaStream_t s) {
  clq_light_kernel<<<blocks, WARPS * 32, light_smem(a->k), s>>>(*a);
  return cudaGetLastError();
}

/* One batch: build its matrices, then count its items. */
cudaError_t launch_heavy(const wm_dag_args *a, unsigned blocks, cudaStream_t s) {
  if (a->p1 <= a->p0) return cudaSuccess;
  clq_build_kernel<<<blocks, WARPS * 32, build_smem(), s>>>(*a);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return e;
  clq_count_kernel<<<blocks, WARPS * 32, count_smem(a->k), s>>>(*a);
  return cudaGetLastError();
}

int split(const wm_graph *g, unsigned k, uint64_t, wm_dag_split *s, wm_error *err) {
  return wm_dag_split_cliques(g, k, s, err);
}

}  // namespace

extern const wm_dag_kernels wm_clique_kernels = {
    "clique kernel (bit matrices of N+, ids by degree)", light_smem, heavy_smem, WARPS, WARPS,
    prepare, NULL, launch_light, launch_heavy, split, NULL, 0, 1, 0};
