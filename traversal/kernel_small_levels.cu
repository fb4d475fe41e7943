/* Small levels (PMPP 15.7): one block runs consecutive top-down levels with
 * a block-private frontier in shared memory, without returning to the host.
 *
 * Each level: the block prefix-sums the out-degrees of its frontier, then
 * every thread takes edges e = tid, tid + BLOCK, ... and finds the owning
 * vertex by binary search, so a hub in a small frontier is shared by all
 * threads.  A vertex is claimed with a compare-and-swap on its status (the
 * private frontier needs exactly one entry per vertex) and appended to the
 * next frontier with a shared-memory counter.
 *
 * It hands over to the full pipeline when the next frontier outgrows shared
 * memory (SMALL_OVERFLOW: that level is complete in the status array) or the
 * frontier has more edges than one block should expand (SMALL_EDGES: the
 * frontier is written to a.out); it stops at the end of the search
 * (SMALL_DONE), at max_depth (SMALL_DEPTH) or once the target is reached
 * (SMALL_TARGET).  stats->small_level and small_count describe the last
 * frontier. */
#include <cub/cub.cuh>

#include "bfs_gpu_internal.cuh"
#include "gpu_stop.cuh"

namespace wm_bfs {
namespace {

using P = SmallLevelPolicy;
typedef cub::BlockScan<unsigned long long, P::BLOCK> DegScan;

/* Largest i in [0, f) with pre[i] <= e (pre[0] = 0 <= e < pre[f]). */
__device__ __forceinline__ uint32_t owner(const uint32_t *pre, uint32_t f, uint32_t e) {
  uint32_t lo = 0, hi = f;
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (pre[mid] <= e) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* Reason to stop before expanding level L, or SMALL_NONE. */
__device__ __forceinline__ int stop_reason(const SmallArgs &a, uint32_t L, uint32_t f) {
  if (a.target != kNoVertex && a.s.status[a.target] != kUnreached) return SMALL_TARGET;
  if (L >= a.max_depth) return SMALL_DEPTH;
  if (f == 0) return SMALL_DONE;
  return SMALL_NONE;
}

__global__ void __launch_bounds__(P::BLOCK) small_levels_kernel(SmallArgs a) {
  extern __shared__ uint32_t smem[];
  __shared__ typename DegScan::TempStorage tmp;
  __shared__ uint32_t s_next;
  __shared__ int s_exit;
  uint32_t *cur = smem, *nxt = smem + a.capacity, *pre = smem + 2 * a.capacity;
  const uint32_t tid = threadIdx.x;

  uint32_t f = a.count, L = a.level;
  for (uint32_t i = tid; i < f; i += P::BLOCK) cur[i] = a.in[i];
  int reason = SMALL_NONE;
  unsigned polled = 0; /* thread 0's clock at its last read of the stop word */
  for (;;) {
    if (tid == 0) {
      s_exit = stop_reason(a, L, f), s_next = 0;
      if (s_exit == SMALL_NONE && wm_stop_due(a.stop, &polled)) s_exit = SMALL_STOPPED;
    }
    __syncthreads(); /* also publishes cur */
    reason = s_exit;
    if (reason != SMALL_NONE) break;

    /* out-degree prefix over the frontier: contiguous chunks per thread */
    uint32_t per = (f + P::BLOCK - 1) / P::BLOCK, lo = tid * per, hi = min(lo + per, f);
    unsigned long long sum = 0, before, total;
    for (uint32_t i = lo; i < hi; i++) sum += degree_of(a.g, cur[i]);
    DegScan(tmp).ExclusiveSum(sum, before, total);
    if (total > a.edge_budget) { /* total is the same in every thread */
      for (uint32_t i = tid; i < f; i += P::BLOCK) a.out[i] = cur[i];
      reason = SMALL_EDGES;
      break;
    }
    for (uint32_t i = lo; i < hi; i++) {
      pre[i] = (uint32_t)before;
      before += degree_of(a.g, cur[i]);
    }
    if (tid == 0) pre[f] = (uint32_t)total;
    __syncthreads();

    for (uint32_t e = tid; e < (uint32_t)total; e += P::BLOCK) {
      uint32_t i = owner(pre, f, e), u = cur[i];
      uint32_t v = a.g.adj[a.g.offsets[u] + (e - pre[i])];
      if (a.s.status[v] != kUnreached || atomicCAS(&a.s.status[v], kUnreached, L + 1) != kUnreached)
        continue;
      if (a.s.parent) a.s.parent[v] = u;
      uint32_t at = atomicAdd(&s_next, 1u);
      if (at < a.capacity) nxt[at] = v;
    }
    __syncthreads();
    f = s_next;
    L++;
    uint32_t *t = cur;
    cur = nxt;
    nxt = t;
    if (f > a.capacity) { /* uniform: every thread read the same s_next */
      reason = SMALL_OVERFLOW;
      break;
    }
    __syncthreads(); /* everyone has read s_next before thread 0 resets it */
  }
  if (tid == 0) {
    a.stats->small_level = L;
    a.stats->small_count = f;
    a.stats->small_exit = (unsigned)reason;
    a.stats->target_level = a.target == kNoVertex ? kUnreached : a.s.status[a.target];
  }
}

}  // namespace

cudaError_t small_levels_prepare(int device, uint32_t *capacity, size_t *smem_bytes) {
  int optin = 0;
  cudaError_t e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  if (e != cudaSuccess) return e;
  cudaFuncAttributes fa;
  if ((e = cudaFuncGetAttributes(&fa, small_levels_kernel)) != cudaSuccess) return e;
  /* three arrays of capacity entries: two frontiers and the degree prefix */
  size_t avail = (size_t)optin > fa.sharedSizeBytes + 1024 ? (size_t)optin - fa.sharedSizeBytes - 1024 : 0;
  size_t cap = avail / 4 / 3;
  if (cap > P::MAX_FRONTIER) cap = P::MAX_FRONTIER;
  cap &= ~(size_t)31;
  if (cap < 32) return cudaErrorInvalidConfiguration;
  *capacity = (uint32_t)cap;
  *smem_bytes = (3 * cap + 1) * sizeof(uint32_t);
  return cudaFuncSetAttribute(small_levels_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              (int)*smem_bytes);
}

cudaError_t small_levels_launch(const SmallArgs &a, size_t smem_bytes, cudaStream_t st) {
  small_levels_kernel<<<1, P::BLOCK, smem_bytes, st>>>(a);
  return cudaGetLastError();
}

}  // namespace wm_bfs
