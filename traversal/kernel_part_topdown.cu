/* Partitioned top-down step at level L, in two launches:
 *   queue: this part's frontier vertices (its words of F) into three
 *          queues by row length (below BIG_ROW, below HUGE_ROW, the rest), a
 *          warp-wide scan placing each lane's vertices;
 *   mark:  a warp per short row, a block per long row, the whole grid per
 *          huge row (one after another); each unvisited target (V clear)
 *          gets its bit in the whole-graph candidate bitmap.
 * The targets may belong to any part: the owners decide after the swap
 * (kernel_part_merge.cu).  A bit already set is read, not written again, so
 * the hubs' many arcs into one word cost reads, not atomics.  The marker
 * also leaves its vertex in tparent, the parent the merge uses when the
 * owner is this part.  In a sparse level the marker that sets a bit lists
 * the target and itself instead (a.list), for every part to apply
 * (kernel_part_sparse.cu). */
#include "bfs_part.cuh"

namespace wm_bfs {
namespace {

using P = PartPolicy;

__device__ __forceinline__ unsigned warp_exclusive(unsigned x, unsigned *total) {
  const unsigned lane = threadIdx.x & 31;
  unsigned inc = x;
  for (int d = 1; d < 32; d <<= 1) {
    unsigned y = __shfl_up_sync(0xffffffffu, inc, d);
    if ((int)lane >= d) inc += y;
  }
  *total = __shfl_sync(0xffffffffu, inc, 31);
  return inc - x;
}

__device__ __forceinline__ int row_class(uint64_t d) { return d < P::BIG_ROW ? 0 : d < P::HUGE_ROW ? 1 : 2; }

__global__ void __launch_bounds__(P::BLOCK) part_queue_kernel(PartLevel a) {
  const PartRows &out = a.out;
  const uint64_t words = ((uint64_t)(out.hi - out.lo) + 31) / 32;
  const uint64_t rounds = (words + 31) / 32 * 32; /* whole warps iterate together */
  unsigned *counter[3] = {&a.stats->nsmall, &a.stats->nbig, &a.stats->nhuge};
  uint32_t *queue[3] = {a.qsmall, a.qbig, a.qhuge};
  for (uint64_t k = global_thread(); k < rounds; k += grid_threads()) {
    uint32_t bits = k < words ? a.F[out.lo / 32 + k] : 0;
    unsigned n[3] = {0, 0, 0};
    for (uint32_t b = bits; b; b &= b - 1) n[row_class(part_degree(out, out.lo + 32 * (uint32_t)k + (__ffs(b) - 1)))]++;
    unsigned at[3];
    for (int q = 0; q < 3; q++) {
      unsigned total, base = 0;
      at[q] = warp_exclusive(n[q], &total);
      if ((threadIdx.x & 31) == 0 && total) base = atomicAdd(counter[q], total);
      at[q] += __shfl_sync(0xffffffffu, base, 0);
    }
    for (uint32_t b = bits; b; b &= b - 1) {
      uint32_t v = out.lo + 32 * (uint32_t)k + (__ffs(b) - 1);
      int q = row_class(part_degree(out, v));
      queue[q][at[q]++] = v;
    }
  }
}

/* u -> v: v's candidate bit, and u as its parent should the owner be this
 * part (racing markers all store a frontier vertex: any is right); sparse:
 * the one marker that set the bit lists (v, u). */
template <bool SPARSE>
__device__ __forceinline__ void mark(const PartLevel &a, uint32_t u, uint32_t v) {
  const uint32_t word = v >> 5, bit = 1u << (v & 31);
  if ((__ldg(&a.V[word]) & bit) || (a.cand[word] & bit)) return;
  if (!SPARSE) {
    if (a.tparent) a.tparent[v] = u;
    atomicOr(&a.cand[word], bit);
    return;
  }
  if (atomicOr(&a.cand[word], bit) & bit) return;
  const unsigned at = atomicAdd(&a.list[0], 1u);
  if (at < a.lcap) a.list[1 + 2 * (uint64_t)at] = v, a.list[2 + 2 * (uint64_t)at] = u;
}

/* The three queues one after another: they are independent, so one launch
 * serves them all. */
template <bool SPARSE>
__global__ void __launch_bounds__(P::BLOCK) part_mark_kernel(PartLevel a) {
  const unsigned lane = threadIdx.x & 31;
  const uint64_t warps = grid_threads() / 32;
  const uint32_t nsmall = a.stats->nsmall, nbig = a.stats->nbig, nhuge = a.stats->nhuge;
  for (uint64_t i = global_thread() / 32; i < nsmall; i += warps) {
    uint32_t u = a.qsmall[i];
    uint64_t j = part_row(a.out, u), e = part_row(a.out, u + 1);
    for (j += lane; j < e; j += 32) mark<SPARSE>(a, u, a.out.adj[j]);
  }
  for (uint64_t i = blockIdx.x; i < nbig; i += gridDim.x) {
    uint32_t u = a.qbig[i];
    uint64_t j = part_row(a.out, u), e = part_row(a.out, u + 1);
    for (j += threadIdx.x; j < e; j += blockDim.x) mark<SPARSE>(a, u, a.out.adj[j]);
  }
  for (uint32_t i = 0; i < nhuge; i++) {
    uint32_t u = a.qhuge[i];
    uint64_t j = part_row(a.out, u), e = part_row(a.out, u + 1);
    for (j += global_thread(); j < e; j += grid_threads()) mark<SPARSE>(a, u, a.out.adj[j]);
  }
}

}  // namespace

cudaError_t part_topdown_launch(const PartLevel &a, bool sparse, int sms, cudaStream_t st) {
  uint64_t words = ((uint64_t)(a.out.hi - a.out.lo) + 31) / 32;
  if (words == 0) return cudaSuccess;
  const unsigned cap = (unsigned)sms * P::BLOCKS_PER_SM; /* the queues' lengths are on the device */
  part_queue_kernel<<<part_grid(words, sms), P::BLOCK, 0, st>>>(a);
  if (sparse)
    part_mark_kernel<true><<<cap, P::BLOCK, 0, st>>>(a);
  else
    part_mark_kernel<false><<<cap, P::BLOCK, 0, st>>>(a);
  return cudaGetLastError();
}

}  // namespace wm_bfs
