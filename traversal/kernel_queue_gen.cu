/* Two-step frontier queue generation (Enterprise): no atomics on the queue,
 * no duplicates, each region in vertex order.
 *
 *  1. count:   each block scans its tile of the input (the status array or a
 *              list) and counts, per class, the vertices that qualify;
 *  2. scatter: each block sums the class-major block counts before its
 *              own (a few thousand words from L2, where a device-wide scan
 *              between the steps cost two more launches a generation),
 *              which gives every (class, block) its offset in the output,
 *              then rescans its tile round by round, each thread
 *              holding ITEMS consecutive items; a block scan of the round's
 *              class counts (packed in 11-bit fields) places every vertex,
 *              so the output keeps the input order.
 *
 * Top-down levels read the bitmap their visits marked (a word of 32
 * vertices a thread's item; bfs_gpu.cu), the baseline the status array;
 * a list (the sources, a levels kernel's last frontier, the frontier a
 * bottom-up step listed) is classified the same way.  The count step also
 * sums the frontier's out-degrees and hubs for the direction heuristic,
 * and records the frontier's hubs in the hub table that bottom-up blocks
 * cache (an atomicMax per hub on its slot: a cache, not part of the
 * queue). */
#include <cub/cub.cuh>

#include "bfs_gpu_internal.cuh"

namespace wm_bfs {
namespace {

using P = QueueGenPolicy;

/* Class of v (status st) in this generation, or -1; *deg gets its
 * out-degree when it is a frontier vertex. */
__device__ __forceinline__ int pick_class(const DevGraph &g, const QueueGenArgs &a, uint32_t v, uint32_t st,
                                          uint64_t *deg) {
  if (st != a.want) return -1;
  *deg = degree_of(g, v);
  return a.classify ? degree_class(*deg) : Q_SMALL;
}

__device__ __forceinline__ unsigned field(unsigned long long packed, int k) {
  return (unsigned)(packed >> (P::FIELD_BITS * k)) & ((1u << P::FIELD_BITS) - 1);
}

__device__ __forceinline__ unsigned long long one_of(int cls) {
  return cls >= 0 ? 1ull << (P::FIELD_BITS * cls) : 0ull;
}

__device__ __forceinline__ void tile_of(const QueueGenArgs &a, uint64_t *begin, uint64_t *end) {
  *begin = (uint64_t)blockIdx.x * a.tile;
  uint64_t e = *begin + a.tile;
  *end = e < a.len ? e : a.len;
}

/* The ITEMS consecutive items of this thread from `first` (blocked
 * arrangement, so that a block's items stay in input order): vertex ids and
 * their status.  Returns how many lie before `end`. */
__device__ __forceinline__ int load_items(const QueueGenArgs &a, const uint32_t *status, uint64_t first,
                                          uint64_t end, uint32_t (&v)[P::ITEMS], uint32_t (&st)[P::ITEMS]) {
  int n = first >= end ? 0 : end - first >= (uint64_t)P::ITEMS ? P::ITEMS : (int)(end - first);
  if (!a.in && n == P::ITEMS) {
    /* the range mode reads the status array itself: one aligned 16-byte
     * load (first is a multiple of ITEMS, cudaMalloc aligns to 256) */
    uint4 q = *reinterpret_cast<const uint4 *>(status + first);
    st[0] = q.x, st[1] = q.y, st[2] = q.z, st[3] = q.w;
#pragma unroll
    for (int k = 0; k < P::ITEMS; k++) v[k] = (uint32_t)(first + k);
    return n;
  }
#pragma unroll
  for (int k = 0; k < P::ITEMS; k++) {
    v[k] = k < n ? (a.in ? a.in[first + k] : (uint32_t)(first + k)) : 0;
  }
#pragma unroll
  for (int k = 0; k < P::ITEMS; k++) st[k] = k < n ? status[v[k]] : 0;
  return n;
}

/* One frontier vertex v of out-degree d and class cls into the thread's
 * tallies, and a hub into the hub table. */
__device__ __forceinline__ void tally(const QueueGenArgs &a, uint32_t v, uint64_t d, int cls, unsigned *c,
                                      unsigned *hubs, unsigned long long *edges) {
#pragma unroll
  for (int j = 0; j < Q_CLASSES; j++) c[j] += cls == j; /* constant indices: c stays in registers */
  *edges += d;
  if (d < a.hub_tau) return;
  (*hubs)++;
  if (a.hub_table) record_hub(a.hub_table, v, d);
}

/* The block's tallies into block_counts and the stats: warp sums, then one
 * shared-memory add per warp.  Every thread of the block calls it. */
__device__ __forceinline__ void block_totals(const QueueGenArgs &a, unsigned *c, unsigned hubs,
                                             unsigned long long edges) {
  __shared__ unsigned s_cnt[Q_CLASSES];
  __shared__ unsigned s_hubs;
  __shared__ unsigned long long s_edges;
  if (threadIdx.x < Q_CLASSES) s_cnt[threadIdx.x] = 0;
  if (threadIdx.x == 0) s_hubs = 0, s_edges = 0;
  __syncthreads();
  const unsigned full = 0xffffffffu;
#pragma unroll
  for (int k = 0; k < Q_CLASSES; k++) c[k] = __reduce_add_sync(full, c[k]);
  hubs = __reduce_add_sync(full, hubs);
  for (int off = 16; off > 0; off >>= 1) edges += __shfl_down_sync(full, edges, off);
  if ((threadIdx.x & 31) == 0) {
#pragma unroll
    for (int k = 0; k < Q_CLASSES; k++)
      if (c[k]) atomicAdd(&s_cnt[k], c[k]);
    if (hubs) atomicAdd(&s_hubs, hubs);
    if (edges) atomicAdd(&s_edges, edges);
  }
  __syncthreads();
  if (threadIdx.x < Q_CLASSES) a.block_counts[threadIdx.x * gridDim.x + blockIdx.x] = s_cnt[threadIdx.x];
  if (threadIdx.x == 0) {
    if (s_hubs) atomicAdd(&a.stats->hubs, s_hubs);
    if (s_edges) atomicAdd(&a.stats->frontier_edges, s_edges);
  }
}

__global__ void __launch_bounds__(P::BLOCK) queue_count_kernel(DevGraph g, const uint32_t *status,
                                                               QueueGenArgs a) {
  uint64_t begin, end;
  tile_of(a, &begin, &end);
  unsigned c[Q_CLASSES] = {}, hubs = 0;
  unsigned long long edges = 0;
  for (uint64_t r = begin; r < end; r += P::ROUND) {
    uint32_t v[P::ITEMS], st[P::ITEMS];
    int n = load_items(a, status, r + (uint64_t)P::ITEMS * threadIdx.x, end, v, st);
#pragma unroll
    for (int k = 0; k < P::ITEMS; k++) {
      if (k >= n) continue;
      uint64_t d = 0;
      int cls = pick_class(g, a, v[k], st[k], &d);
      if (cls >= 0) tally(a, v[k], d, cls, c, &hubs, &edges);
    }
  }
  block_totals(a, c, hubs, edges);
}

/* The count step's block_counts (class-major, over nblocks blocks) summed
 * for this block: base[k], the offset of class k's vertices of this block
 * in the output (every vertex of a lower class first, then class k's of
 * the blocks before), and offs, the regions' bounds.  Every thread of the
 * block calls it, once. */
__device__ __forceinline__ void class_bases(const QueueGenArgs &a, unsigned nblocks, unsigned (&base)[Q_CLASSES],
                                            unsigned (&offs)[Q_CLASSES + 1]) {
  __shared__ unsigned s_before[Q_CLASSES], s_total[Q_CLASSES];
  const unsigned full = 0xffffffffu;
  if (threadIdx.x < Q_CLASSES) s_before[threadIdx.x] = 0, s_total[threadIdx.x] = 0;
  __syncthreads();
  unsigned before[Q_CLASSES] = {}, total[Q_CLASSES] = {};
  for (unsigned b = threadIdx.x; b < nblocks; b += blockDim.x)
#pragma unroll
    for (int k = 0; k < Q_CLASSES; k++) {
      const unsigned x = a.block_counts[k * nblocks + b];
      total[k] += x;
      if (b < blockIdx.x) before[k] += x;
    }
#pragma unroll
  for (int k = 0; k < Q_CLASSES; k++) {
    before[k] = __reduce_add_sync(full, before[k]);
    total[k] = __reduce_add_sync(full, total[k]);
    if ((threadIdx.x & 31) == 0 && before[k]) atomicAdd(&s_before[k], before[k]);
    if ((threadIdx.x & 31) == 0 && total[k]) atomicAdd(&s_total[k], total[k]);
  }
  __syncthreads();
  offs[0] = 0;
#pragma unroll
  for (int k = 0; k < Q_CLASSES; k++) base[k] = offs[k] + s_before[k], offs[k + 1] = offs[k] + s_total[k];
}

/* Region bounds and the target's level, for the host's one read-back. */
__device__ __forceinline__ void write_totals(const uint32_t *status, const QueueGenArgs &a,
                                             const unsigned (&offs)[Q_CLASSES + 1]) {
  if (threadIdx.x == 0) {
#pragma unroll
    for (int k = 0; k <= Q_CLASSES; k++) a.stats->offs[k] = offs[k];
    a.stats->target_level = a.target == kNoVertex ? kUnreached : status[a.target];
  }
}

/* The scatter's two steps per vertex and per round: v of class cls at
 * its place in the output (base: the block's next slot per class; before:
 * the thread's exclusive prefix of the round's packed counts), and the
 * block's bases past the round (total: the round's counts). */
__device__ __forceinline__ void place(const QueueGenArgs &a, uint32_t v, int cls, const unsigned *base,
                                      unsigned long long *before) {
  unsigned at = 0;
#pragma unroll
  for (int j = 0; j < Q_CLASSES; j++)
    if (j == cls) at = base[j] + field(*before, j);
  a.out[at] = v;
  *before += one_of(cls);
}
__device__ __forceinline__ void next_round(unsigned *base, unsigned long long total) {
#pragma unroll
  for (int j = 0; j < Q_CLASSES; j++) base[j] += field(total, j);
  __syncthreads(); /* the scan's storage is reused by the next round */
}

__global__ void __launch_bounds__(P::BLOCK) queue_scatter_kernel(DevGraph g, const uint32_t *status,
                                                                 QueueGenArgs a) {
  typedef cub::BlockScan<unsigned long long, P::BLOCK> Scan;
  __shared__ typename Scan::TempStorage tmp;
  unsigned base[Q_CLASSES], offs[Q_CLASSES + 1];
  class_bases(a, gridDim.x, base, offs);

  uint64_t begin, end;
  tile_of(a, &begin, &end);
  for (uint64_t r = begin; r < end; r += P::ROUND) { /* block-uniform bound */
    uint32_t v[P::ITEMS], st[P::ITEMS];
    int cls[P::ITEMS];
    int n = load_items(a, status, r + (uint64_t)P::ITEMS * threadIdx.x, end, v, st);
    unsigned long long mine = 0, before, total;
#pragma unroll
    for (int k = 0; k < P::ITEMS; k++) {
      uint64_t d;
      cls[k] = k < n ? pick_class(g, a, v[k], st[k], &d) : -1;
      mine += one_of(cls[k]);
    }
    Scan(tmp).ExclusiveSum(mine, before, total);
#pragma unroll
    for (int k = 0; k < P::ITEMS; k++) {
      if (cls[k] >= 0) place(a, v[k], cls[k], base, &before);
    }
    next_round(base, total);
  }
  if (blockIdx.x == 0) write_totals(status, a, offs);
}

/* The bitmap mode (a.bits): a thread's item is one word, its set bits
 * the frontier vertices 32 w + b, in order; their classes (2 bits each)
 * kept for the scatter's second pass over them. */
__device__ __forceinline__ unsigned long long word_classes(const DevGraph &g, const QueueGenArgs &a, uint64_t w,
                                                           uint32_t bits, uint64_t *cls2, unsigned *c, unsigned *hubs,
                                                           unsigned long long *edges) {
  unsigned long long mine = 0;
  *cls2 = 0;
  for (uint32_t x = bits; x; x &= x - 1) {
    const int b = __ffs(x) - 1;
    const uint32_t v = (uint32_t)(32 * w + b);
    const uint64_t d = degree_of(g, v);
    const int cls = a.classify ? degree_class(d) : Q_SMALL;
    *cls2 |= (uint64_t)cls << (2 * b);
    mine += one_of(cls);
    if (c) tally(a, v, d, cls, c, hubs, edges); /* the count (the scatter wants the classes only) */
  }
  return mine;
}

/* queue_count_kernel for a.bits: BLOCK words a round. */
__global__ void __launch_bounds__(P::BLOCK) queue_count_bits_kernel(DevGraph g, QueueGenArgs a) {
  uint64_t begin, end;
  tile_of(a, &begin, &end);
  unsigned c[Q_CLASSES] = {}, hubs = 0;
  unsigned long long edges = 0;
  for (uint64_t w = begin + threadIdx.x; w < end; w += P::BLOCK) {
    uint64_t cls2;
    word_classes(g, a, w, a.bits[w], &cls2, c, &hubs, &edges);
  }
  block_totals(a, c, hubs, edges);
}

/* queue_scatter_kernel for a.bits. */
__global__ void __launch_bounds__(P::BLOCK) queue_scatter_bits_kernel(DevGraph g, const uint32_t *status,
                                                                      QueueGenArgs a) {
  typedef cub::BlockScan<unsigned long long, P::BLOCK> Scan;
  __shared__ typename Scan::TempStorage tmp;
  unsigned base[Q_CLASSES], offs[Q_CLASSES + 1];
  class_bases(a, gridDim.x, base, offs);
  uint64_t begin, end;
  tile_of(a, &begin, &end);
  for (uint64_t r = begin; r < end; r += P::BLOCK) { /* block-uniform bound */
    const uint64_t w = r + threadIdx.x;
    const uint32_t bits = w < end ? a.bits[w] : 0u;
    uint64_t cls2;
    unsigned long long mine = word_classes(g, a, w, bits, &cls2, NULL, NULL, NULL), before, total;
    Scan(tmp).ExclusiveSum(mine, before, total);
    for (uint32_t x = bits; x; x &= x - 1) {
      const int b = __ffs(x) - 1;
      place(a, (uint32_t)(32 * w + b), (int)(cls2 >> (2 * b)) & 3, base, &before);
    }
    next_round(base, total);
  }
  if (blockIdx.x == 0) write_totals(status, a, offs);
}

/* Used instead of the scatter when only the counts are wanted (the
 * status-array baseline): one block. */
__global__ void queue_totals_kernel(const uint32_t *status, QueueGenArgs a, unsigned nblocks) {
  unsigned base[Q_CLASSES], offs[Q_CLASSES + 1];
  class_bases(a, nblocks, base, offs);
  write_totals(status, a, offs);
}

}  // namespace


cudaError_t queue_gen_launch(const DevGraph &g, const uint32_t *status, const QueueGenArgs &a, int blocks,
                             int scatter, cudaStream_t st) {
  if (a.bits)
    queue_count_bits_kernel<<<blocks, P::BLOCK, 0, st>>>(g, a);
  else
    queue_count_kernel<<<blocks, P::BLOCK, 0, st>>>(g, status, a);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return e;
  if (scatter && a.bits)
    queue_scatter_bits_kernel<<<blocks, P::BLOCK, 0, st>>>(g, status, a);
  else if (scatter)
    queue_scatter_kernel<<<blocks, P::BLOCK, 0, st>>>(g, status, a);
  else
    queue_totals_kernel<<<1, P::BLOCK, 0, st>>>(status, a, (unsigned)blocks);
  return cudaGetLastError();
}

}  // namespace wm_bfs
