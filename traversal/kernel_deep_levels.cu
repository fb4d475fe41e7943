/* Deep levels: a search of many small levels (a grid's or a road graph's
 * thousands) in one block of one launch, each level one round trip to
 * memory and one barrier.
 *
 * The small-level kernel pays a chain of dependent round trips per level:
 * the adjacency entry, then the head's status and its claim, then the
 * claimed vertex's row (2.4-2.7 µs a level on an H200, BENCHMARKS.md).
 * Here the visited set is a bitmap of every vertex in shared memory, so a
 * claim is a shared-memory atomic, and the rows are a padded copy of the
 * graph made once per context (ell: W = 2^shift slots a vertex, kNoVertex
 * past its degree), so slot x of a frontier entry is at v * W + x with no
 * offsets to read first.  What remains per level is the adjacency load,
 * whose K items per thread are in flight together, the claims and appends
 * in shared memory, and the barrier (where a level's time goes:
 * WM_BFS_TRACE, BENCHMARKS.md).  The claims' status and parent are stored
 * as they are made: held back to the next level's start, beside its loads,
 * they made every level slower.
 *
 * For graphs whose every out-degree is at most DeepLevelPolicy::MAX_WIDTH
 * and whose vertices' bits fit in shared memory beside two frontiers of
 * `capacity` entries (deep_levels_prepare says how many vertices); the host
 * starts a search here and hands it to the pipeline with the small-level
 * kernel's exits (SmallExit): SMALL_OVERFLOW when the next frontier
 * outgrows the capacity (the level is complete in the status array),
 * SMALL_EDGES when a frontier has more slots than one block should expand
 * (it is written to a.out), SMALL_DONE, SMALL_DEPTH, SMALL_TARGET and
 * SMALL_STOPPED as there.  Appends are warp-aggregated; three counters
 * rotate so that a level ends at one barrier (kernel_small_levels.cu). */
#include "bfs_gpu_internal.cuh"
#include "gpu_stop.cuh"

namespace wm_bfs {
namespace {

using P = DeepLevelPolicy;
constexpr int K = P::ITEMS;
constexpr unsigned FULL = 0xffffffffu;
enum { F_TARGET = 1, F_STOP = 2 };

/* A level's claims: how many (appended up to the capacity) and flags F_*. */
struct Claims {
  unsigned n, flags;
};

__global__ void ell_kernel(DevGraph g, uint32_t shift, uint32_t *ell) {
  const uint64_t items = (uint64_t)g.n << shift, mask = (1ull << shift) - 1;
  for (uint64_t i = global_thread(); i < items; i += grid_threads()) {
    const uint32_t v = (uint32_t)(i >> shift);
    const uint64_t at = g.offsets[v] + (i & mask);
    ell[i] = at < g.offsets[v + 1] ? g.adj[at] : kNoVertex;
  }
}

/* WM_BFS_TRACE: thread 0's clock at mark k of level L (the small-level
 * kernel's layout, tier 3); after x is in a register where given. */
__device__ inline void mark(const DeepArgs &a, uint32_t L, int k, unsigned long long v = 0) {
  if (!a.clk || threadIdx.x || L - a.trace_from >= (uint32_t)kSmallTraceLevels) return;
  a.clk[1 + kMarks * (L - a.trace_from) + k] = k == MARK_TIER ? v : (unsigned long long)clock64();
}
__device__ inline void mark_after(const DeepArgs &a, uint32_t L, int k, uint32_t x) {
  if (!a.clk) return;
  asm volatile("" ::"r"(x));
  mark(a, L, k);
}

/* What ends level L (its frontier c), or 0: go on. */
__device__ inline int decide(const DeepArgs &a, uint32_t L, const Claims &c) {
  if (c.flags & F_TARGET) return SMALL_TARGET;
  if (L >= a.max_depth) return SMALL_DEPTH;
  if (c.n == 0) return SMALL_DONE;
  if (c.flags & F_STOP) return SMALL_STOPPED;
  if (c.n > a.capacity) return SMALL_OVERFLOW;
  if (((uint64_t)c.n << a.shift) > P::ITEM_BUDGET) return SMALL_EDGES;
  return 0;
}

/* Level L's frontier cur[0, f) expanded into next (claims counted in nc). */
__device__ void expand(const DeepArgs &a, uint32_t *bits, const uint32_t *cur, uint32_t f, uint32_t *next,
                       Claims *nc, uint32_t L) {
  /* 32 bits: decide() bounds items by P::ITEM_BUDGET, and the bitmap in
   * shared memory bounds n far below 2^32 >> shift */
  const uint32_t items = f << a.shift, mask = (1u << a.shift) - 1;
  const unsigned lane = threadIdx.x & 31, warp_first = threadIdx.x & ~31u;
  for (uint32_t base = 0; base < items; base += (uint32_t)P::BLOCK * K) {
    uint32_t v[K], u[K];
    /* a warp leaves at its first round past the items (rounds past them
     * were most of a level's instructions where the frontier is small) */
    int rounds = 0;
#pragma unroll
    for (int r = 0; r < K; r++) { /* every load first: K round trips at once */
      if (base + (uint32_t)r * P::BLOCK + warp_first >= items) break;
      const uint32_t i = base + (uint32_t)r * P::BLOCK + threadIdx.x;
      v[r] = i < items ? cur[i >> a.shift] : kNoVertex;
      u[r] = v[r] != kNoVertex ? __ldg(&a.ell[(v[r] << a.shift) | (i & mask)]) : kNoVertex;
      rounds = r + 1;
    }
    if (!base) mark_after(a, L, MARK_ROW, rounds ? u[0] : 0u);
#pragma unroll
    for (int r = 0; r < K; r++) {
      if (r >= rounds) break; /* warp-uniform */
      bool won = false;
      if (u[r] != kNoVertex) {
        const uint32_t bit = 1u << (u[r] & 31);
        won = !(bits[u[r] >> 5] & bit) && !(atomicOr(&bits[u[r] >> 5], bit) & bit);
      }
      if (won) {
        a.s.status[u[r]] = L + 1;
        if (a.s.parent) a.s.parent[u[r]] = v[r];
        if (u[r] == a.target) atomicOr(&nc->flags, F_TARGET);
      }
      const unsigned m = __ballot_sync(FULL, won);
      if (!m) continue;
      const int lead = __ffs(m) - 1;
      unsigned at = 0;
      if ((int)lane == lead) at = atomicAdd(&nc->n, __popc(m));
      at = __shfl_sync(FULL, at, lead) + __popc(m & ((1u << lane) - 1));
      if (won && at < a.capacity) next[at] = u[r];
      if (!base && !r) mark_after(a, L, MARK_CLAIM, at);
    }
    if (!base) mark(a, L, MARK_APPEND);
  }
}

__global__ void __launch_bounds__(P::BLOCK, 1) deep_levels_kernel(DeepArgs a) {
  extern __shared__ uint32_t smem[];
  __shared__ Claims lv[3];
  const uint32_t cap = a.capacity, words = (uint32_t)(((uint64_t)a.n + 31) / 32);
  uint32_t *bits = smem, *queues = smem + words;
  for (uint32_t i = threadIdx.x; i < words; i += P::BLOCK) bits[i] = 0;
  if (threadIdx.x == 0) lv[0] = lv[1] = lv[2] = Claims{0, 0};
  __syncthreads();
  uint32_t L = a.level;
  if (a.clk && threadIdx.x == 0) a.clk[0] = (unsigned long long)clock64();
  uint32_t *cur = queues + (L & 1) * cap;
  for (uint32_t i = threadIdx.x; i < a.count; i += P::BLOCK) { /* the sources (a.count <= cap, no duplicates) */
    const uint32_t v = a.in[i];
    atomicOr(&bits[v >> 5], 1u << (v & 31));
    a.s.status[v] = L;
    if (a.s.parent) a.s.parent[v] = v;
    cur[i] = v;
    if (v == a.target) atomicOr(&lv[L % 3].flags, F_TARGET);
  }
  if (threadIdx.x == 0) lv[L % 3].n = a.count;
  __syncthreads();
  unsigned polled = 0; /* thread 0's clock at its last read of the stop word */
  for (;; L++) {
    const Claims c = lv[L % 3];
    cur = queues + (L & 1) * cap;
    const int step = decide(a, L, c);
    if (step) {
      if (step == SMALL_EDGES)
        for (uint32_t i = threadIdx.x; i < c.n; i += P::BLOCK) a.out[i] = cur[i];
      if (threadIdx.x == 0) {
        a.stats->small_level = L;
        a.stats->small_count = c.n;
        a.stats->small_exit = (unsigned)step;
        a.stats->target_level = a.target == kNoVertex ? kUnreached : a.s.status[a.target];
      }
      return;
    }
    mark(a, L, MARK_BEGIN);
    mark(a, L, MARK_TIER, 3);
    if (threadIdx.x == 0) { /* lv[(L + 2) % 3] was level L - 1's, read before the last barrier */
      lv[(L + 2) % 3] = Claims{0, 0};
      if (wm_stop_due(a.stop, &polled)) atomicOr(&lv[(L + 1) % 3].flags, F_STOP);
    }
    expand(a, bits, cur, c.n, queues + ((L + 1) & 1) * cap, &lv[(L + 1) % 3], L);
    mark(a, L, MARK_EXPANDED);
    __syncthreads();
    mark(a, L, MARK_PAST);
  }
}

/* The shared memory of a graph of n vertices: its bits and two frontiers of
 * `capacity` entries. */
size_t deep_smem(uint64_t n, uint32_t capacity) { return ((n + 31) / 32 + 2 * (uint64_t)capacity) * 4; }

}  // namespace

cudaError_t deep_levels_prepare(int device, uint64_t n, uint64_t maxdeg, uint32_t *shift, uint32_t *capacity,
                                size_t *smem_bytes) {
  *shift = 0, *capacity = 0, *smem_bytes = 0;
  if (maxdeg > P::MAX_WIDTH || !n) return cudaSuccess; /* not for this graph */
  int optin = 0;
  cudaError_t e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  cudaFuncAttributes fa;
  if (e == cudaSuccess) e = cudaFuncGetAttributes(&fa, deep_levels_kernel);
  if (e != cudaSuccess) return e;
  const size_t bytes = deep_smem(n, P::CAPACITY);
  if (bytes + fa.sharedSizeBytes > (size_t)optin) return cudaSuccess; /* too many vertices */
  e = cudaFuncSetAttribute(deep_levels_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
  if (e != cudaSuccess) return e;
  uint32_t s = 0;
  while ((1ull << s) < maxdeg) s++;
  *shift = s, *capacity = P::CAPACITY, *smem_bytes = bytes;
  return cudaSuccess;
}

cudaError_t deep_levels_ell(const DevGraph &g, uint32_t shift, uint32_t *ell, cudaStream_t st) {
  const uint64_t items = (uint64_t)g.n << shift, blocks = (items + 255) / 256;
  ell_kernel<<<(unsigned)(blocks < 4096 ? (blocks ? blocks : 1) : 4096), 256, 0, st>>>(g, shift, ell);
  return cudaGetLastError();
}

cudaError_t deep_levels_launch(const DeepArgs &a, size_t smem_bytes, cudaStream_t st) {
  deep_levels_kernel<<<1, P::BLOCK, smem_bytes, st>>>(a);
  return cudaGetLastError();
}

}  // namespace wm_bfs
