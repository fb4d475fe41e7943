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
 * Load balance: a thread checks up to THREAD_SCAN in-neighbours of its own
 * vertex; rows still unresolved after that are taken by the whole warp, one
 * row at a time, 32 neighbours per step, stopping at the first hit.
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
  const unsigned full = 0xffffffffu, lane = threadIdx.x & 31;
  /* the bound depends on the block only, so whole warps iterate together
   * and the ballots below see every lane */
  for (uint64_t base = (uint64_t)blockIdx.x * P::BLOCK; base < len; base += grid_threads()) {
    uint64_t i = base + threadIdx.x, j = 0, e = 0;
    uint32_t v = kNoVertex, found = kNoVertex;
    if (i < len) {
      v = list ? list[i] : (uint32_t)i;
      if (!list && s.status[v] != kUnreached) v = kNoVertex;
    }
    if (v != kNoVertex) {
      j = in.offsets[v];
      e = in.offsets[v + 1];
      uint64_t stop = e - j > (uint64_t)P::THREAD_SCAN ? j + P::THREAD_SCAN : e;
      for (; j < stop; j++) {
        uint32_t w = in.adj[j];
        if (is_parent<CACHE>(cache, s.status, w, level)) {
          found = w;
          break;
        }
      }
    }
    unsigned pending = __ballot_sync(full, v != kNoVertex && found == kNoVertex && j < e);
    while (pending) {
      int leader = __ffs(pending) - 1;
      pending &= pending - 1;
      uint64_t lj = __shfl_sync(full, j, leader), le = __shfl_sync(full, e, leader);
      uint32_t hit_w = kNoVertex;
      for (uint64_t chunk = lj; chunk < le; chunk += 32) {
        uint64_t k = chunk + lane;
        uint32_t w = 0;
        bool hit = false;
        if (k < le) {
          w = in.adj[k];
          hit = is_parent<CACHE>(cache, s.status, w, level);
        }
        unsigned hits = __ballot_sync(full, hit);
        if (hits) {
          hit_w = __shfl_sync(full, w, __ffs(hits) - 1);
          break;
        }
      }
      if ((int)lane == leader) found = hit_w;
    }
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
