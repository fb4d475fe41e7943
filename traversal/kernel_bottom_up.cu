/* Bottom-up step at level L: every unvisited vertex v looks among its
 * in-neighbours for one on level L, stopping at the first.  v alone writes
 * its status and parent, so there are no races on them.
 *
 * Hub cache (Enterprise): each block first copies the hub table (frontier
 * hubs of level L, direct-mapped, the highest degree per slot, filled by
 * the queue generation of level L) into shared memory.  A neighbour found there is a parent without a global
 * status read.  It is sound because a cached hub w is on level L, so the
 * arc w -> v proves level[v] = L + 1.
 *
 * Load balance: first_hit_in_row's (bfs_gpu_internal.cuh), THREAD_SCAN
 * in-neighbours by a thread alone, then its warp.
 *
 * Input: the bottom-up queue (unvisited vertices, vertex order), or with
 * list == NULL every vertex, skipping visited ones (the status-array
 * baseline). */
#include "bfs_gpu_internal.cuh"

namespace wm_bfs {
namespace {

using P = BottomUpPolicy;

template <bool CACHE>
__device__ __forceinline__ bool is_parent(const uint32_t *cache, const uint32_t *status, uint32_t w,
                                          uint32_t level) {
  if (CACHE && cache[w & (P::CACHE - 1)] == w) return true;
  return status[w] == level;
}

template <bool CACHE>
__global__ void __launch_bounds__(P::BLOCK) bottom_up_kernel(DevGraph in, DevState s, const uint32_t *list,
                                                             uint32_t len, uint32_t level,
                                                             const unsigned long long *hub_table) {
  __shared__ uint32_t cache[CACHE ? P::CACHE : 1];
  if (CACHE) {
    for (int k = threadIdx.x; k < P::CACHE; k += P::BLOCK) {
      unsigned long long key = hub_table[k];
      cache[k] = key ? (uint32_t)key : kNoVertex; /* 0: empty slot */
    }
    __syncthreads();
  }
  /* the bound depends on the block only, so whole warps iterate together
   * and the ballots below see every lane */
  for (uint64_t base = (uint64_t)blockIdx.x * P::BLOCK; base < len; base += grid_threads()) {
    uint64_t i = base + threadIdx.x;
    uint32_t v = kNoVertex;
    if (i < len) {
      v = list ? list[i] : (uint32_t)i;
      if (!list && s.status[v] != kUnreached) v = kNoVertex;
    }
    const bool open = v != kNoVertex;
    const uint32_t found = first_hit_in_row(in.adj, open ? in.offsets[v] : 0, open ? in.offsets[v + 1] : 0, open,
                                            P::THREAD_SCAN, [&](uint32_t w) {
                                              return is_parent<CACHE>(cache, s.status, w, level);
                                            });
    if (found != kNoVertex) {
      s.status[v] = level + 1;
      if (s.parent) s.parent[v] = found;
    }
  }
}

}  // namespace

cudaError_t bottom_up_launch(const DevGraph &in, const DevState &s, const uint32_t *list, uint32_t len,
                             uint32_t level, const unsigned long long *hub_table, int sms,
                             cudaStream_t st) {
  if (len == 0) return cudaSuccess;
  uint64_t want = ((uint64_t)len + P::BLOCK - 1) / P::BLOCK, cap = (uint64_t)sms * P::BLOCKS_PER_SM;
  unsigned blocks = (unsigned)(want < cap ? want : cap);
  if (hub_table)
    bottom_up_kernel<true><<<blocks, P::BLOCK, 0, st>>>(in, s, list, len, level, hub_table);
  else
    bottom_up_kernel<false><<<blocks, P::BLOCK, 0, st>>>(in, s, list, len, level, hub_table);
  return cudaGetLastError();
}

}  // namespace wm_bfs
